//! A second, deliberately simple move generator for Combo chess (mailbox board, no shared code
//! with chainmate's move generation), written straight from the rules (Combo chess, D9-D11).
//! The counts of tests/data/perft/combo.epd come from this file; chainmate's perft is compared
//! with them in `combo_suite`.
//!
//! Semantics used here:
//! - A combo lifts one own piece (its square stays empty for the rest of the combo). The piece
//!   "in hand" on square s makes one step: onto an empty square or a capture (the combo ends),
//!   or onto an own piece that is the only obstacle (a challenge): the mover stands there and
//!   the challenged piece is now in hand on that same square.
//! - Pawns: forward one step (empty or own), the two-step from the second rank over an empty
//!   square (empty or own target), diagonal only as a capture. No en passant. Promotion to
//!   Q/R/B/N, and to every fairy piece kind of the root position (Popeye's convention), the
//!   moment a pawn reaches its last rank; after a challenge the challenged piece continues
//!   and the promoted piece keeps its new type.
//! - Fairy pieces (D1): the nightrider, the knight and nightrider compounds and the king
//!   compounds move, capture and challenge as any of their parts. A king compound is not
//!   royal: only the king (code 6) is ever the target of a capture test, and castling is the
//!   king's and an orthodox rook's only.
//! - Castling rights of the result: any step from or to a1/e1/h1 (a8/e8/h8) clears the rights
//!   tied to that square. Castling inside a combo: the right is in the position and no earlier
//!   step of this combo went from e1 or the rook's corner, the king in hand stands on e1, the
//!   rook on its corner, the squares strictly between are empty except the king's destination,
//!   which may hold an own piece (challenged, the combo goes on). Generated moves also need D10
//!   (judged once on the start position); capture tests need only the structure.
//! - A move is legal (D11) if the opponent cannot then capture the mover's king with one combo.
//! - Distinct moves are distinct resulting positions (board, side, castling rights); the
//!   search keeps a visited set over (board, piece in hand, its square, rights, castling
//!   still available in this combo).
//! - Capture tests ("can the side to move take the enemy king with one combo?") are memoized:
//!   the attacker sees the defender's pieces other than the king only as occupied squares, so
//!   they are replaced by a neutral blocker in the memo key (checked against the plain search
//!   when the suite was written).
//!
//! Tests: hand-counted unit positions for each rule, the seed game (000) replayed, the light part
//! of the suite for the reference (`reference_matches_suite`) and for chainmate
//! (`combo_suite`), the heavy part in #[ignore]d tests, and `print_suite_counts` to write
//! suite lines.

mod common;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Board: 0 empty, a piece code of [`PIECES`] for White, negative for Black ([`BLOCKER`]: a
/// neutral enemy blocker in capture tests). Square = rank * 8 + file.
type Board = [i8; 64];

/// Movement parts (D1): a compound moves, captures and challenges as any of its parts.
const PAWN: u8 = 1;
/// (1,2) leap.
const LEAP_N: u8 = 2;
/// One step in any direction (royal only for the king itself).
const STEP_K: u8 = 4;
const RIDE_B: u8 = 8;
const RIDE_R: u8 = 16;
/// (1,2) rider (nightrider).
const RIDE_N: u8 = 32;

/// (FEN spelling, parts) by piece code: the FEN letters, then the Popeye codes written in
/// parentheses in FEN (docs/problem-format.md).
const PIECES: [(&str, u8); 20] = [
    ("", 0),
    ("p", PAWN),
    ("n", LEAP_N),
    ("b", RIDE_B),
    ("r", RIDE_R),
    ("q", RIDE_B | RIDE_R),
    ("k", STEP_K),
    ("n", RIDE_N),                    // 7 nightrider, (N)
    ("pr", RIDE_B | LEAP_N),          // 8 B+S
    ("em", RIDE_R | LEAP_N),          // 9 R+S
    ("am", RIDE_B | RIDE_R | LEAP_N), // 10 Q+S
    ("nb", RIDE_B | RIDE_N),          // 11 B+N
    ("nr", RIDE_R | RIDE_N),          // 12 R+N
    ("nq", RIDE_B | RIDE_R | RIDE_N), // 13 Q+N
    ("kb", RIDE_B | STEP_K),          // 14 B+K
    ("kr", RIDE_R | STEP_K),          // 15 R+K
    ("kc", RIDE_B | LEAP_N | STEP_K), // 16 B+S+K
    ("ke", RIDE_R | LEAP_N | STEP_K), // 17 R+S+K
    ("kf", RIDE_B | RIDE_N | STEP_K), // 18 B+N+K
    ("kg", RIDE_R | RIDE_N | STEP_K), // 19 R+N+K
];
const KING: i8 = 6;
const FIRST_FAIRY: usize = 7;
const BLOCKER: i8 = 100;

/// Castling bits: white short, white long, black short, black long.
const WK: u8 = 1;
const WQ: u8 = 2;
const BK: u8 = 4;
const BQ: u8 = 8;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Pos {
    b: Board,
    white: bool,
    castle: u8,
    /// Bit c: pawns may promote to the fairy piece of code c (the kinds of the root
    /// position; the same for a whole perft).
    fairy_promos: u32,
}

/// A small multiplicative hasher (the visited sets are the hot spot).
#[derive(Default)]
struct Fx(u64);
impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}
type FxSet<T> = HashSet<T, BuildHasherDefault<Fx>>;

/// Visited-set key: the board, plus hand piece, its square, rights, castling still available
/// in the combo and the fairy promotion kinds.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key(Board, u64);

fn key(b: &Board, hand: i8, sq: usize, rights: u8, avail: u8, promos: u32) -> Key {
    let extra = u64::from(hand as u8)
        | (sq as u64) << 8
        | u64::from(rights) << 16
        | u64::from(avail) << 24
        | u64::from(promos) << 32;
    Key(*b, extra)
}

const NL: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KL: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const ORTH: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Promotion choices: Q, R, B, N and the fairy kinds of the bit set.
fn promotions(fairy: u32) -> Vec<i8> {
    let mut v = vec![5, 4, 3, 2];
    v.extend(
        (FIRST_FAIRY..PIECES.len())
            .filter(|&c| fairy & (1 << c) != 0)
            .map(|c| c as i8),
    );
    v
}

