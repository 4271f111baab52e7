//! Combo chess. When the only obstacle to a step of an own piece is another own piece on
//! the target square, the step may be made: that piece is *challenged* and must step in the
//! same turn, by the same rules. A combo ends with a step onto an empty square or a capture.
//! A piece may move several times in one combo; there is no en passant; pawns challenge
//! only with their forward steps; a pawn reaching its last rank promotes at once (the new
//! piece moves as such when challenged later). Castling is also allowed when the king's
//! destination is the only occupied square between king and rook (its own piece is then
//! challenged), and a challenged king may castle; its check conditions are judged on the
//! position at the start of the whole move (D10). A side is in *combo check* when the other
//! side could capture its king with one combo; a move that leaves the own king capturable is
//! illegal for solving (D11).
//!
//! The combos of a position are found breadth first over states (board with the piece in
//! hand taken off, the piece in hand and its square, castling rights), each state expanded
//! once: the combos of a position are the distinct final positions, and the first path
//! found to each is the shortest one (D9; ties: first lifted piece by square a1..h8, then
//! target squares in ascending order, castling after ordinary steps, promotion pieces in
//! the order Q, S, R, B). `Move::chain` numbers the distinct final positions in that order.
//!
//! "Can this side capture the king?" is first answered by the orthodox attack test (a
//! plain capture is a one-step combo), then by an over-approximation: inside one combo the
//! occupied squares stay the same (apart from the first lifted square and a castling), and
//! only the kinds of the own pieces on them move around, so the set of (kind, square) pairs
//! a piece in hand can reach is computed as a fixpoint over bitboards. Only when that set
//! reaches the king does the exact search run.

use super::Rules;
use crate::core::bitboard::{KING, pawn_attacks};
use crate::core::board::piece_attacks;
use crate::core::piece::KIND_COUNT;
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Piece, Square, Squares, bb, square_name};
use crate::moves::{Effect, Effects, Layout, Move, MoveKind, Step};
use crate::position::{CASTLE_MASK, CASTLINGS, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;

/// Combo chess.
pub struct Combo;

/// A combo's steps as effects.
fn steps_effects(steps: Vec<Step>) -> Effects {
    Effects {
        layout: Layout::Steps,
        effects: steps.into_iter().map(Effect::Step).collect(),
        en_passant: false,
    }
}

impl super::ConditionRules for Combo {
    const NAME: &'static str = "combo";
    const ALIASES: &'static [&'static str] = &["combo", "combochess"];
    const TITLE: Option<&'static str> = Some("Combo Chess");
    const REFILLS_DOUBLE_STEP_ORIGIN: bool = true;
    const LAYOUT: Layout = Layout::Steps;
    const PROOF_BY_REFUTATION: bool = true;
    const CHECK_NAME: &'static str = "combo check";

    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        for_each_legal(pos, rules, f)
    }
    fn effects(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Effects)> {
        replay(pos, rules, m).map(|(p, steps)| (p, steps_effects(steps)))
    }
    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        replay(pos, rules, m).is_some()
    }
    fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
        play(pos, rules, m)
    }
    fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
        has_legal_move(pos, rules)
    }
    fn in_check(pos: &Position, rules: &Rules) -> bool {
        in_check(pos, rules)
    }
    /// Combo check: the side to move could capture the king with one combo.
    fn other_side_in_check(pos: &Position, rules: &Rules) -> bool {
        can_capture_king(pos, pos.side, rules)
    }
    fn leader_sources(pos: &Position, rules: &Rules, kind: Kind, to: Square) -> Vec<Square> {
        first_steps_to(pos, rules, kind, to)
    }
    fn read_move(
        pos: &Position,
        rules: &Rules,
        text: &str,
        king_capture: bool,
    ) -> Option<Result<(Position, Effects), String>> {
        Some(
            parse_with(pos, rules, text, !king_capture).map(|(p, steps)| (p, steps_effects(steps))),
        )
    }
    fn king_capture(pos: &Position, by: Color, rules: &Rules) -> Option<Vec<Step>> {
        king_capture(pos, by, rules)
    }
    /// From the walk's own paths (replaying each combo would cost a walk per move).
    fn legal_with_effects(pos: &Position, rules: &Rules) -> Vec<(Move, Position, Effects)> {
        let mut found = vec![];
        let (states, _) = each_legal_combo(pos, rules, &mut |m, child, parent, step| {
            found.push((m, *child, parent, step));
            ControlFlow::Continue(())
        });
        found
            .into_iter()
            .map(|(m, child, parent, step)| {
                let mut steps = path(&states, parent);
                steps.push(step);
                (m, child, steps_effects(steps))
            })
            .collect()
    }
    fn moves_with_effects(pos: &Position, rules: &Rules) -> Vec<(Position, Effects)> {
        moves_with_steps(pos, rules)
            .into_iter()
            .map(|(p, steps)| (p, steps_effects(steps)))
            .collect()
    }
}

use super::{IdSet, Scratch};

super::reusable!(capped Vec<State>);

/// Whether the king can be captured, by (occupied squares, opponent's squares, king).
type Capturable = HashMap<(u64, u64, u8), bool, BuildHasherDefault<MixHasher>>;

super::reusable!(capped Capturable);

/// A fast multiplicative hasher for small keys of bitboards.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(29) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
}

/// A state inside a combo: the board without the piece in hand, that piece and its square.
#[derive(Clone, Copy)]
struct State {
    pos: Position,
    hand: Kind,
    at: Square,
    /// Index of the parent state (u32::MAX for a first lift) and the step that led here.
    parent: u32,
    step: Option<Step>,
    /// The square of the first lifted piece.
    root: Square,
}

