//! Pocket Mutation chess (Mike Nelson): orthodox movement and captures, no castling, and
//! each side has a pocket holding at most one piece.
//!
//! - *Pocketing* (a whole move): with an empty pocket, take an own piece other than the king
//!   off the board. Taken from ranks 1-7 (seen from its owner) it may mutate into any piece
//!   of the same class, itself included; taken from the last rank it becomes a piece of the
//!   next higher class (D14; class 8 stays as it is). Each choice is a move.
//! - *Dropping* (a whole move): put the pocketed piece on any empty square except the own
//!   last rank.
//! - Pawns never promote by moving; a pawn on its last rank cannot move (it can be
//!   pocketed, which promotes it to class 2). From its first rank a pawn steps one square;
//!   from its second rank it may make the two-step however it got there. En passant as usual.
//! - Legality is orthodox: a pocketing that exposes the own king (a pinned piece) or leaves
//!   a check unanswered is illegal; a drop may block a check, and give check or mate.
//! - D15: in a game from the initial array White may not use the pocket on the first move
//!   (`perft --game-start`, replay); problem positions have no such restriction.
//!
//! The class table is `KindInfo::class` in `core/piece.rs` (the one place it is written).

use super::{Rules, orthodox};
use crate::core::piece::ALL_KINDS;
use crate::core::{Kind, Square, Squares, bb};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use std::ops::ControlFlow;

/// Pocket Mutation chess.
pub struct PocketMutation;

impl super::ConditionRules for PocketMutation {
    const NAME: &'static str = "pocket-mutation";
    const ALIASES: &'static [&'static str] = &["pocket-mutation", "pocketmutation", "pocket"];
    const TITLE: Option<&'static str> = Some("Pocket Mutation Chess");
    const CHEAP_REPLAY: bool = true;
    const CASTLING: bool = false;
    const PROMOTES_BY_MOVING: bool = false;

    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        for_each_legal(pos, rules, f)
    }

    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        is_pseudo_legal(pos, rules, m)
    }

    /// The board moves counted as orthodox chess counts them, then the pocket moves
    /// without playing them where legality is plain: a pocketing (taking a unit off the
    /// board) never answers a check and is legal out of check exactly when the unit is not
    /// pinned; a drop (adding a unit) is legal out of check. Drops in check are played.
    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        orthodox::count_legal(pos, rules) + count_pocket_moves(pos)
    }

    /// Pawns may stand anywhere: dropped on the first rank, moved to the last.
    fn allows_pawn_on_relative_rank(_: u8) -> bool {
        true
    }

    /// D15: White may not use the pocket on the first move of a game.
    fn allowed_at_game_start(pos: &Position, m: Move) -> bool {
        !(pos.side == crate::core::Color::White
            && matches!(m.kind, MoveKind::ToPocket | MoveKind::FromPocket))
    }
}

/// The kinds a piece of kind `k` may become when pocketed from a square of relative rank
/// `rel` (7 = its last rank: the next class; otherwise its own class).
pub fn mutations(k: Kind, rel: u8) -> impl Iterator<Item = Kind> {
    let class = k.info().class;
    let target = if rel == 7 { (class + 1).min(8) } else { class };
    // The last class has no next one: a piece of it pocketed from its last rank stays.
    let stays = rel == 7 && class == 8;
    ALL_KINDS.iter().copied().filter(move |x| {
        if stays {
            *x == k
        } else {
            *x != Kind::King && x.info().class == target
        }
    })
}

