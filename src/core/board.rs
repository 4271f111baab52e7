//! The board: a mailbox plus bitboards per colour and per movement part. No rules here.

use super::bitboard::*;
use super::piece::{Kind, Piece, part};
use super::square::{Color, NO_SQUARE, Square};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// 0 = empty, else 1 + kind + 32 * colour.
    cells: [u8; 64],
    pub by_color: [Bitboard; 2],
    /// Indexed by the bit position of a [`part`] flag; both colours.
    pub by_part: [Bitboard; part::COUNT],
    /// Royal king square per colour, NO_SQUARE when absent.
    pub kings: [Square; 2],
}

pub const PAWN_IDX: usize = 0;
pub const KNIGHT_IDX: usize = 1;
pub const KING_IDX: usize = 2;
pub const BISHOP_IDX: usize = 3;
pub const ROOK_IDX: usize = 4;
pub const NIGHT_IDX: usize = 5;

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board {
            cells: [0; 64],
            by_color: [0; 2],
            by_part: [0; part::COUNT],
            kings: [NO_SQUARE; 2],
        }
    }

    #[inline]
    pub fn get(&self, s: Square) -> Option<Piece> {
        let c = self.cells[s as usize];
        if c == 0 {
            None
        } else {
            let color = if c & 32 != 0 {
                Color::Black
            } else {
                Color::White
            };
            Some(Piece::new(color, Kind::from_index(((c & 31) - 1) as usize)))
        }
    }

    #[inline]
    pub fn kind_at(&self, s: Square) -> Option<Kind> {
        let c = self.cells[s as usize];
        if c == 0 {
            None
        } else {
            Some(Kind::from_index(((c & 31) - 1) as usize))
        }
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn is_empty(&self, s: Square) -> bool {
        self.cells[s as usize] == 0
    }

    /// Toggles the squares `squares` in the part sets of `kind`. Branch-free: every part
    /// set is XORed with the squares masked by that part's bit (a loop over the kind's
    /// parts mispredicted its exit on every move).
    #[inline]
    fn toggle_parts_of(&mut self, squares: Bitboard, kind: Kind) {
        let parts = kind.parts() as u64;
        for (i, set) in self.by_part.iter_mut().enumerate() {
            *set ^= squares & ((parts >> i) & 1).wrapping_neg();
        }
    }

    #[inline]
    fn toggle_parts(&mut self, s: Square, kind: Kind) {
        self.toggle_parts_of(bb(s), kind);
    }

    /// Moves piece `p`, standing on `from`, to the empty square `to`: the same as
    /// `remove(from)` and `put(to, p)`, with each set updated once.
    #[inline]
    pub fn shift(&mut self, from: Square, to: Square, p: Piece) {
        debug_assert!(self.get(from) == Some(p) && self.cells[to as usize] == 0);
        self.cells[to as usize] = self.cells[from as usize];
        self.cells[from as usize] = 0;
        let both = bb(from) | bb(to);
        self.by_color[p.color.idx()] ^= both;
        self.toggle_parts_of(both, p.kind);
        if p.kind == Kind::King {
            self.kings[p.color.idx()] = to;
        }
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, s: Square, p: Piece) {
        debug_assert!(self.cells[s as usize] == 0);
        self.cells[s as usize] = 1 + p.kind as u8 + 32 * p.color as u8;
        self.by_color[p.color.idx()] |= bb(s);
        self.toggle_parts(s, p.kind);
        if p.kind == Kind::King {
            self.kings[p.color.idx()] = s;
        }
    }

    /// Removes and returns the piece on a square.
    #[inline]
    pub fn remove(&mut self, s: Square) -> Option<Piece> {
        let p = self.get(s)?;
        self.cells[s as usize] = 0;
        self.by_color[p.color.idx()] &= !bb(s);
        self.toggle_parts(s, p.kind);
        if p.kind == Kind::King {
            self.kings[p.color.idx()] = NO_SQUARE;
        }
        Some(p)
    }

    /// Pieces of colour `c` having movement part `part_idx`.
    #[inline]
    pub fn part(&self, part_idx: usize, c: Color) -> Bitboard {
        self.by_part[part_idx] & self.by_color[c.idx()]
    }

    /// Is square `s` attacked by a piece of colour `by` (orthodox capturing movement of
    /// every part), with the given occupancy?
    #[inline]
    pub fn attacked_with(&self, s: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.idx()];
        let p = &self.by_part;
        if KNIGHT[s as usize] & p[KNIGHT_IDX] & them != 0 {
            return true;
        }
        if KING[s as usize] & p[KING_IDX] & them != 0 {
            return true;
        }
        if pawn_attacks(by.flip(), s) & p[PAWN_IDX] & them != 0 {
            return true;
        }
        let rooks = p[ROOK_IDX] & them;
        if rooks != 0 && rook_attacks(s, occ) & rooks != 0 {
            return true;
        }
        let bishops = p[BISHOP_IDX] & them;
        if bishops != 0 && bishop_attacks(s, occ) & bishops != 0 {
            return true;
        }
        let nights = p[NIGHT_IDX] & them;
        nights != 0 && nightrider_attacks(s, occ) & nights != 0
    }

    /// The squares of `area` attacked by a piece of colour `by` with occupancy `occ`: the
    /// same as [`Self::attacked_with`] square by square, but each line piece's attacks
    /// looked up once (a king's neighbourhood costs one lookup per line piece, not two
    /// per square).
    pub fn attacked_in(&self, area: Bitboard, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color[by.idx()];
        let p = &self.by_part;
        let mut out = 0;
        for s in Squares(area) {
            let leapers = (KNIGHT[s as usize] & p[KNIGHT_IDX])
                | (KING[s as usize] & p[KING_IDX])
                | (pawn_attacks(by.flip(), s) & p[PAWN_IDX]);
            if leapers & them != 0 {
                out |= bb(s);
            }
        }
        for s in Squares(p[ROOK_IDX] & them) {
            out |= rook_attacks(s, occ);
        }
        for s in Squares(p[BISHOP_IDX] & them) {
            out |= bishop_attacks(s, occ);
        }
        for s in Squares(p[NIGHT_IDX] & them) {
            out |= nightrider_attacks(s, occ);
        }
        out & area
    }

    /// All pieces of colour `by` attacking square `s` with occupancy `occ`.
    pub fn attackers_to(&self, s: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color[by.idx()];
        let p = &self.by_part;
        ((KNIGHT[s as usize] & p[KNIGHT_IDX])
            | (KING[s as usize] & p[KING_IDX])
            | (pawn_attacks(by.flip(), s) & p[PAWN_IDX])
            | (rook_attacks(s, occ) & p[ROOK_IDX])
            | (bishop_attacks(s, occ) & p[BISHOP_IDX])
            | nightriders_to(s, occ, p[NIGHT_IDX] & them))
            & them
    }

    #[inline]
    pub fn attacked(&self, s: Square, by: Color) -> bool {
        self.attacked_with(s, by, self.occupied())
    }

    /// Squares attacked (capturable) by the piece of kind `kind` and colour `c` standing
    /// on `s`, with the board's occupancy. Pawns: diagonal captures only.
    #[inline]
    pub fn piece_attacks(&self, s: Square, c: Color, kind: Kind) -> Bitboard {
        piece_attacks(s, c, kind, self.occupied())
    }
}

