//! The example problems of each fairy condition (problems/<condition>/): the solution
//! printed by `chainmate solve` equals the committed `.out` beside each file (worked out by
//! hand, see the file comments), and the condition matters: the same position solved under
//! orthodox rules gives a different result.

use chainmate::problem::load_file;
use chainmate::rules::{Condition, Rules};
use chainmate::search::solve::{Settings, solve_twin};
use std::path::{Path, PathBuf};
use std::process::Command;

fn problems(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(format!("{}/problems/{dir}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
    v.sort();
    v
}

/// Keys and help lines, as texts.
fn solutions(path: &Path, orthodox: bool) -> Vec<String> {
    let p = &load_file(path).unwrap()[0];
    let mut t = p.twin_instances().unwrap().remove(0);
    if orthodox {
        t.condition = Condition::Orthodox;
    }
    let r = solve_twin(
        &t.search_input(),
        &Rules::new(t.condition),
        &Settings {
            threads: 1,
            hash_mb: 16,
            ..Settings::default()
        },
    );
    // Brackets off, so that a one-step combo `[Qe4*c2] #` compares equal to `Qe4*c2 #`.
    let mut out: Vec<String> = r
        .keys
        .iter()
        .map(|k| k.text.replace(['[', ']'], ""))
        .collect();
    out.extend(r.lines.iter().map(|l| {
        l.iter()
            .map(|m| m.text.replace(['[', ']'], ""))
            .collect::<Vec<_>>()
            .join(" ")
    }));
    out
}

/// Runs chainmate with `args` and the file, checks that stdout is the committed `.out`
/// beside it, and returns the exit code.
fn prints_the_committed_output(f: &Path, args: &[&str]) -> Option<i32> {
    // Run from the repository root with the path as a user would give it there, since
    // `solve` prints the file name above each solution.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .current_dir(root)
        .args(args)
        .arg(f.strip_prefix(root).unwrap_or(f))
        .output()
        .unwrap();
    let expected = std::fs::read_to_string(f.with_extension("out")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        expected,
        "{}",
        f.display()
    );
    out.status.code()
}

fn check_dir(dir: &str, condition: Condition) {
    check_dir_any(dir, &[condition]);
}

fn check_dir_any(dir: &str, conditions: &[Condition]) {
    let files = problems(dir);
    assert!(files.len() >= 5, "{dir}: at least 5 problems");
    for f in files {
        let p = &load_file(&f).unwrap()[0];
        assert!(conditions.contains(&p.condition), "{}", f.display());
        prints_the_committed_output(&f, &["solve", "-q", "--no-board"]);
        let with = solutions(&f, false);
        let without = solutions(&f, true);
        assert!(
            !with.is_empty(),
            "{}: solved under the condition",
            f.display()
        );
        assert_ne!(with, without, "{}: the condition must matter", f.display());
    }
}

#[test]
fn teleport_problems() {
    check_dir("teleport", Condition::Teleport);
}

#[test]
fn kazan_problems() {
    check_dir("kazan", Condition::Kazan);
}

#[test]
fn pocket_mutation_problems() {
    check_dir("pocket-mutation", Condition::PocketMutation);
}

#[test]
fn tatarstan_problems() {
    check_dir_any(
        "tatarstan",
        &[Condition::Tatarstan, Condition::TatarstanNoChains],
    );
}

#[test]
fn combo_problems() {
    check_dir("combo", Condition::Combo);
}

/// The Combo stalemate claims in problems/combo/claims: `chainmate claim` prints the
/// committed `.out` (the proof), exits 0 when the claim holds and 1 when it fails, and the
/// JSON proof passes `verify-claim`.
#[test]
fn combo_claims() {
    let files = problems("combo/claims");
    assert!(files.len() >= 2, "a claim that holds and one that fails");
    let mut codes = vec![];
    for f in files {
        codes.push(prints_the_committed_output(&f, &["claim"]));
        let json = Command::new(env!("CARGO_BIN_EXE_chainmate"))
            .args(["claim", "--format", "json", f.to_str().unwrap()])
            .output()
            .unwrap();
        let proof = std::env::temp_dir().join(format!(
            "chainmate-proof-{}-{}.json",
            std::process::id(),
            f.file_stem().unwrap().to_string_lossy()
        ));
        std::fs::write(&proof, &json.stdout).unwrap();
        let v = Command::new(env!("CARGO_BIN_EXE_chainmate"))
            .args(["verify-claim", proof.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(
            v.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&v.stdout)
        );
        let _ = std::fs::remove_file(&proof);
    }
    assert!(
        codes.contains(&Some(0)) && codes.contains(&Some(1)),
        "{codes:?}"
    );
}
