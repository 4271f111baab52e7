//! A cheap, sound cut for help and series play aiming at mate or stalemate (orthodox
//! movement only): a relaxed picture of the final position, on an empty board.
//!
//! In the final position the losing side's king stands on some square `k` it can reach
//! with the moves it has left; every square next to `k` is either held by one of its own
//! pieces or attacked by the winning side, and for mate `k` itself is attacked. Ignoring
//! every other piece (so riders are never blocked, pawns may step diagonally as if they
//! captured, every pawn may promote to every promotion piece) and letting each piece use
//! all the moves its side has left, the sets "squares a piece can occupy within d moves"
//! and "squares it can attack within d moves" only grow. When even these generous sets
//! leave no square `k` that works, no play of that length reaches the goal.
//!
//! Castling moves the king two squares and a rook at once, so the cut is skipped while any
//! castling right remains. Fairy pieces are covered: a compound's distances come from the
//! union of its parts' moves.

use crate::core::bitboard::{KING, pawn_attacks};
use crate::core::board::piece_attacks;
use crate::core::piece::{ALL_KINDS, KIND_COUNT, part};
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Squares, bb};
use crate::position::Position;

/// Distances 0..=MAX_D are tabled; a budget above it skips the cut.
const MAX_D: usize = 15;
type Within = [[Bitboard; MAX_D + 1]; 64];

pub struct Reach {
    /// [colour][kind][from][d]: squares the piece can stand on after at most d moves.
    occupy: Vec<Within>,
    /// [colour][kind][from][d]: squares the piece can attack after at most d moves.
    attack: Vec<Within>,
    /// [from][d]: king steps.
    ball: Within,
    /// [kind][square]: the first square of each of the piece's moves (a piece whose every
    /// first square holds one of its own pieces cannot move).
    steps: Vec<[Bitboard; 64]>,
}

fn idx(c: Color, k: Kind) -> usize {
    c.idx() * KIND_COUNT + k as usize
}

/// Breadth-first distances on an empty board, `step` giving the squares one move away.
fn dist(from: usize, step: impl Fn(u8) -> Bitboard) -> [u8; 64] {
    let mut d = [u8::MAX; 64];
    d[from] = 0;
    let mut frontier = bb(from as u8);
    let mut seen = frontier;
    let mut n = 0u8;
    while frontier != 0 {
        n += 1;
        let next = Squares(frontier).fold(0, |acc, s| acc | step(s)) & !seen;
        for s in Squares(next) {
            d[s as usize] = n;
        }
        seen |= next;
        frontier = next;
    }
    d
}

/// A non-pawn kind's distances.
fn piece_dist(k: Kind, from: usize) -> [u8; 64] {
    dist(from, |s| piece_attacks(s, Color::White, k, 0))
}

/// Pawn distances (as a pawn): one step forward or diagonally forward, two from the second
/// rank; a pawn stops on its last rank (it promotes there).
fn pawn_dist(c: Color, from: usize) -> [u8; 64] {
    let fwd = c.forward();
    dist(from, |s| {
        let rel = c.relative_rank(s);
        if rel == 7 {
            return 0;
        }
        let one = (s as i8 + fwd) as u8;
        let mut next = bb(one) | pawn_attacks(c, s);
        if rel == 1 {
            next |= bb((one as i8 + fwd) as u8);
        }
        next
    })
}

/// `[d]`: the union of `of(s)` over the squares `s` at most `d` moves away.
fn within(d: &[u8; 64], of: impl Fn(u8) -> Bitboard) -> [Bitboard; MAX_D + 1] {
    let mut out = [0; MAX_D + 1];
    for s in 0..64u8 {
        let ds = d[s as usize] as usize;
        if ds <= MAX_D {
            out[ds] |= of(s);
        }
    }
    for i in 1..=MAX_D {
        out[i] |= out[i - 1];
    }
    out
}

/// King moves between two squares on an empty board.
#[inline]
fn king_distance(a: u8, b: u8) -> usize {
    let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
    usize::from(fa.abs_diff(fb).max(ra.abs_diff(rb)))
}

/// Every square a king step away from some square of `b`.
#[inline]
fn king_spread(b: Bitboard) -> Bitboard {
    const NOT_A: Bitboard = !0x0101_0101_0101_0101;
    const NOT_H: Bitboard = !0x8080_8080_8080_8080;
    let side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | side;
    side | (row << 8) | (row >> 8)
}

