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
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use std::ops::ControlFlow;

/// Teleport chess.
pub struct Teleport;

impl super::ConditionRules for Teleport {
    const NAME: &'static str = "teleport";
    const ALIASES: &'static [&'static str] = &["teleport", "teleportchess"];
    const TITLE: Option<&'static str> = Some("Teleport Chess");
    const CHEAP_REPLAY: bool = true;
    const REFILLS_DOUBLE_STEP_ORIGIN: bool = true;

    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        for_each_legal(pos, rules, f)
    }

    fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
        orthodox::pseudo_legal(pos, rules, list);
        let _ = each_teleport(pos, rules, &mut |m| {
            list.push(m);
            ControlFlow::Continue(())
        });
    }

    fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
        has_legal_move(pos, rules)
    }

    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        is_pseudo_legal(pos, rules, m)
    }

    /// The orthodox moves counted as orthodox chess counts them (they change which squares
    /// are occupied, a teleport never does, so no result is counted twice), then the
    /// distinct results of the teleports, told apart by their hashes as `for_each_legal`
    /// tells them apart, a plain swap's hash computed without playing it.
    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        let orthodox = orthodox::count_legal(pos, rules);
        if pos.in_check() {
            return orthodox;
        }
        let mut hashes = super::Scratch::<Vec<u64>>::take();
        let _ = each_teleport(pos, rules, &mut |m| {
            hashes.push(if m.kind == MoveKind::Swap && m.promo.is_none() {
                pos.swap_hash(m.from, m.to)
            } else {
                pos.make(m).hash
            });
            ControlFlow::Continue(())
        });
        hashes.sort_unstable();
        hashes.dedup();
        orthodox + hashes.len() as u64
    }

    /// A teleport can bring a pawn to its first rank.
    fn allows_pawn_on_relative_rank(rel_rank: u8) -> bool {
        rel_rank <= 6
    }
}

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
                    kind: MoveKind::Swap,
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
                        kind: MoveKind::SwapDouble,
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
                kind: MoveKind::Swap,
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
    let mut seen = super::Scratch::<Vec<u64>>::take();
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
        MoveKind::Swap | MoveKind::SwapDouble => {
            each_teleport(pos, rules, &mut super::stop_at(m)).is_break()
        }
        _ => orthodox::is_pseudo_legal(pos, rules, m),
    }
}

#[cfg(test)]
mod tests {
    use crate::core::{Kind, parse_square as sq};
    use crate::moves::MoveKind;
    use crate::output::notation::{Style, move_body};
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    fn rules() -> Rules {
        Rules::new(Condition::Teleport)
    }

    fn texts(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let r = rules();
        r.legal_moves(&pos)
            .into_iter()
            .map(|(m, _)| move_body(&r, &pos, m, Style::Long))
            .collect()
    }

