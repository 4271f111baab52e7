//! Solving one problem file for the benches (`#[path]`-included by each bench).
#![allow(dead_code)] // each bench uses its part

use chainmate::output::notation::Style;
use chainmate::output::text::twin_text;
use chainmate::problem::{Problem, load_file};
use chainmate::rules::Rules;
use chainmate::search::solve::{Settings, solve_twin};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Solves every twin of `file` with `threads` threads and a table of `hash_mb` MB, stopped
/// after `limit` seconds: the seconds, the printed solutions, the nodes and whether the
/// search finished.
pub fn solve_file(
    file: &str,
    limit: f64,
    threads: usize,
    hash_mb: usize,
) -> (f64, String, u64, bool) {
    let problems = load_file(Path::new(file)).expect("bench problem loads");
    let s = solve_problems(&problems, limit, threads, hash_mb);
    (s.secs, s.text, s.nodes, s.complete)
}

/// What [`solve_problems`] found and what it cost.
pub struct Solved {
    pub secs: f64,
    /// The printed solutions of every twin.
    pub text: String,
    /// Keys (direct play) and lines (help and series play) of every twin.
    pub solutions: usize,
    pub nodes: u64,
    pub complete: bool,
}

/// Solves every twin of `problems` as [`solve_file`] does.
pub fn solve_problems(problems: &[Problem], limit: f64, threads: usize, hash_mb: usize) -> Solved {
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs_f64(limit));
            stop.store(true, Ordering::Relaxed);
        });
    }
    let started = Instant::now();
    let mut out = Solved {
        secs: 0.0,
        text: String::new(),
        solutions: 0,
        nodes: 0,
        complete: true,
    };
    for p in problems {
        for t in p.twin_instances().expect("twins") {
            let rules = Rules::new(t.condition);
            let settings = Settings {
                options: p.options.search_options(),
                threads,
                hash_mb,
                stop: stop.clone(),
                ..Settings::default()
            };
            let r = solve_twin(&t.search_input(), &rules, &settings);
            out.complete &= r.complete;
            out.nodes += r.nodes;
            out.solutions += r.keys.len() + r.lines.len();
            out.text.push_str(&twin_text(&r, Style::Long));
        }
    }
    stop.store(true, Ordering::Relaxed);
    out.secs = started.elapsed().as_secs_f64();
    out
}

/// The process's CPU time so far (user + system, all threads), from /proc/self/stat.
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which is in parentheses), the state first:
    // utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit(')').next().unwrap_or("");
    let field = |i: usize| -> f64 {
        rest.split_whitespace()
            .nth(i)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0.0)
    };
    (field(11) + field(12)) / 100.0
}

/// The problems `BENCH_ONLY` names (comma-separated), if it is set.
pub fn bench_only() -> Option<Vec<String>> {
    std::env::var("BENCH_ONLY")
        .ok()
        .map(|s| s.split(',').map(|x| x.trim().to_string()).collect())
}
