//! The proving engine: exact yes/no answers for "can the attacker force the goal in n
//! moves" (direct, self, reflex), "is there a help/series play of k moves", shared by the
//! tree builder and the parallel driver. Results only depend on the position, never on
//! timing or thread count; the transposition table stores proven facts only.

use super::reach::{LastMoves, Progress, Reach, UnitMoves, keeps_tight};
use super::stipulation::Goal;
use super::tt::{Facts, Tt};
use crate::core::{Bitboard, Color, Kind};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::{Condition, Rules};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Who must reach the goal against whom in battle play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Battle {
    /// The attacker reaches the goal against the defender (`#N`, `=N`).
    Direct,
    /// The defender is forced to reach the goal against the attacker (`s#N`).
    Self_,
    /// As self, but either side must reach the goal at once when it can (`r#N`).
    Reflex,
}

/// Series flavours (which side does what after the series).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesEnd {
    /// The last series move reaches the goal.
    Direct,
    /// After the series the other side reaches the goal in one move (help).
    Help,
    /// After the series the other side is forced to reach the goal in one move (self).
    Self_,
}

const SALT_ATT: [u64; 3] = [
    0x51A7_0001_0000_0001,
    0x51A7_0002_0000_0002,
    0x51A7_0003_0000_0003,
];
const SALT_DEF: [u64; 3] = [
    0xDEF0_0008_0000_0008,
    0xDEF0_0009_0000_0009,
    0xDEF0_000A_0000_000A,
];
const SALT_HELP: u64 = 0x4E1F_0000_0000_0004;
const SALT_HELP_SELF: u64 = 0x45E1_F000_0000_000B;
const SALT_SERIES: [u64; 3] = [
    0x5E71_0005_0000_0005,
    0x5E71_0006_0000_0006,
    0x5E71_0007_0000_0007,
];

/// From this many attacker moves left on (the move at hand included), the attacker's
/// moves are tried in the order of the replies they leave, fewest first (measured:
/// BENCHMARKS.md, "Direct play: the attacker's moves ordered").
const ORDER_FROM: u32 = 3;

/// From this many attacker moves left on (the move just made included), a defender node's
/// moves are tried in the order of the attacker replies they leave, fewest first (Popeye's
/// order), below the root and at it (`tree::refutations`): see [`Engine::orders_defences`].
const ORDER_DEFENCES_FROM: u32 = 3;

/// From this many attacker moves left on, the attacker's node deepens one move at a time
/// (a win in 1, then 2, ...: short wins are found before long ones are searched); below
/// it, a win in one is looked for and then the whole depth at once. Either way the node
/// answers "a win within n": a defence node of depth n asks for a win within n - 1 after
/// each defence, so a shorter win is found by the depth-n pass too. The passes between
/// cost more than they save there (measured: BENCHMARKS.md, "Direct play: no passes
/// between one move and the whole depth").
const DEEPEN_FROM: u32 = 5;

/// Depths 32 and more use other table keys (a mask holds 32 depths).
#[inline]
fn depth_salt(k: u32) -> u64 {
    u64::from(k / 32).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The move filters of one node ([`Engine::moves_filter`]), built at the first move asked
/// about. They live in the node's frame and the filter holds them by reference: held by
/// value, the filter was copied each time it was handed on, and a `Progress` (over a
/// kilobyte) and a `LastMoves` (half of one) were copied on their way in.
#[derive(Default)]
struct Filters {
    /// Have `last` and `progress` been built (either may be `None` then)?
    built: bool,
    last: Option<LastMoves>,
    progress: Option<Progress>,
    units: Option<Option<UnitMoves>>,
}

/// The table key of help play from `pos` with `plies` left.
fn help_key(pos: &Position, plies: u32) -> u64 {
    pos.hash ^ SALT_HELP ^ depth_salt(plies)
}

/// The table key of series play from `pos` (series side to move, `k` moves left).
fn series_key(end: SeriesEnd, pos: &Position, k: u32) -> u64 {
    series_key_of(end, pos.hash, k)
}

/// [`series_key`] of a position with the hash `hash`.
fn series_key_of(end: SeriesEnd, hash: u64, k: u32) -> u64 {
    hash ^ SALT_SERIES[end as usize] ^ depth_salt(k)
}

/// Help play from `pos` with `plies` left: the side the goal is reached against, and the
/// moves left to the side making the last move and to the other.
fn help_sides(pos: &Position, plies: u32) -> (Color, u32, u32) {
    let loser = if plies % 2 == 1 {
        pos.side.flip()
    } else {
        pos.side
    };
    (loser, plies.div_ceil(2), plies / 2)
}

/// Series play from `pos` (series side to move, `k` moves left): as [`help_sides`].
fn series_sides(end: SeriesEnd, pos: &Position, k: u32) -> (Color, u32, u32) {
    match end {
        SeriesEnd::Help => (pos.side, 1, k),
        SeriesEnd::Direct => (pos.side.flip(), k, 0),
        SeriesEnd::Self_ => (pos.side, 0, 0),
    }
}

/// Shared, read-mostly solving context.
pub struct Engine<'a> {
    pub rules: &'a Rules,
    pub goal: Goal,
    pub tt: &'a Tt,
    pub stop: &'a AtomicBool,
    pub nodes: AtomicU64,
    /// Popeye's `Threat n`: an attacker move that leaves at least n moves and does not
    /// check must threaten to succeed within n moves, or it fails.
    pub threat_limit: Option<u32>,
    /// The final-position cut of help and series play (orthodox movement only).
    reach: Option<Box<Reach>>,
    /// The plain exhaustive search (`--exhaustive`): see [`Engine::exhaustive`].
    plain: bool,
}

/// Per-task scratch: node counter and remembered refutations (killers) per depth.
pub struct Ctx {
    pub nodes: u64,
    /// Refutations remembered per depth (defender nodes).
    killers: [Option<Move>; 64],
    /// Winning attacker moves remembered per depth (index 1: the last mating move).
    wins: [Option<Move>; 64],
    /// Per depth (series: moves left; help play: plies left), the positions after the
    /// moves of a node ([`Engine::any_child`]), kept to be reused; and the moves of a
    /// node with the table keys of the nodes after them
    /// ([`Engine::any_child_known_first`]).
    kids: Vec<Vec<Position>>,
    keyed: Vec<Vec<(Move, Option<u64>)>>,
    /// Set while a node is searched whose table entry its parent asked for and did not
    /// find ([`Engine::any_child_known_first`]): the node does not ask again.
    asked: bool,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx::new()
    }
}

impl Ctx {
    pub fn new() -> Ctx {
        Ctx {
            nodes: 0,
            killers: [None; 64],
            wins: [None; 64],
            kids: Vec::new(),
            keyed: Vec::new(),
            asked: false,
        }
    }
}