/// The FEN pieces of a rank (or pocket) text: piece codes, or runs of empty squares.
fn fen_pieces(text: &str) -> Vec<Result<i8, usize>> {
    let mut out = vec![];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            out.push(Err(d as usize));
            continue;
        }
        let (code, range) = if c == '(' {
            let code: String = chars.by_ref().take_while(|&x| x != ')').collect();
            (code, FIRST_FAIRY..PIECES.len())
        } else {
            (c.to_string(), 1..FIRST_FAIRY)
        };
        let lower = code.to_ascii_lowercase();
        let v = range
            .into_iter()
            .find(|&i| PIECES[i].0 == lower)
            .unwrap_or_else(|| panic!("piece {code}")) as i8;
        out.push(Ok(if code.chars().next().unwrap().is_ascii_uppercase() {
            v
        } else {
            -v
        }));
    }
    out
}

fn fen_piece(v: i8) -> String {
    let a = v.unsigned_abs() as usize;
    let s = if a >= FIRST_FAIRY {
        format!("({})", PIECES[a].0)
    } else {
        PIECES[a].0.to_string()
    };
    if v > 0 { s.to_ascii_uppercase() } else { s }
}

fn at(f: i8, r: i8) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn sq(name: &str) -> usize {
    let c = name.as_bytes();
    ((c[1] - b'1') * 8 + (c[0] - b'a')) as usize
}

fn parse(fen: &str) -> Pos {
    let mut it = fen.split_whitespace();
    let mut b = [0i8; 64];
    for (ri, row) in it.next().unwrap().split('/').enumerate() {
        let mut f = 0;
        for x in fen_pieces(row) {
            match x {
                Err(d) => f += d,
                Ok(v) => {
                    b[(7 - ri) * 8 + f] = v;
                    f += 1;
                }
            }
        }
        assert_eq!(f, 8, "rank {row}");
    }
    let white = it.next() != Some("b");
    let cs = it.next().unwrap_or("-");
    let mut castle = 0;
    for (ch, bit) in [('K', WK), ('Q', WQ), ('k', BK), ('q', BQ)] {
        if cs.contains(ch) {
            castle |= bit;
        }
    }
    // rights need king and rook at home
    for (bit, k, r) in [(WK, 4, 7), (WQ, 4, 0), (BK, 60, 63), (BQ, 60, 56)] {
        let s = if bit < BK { 1 } else { -1 };
        if b[k] != KING * s || b[r] != 4 * s {
            castle &= !bit;
        }
    }
    let mut fairy_promos = 0;
    for v in b {
        if v.unsigned_abs() as usize >= FIRST_FAIRY {
            fairy_promos |= 1 << v.unsigned_abs();
        }
    }
    Pos {
        b,
        white,
        castle,
        fairy_promos,
    }
}

/// Rights left after a step from or to `s`.
fn clear_rights(rights: u8, s: usize) -> u8 {
    rights
        & !match s {
            4 => WK | WQ,
            7 => WK,
            0 => WQ,
            60 => BK | BQ,
            63 => BK,
            56 => BQ,
            _ => 0,
        }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    Quiet,
    Capture,
    Challenge,
}

/// The steps of piece `v` in hand on `s` (the board at `s` does not matter).
fn steps(b: &Board, v: i8, s: usize) -> Vec<(usize, Step)> {
    let w = v > 0;
    let kind = |x: i8| {
        if x == 0 {
            Step::Quiet
        } else if (x > 0) == w {
            Step::Challenge
        } else {
            Step::Capture
        }
    };
    let (f, r) = ((s % 8) as i8, (s / 8) as i8);
    let mut out = vec![];
    if v.abs() == 1 {
        let dr: i8 = if w { 1 } else { -1 };
        let rel = if w { r } else { 7 - r };
        if let Some(t) = at(f, r + dr) {
            if b[t] == 0 || (b[t] > 0) == w {
                out.push((t, kind(b[t])));
            }
            if b[t] == 0 && rel == 1 {
                let t2 = at(f, r + 2 * dr).unwrap();
                if b[t2] == 0 || (b[t2] > 0) == w {
                    out.push((t2, kind(b[t2])));
                }
            }
        }
        for df in [-1, 1] {
            if let Some(t) = at(f + df, r + dr)
                && b[t] != 0
                && (b[t] > 0) != w
            {
                out.push((t, Step::Capture));
            }
        }
        return out;
    }
    let leap = |ds: &[(i8, i8)], out: &mut Vec<(usize, Step)>| {
        for &(df, dr) in ds {
            if let Some(t) = at(f + df, r + dr) {
                out.push((t, kind(b[t])));
            }
        }
    };
    let ride = |ds: &[(i8, i8)], out: &mut Vec<(usize, Step)>| {
        for &(df, dr) in ds {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(t) = at(x, y) {
                out.push((t, kind(b[t])));
                if b[t] != 0 {
                    break;
                }
                x += df;
                y += dr;
            }
        }
    };
    let ps = PIECES[v.unsigned_abs() as usize].1;
    if ps & LEAP_N != 0 {
        leap(&NL, &mut out);
    }
    if ps & STEP_K != 0 {
        leap(&KL, &mut out);
    }
    if ps & RIDE_B != 0 {
        ride(&DIAG, &mut out);
    }
    if ps & RIDE_R != 0 {
        ride(&ORTH, &mut out);
    }
    if ps & RIDE_N != 0 {
        ride(&NL, &mut out);
    }
    // A compound reaches some squares by two parts: one step each.
    out.sort_unstable_by_key(|x| x.0);
    out.dedup();
    out
}

/// Castlings (structural) of a king in hand on `s`: (bit, king to, rook from, rook to).
fn castlings(b: &Board, v: i8, s: usize, avail: u8) -> Vec<(u8, usize, usize, usize)> {
    let w = v > 0;
    let base = if w { 0 } else { 56 };
    if v.abs() != KING || s != base + 4 {
        return vec![];
    }
    let sgn = if w { 1 } else { -1 };
    let own = |x: i8| x != 0 && (x > 0) == w;
    let (short, long) = if w { (WK, WQ) } else { (BK, BQ) };
    let mut out = vec![];
    if avail & short != 0
        && b[base + 7] == 4 * sgn
        && b[base + 5] == 0
        && (b[base + 6] == 0 || own(b[base + 6]))
    {
        out.push((short, base + 6, base + 7, base + 5));
    }
    if avail & long != 0
        && b[base] == 4 * sgn
        && b[base + 1] == 0
        && b[base + 3] == 0
        && (b[base + 2] == 0 || own(b[base + 2]))
    {
        out.push((long, base + 2, base, base + 3));
    }
    out
}

