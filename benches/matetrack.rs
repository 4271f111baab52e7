//! Real-game direct mates against Popeye (issue 20, part 1): the 40 positions of
//! `benches/data/matetrack.tsv` (mate in 2 to 6, from vondele/matetrack), each written as a
//! Popeye input file (`Forsyth`, `Stipulation #N`), solved by the chainmate binary with one
//! thread and, when the environment variable POPEYE names a Popeye binary, by Popeye
//! (`-maxmem 512M -regression`) in the same run. CPU times (user + system) come from `wait4`;
//! a run under a quarter of a second is repeated and its mean taken (`measure_short`: the
//! kernel may account CPU time in scheduler ticks).
//! Both programs' keys are compared as sets; the table prints Popeye/chainmate per position
//! and the median and lowest ratio per N and over all.
//!
//! `POPEYE=/path/to/py cargo bench --bench matetrack`, `BENCH_ONLY=mt4_3,mt6_0 ...`.

#[path = "common/solve_file.rs"]
mod solve_file;
use solve_file::{bench_only, json_sum, measure_short, median};
use std::collections::BTreeSet;
use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/matetrack.tsv");

/// Popeye's keys: the lines `1.<move> !` at the top of a solution.
fn popeye_keys(out: &str) -> BTreeSet<String> {
    out.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("1.") && l.ends_with('!'))
        .map(|l| {
            l.trim_start_matches("1.")
                .trim_end_matches('!')
                .trim()
                .to_string()
        })
        .collect()
}

/// chainmate's keys: the `text` of each key of each twin in its JSON output.
fn chainmate_keys(json: &str) -> BTreeSet<String> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let twins = v["problems"].as_array().into_iter().flatten();
    let twins = twins.flat_map(|p| p["twins"].as_array().into_iter().flatten());
    let keys = twins.flat_map(|t| t["keys"].as_array().into_iter().flatten());
    keys.filter_map(|k| k["text"].as_str().map(str::to_string))
        .collect()
}

fn main() {
    let only = bench_only();
    let popeye = std::env::var("POPEYE").ok();
    let dir = std::env::temp_dir().join(format!("chainmate-matetrack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let text = std::fs::read_to_string(DATA).expect("benches/data/matetrack.tsv");
    println!(
        "{:<7} {:<4} {:>11} {:>9} {:>9} {:>9} {:>6}",
        "name", "stip", "nodes", "cpu s", "popeye s", "py/cm", "keys"
    );
    let mut ratios: Vec<(u32, f64)> = Vec::new();
    let mut count: std::collections::BTreeMap<u32, u32> = Default::default();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (board, stip) = line.split_once('\t').expect("board<TAB>stipulation");
        let n: u32 = stip.trim_start_matches('#').parse().expect("#N");
        let k = count.entry(n).or_default();
        let name = format!("mt{n}_{k}");
        *k += 1;
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        // Popeye's Forsyth letters are its piece names: S is the knight, N the nightrider.
        let board = board.replace('N', "S").replace('n', "s");
        let file = dir.join(format!("{name}.inp"));
        let inp = format!(
            "BeginProblem\nStipulation {stip}\nOption NoBoard\nForsyth {board}\nEndProblem\n"
        );
        std::fs::write(&file, inp).expect("the problem file is written");
        let (_, cpu, out) = measure_short(|| {
            let mut c = Command::new(env!("CARGO_BIN_EXE_chainmate"));
            c.args(["solve", "-q", "--format", "json", "--threads", "1"])
                .arg(&file);
            c
        });
        let nodes = json_sum(&out, "nodes");
        let ours = chainmate_keys(&out);
        let (py_s, ratio, keys) = match &popeye {
            Some(bin) => {
                let (_, s, py_out) = measure_short(|| {
                    let mut c = Command::new(bin);
                    c.args(["-maxmem", "512M", "-regression"]).arg(&file);
                    c
                });
                let same = popeye_keys(&py_out) == ours;
                ratios.push((n, s / cpu));
                let keys = if same { "same" } else { "DIFFER" };
                (
                    format!("{s:.2}"),
                    format!("{:.2}", s / cpu),
                    keys.to_string(),
                )
            }
            None => ("-".into(), "-".into(), ours.len().to_string()),
        };
        println!("{name:<7} {stip:<4} {nodes:>11} {cpu:>9.2} {py_s:>9} {ratio:>9} {keys:>6}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    for n in 2..=6 {
        let mut r: Vec<f64> = ratios.iter().filter(|x| x.0 == n).map(|x| x.1).collect();
        if !r.is_empty() {
            let m = median(&mut r);
            println!("#{n}: median Popeye/chainmate {m:.2}, lowest {:.2}", r[0]);
        }
    }
    let mut all: Vec<f64> = ratios.iter().map(|x| x.1).collect();
    if !all.is_empty() {
        let m = median(&mut all);
        println!("all: median Popeye/chainmate {m:.2}, lowest {:.2}", all[0]);
    }
}
