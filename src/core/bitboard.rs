//! 64-bit square sets and the attack tables of every movement part.
//! Rider attacks use the classical ray method (first blocker by bit scan).

use super::square::{Color, Square};

pub type Bitboard = u64;

#[inline]
pub const fn bb(s: Square) -> Bitboard {
    1u64 << s
}

/// Iterates the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as Square;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

pub(crate) const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let f = (s % 8) as i8;
        let r = (s / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let nf = f + deltas[i].0;
            let nr = r + deltas[i].1;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[s] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

pub const KNIGHT_DELTAS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_DELTAS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

pub static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_DELTAS);
pub static KING: [Bitboard; 64] = leaper_table(&KING_DELTAS);
/// PAWN_ATTACKS[c][s]: squares a pawn of colour c on s attacks.
pub static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [
    leaper_table(&[(1, 1), (-1, 1)]),
    leaper_table(&[(1, -1), (-1, -1)]),
];

/// Ray directions: N, NE, E, SE, S, SW, W, NW. The first four of ROOK/BISHOP use
/// increasing square numbers for N, NE, E, NW.
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn ray_tables() -> [[Bitboard; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let mut f = (s % 8) as i8 + DIRS[d].0;
            let mut r = (s / 8) as i8 + DIRS[d].1;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][s] |= 1u64 << (r * 8 + f);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

pub static RAYS: [[Bitboard; 64]; 8] = ray_tables();

const fn ray_pos(d: usize, s: Square, occ: Bitboard) -> Bitboard {
    let ray = RAYS[d][s as usize];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[d][blockers.trailing_zeros() as usize]
    }
}

const fn ray_neg(d: usize, s: Square, occ: Bitboard) -> Bitboard {
    let ray = RAYS[d][s as usize];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[d][63 - blockers.leading_zeros() as usize]
    }
}

/// A rook's attacks by scanning its four rays: the definition the magic tables are built
/// from (`magic.rs`).
pub const fn rook_attacks_slow(s: Square, occ: Bitboard) -> Bitboard {
    ray_pos(0, s, occ) | ray_pos(2, s, occ) | ray_neg(4, s, occ) | ray_neg(6, s, occ)
}

/// A bishop's attacks by scanning its four rays.
pub const fn bishop_attacks_slow(s: Square, occ: Bitboard) -> Bitboard {
    ray_pos(1, s, occ) | ray_pos(7, s, occ) | ray_neg(3, s, occ) | ray_neg(5, s, occ)
}

pub use super::magic::{bishop_attacks, rook_attacks};

/// Squares strictly between two squares on a common line (empty otherwise).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a as usize][b as usize]
}

const fn between_slow(a: usize, b: usize) -> Bitboard {
    let mut d = 0;
    while d < 8 {
        if RAYS[d][a] & (1u64 << b) != 0 {
            return RAYS[d][a] & !RAYS[d][b] & !(1u64 << b);
        }
        d += 1;
    }
    0
}

/// A 64x64 table of `between_slow` (`lines`: false) or `line_between_slow` (true).
const fn pair_table(lines: bool) -> [[Bitboard; 64]; 64] {
    let mut t = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            t[a][b] = if lines {
                line_between_slow(a, b)
            } else {
                between_slow(a, b)
            };
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 64]; 64] = pair_table(false);

/// Nightrider lines: for each square and each of the 8 knight directions, the squares
/// reached by repeated knight steps (at most 3 on an 8x8 board), in order.
pub struct NightLines {
    pub sq: [[[Square; 3]; 8]; 64],
    pub len: [[u8; 8]; 64],
}

const fn night_lines() -> NightLines {
    let mut out = NightLines {
        sq: [[[0; 3]; 8]; 64],
        len: [[0; 8]; 64],
    };
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let mut f = (s % 8) as i8 + KNIGHT_DELTAS[d].0;
            let mut r = (s / 8) as i8 + KNIGHT_DELTAS[d].1;
            let mut n = 0;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                out.sq[s][d][n] = (r * 8 + f) as Square;
                n += 1;
                f += KNIGHT_DELTAS[d].0;
                r += KNIGHT_DELTAS[d].1;
            }
            out.len[s][d] = n as u8;
            d += 1;
        }
        s += 1;
    }
    out
}

