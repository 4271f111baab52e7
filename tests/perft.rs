//! Perft against public suites: the chessprogramming-wiki positions and the classic
//! 126-position `perftsuite.epd` (tests/data/perft/). Run in release mode for speed:
//! `cargo test --release`.

use chainmate::position::Position;
use chainmate::rules::{Rules, perft};

fn check(fen: &str, depth: u32, expected: u64) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let got = perft(&Rules::default(), &pos, depth);
    assert_eq!(got, expected, "perft({depth}) of {fen}");
}

/// The six positions of the chessprogramming wiki "Perft Results" page.
#[test]
fn wiki_positions() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    );
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    );
    check("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624);
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        422_333,
    );
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
        2_103_487,
    );
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
        3_894_594,
    );
}

/// perftsuite.epd: `FEN ;D1 n ;D2 n ...`, every position to depth 4.
#[test]
fn perftsuite_epd_depth_4() {
    let text = include_str!("data/perft/perftsuite.epd");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        for field in parts {
            let mut f = field.split_whitespace();
            let d: u32 = f.next().unwrap()[1..].parse().unwrap();
            let n: u64 = f.next().unwrap().parse().unwrap();
            if d <= 4 {
                check(fen, d, n);
            }
        }
        count += 1;
    }
    assert_eq!(count, 127, "perftsuite.epd has 127 positions");
}
