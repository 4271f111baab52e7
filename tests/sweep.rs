//! Defects found by a correctness sweep (hostile input, our own notation read back, stops),
//! each pinned by a test that failed before its fix.

mod common;
use common::chainmate;
use std::path::PathBuf;

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chainmate-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn claim_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["claim", "--format", "json"];
    all.extend_from_slice(args);
    let (_, out, err) = chainmate(&all);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"))
}

fn verify(name: &str, proof: &serde_json::Value) -> (i32, String, String) {
    chainmate(&["verify-claim", &temp_file(name, &proof.to_string())])
}

/// A proof checker checks every field it prints: a proof whose fields contradict each other
/// or the position is rejected.
#[test]
fn verify_claim_checks_every_field() {
    // Combo, claimant in combo check: the proof is right as printed ...
    let fen = "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPNNPqP/1RB1QRK1 w kq - 0 1";
    let proof = claim_json(&["--condition", "combo", "--fen", fen]);
    assert_eq!(proof["in_check"], true);
    let (code, out, _) = verify("check.json", &proof);
    assert_eq!(code, 0, "{out}");
    // ... but not with "holds": true beside "in_check": true.
    let mut bad = proof.clone();
    bad["holds"] = true.into();
    let (code, out, _) = verify("check-holds.json", &bad);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("contradict"), "{out}");
    // A claimant that is not the side to move.
    let ok = claim_json(&[
        "--condition",
        "combo",
        "--fen",
        "8/8/8/8/8/1qk5/8/K7 w - - 0 1",
    ]);
    assert_eq!(verify("ok.json", &ok).0, 0);
    let mut bad = ok.clone();
    bad["claimant"] = "black".into();
    let (code, out, _) = verify("claimant.json", &bad);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("claimant"), "{out}");
    // A holding claim with a safe move beside it; refutations on a failing claim.
    let mut bad = ok.clone();
    bad["safe_move"] = "[Kb1]".into();
    assert_eq!(verify("holds-safe.json", &bad).0, 1);
    let mut bad = ok.clone();
    bad["holds"] = false.into();
    assert_eq!(verify("fails-refuted.json", &bad).0, 1);
    // Orthodox: a failing claim whose safe move is not a move.
    let orth = claim_json(&["--fen", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"]);
    assert_eq!(orth["holds"], false);
    assert_eq!(verify("orth.json", &orth).0, 0);
    let mut bad = orth.clone();
    bad["safe_move"] = "Ke1-e3".into();
    let (code, out, _) = verify("orth-safe.json", &bad);
    assert_eq!(code, 1, "{out}");
    let mut bad = orth.clone();
    bad["claimant"] = "black".into();
    assert_eq!(verify("orth-claimant.json", &bad).0, 1);
    // A field the format does not have is an input error, not silently ignored.
    let mut bad = orth.clone();
    bad["hold"] = true.into();
    let (code, _, err) = verify("typo.json", &bad);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("hold"), "{err}");
}

