//! Move-generation invariants for every condition (issue 15, part 4), walked along every
//! move from each position of the perft suites (tests/data/perft/*.epd; lines after a
//! `# heavy` comment are skipped). Rules are built as the app builds them
//! (`Rules::new(cond).with_fairy_promotions(kinds on the board)`).
//!
//! At every node reached (the root, and the positions after each move up to the walk's
//! depth):
//! * the incrementally updated hash equals `Position::compute_hash()` (the hash from
//!   scratch);
//! * FEN round trip: `Position::from_fen(&pos.to_fen())` equals `pos` itself (board, side,
//!   castling rights, en-passant square, pockets and hash). `from_fen` normalizes
//!   (drops castling rights without king and rook at home, and an en-passant square no pawn
//!   can use), so this also checks that every generated position is already normalized
//!   ("moves are positions").
//!
//! At every inner node (those whose moves are walked):
//! * `has_legal_move` agrees with `legal_moves` being non-empty, and `count_legal` with its
//!   length; the successor positions are pairwise distinct; after each legal move the side
//!   has changed and `other_side_in_check` is false (no legal move leaves the own king
//!   capturable under the condition);
//! * `in_check(pos)` agrees with the condition's attack test on the null move,
//!   `other_side_in_check(&pos.null_move())`, where the position has no en-passant right (the
//!   null move drops it, and under Madrasi the right paralyses the two-stepped pawn);
//! * effects: `legal_with_effects` lists the legal moves in order, `effects` of each gives
//!   its position and the same effects, and the effects played one by one on the board
//!   (an independent reading in this file) give the move's board and pockets;
//! * every move of `Rules::generate`'s list passes `Rules::is_pseudo_legal`, and `Rules::play`
//!   of it agrees with the generator: where `cheap_replay()` is true, every legal move is
//!   generated and `play` gives its position, and every generated move `play` accepts leads
//!   to a legal move's position (Teleport lists teleports with one result separately and
//!   the legal moves keep the first, D16); elsewhere the
//!   list is the legal moves in order (cut at `MoveList::CAP`) and `play` of each legal move
//!   gives its position (for at most 64 of the moves, and 6 under Combo: each replay
//!   regenerates);
//! * (at the root, every node after one move, and a hash-chosen 1/8 of the deeper inner
//!   nodes; Combo: the root only, with fewer candidates; under the conditions without cheap
//!   replay only where there are at most 128 moves) every pseudo-legal move is
//!   generated: candidates are each generated move with its `to`, `from`, `promo`, `kind` or
//!   `chain` changed (every square, every kind, every move kind, nearby chain numbers), plus
//!   random moves. A candidate that `is_pseudo_legal` accepts but the list lacks is an
//!   error under Orthodox and Teleport (whose list is the pseudo-legal moves); under the
//!   conditions whose list is the legal moves it must be illegal (`play` gives `None`) or
//!   lead to the position of a listed move (moves are positions: other chain numbers for
//!   the same result are not listed).
//!
//! Depth: every root is walked to depth 3. Each suite has a budget of nodes at ply 2 whose
//! moves are checked, per root (`Walk::walk`): where the tree is larger, a random sample of
//! the moves below the root is walked on (each reached node still checks all its moves,
//! and every position after them gets the position checks). Orthodox, Circe, Madrasi,
//! Kazan and Tatarstan without chains walk whole trees; Teleport and Pocket Mutation
//! sample the crowded positions; Tatarstan (about 0.2 s a node here) and Combo (up to
//! 10,191 moves at the root, 0.05 s a node) walk a thin sample of every root.
//! `INV_BUDGET=max` (or a number) walks whole trees (or that budget) instead: Tatarstan's
//! whole trees took 9 minutes here (Pocket Mutation 39 s, Teleport 20 s, all passing);
//! Combo's are out of reach (10^10 positions).
//! Run `cargo test --release --test invariants`.

use chainmate::core::piece::ALL_KINDS;
use chainmate::core::{Color, Kind, NO_SQUARE, Piece};
use chainmate::moves::{Effect, Effects, Move, MoveKind, MoveList};
use chainmate::position::Position;
use chainmate::rules::{Condition, Rules};
use std::collections::HashSet;

