//! SVG publication diagrams with Colin M.L. Burnett's pieces (assets/pieces, BSD licence).
//!
//! Layout, top to bottom: the authors, source, award (and title) lines; the board (light
//! and dark squares, optional coordinates); the stipulation on the left and the piece
//! count `(W+B)` on the right; the condition; the twin; a legend naming each fairy piece.
//!
//! Fairy pieces are drawn as problemists print them: the glyph of the piece whose letter
//! Popeye's LaTeX output uses (the nightrider is the knight turned upside down, the amazon
//! the queen turned left, ...; see [`glyph`]), with the piece's Popeye code in a small badge
//! in the square's top right corner so no two fairy kinds look alike.
//!
//! Every piece is a `<g class="piece" data-square="e4" data-piece="wK">` element and
//! every square a `<rect class="square" data-square="e4">`, so the picture can be
//! checked or styled by tools.

use super::diagram::{Diagram, FONT_FAMILY, condition_text, kind_name};
use crate::core::{Color, Kind, square_name};
use std::fmt::Write;

/// Side of a square in SVG units (pixels in the PNG).
pub const SQUARE: u32 = 45;
/// Space left and right of the board.
pub const MARGIN: u32 = 20;
/// Width of the picture: the board and the margins.
pub const WIDTH: u32 = 8 * SQUARE + 2 * MARGIN;
/// Light squares.
pub const LIGHT: &str = "#ffffff";
/// Dark squares.
pub const DARK: &str = "#b8b8b8";

/// Rendering options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Print the files a..h under the board and the ranks 1..8 left of it.
    pub coordinates: bool,
}

/// Base glyph and rotation (degrees clockwise) for a kind: the letter and turn of the
/// `diagram` LaTeX package code (see `latex.rs`): K D T L S B = king, queen, rook,
/// bishop, knight, pawn; U upside down, L turned left, R turned right.
pub fn glyph(kind: Kind) -> (char, i32) {
    match kind {
        Kind::King => ('K', 0),
        Kind::Queen => ('Q', 0),
        Kind::Rook => ('R', 0),
        Kind::Bishop => ('B', 0),
        Kind::Knight => ('N', 0),
        Kind::Pawn => ('P', 0),
        Kind::Nightrider => ('N', 180),
        Kind::Princess => ('B', 180),
        Kind::Empress => ('R', 180),
        Kind::Amazon => ('Q', 270),
        Kind::BishopNightrider => ('B', 270),
        Kind::RookNightrider => ('R', 270),
        Kind::QueenNightrider => ('Q', 180),
        Kind::BishopKing => ('B', 90),
        Kind::RookKing => ('R', 90),
        Kind::PrincessKing => ('N', 270),
        Kind::EmpressKing => ('N', 90),
        Kind::BishopNightriderKing => ('K', 270),
        Kind::RookNightriderKing => ('K', 90),
    }
}

macro_rules! piece_file {
    ($name:literal) => {
        include_str!(concat!("../../assets/pieces/", $name, ".svg"))
    };
}