fn hand_key(kind: Kind, at: Square) -> u64 {
    crate::position::ZOBRIST.piece[0][kind as usize][at as usize].rotate_left(23) ^ 0x5bd1_e995
}

fn state_key(st: &State) -> u64 {
    st.pos.hash ^ hand_key(st.hand, st.at)
}

/// What a step leads to. The resulting state or position is built only on request, after
/// its hash (computed incrementally) has shown that it is new: most steps lead to states
/// and positions met before, and copying a position is the walk's main cost.
enum Next<'a> {
    /// The combo goes on with the challenged piece in hand: the state's key.
    Challenge(u64, &'a dyn Fn() -> State),
    /// The combo ends: the hash of the final position with the opponent to move, and the
    /// final position (the mover still to move).
    End(u64, &'a dyn Fn() -> Position),
}

/// Calls `f` with every step the piece in hand can make from `st`, in the documented order.
fn each_step(
    st: &State,
    us: Color,
    rules: &Rules,
    castle_ok: &mut dyn FnMut(usize) -> bool,
    f: &mut dyn FnMut(Step, Next) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let z = &crate::position::ZOBRIST;
    let board = &st.pos.board;
    let own = board.by_color[us.idx()];
    let enemy = board.by_color[us.flip().idx()];
    let occ = own | enemy;
    let t = st.at;
    let kind = st.hand;
    let targets = reach(kind, us, t, occ, enemy);
    for u in Squares(targets) {
        let victim = board.get(u);
        let capture = enemy & bb(u) != 0;
        let promos: &[Kind] = if kind == Kind::Pawn && us.relative_rank(u) == 7 {
            rules.promotions()
        } else {
            &[]
        };
        let old_c = st.pos.castling;
        let mut new_c = old_c & CASTLE_MASK[t as usize];
        if capture {
            new_c &= CASTLE_MASK[u as usize];
        }
        let mut base = st.pos.hash ^ z.castling[old_c as usize] ^ z.castling[new_c as usize];
        if let Some(v) = victim {
            base ^= crate::position::zpiece(v, u);
        }
        let count = promos.len().max(1);
        for i in 0..count {
            let promo = promos.get(i).copied();
            let piece = Piece::new(us, promo.unwrap_or(kind));
            let hash = base ^ crate::position::zpiece(piece, u);
            let build_pos = || {
                let mut pos = st.pos;
                pos.remove(u);
                pos.put(u, piece);
                pos.restrict_castling(new_c);
                pos
            };
            let step = Step {
                from: t,
                to: u,
                kind,
                promo,
                capture,
                castle: false,
            };
            match victim {
                Some(v) if v.color == us => {
                    let key = hash ^ hand_key(v.kind, u);
                    let build = || State {
                        pos: build_pos(),
                        hand: v.kind,
                        at: u,
                        parent: 0,
                        step: Some(step),
                        root: 0,
                    };
                    f(step, Next::Challenge(key, &build))?;
                }
                _ => f(step, Next::End(hash ^ z.side, &build_pos))?,
            }
        }
    }
    if kind == Kind::King {
        each_castling_step(st, us, castle_ok, f)?;
    }
    ControlFlow::Continue(())
}

/// Castling steps of the king in hand: on its home square, rights intact, rook home, the
/// squares between empty except the king's destination, which may hold an own piece.
fn each_castling_step(
    st: &State,
    us: Color,
    castle_ok: &mut dyn FnMut(usize) -> bool,
    f: &mut dyn FnMut(Step, Next) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let z = &crate::position::ZOBRIST;
    let board = &st.pos.board;
    let enemy = board.by_color[us.flip().idx()];
    let occ = board.occupied();
    let t = st.at;
    for (wing, &(kf, kt, rf, rt, bit)) in CASTLINGS[us.idx()].iter().enumerate() {
        if t != kf || st.pos.castling & bit == 0 {
            continue;
        }
        if board.get(rf) != Some(Piece::new(us, Kind::Rook)) {
            continue;
        }
        let between = crate::core::bitboard::between(kf, rf);
        if between & occ & !bb(kt) != 0 || enemy & bb(kt) != 0 {
            continue;
        }
        if !castle_ok(wing) {
            continue;
        }
        let mut pos = st.pos;
        let rook = pos.remove(rf).expect("rook home");
        pos.put(rt, rook);
        let victim = pos.remove(kt);
        pos.put(kt, Piece::new(us, Kind::King));
        pos.restrict_castling(CASTLE_MASK[kf as usize]);
        let step = Step {
            from: kf,
            to: kt,
            kind: Kind::King,
            promo: None,
            capture: false,
            castle: true,
        };
        match victim {
            Some(v) => {
                let child = State {
                    pos,
                    hand: v.kind,
                    at: kt,
                    parent: 0,
                    step: Some(step),
                    root: 0,
                };
                f(step, Next::Challenge(state_key(&child), &|| child))?;
            }
            None => f(step, Next::End(pos.hash ^ z.side, &|| pos))?,
        }
    }
    ControlFlow::Continue(())
}

/// The first states of the combos of `us`: each own piece lifted (square order a1..h8).
fn first_states(pos: &Position, us: Color) -> Vec<State> {
    let mut v = Vec::new();
    push_first_states(pos, us, &mut v);
    v
}

/// [`first_states`], pushed onto `out`.
fn push_first_states(pos: &Position, us: Color, out: &mut Vec<State>) {
    let mut base = *pos;
    if base.ep != NO_SQUARE {
        base.set_en_passant(NO_SQUARE);
    }
    out.extend(Squares(pos.board.by_color[us.idx()]).map(|s| {
            let mut p = base;
            let piece = p.remove(s).expect("own piece");
            State {
                pos: p,
                hand: piece.kind,
                at: s,
                parent: u32::MAX,
                step: None,
                root: s,
            }
    }));
}

/// The walk's callback for a final position: its hash (opponent to move), a builder of
/// the position (mover still to move), the parent state, the last step, the first square.
type FinalFn<'a> = dyn FnMut(u64, &dyn Fn() -> Position, u32, Step, Square) -> ControlFlow<()> + 'a;

/// Breadth-first walk over the combos of `us` in `pos`: calls `f` with the hash of each
/// final position (opponent to move), a builder of that position (mover still to move),
/// the index of the state it came from, the last step and the square of the first lifted
/// piece. Returns the states (for path reconstruction).
fn walk(
    pos: &Position,
    us: Color,
    rules: &Rules,
    castle_ok: &mut dyn FnMut(usize) -> bool,
    f: &mut FinalFn,
) -> (Scratch<Vec<State>>, ControlFlow<()>) {
    let mut states = Scratch::<Vec<State>>::take();
    push_first_states(pos, us, &mut states);
    let mut seen = Scratch::<IdSet>::take();
    seen.extend(states.iter().map(state_key));
    // Level by level: the states of one level are read in place while the next level is
    // collected apart (no copy of a state to expand it).
    let mut start = 0;
    let mut next = Scratch::<Vec<State>>::take();
    while start < states.len() {
        let end = states.len();
        let mut outcome = ControlFlow::Continue(());
        for (i, st) in states.iter().enumerate().take(end).skip(start) {
            if rules.stopped() {
                // Stopped: the caller discards whatever this walk answers.
                return (states, ControlFlow::Break(()));
            }
            outcome = each_step(st, us, rules, castle_ok, &mut |step, n| match n {
                Next::End(hash, build) => f(hash, build, i as u32, step, st.root),
                Next::Challenge(key, build) => {
                    if seen.insert(key) {
                        let mut child = build();
                        child.parent = i as u32;
                        child.root = st.root;
                        next.push(child);
                    }
                    ControlFlow::Continue(())
                }
            });
            if outcome.is_break() {
                break;
            }
        }
        if outcome.is_break() {
            return (states, outcome);
        }
        states.append(&mut next);
        start = end;
    }
    (states, ControlFlow::Continue(()))
}

/// The steps leading to state `i` (not including the final step).
fn path(states: &[State], mut i: u32) -> Vec<Step> {
    let mut out = vec![];
    while i != u32::MAX {
        let st = &states[i as usize];
        if let Some(s) = st.step {
            out.push(s);
        }
        i = st.parent;
    }
    out.reverse();
    out
}

// ----- "can this side capture that king?" -----

/// Can `by` capture the king of the other colour with one combo (castling needing only its
/// structural conditions)?
pub fn can_capture_king(pos: &Position, by: Color, rules: &Rules) -> bool {
    let k = pos.king(by.flip());
    if k == NO_SQUARE {
        return false;
    }
    can_capture(pos, by, k, rules)
}

/// Can `by` capture on square `target` (an enemy piece) with one combo?
fn can_capture(pos: &Position, by: Color, target: Square, rules: &Rules) -> bool {
    let board = &pos.board;
    if board.attackers_to(target, by, board.occupied()) != 0 {
        return true;
    }
    if !may_reach(pos, by, target) {
        return false;
    }
    capture_walk(pos, by, target, rules).is_some()
}

/// The plain exhaustive walk for a combo of `by` that captures on `target` (castling needs
/// only its structural conditions): the walk's states, the capturing step and its parent.
fn capture_walk(
    pos: &Position,
    by: Color,
    target: Square,
    rules: &Rules,
) -> Option<(Scratch<Vec<State>>, u32, Step)> {
    let mut hit = None;
    let (states, _) = walk(
        pos,
        by,
        rules,
        &mut |_| true,
        &mut |_, _, parent, step, _| {
            if step.capture && step.to == target {
                hit = Some((parent, step));
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    hit.map(|(parent, step)| (states, parent, step))
}

/// Squares a piece of `kind` and colour `us` in hand on `t` may step to (captures and
/// challenges included) with occupancy `occ` (`enemy` ⊆ `occ`).
#[inline]
fn reach(kind: Kind, us: Color, t: Square, occ: Bitboard, enemy: Bitboard) -> Bitboard {
    match kind {
        Kind::Pawn => {
            let fwd = us.forward();
            let mut tg = pawn_attacks(us, t) & enemy;
            let one = t as i8 + fwd;
            if (0..64).contains(&one) && enemy & bb(one as Square) == 0 {
                tg |= bb(one as Square);
                let two = one + fwd;
                if us.relative_rank(t) == 1 && occ & bb(one as Square) == 0 {
                    tg |= bb(two as Square) & !enemy;
                }
            }
            tg
        }
        Kind::King => KING[t as usize],
        _ => piece_attacks(t, us, kind, occ),
    }
}

/// Over-approximation: could some combo of `by` capture on `target`? `false` is a proof.
fn may_reach(pos: &Position, by: Color, target: Square) -> bool {
    let board = &pos.board;
    let own = board.by_color[by.idx()];
    let enemy = board.by_color[by.flip().idx()];
    let occ = own | enemy;
    // Pieces that can start a combo longer than one step: those with an own piece in reach.
    let mut starters = 0;
    for s in Squares(own) {
        let kind = board.kind_at(s).expect("own");
        if reach(kind, by, s, occ, enemy) & own != 0 {
            starters |= bb(s);
        }
    }
    // Castling moves the rook and may challenge: treat a structurally possible castling by
    // widening the sets below.
    let mut castle_rook_to = 0;
    let mut castle_king_to = 0;
    let mut castle_from = 0;
    for &(kf, kt, rf, rt, bit) in &CASTLINGS[by.idx()] {
        if pos.castling & bit != 0
            && board.get(rf) == Some(Piece::new(by, Kind::Rook))
            && board.get(kf) == Some(Piece::new(by, Kind::King))
            && crate::core::bitboard::between(kf, rf) & occ & !bb(kt) == 0
            && enemy & bb(kt) == 0
        {
            castle_rook_to |= bb(rt);
            castle_king_to |= bb(kt);
            castle_from |= bb(rf);
            starters |= bb(kf);
        }
    }
    // One fixpoint with every starter lifted at once (a superset of each single case) and
    // every starter in hand settles most positions; otherwise each starter on its own.
    if starters == 0
        || !fixpoint(
            board,
            by,
            target,
            starters,
            occ & !starters & !castle_from,
            own,
            [castle_king_to, castle_rook_to],
        )
    {
        return false;
    }
    if starters.count_ones() == 1 {
        return true;
    }
    for s in Squares(starters) {
        if fixpoint(
            board,
            by,
            target,
            bb(s),
            occ & !bb(s) & !castle_from,
            own & !bb(s),
            [castle_king_to, castle_rook_to],
        ) {
            return true;
        }
    }
    false
}

/// The fixpoint's start: where each kind sits (the own pieces, the castling rook's target)
/// and is in hand (the lifted pieces), and the kinds met (bit per kind).
fn fixpoint_start(
    board: &crate::core::Board,
    lifted: Bitboard,
    own_sq: Bitboard,
    castle: [Bitboard; 2],
) -> ([Bitboard; KIND_COUNT], [Bitboard; KIND_COUNT], u32) {
    let mut sit = [0u64; KIND_COUNT];
    let mut active: u32 = 0;
    for q in Squares(own_sq) {
        let k = board.kind_at(q).expect("own") as usize;
        sit[k] |= bb(q);
        active |= 1 << k;
    }
    if castle[1] != 0 {
        sit[Kind::Rook as usize] |= castle[1];
        active |= 1 << Kind::Rook as usize;
    }
    let mut hand = [0u64; KIND_COUNT];
    for s in Squares(lifted) {
        let k = board.kind_at(s).expect("own") as usize;
        hand[k] |= bb(s);
        active |= 1 << k;
    }
    (sit, hand, active)
}

/// The (kind, square) fixpoint for combos that start by lifting one of the pieces on
/// `lifted` (with occupancy `occ` and own squares `own_sq`).
fn fixpoint(
    board: &crate::core::Board,
    by: Color,
    target: Square,
    lifted: Bitboard,
    occ: Bitboard,
    own_sq: Bitboard,
    castle: [Bitboard; 2],
) -> bool {
    let enemy = board.by_color[by.flip().idx()];
    let (mut sit, mut hand, mut active) = fixpoint_start(board, lifted, own_sq, castle);
    let own_sq = own_sq | castle[1];
    let mut done = [0u64; KIND_COUNT];
    let tbit = bb(target);
    let last_rank: Bitboard = by.last_rank_squares();
    // Squares some piece in hand can step onto while an own piece stands there.
    let mut challenged = 0;
    loop {
        let mut progress = false;
        let mut kinds = active;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let fresh = hand[k] & !done[k];
            if fresh == 0 {
                continue;
            }
            progress = true;
            done[k] |= fresh;
            let kind = Kind::from_index(k);
            for t in Squares(fresh) {
                let tg = reach(kind, by, t, occ, enemy);
                if tg & tbit != 0 {
                    return true;
                }
                let ch = tg & own_sq;
                if kind == Kind::Pawn && ch & last_rank != 0 {
                    // A promotion: any piece may stand there afterwards.
                    for p in 1..KIND_COUNT {
                        if p != Kind::King as usize {
                            sit[p] |= ch & last_rank;
                            active |= 1 << p;
                        }
                    }
                    sit[k] |= ch & !last_rank;
                } else {
                    sit[k] |= ch;
                }
                challenged |= ch;
            }
            if kind == Kind::King && fresh & (bb(4) | bb(60)) != 0 && castle[0] != 0 {
                challenged |= castle[0] & own_sq;
                sit[k] |= castle[0];
            }
        }
        if !progress {
            return false;
        }
        let mut kinds = active;
        while kinds != 0 {
            let k = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            hand[k] |= challenged & sit[k];
        }
    }
}

// ----- moves -----

/// The D10 castling test of the side to move for one wing: the king, put on each square
/// it passes (start, passage, destination; an own piece there taken off), must not be
/// capturable by one enemy combo.
fn castling_safe(pos: &Position, rules: &Rules, wing: usize) -> bool {
    let us = pos.side;
    let (kf, kt, _, _, _) = CASTLINGS[us.idx()][wing];
    let mid = if kt > kf { kf + 1 } else { kf - 1 };
    [kf, mid, kt].into_iter().all(|sq| {
        let mut p = *pos;
        if sq != kf {
            let king = p.remove(kf).expect("king home");
            p.remove(sq);
            p.put(sq, king);
        }
        !can_capture(&p, us.flip(), sq, rules)
    })
}

/// The D10 test of each wing, computed at most once for `pos`.
fn castling_cache<'a>(pos: &'a Position, rules: &'a Rules) -> impl FnMut(usize) -> bool + 'a {
    let mut safe: [Option<bool>; 2] = [None, None];
    move |wing| *safe[wing].get_or_insert_with(|| castling_safe(pos, rules, wing))
}

/// Walks the combos of the side to move, numbering the distinct final positions in the
/// documented order: calls `f` with the move, the position after it (opponent to move),
/// the state it came from and the last step.
fn each_combo(
    pos: &Position,
    rules: &Rules,
    f: &mut dyn FnMut(Move, &Position, u32, Step) -> ControlFlow<()>,
) -> (Scratch<Vec<State>>, ControlFlow<()>) {
    let us = pos.side;
    let mut castle_ok = castling_cache(pos, rules);
    let mut finals = Scratch::<IdSet>::take();
    let mut number: u32 = 0;
    walk(
        pos,
        us,
        rules,
        &mut castle_ok,
        &mut |hash, build, parent, step, root| {
            if !finals.insert(hash) {
                return ControlFlow::Continue(());
            }
            let child = build().null_move();
            debug_assert_eq!(child.hash, hash);
            let m = Move {
                from: root,
                to: step.to,
                promo: None,
                kind: MoveKind::Compound,
                chain: number,
            };
            number += 1;
            f(m, &child, parent, step)
        },
    )
}

/// Every legal combo move with its result (D11: the opponent cannot capture the king).
pub fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
where
    F: FnMut(Move, &Position) -> ControlFlow<()>,
{
    each_legal_combo(pos, rules, &mut |m, child, _, _| f(m, child)).1
}

/// [`each_combo`] restricted to the legal combos.
fn each_legal_combo(
    pos: &Position,
    rules: &Rules,
    f: &mut dyn FnMut(Move, &Position, u32, Step) -> ControlFlow<()>,
) -> (Scratch<Vec<State>>, ControlFlow<()>) {
    // Within one position the opponent's pieces only lose members to captures, so the
    // answer depends on the occupied squares, the opponent's squares and the king's square
    // only: combos that just permute the mover's kinds share it.
    let mut known = Scratch::<Capturable>::take();
    each_combo(pos, rules, &mut |m, child, parent, step| {
        let them = child.side;
        let key = (
            child.board.occupied(),
            child.board.by_color[them.idx()],
            child.king(them.flip()),
        );
        let capturable = *known
            .entry(key)
            .or_insert_with(|| can_capture_king(child, them, rules));
        if capturable {
            ControlFlow::Continue(())
        } else {
            f(m, child, parent, step)
        }
    })
}

/// Replays a move: the position after it and its steps, or `None` when it does not fit
/// the position (legality is not checked).
pub fn replay(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Vec<Step>)> {
    if m.kind != MoveKind::Compound {
        return None;
    }
    let mut found = None;
    let (states, _) = each_combo(pos, rules, &mut |x, child, parent, step| {
        if x == m {
            found = Some((*child, parent, step));
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let (child, parent, step) = found?;
    let mut steps = path(&states, parent);
    steps.push(step);
    Some((child, steps))
}

/// Plays a move if it fits the position and leaves the own king safe.
pub fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
    replay(pos, rules, m)
        .map(|r| r.0)
        .filter(|c| !can_capture_king(c, c.side, rules))
}

/// Is the side to move in combo check?
pub fn in_check(pos: &Position, rules: &Rules) -> bool {
    can_capture_king(pos, pos.side.flip(), rules)
}

/// Does the side to move have a legal combo move?
pub fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
    for_each_legal(pos, rules, |_, _| ControlFlow::Break(())).is_break()
}

// ----- notation -----

/// Which first steps of the side to move reach `to` with a piece of `kind`: their squares.
fn first_steps_to(pos: &Position, rules: &Rules, kind: Kind, to: Square) -> Vec<Square> {
    let mut out = vec![];
    for st in first_states(pos, pos.side) {
        if st.hand != kind {
            continue;
        }
        let _ = each_step(&st, pos.side, rules, &mut |_| true, &mut |step, _| {
            if step.to == to && !step.castle {
                out.push(step.from);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
    out
}

/// One parsed step: piece kind (the pawn when no letter is written), origin hints, capture
/// flag, target, promotion, or a castling. `N` names the nightrider where one can make the
/// step and the knight otherwise (the seed writes the knight `N`): `alt` and `promo_alt`
/// hold the knight then.
struct StepText {
    kind: Kind,
    alt: Option<Kind>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promo: Option<Kind>,
    promo_alt: Option<Kind>,
    castle: Option<usize>,
}

impl StepText {
    /// 0 when the step does not fit; otherwise 1 plus one for each of piece and promotion
    /// read in the first sense (so the nightrider is preferred for `N`).
    fn fit(&self, step: &Step) -> u8 {
        if let Some(wing) = self.castle {
            return u8::from(step.castle && (step.to < step.from) == (wing == 1));
        }
        let kind = if step.kind == self.kind {
            2
        } else if Some(step.kind) == self.alt {
            1
        } else {
            0
        };
        let promo = if step.promo == self.promo {
            2
        } else if step.promo.is_some() && step.promo == self.promo_alt {
            1
        } else {
            0
        };
        if step.castle
            || kind == 0
            || promo == 0
            || step.to != self.to
            || self.from_file.is_some_and(|f| step.from & 7 != f)
            || self.from_rank.is_some_and(|r| step.from >> 3 != r)
        {
            return 0;
        }
        kind + promo - 1
    }
}

/// A piece code of a step (`K`, `S`, `N`, `AM`, `KG`, ...): the kind and, for `N`, the knight
/// as the second reading.
fn step_piece(code: &str) -> Option<(Kind, Option<Kind>)> {
    match code {
        "N" => Some((Kind::Nightrider, Some(Kind::Knight))),
        _ => Kind::from_code(code).map(|k| (k, None)),
    }
}

fn parse_step(text: &str) -> Result<StepText, String> {
    let t: String = text
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | ' '))
        .collect();
    let castle = match t.as_str() {
        "O-O" | "0-0" => Some(0),
        "O-O-O" | "0-0-0" => Some(1),
        _ => None,
    };
    if let Some(wing) = castle {
        return Ok(StepText {
            kind: Kind::King,
            alt: None,
            from_file: None,
            from_rank: None,
            to: 0,
            promo: None,
            promo_alt: None,
            castle: Some(wing),
        });
    }
    let (body, promo, promo_alt) = match t.split_once('=') {
        Some((b, p)) => {
            let (k, alt) = step_piece(p)
                .filter(|&(k, _)| k != Kind::King && k != Kind::Pawn)
                .ok_or_else(|| format!("'{text}': unknown promotion piece '{p}'"))?;
            (b, Some(k), alt)
        }
        None => (t.as_str(), None, None),
    };
    let chars: Vec<char> = body
        .chars()
        .filter(|c| !matches!(c, 'x' | '*' | '-' | ':'))
        .collect();
    // The piece code: the leading capitals (one or two letters).
    let letters = chars.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let (kind, alt) = match letters {
        0 => (Kind::Pawn, None),
        1 | 2 => {
            let code: String = chars[..letters].iter().collect();
            step_piece(&code).ok_or_else(|| format!("'{text}': unknown piece '{code}'"))?
        }
        _ => {
            let code: String = chars[..letters].iter().collect();
            return Err(format!("'{text}': unknown piece '{code}'"));
        }
    };
    let chars = &chars[letters..];
    if chars.len() < 2 {
        return Err(format!("'{text}': no target square"));
    }
    let target: String = chars[chars.len() - 2..].iter().collect();
    let to = crate::core::parse_square(&target)
        .ok_or_else(|| format!("'{text}': '{target}' is not a square"))?;
    let mut from_file = None;
    let mut from_rank = None;
    for &c in &chars[..chars.len() - 2] {
        match c {
            'a'..='h' => from_file = Some(c as u8 - b'a'),
            '1'..='8' => from_rank = Some(c as u8 - b'1'),
            _ => return Err(format!("'{text}': unexpected '{c}'")),
        }
    }
    Ok(StepText {
        kind,
        alt,
        from_file,
        from_rank,
        to,
        promo,
        promo_alt,
        castle: None,
    })
}

/// Reads a combo written `[Bg2; g3]` (short or long steps, `N` or `S` for the knight,
/// `+`/`#` ignored) and plays it step by step from `pos`: the position after it (the
/// opponent to move) and its steps, or an error naming the step and what is wrong. The
/// combo need not be legal in the solving sense (the own king may be left capturable).
pub fn parse(pos: &Position, rules: &Rules, text: &str) -> Result<(Position, Vec<Step>), String> {
    parse_with(pos, rules, text, true)
}

/// [`parse`] for a king capture: castling needs only its structural conditions (no D10).
pub fn parse_capture(
    pos: &Position,
    rules: &Rules,
    text: &str,
) -> Result<(Position, Vec<Step>), String> {
    parse_with(pos, rules, text, false)
}

/// The step texts of a combo written `[Bg2; g3]` (marks after the bracket ignored).
fn step_texts(text: &str) -> Result<Vec<&str>, String> {
    // Marks after the closing bracket (` +`, ` #`, ` =`, ` !`, ` ?`) are ignored.
    let trimmed = match text.rfind(']') {
        Some(end) if text[end + 1..].chars().all(|c| "+#=!? ".contains(c)) => &text[..=end],
        _ => text,
    };
    let inner = trimmed
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| format!("'{text}': a combo is written in square brackets: [Bg2; g3]"))?;
    let parts: Vec<&str> = inner.split(';').map(str::trim).collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!("'{text}': empty step"));
    }
    Ok(parts)
}

/// A pawn step to the last rank written without its promotion (said so rather than "no
/// such step").
fn promotion_missing(want: &StepText, candidates: &[State], us: Color) -> bool {
    want.promo.is_none()
        && want.kind == Kind::Pawn
        && us.relative_rank(want.to) == 7
        && candidates
            .iter()
            .any(|s| s.hand == Kind::Pawn && s.at != NO_SQUARE)
}

/// A step found for a step text, with the state it leads to or the combo's end.
type Fitting = (Step, Option<State>, Option<Position>);

/// The steps of the candidate states that fit `want` best (a reading in the first sense,
/// `N` the nightrider, wins over the second).
fn fitting_steps(
    candidates: &[State],
    us: Color,
    rules: &Rules,
    castle_ok: &mut dyn FnMut(usize) -> bool,
    want: &StepText,
) -> Vec<Fitting> {
    let mut found: Vec<Fitting> = vec![];
    let mut best = 1;
    for st in candidates {
        let _ = each_step(st, us, rules, castle_ok, &mut |step, next| {
            let fit = want.fit(&step);
            if fit > best {
                found.clear();
                best = fit;
            }
            if fit == best {
                match next {
                    Next::Challenge(_, s) => found.push((step, Some(s()), None)),
                    Next::End(_, p) => found.push((step, None, Some(p()))),
                }
            }
            ControlFlow::Continue(())
        });
    }
    found
}

fn parse_with(
    pos: &Position,
    rules: &Rules,
    text: &str,
    d10: bool,
) -> Result<(Position, Vec<Step>), String> {
    let parts = step_texts(text)?;
    let us = pos.side;
    let mut d10_ok = castling_cache(pos, rules);
    let mut castle_ok = |wing: usize| !d10 || d10_ok(wing);
    let mut steps: Vec<Step> = vec![];
    let mut state: Option<State> = None;
    let mut fin: Option<Position> = None;
    for (i, part) in parts.iter().enumerate() {
        let n = i + 1;
        let want = parse_step(part).map_err(|e| format!("step {n} {e}"))?;
        if fin.is_some() {
            return Err(format!(
                "step {n} '{part}': the combo already ended with step {i} (no piece was challenged)"
            ));
        }
        // The candidate states: the piece in hand, or (first step) every own piece.
        let candidates: Vec<State> = match state {
            Some(st) => vec![st],
            None => first_states(pos, us),
        };
        let mut found = fitting_steps(&candidates, us, rules, &mut castle_ok, &want);
        if found.is_empty() && promotion_missing(&want, &candidates, us) {
            return Err(format!(
                "step {n} '{part}': a pawn reaching its last rank must promote (=Q, =R, =B or =N)"
            ));
        }
        let what = match state {
            Some(st) => format!(
                "the challenged {} on {}",
                piece_name(st.hand),
                square_name(st.at)
            ),
            None => String::new(),
        };
        match found.len() {
            0 if state.is_none() => {
                return Err(format!(
                    "step {n} '{part}': no piece of the side to move can make this step"
                ));
            }
            0 => {
                return Err(format!("step {n} '{part}': {what} can make no such step"));
            }
            1 => {}
            _ => {
                return Err(format!(
                    "step {n} '{part}': ambiguous, pieces on {} can make it",
                    found
                        .iter()
                        .map(|f| square_name(f.0.from))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        let (step, next_state, end) = found.pop().expect("one step");
        steps.push(step);
        state = next_state;
        fin = end;
    }
    match (fin, state) {
        (Some(p), _) => Ok((p.null_move(), steps)),
        (None, Some(st)) => Err(format!(
            "'{text}': the combo is not finished: the challenged {} on {} must move",
            piece_name(st.hand),
            square_name(st.at)
        )),
        (None, None) => Err(format!("'{text}': no steps")),
    }
}

fn piece_name(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "pawn",
        Kind::Knight => "knight",
        Kind::Bishop => "bishop",
        Kind::Rook => "rook",
        Kind::Queen => "queen",
        Kind::King => "king",
        _ => "piece",
    }
}

// ----- proofs (stalemate claims) -----

/// One combo of `by` that captures the other side's king, as steps (castling needs only its
/// structural conditions), found by the plain exhaustive walk (no over-approximation).
pub fn king_capture(pos: &Position, by: Color, rules: &Rules) -> Option<Vec<Step>> {
    let k = pos.king(by.flip());
    if k == NO_SQUARE {
        return None;
    }
    let (states, parent, step) = capture_walk(pos, by, k, rules)?;
    let mut steps = path(&states, parent);
    steps.push(step);
    Some(steps)
}

/// Every combo move of the side to move (legal or not), each distinct result once, with
/// the position after it and its steps, in the documented order.
pub fn moves_with_steps(pos: &Position, rules: &Rules) -> Vec<(Position, Vec<Step>)> {
    let mut found: Vec<(Position, u32, Step)> = vec![];
    let (states, _) = each_combo(pos, rules, &mut |_, child, parent, step| {
        found.push((*child, parent, step));
        ControlFlow::Continue(())
    });
    found
        .into_iter()
        .map(|(child, parent, step)| {
            let mut steps = path(&states, parent);
            steps.push(step);
            (child, steps)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Condition;

    fn rules() -> Rules {
        Rules::new(Condition::Combo)
    }

    fn play_all(fen: &str, game: &[&str]) -> Position {
        let r = rules();
        let mut pos = Position::from_fen(fen).unwrap();
        for m in game {
            pos = parse(&pos, &r, m).unwrap_or_else(|e| panic!("{m}: {e}")).0;
        }
        pos
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const SEED: [&str; 6] = [
        "[Bg2; g3]",
        "[Qc8; Bb7; b6]",
        "[Qe1; O-O; Ne2; e3]",
        "[Qb7; Bxg2]",
        "[Rb1; Nd2; d4]",
        "[Qg2+; Bh3]",
    ];

    #[test]
    fn the_seed_game_replays() {
        let r = rules();
        let pos = play_all(START, &SEED);
        // Worked by hand: 2.[Qe1; O-O; Ne2; e3] castles with the king challenged by the
        // queen, and the king's destination g1 held the knight, which is challenged in turn.
        assert_eq!(
            pos.to_fen(),
            "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPNNPqP/1RB1QRK1 w kq - 0 1"
        );
        // The queen on g2 takes the king on g1 at once: combo check, here even orthodox.
        assert!(r.in_check(&pos));
        // The seed's 23-step combo replays; the king ends on a1, where no black combo
        // reaches it (so say this walk and the independent reference generator in
        // tests/reference_combo.rs): an escape White missed when resigning.
        let fourth = "[Kf1; Re1; Qf1; Ke1; Rf1; Qe2; Nc1; Bd2; Nf1; Re1; Kd2; Bc1; Ne2; Qe1; \
                      Rc1; Bd2; Kc1; Rb1; Rc1; Kb1; Rc1; Rb1; Ka1]";
        let (after, steps) = parse(&pos, &r, fourth).unwrap();
        assert_eq!(steps.len(), 23);
        assert_eq!(
            after.to_fen(),
            "rn2kbnr/p1pppppp/1p6/8/3P4/4P1Pb/PPPBNPqP/KRR1QN2 b kq - 0 1"
        );
        assert!(!can_capture_king(&after, after.side, &r));
        // It is one of White's legal moves, and the printed form reads back.
        let legal = r.legal_moves(&pos);
        let (m, _) = legal.iter().find(|(_, c)| c.hash == after.hash).unwrap();
        let text =
            crate::output::notation::move_body(&r, &pos, *m, crate::output::notation::Style::Short);
        assert_eq!(parse(&pos, &r, &text).unwrap().0.hash, after.hash);
        // The shortest path to the same position is printed (D9), not the seed's 23 steps.
        assert!(text.matches(';').count() < 22, "{text}");
    }

    #[test]
    fn parser_errors_name_the_step() {
        let r = rules();
        let pos = Position::from_fen(START).unwrap();
        let e = parse(&pos, &r, "[Bg2]").unwrap_err();
        assert!(
            e.contains("not finished") && e.contains("pawn on g2"),
            "{e}"
        );
        let e = parse(&pos, &r, "[Bg2; g5]").unwrap_err();
        assert!(
            e.starts_with("step 2") && e.contains("challenged pawn on g2"),
            "{e}"
        );
        let e = parse(&pos, &r, "[e3; d4]").unwrap_err();
        assert!(
            e.starts_with("step 2") && e.contains("already ended"),
            "{e}"
        );
        assert!(parse(&pos, &r, "[Bg2; g3] + !").is_ok());
        let e = parse(&pos, &r, "Bg2; g3").unwrap_err();
        assert!(e.contains("square brackets"), "{e}");
        // A pawn never challenges diagonally: e2 cannot step onto d3/f3 own pieces.
        let pos = Position::from_fen("4k3/8/8/8/8/3N1N2/4P3/4K3 w - - 0 1").unwrap();
        assert!(parse(&pos, &r, "[exf3; Ng5]").is_err());
        assert!(parse(&pos, &r, "[Ne1; O-O]").is_err());
    }

    #[test]
    fn no_en_passant_and_each_position_once() {
        let r = rules();
        // The FEN names e6, but Combo has no en passant: d5xe6 is not a move.
        let pos = Position::from_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1").unwrap();
        let moves = r.legal_moves(&pos);
        assert!(moves.iter().all(|(_, c)| c.board.get(44).is_none()));
        // Every move is a distinct position (D9).
        let pos = Position::from_fen(START).unwrap();
        let moves = r.legal_moves(&pos);
        let mut hashes: Vec<u64> = moves.iter().map(|(_, c)| c.hash).collect();
        hashes.sort();
        hashes.dedup();
        assert_eq!(hashes.len(), moves.len());
        assert_eq!(moves.len(), 89);
    }

    #[test]
    fn promotion_inside_a_combo_moves_as_the_new_piece() {
        let r = rules();
        // a7-a8 challenges the rook a8 and promotes to a knight at once; the rook goes on.
        let pos = Position::from_fen("R6k/P7/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let (after, steps) = parse(&pos, &r, "[a8=N; Rb8]").unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(after.to_fen(), "NR5k/8/8/8/8/8/8/K7 b - - 0 1");
        // A challenged promoted knight moves as a knight: Rb8-a8 challenges it, it jumps.
        let pos = Position::from_fen("NR5k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
        assert!(parse(&pos, &r, "[Ra8; Nc7]").is_ok());
        assert!(parse(&pos, &r, "[Ra8; Na1]").is_err());
    }

    #[test]
    fn castling_is_judged_in_the_combo_sense() {
        let r = rules();
        let castles = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            r.legal_moves(&pos)
                .into_iter()
                .filter(|(_, c)| c.board.kind_at(6) == Some(Kind::King))
                .count()
        };
        // D10, worked by hand: f1 is not attacked orthodoxly (the black king shields the
        // rook f8), but [Kf7-f8; Rf8-f1] reaches it, so no castling; 15 moves in all (Ke1:
        // d1, d2, e2; Rh1: h2-h8, g1, f1; [Rh1-e1; K...]: d1, d2, e2).
        assert_eq!(castles("5r2/5k2/8/8/8/8/8/4K2R w K - 0 1"), 0);
        let pos = Position::from_fen("5r2/5k2/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(r.legal_moves(&pos).len(), 15);
        // With the rook on b8 nothing reaches e1, f1 or g1: O-O is a move.
        assert_eq!(castles("1r6/5k2/8/8/8/8/8/4K2R w K - 0 1"), 1);
        // An own knight on g1 is challenged by the castling king and goes on.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K1NR w K - 0 1").unwrap();
        let (after, steps) = parse(&pos, &r, "[O-O; Ne2]").unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/4N3/5RK1 b - - 0 1");
        // Combo check without orthodox check: [Kf7-f8; Rf8-f1] also captures a king on f1.
        let pos = Position::from_fen("5r2/5k2/8/8/8/8/8/5K2 w - - 0 1").unwrap();
        assert!(!pos.in_check());
        assert!(r.in_check(&pos));
    }
}
