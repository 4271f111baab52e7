//! Piece kinds, table-driven. A kind is a set of movement *parts* (leaps, rides, the pawn);
//! a compound moves and captures as each of its parts. Adding a piece is one table row, plus
//! one walk function in `attacks.rs` when it brings a new kind of movement.

use super::square::Color;

/// Movement parts a piece kind is made of.
pub mod part {
    pub const PAWN: u8 = 1;
    /// (1,2) leap.
    pub const KNIGHT: u8 = 2;
    /// (1,0)/(1,1) leap: the king's step (royal or not).
    pub const KING: u8 = 4;
    /// Diagonal rider.
    pub const BISHOP: u8 = 8;
    /// Orthogonal rider.
    pub const ROOK: u8 = 16;
    /// (1,2) rider.
    pub const NIGHT: u8 = 32;
    /// Number of distinct parts (bit positions).
    pub const COUNT: usize = 6;
}

/// Every piece kind chainmate knows. The discriminant indexes [`KINDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    Nightrider,
    /// Bishop + knight (Popeye: princess, also called archbishop/cardinal).
    Princess,
    /// Rook + knight (Popeye: empress, also chancellor/marshal).
    Empress,
    /// Queen + knight.
    Amazon,
    /// Bishop + nightrider.
    BishopNightrider,
    /// Rook + nightrider.
    RookNightrider,
    /// Queen + nightrider.
    QueenNightrider,
    /// Bishop + non-royal king ("super bishop").
    BishopKing,
    /// Rook + non-royal king ("super rook").
    RookKing,
    /// Bishop + knight + non-royal king.
    PrincessKing,
    /// Rook + knight + non-royal king.
    EmpressKing,
    /// Bishop + nightrider + non-royal king.
    BishopNightriderKing,
    /// Rook + nightrider + non-royal king.
    RookNightriderKing,
}

/// Number of kinds.
pub const KIND_COUNT: usize = 19;

/// One row of the piece table.
#[derive(Debug)]
pub struct KindInfo {
    pub kind: Kind,
    /// Popeye-style code, upper case ("S" knight, "N" nightrider, "AM" amazon...).
    pub code: &'static str,
    pub name: &'static str,
    pub parts: u8,
    /// Strength rank for "weakest first" rules (Kazan followers, Tatarstan events):
    /// pawn, knight, bishop, rook, queen, then fairy pieces by Pocket Mutation class
    /// (ties in table order), the king last.
    pub strength: u8,
    /// Pocket Mutation class (1..=8); 0 for the king.
    pub class: u8,
}

use part::*;

/// The piece table. Order = `Kind` discriminant order.
pub const KINDS: [KindInfo; KIND_COUNT] = [
    KindInfo {
        kind: Kind::Pawn,
        code: "P",
        name: "pawn",
        parts: PAWN,
        strength: 0,
        class: 1,
    },
    KindInfo {
        kind: Kind::Knight,
        code: "S",
        name: "knight",
        parts: KNIGHT,
        strength: 1,
        class: 2,
    },
    KindInfo {
        kind: Kind::Bishop,
        code: "B",
        name: "bishop",
        parts: BISHOP,
        strength: 2,
        class: 2,
    },
    KindInfo {
        kind: Kind::Rook,
        code: "R",
        name: "rook",
        parts: ROOK,
        strength: 3,
        class: 3,
    },
    KindInfo {
        kind: Kind::Queen,
        code: "Q",
        name: "queen",
        parts: BISHOP | ROOK,
        strength: 4,
        class: 5,
    },
    KindInfo {
        kind: Kind::King,
        code: "K",
        name: "king",
        parts: KING,
        strength: 18,
        class: 0,
    },
    KindInfo {
        kind: Kind::Nightrider,
        code: "N",
        name: "nightrider",
        parts: NIGHT,
        strength: 5,
        class: 3,
    },
    KindInfo {
        kind: Kind::Princess,
        code: "PR",
        name: "princess (B+S)",
        parts: BISHOP | KNIGHT,
        strength: 7,
        class: 4,
    },
    KindInfo {
        kind: Kind::Empress,
        code: "EM",
        name: "empress (R+S)",
        parts: ROOK | KNIGHT,
        strength: 9,
        class: 5,
    },
    KindInfo {
        kind: Kind::Amazon,
        code: "AM",
        name: "amazon (Q+S)",
        parts: BISHOP | ROOK | KNIGHT,
        strength: 15,
        class: 7,
    },
    KindInfo {
        kind: Kind::BishopNightrider,
        code: "NB",
        name: "bishop-nightrider (B+N)",
        parts: BISHOP | NIGHT,
        strength: 10,
        class: 5,
    },
    KindInfo {
        kind: Kind::RookNightrider,
        code: "NR",
        name: "rook-nightrider (R+N)",
        parts: ROOK | NIGHT,
        strength: 12,
        class: 6,
    },
    KindInfo {
        kind: Kind::QueenNightrider,
        code: "NQ",
        name: "queen-nightrider (Q+N)",
        parts: BISHOP | ROOK | NIGHT,
        strength: 17,
        class: 8,
    },
    KindInfo {
        kind: Kind::BishopKing,
        code: "KB",
        name: "super bishop (B+K)",
        parts: BISHOP | KING,
        strength: 6,
        class: 3,
    },
    KindInfo {
        kind: Kind::RookKing,
        code: "KR",
        name: "super rook (R+K)",
        parts: ROOK | KING,
        strength: 8,
        class: 4,
    },
    KindInfo {
        kind: Kind::PrincessKing,
        code: "KC",
        name: "super princess (B+S+K)",
        parts: BISHOP | KNIGHT | KING,
        strength: 11,
        class: 5,
    },
    KindInfo {
        kind: Kind::EmpressKing,
        code: "KE",
        name: "super empress (R+S+K)",
        parts: ROOK | KNIGHT | KING,
        strength: 13,
        class: 6,
    },
    KindInfo {
        kind: Kind::BishopNightriderKing,
        code: "KF",
        name: "super bishop-nightrider (B+N+K)",
        parts: BISHOP | NIGHT | KING,
        strength: 14,
        class: 6,
    },
    KindInfo {
        kind: Kind::RookNightriderKing,
        code: "KG",
        name: "super rook-nightrider (R+N+K)",
        parts: ROOK | NIGHT | KING,
        strength: 16,
        class: 7,
    },
];

