//! What a publication diagram shows, independent of the output format: the position, the
//! caption (authors, source, award, stipulation, piece count), the condition, the twin and
//! the fairy pieces to explain. `svg.rs` and `latex.rs` render it; [`png`] rasterises the
//! SVG with resvg and the bundled font.

use crate::core::{Color, Kind, Square};
use crate::position::Position;
use crate::problem::{Problem, TwinInstance};
use crate::rules::Condition;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One diagram: a problem, or one twin of it.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// Authors as written in the file ("Alberto Armeni", or YACPDB's "Armeni, Alberto").
    pub authors: Vec<String>,
    pub title: Option<String>,
    pub source: Option<String>,
    pub award: Option<String>,
    /// "b) wSb1-->b3" for a twin; None for a problem without twins.
    pub twin: Option<String>,
    pub position: Position,
    /// As chainmate writes it ("#2", "h#3").
    pub stipulation: String,
    pub condition: Condition,
}

impl Diagram {
    pub fn new(p: &Problem, t: &TwinInstance) -> Diagram {
        let twin = if t.label.is_empty() {
            None
        } else {
            let plus = if t.continued { "+" } else { "" };
            let desc = t.description.trim();
            Some(if desc.is_empty() {
                format!("{plus}{})", t.label)
            } else {
                format!("{plus}{}) {desc}", t.label)
            })
        };
        Diagram {
            authors: p.authors.clone(),
            title: p.title.clone().filter(|s| !s.trim().is_empty()),
            source: p.source.clone().filter(|s| !s.trim().is_empty()),
            award: p.award.clone().filter(|s| !s.trim().is_empty()),
            twin,
            position: t.position,
            stipulation: t.stipulation.to_string(),
            condition: t.condition,
        }
    }

    /// The problem's own diagram (its position before any twin), with no twin line.
    pub fn base(p: &Problem) -> Diagram {
        Diagram {
            authors: p.authors.clone(),
            title: p.title.clone().filter(|s| !s.trim().is_empty()),
            source: p.source.clone().filter(|s| !s.trim().is_empty()),
            award: p.award.clone().filter(|s| !s.trim().is_empty()),
            twin: None,
            position: p.position,
            stipulation: p.stipulation.to_string(),
            condition: p.condition,
        }
    }

    /// Every diagram of a problem: one per twin (one for a problem without twins).
    pub fn all(p: &Problem) -> Result<Vec<Diagram>, String> {
        let twins = p.twin_instances().map_err(|e| e.to_string())?;
        Ok(twins.iter().map(|t| Diagram::new(p, t)).collect())
    }

    /// The piece count problemists print: `(white+black)`.
    pub fn count(&self) -> String {
        format!(
            "({}+{})",
            self.position.count(Color::White),
            self.position.count(Color::Black)
        )
    }

    /// The pieces on the board, a1..h8 order.
    pub fn pieces(&self) -> Vec<(Square, Color, Kind)> {
        (0..64u8)
            .filter_map(|s| self.position.board.get(s).map(|p| (s, p.color, p.kind)))
            .collect()
    }

    /// The fairy kinds on the board, in table order, with which colours have them
    /// (white, black).
    pub fn fairy_kinds(&self) -> Vec<(Kind, bool, bool)> {
        let mut out: Vec<(Kind, bool, bool)> = vec![];
        let mut pieces = self.pieces();
        pieces.sort_by_key(|p| p.2);
        for (_, c, k) in pieces {
            if k.is_orthodox() {
                continue;
            }
            if out.last().map(|l| l.0) != Some(k) {
                out.push((k, false, false));
            }
            let last = out.last_mut().expect("pushed");
            if c == Color::White {
                last.1 = true;
            } else {
                last.2 = true;
            }
        }
        out
    }

    /// Authors in the "First Surname" form captions use.
    pub fn authors_display(&self) -> String {
        self.authors
            .iter()
            .map(|a| match a.split_once(',') {
                Some((sur, first)) if !first.trim().is_empty() => {
                    format!("{} {}", first.trim(), sur.trim())
                }
                _ => a.trim().to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The condition line, None for orthodox problems.
pub fn condition_text(c: Condition) -> Option<&'static str> {
    c.title()
}

/// The piece names the legend uses ("nightrider", "princess (B+S)").
pub fn kind_name(k: Kind) -> &'static str {
    k.info().name
}

/// Where diagram `i` (0-based) of `n` goes when `-o OUT` is given: OUT itself when there
/// is one diagram, else OUT with `-1`, `-2`, ... before the extension
/// (`dir/name.svg` -> `dir/name-1.svg`, `dir/name-2.svg`).
pub fn numbered_path(out: &Path, i: usize, n: usize) -> PathBuf {
    if n <= 1 {
        return out.to_path_buf();
    }
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match out.extension() {
        Some(e) => format!("{stem}-{}.{}", i + 1, e.to_string_lossy()),
        None => format!("{stem}-{}", i + 1),
    };
    out.with_file_name(name)
}

/// The bundled caption font (DejaVu Sans, Latin subset; assets/fonts/LICENSE).
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
/// The family name of [`FONT`], used in the SVG's `font-family`.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Rasterises an SVG (as [`crate::output::svg::render`] writes it) to PNG at its own size
/// (1 SVG unit = 1 pixel). Text is drawn with the bundled font only: no system font is
/// looked up, so the picture is the same on every machine.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_font_data(FONT.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    let opt = resvg::usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: Arc::new(db),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| format!("SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "empty picture".to_string())?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("PNG: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering() {
        let p = Path::new("dir/name.svg");
        assert_eq!(numbered_path(p, 0, 1), PathBuf::from("dir/name.svg"));
        assert_eq!(numbered_path(p, 0, 3), PathBuf::from("dir/name-1.svg"));
        assert_eq!(numbered_path(p, 2, 3), PathBuf::from("dir/name-3.svg"));
        assert_eq!(
            numbered_path(Path::new("out"), 1, 2),
            PathBuf::from("out-2")
        );
    }
}
