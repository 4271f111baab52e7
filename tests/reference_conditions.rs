#![allow(clippy::collapsible_if)]
//! A second, deliberately simple move generator (mailbox, no bitboards, no shared code with
//! chainmate's generator) for orthodox, Teleport and Kazan chess, written straight from the
//! rules in docs/rules.md. Perft counts of chainmate are compared with it on the suites in
//! tests/data/perft/{teleport,kazan}.epd, and the suites' counts are checked against it.

use std::collections::HashSet;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cond {
    Orthodox,
    Teleport,
    Kazan,
    Pocket,
}

/// Board: 0 empty, 1..=6 white P N B R Q K, negative black.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Pos {
    b: [i8; 64],
    white: bool,
    castle: [bool; 4], // white short, white long, black short, black long
    ep: i8,
    /// Pocket Mutation: index into POCKET_NAMES + 1 per side, 0 = empty.
    pocket: [u8; 2],
}

/// Pocket Mutation classes, written from the rules' table: (name, class). Orthodox names are
/// the FEN letters; fairy pieces only ever sit in a pocket or are dropped on the last ply of
/// the suites' depths, so the reference never has to move them.
const POCKET_NAMES: [(&str, u8); 18] = [
    ("p", 1),
    ("n", 2),
    ("b", 2),
    ("r", 3),
    ("nightrider", 3),
    ("bishop+king", 3),
    ("bishop+knight", 4),
    ("rook+king", 4),
    ("q", 5),
    ("rook+knight", 5),
    ("bishop+nightrider", 5),
    ("bishop+knight+king", 5),
    ("rook+nightrider", 6),
    ("rook+knight+king", 6),
    ("bishop+nightrider+king", 6),
    ("queen+knight", 7),
    ("rook+nightrider+king", 7),
    ("queen+nightrider", 8),
];

