//! The problem readers on real files: Popeye inputs, YACPDB / Olive YAML, FEN lines, twins,
//! and one test per error case (message and line).

use chainmate::core::{Color, Kind, NO_SQUARE, Piece, parse_square};
use chainmate::position::Position;
use chainmate::problem::{
    Mirror, Problem, ProblemError, SourceFormat, TwinCommand, check_position, from_fen_arg,
    load_file, parse_text,
};
use chainmate::rules::Condition;
use chainmate::search::{Play, Stipulation};
use std::path::{Path, PathBuf};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn sq(s: &str) -> u8 {
    parse_square(s).unwrap()
}

fn at(p: &Position, s: &str) -> Option<Piece> {
    p.board.get(sq(s))
}

fn w(k: Kind) -> Option<Piece> {
    Some(Piece::new(Color::White, k))
}

fn b(k: Kind) -> Option<Piece> {
    Some(Piece::new(Color::Black, k))
}

fn inp(text: &str) -> Result<Vec<Problem>, ProblemError> {
    parse_text("test.inp", text, SourceFormat::Popeye)
}

fn yaml(text: &str) -> Result<Vec<Problem>, ProblemError> {
    parse_text("test.yaml", text, SourceFormat::Yaml)
}

fn inp_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "inp"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_popeye_input_loads() {
    let mut n = 0;
    for dir in ["popeye", "popeye/bench"] {
        for path in inp_files(&data(dir)) {
            let problems = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(problems.len(), 1, "{}", path.display());
            let p = &problems[0];
            assert!(
                p.options.no_board,
                "{}: every corpus file has NoBoard",
                path.display()
            );
            assert_eq!(p.twin_instances().unwrap().len(), 1);
            n += 1;
        }
    }
    assert!(n >= 199 + 18, "only {n} files");
}

#[test]
fn d4_0166_parsed_facts() {
    let problems = load_file(&data("popeye/d4_0166.inp")).unwrap();
    let p = &problems[0];
    assert_eq!((p.line, p.index), (1, 0));
    assert_eq!(p.stipulation, Stipulation::parse("#4").unwrap());
    assert_eq!(p.stipulation.play, Play::Direct);
    assert!(p.options.variations && p.options.tries && p.options.no_board);
    assert_eq!(p.options.threat, Some(2));
    assert_eq!(p.options.defence, 1);
    assert!(!p.options.set_play);
    assert_eq!(p.authors, ["Alois Johandl"]);
    assert_eq!(p.source.as_deref(), Some("2.FIDE-Turnier, 1959"));
    assert_eq!(p.title.as_deref(), Some("1.Preis"));
    assert_eq!(p.condition, Condition::Orthodox);
    let pos = &p.position;
    for (s, k) in [
        ("e1", Kind::King),
        ("a4", Kind::Queen),
        ("a1", Kind::Rook),
        ("a8", Kind::Bishop),
        ("f6", Kind::Bishop),
    ] {
        assert_eq!(at(pos, s), w(k), "{s}");
    }
    for (s, k) in [("e8", Kind::King), ("h8", Kind::Rook), ("b5", Kind::Knight)] {
        assert_eq!(at(pos, s), b(k), "{s}");
    }
    for s in ["b6", "c5", "c7", "d7", "e5", "f7", "h5", "h7"] {
        assert_eq!(at(pos, s), b(Kind::Pawn), "{s}");
    }
    assert_eq!(pos.count(Color::White), 5);
    assert_eq!(pos.count(Color::Black), 11);
    // Problem convention: Ke1+Ra1 and Ke8+Rh8 may castle.
    assert_eq!(
        pos.castling,
        chainmate::position::WHITE_QUEENSIDE | chainmate::position::BLACK_KINGSIDE
    );
    assert_eq!(pos.side, Color::White);
    assert_eq!(pos.ep, NO_SQUARE);
    assert_eq!(pos.hash, pos.compute_hash());
    let twins = p.twin_instances().unwrap();
    assert_eq!(twins.len(), 1);
    assert_eq!(twins[0].label, "");
}

#[test]
fn remark_and_award_from_the_corpus() {
    let p = &load_file(&data("popeye/h1_2288.inp")).unwrap()[0];
    assert!(p.remark.as_deref().is_some_and(|r| !r.is_empty()));
    let with_award = inp_files(&data("popeye"))
        .into_iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("\nAward"))
        .collect::<Vec<_>>();
    assert!(!with_award.is_empty());
    for f in with_award {
        assert!(load_file(&f).unwrap()[0].award.is_some(), "{}", f.display());
    }
}

#[test]
fn popeye_abbreviations_and_case() {
    let text = "beginpr\nAUTH  Some One\nstip h#2.5\nopt set try vari def 2 thr 3 maxsol 4 nothr nobo intel\n\
                pie whit kc3 rf5 pb5e5f4 blac ke8 s g8\nendp\n";
    let p = &inp(text).unwrap()[0];
    assert_eq!(p.authors, ["Some One"]);
    assert_eq!(p.stipulation.to_string(), "h#2.5");
    let o = &p.options;
    assert!(o.set_play && o.tries && o.variations && o.no_threat && o.no_board && o.intelligent);
    assert_eq!(
        (o.defence, o.threat, o.max_solutions),
        (2, Some(3), Some(4))
    );
    assert_eq!(at(&p.position, "c3"), w(Kind::King));
    assert_eq!(at(&p.position, "f5"), w(Kind::Rook));
    for s in ["b5", "e5", "f4"] {
        assert_eq!(at(&p.position, s), w(Kind::Pawn));
    }
    assert_eq!(at(&p.position, "g8"), b(Kind::Knight), "S is the knight");
    // N is the nightrider.
    let p = &inp("BeginProblem Stipulation #2 Pieces White Ke1 Nd4 AMa1 Black Ke8 EndProblem")
        .unwrap()[0];
    assert_eq!(at(&p.position, "d4"), w(Kind::Nightrider));
    assert_eq!(at(&p.position, "a1"), w(Kind::Amazon));
}