impl Reach {
    /// Tables for the given promotion choices.
    pub fn new(promotions: &[Kind]) -> Reach {
        let n = 2 * KIND_COUNT;
        let mut occupy = vec![[[0; MAX_D + 1]; 64]; n];
        let mut attack = vec![[[0; MAX_D + 1]; 64]; n];
        for &k in ALL_KINDS.iter().filter(|&&k| k != Kind::Pawn) {
            for from in 0..64 {
                let d = piece_dist(k, from);
                let occ = within(&d, bb);
                let att = within(&d, |s| piece_attacks(s, Color::White, k, 0));
                for c in [Color::White, Color::Black] {
                    occupy[idx(c, k)][from] = occ;
                    attack[idx(c, k)][from] = att;
                }
            }
        }
        for c in [Color::White, Color::Black] {
            for from in 0..64 {
                let d = pawn_dist(c, from);
                let mut occ = within(&d, bb);
                let mut att = within(&d, |s| {
                    if c.relative_rank(s) == 7 {
                        0
                    } else {
                        pawn_attacks(c, s)
                    }
                });
                // Promotion on q after d[q] moves, then the new piece's moves.
                for q in 0..64usize {
                    let dq = d[q] as usize;
                    if c.relative_rank(q as u8) != 7 || dq > MAX_D {
                        continue;
                    }
                    for &k in promotions {
                        let po = &occupy[idx(c, k)][q];
                        let pa = &attack[idx(c, k)][q];
                        for i in dq..=MAX_D {
                            occ[i] |= po[i - dq];
                            att[i] |= pa[i - dq];
                        }
                    }
                }
                occupy[idx(c, Kind::Pawn)][from] = occ;
                attack[idx(c, Kind::Pawn)][from] = att;
            }
        }
        let mut ball = [[0; MAX_D + 1]; 64];
        for (from, b) in ball.iter_mut().enumerate() {
            let d = piece_dist(Kind::King, from);
            *b = within(&d, bb);
        }
        let mut steps = vec![[0; 64]; KIND_COUNT];
        for &k in ALL_KINDS.iter() {
            for (sq, t) in steps[k as usize].iter_mut().enumerate() {
                // With every square occupied, riders stop on their first square.
                *t = piece_attacks(sq as u8, Color::White, k, !0);
            }
        }
        Reach {
            occupy,
            attack,
            ball,
            steps,
        }
    }

    /// Can the goal (mate when `mate`, else stalemate) be reached against `loser`, with
    /// `win_moves` moves left for the other side and `lose_moves` for the loser? `false`
    /// only when it certainly cannot.
    pub fn goal_possible(
        &self,
        pos: &Position,
        loser: Color,
        win_moves: u32,
        lose_moves: u32,
        mate: bool,
    ) -> bool {
        let (w, l) = (win_moves as usize, lose_moves as usize);
        if w > MAX_D || l > MAX_D || pos.castling != 0 {
            return true;
        }
        let ksq = pos.king(loser);
        if ksq == NO_SQUARE {
            return true;
        }
        let board = &pos.board;
        let winner = loser.flip();
        // With one move left only one of the winner's pieces moves; the others attack
        // from where they stand. (Each table includes the squares attacked with fewer
        // moves, so the mover's present attacks are in its own set too.)
        let (mut standing, mut any_mover): (Bitboard, Bitboard) = (0, 0);
        let mut movers = [0 as Bitboard; 16];
        let mut n = 0;
        for s in Squares(board.by_color[winner.idx()]) {
            let k = board.kind_at(s).expect("occupied");
            let t = &self.attack[idx(winner, k)][s as usize];
            standing |= t[0];
            any_mover |= t[w];
            if n < movers.len() {
                movers[n] = t[w];
            }
            n += 1;
        }
        // layers[d]: squares some piece of the loser (not the king) can hold within d moves.
        let mut layers = [0; MAX_D + 1];
        let mut pieces = 0;
        for s in Squares(board.by_color[loser.idx()] & !bb(ksq)) {
            let k = board.kind_at(s).expect("occupied");
            let t = &self.occupy[idx(loser, k)][s as usize];
            for (d, layer) in layers.iter_mut().enumerate().take(l + 1) {
                *layer |= t[d];
            }
            pieces += 1;
        }
        let test = |guarded| self.king_square_exists(ksq, guarded, &layers, l, pieces, mate);
        let king_ok = if w == 1 && (2..=movers.len()).contains(&n) {
            movers[..n].iter().any(|&m| test(standing | m))
        } else {
            test(any_mover)
        };
        king_ok && (mate || self.others_can_be_immobile(pos, loser, w, l, &layers))
    }

