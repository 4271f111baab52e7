//! Solving speed on the Popeye timing set (tests/data/popeye/bench, see BENCH.md there):
//! each problem solved with 1 thread and with 2 threads; when the environment variable
//! POPEYE names a Popeye binary, Popeye solves the same input in the same run and the
//! ratio is printed. Every result is also checked against Popeye's stored output.
//!
//! `cargo bench --bench solve` (all 18), `BENCH_ONLY=01,02 cargo bench --bench solve`,
//! `POPEYE=/path/to/py cargo bench --bench solve`.

#[allow(dead_code)]
#[path = "../tests/common/solution_text.rs"]
mod solution_text;
#[path = "common/solve_file.rs"]
mod solve_file;
use solution_text::{diff, parse};
use solve_file::{bench_only, cpu_seconds, median, solve_file};
use std::process::Command;
use std::time::Instant;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/popeye/bench");

/// Solves with a time limit (BENCH_LIMIT seconds, default 120) and the table size the
/// recorded figures were measured with (BENCHMARKS.md, 256 MB); returns the seconds, the
/// process's CPU seconds (all threads), the printed solution, the nodes and whether the
/// search finished.
fn solve(file: &str, threads: usize) -> (f64, f64, String, u64, bool) {
    let limit: f64 = std::env::var("BENCH_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120.0);
    let cpu = cpu_seconds();
    let (t, text, nodes, done) = solve_file(file, limit, threads, 256);
    (t, cpu_seconds() - cpu, text, nodes, done)
}

fn main() {
    let only = bench_only();
    let popeye = std::env::var("POPEYE").ok();
    println!(
        "{:<10} {:>8} {:>12} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "problem",
        "stip",
        "nodes",
        "1T s",
        "1T cpu",
        "2T s",
        "2T cpu",
        "1T/2T",
        "popeye s",
        "py/1T"
    );
    let mut ratios = vec![];
    for i in 1..=18 {
        let id = format!("{i:02}");
        if only.as_ref().is_some_and(|o| !o.contains(&id)) {
            continue;
        }
        let file = format!("{DIR}/bench_{id}.inp");
        let expected = std::fs::read_to_string(format!("{DIR}/bench_{id}.out")).unwrap_or_default();
        let stip = std::fs::read_to_string(&file)
            .unwrap_or_default()
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Stipulation")
                    .map(|s| s.trim().to_string())
            })
            .unwrap_or_default();
        let (t1, c1, text, nodes, done1) = solve(&file, 1);
        let d = diff(&parse(&expected), &parse(&text));
        let (t2, c2, _, _, done2) = solve(&file, 2);
        let py = popeye.as_ref().map(|bin| {
            let t = Instant::now();
            let _ = Command::new(bin)
                .args(["-maxmem", "512M", "-regression", &file])
                .output();
            t.elapsed().as_secs_f64()
        });
        let (py_s, ratio) = match py {
            Some(p) => {
                ratios.push(p / t1);
                (format!("{p:.3}"), format!("{:.2}", p / t1))
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "bench_{id:<4} {stip:>8} {nodes:>12} {t1:>9.3} {c1:>9.2} {t2:>9.3} {c2:>9.2} {:>9.2} {py_s:>9} {ratio:>8}{}",
            t1 / t2,
            if !(done1 && done2) {
                "  STOPPED AT THE TIME LIMIT"
            } else if d.is_empty() {
                ""
            } else {
                "  OUTPUT DIFFERS FROM POPEYE"
            }
        );
    }
    if !ratios.is_empty() {
        println!(
            "median popeye/chainmate(1 thread): {:.2}",
            median(&mut ratios)
        );
    }
}
