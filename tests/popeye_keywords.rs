//! Every Popeye keyword is honoured or refused (issue 16, item 1): Popeye's option, twin,
//! problem-command and goal keywords (copied from Popeye 4.104's English tables as data),
//! each either accepted (and, where chainmate honours it, doing what Popeye does) or
//! refused with a message naming it. None is silently dropped.

use std::path::PathBuf;
use std::time::Instant;

mod common;
use common::{chainmate, root};

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chainmate-popeye-kw-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn solve_text(name: &str, text: &str, extra: &[&str]) -> (i32, String, String) {
    let p = scratch(name, text);
    let p = p.to_str().unwrap().to_string();
    let mut args = vec!["solve", "-q"];
    args.extend_from_slice(extra);
    args.push(&p);
    chainmate(&args)
}

/// A #2 with two keys (Rg1-g7, Rh1-h7) and an en-passant-ready pawn pair.
const PIECES: &str = "Pieces White Kf6 Rg1 Rh1 Pd5 Black Ke8 Pe5";

fn problem(stip: &str, options: &str, tail: &str) -> String {
    let opt = if options.is_empty() {
        String::new()
    } else {
        format!("Option {options}\n")
    };
    format!("BeginProblem\n{PIECES}\nStipulation {stip}\n{opt}{tail}EndProblem\n")
}

/// Popeye's options (`OptString`, English), with an argument where they take one, and
/// what chainmate does with them.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Fate {
    /// Accepted (honoured, or accepted with a documented reason).
    Accepted,
    /// Refused with a message naming the keyword.
    Refused,
}
use Fate::*;

const POPEYE_OPTIONS: &[(&str, &str, Fate)] = &[
    ("Defence", "1", Accepted),
    ("SetPlay", "", Accepted),
    ("WhiteToPlay", "", Accepted),
    ("Variations", "", Accepted),
    ("MoveNumbers", "", Accepted),
    ("StartMoveNumber", "1", Refused),
    ("NoWk", "", Refused),
    ("Duplex", "", Accepted),
    ("NoBk", "", Refused),
    ("Threat", "1", Accepted),
    ("NoThreat", "", Accepted),
    ("Try", "", Accepted),
    ("MaxSolutions", "1", Accepted),
    ("MaxFlightsquares", "1", Refused),
    ("Search", "", Refused),
    ("MultiSolutions", "", Refused),
    ("NoSymmetry", "", Refused),
    ("NonTrivial", "1 1", Refused),
    ("KeepMatingPiece", "", Refused),
    ("EnPassant", "e7e6e5", Accepted),
    ("NoBoard", "", Accepted),
    ("NoShortVariations", "", Accepted),
    ("HalfDuplex", "", Accepted),
    ("PostKeyPlay", "", Refused),
    ("Intelligent", "", Accepted),
    ("MaxTime", "100", Accepted),
    ("NoCastling", "a1", Accepted),
    ("Quodlibet", "", Refused),
    ("StopOnShortSolutions", "", Refused),
    ("Beep", "", Accepted),
    ("SuppressGrid", "", Accepted),
    ("WriteGrid", "", Refused),
    ("CastlingMutuallyExclusive", "a1h8", Refused),
    ("GoalIsEnd", "", Refused),
    ("unpublishedoption", "", Refused),
    ("NullMoves", "", Refused),
    ("UpToMoveNumber", "1", Refused),
    ("TrivialTriesAvoid", "", Refused),
    ("MatesIn1", "", Refused),
];

#[test]
fn every_popeye_option_is_accepted_or_refused_by_name() {
    for &(name, arg, fate) in POPEYE_OPTIONS {
        let opts = format!("{name} {arg}");
        let (code, stdout, stderr) =
            solve_text(&format!("opt_{name}.inp"), &problem("#2", &opts, ""), &[]);
        match fate {
            Accepted => {
                assert_eq!(code, 0, "{name}: {stderr}");
                // HalfDuplex solves only the half where Black plays for the goal, which
                // has no key here; its header line says so.
                let expected = if name == "HalfDuplex" {
                    "HalfDuplex\n"
                } else {
                    "1.Rg1-g7 !"
                };
                assert!(stdout.contains(expected), "{name}: {stdout}");
            }
            Refused => {
                assert_eq!(code, 2, "{name}: {stdout}");
                assert!(stderr.contains(name), "{name}: {stderr}");
            }
        }
    }
}