    /// Stalemate: in the final position each of the loser's pieces other than its king and
    /// its pawns (a non-pawn piece stays one until captured) cannot move. Such a piece is
    /// captured (one winner move each), pinned (one winning line piece each: a piece with a
    /// rider's move, or a pawn that can promote in time), or every first square of its
    /// moves holds one of the loser's own pieces. The last needs a square `s` it reaches in
    /// `dx` moves whose first squares `T` other pieces fill with the remaining `l - dx`
    /// moves; on an empty board each square `t` of `T` costs at least the moves of the
    /// nearest piece that can get there (king included), and the sum must fit.
    fn others_can_be_immobile(
        &self,
        pos: &Position,
        loser: Color,
        w: usize,
        l: usize,
        layers: &[Bitboard; MAX_D + 1],
    ) -> bool {
        let board = &pos.board;
        let ksq = pos.king(loser);
        let others = Squares(board.by_color[loser.idx()] & !bb(ksq))
            .map(|x| (x, board.kind_at(x).expect("occupied")))
            .filter(|(_, k)| k.parts() & part::PAWN == 0);
        let mut near = None;
        let mut stuck = 0;
        for (x, k) in others {
            // near[d]: squares some loser piece (king included) can stand on within d moves.
            let near = near.get_or_insert_with(|| {
                let mut n = [0; MAX_D + 1];
                for d in 0..=l {
                    n[d] = layers[d] | self.ball[ksq as usize][d];
                }
                n
            });
            if !self.can_be_blocked(k, &self.occupy[idx(loser, k)][x as usize], l, near) {
                stuck += 1;
            }
        }
        if stuck == 0 {
            return true;
        }
        let winner = loser.flip();
        let mut pinners = 0;
        for s in Squares(board.by_color[winner.idx()]) {
            let k = board.kind_at(s).expect("occupied");
            let parts = k.parts();
            let rider = parts & (part::BISHOP | part::ROOK | part::NIGHT) != 0;
            let promotes = parts & part::PAWN != 0 && 7 - winner.relative_rank(s) as usize <= w + 1;
            pinners += usize::from(rider || promotes);
        }
        stuck <= w + pinners
    }

    /// Can a piece of kind `k` (`occ[d]`: squares it reaches within d moves) end on a square
    /// whose first squares the loser's pieces (`near[d]`) fill, all within `l` moves?
    fn can_be_blocked(
        &self,
        k: Kind,
        occ: &[Bitboard; MAX_D + 1],
        l: usize,
        near: &[Bitboard; MAX_D + 1],
    ) -> bool {
        let mut seen = 0;
        for dx in 0..=l {
            let budget = l - dx;
            for s in Squares(occ[dx] & !seen) {
                let t = self.steps[k as usize][s as usize];
                if t & !near[budget] != 0 {
                    continue;
                }
                // Each square of `t` costs the number of depths at which nobody reaches it.
                let cost: usize = (0..budget)
                    .map(|d| (t & !near[d]).count_ones() as usize)
                    .sum();
                if cost <= budget {
                    return true;
                }
            }
            seen = occ[dx];
        }
        false
    }