fn king_square(b: &Board, white: bool) -> Option<usize> {
    let k = if white { KING } else { -KING };
    (0..64).find(|&s| b[s] == k)
}

/// D10: may the side `white` castle (bit) in the position `b` as judged at the start of the
/// move: the king put on e, f, g (e, d, c) with an own piece there removed, rook home, must
/// not be capturable by one enemy combo.
fn d10_ok(b: &Board, white: bool, rights: u8, bit: u8, promos: u32) -> bool {
    let base = if white { 0 } else { 56 };
    let files: [usize; 3] = if bit & (WK | BK) != 0 {
        [4, 5, 6]
    } else {
        [4, 3, 2]
    };
    let king = if white { KING } else { -KING };
    files.iter().all(|&f| {
        let mut t = *b;
        t[base + 4] = 0;
        t[base + f] = king;
        !combo_search(
            &t,
            !white,
            rights,
            promos,
            Some(base + f),
            &mut FxSet::default(),
        )
    })
}

/// Explores every combo of side `white` on board `b` with castling rights `rights`.
/// Capture test (`king` = Some(square of the enemy king)): returns true as soon as a capture
/// step lands there; castling needs only its structural conditions. Otherwise the resulting
/// positions (side to move flipped) are collected into `out`, castling also needing D10.
/// `promos`: the fairy promotion kinds (bit per piece code).
fn combo_search(
    b: &Board,
    white: bool,
    rights: u8,
    promos: u32,
    king: Option<usize>,
    out: &mut FxSet<Pos>,
) -> bool {
    let own = |x: i8| x != 0 && (x > 0) == white;
    let sgn: i8 = if white { 1 } else { -1 };
    let last_rank = if white { 7 } else { 0 };
    let own_bits = if white { WK | WQ } else { BK | BQ };
    let capture_test = king.is_some();
    let promotion_choices = promotions(promos);
    let mut d10: [Option<bool>; 2] = [None, None];
    let mut seen: FxSet<Key> = FxSet::default();
    // (board, piece in hand, its square, rights, castling still available in this combo)
    let mut stack: Vec<(Board, i8, usize, u8, u8)> = vec![];
    for s in 0..64 {
        if own(b[s]) {
            let mut nb = *b;
            nb[s] = 0;
            stack.push((nb, b[s], s, rights, rights & own_bits));
        }
    }
    // (board after the step, square, next piece in hand or 0, rights, avail)
    let mut next: Vec<(Board, usize, i8, u8, u8)> = vec![];
    while let Some((cb, v, s, r, avail)) = stack.pop() {
        next.clear();
        for (t, kind) in steps(&cb, v, s) {
            if kind == Step::Capture && Some(t) == king {
                return true;
            }
            if capture_test && kind != Step::Challenge {
                continue; // the combo ends without taking the king
            }
            let nr = clear_rights(clear_rights(r, s), t);
            let na = clear_rights(avail, s);
            let hand = if kind == Step::Challenge { cb[t] } else { 0 };
            let promote = v.abs() == 1 && t / 8 == last_rank;
            let placed: &[i8] = if promote { &promotion_choices } else { &[1] };
            for &p in placed {
                let mut nb = cb;
                nb[t] = if promote { p * sgn } else { v };
                next.push((nb, t, hand, nr, na));
            }
        }
        for (bit, kt, rf, rt) in castlings(&cb, v, s, avail) {
            if !capture_test {
                let i = usize::from(bit & (WQ | BQ) != 0);
                if d10[i].is_none() {
                    d10[i] = Some(d10_ok(b, white, rights, bit, promos));
                }
                if d10[i] == Some(false) {
                    continue;
                }
            }
            let mut nb = cb;
            let hand = nb[kt];
            nb[rf] = 0;
            nb[rt] = 4 * sgn;
            nb[kt] = v;
            let nr = clear_rights(clear_rights(r, s), rf);
            next.push((nb, kt, hand, nr, 0));
        }
        for &(nb, t, hand, nr, na) in &next {
            if hand != 0 {
                let kr = if capture_test { 0 } else { nr };
                if seen.insert(key(&nb, hand, t, kr, na, 0)) {
                    stack.push((nb, hand, t, nr, na));
                }
            } else if !capture_test {
                out.insert(Pos {
                    b: nb,
                    white: !white,
                    castle: nr,
                    fairy_promos: promos,
                });
            }
        }
    }
    false
}

thread_local! {
    static CAPTURE_MEMO: RefCell<HashMap<Key, bool, BuildHasherDefault<Fx>>> =
        RefCell::new(HashMap::default());
}

/// Can the side `attacker` capture the enemy king with one combo on this board?
/// The attacker's combos see the defender's pieces only as occupied squares (they block, and
/// a step onto one is a capture that ends the combo) except the king square, so the answer is
/// memoized on the board with the defender's other pieces replaced by a neutral blocker.
fn can_capture_king(b: &Board, attacker: bool, rights: u8, promos: u32) -> bool {
    let Some(k) = king_square(b, !attacker) else {
        return false;
    };
    let mut nb = *b;
    for v in nb.iter_mut() {
        if *v != 0 && (*v > 0) != attacker && v.abs() != KING {
            *v = if *v > 0 { BLOCKER } else { -BLOCKER };
        }
    }
    let rights = rights & if attacker { WK | WQ } else { BK | BQ };
    let memo_key = key(&nb, i8::from(attacker), 0, rights, 0, promos);
    if let Some(r) = CAPTURE_MEMO.with(|m| m.borrow().get(&memo_key).copied()) {
        return r;
    }
    let r = combo_search(
        &nb,
        attacker,
        rights,
        promos,
        Some(k),
        &mut FxSet::default(),
    );
    CAPTURE_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() > 2_000_000 {
            m.clear();
        }
        m.insert(memo_key, r);
    });
    r
}

/// Is the side to move in combo check?
fn in_combo_check(p: &Pos) -> bool {
    can_capture_king(&p.b, !p.white, p.castle, p.fairy_promos)
}

/// All distinct resulting positions, legal or not.
fn pseudo_moves(p: &Pos) -> FxSet<Pos> {
    let mut out = FxSet::default();
    combo_search(&p.b, p.white, p.castle, p.fairy_promos, None, &mut out);
    out
}

/// D11: the mover's king must not be capturable by one enemy combo afterwards.
fn legal(q: &Pos) -> bool {
    !can_capture_king(&q.b, q.white, q.castle, q.fairy_promos)
}

fn legal_moves(p: &Pos) -> Vec<Pos> {
    pseudo_moves(p).into_iter().filter(legal).collect()
}

