//! Agreement with Popeye 4.104 on the orthodox corpus in tests/data/popeye: each problem
//! is solved and its keys, tries with refutations, threats and variations (help and
//! series: every solution line) are compared with Popeye's own output as sets of paths.
//!
//! `corpus_light` runs every problem Popeye solves in at most 0.5 s of CPU (and that does
//! not need Popeye's intelligent mode); `corpus_heavy` (ignored, run with
//! `HEAVY_HASH=8192 HEAVY_LIMIT=700 cargo test --release --test popeye_corpus -- --ignored
//! --nocapture`) runs the rest, each problem stopped after HEAVY_LIMIT seconds (default 45)
//! and solved with the command line's default 1024 MB table unless HEAVY_HASH says
//! otherwise: it prints how many match, how many stopped at the limit, and fails when any
//! finished problem differs. HEAVY_ONLY=a,b runs only those.
//! Like the command line, it uses every core. `intelligent_mode_problems_in_seconds` runs two
//! heavy problems that now take seconds in the default suite.

use common::popeye::{Run, chainmate_codes, solve_text};
use common::solution_text::diff_texts;
use std::path::Path;

mod common;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/popeye");

struct Entry {
    name: String,
    popeye_cpu: f64,
    intelligent_kept: bool,
}

fn index() -> Vec<Entry> {
    let text = std::fs::read_to_string(format!("{DATA}/INDEX.tsv")).expect("INDEX.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                name: f[0].to_string(),
                popeye_cpu: f[5].parse().unwrap_or(0.0),
                intelligent_kept: f[4].starts_with("Intelligent kept"),
            }
        })
        .collect()
}

/// Solves one corpus problem and returns the differences with Popeye's output.
fn compare(name: &str, threads: usize) -> Vec<String> {
    compare_in(DATA, name, threads, None, 32, false).expect("no time limit")
}

/// The differences with Popeye's output, or `None` when the search stopped at `limit`
/// (with a table of `hash_mb`, by the plain search where `exhaustive`).
fn compare_in(
    dir: &str,
    name: &str,
    threads: usize,
    limit: Option<std::time::Duration>,
    hash_mb: usize,
    exhaustive: bool,
) -> Option<Vec<String>> {
    let inp = format!("{dir}/{name}.inp");
    let expected = std::fs::read_to_string(format!("{dir}/{name}.out")).expect("expected output");
    let expected = chainmate_codes(&expected);
    let run = Run {
        threads,
        limit,
        hash_mb,
        exhaustive,
    };
    let got = solve_text(Path::new(&inp), &run)?;
    Some(diff_texts(&expected, &got))
}

fn run(select: impl Fn(&Entry) -> bool) {
    run_with(select, 1)
}

