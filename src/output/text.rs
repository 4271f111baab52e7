//! Solutions printed the way Popeye and problemists lay them out.

use super::notation::Style;
use crate::core::{Color, Square};
use crate::position::Position;
use crate::search::result::{MoveInfo, TreeNode, TwinResult};
use std::fmt::Write;

/// Indentation of a tree line at a given ply (key at 3, then 6, 10, 14, ...).
fn indent(ply: u32) -> usize {
    if ply == 0 { 3 } else { 2 + 4 * ply as usize }
}

fn number(ply: u32) -> String {
    if ply % 2 == 0 {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}...", ply.div_ceil(2))
    }
}

fn write_node(out: &mut String, node: &TreeNode, style: Style) {
    let _ = write!(
        out,
        "{}{}{}",
        " ".repeat(indent(node.ply)),
        number(node.ply),
        node.mv.text_in(style)
    );
    match node.mark.as_str() {
        "key" => out.push_str(" !"),
        "try" => out.push_str(" ?"),
        "?!?" => out.push_str(" ?!?"),
        _ => {}
    }
    if !node.threats.is_empty() {
        out.push_str(" threat:");
    } else if node.zugzwang {
        out.push_str(" zugzwang.");
    }
    out.push('\n');
    for t in &node.threats {
        write_node(out, t, style);
    }
    for c in &node.children {
        write_node(out, c, style);
    }
    if !node.refutations.is_empty() {
        out.push_str("    but\n");
        for r in &node.refutations {
            write_marked(out, node.ply + 1, r.mv.text_in(style), "!");
            for f in &r.forced {
                write_marked(out, node.ply + 2, f.text_in(style), "?!?");
            }
        }
    }
}

/// A move on a line of its own at `ply`, with its mark (a refutation's `!`, a forced
/// move's `?!?`).
fn write_marked(out: &mut String, ply: u32, text: &str, mark: &str) {
    let _ = writeln!(
        out,
        "{}{}{text} {mark}",
        " ".repeat(indent(ply)),
        number(ply)
    );
}

fn write_line(
    out: &mut String,
    line: &[MoveInfo],
    first_ply: u32,
    series: Option<bool>,
    style: Style,
) {
    out.push_str("  ");
    if let Some(reply) = series {
        // Every series move is numbered; a final opponent move follows the last one.
        let n = line.len();
        for (i, m) in line.iter().enumerate() {
            let is_final_reply = reply && i + 1 == n;
            if is_final_reply {
                let _ = write!(out, " {}", m.text_in(style));
            } else if i == 0 {
                let _ = write!(out, "{:>1}.{}", i + 1, m.text_in(style));
            } else {
                let _ = write!(out, "{:>4}.{}", i + 1, m.text_in(style));
            }
        }
    } else {
        let mut ply = first_ply;
        if first_ply == 2 {
            // The first move pair is not played (set play of a play starting with a half
            // move): Popeye writes it as dots.
            out.push_str("1...  ...  ");
        }
        for (i, m) in line.iter().enumerate() {
            if ply % 2 == 0 {
                let num = ply / 2 + 1;
                if i == 0 {
                    let _ = write!(out, "{num}.{}", m.text_in(style));
                } else {
                    let _ = write!(out, "{:>4}.{}", num, m.text_in(style));
                }
            } else if i == 0 {
                let _ = write!(out, "1...{}", m.text_in(style));
            } else {
                let _ = write!(out, " {}", m.text_in(style));
            }
            ply += 1;
        }
    }
    out.push('\n');
}

/// The header line of a twin (`a) `, `b) wSb1-->b3`, `+c) +wPb5`), empty without twins.
pub fn twin_header(t: &crate::problem::TwinInstance) -> String {
    if t.label.is_empty() {
        return String::new();
    }
    let plus = if t.continued { "+" } else { "" };
    format!("{plus}{}) {}\n", t.label, t.description)
}

/// Prints one twin's solution (without diagram).
pub fn twin_text(r: &TwinResult, style: Style) -> String {
    let mut out = String::new();
    for n in &r.notes {
        let _ = writeln!(out, "({n})");
    }
    out.push('\n');
    if !r.set_play.is_empty() {
        for n in &r.set_play {
            write_node(&mut out, n, style);
        }
        out.push('\n');
    }
    if !r.set_lines.is_empty() {
        // Set play starts with the other side: with a half move where the play starts with
        // a full one (h#2: `1...W 2.B W#`), else after the unplayed first half move of the
        // play, numbered as in the play (h#2.5: `1...  ...  2.Ke6-d7 Qh1-h2   3.Kd7-c8
        // Qh2-c7 #`, as Popeye writes it).
        let first_ply = if r.half_start { 2 } else { 1 };
        for l in &r.set_lines {
            write_line(&mut out, l, first_ply, None, style);
        }
        out.push('\n');
    }
    for n in &r.tree {
        write_node(&mut out, n, style);
        out.push('\n');
    }
    if !r.lines.is_empty() {
        for l in &r.lines {
            write_line(
                &mut out,
                l,
                u32::from(r.half_start),
                r.series.then_some(r.series_reply),
                style,
            );
        }
    }
    if let Some(k) = r.shorter {
        let _ = writeln!(out, "(shorter solution: the goal is reached in {k})");
    }
    if !r.complete {
        out.push_str(
            "(incomplete: the search was stopped; only what is printed above is proven)\n",
        );
    }
    out.push('\n');
    out
}

/// Popeye's board width (`fileWidth*8 + border_width`): meta and condition lines are
/// centred in it.
const BOARD_WIDTH: usize = 4 * 8 + 5;