fn perft(p: &Pos, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    let moves = legal_moves(p);
    if d == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|q| perft(q, d - 1)).sum()
}

/// Plays a combo given as squares (`["f1", "g2", "g3"]`: the piece on f1 steps to g2, the
/// piece in hand there steps to g3, ...), independently of the generator: a step onto an own
/// piece challenges it; a king step of two files from its home square castles. Pawns reaching
/// the last rank become `promo`.
fn play(p: &Pos, path: &[&str], promo: i8) -> Pos {
    let mut b = p.b;
    let mut s = sq(path[0]);
    let mut v = b[s];
    assert!(v != 0 && (v > 0) == p.white, "no own piece on {}", path[0]);
    b[s] = 0;
    let mut castle = p.castle;
    for (i, name) in path[1..].iter().enumerate() {
        let t = sq(name);
        castle = clear_rights(clear_rights(castle, s), t);
        let held = b[t];
        if v.abs() == KING && (t as i8 - s as i8).abs() == 2 {
            let (rf, rt) = if t % 8 == 6 {
                (t + 1, t - 1)
            } else {
                (t - 2, t + 1)
            };
            castle = clear_rights(castle, rf);
            b[rt] = b[rf];
            b[rf] = 0;
        }
        let last = if p.white { 7 } else { 0 };
        b[t] = if v.abs() == 1 && t / 8 == last {
            promo * v.signum()
        } else {
            v
        };
        let challenge = held != 0 && (held > 0) == p.white;
        assert_eq!(challenge, i + 2 < path.len(), "step {i} to {name}");
        v = held;
        s = t;
    }
    Pos {
        b,
        white: !p.white,
        castle,
        fairy_promos: p.fairy_promos,
    }
}

fn fen(p: &Pos) -> String {
    let mut out = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            let v = p.b[r * 8 + f];
            if v == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push_str(&fen_piece(v));
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    let mut cs = String::new();
    for (c, bit) in [('K', WK), ('Q', WQ), ('k', BK), ('q', BQ)] {
        if p.castle & bit != 0 {
            cs.push(c);
        }
    }
    if cs.is_empty() {
        cs.push('-');
    }
    format!("{out} {} {cs} - 0 1", if p.white { "w" } else { "b" })
}

/// chainmate's Combo rules for a root position, as its `perft` and solving commands build
/// them: the fairy kinds on the board are promotion choices.
fn chainmate_rules(pos: &chainmate::position::Position) -> chainmate::rules::Rules {
    let cond = chainmate::rules::Condition::parse("combo").expect("combo condition");
    let kinds: Vec<_> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    chainmate::rules::Rules::new(cond).with_fairy_promotions(kinds)
}

fn chainmate_perft(fen: &str, d: u32) -> u64 {
    let pos = chainmate::position::Position::from_fen(fen).unwrap();
    chainmate::rules::perft(&chainmate_rules(&pos), &pos, d)
}

