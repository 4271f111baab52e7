use clap::Parser;

fn main() {
    let cli = chainmate::cli::Cli::parse();
    std::process::exit(chainmate::app::run(cli));
}
