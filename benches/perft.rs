//! Perft speed: chainmate's generator against shakmaty (a fast orthodox-only Rust move
//! generator) on the same positions in the same run. `cargo bench --bench perft`.

use shakmaty::{CastlingMode, Chess, fen::Fen};
use std::time::Instant;

fn main() {
    let cases = [
        (
            "initial",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5u32,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
    ];
    println!(
        "{:<10} {:>5} {:>12} {:>10} {:>10} {:>8}",
        "position", "depth", "nodes", "ours Mn/s", "shak Mn/s", "ratio"
    );
    for (name, fen, depth) in cases {
        let pos = chainmate::position::Position::from_fen(fen).unwrap();
        let rules = chainmate::rules::Rules::default();
        let t = Instant::now();
        let ours = chainmate::rules::perft(&rules, &pos, depth);
        let ours_s = t.elapsed().as_secs_f64();
        let sp: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let t = Instant::now();
        let theirs = shakmaty::perft(&sp, depth);
        let theirs_s = t.elapsed().as_secs_f64();
        assert_eq!(ours, theirs, "perft mismatch on {name}");
        let o = ours as f64 / ours_s / 1e6;
        let s = theirs as f64 / theirs_s / 1e6;
        println!(
            "{name:<10} {depth:>5} {ours:>12} {o:>10.1} {s:>10.1} {:>8.2}",
            o / s
        );
    }
}
