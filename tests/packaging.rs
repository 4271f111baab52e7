//! What a user installing chainmate meets: standard input as a file (`-`), shell
//! completions, the manual page, the licence and metadata, and docs that agree with the
//! binary on its limits.

mod common;
use common::{chainmate, root, with_stdin};

#[test]
fn dash_reads_standard_input() {
    let inp = std::fs::read_to_string(root("problems/orthodox/d2_0335.inp")).unwrap();
    let (code, out, err) = with_stdin(&["solve", "-q", "--no-board", "-"], &inp);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1.f2-f4 ! threat:"), "{out}");
    let yaml = std::fs::read_to_string(root("problems/orthodox/cooked_example.yaml")).unwrap();
    let (code, out, _) = with_stdin(&["check", "-q", "-"], &yaml);
    assert_eq!(code, 1);
    assert!(out.contains("<stdin>:") && out.contains("cooked"), "{out}");
    let (code, out, _) = with_stdin(&["show", "-"], &yaml);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("<stdin>:"), "{out}");
    let (code, out, _) = with_stdin(&["convert", "-"], &inp);
    assert_eq!(code, 0);
    assert!(out.starts_with("---") && out.contains("Armeni"), "{out}");
    let (code, out, _) = with_stdin(&["convert", "-"], &yaml);
    assert_eq!(code, 0);
    assert!(out.contains("BeginProblem"), "{out}");
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = chainmate(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains("verify-claim") && out.contains("chainmate"),
            "{shell}"
        );
    }
    let (code, out, _) = chainmate(&["man"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH chainmate 1") && out.contains("verify\\-claim"),
        "{out}"
    );
    let (code, _, _) = chainmate(&["completions", "tcsh"]);
    assert_eq!(code, 2);
}

#[test]
fn licence_and_metadata() {
    let toml = std::fs::read_to_string(root("Cargo.toml")).unwrap();
    for key in [
        "description",
        "license = \"MIT\"",
        "rust-version = \"1.85\"",
        "readme",
    ] {
        assert!(toml.contains(key), "Cargo.toml lacks {key}");
    }
    let licence = std::fs::read_to_string(root("LICENSE")).unwrap();
    assert!(licence.starts_with("MIT License"));
    let readme = std::fs::read_to_string(root("README.md")).unwrap();
    assert!(
        readme.contains("cargo install --path ."),
        "README: install line"
    );
    assert!(readme.contains("1.85"), "README: minimum Rust version");
}

/// The limits docs/problem-format.md states are the binary's: the longest help/series and
/// the longest direct/self/reflex stipulation are read, one move more is refused.
#[test]
fn documented_limits_are_the_binary_limits() {
    let doc = std::fs::read_to_string(root("docs/problem-format.md")).unwrap();
    let flat = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let number_after = |phrase: &str| -> u32 {
        let at = flat
            .find(phrase)
            .unwrap_or_else(|| panic!("docs lack '{phrase}'"));
        flat[at + phrase.len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .unwrap()
    };
    let help = number_after("help and series play at most");
    let battle = number_after("direct, self and reflex play at most");
    let fen = "4k3/8/4K3/8/8/8/8/3Q4 w - - 0 1";
    let dir = std::env::temp_dir().join(format!("chainmate-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (stip, ok) in [
        (format!("h#{help}"), true),
        (format!("h#{}", help + 1), false),
        (format!("ser-h#{help}"), true),
        (format!("#{battle}"), true),
        (format!("#{}", battle + 1), false),
        (format!("s#{}", battle + 1), false),
    ] {
        let f = dir.join("limit.fen");
        std::fs::write(&f, format!("{fen} ; {stip}\n")).unwrap();
        let (code, _, err) = chainmate(&["show", f.to_str().unwrap()]);
        assert_eq!(code == 0, ok, "{stip}: {err}");
        if !ok {
            assert!(err.contains("longer than"), "{stip}: {err}");
        }
    }
}

/// The text boards are drawn straight (every line of the frame as wide as the others), and
/// `--unicode` draws the pieces as chess glyphs on the right squares.
#[test]
fn boards_are_straight_and_unicode_on_request() {
    let file = root("tests/data/problems/yacpdb_entry.yaml");
    for args in [
        vec!["show", file.as_str()],
        vec!["show", "--unicode", file.as_str()],
    ] {
        let (code, out, _) = chainmate(&args);
        assert_eq!(code, 0);
        let board: Vec<&str> = out
            .lines()
            .filter(|l| {
                l.contains(['┌', '└', '│'])
                    || l.starts_with(['+', '|'])
                    || (l.starts_with(|c: char| c.is_ascii_digit()) && l.len() > 30)
            })
            .collect();
        assert!(board.len() >= 10, "{out}");
        let widths: Vec<usize> = board.iter().map(|l| l.trim_end().chars().count()).collect();
        assert!(
            widths.iter().all(|&w| w == widths[0]),
            "{args:?}: {widths:?}\n{out}"
        );
    }
    let (_, out, _) = chainmate(&["show", "--unicode", &file]);
    // White Kh1, Black Kd1, Black Bc3.
    let rank1 = out.lines().find(|l| l.starts_with("1 │")).unwrap();
    assert_eq!(rank1, "1 │ ·  ·  ·  ♚  ·  ·  ·  ♔ │");
    let rank3 = out.lines().find(|l| l.starts_with("3 │")).unwrap();
    assert!(rank3.starts_with("3 │ ·  ·  ♝ "), "{rank3}");
    let (code, out, _) = chainmate(&["solve", "--unicode", "-q", &file]);
    assert_eq!(code, 0);
    assert!(out.contains("1 │ ·  ·  ·  ♚"), "{out}");
}
