//! `chainmate diagram`: SVG checked as XML (64 squares, the pieces where they stand, the
//! caption), PNG size and pixel colours, LaTeX for the `diagram` package, numbered output
//! files for several diagrams, and bad input exiting 2 with file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn chainmate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chainmate"))
        .args(args)
        .output()
        .expect("run chainmate")
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chainmate-diagram-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const ARMENI: &str = "problems/orthodox/d2_0335.inp";

const FAIRY: &str = r##"---
authors: ["Doe, John", "Jane Roe"]
source: "Test Source, 2024"
award: "1st Prize"
stipulation: "#2"
options: [Tatarstan]
algebraic:
  white: [Ke1, Nc3, AMd4, Sb1]
  black: [Ke8, Pe7, Nh5]
twins:
  b: Move e1 f1
"##;

fn write_fairy(dir: &Path) -> PathBuf {
    let f = dir.join("fairy.yaml");
    std::fs::write(&f, FAIRY).unwrap();
    f
}

/// data-square -> data-piece of the board's piece elements.
fn pieces(doc: &roxmltree::Document) -> BTreeMap<String, String> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-square").unwrap().to_string(),
                n.attribute("data-piece").unwrap().to_string(),
            )
        })
        .collect()
}

fn text_of(doc: &roxmltree::Document, class: &str) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some(class))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn svg_has_board_pieces_and_caption() {
    let out = chainmate(&["diagram", ARMENI]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("valid XML");
    let squares = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("data-square").is_some())
        .count();
    assert_eq!(squares, 64);
    let p = pieces(&doc);
    assert_eq!(p.len(), 19);
    for (sq, pc) in [
        ("b6", "wK"),
        ("d6", "bK"),
        ("h1", "wR"),
        ("f1", "bR"),
        ("f8", "bR"),
        ("h3", "wB"),
        ("c5", "wS"),
        ("g6", "wS"),
        ("c7", "wP"),
        ("b5", "bB"),
        ("e5", "bP"),
    ] {
        assert_eq!(p.get(sq).map(String::as_str), Some(pc), "{sq}");
    }
    assert_eq!(text_of(&doc, "author"), vec!["Alberto Armeni"]);
    assert_eq!(
        text_of(&doc, "source"),
        vec!["3530, Freie Presse, 29.7.1994"]
    );
    assert_eq!(text_of(&doc, "stipulation"), vec!["#2"]);
    assert_eq!(text_of(&doc, "count"), vec!["(11+8)"]);
    assert!(text_of(&doc, "condition").is_empty());
    assert!(text_of(&doc, "legend").is_empty());
    // light h1, dark a1
    let fill = |sq: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-square") == Some(sq) && n.has_tag_name("rect"))
            .and_then(|n| n.attribute("fill"))
            .unwrap()
            .to_string()
    };
    assert_eq!(fill("h1"), chainmate::output::svg::LIGHT);
    assert_eq!(fill("a1"), chainmate::output::svg::DARK);
}

