//! Squares and colours. Square 0 is a1, 7 is h1, 63 is h8.

use std::fmt;

/// A square index 0..64 (a1 = 0, b1 = 1, ..., h8 = 63).
pub type Square = u8;

/// Sentinel for "no square".
pub const NO_SQUARE: Square = 64;

/// File 0..8 (a = 0).
#[inline]
pub const fn file_of(s: Square) -> u8 {
    s & 7
}

/// Rank 0..8 (rank 1 = 0).
#[inline]
pub const fn rank_of(s: Square) -> u8 {
    s >> 3
}

/// Square from file and rank (both 0..8).
#[inline]
pub const fn square(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// Square from signed file and rank, `None` when off the board.
#[inline]
pub fn square_checked(file: i8, rank: i8) -> Option<Square> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some(square(file as u8, rank as u8))
    } else {
        None
    }
}

/// Algebraic name of a square, e.g. "e4".
pub fn square_name(s: Square) -> String {
    let mut out = String::with_capacity(2);
    out.push((b'a' + file_of(s)) as char);
    out.push((b'1' + rank_of(s)) as char);
    out
}

/// Parses "e4" (case-insensitive file letter).
pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase();
    let r = b[1];
    if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
        Some(square(f - b'a', r - b'1'))
    } else {
        None
    }
}

/// White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    #[inline]
    pub const fn idx(self) -> usize {
        self as usize
    }
    /// Rank index (0..8) of this side's first rank.
    #[inline]
    pub const fn first_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
    /// Rank index of this side's last (promotion) rank.
    #[inline]
    pub const fn last_rank(self) -> u8 {
        7 - self.first_rank()
    }
    /// The squares of this side's last (promotion) rank.
    #[inline]
    pub const fn last_rank_squares(self) -> u64 {
        0xFF << (8 * self.last_rank())
    }
    /// Rank as seen from this side (0 = own first rank).
    #[inline]
    pub const fn relative_rank(self, s: Square) -> u8 {
        match self {
            Color::White => rank_of(s),
            Color::Black => 7 - rank_of(s),
        }
    }
    /// Square offset of one step forward.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in 0..64u8 {
            assert_eq!(parse_square(&square_name(s)), Some(s));
        }
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
    }
}