/// Pocketings and drops of the side to move (pseudo-legal).
pub fn each_pocket_move(
    pos: &Position,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let board = &pos.board;
    match pos.pockets[us.idx()] {
        None => {
            let own = board.by_color[us.idx()] & !bb(pos.king(us));
            for s in Squares(own) {
                let k = board.kind_at(s).expect("own square is occupied");
                for m in mutations(k, us.relative_rank(s)) {
                    emit(Move {
                        from: s,
                        to: s,
                        promo: Some(m),
                        kind: MoveKind::ToPocket,
                        chain: 0,
                    })?;
                }
            }
        }
        Some(_) => {
            for s in Squares(!board.occupied() & !us.last_rank_squares()) {
                emit(Move {
                    from: s as Square,
                    to: s as Square,
                    promo: None,
                    kind: MoveKind::FromPocket,
                    chain: 0,
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of legal pocketings and drops (see `count_legal` above).
fn count_pocket_moves(pos: &Position) -> u64 {
    let us = pos.side;
    let board = &pos.board;
    if pos.in_check() {
        if pos.pockets[us.idx()].is_none() {
            return 0;
        }
        let mut n = 0;
        let _ = each_pocket_move(pos, &mut |m| {
            n += u64::from(orthodox::is_legal_child(&pos.make(m)));
            ControlFlow::Continue(())
        });
        return n;
    }
    if pos.pockets[us.idx()].is_some() {
        return u64::from((!board.occupied() & !us.last_rank_squares()).count_ones());
    }
    let pinned = orthodox::line_blockers(pos, us, us, us.flip());
    let own = board.by_color[us.idx()] & !bb(pos.king(us)) & !pinned;
    Squares(own)
        .map(|s| {
            let k = board.kind_at(s).expect("own square is occupied");
            mutations(k, us.relative_rank(s)).count() as u64
        })
        .sum()
}

/// Every legal move with its result: board moves, then pocket moves.
pub fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
where
    F: FnMut(Move, &Position) -> ControlFlow<()>,
{
    orthodox::each_legal_unplayed(pos, rules, &mut |m| f(m, &pos.make(m)))?;
    each_pocket_move(pos, &mut |m| {
        let child = pos.make(m);
        if orthodox::is_legal_child(&child) {
            f(m, &child)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// Could `m` have been generated in `pos`?
pub fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
    match m.kind {
        MoveKind::ToPocket | MoveKind::FromPocket => {
            each_pocket_move(pos, &mut super::stop_at(m)).is_break()
        }
        _ => orthodox::is_pseudo_legal(pos, rules, m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Kind::*;
    use crate::rules::{Condition, perft_game_start};

    /// The counted moves (board moves in bulk, pocket moves by their legality rule) are
    /// the moves `for_each_legal` plays, at every node of random games (pins, checks,
    /// nightrider lines, full and empty pockets).
    #[test]
    fn counted_moves_are_the_played_moves() {
        let r = Rules::new(Condition::PocketMutation);
        let roots = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
            "4k3/8/8/1(n)6/3P4/8/2N5/R3K2R[q] w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Rb] w - - 0 1",
            "k7/8/8/3q4/8/8/3B4/3K4[N] w - - 0 1",
        ];
        crate::rules::assert_counts_are_played_moves(&r, &roots);
    }

    #[test]
    fn mutation_choices_follow_the_class_table() {
        assert_eq!(mutations(Pawn, 1).collect::<Vec<_>>(), [Pawn]);
        assert_eq!(mutations(Knight, 0).collect::<Vec<_>>(), [Knight, Bishop]);
        assert_eq!(mutations(Rook, 0).collect::<Vec<_>>(), [Rook, Nightrider, BishopKing]);
        assert_eq!(mutations(Queen, 0).collect::<Vec<_>>(),
            [Queen, Empress, BishopNightrider, PrincessKing]
        );
        // D14: from the last rank, the next class
        assert_eq!(mutations(Pawn, 7).collect::<Vec<_>>(), [Knight, Bishop]);
        assert_eq!(mutations(Amazon, 7).collect::<Vec<_>>(), [QueenNightrider]);
        assert_eq!(mutations(QueenNightrider, 7).collect::<Vec<_>>(), [QueenNightrider]);
    }

    /// White Kc1, Black Ka1, White's pocket Q: the drops on a3..a7, b1 and b2 mate (a3 from
    /// the independent implementation, the rest by hand), and nothing else does.
    #[test]
    fn drop_mates_are_the_complete_set_of_keys() {
        use crate::problem::TwinInstance;
        use crate::search::Stipulation;
        use crate::search::solve::{Settings, solve_twin};
        let pos = Position::from_fen("8/8/8/8/8/8/8/k1K5[Q] w - - 0 1").unwrap();
        let inst = TwinInstance {
            description: String::new(),
            continued: false,
            label: String::new(),
            position: pos,
            stipulation: Stipulation::parse("#1").unwrap(),
            condition: Condition::PocketMutation,
            exchanged: false,
        };
        let settings = Settings {
            options: Default::default(),
            threads: 1,
            hash_mb: 4,
            ..Settings::default()
        };
        let r = solve_twin(
            &inst.search_input(),
            &Rules::new(Condition::PocketMutation),
            &settings,
        );
        let mut keys: Vec<String> = r.keys.iter().map(|k| k.text.clone()).collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "Q@a3 #", "Q@a4 #", "Q@a5 #", "Q@a6 #", "Q@a7 #", "Q@b1 #", "Q@b2 #"
            ]
        );
    }

    #[test]
    fn pocketing_texts_and_no_castling() {
        let rules = Rules::new(Condition::PocketMutation);
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let texts: Vec<String> = rules
            .legal_moves(&pos)
            .into_iter()
            .map(|(m, _)| {
                crate::output::notation::move_body(
                    &rules,
                    &pos,
                    m,
                    crate::output::notation::Style::Long,
                )
            })
            .collect();
        assert!(!texts.iter().any(|t| t.starts_with("0-0")), "{texts:?}");
        assert!(
            texts.contains(&"Ra1->pocket".to_string())
                && texts.contains(&"Ra1->pocket=N".to_string())
        );
        // a pawn reaching its last rank stays a pawn, then is promoted by pocketing
        let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let (_, c) = rules
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| m.to == 56)
            .unwrap();
        assert_eq!(c.board.kind_at(56), Some(Pawn));
        let pos = Position::from_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let pocket: Vec<Option<Kind>> = rules
            .legal_moves(&pos)
            .into_iter()
            .filter(|(m, _)| m.kind == MoveKind::ToPocket)
            .map(|(_, c)| c.pockets[0])
            .collect();
        assert_eq!(pocket, [Some(Knight), Some(Bishop)]);
    }

    #[test]
    fn game_start_perft_matches_the_independent_figures() {
        // 20 and 920 (Black: 20 moves + 26 pocketings after each White first move).
        let rules = Rules::new(Condition::PocketMutation);
        let pos = Position::initial();
        assert_eq!(perft_game_start(&rules, &pos, 1), 20);
        assert_eq!(perft_game_start(&rules, &pos, 2), 920);
    }
}
