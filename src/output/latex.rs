//! LaTeX for the `diagram` package (CTAN chess-problem-diagrams), in the form Popeye's
//! LaTeX output has: a document with one `diagram` environment per problem, each with
//! `\author`, `\source`, `\award`, `\dedication`, `\pieces`, `\remark` (fairy pieces),
//! `\stipulation`, `\condition` and `\twins`.
//!
//! Pieces are written as the package wants them: colour `w`/`s` (Popeye's German
//! convention), the piece letter K D T L S B (king, queen, rook, bishop, knight, pawn),
//! for fairy pieces a turn suffix U (upside down), L (turned left) or R (turned right), then
//! the square: `wKe1, sBe7, wSUc3` (a white nightrider on c3). The fairy letters are
//! Popeye's defaults where Popeye has one (nightrider SU, amazon DL, empress TU, princess
//! LU) and the same turns as the SVG glyphs otherwise; `\remark` names each of them.

use super::diagram::{Diagram, condition_text, kind_name};
use super::svg::glyph;
use crate::core::{Color, Kind, square_name};
use std::fmt::Write;

/// The `diagram` package code of a kind without colour: "K", "D", ..., "SU", "DL".
pub fn piece_letters(kind: Kind) -> String {
    let (letter, turn) = glyph(kind);
    let l = match letter {
        'K' => 'K',
        'Q' => 'D',
        'R' => 'T',
        'B' => 'L',
        'N' => 'S',
        _ => 'B',
    };
    let suffix = match turn {
        180 => "U",
        270 => "L",
        90 => "R",
        _ => "",
    };
    format!("{l}{suffix}")
}

/// Escapes text as Popeye does (`#`, `&`, `%`; `->` becomes `{\ra}`, `<-->` `{\lra}`),
/// plus `$` and `_`.
pub fn latex_escape(text: &str) -> String {
    let text = text
        .replace("<-->", "\u{1}")
        .replace("-->", "\u{2}")
        .replace("->", "\u{2}");
    let mut out = String::new();
    for ch in text.chars() {
        match ch {
            '#' | '&' | '%' | '$' | '_' => {
                out.push('\\');
                out.push(ch);
            }
            '\u{1}' => out.push_str("{\\lra}"),
            '\u{2}' => out.push_str("{\\ra}"),
            c => out.push(c),
        }
    }
    out
}

