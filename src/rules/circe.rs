//! Circe (Popeye's plain Circe). Moves are orthodox. A unit other than a king that is
//! captured is reborn at once on its rebirth square, if that square is empty after the
//! move; otherwise it vanishes as in orthodox chess. The rebirth square depends on the
//! captured unit's colour and kind and on the capture square (for en passant, its file):
//! a pawn goes to its own second rank in the file of the capture; a knight, bishop or rook
//! to the square of its kind in the game array whose colour is the capture square's
//! colour (white: knight b1/g1, bishop f1/c1, rook h1/a1 for a light/dark capture square;
//! black: g8/b8, c8/f8, a8/h8); a queen to d1/d8; any fairy piece to its side's
//! promotion square in the file of the capture (a white one on the eighth rank, a black
//! one on the first). A promoted unit is reborn as what it is. A rook reborn on its own
//! corner regains the castling right of that wing when its king stands on its home square
//! (Popeye keeps a flag for the king instead, lost when the king moves: the readings
//! differ only for a king that left its square and came back; see docs/conditions.md).
//!
//! Kings are never reborn, so check is orthodox: a move is legal when, after it and the
//! rebirth, the mover's king cannot be captured. A rebirth can therefore block a line,
//! or give check to the capturer's king, which makes the capture illegal.
//!
//! Notation as Popeye's: the rebirth follows the move in brackets, `Qd1*d5[+bRa8]`.

use super::{Rules, leader_effects, orthodox};
use crate::core::{Color, Kind, NO_SQUARE, Piece, Square};
use crate::moves::{Effect, Effects, Move, MoveKind, MoveList};
use crate::position::{CASTLINGS, Position, ZOBRIST};
use std::ops::ControlFlow;

/// Circe.
pub struct Circe;

impl super::ConditionRules for Circe {
    const NAME: &'static str = "circe";
    const ALIASES: &'static [&'static str] = &["circe"];
    const TITLE: Option<&'static str> = Some("Circe");
    const CHEAP_REPLAY: bool = true;

    fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        orthodox::each_pseudo_legal(pos, rules, &mut |m| {
            let (child, _) = after(pos, m);
            if orthodox::is_legal_child(&child) {
                f(m, &child)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// A move that captures nothing is an orthodox move (nothing is reborn), so its
    /// legality is decided without playing it; only captures are played with rebirth.
    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        let mut n = 0;
        let _ = orthodox::each_legal_unplayed(pos, rules, &mut |m| {
            n += u64::from(!captures(pos, m));
            ControlFlow::Continue(())
        });
        let _ = orthodox::each_pseudo_legal(pos, rules, &mut |m| {
            n += u64::from(captures(pos, m) && orthodox::is_legal_child(&after(pos, m).0));
            ControlFlow::Continue(())
        });
        n
    }

    fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
        orthodox::pseudo_legal(pos, rules, list)
    }

    fn play(pos: &Position, _: &Rules, m: Move) -> Option<Position> {
        Some(after(pos, m).0).filter(orthodox::is_legal_child)
    }

    fn effects(pos: &Position, _: &Rules, m: Move) -> Option<(Position, Effects)> {
        let (child, reborn) = after(pos, m);
        let mut e = leader_effects(pos, m);
        if let Some((at, piece)) = reborn {
            e.effects.push(Effect::Reborn { at, piece });
        }
        Some((child, e))
    }
}

/// Does the move take a unit?
fn captures(pos: &Position, m: Move) -> bool {
    m.kind == MoveKind::EnPassant || (m.kind != MoveKind::Castle && !pos.board.is_empty(m.to))
}

/// Is the square light (h1, a8)? a1 is dark.
fn light(s: Square) -> bool {
    ((s & 7) + (s >> 3)) % 2 == 1
}

/// Where a captured unit is reborn (the rule in the module comment).
pub fn rebirth_square(captured: Piece, capture: Square) -> Square {
    let file = capture & 7;
    let l = light(capture);
    let white = captured.color == Color::White;
    // The square on the unit's own first rank (relative), by file.
    let home = |f: Square| if white { f } else { 56 + f };
    match captured.kind {
        Kind::Pawn => {
            if white {
                8 + file
            } else {
                48 + file
            }
        }
        // White: b1 light, g1 dark; black: g8 light, b8 dark.
        Kind::Knight => home(if l == white { 1 } else { 6 }),
        // White: f1 light, c1 dark; black: c8 light, f8 dark.
        Kind::Bishop => home(if l == white { 5 } else { 2 }),
        // White: h1 light, a1 dark; black: a8 light, h8 dark.
        Kind::Rook => home(if l == white { 7 } else { 0 }),
        Kind::Queen => home(3),
        Kind::King => NO_SQUARE,
        // Fairy pieces: the side's promotion square in the capture's file.
        _ => {
            if white {
                56 + file
            } else {
                file
            }
        }
    }
}

/// The position after an orthodox move with the rebirth, and the rebirth (square and
/// unit) if there is one. Legality is not checked.
fn after(pos: &Position, m: Move) -> (Position, Option<(Square, Piece)>) {
    let mut child = pos.make(m);
    let capture = match m.kind {
        MoveKind::EnPassant => {
            let s = (m.to as i8 - pos.side.forward()) as Square;
            pos.board.get(s).map(|p| (s, p))
        }
        MoveKind::Castle => None,
        _ => pos.board.get(m.to).map(|p| (m.to, p)),
    };
    let Some((at, captured)) = capture.filter(|c| c.1.kind != Kind::King) else {
        return (child, None);
    };
    let to = rebirth_square(captured, at);
    if to == NO_SQUARE || !child.board.is_empty(to) {
        return (child, None);
    }
    child.put(to, captured);
    if captured.kind == Kind::Rook {
        regain_castling(&mut child, captured.color, to);
    }
    (child, Some((to, captured)))
}

