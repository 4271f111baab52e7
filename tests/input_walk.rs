//! Reading many problems (#13): one bad document in a multi-problem file is one error and
//! the others are still read; directory walks follow no symlink loop, never open named
//! pipes, and report unreadable files.
mod common;
use common::chainmate;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chainmate-walk-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const GOOD_1: &str = "stipulation: \"#2\"
algebraic:
  white: [Ka6, Se8, Pa7]
  black: [Ka8, Ph6]
title: first one
";

const GOOD_3: &str = "stipulation: \"#2\"
algebraic:
  white: [Ka6, Se8, Pa7]
  black: [Ka8, Ph6]
title: third one
";

/// Runs chainmate with a guard: killed (and the test failed) after 20 s.
fn chainmate_guarded(args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("waits").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chainmate {args:?} still running after 20 s (blocked?)");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write_three(dir: &Path, name: &str, bad: &str) -> String {
    let f = dir.join(name);
    std::fs::write(&f, format!("---\n{GOOD_1}---\n{bad}---\n{GOOD_3}")).unwrap();
    f.display().to_string()
}

#[test]
fn one_bad_yaml_document_is_one_error() {
    let dir = scratch("yaml");
    // Line 1 `---`, GOOD_1 lines 2-6, `---` line 7, the bad document from line 8.
    let bad_piece = "stipulation: \"#2\"\nalgebraic:\n  white: [Ka6, Qq8]\n  black: [Ka8]\n";
    let bad_stip = "stipulation: \"hr#2\"\nalgebraic:\n  white: [Ka6]\n  black: [Ka8]\n";
    for (name, bad) in [("piece.olv", bad_piece), ("stip.yaml", bad_stip)] {
        let f = write_three(&dir, name, bad);
        for cmd in ["check", "show"] {
            let args: Vec<&str> = if cmd == "check" {
                vec![cmd, "-q", &f]
            } else {
                vec![cmd, &f]
            };
            let (code, out, err) = chainmate(&args);
            assert_eq!(code, 2, "{cmd} {name}: exit 2\n{out}\n{err}");
            let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
            assert_eq!(errors.len(), 1, "{cmd} {name}: one error\n{err}");
            assert!(
                errors[0].contains(&format!("{f}:")) && errors[0].contains("problem 2"),
                "{cmd} {name}: file and problem number\n{err}"
            );
            let line: usize = errors[0][format!("error: {f}:").len()..]
                .split(':')
                .next()
                .unwrap()
                .parse()
                .unwrap_or_else(|_| panic!("a line number in {}", errors[0]));
            assert!(
                (8..=11).contains(&line),
                "line {line} of the bad document\n{err}"
            );
            if cmd == "show" {
                // The good problems with their own lines.
                assert!(out.contains(&format!("{f}:2 first one")), "{out}");
                assert!(out.contains(&format!("{f}:13 third one")), "{out}");
            } else {
                assert_eq!(out.matches("#2: ").count(), 2, "{out}");
                assert!(out.contains("summary:"), "{out}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_bad_popeye_problem_is_one_error() {
    let dir = scratch("inp");
    let f = dir.join("three.inp");
    let good = "Stipulation #2\nPieces White Ka6 Se8 Pa7 Black Ka8 Ph6\n";
    let text = format!(
        "BeginProblem\nTitle first\n{good}NextProblem\nTitle second\nStipulation #2\n\
         Pieces White Ka6 Xq7 Black Ka8\nNextProblem\nTitle third\n{good}EndProblem\n"
    );
    std::fs::write(&f, text).unwrap();
    let f = f.display().to_string();
    let (code, out, err) = chainmate(&["show", &f]);
    assert_eq!(code, 2, "{out}\n{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(
        errors[0].starts_with(&format!("error: {f}:8")) && errors[0].contains("problem 2"),
        "{err}"
    );
    assert!(out.contains(&format!("{f}:1 first")), "{out}");
    assert!(out.contains(&format!("{f}:10 third")), "{out}");
    let (code, out, err) = chainmate(&["check", "-q", &f]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert_eq!(out.matches("#2: ").count(), 2, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_symlink_loop_is_followed_once() {
    let dir = scratch("loop");
    std::fs::write(dir.join("one.yaml"), GOOD_1).unwrap();
    std::os::unix::fs::symlink(".", dir.join("loop")).unwrap();
    let d = dir.display().to_string();
    let (code, out, err) = chainmate_guarded(&["check", "-q", &d]);
    assert_ne!(code, 2, "a loop is no input error\n{out}\n{err}");
    assert_eq!(out.matches("#2: ").count(), 1, "solved once\n{out}");
    assert_eq!(err.matches("note:").count(), 1, "one note\n{err}");
    assert!(err.contains("loop"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn mkfifo(p: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0, "mkfifo");
}

#[test]
fn a_named_pipe_is_never_opened() {
    let dir = scratch("fifo");
    std::fs::write(dir.join("one.yaml"), GOOD_1).unwrap();
    let pipe = dir.join("pipe.yaml");
    mkfifo(&pipe);
    let d = dir.display().to_string();
    let (code, out, err) = chainmate_guarded(&["show", &d]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("first one"), "{out}");
    assert!(err.contains("note:") && err.contains("pipe.yaml"), "{err}");
    // Named on the command line: an error, the other file still read.
    let p = pipe.display().to_string();
    let one = dir.join("one.yaml").display().to_string();
    let (code, out, err) = chainmate_guarded(&["show", &p, &one]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(out.contains("first one"), "{out}");
    assert!(err.contains("error:") && err.contains("pipe.yaml"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_file_is_an_input_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("perm");
    std::fs::write(dir.join("a.yaml"), GOOD_1).unwrap();
    let locked = dir.join("b.yaml");
    std::fs::write(&locked, GOOD_3).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let d = dir.display().to_string();
    let (code, out, err) = chainmate_guarded(&["check", "-q", &d]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();
    if unsafe { libc::geteuid() } != 0 {
        assert_eq!(code, 2, "{out}\n{err}");
        assert!(
            err.contains("error:") && err.contains("b.yaml") && err.contains("cannot read"),
            "{err}"
        );
        assert_eq!(
            out.matches("#2: ").count(),
            1,
            "a.yaml still checked\n{out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