/// Popeye's `fprintf_c`: `text` centred in `width` (the newline counts, odd spaces go
/// right), unchanged when it is as long as the width or longer.
fn centred(text: &str) -> String {
    let used = text.chars().count() + 1;
    if BOARD_WIDTH > used {
        format!("{}{text}\n", " ".repeat((BOARD_WIDTH + 1 - used) / 2))
    } else {
        format!("{text}\n")
    }
}

/// What Popeye prints above the board (`Author`, `Origin`, `Award`, `Title`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Meta<'a> {
    pub authors: &'a [String],
    pub source: Option<&'a str>,
    pub award: Option<&'a str>,
    pub title: Option<&'a str>,
}

/// The meta lines, each centred as Popeye centres them (one line per author, and per
/// line of a source, award or title written over several lines).
pub fn meta_lines(m: &Meta) -> String {
    let mut out = String::new();
    let texts = m
        .authors
        .iter()
        .map(String::as_str)
        .chain(m.source)
        .chain(m.award)
        .chain(m.title);
    for t in texts {
        for l in t.lines() {
            out.push_str(&centred(l.trim_end()));
        }
    }
    out
}

/// Popeye's stipulation line: two spaces, the stipulation (with `/N` for `Threat N`),
/// and the piece count `W + B` right-aligned to the board's width; then the condition,
/// centred, on its own line (none when orthodox).
pub fn stipulation_lines(
    pos: &Position,
    stip: &str,
    threat: Option<u32>,
    cond: crate::rules::Condition,
) -> String {
    let mut left = format!("  {stip}");
    if let Some(n) = threat {
        let _ = write!(left, "/{n}");
    }
    let count = format!("{} + {}", pos.count(Color::White), pos.count(Color::Black));
    // Popeye: `fprintf_r(width = 8*fileWidth + 4 - indentation, "%d + %d\n")`.
    let width = (4 * 8 + 4usize).saturating_sub(left.chars().count());
    let used = count.chars().count() + 1;
    let pad = width.saturating_sub(used);
    let mut out = format!("{left}{}{count}\n", " ".repeat(pad));
    if cond != crate::rules::Condition::Orthodox {
        out.push_str(&centred(cond.name()));
    }
    out
}

/// Popeye's line under the stipulation for `Duplex` or `HalfDuplex` (centred), empty
/// without either.
pub fn duplex_line(d: crate::problem::Duplex) -> String {
    match d {
        crate::problem::Duplex::Off => String::new(),
        crate::problem::Duplex::Full => centred("Duplex"),
        crate::problem::Duplex::Half => centred("HalfDuplex"),
    }
}

/// The board as Popeye draws it: `+---a---...---h---+`, ranks 8..1 with the rank number
/// at both ends, each square 4 characters (`   K`, `  -p` for Black, `   .` when empty),
/// a blank bordered line between the ranks.
/// The board drawn with Unicode chess glyphs and box-drawing lines (`--unicode`): White
/// ♔♕♖♗♘♙, Black ♚♛♜♝♞♟; a fairy piece is its Popeye code, upper case for White and lower
/// case for Black (`AM`, `n`).
pub fn unicode_diagram(pos: &Position) -> String {
    use crate::core::Kind;
    let mut out = String::new();
    out.push_str("  ┌────────────────────────┐\n");
    for rank in (0..8u8).rev() {
        let _ = write!(out, "{} │", rank + 1);
        for file in 0..8u8 {
            let s: Square = rank * 8 + file;
            let cell = match pos.board.get(s) {
                None => " · ".to_string(),
                Some(p) => {
                    let white = p.color == Color::White;
                    let glyph = match (p.kind, white) {
                        (Kind::King, true) => Some('♔'),
                        (Kind::Queen, true) => Some('♕'),
                        (Kind::Rook, true) => Some('♖'),
                        (Kind::Bishop, true) => Some('♗'),
                        (Kind::Knight, true) => Some('♘'),
                        (Kind::Pawn, true) => Some('♙'),
                        (Kind::King, false) => Some('♚'),
                        (Kind::Queen, false) => Some('♛'),
                        (Kind::Rook, false) => Some('♜'),
                        (Kind::Bishop, false) => Some('♝'),
                        (Kind::Knight, false) => Some('♞'),
                        (Kind::Pawn, false) => Some('♟'),
                        _ => None,
                    };
                    match glyph {
                        Some(g) => format!(" {g} "),
                        None => {
                            let code = if white {
                                p.kind.code().to_string()
                            } else {
                                p.kind.code().to_ascii_lowercase()
                            };
                            format!("{code:^3}")
                        }
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push_str("│\n");
    }
    out.push_str("  └────────────────────────┘\n");
    out.push_str("    a  b  c  d  e  f  g  h\n");
    out
}

pub fn diagram(pos: &Position) -> String {
    let border = "+---a---b---c---d---e---f---g---h---+\n";
    let blank = format!("|{}|\n", " ".repeat(BOARD_WIDTH - 2));
    let mut out = String::new();
    out.push_str(border);
    out.push_str(&blank);
    for rank in (0..8u8).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..8u8 {
            let s: Square = rank * 8 + file;
            match pos.board.get(s) {
                None => out.push_str("  . "),
                Some(p) => {
                    // Popeye writes the code right to left from the cell's middle, the
                    // colour mark (`-` Black) before it.
                    let code = p.kind.code();
                    let mark = if p.color == Color::White { " " } else { "-" };
                    let cell = if code.chars().count() == 1 {
                        format!(" {mark}{code} ")
                    } else {
                        format!("{mark}{code} ")
                    };
                    out.push_str(&cell);
                }
            }
        }
        let _ = writeln!(out, "  {}", rank + 1);
        out.push_str(&blank);
    }
    out.push_str(border);
    out
}