#[test]
fn several_problems_per_file() {
    let text = "BeginProblem\nStipulation #2\nPieces White Ke1 Qd1 Black Ke8\nNextProblem\n\
                Stipulation h#3\nPieces White Ke1 Black Ke8 Pd7\nEndProblem\n\n\
                BeginProblem\nStipulation ser-h#4\nPieces White Ke1 Black Ke8\nEndProblem\n";
    let v = inp(text).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(v.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(v.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 5, 9]);
    assert_eq!(v[1].stipulation.to_string(), "h#3");
    assert_eq!(v[2].stipulation.play, Play::SeriesHelp);
}

#[test]
fn popeye_twins() {
    let problems = load_file(&data("problems/twins.inp")).unwrap();
    assert_eq!(problems.len(), 2);
    let p = &problems[0];
    assert_eq!(p.authors, ["A. Composer", "B. Composer"]);
    assert_eq!(p.source.as_deref(), Some("Test Magazine 2024"));
    assert_eq!(p.award.as_deref(), Some("1st Prize"));
    assert_eq!(p.title.as_deref(), Some("Twins of every kind"));
    assert_eq!(
        p.remark.as_deref(),
        Some("A made-up position for the twin commands.")
    );
    assert_eq!(p.twins.len(), 10);
    assert_eq!(p.twins[3].commands.len(), 2);
    assert_eq!(p.twins[6].commands, [TwinCommand::Mirror(Mirror::Files)]);
    assert_eq!(p.twins[1].line, 14);
    let t = p.twin_instances().unwrap();
    let labels: Vec<&str> = t.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(
        labels,
        ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
    );
    // a: the diagram; Ke1+Ra1 may castle queenside.
    assert_eq!(t[0].position, p.position);
    assert_eq!(t[0].position.castling, chainmate::position::WHITE_QUEENSIDE);
    // b: Move b1 b3.
    assert_eq!(
        (at(&t[1].position, "b1"), at(&t[1].position, "b3")),
        (None, w(Kind::Knight))
    );
    // c: Exchange a1 g8 (and no castling any more).
    assert_eq!(
        (at(&t[2].position, "a1"), at(&t[2].position, "g8")),
        (b(Kind::Rook), w(Kind::Rook))
    );
    assert_eq!(t[2].position.castling, 0);
    // d: Remove c2, from the diagram (b's knight is back on b1).
    assert_eq!(
        (at(&t[3].position, "c2"), at(&t[3].position, "b1")),
        (None, w(Kind::Knight))
    );
    // e: two Adds; f: continued from e, the knight becomes a bishop.
    assert_eq!(
        (at(&t[4].position, "d4"), at(&t[4].position, "d2")),
        (b(Kind::Queen), w(Kind::Pawn))
    );
    assert_eq!(at(&t[5].position, "b1"), w(Kind::Bishop));
    assert_eq!(at(&t[5].position, "d4"), b(Kind::Queen));
    // g: Rotate 180.
    assert_eq!(
        (at(&t[6].position, "d8"), at(&t[6].position, "b2")),
        (w(Kind::King), b(Kind::Pawn))
    );
    // h: Mirror a1<-->h1.
    assert_eq!(
        (at(&t[7].position, "d1"), at(&t[7].position, "h1")),
        (w(Kind::King), w(Kind::Rook))
    );
    // i: Shift a1 b1 moves everything one file right.
    assert_eq!(
        (at(&t[8].position, "f1"), at(&t[8].position, "h8")),
        (w(Kind::King), b(Kind::Rook))
    );
    // j: stipulation and condition change.
    assert_eq!(t[9].stipulation.to_string(), "#3");
    assert_eq!(t[9].condition, Condition::Orthodox);
    assert_eq!(t[8].stipulation.to_string(), "h#2");
    // k: PolishType swaps the colours.
    assert_eq!(
        (at(&t[10].position, "e1"), at(&t[10].position, "g7")),
        (b(Kind::King), w(Kind::Pawn))
    );
    for i in &t {
        assert_eq!(i.position.hash, i.position.compute_hash());
    }
}

#[test]
fn zero_position_twins() {
    let p = &load_file(&data("problems/twins.inp")).unwrap()[1];
    assert_eq!(p.line, 24, "the line after NextProblem");
    let t = p.twin_instances().unwrap();
    let labels: Vec<&str> = t.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(
        labels,
        ["a", "b", "c"],
        "the zero position itself is not solved"
    );
    assert_eq!(at(&t[0].position, "d2"), w(Kind::Queen));
    assert_eq!(at(&t[1].position, "d3"), w(Kind::Queen));
    assert_eq!(at(&t[2].position, "d4"), w(Kind::Queen));
    assert!(p.twins[2].continued);
}

