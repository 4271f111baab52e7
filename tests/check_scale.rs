//! `check` on collections: bounded at any size, streamed in input order, honest under time
//! limits and Ctrl-C, each twin judged against its own part of the stated solution.

mod common;
use common::chainmate;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chainmate-scale-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TRIVIAL: &str = "4k3/8/4K3/8/8/8/8/3Q4 w - - 0 1 ; #2";
/// A Combo #2 on a crowded position: minutes of search.
const SLOW: &str =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ; #2 ; Combo";

/// 5,000 quick problems in one file: every one checked, none lost (this used to overflow
/// the stack from about 600 problems, with a thread pool per twin).
#[test]
fn five_thousand_problems_in_one_file() {
    let dir = temp_dir("5000");
    let file = dir.join("many.fen");
    let text: String = (0..5000).map(|_| format!("{TRIVIAL}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = chainmate(&["check", "-q", "--threads", "2", file.to_str().unwrap()]);
    assert_eq!(code, 1, "unstated problems are not sound: {err}");
    assert!(
        out.contains("summary: 5000 problems"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
    assert!(
        out.contains("unstated     5000"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
    // In input order: line n's result is the n-th block.
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with(file.to_str().unwrap()))
        .collect();
    assert_eq!(lines.len(), 5000);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.contains(&format!("many.fen:{} ", i + 1)), "{i}: {l}");
    }
}

/// The first result is printed while a slow problem after it is still being searched.
#[test]
fn results_stream_before_the_batch_ends() {
    let dir = temp_dir("stream");
    let file = dir.join("two.fen");
    std::fs::write(&file, format!("{TRIVIAL}\n{SLOW}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .args([
            "check",
            "-q",
            "--threads",
            "1",
            "--time-limit",
            "60",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    let mut verdict = String::new();
    reader.read_line(&mut verdict).unwrap();
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains("two.fen:1 "), "{first}");
    assert!(verdict.contains("#2: unstated"), "{verdict}");
    assert!(
        still_running,
        "the slow problem ended before the first result was read"
    );
}

/// A stopped search is `unknown` (never `no solution`), the limit bounds the problem as a
/// whole, and the exit code is 3.
#[test]
fn a_stopped_problem_is_unknown_with_exit_code_3() {
    let dir = temp_dir("unknown");
    let file = dir.join("slow.yaml");
    std::fs::write(
        &file,
        "fen: r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
         stipulation: '#2'\noptions: [Combo]\nsolution: '1.[Qxf6]! ...'\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = chainmate(&[
        "check",
        "-q",
        "--time-limit",
        "1",
        "--format",
        "json",
        file.to_str().unwrap(),
    ]);
    let secs = started.elapsed().as_secs_f64();
    assert_eq!(code, 3, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["twins"][0]["verdict"], "unknown", "{out}");
    assert_eq!(v["twins"][0]["complete"], false, "{out}");
    assert!(out.contains("not decided"), "{out}");
    assert!(secs < 20.0, "{secs}");
}

/// Ctrl-C: what was decided is printed, then the problems not reached are listed; exit 3.
#[test]
fn ctrl_c_lists_the_problems_not_reached() {
    let dir = temp_dir("ctrlc");
    let file = dir.join("batch.yaml");
    let sound =
        "fen: 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\nstipulation: '#1'\nsolution: '1.Qb1-b8 # !'\n";
    let slow = "fen: r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
                stipulation: '#2'\noptions: [Combo]\nsolution: '1.[Qxf6]! ...'\n";
    std::fs::write(
        &file,
        format!("---\n{sound}---\n{slow}---\n{slow}---\n{sound}"),
    )
    .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .args(["check", "-q", "--threads", "1", file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: kill only sends a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("batch.yaml:2 "), "{stdout}");
    assert!(stdout.contains("#1: sound"), "{stdout}");
    let not_reached = stdout.split("not reached (stopped):").nth(1).unwrap_or("");
    assert!(not_reached.contains("[problem 4]"), "{stdout}");
    assert!(!stdout.contains("no solution"), "{stdout}");
}

fn check_file(name: &str, text: &str) -> (i32, String) {
    let dir = temp_dir(name);
    let file = dir.join(format!("{name}.yaml"));
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = chainmate(&["check", "-q", file.to_str().unwrap()]);
    (code, format!("{out}{err}"))
}

/// YACPDB/Olive twinned entries: each twin is judged against its own section of the stated
/// solution. Solutions worked out by hand: White Kg6 Qb1, Black Kh8, #1: only 1.Qb8#; with
/// the queen on a2 only 1.Qa8#; on e4 both 1.Qa8# and 1.Qe8#.
#[test]
fn direct_play_twins_with_one_section_each() {
    let entry = "fen: 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\nstipulation: '#1'\n\
                 twins: {b: Move b1 a2, c: Move b1 e4}\n";
    // Keys written without `!`, one twin a line.
    let (code, out) = check_file(
        "direct3",
        &format!("{entry}solution: |\n  a) 1.Qb8#\n  b) 1.Qa8#\n  c) 1.Qe8#\n"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a) #1: sound"), "{out}");
    assert!(out.contains("b) #1: sound"), "{out}");
    assert!(out.contains("c) #1: cooked"), "{out}");
    assert!(out.contains("extra key (cook): 1.Qe4-a8 # !"), "{out}");
    // Inline sections, long notation with `!`: the two sound twins alone are sound.
    let entry2 = "fen: 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\nstipulation: '#1'\ntwins: {b: Move b1 a2}\n";
    let (code, out) = check_file(
        "direct2",
        &format!("{entry2}solution: 'a) 1.Qb1-b8 # ! b) 1.Qa2-a8 # !'\n"),
    );
    assert_eq!(code, 0, "{out}");
    // A section stating the other twin's key: that twin has no solution as stated.
    let (code, out) = check_file(
        "direct-swapped",
        &format!("{entry2}solution: \"a) 1.Qb8#\\nb) 1.Qb8#\\n\"\n"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a) #1: sound"), "{out}");
    assert!(out.contains("b) #1: no solution"), "{out}");
}

/// Help play, four twins. By hand: White Kg6 Rb1, Black Kh8, h#1: only 1.Kg8 Rb8#; rook a1:
/// 1.Kg8 Ra8#; rook h1 (Black in check, only 1.Kg8): no mate; rook b2: 1.Kg8 Rb8#.
#[test]
fn help_play_twins_with_one_section_each() {
    let entry = "fen: 7k/8/6K1/8/8/8/8/1R6 w - - 0 1\nstipulation: 'h#1'\n\
                 twins: {b: Move b1 a1, c: Move b1 h1, d: Move b1 b2}\n\
                 solution: |\n  a) 1.Kg8 Rb8#\n  b) 1.Kg8 Ra8#\n  c) 1.Kg8 Rh8#\n  +d) 1.Kg8 Rb8#\n";
    let (code, out) = check_file("help4", entry);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a) h#1: sound"), "{out}");
    assert!(out.contains("b) h#1: sound"), "{out}");
    assert!(out.contains("c) h#1: no solution"), "{out}");
    assert!(out.contains("d) h#1: sound"), "{out}");
}

/// The JSON lines of a check run, without the timings (which differ run to run).
fn result_lines(out: &str) -> Vec<String> {
    let mut v: Vec<String> = out
        .lines()
        .map(|l| {
            let mut j: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            j.as_object_mut().unwrap().remove("seconds");
            for t in j["twins"].as_array_mut().unwrap() {
                t.as_object_mut().unwrap().remove("seconds");
            }
            j.to_string()
        })
        .collect();
    v.sort();
    v
}

/// Three shards together check exactly what the unsharded run checks, each problem once.
#[test]
fn three_shards_make_the_whole_run() {
    let dir = common::root("problems");
    let (_, whole, _) = chainmate(&["check", "-q", "--format", "json", &dir]);
    let whole = result_lines(&whole);
    assert!(whole.len() > 40, "{}", whole.len());
    let mut union = vec![];
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (_, out, _) = chainmate(&["check", "-q", "--format", "json", "--shard", &shard, &dir]);
        let lines = result_lines(&out);
        assert!(!lines.is_empty() && lines.len() < whole.len(), "{shard}");
        union.extend(lines);
    }
    union.sort();
    assert_eq!(union, whole);
    let (code, _, err) = chainmate(&["check", "--shard", "4/3", &dir]);
    assert_eq!(code, 2, "{err}");
}

/// --files-from reads the paths to check; --resume skips what an earlier run decided; every
/// result carries its file, document index, line and YACPDB id.
#[test]
fn files_from_and_resume() {
    let dir = temp_dir("resume");
    let a = dir.join("a.yaml");
    std::fs::write(
        &a,
        "---\nid: '12345'\nfen: 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1\nstipulation: '#1'\nsolution: '1.Qb8#'\n\
         ---\nfen: 7k/8/6K1/8/8/8/Q7/8 w - - 0 1\nstipulation: '#1'\nsolution: '1.Qa8#'\n",
    )
    .unwrap();
    let b = dir.join("b.fen");
    std::fs::write(&b, format!("{TRIVIAL}\n")).unwrap();
    let list = dir.join("list.txt");
    std::fs::write(&list, format!("{}\n\n{}\n", a.display(), b.display())).unwrap();
    let (_, out, err) = chainmate(&[
        "check",
        "-q",
        "--format",
        "json",
        "--files-from",
        list.to_str().unwrap(),
    ]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{out}{err}");
    assert_eq!(lines[0]["yacpdb_id"], "12345");
    assert_eq!(lines[0]["index"], 0);
    assert_eq!(lines[1]["index"], 1);
    assert_eq!(lines[1]["line"], 7);
    assert!(lines[2]["file"].as_str().unwrap().ends_with("b.fen"));
    // An earlier output that decided the first two problems, the last line cut short.
    let earlier = dir.join("out.jsonl");
    let mut text: String = out.lines().take(2).map(|l| format!("{l}\n")).collect();
    text.push_str("{\"file\": \"cut");
    std::fs::write(&earlier, text).unwrap();
    let (_, out, _) = chainmate(&[
        "check",
        "-q",
        "--format",
        "json",
        "--resume",
        earlier.to_str().unwrap(),
        "--files-from",
        list.to_str().unwrap(),
    ]);
    let left: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(left.len(), 1, "{out}");
    assert!(left[0]["file"].as_str().unwrap().ends_with("b.fen"));
}
