//! FEN problems: `.fen` files and the command line.
//!
//! A `.fen` file holds one problem per line: `FEN ; stipulation`, optionally followed by
//! more `;`-separated fields, each a Popeye option or a condition as in a YACPDB `options`
//! entry (`... ; #2 ; SetPlay ; Defence 1`). Blank lines and lines starting with `#` or `//`
//! are skipped.
//!
//! The FEN itself is [`Position::from_fen`]'s: the usual letters (N is the knight), fairy
//! pieces as their code in parentheses (`(AM)` a white amazon, `(n)` a black nightrider),
//! pockets in brackets after the board (`.../4K3[Qs]`). Without a castling field the
//! problem convention applies (every king and rook on their home squares may castle); a
//! castling field (`-` included) replaces it. The side-to-move field only matters for the
//! en-passant field: the stipulation decides who moves first.

use super::inp::{ErrorSite, apply_entry};
use super::{Draft, FenDiagram, Problem, ProblemError, known_piece_codes};
use crate::position::Position;
use crate::rules::Condition;
use crate::search::Stipulation;

/// Reads a FEN diagram (normalized); also says whether the FEN had a castling field, and
/// gives [`Position::ep_origin_error`] for the condition to judge.
pub(crate) fn read_fen(fen: &str) -> Result<(Position, bool, Option<String>), String> {
    let fields = fen.split_whitespace().count();
    if fields == 0 {
        return Err("empty FEN".into());
    }
    let mut pos = Position::from_fen_unnormalized(fen).map_err(|m| {
        if m.contains("unknown FEN piece letter") {
            format!(
                "{m} (FEN uses K Q R B N P, N being the knight; a fairy piece is its code in parentheses, \
                 e.g. (AM) for a white amazon or (n) for a black nightrider)"
            )
        } else if m.contains("unknown piece code") {
            format!("{m}: chainmate knows {}", known_piece_codes())
        } else {
            m
        }
    })?;
    let ep_origin = pos.ep_origin_error();
    pos.normalize();
    Ok((pos, fields >= 3, ep_origin))
}

/// A problem from a FEN, a stipulation and a condition given on the command line; the
/// diagram is checked under that condition (a pawn on its first rank is legal under
/// Teleport and Pocket Mutation only). Errors name the "file" `<fen>`.
pub fn from_fen_arg(
    fen: &str,
    stipulation: &str,
    condition: Condition,
) -> Result<Problem, ProblemError> {
    let file = "<fen>";
    let site = ErrorSite {
        file,
        prefix: String::new(),
    };
    let (position, explicit_castling, ep_origin) =
        read_fen(fen).map_err(|m| site.err(0, 0, format!("bad FEN '{fen}': {m}")))?;
    let mut d = Draft::new(0, 0);
    d.fen = Some(FenDiagram {
        position,
        explicit_castling,
        ep_origin,
        text: fen.to_string(),
        line: None,
        column: None,
    });
    d.stipulation = Some(Stipulation::parse(stipulation).map_err(|m| site.err(0, 0, m))?);
    d.conditions.push((condition, None, None));
    let mut p = d.build(file, "", "")?;
    p.line = 1;
    Ok(p)
}

/// Reads a `.fen` file: one `FEN ; stipulation [; option or condition ...]` per line.
pub fn parse_fen_file(file: &str, text: &str) -> Result<Vec<Problem>, ProblemError> {
    let site = ErrorSite {
        file,
        prefix: String::new(),
    };
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        // Fields with their 1-based columns.
        let mut fields: Vec<(&str, usize)> = Vec::new();
        let mut start = 0;
        for (j, c) in raw.char_indices().chain(std::iter::once((raw.len(), ';'))) {
            if c == ';' {
                let f = &raw[start..j];
                let lead = f.len() - f.trim_start().len();
                fields.push((f.trim(), raw[..start + lead].chars().count() + 1));
                start = j + 1;
            }
        }
        let (fen, fen_col) = fields[0];
        let Some(&(stip, stip_col)) = fields.get(1).filter(|f| !f.0.is_empty()) else {
            return Err(site.err(
                line,
                fen_col,
                "expected `FEN ; stipulation` (e.g. `4k3/8/4K3/8/8/8/8/3Q4 ; #2`)",
            ));
        };
        let (position, explicit_castling, ep_origin) =
            read_fen(fen).map_err(|m| site.err(line, fen_col, format!("bad FEN '{fen}': {m}")))?;
        let mut d = Draft::new(line, problems.len());
        d.fen = Some(FenDiagram {
            position,
            explicit_castling,
            ep_origin,
            text: fen.to_string(),
            line: Some(line),
            column: Some(fen_col),
        });
        d.stipulation = Some(Stipulation::parse(stip).map_err(|m| site.err(line, stip_col, m))?);
        for &(extra, col) in &fields[2..] {
            apply_entry(&site, &mut d, extra, line, col)?;
        }
        problems.push(d.build(file, "", "")?);
    }
    if problems.is_empty() {
        return Err(site.err(
            0,
            0,
            "no problem in the file (expected lines `FEN ; stipulation`)",
        ));
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Kind, parse_square};

    #[test]
    fn command_line_fen() {
        let p = from_fen_arg("4k3/8/8/8/8/8/8/R3K2R", "#2", Condition::Orthodox).unwrap();
        assert_eq!(
            p.position.castling, 3,
            "home convention without a castling field"
        );
        let p = from_fen_arg("4k3/8/8/8/8/8/8/R3K2R w - -", "#2", Condition::Orthodox).unwrap();
        assert_eq!(p.position.castling, 0);
        let p = from_fen_arg(
            "4k3/8/8/8/8/8/8/(AM)3K2(n)[Qn] w",
            "h#2",
            Condition::Orthodox,
        )
        .unwrap();
        assert_eq!(
            p.position.board.kind_at(parse_square("a1").unwrap()),
            Some(Kind::Amazon)
        );
        assert_eq!(p.position.pockets, [Some(Kind::Queen), Some(Kind::Knight)]);
    }

    #[test]
    fn command_line_errors() {
        let e = from_fen_arg("4k3/8/8/8/8/8/8/4K2X", "#2", Condition::Orthodox).unwrap_err();
        assert!(
            e.message.contains("'X'") && e.message.contains("N being the knight"),
            "{e}"
        );
        assert_eq!(e.file, "<fen>");
        let e = from_fen_arg("8/8/8/8/8/8/8/4K3", "#2", Condition::Orthodox).unwrap_err();
        assert!(e.message.contains("black has no king"), "{e}");
    }

    #[test]
    fn command_line_fen_is_checked_under_its_condition() {
        // A white pawn on a1 and a black one on h8 (both on their own first rank).
        let fen = "4k2p/8/8/8/8/8/8/P3K3 w - - 0 1";
        for c in [Condition::Teleport, Condition::PocketMutation] {
            let p = from_fen_arg("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "#2", c).unwrap();
            assert_eq!(p.condition, c);
        }
        assert!(from_fen_arg(fen, "#2", Condition::PocketMutation).is_ok());
        for c in [
            Condition::Orthodox,
            Condition::Kazan,
            Condition::Tatarstan,
            Condition::Combo,
        ] {
            let e = from_fen_arg(fen, "#2", c).unwrap_err();
            assert!(e.message.contains("pawn on a1"), "{c:?}: {e}");
        }
        // A pawn on its promotion rank: Pocket Mutation only.
        let last = "P3k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert!(from_fen_arg(last, "#2", Condition::PocketMutation).is_ok());
        assert!(from_fen_arg(last, "#2", Condition::Teleport).is_err());
    }
}
