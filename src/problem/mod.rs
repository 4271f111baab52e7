//! The problem model and its readers: YAML (YACPDB / Olive schema, `yaml.rs` is the only
//! file naming the YAML crate), Popeye input files (`inp.rs`) and FEN.

use crate::core::{Kind, Piece, Square};
use crate::position::Position;
use crate::rules::Condition;
use crate::search::Stipulation;
use std::fmt;

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
    /// `Intelligent`: accepted and ignored (the search is exhaustive anyway).
    pub intelligent: bool,
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
    /// Mirror: `a1<-->h1` (files), `a1<-->a8` (ranks), `a1<-->h8`, `h1<-->a8` (diagonals).
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
    /// "b", "c", ...
    pub label: String,
    /// Applied to the previous twin instead of the original (`Twin Continued`, YAML `+c`).
    pub continued: bool,
    pub commands: Vec<TwinCommand>,
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
    /// The diagram. Side to move is White; the solver derives who starts from the
    /// stipulation. Castling rights and the en-passant square are as the file says.
    pub position: Position,
    pub stipulation: Stipulation,
    pub condition: Condition,
    pub options: Options,
    pub twins: Vec<Twin>,
    /// The stated solution, in Popeye's text format, if the file gives one.
    pub solution: Option<String>,
}

/// One twin ready to solve.
#[derive(Clone, Debug)]
pub struct TwinInstance {
    /// "" when the problem has no twins, else "a", "b", ...
    pub label: String,
    pub position: Position,
    pub stipulation: Stipulation,
    pub condition: Condition,
}
