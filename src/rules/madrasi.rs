//! Madrasi (Popeye's plain Madrasi). A unit other than a king is *paralysed* while an
//! opposing unit of the same kind observes it, that is, could capture it on the current
//! board (geometry only: pins do not matter, and neither does the observer's own
//! paralysis, so two units that observe each other paralyse each other). A pawn that has
//! just made its two-step is observed by an opposing pawn that could take it en passant.
//! A paralysed unit cannot move or capture and gives no check, but it still paralyses.
//! Kings are never paralysed and observe as usual.
//!
//! Check: a king is attacked when an opposing unit that is not paralysed could capture it.
//! A move is legal when, in the position after it (paralysis judged afresh there), the
//! mover's king is not attacked in that sense; castling moreover not out of or through
//! such an attack. A move can therefore parry a check by paralysing the checking unit.

use super::{Rules, orthodox};
use crate::core::bitboard::{KNIGHT, bishop_attacks, pawn_attacks, rook_attacks};
use crate::core::board::{PAWN_IDX, piece_attacks};
use crate::core::piece::part;
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Square, Squares, bb};
use crate::moves::{Move, MoveKind, MoveList, Step};
use crate::position::Position;
use std::ops::ControlFlow;

/// Madrasi.
pub struct Madrasi;

impl super::ConditionRules for Madrasi {
    const NAME: &'static str = "madrasi";
    const ALIASES: &'static [&'static str] = &["madrasi"];
    const TITLE: Option<&'static str> = Some("Madrasi");
    const CHEAP_REPLAY: bool = true;
    /// Paralysis only takes moves and attacks away, and never from a king: every mate or
    /// stalemate picture of the final-position cuts is still necessary. A piece may be
    /// immobile by paralysis, so the immobile-pieces test does not apply
    /// (`docs/solving.md`, "Under the conditions").
    const HELP_CUTS: super::HelpCuts = super::HelpCuts {
        final_position: true,
        immobile: false,
        shared_moves: true,
        standing_checks: false,
        walls: false,
    };

    fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        each_pseudo_legal(pos, rules, &mut |m| {
            let child = pos.make(m);
            if legal_child(&child) {
                f(m, &child)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
        let _ = each_pseudo_legal(pos, rules, &mut |m| {
            list.push(m);
            ControlFlow::Continue(())
        });
    }

    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        if m.kind == MoveKind::Castle {
            return castlings(pos, rules, &mut super::stop_at(m)).is_break();
        }
        orthodox::is_pseudo_legal(pos, rules, m) && !paralysed(pos, m.from)
    }

    /// A move that is legal in orthodox chess is legal here too (an attack by an active
    /// unit is an orthodox attack), and orthodox legality is plain without playing the move
    /// for a unit other than the king that is not pinned, when no unit checks orthodoxly.
    /// Only the other moves are played.
    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        let us = pos.side;
        let ksq = pos.king(us);
        let board = &pos.board;
        let own = board.by_color[us.idx()];
        let quiet = ksq != NO_SQUARE
            && board.attackers_to(ksq, us.flip(), board.occupied()) == 0;
        let active = own & !frozen(pos);
        // Pawns that may take en passant are played (target sets leave it out).
        let ep_takers = if pos.ep == NO_SQUARE {
            0
        } else {
            crate::core::bitboard::pawn_attacks(us.flip(), pos.ep)
        };
        // Units whose orthodox moves are all legal: counted from target sets.
        let bulk = if quiet {
            active & !orthodox::pinned(pos) & !bb(ksq) & !ep_takers
        } else {
            0
        };
        let mut n = if bulk != 0 {
            orthodox::count_legal_from(pos, rules, bulk, false)
        } else {
            0
        };
        let mut play = |m: Move| {
            n += u64::from(legal_child(&pos.make(m)));
            ControlFlow::Continue(())
        };
        for from in Squares(active & !bulk) {
            let _ = orthodox::each_piece_move(pos, rules, from, &mut play);
        }
        let _ = castlings(pos, rules, &mut play);
        n
    }

    fn play(pos: &Position, _: &Rules, m: Move) -> Option<Position> {
        Some(pos.make(m)).filter(legal_child)
    }

    fn in_check(pos: &Position, _: &Rules) -> bool {
        let k = pos.king(pos.side);
        k != NO_SQUARE && attacked(pos, k, pos.side.flip())
    }

    fn other_side_in_check(pos: &Position, _: &Rules) -> bool {
        !legal_child(pos)
    }

    fn king_capture(pos: &Position, by: Color, _: &Rules) -> Option<Vec<Step>> {
        let k = pos.king(by.flip());
        if k == NO_SQUARE {
            return None;
        }
        let from = Squares(active_attackers(pos, k, by)).next()?;
        Some(vec![Step {
            from,
            to: k,
            kind: pos.board.kind_at(from)?,
            promo: None,
            capture: true,
            castle: false,
        }])
    }
}

