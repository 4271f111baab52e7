use chainmate::position::Position;
use chainmate::rules::{Rules, perft};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let pos = Position::from_fen(&a[1]).unwrap();
    println!("{}", pos.to_fen());
    for d in 1..=a[2].parse().unwrap() { println!("{d} {}", perft(&Rules::default(), &pos, d)); }
}
