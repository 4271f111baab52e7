//! Peak memory against Popeye (issue 20, part 2): each problem solved by the chainmate
//! binary with one thread and the default `--hash`, and, when the environment variable
//! POPEYE names a Popeye binary, by Popeye (`-maxmem 512M -regression`) in the same run.
//! Each process's peak resident memory and CPU time come from `wait4`; the table's size at
//! the end from chainmate's JSON output.
//!
//! `POPEYE=/path/to/py cargo bench --bench memory`, `BENCH_ONLY=d6_0165,mt6 ...`.

#[path = "common/solve_file.rs"]
mod solve_file;
use solve_file::bench_only;
use std::process::{Command, Stdio};

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

/// Runs a command to its end: (peak resident MB, user + system CPU seconds, stdout).
/// The child is reaped by `wait4` (which reports its own peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measure(cmd: &mut Command) -> (f64, f64, String) {
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
    (usage.ru_maxrss as f64 / 1024.0, cpu, out)
}

/// The sum of a JSON output's `"key": number` fields (one per twin).
fn json_sum(text: &str, key: &str) -> u64 {
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