/// Popeye's twinning keywords (`TwinningString`, English), as chainmate reads them.
const POPEYE_TWINNING: &[(&str, Fate)] = &[
    ("Move g1 g2", Accepted),
    ("Exchange g1 h1", Accepted),
    ("Stipulation #3", Accepted),
    ("SStipulation #3", Refused),
    ("Add White Qa1", Accepted),
    ("Remove g1", Accepted),
    ("Continued Move g1 g2", Accepted),
    ("Rotate 180", Accepted),
    ("Condition Orthodox", Accepted),
    ("PolishType", Accepted),
    ("Mirror a1<-->h1", Accepted),
    ("Shift b1 a1", Accepted),
    ("Substitute R Q", Accepted),
];

#[test]
fn every_popeye_twinning_keyword_is_accepted_or_refused_by_name() {
    for &(cmd, fate) in POPEYE_TWINNING {
        let name = cmd.split(' ').next().unwrap();
        let text = "BeginProblem\nPieces White Kf6 Rg1 Rh1 Black Ke8\nStipulation #2\n\
                    Option NoBoard\n"
            .to_string()
            + &format!("Twin {cmd}\nEndProblem\n");
        let (code, stdout, stderr) = solve_text(&format!("twin_{name}.inp"), &text, &[]);
        match fate {
            Accepted => {
                assert_eq!(code, 0, "{cmd}: {stderr}");
                assert!(stdout.contains("b) "), "{cmd}: {stdout}");
            }
            Refused => {
                assert_eq!(code, 2, "{cmd}: {stdout}");
                assert!(stderr.contains(name), "{cmd}: {stderr}");
            }
        }
    }
}

/// Popeye's problem commands (`InitialTwinTokenString`, English), as chainmate reads them.
const POPEYE_COMMANDS: &[(&str, Fate)] = &[
    ("Remark a remark", Accepted),
    ("SStipulation #2", Refused),
    ("Author Some One", Accepted),
    ("Origin Somewhere", Accepted),
    ("Pieces Black Pa7", Accepted),
    ("Condition Orthodox", Accepted),
    ("Option NoBoard", Accepted),
    ("Protocol PROTOCOL", Accepted),
    ("Title A title", Accepted),
    ("LaTeX", Refused),
    ("LaTeXPieces", Refused),
    ("Award 1st Prize", Accepted),
];

#[test]
fn every_popeye_problem_command_is_accepted_or_refused_by_name() {
    let proto = scratch("commands.protocol", "");
    std::fs::remove_file(&proto).unwrap();
    for &(cmd, fate) in POPEYE_COMMANDS {
        let name = cmd.split(' ').next().unwrap();
        let cmd = cmd.replace("PROTOCOL", proto.to_str().unwrap());
        let text = problem("#2", "", &format!("{cmd}\n"));
        let (code, stdout, stderr) = solve_text(&format!("cmd_{name}.inp"), &text, &[]);
        match fate {
            Accepted => {
                assert_eq!(code, 0, "{cmd}: {stderr}");
                assert!(stdout.contains("1.Rg1-g7 !"), "{cmd}: {stdout}");
            }
            Refused => {
                assert_eq!(code, 2, "{cmd}: {stdout}");
                assert!(stderr.contains(name), "{cmd}: {stderr}");
            }
        }
    }
    assert!(proto.exists(), "Protocol wrote nothing");
}

