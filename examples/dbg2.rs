use chainmate::position::Position;
use chainmate::rules::Rules;
use chainmate::core::square_name;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let pos = Position::from_fen(&a[1]).unwrap();
    for (m, _) in Rules::default().legal_moves(&pos) { print!("{}{} ", square_name(m.from), square_name(m.to)); }
    println!();
}
