//! Line-piece attacks from small tables, built at compile time from the ray scan of
//! `bitboard.rs`, which stays the definition (the unit test below compares them on every
//! blocker set of every square).
//!
//! Bishops: "fancy" magic bitboards. The relevant blockers of a square, multiplied by the
//! square's magic number, index its own part of one table (42 KB); the magic numbers were
//! found by a random search (any number that maps the blocker sets of a square without a
//! harmful collision will do).
//!
//! Rooks: the rank and the file apart ("kindergarten" bitboards). A rank's six inner squares
//! are a shift away from an index into 512 bytes of first-rank attacks; a file's six inner
//! squares, shifted onto the a-file, are gathered into the top six bits by one
//! multiplication with the c2-h7 diagonal (the a-file square of rank `r`, bit `8r`, times the
//! diagonal's bit `10 + 9k` lands on bit `8r + 10 + 9k`, which is 64 - r for k = 6 - r and
//! never the same bit for two pairs, so nothing carries), an index into 4 KB of a-file
//! attacks. A rook's magic table would take 800 KB, which a long search brings into memory
//! page by page (issue 20: peak memory).

use super::bitboard::{Bitboard, bishop_attacks_slow, rook_attacks_slow};

const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010A40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801B8200420,
    0x200A008084012000,
    0x0040102001042084,
    0x840A505042428020,
    0x0000700102202920,
    0x44101C0C10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308C042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002A00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104A041918013446,
    0x008A000082008238,
    0x04A0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xCC01112048100480,
    0x0020402806500440,
    0x00048E0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810E04104200,
    0x901210110400088A,
    0xA003080212081050,
    0x00C1004048401004,
    0x900000A014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008A02026250,
    0x8004088250900040,
    0x1C00430088A04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080A04222020,
    0x8088802110022000,
    0x1081A10416114400,
    0x0205010A24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580C026028810840,
    0x802020441020A110,
    0x12C0022401020018,
];

/// One square's entry: its relevant blockers, its magic, its shift, its table offset.
#[derive(Clone, Copy)]
struct Entry {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: u32,
}

const BISHOP_SIZE: usize = 5_248;

struct Magics {
    entries: [Entry; 64],
    attacks: [Bitboard; BISHOP_SIZE],
}

/// The squares whose occupancy can change a slider's attacks from `s`: its empty-board
/// attacks less the board's edge in each direction (the last square of a ray never blocks).
const fn relevant(s: usize, rook: bool) -> Bitboard {
    let (f, r) = (s % 8, s / 8);
    let edges = if rook {
        let mut e = 0u64;
        if r != 0 {
            e |= 0xFF;
        }
        if r != 7 {
            e |= 0xFF << 56;
        }
        if f != 0 {
            e |= 0x0101_0101_0101_0101;
        }
        if f != 7 {
            e |= 0x8080_8080_8080_8080;
        }
        e
    } else {
        0xFF81_8181_8181_81FF
    };
    let empty = if rook {
        rook_attacks_slow(s as u8, 0)
    } else {
        bishop_attacks_slow(s as u8, 0)
    };
    empty & !edges
}

/// The bishops' magic table.
const fn build() -> Magics {
    let mut m = Magics {
        entries: [Entry {
            mask: 0,
            magic: 0,
            shift: 0,
            offset: 0,
        }; 64],
        attacks: [0; BISHOP_SIZE],
    };
    let mut offset = 0usize;
    let mut s = 0;
    while s < 64 {
        let mask = relevant(s, false);
        let bits = mask.count_ones();
        let magic = BISHOP_MAGICS[s];
        m.entries[s] = Entry {
            mask,
            magic,
            shift: 64 - bits,
            offset: offset as u32,
        };
        // Every subset of the mask (carry-rippler), each written to its magic index.
        let mut sub = 0u64;
        loop {
            let i = (sub.wrapping_mul(magic) >> (64 - bits)) as usize;
            m.attacks[offset + i] = bishop_attacks_slow(s as u8, sub);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        offset += 1 << bits;
        s += 1;
    }
    assert!(offset == BISHOP_SIZE);
    m
}

static BISHOP: Magics = build();

const A_FILE: Bitboard = 0x0101_0101_0101_0101;
/// The a-file's ranks 2-7 (the ends never block).
const A_INNER: Bitboard = A_FILE & !0xFF00_0000_0000_00FF;
/// The c2-h7 diagonal: gathers the a-file's ranks 2-7 into the top six bits.
const C2_H7: Bitboard = 0x0080_4020_1008_0402;

/// The six-bit index of the inner squares of file `f`'s occupancy.
#[inline(always)]
const fn file_index(occ: Bitboard, f: usize) -> usize {
    (((occ >> f) & A_FILE).wrapping_mul(C2_H7) >> 58) as usize
}

/// `FILE_ATTACKS[r][i]`: a rook's attacks along the a-file from rank `r` with the inner
/// occupancy of index `i`.
static FILE_ATTACKS: [[Bitboard; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut sub = 0u64;
    loop {
        // Every subset of the a-file's inner squares (carry-rippler), from every rank.
        let mut r = 0;
        while r < 8 {
            t[r][file_index(sub, 0)] = rook_attacks_slow(8 * r as u8, sub) & A_FILE;
            r += 1;
        }
        sub = sub.wrapping_sub(A_INNER) & A_INNER;
        if sub == 0 {
            break;
        }
    }
    t
};

/// `RANK_ATTACKS[f][i]`: a rook's attacks along the first rank from file `f` with the
/// inner occupancy `i << 1`.
static RANK_ATTACKS: [[u8; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut i = 0;
        while i < 64 {
            t[f][i] = rook_attacks_slow(f as u8, (i as u64) << 1) as u8;
            i += 1;
        }
        f += 1;
    }
    t
};

/// Squares a rook on `s` attacks with occupancy `occ` (including the first blocker).
#[inline]
pub fn rook_attacks(s: u8, occ: Bitboard) -> Bitboard {
    let (f, r) = (s as usize & 7, s as usize >> 3);
    let rank = (RANK_ATTACKS[f][(occ >> (8 * r + 1)) as usize & 63] as Bitboard) << (8 * r);
    rank | FILE_ATTACKS[r][file_index(occ, f)] << f
}

/// Squares a bishop on `s` attacks with occupancy `occ` (including the first blocker).
#[inline]
pub fn bishop_attacks(s: u8, occ: Bitboard) -> Bitboard {
    let e = &BISHOP.entries[s as usize];
    let i = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
    BISHOP.attacks[e.offset as usize + i]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every blocker set of every square's relevant squares, and random full boards.
    #[test]
    fn line_attacks_agree_with_the_ray_scan() {
        for s in 0..64u8 {
            for rook in [true, false] {
                let mask = relevant(s as usize, rook);
                let mut sub = 0u64;
                loop {
                    let (fast, slow) = if rook {
                        (rook_attacks(s, sub), rook_attacks_slow(s, sub))
                    } else {
                        (bishop_attacks(s, sub), bishop_attacks_slow(s, sub))
                    };
                    assert_eq!(fast, slow, "square {s}, rook {rook}, blockers {sub:#x}");
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let s = (x >> 58) as u8;
            assert_eq!(rook_attacks(s, x), rook_attacks_slow(s, x));
            assert_eq!(bishop_attacks(s, x), bishop_attacks_slow(s, x));
        }
    }
}