/// The pawn that has just made its two-step, when an opposing pawn could take it en
/// passant (it is then observed by that pawn).
fn two_stepped_pawn(pos: &Position) -> Square {
    if pos.ep == NO_SQUARE {
        NO_SQUARE
    } else {
        (pos.ep as i8 - pos.side.forward()) as Square
    }
}

/// The paralysed units of the side to move. Units of the orthodox kinds other than the
/// king are found from their kind's sets: one of ours of a kind is paralysed when one of
/// theirs of that kind observes it, that is (observation being mutual within a kind) when
/// it stands on a square that unit attacks. The others, one by one ([`paralysed`]). (The
/// pawn that just made its two-step is the other side's, never one of these.)
fn frozen(pos: &Position) -> Bitboard {
    let board = &pos.board;
    let (own, them) = (
        board.by_color[pos.side.idx()],
        board.by_color[pos.side.flip().idx()],
    );
    let occ = board.occupied();
    // The units made of exactly the parts `parts`: one kind.
    let exact = |parts: u8| {
        (0..part::COUNT).fold(!0, |b, i| {
            if parts >> i & 1 != 0 {
                b & board.by_part[i]
            } else {
                b & !board.by_part[i]
            }
        })
    };
    let them_c = pos.side.flip();
    // Each kind's units, and the squares their units of `them` attack.
    let seen = |units: Bitboard, attacks: &dyn Fn(Square) -> Bitboard| {
        Squares(units & them).fold(0, |a, t| a | attacks(t))
    };
    let pawns = board.by_part[PAWN_IDX];
    let knights = exact(part::KNIGHT);
    let bishops = exact(part::BISHOP);
    let rooks = exact(part::ROOK);
    let queens = exact(part::BISHOP | part::ROOK);
    let done = pawns | knights | bishops | rooks | queens;
    let mut out = 0;
    for (units, attacks) in [
        (pawns, &(|t| pawn_attacks(them_c, t)) as &dyn Fn(Square) -> Bitboard),
        (knights, &|t| KNIGHT[t as usize]),
        (bishops, &|t| bishop_attacks(t, occ)),
        (rooks, &|t| rook_attacks(t, occ)),
        (queens, &|t| bishop_attacks(t, occ) | rook_attacks(t, occ)),
    ] {
        if units & own != 0 {
            out |= units & own & seen(units, attacks);
        }
    }
    for s in Squares(own & !done) {
        if paralysed(pos, s) {
            out |= bb(s);
        }
    }
    out
}

/// Is the unit on `s` paralysed (observed by an opposing unit of its kind)?
pub fn paralysed(pos: &Position, s: Square) -> bool {
    let board = &pos.board;
    let Some(p) = board.get(s) else {
        return false;
    };
    if p.kind == Kind::King {
        return false;
    }
    if p.kind == Kind::Pawn && s == two_stepped_pawn(pos) {
        return true;
    }
    // Observation is mutual for units of one kind (a white pawn on s attacks t exactly
    // when a black pawn on t attacks s), so look from `s` with the unit's own walk.
    let them = board.by_color[p.color.flip().idx()];
    Squares(piece_attacks(s, p.color, p.kind, board.occupied()) & them)
        .any(|t| board.kind_at(t) == Some(p.kind))
}

/// The units of `by` that attack `s` and are not paralysed.
fn active_attackers(pos: &Position, s: Square, by: Color) -> Bitboard {
    let board = &pos.board;
    let mut out = 0;
    for a in Squares(board.attackers_to(s, by, board.occupied())) {
        if !paralysed(pos, a) {
            out |= bb(a);
        }
    }
    out
}

/// Is `s` attacked by a unit of `by` that is not paralysed?
fn attacked(pos: &Position, s: Square, by: Color) -> bool {
    active_attackers(pos, s, by) != 0
}

/// Is the king of the side that just moved safe?
fn legal_child(child: &Position) -> bool {
    let mover = child.side.flip();
    let k = child.king(mover);
    k == NO_SQUARE || !attacked(child, k, child.side)
}