/// Twin lines as Popeye's journal writes them: a piece added onto an occupied square
/// replaces the piece there and is written without `+`; a piece removed and put back in
/// the same twin is written once, without a sign; a Move onto an occupied square writes
/// the removal of the piece there first.
#[test]
fn twin_descriptions_of_replacements_follow_popeye() {
    let base = "BeginProblem Stipulation #2 Pieces White Kc1 Qa6 Sb1 Black Ka8 Pe4\n";
    let line = |twin: &str| {
        let p = &inp(&format!("{base}Twin {twin}\nEndProblem")).unwrap()[0];
        let t = p.twin_instances().unwrap();
        (t[1].description.clone(), t[1].position)
    };
    let (d, pos) = line("Add black Ra6");
    assert_eq!(d, "bRa6");
    assert_eq!(at(&pos, "a6"), b(Kind::Rook));
    assert_eq!(line("Add black Ra5").0, "+bRa5");
    assert_eq!(line("Add black Ra6 Add white Bh1").0, "bRa6  +wBh1");
    assert_eq!(line("Remove a6 Add black Ra6").0, "bRa6");
    assert_eq!(line("Remove a6 Add black Ra5").0, "-wQa6  +bRa5");
    let (d, pos) = line("Move a6 e4");
    assert_eq!(d, "-bPe4  wQa6-->e4");
    assert_eq!(at(&pos, "e4"), w(Kind::Queen));
    assert_eq!(line("Move a6 e5").0, "wQa6-->e5");
    // In YAML as well.
    let p = &yaml(
        "algebraic: {white: [Kc1, Qa6], black: [Ka8]}\nstipulation: \"#2\"\ntwins:\n  b: Add black Ra6\n",
    )
    .unwrap()[0];
    assert_eq!(p.twin_instances().unwrap()[1].description, "bRa6");
}

#[test]
fn rotations_and_mirrors_follow_popeye() {
    let base = "BeginProblem Stipulation #2 Pieces White Ka1 Rb1 Black Kh3\n";
    let one = |twin: &str| {
        let p = &inp(&format!("{base}Twin {twin}\nEndProblem")).unwrap()[0];
        p.twin_instances().unwrap()[1].position
    };
    // Rotate 90 turns the board to the left: a1 -> h1, b1 -> h2, h3 -> f8.
    let r = one("Rotate 90");
    assert_eq!(
        (at(&r, "h1"), at(&r, "h2"), at(&r, "f8")),
        (w(Kind::King), w(Kind::Rook), b(Kind::King))
    );
    let r = one("Rotate 270");
    assert_eq!(
        (at(&r, "a8"), at(&r, "a7"), at(&r, "c1")),
        (w(Kind::King), w(Kind::Rook), b(Kind::King))
    );
    let r = one("Mirror a1<-->a8");
    assert_eq!((at(&r, "a8"), at(&r, "h6")), (w(Kind::King), b(Kind::King)));
    let r = one("Mirror a1<-->h8");
    assert_eq!(
        (at(&r, "h8"), at(&r, "h7"), at(&r, "f1")),
        (w(Kind::King), w(Kind::Rook), b(Kind::King))
    );
    let r = one("Mirror a8<-->h1");
    assert_eq!(
        (at(&r, "a1"), at(&r, "a2"), at(&r, "c8")),
        (w(Kind::King), w(Kind::Rook), b(Kind::King))
    );
    let r = one("Mirror a1 <--> h1");
    assert_eq!(at(&r, "h1"), w(Kind::King));
    let r = one("Shift a1 a2");
    assert_eq!(
        (at(&r, "a2"), at(&r, "b2"), at(&r, "h4"), at(&r, "a1")),
        (w(Kind::King), w(Kind::Rook), b(Kind::King), None)
    );
    let e = inp(&format!("{base}Twin Shift a1 c2\nEndProblem")).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(
        e.message
            .contains("twin b: Shift a1 c2: the piece on h3 would leave the board"),
        "{e}"
    );
}

#[test]
fn en_passant_and_no_castling_options() {
    let text = "BeginProblem\nStipulation #2\nOption EnPassant e7e6e5 NoCastling a1e8\n\
                Pieces White Ke1 Ra1 Rh1 Pd5 Black Ke8 Ra8 Rh8 Pe5\nEndProblem";
    let p = &inp(text).unwrap()[0];
    assert_eq!(p.position.ep, sq("e6"));
    assert_eq!(p.position.castling, chainmate::position::WHITE_KINGSIDE);
    // A white double step (h#: Black may capture): e2e3e4 and the FEN-style single square.
    for opt in ["e2e3e4", "e2e4", "e3"] {
        let text = format!(
            "BeginProblem\nStipulation h#2\nOption EnPassant {opt}\nPieces White Ke1 Pe4 Black Ke8 Pd4\nEndProblem"
        );
        let p = &inp(&text).unwrap()[0];
        assert_eq!(p.position.ep, sq("e3"), "{opt}");
        assert_eq!(p.position.side, Color::White);
    }
    let e = inp("BeginProblem\nStipulation #2\nOption EnPassant e7e6e5\nPieces White Ke1 Black Ke8\nEndProblem")
        .unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.message.contains("no black pawn on e5"), "{e}");
    // The departure square occupied: refused in orthodox chess, accepted where the move
    // can fill it again (a teleporting two-step), in the EnPassant option as in a FEN.
    let occupied = |cond: &str| {
        inp(&format!(
            "BeginProblem\nStipulation #2\nCondition {cond}\nOption EnPassant e7e6e5\n\
             Pieces White Ke1 Pd5 Black Kd8 Pe5 Se7\nEndProblem"
        ))
    };
    let e = occupied("Orthodox").unwrap_err();
    assert!(e.message.contains("e7 must be empty"), "{e}");
    assert_eq!(occupied("Teleport").unwrap()[0].position.ep, sq("e6"));
    let fen = |cond: &str| {
        parse_text(
            "t.fen",
            &format!("3k4/4n3/8/3Pp3/8/8/8/4K3 w - e6 ; #2 ; {cond}\n"),
            SourceFormat::Fen,
        )
    };
    let e = fen("Orthodox").unwrap_err();
    assert!(
        e.message
            .contains("impossible en-passant square e6: e7 must be empty"),
        "{e}"
    );
    assert_eq!((e.line, e.column), (Some(1), Some(1)));
    assert_eq!(fen("Kazan").unwrap()[0].position.ep, sq("e6"));
}

