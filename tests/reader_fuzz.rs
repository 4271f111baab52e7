//! Fuzzing the readers (issue 15, part 4): each reader gets random and mutated-valid inputs
//! and must neither panic nor hang. Valid samples come from problems/ and tests/data; a
//! mutation flips, inserts, deletes or duplicates bytes, or swaps, drops or inserts
//! tokens (words of the samples and reader keywords). Inputs are bounded (at most a few
//! KiB), and each case must finish within `SLOW` (a hang shows as a failure, not a stuck
//! suite). Proptest catches a panic and shrinks the input.
//!
//! Readers: YAML and Popeye input (`problem::parse_text`), FEN (`Position::from_fen`, which
//! must also read its own `to_fen` back to the same position, and `parse_text` with
//! `SourceFormat::Fen`), stated moves (`check::tokens`, `check::find_move`, `MoveReader::find`) and
//! Combo notation (`Rules::read_move`, the condition's own step-by-step reader).

use chainmate::check::{MoveReader, find_move, tokens};
use chainmate::core::Kind;
use chainmate::output::notation::{Style, effects_text};
use chainmate::position::Position;
use chainmate::problem::{Problem, SourceFormat, parse_text};
use chainmate::rules::{Condition, Rules};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const CASES: u32 = 2000;
const SLOW: Duration = Duration::from_secs(5);
const MAX_LEN: usize = 4096;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, exts, out);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(p);
        }
    }
}

/// Texts of the sample files with these extensions (at most `MAX_LEN` bytes each).
fn samples(exts: &[&str]) -> Vec<String> {
    let mut paths = vec![];
    files(&root().join("problems"), exts, &mut paths);
    files(&root().join("tests/data"), exts, &mut paths);
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|t| t.len() <= MAX_LEN)
        .collect()
}

fn fen_samples() -> &'static Vec<String> {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    S.get_or_init(|| {
        let mut out = vec![];
        for text in samples(&["epd", "fen"]) {
            for l in text.lines() {
                if !l.trim().is_empty() && !l.starts_with('#') {
                    out.push(l.split(';').next().unwrap().trim().to_string());
                }
            }
        }
        out.push("4k3/8/8/8/8/8/8/(AM)3K2(n)[Qn] w - - 0 1".into());
        out.push("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3".into());
        out
    })
}

/// The problems of the samples (with the condition and a stated solution where given).
fn problems() -> &'static Vec<Problem> {
    static S: OnceLock<Vec<Problem>> = OnceLock::new();
    S.get_or_init(|| {
        let mut out = vec![];
        for (exts, fmt) in [
            (&["yaml", "olv"][..], SourceFormat::Yaml),
            (&["inp"][..], SourceFormat::Popeye),
        ] {
            for t in samples(exts) {
                if let Ok(ps) = parse_text("sample", &t, fmt) {
                    out.extend(ps);
                }
            }
        }
        out
    })
}

/// Words of the texts, for token mutations.
fn words(texts: &[String]) -> Vec<String> {
    let mut w: Vec<String> = texts
        .iter()
        .flat_map(|t| t.split_whitespace().map(str::to_string))
        .filter(|w| w.len() <= 40)
        .collect();
    w.sort();
    w.dedup();
    w.extend(
        [
            "",
            ":",
            "-",
            "[",
            "]",
            "{",
            "}",
            "(",
            ")",
            "\"",
            "'",
            "\n",
            "\t",
            "---",
            "...",
            "twin",
            "end",
            "stipulation",
            "condition",
            "pieces",
            "white",
            "black",
            "neutral",
            "#",
            "=",
            "h#",
            "s#",
            "ser-",
            "0-0",
            "0-0-0",
            "e.p.",
            "x",
            "*",
            "+",
            "!",
            "?",
            "/",
            "[Q]",
            "(AM)",
            "(",
            "\u{feff}",
            "é",
            "♔",
            "999999999999999999999",
        ]
        .map(str::to_string),
    );
    w
}

/// One mutation, drawn by proptest: (kind, position, length, value).
type Op = (u8, usize, usize, usize);