const MOVE_KINDS: [MoveKind; 9] = [
    MoveKind::Normal,
    MoveKind::DoublePush,
    MoveKind::EnPassant,
    MoveKind::Castle,
    MoveKind::Swap,
    MoveKind::SwapDouble,
    MoveKind::ToPocket,
    MoveKind::FromPocket,
    MoveKind::Compound,
];

/// Plays a move's effects on a copy of the board, one by one, as the effects say (an
/// independent reading of `Effect`): a step onto an own piece lifts that piece, and the
/// next step from that square moves it (Combo); a capture step onto an empty square takes
/// en passant.
fn apply_effects(
    pos: &Position,
    e: &Effects,
) -> (chainmate::core::board::Board, [Option<Kind>; 2]) {
    let mut board = pos.board;
    let mut pockets = pos.pockets;
    let us = pos.side;
    let mut hand: Option<(u8, Piece)> = None;
    for effect in &e.effects {
        match *effect {
            Effect::Step(st) => {
                let mut piece = match hand {
                    Some((at, p)) if at == st.from => {
                        hand = None;
                        p
                    }
                    _ => board.remove(st.from).expect("a step from an empty square"),
                };
                assert_eq!(piece.kind, st.kind, "the step's kind: {effect:?}");
                if st.castle {
                    let wing = if st.to > st.from { 0 } else { 1 };
                    let (_, _, rf, rt, _) = chainmate::position::CASTLINGS[us.idx()][wing];
                    // Combo: an own piece on the king's target is challenged.
                    if let Some(p) = board.remove(st.to) {
                        hand = Some((st.to, p));
                    }
                    let rook = board.remove(rf).expect("castling without rook");
                    board.put(st.to, piece);
                    board.put(rt, rook);
                    continue;
                }
                match board.get(st.to) {
                    Some(p) if p.color == us => hand = Some((st.to, p)),
                    Some(_) => assert!(st.capture, "a capture not marked: {effect:?}"),
                    None if st.capture => {
                        let behind = if us == Color::White {
                            st.to - 8
                        } else {
                            st.to + 8
                        };
                        board.remove(behind).expect("en passant without a pawn");
                    }
                    None => {}
                }
                board.remove(st.to);
                if let Some(k) = st.promo {
                    piece.kind = k;
                }
                board.put(st.to, piece);
            }
            Effect::Swap {
                from, to, promo, ..
            } => {
                let mut a = board.remove(from).unwrap();
                let mut b = board.remove(to).unwrap();
                if let Some(k) = promo {
                    if a.kind == Kind::Pawn && us.relative_rank(to) == 7 {
                        a.kind = k;
                    } else {
                        b.kind = k;
                    }
                }
                board.put(to, a);
                board.put(from, b);
            }
            Effect::Transform { at, kind } => {
                let mut p = board.remove(at).expect("transform on an empty square");
                p.kind = kind;
                board.put(at, p);
            }
            Effect::Pocket {
                from,
                kind,
                as_kind,
            } => {
                assert_eq!(board.remove(from).map(|p| p.kind), Some(kind));
                pockets[us.idx()] = Some(as_kind);
            }
            Effect::Drop { to, kind } => {
                assert_eq!(pockets[us.idx()], Some(kind));
                pockets[us.idx()] = None;
                board.put(to, Piece::new(us, kind));
            }
            Effect::Reborn { at, piece } => {
                assert!(board.get(at).is_none(), "a rebirth on an occupied square");
                assert_ne!(piece.color, us, "a rebirth of the mover's own unit");
                board.put(at, piece);
            }
        }
    }
    assert!(hand.is_none(), "a lifted piece never put down: {e:?}");
    (board, pockets)
}

/// A suite's FENs; lines after `# heavy` are left out.
fn suite(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = vec![];
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('#') && l.contains("heavy") && !l.contains('"') {
            break;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        out.push(l.split(';').next().unwrap().trim().to_string());
    }
    out
}

fn rules_for(cond: Condition, pos: &Position) -> Rules {
    let kinds: Vec<Kind> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
    Rules::new(cond).with_fairy_promotions(kinds)
}

struct Walk<'a> {
    rules: &'a Rules,
    root: &'a str,
    rng: u64,
    nodes: u64,
    candidates: u64,
    /// Inner nodes of which only a sample of the moves was walked further.
    sampled: u64,
}

