//! Speed of the conditions, single thread: `cargo bench --bench conditions`. First the
//! perft nodes per second of every condition from the same positions, with the ratio to
//! orthodox chess (issue 20 asks for at least 1/3), then a #3 and an h#3 solved under each
//! condition (the #3: one orthodox diagram played under every condition; the h#3: the one
//! shipped for the condition in `problems/`), each stopped after BENCH_LIMIT seconds
//! (default 60), then the costly cases of Combo and Tatarstan. Prints one line per
//! measurement; the figures are recorded in BENCHMARKS.md.

use chainmate::position::Position;
use chainmate::problem::{SourceFormat, load_file, parse_text};
use chainmate::rules::{Condition, Rules, combo, perft};
use chainmate::search::solve::{Settings, solve_twin};
use std::time::Instant;

#[path = "common/solve_file.rs"]
mod solve_file;
use solve_file::solve_problems;

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

/// (name, FEN, depth): the positions every condition's perft runs from.
const PERFT_POSITIONS: [(&str, &str, u32); 3] = [
    (
        "initial",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    ("cpw3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("castles", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3),
];

/// Perft nodes per second of each condition over the same positions (each counted again
/// until a quarter of a second has passed), against orthodox chess.
fn nodes_per_second() {
    println!(
        "{:<20} {:>12} {:>9} {:>10} {:>10}",
        "condition", "nodes", "s", "Mnodes/s", "/orthodox"
    );
    let mut orthodox = None;
    for &c in Condition::ALL {
        let rules = Rules::new(c);
        let (mut nodes, mut secs) = (0u64, 0f64);
        for (_, fen, depth) in PERFT_POSITIONS {
            let pos = Position::from_fen(fen).expect("fen");
            // Counted again until a quarter of a second has passed, for a steady rate.
            let t = Instant::now();
            loop {
                nodes += perft(&rules, &pos, depth);
                if t.elapsed().as_secs_f64() >= 0.25 {
                    break;
                }
            }
            secs += t.elapsed().as_secs_f64();
        }
        let nps = nodes as f64 / secs;
        let base = *orthodox.get_or_insert(nps);
        println!(
            "{:<20} {nodes:>12} {secs:>9.3} {:>10.3} {:>10.4}",
            c.name(),
            nps / 1e6,
            nps / base
        );
    }
}

/// Solves every twin of a problem with one thread, stopped after `limit` seconds.
fn solve_limited(label: &str, problems: &[chainmate::problem::Problem], limit: f64) {
    let s = solve_problems(problems, limit, 1, Settings::default().hash_mb);
    println!(
        "{label:<60} {:>9.3} s {:>10} nodes {:>4} keys or lines{}",
        s.secs,
        s.nodes,
        s.solutions,
        if s.complete {
            ""
        } else {
            "  STOPPED AT THE LIMIT"
        }
    );
}

/// A #3 under every condition (one orthodox diagram, d3_2407, with the condition set), and
/// each condition's own h#3 from `problems/`.
fn per_condition_problems(limit: f64) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let h3 = [
        (Condition::Orthodox, "tests/data/popeye/h3_0659.inp"),
        (Condition::Circe, "problems/circe/02_h3_rebirth.inp"),
        (Condition::Madrasi, "problems/madrasi/02_h3_paralysis.inp"),
        (Condition::Teleport, "problems/teleport/07_help3.yaml"),
        (
            Condition::PocketMutation,
            "problems/pocket-mutation/06_help3.yaml",
        ),
        (Condition::Kazan, "problems/kazan/06_help3.yaml"),
        (Condition::Tatarstan, "problems/tatarstan/08_help3.yaml"),
        (Condition::Combo, "problems/combo/07_help3.yaml"),
    ];
    for &c in Condition::ALL {
        let options = match c {
            Condition::Orthodox => String::new(),
            _ => format!("options: [{}]\n", c.name()),
        };
        let yaml = format!(
            "stipulation: \"#3\"\n{options}algebraic:\n  white: [Ka6, Se6, Pa7, Pb2]\n  black: [Ka8, Se8, Pc3, Pc6]\n"
        );
        let p = parse_text("bench.yaml", &yaml, SourceFormat::Yaml).expect("bench #3");
        solve_limited(&format!("{}: #3 (d3_2407's diagram)", c.name()), &p, limit);
        if let Some((_, file)) = h3.iter().find(|(x, _)| *x == c) {
            let p = load_file(&root.join(file)).expect("shipped h#3");
            solve_limited(&format!("{}: h#3 ({file})", c.name()), &p, limit);
        }
    }
}

fn main() {
    let limit: f64 = std::env::var("BENCH_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    nodes_per_second();
    per_condition_problems(limit);
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