/// All kinds in table order.
pub const ALL_KINDS: [Kind; KIND_COUNT] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
    Kind::King,
    Kind::Nightrider,
    Kind::Princess,
    Kind::Empress,
    Kind::Amazon,
    Kind::BishopNightrider,
    Kind::RookNightrider,
    Kind::QueenNightrider,
    Kind::BishopKing,
    Kind::RookKing,
    Kind::PrincessKing,
    Kind::EmpressKing,
    Kind::BishopNightriderKing,
    Kind::RookNightriderKing,
];

/// Orthodox promotion choices in Popeye's output order (Q, S, R, B).
pub const ORTHODOX_PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Knight, Kind::Rook, Kind::Bishop];

impl Kind {
    #[inline]
    pub const fn info(self) -> &'static KindInfo {
        &KINDS[self as usize]
    }
    #[inline]
    pub const fn parts(self) -> u8 {
        KINDS[self as usize].parts
    }
    #[inline]
    pub const fn code(self) -> &'static str {
        KINDS[self as usize].code
    }
    #[inline]
    pub fn from_index(i: usize) -> Kind {
        ALL_KINDS[i]
    }
    /// Parses a Popeye-style code, case-insensitive ("S", "q", "Am"). Also accepts "N" only
    /// as the nightrider; the knight is always "S".
    pub fn from_code(code: &str) -> Option<Kind> {
        let up = code.to_ascii_uppercase();
        ALL_KINDS.iter().copied().find(|k| k.code() == up)
    }
    /// A code as a reader accepts it: chainmate's own code, or one of Popeye's codes for
    /// the same movement ([`INPUT_ALIASES`]). Only input: [`Kind::code`] stays chainmate's.
    pub fn from_input_code(code: &str) -> Option<Kind> {
        Kind::from_code(code).or_else(|| {
            INPUT_ALIASES
                .iter()
                .find(|(c, _)| c.eq_ignore_ascii_case(code))
                .map(|&(_, k)| k)
        })
    }
    #[inline]
    pub const fn is_orthodox(self) -> bool {
        (self as u8) <= Kind::King as u8
    }
}

/// Popeye's codes for pieces chainmate writes with codes of its own (read, never written):
/// Popeye's waran `WA` (rook + nightrider) is chainmate's `NR`, its elephant `ET` (queen +
/// nightrider) chainmate's `NQ`.
pub const INPUT_ALIASES: &[(&str, Kind)] =
    &[("WA", Kind::RookNightrider), ("ET", Kind::QueenNightrider)];

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, info) in KINDS.iter().enumerate() {
            assert_eq!(info.kind as usize, i);
            assert_eq!(ALL_KINDS[i], info.kind);
            assert_eq!(Kind::from_code(info.code), Some(info.kind));
        }
        // only the pawn has the pawn part (move counting takes the part's set for the pawns)
        for info in KINDS.iter() {
            assert_eq!(info.parts & part::PAWN != 0, info.kind == Kind::Pawn);
        }
        // strengths are a permutation
        let mut s: Vec<u8> = KINDS.iter().map(|k| k.strength).collect();
        s.sort();
        assert_eq!(s, (0..KIND_COUNT as u8).collect::<Vec<_>>());
        // strength order respects classes (D4)
        for a in KINDS.iter().filter(|k| !k.kind.is_orthodox()) {
            for b in KINDS.iter().filter(|k| !k.kind.is_orthodox()) {
                if a.class < b.class {
                    assert!(a.strength < b.strength, "{} vs {}", a.code, b.code);
                }
            }
            assert!(a.strength > Kind::Queen.info().strength);
            assert!(a.strength < Kind::King.info().strength);
        }
    }

    #[test]
    fn knight_is_s_nightrider_is_n() {
        assert_eq!(Kind::from_code("S"), Some(Kind::Knight));
        assert_eq!(Kind::from_code("n"), Some(Kind::Nightrider));
        assert_eq!(Kind::from_code("am"), Some(Kind::Amazon));
        assert_eq!(Kind::from_code("X"), None);
        assert_eq!(Kind::from_input_code("wa"), Some(Kind::RookNightrider));
        assert_eq!(Kind::from_input_code("ET"), Some(Kind::QueenNightrider));
        assert_eq!(Kind::from_input_code("am"), Some(Kind::Amazon));
        assert_eq!(Kind::from_code("WA"), None);
        assert_eq!(Kind::RookNightrider.code(), "NR");
    }
}