impl Walk<'_> {
    fn rand(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn ctx(&self, pos: &Position) -> String {
        format!(
            "{} root {} at {}",
            self.rules.condition.name(),
            self.root,
            pos.to_fen()
        )
    }

    /// The checks every reached position gets.
    fn check_position(&mut self, pos: &Position) {
        self.nodes += 1;
        assert_eq!(
            pos.hash,
            pos.compute_hash(),
            "incremental hash: {}",
            self.ctx(pos)
        );
        let back = Position::from_fen(&pos.to_fen())
            .unwrap_or_else(|e| panic!("FEN does not read back ({e}): {}", self.ctx(pos)));
        assert_eq!(back, *pos, "FEN round trip: {}", self.ctx(pos));
    }

    /// Walks to `depth`. Every position reached gets `check_position`, every inner node
    /// `check_moves`; `budget` bounds the nodes of the last inner level (ply `depth - 1`)
    /// that are expanded: a node whose budget covers its moves shares it among them, else
    /// it expands `budget` of them (at least one) drawn at random and gives the others the
    /// position checks only. So every walk reaches `depth`, and it is the whole tree
    /// wherever the budget covers it.
    fn walk(&mut self, pos: &Position, ply: u32, depth: u32, budget: u64) {
        self.check_position(pos);
        if ply == depth {
            return;
        }
        let mut legal = self.check_moves(pos, ply);
        let n = legal.len() as u64;
        if ply + 1 == depth || n == 0 {
            for (_, child) in &legal {
                self.check_position(child);
            }
            return;
        }
        if budget >= n {
            for (_, child) in &legal {
                self.walk(child, ply + 1, depth, budget / n);
            }
            return;
        }
        self.sampled += 1;
        let k = budget.max(1) as usize;
        for i in 0..k {
            let j = i + self.rand() as usize % (legal.len() - i);
            legal.swap(i, j);
        }
        for (i, (_, child)) in legal.iter().enumerate() {
            if i < k {
                self.walk(child, ply + 1, depth, 1);
            } else {
                self.check_position(child);
            }
        }
    }

    /// The checks of an inner node; returns its legal moves.
    fn check_moves(&mut self, pos: &Position, ply: u32) -> Vec<(Move, Position)> {
        let r = self.rules;
        let combo = r.condition == Condition::Combo;
        let legal = r.legal_moves(pos);
        assert_eq!(
            r.has_legal_move(pos),
            !legal.is_empty(),
            "has_legal_move: {}",
            self.ctx(pos)
        );
        assert_eq!(
            r.count_legal(pos),
            legal.len() as u64,
            "count_legal: {}",
            self.ctx(pos)
        );
        // The null move drops the en-passant right, and under Madrasi that right itself
        // paralyses the pawn that has just made its two-step (so the pawn's check counts
        // only after the null move): compare where there is no such right.
        if pos.ep == NO_SQUARE {
            assert_eq!(
                r.in_check(pos),
                r.other_side_in_check(&pos.null_move()),
                "in_check vs the attack test of the null move: {}",
                self.ctx(pos)
            );
        }
        let mut children: Vec<Position> = legal.iter().map(|x| x.1).collect();
        children.sort_by_key(|c| (c.hash, c.to_fen()));
        for w in children.windows(2) {
            assert_ne!(
                w[0],
                w[1],
                "two legal moves, one position: {}",
                self.ctx(pos)
            );
        }
        for (m, c) in &legal {
            assert_ne!(c.side, pos.side, "{m:?} keeps the side: {}", self.ctx(pos));
            assert!(
                !r.other_side_in_check(c),
                "legal {m:?} leaves the own king capturable: {}",
                self.ctx(pos)
            );
        }
        // Effects describe the move completely: played on the board one by one they give
        // the move's position (Combo: the first 6 moves, each replay walks the combos).
        let with_effects = r.legal_with_effects(pos);
        assert_eq!(
            with_effects.len(),
            legal.len(),
            "legal_with_effects: {}",
            self.ctx(pos)
        );
        for ((m, c, e), (lm, lc)) in
            with_effects
                .iter()
                .zip(&legal)
                .take(if combo { 6 } else { 64 })
        {
            assert_eq!(
                (m, c),
                (lm, lc),
                "legal_with_effects order: {}",
                self.ctx(pos)
            );
            let (after, effects) = r
                .effects(pos, *m)
                .unwrap_or_else(|| panic!("no effects for legal {m:?}: {}", self.ctx(pos)));
            assert_eq!(&effects, e, "effects of {m:?} twice: {}", self.ctx(pos));
            assert_eq!(
                after.board,
                c.board,
                "effects position of {m:?}: {}",
                self.ctx(pos)
            );
            let (board, pockets) = apply_effects(pos, &effects);
            assert_eq!(
                board,
                c.board,
                "effects {effects:?} played: {}",
                self.ctx(pos)
            );
            assert_eq!(
                pockets,
                c.pockets,
                "effects {effects:?} pockets: {}",
                self.ctx(pos)
            );
        }

        let mut list = MoveList::new();
        r.generate(pos, &mut list);
        let generated: Vec<Move> = list.as_slice().to_vec();
        let gen_set: HashSet<Move> = generated.iter().copied().collect();
        assert_eq!(
            gen_set.len(),
            generated.len(),
            "a move generated twice: {}",
            self.ctx(pos)
        );
        for &m in &generated {
            assert!(
                r.is_pseudo_legal(pos, m),
                "generated {m:?} is not pseudo-legal: {}",
                self.ctx(pos)
            );
        }
        if r.cheap_replay() {
            // Every legal move is generated and played to its position; every generated
            // move that play accepts leads to a legal move's position (Teleport lists
            // teleports with the same result separately, D16; the legal moves keep one).
            for (m, c) in &legal {
                assert!(
                    gen_set.contains(m),
                    "legal {m:?} not generated: {}",
                    self.ctx(pos)
                );
                assert_eq!(
                    r.play(pos, *m),
                    Some(*c),
                    "play of {m:?}: {}",
                    self.ctx(pos)
                );
            }
            for &m in &generated {
                if let Some(c) = r.play(pos, m) {
                    assert!(
                        children.contains(&c),
                        "generated {m:?} is played to a position no legal move has: {}",
                        self.ctx(pos)
                    );
                }
            }
        } else {
            let n = legal.len().min(MoveList::CAP);
            let listed: Vec<Move> = legal[..n].iter().map(|x| x.0).collect();
            assert_eq!(
                generated,
                listed,
                "generate vs legal_moves: {}",
                self.ctx(pos)
            );
            let step = if combo {
                legal.len() / 6 + 1
            } else {
                legal.len() / 64 + 1
            };
            for (m, c) in legal.iter().step_by(step) {
                assert!(
                    r.is_pseudo_legal(pos, *m),
                    "legal {m:?} not pseudo-legal: {}",
                    self.ctx(pos)
                );
                assert_eq!(
                    r.play(pos, *m),
                    Some(*c),
                    "play of legal {m:?}: {}",
                    self.ctx(pos)
                );
            }
        }

        let sampled = if combo {
            ply == 0
        } else {
            ply <= 1 || pos.hash % 8 == 0
        };
        if sampled && (r.cheap_replay() || generated.len() <= 128) {
            self.check_complete(pos, &generated, &gen_set, &children);
        }
        legal
    }

    /// Every pseudo-legal candidate is generated (see the file comment).
    fn check_complete(
        &mut self,
        pos: &Position,
        generated: &[Move],
        gen_set: &HashSet<Move>,
        children: &[Position],
    ) {
        let r = self.rules;
        let strict = matches!(r.condition, Condition::Orthodox | Condition::Teleport);
        let combo = r.condition == Condition::Combo;
        let mut cands: Vec<Move> = vec![];
        if combo {
            // Each candidate of kind Combo replays all combos: a handful only.
            for _ in 0..24 {
                let i = self.rand() as usize % generated.len().max(1);
                let mut m = generated.get(i).copied().unwrap_or(Move::new(0, 0));
                match self.rand() % 4 {
                    0 => m.to = (self.rand() % 64) as u8,
                    1 => m.from = (self.rand() % 64) as u8,
                    2 => m.chain = m.chain.wrapping_add(1 + (self.rand() % 3) as u32),
                    _ => m.kind = MOVE_KINDS[(self.rand() % 9) as usize],
                }
                cands.push(m);
            }
        } else {
            for &m in generated {
                for s in 0..64u8 {
                    cands.push(Move { to: s, ..m });
                    cands.push(Move { from: s, ..m });
                }
                cands.push(Move { promo: None, ..m });
                for k in ALL_KINDS {
                    cands.push(Move {
                        promo: Some(k),
                        ..m
                    });
                }
                for kind in MOVE_KINDS {
                    cands.push(Move { kind, ..m });
                }
                for chain in [
                    0,
                    1,
                    2,
                    m.chain + 1,
                    m.chain.wrapping_sub(1),
                    m.chain ^ 1 << 16,
                ] {
                    cands.push(Move { chain, ..m });
                }
            }
            for _ in 0..64 {
                let x = self.rand();
                let promo = match (x >> 12) % 24 {
                    k if (k as usize) < ALL_KINDS.len() => Some(ALL_KINDS[k as usize]),
                    _ => None,
                };
                cands.push(Move {
                    from: (x % 64) as u8,
                    to: ((x >> 6) % 64) as u8,
                    promo,
                    kind: MOVE_KINDS[((x >> 20) % 9) as usize],
                    chain: ((x >> 24) % 4) as u32,
                });
            }
        }
        for c in cands {
            if gen_set.contains(&c) || c.from >= NO_SQUARE || c.to >= NO_SQUARE {
                continue;
            }
            self.candidates += 1;
            if !r.is_pseudo_legal(pos, c) {
                continue;
            }
            assert!(
                !strict,
                "pseudo-legal {c:?} is not generated: {}",
                self.ctx(pos)
            );
            if let Some(after) = r.play(pos, c) {
                assert!(
                    children.contains(&after),
                    "pseudo-legal {c:?} is legal, not generated, and its position is no \
                     listed move's: {}",
                    self.ctx(pos)
                );
            }
        }
    }
}

