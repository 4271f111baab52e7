#![allow(clippy::collapsible_if)]
//! A second, deliberately simple move generator (mailbox, no bitboards, no shared code with
//! chainmate's generator) for orthodox, Teleport, Kazan, Pocket Mutation and Tatarstan chess
//! (with and without the Kazan chains), and for Popeye's plain Circe and plain Madrasi,
//! written straight from the rules. Perft counts of chainmate are compared with it on the
//! suites in tests/data/perft/*.epd, and the suites' counts are checked against it (the
//! Circe and Madrasi suites also against Popeye 4.104's move lists, see their headers).
//!
//! The fairy pieces of the rules (D1) move and capture here too: the nightrider, the knight
//! and nightrider compounds and the non-royal king compounds. Pawns promote to Q, S, R, B
//! and to every fairy piece kind standing in the root position (D2, D5, D8; Popeye's
//! convention), except in Pocket Mutation, where pawns never promote by moving.

mod common;

use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cond {
    Orthodox,
    Teleport,
    Kazan,
    Pocket,
    /// Tatarstan: a full Kazan move, then the cascade.
    Tatarstan,
    /// Tatarstan with the chains switched off: an orthodox move, then the cascade.
    TatarstanNoChains,
    /// Plain Circe: a captured unit (not a king) is reborn on its rebirth square if that is
    /// empty after the move ([`rebirth_square`]).
    Circe,
    /// Plain Madrasi: a unit (not a king) observed by an opposing unit of its own kind is
    /// paralysed ([`paralysed`]): it neither moves nor gives check, but still paralyses.
    Madrasi,
}

/// Board: 0 empty, a positive piece code (see [`PIECES`]) for White, negative for Black.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Pos {
    b: [i8; 64],
    white: bool,
    castle: [bool; 4], // white short, white long, black short, black long
    ep: i8,
    /// Pocket Mutation: the piece code in each side's pocket, 0 = empty.
    pocket: [u8; 2],
    /// Bit c set: pawns may promote to the fairy piece of code c (a kind standing in the root
    /// position; it stays the same for a whole perft).
    fairy_promos: u32,
}

/// Movement parts, written from the rules (D1): a compound moves and captures as any part.
const PAWN: u8 = 1;
/// (1,2) leap.
const LEAP_N: u8 = 2;
/// One step in any of the 8 directions (the king's step; royal only for the king itself).
const STEP_K: u8 = 4;
/// Diagonal rider.
const RIDE_B: u8 = 8;
/// Orthogonal rider.
const RIDE_R: u8 = 16;
/// (1,2) rider: the nightrider.
const RIDE_N: u8 = 32;

/// The piece codes: (FEN spelling, parts, Pocket Mutation class). Index = code. Orthodox
/// pieces are their FEN letters, the others the Popeye codes that go in parentheses in FEN
/// (docs/problem-format.md). The class table is the rules' (section 5); the king has none.
const PIECES: [(&str, u8, u8); 20] = [
    ("", 0, 0),
    ("p", PAWN, 1),
    ("n", LEAP_N, 2),
    ("b", RIDE_B, 2),
    ("r", RIDE_R, 3),
    ("q", RIDE_B | RIDE_R, 5),
    ("k", STEP_K, 0),
    ("n", RIDE_N, 3),                    // 7 nightrider, written (N)
    ("pr", RIDE_B | LEAP_N, 4),          // 8 B+S
    ("em", RIDE_R | LEAP_N, 5),          // 9 R+S
    ("am", RIDE_B | RIDE_R | LEAP_N, 7), // 10 Q+S
    ("nb", RIDE_B | RIDE_N, 5),          // 11 B+N
    ("nr", RIDE_R | RIDE_N, 6),          // 12 R+N
    ("nq", RIDE_B | RIDE_R | RIDE_N, 8), // 13 Q+N
    ("kb", RIDE_B | STEP_K, 3),          // 14 B+K
    ("kr", RIDE_R | STEP_K, 4),          // 15 R+K
    ("kc", RIDE_B | LEAP_N | STEP_K, 5), // 16 B+S+K
    ("ke", RIDE_R | LEAP_N | STEP_K, 6), // 17 R+S+K
    ("kf", RIDE_B | RIDE_N | STEP_K, 6), // 18 B+N+K
    ("kg", RIDE_R | RIDE_N | STEP_K, 7), // 19 R+N+K
];
const KING: i8 = 6;
const FIRST_FAIRY: usize = 7;

fn parts(v: i8) -> u8 {
    PIECES[v.unsigned_abs() as usize].1
}

fn class(v: i8) -> u8 {
    PIECES[v.unsigned_abs() as usize].2
}

/// The code of a FEN piece: a letter, or a fairy code (without its parentheses).
fn piece_code(text: &str, fairy: bool) -> i8 {
    let t = text.to_ascii_lowercase();
    let range = if fairy {
        FIRST_FAIRY..PIECES.len()
    } else {
        1..FIRST_FAIRY
    };
    let c = range
        .into_iter()
        .find(|&i| PIECES[i].0 == t)
        .unwrap_or_else(|| panic!("piece {text}")) as i8;
    let white = text.chars().next().unwrap().is_ascii_uppercase();
    if white { c } else { -c }
}

/// FEN pieces of a text: letters and parenthesised fairy codes, as piece codes.
fn fen_pieces(text: &str) -> Vec<Result<i8, usize>> {
    let mut out = vec![];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            out.push(Err(d as usize));
        } else if c == '(' {
            let code: String = chars.by_ref().take_while(|&x| x != ')').collect();
            out.push(Ok(piece_code(&code, true)));
        } else {
            out.push(Ok(piece_code(&c.to_string(), false)));
        }
    }
    out
}

/// FEN spelling of a piece code.
fn fen_piece(v: i8) -> String {
    let a = v.unsigned_abs() as usize;
    let s = if a >= FIRST_FAIRY {
        format!("({})", PIECES[a].0)
    } else {
        PIECES[a].0.to_string()
    };
    if v > 0 { s.to_ascii_uppercase() } else { s }
}

/// Promotion choices (codes): Q, S, R, B, then the fairy kinds of the root position.
fn promotions(p: &Pos) -> Vec<i8> {
    let mut v = vec![5, 2, 4, 3];
    v.extend(
        (FIRST_FAIRY..PIECES.len())
            .filter(|&c| p.fairy_promos & (1 << c) != 0)
            .map(|c| c as i8),
    );
    v
}