/// The inner markup of a piece file (what is inside its `<svg>` element).
fn inner(file: &'static str) -> &'static str {
    let start = file
        .find("<svg")
        .and_then(|i| file[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let end = file.rfind("</svg>").unwrap_or(file.len());
    &file[start..end]
}

/// The cburnett drawing (45x45 units) of an orthodox piece letter.
fn drawing(letter: char, color: Color) -> &'static str {
    let file = match (color, letter) {
        (Color::White, 'K') => piece_file!("wK"),
        (Color::White, 'Q') => piece_file!("wQ"),
        (Color::White, 'R') => piece_file!("wR"),
        (Color::White, 'B') => piece_file!("wB"),
        (Color::White, 'N') => piece_file!("wN"),
        (Color::White, _) => piece_file!("wP"),
        (Color::Black, 'K') => piece_file!("bK"),
        (Color::Black, 'Q') => piece_file!("bQ"),
        (Color::Black, 'R') => piece_file!("bR"),
        (Color::Black, 'B') => piece_file!("bB"),
        (Color::Black, 'N') => piece_file!("bN"),
        (Color::Black, _) => piece_file!("bP"),
    };
    inner(file)
}

/// `wK`, `bS`, `wN` (nightrider), `bAM`: colour letter and Popeye code.
pub fn piece_code(color: Color, kind: Kind) -> String {
    let c = if color == Color::White { 'w' } else { 'b' };
    format!("{c}{}", kind.code())
}

/// Escapes text for XML content and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Splits `text` into lines of at most `max` characters, at spaces where possible.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines = vec![];
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One piece drawn at (x, y) with side `size`, as a `<g>` element with `attrs`.
fn piece_svg(out: &mut String, x: f64, y: f64, size: f64, color: Color, kind: Kind, attrs: &str) {
    let (letter, turn) = glyph(kind);
    let scale = size / f64::from(SQUARE);
    let _ = write!(
        out,
        r#"<g {attrs}transform="translate({x} {y}) scale({scale})">"#
    );
    if turn != 0 {
        let _ = write!(out, r#"<g transform="rotate({turn} 22.5 22.5)">"#);
        out.push_str(drawing(letter, color));
        out.push_str("</g>");
    } else {
        out.push_str(drawing(letter, color));
    }
    if !kind.is_orthodox() {
        let _ = write!(
            out,
            r##"<text x="44" y="10" font-size="10" font-weight="bold" text-anchor="end" fill="#000" stroke="#fff" stroke-width="2.5" paint-order="stroke" stroke-linejoin="round">{}</text>"##,
            kind.code()
        );
    }
    out.push_str("</g>");
}

const LINE: u32 = 17;
const MAX_CHARS: usize = 56;

/// The diagram as a standalone SVG document.
pub fn render(d: &Diagram, opts: Options) -> String {
    let mut c = Canvas {
        body: String::new(),
        y: 8,
    };
    c.header(d);
    let top = f64::from(c.y);
    c.board(d, top);
    c.y += 8 * SQUARE;
    if opts.coordinates {
        c.coordinates(top);
        c.y += 14;
    }
    c.caption(d);
    c.legend(d);
    c.y += 12;
    c.document()
}

/// The picture being drawn, top to bottom: the markup so far and the height used.
struct Canvas {
    body: String,
    y: u32,
}

const LEFT: f64 = MARGIN as f64;
const SQ: f64 = SQUARE as f64;

impl Canvas {
    /// Authors, title, source and award, centred, and the space before the board.
    fn header(&mut self, d: &Diagram) {
        let mut header: Vec<(String, u32, &str)> = vec![];
        let authors = d.authors_display();
        if !authors.is_empty() {
            for l in wrap(&authors, MAX_CHARS - 6) {
                header.push((l, 15, "author"));
            }
        }
        for (text, class) in [
            (&d.title, "title"),
            (&d.source, "source"),
            (&d.award, "award"),
        ] {
            if let Some(t) = text {
                for l in wrap(t, MAX_CHARS) {
                    header.push((l, 13, class));
                }
            }
        }
        for (text, size, class) in &header {
            self.y += LINE;
            let y = self.y;
            let style = if *class == "title" {
                r#" font-style="italic""#
            } else {
                ""
            };
            let _ = write!(
                self.body,
                r#"<text class="{class}" x="{}" y="{y}" font-size="{size}" text-anchor="middle"{style}>{}</text>"#,
                WIDTH / 2,
                xml_escape(text)
            );
        }
        self.y += if header.is_empty() { 4 } else { 10 };
    }

    /// The squares, the frame and the pieces, the board's top edge at `top`.
    fn board(&mut self, d: &Diagram, top: f64) {
        let body = &mut self.body;
        let _ = write!(body, r#"<g class="board">"#);
        for rank in 0..8u8 {
            for file in 0..8u8 {
                let s = rank * 8 + file;
                let x = LEFT + f64::from(file) * SQ;
                let yy = top + f64::from(7 - rank) * SQ;
                let dark = (rank + file) % 2 == 0;
                let _ = write!(
                    body,
                    r#"<rect class="square {}" data-square="{}" x="{x}" y="{yy}" width="{SQ}" height="{SQ}" fill="{}"/>"#,
                    if dark { "dark" } else { "light" },
                    square_name(s),
                    if dark { DARK } else { LIGHT }
                );
            }
        }
        let _ = write!(
            body,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#000" stroke-width="2"/>"##,
            LEFT - 1.0,
            top - 1.0,
            8.0 * SQ + 2.0,
            8.0 * SQ + 2.0
        );
        body.push_str("</g>");
        for (s, color, kind) in d.pieces() {
            let file = f64::from(s % 8);
            let rank = f64::from(s / 8);
            let attrs = format!(
                r#"class="piece" data-square="{}" data-piece="{}" "#,
                square_name(s),
                piece_code(color, kind)
            );
            let (x, y) = (LEFT + file * SQ, top + (7.0 - rank) * SQ);
            piece_svg(body, x, y, SQ, color, kind, &attrs);
        }
    }

    /// Files a..h under the board (at the current height), ranks 1..8 left of it.
    fn coordinates(&mut self, top: f64) {
        for file in 0..8u8 {
            let _ = write!(
                self.body,
                r#"<text class="coordinate" x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>"#,
                LEFT + (f64::from(file) + 0.5) * SQ,
                self.y + 13,
                (b'a' + file) as char
            );
        }
        for rank in 0..8u8 {
            let _ = write!(
                self.body,
                r#"<text class="coordinate" x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>"#,
                LEFT / 2.0,
                top + (7.0 - f64::from(rank) + 0.5) * SQ + 4.0,
                rank + 1
            );
        }
    }

    /// The stipulation with the piece count, the condition and the twin.
    fn caption(&mut self, d: &Diagram) {
        let (left, right) = (LEFT, f64::from(WIDTH - MARGIN));
        self.y += LINE + 2;
        let y = self.y;
        let _ = write!(
            self.body,
            r#"<text class="stipulation" x="{left}" y="{y}" font-size="15">{}</text><text class="count" x="{right}" y="{y}" font-size="15" text-anchor="end">{}</text>"#,
            xml_escape(&d.stipulation),
            d.count()
        );
        if let Some(c) = condition_text(d.condition) {
            self.caption_line("condition", c);
        }
        if let Some(t) = &d.twin {
            for l in wrap(t, MAX_CHARS) {
                self.caption_line("twin", &l);
            }
        }
    }

    /// One more line of the caption, on the left.
    fn caption_line(&mut self, class: &str, text: &str) {
        self.y += LINE;
        let y = self.y;
        let _ = write!(
            self.body,
            r#"<text class="{class}" x="{LEFT}" y="{y}" font-size="13">{}</text>"#,
            xml_escape(text)
        );
    }

    /// A line per fairy kind: a small glyph per colour present, then the name.
    fn legend(&mut self, d: &Diagram) {
        for (kind, white, black) in d.fairy_kinds() {
            self.y += 22;
            let y = self.y;
            let mut x = LEFT;
            let mut code = String::new();
            for (present, color) in [(white, Color::White), (black, Color::Black)] {
                if present {
                    let attrs = format!(
                        r#"class="legend-piece" data-piece="{}" "#,
                        piece_code(color, kind)
                    );
                    piece_svg(
                        &mut self.body,
                        x,
                        f64::from(y) - 16.0,
                        21.0,
                        color,
                        kind,
                        &attrs,
                    );
                    x += 22.0;
                    if !code.is_empty() {
                        code.push('/');
                    }
                    code.push_str(&piece_code(color, kind));
                }
            }
            let _ = write!(
                self.body,
                r#"<text class="legend" data-kind="{}" x="{}" y="{}" font-size="13">= {} ({})</text>"#,
                kind.code(),
                x + 4.0,
                y,
                xml_escape(kind_name(kind)),
                code
            );
        }
    }

    /// The SVG document: the drawing on a white background, as high as drawn.
    fn document(self) -> String {
        let y = self.y;
        let mut out = String::new();
        let _ = write!(
            out,
            r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{y}" viewBox="0 0 {WIDTH} {y}" font-family="{FONT_FAMILY}, sans-serif">
<rect class="background" x="0" y="0" width="{WIDTH}" height="{y}" fill="#fff"/>
"##
        );
        out.push_str(&self.body);
        out.push_str("\n</svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(wrap("a bb ccc", 4), vec!["a bb", "ccc"]);
        assert_eq!(wrap("", 4), Vec::<String>::new());
    }

    #[test]
    fn inner_markup() {
        let s = inner(piece_file!("wK"));
        assert!(s.starts_with("<g"));
        assert!(s.ends_with("</g>"));
    }

    #[test]
    fn every_fairy_glyph_differs() {
        let mut seen = std::collections::HashSet::new();
        for k in crate::core::piece::ALL_KINDS {
            assert!(seen.insert(glyph(k)), "{k:?}");
        }
    }
}