impl<'a> Engine<'a> {
    pub fn new(rules: &'a Rules, goal: Goal, tt: &'a Tt, stop: &'a AtomicBool) -> Engine<'a> {
        Engine {
            rules,
            goal,
            tt,
            stop,
            nodes: AtomicU64::new(0),
            threat_limit: None,
            reach: None,
            plain: false,
        }
    }

    /// With the final-position cuts of help and series play (`reach.rs`), where the rules
    /// allow them; battle play never asks for them and so does without their tables.
    /// Their tables cover every kind; [`Self::with_help_cuts_for`] only a position's.
    pub fn with_help_cuts(self) -> Self {
        self.help_cuts_with(&crate::core::piece::ALL_KINDS)
    }

    /// The help-play cuts for searches from `pos`: tables only for the kinds that can
    /// occur there (its units' kinds and the promotion choices; no condition with these
    /// cuts changes a unit's kind otherwise).
    pub fn with_help_cuts_for(self, pos: &Position) -> Self {
        let board = &pos.board;
        let mut kinds: Vec<Kind> = Vec::new();
        for s in crate::core::Squares(board.occupied()) {
            if let Some(k) = board.kind_at(s).filter(|k| !kinds.contains(k)) {
                kinds.push(k);
            }
        }
        self.help_cuts_with(&kinds)
    }

    fn help_cuts_with(mut self, kinds: &[Kind]) -> Self {
        let cuts = self.rules.help_cuts();
        self.reach = cuts
            .final_position
            .then(|| Box::new(Reach::new(self.rules.promotions(), cuts, kinds)));
        self
    }

    /// The plain exhaustive search, for cross-checking the cuts (`--exhaustive`): no
    /// final-position cut, and the last move looked for among all legal moves (no check or
    /// stalemate candidate filter).
    pub fn exhaustive(mut self) -> Self {
        self.reach = None;
        self.plain = true;
        self
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Adds a task's node count to the total.
    pub fn flush(&self, ctx: &mut Ctx) {
        self.nodes.fetch_add(ctx.nodes, Ordering::Relaxed);
        ctx.nodes = 0;
    }

    /// Has the side to move reached the goal against itself (is it mated / stalemated)?
    #[inline]
    pub fn goal_reached(&self, pos: &Position) -> bool {
        match self.goal {
            Goal::Mate => self.rules.in_check(pos) && !self.rules.has_legal_move(pos),
            Goal::Stalemate => !self.rules.in_check(pos) && !self.rules.has_legal_move(pos),
        }
    }

    /// Can a move by the side to move reach the goal against the other side at once?
    /// Returns the first such move.
    pub fn goal_in_one(&self, ctx: &mut Ctx, pos: &Position) -> Option<Move> {
        let mut found = None;
        if self.plain {
            let mate = self.goal == Goal::Mate;
            let _ = self.rules.for_each_legal(pos, |m, child| {
                ctx.nodes += 1;
                if self.rules.in_check(child) == mate && !self.rules.has_legal_move(child) {
                    found = Some(m);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            return found;
        }
        if self.goal == Goal::Mate {
            // The mate found last is often a mate here too.
            if let Some(k) = ctx.wins[1].filter(|_| self.rules.cheap_replay()) {
                if self.rules.is_pseudo_legal(pos, k) {
                    if let Some(child) = self.rules.play(pos, k) {
                        ctx.nodes += 1;
                        if self.rules.in_check(&child) && !self.rules.has_legal_move(&child) {
                            return Some(k);
                        }
                    }
                }
            }
            let _ = self.rules.for_each_mate_candidate(pos, |m, child| {
                ctx.nodes += 1;
                if !self.rules.has_legal_move(child) {
                    found = Some(m);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if found.is_some() {
                ctx.wins[1] = found;
            }
            return found;
        }
        let _ = self.rules.for_each_stalemate_candidate(pos, |m, child| {
            ctx.nodes += 1;
            if !self.rules.in_check(child) && !self.rules.has_legal_move(child) {
                found = Some(m);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        found
    }

    /// Can `loser` still be mated (stalemated) with these moves left, its king ending on
    /// one of `within`? `None` when the cheap final-position cut proves it cannot (see
    /// `reach.rs`), else the king squares it leaves, for [`Engine::final_possible`]. For
    /// stalemate the cut sets `tight` where the winner has no move to spare
    /// (`Reach::all_can_be_immobile`).
    #[inline]
    fn goal_possible(
        &self,
        pos: &Position,
        (loser, win, lose): (Color, u32, u32),
        (within, tight): (Bitboard, &Cell<Bitboard>),
    ) -> Option<Bitboard> {
        match &self.reach {
            None => Some(within),
            Some(r) => {
                let mate = self.goal == Goal::Mate;
                let squares =
                    r.king_squares_noting(pos, loser, (win, lose), mate, (within, tight)) & within;
                (squares != 0).then_some(squares)
            }
        }
    }

    /// The sharper test of one final position (`Reach::final_possible`), for mate with at
    /// least two moves left in all, for stalemate with three: run where the table knows
    /// nothing of the position. (For stalemate with two moves left it costs more than it
    /// saves: BENCHMARKS.md, "Help stalemates: free units".) Where the loser is to move,
    /// the same pass asks whether a picture fits with one loser move less; where none does,
    /// the loser has no move to spare: `spare` is set to the king squares of the pictures
    /// that fit, for [`Reach::loser_progress_into`] (it stays empty otherwise). The answer: the
    /// king squares of `squares` a final position can still have (empty: none), all of
    /// `squares` where the test does not run.
    fn final_possible(
        &self,
        pos: &Position,
        (loser, win, lose): (Color, u32, u32),
        squares: Bitboard,
        spare: &Cell<Bitboard>,
    ) -> Bitboard {
        let mate = self.goal == Goal::Mate;
        match &self.reach {
            Some(r) if win + lose >= if mate { 2 } else { 3 } => {
                let ask = pos.side == loser && lose >= 1;
                let (fits, spared) = r.final_pictures(pos, (loser, win, lose), mate, squares, ask);
                // (The test answers every square where it does not apply.)
                let fits = fits & squares;
                if ask && !spared {
                    spare.set(fits);
                }
                fits
            }
            _ => squares,
        }
    }

    // ----- battle play (direct, self, reflex) -----

    /// Is this a selfmate's last move (`n` = 1), where the defender must mate and any
    /// defence without check refutes?
    #[inline]
    fn selfmate_last(&self, b: Battle, n: u32) -> bool {
        n == 1 && b == Battle::Self_ && self.goal == Goal::Mate
    }

    /// Attacker to move: can it force success within `n` of its own moves?
    pub fn att(&self, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> bool {
        debug_assert!(n >= 1);
        if self.stopped() {
            return false;
        }
        if n == 1 && b == Battle::Direct {
            // Mate in one is cheaper to search than to look up.
            ctx.nodes += 1;
            return self.goal_in_one(ctx, pos).is_some() && !self.stopped();
        }
        if self.selfmate_last(b, n) && !self.plain {
            // So is a selfmate's last move, with its quiet-reply skip.
            ctx.nodes += 1;
            return self.att_exact(ctx, b, pos, 1) && !self.stopped();
        }
        let key = pos.hash ^ SALT_ATT[b as usize];
        let f = self.tt.get(key);
        let below = (1u32 << (n + 1)) - 1;
        if f.win & below != 0 {
            return true;
        }
        if f.fail >> n != 0 {
            return false;
        }
        ctx.nodes += 1;
        if b == Battle::Reflex && self.goal_in_one(ctx, pos).is_some() {
            self.tt.add(
                key,
                Facts {
                    win: 0,
                    fail: 1 << 31,
                },
            );
            return false;
        }
        // Iterative deepening: shorter wins first (they are cheap and common); with few
        // moves left, a win in one and then the whole depth (`DEEPEN_FROM`; the plain
        // search deepens one move at a time everywhere).
        for k in 1..=n {
            if k < n && (f.fail >> k != 0 || (k > 1 && n < DEEPEN_FROM && !self.plain)) {
                continue;
            }
            let won = self.att_exact(ctx, b, pos, k);
            if self.stopped() {
                return false;
            }
            if won {
                self.tt.add(
                    key,
                    Facts {
                        win: 1 << k,
                        fail: 0,
                    },
                );
                return true;
            }
            self.tt.add(
                key,
                Facts {
                    win: 0,
                    fail: 1 << k,
                },
            );
        }
        false
    }

    /// One pass of the attacker's moves against depth `n` (callers go through `att`).
    fn att_exact(&self, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> bool {
        if n == 1 && b == Battle::Direct {
            return self.goal_in_one(ctx, pos).is_some();
        }
        let depth = (n as usize).min(63);
        let first = ctx.wins[depth]
            .filter(|_| self.rules.cheap_replay())
            .filter(|&k| self.rules.is_pseudo_legal(pos, k));
        if let Some(k) = first {
            if self
                .rules
                .play_then(pos, k, |child| self.def(ctx, b, child, n))
                == Some(true)
            {
                return true;
            }
        }
        let won = self.first_winning_child(ctx, b, pos, n, first);
        if won.is_some() {
            ctx.wins[depth] = won;
        }
        won.is_some()
    }

    /// The first attacker move (`skip` left out) after which every defence fails. With two
    /// or more attacker moves in all, each child's table entry is fetched while the child
    /// before is searched (one child of lag): the table is far larger than the caches, and
    /// waiting for its probes was a quarter of the time.
    fn first_winning_child(
        &self,
        ctx: &mut Ctx,
        b: Battle,
        pos: &Position,
        n: u32,
        skip: Option<Move>,
    ) -> Option<Move> {
        let mut won = None;
        if self.selfmate_last(b, n) && !self.plain {
            // A selfmate's last move: the rules may skip moves that surely leave the
            // defender a move without check (it would refute them).
            let _ = self
                .rules
                .for_each_legal_without_quiet_answer(pos, |m, child| {
                    if Some(m) != skip && self.def(ctx, b, child, 1) {
                        won = Some(m);
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
            return won;
        }
        if n >= ORDER_FROM && !self.plain {
            return self.first_winning_child_ordered(ctx, b, pos, n, skip);
        }
        let mut pending: Option<(Move, Position)> = None;
        let _ = self.rules.for_each_legal(pos, |m, child| {
            if Some(m) == skip {
                return ControlFlow::Continue(());
            }
            let held;
            let (pm, prev) = if n >= 2 {
                self.tt.prefetch(child.hash ^ SALT_DEF[b as usize]);
                match pending.replace((m, *child)) {
                    Some(p) => {
                        held = p;
                        (held.0, &held.1)
                    }
                    None => return ControlFlow::Continue(()),
                }
            } else {
                (m, child)
            };
            if self.def(ctx, b, prev, n) {
                won = Some(pm);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match (won, pending) {
            (None, Some((m, last))) => self.def(ctx, b, &last, n).then_some(m),
            _ => won,
        }
    }

    /// [`Self::first_winning_child`] with the attacker's moves in the order of the replies
    /// they leave (fewest first).
    fn first_winning_child_ordered(
        &self,
        ctx: &mut Ctx,
        b: Battle,
        pos: &Position,
        n: u32,
        skip: Option<Move>,
    ) -> Option<Move> {
        let mut children: Vec<(u64, Move, Position)> = Vec::new();
        let _ = self.rules.for_each_legal(pos, |m, child| {
            if Some(m) != skip {
                self.tt.prefetch(child.hash ^ SALT_DEF[b as usize]);
                children.push((self.rules.count_legal(child), m, *child));
            }
            ControlFlow::Continue(())
        });
        children.sort_by_key(|c| c.0);
        children
            .iter()
            .find(|(_, _, child)| self.def(ctx, b, child, n))
            .map(|c| c.1)
    }

    /// Defender to move after an attacker move; `n` counts the attacker's moves including the
    /// one just made. True when the attacker's plan succeeds against every defence.
    pub fn def(&self, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> bool {
        if n < 2 {
            return self.def_search(ctx, b, pos, n);
        }
        // Success is monotonic in n: proven for n means proven for every larger n.
        let key = pos.hash ^ SALT_DEF[b as usize];
        let f = self.tt.get(key);
        if f.win & ((1u32 << (n + 1)) - 1) != 0 {
            return true;
        }
        if f.fail >> n != 0 {
            return false;
        }
        let ok = self.def_search(ctx, b, pos, n);
        if !self.stopped() {
            let facts = if ok {
                Facts {
                    win: 1 << n,
                    fail: 0,
                }
            } else {
                Facts {
                    win: 0,
                    fail: 1 << n,
                }
            };
            self.tt.add(key, facts);
        }
        ok
    }

    fn def_search(&self, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> bool {
        ctx.nodes += 1;
        if self.threat_restricted(ctx, b, pos, n) {
            return false;
        }
        if b == Battle::Reflex {
            if !self.rules.has_legal_move(pos) {
                return false;
            }
            if self.goal_in_one(ctx, pos).is_some() {
                return true;
            }
            if n == 1 {
                return false;
            }
        }
        // A selfmate's last defence: a legal move that gives no check cannot mate, so it
        // refutes (asked without playing the moves where the rules can).
        if self.selfmate_last(b, n) && self.rules.has_legal_move_without_check(pos) {
            return false;
        }
        // The refutation found last at this depth, tried before any generation: it often
        // refutes again, and then the node costs one move.
        let tried = match self.killer_first(ctx, b, pos, n) {
            Some((_, true)) => return false,
            Some((k, false)) => Some(k),
            None => None,
        };
        if tried.is_none() && !self.rules.has_legal_move(pos) {
            // Mated or stalemated: success in direct play if that is the goal; in self and
            // reflex play the defender had to reach the goal itself.
            return b == Battle::Direct && self.goal_reached(pos);
        }
        if b == Battle::Direct && n == 1 {
            return false; // a legal move left: not mated
        }
        self.all_defences(ctx, b, pos, n, tried)
    }

    /// Does the attacker's plan survive this defence? In self play a defence reaching the
    /// goal is the plan's success; otherwise the attacker needs a win in the moves left.
    #[inline]
    fn defence_fails(&self, ctx: &mut Ctx, b: Battle, child: &Position, n: u32) -> bool {
        (b == Battle::Self_ && self.goal_reached(child))
            || (n > 1 && self.att(ctx, b, child, n - 1))
    }

    /// The remembered refutation of depth `n`, played if it is legal here: `Some((move,
    /// refutes))`; `None` when there is none or it is not legal (or the rules replay moves
    /// expensively).
    fn killer_first(
        &self,
        ctx: &mut Ctx,
        b: Battle,
        pos: &Position,
        n: u32,
    ) -> Option<(Move, bool)> {
        let k = ctx.killers[(n as usize).min(63)]
            .filter(|_| self.rules.cheap_replay())
            .filter(|&k| self.rules.is_pseudo_legal(pos, k))?;
        let refutes = self
            .rules
            .play_then(pos, k, |child| !self.defence_fails(ctx, b, child, n))?;
        Some((k, refutes))
    }

    /// Popeye's `Threat n`: after an attacker move that leaves more than n moves and does
    /// not check, the attacker must threaten to succeed within n moves, or the move fails.
    pub fn threat_restricted(&self, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> bool {
        match self.threat_limit {
            Some(t) if t >= 1 && n > t && !self.rules.in_check(pos) => {
                !self.att(ctx, b, &pos.null_move(), t)
            }
            _ => false,
        }
    }

    /// Every defence either reaches the goal itself (self play) or leaves the attacker a win
    /// in n-1 (`tried`: a defence known not to refute, skipped). The refutation found last
    /// at this depth is tried first.
    fn all_defences(
        &self,
        ctx: &mut Ctx,
        b: Battle,
        pos: &Position,
        n: u32,
        tried: Option<Move>,
    ) -> bool {
        let depth = (n as usize).min(63);
        if !self.rules.cheap_replay() {
            // Replaying a move costs a whole generation here: keep the positions.
            let mut moves = self.rules.legal_moves(pos);
            if let Some(k) = ctx.killers[depth] {
                if let Some(i) = moves.iter().position(|&(m, _)| m == k) {
                    moves.swap(0, i);
                }
            }
            for (m, child) in moves {
                if !self.defence_fails(ctx, b, &child, n) {
                    ctx.killers[depth] = Some(m);
                    return false;
                }
            }
            return true;
        }
        let mut list = MoveList::new();
        self.rules.generate(pos, &mut list);
        let moves = list.as_mut_slice();
        if self.orders_defences(n) {
            // Popeye's order: with two or more attacker moves still to come, the defences
            // that leave the attacker the fewest replies first (they tend to refute, and
            // a refutation ends the node). Then the killer, as below.
            return self.all_defences_ordered(ctx, b, pos, n, moves, tried);
        }
        if let Some(k) = ctx.killers[depth] {
            if let Some(i) = moves.iter().position(|&m| m == k) {
                moves.swap(0, i);
            }
        }
        for &m in moves.iter().filter(|&&m| Some(m) != tried) {
            let refutes = self
                .rules
                .play_then(pos, m, |child| !self.defence_fails(ctx, b, child, n));
            if refutes == Some(true) {
                ctx.killers[depth] = Some(m);
                return false;
            }
        }
        true
    }

    /// Are the defences of a defender node with `n` attacker moves left (the one just
    /// made included) tried in Popeye's order, those leaving the attacker the fewest
    /// replies first? From `ORDER_DEFENCES_FROM` moves on, where counting the replies
    /// is cheap (orthodox movement).
    pub fn orders_defences(&self, n: u32) -> bool {
        n >= ORDER_DEFENCES_FROM && self.rules.orthodox_movement()
    }

    /// [`Engine::all_defences`] with the defences sorted by the number of attacker replies
    /// they leave (fewest first; ties in generation order), the killer first of all.
    fn all_defences_ordered(
        &self,
        ctx: &mut Ctx,
        b: Battle,
        pos: &Position,
        n: u32,
        moves: &[Move],
        tried: Option<Move>,
    ) -> bool {
        let depth = (n as usize).min(63);
        let killer = ctx.killers[depth];
        let mut order: Vec<(u64, Move, Position)> = Vec::with_capacity(moves.len());
        for &m in moves.iter().filter(|&&m| Some(m) != tried) {
            if let Some(child) = self.rules.play(pos, m) {
                self.tt.prefetch(child.hash ^ SALT_ATT[b as usize]);
                let replies = if Some(m) == killer {
                    0
                } else {
                    1 + self.rules.count_legal(&child)
                };
                order.push((replies, m, child));
            }
        }
        order.sort_by_key(|x| x.0);
        for (_, m, child) in &order {
            if !self.defence_fails(ctx, b, child, n) {
                ctx.killers[depth] = Some(*m);
                return false;
            }
        }
        true
    }

    // ----- help play -----

    /// Is there a help play of exactly `plies` half-moves from `pos` whose last move reaches
    /// the goal?
    pub fn help(&self, ctx: &mut Ctx, pos: &Position, plies: u32) -> bool {
        self.help_within(ctx, pos, plies, !0)
    }

    /// [`Self::help`], where the losing king's final square can only be one of `squares`:
    /// those the node before found for a final position ([`Self::help_gate`]). A line from
    /// `pos` is the end of a line from that node, with the same final position, and its
    /// cuts rule out a king square only where no final position reached in time has the
    /// king there (each cut is proven square by square). So the cuts here look at those
    /// squares alone, and the answer is the same.
    fn help_within(&self, ctx: &mut Ctx, pos: &Position, plies: u32, squares: Bitboard) -> bool {
        if plies == 0 {
            return self.goal_reached(pos);
        }
        if self.stopped() {
            return false;
        }
        ctx.nodes += 1;
        // The table first: the node that made this position fetched its entry from memory
        // then ([`Self::help_children`]), so a known node costs no cut.
        let key = help_key(pos, plies);
        if plies >= 2
            && let Some(known) = self.table_knows(key, plies)
        {
            return known;
        }
        let (spare, tight) = (Cell::new(0), Cell::new(0));
        let Some(sharp) = self.help_gate(pos, plies, squares, (&spare, &tight)) else {
            return false;
        };
        if plies == 1 {
            return self.goal_in_one(ctx, pos).is_some();
        }
        let fits = sharp();
        let mut filters = Filters::default();
        let keep = self.moves_filter(
            pos,
            (plies == 2, fits),
            help_sides(pos, plies),
            (&spare, tight.get()),
            &mut filters,
        );
        let found = fits != 0 && self.help_children(ctx, (pos, fits), plies, keep);
        self.remember(key, plies, found);
        found
    }

    /// Does one of the moves `keep` keeps from `pos` (`plies` >= 2 left) go on to a
    /// solution? With three or more plies left the positions after the moves are made
    /// first and the table entries of the nodes they lead to are fetched from memory
    /// together, as in series play ([`Self::series_children`]): each child then asks the
    /// table before its cuts without waiting (BENCHMARKS.md, "Help play: the table
    /// first, the children's entries fetched together"). The children are searched in
    /// the order of the moves, as before.
    fn help_children(
        &self,
        ctx: &mut Ctx,
        (pos, squares): (&Position, Bitboard),
        plies: u32,
        keep: impl FnMut(Move) -> bool,
    ) -> bool {
        if plies == 2 {
            // The children (one ply left) do not ask the table.
            return self
                .rules
                .for_each_legal_where(pos, keep, |_, child| {
                    if self.help_within(ctx, child, 1, squares) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_break();
        }
        self.any_child(
            ctx,
            (pos, plies as usize),
            keep,
            |child| self.tt.prefetch(help_key(child, plies - 1)),
            |ctx, child| self.help_within(ctx, child, plies - 1, squares),
        )
    }

    /// Does `test` hold for one of the positions after the moves `keep` keeps from `pos`?
    /// The positions are made first, each shown to `made` as it is made (to fetch its
    /// table entry), into the context's buffer for `depth`; then they are tested in the
    /// order of the moves, until one passes.
    fn any_child(
        &self,
        ctx: &mut Ctx,
        (pos, depth): (&Position, usize),
        keep: impl FnMut(Move) -> bool,
        mut made: impl FnMut(&Position),
        mut test: impl FnMut(&mut Ctx, &Position) -> bool,
    ) -> bool {
        if ctx.kids.len() <= depth {
            ctx.kids.resize_with(depth + 1, Vec::new);
        }
        let mut kids = std::mem::take(&mut ctx.kids[depth]);
        kids.clear();
        let _ = self.rules.for_each_legal_where(pos, keep, |_, child| {
            made(child);
            kids.push(*child);
            ControlFlow::Continue(())
        });
        let found = kids.iter().any(|child| test(ctx, child));
        ctx.kids[depth] = kids;
        found
    }

    /// The cuts of help play from `pos` with `plies` left, the losing king ending on one
    /// of `squares` (see [`Self::help_within`]): `None` when the cheap cut rules the
    /// position out, else the sharper test to run where the table knows nothing (which
    /// sets `spare`: see [`Self::final_possible`]), which gives the king squares left.
    fn help_gate<'s>(
        &'s self,
        pos: &'s Position,
        plies: u32,
        squares: Bitboard,
        (spare, tight): (&'s Cell<Bitboard>, &Cell<Bitboard>),
    ) -> Option<impl FnOnce() -> Bitboard + 's> {
        let sides = help_sides(pos, plies);
        let squares = self.goal_possible(pos, sides, (squares, tight))?;
        Some(move || self.final_possible(pos, sides, squares, spare))
    }

    /// May help play from `pos` with `plies` (at least 2) left succeed, as far as the table
    /// and the cuts tell without searching its moves? Where this is false, [`Self::help`]
    /// is false too; the parallel driver searches the moves of the other nodes itself.
    pub fn help_open(&self, pos: &Position, plies: u32) -> bool {
        let (spare, tight) = (Cell::new(0), Cell::new(0));
        self.help_gate(pos, plies, !0, (&spare, &tight))
            .is_some_and(|sharp| {
                self.table_knows(help_key(pos, plies), plies)
                    .unwrap_or_else(|| sharp() != 0)
            })
    }

    /// Which moves of the side to move are worth playing: where it is to be stalemated
    /// after its move (`last`) and one move of the other side, those
    /// [`Reach::last_loser_moves_into`] keeps; where it is the loser (`sides`: loser, winner's
    /// and loser's moves left) and the sharper test found it no move to spare (`spare`),
    /// those [`Reach::loser_progress_into`] keeps; where it is the winner of a stalemate with
    /// two or more moves left and the cheap cut found it no move to spare for the loser's
    /// stuck pieces and hard pawns (`tight`, set by the cut), those landing on the tight
    /// squares and en passant, and of those, where the free-units count fails with one
    /// move fewer, those [`UnitMoves`] keeps (help play only: `within`, the
    /// king squares the node hands down, is 0 in series play); else all. The filters are
    /// built at the first move asked about, so a node the table or the cuts answer never
    /// builds them.
    fn moves_filter<'s>(
        &'s self,
        pos: &'s Position,
        (last, within): (bool, Bitboard),
        sides: (Color, u32, u32),
        (spare, tight): (&'s Cell<Bitboard>, Bitboard),
        filters: &'s mut Filters,
    ) -> impl FnMut(Move) -> bool + 's {
        // A stalemate's stuck pieces and hard pawns leave the winner to move no move to
        // spare (`Reach::all_can_be_immobile`): it must land on one of `tight`.
        let (loser, win, lose) = sides;
        let tight = if pos.side != loser && win >= 2 {
            tight
        } else {
            0
        };
        move |m| {
            let Some(r) = &self.reach else { return true };
            if !keeps_tight(tight, m) {
                return false;
            }
            let units = filters.units.get_or_insert_with(|| match self.goal {
                Goal::Stalemate if within != 0 && pos.side != loser => {
                    r.units_relevant(pos, loser, (win, lose), within)
                }
                _ => None,
            });
            if units.as_ref().is_some_and(|u| !u.keep(pos, m)) {
                return false;
            }
            if !std::mem::replace(&mut filters.built, true) {
                if self.goal == Goal::Stalemate && last {
                    r.last_loser_moves_into(pos, 1, &mut filters.last);
                }
                if spare.get() != 0 {
                    let mate = self.goal == Goal::Mate;
                    r.loser_progress_into(pos, sides, mate, spare.get(), &mut filters.progress);
                }
            }
            filters.last.as_ref().is_none_or(|l| l.keep(r, pos, m))
                && filters.progress.as_ref().is_none_or(|p| p.keep(r, pos, m))
        }
    }

    /// What the table knows of `key` at the exact depth `k`: proven, refuted, or nothing.
    fn table_knows(&self, key: u64, k: u32) -> Option<bool> {
        let bit = 1u32 << (k % 32);
        let f = self.tt.get(key);
        if f.win & bit != 0 {
            Some(true)
        } else if f.fail & bit != 0 {
            Some(false)
        } else {
            None
        }
    }

    /// Stores a proven exact-depth answer (nothing once the search is stopped: an answer
    /// cut short is not proven).
    fn remember(&self, key: u64, k: u32, found: bool) {
        if !self.stopped() {
            let bit = 1u32 << (k % 32);
            let facts = if found {
                Facts { win: bit, fail: 0 }
            } else {
                Facts { win: 0, fail: bit }
            };
            self.tt.add(key, facts);
        }
    }

    /// Stores what the parallel driver found at a node it split (help play, `plies` left):
    /// a later transposition to it is then answered by the table, as [`Self::help`] would.
    pub fn remember_help(&self, pos: &Position, plies: u32, found: bool) {
        self.remember(help_key(pos, plies), plies, found);
    }

    /// As [`Self::remember_help`], for a series node (series side to move, `k` left).
    pub fn remember_series(&self, end: SeriesEnd, pos: &Position, k: u32, found: bool) {
        self.remember(series_key(end, pos, k), k, found);
    }

    // ----- series play -----

    /// The series side is to move with `k` moves left. Intermediate moves must not check the
    /// other side; the other side passes in between.
    pub fn series(&self, ctx: &mut Ctx, end: SeriesEnd, pos: &Position, k: u32) -> bool {
        self.series_within(ctx, end, (pos, !0), k)
    }

    /// [`Self::series`], where the losing king's final square can only be one of `squares`
    /// (as in [`Self::help_within`]).
    fn series_within(
        &self,
        ctx: &mut Ctx,
        end: SeriesEnd,
        (pos, squares): (&Position, Bitboard),
        k: u32,
    ) -> bool {
        if self.stopped() {
            return false;
        }
        ctx.nodes += 1;
        if k == 0 {
            return self.series_end(ctx, end, pos);
        }
        // Unlike help play, series play asks the table before the cheap cut: one side's
        // moves transpose so often that most nodes are known, and the cut's cost grows
        // with the series side's many moves (BENCHMARKS.md, "Series play: the table
        // first").
        let key = series_key(end, pos, k);
        if !std::mem::take(&mut ctx.asked)
            && let Some(known) = self.table_knows(key, k)
        {
            return known;
        }
        let spare = Cell::new(0);
        let Some(sharp) = self.series_gate(end, pos, (k, squares), &spare) else {
            return false;
        };
        let last = k == 1 && end == SeriesEnd::Help;
        let fits = sharp();
        let mut filters = Filters::default();
        let keep = self.moves_filter(
            pos,
            (last, 0),
            series_sides(end, pos, k),
            (&spare, 0),
            &mut filters,
        );
        let found = fits != 0 && self.series_children(ctx, end, (pos, fits), k, keep);
        self.remember(key, k, found);
        found
    }

    /// Does one of the series side's moves from `pos` (those `keep` keeps; `k` moves left)
    /// go on to a solution ([`Self::series_step`])? The positions after the moves are made
    /// first and the table entries of the nodes they lead to are fetched together: most of
    /// those nodes are known to the table, which series play asks first, and the entries
    /// otherwise came in from memory one after the other (a profile of ser13_0608 had a
    /// fifth of the time on that one load).
    fn series_children(
        &self,
        ctx: &mut Ctx,
        end: SeriesEnd,
        (pos, squares): (&Position, Bitboard),
        k: u32,
        keep: impl FnMut(Move) -> bool,
    ) -> bool {
        if k >= 2 && end == SeriesEnd::Help && self.rules.condition == Condition::Orthodox {
            return self.any_child_known_first(
                ctx,
                (pos, k - 1),
                keep,
                |m| {
                    pos.null_move_hash_after(m)
                        .map(|h| series_key_of(end, h, k - 1))
                },
                |ctx, child| self.series_step_within(ctx, end, (child, squares), k),
            );
        }
        self.any_child(
            ctx,
            (pos, k as usize),
            keep,
            |child| {
                if k >= 2 {
                    self.tt
                        .prefetch(series_key_of(end, child.null_move_hash(), k - 1));
                }
            },
            |ctx, child| self.series_step_within(ctx, end, (child, squares), k),
        )
    }

    /// [`Self::any_child`] for orthodox series help play, `depth` (one or more) moves left
    /// after the move: the table keys of the nodes after the moves (`key`, from the move)
    /// are taken without making the positions where the move allows
    /// ([`Position::null_move_hash_after`]) and fetched together, and a node the table
    /// knows is answered from it without being made. That is the answer `test` gives
    /// there: the node asks the table before anything else but whether the move checks,
    /// and the table holds a node only once it was searched, which a move that checks never
    /// leads to (the node is the same position whichever move led to it). Every other
    /// move is made and tested as before, in the same order, and its node does not ask the
    /// table again (`Ctx::asked`), so the answers, the lines printed and the nodes counted
    /// are the same. (In help play, where most nodes are unknown to the table, this was
    /// slower: BENCHMARKS.md, "Series play: the known nodes answered before they are
    /// made".)
    fn any_child_known_first(
        &self,
        ctx: &mut Ctx,
        (pos, depth): (&Position, u32),
        mut keep: impl FnMut(Move) -> bool,
        key: impl Fn(Move) -> Option<u64>,
        mut test: impl FnMut(&mut Ctx, &Position) -> bool,
    ) -> bool {
        let slot = depth as usize;
        if ctx.keyed.len() <= slot {
            ctx.keyed.resize_with(slot + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut ctx.keyed[slot]);
        moves.clear();
        let _ = crate::rules::orthodox::each_legal_unplayed(pos, self.rules, &mut |m| {
            if keep(m) {
                let key = key(m);
                if let Some(key) = key {
                    self.tt.prefetch(key);
                }
                moves.push((m, key));
            }
            ControlFlow::Continue(())
        });
        let found = moves.iter().any(|&(m, key)| {
            let Some(key) = key else {
                return test(ctx, &pos.make(m));
            };
            match self.table_knows(key, depth) {
                Some(known) if !self.stopped() => {
                    ctx.nodes += 1;
                    known
                }
                _ => {
                    // The node need not ask the table again (cleared where it does not).
                    ctx.asked = true;
                    let found = test(ctx, &pos.make(m));
                    ctx.asked = false;
                    found
                }
            }
        });
        ctx.keyed[slot] = moves;
        found
    }

    /// The cuts of series play from `pos` (series side to move, `k` >= 1 moves left, the
    /// losing king ending on one of `squares`), as [`Self::help_gate`]; none for series
    /// self play.
    fn series_gate<'s>(
        &'s self,
        end: SeriesEnd,
        pos: &'s Position,
        (k, squares): (u32, Bitboard),
        spare: &'s Cell<Bitboard>,
    ) -> Option<impl FnOnce() -> Bitboard + 's> {
        let sides = series_sides(end, pos, k);
        let open = end == SeriesEnd::Self_;
        let squares = if open {
            !0
        } else {
            self.goal_possible(pos, sides, (squares, &Cell::new(0)))?
        };
        (squares != 0).then_some(move || {
            if open {
                !0
            } else {
                let fits = self.final_possible(pos, sides, squares, spare);
                self.walls_possible(end, pos, sides, fits)
            }
        })
    }

    /// Series-help stalemates: the king squares of `squares` where every unit of the loser
    /// can still end walled in ([`Reach::walled_in`]); all of `squares` elsewhere.
    fn walls_possible(
        &self,
        end: SeriesEnd,
        pos: &Position,
        (loser, win, lose): (Color, u32, u32),
        squares: Bitboard,
    ) -> Bitboard {
        match &self.reach {
            Some(r)
                if end == SeriesEnd::Help
                    && self.goal == Goal::Stalemate
                    && win == 1
                    && squares != 0 =>
            {
                r.walled_in(pos, loser, lose as usize, squares)
            }
            _ => squares,
        }
    }

    /// After a series move (`child`, other side to move) with `k` moves left before it.
    pub fn series_step(&self, ctx: &mut Ctx, end: SeriesEnd, child: &Position, k: u32) -> bool {
        self.series_step_within(ctx, end, (child, !0), k)
    }

    /// [`Self::series_step`], the losing king ending on one of `squares`.
    fn series_step_within(
        &self,
        ctx: &mut Ctx,
        end: SeriesEnd,
        (child, squares): (&Position, Bitboard),
        k: u32,
    ) -> bool {
        if k == 1 {
            return match end {
                SeriesEnd::Direct => self.goal_reached(child),
                _ => self.series_end(ctx, end, child),
            };
        }
        match self.series_goes_on(ctx, end, child) {
            Some(passed) => self.series_within(ctx, end, (&passed, squares), k - 1),
            None => false,
        }
    }

    /// After an intermediate series move (`child`, other side to move): the position once
    /// the other side has passed, or `None` where the line cannot go on (the other side is
    /// in check, or, in series self play, the goal is forced already). A direct series
    /// goes on after a stalemate before its last move, as in Popeye: the stalemated side
    /// makes no move in the series, so the stalemate ends nothing (a mate gives check, which
    /// no move before the last may).
    pub fn series_goes_on(
        &self,
        ctx: &mut Ctx,
        end: SeriesEnd,
        child: &Position,
    ) -> Option<Position> {
        if self.rules.in_check(child) {
            return None;
        }
        // A self series ends where the other side is forced to reach the goal.
        let finished = end == SeriesEnd::Self_ && self.series_end(ctx, end, child);
        (!finished).then(|| child.null_move())
    }

    /// May the series from `pos` (series side to move, `k` >= 1 moves left) succeed, as far
    /// as the table and the cuts tell without searching its moves (see [`Self::help_open`])?
    pub fn series_open(&self, end: SeriesEnd, pos: &Position, k: u32) -> bool {
        let spare = Cell::new(0);
        self.table_knows(series_key(end, pos, k), k)
            .unwrap_or_else(|| {
                self.series_gate(end, pos, (k, !0), &spare)
                    .is_some_and(|sharp| sharp() != 0)
            })
    }

    /// Help-self play (`hs#`, `hs=`): with `plies` help plies left from `pos`, can both
    /// sides reach a position where the side to move has a move and every one of its
    /// moves reaches the goal? Plain search with the table (exact depths); none of the
    /// help play's final-position cuts, which assume that the last help move reaches
    /// the goal itself.
    pub fn help_self(&self, ctx: &mut Ctx, pos: &Position, plies: u32) -> bool {
        if plies == 0 {
            return self.series_end(ctx, SeriesEnd::Self_, pos);
        }
        if self.stopped() {
            return false;
        }
        ctx.nodes += 1;
        let key = pos.hash ^ SALT_HELP_SELF ^ depth_salt(plies);
        if let Some(known) = self.table_knows(key, plies) {
            return known;
        }
        let found = self
            .rules
            .for_each_legal(pos, |_, c| {
                if self.help_self(ctx, c, plies - 1) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break();
        self.remember(key, plies, found);
        found
    }

    /// After the whole series, the other side to move.
    fn series_end(&self, ctx: &mut Ctx, end: SeriesEnd, pos: &Position) -> bool {
        match end {
            SeriesEnd::Direct => self.goal_reached(pos),
            SeriesEnd::Help => self.goal_in_one(ctx, pos).is_some(),
            SeriesEnd::Self_ => {
                let mut any = false;
                let all = self
                    .rules
                    .for_each_legal(pos, |_, c| {
                        any = true;
                        if self.goal_reached(c) {
                            ControlFlow::Continue(())
                        } else {
                            ControlFlow::Break(())
                        }
                    })
                    .is_continue();
                any && all
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Kind, Piece};

    /// A small deterministic generator of sparse legal positions.
    struct Gen(u64);
    impl Gen {
        fn next(&mut self) -> u64 {
            crate::core::xorshift(&mut self.0)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn position(&mut self) -> Option<Position> {
            let mut pos = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").ok()?;
            let kinds = [
                Kind::Pawn,
                Kind::Pawn,
                Kind::Knight,
                Kind::Knight,
                Kind::Bishop,
                Kind::Rook,
                Kind::Queen,
            ];
            for color in [Color::White, Color::Black] {
                // Kings on the edge half of the time.
                let s = if self.below(2) == 0 {
                    [0u8, 7, 56, 63, 3, 4, 59, 60, 24, 31][self.below(10) as usize]
                } else {
                    self.below(64) as u8
                };
                if pos.board.kind_at(s).is_some() {
                    return None;
                }
                pos.put(
                    s,
                    Piece {
                        kind: Kind::King,
                        color,
                    },
                );
                let ks = pos.king(color);
                let n = if self.below(2) == 0 { 3 } else { 9 };
                for _ in 0..self.below(n) {
                    // Half of the pieces crowd around the king: near-mates are where a
                    // cut that is too eager shows.
                    let s = if self.below(2) == 0 {
                        let (f, r) = (ks as i64 % 8, ks as i64 / 8);
                        let f = (f + self.below(5) as i64 - 2).clamp(0, 7);
                        let r = (r + self.below(5) as i64 - 2).clamp(0, 7);
                        (r * 8 + f) as u8
                    } else {
                        self.below(64) as u8
                    };
                    let kind = kinds[self.below(kinds.len() as u64) as usize];
                    if pos.board.kind_at(s).is_some()
                        || (kind == Kind::Pawn && !(8..56).contains(&s))
                    {
                        continue;
                    }
                    pos.put(s, Piece { kind, color });
                }
            }
            if self.below(2) == 1 {
                pos = pos.null_move();
            }
            // The side not to move must not be in check.
            if pos.null_move().in_check() {
                return None;
            }
            Some(pos)
        }
    }

    /// A position up to three random moves (either side's, a null move now and then) away
    /// from one of `problems`, with the side not to move out of check.
    fn near(g: &mut Gen, rules: &Rules, problems: &[&str]) -> Option<Position> {
        let mut p = Position::from_fen(problems[g.below(problems.len() as u64) as usize])
            .expect("example FEN");
        for _ in 0..g.below(4) {
            let moves = rules.legal_moves(&p);
            if moves.is_empty() || g.below(5) == 0 {
                p = p.null_move();
            } else {
                p = moves[g.below(moves.len() as u64) as usize].1;
            }
        }
        (!p.null_move().in_check()).then_some(p)
    }

    /// Calls `f` with 3,000 positions from the seed `seed`: every other one random, the
    /// others a few moves from one of `problems`.
    fn each_sample(
        seed: u64,
        rules: &Rules,
        problems: &[&str],
        mut f: impl FnMut(&mut Gen, Position),
    ) {
        let mut g = Gen(seed);
        let mut tested = 0;
        while tested < 3000 {
            let pos = if tested % 2 == 0 {
                g.position()
            } else {
                near(&mut g, rules, problems)
            };
            let Some(pos) = pos else { continue };
            tested += 1;
            f(&mut g, pos);
        }
    }

    /// Plays every reply after each move the selfmate's last move skips in `pos`: one must
    /// give no check. Returns the moves skipped and played.
    fn skips_keep_a_quiet_reply(rules: &Rules, pos: &Position) -> (usize, usize) {
        let mut kept = Vec::new();
        let _ = rules.for_each_legal_without_quiet_answer(pos, |m, _| {
            kept.push(m);
            ControlFlow::Continue(())
        });
        let (mut skipped, mut played) = (0, 0);
        for (m, child) in rules.legal_moves(pos) {
            if kept.contains(&m) {
                played += 1;
                continue;
            }
            skipped += 1;
            let quiet = rules
                .legal_moves(&child)
                .iter()
                .any(|(_, c)| !rules.in_check(c));
            assert!(quiet, "{} {m:?}", pos.to_fen());
        }
        (skipped, played)
    }

    /// Direct, self and reflex play in three and four moves: the search that goes from a
    /// win in one straight to the whole depth (`DEEPEN_FROM`) answers as the plain search,
    /// which deepens one move at a time, on random positions and positions a few moves
    /// from six problems (mates in two to five, and a selfmate's position).
    #[test]
    fn battle_play_agrees_with_the_plain_search() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let problems = [
            "8/8/8/8/8/kp5R/p7/K7 w - - 0 1",
            "1B2n3/8/2R5/5p2/3kp1n1/4p3/B3K3/8 w - - 0 1",
            "8/2Np4/2pP2B1/4B2p/K1kP1pp1/2p4r/2P2r1N/7b w - - 0 1",
            "8/8/8/2p5/2R5/kp5P/p7/K7 w - - 0 1",
            "2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - - 0 1",
            "8/1N6/8/4k1P1/6PR/3K3N/B7/8 w - - 0 1",
        ];
        let mut found = [0usize; 3];
        let mut tested = 0;
        each_sample(0xB5AD_4ECE_DA1C_E2A9, &rules, &problems, |_, pos| {
            tested += 1;
            if tested % 3 != 0 {
                return;
            }
            let (tt1, tt2) = (Tt::new(1), Tt::new(1));
            let cut = Engine::new(&rules, Goal::Mate, &tt1, &stop);
            let plain = Engine::new(&rules, Goal::Mate, &tt2, &stop).exhaustive();
            let mut ctx = Ctx::new();
            for (i, b) in [Battle::Direct, Battle::Self_, Battle::Reflex]
                .into_iter()
                .enumerate()
            {
                let deepest = if b == Battle::Direct { 4 } else { 3 };
                for n in 3..=deepest {
                    let x = cut.att(&mut ctx, b, &pos, n);
                    let y = plain.att(&mut ctx, b, &pos, n);
                    assert_eq!(x, y, "{b:?} {n} {}", pos.to_fen());
                    found[i] += usize::from(x);
                }
            }
        });
        // Each kind of play has wins to compare, not only failures.
        assert!(found.iter().all(|&f| f > 20), "{found:?}");
    }

    /// A selfmate's last move is skipped only when the defender surely has a move without
    /// check: every skipped move is checked by playing every reply, on random positions and
    /// on positions a few random moves away from the selfmates of Popeye's examples; and
    /// selfmates in one and two agree with the plain search there.
    #[test]
    fn selfmate_skips_agree_with_the_plain_search() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        let problems = [
            "8/8/8/8/8/kp5R/p7/K7 w - - 0 1",
            "8/8/8/2p5/8/kpR5/p7/K7 w - - 0 1",
            "8/8/8/8/2R1P3/kp1B4/8/K7 w - - 0 1",
            "8/8/8/2p5/2R5/kp5P/p7/K7 w - - 0 1",
            "8/8/1Q6/8/krR5/bp3p1p/qr3PpP/R3K1n1 w Q - 0 1",
            "8/8/8/8/1p4Q1/k7/p7/K7 w - - 0 1",
            "8/8/8/8/1p6/k7/p1Q5/K7 w - - 0 1",
            "8/8/8/2p3p1/2R3P1/kp6/p7/K7 w - - 0 1",
            "8/R4PpP/5kp1/PP1R2N1/Kp3P1B/bQ4P1/rr1p4/nn1b1N1B w - - 0 1",
            "2K3nr/1PPpp2p/3R3p/3pNPkP/3P4/3PP2Q/8/3B4 w - - 0 1",
            "8/4B3/3Rp2p/2Nbk1pP/1Qp2pKn/1N3P1P/3R4/8 w - - 0 1",
        ];
        // Positions where the defender's only quiet moves are lost to one move of ours: a
        // pawn's capture of the piece that moves away (b5xc4 after Nc4 moves), a knight move
        // that opens the h-file to a rook arriving on h1, and a knight that the bishop's
        // leaving c8 pins on the eighth rank; and our king's moves: Kc1 onto the rank the
        // knight's move opens, Kd7 off the rank it blocked, Kxb5 and Kb4 onto the
        // pawn's squares.
        let fixed = [
            "7k/5K2/5N2/1p6/1PN5/8/8/8 w - - 0 1",
            "7k/5K2/5N2/7n/8/8/8/R7 w - - 0 1",
            "R1B1n2k/5K2/5N2/8/8/8/8/8 w - - 0 1",
            "7k/5Q2/8/8/8/8/p1K5/rn6 w - - 0 1",
            "R2K3k/6pp/8/8/8/8/8/8 w - - 0 1",
            "7k/5Q2/8/Kp6/8/8/8/8 w - - 0 1",
            // The bishop's leaving f4 uncovers the nightrider's check on h8.
            "7k/5K1p/8/8/5B2/8/4(N)3/8 w - - 0 1",
        ];
        let (mut tested, mut skipped, mut played, mut found) = (0, 0, 0, 0);
        while tested < 3000 + fixed.len() {
            let pos = if tested >= 3000 {
                Position::from_fen(fixed[tested - 3000]).expect("fixed FEN")
            } else if tested % 2 == 0 {
                let Some(p) = g.position() else { continue };
                p
            } else {
                let Some(p) = near(&mut g, &rules, &problems) else {
                    continue;
                };
                p
            };
            tested += 1;
            let (s, p) = skips_keep_a_quiet_reply(&rules, &pos);
            (skipped, played) = (skipped + s, played + p);
            if tested % 2 == 1 || tested % 8 == 0 {
                let (tt1, tt2) = (Tt::new(1), Tt::new(1));
                let cut = Engine::new(&rules, Goal::Mate, &tt1, &stop);
                let plain = Engine::new(&rules, Goal::Mate, &tt2, &stop).exhaustive();
                let mut ctx = Ctx::new();
                for n in 1..=2 {
                    let a = cut.att(&mut ctx, Battle::Self_, &pos, n);
                    let b = plain.att(&mut ctx, Battle::Self_, &pos, n);
                    assert_eq!(a, b, "s#{n} {}", pos.to_fen());
                    found += usize::from(a);
                }
            }
        }
        // Both kinds of moves occur, and selfmates are found.
        assert!(
            skipped > 10_000 && played > 1_000 && found > 20,
            "{skipped} {played} {found}"
        );
    }

    /// The mate-in-one search skips a check only when the checked king surely has a flight:
    /// every skipped check is played and its king move found, and mate in one agrees with
    /// trying every legal move, on random positions.
    #[test]
    fn mate_in_one_skips_only_checks_with_a_flight() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let mut g = Gen(0x0DDB_1A5E_5BAD_5EED);
        // The bishop's leaving e3 uncovers the rook's check and the nightrider's guard of d5
        // (Bf2#: a flight test that forgot the nightrider line would skip it).
        let fixed = ["8/8/R7/4k3/6K1/2P1B3/8/4R(N)2 w - - 0 1"];
        let (mut tested, mut skipped, mut mates) = (0, 0, 0);
        while tested < 4000 + fixed.len() {
            let pos = if tested < fixed.len() {
                Position::from_fen(fixed[tested]).expect("fixed FEN")
            } else {
                let Some(p) = g.position() else { continue };
                p
            };
            tested += 1;
            let mut kept = Vec::new();
            let _ = rules.for_each_mate_candidate(&pos, |m, _| {
                kept.push(m);
                ControlFlow::Continue(())
            });
            let mut mate = false;
            for (m, child) in rules.legal_moves(&pos) {
                if !rules.in_check(&child) {
                    continue;
                }
                let k = child.king(child.side);
                let flight = rules.legal_moves(&child).iter().any(|(r, _)| r.from == k);
                mate |= !rules.has_legal_move(&child);
                if !kept.contains(&m) {
                    skipped += 1;
                    assert!(flight, "{} {m:?}", pos.to_fen());
                }
            }
            let tt = Tt::new(1);
            let engine = Engine::new(&rules, Goal::Mate, &tt, &stop);
            assert_eq!(
                engine.goal_in_one(&mut Ctx::new(), &pos).is_some(),
                mate,
                "{}",
                pos.to_fen()
            );
            mates += usize::from(mate);
        }
        assert!(skipped > 1000 && mates > 50, "{skipped} {mates}");
    }

    /// The help-play tables built for one position's kinds (`with_help_cuts_for`) answer
    /// every question about it as the tables of every kind do: random positions, half of
    /// them with a fairy unit, each side as the loser, budgets 0-3, mate and stalemate.
    #[test]
    fn tables_for_the_kinds_present_answer_as_all() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let tt = Tt::new(1);
        let every = Engine::new(&rules, Goal::Mate, &tt, &stop).with_help_cuts();
        let every = every.reach.as_ref().expect("orthodox cuts");
        let fairy: Vec<Kind> = crate::core::piece::ALL_KINDS
            .into_iter()
            .filter(|&k| {
                crate::core::piece::ORTHODOX_PROMOTIONS
                    .iter()
                    .all(|&o| o != k)
            })
            .filter(|k| !matches!(k, Kind::Pawn | Kind::King))
            .collect();
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        let (mut tested, mut with_fairy) = (0, 0);
        while tested < 400 {
            let Some(mut pos) = g.position() else {
                continue;
            };
            if g.below(2) == 0 {
                let s = g.below(64) as u8;
                let kind = fairy[g.below(fairy.len() as u64) as usize];
                let color = [Color::White, Color::Black][g.below(2) as usize];
                if pos.board.kind_at(s).is_some() {
                    continue;
                }
                pos.put(s, Piece { kind, color });
                if pos.null_move().in_check() {
                    continue;
                }
                with_fairy += 1;
            }
            tested += 1;
            let own = Engine::new(&rules, Goal::Mate, &tt, &stop).with_help_cuts_for(&pos);
            let own = own.reach.as_ref().expect("orthodox cuts");
            for loser in [Color::White, Color::Black] {
                for (w, l, mate) in
                    (0..4).flat_map(|w| (0..4).flat_map(move |l| [(w, l, true), (w, l, false)]))
                {
                    let at = |r: &Reach| {
                        (
                            r.king_squares(&pos, loser, w, l, mate),
                            r.final_pictures(&pos, (loser, w, l), mate, !0, true),
                        )
                    };
                    assert_eq!(
                        at(every),
                        at(own),
                        "{} {loser:?} {w} {l} {mate}",
                        pos.to_fen()
                    );
                }
            }
        }
        assert!(with_fairy > 100, "{with_fairy} positions with a fairy unit");
    }

    /// The loser's moves that `Reach::loser_progress` drops leave no final picture (its king
    /// on any square): each is played and the picture looked for after it, on random
    /// positions and positions near helpmates (the loser to move, one to four moves of its
    /// own left, mate and stalemate).
    #[test]
    fn the_loser_moves_dropped_leave_no_picture() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let tt = Tt::new(1);
        let engine = Engine::new(&rules, Goal::Mate, &tt, &stop).with_help_cuts();
        let reach = engine.reach.as_ref().expect("orthodox cuts");
        let problems = [
            "1b4b1/N5K1/8/4p3/r7/k3nq2/3p4/8 b - - 0 1",
            "8/8/1p6/1P6/kB6/p1p5/P1K5/8 b - - 0 1",
            "8/1p6/1P2p3/2k1P3/2p5/2K5/8/2B5 b - - 0 1",
        ];
        let (mut dropped, mut kept_with_picture) = (0, 0);
        each_sample(0x9E37_79B9_7F4A_7C15, &rules, &problems, |g, pos| {
            let loser = pos.side;
            let moves = rules.legal_moves(&pos);
            let extra = 1 + g.below(4) as u32;
            let cases = [(true, 1, 1), (true, 2, 2), (true, 1, 3), (false, 2, 2)];
            for (mate, win, lose) in cases
                .into_iter()
                .chain([(true, 2, extra), (false, 1, extra)])
            {
                // As the engine: the cheap test's king squares, a picture with all the
                // loser's moves among them but none with one move less.
                let squares = reach.king_squares(&pos, loser, win, lose, mate);
                let sides = (loser, win, lose);
                let (fits, spare) = reach.final_pictures(&pos, sides, mate, squares, true);
                if squares == 0 || fits == 0 || spare {
                    continue;
                }
                let Some(p) = reach.loser_progress(&pos, sides, mate, fits) else {
                    continue;
                };
                for (m, child) in &moves {
                    // As the engine tests the child: the cheap test's king squares, then
                    // the picture among them.
                    let after = reach.king_squares(child, loser, win, lose - 1, mate);
                    let picture = after != 0
                        && reach.final_possible(child, loser, win, lose - 1, mate, after);
                    if p.keep(reach, &pos, *m) {
                        kept_with_picture += usize::from(picture);
                    } else {
                        assert!(!picture, "{} {m:?} {mate} {win} {lose}", pos.to_fen());
                        dropped += 1;
                    }
                }
            }
        });
        assert!(
            dropped > 5000 && kept_with_picture > 500,
            "{dropped} {kept_with_picture}"
        );
    }

    /// The king squares of the final positions reached by every line of `plies` moves from
    /// `pos` (the plain enumeration: every legal move, the goal tested at the end).
    fn final_king_squares(engine: &Engine, pos: &Position, plies: u32, loser: Color) -> Bitboard {
        if plies == 0 {
            return if engine.goal_reached(pos) {
                crate::core::bb(pos.king(loser))
            } else {
                0
            };
        }
        let mut found = 0;
        for (_, child) in engine.rules.legal_moves(pos) {
            found |= final_king_squares(engine, &child, plies - 1, loser);
        }
        found
    }

    /// The king squares a help-play node gives the positions after its moves
    /// ([`Engine::help_within`]) hold the king of every final position reached from them:
    /// each line from each child of a node is enumerated by plain play and its final
    /// king square looked for among the node's, and among those the child's own cuts keep
    /// when given the node's, on random positions and positions near helpmates and help
    /// stalemates (mate and stalemate, two to four plies at the node).
    #[test]
    fn the_king_squares_given_to_the_children_hold_every_final_position() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let tt = Tt::new(1);
        let problems = [
            "1b4b1/N5K1/8/4p3/r7/k3nq2/3p4/8 b - - 0 1",
            "8/8/1p6/1P6/kB6/p1p5/P1K5/8 b - - 0 1",
            "8/p6b/6pk/8/6K1/8/1p5P/1B6 b - - 0 1",
        ];
        let (mut finals, mut narrowed) = (0, 0);
        let mut g = Gen(0x2545_F491_4F6C_DD1D);
        let mut tested = 0;
        while tested < 400 {
            let pos = if tested % 2 == 0 {
                g.position()
            } else {
                near(&mut g, &rules, &problems)
            };
            let Some(pos) = pos else { continue };
            tested += 1;
            let goal = if tested % 3 == 0 {
                Goal::Stalemate
            } else {
                Goal::Mate
            };
            let engine = Engine::new(&rules, goal, &tt, &stop).with_help_cuts();
            let plies = 2 + (tested % 3) as u32;
            let (loser, _, _) = help_sides(&pos, plies);
            let (spare, tight) = (Cell::new(0), Cell::new(0));
            let given = engine
                .help_gate(&pos, plies, !0, (&spare, &tight))
                .map_or(0, |sharp| sharp());
            narrowed += usize::from(given != !0 && given != 0);
            for (m, child) in rules.legal_moves(&pos) {
                let at = final_king_squares(&engine, &child, plies - 1, loser);
                finals += at.count_ones() as usize;
                assert_eq!(at & !given, 0, "{} {m:?} {goal:?} {plies}", pos.to_fen());
                // The child's own cuts, given those squares, keep them too.
                let kept = engine
                    .help_gate(&child, plies - 1, given, (&spare, &tight))
                    .map_or(0, |sharp| sharp());
                assert_eq!(at & !kept, 0, "{} {m:?} {goal:?} {plies}", pos.to_fen());
            }
        }
        assert!(finals > 200 && narrowed > 100, "{finals} {narrowed}");
    }

    /// The stalemated side's last moves that `Reach::last_loser_moves` drops leave a
    /// position the cheap test rules out (no king square with one winner move and no loser
    /// move left): each is played and tested, on random positions and positions near help
    /// stalemates.
    #[test]
    fn the_last_loser_moves_dropped_are_ruled_out_after() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let tt = Tt::new(1);
        let engine = Engine::new(&rules, Goal::Stalemate, &tt, &stop).with_help_cuts();
        let reach = engine.reach.as_ref().expect("orthodox cuts");
        // Three help stalemates, and positions where the last move must block the king's
        // one free square (Bh2-g1, Rb2-b1).
        let problems = [
            "8/p6b/6pk/8/6K1/8/1p5P/1B6 b - - 0 1",
            "8/p7/B7/7p/P3K1pr/7b/1p2p2p/6k1 b - - 0 1",
            "8/8/1p6/1P6/kB6/p1p5/P1K5/8 b - - 0 1",
            "8/8/8/8/8/4N3/7b/K6k b - - 0 1",
            "8/8/4K3/8/8/3N4/1r6/k7 b - - 0 1",
        ];
        let (mut dropped, mut kept_open) = (0, 0);
        each_sample(0xD1B5_4A32_D192_ED03, &rules, &problems, |_, pos| {
            let Some(last) = reach.last_loser_moves(&pos, 1) else {
                return;
            };
            for (m, child) in rules.legal_moves(&pos) {
                let open = reach.king_squares(&child, pos.side, 1, 0, false) != 0;
                if last.keep(reach, &pos, m) {
                    kept_open += usize::from(open);
                } else {
                    assert!(!open, "{} {m:?}", pos.to_fen());
                    dropped += 1;
                }
            }
        });
        assert!(dropped > 5000 && kept_open > 500, "{dropped} {kept_open}");
    }

    /// Calls `f` with the cuts of orthodox help stalemates, the plain stalemate search
    /// (its `rules`: orthodox) and a context.
    fn with_stalemate_cuts(f: impl FnOnce(&Reach, &Engine, &mut Ctx)) {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let (tt, plain_tt) = (Tt::new(1), Tt::new(16));
        let engine = Engine::new(&rules, Goal::Stalemate, &tt, &stop).with_help_cuts();
        let plain = Engine::new(&rules, Goal::Stalemate, &plain_tt, &stop).exhaustive();
        f(
            engine.reach.as_ref().expect("orthodox cuts"),
            &plain,
            &mut Ctx::new(),
        );
    }

    /// The winner's moves that a stalemate's stuck pieces and hard pawns rule out (those
    /// landing on none of the `tight` squares of `Reach::all_can_be_immobile`) lead to no
    /// stalemate in time: the plain search finds none after each, on random positions and
    /// positions near help stalemates where the loser has pieces to wall in and pawns to
    /// stop, the winner to move with two or three moves, the loser with one fewer.
    #[test]
    fn the_winner_moves_off_the_tight_squares_lead_to_no_stalemate() {
        with_stalemate_cuts(|reach, plain, ctx| {
            let rules = plain.rules;
            let problems = [
                "8/8/6K1/8/5p2/8/1r1p4/1Q5k w - - 0 1",
                "8/B7/6K1/8/1P3p2/8/1p1p4/6bk w - - 0 1",
                "5n2/K7/8/8/8/8/3pr3/b6k w - - 0 1",
                "8/8/8/6K1/8/2n5/1q4b1/2R4k w - - 0 1",
                "8/8/2b5/8/8/5N2/1Kn1r3/6qk w - - 0 1",
                "8/8/8/5K2/1P3p2/8/1p1p3k/6b1 w - - 0 1",
                "8/8/6K1/p7/1P3p2/3p4/1p5p/7k w - - 0 1",
                // Positions a random search found where the squares are tight and a stalemate
                // follows (so the test sees kept moves that lead to one).
                "3NN1N1/8/4KnNp/3N4/5qk1/2N1n3/8/8 w - - 0 1",
                "8/8/8/8/8/2n5/p1K1Nn2/k3N3 w - - 0 1",
                "8/8/p7/3R4/k7/R1n5/8/K7 b - - 0 1",
                "8/8/8/n7/k3N3/2n5/6R1/KN6 b - - 0 1",
                "8/8/4N1K1/6n1/3q2N1/7k/5r2/8 w - - 0 1",
                "4Kq1k/8/4N3/8/8/6r1/5N2/8 w - - 0 1",
                "N4N2/8/1n6/8/4q2N/7K/7P/5NNk w - - 0 1",
                "8/8/8/2n5/k1K2r2/4N3/2N5/7q w - - 0 1",
                "6nK/8/5Q2/2p4n/3Q4/5k2/7n/3nn3 b - - 0 1",
                "8/3q4/8/8/8/3K4/n1r2N2/k4N2 w - - 0 1",
            ];
            let (mut dropped, mut kept_solved) = (0, 0);
            each_sample(0x5851_F42D_4C95_7F2D, rules, &problems, |_, pos| {
                let loser = pos.side.flip();
                for l in 1..=2 {
                    let tight = Cell::new(0);
                    let squares =
                        reach.king_squares_noting(&pos, loser, (l + 1, l), false, (!0, &tight));
                    let tight = tight.get();
                    if squares == 0 || tight == 0 {
                        continue;
                    }
                    for (m, child) in rules.legal_moves(&pos) {
                        let solved = plain.help(ctx, &child, 2 * l);
                        if keeps_tight(tight, m) {
                            kept_solved += usize::from(solved);
                        } else {
                            assert!(!solved, "{} {m:?} {l}", pos.to_fen());
                            dropped += 1;
                        }
                    }
                }
            });
            assert!(
                dropped > 3000 && kept_solved > 30,
                "{dropped} {kept_solved}"
            );
        });
    }

    /// A winner move that `Reach::units_relevant` leaves out (it starts and ends off the
    /// loser units' first squares, takes nothing and is no pawn's) leads to a position the free-units
    /// count rules out, and that has no stalemate in the moves left. (Where the count on
    /// the position fails, solutions are rare: the help-play comparisons with the plain
    /// search in `tests/help_cuts.rs` show the kept moves keep them.)
    #[test]
    fn the_winner_moves_the_free_units_ignore_lead_to_no_stalemate() {
        use crate::core::bb;
        with_stalemate_cuts(|reach, plain, ctx| {
            let rules = plain.rules;
            let problems = [
                "8/1p6/5b2/7k/8/7K/p1p1P3/NbB5 w - - 0 1",
                "8/8/6K1/8/5p2/8/1r1p4/1Q5k w - - 0 1",
                "8/B7/6K1/8/1P3p2/8/1p1p4/6bk w - - 0 1",
                "8/8/8/5K2/1P3p2/8/1p1p3k/6b1 w - - 0 1",
                "8/8/6K1/p7/1P3p2/3p4/1p5p/7k w - - 0 1",
                "8/3q4/8/8/8/3K4/n1r2N2/k4N2 w - - 0 1",
                "4k3/2p1p3/3p4/8/8/2B5/8/R3K3 w - - 0 1",
            ];
            let (mut dropped, mut kept) = (0, 0);
            each_sample(0x9E37_79B9_7F4A_7C15, rules, &problems, |_, pos| {
                let loser = pos.side.flip();
                let ksq = pos.king(loser);
                if ksq == crate::core::NO_SQUARE {
                    return;
                }
                for (l, within) in [(1, !0), (1, !bb(ksq)), (2, !0)] {
                    let Some(units) = reach.units_relevant(&pos, loser, (l + 1, l), within) else {
                        continue;
                    };
                    for (m, child) in rules.legal_moves(&pos) {
                        let solved = plain.help(ctx, &child, 2 * l);
                        if units.keep(&pos, m) {
                            kept += 1;
                            continue;
                        }
                        let tight = Cell::new(0);
                        let after = reach.king_squares_noting(
                            &child,
                            loser,
                            (l, l),
                            false,
                            (within, &tight),
                        );
                        assert_eq!(after, 0, "{} {m:?} {l}", pos.to_fen());
                        assert!(!solved, "{} {m:?} {l}", pos.to_fen());
                        dropped += 1;
                    }
                }
            });
            assert!(dropped > 3000 && kept > 1000, "{dropped} {kept}");
        });
    }

    /// The final-position cut and the stalemate landing filter never lose a solution:
    /// help and series play with them agree with the plain search on random positions.
    #[test]
    fn cuts_agree_with_the_plain_search() {
        let rules = Rules::new(crate::rules::Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let mut g = Gen(0x2545_F491_4F6C_DD1D);
        let (mut tested, mut found) = (0, 0);
        while tested < 300 {
            let Some(pos) = g.position() else { continue };
            tested += 1;
            for goal in [Goal::Mate, Goal::Stalemate] {
                let (tt1, tt2) = (Tt::new(1), Tt::new(1));
                let cut = Engine::new(&rules, goal, &tt1, &stop).with_help_cuts();
                let plain = Engine::new(&rules, goal, &tt2, &stop).exhaustive();
                let mut ctx = Ctx::new();
                // Plain goal in one: every legal move tried.
                let brute = rules.legal_moves(&pos).iter().any(|(_, c)| {
                    let check = rules.in_check(c);
                    !rules.has_legal_move(c) && (check == (goal == Goal::Mate))
                });
                assert_eq!(
                    cut.goal_in_one(&mut ctx, &pos).is_some(),
                    brute,
                    "{}",
                    pos.to_fen()
                );
                for plies in 1..=3 {
                    let a = cut.help(&mut ctx, &pos, plies);
                    let b = plain.help(&mut ctx, &pos, plies);
                    assert_eq!(a, b, "help {plies} {goal:?} {}", pos.to_fen());
                    found += usize::from(a);
                }
                for k in 1..=3 {
                    for end in [SeriesEnd::Help, SeriesEnd::Direct] {
                        let a = cut.series(&mut ctx, end, &pos, k);
                        let b = plain.series(&mut ctx, end, &pos, k);
                        assert_eq!(a, b, "series {k} {end:?} {goal:?} {}", pos.to_fen());
                        found += usize::from(a);
                    }
                }
            }
        }
        // The sample has solutions to compare, not only failures.
        assert!(found > 20, "{found}");
    }
}
