//! Speed of the costly conditions (Combo, Tatarstan), single thread:
//! `cargo bench --bench conditions`. Prints one line per measurement; the figures are
//! recorded in BENCHMARKS.md.

use chainmate::position::Position;
use chainmate::problem::{SourceFormat, parse_text};
use chainmate::rules::{Condition, Rules, combo, perft};
use chainmate::search::solve::{Settings, solve_twin};
use std::time::Instant;

fn time<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    println!("{label:<60} {:>9.3} s", t.elapsed().as_secs_f64());
    r
}

fn solve(label: &str, yaml: &str) {
    let p = &parse_text("bench.yaml", yaml, SourceFormat::Yaml).expect("bench problem")[0];
    let t = p.twin_instances().expect("twin").remove(0);
    let rules = Rules::new(t.condition);
    let settings = Settings {
        threads: 1,
        // The table size the recorded figures were measured with (BENCHMARKS.md).
        hash_mb: 256,
        ..Settings::default()
    };
    let r = time(label, || solve_twin(&t.search_input(), &rules, &settings));
    println!("    keys: {}", r.keys.len());
}

fn main() {
    let c = Rules::new(Condition::Combo);
    // The seed game's position after 3...[Qg2+; Bh3]: White is in combo check.
    let seed = Position::from_fen("rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPNNPqP/1RB1QRK1 w kq - 0 1")
        .expect("fen");
    let n = time("combo: all legal combos after 3...[Qg2+; Bh3]", || {
        c.legal_moves(&seed).len()
    });
    println!("    legal combos: {n}");
    let n = time("combo: perft(3) from the initial array", || {
        perft(&c, &Position::initial(), 3)
    });
    println!("    nodes: {n}");
    // A crowded claim: the position after 2.[Qe1; O-O; Ne2; e3], Black claiming.
    let crowded =
        Position::from_fen("rnq1kbnr/pbpppppp/1p6/8/8/4P1P1/PPPPNPBP/RNB1QRK1 b kq - 0 1")
            .expect("fen");
    // The work of a claim that holds: for every combo of the claimant, an enemy combo
    // that captures the king is searched (the exhaustive walk); here most searches fail,
    // which is the costly case.
    let work = time("combo: claim proof work on a crowded position", || {
        let them = crowded.side.flip();
        let check = combo::king_capture(&crowded, them, &c).is_some();
        let moves = combo::moves_with_steps(&crowded, &c);
        let refuted = moves
            .iter()
            .filter(|(after, _)| combo::king_capture(after, after.side, &c).is_some())
            .count();
        (check, moves.len(), refuted)
    });
    println!("    (in check, combos, refuted by a capture): {work:?}");
    // The shipped Combo #2 problems.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/combo");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml"))
    {
        let text = std::fs::read_to_string(f).expect("problem file");
        if text.contains("\"#2\"") || text.contains("\"#3\"") {
            solve(
                &format!("combo: {}", f.file_name().unwrap().to_string_lossy()),
                &text,
            );
        }
    }
    let t = Rules::new(Condition::Tatarstan);
    let n = time("tatarstan: perft(3) from the initial array", || {
        perft(&t, &Position::initial(), 3)
    });
    println!("    nodes: {n}");
    let t0 = Rules::new(Condition::TatarstanNoChains);
    let n = time(
        "tatarstan-nochains: perft(4) from the initial array",
        || perft(&t0, &Position::initial(), 4),
    );
    println!("    nodes: {n}");
    solve(
        "tatarstan: #2 (the crowded bench_01 position)",
        "stipulation: \"#2\"\noptions: [Tatarstan]\nfen: 3R1B1K/5p2/2p2p2/b1rPNP1n/q1rkNP2/1Pp2Q1p/1n6/5B2\n",
    );
}