/// Suite lines: `FEN ;D1 n ;D2 n ...`; `#` starts a comment line.
fn suite(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|f| {
                    let mut w = f.split_whitespace();
                    (
                        w.next().unwrap()[1..].parse().unwrap(),
                        w.next().unwrap().parse().unwrap(),
                    )
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The legal moves as FENs, for readable assertions.
fn legal_fens(fen_text: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(&parse(fen_text)).iter().map(fen).collect();
    v.sort();
    v
}

/// Is the combo given by its squares among the generated moves (legal or not)?
fn has_move(p: &Pos, path: &[&str], promo: i8) -> bool {
    pseudo_moves(p).contains(&play(p, path, promo))
}

#[test]
fn initial_array_by_hand() {
    // By hand: pawns 16 (two steps each). Knights 8 (Nb1: a3, c3, and Nd2 challenging the
    // pawn, which goes d3 or d4; the same for Ng1). Bishops 8 (Bc1: Bb2 or Bd2 challenging a
    // pawn, which goes one or two squares; the same for Bf1). Rooks 12 (Ra1: Ra2 -> a3/a4;
    // Rb1 challenging the knight -> Na3, Nc3, Nd2 -> d3/d4). Queen 21 (Qc2/Qd2/Qe2 -> pawn:
    // 6; Qc1 -> bishop b2/d2 -> pawn: 4; Qe1 challenging the king, the king in hand on e1:
    // Kd1 1, Kd2/Ke2/Kf2 -> pawn 6, Kf1 -> bishop e2/g2 -> pawn 4: 11). King 24 (Kd1
    // challenging the queen, the queen in hand on d1: Qe1 is the K/Q swap already counted,
    // Qc1 -> bishop 4, Qf1 over the emptied e1 -> bishop 4, Qc2/Qd2/Qe2 -> pawn 6: 14;
    // Kd2/Ke2/Kf2 -> pawn 6; Kf1 -> bishop 4). No castling (f1 is occupied).
    // 16 + 8 + 8 + 12 + 21 + 24 = 89, all legal (Black reaches nothing on White's side).
    assert_eq!(perft(&parse(START), 1), 89);
}

#[test]
fn simple_challenge_chain() {
    // White Ra1 Nb1 Kh1, Black Kh8. By hand:
    // Kh1: g1, g2, h2 = 3. Nb1 (b1 empty now): a3, c3, d2 = 3. Ra1: a2..a8 = 7.
    // [Ra1-b1 challenging the knight; the knight in hand on b1: a3, c3, d2] = 3 more (rook
    // on b1, a1 empty: boards different from the plain knight moves). Total 16, all legal.
    let p = parse("7k/8/8/8/8/8/8/RN5K w - - 0 1");
    assert_eq!(perft(&p, 1), 16);
    assert_eq!(
        fen(&play(&p, &["a1", "b1", "c3"], 0)),
        "7k/8/8/8/8/2N5/8/1R5K b - - 0 1"
    );
    assert!(has_move(&p, &["a1", "b1", "c3"], 0));
}

#[test]
fn piece_moves_twice() {
    // White Ra1 Kb1, Black Kh8. By hand:
    // Kb1: a2, b2, c2, c1 = 4. [Kb1-a1 challenging the rook; Ra1 in hand: a2..a8 (7), b1..h1
    // over the emptied b1 (7)] = 14 with the king on a1.
    // Ra1: a2..a8 = 7. [Ra1-b1 challenging the king; the king in hand on b1: a1 (the K/R
    // swap, the same board as [Kb1-a1; Ra1-b1]: one move), a2, b2, c2, c1] = 4 new.
    // 4 + 14 + 7 + 4 = 29, all legal.
    let p = parse("7k/8/8/8/8/8/8/RK6 w - - 0 1");
    assert_eq!(perft(&p, 1), 29);
    // White Ra1 Rb1 Kc1, Black Kh8: [Ra1-b1 (challenges Rb1); Rb1-c1 (challenges the king);
    // Kc1-b1 (challenges the a1 rook again); Rb1-b5] -- the a1 rook steps twice. Its board
    // (a1 empty, Kb1, rooks c1 and b5) needs that: with every piece moving at most once the
    // king reaches b1 only as the last step, after b1 emptied, and then a1 is still occupied.
    let p = parse("7k/8/8/8/8/8/8/RRK5 w - - 0 1");
    let path = ["a1", "b1", "c1", "b1", "b5"];
    assert_eq!(fen(&play(&p, &path, 0)), "7k/8/8/1R6/8/8/8/1KR5 b - - 0 1");
    assert!(has_move(&p, &path, 0));
    // [Ra1-b1 (challenges Rb1); Rb1-a1] gives the start board back: a move (a pass) that
    // differs from the start only by the side to move.
    assert!(has_move(&p, &["a1", "b1", "a1"], 0));
    assert!(pseudo_moves(&p).contains(&Pos {
        white: false,
        ..p.clone()
    }));
}

#[test]
fn pawn_challenges_forward_only() {
    // White Kh1 Pe2 Nd3 Nf3, Black Kh8. The pawn: e3, e4 = 2; it never steps onto d3 or f3
    // (diagonal steps are captures only). Nd3: b2, b4, c1, c5, e1, e5, f2, f4 = 8.
    // Nf3: d2, d4, e1, e5, g1, g5, h2, h4 = 8. King: g1, g2, h2 = 3. No knight or king
    // target holds an own piece. Total 21, all legal.
    let p = parse("7k/8/8/8/8/3N1N2/4P3/7K w - - 0 1");
    assert_eq!(perft(&p, 1), 21);
    // White Kh1 Pe2 Ne3, Black Kh8. [e2-e3 challenging the knight; the knight in hand on
    // e3: c2, c4, d1, d5, f1, f5, g2, g4] = 8; e2-e4 is impossible (e3 is not empty).
    // The knight itself: the same 8 squares with the pawn on e2 = 8. King: 3. Total 19.
    let p = parse("7k/8/8/8/8/4N3/4P3/7K w - - 0 1");
    assert_eq!(perft(&p, 1), 19);
    // White Kh1 Pe2 Bd3, Black Kh8 Ne3: the enemy knight blocks the pawn, the own bishop on
    // d3 is no target for it. Bd3: c2, b1, c4, b5, a6, e4, f5, g6, h7 = 9; [Bd3-e2
    // challenging the pawn] dead-ends (the pawn in hand on e2 has e3 blocked by an enemy,
    // and nothing to capture: d3 is empty now, f3 too). King: g1, h2 (g2 is attacked by the
    // knight) = 2. Total 11.
    let p = parse("7k/8/8/8/8/3Bn3/4P3/7K w - - 0 1");
    assert_eq!(perft(&p, 1), 11);
    // The two-step onto an own piece challenges it: White Ke1 Pe2 Ne4, Black Ke8.
    // Ke1: d1, d2, f1, f2 = 4; [Ke1-e2 (challenges the pawn); e3, or e2-e4 over the empty e3
    // challenging the knight, which goes c3, c5, d2, d6, f2, f6, g3, g5] = 9. The pawn:
    // e3 = 1, [e2-e4 (challenges Ne4); 8 knight squares] = 8. Ne4: the 8 squares = 8.
    // Total 4 + 9 + 9 + 8 = 30, all legal.
    let p = parse("4k3/8/8/8/4N3/8/4P3/4K3 w - - 0 1");
    assert_eq!(perft(&p, 1), 30);
    assert!(has_move(&p, &["e2", "e4", "d6"], 0));
}

#[test]
fn promotion_mid_combo_then_moves_as_new_type() {
    // White Pa7 Na8 Kh1, Black Kh5. [a7-a8=Q/R/B/N challenging the knight; the knight in
    // hand on a8: b6, c7] = 4 x 2 = 8. The knight alone: b6, c7 = 2. King: g1, g2, h2 = 3.
    // Total 13, all legal.
    let p = parse("N7/P7/8/7k/8/8/8/7K w - - 0 1");
    assert_eq!(perft(&p, 1), 13);
    // White Pa7 Ra8 Rd8 Kh1, Black Kh5. [a7-a8=X (challenges Ra8); Ra8-d8 (challenges Rd8);
    // Rd8-a8 (challenges the promoted X); X in hand on a8 moves as its new type]: a queen or
    // a bishop reaches c6, a knight b6; a bishop does not reach b6, a knight not a6.
    let p = parse("R2R4/P7/8/7k/8/8/8/7K w - - 0 1");
    let path = ["a7", "a8", "d8", "a8", "c6"];
    assert_eq!(fen(&play(&p, &path, 5)), "R2R4/8/2Q5/7k/8/8/8/7K b - - 0 1");
    assert!(has_move(&p, &path, 5));
    assert!(has_move(&p, &path, 3));
    assert!(has_move(&p, &["a7", "a8", "d8", "a8", "b6"], 2));
    assert!(!has_move(&p, &["a7", "a8", "d8", "a8", "b6"], 3));
    assert!(!pseudo_moves(&p).contains(&play(&p, &["a7", "a8", "d8", "a8", "a6"], 2)));
}

#[test]
fn castling_with_own_piece_on_g1_challenged() {
    // White Ke1 Ng1 Rh1 (right K), Black Ka8. By hand:
    // [O-O: Ke1-g1 challenging the knight, Rh1-f1; the knight in hand on g1: e2, f3, h3] = 3
    // (orthodox castling is impossible: g1 is occupied).
    // Ke1: d1, d2, e2, f2, f1 = 5. Ng1: e2, f3, h3 = 3. Rh1 is stuck on the rank (g1 own:
    // [Rh1-g1 challenging the knight; e2, f3, h3] = 3) and goes h2..h8 = 7.
    // Total 3 + 5 + 3 + 3 + 7 = 21, all legal.
    let p = parse("k7/8/8/8/8/8/8/4K1NR w K - 0 1");
    assert_eq!(perft(&p, 1), 21);
    let castled = play(&p, &["e1", "g1", "f3"], 0);
    assert_eq!(fen(&castled), "k7/8/8/8/8/5N2/8/5RK1 b - - 0 1");
    assert!(legal_moves(&p).contains(&castled));
    // Rights: a knight move keeps them, a rook move does not.
    let fens = legal_fens("k7/8/8/8/8/8/8/4K1NR w K - 0 1");
    assert!(fens.contains(&"k7/8/8/8/8/5N2/8/4K2R b K - 0 1".to_string()));
    assert!(fens.contains(&"k7/8/8/8/8/8/7R/4K1N1 b - - 0 1".to_string()));
}

#[test]
fn castling_by_a_challenged_king() {
    // White Ke1 Rh1 Nf3 (right K), Black Ka8. By hand:
    // Ke1: d1, d2, e2, f2, f1 + O-O = 6.
    // Rh1: h2..h8 (7), g1, f1 (2), [Rh1-e1 challenging the king; d1, d2, e2, f2, f1] (5; no
    // castling: the rook left h1) = 14.
    // Nf3: d2, d4, e5, g5, h4, h2, g1 (7), [Nf3-e1 challenging the king; d1, d2, e2, f2, f1,
    // and O-O: Kg1, Rf1, the knight stays on e1] (6) = 13.
    // Total 33, all legal (the lone Ka8 reaches nothing).
    let p = parse("k7/8/8/8/8/5N2/8/4K2R w K - 0 1");
    assert_eq!(perft(&p, 1), 33);
    let castled = play(&p, &["f3", "e1", "g1"], 0);
    assert_eq!(fen(&castled), "k7/8/8/8/8/8/8/4NRK1 b - - 0 1");
    assert!(legal_moves(&p).contains(&castled));
    // The seed's [Qd1-e1 (challenges the king); O-O] shape, and a king that stepped from e1
    // earlier in the combo cannot castle: White Qd1 Ke1 Rh1, [Ke1-d1 (challenges Q); Qd1-e1]
    // ends on the empty e1, and no path brings the king back in hand to e1.
    let p = parse("k7/8/8/8/8/8/8/3QK2R w K - 0 1");
    assert!(has_move(&p, &["d1", "e1", "g1"], 0));
    let swap = play(&p, &["d1", "e1", "d1"], 0);
    assert_eq!(fen(&swap), "k7/8/8/8/8/8/8/3KQ2R b - - 0 1");
    assert!(pseudo_moves(&p).contains(&swap));
}

#[test]
fn d10_castling_through_combo_attack() {
    // White Ke1 Rh1 (right K), Black Kf7 Rf8. f1 is not attacked orthodoxly (the black king
    // shields the rook), but [Kf7-f8 (challenges the rook); Rf8-f1] reaches it: no O-O.
    // D1 by hand: Black captures on the f-file (f1..f6), on rank 8, and next to f7.
    // Ke1: d1, d2, e2 = 3 (f1, f2 attacked). Rh1: h2..h8, g1, f1 = 9. [Rh1-e1 challenging
    // the king; Kd1, Kd2, Ke2] = 3. Total 15.
    let p = parse("5r2/5k2/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(perft(&p, 1), 15);
    assert!(pseudo_moves(&p).iter().all(|q| q.b[sq("g1")] != 6));
    // Black Kf7 Rb8 instead: nothing reaches e1, f1, g1; O-O is generated and legal.
    let p = parse("1r6/5k2/8/8/8/8/8/4K2R w K - 0 1");
    assert!(legal_moves(&p).contains(&play(&p, &["e1", "g1"], 0)));
    // The destination with an own piece on it: for the test the knight on g1 is removed and
    // the king put there; Black [Kg7-g8 (challenges the rook); Rg8-g1] captures: no O-O,
    // even though the castling would challenge the knight away.
    let p = parse("6r1/6k1/8/8/8/8/8/4K1NR w K - 0 1");
    assert!(pseudo_moves(&p).iter().all(|q| q.b[sq("g1")] != 6));
    let p = parse("6r1/8/6k1/8/8/8/8/4K1NR w K - 0 1");
    assert!(has_move(&p, &["e1", "g1", "f3"], 0));
}

#[test]
fn capture_test_castles_without_d10() {
    // White Kf1 Ba3, Black Ke8 Qg8 Rh8 (right k). Black's [O-O: Ke8-g8 challenging the
    // queen, Rh8-f8; Qg8-f8 challenging the rook; Rf8xf1] captures the white king: White is
    // in combo check although Black's own O-O would be forbidden by D10 (Ba3 hits f8).
    let p = parse("4k1qr/8/8/8/8/B7/8/5K2 w k - 0 1");
    assert!(in_combo_check(&p));
    // White's legal moves by hand: Ke1, Ke2 (g1, g2 are on the queen's file, f2 on the
    // castling line) and Bf8 (blocks the castling); every other bishop move leaves the line.
    assert_eq!(perft(&p, 1), 3);
    // With Black to move, castling is not generated (D10: f8 is attacked by the bishop).
    let p = parse("4k1qr/8/8/8/8/B7/8/5K2 b k - 0 1");
    assert!(pseudo_moves(&p).iter().all(|q| q.b[sq("g8")] != -6));
}

#[test]
fn no_en_passant() {
    // White Kh1 Pe5, Black Kh8 Pd5 (just arrived from d7): e5-e6 and Kg1, Kg2, Kh2 = 4;
    // no e5xd6.
    let before = parse("7k/3p4/8/4P3/8/8/8/7K b - - 0 1");
    let after = play(&before, &["d7", "d5"], 0);
    assert_eq!(fen(&after), "7k/8/8/3pP3/8/8/8/7K w - - 0 1");
    assert!(legal_moves(&before).contains(&after));
    assert_eq!(perft(&after, 1), 4);
}

#[test]
fn combo_check_without_orthodox_check() {
    // White Kh1, Black Kb1 Ra1. The rook is shut in by its own king (no orthodox check), but
    // [Kb1-a1 (challenges the rook); Ra1xh1 over the emptied b1] captures: combo check.
    // White: Kg1 (still on the rank, illegal), Kg2, Kh2 = 2 legal of 3.
    let p = parse("8/8/8/8/8/8/8/rk5K w - - 0 1");
    assert!(in_combo_check(&p));
    assert_eq!(pseudo_moves(&p).len(), 3);
    assert_eq!(perft(&p, 1), 2);
    // Black Kc3 Ra2: the king does not touch the rook, the rook is off the first rank.
    assert!(!in_combo_check(&parse("8/8/8/8/8/2k5/r7/7K w - - 0 1")));
}

/// The seed game from the initial array, each combo replayed by its squares and found among
/// the generated moves. Legality (D11) of every game move is pinned.
#[test]
fn seed_game() {
    let game: [(&[&str], &str); 6] = [
        (
            &["f1", "g2", "g3"], // 1. [Bg2; g3]
            "rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPPBP/RNBQK1NR b KQkq - 0 1",
        ),
        (
            &["d8", "c8", "b7", "b6"], // 1... [Qc8; Bb7; b6]
            "rnq1kbnr/pbpppppp/1p6/8/8/6P1/PPPPPPBP/RNBQK1NR w KQkq - 0 1",
        ),
        (
            &["d1", "e1", "g1", "e2", "e3"], // 2. [Qe1; O-O; Ne2; e3]
            "rnq1kbnr/pbpppppp/1p6/8/8/4P1P1/PPPPNPBP/RNB1QRK1 b kq - 0 1",
        ),
        (
            &["c8", "b7", "g2"], // 2... [Qb7; Bxg2]
            "rn2kbnr/pqpppppp/1p6/8/8/4P1P1/PPPPNPbP/RNB1QRK1 w kq - 0 1",
        ),
        (
            &["a1", "b1", "d2", "d4"], // 3. [Rb1; Nd2; d4]
            "rn2kbnr/pqpppppp/1p6/8/3P4/4P1P1/PPPNNPbP/1RB1QRK1 b kq - 0 1",
        ),
        (
            &["b7", "g2", "h3"], // 3... [Qg2+; Bh3]
            "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPNNPqP/1RB1QRK1 w kq - 0 1",
        ),
    ];
    let mut p = parse(START);
    for (path, after) in game {
        let q = play(&p, path, 0);
        assert_eq!(fen(&q), after);
        assert!(pseudo_moves(&p).contains(&q), "{path:?} from {}", fen(&p));
        // every game move is legal in the D11 sense (the mover's king is not capturable
        // afterwards; 2. [Qe1; O-O; Ne2; e3] is the seed's "??" move, bad but legal)
        assert!(legal(&q), "{path:?} leaves the king capturable");
        p = q;
    }
    // After 3... [Qg2+; Bh3] White is in combo check (Qxg1 at once).
    assert!(in_combo_check(&p));
    // White's 4th combo from the seed: 23 steps from the king on g1, ending Ka1.
    let long = [
        "g1", "f1", "e1", "f1", "e1", "f1", "e2", "c1", "d2", "f1", "e1", "d2", "c1", "e2", "e1",
        "c1", "d2", "c1", "b1", "c1", "b1", "c1", "b1", "a1",
    ];
    assert_eq!(long.len(), 24);
    let q = play(&p, &long, 0);
    assert_eq!(
        fen(&q),
        "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPBNPqP/KRR1QN2 b kq - 0 1"
    );
    let moves = pseudo_moves(&p);
    assert!(moves.contains(&q));
    // It is legal: the seed's "for example" is an escape White missed. White has 15445
    // distinct combo moves there, 10191 of them legal (e.g. [Kf1; Re1; Qf1; Ke1; Rf1; Qxg2]).
    assert!(legal(&q));
    let escape = play(&p, &["g1", "f1", "e1", "f1", "e1", "f1", "g2"], 0);
    assert!(legal(&escape) && moves.contains(&escape));
    assert_eq!(moves.len(), 15445);
    assert_eq!(moves.iter().filter(|m| legal(m)).count(), 10191);
}

/// The suite file's light part (checked by default) or its `# heavy` part (slow entries,
/// checked only by the #[ignore]d heavy tests).
fn suite_part(heavy: bool) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = include_str!("data/perft/combo.epd");
    let (light, heavy_text) = text.split_once("\n# heavy").expect("a '# heavy' section");
    suite(if heavy { heavy_text } else { light })
}

fn check_reference(heavy: bool) {
    for (fen_text, counts) in suite_part(heavy) {
        let p = parse(&fen_text);
        assert!(
            !can_capture_king(&p.b, p.white, p.castle, p.fairy_promos),
            "{fen_text}: the side to move could capture the king"
        );
        assert_eq!(fen(&p).split(" - ").next(), fen_text.split(" - ").next());
        for (d, n) in counts {
            assert_eq!(perft(&p, d), n, "reference perft({d}) of {fen_text}");
        }
    }
}

fn check_chainmate(heavy: bool) {
    for (fen_text, counts) in suite_part(heavy) {
        for (d, n) in counts {
            assert_eq!(
                chainmate_perft(&fen_text, d),
                n,
                "chainmate combo perft({d}) of {fen_text}"
            );
        }
    }
}

#[test]
fn reference_matches_suite() {
    assert!(suite_part(false).len() >= 14, "at least 14 positions");
    check_reference(false);
}

#[test]
fn combo_suite() {
    check_chainmate(false);
}

/// The heavy part (the initial array to depth 3, Kiwipete, ...): minutes in release mode.
#[test]
#[ignore]
fn reference_matches_suite_heavy() {
    check_reference(true);
}

#[test]
#[ignore]
fn combo_suite_heavy() {
    check_chainmate(true);
}

/// Prints suite lines (`FEN ;D1 n ...`) from the reference for the FENs in the file named by
/// REFERENCE_FENS (`FEN;depth` per line), with the time per position on stderr. Run with
/// `REFERENCE_FENS=... cargo test --release --test reference_combo print_suite_counts -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_suite_counts() {
    let Ok(path) = std::env::var("REFERENCE_FENS") else {
        return;
    };
    for line in std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let (fen_text, depth) = line.split_once(';').unwrap();
        let p = parse(fen_text.trim());
        let t = std::time::Instant::now();
        assert!(
            !can_capture_king(&p.b, p.white, p.castle, p.fairy_promos),
            "{fen_text}: the side to move could capture the king"
        );
        let depth = depth.trim().parse::<u32>().unwrap();
        let counts: Vec<u64> = (1..=depth).map(|d| perft(&p, d)).collect();
        let reference_time = t.elapsed();
        let text: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(i, n)| format!(";D{} {n}", i + 1))
            .collect();
        println!("{} {}", fen_text.trim(), text.join(" "));
        let t = std::time::Instant::now();
        let theirs: Vec<u64> = (1..=depth)
            .map(|d| chainmate_perft(fen_text.trim(), d))
            .collect();
        eprintln!(
            "  reference {reference_time:.2?}, chainmate {:.2?}{}",
            t.elapsed(),
            if theirs == counts {
                String::new()
            } else {
                format!(" DISAGREES: chainmate {theirs:?}")
            }
        );
    }
}

