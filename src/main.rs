use clap::Parser;

fn main() {
    // Output piped into `head` and the like ends quietly instead of panicking on a closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = chainmate::cli::Cli::parse();
    std::process::exit(chainmate::app::run(cli));
}