#[test]
fn yacpdb_entry() {
    let v = load_file(&data("problems/yacpdb_entry.yaml")).unwrap();
    assert_eq!(v.len(), 1);
    let p = &v[0];
    assert_eq!(p.line, 2);
    assert_eq!(p.authors, ["Ugren, Ljubomir", "Abdurahmanović, Fadil"]);
    assert_eq!(p.source.as_deref(), Some("feenschach 01-02/7100, 1965"));
    assert_eq!(p.award.as_deref(), Some("1st Prize, feenschach"));
    assert_eq!(p.stipulation.to_string(), "h#4");
    assert!(p.options.set_play);
    assert_eq!(p.keywords, ["Rundlauf"]);
    assert!(
        p.solution
            .as_deref()
            .unwrap()
            .starts_with("1...Re4-d4 2.Kd1-e2")
    );
    assert_eq!(p.position.count(Color::White), 8);
    assert_eq!(p.position.count(Color::Black), 9);
    assert_eq!(at(&p.position, "c3"), b(Kind::Bishop));
    assert_eq!(at(&p.position, "d2"), b(Kind::Pawn));
    assert_eq!(p.position.castling, 0);
    assert!(p.twins.is_empty());
}

#[test]
fn olive_collection() {
    let v = load_file(&data("problems/olive_collection.olv")).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(
        v.iter().map(|p| (p.index, p.line)).collect::<Vec<_>>(),
        [(0, 3), (1, 20), (2, 33)]
    );

    let p = &v[0];
    assert_eq!(p.authors, ["Loyd, Samuel"]);
    assert_eq!(p.source.as_deref(), Some("Chess Monthly 5/112, 1858-03"));
    assert_eq!(p.award.as_deref(), Some("2nd Prize"));
    assert_eq!(p.stipulation.to_string(), "#2");
    assert!(p.options.tries && p.options.variations);
    assert_eq!(p.options.defence, 1);
    assert_eq!(p.solution.as_deref(), Some("1.Qh5-e8 ! zugzwang."));

    let p = &v[1];
    assert_eq!(p.authors, ["Unknown, A."]);
    assert_eq!(p.comments.len(), 1);
    let labels: Vec<(&str, bool)> = p
        .twins
        .iter()
        .map(|t| (t.label.as_str(), t.continued))
        .collect();
    assert_eq!(
        labels,
        [("b", false), ("c", true), ("d", false), ("e", true)]
    );
    let t = p.twin_instances().unwrap();
    assert_eq!(t.len(), 5);
    assert_eq!(at(&t[1].position, "a3"), w(Kind::Rook));
    // c = b rotated by 180 degrees.
    assert_eq!(
        (at(&t[2].position, "h6"), at(&t[2].position, "a2")),
        (w(Kind::Rook), b(Kind::Pawn))
    );
    // d = diagram mirrored; e = d without the bishop (now on c1).
    assert_eq!(
        (at(&t[3].position, "f1"), at(&t[3].position, "c1")),
        (w(Kind::King), w(Kind::Bishop))
    );
    assert_eq!(
        (at(&t[4].position, "f1"), at(&t[4].position, "c1")),
        (w(Kind::King), None)
    );

    let p = &v[2];
    assert_eq!(p.title.as_deref(), Some("chainmate extensions"));
    assert_eq!(p.position.castling, chainmate::position::WHITE_KINGSIDE);
    assert_eq!(p.position.ep, sq("d6"));
    assert_eq!(p.position.pockets, [Some(Kind::Queen), Some(Kind::Knight)]);
    assert_eq!(p.condition, Condition::Orthodox);
    let o = &p.options;
    assert!(o.set_play && o.tries && !o.short_variations_off);
    assert_eq!(
        (o.defence, o.threat, o.max_solutions),
        (2, Some(1), Some(5))
    );
}

#[test]
fn yaml_extensions_and_olive_twin_forms() {
    let text = "algebraic:\n  white: [Ke1, Ra1, Rh1]\n  black: [Ke8]\nstipulation: \"#2\"\ncastling: \"-\"\n";
    assert_eq!(yaml(text).unwrap()[0].position.castling, 0);
    let text = "algebraic: {white: [Ke1, Rh1], black: [Ke8, Ra8]}\nstipulation: h#2\n";
    assert_eq!(
        yaml(text).unwrap()[0].position.castling,
        chainmate::position::WHITE_KINGSIDE | chainmate::position::BLACK_QUEENSIDE
    );
    // A zero position: twins start at a.
    let text = "algebraic: {white: [Ke1, Qd1], black: [Ke8]}\nstipulation: \"#2\"\n\
                twins:\n  a: Move d1 d2\n  b: Move d1 d3\n";
    let t = yaml(text).unwrap()[0].twin_instances().unwrap();
    assert_eq!(
        t.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    // Several commands in one twin.
    let text = "algebraic: {white: [Ke1, Qd1], black: [Ke8, Pe5]}\nstipulation: \"#2\"\n\
                twins:\n  b: Add white Sb1 Ra1 Remove e5 Stipulation h#3\n  c: Condition Orthodox Move d1 d3\n";
    let p = &yaml(text).unwrap()[0];
    assert_eq!(p.twins[0].line, 4);
    let t = p.twin_instances().unwrap();
    assert_eq!(
        (at(&t[1].position, "b1"), at(&t[1].position, "a1")),
        (w(Kind::Knight), w(Kind::Rook))
    );
    assert_eq!(
        (at(&t[1].position, "e5"), t[1].stipulation.to_string()),
        (None, "h#3".to_string())
    );
    assert_eq!(
        t[1].position.castling,
        chainmate::position::WHITE_QUEENSIDE,
        "the added rook may castle"
    );
    assert_eq!(at(&t[2].position, "d3"), w(Kind::Queen));
    let e = yaml(
        "algebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"#2\"\ntwins:\n  b: Remove d4\n",
    )
    .unwrap_err();
    assert_eq!((e.line, e.file.as_str()), (Some(4), "test.yaml"));
    assert!(
        e.message
            .contains("problem 1: twin b: Remove d4: there is no piece on d4"),
        "{e}"
    );
    // Schema fields chainmate has no use for are accepted; a key outside the schema is
    // an error (see `unknown_yaml_keys`); an empty stream has no problem.
    let text = "glyphs: {g: q3}\nreprints: [{name: FIDE Album, problemid: 5}]\nalgebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"=2\"\n";
    assert_eq!(yaml(text).unwrap().len(), 1);
    let e = yaml("glyphs: {g: q3}\nfoo: [1, 2]\nalgebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"=2\"\n").unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.contains("unknown key 'foo'"), "{e}");
    assert!(
        yaml("# nothing\n---\n")
            .unwrap_err()
            .message
            .contains("no problem")
    );
}