/// Authors as `\author` wants them: "Surname, First", separated by "; ".
fn authors(d: &Diagram) -> String {
    d.authors
        .iter()
        .map(|a| {
            let a = a.trim();
            if a.contains(',') {
                latex_escape(a)
            } else {
                match a.rsplit_once(' ') {
                    Some((first, sur)) => {
                        format!("{}, {}", latex_escape(sur), latex_escape(first.trim()))
                    }
                    None => latex_escape(a),
                }
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `\\sourcenr`, `\\source`, `\\day`, `\\month`, `\\year` from "[nr, ]source[, date]", the date
/// as `d.m.yyyy`, `m/yyyy` or `yyyy` (the forms Popeye reads out of an `Origin`).
fn source(out: &mut String, text: &str) {
    let mut rest = text;
    if let Some((nr, tail)) = rest.split_once(',') {
        if !nr.is_empty()
            && nr.chars().all(|c| c.is_ascii_alphanumeric())
            && nr.chars().any(|c| c.is_ascii_digit())
        {
            let _ = writeln!(out, " \\sourcenr{{{}}}%", latex_escape(nr));
            rest = tail.trim_start();
        }
    }
    let mut date: Vec<(&str, String)> = vec![];
    if let Some((name, last)) = rest.rsplit_once(',') {
        let last = last.trim();
        let parts: Vec<&str> = last.split(['.', '/']).map(str::trim).collect();
        let numeric = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '-');
        if parts.iter().all(|t| numeric(t)) && parts.last().is_some_and(|y| y.len() >= 4) {
            let n = parts.len();
            date.push(("year", parts[n - 1].to_string()));
            if n >= 2 {
                let key = if parts[n - 2].contains('-') {
                    "months"
                } else {
                    "month"
                };
                date.push((key, parts[n - 2].to_string()));
            }
            if n >= 3 {
                date.push(("day", parts[..n - 2].join(".")));
            }
            rest = name.trim_end();
        }
    }
    let _ = writeln!(out, " \\source{{{}}}%", latex_escape(rest));
    for (key, value) in date.iter().rev() {
        let _ = writeln!(out, " \\{key}{{{value}}}%");
    }
}

/// One `diagram` environment. `twins` are the twin lines ("b) wSb1-->b3"), empty for a
/// problem without twins; `d` is the problem's diagram position.
pub fn environment(d: &Diagram, twins: &[String]) -> String {
    let mut out = String::from("\\begin{diagram}%\n");
    if !d.authors.is_empty() {
        let _ = writeln!(out, " \\author{{{}}}%", authors(d));
    }
    if let Some(s) = &d.source {
        source(&mut out, s.trim());
    }
    if let Some(a) = &d.award {
        match a.split_once(',') {
            Some((award, tour)) => {
                let _ = writeln!(out, " \\award{{{}}}%", latex_escape(award.trim()));
                let _ = writeln!(out, " \\tournament{{{}}}%", latex_escape(tour.trim()));
            }
            None => {
                let _ = writeln!(out, " \\award{{{}}}%", latex_escape(a.trim()));
            }
        }
    }
    if let Some(t) = &d.title {
        let _ = writeln!(out, " \\dedication{{{}}}%", latex_escape(t.trim()));
    }
    let pieces: Vec<String> = d
        .pieces()
        .into_iter()
        .map(|(s, c, k)| {
            let c = if c == Color::White { 'w' } else { 's' };
            format!("{c}{}{}", piece_letters(k), square_name(s))
        })
        .collect();
    let _ = writeln!(out, " \\pieces{{{}}}%", pieces.join(", "));
    let fairy = d.fairy_kinds();
    if !fairy.is_empty() {
        let boxes: Vec<String> = fairy
            .iter()
            .map(|(k, white, black)| {
                let mut b = String::from("\\mbox{");
                for (present, c) in [(*white, 'w'), (*black, 'b')] {
                    if present {
                        let _ = write!(
                            b,
                            "\\{c}{} ={}",
                            piece_letters(*k),
                            latex_escape(kind_name(*k))
                        );
                    }
                }
                b.push('}');
                b
            })
            .collect();
        let _ = writeln!(out, " \\remark{{{}}}%", boxes.join("{\\newline}"));
    }
    let _ = writeln!(out, " \\stipulation{{{}}}%", latex_escape(&d.stipulation));
    if let Some(c) = condition_text(d.condition) {
        let _ = writeln!(out, " \\condition{{{}}}%", latex_escape(c));
    }
    if !twins.is_empty() {
        let lines: Vec<String> = twins.iter().map(|t| latex_escape(t)).collect();
        let _ = writeln!(out, " \\twins{{{}}}%", lines.join("{\\newline}"));
    }
    out.push_str("\\end{diagram}%\n");
    out
}

/// A complete document with the given environments, separated by `\hfill` as Popeye
/// does.
pub fn document(environments: &[String]) -> String {
    let mut out =
        String::from("\\documentclass{article}%\n\\usepackage{diagram}%\n\n\\begin{document}%\n");
    for e in environments {
        out.push_str(e);
        out.push_str("\\hfill%\n");
    }
    out.push_str("\\end{document}%\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(piece_letters(Kind::Queen), "D");
        assert_eq!(piece_letters(Kind::Nightrider), "SU");
        assert_eq!(piece_letters(Kind::Amazon), "DL");
        assert_eq!(piece_letters(Kind::Empress), "TU");
        assert_eq!(piece_letters(Kind::Princess), "LU");
    }

    #[test]
    fn sources() {
        let mut out = String::new();
        source(&mut out, "3530, Freie Presse, 29.7.1994");
        assert_eq!(
            out,
            " \\sourcenr{3530}%\n \\source{Freie Presse}%\n \\day{29}%\n \\month{7}%\n \\year{1994}%\n"
        );
        let mut out = String::new();
        source(&mut out, "Die Schwalbe, 1999");
        assert_eq!(out, " \\source{Die Schwalbe}%\n \\year{1999}%\n");
    }

    #[test]
    fn escapes() {
        assert_eq!(latex_escape("#2"), "\\#2");
        assert_eq!(latex_escape("wSb1-->b3"), "wSb1{\\ra}b3");
        assert_eq!(latex_escape("a<-->b"), "a{\\lra}b");
    }
}
