//! Help and series play on the problems Popeye 4.104 solves only in its intelligent mode
//! (issue 14): the rows of tests/data/popeye/INDEX.tsv whose `intelligent` column says
//! "kept". Each is solved with one thread and a time limit (BENCH_LIMIT seconds, default
//! 30), its printed solutions compared with Popeye's stored output; when POPEYE names a
//! Popeye binary, Popeye solves the same input (its intelligent mode on, as the file says)
//! in the same run, first, and the ratio Popeye time / chainmate time is printed, with the
//! median; chainmate's limit is then at least 1.1 times Popeye's time, so a run that ends
//! within Popeye's time is never stopped.
//! Both programs are timed alike: each solves the file as a process (`chainmate solve -q
//! --threads 1 --time-limit BENCH_LIMIT FILE`), and its time is the process's CPU time
//! (user + system, start-up included), the mean of repeated runs where one takes under a
//! quarter of a second (the kernel counts a single short run in 10 ms steps, so a 15 ms
//! run read as 0.01 or 0.02 s before). chainmate's printed text is compared with Popeye's
//! stored output, and a run that exits with the "unknown" code was stopped at the limit;
//! its node count comes from one more run with `--format json`. (Solving in this process
//! instead, one problem after another, timed short problems late in the run up to 1.7
//! times slower than alone: BENCHMARKS.md, "The help bench timed as processes".)
//!
//! `cargo bench --bench help`, `BENCH_ONLY=h5_0642,ser9_0729 cargo bench --bench help`,
//! `POPEYE=/path/to/py BENCH_LIMIT=60 cargo bench --bench help`.
//!
//! Thread scaling: `BENCH_THREADS=1,2 BENCH_ONLY=... cargo bench --bench help` solves each
//! problem with each thread count instead (no Popeye), printing wall and CPU seconds (the
//! process's user + system time, from /proc/self/stat), the speedup over the first count
//! and whether every count printed the same text.

use chainmate::search::solve::Settings;
#[allow(dead_code)]
#[path = "../tests/common/solution_text.rs"]
mod solution_text;
#[path = "common/solve_file.rs"]
mod solve_file;
use chainmate::app::{EXIT_OK, EXIT_UNKNOWN};
use solution_text::{diff, parse};
use solve_file::{
    bench_only, cpu_seconds, json_sum, measure, measure_short, measure_short_code, median,
    solve_file,
};
use std::process::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/popeye");

/// Solves a file with `threads` threads under the time limit (the command line's table
/// size) in this process: seconds, text, nodes, finished (for the thread scaling).
fn solve(file: &str, limit: f64, threads: usize) -> (f64, String, u64, bool) {
    solve_file(file, limit, threads, Settings::default().hash_mb)
}

/// Solves a file with the chainmate binary, one thread, under the time limit: its CPU time
/// ([`measure_short_code`]), its printed text, its nodes (from one more run printing JSON)
/// and its exit code (`EXIT_OK` where it finished, `EXIT_UNKNOWN` where it was stopped).
fn solve_process(file: &str, limit: f64) -> (f64, String, u64, i32) {
    let command = |format: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_chainmate"));
        c.args(["solve", "-q", "--threads", "1", "--format", format])
            .arg("--time-limit")
            .arg(limit.to_string())
            .arg(file);
        c
    };
    let (_, cpu, text, code) = measure_short_code(|| command("text"));
    let (_, _, json) = measure(&mut command("json"));
    (cpu, text, json_sum(&json, "nodes"), code)
}

/// Popeye's CPU time (user + system of the child) on the same file: the mean of repeated
/// runs where one takes under a quarter of a second ([`measure_short`]; the kernel's
/// accounting of one short run reads in 10 ms steps).
fn popeye(bin: &str, file: &str) -> f64 {
    measure_short(|| {
        let mut cmd = Command::new(bin);
        cmd.args(["-maxmem", "512M", "-regression", file]);
        cmd
    })
    .1
}

fn main() {
    let only = bench_only();
    let limit: f64 = std::env::var("BENCH_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30.0);
    let bin = std::env::var("POPEYE").ok();
    let index = std::fs::read_to_string(format!("{DIR}/INDEX.tsv")).expect("INDEX.tsv");
    if let Ok(list) = std::env::var("BENCH_THREADS") {
        let counts: Vec<usize> = list
            .split(',')
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        let names = only.expect("BENCH_THREADS needs BENCH_ONLY");
        scaling(&names, &counts, limit);
        return;
    }
    println!(
        "{:<11} {:>9} {:>12} {:>9} {:>9} {:>8}",
        "problem", "stip", "nodes", "chainmate", "popeye", "py/cm"
    );
    let (mut ratios, mut within, mut total) = (vec![], 0, 0);
    for row in index.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        if f.len() < 5 || !f[4].contains("kept") {
            continue;
        }
        let name = f[0];
        if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == name)) {
            continue;
        }
        let file = format!("{DIR}/{name}.inp");
        let expected = std::fs::read_to_string(format!("{DIR}/{name}.out")).unwrap_or_default();
        // Popeye first: chainmate's limit is at least Popeye's time (and a tenth), so that
        // a run within Popeye's time is never counted as stopped.
        let py = bin.as_ref().map(|b| popeye(b, &file));
        let limit = py.map_or(limit, |p| limit.max(1.1 * p));
        let (t, text, nodes, code) = solve_process(&file, limit);
        let done = code == EXIT_OK;
        let same = diff(&parse(&expected), &parse(&text)).is_empty();
        total += 1;
        let (py_s, ratio) = match py {
            Some(p) => {
                ratios.push(if done { p / t } else { 0.0 });
                within += usize::from(done && same && t <= p);
                let ratio = if done {
                    format!("{:.3}", p / t)
                } else {
                    "-".into()
                };
                (format!("{p:.3}"), ratio)
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "{name:<11} {:>9} {nodes:>12} {t:>9.3} {py_s:>9} {ratio:>8}{}",
            f[1],
            if code == EXIT_UNKNOWN {
                "  STOPPED AT THE TIME LIMIT".to_string()
            } else if !done {
                format!("  FAILED WITH EXIT CODE {code}")
            } else if same {
                String::new()
            } else {
                "  OUTPUT DIFFERS FROM POPEYE".to_string()
            }
        );
    }
    if !ratios.is_empty() {
        println!(
            "{total} problems, {within} solved within Popeye's time; median popeye/chainmate \
             {:.3} (a stopped or failed run counts as 0)",
            median(&mut ratios)
        );
    }
}

/// Each problem solved with each thread count: wall and CPU seconds, the speedup of each
/// count over the first, and whether the printed text was the same for all.
fn scaling(names: &[String], counts: &[usize], limit: f64) {
    println!(
        "{:<11} {:>7} {:>9} {:>9} {:>8}  same",
        "problem", "threads", "wall", "cpu", "speedup"
    );
    for name in names {
        let file = format!("{DIR}/{name}.inp");
        let (mut first, mut texts) = (None, vec![]);
        for &n in counts {
            let cpu = cpu_seconds();
            let (t, text, _, done) = solve(&file, limit, n);
            let cpu = cpu_seconds() - cpu;
            let base = *first.get_or_insert(t);
            texts.push(text);
            println!(
                "{name:<11} {n:>7} {t:>9.2} {cpu:>9.2} {:>8.2}  {}{}",
                base / t,
                texts.iter().all(|x| *x == texts[0]),
                if done {
                    ""
                } else {
                    "  STOPPED AT THE TIME LIMIT"
                }
            );
        }
    }
}