/// The legal successors of `fen` (board, side, castling), sorted; chainmate's (its rules as
/// the perft command builds them) must be the reference's.
fn successors(fen_text: &str) -> Vec<String> {
    let pos = chainmate::position::Position::from_fen(fen_text).unwrap();
    let short = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let mut theirs: Vec<String> = chainmate_rules(&pos)
        .legal_moves(&pos)
        .iter()
        .map(|(_, q)| short(&q.to_fen()))
        .collect();
    theirs.sort();
    theirs.dedup();
    let mut ours: Vec<String> = legal_moves(&parse(fen_text))
        .iter()
        .map(|q| short(&fen(q)))
        .collect();
    ours.sort();
    assert_eq!(theirs, ours, "combo successors of {fen_text}");
    ours
}

/// Combo check, for chainmate and (the same) for the reference.
fn combo_check(fen_text: &str) -> bool {
    let pos = chainmate::position::Position::from_fen(fen_text).unwrap();
    let theirs = chainmate_rules(&pos).in_check(&pos);
    assert_eq!(theirs, in_combo_check(&parse(fen_text)), "{fen_text}");
    theirs
}

/// D1 in Combo: a king compound is not royal. Only the king is the target of combo check:
/// the compound may be left capturable, may step onto an attacked square, may take a
/// protected piece, its capture ends nothing, and combo mate is mate of the king.
#[test]
fn king_compounds_are_not_royal() {
    let fen_text = "r3k3/8/8/8/8/8/(KR)7/7K w - - 0 1";
    assert!(!combo_check(fen_text));
    let after = successors(fen_text);
    assert!(after.contains(&"r3k3/8/8/8/8/8/(KR)7/6K1 b -".to_string()));
    assert!(after.contains(&"r3k3/(KR)7/8/8/8/8/8/7K b -".to_string()));

    // (The black king stands on g1, off the long diagonal: on h1 it would be in combo
    // check, [Kc6-b7 (challenges the queen); Qb7xh1].)
    let fen_text = "(kr)7/1Q6/2K5/8/8/8/8/6k1 b - - 0 1";
    assert!(!combo_check(fen_text));
    let after = successors(fen_text);
    assert!(after.contains(&"8/1(kr)6/2K5/8/8/8/8/6k1 w -".to_string()));
    assert!(after.contains(&"(kr)7/1Q6/2K5/8/8/8/8/5k2 w -".to_string()));
    assert!(combo_check("(kr)7/1Q6/2K5/8/8/8/8/7k b - - 0 1"));

    let fen_text = "(kr)7/1Q6/2K5/8/8/8/8/6k1 w - - 0 1";
    assert!(successors(fen_text).contains(&"Q7/8/2K5/8/8/8/8/6k1 b -".to_string()));
    let taken = "Q7/8/2K5/8/8/8/8/6k1 b - - 0 1";
    assert!(!combo_check(taken));
    assert!(!successors(taken).is_empty());

    let fen_text = "k6(kb)/1Q6/2K5/8/8/8/8/8 b - - 0 1";
    assert!(combo_check(fen_text));
    assert!(successors(fen_text).is_empty(), "combo mate");
}

