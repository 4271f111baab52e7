//! Orthodox chess: FIDE movement for the orthodox pieces, and the same walk for every fairy
//! piece of the table (a compound moves and captures as each of its parts). Move generation
//! and the attack test (`Board::attacked_with`) use the same part tables, so they agree.
//!
//! Problem conventions: castling when king and rook are on their home squares and the
//! position grants the right; en passant only when the position names the square.

use super::Rules;
use crate::core::bitboard::*;
use crate::core::piece::part;
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Squares, bb};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{CASTLINGS, Position};

/// All pseudo-legal moves of the side to move (own king may be left attacked).
pub fn pseudo_legal(pos: &Position, rules: &Rules, out: &mut MoveList) {
    let us = pos.side;
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let them = board.by_color[us.flip().idx()];
    let occ = own | them;
    for from in Squares(own) {
        let kind = board.kind_at(from).expect("own square is occupied");
        if kind == Kind::Pawn {
            pawn_moves(pos, rules, from, occ, them, out);
            continue;
        }
        let targets = piece_attacks(from, us, kind, occ) & !own;
        for to in Squares(targets) {
            out.push(Move::new(from, to));
        }
    }
    castling_moves(pos, out);
}

/// Capture-and-move targets of a non-pawn piece (all its parts together).
#[inline]
fn piece_attacks(s: u8, c: Color, kind: Kind, occ: Bitboard) -> Bitboard {
    crate::core::board::piece_attacks(s, c, kind, occ)
}

fn push_pawn(rules: &Rules, us: Color, from: u8, to: u8, kind: MoveKind, out: &mut MoveList) {
    if us.relative_rank(to) == 7 {
        for &k in rules.promotions() {
            out.push(Move { from, to, promo: Some(k), kind });
        }
    } else {
        out.push(Move { from, to, promo: None, kind });
    }
}

fn pawn_moves(pos: &Position, rules: &Rules, from: u8, occ: Bitboard, them: Bitboard, out: &mut MoveList) {
    let us = pos.side;
    let fwd = us.forward();
    let rel = us.relative_rank(from);
    if rel == 7 {
        return; // a pawn on its last rank (fairy setups) cannot move
    }
    let one = (from as i8 + fwd) as u8;
    if occ & bb(one) == 0 {
        push_pawn(rules, us, from, one, MoveKind::Normal, out);
        if rel == 1 {
            let two = (one as i8 + fwd) as u8;
            if occ & bb(two) == 0 {
                out.push(Move { from, to: two, promo: None, kind: MoveKind::DoublePush });
            }
        }
    }
    let caps = pawn_attacks(us, from);
    for to in Squares(caps & them) {
        push_pawn(rules, us, from, to, MoveKind::Normal, out);
    }
    if pos.ep != NO_SQUARE && caps & bb(pos.ep) != 0 {
        out.push(Move { from, to: pos.ep, promo: None, kind: MoveKind::EnPassant });
    }
}

fn castling_moves(pos: &Position, out: &mut MoveList) {
    let us = pos.side;
    let rights = pos.castling;
    if rights == 0 {
        return;
    }
    let board = &pos.board;
    let occ = board.occupied();
    for &(kf, kt, rf, _, bit) in &CASTLINGS[us.idx()] {
        if rights & bit == 0 {
            continue;
        }
        if between(kf, rf) & occ != 0 {
            continue;
        }
        let them = us.flip();
        if board.attacked(kf, them) {
            continue;
        }
        let pass = if kt > kf { kf + 1 } else { kf - 1 };
        if board.attacked(pass, them) {
            continue;
        }
        out.push(Move { from: kf, to: kt, promo: None, kind: MoveKind::Castle });
    }
}

/// Squares of the side-to-move's pieces that have the KING part but are not royal are
/// ordinary pieces; only the royal king matters for legality.
#[inline]
pub fn is_legal_child(child: &Position) -> bool {
    !child.mover_king_attacked()
}

/// Does `part` include a rider? (Used by callers that want quick filters.)
pub const RIDERS: u8 = part::BISHOP | part::ROOK | part::NIGHT;
