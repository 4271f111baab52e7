//! `chainmate check` at database scale: BENCH_PROBLEMS problems (default 100,000), made from
//! the shipped problems (direct #2/#3, help h#2 and h=2, self s#2, reflex r#2, a cooked and
//! an unsound entry, twinned entries), each Popeye problem stated with Popeye 4.104's own
//! output as its solution, written 1,000 to a YAML file. The real binary checks them with
//! `--threads 2` (BENCH_THREADS); the bench prints problems per second, the verdict counts
//! and the peak resident memory, for the whole set and for a tenth of it, so that one sees
//! whether memory grows with the number of problems.
//!
//! `cargo bench --bench check`, `BENCH_PROBLEMS=20000 cargo bench --bench check`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_chainmate");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Popeye problems with Popeye's output beside them (tests/data and problems/orthodox).
const POPEYE: [&str; 8] = [
    "d2_0335", "d2_2399", "d3_2407", "h2_0156", "s2_2417", "hs2_0556", "r2_2429", "h1h_2537",
];

/// Twinned entries, their solutions worked out by hand (tests/check_scale.rs).
const TWINS: [&str; 2] = [
    "fen: 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\nstipulation: '#1'\ntwins: {b: Move b1 a2, c: Move b1 e4}\n\
     solution: |\n  a) 1.Qb8#\n  b) 1.Qa8#\n  c) 1.Qe8#\n",
    "fen: 7k/8/6K1/8/8/8/8/1R6 w - - 0 1\nstipulation: 'h#1'\n\
     twins: {b: Move b1 a1, c: Move b1 h1, d: Move b1 b2}\n\
     solution: |\n  a) 1.Kg8 Rb8#\n  b) 1.Kg8 Ra8#\n  c) 1.Kg8 Rh8#\n  +d) 1.Kg8 Rb8#\n",
];

/// One YAML document per template.
fn templates() -> Vec<String> {
    let mut out = vec![];
    for name in POPEYE {
        let inp = format!("{ROOT}/problems/orthodox/{name}.inp");
        let yaml = Command::new(BIN)
            .args(["convert", &inp])
            .output()
            .expect("convert");
        let yaml = String::from_utf8(yaml.stdout).expect("utf-8");
        let popeye = std::fs::read_to_string(format!("{ROOT}/problems/orthodox/{name}.out"))
            .expect("Popeye output");
        // Popeye's solution text, from the first move on, as the stated solution.
        let mut doc = yaml.trim_start_matches("---\n").to_string();
        doc.push_str("solution: |2\n");
        let mut on = false;
        for line in popeye.lines() {
            on |= line.trim_start().starts_with("1.");
            if on && !line.contains("solution finished") {
                doc.push_str(&format!("  {line}\n"));
            }
        }
        out.push(doc);
    }
    for name in ["cooked_example", "unsound_example"] {
        let text = std::fs::read_to_string(format!("{ROOT}/problems/orthodox/{name}.yaml"))
            .expect("shipped problem");
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('#') && *l != "---")
            .map(|l| format!("{l}\n"))
            .collect();
        out.push(body);
    }
    out.extend(TWINS.iter().map(|t| t.to_string()));
    out
}

/// Writes `n` problems, 1,000 a file; returns the directory.
fn collection(n: usize, templates: &[String]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chainmate-bench-check-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut i = 0;
    let mut file = 0;
    while i < n {
        let mut text = String::new();
        for _ in 0..1000.min(n - i) {
            text.push_str("---\n");
            text.push_str(&templates[i % templates.len()]);
            i += 1;
        }
        std::fs::write(dir.join(format!("part{file:05}.yaml")), text).expect("write");
        file += 1;
    }
    dir
}

/// Runs `check` on `dir`: seconds, peak resident memory (MB), verdict counts, exit code.
/// The child is waited for with `wait4`, which also gives its peak memory.
#[allow(clippy::zombie_processes)]
fn check(dir: &Path, threads: &str) -> (f64, f64, BTreeMap<String, usize>, i32) {
    let started = Instant::now();
    let child = Command::new(BIN)
        .args(["check", "-q", "--format", "json", "--threads", threads])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("runs");
    let pid = child.id() as libc::pid_t;
    let reader = std::thread::spawn(move || {
        let mut counts = BTreeMap::new();
        let out = child.stdout.expect("stdout");
        for line in std::io::BufRead::lines(std::io::BufReader::new(out)) {
            let v: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
            for t in v["twins"].as_array().expect("twins") {
                *counts
                    .entry(t["verdict"].as_str().unwrap_or("?").to_string())
                    .or_insert(0) += 1;
            }
        }
        counts
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = started.elapsed().as_secs_f64();
    let counts = reader.join().expect("reader");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (secs, usage.ru_maxrss as f64 / 1024.0, counts, code)
}

fn main() {
    let n: usize = std::env::var("BENCH_PROBLEMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let threads = std::env::var("BENCH_THREADS").unwrap_or_else(|_| "2".into());
    let templates = templates();
    println!(
        "{:>9} {:>9} {:>11} {:>12}  verdicts (twins)",
        "problems", "seconds", "problems/s", "peak RSS MB"
    );
    for size in [n / 10, n] {
        let dir = collection(size, &templates);
        let (secs, rss, counts, code) = check(&dir, &threads);
        let problems = size as f64;
        println!(
            "{size:>9} {secs:>9.1} {:>11.0} {rss:>12.1}  {counts:?} (exit {code})",
            problems / secs
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
