//! The problem model and its readers: YAML (YACPDB / Olive schema, `yaml.rs` is the only
//! file naming the YAML crate), Popeye input files (`inp.rs`) and FEN (`fen.rs`).
//!
//! Every reader goes through [`validate_position`] (or [`check_position`] for a FEN
//! diagram) and builds its problems with the same internal draft, so the checks and the
//! castling / en-passant conventions are the same for all formats; see
//! `docs/problem-format.md`.

pub mod fen;
pub mod inp;
mod popeye_names;
pub mod yaml;

pub use fen::from_fen_arg;

use crate::core::piece::KINDS;
use crate::core::square::{file_of, rank_of, square};
use crate::core::{Color, Kind, NO_SQUARE, Piece, Square, parse_square, square_name};
use crate::position::Position;
use crate::rules::Condition;
use crate::search::{SearchInput, SearchOptions, Stipulation};
use std::fmt;
use std::path::Path;

/// Where a problem came from and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ProblemError {}

/// Solving and printing options (Popeye's `Option` line / YACPDB `options`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Print tries (`Try`).
    pub tries: bool,
    /// A first move with at most this many refutations is a try (`Defence N`, default 1).
    pub defence: u32,
    /// Print set play (`SetPlay`).
    pub set_play: bool,
    /// `Threat N`: only threats of at most N moves are looked for.
    pub threat: Option<u32>,
    /// `NoThreat`: do not print threats.
    pub no_threat: bool,
    /// `MaxSolutions N`.
    pub max_solutions: Option<u32>,
    /// Print the variation tree (`Variations`); otherwise only key/try lines.
    pub variations: bool,
    /// `NoShortVariations`: variations shorter than the full length are not printed.
    pub short_variations_off: bool,
    /// `NoBoard`: do not print the diagram.
    pub no_board: bool,
    /// `Intelligent`: accepted with a note on stderr (the search is exhaustive anyway).
    pub intelligent: bool,
    /// `MaxTime N`: stop solving this problem after N seconds (as `--time-limit`, the
    /// smaller of the two wins).
    pub max_time: Option<u32>,
    /// `MoveNumbers`: Popeye's progress lines, one per first move.
    pub move_numbers: bool,
    /// `Duplex`, `HalfDuplex`: solved with the colours' roles exchanged too, or only so.
    pub duplex: Duplex,
    /// `WhiteToPlay`: in help play White starts, half a move less (`h#2` is solved as
    /// `h#1.5`, as Popeye does); see [`white_to_play`] for the other stipulations.
    pub white_to_play: bool,
}

/// Popeye's `Duplex` and `HalfDuplex`: each twin is solved as stated and then with the
/// colours' roles exchanged (the other side starts and plays for the goal), or only with
/// them exchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duplex {
    #[default]
    Off,
    Full,
    Half,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tries: false,
            defence: 1,
            set_play: false,
            threat: None,
            no_threat: false,
            max_solutions: None,
            variations: false,
            short_variations_off: false,
            no_board: false,
            intelligent: false,
            max_time: None,
            move_numbers: false,
            duplex: Duplex::Off,
            white_to_play: false,
        }
    }
}

impl Options {
    /// The options the search reads (the printing ones, `NoBoard`, `Intelligent` and
    /// `MaxTime`, stay here).
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            tries: self.tries,
            defence: self.defence,
            set_play: self.set_play,
            threat: self.threat,
            no_threat: self.no_threat,
            max_solutions: self.max_solutions,
            variations: self.variations,
            short_variations_off: self.short_variations_off,
            move_numbers: self.move_numbers,
        }
    }
}

/// One Popeye twin command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinCommand {
    Move(Square, Square),
    Exchange(Square, Square),
    Remove(Square),
    Add(Piece, Square),
    /// Every piece of the first kind becomes the second kind (both colours).
    Substitute(Kind, Kind),
    /// Rotate the board by 90, 180 or 270 degrees (counter-clockwise, as Popeye).
    Rotate(u16),
    /// Mirror: `a1<-->h1` (files), `a1<-->a8` (ranks), `a1<-->h8`, `a8<-->h1` (diagonals).
    Mirror(Mirror),
    /// Shift every piece by the vector from the first square to the second.
    Shift(Square, Square),
    Stipulation(Stipulation),
    Condition(Condition),
    /// Swap the colours of all pieces.
    PolishType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    Files,
    Ranks,
    A1H8,
    H1A8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// "b", "c", ... When the first twin is labelled "a" it comes from a zero position
    /// (Popeye `ZeroPosition`, YACPDB twins starting at `a`): the diagram itself is then
    /// not solved, only the twins are.
    pub label: String,
    /// Applied to the previous twin instead of the original (`Twin Continued`, YAML `+c`).
    pub continued: bool,
    pub commands: Vec<TwinCommand>,
    /// 1-based line of the twin in its file (0 when unknown), for error messages.
    pub line: usize,
}

/// A problem as read from a file.
#[derive(Clone, Debug)]
pub struct Problem {
    /// File it came from (as given by the user), or "<fen>" for a command-line FEN.
    pub file: String,
    /// 1-based line where the problem starts in that file.
    pub line: usize,
    /// 0-based index of the problem in its file.
    pub index: usize,
    pub title: Option<String>,
    pub authors: Vec<String>,
    pub source: Option<String>,
    pub award: Option<String>,
    pub keywords: Vec<String>,
    pub comments: Vec<String>,
    /// Popeye `Remark` text (echoed by `solve` before the solution).
    pub remark: Option<String>,
    /// Popeye `Remark` lines written after a twin's commands: (twin label, text). `solve`
    /// echoes them before that twin's solution, where Popeye prints them.
    pub twin_remarks: Vec<(String, String)>,
    /// Popeye `Protocol FILE`: `solve` writes this problem's text output to FILE too.
    pub protocol: Option<String>,
    /// The diagram. Side to move is White; the solver derives who starts from the
    /// stipulation. Castling rights and the en-passant square are as the file says.
    pub position: Position,
    pub stipulation: Stipulation,
    pub condition: Condition,
    pub options: Options,
    pub twins: Vec<Twin>,
    /// The stated solution, in Popeye's text format, if the file gives one.
    pub solution: Option<String>,
    /// The YACPDB id (YAML `id`), when the file gives one.
    pub yacpdb_id: Option<String>,
}

