//! Tests of the real binary: shipped problems against Popeye's output, thread-count
//! determinism, JSON output, perft output and exit codes for bad input.

use common::solution_text::{diff, parse};
use std::path::Path;

mod common;
use common::{chainmate, root};

/// Every shipped orthodox problem prints what Popeye 4.104 printed for it (the `.out`
/// beside it is Popeye's own output), compared as sets of solution paths.
#[test]
fn shipped_problems_match_popeye() {
    let dir = root("problems/orthodox");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("inp") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let (code, stdout, stderr) =
            chainmate(&["solve", "--quiet", "--no-board", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{}: {stderr}", path.display());
        let d = diff(&parse(&expected), &parse(&stdout));
        assert!(d.is_empty(), "{}:\n{}", path.display(), d.join("\n"));
        checked += 1;
    }
    assert!(checked >= 10);
}

#[test]
fn yaml_problem_matches_popeye() {
    let expected = std::fs::read_to_string(root("problems/orthodox/d2_0335.out")).unwrap();
    let (code, stdout, _) =
        chainmate(&["solve", "-q", &root("problems/orthodox/armeni_tries.yaml")]);
    assert_eq!(code, 0);
    assert!(
        diff(&parse(&expected), &parse(&stdout)).is_empty(),
        "{stdout}"
    );
}

#[test]
fn output_is_the_same_for_every_thread_count() {
    for p in [
        "problems/orthodox/d4_0166.inp",
        "problems/orthodox/h2_0156.inp",
        "problems/orthodox/ser6_0189.inp",
        "problems/combo/04_mate3.yaml",
        "problems/combo/05_help1.yaml",
        "problems/tatarstan/07_mate2.yaml",
        "problems/kazan/03_help1.yaml",
        // Help and series play with several solutions, split below the root.
        "tests/data/popeye/h3_0676.inp",
        "tests/data/popeye/ser3_0597.inp",
        "tests/data/popeye/ser5_0537.inp",
        "tests/data/popeye/hs5_0564.inp",
    ] {
        let (_, one, _) = chainmate(&["solve", "-q", "--threads", "1", &root(p)]);
        let (_, two, _) = chainmate(&["solve", "-q", "--threads", "2", &root(p)]);
        let (_, four, _) = chainmate(&["solve", "-q", "--threads", "4", &root(p)]);
        assert_eq!(one, two, "{p}");
        assert_eq!(one, four, "{p}");
    }
}

#[test]
fn json_output() {
    let (code, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--format",
        "json",
        &root("problems/orthodox/d2_2399.inp"),
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let twin = &v["problems"][0]["twins"][0];
    let keys: Vec<&str> = twin["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["text"].as_str().unwrap())
        .collect();
    // A cooked #2: both keys are reported.
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert_eq!(twin["complete"], true);
    assert!(twin["keys"][0]["from"].is_string() && twin["keys"][0]["to"].is_string());
}

#[test]
fn help_lines_in_json() {
    let (_, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--format",
        "json",
        &root("problems/orthodox/h2_0156.inp"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let lines = v["problems"][0]["twins"][0]["lines"].as_array().unwrap();
    assert!(!lines.is_empty());
    assert_eq!(
        lines[0].as_array().unwrap().len(),
        4,
        "h#2 lines have four half-moves"
    );
}

#[test]
fn perft_divide() {
    let (code, stdout, _) = chainmate(&["perft", "--depth", "3", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 8902");
    assert!(lines.contains(&"e2-e4 600"));
}

#[test]
fn bad_input_exits_2_with_location() {
    let dir = std::env::temp_dir().join(format!("chainmate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "stipulation: \"#2\"\nalgebraic:\n  white: [Kg1, Xf3]\n  black: [Ke8]\n",
    )
    .unwrap();
    let (code, _, stderr) = chainmate(&["solve", "-q", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("bad.yaml:3") && stderr.contains("unknown piece code 'X'"),
        "{stderr}"
    );

    let hash = dir.join("hash.yaml");
    std::fs::write(
        &hash,
        "stipulation: #3\nalgebraic:\n  white: [Kg1]\n  black: [Ke8]\n",
    )
    .unwrap();
    let (code, _, stderr) = chainmate(&["solve", "-q", hash.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.to_lowercase().contains("quot"), "{stderr}");

    let (code, _, stderr) = chainmate(&["perft", "--fen", "8/8/8 w", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("ranks"), "{stderr}");
    let (code, _, _) = chainmate(&[
        "solve",
        "-q",
        Path::new("/nonexistent/x.inp").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);

    // --condition and --stipulation go with --fen only: a file states its own, and a
    // condition silently ignored would be a wrong answer to the question asked.
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/problems/kazan/06_help3.yaml");
    for flag in ["--condition", "--stipulation"] {
        let (code, stdout, stderr) = chainmate(&["solve", "-q", good, flag, "orthodox"]);
        assert_eq!(code, 2, "{flag}: {stdout}");
        assert!(stderr.contains("--fen"), "{flag}: {stderr}");
    }
}

#[test]
fn time_limit_stops_and_marks_the_result_incomplete() {
    let (code, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--time-limit",
        "0.2",
        &root("tests/data/popeye/bench/bench_12.inp"),
    ]);
    // A stopped search has its own exit code, 3.
    assert_eq!(code, 3);
    assert!(stdout.contains("incomplete"), "{stdout}");
    let (_, json, _) = chainmate(&[
        "solve",
        "-q",
        "--format",
        "json",
        "--time-limit",
        "0.2",
        &root("tests/data/popeye/bench/bench_12.inp"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["problems"][0]["twins"][0]["complete"], false);
}

/// `chainmate perft` promotes to the fairy kinds on the board (Popeye's convention) under
/// every condition: depth-1 counts of the reference generators (tests/reference_*.rs),
/// which would be smaller with Q, S, R, B only.
#[test]
fn perft_promotes_to_the_fairy_pieces_of_the_diagram() {
    for (condition, fen, n) in [
        // b8 = Q, S, R, B, amazon or nightrider: 6 (4 without the fairy kinds).
        ("orthodox", "3k4/1P6/8/8/8/8/8/(AM)3K2(n) w - - 0 1", 29),
        // The teleport b7<->b8 gives b8 = Q, S, R, B or super rook.
        ("teleport", "1(KR)6/1P5k/8/8/8/8/8/4K3 w - - 0 1", 19),
        // Six nightrider leaders, each followed by a7-a8 = Q, S, R, B or nightrider.
        ("kazan", "(N)7/P6k/8/8/8/8/8/4K3 w - - 0 1", 35),
        // D8: Rd8 (a rook-nightrider) becomes a pawn on the last rank and promotes.
        ("tatarstan", "7k/2P5/8/8/8/8/8/3(NR)K3 w - - 0 1", 32),
        (
            "tatarstan-nochains",
            "7k/2P5/8/8/8/8/8/3(NR)K3 w - - 0 1",
            32,
        ),
        // [a7-a8 = Q, S, R, B or nightrider challenging the nightrider; N to 6 squares].
        ("combo", "(N)7/P7/8/7k/8/8/8/7K w - - 0 1", 39),
        // No promotion by moving; the pawn a8 is pocketed as S or B only (D14).
        ("pocket-mutation", "P3k3/8/8/8/8/8/8/(N)3K3 w - - 0 1", 16),
    ] {
        let (code, stdout, stderr) = chainmate(&[
            "perft",
            "--condition",
            condition,
            "--fen",
            fen,
            "--depth",
            "1",
        ]);
        assert_eq!(code, 0, "{condition}: {stderr}");
        assert!(
            stdout.ends_with(&format!("Nodes searched: {n}\n")),
            "{condition} {fen}: {stdout}"
        );
    }
}

#[test]
fn conditions_on_the_command_line() {
    let (code, stdout, _) = chainmate(&["perft", "--condition", "teleport", "--depth", "1"]);
    assert_eq!(code, 0);
    assert!(stdout.ends_with("Nodes searched: 34\n"), "{stdout}");
    let (code, stdout, _) = chainmate(&["perft", "--condition", "kazan", "--depth", "2"]);
    assert_eq!(code, 0);
    assert!(stdout.ends_with("Nodes searched: 400\n"), "{stdout}");
    let (code, _, stderr) = chainmate(&["perft", "--condition", "nonsense", "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nonsense"));
    let (code, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--no-board",
        "--fen",
        "B6k/6pp/8/8/8/8/8/R1K5 w - - 0 1",
        "--stipulation",
        "#1",
        "--condition",
        "teleport",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("1.Ra1-a8<->Ba8 # !"), "{stdout}");
}

#[test]
fn max_solutions_cuts_and_says_partial() {
    let (code, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--max-solutions",
        "2",
        &root("tests/data/popeye_extra/ep_help.inp"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("  1.")).count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("Partial solution"), "{stdout}");
}

#[test]
fn replay_checks_each_move_and_prints_positions() {
    let dir = std::env::temp_dir().join(format!("chainmate-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // Orthodox, English letters (N = knight when no nightrider is on the board).
    let (code, out, _) = chainmate(&[
        "replay",
        &game("o.txt", "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#"),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("4.Qh5*f7 # "),
        "{out}"
    );
    // Kazan: the chain may be omitted; the seed's second move and its chain.
    let (code, out, _) = chainmate(&[
        "replay",
        "--condition",
        "kazan",
        &game("k.txt", "1.e4 e5 2.b3"),
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("2.b2-b3 (Bc1-b2, Se2-c1, Bf1-e2, Rg1-f1) "),
        "{out}"
    );
    // Pocket Mutation game start (D15): White may not pocket first; Black may.
    let (code, _, err) = chainmate(&[
        "replay",
        "--condition",
        "pocket-mutation",
        &game("p1.txt", "1.Ra1->pocket"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("1.Ra1->pocket is not a legal"), "{err}");
    let (code, out, _) = chainmate(&[
        "replay",
        "--condition",
        "pocket-mutation",
        &game("p2.txt", "1.e4 Ra8->pocket=N 2.d4 N@e5"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("N@e5"), "{out}");
    // An illegal move is an input error naming the move.
    let (code, _, err) = chainmate(&["replay", &game("bad.txt", "1.e5")]);
    assert_eq!(code, 2);
    assert!(err.contains("1.e5 is not a legal orthodox move"), "{err}");
}

#[test]
fn stalemate_claims() {
    let (code, out, _) = chainmate(&["claim", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(code, 0);
    assert!(out.contains("claim holds"), "{out}");
    // In Kazan the pawn may not move (the king would have to follow into check) ...
    let kazan = "8/Q3p3/3k4/8/4Q3/8/6K1/8 b - - 0 1";
    let (code, out, _) = chainmate(&["claim", "--fen", kazan, "--condition", "kazan"]);
    assert_eq!(code, 0, "{out}");
    // ... in orthodox chess it may.
    let (code, out, _) = chainmate(&["claim", "--fen", kazan, "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["holds"], false);
    assert_eq!(v["in_check"], false);
    assert!(
        v["safe_move"].as_str().unwrap().starts_with("e7-e"),
        "{out}"
    );
    let (code, out, _) = chainmate(&["claim", "--fen", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"]);
    assert_eq!(code, 1);
    assert!(out.contains("in check"), "{out}");
    let (code, _, err) = chainmate(&["claim", "--fen", "4k3/4r3/8/8/8/8/8/4K3 b - - 0 1"]);
    assert_eq!(code, 2);
    assert!(err.contains("illegal position"), "{err}");
}

#[test]
fn combo_replay_claim_and_proof() {
    let dir = std::env::temp_dir().join(format!("chainmate-combo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // The seed's game, then its 23-step fourth move (written over two lines).
    let seed = "1. [Bg2; g3] [Qc8; Bb7; b6]\n2. [Qe1; O-O; Ne2; e3] [Qb7; Bxg2]\n\
                3. [Rb1; Nd2; d4] [Qg2+; Bh3]\n\
                4. [Kf1; Re1; Qf1; Ke1; Rf1; Qe2; Nc1; Bd2; Nf1; Re1; Kd2; Bc1; Ne2; Qe1;\n\
                Rc1; Bd2; Kc1; Rb1; Rc1; Kb1; Rc1; Rb1; Ka1]\n";
    let (code, out, err) = chainmate(&["replay", "--condition", "combo", &file("g.txt", seed)]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert!(
        lines[6].starts_with("3...[Qg2; Bh3]+ ") && lines[6].ends_with("(combo check)"),
        "{out}"
    );
    assert!(
        lines[7].ends_with("rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPBNPqP/KRR1QN2 b kq - 2 4"),
        "{out}"
    );
    // A wrong step is an input error naming the move and the step.
    let (code, _, err) = chainmate(&[
        "replay",
        "--condition",
        "combo",
        &file("bad.txt", "1. [Bg2; g5]"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("move 1.[Bg2; g5]: step 2"), "{err}");
    // A game may leave the own king capturable, and ends when a king is captured.
    let (code, out, _) = chainmate(&[
        "replay",
        "--condition",
        "combo",
        "--fen",
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        &file("cap.txt", "1. [Kf1] [Qf2]\n2. [Kg1] [Qxg1]"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(own king left capturable"), "{out}");
    assert!(out.trim_end().ends_with("(king captured)"), "{out}");
    // Claims: holds (with the proof), in combo check, safe move; JSON proof verified, and a
    // doctored proof rejected.
    let fen = "8/8/8/8/8/1qk5/8/K7 w - - 0 1";
    let (code, out, _) = chainmate(&["claim", "--condition", "combo", "--fen", fen]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("[Ka2] [Qxa2]"), "{out}");
    let (code, json, _) = chainmate(&[
        "claim",
        "--condition",
        "combo",
        "--fen",
        fen,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let proof = file("proof.json", &json);
    let (code, out, _) = chainmate(&["verify-claim", &proof]);
    assert_eq!(code, 0, "{out}");
    let doctored = file("bad.json", &json.replace("[Qxa2]", "[Qb2]"));
    let (code, out, _) = chainmate(&["verify-claim", &doctored]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not capture the king"), "{out}");
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["refutations"].as_array_mut().unwrap().pop();
    let (code, out, _) = chainmate(&["verify-claim", &file("short.json", &v.to_string())]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("is not refuted"), "{out}");
    let (code, out, _) = chainmate(&[
        "claim",
        "--condition",
        "combo",
        "--fen",
        "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPNNPqP/1RB1QRK1 w kq - 0 1",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains("in combo check: black can play [Qxg1]"),
        "{out}"
    );
    // --side black: Black claims in a position given with White to move.
    let (code, out, _) = chainmate(&[
        "claim",
        "--condition",
        "combo",
        "--side",
        "black",
        "--fen",
        "k7/8/1QK5/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("black is not in combo check") && out.contains("[Kb8] [Qxb8]"),
        "{out}"
    );
    let (code, _, err) = chainmate(&["verify-claim", &file("junk.json", "{\"fen\": 3}")]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn tatarstan_replay() {
    let dir = std::env::temp_dir().join(format!("chainmate-tat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("t.txt");
    std::fs::write(&p, "1.Nf3").unwrap();
    let (code, out, _) = chainmate(&[
        "replay",
        "--condition",
        "tatarstan-nochains",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1.Sg1-f3 (f3=P, ")
            && out.contains("rnbqkbnr/pppppppp/8/8/8/5R2/RRRRRRRR/RRRRKR1R b KQkq"),
        "{out}"
    );
}

/// A YAML key outside the YACPDB schema stops `solve` with exit 2, naming the file, the
/// line and the key, and suggesting the nearest known key.
#[test]
fn yaml_key_typos_are_input_errors() {
    for (file, line, hint) in [
        (
            "option_typo.yaml",
            5,
            "unknown key 'option' (did you mean 'options'?)",
        ),
        (
            "twin_typo.yaml",
            6,
            "unknown key 'twin' (did you mean 'twins'?)",
        ),
    ] {
        let path = root(&format!("tests/data/yaml_keys/{file}"));
        let (code, _, stderr) = chainmate(&["solve", "-q", &path]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(&format!("{path}:{line}:1: ")), "{stderr}");
        assert!(stderr.contains(hint), "{stderr}");
    }
}

/// `solve` prints a line naming the problem and its file, then Popeye's header: author,
/// origin, award and title centred over the board, the board, and the stipulation line
/// with the piece count; with `--no-board` the same without the board. The solution is
/// Popeye's (the header does not confuse the comparison).
#[test]
fn header_as_popeye_prints_it() {
    let board = "\n+---a---b---c---d---e---f---g---h---+\n\
                 |                                   |\n\
                 8   .   .   .   .   .   .   .   .   8\n\
                 |                                   |\n\
                 7   Q   .   .   .   .   .   .   .   7\n";
    let count = "\n  #2                          3 + 1\n\n   1.Qa7-f2 ! threat:\n";
    for (file, origin) in [
        ("meta.inp", "          Chessics #4 1977\n"),
        ("meta.yaml", "          Chessics 4, 1977\n"),
    ] {
        let rel = format!("tests/data/header/{file}");
        let meta = format!(
            "             M.Hanazawa\n{origin}              1st Prize\n             header test\n"
        );
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_chainmate"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
        let out = cmd.args(["solve", "-q", &rel]).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.starts_with(&format!("header test  {rel}\n\n{meta}{board}")),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("+---a---b---c---d---e---f---g---h---+{count}")),
            "{stdout}"
        );
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_chainmate"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
        let out = cmd
            .args(["solve", "-q", "--no-board", &rel])
            .output()
            .unwrap();
        let no_board = String::from_utf8_lossy(&out.stdout);
        assert!(
            no_board.starts_with(&format!("header test  {rel}\n{meta}{}", &count[1..])),
            "{no_board}"
        );
        for text in [&stdout, &no_board] {
            let d = diff(&parse(&stdout), &parse(text));
            assert!(d.is_empty(), "{}", d.join("\n"));
            assert_eq!(parse(text).nodes.len(), 2, "{text}");
        }
    }
    // A FEN on the command line: no meta, the name and `<fen>`.
    let (code, stdout, _) = chainmate(&[
        "solve",
        "-q",
        "--no-board",
        "--fen",
        "8/Q7/8/8/8/8/8/2k1K2R",
        "--stipulation",
        "#2",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("<fen>  <fen>\n  #2                          3 + 1\n\n   1.Qa7-f2 !\n"),
        "{stdout}"
    );
}

/// `--exhaustive` (the plain search, without the help-play cuts) prints exactly what the
/// default search prints, for help, series and help-stalemate problems and for `check`.
#[test]
fn exhaustive_search_prints_the_same() {
    for f in [
        "problems/orthodox/h2_0156.inp",
        "problems/orthodox/ser6_0189.inp",
        "problems/orthodox/hs2_0556.inp",
        "problems/orthodox/h1h_2537.inp",
        "problems/kazan/03_help1.yaml",
        // Help and series play with several solutions, split below the root.
        "tests/data/popeye/h3_0676.inp",
        "tests/data/popeye/ser3_0597.inp",
        "tests/data/popeye/ser5_0537.inp",
        "tests/data/popeye/hs5_0564.inp",
    ] {
        let path = root(f);
        let (c1, cut, _) = chainmate(&["solve", "-q", "--threads", "1", &path]);
        let (c2, plain, err) = chainmate(&["solve", "-q", "--threads", "1", "--exhaustive", &path]);
        assert_eq!((c1, c2), (0, 0), "{f}: {err}");
        assert_eq!(cut, plain, "{f}");
        assert!(plain.contains('#') || plain.contains('='), "{f}: {plain}");
    }
    let (code, out, _) = chainmate(&["check", "-q", "--exhaustive", &root("problems/kazan")]);
    assert_eq!(code, 0, "{out}");
}