fn run_with(select: impl Fn(&Entry) -> bool, threads: usize) {
    let entries: Vec<Entry> = index().into_iter().filter(|e| select(e)).collect();
    assert!(!entries.is_empty());
    let mut failures = vec![];
    for e in &entries {
        let d = compare(&e.name, threads);
        if !d.is_empty() {
            failures.push(format!(
                "{}:\n  {}",
                e.name,
                d.iter().take(12).cloned().collect::<Vec<_>>().join("\n  ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} problems differ from Popeye:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

fn light(e: &Entry) -> bool {
    e.popeye_cpu <= 0.5 && !e.intelligent_kept
}

#[test]
fn corpus_light() {
    run(light);
}

/// Help and series play split below the root into tasks (`search/solve.rs`): with two
/// threads the light help and series problems still print exactly Popeye's solutions.
#[test]
fn help_and_series_with_two_threads() {
    run_with(
        |e| light(e) && (e.name.starts_with('h') || e.name.starts_with("ser")),
        2,
    );
}

/// A number from the environment, or `default`.
fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn corpus_heavy() {
    let limit = std::time::Duration::from_secs(env_number("HEAVY_LIMIT", 45) as u64);
    // HEAVY_ONLY=name,name runs only those problems.
    let only: Vec<String> = std::env::var("HEAVY_ONLY")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    // HEAVY_HASH=MB sets the table size (default: the command line's 1024 MB); every core
    // is used, as on the command line.
    let hash_mb = env_number("HEAVY_HASH", 1024);
    let (mut matched, mut stopped, mut differ) = (0, vec![], vec![]);
    for e in index()
        .into_iter()
        .filter(|e| !light(e) && (only.is_empty() || only.contains(&e.name)))
    {
        let start = std::time::Instant::now();
        let outcome = compare_in(DATA, &e.name, 0, Some(limit), hash_mb, false);
        let secs = start.elapsed().as_secs_f64();
        match outcome {
            None => {
                println!("{}: stopped at {secs:.1} s", e.name);
                stopped.push(e.name.clone())
            }
            Some(d) if d.is_empty() => {
                println!("{}: matches Popeye, {secs:.1} s", e.name);
                matched += 1
            }
            Some(d) => {
                println!("{}: DIFFERS, {secs:.1} s", e.name);
                differ.push(format!("{}:\n  {}", e.name, d.join("\n  ")))
            }
        }
    }
    println!(
        "heavy corpus, {} s per problem, {hash_mb} MB table: {matched} match, {} stopped at the limit ({}), {} differ",
        limit.as_secs(),
        stopped.len(),
        stopped.join(", "),
        differ.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Problems Popeye solves only in its intelligent mode that chainmate proves in seconds
/// with its final-position cuts, in the default suite: ser8_0731's solution ends with every
/// flight but one filled by Black's own pieces and the king staying put, the tight case of
/// the cut's move count; hs5_0578 is a help stalemate with promotions; the helpmates
/// h5_0735, h5_0672, h7_0739 and h8_0733 finish in about a second with the one-final-
/// position cut (minutes without it).
#[test]
fn intelligent_mode_problems_in_seconds() {
    for name in [
        "ser8_0731",
        "hs5_0578",
        "h5_0735",
        "h5_0672",
        "h7_0739",
        "h8_0733",
    ] {
        let d = compare_in(DATA, name, 0, None, 256, false).expect("no time limit");
        assert!(d.is_empty(), "{name}:\n{}", d.join("\n"));
    }
}

/// Problems of the heavy corpus (Popeye over 0.5 s, or its intelligent mode) that now take
/// chainmate at most about a second each (measured with `corpus_heavy`, two threads, in
/// BENCHMARKS.md): checked against Popeye in the default suite too.
const HEAVY_IN_SECONDS: [&str; 70] = [
    "h3_0659",
    "h3_0661",
    "h3_0666",
    "h3_0667",
    "h3_0668",
    "h3_0676",
    "h3_0686",
    "h3_0688",
    "h3_0689",
    "h3_0694",
    "h3_0697",
    "h3_0698",
    "h3_0699",
    "h3_0702",
    "h3_0708",
    "h3_0710",
    "h3_0711",
    "h3_0726",
    "h3_0727",
    "h3_0732",
    "h3_0736",
    "h4_0639",
    "h4_0664",
    "h4_0679",
    "h4_0680",
    "h4_0738",
    "h5_0642",
    "h5_0737",
    "h6_0643",
    "h6_0645",
    "h6_0647",
    "h6_0669",
    "h7_0662",
    "h7_2307",
    "h9_0740",
    "hs3_0506",
    "hs3_0508",
    "hs3_0510",
    "hs3_0511",
    "hs3_0513",
    "hs3_0524",
    "hs3_0525",
    "hs3_0526",
    "hs3_0527",
    "hs3_0528",
    "hs3_0530",
    "hs3_0542",
    "hs3_0553",
    "hs3_0559",
    "hs3_0587",
    "hs3_0596",
    "hs4_0541",
    "hs4_0609",
    "hs4_0610",
    "hs5_0564",
    "hs5_0565",
    "hs5_0566",
    "hs5_0567",
    "hs5_0575",
    "hs5_0576",
    "hs5_0577",
    "hs6_0582",
    "s4_1108",
    "ser10_0611",
    "ser11_0521",
    "ser14_0547",
    "ser18_0600",
    "ser6_0189",
    "ser6_0728",
    "ser8_0550",
];

#[test]
fn heavy_problems_in_seconds() {
    all_agree(&HEAVY_IN_SECONDS);
}

/// Each named problem of the corpus solved with all cores and a 256 MB table, without a
/// time limit: every difference from Popeye's output is reported.
fn all_agree(names: &[&str]) {
    let mut failures = vec![];
    for name in names {
        let d = compare_in(DATA, name, 0, None, 256, false).expect("no time limit");
        if !d.is_empty() {
            failures.push(format!("{name}:\n  {}", d.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Heavy problems that now take chainmate one to four seconds each (help and series play
/// Popeye needs its intelligent mode or over half a second for; measured with
/// `corpus_heavy`, `HEAVY_HASH=256`, two threads, in BENCHMARKS.md): in the default suite
/// too, with the default suite's 256 MB table.
const HEAVY_IN_A_FEW_SECONDS: [&str; 17] = [
    "h4_0741",
    "h6_0641",
    "h6_0673",
    "hs4_0531",
    "hs4_0532",
    "hs5_0568",
    "hs5_0569",
    "hs5_0570",
    "hs5_0572",
    "hs5_0573",
    "hs5_0574",
    "hs5_0579",
    "hs6_0562",
    "hs6_0607",
    "hs6_0612",
    "ser9_0729",
    "h7_0734",
];

#[test]
fn heavy_problems_in_a_few_seconds() {
    all_agree(&HEAVY_IN_A_FEW_SECONDS);
}

/// Heavy problems that take chainmate six to thirteen seconds each with two threads
/// (`corpus_heavy`, `HEAVY_HASH=256`; BENCHMARKS.md, "Help and series play: the holders'
/// assignment"): two help stalemates and a series-help stalemate Popeye solves only in
/// its intelligent mode.
const HEAVY_IN_SEVERAL_SECONDS: [&str; 3] = ["hs5_0529", "hs6_0589", "ser13_0608"];

#[test]
fn heavy_problems_in_several_seconds() {
    all_agree(&HEAVY_IN_SEVERAL_SECONDS);
}

/// Help stalemates that take chainmate 11-23 s each with two threads and the 256 MB table
/// (`corpus_heavy`, `HEAVY_HASH=256`, 105 s for the six; BENCHMARKS.md, "The heavy Popeye
/// corpus after this stop"): hs7_0558 and hs8_0522, which Popeye needs 20-40 s for, among
/// them.
const HEAVY_IN_TENS_OF_SECONDS: [&str; 6] = [
    "hs5_0551", "hs5_0571", "hs7_0558", "hs8_0522", "hs8_0523", "hs8_0591",
];

#[test]
fn heavy_problems_in_tens_of_seconds() {
    all_agree(&HEAVY_IN_TENS_OF_SECONDS);
}

/// The help stalemates that now finish in about half a minute each with two threads and
/// the 256 MB table (27 s and 30 s on the machine of BENCHMARKS.md, "Help play: Popeye's
/// short runs timed to the millisecond"): hs7_0590 (Popeye 46 s in its intelligent mode)
/// and hs8_0552 (Popeye 0.8 s); and the series-help stalemate ser14_0547 (28 s, since "Help
/// and series play: the king squares carried down"; Popeye 0.5 s). Only ser12_0561 is left
/// to `corpus_heavy`.
const HEAVY_IN_HALF_A_MINUTE: [&str; 3] = ["hs7_0590", "hs8_0552", "ser14_0547"];

#[test]
fn heavy_problems_in_half_a_minute() {
    all_agree(&HEAVY_IN_HALF_A_MINUTE);
}

/// Extra cases (en passant in help play, twins, ...) with Popeye's output beside them.
#[test]
fn extra_cases() {
    dir_agrees("tests/data/popeye_extra", 1);
}

/// Random positions of every genre with Popeye 4.104's output (see the folder's README and
/// `tests/popeye_random.rs`): solved with the cuts and by the plain search.
#[test]
fn random_positions() {
    dir_agrees("tests/data/popeye_random", 100);
    dir_agrees_by("tests/data/popeye_random", 100, true);
}

/// The positions in which Popeye's intelligent mode, in some release, missed solutions its
/// plain search finds (see the folder's README), with Popeye 4.104's plain-search output:
/// solved with the cuts and by the plain search.
#[test]
fn popeye_intelligent_mode_misses() {
    dir_agrees("tests/data/popeye_intelligent", 10);
    dir_agrees_by("tests/data/popeye_intelligent", 10, true);
}

/// Positions where Popeye 4.104 misses solutions (see the folder's README): chainmate
/// prints exactly Popeye's lines and the ones it misses, each checked by hand.
#[test]
fn popeye_misses() {
    let run = Run {
        threads: 2,
        limit: None,
        hash_mb: 16,
        exhaustive: false,
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/popeye_misses");
    let names = case_names(&dir);
    assert!(!names.is_empty(), "no cases in {}", dir.display());
    for name in names {
        let inp = dir.join(format!("{name}.inp"));
        let read = |ext: &str| {
            std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).expect("case file")
        };
        let extra = read("extra");
        assert!(extra.lines().count() >= 1, "{name}: no missed lines listed");
        // The missed lines in Popeye's layout, ahead of its own.
        let missed: String = extra.lines().map(|l| format!("  {l}\n")).collect();
        let popeye = chainmate_codes(&read("out"));
        let got = solve_text(&inp, &run).expect("no time limit");
        let d = diff_texts(&format!("\n{missed}{popeye}"), &got);
        assert!(d.is_empty(), "{name}:\n{}", d.join("\n"));
        // The missed lines are no lines Popeye printed.
        let popeye = diff_texts(&popeye, &got);
        assert_eq!(popeye.len(), extra.lines().count(), "{name}: {popeye:?}");
    }
}

/// Circe (issue 18): Popeye's own example problems whose only condition is plain Circe,
/// and constructed positions in which Circe changes Popeye's answer (see the folder's
/// README), with Popeye 4.104's output; and the example in problems/circe.
#[test]
fn circe_corpus() {
    dir_agrees("tests/data/popeye_circe", 40);
    dir_agrees("problems/circe", 1);
}

/// Madrasi (issue 18), as `circe_corpus`.
#[test]
fn madrasi_corpus() {
    dir_agrees("tests/data/popeye_madrasi", 40);
    dir_agrees("problems/madrasi", 1);
}

/// The names `NAME` of the folder's `NAME.inp` files, sorted.
fn case_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("folder")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let stem = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "inp").then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// Every `NAME.inp` of the folder (relative to the repository root; at least `min` of
/// them) gives exactly the solutions of Popeye's output `NAME.out` beside it.
fn dir_agrees(folder: &str, min: usize) {
    dir_agrees_by(folder, min, false);
}

/// [`dir_agrees`], by the plain search (`--exhaustive`) where `exhaustive`.
fn dir_agrees_by(folder: &str, min: usize, exhaustive: bool) {
    let dir = format!("{}/{folder}", env!("CARGO_MANIFEST_DIR"));
    let names = case_names(Path::new(&dir));
    let mut failures = vec![];
    for n in &names {
        let d = compare_in(&dir, n, 1, None, 32, exhaustive).expect("no time limit");
        if !d.is_empty() {
            failures.push(format!("{n}:\n  {}", d.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{folder}: {} of {} differ from Popeye:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
    assert!(names.len() >= min, "{folder}: {} problems", names.len());
}