/// One twin ready to solve.
#[derive(Clone, Debug)]
pub struct TwinInstance {
    /// What the twin changed, as Popeye prints it (`wSb1-->b3`, `-wPc2`, `rotate 180`).
    pub description: String,
    /// Derived from the previous twin (printed with a `+` before the label).
    pub continued: bool,
    /// "" when the problem has no twins, else "a", "b", ...
    pub label: String,
    pub position: Position,
    pub stipulation: Stipulation,
    pub condition: Condition,
    /// Solved with the colours' roles exchanged (a `Duplex` or `HalfDuplex` half).
    pub exchanged: bool,
}

impl TwinInstance {
    /// What the search needs of this twin: its label, diagram and stipulation (the search
    /// takes the condition from the rules it is given).
    pub fn search_input(&self) -> SearchInput {
        SearchInput {
            label: self.label.clone(),
            position: self.position,
            stipulation: self.stipulation,
            exchanged: self.exchanged,
        }
    }

    /// The second half of a `Duplex` twin: its twin line is written once, before the
    /// first half.
    pub fn second_half(&self, options: &Options) -> bool {
        self.exchanged && options.duplex == Duplex::Full
    }
}

// ---------------------------------------------------------------------------------------
// Loading files
// ---------------------------------------------------------------------------------------

/// The formats chainmate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// YACPDB / Olive YAML (`.yaml`, `.yml`, `.olv`), one problem per document.
    Yaml,
    /// Popeye input (`.inp`, `.pop`).
    Popeye,
    /// One `FEN ; stipulation` per line (`.fen`).
    Fen,
}

impl SourceFormat {
    /// The format a file name's extension stands for, if any (case-insensitive).
    pub fn from_extension(path: &Path) -> Option<SourceFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "yaml" | "yml" | "olv" => Some(SourceFormat::Yaml),
            "inp" | "pop" => Some(SourceFormat::Popeye),
            "fen" => Some(SourceFormat::Fen),
            _ => None,
        }
    }

    /// Guesses the format from the text: `BeginProblem` (or an abbreviation of it) first
    /// means Popeye, a first line whose first field has the 7 slashes of a FEN board means
    /// FEN, anything else is taken as YAML.
    pub fn sniff(text: &str) -> SourceFormat {
        let first_word = text
            .split(|c: char| c.is_whitespace() || c == ';' || c == ',')
            .find(|w| !w.is_empty());
        if let Some(w) = first_word {
            let lw = w.to_ascii_lowercase();
            let begins = ["beginproblem", "anfangproblem", "debutprobleme"];
            if lw.len() >= 4 && begins.iter().any(|b| b.starts_with(&lw)) {
                return SourceFormat::Popeye;
            }
        }
        let first_line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'));
        if let Some(l) = first_line {
            let field = l.split([' ', ';', '\t']).next().unwrap_or("");
            if field.matches('/').count() == 7 && !l.contains(": ") {
                return SourceFormat::Fen;
            }
        }
        SourceFormat::Yaml
    }
}