    /// Is there a square for the loser's king (at `ksq`, `l` moves left) whose flights are
    /// all held by its own pieces (`layers[d]`: squares one of its `pieces` other pieces
    /// can hold within d moves) or in `guarded`, and, for mate, that is itself guarded?
    fn king_square_exists(
        &self,
        ksq: u8,
        guarded: Bitboard,
        layers: &[Bitboard; MAX_D + 1],
        l: usize,
        pieces: u32,
        mate: bool,
    ) -> bool {
        let held = layers[l];
        let open = !(guarded | held);
        // Squares next to an open square.
        let bad = king_spread(open);
        let mut ok = self.ball[ksq as usize][l] & !bad;
        if mate {
            ok &= guarded;
        }
        if ok == 0 {
            return false;
        }
        // The loser's moves are shared: the king's walk to `k` plus, for every flight the
        // winner cannot attack, the moves of a distinct own piece to hold it. Each flight
        // costs at least its nearest piece's distance: the number of depths d < l at
        // which no piece reaches it yet.
        for k in Squares(ok) {
            let walk = king_distance(ksq, k);
            let flights = KING[k as usize] & !guarded;
            if flights.count_ones() > pieces {
                continue;
            }
            let cost: usize = walk
                + layers[..l]
                    .iter()
                    .map(|&layer| (flights & !layer).count_ones() as usize)
                    .sum::<usize>();
            if cost <= l {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::piece::ORTHODOX_PROMOTIONS;

    fn sq(s: &str) -> usize {
        crate::core::parse_square(s).unwrap() as usize
    }

    #[test]
    fn distances_on_an_empty_board() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS);
        let kn = &r.occupy[idx(Color::White, Kind::Knight)][sq("a1")];
        assert_eq!(kn[0], bb(sq("a1") as u8));
        assert!(kn[1] & bb(sq("b3") as u8) != 0);
        assert!(kn[1] & bb(sq("b2") as u8) == 0);
        // a1-b2 takes the knight four moves.
        assert!(kn[3] & bb(sq("b2") as u8) == 0);
        assert!(kn[4] & bb(sq("b2") as u8) != 0);
        // A bishop never reaches the other colour.
        let b = &r.attack[idx(Color::Black, Kind::Bishop)][sq("c1")];
        assert!(b[MAX_D] & bb(sq("c2") as u8) == 0);
        // A white pawn on b7 attacks f8... after promoting (b8=Q, then one move).
        let p = &r.attack[idx(Color::White, Kind::Pawn)][sq("b7")];
        assert!(p[0] & bb(sq("a8") as u8) != 0);
        assert!(p[1] & bb(sq("f4") as u8) != 0);
        assert!(p[0] & bb(sq("f4") as u8) == 0);
        // A black pawn on e2 occupies e1, d1 and f1 in one move and nothing behind it.
        let bp = &r.occupy[idx(Color::Black, Kind::Pawn)][sq("e2")];
        assert_eq!(
            bp[1],
            bb(sq("e2") as u8) | bb(sq("e1") as u8) | bb(sq("d1") as u8) | bb(sq("f1") as u8)
        );
        assert!(bp[5] & bb(sq("e3") as u8) != 0);
        // The king ball.
        assert_eq!(r.ball[sq("a1")][1].count_ones(), 4);
    }

    /// The king that stays where it is walks no moves: here Black's last series move
    /// (Sd6-b5) fills the king's last open flight, and Sf2-e4 mates.
    #[test]
    fn a_king_that_stays_costs_nothing() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS);
        let pos = Position::from_fen("8/8/1qbn3K/2kr4/1rpn4/8/5N2/8 b - - 0 1").unwrap();
        assert!(r.goal_possible(&pos, Color::Black, 1, 1, true));
        // With no move left, the open flight b5 stays open.
        assert!(!r.goal_possible(&pos, Color::Black, 1, 0, true));
    }

    /// Stalemate: the loser's other pieces must end immobile. Here Black's knight and
    /// bishop both have free squares, one move of Black cannot fill them, and White's one
    /// move can capture only one of them; a white rook could pin the other.
    #[test]
    fn free_pieces_must_be_captured_pinned_or_blocked() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS);
        let free = Position::from_fen("kn6/8/1K6/8/3b4/8/8/8 b - - 0 1").unwrap();
        assert!(!r.goal_possible(&free, Color::Black, 1, 1, false));
        let one = Position::from_fen("kn6/8/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        assert!(r.goal_possible(&one, Color::Black, 1, 1, false));
        let pinner = Position::from_fen("kn6/8/1K6/8/3b3R/8/8/8 b - - 0 1").unwrap();
        assert!(r.goal_possible(&pinner, Color::Black, 1, 1, false));
        // With more moves the cut no longer decides.
        assert!(r.goal_possible(&free, Color::Black, 4, 6, false));
    }

    #[test]
    fn king_spread_is_the_union_of_king_steps() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = x & (x >> 3);
            let want = Squares(b).fold(0, |a, s| a | KING[s as usize]);
            assert_eq!(king_spread(b), want);
        }
    }
}