/// Walks every position of a suite to depth 3; `budget` bounds the expanded nodes at ply 2
/// per root (see `Walk::walk`). `INV_BUDGET` overrides it (`max`: whole trees).
fn check_suite(file: &str, cond: Condition, budget: u64) {
    let budget = match std::env::var("INV_BUDGET").as_deref() {
        Ok("max") => u64::MAX,
        Ok(b) => b.parse().expect("INV_BUDGET: a number or max"),
        Err(_) => budget,
    };
    let start = std::time::Instant::now();
    let entries = suite(file);
    assert!(!entries.is_empty(), "{file}: no positions");
    let (mut nodes, mut cands, mut partial) = (0, 0, 0);
    for fen in &entries {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let rules = rules_for(cond, &pos);
        let mut w = Walk {
            rules: &rules,
            root: fen,
            rng: pos.hash | 1,
            nodes: 0,
            candidates: 0,
            sampled: 0,
        };
        let t = std::time::Instant::now();
        w.walk(&pos, 0, 3, budget);
        if std::env::var_os("INV_TRACE").is_some() || t.elapsed().as_secs_f64() > 1.0 {
            eprintln!(
                "{file}: {fen}: {} positions, {} sampled nodes, {:.1?}",
                w.nodes,
                w.sampled,
                t.elapsed()
            );
        }
        nodes += w.nodes;
        cands += w.candidates;
        partial += (w.sampled > 0) as usize;
    }
    eprintln!(
        "{file}: {} roots to depth 3 ({partial} of them sampled), {nodes} positions, \
         {cands} candidates, {:.1?}",
        entries.len(),
        start.elapsed()
    );
}

#[test]
fn orthodox_invariants() {
    check_suite("perftsuite.epd", Condition::Orthodox, u64::MAX);
}

#[test]
fn teleport_invariants() {
    check_suite("teleport.epd", Condition::Teleport, 1_000);
}

#[test]
fn kazan_invariants() {
    check_suite("kazan.epd", Condition::Kazan, u64::MAX);
}

#[test]
fn tatarstan_invariants() {
    check_suite("tatarstan.epd", Condition::Tatarstan, 16);
}

#[test]
fn tatarstan_nochains_invariants() {
    check_suite(
        "tatarstan-nochains.epd",
        Condition::TatarstanNoChains,
        u64::MAX,
    );
}

#[test]
fn pocket_mutation_invariants() {
    check_suite("pocket-mutation.epd", Condition::PocketMutation, 1_000);
}

#[test]
fn combo_invariants() {
    check_suite("combo.epd", Condition::Combo, 6);
}

#[test]
fn circe_invariants() {
    check_suite("circe.epd", Condition::Circe, u64::MAX);
}

#[test]
fn madrasi_invariants() {
    check_suite("madrasi.epd", Condition::Madrasi, u64::MAX);
}