/// The nightrider-part pieces of `nights` that attack `s` (no line walk when there are none).
#[inline]
fn nightriders_to(s: Square, occ: Bitboard, nights: Bitboard) -> Bitboard {
    if nights == 0 {
        0
    } else {
        nightrider_attacks(s, occ) & nights
    }
}

/// Capture targets of a piece (kind, colour) on `s` with occupancy `occ`.
#[inline]
pub fn piece_attacks(s: Square, c: Color, kind: Kind, occ: Bitboard) -> Bitboard {
    let parts = kind.parts();
    let mut a = 0;
    if parts & part::PAWN != 0 {
        a |= pawn_attacks(c, s);
    }
    if parts & part::KNIGHT != 0 {
        a |= KNIGHT[s as usize];
    }
    if parts & part::KING != 0 {
        a |= KING[s as usize];
    }
    if parts & part::BISHOP != 0 {
        a |= bishop_attacks(s, occ);
    }
    if parts & part::ROOK != 0 {
        a |= rook_attacks(s, occ);
    }
    if parts & part::NIGHT != 0 {
        a |= nightrider_attacks(s, occ);
    }
    a
}

#[cfg(test)]
mod tests {
    use crate::core::{Color, Squares, bb};
    use crate::position::Position;

    /// `attacked_in` agrees with `attacked_with` square by square, on random boards with
    /// the fairy pieces (line parts, leaper parts, nightriders), with and without a king.
    #[test]
    fn attacked_in_is_attacked_with_on_every_square() {
        const UNITS: [&str; 14] = [
            "P", "N", "B", "R", "Q", "(N)", "(AM)", "(EM)", "(PR)", "p", "n", "b", "(n)", "(em)",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        let mut tested = 0;
        for _ in 0..400 {
            let mut cells: Vec<String> = vec![String::new(); 64];
            cells[next(64) as usize] = "K".into();
            loop {
                let s = next(64) as usize;
                if cells[s].is_empty() {
                    cells[s] = "k".into();
                    break;
                }
            }
            for _ in 0..next(14) {
                let s = next(64) as usize;
                let rank = s / 8;
                let u = UNITS[next(UNITS.len() as u64) as usize];
                if cells[s].is_empty() && !(u.eq_ignore_ascii_case("p") && (rank == 0 || rank == 7))
                {
                    cells[s] = u.into();
                }
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| {
                    let mut t = String::new();
                    let mut empty = 0;
                    for f in 0..8 {
                        let c = &cells[r * 8 + f];
                        if c.is_empty() {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                t += &empty.to_string();
                                empty = 0;
                            }
                            t += c;
                        }
                    }
                    if empty > 0 {
                        t += &empty.to_string();
                    }
                    t
                })
                .collect();
            let fen = format!("{} w - - 0 1", ranks.join("/"));
            let Ok(pos) = Position::from_fen(&fen) else {
                continue;
            };
            tested += 1;
            let board = &pos.board;
            for by in [Color::White, Color::Black] {
                let k = pos.king(by.flip());
                for occ in [board.occupied(), board.occupied() & !bb(k)] {
                    let each = Squares(!0)
                        .filter(|&s| board.attacked_with(s, by, occ))
                        .fold(0, |a, s| a | bb(s));
                    assert_eq!(board.attacked_in(!0, by, occ), each, "{fen} {by:?}");
                    let area = crate::core::bitboard::KING[k as usize];
                    assert_eq!(board.attacked_in(area, by, occ), each & area, "{fen}");
                }
            }
        }
        assert!(tested > 300, "{tested}");
    }
}