#[test]
fn fen_files_and_arguments() {
    let v = load_file(&data("problems/problems.fen")).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(v.iter().map(|p| p.line).collect::<Vec<_>>(), [2, 3, 4]);
    assert_eq!(v[0].stipulation.to_string(), "#2");
    assert_eq!(at(&v[0].position, "d1"), w(Kind::Queen));
    // An explicit castling field replaces the home convention.
    assert_eq!(
        v[1].position.castling,
        chainmate::position::WHITE_KINGSIDE | chainmate::position::BLACK_QUEENSIDE
    );
    assert!(v[1].options.set_play);
    assert_eq!(at(&v[2].position, "a1"), w(Kind::Amazon));
    assert_eq!(at(&v[2].position, "h1"), b(Kind::Nightrider));
    assert_eq!(
        v[2].position.pockets,
        [Some(Kind::Queen), Some(Kind::Knight)]
    );

    let p = from_fen_arg("r3k2r/8/8/8/8/8/8/R3K2R", "#3", Condition::Orthodox).unwrap();
    assert_eq!(p.file, "<fen>");
    assert_eq!(
        p.position.castling, 15,
        "no castling field: every home king and rook may castle"
    );
    let p = from_fen_arg("4k3/8/8/8/3pP3/8/8/4K3 b - e3", "h#2", Condition::Orthodox).unwrap();
    assert_eq!(p.position.ep, sq("e3"));
    assert_eq!(p.position.side, Color::White);
    let e = from_fen_arg("4k3/8/8/8/8/8/8/4K3", "#x", Condition::Orthodox).unwrap_err();
    assert!(e.message.contains("malformed stipulation '#x'"), "{e}");
}

