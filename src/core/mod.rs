//! Squares, bitboards, piece kinds and the board: no rules.
pub mod bitboard;
pub mod board;
mod magic;
pub mod piece;
pub mod square;

pub use bitboard::{Bitboard, Squares, bb};
pub use board::Board;
pub use piece::{Kind, Piece};
pub use square::{Color, NO_SQUARE, Square, parse_square, square_name};

/// The unit tests' random numbers: one xorshift step of `seed`, returning its new value.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}