const N: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const K: [(i8, i8); 8] = [
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

fn at(f: i8, r: i8) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn parse(fen: &str) -> Pos {
    let mut it = fen.split_whitespace();
    let mut b = [0i8; 64];
    let placement = it.next().unwrap();
    let (board_text, pockets) = match placement.split_once('[') {
        Some((bt, rest)) => (bt, rest.trim_end_matches(']')),
        None => (placement, ""),
    };
    for (ri, row) in board_text.split('/').enumerate() {
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
    let castle = [
        cs.contains('K'),
        cs.contains('Q'),
        cs.contains('k'),
        cs.contains('q'),
    ];
    let ep = match it.next() {
        Some(s) if s != "-" => {
            let c = s.as_bytes();
            ((c[1] - b'1') * 8 + (c[0] - b'a')) as i8
        }
        _ => -1,
    };
    let mut fairy_promos = 0;
    for v in b {
        if v.unsigned_abs() as usize >= FIRST_FAIRY {
            fairy_promos |= 1 << v.unsigned_abs();
        }
    }
    let mut p = Pos {
        b,
        white,
        castle,
        ep,
        pocket: [0, 0],
        fairy_promos,
    };
    for x in fen_pieces(pockets) {
        let v = x.expect("a piece in the pocket");
        assert!(v.abs() != KING, "no king in a pocket");
        p.pocket[usize::from(v < 0)] = v.unsigned_abs();
    }
    // rights need king and rook at home
    for (i, (k, r)) in [(4, 7), (4, 0), (60, 63), (60, 56)].iter().enumerate() {
        let s = if i < 2 { 1 } else { -1 };
        if p.b[*k] != KING * s || p.b[*r] != 4 * s {
            p.castle[i] = false;
        }
    }
    fix_ep(&mut p);
    p
}

fn own(p: &Pos, v: i8) -> bool {
    if p.white { v > 0 } else { v < 0 }
}

/// Squares a piece on `s` attacks (captures on), given the board.
fn attacks(b: &[i8; 64], s: usize) -> Vec<usize> {
    let v = b[s];
    let (f, r) = ((s % 8) as i8, (s / 8) as i8);
    let mut out = vec![];
    let leap = |ds: &[(i8, i8)], out: &mut Vec<usize>| {
        for &(df, dr) in ds {
            if let Some(t) = at(f + df, r + dr) {
                out.push(t);
            }
        }
    };
    let ride = |ds: &[(i8, i8)], out: &mut Vec<usize>| {
        for &(df, dr) in ds {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(t) = at(x, y) {
                out.push(t);
                if b[t] != 0 {
                    break;
                }
                x += df;
                y += dr;
            }
        }
    };
    let ps = parts(v);
    if ps & PAWN != 0 {
        let dr = if v > 0 { 1 } else { -1 };
        leap(&[(1, dr), (-1, dr)], &mut out);
    }
    if ps & LEAP_N != 0 {
        leap(&N, &mut out);
    }
    if ps & STEP_K != 0 {
        leap(&K, &mut out);
    }
    if ps & RIDE_B != 0 {
        ride(&DIAG, &mut out);
    }
    if ps & RIDE_R != 0 {
        ride(&ORTH, &mut out);
    }
    if ps & RIDE_N != 0 {
        ride(&N, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn attacked(b: &[i8; 64], s: usize, by_white: bool) -> bool {
    (0..64).any(|x| b[x] != 0 && (b[x] > 0) == by_white && attacks(b, x).contains(&s))
}

/// Is the royal king of `white` attacked? (King compounds are not royal: only code 6.)
fn king_attacked(p: &Pos, white: bool) -> bool {
    let k = if white { KING } else { -KING };
    match (0..64).find(|&s| p.b[s] == k) {
        Some(s) => attacked(&p.b, s, !white),
        None => false,
    }
}

/// Madrasi: is the unit on `s` paralysed? A unit other than the (royal) king is, when an
/// opposing unit of the same kind observes it: could capture it in one move on this board
/// (geometry only: pins and the observer's own paralysis do not matter; a pawn observes
/// the two squares diagonally ahead). A pawn that has just made a two-step is also observed
/// by an opposing pawn beside it, which could take it en passant (Popeye 4.104; geometry
/// only again: the en-passant square stands whenever such a pawn is there, see [`fix_ep`],
/// even if that pawn is paralysed itself). This can only change whether the side to move is
/// in check: legality is judged after the move, when the right has lapsed.
fn paralysed(p: &Pos, s: usize) -> bool {
    let b = &p.b;
    let v = b[s];
    if v == 0 || v.abs() == KING {
        return false;
    }
    if v.abs() == 1 && p.ep >= 0 {
        // the pawn of the side not to move that passed the en-passant square
        let two_stepped = if p.white { p.ep - 8 } else { p.ep + 8 };
        if s as i8 == two_stepped {
            return true;
        }
    }
    (0..64).any(|x| b[x] == -v && attacks(b, x).contains(&s))
}

/// Is `s` attacked by `by_white` under condition `c`? In Madrasi paralysed units do not
/// attack (check, and castling out of or through check); elsewhere orthodox.
fn attacked_in(p: &Pos, s: usize, by_white: bool, c: Cond) -> bool {
    let b = &p.b;
    if c != Cond::Madrasi {
        return attacked(b, s, by_white);
    }
    (0..64).any(|x| {
        b[x] != 0 && (b[x] > 0) == by_white && attacks(b, x).contains(&s) && !paralysed(p, x)
    })
}

/// Is the royal king of `white` in check under condition `c`?
fn king_attacked_in(p: &Pos, white: bool, c: Cond) -> bool {
    let k = if white { KING } else { -KING };
    match (0..64).find(|&s| p.b[s] == k) {
        Some(s) => attacked_in(p, s, !white, c),
        None => false,
    }
}

/// Non-capturing destinations of the piece on `s` (pawns: straight steps only).
fn quiet_steps(b: &[i8; 64], s: usize) -> Vec<usize> {
    let v = b[s];
    if v.abs() == 1 {
        let dr: i8 = if v > 0 { 1 } else { -1 };
        let (f, r) = ((s % 8) as i8, (s / 8) as i8);
        let rel = if v > 0 { r } else { 7 - r };
        let mut out = vec![];
        if rel == 7 {
            return out;
        }
        if let Some(t) = at(f, r + dr) {
            if b[t] == 0 {
                out.push(t);
                if rel == 1 {
                    if let Some(t2) = at(f, r + 2 * dr) {
                        if b[t2] == 0 {
                            out.push(t2);
                        }
                    }
                }
            }
        }
        return out;
    }
    attacks(b, s).into_iter().filter(|&t| b[t] == 0).collect()
}

fn fix_ep(p: &mut Pos) {
    if p.ep < 0 {
        return;
    }
    let e = p.ep as usize;
    let (f, r) = ((e % 8) as i8, (e / 8) as i8);
    // the side to move captures: its pawns stand beside the pawn that made the two-step
    let (dr, mine) = if p.white { (-1, 1) } else { (1, -1) };
    let ok = [f - 1, f + 1]
        .iter()
        .any(|&x| at(x, r + dr).is_some_and(|s| p.b[s] == mine))
        && p.b[e] == 0;
    if !ok {
        p.ep = -1;
    }
}

fn drop_rights(p: &mut Pos, s: usize) {
    for (i, sq) in [7, 0, 63, 56].iter().enumerate() {
        if *sq == s {
            p.castle[i] = false;
        }
    }
    if s == 4 {
        p.castle[0] = false;
        p.castle[1] = false;
    }
    if s == 60 {
        p.castle[2] = false;
        p.castle[3] = false;
    }
}

/// Orthodox pseudo-legal moves as (resulting position before the side flips, from, to,
/// two-step middle square or -1, castling: vacated rook square or -1). Pocket Mutation: no
/// promotion, no castling. Madrasi: paralysed units do not move, but a paralysed rook may
/// castle, and castling is not out of or through squares attacked only by paralysed units
/// (Popeye 4.104: the king moves, and only unparalysed units check).
fn orthodox_moves(p: &Pos, c: Cond) -> Vec<(Pos, usize, usize, i8, i8)> {
    let pocket_rules = c == Cond::Pocket;
    let mut out = vec![];
    let sgn: i8 = if p.white { 1 } else { -1 };
    for s in 0..64 {
        let v = p.b[s];
        if v == 0 || !own(p, v) {
            continue;
        }
        if c == Cond::Madrasi && paralysed(p, s) {
            continue;
        }
        let mut targets: Vec<(usize, i8)> = vec![]; // (to, middle)
        if v.abs() == 1 {
            for t in quiet_steps(&p.b, s) {
                let mid = if (t as i8 - s as i8).abs() == 16 {
                    ((t + s) / 2) as i8
                } else {
                    -1
                };
                targets.push((t, mid));
            }
            for t in attacks(&p.b, s) {
                if (p.b[t] != 0 && !own(p, p.b[t])) || t as i8 == p.ep {
                    targets.push((t, -1));
                }
            }
        } else {
            for t in attacks(&p.b, s) {
                if p.b[t] == 0 || !own(p, p.b[t]) {
                    targets.push((t, -1));
                }
            }
        }
        for (t, mid) in targets {
            let mut q = p.clone();
            q.ep = -1;
            if v.abs() == 1 && t as i8 == p.ep && p.b[t] == 0 {
                let victim = if p.white { t - 8 } else { t + 8 };
                q.b[victim] = 0;
            }
            q.b[t] = v;
            q.b[s] = 0;
            drop_rights(&mut q, s);
            drop_rights(&mut q, t);
            let last = if p.white { t / 8 == 7 } else { t / 8 == 0 };
            if v.abs() == 1 && last && !pocket_rules {
                for k in promotions(p) {
                    let mut q2 = q.clone();
                    q2.b[t] = k * sgn;
                    out.push((q2, s, t, -1, -1));
                }
            } else {
                out.push((q, s, t, mid, -1));
            }
        }
    }
    // castling
    if pocket_rules {
        return out;
    }
    let (base, ki) = if p.white { (0usize, 0usize) } else { (56, 2) };
    for (j, (kt, rf, rt, path)) in [
        (6usize, 7usize, 5usize, vec![5usize, 6]),
        (2, 0, 3, vec![1, 2, 3]),
    ]
    .iter()
    .enumerate()
    {
        if !p.castle[ki + j] {
            continue;
        }
        if path.iter().any(|&x| p.b[base + x] != 0) {
            continue;
        }
        let pass = if *kt == 6 { 5 } else { 3 };
        if attacked_in(p, base + 4, !p.white, c) || attacked_in(p, base + pass, !p.white, c) {
            continue;
        }
        let mut q = p.clone();
        q.ep = -1;
        q.b[base + 4] = 0;
        q.b[base + rf] = 0;
        q.b[base + kt] = KING * sgn;
        q.b[base + rt] = 4 * sgn;
        drop_rights(&mut q, base + 4);
        out.push((q, base + 4, base + kt, -1, (base + rf) as i8));
    }
    out
}

fn finish(mut q: Pos, mid: i8, mover_white: bool, c: Cond) -> Option<Pos> {
    if king_attacked_in(&q, mover_white, c) {
        return None;
    }
    q.white = !mover_white;
    q.ep = mid;
    fix_ep(&mut q);
    Some(q)
}

fn teleports(p: &Pos) -> Vec<(Pos, i8)> {
    let mut out = vec![];
    let sgn: i8 = if p.white { 1 } else { -1 };
    for s in 0..64 {
        let x = p.b[s];
        if x == 0 || !own(p, x) || x.abs() == KING {
            continue;
        }
        for t in 0..64 {
            let y = p.b[t];
            if t == s || y == 0 || !own(p, y) || y.abs() == KING {
                continue;
            }
            // could X move to t if t were empty?
            let mut empty = p.b;
            empty[t] = 0;
            if !quiet_steps(&empty, s).contains(&t) {
                continue;
            }
            let mut q = p.clone();
            q.b[t] = x;
            q.b[s] = y;
            q.ep = -1;
            drop_rights(&mut q, s);
            drop_rights(&mut q, t);
            let mid = if x.abs() == 1 && (t as i8 - s as i8).abs() == 16 {
                ((t + s) / 2) as i8
            } else {
                -1
            };
            let last = |sq: usize| if p.white { sq / 8 == 7 } else { sq / 8 == 0 };
            let promo_sq = if x.abs() == 1 && last(t) {
                Some(t)
            } else if y.abs() == 1 && last(s) {
                Some(s)
            } else {
                None
            };
            match promo_sq {
                Some(ps) => {
                    for k in promotions(p) {
                        let mut q2 = q.clone();
                        q2.b[ps] = k * sgn;
                        out.push((q2, -1));
                    }
                }
                None => out.push((q, mid)),
            }
        }
    }
    out
}

/// Follower (Kazan) and defender (Tatarstan) order, weakest first: pawn, knight, bishop,
/// rook, queen, then the fairy pieces by Pocket Mutation class (D4), ties in the order of the
/// piece table of docs/problem-format.md (the code order here), the king last.
fn strength(v: i8) -> u32 {
    let a = v.unsigned_abs();
    if a == KING as u8 {
        10_000
    } else if (a as usize) < FIRST_FAIRY {
        u32::from(a)
    } else {
        100 * u32::from(class(v)) + u32::from(a)
    }
}

/// All Kazan chain completions of a position after the leader.
fn chains(
    q: Pos,
    white: bool,
    vacated: Vec<usize>,
    moved: Vec<usize>,
    mid: i8,
    out: &mut Vec<(Pos, i8, Vec<usize>)>,
) {
    let mut cands: Vec<(u32, usize, usize)> = vec![];
    for &v in &vacated {
        if q.b[v] != 0 {
            continue;
        }
        for s in 0..64 {
            let x = q.b[s];
            if x == 0 || (x > 0) != white || moved.contains(&s) {
                continue;
            }
            if quiet_steps(&q.b, s).contains(&v) {
                cands.push((strength(x), s, v));
            }
        }
    }
    let Some(min) = cands.iter().map(|c| c.0).min() else {
        out.push((q, mid, moved));
        return;
    };
    for &(_, s, v) in cands.iter().filter(|c| c.0 == min) {
        let x = q.b[s];
        let mut n = q.clone();
        n.b[v] = x;
        n.b[s] = 0;
        drop_rights(&mut n, s);
        drop_rights(&mut n, v);
        let m2 = if x.abs() == 1 && (v as i8 - s as i8).abs() == 16 {
            ((v + s) / 2) as i8
        } else {
            mid
        };
        let mut moved2 = moved.clone();
        moved2.push(v);
        let last = if white { v / 8 == 7 } else { v / 8 == 0 };
        if x.abs() == 1 && last {
            for k in promotions(&q) {
                let mut n2 = n.clone();
                n2.b[v] = k * x.signum();
                chains(n2, white, vec![s], moved2.clone(), m2, out);
            }
        } else {
            chains(n, white, vec![s], moved2, m2, out);
        }
    }
}

/// Tatarstan: the order among pending events of the same defender type. D17 says the result
/// does not depend on it; a test compares both orders.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TieOrder {
    Ascending,
    Descending,
}

/// Squares of the non-king pieces of its own colour that the (non-king) piece on `a`
/// defends: it could capture there if they were enemies. Kings never defend (D6).
fn defended_by(b: &[i8; 64], a: usize) -> Vec<usize> {
    let x = b[a];
    if x == 0 || x.abs() == KING {
        return vec![];
    }
    attacks(b, a)
        .into_iter()
        .filter(|&t| b[t] != 0 && b[t].abs() != KING && (b[t] > 0) == (x > 0))
        .collect()
}

/// An event: (defender type, defender square, defended square).
type Event = (i8, usize, usize);

#[derive(Clone)]
struct Cascade {
    q: Pos,
    pending: Vec<Event>,
    /// Fired event ids: (defender square, defended square, defender type).
    fired: HashSet<(usize, usize, i8)>,
}

/// Every relation in which the piece on `y` (with its current type) defends a piece becomes
/// a pending event, unless that id has already fired.
fn add_events(st: &mut Cascade, y: usize) {
    let t = st.q.b[y].abs();
    for z in defended_by(&st.q.b, y) {
        let e = (t, y, z);
        if !st.fired.contains(&(y, z, t)) && !st.pending.contains(&e) {
            st.pending.push(e);
        }
    }
}

/// Runs the cascade to the end; one result per sequence of D8 promotion choices.
fn cascade(mut st: Cascade, order: TieOrder, out: &mut Vec<Pos>) {
    loop {
        let key = |e: &Event| match order {
            TieOrder::Ascending => (strength(e.0), e.1, e.2),
            TieOrder::Descending => (strength(e.0), 63 - e.1, 63 - e.2),
        };
        let Some(i) = (0..st.pending.len()).min_by_key(|&i| key(&st.pending[i])) else {
            out.push(st.q);
            return;
        };
        let (t, a, y) = st.pending.swap_remove(i);
        if st.q.b[a].abs() != t {
            continue; // the defender changed: dropped, not fired (D17)
        }
        if !st.fired.insert((a, y, t)) {
            continue;
        }
        let v = st.q.b[y];
        if v.abs() == KING || v.abs() == t {
            continue;
        }
        let sgn = v.signum();
        st.q.b[y] = t * sgn;
        // D13: a rook changing type on its corner loses the right (a right still standing
        // means the own rook is there; kings never transform).
        drop_rights(&mut st.q, y);
        let last = if sgn > 0 { y / 8 == 7 } else { y / 8 == 0 };
        if t == 1 && last {
            // D8: it promotes at once; each choice its own outcome.
            for k in promotions(&st.q) {
                let mut br = st.clone();
                br.q.b[y] = k * sgn;
                add_events(&mut br, y);
                cascade(br, order, out);
            }
            return;
        }
        add_events(&mut st, y);
    }
}

/// Tatarstan: from the position `p` before the move and `q` after it (leader and chain,
/// side not yet flipped), with the pieces that moved standing on `moved` and `mid` the
/// square passed by the move's last pawn two-step: the cascade, then legality and the
/// en-passant square. Returns the legal final positions.
fn tatarstan_finish(p: &Pos, q: Pos, mid: i8, moved: &[usize], order: TieOrder) -> Vec<Pos> {
    let mut pending = vec![];
    for a in 0..64 {
        let before = defended_by(&p.b, a);
        for y in defended_by(&q.b, a) {
            if !moved.contains(&a) {
                assert_eq!(p.b[a], q.b[a], "an unmoved piece stays");
            }
            let new = moved.contains(&a) || moved.contains(&y) || !before.contains(&y);
            if new {
                pending.push((q.b[a].abs(), a, y));
            }
        }
    }
    let mut results = vec![];
    let st = Cascade {
        q,
        pending,
        fired: HashSet::new(),
    };
    cascade(st, order, &mut results);
    let mover = p.white;
    let pawn: i8 = if mover { 1 } else { -1 };
    results
        .into_iter()
        .filter(|r| !king_attacked(r, mover))
        .map(|mut r| {
            r.white = !mover;
            r.ep = -1;
            if mid >= 0 {
                let ps = if mover { mid + 8 } else { mid - 8 } as usize;
                if r.b[ps] == pawn {
                    r.ep = mid;
                }
            }
            fix_ep(&mut r);
            r
        })
        .collect()
}

/// Circe: the rebirth square of the unit `v` (piece code with colour) captured on `cap` (en
/// passant: the square of the captured pawn; for pawns only the file matters). Light squares
/// have (file + rank) odd, a1 = (0, 0) being dark. Fairy pieces: the promotion square of the
/// capture file (White rank 8, Black rank 1), Popeye's convention.
fn rebirth_square(v: i8, cap: usize) -> usize {
    let (f, r) = (cap % 8, cap / 8);
    let light = (f + r) % 2 == 1;
    let a = v.unsigned_abs() as usize;
    let white = v > 0;
    let home = if white { 0 } else { 56 };
    // White captured on a light square, or Black on a dark one: b1, f1, h1 / b8, f8, h8.
    let first = light == white;
    match a {
        1 => f + if white { 8 } else { 48 },
        2 => home + if first { 1 } else { 6 }, // b1/g1, b8/g8
        3 => home + if first { 5 } else { 2 }, // f1/c1, f8/c8
        4 => home + if first { 7 } else { 0 }, // h1/a1, h8/a8
        5 => home + 3,                         // d1, d8
        _ => {
            assert!(a >= FIRST_FAIRY, "kings are never captured");
            f + if white { 56 } else { 0 }
        }
    }
}

/// Circe: the move `s`-`t` of `p` (not castling) has produced `q`; if it captured, the
/// captured unit is reborn on its rebirth square when that is empty in `q`, else it
/// vanishes. A rook reborn on its own corner regains that wing's castling right when its
/// king stands on its home square.
fn circe_rebirth(p: &Pos, q: &mut Pos, s: usize, t: usize) {
    let (victim, cap) = if p.b[t] != 0 && !own(p, p.b[t]) {
        (p.b[t], t)
    } else if p.b[s].abs() == 1 && t as i8 == p.ep && p.b[t] == 0 {
        let v = if p.white { t - 8 } else { t + 8 };
        (p.b[v], v)
    } else {
        return;
    };
    let r = rebirth_square(victim, cap);
    if q.b[r] != 0 {
        return;
    }
    q.b[r] = victim;
    if victim.abs() == 4 {
        let (home, corners) = if victim > 0 {
            (4, [(7, 0), (0, 1)])
        } else {
            (60, [(63, 2), (56, 3)])
        };
        for (corner, right) in corners {
            if r == corner && q.b[home] == KING * victim.signum() {
                q.castle[right] = true;
            }
        }
    }
}

fn children(p: &Pos, c: Cond) -> Vec<Pos> {
    children_ordered(p, c, TieOrder::Ascending)
}

fn children_ordered(p: &Pos, c: Cond, order: TieOrder) -> Vec<Pos> {
    let mut set = HashSet::new();
    let mut res = vec![];
    let mut push = |q: Option<Pos>| {
        if let Some(q) = q {
            if set.insert(q.clone()) {
                res.push(q);
            }
        }
    };
    for (mut q, s, t, mid, rook_from) in orthodox_moves(p, c) {
        let mut vac = vec![s];
        let mut moved = vec![t];
        if rook_from >= 0 {
            vac.push(rook_from as usize);
            moved.push(if t % 8 == 6 { t - 1 } else { t + 1 });
        }
        match c {
            Cond::Kazan | Cond::Tatarstan => {
                let mut done = vec![];
                chains(q, p.white, vac, moved, mid, &mut done);
                for (f, m, moved) in done {
                    if c == Cond::Kazan {
                        push(finish(f, m, p.white, c));
                    } else {
                        for r in tatarstan_finish(p, f, m, &moved, order) {
                            push(Some(r));
                        }
                    }
                }
            }
            Cond::TatarstanNoChains => {
                for r in tatarstan_finish(p, q, mid, &moved, order) {
                    push(Some(r));
                }
            }
            Cond::Circe => {
                if rook_from < 0 {
                    circe_rebirth(p, &mut q, s, t);
                }
                push(finish(q, mid, p.white, c));
            }
            _ => push(finish(q, mid, p.white, c)),
        }
    }
    if c == Cond::Teleport {
        for (q, mid) in teleports(p) {
            push(finish(q, mid, p.white, c));
        }
    }
    if c == Cond::Pocket {
        for q in pocket_moves(p) {
            push(finish(q, -1, p.white, c));
        }
    }
    res
}

/// Pocketings (with every mutation) and drops of the side to move.
fn pocket_moves(p: &Pos) -> Vec<Pos> {
    let side = usize::from(!p.white);
    let sgn: i8 = if p.white { 1 } else { -1 };
    let mut out = vec![];
    if p.pocket[side] == 0 {
        for s in 0..64 {
            let v = p.b[s];
            if v == 0 || !own(p, v) || v.abs() == KING {
                continue;
            }
            let c = class(v);
            let last = if p.white { s / 8 == 7 } else { s / 8 == 0 };
            // From ranks 1-7 any piece of its class; from the last rank one of the next
            // class (D14), class 8 staying what it is.
            let choices: Vec<u8> = if last && c == 8 {
                vec![v.unsigned_abs()]
            } else {
                let target = if last { c + 1 } else { c };
                (1..PIECES.len() as u8)
                    .filter(|&x| x != KING as u8 && PIECES[x as usize].2 == target)
                    .collect()
            };
            for x in choices {
                let mut q = p.clone();
                q.b[s] = 0;
                q.ep = -1;
                drop_rights(&mut q, s);
                q.pocket[side] = x;
                out.push(q);
            }
        }
    } else {
        let x = p.pocket[side] as i8;
        for s in 0..64 {
            let last = if p.white { s / 8 == 7 } else { s / 8 == 0 };
            if p.b[s] == 0 && !last {
                let mut q = p.clone();
                q.b[s] = x * sgn;
                q.ep = -1;
                q.pocket[side] = 0;
                out.push(q);
            }
        }
    }
    out
}

fn perft(p: &Pos, c: Cond, d: u32) -> u64 {
    if d == 0 {
        return 1;
    }
    children(p, c).iter().map(|q| perft(q, c, d - 1)).sum()
}

/// chainmate's rules for a condition and a root position, as its `perft` and solving
/// commands build them: the fairy kinds on the board are promotion choices.
fn chainmate_rules(pos: &chainmate::position::Position, cond: &str) -> chainmate::rules::Rules {
    let kinds: Vec<_> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    let condition = chainmate::rules::Condition::parse(cond)
        .unwrap_or_else(|| panic!("chainmate has no condition {cond}"));
    chainmate::rules::Rules::new(condition).with_fairy_promotions(kinds)
}

fn chainmate_perft(fen: &str, cond: &str, d: u32) -> u64 {
    let pos = chainmate::position::Position::from_fen(fen).unwrap();
    chainmate::rules::perft(&chainmate_rules(&pos, cond), &pos, d)
}

/// A suite line: `FEN ;D1 n ;D2 n ...`.
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

fn check_suite(text: &str, cond: Cond, name: &str) {
    let entries = suite(text);
    assert!(entries.len() >= 12, "{name}: at least 12 positions");
    for (fen, counts) in entries {
        let p = parse(&fen);
        for (d, n) in counts {
            assert_eq!(
                perft(&p, cond, d),
                n,
                "reference {name} perft({d}) of {fen}"
            );
            assert_eq!(
                chainmate_perft(&fen, name, d),
                n,
                "chainmate {name} perft({d}) of {fen}"
            );
        }
    }
}

#[test]
fn reference_agrees_on_orthodox_perft() {
    // The reference itself is checked against public orthodox figures first.
    let p = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&p, Cond::Orthodox, 2), 2039);
    let p = parse("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    assert_eq!(perft(&p, Cond::Orthodox, 3), 2812);
    let p = parse("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
    assert_eq!(perft(&p, Cond::Orthodox, 2), 1486);
}

#[test]
fn teleport_suite() {
    check_suite(
        include_str!("data/perft/teleport.epd"),
        Cond::Teleport,
        "teleport",
    );
}

#[test]
fn pocket_mutation_suite() {
    check_suite(
        include_str!("data/perft/pocket-mutation.epd"),
        Cond::Pocket,
        "pocket-mutation",
    );
}

#[test]
fn kazan_suite() {
    check_suite(include_str!("data/perft/kazan.epd"), Cond::Kazan, "kazan");
}

/// One-kind armies: the reference's counts and chainmate's (whose chain walk has a path of
/// its own for them, `rules::kazan::OneKind`).
#[test]
fn one_kind_armies() {
    let kazan = include_str!("data/perft/kazan-armies.epd");
    let tatarstan = include_str!("data/perft/tatarstan-armies.epd");
    check_reference(kazan, Cond::Kazan, "kazan", 5);
    check_chainmate(kazan, "kazan");
    check_reference(tatarstan, Cond::Tatarstan, "tatarstan", 4);
    check_chainmate(tatarstan, "tatarstan");
}

/// A random board as a position, White to move, without castling: its FEN and the parsed
/// position, or `None` when the side not to move is in check.
fn random_board(b: [i8; 64]) -> Option<(String, Pos)> {
    let mut p = parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    p.b = b;
    p.castle = [false; 4];
    if king_attacked(&p, false) {
        return None;
    }
    let fen = format!("{} 0 1", to_fen(&p));
    let p = parse(&fen);
    Some((fen, p))
}

/// Random one-kind armies: White's king and 4 to 11 units of one kind (a line piece, the
/// knight or a fairy piece) crowded into two to four ranks, against a king and pieces of
/// every kind; Kazan and Tatarstan perft(1), chainmate's against the reference's (whose
/// Tatarstan cascade has Black's pieces defending one another when lines open).
#[test]
fn random_one_kind_armies() {
    let mut next = common::lcg(0x5851_f42d_4c95_7f2d);
    let (mut tried, mut moves) = (0, 0);
    while tried < 300 {
        let mut b = [0i8; 64];
        let code = [2, 3, 4, 5, 7, 10, 11, 15, 17][next(9) as usize];
        let (low, rows) = (next(5) as usize, 2 + next(3) as usize);
        let put = |b: &mut [i8; 64], s: usize, v: i8| {
            let free = b[s] == 0;
            if free {
                b[s] = v;
            }
            free
        };
        for _ in 0..4 + next(8) {
            let s = (low + next(rows as u64) as usize).min(7) * 8 + next(8) as usize;
            put(&mut b, s, code);
        }
        while !put(
            &mut b,
            (low + next(rows as u64) as usize).min(7) * 8 + next(8) as usize,
            KING,
        ) {}
        while !put(&mut b, next(64) as usize, -KING) {}
        for _ in 0..2 + next(6) {
            let (s, v) = (next(64) as usize, 1 + next(19) as i8);
            if v != KING && (v != 1 || (8..56).contains(&s)) {
                put(&mut b, s, -v);
            }
        }
        let Some((fen, p)) = random_board(b) else {
            continue;
        };
        tried += 1;
        for (c, name) in [(Cond::Kazan, "kazan"), (Cond::Tatarstan, "tatarstan")] {
            let ours = perft(&p, c, 1);
            assert_eq!(
                chainmate_perft(&fen, name, 1),
                ours,
                "{name} perft(1) of {fen}"
            );
            moves += ours;
        }
    }
    assert!(moves > 10_000, "{moves}");
}

const CIRCE: &str = include_str!("data/perft/circe.epd");
const MADRASI: &str = include_str!("data/perft/madrasi.epd");

#[test]
fn circe_suite() {
    check_suite(CIRCE, Cond::Circe, "circe");
    check_in_check(CIRCE, Cond::Circe, "circe");
}

#[test]
fn madrasi_suite() {
    check_suite(MADRASI, Cond::Madrasi, "madrasi");
    check_in_check(MADRASI, Cond::Madrasi, "madrasi");
}

/// The reference side of [`circe_suite`] and [`madrasi_suite`] alone (it passes whether or
/// not chainmate has the conditions).
#[test]
fn circe_madrasi_suite_counts_are_the_reference() {
    check_reference(CIRCE, Cond::Circe, "circe", 20);
    check_reference(MADRASI, Cond::Madrasi, "madrasi", 20);
}

/// The reference's legal successors of `fen` under `c`, as FEN (board, side, castling, en
/// passant), sorted.
fn reference_successors(fen: &str, c: Cond) -> Vec<String> {
    let mut out: Vec<String> = children(&parse(fen), c).iter().map(to_fen).collect();
    out.sort();
    out
}

#[test]
fn circe_reference_rebirth_squares() {
    let sq = |v: i8, cap: &str| {
        let r = rebirth_square(v, square(cap));
        format!("{}{}", (b'a' + (r % 8) as u8) as char, r / 8 + 1)
    };
    // (piece code, rebirth square after a capture on a light / on a dark square)
    for (v, light, dark) in [
        (2, "b1", "g1"),
        (3, "f1", "c1"),
        (4, "h1", "a1"),
        (5, "d1", "d1"),
        (-2, "g8", "b8"),
        (-3, "c8", "f8"),
        (-4, "a8", "h8"),
        (-5, "d8", "d8"),
    ] {
        assert_eq!(sq(v, "d5"), light, "{v} on the light d5");
        assert_eq!(sq(v, "e5"), dark, "{v} on the dark e5");
    }
    assert_eq!(sq(1, "c5"), "c2");
    assert_eq!(sq(-1, "c4"), "c7");
    // Fairy pieces: the promotion square of the capture file.
    assert_eq!(sq(7, "c5"), "c8");
    assert_eq!(sq(-10, "f4"), "f1");
    assert_eq!(sq(14, "a2"), "a8");
}

#[test]
fn circe_reference_rules() {
    let c = Cond::Circe;
    // The black rook is reborn on a8 (b3 is light) and Black regains the right q.
    assert!(
        reference_successors("4k3/8/8/8/8/1r6/8/1R2K3 w - - 0 1", c)
            .contains(&"r3k3/8/8/8/8/1R6/8/4K3 b q -".to_string())
    );
    // En passant: the pawn is reborn on d7 and blocks the rook's check on the 7th rank.
    assert!(
        reference_successors("4k3/K6r/8/3pP3/8/8/8/8 w - d6 0 1", c)
            .contains(&"4k3/K2p3r/3P4/8/8/8/8/8 b - -".to_string())
    );
    // Qd1xd3: the rook reborn on a8 would check the white king on a2: illegal.
    assert!(
        !reference_successors("4k3/8/8/8/8/3r4/K7/3Q4 w - - 0 1", c)
            .iter()
            .any(|f| f.starts_with("r3k3/8/8/8/8/3Q4/K7/8 "))
    );
    // Bc1xe3: the white bishop is reborn on c1, the square just left, and checks a3.
    assert!(
        !reference_successors("8/8/8/8/8/k3B3/8/2b1K3 b - - 0 1", c)
            .iter()
            .any(|f| f.contains("k3b3/8/2B1K3"))
    );
    // Qc2xc6: the knight reborn on g8 (c6 is light) blocks the rook's check of Ka8; the
    // only other move is Ka8-b7.
    assert_eq!(
        reference_successors("K6r/8/2n5/8/8/8/2Q5/4k3 w - - 0 1", c),
        [
            "7r/1K6/2n5/8/8/8/2Q5/4k3 b - -",
            "K5nr/8/2Q5/8/8/8/8/4k3 b - -"
        ]
    );
}

#[test]
fn madrasi_reference_rules() {
    let m = Cond::Madrasi;
    // The rooks a1/a8 and h1/h8 paralyse each other: no rook moves, but the king castles
    // with either (5 king steps and 2 castlings).
    let after = reference_successors("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", m);
    assert!(after.contains(&"r3k2r/8/8/8/8/8/8/R4RK1 b kq -".to_string()));
    assert!(after.contains(&"r3k2r/8/8/8/8/8/8/2KR3R b kq -".to_string()));
    assert_eq!(after.len(), 7);
    // f1 is observed only by the paralysed rook f8: 0-0 is legal.
    assert!(
        reference_successors("1R3r2/k7/8/8/8/8/8/4K2R w K - 0 1", m)
            .contains(&"1R3r2/k7/8/8/8/8/8/5RK1 b - -".to_string())
    );
    // The checking bishop b4 is paralysed by Bh2-d6.
    assert!(
        reference_successors("4k3/8/8/8/1b6/8/7B/4K3 w - - 0 1", m)
            .contains(&"4k3/8/3B4/8/1b6/8/8/4K3 b - -".to_string())
    );
    // Bb2-a3 would cut the white rook's observation of a1: the black rook checks h1.
    assert!(
        !reference_successors("4k3/8/8/R1b5/8/8/1B6/r6K w - - 0 1", m)
            .iter()
            .any(|f| f.starts_with("4k3/8/8/R1b5/8/B7/8/r6K"))
    );
    // The pawn e4 has just made its two-step beside d4, which could take it en passant: it
    // is paralysed and gives no check (Popeye). After d4-d3 the right has lapsed and e4
    // checks f5, so d4-d3 is illegal all the same; d4xe3 is legal.
    let fen = "8/8/8/5k2/3pP3/8/8/4K3 b - e3 0 1";
    assert!(!king_attacked_in(&parse(fen), false, m));
    assert!(king_attacked_in(&parse(fen), false, Cond::Orthodox));
    let after = reference_successors(fen, m);
    assert!(!after.iter().any(|f| f.contains("/3p4/")));
    assert!(after.contains(&"8/8/8/5k2/8/4p3/8/4K3 w - -".to_string()));
    // The same when the pawn beside cannot take, being paralysed by c3: 1.e2-e4 leaves
    // Black without a move and not in check, stalemate (Popeye: `=1` 1.e2-e4, and `#1` only
    // 1.Qg8-g4).
    let p = parse(STALEMATE_BY_TWO_STEP);
    let e4 = children(&p, m)
        .into_iter()
        .find(|q| to_fen(q) == "6Q1/3N4/8/5k2/3pP3/2P2K2/8/8 b - e3")
        .expect("1.e2-e4 is legal");
    assert!(!king_attacked_in(&e4, false, m));
    assert!(children(&e4, m).is_empty());
}

/// Madrasi: 1.e2-e4 is stalemate, not mate (see [`madrasi_reference_rules`]).
const STALEMATE_BY_TWO_STEP: &str = "6Q1/3N4/8/5k2/3p4/2P2K2/4P3/8 w - - 0 1";

/// chainmate agrees: the two-stepped pawn gives no check, and 1.e2-e4 is no mate.
#[test]
fn madrasi_two_stepped_pawn_is_paralysed() {
    let after = "6Q1/3N4/8/5k2/3pP3/2P2K2/8/8 b - e3 0 1";
    let pos = chainmate::position::Position::from_fen(after).unwrap();
    let rules = chainmate_rules(&pos, "madrasi");
    assert!(!rules.in_check(&pos), "madrasi: check in {after}");
    assert!(
        rules.legal_moves(&pos).is_empty(),
        "madrasi: moves in {after}"
    );
    let keys = mate_in_one_keys(STALEMATE_BY_TWO_STEP, "madrasi");
    assert!(
        keys.iter().any(|k| k.contains("g4")) && !keys.iter().any(|k| k.contains("e4")),
        "madrasi: #1 keys {keys:?}"
    );
}

/// Check, as chainmate's `in_check` tells it, is the reference's at the suite's roots and
/// their successors (perft counts cannot show it where no move depends on it, e.g. the
/// en-passant paralysis).
fn check_in_check(text: &str, c: Cond, name: &str) {
    for (fen, _) in suite(text) {
        let root = parse(&fen);
        for p in std::iter::once(root.clone()).chain(children(&root, c)) {
            let f = to_fen(&p);
            let pos = chainmate::position::Position::from_fen(&f).unwrap();
            let theirs = chainmate_rules(&pos, name).in_check(&pos);
            assert_eq!(
                theirs,
                king_attacked_in(&p, p.white, c),
                "{name}: check in {f}"
            );
        }
    }
}

const TATARSTAN: &str = include_str!("data/perft/tatarstan.epd");
const TATARSTAN_NOCHAINS: &str = include_str!("data/perft/tatarstan-nochains.epd");

/// The suite's counts are the reference generator's.
fn check_reference(text: &str, cond: Cond, name: &str, min: usize) {
    let entries = suite(text);
    assert!(entries.len() >= min, "{name}: at least {min} positions");
    for (fen, counts) in entries {
        let p = parse(&fen);
        for (d, n) in counts {
            assert_eq!(
                perft(&p, cond, d),
                n,
                "reference {name} perft({d}) of {fen}"
            );
        }
    }
}

/// chainmate's perft agrees with the suite's counts.
fn check_chainmate(text: &str, name: &str) {
    for (fen, counts) in suite(text) {
        for (d, n) in counts {
            assert_eq!(
                chainmate_perft(&fen, name, d),
                n,
                "chainmate {name} perft({d}) of {fen}"
            );
        }
    }
}

/// Board, side, castling and en-passant fields of a reference position.
fn to_fen(p: &Pos) -> String {
    let mut rows = vec![];
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..8 {
            let v = p.b[r * 8 + f];
            if v == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            row.push_str(&fen_piece(v));
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let mut castle: String = "KQkq"
        .chars()
        .zip(p.castle)
        .filter(|(_, on)| *on)
        .map(|(c, _)| c)
        .collect();
    if castle.is_empty() {
        castle.push('-');
    }
    let ep = if p.ep < 0 {
        "-".to_string()
    } else {
        let e = p.ep as u8;
        format!("{}{}", (b'a' + e % 8) as char, (b'1' + e / 8) as char)
    };
    let side = if p.white { "w" } else { "b" };
    // Pockets as chainmate writes them: White's piece first, only when one is filled.
    let mut board = rows.join("/");
    if p.pocket != [0, 0] {
        board.push('[');
        for (i, &x) in p.pocket.iter().enumerate() {
            if x != 0 {
                let v = x as i8;
                board.push_str(&fen_piece(if i == 0 { v } else { -v }));
            }
        }
        board.push(']');
    }
    format!("{board} {side} {castle} {ep}")
}

fn square(name: &str) -> usize {
    let c = name.as_bytes();
    usize::from(c[1] - b'1') * 8 + usize::from(c[0] - b'a')
}

/// The reference's Tatarstan results (legal ones, as FEN) of the orthodox leader
/// `from`-`to` (the first promotion choice Q for a promoting leader), with or without
/// the Kazan chains.
fn tatarstan_results(fen: &str, from: &str, to: &str, with_chains: bool) -> Vec<String> {
    let p = parse(fen);
    let (s, t) = (square(from), square(to));
    let (q, _, _, mid, rook_from) = orthodox_moves(&p, Cond::Orthodox)
        .into_iter()
        .find(|m| m.1 == s && m.2 == t)
        .expect("the leader is pseudo-legal");
    let mut vac = vec![s];
    let mut moved = vec![t];
    if rook_from >= 0 {
        vac.push(rook_from as usize);
        moved.push(if t % 8 == 6 { t - 1 } else { t + 1 });
    }
    let mut done = vec![];
    if with_chains {
        chains(q, p.white, vac, moved, mid, &mut done);
    } else {
        done.push((q, mid, moved));
    }
    let mut out: Vec<String> = done
        .into_iter()
        .flat_map(|(f, m, moved)| tatarstan_finish(&p, f, m, &moved, TieOrder::Ascending))
        .map(|r| to_fen(&r))
        .collect();
    out.sort();
    out.dedup();
    out
}

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn tatarstan_reference_knight_f3_without_chains() {
    // 1.Sg1-f3: the knight on f3 is defended by the pawns e2 and g2 and becomes a pawn; the
    // vacated g1 opens Rh1 -> Bf1 (f1=R); Rf1 defends f2 (f2=R); Rf2 defends e2, g2 and f3;
    // and so all of ranks 2 and 1 become rooks (the king excepted). The rooks a1 and h1 are
    // only ever "defended by a rook", so they never change type: D13 does not apply and
    // White keeps both castling rights (castling is blocked, not lost).
    assert_eq!(
        tatarstan_results(INITIAL, "g1", "f3", false),
        ["rnbqkbnr/pppppppp/8/8/8/5R2/RRRRRRRR/RRRRKR1R b KQkq -"]
    );
    let p = parse(INITIAL);
    assert!(
        children(&p, Cond::TatarstanNoChains)
            .iter()
            .any(|c| to_fen(c) == "rnbqkbnr/pppppppp/8/8/8/5R2/RRRRRRRR/RRRRKR1R b KQkq -")
    );
}

#[test]
fn tatarstan_reference_e4_with_chains() {
    // 1.e2-e4 (Sg1-e2, Rh1-g1), the Kazan move. Moved pieces: Pe4, Se2, Rg1. Events:
    // Bf1>e2, Qd1>e2 (e2 moved), Se2>c1, Se2>g1, Rg1>g2, Rg1>f1. Nothing defends e4.
    // Knights first: Se2>c1 (c1=S), then Sc1>a2 (a2=S); Se2>g1 (g1=S).
    // Bishops: Bf1>e2 (e2=B); Be2>d1 (d1=B); Bd1>c2 (c2=B); Bc2>b1 (b1=B), Bc2>e4 (e4=B,
    // through the empty d3); Bb1>a2 (a2=B); Be4>g2 (g2=B, through the empty f3).
    // Rooks: Rg1>g2 and Rg1>f1 are dropped (g1 is a knight now). Queen: Qd1>e2 is dropped
    // (d1 is a bishop now). White loses K (the h1 rook moved) and keeps Q (a1 never changed);
    // e4 is no longer a pawn, so no en-passant square.
    assert_eq!(
        tatarstan_results(INITIAL, "e2", "e4", true),
        ["rnbqkbnr/pppppppp/8/8/4B3/8/BPBPBPBP/RBNBKBN1 b Qkq -"]
    );
    // Without the chains only the pawn moves, and nothing new defends or is defended.
    assert_eq!(
        tatarstan_results(INITIAL, "e2", "e4", false),
        ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"]
    );
}

#[test]
fn tatarstan_reference_promotion_d8() {
    // D8: Rd1-d8 is defended by the pawn c7 and becomes a pawn on the last rank, which
    // promotes at once (four choices, four results). A queen or bishop on d8 then defends
    // c7 and turns it into its own type; a rook or knight does not.
    assert_eq!(
        tatarstan_results("7k/2P5/8/8/8/8/8/3RK3 w - - 0 1", "d1", "d8", false),
        [
            "3B3k/2B5/8/8/8/8/8/4K3 b - -",
            "3N3k/2P5/8/8/8/8/8/4K3 b - -",
            "3Q3k/2Q5/8/8/8/8/8/4K3 b - -",
            "3R3k/2P5/8/8/8/8/8/4K3 b - -",
        ]
    );
    // Black's case, mirrored: Rh1-c1 is defended by the pawn b2.
    assert_eq!(
        tatarstan_results("r3k3/8/8/8/8/4K3/1p6/7r b q - 0 1", "h1", "c1", false),
        [
            "r3k3/8/8/8/8/4K3/1b6/2b5 w q -",
            "r3k3/8/8/8/8/4K3/1p6/2n5 w q -",
            "r3k3/8/8/8/8/4K3/1p6/2r5 w q -",
            "r3k3/8/8/8/8/4K3/1q6/2q5 w q -",
        ]
    );
}

#[test]
fn tatarstan_reference_castling_rights() {
    // D13: Sf5-g3 defends h1 (h1=S, the right K is lost); then Rg8>g3 (g3=R), Rg3>h3
    // (h3=R), Rh3>h1 (h1=R again): the right stays lost.
    assert_eq!(
        tatarstan_results("6R1/8/8/k4N2/8/7N/8/4K2R w K - 0 1", "f5", "g3", false),
        ["6R1/8/8/k7/8/6RR/8/4K2R b - -"]
    );
    // Bc3-b2 defends a1 (a1=B): the right Q is lost, K stays.
    assert_eq!(
        tatarstan_results(
            "r3k2r/8/2b2b2/8/8/2B2B2/8/R3K2R w KQkq - 0 1",
            "c3",
            "b2",
            false
        ),
        ["r3k2r/8/2b2b2/8/8/5B2/1B6/B3K2R b Kkq -"]
    );
    // Castling: king and rook both moved; Rf1 defends Bf3 (through the empty f2), f3=R;
    // Rf3 defends Bc3 along the third rank, c3=R. The corner a1 is untouched: Q goes only
    // because the king moved.
    assert_eq!(
        tatarstan_results(
            "r3k2r/8/2b2b2/8/8/2B2B2/8/R3K2R w KQkq - 0 1",
            "e1",
            "g1",
            false
        ),
        ["r3k2r/8/2b2b2/8/8/2R2R2/8/R4RK1 b kq -"]
    );
}

#[test]
fn tatarstan_reference_en_passant() {
    // The two-stepped pawn on e4 is defended by Sc3 and becomes a knight: no en-passant
    // square although the pawn f4 stands beside it.
    assert_eq!(
        tatarstan_results("4k3/8/8/8/5p2/2N5/4P3/4K3 w - - 0 1", "e2", "e4", false),
        ["4k3/8/8/8/4Np2/2N5/8/4K3 b - -"]
    );
    assert_eq!(
        tatarstan_results("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", "e2", "e4", false),
        ["4k3/8/8/8/4Pp2/8/8/4K3 b - e3"]
    );
}

#[test]
fn tatarstan_reference_both_colours() {
    // D7: Sd8-c6 vacates d8 and opens Ra8 -> Bf8 for Black: f8 becomes a rook.
    assert_eq!(
        tatarstan_results("r2N1b1k/8/8/8/8/8/8/4K3 w - - 0 1", "d8", "c6", false),
        ["r4r1k/8/2N5/8/8/8/8/4K3 b - -"]
    );
    // The en-passant capture removes e5 (and vacates d5): Rh5 now defends Sb5, b5=R.
    assert_eq!(
        tatarstan_results("4k3/8/8/1n1Pp2r/8/8/8/4K3 w - e6 0 1", "d5", "e6", false),
        ["4k3/8/4P3/1r5r/8/8/8/4K3 b - -"]
    );
}

#[test]
fn tatarstan_reference_tie_order_does_not_matter() {
    // D17: the order among events of one defender type does not change the results. Checked
    // at the suites' roots and, where the suite goes deeper than 1, at their children.
    for (text, c) in [
        (TATARSTAN, Cond::Tatarstan),
        (TATARSTAN_NOCHAINS, Cond::TatarstanNoChains),
    ] {
        for (fen, counts) in suite(text) {
            let p = parse(&fen);
            let mut nodes = vec![p.clone()];
            if counts.iter().any(|&(d, _)| d > 1) {
                nodes.extend(children(&p, c));
            }
            for q in nodes {
                let a: HashSet<Pos> = children_ordered(&q, c, TieOrder::Ascending)
                    .into_iter()
                    .collect();
                let d: HashSet<Pos> = children_ordered(&q, c, TieOrder::Descending)
                    .into_iter()
                    .collect();
                assert!(a == d, "tie order changes the results of {fen}");
            }
        }
    }
}

#[test]
fn tatarstan_suite_counts_are_the_reference() {
    check_reference(TATARSTAN, Cond::Tatarstan, "tatarstan", 14);
    check_reference(
        TATARSTAN_NOCHAINS,
        Cond::TatarstanNoChains,
        "tatarstan-nochains",
        6,
    );
}

#[test]
fn tatarstan_suite() {
    check_chainmate(TATARSTAN, "tatarstan");
}

#[test]
fn tatarstan_nochains_suite() {
    check_chainmate(TATARSTAN_NOCHAINS, "tatarstan-nochains");
}

/// chainmate's successor positions of the suites' roots and of their children are the
/// reference's, castling rights and en-passant square included (which counts may not show).
#[test]
fn tatarstan_children_match_chainmate() {
    for (text, c, name) in [
        (TATARSTAN, Cond::Tatarstan, "tatarstan"),
        (
            TATARSTAN_NOCHAINS,
            Cond::TatarstanNoChains,
            "tatarstan-nochains",
        ),
    ] {
        for (fen, _) in suite(text) {
            let rules = chainmate_rules(
                &chainmate::position::Position::from_fen(&fen).unwrap(),
                name,
            );
            let root = parse(&fen);
            for p in std::iter::once(root.clone()).chain(children(&root, c)) {
                let f = to_fen(&p);
                let pos = chainmate::position::Position::from_fen(&f).unwrap();
                let mut theirs: Vec<String> = rules
                    .legal_moves(&pos)
                    .iter()
                    .map(|(_, q)| {
                        let f = q.to_fen();
                        f.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
                    })
                    .collect();
                theirs.sort();
                theirs.dedup();
                let mut ours: Vec<String> = children(&p, c).iter().map(to_fen).collect();
                ours.sort();
                assert_eq!(theirs, ours, "{name} successors of {f}");
            }
        }
    }
}

/// Prints suite lines (`FEN ;D1 n ...`) from the reference generator for the FENs in the
/// file named by REFERENCE_FENS (`FEN;depth` per line); with REFERENCE_CHILDREN set, also
/// each root's successors (`child FEN ;D1 n`). Used to write the suites; run with
/// `REFERENCE_FENS=... REFERENCE_COND=kazan cargo test --release --test reference_conditions -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_suite_counts() {
    let Ok(path) = std::env::var("REFERENCE_FENS") else {
        return;
    };
    let cond = match std::env::var("REFERENCE_COND").as_deref() {
        Ok("kazan") => Cond::Kazan,
        Ok("teleport") => Cond::Teleport,
        Ok("pocket-mutation") => Cond::Pocket,
        Ok("tatarstan") => Cond::Tatarstan,
        Ok("tatarstan-nochains") => Cond::TatarstanNoChains,
        Ok("circe") => Cond::Circe,
        Ok("madrasi") => Cond::Madrasi,
        _ => Cond::Orthodox,
    };
    for line in std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let (fen, depth) = line.split_once(';').unwrap();
        let fen = fen.trim();
        let p = parse(fen);
        assert!(
            !king_attacked_in(&p, !p.white, cond),
            "{fen}: the side not to move is in check"
        );
        let depth = depth.trim().parse::<u32>().unwrap();
        let t = std::time::Instant::now();
        let counts: Vec<u64> = (1..=depth).map(|d| perft(&p, cond, d)).collect();
        let reference_time = t.elapsed();
        let text: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(i, n)| format!(";D{} {n}", i + 1))
            .collect();
        println!("{fen} {}", text.join(" "));
        // REFERENCE_CHILDREN=1: also each legal successor with its own D1, for a depth-2
        // comparison with a program that only lists moves (Popeye's `~1`).
        if std::env::var("REFERENCE_CHILDREN").is_ok() {
            for q in children(&p, cond) {
                println!("child {} 0 1 ;D1 {}", to_fen(&q), perft(&q, cond, 1));
            }
        }
        let name = std::env::var("REFERENCE_COND").unwrap_or_else(|_| "orthodox".into());
        if chainmate::rules::Condition::parse(&name).is_none() {
            eprintln!("  reference {reference_time:.2?}, chainmate has no condition {name}");
            continue;
        }
        let t = std::time::Instant::now();
        let theirs: Vec<u64> = (1..=depth)
            .map(|d| chainmate_perft(fen, &name, d))
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

/// The conditions of this reference with chainmate's names.
const CONDITIONS: [(Cond, &str); 6] = [
    (Cond::Orthodox, "orthodox"),
    (Cond::Teleport, "teleport"),
    (Cond::Kazan, "kazan"),
    (Cond::Tatarstan, "tatarstan"),
    (Cond::TatarstanNoChains, "tatarstan-nochains"),
    (Cond::Pocket, "pocket-mutation"),
];

/// The legal successors of `fen` (board with pockets, side, castling, en-passant square),
/// sorted; chainmate's (rules as its perft command builds them) must be the reference's.
fn successors(fen: &str, c: Cond, name: &str) -> Vec<String> {
    let pos = chainmate::position::Position::from_fen(fen).unwrap();
    let mut theirs: Vec<String> = chainmate_rules(&pos, name)
        .legal_moves(&pos)
        .iter()
        .map(|(_, q)| {
            let f = q.to_fen();
            f.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
        })
        .collect();
    theirs.sort();
    theirs.dedup();
    let mut ours: Vec<String> = children(&parse(fen), c).iter().map(to_fen).collect();
    ours.sort();
    assert_eq!(theirs, ours, "{name} successors of {fen}");
    ours
}

/// Is the side to move in check, for chainmate and (the same) for the reference? (Check is
/// orthodox under all these conditions.)
fn in_check(fen: &str, name: &str) -> bool {
    let pos = chainmate::position::Position::from_fen(fen).unwrap();
    let theirs = chainmate_rules(&pos, name).in_check(&pos);
    let p = parse(fen);
    assert_eq!(theirs, king_attacked(&p, p.white), "{name}: check in {fen}");
    theirs
}

/// D1: a king compound is not royal, under every condition. It may be left attacked, it may
/// move onto an attacked square, a side whose king compound is attacked is not in check,
/// capturing it is an ordinary capture (the game goes on), and mate is mate of the king.
#[test]
fn king_compounds_are_not_royal() {
    for (c, name) in CONDITIONS {
        // White has only Kh1 and a super rook a2, attacked by the rook a8: not check.
        let fen = "r3k3/8/8/8/8/8/(KR)7/7K w - - 0 1";
        assert!(attacked(&parse(fen).b, square("a2"), false));
        assert!(!in_check(fen, name), "{name}: {fen}");
        let after = successors(fen, c, name);
        // The king walks away and leaves the super rook en prise.
        assert!(
            after.contains(&"r3k3/8/8/8/8/8/(KR)7/6K1 b - -".to_string()),
            "{name}: Kh1-g1 is legal"
        );
        // The super rook moves onto a7, attacked by the rook (and next to it).
        assert!(
            after.contains(&"r3k3/(KR)7/8/8/8/8/8/7K b - -".to_string()),
            "{name}: KRa2-a7 is legal"
        );

        // Black's super rook a8 is "mated" (attacked by the queen protected by the king,
        // a7 and b8 covered); Black's king h1 is free: no check, and the super rook may take
        // the protected queen, which a king could not.
        let fen = "(kr)7/1Q6/2K5/8/8/8/8/7k b - - 0 1";
        assert!(!in_check(fen, name), "{name}: {fen}");
        let after = successors(fen, c, name);
        assert!(
            after.contains(&"8/1(kr)6/2K5/8/8/8/8/7k w - -".to_string()),
            "{name}: KRa8xb7 is legal"
        );
        assert!(
            after.contains(&"(kr)7/1Q6/2K5/8/8/8/6k1/8 w - -".to_string()),
            "{name}: Kh1-g2 is legal"
        );

        // Capturing the super rook is no king capture: Black still has moves, not in check.
        // (In Kazan the king follows the queen, c6-b7.)
        let fen = "(kr)7/1Q6/2K5/8/8/8/8/7k w - - 0 1";
        let after = successors(fen, c, name);
        let taken = after
            .iter()
            .find(|f| f.starts_with("Q7/") && !f.contains("(kr)"))
            .unwrap_or_else(|| panic!("{name}: Qb7xa8 in {after:?}"));
        let taken = taken.replace(" b - -", " b - - 0 1");
        assert!(!in_check(&taken, name));
        assert!(
            !successors(&taken, c, name).is_empty(),
            "{name}: after Qxa8"
        );

        // The same net around the real king is mate, a super bishop beside it or not.
        let fen = "k6(kb)/1Q6/2K5/8/8/8/8/8 b - - 0 1";
        assert!(in_check(fen, name), "{name}: {fen}");
        assert!(successors(fen, c, name).is_empty(), "{name}: mate in {fen}");
    }
}

/// The keys of a `#1` under a condition, as chainmate's solver prints them.
fn mate_in_one_keys(fen: &str, name: &str) -> Vec<String> {
    use chainmate::search::solve::{Settings, solve_twin};
    let cond = chainmate::rules::Condition::parse(name).unwrap();
    let p = chainmate::problem::from_fen_arg(fen, "#1", cond).unwrap();
    let t = p.twin_instances().unwrap().remove(0);
    let rules = chainmate_rules(&t.position, name);
    let r = solve_twin(
        &t.search_input(),
        &rules,
        &Settings {
            threads: 1,
            hash_mb: 16,
            ..Settings::default()
        },
    );
    r.keys.iter().map(|k| k.text.clone()).collect()
}

/// D1 in the solver: Qb2-b7 would "mate" a royal super rook on a8, but mate needs the king:
/// no #1 there; with the king on a8 (and a super bishop on h8) Qb7 is mate.
#[test]
fn mate_needs_the_real_king() {
    for name in [
        "orthodox",
        "teleport",
        "kazan",
        "tatarstan",
        "tatarstan-nochains",
        "pocket-mutation",
        "combo",
    ] {
        assert!(
            mate_in_one_keys("(kr)7/8/2K5/8/8/8/1Q6/7k w - - 0 1", name).is_empty(),
            "{name}: no mate of a super rook"
        );
        let keys = mate_in_one_keys("k6(kb)/8/2K5/8/8/8/1Q6/8 w - - 0 1", name);
        assert!(
            keys.iter().any(|k| k.contains("b7")),
            "{name}: Qb7 mates the king: {keys:?}"
        );
    }
}

/// The pieces on `square` in the successors of `fen` that equal the board of `pattern` on
/// every square but `free` (the promotion square and squares a cascade may change).
fn promoted_to(fen: &str, c: Cond, name: &str, pattern: &str, free: &[&str]) -> Vec<String> {
    let want = parse(pattern);
    let free: Vec<usize> = free.iter().map(|s| square(s)).collect();
    let mut out: Vec<String> = successors(fen, c, name)
        .iter()
        .map(|f| parse(f))
        .filter(|q| q.b[free[0]] != 0)
        .filter(|q| (0..64).all(|s| free.contains(&s) || q.b[s] == want.b[s]))
        .map(|q| fen_piece(q.b[free[0]]))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Pawns promote to Q, S, R, B and to the fairy kinds of the diagram, of either colour, and
/// to no other (Popeye's convention; D2, D5, D8), under every condition that promotes by
/// moving. Pieces as FEN spells them: `N` is the knight, `(N)` the nightrider.
#[test]
fn promotion_choices_are_the_fairy_kinds_of_the_diagram() {
    // Orthodox: a white amazon and a black nightrider on the board.
    assert_eq!(
        promoted_to(
            "3k4/1P6/8/8/8/8/8/(AM)3K2(n) w - - 0 1",
            Cond::Orthodox,
            "orthodox",
            "1Q1k4/8/8/8/8/8/8/(AM)3K2(n) b - - 0 1",
            &["b8"],
        ),
        ["(AM)", "(N)", "B", "N", "Q", "R"]
    );
    // Black promotes to White's amazon as well.
    assert_eq!(
        promoted_to(
            "3k4/8/8/8/8/8/6p1/(AM)3K3 b - - 0 1",
            Cond::Orthodox,
            "orthodox",
            "3k4/8/8/8/8/8/8/(AM)3K1q1 w - - 0 1",
            &["g1"],
        ),
        ["(am)", "b", "n", "q", "r"]
    );
    // Teleport (D2): the super rook b8 and the pawn b7 change places (either one moving);
    // the pawn arrives on b8 and promotes.
    assert_eq!(
        promoted_to(
            "1(KR)6/1P5k/8/8/8/8/8/4K3 w - - 0 1",
            Cond::Teleport,
            "teleport",
            "1Q6/1(KR)5k/8/8/8/8/8/4K3 b - - 0 1",
            &["b8"],
        ),
        ["(KR)", "B", "N", "Q", "R"]
    );
    // Kazan (D5): the nightrider leads a8-b6, the pawn follows a7-a8 and promotes.
    assert_eq!(
        promoted_to(
            "(N)7/P6k/8/8/8/8/8/4K3 w - - 0 1",
            Cond::Kazan,
            "kazan",
            "Q7/7k/1(N)6/8/8/8/8/4K3 b - - 0 1",
            &["a8"],
        ),
        ["(N)", "B", "N", "Q", "R"]
    );
    // Tatarstan (D8): the rook-nightrider d1-d8 is defended by the pawn c7, becomes a pawn
    // on the last rank and promotes; a queen or bishop on d8 then turns c7 into its kind.
    // With the chains the king follows e1-d1.
    for (c, name, pattern) in [
        (
            Cond::Tatarstan,
            "tatarstan",
            "3Q3k/2Q5/8/8/8/8/8/3K4 b - - 0 1",
        ),
        (
            Cond::TatarstanNoChains,
            "tatarstan-nochains",
            "3Q3k/2Q5/8/8/8/8/8/4K3 b - - 0 1",
        ),
    ] {
        assert_eq!(
            promoted_to(
                "7k/2P5/8/8/8/8/8/3(NR)K3 w - - 0 1",
                c,
                name,
                pattern,
                &["d8", "c7"],
            ),
            ["(NR)", "B", "N", "Q", "R"],
            "{name}"
        );
    }
    assert_eq!(
        tatarstan_results("7k/2P5/8/8/8/8/8/3(NR)K3 w - - 0 1", "d1", "d8", false),
        [
            "3(NR)3k/2P5/8/8/8/8/8/4K3 b - -",
            "3B3k/2B5/8/8/8/8/8/4K3 b - -",
            "3N3k/2P5/8/8/8/8/8/4K3 b - -",
            "3Q3k/2Q5/8/8/8/8/8/4K3 b - -",
            "3R3k/2P5/8/8/8/8/8/4K3 b - -",
        ]
    );
}

/// Pocket Mutation: pawns never promote by moving, so the fairy pieces of the diagram add
/// no choice: a7-a8 leaves a pawn on a8. A pawn pocketed from its last rank is promoted to
/// the next class (D14): class 2, knight or bishop, whatever fairy pieces stand on the board
/// (here an amazon, class 7, and a nightrider, class 3).
#[test]
fn pocket_mutation_pawns_do_not_promote_by_moving() {
    let (c, name) = (Cond::Pocket, "pocket-mutation");
    assert_eq!(
        promoted_to(
            "4k3/P7/8/8/8/8/8/(AM)3K2(N) w - - 0 1",
            c,
            name,
            "P3k3/8/8/8/8/8/8/(AM)3K2(N) b - - 0 1",
            &["a8"],
        ),
        ["P"]
    );
    let mut pocketed: Vec<String> = successors("P3k3/8/8/8/8/8/8/(AM)3K2(N) w - - 0 1", c, name)
        .into_iter()
        .filter_map(|f| {
            f.strip_prefix("4k3/8/8/8/8/8/8/(AM)3K2(N)[")
                .map(|rest| rest.split(']').next().unwrap().to_string())
        })
        .collect();
    pocketed.sort();
    assert_eq!(pocketed, ["B", "N"]);
}

/// Random positions with fairy pieces (kings plus 2 to FAIRY_PIECES pieces of every kind,
/// pawns off the first and last ranks, pockets sometimes filled): chainmate's perft(2) must be the
/// reference's under every condition. A search for disagreements, not part of the default
/// suite: `FAIRY_RANDOM=500 cargo test --release --test reference_conditions random_fairy
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn random_fairy_positions() {
    let count: u64 = std::env::var("FAIRY_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let most: u64 = std::env::var("FAIRY_PIECES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let mut next = common::lcg(0x9e37_79b9_7f4a_7c15);
    let mut tried = 0;
    while tried < count {
        let mut b = [0i8; 64];
        let wk = next(64) as usize;
        let bk = next(64) as usize;
        if wk == bk {
            continue;
        }
        b[wk] = KING;
        b[bk] = -KING;
        for _ in 0..2 + next(most - 1) {
            let s = next(64) as usize;
            let code = [1, 1, 2, 3, 4, 5][next(6) as usize].max(if next(3) == 0 {
                FIRST_FAIRY as i8 + next(13) as i8
            } else {
                0
            });
            if b[s] != 0 || (code == 1 && (s / 8 == 0 || s / 8 == 7)) {
                continue;
            }
            b[s] = if next(2) == 0 { code } else { -code };
        }
        let Some((fen, p)) = random_board(b) else {
            continue;
        };
        tried += 1;
        for (c, name) in CONDITIONS {
            let ours = perft(&p, c, 2);
            let theirs = chainmate_perft(&fen, name, 2);
            assert_eq!(theirs, ours, "{name} perft(2) of {fen}");
        }
        if c_pocket_fen(&fen, next(19)).is_some_and(|f| {
            let q = parse(&f);
            perft(&q, Cond::Pocket, 2) != chainmate_perft(&f, "pocket-mutation", 2)
        }) {
            panic!("pocket-mutation perft(2) of {fen} with a pocket");
        }
    }
}

/// The FEN with a piece of code `x` in White's pocket (None for the king or an empty code).
fn c_pocket_fen(fen: &str, x: u64) -> Option<String> {
    let x = x as usize;
    if x == 0 || x == KING as usize {
        return None;
    }
    let (board, rest) = fen.split_once(' ').unwrap();
    Some(format!("{board}[{}] {rest}", fen_piece(x as i8)))
}