/// The Combo reader names every piece chainmate prints: two-letter codes, and `N` the
/// nightrider where one can make the step (the knight otherwise, as in the seed's games).
#[test]
fn combo_proofs_with_fairy_pieces_verify() {
    let proof = claim_json(&[
        "--condition",
        "combo",
        "--fen",
        "K7/8/1(kr)6/8/8/8/8/7k w - - 0 1",
    ]);
    assert_eq!(proof["holds"], true, "{proof}");
    assert!(proof.to_string().contains("[KRxa7]"), "{proof}");
    let (code, out, _) = verify("fairy.json", &proof);
    assert_eq!(code, 0, "{out}");
    let game = temp_file(
        "fairy-game.txt",
        "1.[KGb3-d4] [Kd7] 2.[AMa1-a5] [Kc8] 3.[Nd1-c3]",
    );
    let (code, out, err) = chainmate(&[
        "replay",
        "--condition",
        "combo",
        "--fen",
        "4k3/8/8/8/8/1(KG)6/8/(AM)2(N)K3 w - - 0 1",
        &game,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3.[Nc3]"), "{out}");
}

/// `replay` reads chainmate's own long en-passant text, and keeps the move counters.
#[test]
fn replay_reads_en_passant_and_counts_moves() {
    let game = temp_file(
        "ep.txt",
        "1.e2-e4 d7-d5 2.e4-e5 f7-f5 3.e5*f6 ep. Sg8*f6 4.Sg1-f3",
    );
    let (code, out, err) = chainmate(&["replay", &game]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[5].starts_with("3.e5*f6 ep. "), "{out}");
    assert!(lines[6].ends_with(" w KQkq - 0 4"), "{out}");
    assert!(lines[7].ends_with(" b KQkq - 1 4"), "{out}");
    // Counters given in the FEN go on from there; Black to move starts with `N...`.
    let game = temp_file("counters.txt", "7...Sg8-f6 8.Sg1-f3");
    let (code, out, _) = chainmate(&[
        "replay",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 7",
        &game,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("7...Sg8-f6 rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 8"),
        "{out}"
    );
    assert!(
        out.contains("8.Sg1-f3 ") && out.trim_end().ends_with(" b KQkq - 5 8"),
        "{out}"
    );
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";

/// Runs chainmate in the background; `signal` (if any) is sent after `after`; returns the
/// exit code, stdout and the seconds it ran, or panics when it has not ended after `limit`.
fn run_bounded(args: &[&str], signal: Option<(f64, i32)>, limit: f64) -> (i32, String, f64) {
    use std::io::Read;
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut sent = false;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            let code = status.code().unwrap_or(-1);
            return (code, out, started.elapsed().as_secs_f64());
        }
        let t = started.elapsed().as_secs_f64();
        if let Some((_, sig)) = signal.filter(|&(after, _)| !sent && t >= after) {
            // SAFETY: kill only sends a signal to our own child.
            unsafe { libc::kill(child.id() as i32, sig) };
            sent = true;
        }
        if t > limit {
            let _ = child.kill();
            panic!("chainmate {args:?} still running after {limit} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `--time-limit` and Ctrl-C stop a Combo search on a crowded position (221,188 combos at
/// the root): the combo walk looks at the stop flag. (It ran for minutes before.)
#[test]
fn time_limit_and_ctrl_c_stop_combo_searches() {
    for stip in ["#1", "s#1", "#2"] {
        let (_, out, secs) = run_bounded(
            &[
                "solve",
                "-q",
                "--no-board",
                "--time-limit",
                "1",
                "--fen",
                KIWIPETE,
                "--condition",
                "combo",
                "--stipulation",
                stip,
            ],
            None,
            30.0,
        );
        assert!(out.contains("incomplete"), "{stip}: {out}");
        assert!(secs < 30.0);
    }
    // Ctrl-C: the search stops and prints what it has.
    let (_, out, _) = run_bounded(
        &[
            "solve",
            "-q",
            "--no-board",
            "--fen",
            KIWIPETE,
            "--condition",
            "combo",
            "--stipulation",
            "#1",
        ],
        Some((1.0, libc::SIGINT)),
        30.0,
    );
    assert!(out.contains("incomplete"), "{out}");
}

/// Thread and table requests beyond the machine are capped, with a note.
#[test]
fn threads_and_hash_are_capped_to_the_machine() {
    let (code, out, err) = chainmate(&[
        "solve",
        "--no-board",
        "--threads",
        "100000",
        "--hash",
        "1000000000",
        "--fen",
        "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
        "--stipulation",
        "#1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note: --threads 100000 is more than the"),
        "{err}"
    );
    assert!(
        err.contains("note: --hash 1000000000 MB is more than half"),
        "{err}"
    );
    assert!(
        out.contains("1.Qb1-b8 #") || out.contains("Qb1-h7"),
        "{out}"
    );
}

/// No set play when the side that would pass is in check (Popeye: set play not applicable).
#[test]
fn no_set_play_from_a_side_in_check() {
    let p = temp_file(
        "setplay-check.inp",
        "BeginProblem\nPieces White Ka6 Bh2 Sc4 Black Kb8\nStipulation h#1\nOption SetPlay\nEndProblem\n",
    );
    let (code, out, _) = chainmate(&["solve", "--no-board", &p]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("set play not applicable"), "{out}");
    assert!(!out.contains("1...Sc4-b6"), "{out}");
    assert!(out.contains("1.Kb8-a8 Sc4-b6 #"), "{out}");
}

/// A diagram's legality is judged by the condition's own check test: in Combo, Black's king
/// capturable by a White combo ([Ka1; Qxh8]) with White to move is an illegal diagram.
#[test]
fn combo_diagram_legality_uses_combo_check() {
    let (_, out, _) = chainmate(&[
        "solve",
        "--no-board",
        "--fen",
        "7k/8/8/8/8/8/1K6/Q7 w - - 0 1",
        "--condition",
        "combo",
        "--stipulation",
        "#1",
    ]);
    assert!(out.contains("illegal position"), "{out}");
    assert!(!out.contains("1.["), "{out}");
}
