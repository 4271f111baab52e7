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