/// Reads every problem of a file. The format comes from the extension (`.yaml`, `.yml`,
/// `.olv`: YAML; `.inp`, `.pop`: Popeye; `.fen`: FEN lines); other extensions are sniffed
/// with [`SourceFormat::sniff`]. Text that is not UTF-8 is read as Latin-1 (old Popeye
/// files). The first bad problem's error is returned; [`load_file_all`] keeps the good
/// ones.
pub fn load_file(path: &Path) -> Result<Vec<Problem>, ProblemError> {
    let (problems, mut errors) = load_file_all(path);
    if errors.is_empty() {
        Ok(problems)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// Reads every problem of a file as [`load_file`] does, but a problem (YAML document,
/// Popeye `NextProblem` section) that cannot be read is one error and the others are
/// still returned.
pub fn load_file_all(path: &Path) -> (Vec<Problem>, Vec<ProblemError>) {
    let stdin = path.as_os_str() == "-";
    let file = if stdin {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let read = if stdin {
        // `-`: standard input, its format sniffed.
        let mut b = vec![];
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
    } else {
        std::fs::read(path)
    };
    let bytes = match read {
        Ok(b) => b,
        Err(e) => {
            let e = ProblemError {
                file,
                line: None,
                column: None,
                message: format!("cannot read the file: {e}"),
            };
            return (vec![], vec![e]);
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let format = SourceFormat::from_extension(path).unwrap_or_else(|| SourceFormat::sniff(text));
    parse_text_all(&file, text, format)
}

/// Reads every problem of a text in the given format; `file` names it in errors.
pub fn parse_text(
    file: &str,
    text: &str,
    format: SourceFormat,
) -> Result<Vec<Problem>, ProblemError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        SourceFormat::Yaml => yaml::parse_yaml(file, text),
        SourceFormat::Popeye => inp::parse_inp(file, text),
        SourceFormat::Fen => fen::parse_fen_file(file, text),
    }
}

/// [`parse_text`], keeping the good problems of a file with bad ones (YAML documents and
/// Popeye problems are read one by one; a FEN file is read as a whole).
pub fn parse_text_all(
    file: &str,
    text: &str,
    format: SourceFormat,
) -> (Vec<Problem>, Vec<ProblemError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        SourceFormat::Yaml => yaml::parse_yaml_all(file, text),
        SourceFormat::Popeye => inp::parse_inp_all(file, text),
        SourceFormat::Fen => match fen::parse_fen_file(file, text) {
            Ok(ps) => (ps, vec![]),
            Err(e) => (vec![], vec![e]),
        },
    }
}

// ---------------------------------------------------------------------------------------
// Pieces, squares and the diagram checks
// ---------------------------------------------------------------------------------------

/// One piece as a reader found it in a file, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PiecePlacement {
    pub color: Color,
    /// The piece code as written: Popeye's codes, `S` knight, `N` nightrider, `AM` ...
    pub code: String,
    /// The square as written, e.g. "e4".
    pub square: String,
    /// 1-based line and column of the text that placed the piece, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A problem in a diagram found by [`check_position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The square concerned, if the problem is about one piece.
    pub square: Option<Square>,
    pub message: String,
}

/// The piece codes chainmate knows, space separated (for messages).
pub fn known_piece_codes() -> String {
    KINDS.iter().map(|k| k.code).collect::<Vec<_>>().join(" ")
}

/// Parses a piece code (Popeye's codes, case-insensitive). The error names the code, says
/// when it is a Popeye piece chainmate does not support, and reminds that the knight is S.
pub fn parse_piece_code(code: &str) -> Result<Kind, String> {
    if let Some(k) = Kind::from_input_code(code) {
        return Ok(k);
    }
    let known = known_piece_codes();
    if code.is_empty() {
        return Err(format!("missing piece code (chainmate knows {known})"));
    }
    let head = match popeye_names::popeye_piece_name(code) {
        Some(name) => format!("piece code '{code}' (Popeye's {name}) is not supported"),
        None => format!("unknown piece code '{code}'"),
    };
    Err(format!(
        "{head}; chainmate knows {known} (the knight is S, N is the nightrider)"
    ))
}

/// Parses a square name such as "e4" (case-insensitive file letter).
pub fn parse_square_text(text: &str) -> Result<Square, String> {
    parse_square(text).ok_or_else(|| format!("bad square '{text}' (squares are a1 to h8)"))
}

/// Builds a diagram from the pieces a reader found and checks it: every code and square
/// must be valid, no two pieces may share a square, each side needs exactly one king and
/// no pawn may stand where the condition forbids it
/// ([`Condition::allows_pawn_on_relative_rank`]). Castling rights follow the problem
/// convention ([`Position::home_castling_rights`]); White is to move, no en-passant square.
/// Errors name `file` and the line/column of the offending piece, or `line` (where the
/// problem starts) for a missing king.
pub fn validate_position(
    file: &str,
    line: Option<usize>,
    placements: &[PiecePlacement],
    condition: Condition,
) -> Result<Position, ProblemError> {
    let mut pos = Position::empty();
    let mut owner: [Option<&PiecePlacement>; 64] = [None; 64];
    for p in placements {
        let err = |message: String| ProblemError {
            file: file.to_string(),
            line: p.line,
            column: p.column,
            message,
        };
        let kind = parse_piece_code(&p.code).map_err(err)?;
        let sq = parse_square_text(&p.square).map_err(err)?;
        if let Some(prev) = owner[sq as usize] {
            let at = |q: &PiecePlacement| match q.line {
                Some(l) => format!(" (line {l})"),
                None => String::new(),
            };
            return Err(err(format!(
                "two pieces on {}: {} {}{}{} and {} {}{}{}",
                square_name(sq),
                prev.color,
                prev.code.to_ascii_uppercase(),
                square_name(sq),
                at(prev),
                p.color,
                p.code.to_ascii_uppercase(),
                square_name(sq),
                at(p)
            )));
        }
        owner[sq as usize] = Some(p);
        pos.board.put(sq, Piece::new(p.color, kind));
    }
    if let Err(e) = check_position(&pos, condition) {
        let placed = e.square.and_then(|s| owner[s as usize]);
        return Err(ProblemError {
            file: file.to_string(),
            line: placed.and_then(|p| p.line).or(line),
            column: placed.and_then(|p| p.column),
            message: e.message,
        });
    }
    pos.castling = pos.home_castling_rights();
    pos.normalize();
    Ok(pos)
}

/// Checks a finished diagram: exactly one king per side, and no pawn on a rank the
/// condition forbids.
pub fn check_position(pos: &Position, condition: Condition) -> Result<(), PositionError> {
    for c in [Color::White, Color::Black] {
        let kings: Vec<Square> = (0..64u8)
            .filter(|&s| pos.board.get(s) == Some(Piece::new(c, Kind::King)))
            .collect();
        match kings.len() {
            0 => {
                return Err(PositionError {
                    square: None,
                    message: format!("{c} has no king"),
                });
            }
            1 => {}
            n => {
                let names: Vec<String> = kings.iter().map(|&s| square_name(s)).collect();
                return Err(PositionError {
                    square: kings.get(1).copied(),
                    message: format!(
                        "{c} has {n} kings ({}); each side needs exactly one",
                        names.join(", ")
                    ),
                });
            }
        }
    }
    check_pawn_ranks(pos, condition)
}

/// Checks that no pawn stands on a rank the condition forbids
/// ([`Condition::allows_pawn_on_relative_rank`]): the part of [`check_position`] that
/// `perft`, `replay` and `claim` apply to a `--fen` diagram.
pub fn check_pawn_ranks(pos: &Position, condition: Condition) -> Result<(), PositionError> {
    for s in 0..64u8 {
        if let Some(p) = pos.board.get(s)
            && p.kind == Kind::Pawn
        {
            let rel = p.color.relative_rank(s);
            if !condition.allows_pawn_on_relative_rank(rel) {
                let which = match rel {
                    0 => "its own first rank".to_string(),
                    7 => "its promotion rank".to_string(),
                    r => format!("its relative rank {}", r + 1),
                };
                let cond = if condition == Condition::Orthodox {
                    String::new()
                } else {
                    format!(" under condition {}", condition.name())
                };
                return Err(PositionError {
                    square: Some(s),
                    message: format!(
                        "{} pawn on {}: a pawn may not stand on rank {} ({which}){cond}",
                        p.color,
                        square_name(s),
                        rank_of(s) + 1
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The names of the conditions chainmate knows, for messages.
pub(crate) fn known_conditions() -> String {
    Condition::ALL
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Twin label number `i` (0 = "a"): a..z, then z1, z2, ... as Popeye and YACPDB do.
pub fn twin_label(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("z{}", i - 25)
    }
}

/// Sort key of a twin label (a..z, z1, z2, ...); unknown shapes sort last, by text.
pub(crate) fn twin_label_order(label: &str) -> (usize, String) {
    let b = label.as_bytes();
    if b.len() == 1 && b[0].is_ascii_lowercase() {
        return ((b[0] - b'a') as usize, String::new());
    }
    if let Some(n) = label
        .strip_prefix('z')
        .and_then(|n| n.parse::<usize>().ok())
    {
        return (25 + n, String::new());
    }
    (usize::MAX, label.to_string())
}

/// Sets the en-passant square and drops what the position cannot use: castling rights
/// without king and rook at home, an en-passant square no pawn can capture on. The side to
/// move is White afterwards; an en-passant square on the 3rd rank (a white pawn just made
/// a double step) is kept for Black.
pub(crate) fn finish_position(pos: &mut Position) {
    if pos.ep != NO_SQUARE {
        match rank_of(pos.ep) {
            2 => pos.side = Color::Black,
            5 => pos.side = Color::White,
            _ => pos.ep = NO_SQUARE,
        }
    }
    pos.normalize();
    pos.side = Color::White;
    pos.hash = pos.compute_hash();
}

// ---------------------------------------------------------------------------------------
// The draft every reader fills in
// ---------------------------------------------------------------------------------------

/// Squares of an `EnPassant` option or an `enpassant:` field, as written.
#[derive(Clone, Debug)]
pub(crate) struct EpSpec {
    pub squares: Vec<Square>,
    pub text: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A diagram given as FEN (YAML `fen:`, `.fen` files, the command line).
#[derive(Clone, Debug)]
pub(crate) struct FenDiagram {
    pub position: Position,
    /// The FEN had a castling field: its rights replace the home convention.
    pub explicit_castling: bool,
    /// [`Position::ep_origin_error`] of the FEN: refused unless the condition can refill
    /// the square a two-stepping pawn left.
    pub ep_origin: Option<String>,
    /// The FEN as written, for messages.
    pub text: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A condition with the line and column that named it.
pub(crate) type CondAt = (Condition, Option<usize>, Option<usize>);

/// What a reader collected for one problem; [`Draft::build`] checks it and makes the
/// [`Problem`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Draft {
    pub line: usize,
    pub index: usize,
    pub title: Vec<String>,
    pub authors: Vec<String>,
    pub source: Vec<String>,
    pub award: Option<String>,
    pub keywords: Vec<String>,
    pub comments: Vec<String>,
    pub remark: Vec<String>,
    pub twin_remarks: Vec<(String, String)>,
    pub protocol: Option<String>,
    pub placements: Vec<PiecePlacement>,
    pub fen: Option<FenDiagram>,
    pub stipulation: Option<Stipulation>,
    /// Conditions with the line/column that named them.
    pub conditions: Vec<CondAt>,
    pub options: Options,
    pub ep: Option<EpSpec>,
    /// Castling rights forbidden by `NoCastling`.
    pub no_castling: u8,
    /// Castling rights given explicitly (YAML `castling:`), replacing the home convention.
    pub castling: Option<u8>,
    pub pockets: [Option<Kind>; 2],
    pub twins: Vec<Twin>,
    pub solution: Option<String>,
    pub yacpdb_id: Option<String>,
}

fn join_lines(v: &[String]) -> Option<String> {
    let v: Vec<&str> = v
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if v.is_empty() {
        None
    } else {
        Some(v.join("\n"))
    }
}

impl Draft {
    pub fn new(line: usize, index: usize) -> Draft {
        Draft {
            line,
            index,
            ..Draft::default()
        }
    }

    /// Checks everything and makes the problem (twins included: every twin is built once
    /// so that its errors show up when the file is read).
    pub fn build(
        self,
        file: &str,
        prefix: &str,
        missing_stipulation_hint: &str,
    ) -> Result<Problem, ProblemError> {
        let err = draft_error(file, prefix);
        let condition = self.condition(&err)?;
        let Some(stipulation) = self.stipulation else {
            return Err(err(
                self.problem_line(),
                None,
                format!("the problem has no stipulation{missing_stipulation_hint}"),
            ));
        };
        let mut position = self.diagram(file, prefix, condition)?;
        self.complete_position(&mut position, condition, &err)?;
        let problem = self.into_problem(file, position, stipulation, condition);
        problem.twin_instances().map_err(|e| ProblemError {
            message: format!("{prefix}{}", e.message),
            ..e
        })?;
        Ok(problem)
    }

    /// The line the problem starts on, when known.
    fn problem_line(&self) -> Option<usize> {
        Some(self.line).filter(|&l| l > 0)
    }

    /// The problem's condition: at most one besides orthodox.
    fn condition(&self, err: &DraftError) -> Result<Condition, ProblemError> {
        let mut condition = Condition::Orthodox;
        for &(c, l, col) in &self.conditions {
            if c == Condition::Orthodox || c == condition {
                continue;
            }
            if condition != Condition::Orthodox {
                return Err(err(
                    l.or(self.problem_line()),
                    col,
                    format!(
                        "more than one condition ({} and {}): chainmate solves one condition per problem",
                        condition.name(),
                        c.name()
                    ),
                ));
            }
            condition = c;
        }
        Ok(condition)
    }

    /// The checked diagram, from the FEN or the pieces (not both), with the castling rights
    /// of the FEN or of the home convention.
    fn diagram(
        &self,
        file: &str,
        prefix: &str,
        condition: Condition,
    ) -> Result<Position, ProblemError> {
        let err = draft_error(file, prefix);
        let problem_line = self.problem_line();
        match (&self.fen, self.placements.is_empty()) {
            (Some(_), false) => Err(err(
                problem_line,
                None,
                "the diagram is given twice (pieces and FEN): give one".into(),
            )),
            (Some(f), true) => {
                if let Err(e) = check_position(&f.position, condition) {
                    return Err(err(f.line.or(problem_line), f.column, e.message));
                }
                if let Some(m) = &f.ep_origin
                    && !condition.refills_double_step_origin()
                {
                    return Err(err(
                        f.line.or(problem_line),
                        f.column,
                        format!("bad FEN '{}': {m}", f.text),
                    ));
                }
                let mut p = f.position;
                if !f.explicit_castling {
                    p.castling = p.home_castling_rights();
                }
                Ok(p)
            }
            (None, _) => validate_position(file, problem_line, &self.placements, condition)
                .map_err(|e| ProblemError {
                    message: format!("{prefix}{}", e.message),
                    ..e
                }),
        }
    }

    /// Applies the castling rights, the en-passant square and the pockets the file gives
    /// to the diagram, and finishes it ([`finish_position`]).
    fn complete_position(
        &self,
        position: &mut Position,
        condition: Condition,
        err: &DraftError,
    ) -> Result<(), ProblemError> {
        if let Some(c) = self.castling {
            position.castling = c;
        }
        position.castling &= !self.no_castling;
        if let Some(ep) = &self.ep {
            position.ep = ep_square(position, &ep.squares, condition).map_err(|m| {
                err(
                    ep.line.or(self.problem_line()),
                    ep.column,
                    format!("en passant '{}': {m}", ep.text),
                )
            })?;
        }
        for c in [Color::White, Color::Black] {
            if let Some(k) = self.pockets[c.idx()] {
                position.pockets[c.idx()] = Some(k);
            }
        }
        finish_position(position);
        Ok(())
    }

    /// The problem of this draft, with its checked diagram, stipulation and condition.
    fn into_problem(
        self,
        file: &str,
        position: Position,
        stipulation: Stipulation,
        condition: Condition,
    ) -> Problem {
        Problem {
            file: file.to_string(),
            line: self.line,
            index: self.index,
            title: join_lines(&self.title),
            authors: self
                .authors
                .into_iter()
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect(),
            source: join_lines(&self.source),
            award: self
                .award
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty()),
            keywords: self.keywords,
            comments: self.comments,
            remark: join_lines(&self.remark),
            twin_remarks: self.twin_remarks,
            protocol: self.protocol,
            position,
            stipulation,
            condition,
            options: self.options,
            twins: self.twins,
            solution: self.solution,
            yacpdb_id: self.yacpdb_id,
        }
    }
}

/// Makes a draft's errors from (line, column, message).
type DraftError<'a> = dyn Fn(Option<usize>, Option<usize>, String) -> ProblemError + 'a;

/// The [`DraftError`] of `file`: each message after `prefix`.
fn draft_error<'a>(
    file: &'a str,
    prefix: &'a str,
) -> impl Fn(Option<usize>, Option<usize>, String) -> ProblemError + 'a {
    move |line, column, m| ProblemError {
        file: file.to_string(),
        line,
        column,
        message: format!("{prefix}{m}"),
    }
}

/// The en-passant target square described by Popeye's `EnPassant` squares: departure,
/// passed-over and arrival square of the double step (`e7e6e5`); also accepted: departure
/// and arrival (`e7e5`), or the passed-over square alone as in FEN (`e6`). The departure
/// square must be empty unless the condition can refill it within the move
/// ([`Condition::refills_double_step_origin`]), as for a FEN en-passant field.
pub(crate) fn ep_square(
    pos: &Position,
    squares: &[Square],
    condition: Condition,
) -> Result<Square, String> {
    let (from, over, to) = match *squares {
        [over] => match rank_of(over) {
            2 => (over - 8, over, over + 8),
            5 => (over + 8, over, over - 8),
            _ => {
                return Err(format!(
                    "{} is not on the 3rd or 6th rank",
                    square_name(over)
                ));
            }
        },
        [from, to] => {
            if file_of(from) != file_of(to) || rank_of(from).abs_diff(rank_of(to)) != 2 {
                return Err("expected a pawn double step such as e7e5".into());
            }
            (from, (from + to) / 2, to)
        }
        [from, over, to] => (from, over, to),
        _ => {
            return Err("expected the squares of a pawn double step: departure, passed-over and arrival square (e.g. e7e6e5)".into());
        }
    };
    let color = if rank_of(to) > rank_of(from) {
        Color::White
    } else {
        Color::Black
    };
    let ok_shape = file_of(from) == file_of(over)
        && file_of(over) == file_of(to)
        && rank_of(from) == color.first_rank().abs_diff(1)
        && rank_of(over).abs_diff(rank_of(from)) == 1
        && rank_of(to).abs_diff(rank_of(from)) == 2;
    if !ok_shape {
        return Err(
            "only an orthodox pawn double step from the 2nd or 7th rank is supported".into(),
        );
    }
    if pos.board.get(to) != Some(Piece::new(color, Kind::Pawn)) {
        return Err(format!(
            "there is no {color} pawn on {} that just made the double step",
            square_name(to)
        ));
    }
    for s in [from, over] {
        if s == from && condition.refills_double_step_origin() {
            continue;
        }
        if !pos.board.is_empty(s) {
            return Err(format!(
                "{} must be empty (the pawn just passed it)",
                square_name(s)
            ));
        }
    }
    Ok(over)
}

// ---------------------------------------------------------------------------------------
// Twins
// ---------------------------------------------------------------------------------------

pub(crate) fn command_text(c: &TwinCommand) -> String {
    let piece = |p: Piece| format!("{} {}", p.color, p.kind.code());
    match c {
        TwinCommand::Move(a, b) => format!("Move {} {}", square_name(*a), square_name(*b)),
        TwinCommand::Exchange(a, b) => format!("Exchange {} {}", square_name(*a), square_name(*b)),
        TwinCommand::Remove(a) => format!("Remove {}", square_name(*a)),
        TwinCommand::Add(p, s) => format!("Add {}{}", piece(*p), square_name(*s)),
        TwinCommand::Substitute(a, b) => format!("Substitute {} {}", a.code(), b.code()),
        TwinCommand::Rotate(d) => format!("Rotate {d}"),
        TwinCommand::Mirror(m) => format!(
            "Mirror {}",
            match m {
                Mirror::Files => "a1<-->h1",
                Mirror::Ranks => "a1<-->a8",
                Mirror::A1H8 => "a1<-->h8",
                Mirror::H1A8 => "a8<-->h1",
            }
        ),
        TwinCommand::Shift(a, b) => format!("Shift {} {}", square_name(*a), square_name(*b)),
        TwinCommand::Stipulation(s) => format!("Stipulation {s}"),
        TwinCommand::Condition(c) => format!("Condition {}", c.name()),
        TwinCommand::PolishType => "PolishType".into(),
    }
}

/// Maps a square through a board transformation given as a function of (file, rank).
fn transform(s: Square, f: impl Fn(u8, u8) -> (u8, u8)) -> Square {
    let (nf, nr) = f(file_of(s), rank_of(s));
    square(nf, nr)
}

struct TwinState {
    board: [Option<Piece>; 64],
    ep: Square,
    pockets: [Option<Kind>; 2],
    stipulation: Stipulation,
    condition: Condition,
}

/// A piece of a twin's description, as Popeye's move-effect journal has it: a piece
/// created or removed on a square is written with `+` / `-` unless the same twin also
/// removes (before) / creates (after) a piece there; an Add onto an occupied square is
/// thus written without a sign (`bRa6`), a Move onto an occupied square as the removal
/// of the piece there and the move (`-bPe4  wRa1-->e4`).
enum Effect {
    Text(String),
    Creation(Square, String),
    Removal(Square, String),
}

/// Writes a twin's effects as Popeye does, two spaces apart.
fn describe_effects(effects: &[Effect]) -> String {
    let mut out: Vec<String> = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        match e {
            Effect::Text(t) => out.push(t.clone()),
            Effect::Creation(s, t) => {
                let replaces = effects[..i]
                    .iter()
                    .any(|e| matches!(e, Effect::Removal(r, _) if r == s));
                out.push(if replaces { t.clone() } else { format!("+{t}") });
            }
            Effect::Removal(s, t) => {
                let replaced = effects[i + 1..]
                    .iter()
                    .any(|e| matches!(e, Effect::Creation(c, _) if c == s));
                if !replaced {
                    out.push(format!("-{t}"));
                }
            }
        }
    }
    out.join("  ")
}

impl TwinState {
    /// Popeye's description of a twin command, read off the position before it, as
    /// effects for [`describe_effects`].
    fn describe(&self, c: &TwinCommand) -> Vec<Effect> {
        let removal = |s: Square| {
            self.board[s as usize].map(|p| {
                Effect::Removal(
                    s,
                    format!(
                        "{}{}{}",
                        if p.color == Color::White { 'w' } else { 'b' },
                        p.kind.code(),
                        square_name(s)
                    ),
                )
            })
        };
        let at = |s: Square| match self.board[s as usize] {
            Some(p) => format!(
                "{}{}{}",
                if p.color == Color::White { 'w' } else { 'b' },
                p.kind.code(),
                square_name(s)
            ),
            None => square_name(s),
        };
        let piece = |p: Piece, s: Square| {
            format!(
                "{}{}{}",
                if p.color == Color::White { 'w' } else { 'b' },
                p.kind.code(),
                square_name(s)
            )
        };
        let text = match *c {
            TwinCommand::Move(a, b) => {
                let mut v: Vec<Effect> = removal(b).into_iter().collect();
                v.push(Effect::Text(format!("{}-->{}", at(a), square_name(b))));
                return v;
            }
            TwinCommand::Exchange(a, b) => format!("{}<-->{}", at(a), at(b)),
            TwinCommand::Remove(a) => {
                return vec![removal(a).unwrap_or(Effect::Text(format!("-{}", at(a))))];
            }
            TwinCommand::Add(p, s) => {
                let mut v: Vec<Effect> = removal(s).into_iter().collect();
                v.push(Effect::Creation(s, piece(p, s)));
                return v;
            }
            TwinCommand::Substitute(a, b) => format!("{} ==> {}", a.code(), b.code()),
            TwinCommand::Rotate(d) => format!("rotate {d}"),
            TwinCommand::Mirror(m) => format!(
                "mirror {}",
                match m {
                    Mirror::Files => "a1<-->h1",
                    Mirror::Ranks => "a1<-->a8",
                    Mirror::A1H8 => "a1<-->h8",
                    Mirror::H1A8 => "a8<-->h1",
                }
            ),
            TwinCommand::Shift(a, b) => format!("shift {} ==> {}", square_name(a), square_name(b)),
            TwinCommand::Stipulation(s) => s.to_string(),
            TwinCommand::Condition(c) => c.name().to_string(),
            TwinCommand::PolishType => "PolishType".into(),
        };
        vec![Effect::Text(text)]
    }

    fn apply(&mut self, c: &TwinCommand) -> Result<(), String> {
        let empty = |s: Square| format!("there is no piece on {}", square_name(s));
        match *c {
            TwinCommand::Move(a, b) => {
                let p = self.board[a as usize].take().ok_or_else(|| empty(a))?;
                self.board[b as usize] = Some(p);
            }
            TwinCommand::Exchange(a, b) => {
                for s in [a, b] {
                    if self.board[s as usize].is_none() {
                        return Err(empty(s));
                    }
                }
                self.board.swap(a as usize, b as usize);
            }
            TwinCommand::Remove(a) => {
                self.board[a as usize].take().ok_or_else(|| empty(a))?;
            }
            TwinCommand::Add(p, s) => self.board[s as usize] = Some(p),
            TwinCommand::Substitute(from, to) => {
                for p in self.board.iter_mut().flatten() {
                    if p.kind == from {
                        p.kind = to;
                    }
                }
            }
            TwinCommand::Rotate(deg) => match deg {
                90 => self.remap(|f, r| (7 - r, f)),
                180 => self.remap(|f, r| (7 - f, 7 - r)),
                270 => self.remap(|f, r| (r, 7 - f)),
                d => return Err(format!("cannot rotate by {d} degrees (90, 180 or 270)")),
            },
            TwinCommand::Mirror(m) => match m {
                Mirror::Files => self.remap(|f, r| (7 - f, r)),
                Mirror::Ranks => self.remap(|f, r| (f, 7 - r)),
                Mirror::A1H8 => self.remap(|f, r| (7 - r, 7 - f)),
                Mirror::H1A8 => self.remap(|f, r| (r, f)),
            },
            TwinCommand::Shift(a, b) => {
                let df = file_of(b) as i8 - file_of(a) as i8;
                let dr = rank_of(b) as i8 - rank_of(a) as i8;
                let mut board = [None; 64];
                for s in 0..64u8 {
                    if let Some(p) = self.board[s as usize] {
                        let f = file_of(s) as i8 + df;
                        let r = rank_of(s) as i8 + dr;
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            return Err(format!(
                                "the piece on {} would leave the board",
                                square_name(s)
                            ));
                        }
                        board[square(f as u8, r as u8) as usize] = Some(p);
                    }
                }
                self.board = board;
                if self.ep != NO_SQUARE {
                    let f = file_of(self.ep) as i8 + df;
                    let r = rank_of(self.ep) as i8 + dr;
                    self.ep = if (0..8).contains(&f) && (0..8).contains(&r) {
                        square(f as u8, r as u8)
                    } else {
                        NO_SQUARE
                    };
                }
            }
            TwinCommand::Stipulation(s) => self.stipulation = s,
            TwinCommand::Condition(c) => self.condition = c,
            TwinCommand::PolishType => {
                for p in self.board.iter_mut().flatten() {
                    p.color = p.color.flip();
                }
                self.pockets.swap(0, 1);
            }
        }
        Ok(())
    }

    fn remap(&mut self, f: impl Fn(u8, u8) -> (u8, u8)) {
        let mut board = [None; 64];
        for s in 0..64u8 {
            if let Some(p) = self.board[s as usize] {
                board[transform(s, &f) as usize] = Some(p);
            }
        }
        self.board = board;
        if self.ep != NO_SQUARE {
            self.ep = transform(self.ep, &f);
        }
    }
}

impl Problem {
    /// The twins ready to solve: the diagram (label "" without twins, "a" with twins),
    /// then each twin in order. A twin applies its commands to the diagram, or to the
    /// previous twin when `continued`; when the first twin is labelled "a" (a zero
    /// position) the diagram itself is not included. Board transformations follow Popeye:
    /// `Rotate 90` turns the board a quarter to the left (a1 goes to h1), `Mirror a1<-->h1`
    /// swaps the files, `a1<-->a8` the ranks, `a1<-->h8` and `a8<-->h1` reflect in the
    /// diagonals; `Shift` fails if a piece would leave the board. Castling rights are
    /// those of the problem convention for the twin's diagram, less the rights the file
    /// took away; the en-passant square survives only where it can still be used.
    pub fn twin_instances(&self) -> Result<Vec<TwinInstance>, ProblemError> {
        let original = self.base_instance();
        if self.twins.is_empty() {
            return Ok(vec![original]);
        }
        let zero = self.has_zero_position();
        let mut out = Vec::with_capacity(self.twins.len() + 1);
        if !zero {
            out.push(TwinInstance {
                label: "a".into(),
                ..original.clone()
            });
        }
        let forbidden = self.position.home_castling_rights() & !self.position.castling;
        let mut prev = original;
        for twin in &self.twins {
            let base = if twin.continued {
                prev.clone()
            } else {
                self.base_instance()
            };
            let mut st = TwinState {
                board: std::array::from_fn(|s| base.position.board.get(s as u8)),
                ep: base.position.ep,
                pockets: base.position.pockets,
                stipulation: base.stipulation,
                condition: base.condition,
            };
            let err = |m: String| ProblemError {
                file: self.file.clone(),
                line: Some(if twin.line > 0 { twin.line } else { self.line }).filter(|&l| l > 0),
                column: None,
                message: format!("twin {}: {m}", twin.label),
            };
            let mut effects = vec![];
            for c in &twin.commands {
                effects.extend(st.describe(c));
                st.apply(c)
                    .map_err(|m| err(format!("{}: {m}", command_text(c))))?;
            }
            let mut pos = Position::empty();
            for (s, p) in st.board.iter().enumerate() {
                if let Some(p) = p {
                    pos.board.put(s as u8, *p);
                }
            }
            pos.pockets = st.pockets;
            check_position(&pos, st.condition).map_err(|e| err(e.message))?;
            pos.castling = pos.home_castling_rights() & !forbidden;
            pos.ep = st.ep;
            finish_position(&mut pos);
            let inst = TwinInstance {
                description: describe_effects(&effects),
                continued: twin.continued,
                label: twin.label.clone(),
                position: pos,
                stipulation: st.stipulation,
                condition: st.condition,
                exchanged: false,
            };
            out.push(inst.clone());
            prev = inst;
        }
        Ok(out)
    }

    /// The problem is a zero position (Popeye `ZeroPosition`, YAML twins from `a`): the
    /// diagram is not solved itself, only its twins are.
    pub fn has_zero_position(&self) -> bool {
        self.twins.first().is_some_and(|t| t.label == "a")
    }

    fn base_instance(&self) -> TwinInstance {
        TwinInstance {
            description: String::new(),
            continued: false,
            label: String::new(),
            position: self.position,
            stipulation: self.stipulation,
            condition: self.condition,
            exchanged: false,
        }
    }

    /// The twins as they are solved under `options` (the problem's, or merged with the
    /// command line's): `WhiteToPlay` applied to each stipulation, and each twin followed
    /// by its half with the colours' roles exchanged (`Duplex`) or replaced by it
    /// (`HalfDuplex`).
    pub fn solving_instances(&self, options: &Options) -> Result<Vec<TwinInstance>, ProblemError> {
        let mut out = vec![];
        for mut t in self.twin_instances()? {
            if options.white_to_play {
                t.stipulation = white_to_play(t.stipulation).map_err(|m| ProblemError {
                    file: self.file.clone(),
                    line: Some(self.line).filter(|&l| l > 0),
                    column: None,
                    message: m,
                })?;
            }
            if options.duplex != Duplex::Half {
                out.push(t.clone());
            }
            if options.duplex != Duplex::Off {
                out.push(TwinInstance {
                    exchanged: true,
                    ..t
                });
            }
        }
        Ok(out)
    }
}

/// `WhiteToPlay`: help play for N moves starts with White and so takes N - 0.5 moves
/// (`h#2` becomes `h#1.5`, as Popeye writes it); help play with a half move already and
/// direct, self and reflex play are left as they are (Popeye ignores the option there).
/// Series play is refused: Popeye shortens a series by a whole move and numbers its moves
/// as if White had made one, a reading with no counterpart here.
pub fn white_to_play(s: Stipulation) -> Result<Stipulation, String> {
    use crate::search::stipulation::Play;
    match s.play {
        Play::Help if !s.half && s.moves >= 1 => Ok(Stipulation {
            moves: s.moves - 1,
            half: true,
            ..s
        }),
        Play::Series | Play::SeriesHelp | Play::SeriesSelf => Err(format!(
            "option WhiteToPlay with series play ({s}) is not supported: it applies to help play"
        )),
        _ => Ok(s),
    }
}

impl Problem {
    /// Popeye option words for this problem's options (conditions excluded).
    pub fn option_words(&self) -> Vec<String> {
        let o = &self.options;
        let mut v = vec![];
        if o.tries {
            v.push(if o.defence == 1 {
                "Try".to_string()
            } else {
                format!("Defence {}", o.defence)
            });
        }
        if o.set_play {
            v.push("SetPlay".into());
        }
        if let Some(t) = o.threat {
            v.push(format!("Threat {t}"));
        }
        if o.no_threat {
            v.push("NoThreat".into());
        }
        if let Some(m) = o.max_solutions {
            v.push(format!("MaxSolutions {m}"));
        }
        if o.variations {
            v.push("Variations".into());
        }
        if o.short_variations_off {
            v.push("NoShortVariations".into());
        }
        if o.no_board {
            v.push("NoBoard".into());
        }
        if o.intelligent {
            v.push("Intelligent".into());
        }
        if let Some(t) = o.max_time {
            v.push(format!("MaxTime {t}"));
        }
        if o.move_numbers {
            v.push("MoveNumbers".into());
        }
        match o.duplex {
            Duplex::Off => {}
            Duplex::Full => v.push("Duplex".into()),
            Duplex::Half => v.push("HalfDuplex".into()),
        }
        if o.white_to_play {
            v.push("WhiteToPlay".into());
        }
        v
    }

    /// Pieces of one colour as Popeye writes them (`Kc1`, `Ra1`, ...), in square order.
    pub fn piece_words(&self, color: Color) -> Vec<String> {
        (0..64u8)
            .filter_map(|s| {
                let p = self.position.board.get(s)?;
                (p.color == color).then(|| format!("{}{}", p.kind.code(), square_name(s)))
            })
            .collect()
    }

    /// Castling rights the file takes away from the home convention, as the squares of the
    /// pieces that may not castle (Popeye's `NoCastling`).
    pub fn no_castling_squares(&self) -> Vec<String> {
        let removed = self.position.home_castling_rights() & !self.position.castling;
        let mut v = vec![];
        for (bit, sq) in [(1u8, "h1"), (2, "a1"), (4, "h8"), (8, "a8")] {
            if removed & bit != 0 {
                v.push(sq.to_string());
            }
        }
        v
    }
}
