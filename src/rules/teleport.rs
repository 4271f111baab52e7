//! Teleport chess: orthodox chess plus one more kind of move. A piece other than the king
//! that could move to a square if that square were empty may move there when an own piece
//! other than the king stands on it: the two change places (a *teleport*). A pawn teleports
//! only with its straight moves (one step, or the two-step from its second rank over an
//! empty square); a pawn brought to its first rank steps one square from there. A pawn that
//! arrives on its last rank by a teleport, as the mover or as the displaced piece, promotes
//! (D2); a teleporting two-step gives en-passant rights (D3). Teleports between two pieces
//! of the same kind leave the board as it was (a pass), and two teleports with the same
//! result are one move (D16); a rook leaving its corner still loses its castling right.
//!
//! Captures are orthodox, so the attack test is orthodox. A teleport never changes which
//! squares are occupied, so it can neither answer a check nor expose the own king: it is
//! legal exactly when the mover is not in check.

use super::{Rules, orthodox};
use crate::core::board::piece_attacks;
use crate::core::{Kind, Squares, bb};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use std::ops::ControlFlow;

/// Calls `emit` with every teleport of the side to move (pseudo-legal = legal unless in
/// check), promotion choices separately, before removing duplicates of the same result.
pub fn each_teleport(
    pos: &Position,
    rules: &Rules,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let occ = board.occupied();
    let ksq = pos.king(us);
    let partners = own & !bb(ksq);
    for from in Squares(partners) {
        let kind = board.kind_at(from).expect("own square is occupied");
        if kind == Kind::Pawn {
            let rel = us.relative_rank(from);
            if rel == 7 {
                continue;
            }
            let one = (from as i8 + us.forward()) as u8;
            if partners & bb(one) != 0 {
                let m = Move {
                    from,
                    to: one,
                    promo: None,
                    kind: MoveKind::Teleport,
                    chain: 0,
                };
                with_promotions(pos, rules, m, emit)?;
            }
            if rel == 1 && occ & bb(one) == 0 {
                let two = (one as i8 + us.forward()) as u8;
                if partners & bb(two) != 0 {
                    emit(Move {
                        from,
                        to: two,
                        promo: None,
                        kind: MoveKind::TeleportDouble,
                        chain: 0,
                    })?;
                }
            }
            continue;
        }
        for to in Squares(piece_attacks(from, us, kind, occ) & partners) {
            let m = Move {
                from,
                to,
                promo: None,
                kind: MoveKind::Teleport,
                chain: 0,
            };
            with_promotions(pos, rules, m, emit)?;
        }
    }
    ControlFlow::Continue(())
}

/// Emits `m`, or one move per promotion choice when a pawn arrives on its last rank.
fn with_promotions(
    pos: &Position,
    rules: &Rules,
    m: Move,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if promotes(pos, m) {
        for &k in rules.promotions() {
            emit(Move {
                promo: Some(k),
                ..m
            })?;
        }
        ControlFlow::Continue(())
    } else {
        emit(m)
    }
}

/// Does a pawn arrive on its last rank with this teleport (the mover on `to`, or the
/// displaced piece on `from`)?
fn promotes(pos: &Position, m: Move) -> bool {
    let us = pos.side;
    let pawn = |s| pos.board.kind_at(s) == Some(Kind::Pawn);
    (pawn(m.from) && us.relative_rank(m.to) == 7) || (pawn(m.to) && us.relative_rank(m.from) == 7)
}

/// Every legal move with its result: orthodox moves, then teleports (each distinct result
/// once, the first generated stands for it).
pub fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
where
    F: FnMut(Move, &Position) -> ControlFlow<()>,
{
    orthodox::each_legal_unplayed(pos, rules, &mut |m| f(m, &pos.make(m)))?;
    if pos.in_check() {
        return ControlFlow::Continue(());
    }
    let mut seen: Vec<u64> = Vec::new();
    each_teleport(pos, rules, &mut |m| {
        let child = pos.make(m);
        if seen.contains(&child.hash) {
            return ControlFlow::Continue(());
        }
        seen.push(child.hash);
        f(m, &child)
    })
}

/// Does the side to move have a legal move?
pub fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
    orthodox::has_legal_move(pos, rules)
        || (!pos.in_check()
            && each_teleport(pos, rules, &mut |_| ControlFlow::Break(())).is_break())
}

/// Could `m` have been generated in `pos`?
pub fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
    match m.kind {
        MoveKind::Teleport | MoveKind::TeleportDouble => each_teleport(pos, rules, &mut |x| {
            if x == m {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break(),
        _ => orthodox::is_pseudo_legal(pos, rules, m),
    }
}
