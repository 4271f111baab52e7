use chainmate::solution_text::{diff, parse};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let e = std::fs::read_to_string(&a[1]).unwrap();
    let g = std::fs::read_to_string(&a[2]).unwrap();
    let d = diff(&parse(&e), &parse(&g));
    for l in &d { println!("{l}"); }
    if d.is_empty() { println!("SAME"); }
}