    /// The counted moves (orthodox moves counted in bulk, teleports by their hashes) are
    /// the moves `for_each_legal` plays, at every node of random games from crowded
    /// positions (promotions, castling, en passant, pawns on their first rank, checks).
    #[test]
    fn counted_moves_are_the_played_moves() {
        let r = rules();
        let roots = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "1R6/1P5k/8/8/8/8/pp6/RN2K3 w - - 0 1",
            "4k3/1P1P4/8/2pP4/8/8/P7/R3K2R w KQ c6 0 1",
        ];
        crate::rules::assert_counts_are_played_moves(&r, &roots);
    }

    #[test]
    fn teleport_swaps_and_only_the_mover_needs_to_reach() {
        // Sf3 can reach g5 where the bishop stands; the bishop could not reach f3.
        let t = texts("4k3/8/8/6B1/8/5N2/8/4K3 w - - 0 1");
        assert!(t.contains(&"Sf3-g5<->Bg5".to_string()), "{t:?}");
        assert!(!t.iter().any(|x| x.starts_with("Bg5-f3")), "{t:?}");
    }

    #[test]
    fn pawns_teleport_straight_only() {
        // The knight on d3 is diagonal to the e2 pawn (no teleport); the one on e3 straight.
        let t = texts("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1");
        assert!(!t.iter().any(|x| x.starts_with("e2-d3")), "{t:?}");
        let t = texts("4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1");
        assert!(t.contains(&"e2-e3<->Se3".to_string()), "{t:?}");
    }

    #[test]
    fn pawn_brought_to_its_first_rank_steps_once() {
        // Ra1-a2<->Pa2 puts the pawn on a1 ...
        let t = texts("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1");
        assert!(t.contains(&"Ra1-a2<->Pa2".to_string()));
        // ... from where it steps to a2 only (no two-step), captures as usual.
        let t = texts("4k3/8/8/8/8/8/1p6/P3K3 w - - 0 1");
        let pawn: Vec<&String> = t.iter().filter(|x| x.starts_with("a1")).collect();
        assert_eq!(pawn, ["a1-a2", "a1*b2"]);
    }

    #[test]
    fn displaced_pawn_promotes_on_arrival() {
        // D2: the rook takes b7, the pawn arrives on b8 and promotes (four choices).
        let pos = Position::from_fen("1R6/1P5k/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let kinds: Vec<Kind> = rules()
            .legal_moves(&pos)
            .into_iter()
            .filter(|(m, _)| m.kind == MoveKind::Swap)
            .map(|(_, c)| {
                assert_eq!(c.board.kind_at(sq("b7").unwrap()), Some(Kind::Rook));
                c.board.kind_at(sq("b8").unwrap()).unwrap()
            })
            .collect();
        assert_eq!(kinds, [Kind::Queen, Kind::Knight, Kind::Rook, Kind::Bishop]);
        // The rook's teleport and the pawn's step onto the rook give the same position: one
        // move, written as the first generated (the pawn's).
        let t = texts("1R6/1P5k/8/8/8/8/8/4K3 w - - 0 1");
        assert!(
            t.contains(&"b7-b8=Q<->Rb8".to_string()) && !t.contains(&"Rb8-b7<->Pb7=Q".to_string()),
            "{t:?}"
        );
    }

    #[test]
    fn the_king_neither_teleports_nor_is_swapped() {
        let t = texts("4k3/8/8/8/8/8/3QB3/3RK3 w - - 0 1");
        assert!(
            !t.iter()
                .any(|x| x.contains("<->K") || x.starts_with('K') && x.contains("<->")),
            "{t:?}"
        );
        // the queen may still swap with the bishop and the rook (that one written as the
        // rook's teleport, generated first, with the same result)
        assert!(
            t.contains(&"Qd2-e2<->Be2".to_string()) && t.contains(&"Rd1-d2<->Qd2".to_string()),
            "{t:?}"
        );
    }

    #[test]
    fn teleporting_two_step_gives_en_passant() {
        // D3: e2-e4 onto the own knight; the d4 pawn may take en passant.
        let pos = Position::from_fen("4k3/8/8/8/3pN3/8/4P3/4K3 w - - 0 1").unwrap();
        let (m, child) = rules()
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| m.kind == MoveKind::SwapDouble)
            .expect("the two-step teleport");
        assert_eq!((m.from, m.to), (sq("e2").unwrap(), sq("e4").unwrap()));
        assert_eq!(child.ep, sq("e3").unwrap());
        assert_eq!(child.board.kind_at(sq("e2").unwrap()), Some(Kind::Knight));
    }

    #[test]
    fn same_kind_teleport_is_one_pass_that_costs_castling() {
        // D16: Ra1-a2<->Ra2 and Ra2-a1<->Ra1 give the same position: one move, the board
        // unchanged, the queen-side castling right gone.
        let pos = Position::from_fen("4k3/8/8/8/8/8/R7/R3K3 w Q - 0 1").unwrap();
        let passes: Vec<_> = rules()
            .legal_moves(&pos)
            .into_iter()
            .filter(|(m, _)| m.kind == MoveKind::Swap)
            .collect();
        assert_eq!(passes.len(), 1);
        assert_eq!(passes[0].1.board, pos.board);
        assert_eq!(passes[0].1.castling, 0);
    }

    #[test]
    fn no_teleport_answers_a_check() {
        // Re8 checks: Qd1-d2<->Bd2 and the like do not help, and are not moves.
        let t = texts("4r1k1/8/8/8/8/8/3B4/3QK3 w - - 0 1");
        assert!(!t.iter().any(|x| x.contains("<->")), "{t:?}");
        assert!(
            texts("6k1/8/8/8/8/8/3B4/3QK3 w - - 0 1")
                .iter()
                .any(|x| x.contains("<->"))
        );
    }
}