/// Popeye's goals (`goalInputConfig`), with the name chainmate gives those it refuses.
const POPEYE_GOALS: &[(&str, Option<&str>)] = &[
    ("##!", Some("counter-mate")),
    ("##", Some("double mate")),
    ("#=", Some("mate or stalemate")),
    ("#", None),
    ("==", Some("double stalemate")),
    ("!=", Some("auto-stalemate")),
    ("=", None),
    ("ze4", Some("target square")),
    ("+", Some("check")),
    ("x", Some("capture")),
    ("%", Some("Steingewinn")),
    ("ep", Some("en passant capture")),
    ("ctr", Some("circuit by rebirth")),
    ("ct", Some("circuit")),
    ("<>r", Some("exchange by rebirth")),
    ("<>", Some("exchange")),
    ("00", Some("castling")),
    ("~", Some("any move")),
    ("c81", Some("Chess81")),
    ("k", Some("kiss")),
    ("!#", Some("auto-mate")),
];

#[test]
fn every_popeye_goal_is_solved_or_refused_by_name() {
    for &(goal, refused) in POPEYE_GOALS {
        for play in ["", "h", "s"] {
            let stip = format!("{play}{goal}2");
            let (code, _, stderr) = solve_text("goal.inp", &problem(&stip, "NoBoard", ""), &[]);
            match refused {
                None => assert_eq!(code, 0, "{stip}: {stderr}"),
                Some(what) => {
                    assert_eq!(code, 2, "{stip}");
                    let want = format!("goal '{goal}' ({what})");
                    assert!(stderr.contains(&want), "{stip}: {stderr}");
                    assert!(stderr.contains("is not supported"), "{stip}: {stderr}");
                }
            }
        }
    }
    for (stip, what) in [("dia4", "proof game"), ("a=>b2", "a-to-b proof game")] {
        let (code, _, stderr) = solve_text("goal.inp", &problem(stip, "", ""), &[]);
        assert_eq!(code, 2, "{stip}");
        assert!(stderr.contains(what), "{stip}: {stderr}");
    }
}

#[test]
fn max_time_stops_the_problem() {
    // A help stalemate chainmate needs over 20 s for with one thread (BENCHMARKS.md, the
    // help bench).
    let text = std::fs::read_to_string(root("tests/data/popeye/hs5_0571.inp")).unwrap();
    let text = text.replace(
        "Option      Intelligent NoBoard",
        "Option NoBoard MaxTime 1",
    );
    assert!(text.contains("MaxTime 1"));
    let started = Instant::now();
    let (code, stdout, stderr) = solve_text("maxtime.inp", &text, &[]);
    let took = started.elapsed().as_secs_f64();
    assert_eq!(code, 3, "stopped: {stdout}\n{stderr}");
    assert!(took < 20.0, "MaxTime 1 took {took} s");
    // Popeye's closing line for a stopped solution.
    assert!(stdout.contains("solving interrupted."), "{stdout}");
    assert!(!stdout.contains("solution finished."), "{stdout}");
    // The smaller of MaxTime and --time-limit wins, whichever it is.
    let started = Instant::now();
    let (code, _, _) = solve_text("maxtime.inp", &text, &["--time-limit", "100"]);
    assert_eq!(code, 3);
    assert!(started.elapsed().as_secs_f64() < 20.0);
    let text = text.replace("MaxTime 1", "MaxTime 1000");
    let started = Instant::now();
    let (code, _, _) = solve_text("maxtime.inp", &text, &["--time-limit", "1"]);
    assert_eq!(code, 3);
    assert!(started.elapsed().as_secs_f64() < 20.0);
}

#[test]
fn max_solutions_in_direct_play() {
    let (code, stdout, _) = solve_text(
        "maxsol.inp",
        &problem("#2", "MaxSolutions 1 NoBoard", ""),
        &[],
    );
    assert_eq!(code, 0);
    assert_eq!(stdout.matches(" !").count(), 1, "{stdout}");
    assert!(stdout.contains("1.Rg1-g7 !"), "{stdout}");
    assert!(stdout.contains("Partial solution"), "{stdout}");
    let (_, stdout, _) = solve_text(
        "maxsol.inp",
        &problem("#2", "MaxSolutions 5 NoBoard", ""),
        &[],
    );
    assert_eq!(stdout.matches(" !").count(), 2, "{stdout}");
    assert!(stdout.contains("solution finished."), "{stdout}");
}

