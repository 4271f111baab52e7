//! Solving one problem file for the benches (`#[path]`-included by each bench).
#![allow(dead_code)] // each bench uses its part

use chainmate::output::notation::Style;
use chainmate::output::text::twin_text;
use chainmate::problem::{Problem, load_file};
use chainmate::rules::Rules;
use chainmate::search::solve::{Settings, solve_twin};
use std::path::Path;
use std::process::{Command, Stdio};
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

/// Runs a command to its end: (peak resident MB, user + system CPU seconds, stdout).
/// The child is reaped by `wait4` (which reports its own peak memory), not `Child::wait`.
pub fn measure(cmd: &mut Command) -> (f64, f64, String) {
    let (mb, cpu, out, _) = measure_code(cmd);
    (mb, cpu, out)
}

/// [`measure`], with the command's exit code (-1 where it did not exit normally).
#[allow(clippy::zombie_processes)]
pub fn measure_code(cmd: &mut Command) -> (f64, f64, String, i32) {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the command starts");
    let pid = child.id() as libc::pid_t;
    let mut out = String::new();
    if let Some(mut s) = child.stdout {
        use std::io::Read;
        let _ = s.read_to_string(&mut out);
    }
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for the child started above, which nobody else waits for.
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = secs(usage.ru_utime) + secs(usage.ru_stime);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (usage.ru_maxrss as f64 / 1024.0, cpu, out, code)
}

/// [`measure`] repeated for short runs: the kernel's CPU accounting (`wait4`) may count
/// in scheduler ticks, so a run of a few milliseconds reads as 0 or 10 ms. The command is
/// run again until the runs add up to at least a quarter of a second of CPU (at most 200
/// runs); the mean CPU time per run is returned with the first run's output.
#[allow(dead_code)]
pub fn measure_short(make: impl Fn() -> Command) -> (f64, f64, String) {
    let (mb, cpu, out, _) = measure_short_code(make);
    (mb, cpu, out)
}

/// [`measure_short`], with the first run's exit code.
pub fn measure_short_code(make: impl Fn() -> Command) -> (f64, f64, String, i32) {
    let (mb, first, out, code) = measure_code(&mut make());
    let (mut total, mut runs) = (first, 1);
    while total < 0.25 && runs < 200 {
        total += measure(&mut make()).1;
        runs += 1;
    }
    (mb, total / runs as f64, out, code)
}

/// The sum of a JSON output's `"key": number` fields (one per twin).
pub fn json_sum(text: &str, key: &str) -> u64 {
    let pat = format!("\"{key}\":");
    text.match_indices(&pat)
        .filter_map(|(i, _)| {
            let rest = text[i + pat.len()..].trim_start();
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            rest[..end].parse::<u64>().ok()
        })
        .sum()
}

/// The median of `v`, which it sorts (so `v[0]` is the lowest afterwards); NaN when empty.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}