/// Board value of a dropped piece: orthodox ones as usual, fairy ones as 10 + index (they
/// block lines but are never asked to move or attack at the suites' depths).
fn drop_value(idx: usize, white: bool) -> i8 {
    let v = match POCKET_NAMES[idx].0 {
        "p" => 1,
        "n" => 2,
        "b" => 3,
        "r" => 4,
        "q" => 5,
        _ => 10 + idx as i8,
    };
    if white { v } else { -v }
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
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                f += d as usize;
                continue;
            }
            let v = match c.to_ascii_lowercase() {
                'p' => 1,
                'n' => 2,
                'b' => 3,
                'r' => 4,
                'q' => 5,
                'k' => 6,
                _ => panic!("piece {c}"),
            };
            b[(7 - ri) * 8 + f] = if c.is_ascii_uppercase() { v } else { -v };
            f += 1;
        }
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
    let mut p = Pos {
        b,
        white,
        castle,
        ep,
        pocket: [0, 0],
    };
    for c in pockets.chars() {
        let name = c.to_ascii_lowercase().to_string();
        let idx = POCKET_NAMES
            .iter()
            .position(|(n, _)| *n == name)
            .expect("orthodox pocket") as u8;
        p.pocket[usize::from(c.is_ascii_lowercase())] = idx + 1;
    }
    // rights need king and rook at home
    for (i, (k, r)) in [(4, 7), (4, 0), (60, 63), (60, 56)].iter().enumerate() {
        let s = if i < 2 { 1 } else { -1 };
        if p.b[*k] != 6 * s || p.b[*r] != 4 * s {
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
    match v.abs() {
        1 => {
            let dr = if v > 0 { 1 } else { -1 };
            leap(&[(1, dr), (-1, dr)], &mut out);
        }
        2 => leap(&N, &mut out),
        3 => ride(&DIAG, &mut out),
        4 => ride(&ORTH, &mut out),
        5 => {
            ride(&DIAG, &mut out);
            ride(&ORTH, &mut out);
        }
        6 => leap(&K, &mut out),
        _ => {}
    }
    out
}

fn attacked(b: &[i8; 64], s: usize, by_white: bool) -> bool {
    (0..64).any(|x| b[x] != 0 && (b[x] > 0) == by_white && attacks(b, x).contains(&s))
}

fn king_attacked(p: &Pos, white: bool) -> bool {
    let k = if white { 6 } else { -6 };
    match (0..64).find(|&s| p.b[s] == k) {
        Some(s) => attacked(&p.b, s, !white),
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

const PROMOS: [i8; 4] = [5, 2, 4, 3];

/// Orthodox pseudo-legal moves as (resulting position before the side flips, from, to,
/// two-step middle square or -1, castling: vacated rook square or -1).
fn orthodox_moves(p: &Pos, pocket_rules: bool) -> Vec<(Pos, usize, usize, i8, i8)> {
    let mut out = vec![];
    let sgn: i8 = if p.white { 1 } else { -1 };
    for s in 0..64 {
        let v = p.b[s];
        if v == 0 || !own(p, v) {
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
                for k in PROMOS {
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
        if attacked(&p.b, base + 4, !p.white) || attacked(&p.b, base + pass, !p.white) {
            continue;
        }
        let mut q = p.clone();
        q.ep = -1;
        q.b[base + 4] = 0;
        q.b[base + rf] = 0;
        q.b[base + kt] = 6 * sgn;
        q.b[base + rt] = 4 * sgn;
        drop_rights(&mut q, base + 4);
        out.push((q, base + 4, base + kt, -1, (base + rf) as i8));
    }
    out
}

fn finish(mut q: Pos, mid: i8, mover_white: bool) -> Option<Pos> {
    if king_attacked(&q, mover_white) {
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
        if x == 0 || !own(p, x) || x.abs() == 6 {
            continue;
        }
        for t in 0..64 {
            let y = p.b[t];
            if t == s || y == 0 || !own(p, y) || y.abs() == 6 {
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
                    for k in PROMOS {
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

fn strength(v: i8) -> i8 {
    [0, 1, 2, 3, 4, 5, 9][v.unsigned_abs() as usize]
}

/// All Kazan chain completions of a position after the leader.
fn chains(
    q: Pos,
    white: bool,
    vacated: Vec<usize>,
    moved: Vec<usize>,
    mid: i8,
    out: &mut Vec<(Pos, i8)>,
) {
    let mut cands: Vec<(i8, usize, usize)> = vec![];
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
        out.push((q, mid));
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
            for k in PROMOS {
                let mut n2 = n.clone();
                n2.b[v] = k * x.signum();
                chains(n2, white, vec![s], moved2.clone(), m2, out);
            }
        } else {
            chains(n, white, vec![s], moved2, m2, out);
        }
    }
}

fn children(p: &Pos, c: Cond) -> Vec<Pos> {
    let mut set = HashSet::new();
    let mut res = vec![];
    let mut push = |q: Option<Pos>| {
        if let Some(q) = q {
            if set.insert(q.clone()) {
                res.push(q);
            }
        }
    };
    for (q, s, t, mid, rook_from) in orthodox_moves(p, c == Cond::Pocket) {
        match c {
            Cond::Kazan => {
                let mut vac = vec![s];
                let mut moved = vec![t];
                if rook_from >= 0 {
                    vac.push(rook_from as usize);
                    moved.push(if t % 8 == 6 { t - 1 } else { t + 1 });
                }
                let mut done = vec![];
                chains(q, p.white, vac, moved, mid, &mut done);
                for (f, m) in done {
                    push(finish(f, m, p.white));
                }
            }
            _ => push(finish(q, mid, p.white)),
        }
    }
    if c == Cond::Teleport {
        for (q, mid) in teleports(p) {
            push(finish(q, mid, p.white));
        }
    }
    if c == Cond::Pocket {
        for q in pocket_moves(p) {
            push(finish(q, -1, p.white));
        }
    }
    res
}

/// Pocketings (with every mutation) and drops of the side to move.
fn pocket_moves(p: &Pos) -> Vec<Pos> {
    let side = usize::from(!p.white);
    let mut out = vec![];
    if p.pocket[side] == 0 {
        for s in 0..64 {
            let v = p.b[s];
            if v == 0 || !own(p, v) || v.abs() == 6 {
                continue;
            }
            let name = ["", "p", "n", "b", "r", "q"][v.unsigned_abs() as usize];
            let class = POCKET_NAMES.iter().find(|(n, _)| *n == name).unwrap().1;
            let last = if p.white { s / 8 == 7 } else { s / 8 == 0 };
            let target = if last { (class + 1).min(8) } else { class };
            for (i, (_, c)) in POCKET_NAMES.iter().enumerate() {
                let fits = if last && class == 8 {
                    POCKET_NAMES[i].0 == name
                } else {
                    *c == target
                };
                if fits {
                    let mut q = p.clone();
                    q.b[s] = 0;
                    q.ep = -1;
                    drop_rights(&mut q, s);
                    q.pocket[side] = i as u8 + 1;
                    out.push(q);
                }
            }
        }
    } else {
        let idx = (p.pocket[side] - 1) as usize;
        for s in 0..64 {
            let last = if p.white { s / 8 == 7 } else { s / 8 == 0 };
            if p.b[s] == 0 && !last {
                let mut q = p.clone();
                q.b[s] = drop_value(idx, p.white);
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

fn chainmate_perft(fen: &str, cond: &str, d: u32) -> u64 {
    let pos = chainmate::position::Position::from_fen(fen).unwrap();
    let rules = chainmate::rules::Rules::new(chainmate::rules::Condition::parse(cond).unwrap());
    chainmate::rules::perft(&rules, &pos, d)
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

/// Prints suite lines (`FEN ;D1 n ...`) from the reference generator for the FENs in the
/// file named by REFERENCE_FENS (`FEN;depth` per line). Used to write the suites; run with
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
        _ => Cond::Orthodox,
    };
    for line in std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let (fen, depth) = line.split_once(';').unwrap();
        let p = parse(fen);
        let counts: Vec<String> = (1..=depth.trim().parse::<u32>().unwrap())
            .map(|d| format!(";D{d} {}", perft(&p, cond, d)))
            .collect();
        println!("{fen} {}", counts.join(" "));
    }
}
