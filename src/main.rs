fn main() {
    eprintln!("chainmate: under construction");
    std::process::exit(2);
}
