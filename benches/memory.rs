//! Peak memory against Popeye (issue 20, part 2): each problem solved by the chainmate
//! binary with one thread and the default `--hash`, and, when the environment variable
//! POPEYE names a Popeye binary, by Popeye (`-maxmem 512M -regression`) in the same run.
//! Each process's peak resident memory and CPU time come from `wait4`; the table's size at
//! the end from chainmate's JSON output.
//!
//! `POPEYE=/path/to/py cargo bench --bench memory`, `BENCH_ONLY=d6_0165,mt6 ...`.

#[path = "common/solve_file.rs"]
mod solve_file;
use solve_file::{bench_only, json_sum, measure};
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// The #6 and h#6 of the Popeye corpus, a real-game #6 (matetrack), and two longer
/// searches whose table has to grow (a #5 of the timing set, an h=5).
const PROBLEMS: &[&str] = &[
    "popeye/d6_0165",
    "popeye_extra/mt6",
    "popeye/h6_0669",
    "popeye/ser6_0728",
    "popeye/h6_0641",
    "popeye/h6_0643",
    "popeye/h6_0645",
    "popeye/h6_0647",
    "popeye/h6_0673",
    "popeye/bench/bench_12",
    "popeye/hs5_0570",
];

fn main() {
    let only = bench_only();
    let popeye = std::env::var("POPEYE").ok();
    println!(
        "{:<10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "problem", "table MB", "peak MB", "cpu s", "popeye MB", "popeye s", "peak/py"
    );
    for p in PROBLEMS {
        let name = p.rsplit('/').next().unwrap_or(p);
        if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
            continue;
        }
        let file = format!("{DATA}/{p}.inp");
        let (mb, cpu, out) = measure(
            Command::new(env!("CARGO_BIN_EXE_chainmate"))
                .args(["solve", "-q", "--format", "json", "--threads", "1"])
                .arg(&file),
        );
        let table = json_sum(&out, "table_kb") as f64 / 1024.0;
        let py = popeye.as_ref().map(|bin| {
            measure(
                Command::new(bin)
                    .args(["-maxmem", "512M", "-regression"])
                    .arg(&file),
            )
        });
        let (py_mb, py_s, ratio) = match py {
            Some((m, s, _)) => (
                format!("{m:.1}"),
                format!("{s:.2}"),
                format!("{:.2}", mb / m),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!("{name:<10} {table:>9.1} {mb:>9.1} {cpu:>9.2} {py_mb:>9} {py_s:>9} {ratio:>9}");
    }
}
