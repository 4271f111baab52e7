//! Perft speed: chainmate's generator against shakmaty (a fast orthodox-only Rust move
//! generator) on the same positions in the same run. `cargo bench --bench perft`.
//! Each position is counted five times by each generator, alternately, and the best time of
//! each is kept, so that a burst of load on a shared machine does not decide the ratio.

use shakmaty::{CastlingMode, Chess, fen::Fen};
use std::time::Instant;

const ROUNDS: usize = 5;

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
        ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
        (
            "cpw4",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            5,
        ),
        (
            "cpw5",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            4,
        ),
    ];
    println!(
        "{:<10} {:>5} {:>12} {:>10} {:>10} {:>8}",
        "position", "depth", "nodes", "ours Mn/s", "shak Mn/s", "ratio"
    );
    let mut ratios = Vec::new();
    for (name, fen, depth) in cases {
        let pos = chainmate::position::Position::from_fen(fen).unwrap();
        let rules = chainmate::rules::Rules::default();
        let sp: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let (mut ours_s, mut theirs_s) = (f64::MAX, f64::MAX);
        let (mut ours, mut theirs) = (0, 0);
        for _ in 0..ROUNDS {
            let t = Instant::now();
            ours = chainmate::rules::perft(&rules, &pos, depth);
            ours_s = ours_s.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            theirs = shakmaty::perft(&sp, depth);
            theirs_s = theirs_s.min(t.elapsed().as_secs_f64());
        }
        assert_eq!(ours, theirs, "perft mismatch on {name}");
        let o = ours as f64 / ours_s / 1e6;
        let s = theirs as f64 / theirs_s / 1e6;
        ratios.push(o / s);
        println!(
            "{name:<10} {depth:>5} {ours:>12} {o:>10.1} {s:>10.1} {:>8.2}",
            o / s
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!("median ratio {:.2}", ratios[ratios.len() / 2]);
}
