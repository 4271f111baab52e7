//! Series-help stalemates: every unit of the stalemated side walled in where it ends.
//!
//! In `ser-h=N` the loser (the series side) makes all the moves but the winner's last one.
//! The other cuts bound each unit or each square on its own, so they let a unit be stopped
//! by a wall that is itself free to move (BENCHMARKS.md, "Help stalemates: three bounds
//! tried this stop and dropped"). This test looks for one final arrangement of all the
//! loser's units at once, as Popeye's intelligent mode enumerates final positions, but
//! only as a cut: it rules a king square out when no arrangement fits, and never decides
//! that one does.
//!
//! It runs where the winner has no unit that moves along lines (no bishop, rook, queen,
//! nightrider or compound with one of their moves, no pawn one step from promoting), so no
//! loser unit can be pinned in the final position. (With riders the pins it has to allow
//! left it too weak to pay: BENCHMARKS.md, "Series-help stalemates: the loser walled in".)
//!
//! With the loser to move, `l` of its moves left and then one move of the winner, a
//! stalemate F after that move has, for the loser's king on `k`:
//!
//! 1. The king's walk to `k` and each other unit's way to its square in F (as a pawn, or as
//!    the piece a pawn promotes to) cost at least their distances on an empty board
//!    (`Reach::far`, `PawnForms`: a pawn's way counts captures, unless the winner has
//!    nothing but its king to take), and each loser move moves one unit (no castling: the
//!    test does not run while there are rights), so the distances add up to at most `l`.
//!    A unit the winner's last move captures is gone (one at most, anywhere: an
//!    en-passant capture takes it beside the square moved to).
//! 2. Each square next to `k` holds a loser unit, or the winner attacks it in F (an
//!    unprotected winner unit on it could be taken). The winner's units stand where they
//!    stand now but one, the mover, which stands within one move of its square; each
//!    attacks at most what it attacks from there on an empty board (a unit the loser took
//!    attacks nothing, which is less).
//! 3. No other unit of the loser can move, and none is pinned. So a piece on `s` has a
//!    loser unit on each first square of its moves (`Reach::steps`): an empty square would
//!    be a move, a winner unit a capture (never the winner's king, which the piece would
//!    then attack after the winner's own move). A pawn has a unit in front of it: a loser
//!    unit, or a winner unit, which can stand only where some winner unit can within one
//!    move.
//!
//! So the test searches arrangements: the squares next to `k` that the winner cannot
//! attack, and the first squares of each unit placed, must each get a loser unit of their
//! own, which brings its own first squares; the units left over are placed anywhere within
//! the budget (or are the one captured). Every stalemate reachable from the position
//! satisfies 1-3, so where no arrangement does, none is reachable. A search that takes
//! more than `STEPS` steps gives up and keeps the square (a kept square rules nothing
//! out).

use super::{MAX_D, NONE, Reach, idx, pawn_forms_table};
use crate::core::bitboard::KING;
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Squares, bb};
use crate::position::Position;

/// The most search steps one position's test takes, over all its king squares; beyond
/// them it keeps every square left.
const STEPS: u32 = 4_000;

/// The forms kept per unit (a pawn: as a pawn, then as each promotion piece); a unit with
/// more turns the test off.
const FORMS: usize = 8;

/// The loser's units besides its king, at most 16 (a position with more is not tested).
const UNITS: usize = 16;

/// One form of a unit: the kind it ends as, its moves to each square (`NONE`: never), and
/// the squares within each number of moves.
type Form<'a> = (Kind, &'a [u8; 64], &'a [Bitboard; MAX_D + 1]);