#[test]
fn load_file_dispatch_and_sniffing() {
    let dir = std::env::temp_dir().join(format!("chainmate-problem-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "a.txt",
            "BeginProblem\nStipulation #2\nPieces White Ke1 Qd1 Black Ke8\nEndProblem\n",
        ),
        ("b.txt", "4k3/8/4K3/8/8/8/8/3Q4 ; #2\n"),
        (
            "c.txt",
            "algebraic: {white: [Ke1, Qd1], black: [Ke8]}\nstipulation: \"#2\"\n",
        ),
        (
            "d.YML",
            "algebraic: {white: [Ke1, Qd1], black: [Ke8]}\nstipulation: \"#2\"\n",
        ),
        ("e.pop", "begi\nstip #2\npiec whit ke1 qd1 blac ke8\nendp\n"),
    ];
    for (name, text) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let v = load_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(at(&v[0].position, "d1"), w(Kind::Queen), "{name}");
    }
    // Latin-1 text (old Popeye files) is read, not refused.
    let path = dir.join("latin1.inp");
    std::fs::write(&path, b"BeginProblem\nAuthor Fran\xe7ois\nStipulation #2\nPieces White Ke1 Qd1 Black Ke8\nEndProblem\n")
        .unwrap();
    assert_eq!(load_file(&path).unwrap()[0].authors, ["François"]);
    let missing = dir.join("missing.yaml");
    let e = load_file(&missing).unwrap_err();
    assert!(
        e.file.ends_with("missing.yaml") && e.message.contains("cannot read"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// Errors: each names the file, the line (and column) and what is wrong.
// ---------------------------------------------------------------------------------------

fn error_of(rel: &str) -> ProblemError {
    match load_file(&data(rel)) {
        Ok(_) => panic!("{rel} should not load"),
        Err(e) => {
            assert!(e.file.ends_with(rel.rsplit('/').next().unwrap()), "{e}");
            assert!(e.to_string().starts_with(&e.file), "{e}");
            e
        }
    }
}

#[test]
fn error_unknown_piece_code() {
    let e = error_of("problems/errors/unknown_piece.inp");
    assert_eq!((e.line, e.column), (Some(4), Some(18)));
    assert!(e.message.contains("unknown piece code 'X'"), "{e}");
    assert!(
        e.message.contains("the knight is S, N is the nightrider"),
        "{e}"
    );
    // A Popeye piece chainmate does not have is named.
    let e = inp("BeginProblem\nStipulation #2\nPieces White Ke1 Gd4 Black Ke8\nEndProblem")
        .unwrap_err();
    assert!(
        e.message
            .contains("piece code 'G' (Popeye's grasshopper) is not supported"),
        "{e}"
    );
    assert_eq!(e.line, Some(3));
    // In YAML too, with the line of the entry.
    let e = yaml("algebraic:\n  white: [Ke1, Qd1]\n  black: [Ke8, Xa3]\nstipulation: \"#2\"\n")
        .unwrap_err();
    assert_eq!((e.line, e.column), (Some(3), Some(16)));
    assert!(
        e.message.contains("problem 1: unknown piece code 'X'"),
        "{e}"
    );
}

#[test]
fn error_bad_square() {
    let e = error_of("problems/errors/bad_square.inp");
    assert_eq!(e.line, Some(3));
    assert!(e.message.contains("bad square 'i9'"), "{e}");
    let e = inp(
        "BeginProblem\nStipulation #2\nPieces White Ke1 Black Ke8\nTwin Move e1 e9\nEndProblem",
    )
    .unwrap_err();
    assert_eq!(e.line, Some(4));
    assert!(e.message.contains("bad square 'e9'"), "{e}");
}

#[test]
fn error_two_pieces_on_one_square() {
    let e = error_of("problems/errors/two_pieces.inp");
    assert_eq!(e.line, Some(4));
    assert!(
        e.message
            .contains("two pieces on d4: white Qd4 (line 3) and black Rd4 (line 4)"),
        "{e}"
    );
}

#[test]
fn error_missing_king() {
    let e = error_of("problems/errors/missing_king.inp");
    assert_eq!(e.line, Some(1));
    assert!(e.message.contains("black has no king"), "{e}");
    let e = inp("BeginProblem\nStipulation #2\nPieces White Ke1 Kd1 Black Ke8\nEndProblem")
        .unwrap_err();
    assert!(e.message.contains("white has 2 kings (d1, e1)"), "{e}");
    assert_eq!(e.line, Some(3));
}

#[test]
fn error_pawn_on_first_rank() {
    let e = error_of("problems/errors/pawn_first_rank.inp");
    assert_eq!((e.line, e.column), (Some(3), Some(18)));
    assert!(e.message.contains("white pawn on a1"), "{e}");
    assert!(e.message.contains("rank 1 (its own first rank)"), "{e}");
    let e = inp("BeginProblem\nStipulation #2\nPieces White Ke1 Black Ke8 Pd1\nEndProblem")
        .unwrap_err();
    assert!(
        e.message.contains("black pawn on d1") && e.message.contains("promotion rank"),
        "{e}"
    );
    // The check also applies to every twin.
    let e = inp(
        "BeginProblem\nStipulation #2\nPieces White Ke1 Pc4 Black Ke8\nTwin Move c4 c8\nEndProblem",
    )
    .unwrap_err();
    assert_eq!(e.line, Some(4));
    assert!(e.message.starts_with("twin b: white pawn on c8"), "{e}");
    assert_eq!(
        check_position(
            &Position::from_fen("4k3/8/8/8/8/8/8/P3K3").unwrap(),
            Condition::Orthodox
        )
        .unwrap_err()
        .square,
        Some(sq("a1"))
    );
}

#[test]
fn error_unknown_condition() {
    let e = error_of("problems/errors/unknown_condition.inp");
    assert_eq!((e.line, e.column), (Some(3), Some(11)));
    assert!(e.message.contains("unknown condition 'Isardam'"), "{e}");
    assert!(e.message.contains("chainmate knows: orthodox"), "{e}");
    let e = yaml("algebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"#2\"\noptions:\n  - SetPlay\n  - Isardam\n")
        .unwrap_err();
    assert_eq!((e.line, e.column), (Some(5), Some(5)));
    assert!(
        e.message.contains("unknown option or condition 'Isardam'"),
        "{e}"
    );
    let e = inp(
        "BeginProblem\nStipulation #2\nOption Variatons\nPieces White Ke1 Black Ke8\nEndProblem",
    )
    .unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.message.contains("unknown option 'Variatons'"), "{e}");
    let e =
        inp("BeginProblem\nStipulation #2\nOption NoWk\nPieces White Ke1 Black Ke8\nEndProblem")
            .unwrap_err();
    assert!(e.message.contains("option 'NoWk' is not supported"), "{e}");
    let e = inp(
        "BeginProblem\nStipulation h#2\nOption Duplex\nOption HalfDuplex\nPieces White Ke1 Black Ke8\nEndProblem",
    )
    .unwrap_err();
    assert_eq!(e.line, Some(4));
    assert!(
        e.message
            .contains("Duplex and HalfDuplex exclude each other"),
        "{e}"
    );
}

/// `Duplex` solves each twin as stated and then with the colours' roles exchanged,
/// `HalfDuplex` only so; `WhiteToPlay` makes a helpmate start with White, half a move
/// shorter (Popeye 4.104 prints `h#1.5` for an `h#2` with it), and leaves other play as it
/// is.
#[test]
fn duplex_halves_and_white_to_play() {
    use chainmate::problem::Duplex;
    let text = |opt: &str, stip: &str| {
        format!(
            "BeginProblem\nStipulation {stip}\nOption {opt}\nPieces White Ke1 Qd1 Black Ke8\nTwin Move d1 d2\nEndProblem"
        )
    };
    let halves = |opt: &str| {
        let p = &inp(&text(opt, "h#2")).unwrap()[0];
        p.solving_instances(&p.options)
            .unwrap()
            .iter()
            .map(|t| (t.label.clone(), t.exchanged, t.second_half(&p.options)))
            .collect::<Vec<_>>()
    };
    let (a, b) = (
        |x: bool, s: bool| ("a".to_string(), x, s),
        |x: bool, s: bool| ("b".to_string(), x, s),
    );
    assert_eq!(
        halves("Duplex"),
        [
            a(false, false),
            a(true, true),
            b(false, false),
            b(true, true)
        ]
    );
    assert_eq!(halves("HalfDuplex"), [a(true, false), b(true, false)]);
    assert_eq!(
        inp(&text("Duplex", "h#2")).unwrap()[0].options.duplex,
        Duplex::Full
    );
    let stips = |opt: &str, stip: &str| {
        let p = &inp(&text(opt, stip)).unwrap()[0];
        p.solving_instances(&p.options)
            .unwrap()
            .iter()
            .map(|t| t.stipulation.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(stips("WhiteToPlay", "h#2"), ["h#1.5", "h#1.5"]);
    assert_eq!(stips("WhiteToPlay", "h=1"), ["h=0.5", "h=0.5"]);
    assert_eq!(stips("WhiteToPlay", "h#2.5"), ["h#2.5", "h#2.5"]);
    assert_eq!(stips("WhiteToPlay", "#2"), ["#2", "#2"]);
    assert_eq!(stips("SetPlay", "h#2"), ["h#2", "h#2"]);
    let p = &inp(&text("WhiteToPlay", "ser-h#2")).unwrap()[0];
    let e = p.solving_instances(&p.options).unwrap_err();
    assert!(e.message.contains("WhiteToPlay with series play"), "{e}");
}

#[test]
fn error_malformed_stipulation() {
    let e = error_of("problems/errors/bad_stipulation.inp");
    assert_eq!((e.line, e.column), (Some(4), Some(13)));
    assert!(e.message.contains("malformed stipulation 'x#2'"), "{e}");
    let e = inp("BeginProblem\nPieces White Ke1 Black Ke8\nEndProblem").unwrap_err();
    assert!(e.message.contains("no stipulation"), "{e}");
}

#[test]
fn error_unquoted_yaml_stipulation() {
    let e = error_of("problems/errors/unquoted_stipulation.yaml");
    assert_eq!((e.line, e.column), (Some(6), Some(1)));
    assert!(e.message.contains("unquoted # starts a comment"), "{e}");
    assert!(e.message.contains("stipulation: \"#3\""), "{e}");
    let e = yaml("algebraic: {white: [Ke1], black: [Ke8]}\nstipulation:\n").unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("the stipulation is empty (write"), "{e}");
}

#[test]
fn error_yaml_syntax_in_second_document_does_not_hang() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(load_file(&data(
            "problems/errors/syntax_error_second_doc.yaml",
        )));
    });
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("reading a broken YAML stream must not hang");
    let e = r.unwrap_err();
    assert!(e.message.starts_with("problem 2: YAML syntax error"), "{e}");
    assert_eq!(e.line, Some(9));
    assert!(e.column.is_some());
}