pub static NIGHT_LINES: NightLines = night_lines();

/// Squares a nightrider on `s` attacks (the knight-direction lines up to and including the
/// first occupied square). The line is symmetric, so this is also "where can a nightrider
/// attack `s` from".
#[inline]
pub fn nightrider_attacks(s: Square, occ: Bitboard) -> Bitboard {
    let mut a = 0;
    let lines = &NIGHT_LINES;
    for d in 0..8 {
        let n = lines.len[s as usize][d] as usize;
        for i in 0..n {
            let t = lines.sq[s as usize][d][i];
            a |= bb(t);
            if occ & bb(t) != 0 {
                break;
            }
        }
    }
    a
}

/// Squares strictly between two squares on a common bishop, rook or nightrider line.
#[inline]
pub fn line_between(a: Square, b: Square) -> Bitboard {
    LINE_BETWEEN[a as usize][b as usize]
}

const fn line_between_slow(a: usize, b: usize) -> Bitboard {
    let o = between_slow(a, b);
    if o != 0 {
        return o;
    }
    let lines = &NIGHT_LINES;
    let mut d = 0;
    while d < 8 {
        let n = lines.len[a][d] as usize;
        let mut acc = 0;
        let mut i = 0;
        while i < n {
            let t = lines.sq[a][d][i];
            if t as usize == b {
                return acc;
            }
            acc |= 1u64 << t;
            i += 1;
        }
        d += 1;
    }
    0
}

static LINE_BETWEEN: [[Bitboard; 64]; 64] = pair_table(true);

/// Pawn attack squares of colour `c` from `s`.
#[inline]
pub fn pawn_attacks(c: Color, s: Square) -> Bitboard {
    PAWN_ATTACKS[c.idx()][s as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::square::parse_square as sq;

    #[test]
    fn leapers() {
        assert_eq!(KNIGHT[sq("a1").unwrap() as usize].count_ones(), 2);
        assert_eq!(KNIGHT[sq("d4").unwrap() as usize].count_ones(), 8);
        assert_eq!(KING[sq("h8").unwrap() as usize].count_ones(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("a2").unwrap()),
            bb(sq("b3").unwrap())
        );
        assert_eq!(
            pawn_attacks(Color::Black, sq("e5").unwrap()).count_ones(),
            2
        );
    }

    #[test]
    fn riders() {
        let d4 = sq("d4").unwrap();
        assert_eq!(rook_attacks(d4, 0).count_ones(), 14);
        assert_eq!(bishop_attacks(d4, 0).count_ones(), 13);
        let occ = bb(sq("d6").unwrap()) | bb(sq("f6").unwrap());
        let r = rook_attacks(d4, occ);
        assert!(r & bb(sq("d6").unwrap()) != 0);
        assert!(r & bb(sq("d7").unwrap()) == 0);
        let b = bishop_attacks(d4, occ);
        assert!(b & bb(sq("f6").unwrap()) != 0);
        assert!(b & bb(sq("g7").unwrap()) == 0);
        // nightrider from a1: b3 c5 d7 and c2 e3 g4
        assert_eq!(nightrider_attacks(sq("a1").unwrap(), 0).count_ones(), 6);
        // blocked at c5: d7 unreachable
        let n = nightrider_attacks(sq("a1").unwrap(), bb(sq("c5").unwrap()));
        assert_eq!(n.count_ones(), 5);
        assert_eq!(
            between(sq("a1").unwrap(), sq("d4").unwrap()).count_ones(),
            2
        );
        assert_eq!(between(sq("a1").unwrap(), sq("b3").unwrap()), 0);
    }
}