/// The pieces on `promo` in the successors of `fen` equal to `pattern` on every other square.
fn promoted_to(fen_text: &str, pattern: &str, promo: &str) -> Vec<String> {
    let want = parse(pattern);
    let s = sq(promo);
    let mut out: Vec<String> = successors(fen_text)
        .iter()
        .map(|f| parse(&format!("{f} - 0 1")))
        .filter(|q| q.b[s] != 0 && (0..64).all(|x| x == s || q.b[x] == want.b[x]))
        .map(|q| fen_piece(q.b[s]))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Pawns promote to Q, S, R, B and the fairy kinds of the diagram (either colour), no
/// others, also inside a combo: [a7-a8=X (challenging the nightrider); Na8-b6].
#[test]
fn promotion_choices_are_the_fairy_kinds_of_the_diagram() {
    assert_eq!(
        promoted_to(
            "(N)7/P7/8/7k/8/8/8/7K w - - 0 1",
            "Q7/8/1(N)6/7k/8/8/8/7K b - - 0 1",
            "a8"
        ),
        ["(N)", "B", "N", "Q", "R"]
    );
    assert_eq!(
        promoted_to(
            "7k/8/8/8/8/8/p7/5(AM)1K b - - 0 1",
            "7k/8/8/8/8/8/8/q4(AM)1K w - - 0 1",
            "a1"
        ),
        ["(am)", "b", "n", "q", "r"]
    );
}

/// Random positions with fairy pieces (kings plus 2 to FAIRY_PIECES pieces of every kind,
/// pawns off the first and last ranks): chainmate's Combo perft(2) must be the reference's.
/// A search for disagreements, not part of the default suite: `FAIRY_RANDOM=300 cargo test
/// --release --test reference_combo random_fairy -- --ignored --nocapture`.
#[test]
#[ignore]
fn random_fairy_positions() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (count, most) = (env("FAIRY_RANDOM", 100), env("FAIRY_PIECES", 6));
    let mut next = common::lcg(0x2545_f491_4f6c_dd1d);
    let mut tried = 0;
    while tried < count {
        let mut b = [0i8; 64];
        let (wk, bk) = (next(64) as usize, next(64) as usize);
        if wk == bk {
            continue;
        }
        b[wk] = KING;
        b[bk] = -KING;
        for _ in 0..2 + next(most - 1) {
            let s = next(64) as usize;
            let code = if next(3) == 0 {
                FIRST_FAIRY as i8 + next(13) as i8
            } else {
                [1, 1, 2, 3, 4, 5][next(6) as usize]
            };
            if b[s] != 0 || (code == 1 && (s / 8 == 0 || s / 8 == 7)) {
                continue;
            }
            b[s] = if next(2) == 0 { code } else { -code };
        }
        let mut p = parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        p.b = b;
        p.castle = 0;
        let fen_text = fen(&p);
        let p = parse(&fen_text);
        if can_capture_king(&p.b, true, 0, p.fairy_promos) {
            continue;
        }
        tried += 1;
        assert_eq!(
            chainmate_perft(&fen_text, 2),
            perft(&p, 2),
            "combo perft(2) of {fen_text}"
        );
    }
}