#[test]
fn error_unsupported_features() {
    for (text, want) in [
        (
            "Pieces White Royal Ke1 Black Ke8",
            "piece attribute 'Royal' is not supported",
        ),
        (
            "Pieces White Ke1 Neutral Pd4 Black Ke8",
            "neutral pieces are not supported",
        ),
        (
            "Pieces White Ke1 Black Ke8 SStipulation white 3a[#]d",
            "SStipulation",
        ),
        (
            "Pieces White Ke1 Black Ke8 Twin Rotate 45",
            "cannot rotate by '45'",
        ),
        (
            "Pieces White Ke1 Black Ke8 Twin Move d4 d5",
            "twin b: Move d4 d5: there is no piece on d4",
        ),
        (
            "Pieces White Ke1 Black Ke8 Twin Jump a1",
            "unknown twin command 'Jump'",
        ),
        (
            "Pieces White Ke1 Black Ke8 Bogus",
            "cannot read 'Bogus' as a piece",
        ),
        (
            "Pieces White Ke1 Black Ke8\nTitle A title\nBogus",
            "unknown keyword 'Bogus'",
        ),
    ] {
        let e = inp(&format!("BeginProblem\nStipulation #2\n{text}\nEndProblem")).unwrap_err();
        assert!(e.message.contains(want), "{text}: {e}");
        assert!(e.line.is_some(), "{text}: {e}");
    }
    let e =
        yaml("algebraic:\n  white: [Ke1]\n  black: [Ke8]\n  neutral: [Pd4]\nstipulation: \"#2\"\n")
            .unwrap_err();
    assert!(
        e.message.contains("neutral pieces are not supported"),
        "{e}"
    );
    assert_eq!(e.line, Some(4));
    let e = yaml("algebraic:\n  white: [Ke1, Royal Qd1]\n  black: [Ke8]\nstipulation: \"#2\"\n")
        .unwrap_err();
    assert!(e.message.contains("piece attribute 'Royal'"), "{e}");
    let e = inp("AnfangProblem\nForderung #2\nEndeProblem").unwrap_err();
    assert!(e.message.contains("English keywords"), "{e}");
    let e = inp("BeginProblem\nStipulation #2\nPieces White Ke1 Black Ke8\n").unwrap_err();
    assert!(e.message.contains("no EndProblem"), "{e}");
}