/// The moves of the units that are not paralysed, and the castlings.
fn each_pseudo_legal(
    pos: &Position,
    rules: &Rules,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let frozen = frozen(pos);
    orthodox::each_pseudo_legal(pos, rules, &mut |m| {
        if m.kind == MoveKind::Castle || frozen & bb(m.from) != 0 {
            ControlFlow::Continue(())
        } else {
            emit(m)
        }
    })?;
    castlings(pos, rules, emit)
}

/// Castlings: as in orthodox chess, with Madrasi's attack test for the king's square and
/// the square it passes (the square it reaches is judged by the legality test).
fn castlings(
    pos: &Position,
    rules: &Rules,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let them = pos.side.flip();
    orthodox::castlings_with(pos, rules, |s| attacked(pos, s, them), emit)
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    /// The counted moves (plain moves counted unplayed) are the moves `for_each_legal`
    /// plays, at every node of random games (paralysis, pins, checks).
    #[test]
    fn counted_moves_are_the_played_moves() {
        let r = Rules::new(Condition::Madrasi);
        let roots = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/2b5/8/3B4/1n2N3/8/3R4/r3K3 w - - 0 1",
            "k7/8/8/3q4/2(n)5/8/3Q4/3K2(N)1 w - - 0 1",
        ];
        crate::rules::assert_counts_are_played_moves(&r, &roots);
    }

    /// The paralysed units found from the kinds' sets are those found unit by unit, at
    /// every node of random games (every orthodox kind, fairy units, en passant).
    #[test]
    fn paralysed_units_from_sets_are_those_found_one_by_one() {
        use crate::core::{Squares, bb};
        let r = Rules::new(Condition::Madrasi);
        let roots = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "k7/8/8/3q4/2(n)5/8/3Q4/3K2(N)1 w - - 0 1",
            "1k6/2p1(am)3/8/1P1P4/8/2(am)2q2/Q7/4K3 b - - 0 1",
        ];
        let (mut seed, mut frozen_seen) = (0x9E37_79B9_7F4A_7C15u64, 0);
        for fen in roots {
            for _ in 0..60 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..16 {
                    let own = pos.board.by_color[pos.side.idx()];
                    let one_by_one = Squares(own)
                        .filter(|&s| super::paralysed(&pos, s))
                        .fold(0, |a, s| a | bb(s));
                    assert_eq!(super::frozen(&pos), one_by_one, "{}", pos.to_fen());
                    frozen_seen += one_by_one.count_ones();
                    let moves = r.legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let i = crate::core::xorshift(&mut seed) % moves.len() as u64;
                    pos = moves[i as usize].1;
                }
            }
        }
        assert!(frozen_seen > 1000, "{frozen_seen}");
    }

    fn count(fen: &str) -> u64 {
        let r = Rules::new(Condition::Madrasi);
        r.count_legal(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn a_paralysed_rook_still_castles() {
        // The rooks h1 and h8 paralyse each other; Popeye 4.104 lists 8 moves for White
        // (Condition Madrasi, stipulation ~1): the five king moves, 0-0, a3, a4.
        assert_eq!(count("k6r/p7/8/8/8/8/P7/4K2R w K - 0 1"), 8);
    }

    #[test]
    fn a_square_seen_only_by_a_paralysed_unit_is_not_attacked() {
        // The bishops a6 and c4 paralyse each other, so f1 and e2 are free: Popeye lists
        // 17 moves, Ke1-f1, Ke1-e2 and 0-0 among them.
        assert_eq!(count("k7/8/B7/8/2b5/8/P7/4K2R w K - 0 1"), 17);
        // Without the white bishop, the black bishop controls e2 and f1: 14 moves.
        assert_eq!(count("k7/8/8/8/2b5/8/P7/4K2R w K - 0 1"), 14);
    }

    #[test]
    fn paralysing_the_checker_parries_the_check() {
        // The black rook e8 checks e1. Rd1-d8 would not help orthodoxly, but a white rook
        // reaching the e8 rook's lines paralyses it: Rd1-d8 observes e8.
        let r = Rules::new(Condition::Madrasi);
        let pos = Position::from_fen("k3r3/8/8/8/8/8/8/3RK3 w - - 0 1").unwrap();
        assert!(r.in_check(&pos));
        let legal = r.legal_moves(&pos);
        assert!(legal.iter().any(|(m, c)| m.to == 59 && !r.in_check(&c.null_move())));
        // Rd1-d2 leaves the rook e8 unobserved: illegal.
        assert!(!legal.iter().any(|(m, _)| m.from == 3 && m.to == 11));
    }
}
