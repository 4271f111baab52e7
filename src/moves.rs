//! A move: its first step plus what happens besides (promotion, en passant, castling,
//! and the conditions' mechanisms: swaps, pockets, compound moves). [`MoveKind`] names
//! mechanisms, never conditions; a condition describes each move it generated as a list of
//! [`Effect`]s (`Rules::effects`), which notation, JSON steps, replay and the checker read.

use crate::core::{Kind, Piece, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    Normal,
    /// Pawn two-step.
    DoublePush,
    /// En passant capture; the captured pawn stands behind `to`.
    EnPassant,
    /// Castling; `from`/`to` are the king's squares, the rook's follow from the side.
    Castle,
    /// The piece on `from` goes to `to`, the own piece there goes to `from`; `promo`
    /// promotes whichever pawn arrives on its last rank (Teleport chess).
    Swap,
    /// A pawn's two-step that swaps (gives en-passant rights as a two-step does).
    SwapDouble,
    /// The piece on `from` (= `to`) goes into its side's pocket as `promo`.
    ToPocket,
    /// The pocketed piece is dropped on `to` (= `from`).
    FromPocket,
    /// A move of several steps worked out by its condition: the first step starts on
    /// `from`, the last ends on `to`, `chain` numbers it among the position's moves.
    /// `Position::make` only passes the turn; the condition plays it.
    Compound,
}

/// One step of a unit inside a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub from: Square,
    pub to: Square,
    /// The kind of the piece making the step.
    pub kind: Kind,
    /// The piece's new kind when it promotes on this step.
    pub promo: Option<Kind>,
    /// The step captures an enemy piece (on `to`, or behind it en passant).
    pub capture: bool,
    /// Castling: the king's step; the rook's step is implied by the side and the wing.
    pub castle: bool,
}

/// One thing a move does, in the order it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A unit steps (captures included).
    Step(Step),
    /// The units on `from` and `to` swap squares; `promo` promotes the one that arrives
    /// on its last rank.
    Swap {
        from: Square,
        to: Square,
        kind: Kind,
        other: Kind,
        promo: Option<Kind>,
    },
    /// The unit on `at` changes its kind to `kind`.
    Transform { at: Square, kind: Kind },
    /// The unit on `from` goes into its side's pocket as `kind`.
    Pocket {
        from: Square,
        kind: Kind,
        as_kind: Kind,
    },
    /// The pocketed unit `kind` is dropped on `to`.
    Drop { to: Square, kind: Kind },
    /// A captured unit comes back on the board on `at` (Circe rebirth). Written after
    /// the move in square brackets, as Popeye does: `Qd1*d5[+bRa8]`.
    Reborn { at: Square, piece: Piece },
}

/// How a move's effects are written (the condition's notation hook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The first effect is the move; the others follow it in parentheses:
    /// `e2-e4 (Sg1-e2, Rh1-g1)`, `Sg1-f3 (f3=P, f1=R)`.
    Leader,
    /// Every effect is a step, written in square brackets: `[Bf1-g2; g2-g3]`.
    Steps,
}

/// What a move does, worked out once when the move is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects {
    pub layout: Layout,
    pub effects: Vec<Effect>,
    /// The move takes a pawn en passant (written `ep.`).
    pub en_passant: bool,
}

impl Effects {
    /// The steps of the move, in order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.effects.iter().filter_map(|e| match e {
            Effect::Step(s) => Some(s),
            _ => None,
        })
    }
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
        Move::with_kind(from, to, MoveKind::Normal)
    }

    /// A move of the given kind without promotion or chain.
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            promo: None,
            kind,
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
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Written as
            // `[MaybeUninit::uninit(); CAP]`, the compiler cleared all 8 kB at every node.)
            moves: unsafe {
                std::mem::MaybeUninit::<[std::mem::MaybeUninit<Move>; MoveList::CAP]>::uninit()
                    .assume_init()
            },
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