#[test]
fn fairy_pieces_legend_condition_and_twins() {
    let dir = tmp_dir("fairy");
    let file = write_fairy(&dir);
    let out_path = dir.join("out.svg");
    let out = chainmate(&[
        "diagram",
        file.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
        "--coordinates",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out_path.exists(), "two diagrams are numbered");
    let first = std::fs::read_to_string(dir.join("out-1.svg")).unwrap();
    let second = std::fs::read_to_string(dir.join("out-2.svg")).unwrap();
    for (svg, king) in [(&first, "e1"), (&second, "f1")] {
        let doc = roxmltree::Document::parse(svg).unwrap();
        let p = pieces(&doc);
        assert_eq!(p.get(king).map(String::as_str), Some("wK"));
        assert_eq!(p.get("c3").map(String::as_str), Some("wN"));
        assert_eq!(p.get("d4").map(String::as_str), Some("wAM"));
        assert_eq!(p.get("b1").map(String::as_str), Some("wS"));
        assert_eq!(p.get("h5").map(String::as_str), Some("bN"));
        assert_eq!(text_of(&doc, "author"), vec!["John Doe, Jane Roe"]);
        assert_eq!(text_of(&doc, "award"), vec!["1st Prize"]);
        assert_eq!(text_of(&doc, "count"), vec!["(4+3)"]);
        assert_eq!(text_of(&doc, "condition"), vec!["Tatarstan Chess"]);
        let legend = text_of(&doc, "legend");
        assert_eq!(legend.len(), 2, "{legend:?}");
        assert!(legend[0].contains("nightrider") && legend[0].contains("wN/bN"));
        assert!(legend[1].contains("amazon"));
        assert_eq!(text_of(&doc, "coordinate").len(), 16);
        // the nightrider is the knight turned upside down
        let c3 = doc
            .descendants()
            .find(|n| n.attribute("data-square") == Some("c3") && n.has_tag_name("g"))
            .unwrap();
        assert!(
            c3.descendants()
                .any(|n| n.attribute("transform") == Some("rotate(180 22.5 22.5)"))
        );
    }
    let doc = roxmltree::Document::parse(&first).unwrap();
    assert_eq!(text_of(&doc, "twin"), vec!["a)"]);
    let doc = roxmltree::Document::parse(&second).unwrap();
    let twin = text_of(&doc, "twin");
    assert_eq!(twin.len(), 1);
    assert!(twin[0].starts_with("b) "), "{twin:?}");
}

#[test]
fn png_size_and_square_colours() {
    let dir = tmp_dir("png");
    let png = dir.join("d.png");
    let out = chainmate(&["diagram", ARMENI, "-o", png.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = String::from_utf8(chainmate(&["diagram", ARMENI]).stdout).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let root = doc.root_element();
    let height: u32 = root.attribute("height").unwrap().parse().unwrap();
    let pixmap = tiny_skia::Pixmap::load_png(&png).expect("a PNG");
    assert_eq!(pixmap.width(), chainmate::output::svg::WIDTH);
    assert_eq!(pixmap.width(), 8 * 45 + 40);
    assert_eq!(pixmap.height(), height);
    let centre = |sq: &str| {
        let r = doc
            .descendants()
            .find(|n| n.attribute("data-square") == Some(sq) && n.has_tag_name("rect"))
            .unwrap();
        let x: f64 = r.attribute("x").unwrap().parse().unwrap();
        let y: f64 = r.attribute("y").unwrap().parse().unwrap();
        let px = pixmap.pixel(x as u32 + 22, y as u32 + 22).unwrap();
        (px.red(), px.green(), px.blue())
    };
    // g8 and h8 are empty: a light and a dark square
    assert_eq!(centre("g8"), (255, 255, 255));
    assert_eq!(centre("h8"), (0xb8, 0xb8, 0xb8));
    // the black rook on f8 is drawn: its centre is dark
    let (r, _, _) = centre("f8");
    assert!(r < 100, "{r}");
    // caption text drawn with the bundled font: some dark pixels under the board
    let below = (height - 20..height - 5)
        .flat_map(|y| (20..60).map(move |x| (x, y)))
        .filter(|&(x, y)| pixmap.pixel(x, y).unwrap().red() < 128)
        .count();
    assert!(below > 10, "stipulation text drawn: {below}");
}

#[test]
fn png_needs_output_for_several_diagrams() {
    let dir = tmp_dir("png2");
    let file = write_fairy(&dir);
    let out = chainmate(&["diagram", "--png", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = chainmate(&[
        "diagram",
        "--png",
        file.to_str().unwrap(),
        "-o",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(dir.join("x-1.png").exists() && dir.join("x-2.png").exists());
}

#[test]
fn latex_for_the_diagram_package() {
    let out = chainmate(&["diagram", "--latex", ARMENI]);
    assert_eq!(out.status.code(), Some(0));
    let tex = String::from_utf8(out.stdout).unwrap();
    assert!(tex.starts_with("\\documentclass{article}%\n\\usepackage{diagram}%\n"));
    assert!(tex.contains("\\begin{diagram}%\n"));
    assert!(tex.contains(" \\author{Armeni, Alberto}%\n"));
    assert!(tex.contains(" \\sourcenr{3530}%\n \\source{Freie Presse}%\n"));
    assert!(tex.contains(
        " \\pieces{sTf1, wTh1, wBf2, wBg3, wLh3, wBc4, wBe4, sBg4, wLh4, sLb5, wSc5, sBe5, sBg5, wKb6, sKd6, wSg6, wBc7, sBe7, sTf8}%\n"
    ));
    assert!(tex.contains(" \\stipulation{\\#2}%\n"));
    assert!(tex.contains("\\end{diagram}%\n"));
    assert!(tex.ends_with("\\end{document}%\n"));

    let dir = tmp_dir("latex");
    let file = write_fairy(&dir);
    let tex_path = dir.join("d.tex");
    let out = chainmate(&[
        "diagram",
        file.to_str().unwrap(),
        "-o",
        tex_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let tex = std::fs::read_to_string(&tex_path).unwrap();
    assert_eq!(
        tex.matches("\\begin{diagram}").count(),
        1,
        "one per problem"
    );
    assert!(tex.contains("wSUc3"), "{tex}");
    assert!(tex.contains("wDLd4"));
    assert!(tex.contains("sSUh5"));
    assert!(tex.contains(" \\author{Doe, John; Roe, Jane}%\n"));
    assert!(tex.contains(" \\award{1st Prize}%\n"));
    assert!(tex.contains(" \\remark{\\mbox{\\wSU =nightrider\\bSU =nightrider}{\\newline}\\mbox{\\wDL =amazon (Q+S)}}%\n"), "{tex}");
    assert!(tex.contains(" \\condition{Tatarstan Chess}%\n"));
    assert!(tex.contains(" \\twins{a){\\newline}b) "), "{tex}");
}

#[test]
fn stdin_and_bad_input() {
    let dir = tmp_dir("bad");
    let bad = dir.join("bad.yaml");
    std::fs::write(
        &bad,
        "---\nstipulation: \"#2\"\nalgebraic:\n  white: [Ke1, Xz9]\n  black: [Ke8]\n",
    )
    .unwrap();
    let out = chainmate(&["diagram", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.yaml:"), "{err}");
    assert!(
        err.chars().any(|c| c.is_ascii_digit()),
        "a line number: {err}"
    );
    let out = chainmate(&["diagram", dir.join("missing.inp").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));

    let armeni = std::fs::read_to_string(ARMENI).unwrap();
    let (code, stdout, _) = common::with_stdin(&["diagram", "-"], &armeni);
    assert_eq!(code, 0);
    assert!(stdout.contains("data-piece=\"wK\""));
}
