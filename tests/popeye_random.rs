//! Random positions solved by chainmate and by Popeye, which nobody here wrote (issue 14,
//! part 2: a solution is never lost; and the other genres on the way). Ignored: it needs
//! a Popeye binary.
//!
//! `POPEYE=/path/to/py cargo test --release --test popeye_random -- --ignored --nocapture`
//! makes RANDOM_N (default 200) sparse random positions from RANDOM_SEED (default 1), each
//! with a stipulation drawn from help, series, direct, self and reflex play,
//! mate and stalemate, with fairy pieces (nightrider, amazon, empress, princess) among
//! the units of a third of them. Popeye solves each (killed after RANDOM_LIMIT seconds,
//! default 20: the case is skipped), then chainmate with its cuts (stopped at the same
//! limit: skipped too), and the test fails listing every case whose solutions differ (as
//! sets of lines and variations, `common::solution_text`). Positions where the side not
//! to move is in check are skipped. RANDOM_CONDITION=Circe (or Madrasi, any condition
//! both read) plays every problem under that condition. With RANDOM_KEEP=DIR every case compared is kept there
//! as NAME.inp with Popeye's output NAME.out; `tests/data/popeye_random` holds such cases
//! (see its README), solved in the default suite by `popeye_corpus::random_positions`.

use common::popeye::{Run, chainmate_codes, solve_text};
use common::solution_text::{diff, parse};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// The stipulations drawn from.
const STIPULATIONS: &[&str] = &[
    "h#2", "h#2.5", "h#3", "h=2", "h=2.5", "h=3", "ser-h#3", "ser-h=3", "ser-#3", "ser-=4",
    "ser-s#2", "ser-s=2", "#2", "#3", "=2", "s#2", "s=2", "r#2",
];

/// Units drawn beside the kings (Popeye's codes) and their weights.
const ORTHODOX: &[(&str, u64)] = &[("Q", 1), ("R", 2), ("B", 2), ("S", 2), ("P", 3)];
const FAIRY: &[(&str, u64)] = &[("N", 2), ("AM", 1), ("EM", 1), ("PR", 1)];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn square(s: u64) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

/// One random problem in Popeye's input language: kings apart, one to three more White
/// units (to five in direct, self and reflex play), one to four Black, pawns off the
/// first and last ranks; `condition` (a `Condition` line, or empty) goes in as it is.
fn problem(next: &mut impl FnMut(u64) -> u64, condition: &str) -> String {
    let stipulation = STIPULATIONS[next(STIPULATIONS.len() as u64) as usize];
    let fairy = next(3) == 0;
    let kinds: Vec<(&str, u64)> = ORTHODOX
        .iter()
        .chain(if fairy { FAIRY } else { &[] })
        .copied()
        .collect();
    let total: u64 = kinds.iter().map(|k| k.1).sum();
    let wk = next(64);
    let bk = loop {
        let s = next(64);
        if (s % 8).abs_diff(wk % 8) > 1 || (s / 8).abs_diff(wk / 8) > 1 {
            break s;
        }
    };
    let mut used = vec![wk, bk];
    let mut sides = [format!("K{}", square(wk)), format!("K{}", square(bk))];
    // Direct, self and reflex play get a stronger White (up to five units more), so that
    // more of them have a solution.
    let direct = !stipulation.starts_with('h') && !stipulation.starts_with("ser");
    for (side, most) in [(0, if direct { 5 } else { 3 }), (1, 4)] {
        for _ in 0..=next(most) {
            let mut x = next(total);
            let kind = kinds
                .iter()
                .find(|k| {
                    let hit = x < k.1;
                    x = x.saturating_sub(k.1);
                    hit
                })
                .expect("weights")
                .0;
            let s = loop {
                let s = next(64);
                if !used.contains(&s) && (kind != "P" || (1..7).contains(&(s / 8))) {
                    break s;
                }
            };
            used.push(s);
            sides[side].push_str(&format!(" {kind}{}", square(s)));
        }
    }
    format!(
        "BeginProblem\nStipulation {stipulation}\n{condition}Option NoBoard\nPieces\n  White {}\n  Black {}\nEndProblem\n",
        sides[0], sides[1]
    )
}

/// Popeye's output for `inp`, or `None` when it ran past `limit` (killed).
fn popeye(py: &str, inp: &Path, limit: Duration) -> Option<String> {
    let out = inp.with_extension("out");
    let mut child = Command::new(py)
        .args(["-maxmem", "256M", "-regression"])
        .arg(inp)
        .stdout(std::fs::File::create(&out).expect("output file"))
        .stderr(Stdio::null())
        .spawn()
        .expect("POPEYE runs");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return Some(std::fs::read_to_string(&out).expect("Popeye's output"));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
#[ignore = "needs Popeye: POPEYE=/path/to/py"]
fn random_positions_agree_with_popeye() {
    let py = std::env::var("POPEYE").expect("POPEYE: the path of a Popeye binary");
    let (n, seed) = (env_or("RANDOM_N", 200), env_or("RANDOM_SEED", 1));
    let limit = Duration::from_secs(env_or("RANDOM_LIMIT", 20));
    let dir: PathBuf = std::env::var("RANDOM_KEEP").map_or_else(
        |_| std::env::temp_dir().join(format!("chainmate-random-{seed}")),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).expect("folder");
    let mut next = common::lcg(seed);
    let run = Run {
        threads: 1,
        limit: Some(limit),
        hash_mb: 64,
        exhaustive: false,
    };
    let condition = std::env::var("RANDOM_CONDITION")
        .map(|c| format!("Condition {c}\n"))
        .unwrap_or_default();
    let (mut compared, mut skipped, mut failures) = (0, 0, vec![]);
    for i in 0..n {
        let name = format!("r{seed}_{i}");
        let inp = dir.join(format!("{name}.inp"));
        std::fs::write(&inp, problem(&mut next, &condition)).expect("write");
        let got = solve_text(&inp, &run);
        let legal = got
            .as_ref()
            .is_some_and(|t| !t.contains("illegal position"));
        let expected = if legal {
            popeye(&py, &inp, limit)
        } else {
            None
        };
        let (Some(got), Some(expected)) = (got, expected) else {
            skipped += 1;
            let _ = std::fs::remove_file(&inp);
            let _ = std::fs::remove_file(inp.with_extension("out"));
            continue;
        };
        compared += 1;
        let d = diff(&parse(&chainmate_codes(&expected)), &parse(&got));
        if !d.is_empty() {
            println!("differs: {}", inp.display());
            let lines = d.iter().take(8).cloned().collect::<Vec<_>>().join("\n  ");
            failures.push(format!("{}:\n  {lines}", inp.display()));
        }
    }
    println!(
        "compared {compared}, skipped {skipped}, differing {}",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} differ from Popeye:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