#[test]
fn move_numbers_print_every_first_move_the_same_for_any_thread_count() {
    let text = "BeginProblem\nPieces White Kf6 Rg1 Rh1 Black Ke8\nStipulation #2\n\
                Option MoveNumbers NoBoard\nEndProblem\n";
    let (code, one, _) = solve_text("movenumbers.inp", text, &["--threads", "1"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = one.lines().filter(|l| l.contains("  (")).collect();
    // 13 + 7 rook moves, 6 king moves.
    assert_eq!(lines.len(), 26, "{one}");
    assert_eq!(lines[0], "  1  (Rg1-a1 )");
    assert!(lines.contains(&"  5  (Rg1-e1 + )"), "{one}");
    assert!(lines.contains(&" 26  (Kf6-g7 )"), "{one}");
    let (_, two, _) = solve_text("movenumbers.inp", text, &["--threads", "2"]);
    assert_eq!(one, two);
}

#[test]
fn protocol_writes_the_output_to_the_file() {
    let proto = scratch("out.protocol", "");
    std::fs::remove_file(&proto).unwrap();
    let tail = format!("Protocol {}\n", proto.display());
    let (code, stdout, _) = solve_text("protocol.inp", &problem("#2", "NoBoard", &tail), &[]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&proto).unwrap(), stdout);
}

#[test]
fn remark_between_twins_is_echoed_before_the_twin() {
    let text = "BeginProblem\nPieces White Kf6 Rg1 Rh1 Black Ke8\nStipulation #2\n\
                Option NoBoard\nTwin Move g1 g2\nRemark said before twin b\nTwin Move g1 g3\n\
                EndProblem\n";
    let (code, stdout, _) = solve_text("remark.inp", text, &[]);
    assert_eq!(code, 0);
    let r = stdout.find("said before twin b").expect("remark echoed");
    let b = stdout.find("b) ").unwrap();
    let a = stdout.find("a) ").unwrap();
    assert!(a < r && r < b, "{stdout}");
}

#[test]
fn intelligent_is_accepted_with_a_note() {
    let (code, stdout, stderr) = solve_text(
        "intelligent.inp",
        &problem("h#2", "Intelligent NoBoard", ""),
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("solution finished."), "{stdout}");
    assert!(
        stderr.contains("Intelligent") && stderr.contains("exhaustive"),
        "{stderr}"
    );
}

#[test]
fn popeye_waran_and_elephant_are_chainmates_rook_and_queen_nightriders() {
    let text = "BeginProblem\nPieces White Kf6 WAa1 ETc2 Black Ke8\nStipulation #1\nEndProblem\n";
    let (code, stdout, stderr) = solve_text("waran.inp", text, &[]);
    assert_eq!(code, 0, "{stderr}");
    // chainmate writes its own codes.
    assert!(stdout.contains("NR") && stdout.contains("NQ"), "{stdout}");
    let yaml = "---\nalgebraic:\n  white: [Kf6, WAa1, ETc2]\n  black: [Ke8]\nstipulation: \"#1\"\n";
    let (code, y, stderr) = solve_text("waran.yaml", yaml, &[]);
    assert_eq!(code, 0, "{stderr}");
    let fen_run = chainmate(&[
        "solve",
        "-q",
        "--fen",
        "4k3/8/5K2/8/8/8/2(ET)5/(WA)7",
        "--stipulation",
        "#1",
    ]);
    assert_eq!(fen_run.0, 0, "{}", fen_run.2);
    let keys = |s: &str| s.lines().filter(|l| l.ends_with(" # !")).count();
    assert_eq!(keys(&stdout), keys(&y));
    assert_eq!(keys(&stdout), keys(&fen_run.1));
    assert!(keys(&stdout) > 0, "{stdout}");
}