/// The search of one king square and one winner mover.
struct Walls<'a> {
    reach: &'a Reach,
    loser: Color,
    forms: [[Option<Form<'a>>; FORMS]; UNITS],
    /// [unit][square]: the fewest moves of any of its forms.
    least: [[u8; 64]; UNITS],
    /// Squares a winner unit can stand on in the final position.
    winner_may: Bitboard,
    /// Search steps left.
    steps: u32,
}

impl Walls<'_> {
    /// The squares a unit of kind `kind` on `s` needs loser units on, to have no move.
    fn needs(&self, kind: Kind, s: u8) -> Bitboard {
        if kind == Kind::Pawn {
            let ahead = s as i8 + self.loser.forward();
            if !(0..64).contains(&ahead) || self.winner_may & bb(ahead as u8) != 0 {
                0
            } else {
                bb(ahead as u8)
            }
        } else {
            self.reach.steps[kind as usize][s as usize]
        }
    }

    /// Can the units of `left` (bit i: unit i) be placed, at most `budget` moves in all,
    /// on squares outside `occupied`, one of them captured unless `taken`, so that every
    /// square of `need` holds a unit and each unit placed has its own needs met?
    fn place(
        &mut self,
        occupied: Bitboard,
        need: Bitboard,
        left: u16,
        budget: u8,
        taken: bool,
    ) -> bool {
        if self.steps == 0 {
            return true;
        }
        self.steps -= 1;
        let open = need & !occupied;
        if open != 0 {
            return self.fill(open, (occupied, need), left, budget, taken);
        }
        if left == 0 {
            return true;
        }
        // The unit left with the fewest places where it could stand walled in (the squares
        // it needs filled fewer than the other units): a unit with none can only be the
        // one captured.
        let (mut pick, mut fewest, mut none) = (0usize, u32::MAX, None);
        for u in Squares(left as u64) {
            let n = self.places(u as usize, occupied, left, budget, fewest);
            if n == 0 {
                if taken || none.is_some() {
                    return false;
                }
                none = Some(u as usize);
            } else if n < fewest {
                (pick, fewest) = (u as usize, n);
            }
        }
        if let Some(u) = none {
            return self.place(occupied, need, left & !(1 << u), budget, true);
        }
        let rest = left & !(1 << pick);
        let others = rest.count_ones();
        let forms = self.forms[pick];
        for cheap in [true, false] {
            for &(kind, cost, within) in forms.iter().flatten() {
                let squares = if cheap {
                    within[0]
                } else {
                    within[budget as usize] & !within[0]
                };
                for s in Squares(squares & !occupied) {
                    let more = self.needs(kind, s);
                    if (more & !occupied).count_ones() > others {
                        continue;
                    }
                    let c = cost[s as usize];
                    if self.place(occupied | bb(s), need | more, rest, budget - c, taken) {
                        return true;
                    }
                }
            }
        }
        !taken && self.place(occupied, need, rest, budget, true)
    }

    /// The places (form and square) within `budget` where unit `u` needs no more squares
    /// filled than the other units of `left` number, counted up to `enough`.
    fn places(&self, u: usize, occupied: Bitboard, left: u16, budget: u8, enough: u32) -> u32 {
        let others = left.count_ones() - 1;
        let mut n = 0;
        for &(kind, _, within) in self.forms[u].iter().flatten() {
            for s in Squares(within[budget as usize] & !occupied) {
                if (self.needs(kind, s) & !occupied).count_ones() <= others {
                    n += 1;
                    if n >= enough {
                        return n;
                    }
                }
            }
        }
        n
    }

    /// [`Self::place`] with squares of `need` still empty (`open`): each needs its own
    /// unit, at least the cheapest unit's moves to it; the square with the fewest
    /// candidates is filled first.
    fn fill(
        &mut self,
        open: Bitboard,
        (occupied, need): (Bitboard, Bitboard),
        left: u16,
        budget: u8,
        taken: bool,
    ) -> bool {
        if open.count_ones() > left.count_ones() {
            return false;
        }
        let (mut best, mut fewest, mut bound) = (NO_SQUARE, u32::MAX, 0u32);
        for r in Squares(open) {
            let (mut n, mut least) = (0u32, NONE);
            for u in Squares(left as u64) {
                let c = self.least[u as usize][r as usize];
                if c <= budget {
                    n += 1;
                    least = least.min(c);
                }
            }
            if n == 0 {
                return false;
            }
            bound += u32::from(least);
            if n < fewest {
                (best, fewest) = (r, n);
            }
        }
        if bound > u32::from(budget) {
            return false;
        }
        for u in Squares(left as u64) {
            let forms = self.forms[u as usize];
            for &(kind, cost, _) in forms.iter().flatten() {
                let c = cost[best as usize];
                if c <= budget {
                    let more = self.needs(kind, best);
                    let rest = left & !(1 << u);
                    // The squares still to fill then, each with its own unit.
                    let open = (open | more) & !occupied & !bb(best);
                    if open.count_ones() > rest.count_ones() {
                        continue;
                    }
                    if self.place(occupied | bb(best), need | more, rest, budget - c, taken) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// A winner unit: what it attacks and where it stands, now (`[0]`) and within one move
/// (`[1]`), on an empty board.
#[derive(Clone, Copy, Default)]
struct Winner {
    attacks: [Bitboard; 2],
    stands: [Bitboard; 2],
}

/// The squares the winner's units attack, and those they may stand on, in the final
/// position with unit `m` moved (all of them where `m` is their number).
fn after_move(winners: &[Winner], m: usize) -> (Bitboard, Bitboard) {
    winners.iter().enumerate().fold((0, 0), |(a, s), (i, w)| {
        let moved = usize::from(i == m || m == winners.len());
        (a | w.attacks[moved], s | w.stands[moved])
    })
}

/// Does the winner have a unit that could pin in the final position: one that moves along
/// lines, or a pawn that may promote with its one move?
fn may_pin(pos: &Position, winner: Color) -> bool {
    use crate::core::board::{BISHOP_IDX, NIGHT_IDX, PAWN_IDX, ROOK_IDX};
    let p = &pos.board.by_part;
    let own = pos.board.by_color[winner.idx()];
    let seventh = 0xFFu64 << (8 * if winner == Color::White { 6 } else { 1 });
    (p[BISHOP_IDX] | p[ROOK_IDX] | p[NIGHT_IDX]) & own != 0 || p[PAWN_IDX] & own & seventh != 0
}

impl Reach {
    /// The search of [`Self::walled_in`] for the loser's units besides its king (each
    /// unit's forms and least costs); `None` where there are too many units or forms.
    fn loser_units(&self, pos: &Position, loser: Color) -> Option<Walls<'_>> {
        let board = &pos.board;
        let winner = loser.flip();
        let mut forms = [[None; FORMS]; UNITS];
        let mut least = [[NONE; 64]; UNITS];
        let units = board.by_color[loser.idx()] & !bb(pos.king(loser));
        if units.count_ones() as usize > UNITS {
            return None;
        }
        // With nothing but the winner's king to take, the loser's pawns only push.
        let pawns = if board.by_color[winner.idx()] == bb(pos.king(winner)) {
            self.pawn_pushes.get_or_init(|| {
                [Color::White, Color::Black]
                    .map(|c| pawn_forms_table(c, &self.promotions, &self.far, false))
            })
        } else {
            &self.pawn_forms
        };
        for (u, x) in Squares(units).enumerate() {
            let kind = board.kind_at(x).expect("occupied");
            if kind == Kind::Pawn {
                if self.promotions.len() + 1 > FORMS {
                    return None;
                }
                let p = &pawns[loser.idx()][x as usize];
                forms[u][0] = Some((Kind::Pawn, &p.as_pawn.0, &p.as_pawn.1));
                for (i, (&q, t)) in self.promotions.iter().zip(&p.promoted).enumerate() {
                    forms[u][i + 1] = Some((q, &t.0, &t.1));
                }
            } else {
                let i = idx(loser, kind);
                forms[u][0] = Some((kind, &self.far[i][x as usize], &self.occupy[i][x as usize]));
            }
            for &(_, cost, _) in forms[u].iter().flatten() {
                for (l, &c) in least[u].iter_mut().zip(cost.iter()) {
                    *l = (*l).min(c);
                }
            }
        }
        Some(Walls {
            reach: self,
            loser,
            forms,
            least,
            winner_may: 0,
            steps: STEPS,
        })
    }

    /// Series-help stalemates (see the module comment): the king squares of `squares`
    /// where the loser, to move with `l` moves left before the winner's one move, can
    /// still end walled in.
    pub fn walled_in(&self, pos: &Position, loser: Color, l: usize, squares: Bitboard) -> Bitboard {
        let ksq = pos.king(loser);
        let winner = loser.flip();
        if !self.walls || pos.castling != 0 || l > MAX_D || ksq == NO_SQUARE || may_pin(pos, winner)
        {
            return squares;
        }
        let Some(mut search) = self.loser_units(pos, loser) else {
            return squares;
        };
        let board = &pos.board;
        // The winner's units: what each attacks and where it stands, now and within one
        // move.
        let mut winners = [Winner::default(); 16];
        let mut n = 0;
        for s in Squares(board.by_color[winner.idx()]) {
            if n == winners.len() {
                return squares;
            }
            let i = idx(winner, board.kind_at(s).expect("occupied"));
            winners[n] = Winner {
                attacks: [self.attack[i][s as usize][0], self.attack[i][s as usize][1]],
                stands: [bb(s), self.occupy[i][s as usize][1]],
            };
            n += 1;
        }
        let winners = &winners[..n];
        let units = (board.by_color[loser.idx()] & !bb(ksq)).count_ones();
        let all = if units == 0 { 0 } else { (1u32 << units) - 1 } as u16;
        let mut out = 0;
        for k in Squares(squares & self.ball[ksq as usize][l]) {
            let walk = self.far[idx(loser, Kind::King)][ksq as usize][k as usize];
            let budget = (l as u8).saturating_sub(walk);
            // The winner's mover, each in turn (none where the winner has no units); first
            // all of them moving at once, which needs the fewest squares: where that
            // fails, each single mover does.
            let mut fit = |m: usize| {
                let (attacks, stands) = after_move(winners, m);
                search.winner_may = stands;
                search.place(bb(k), KING[k as usize] & !attacks, all, budget, false)
            };
            if fit(n) && (n <= 1 || (0..n).any(fit)) {
                out |= bb(k);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse_square;
    use crate::core::piece::{ALL_KINDS, ORTHODOX_PROMOTIONS};
    use crate::rules::{Condition, HelpCuts, Rules};

    /// Popeye 4.104's solution of ser14_0547 (ser-h=14, `tests/data/popeye`): Black's
    /// fourteen moves, then Ke1-e2 stalemates. Every position on the way, with the moves
    /// left, keeps the final king square g1; one of them has no move to spare (the queen's
    /// way round by a8), so a budget of one move less loses it.
    #[test]
    fn the_solution_of_ser14_0547_keeps_its_final_king_square() {
        let rules = Rules::new(Condition::Orthodox);
        let reach = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let mut pos = Position::from_fen("2k5/2bb4/8/6p1/6p1/5qp1/8/4K3 b - - 0 1").unwrap();
        let line = [
            "f3a8", "c8b7", "b7c6", "c6d5", "d5e4", "e4f3", "f3g2", "g2g1", "a8h1", "g3g2", "c7h2",
            "g4g3", "d7h3", "g5g4",
        ];
        let g1 = bb(parse_square("g1").unwrap());
        for (i, m) in line.iter().enumerate() {
            let left = line.len() - i;
            assert_ne!(
                reach.walled_in(&pos, Color::Black, left, !0) & g1,
                0,
                "before {m}"
            );
            let (from, to) = (parse_square(&m[..2]), parse_square(&m[2..]));
            let (_, mut next) = rules
                .legal_moves(&pos)
                .into_iter()
                .find(|(mv, _)| Some(mv.from) == from && Some(mv.to) == to)
                .expect("legal");
            next.side = Color::Black;
            pos = next;
        }
        assert_ne!(reach.walled_in(&pos, Color::Black, 0, !0) & g1, 0);
    }
}