#[test]
fn tatarstan_chains_switched_off_by_option() {
    let y = yaml("stipulation: \"#1\"\noptions: [Tatarstan NoChains]\nalgebraic:\n  white: [Kh3, Qe8, Se7]\n  black: [Kh7]\n").unwrap();
    assert_eq!(y[0].condition, Condition::TatarstanNoChains);
    let p = inp("BeginProblem\nStipulation #1\nCondition Tatarstan NoChains\nPieces\n  White Kh3 Qe8 Se7\n  Black Kh7\nEndProblem\n").unwrap();
    assert_eq!(p[0].condition, Condition::TatarstanNoChains);
    let y = yaml("stipulation: \"#1\"\ncondition: tatarstan\nalgebraic:\n  white: [Kh3, Qe8, Se7]\n  black: [Kh7]\n").unwrap();
    assert_eq!(y[0].condition, Condition::Tatarstan);
}

/// A key outside the YACPDB schema is an error naming its line and the nearest known
/// key; the schema's keys chainmate has no use for are accepted, nested maps included.
#[test]
fn unknown_yaml_keys() {
    let board = "algebraic: {white: [Ke1], black: [Ke8]}\nstipulation: \"#2\"\n";
    for (text, line, message) in [
        (
            "option: [Try]\n",
            1,
            "unknown key 'option' (did you mean 'options'?)",
        ),
        (
            "twin:\n  b: Move e1 e2\n",
            1,
            "unknown key 'twin' (did you mean 'twins'?)",
        ),
        (
            "autors: [X]\n",
            1,
            "unknown key 'autors' (did you mean 'authors'?)",
        ),
        (
            "source:\n  name: Die Schwalbe\n  isue: 3\n",
            3,
            "unknown key 'isue' in source (did you mean 'issue'?)",
        ),
        (
            "source:\n  name: x\n  date: {year: 1990, mnth: 3}\n",
            3,
            "unknown key 'mnth' in source date (did you mean 'month'?)",
        ),
        (
            "award:\n  distinction: 1st Prize\n  tourny: {name: x}\n",
            3,
            "unknown key 'tourny' in award (did you mean 'tourney'?)",
        ),
        (
            "reprints:\n  - name: FIDE Album\n    problemd: 5\n",
            3,
            "unknown key 'problemd' in reprints (did you mean 'problemid'?)",
        ),
    ] {
        let e = yaml(&format!("{text}{board}")).unwrap_err();
        assert_eq!(e.line, Some(line), "{e}");
        assert!(e.message.ends_with(message), "{e}");
    }
    let e = yaml("algebraic:\n  white: [Ke1]\n  blak: [Ke8]\nstipulation: \"#2\"\n").unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(
        e.message
            .contains("unknown key 'blak' in algebraic (did you mean 'black'?)"),
        "{e}"
    );
    // Far from every key: the known keys are listed.
    let e = yaml(&format!("zzzzzzzz: 1\n{board}")).unwrap_err();
    assert!(e.message.contains("known keys: authors, source"), "{e}");
    // Every schema field, Olive's older ones and chainmate's own are accepted.
    let all = "authors: [A]\nsource: {name: S, volume: 1, issue: 2, round: 3, problemid: 4, pagenumber: 5, variant: v, comments: [c], date: {year: 1990, month: 1, day: 2}}\n\
               award: {distinction: 1st Prize, judges: [J], tourney: {name: T, date: {year: 1990}}}\n\
               reprints: [{name: R, date: {year: 1991}}]\nglyphs: {g: q3}\nintended-solutions: 2\n\
               keywords: [K]\ncomments: [C]\nforeignids: [{domain: PDB, problemid: P1}]\nid: '42'\nash: x\nlegend: y\n\
               source-id: 1/2\ndistinction: Prize\ntitle: T\nremark: R\noptions: [Try]\nsolution: x\n";
    assert_eq!(yaml(&format!("{all}{board}")).unwrap().len(), 1);
}

/// Every shipped YAML / Olive file (problems/ and tests/data) still loads.
#[test]
fn every_shipped_yaml_file_loads() {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("yaml" | "yml" | "olv")
            ) {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    walk(&root.join("problems"), &mut files);
    walk(&root.join("tests/data"), &mut files);
    let mut loaded = 0;
    for f in &files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        // Files made to be refused.
        if rel.contains("yaml_keys/") || rel.contains("/errors/") {
            continue;
        }
        match load_file(f) {
            Ok(v) => loaded += v.len(),
            Err(e) => assert!(!e.message.contains("unknown key"), "{rel}: {e}"),
        }
    }
    assert!(loaded > 40, "{loaded}");
}

/// Circe and Madrasi are read from YAML (`options: [Circe]`, `condition: madrasi`) and from
/// Popeye input (`Condition Circe`), with fairy pieces, and solved under the condition.
#[test]
fn circe_and_madrasi_in_yaml_and_popeye_input() {
    use chainmate::rules::Condition;
    let p = yaml("algebraic:\n  white: [Kc1, Qd1]\n  black: [Ka8, Pd5, Se5, Nh8]\nstipulation: \"#2\"\noptions: [Circe]\n")
        .unwrap();
    assert_eq!(p[0].condition, Condition::Circe);
    let p = yaml("algebraic:\n  white: [Ke1, Rd1]\n  black: [Ka8, Re8]\nstipulation: \"h#2\"\ncondition: madrasi\n")
        .unwrap();
    assert_eq!(p[0].condition, Condition::Madrasi);
    let p = inp("BeginProblem\nCondition Madrasi\nStipulation #2\nPieces White Ke1 Nd1 Black Ke8 Nd8\nEndProblem")
        .unwrap();
    assert_eq!(p[0].condition, Condition::Madrasi);
    let p = inp(
        "BeginProblem\nCondition circe\nStipulation #2\nPieces White Ke1 Black Ke8\nEndProblem",
    )
    .unwrap();
    assert_eq!(p[0].condition, Condition::Circe);
}