fn mutate(base: &str, ops: &[Op], dict: &[String]) -> String {
    let mut b: Vec<u8> = base.as_bytes().to_vec();
    for &(kind, at, len, val) in ops {
        let n = b.len();
        let i = if n == 0 { 0 } else { at % (n + 1) };
        match kind % 8 {
            0 if n > 0 => b[i.min(n - 1)] = val as u8,
            1 => b.insert(i, val as u8),
            2 if n > 0 => {
                let end = (i + len % 16).min(n);
                b.drain(i.min(end)..end);
            }
            3 if n > 0 => {
                let s = i.min(n - 1);
                let end = (s + 1 + len % 32).min(n);
                let chunk = b[s..end].to_vec();
                b.splice(s..s, chunk);
            }
            4 => {
                let w = dict[val % dict.len()].as_bytes();
                b.splice(i..i, w.iter().copied());
            }
            5 => {
                // Token level: drop, swap or replace one whitespace-separated token.
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut toks: Vec<&str> = text.split(' ').collect();
                let k = toks.len();
                let t = at % k;
                match len % 3 {
                    0 => {
                        toks.remove(t);
                    }
                    1 => toks.swap(t, val % k),
                    _ => toks[t] = &dict[val % dict.len()],
                }
                b = toks.join(" ").into_bytes();
            }
            6 if n > 0 => {
                // A line dropped or doubled.
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let t = at % lines.len();
                if len % 2 == 0 {
                    lines.remove(t);
                } else {
                    lines.insert(t, lines[val % lines.len()]);
                }
                b = lines.join("\n").into_bytes();
            }
            _ => {
                let s = i.min(n);
                b.truncate(s.max(n / 2));
            }
        }
        b.truncate(MAX_LEN);
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// A mutated sample (one of `n`) or, one case in eight, random text.
fn input(n: usize) -> impl Strategy<Value = (usize, Vec<Op>, Option<String>)> {
    (
        0..n.max(1),
        prop::collection::vec(
            (any::<u8>(), any::<usize>(), any::<usize>(), any::<usize>()),
            0..8,
        ),
        prop::option::weighted(0.125, "[ -~\n\t\\[\\](){}#;:=\u{e9}]{0,200}"),
    )
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Runs `f` on fuzzed inputs built from `bases`; `f` must return within `SLOW`.
fn fuzz(name: &str, bases: &[String], f: impl Fn(usize, &str)) {
    assert!(!bases.is_empty(), "{name}: no samples");
    let dict = words(bases);
    let start = Instant::now();
    let calls = std::cell::Cell::new(0u32);
    runner()
        .run(&input(bases.len()), |(i, ops, random)| {
            let text = random.unwrap_or_else(|| mutate(&bases[i], &ops, &dict));
            let t = Instant::now();
            calls.set(calls.get() + 1);
            f(i, &text);
            prop_assert!(t.elapsed() < SLOW, "{name}: slow on {text:?}");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        calls.get() >= CASES,
        "{name}: only {} cases ran",
        calls.get()
    );
    eprintln!(
        "{name}: {CASES} cases from {} samples, {:.1?}",
        bases.len(),
        start.elapsed()
    );
}

#[test]
fn yaml_reader() {
    fuzz("yaml", &samples(&["yaml", "olv"]), |_, t| {
        let _ = parse_text("fuzz.yaml", t, SourceFormat::Yaml);
    });
}

#[test]
fn popeye_reader() {
    fuzz("popeye", &samples(&["inp"]), |_, t| {
        let _ = parse_text("fuzz.inp", t, SourceFormat::Popeye);
    });
}

#[test]
fn fen_reader() {
    let mut bases = fen_samples().clone();
    bases.extend(samples(&["fen"]));
    fuzz("fen", &bases, |_, t| {
        if let Ok(p) = Position::from_fen(t) {
            let back = Position::from_fen(&p.to_fen());
            assert_eq!(
                back,
                Ok(p),
                "FEN {t:?} -> {} does not read back",
                p.to_fen()
            );
        }
        let _ = Position::from_fen_unnormalized(t);
        let _ = parse_text("fuzz.fen", t, SourceFormat::Fen);
    });
}

fn rules_for(cond: Condition, pos: &Position) -> Rules {
    let kinds: Vec<Kind> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    Rules::new(cond).with_fairy_promotions(kinds)
}

#[test]
fn stated_moves_reader() {
    // Positions: the sample problems' diagrams, each side to move; texts: their stated
    // solutions' lines, cut into tokens.
    let mut cases: Vec<(Rules, Position)> = vec![];
    let mut texts: Vec<String> = vec![];
    for p in problems()
        .iter()
        .filter(|p| p.condition != Condition::Combo)
    {
        let pos = p.position;
        cases.push((rules_for(p.condition, &pos), pos));
        cases.push((rules_for(p.condition, &pos), pos.null_move()));
        for line in p.solution.iter().flat_map(|s| s.lines()) {
            texts.push(line.to_string());
            texts.extend(tokens(line));
        }
    }
    cases.truncate(60);
    texts.sort();
    texts.dedup();
    texts.retain(|t| !t.trim().is_empty());
    let readers: Vec<MoveReader> = cases.iter().map(|(r, p)| MoveReader::new(r, p)).collect();
    fuzz("stated moves", &texts, |i, t| {
        let _ = tokens(t);
        let k = (i + t.len()) % readers.len();
        for tok in tokens(t).iter().take(8) {
            let _ = readers[k].find(tok);
        }
        let _ = readers[k].find(t);
        if i % 16 == 0 {
            let (r, p) = &cases[k];
            let _ = find_move(r, p, t);
        }
    });
}

#[test]
fn combo_reader() {
    // Positions: the Combo problems and the Combo perft suite's light positions; texts:
    // the stated combos, and the long and short texts of some of each position's combos.
    let mut cases: Vec<(Rules, Position)> = vec![];
    let mut texts: Vec<String> = vec![];
    for p in problems()
        .iter()
        .filter(|p| p.condition == Condition::Combo)
    {
        cases.push((rules_for(Condition::Combo, &p.position), p.position));
        for line in p.solution.iter().flat_map(|s| s.lines()) {
            texts.extend(tokens(line));
        }
    }
    let epd = std::fs::read_to_string(root().join("tests/data/perft/combo.epd")).unwrap();
    for l in epd.lines().take_while(|l| !l.starts_with("# heavy")) {
        if !l.starts_with('#') && !l.trim().is_empty() && cases.len() < 24 {
            let pos = Position::from_fen(l.split(';').next().unwrap()).unwrap();
            cases.push((rules_for(Condition::Combo, &pos), pos));
        }
    }
    for (r, p) in &cases {
        for (_, effects) in r.moves_with_effects(p).iter().step_by(7).take(20) {
            texts.push(effects_text(r, p, effects, Style::Long));
            texts.push(effects_text(r, p, effects, Style::Short));
        }
    }
    texts.sort();
    texts.dedup();
    fuzz("combo", &texts, |i, t| {
        let (r, p) = &cases[(i + t.len()) % cases.len()];
        let _ = r.read_move(p, t, false);
        let _ = r.read_move(p, t, true);
    });
}
