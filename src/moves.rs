//! A move: its first step plus what happens besides (promotion, en passant, castling).
//! Conditions that add effects (chains, swaps, transformations, drops) extend [`MoveKind`].

use crate::core::{Kind, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    Normal,
    /// Pawn two-step.
    DoublePush,
    /// En passant capture; the captured pawn stands behind `to`.
    EnPassant,
    /// Castling; `from`/`to` are the king's squares, the rook's follow from the side.
    Castle,
    /// Teleport: the piece on `from` goes to `to`, the own piece there goes to `from`;
    /// `promo` promotes whichever pawn arrives on its last rank.
    Teleport,
    /// A pawn's two-step that teleports (gives en-passant rights as a two-step does).
    TeleportDouble,
    /// Pocket Mutation: the piece on `from` (= `to`) goes into the pocket as `promo`.
    Pocket,
    /// Pocket Mutation: the pocketed piece is dropped on `to` (= `from`).
    Drop,
    /// Combo chess: a combo whose first step starts on `from` and whose last step ends on
    /// `to`; `chain` numbers it among the position's combos (see `rules::combo`).
    Combo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promo: Option<Kind>,
    pub kind: MoveKind,
    /// Condition-specific choices after the first step (Kazan: the number of the chain
    /// among the leader's chains; Tatarstan: that plus the cascade outcome in the high
    /// bits); 0 for orthodox moves. Kept to 32 bits: a 64-bit field made the orthodox
    /// search about 10 % slower (BENCHMARKS.md).
    pub chain: u32,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promo: None,
            kind: MoveKind::Normal,
            chain: 0,
        }
    }
}

/// Fixed-capacity move list (no allocation on the search's hot path).
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; MoveList::CAP],
    len: usize,
}

impl MoveList {
    pub const CAP: usize = 1024;

    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [std::mem::MaybeUninit::uninit(); MoveList::CAP],
            len: 0,
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        // Capacity exceeds the largest possible legal move count of the supported pieces.
        self.moves[self.len] = std::mem::MaybeUninit::new(m);
        self.len += 1;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}