/// A rook reborn on its corner regains its wing's castling right when its king is home.
fn regain_castling(pos: &mut Position, c: Color, rook: Square) {
    for &(kf, _, rf, _, bit) in &CASTLINGS[c.idx()] {
        if rf == rook && pos.king(c) == kf && pos.castling & bit == 0 {
            let new = pos.castling | bit;
            pos.hash ^= ZOBRIST.castling[pos.castling as usize] ^ ZOBRIST.castling[new as usize];
            pos.castling = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rebirth_square;
    use crate::core::{Color, Kind, Piece, parse_square as sq};
    use crate::output::notation::{Style, move_text};
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    fn reborn(color: Color, kind: Kind, at: &str) -> String {
        crate::core::square_name(rebirth_square(Piece { color, kind }, sq(at).unwrap()))
    }

    #[test]
    fn rebirth_squares_of_the_game_array() {
        use Color::*;
        use Kind::*;
        // d5 is light, e5 dark.
        assert_eq!(reborn(White, Pawn, "d5"), "d2");
        assert_eq!(reborn(Black, Pawn, "d4"), "d7");
        assert_eq!(reborn(White, Knight, "d5"), "b1");
        assert_eq!(reborn(White, Knight, "e5"), "g1");
        assert_eq!(reborn(Black, Knight, "d5"), "g8");
        assert_eq!(reborn(Black, Knight, "e5"), "b8");
        assert_eq!(reborn(White, Bishop, "d5"), "f1");
        assert_eq!(reborn(White, Bishop, "e5"), "c1");
        assert_eq!(reborn(Black, Bishop, "d5"), "c8");
        assert_eq!(reborn(Black, Bishop, "e5"), "f8");
        assert_eq!(reborn(White, Rook, "d5"), "h1");
        assert_eq!(reborn(White, Rook, "e5"), "a1");
        assert_eq!(reborn(Black, Rook, "d5"), "a8");
        assert_eq!(reborn(Black, Rook, "e5"), "h8");
        assert_eq!(reborn(White, Queen, "a7"), "d1");
        assert_eq!(reborn(Black, Queen, "a7"), "d8");
        assert_eq!(reborn(White, Nightrider, "e5"), "e8");
        assert_eq!(reborn(Black, Amazon, "c4"), "c1");
    }

    /// (long text, FEN after) of each legal move whose text starts with `prefix`.
    fn moves(fen: &str, prefix: &str) -> Vec<(String, String)> {
        let pos = Position::from_fen(fen).unwrap();
        let r = Rules::new(Condition::Circe);
        let mut v: Vec<(String, String)> = r
            .legal_moves(&pos)
            .into_iter()
            .map(|(m, c)| (move_text(&r, &pos, m, &c, Style::Long), c.to_fen()))
            .filter(|(t, _)| t.starts_with(prefix))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_capture_with_rebirth_as_popeye_writes_it() {
        // Popeye 4.104 prints `1.Qd1*d5[+bPd7] +` for this position (Condition Circe).
        let v = moves("k7/8/8/3pn3/8/8/8/2KQ4 w - - 0 1", "Qd1*d5");
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].0, "Qd1*d5[+bPd7] +");
        assert_eq!(v[0].1, "k7/3p4/8/3Qn3/8/8/8/2K5 b - - 0 1");
    }

    #[test]
    fn an_occupied_rebirth_square_and_a_rebirth_that_checks() {
        // The rook taken on d5 (light) would come back on a8, where the black king
        // stands: it vanishes.
        let v = moves("k7/8/8/3r4/8/8/8/2KQ4 w - - 0 1", "Qd1*d5");
        assert_eq!(v[0].0, "Qd1*d5 +");
        assert_eq!(v[0].1, "k7/8/8/3Q4/8/8/8/2K5 b - - 0 1");
        // The bishop taken on d5 (light) is reborn on c8 and would check the king on g4:
        // the capture is illegal in Circe (and legal in orthodox chess).
        let fen = "k7/8/8/3b4/6K1/8/8/3Q4 w - - 0 1";
        assert!(moves(fen, "Qd1*d5").is_empty());
        let pos = Position::from_fen(fen).unwrap();
        let ortho = Rules::new(Condition::Orthodox).legal_moves(&pos);
        assert!(ortho.iter().any(|(m, _)| m.to == sq("d5").unwrap()));
    }

    #[test]
    fn a_rook_reborn_on_its_corner_castles_again() {
        // Black takes the rook h3 (light square): it is reborn on h1 with its king on e1,
        // so White may castle short again.
        let pos = Position::from_fen("4k2r/8/8/8/8/7R/8/4K3 b - - 0 1").unwrap();
        let r = Rules::new(Condition::Circe);
        let (_, child) = r
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| m.to == sq("h3").unwrap())
            .unwrap();
        assert_eq!(child.to_fen(), "4k3/8/8/8/8/7r/8/4K2R w K - 0 1");
        assert_eq!(child.hash, child.compute_hash());
    }
}
