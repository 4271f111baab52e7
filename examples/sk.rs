use shakmaty::{fen::Fen, CastlingMode, Chess, Position};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let fen: Fen = a[1].parse().unwrap();
    let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    for m in pos.legal_moves() { print!("{} ", m.to_uci(CastlingMode::Standard)); }
    println!("\n{}", shakmaty::perft(&pos, a[2].parse().unwrap()));
}
