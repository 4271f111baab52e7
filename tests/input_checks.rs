//! Bad and borderline input through the real binary (issue 19): deep YAML nesting, pawns
//! on their first rank with `--fen`, impossible en-passant fields, twin lines and
//! stipulations as Popeye writes or names them. Bad input exits 2 with the file, line and
//! what is wrong; never a panic or a hang.

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod common;
use common::{chainmate, root};

/// A scratch directory for this test binary.
fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chainmate-input-checks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn assert_input_error(args: &[&str], says: &[&str]) {
    let (code, _, stderr) = chainmate(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    for s in says {
        assert!(stderr.contains(s), "{args:?}: expected '{s}' in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// 100,000 `[` in a field: refused at once (serde_yaml alone takes most of a minute to
/// reach its recursion limit), naming the file and the line.
#[test]
fn deep_yaml_nesting_is_refused_at_once() {
    let text = format!(
        "stipulation: \"#2\"\nalgebraic:\n  white: [Ke1]\n  black: [Ke8]\ntitle: {}\n",
        "[".repeat(100_000)
    );
    let path = scratch("deep.yaml", &text);
    let file = path.to_str().unwrap();
    for args in [vec!["show", file], vec!["solve", "-q", file]] {
        let cmd = args[0];
        let started = Instant::now();
        let (code, _, stderr) = chainmate(&args);
        let took = started.elapsed();
        assert_eq!(code, 2, "{cmd}: {stderr}");
        assert!(
            stderr.contains(&format!("{file}:5:")) && stderr.contains("nested too deeply"),
            "{cmd}: {stderr}"
        );
        // A generous bound: the point is that it does not take the quadratic minute.
        assert!(took < Duration::from_secs(5), "{cmd} took {took:?}");
    }
    // The same with flow mappings.
    let text = format!(
        "stipulation: \"#2\"\nalgebraic: {{white: [Ke1], black: [Ke8]}}\ncomments: {}\n",
        "{a: ".repeat(100_000)
    );
    let path = scratch("deep_map.yaml", &text);
    let started = Instant::now();
    assert_input_error(
        &["show", path.to_str().unwrap()],
        &["deep_map.yaml:3:", "nested too deeply"],
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// A pawn on its own first rank is legal under Teleport and Pocket Mutation: `solve --fen`
/// accepts it there as the problem files do, and refuses it under the other conditions;
/// `perft`, `replay` and `claim` with `--fen` check the same.
#[test]
fn fen_pawn_on_first_rank_follows_the_condition() {
    // White: Ke1, Pa1; Black: Ke8.
    let fen = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";
    for cond in ["teleport", "pocket-mutation"] {
        let (code, stdout, stderr) = chainmate(&[
            "solve",
            "-q",
            "--no-board",
            "--fen",
            fen,
            "--stipulation",
            "h#1",
            "--condition",
            cond,
        ]);
        assert_eq!(code, 0, "{cond}: {stderr}");
        assert!(stdout.contains("solution finished"), "{cond}: {stdout}");
        let (code, _, stderr) =
            chainmate(&["perft", "--fen", fen, "--depth", "1", "--condition", cond]);
        assert_eq!(code, 0, "{cond}: {stderr}");
    }
    for cond in ["orthodox", "kazan", "tatarstan", "combo"] {
        assert_input_error(
            &[
                "solve",
                "-q",
                "--fen",
                fen,
                "--stipulation",
                "#2",
                "--condition",
                cond,
            ],
            &["<fen>", "white pawn on a1"],
        );
        assert_input_error(
            &["perft", "--fen", fen, "--depth", "1", "--condition", cond],
            &["--fen", "white pawn on a1"],
        );
    }
    assert_input_error(
        &["solve", "-q", "--fen", fen, "--stipulation", "#2"],
        &["white pawn on a1"],
    );
    assert_input_error(&["claim", "--fen", fen], &["white pawn on a1"]);
    let moves = scratch("none.txt", "");
    assert_input_error(
        &["replay", moves.to_str().unwrap(), "--fen", fen],
        &["white pawn on a1"],
    );
    let (code, _, stderr) = chainmate(&["claim", "--fen", fen, "--condition", "teleport"]);
    assert!(code == 0 || code == 1, "{stderr}");
}

/// An en-passant field no pawn can have made is refused by every reader of FEN strings;
/// one that is possible but that no pawn can use is accepted (and dropped).
#[test]
fn impossible_en_passant_field_is_refused_everywhere() {
    // f6 with White to move, but no black pawn on f5.
    let bad = "4k3/8/8/4P3/8/8/8/4K3 w - f6 0 1";
    let says = ["impossible en-passant square f6", "no black pawn on f5"];
    let mut args = vec!["solve", "-q", "--fen", bad, "--stipulation", "#2"];
    assert_input_error(&args, &says);
    args.extend(["--condition", "teleport"]);
    assert_input_error(&args, &says);
    assert_input_error(&["perft", "--fen", bad, "--depth", "1"], &says);
    assert_input_error(&["claim", "--fen", bad], &says);
    let moves = scratch("empty.txt", "");
    assert_input_error(&["replay", moves.to_str().unwrap(), "--fen", bad], &says);
    let file = scratch(
        "ep.fen",
        &format!("4k3/8/4K3/8/8/8/8/3Q4 ; #2\n{bad} ; #2\n"),
    );
    assert_input_error(&["show", file.to_str().unwrap()], &["ep.fen:2:1:", says[0]]);
    let yaml = scratch("ep.yaml", &format!("stipulation: \"#2\"\nfen: \"{bad}\"\n"));
    assert_input_error(&["show", yaml.to_str().unwrap()], &["ep.yaml:2", says[0]]);
    // The square the pawn passed is occupied; the wrong rank for the side to move.
    assert_input_error(
        &[
            "perft",
            "--fen",
            "4k3/8/5n2/4Pp2/8/8/8/4K3 w - f6 0 1",
            "--depth",
            "1",
        ],
        &["impossible en-passant square f6: it must be empty"],
    );
    // The square the pawn came from is occupied: impossible in orthodox chess (and
    // Pocket Mutation), possible where the same move refills it (a teleporting two-step,
    // a Kazan follower, a combo).
    let refilled = "4k3/5n2/8/4Pp2/8/8/8/4K3 w - f6 0 1";
    let says = ["impossible en-passant square f6", "f7 must be empty"];
    for cond in ["orthodox", "pocket-mutation", "tatarstan-nochains"] {
        assert_input_error(
            &[
                "perft",
                "--fen",
                refilled,
                "--depth",
                "1",
                "--condition",
                cond,
            ],
            &says,
        );
        assert_input_error(
            &[
                "solve",
                "-q",
                "--fen",
                refilled,
                "--stipulation",
                "#1",
                "--condition",
                cond,
            ],
            &says,
        );
    }
    for cond in ["teleport", "kazan", "tatarstan", "combo"] {
        let (code, _, stderr) = chainmate(&[
            "perft",
            "--fen",
            refilled,
            "--depth",
            "1",
            "--condition",
            cond,
        ]);
        assert_eq!(code, 0, "{cond}: {stderr}");
    }
    let file = scratch(
        "refilled.fen",
        &format!("{refilled} ; #1 ; Teleport\n{refilled} ; #1\n"),
    );
    assert_input_error(
        &["show", file.to_str().unwrap()],
        &["refilled.fen:2:1:", says[1]],
    );
    assert_input_error(
        &[
            "perft",
            "--fen",
            "4k3/8/8/4Pp2/8/8/8/4K3 b - f6 0 1",
            "--depth",
            "1",
        ],
        &["3rd rank"],
    );
    // Possible but unusable: accepted.
    let (code, stdout, stderr) = chainmate(&[
        "perft",
        "--fen",
        "4k3/8/8/5p2/8/8/8/4K3 w - f6 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.ends_with("Nodes searched: 5\n"), "{stdout}");
    // Possible and usable: e5*f6 is one of the moves.
    let (code, stdout, _) = chainmate(&[
        "perft",
        "--fen",
        "4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 1",
        "--depth",
        "1",
        "--divide",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("e5*f6 ep. 1"), "{stdout}");
}

/// Every en-passant field of the shipped perft suites is a possible one.
#[test]
fn perft_suites_still_load() {
    let dir = root("tests/data/perft");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "epd") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fen = line.split(';').next().unwrap().trim();
            chainmate::position::Position::from_fen(fen)
                .unwrap_or_else(|e| panic!("{}: {fen}: {e}", path.display()));
            n += 1;
        }
    }
    assert!(n > 127, "{n}");
}

/// Popeye's twin lines: an Add onto an occupied square replaces the piece and is written
/// without `+` (`bRa6`); a zero position prints Popeye's `zeroposition` line after the
/// diagram of the zero position itself.
#[test]
fn twin_lines_as_popeye_writes_them() {
    let inp = scratch(
        "add.inp",
        "BeginProblem\nStipulation #1\nOption NoBoard\nPieces White Kc1 Qa6 Black Ka8\n\
         Twin Add black Ra6\nTwin Move a6 a7\nEndProblem\n",
    );
    let (code, stdout, stderr) = chainmate(&["solve", "-q", inp.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\nb) bRa6\n"), "{stdout}");
    assert!(stdout.contains("\nc) wQa6-->a7\n"), "{stdout}");
    // After the header (with NoBoard: the problem's name line and the stipulation line).
    assert!(stdout.contains("\n\na) \n"), "{stdout}");

    let zero = scratch(
        "zero.inp",
        "BeginProblem\nStipulation #2\nForsyth 4k3/8/4K3/8/8/8/8/3Q4\n\
         ZeroPosition Move d1 d2\nTwin Move d1 d3\nEndProblem\n",
    );
    let (code, stdout, stderr) = chainmate(&["solve", "-q", zero.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let at = stdout
        .find("\nzeroposition\n\n\na) wQd1-->d2\n")
        .expect(&stdout);
    // The diagram before it is the zero position: the queen still on d1.
    let board = &stdout[..at];
    let rank1 = board
        .lines()
        .find(|l| l.starts_with("1 ") && l.trim_end().ends_with(" 1"))
        .unwrap();
    assert!(rank1.contains('Q'), "{board}");
    assert!(stdout.contains("\nb) wQd1-->d3\n"), "{stdout}");
    // Without a board too.
    let (_, stdout, _) = chainmate(&["solve", "-q", "--no-board", zero.to_str().unwrap()]);
    assert!(
        stdout.contains("\nzeroposition\n\n\na) wQd1-->d2\n") && !stdout.contains("+---a"),
        "{stdout}"
    );
}

/// Stipulations Popeye knows and chainmate does not solve are named as not supported, in
/// every reader.
#[test]
fn unsupported_popeye_stipulations_are_named() {
    let says = ["stipulation 'hr#2' (help-reflexmate) is not supported"];
    assert_input_error(
        &[
            "solve",
            "-q",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3",
            "--stipulation",
            "hr#2",
        ],
        &says,
    );
    let inp = scratch(
        "hs.inp",
        "BeginProblem\nStipulation hr#2\nPieces White Ke1 Black Ke8\nEndProblem\n",
    );
    assert_input_error(&["show", inp.to_str().unwrap()], &["hs.inp:2:", says[0]]);
    let yaml = scratch(
        "hs.yaml",
        "algebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"hr#2\"\n",
    );
    assert_input_error(&["show", yaml.to_str().unwrap()], &["hs.yaml:2", says[0]]);
    let fen = scratch("hs.fen", "4k3/8/8/8/8/8/8/4K3 ; ser-r#3\n");
    assert_input_error(
        &["show", fen.to_str().unwrap()],
        &[
            "hs.fen:1:",
            "'ser-r#3' (series reflexmate) is not supported",
        ],
    );
    assert_input_error(
        &[
            "solve",
            "-q",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3",
            "--stipulation",
            "exact-h#2",
        ],
        &["'exact-h#2' (exact length) is not supported"],
    );
    // A twin's stipulation too.
    let twin = scratch(
        "twin.inp",
        "BeginProblem\nStipulation #2\nPieces White Ke1 Black Ke8\nTwin Stipulation hr#2\nEndProblem\n",
    );
    assert_input_error(
        &["show", twin.to_str().unwrap()],
        &["twin.inp:4:", "'hr#2' (help-reflexmate) is not supported"],
    );
    // Not a stipulation at all: still malformed.
    assert_input_error(
        &[
            "solve",
            "-q",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3",
            "--stipulation",
            "h#x",
        ],
        &["malformed stipulation 'h#x'"],
    );
}
