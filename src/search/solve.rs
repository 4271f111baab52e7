//! The parallel driver: solves one twin for its stipulation and collects the result.
//! Root moves are searched in parallel (rayon); results are gathered in generation order,
//! so the output is the same for every thread count.

use super::engine::{Battle, Ctx, Engine, SeriesEnd};
use super::input::{SearchInput, SearchOptions};
use super::result::{MoveInfo, Refutation, TreeNode, TryInfo, TwinResult};
use super::stipulation::{Play, Stipulation};
use super::tree;
use super::tt::Tt;
use crate::core::Color;
use crate::moves::Move;
use crate::output::notation::Style;
use crate::position::Position;
use crate::rules::Rules;
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How to solve (beyond the problem itself).
#[derive(Clone)]
pub struct Settings {
    pub options: SearchOptions,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    pub hash_mb: usize,
    /// Set to stop the search (time limit, Ctrl-C); results are then marked incomplete.
    pub stop: Arc<AtomicBool>,
    /// Called after each finished root move with (done, total).
    pub progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>>,
    /// The plain exhaustive search (`--exhaustive`, see `Engine::exhaustive`).
    pub exhaustive: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            options: SearchOptions::default(),
            threads: 0,
            hash_mb: 1024,
            stop: Arc::new(AtomicBool::new(false)),
            progress: None,
            exhaustive: false,
        }
    }
}

/// Longest battle play (direct, self, reflex) the engine's tables support (the readers
/// refuse longer ones).
pub use super::stipulation::MAX_BATTLE_MOVES;

/// The position with the side that starts the stipulation to move (the other side when
/// the colours' roles are exchanged).
pub fn start_position(input: &SearchInput) -> Position {
    let s = input.stipulation;
    let black_starts = match s.play {
        Play::Help => !s.half,
        Play::HelpSelf => s.half,
        Play::SeriesHelp => true,
        _ => false,
    };
    let mut pos = input.position;
    pos.side = if black_starts != input.exchanged {
        Color::Black
    } else {
        Color::White
    };
    // Keeps castling; keeps the en-passant square when the starting side can use it.
    pos.normalize();
    pos
}

/// Solves one twin under `rules` (whose condition the result names).
pub fn solve_twin(input: &SearchInput, rules: &Rules, settings: &Settings) -> TwinResult {
    let started = Instant::now();
    let pool = thread_pool(settings.threads);
    let rules = &rules.clone().with_stop(settings.stop.clone());
    let stip = input.stipulation;
    // The table starts small and grows up to `--hash` as the search fills it.
    let tt = Tt::acquire(settings.hash_mb);
    let mut engine = Engine::new(rules, stip.goal, &tt, &settings.stop);
    let pos = start_position(input);
    if !stip.play.is_battle() && stip.play != Play::HelpSelf {
        engine = engine.with_help_cuts_for(&pos);
    }
    if settings.exhaustive {
        engine = engine.exhaustive();
    }
    engine.threat_limit = settings.options.threat;
    let mut result = empty_result(input, rules);
    if rules.other_side_in_check(&pos) {
        result
            .notes
            .push("the side not to move is in check: illegal position".into());
        result.seconds = started.elapsed().as_secs_f64();
        return result;
    }
    if settings.options.move_numbers {
        result.move_numbers = move_number_lines(rules, &pos);
    }
    let mut search = || search_stipulation(&engine, &pos, stip, settings, &mut result);
    match pool {
        Some(pool) => pool.install(search),
        None => search(),
    }
    result.complete = !settings.stop.load(Ordering::Relaxed);
    result.nodes = engine.nodes.load(Ordering::Relaxed);
    result.seconds = started.elapsed().as_secs_f64();
    result.table_kb = (tt.bytes_in_use() / 1024) as u64;
    result
}

/// The pool to search in when the current one has the wrong size (`threads`, 0 = all
/// cores). `None`: search where the caller is, either because its pool is the right size
/// already (one pool for a whole run) or because the system refuses a new one.
fn thread_pool(threads: usize) -> Option<rayon::ThreadPool> {
    let threads = if threads == 0 {
        rayon::current_num_threads().max(1)
    } else {
        threads
    };
    if threads == rayon::current_num_threads() {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
}

/// The result of a twin before the search: what it is, nothing found yet.
fn empty_result(input: &SearchInput, rules: &Rules) -> TwinResult {
    let stip = input.stipulation;
    TwinResult {
        twin: input.label.clone(),
        fen: input.position.to_fen(),
        stipulation: stip.to_string(),
        condition: rules.condition.name().to_string(),
        keys: vec![],
        tries: vec![],
        lines: vec![],
        set_play: vec![],
        set_lines: vec![],
        tree: vec![],
        shorter: None,
        half_start: matches!(stip.play, Play::Help | Play::HelpSelf) && stip.half,
        exchanged: input.exchanged,
        series: matches!(
            stip.play,
            Play::Series | Play::SeriesHelp | Play::SeriesSelf
        ),
        series_reply: matches!(stip.play, Play::SeriesHelp | Play::SeriesSelf),
        complete: true,
        partial: false,
        nodes: 0,
        seconds: 0.0,
        table_kb: 0,
        notes: vec![],
        move_numbers: vec![],
    }
}

/// Popeye's MoveNumbers lines, in generation order (the same for every thread count): the
/// number and the first move, with "+" when it checks.
fn move_number_lines(rules: &Rules, pos: &Position) -> Vec<String> {
    let roots = rules.legal_moves(pos);
    let quiet = rules.without_stop();
    roots
        .iter()
        .enumerate()
        .map(|(i, (m, child))| {
            let check = if quiet.in_check(child) { " +" } else { "" };
            let body = crate::output::notation::move_body(&quiet, pos, *m, Style::Long);
            format!("{:3}  ({body}{check} )", i + 1)
        })
        .collect()
}

/// Runs the solver of the stipulation's kind of play.
fn search_stipulation(
    engine: &Engine,
    pos: &Position,
    stip: Stipulation,
    settings: &Settings,
    out: &mut TwinResult,
) {
    match stip.play {
        Play::Direct => solve_battle(engine, Battle::Direct, pos, stip, settings, out),
        Play::Self_ => solve_battle(engine, Battle::Self_, pos, stip, settings, out),
        Play::Reflex => solve_battle(engine, Battle::Reflex, pos, stip, settings, out),
        Play::Help => solve_help(engine, pos, stip, settings, out),
        Play::HelpSelf => solve_help_self(engine, pos, stip, settings, out),
        Play::Series | Play::SeriesHelp | Play::SeriesSelf => {
            solve_series(engine, pos, stip, settings, out)
        }
    }
}

fn report(settings: &Settings, done: &AtomicU64, total: usize) {
    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
    if let Some(p) = &settings.progress {
        p(d, total as u64);
    }
}

// ----- help play -----

fn solve_help(
    engine: &Engine,
    pos: &Position,
    stip: Stipulation,
    settings: &Settings,
    out: &mut TwinResult,
) {
    let plies = stip.help_plies();
    // Shorter solutions (same side to start) are printed first, as Popeye does.
    let mut p = plies % 2;
    if p == 0 {
        p = 2;
    }
    while p <= plies {
        out.lines.extend(help_lines(engine, pos, p, settings));
        p += 2;
    }
    if settings.options.set_play && plies >= 2 {
        // Set play: the side to move passes, the other side starts a play one ply shorter.
        if let Some(passed) = passed_position(engine, pos, out) {
            let mut p = if (plies - 1) % 2 == 0 { 2 } else { 1 };
            while p < plies {
                out.set_lines
                    .extend(help_lines(engine, &passed, p, settings));
                p += 2;
            }
        }
    }
    out.partial = limit(&mut out.lines, settings.options.max_solutions);
}

/// Help-self play: help plies up to the last move of the side that starts, then every
/// move of the other side reaches the goal; each line ends with one of those moves.
/// Shorter solutions first, and set play (the starting side passes), as in help play.
fn solve_help_self(
    engine: &Engine,
    pos: &Position,
    stip: Stipulation,
    settings: &Settings,
    out: &mut TwinResult,
) {
    // The help plies before the forced last move, and the shorter plays with the same
    // side to start (two plies apart, down to none: the forced move at once).
    let lengths = |plies: u32| (plies % 2..=plies).step_by(2);
    let plies = stip.help_plies() - 1;
    for p in lengths(plies) {
        out.lines.extend(help_self_lines(engine, pos, p, settings));
    }
    if settings.options.set_play && plies >= 1 {
        if let Some(passed) = passed_position(engine, pos, out) {
            for p in lengths(plies - 1) {
                out.set_lines
                    .extend(help_self_lines(engine, &passed, p, settings));
            }
        }
    }
    out.partial = limit(&mut out.lines, settings.options.max_solutions);
}

/// The help-self lines from `pos` with `plies` help plies before the forced last move.
fn help_self_lines(
    engine: &Engine,
    pos: &Position,
    plies: u32,
    settings: &Settings,
) -> Vec<Vec<MoveInfo>> {
    if plies == 0 {
        return final_moves(engine, SeriesEnd::Self_, pos, &mut Ctx::new());
    }
    lines_by_root(engine, pos, settings, |ctx, child| {
        let mut lines = vec![];
        if engine.help_self(ctx, child, plies - 1) {
            help_self_enum(engine, ctx, child, plies - 1, &mut vec![], &mut lines);
        }
        lines
    })
}

/// The lines from `pos`: each first move is a task of its own ([`by_root`]), `rest` gives
/// the lines after it (from the position it leads to), and each comes back behind its
/// move, in generation order.
fn lines_by_root(
    engine: &Engine,
    pos: &Position,
    settings: &Settings,
    rest: impl Fn(&mut Ctx, &Position) -> Vec<Vec<MoveInfo>> + Sync,
) -> Vec<Vec<MoveInfo>> {
    let roots = engine.rules.legal_moves(pos);
    let per_root = by_root(engine, &roots, settings, |ctx, m, child| {
        let lines = rest(ctx, child);
        prepend(
            MoveInfo::new(engine.rules, engine.goal, pos, m, child),
            lines,
        )
    });
    per_root.into_iter().flatten().collect()
}

fn help_self_enum(
    engine: &Engine,
    ctx: &mut Ctx,
    pos: &Position,
    plies: u32,
    prefix: &mut Vec<MoveInfo>,
    out: &mut Vec<Vec<MoveInfo>>,
) {
    if plies == 0 {
        for fin in final_moves(engine, SeriesEnd::Self_, pos, ctx) {
            out.push(prefix.iter().cloned().chain(fin).collect());
        }
        return;
    }
    for (m, child) in engine.rules.legal_moves(pos) {
        if engine.stopped() {
            return;
        }
        if engine.help_self(ctx, &child, plies - 1) {
            prefix.push(MoveInfo::new(engine.rules, engine.goal, pos, m, &child));
            help_self_enum(engine, ctx, &child, plies - 1, prefix, out);
            prefix.pop();
        }
    }
}

/// The position after the side to move passes (set play), or `None` with a note when that
/// side is in check: passing would leave its king attacked, so there is no set play (as in
/// Popeye, which says set play is not applicable).
fn passed_position(engine: &Engine, pos: &Position, out: &mut TwinResult) -> Option<Position> {
    let passed = pos.null_move();
    if engine.rules.other_side_in_check(&passed) {
        out.notes.push(format!(
            "set play not applicable: {} is in check and cannot pass",
            pos.side
        ));
        return None;
    }
    Some(passed)
}

/// Keeps at most `max` solutions; true when the limit was reached (Popeye stops at the
/// Nth solution and then prints "Partial solution", whether or not more exist).
fn limit<T>(v: &mut Vec<T>, max: Option<u32>) -> bool {
    match max {
        Some(m) if v.len() >= m as usize => {
            v.truncate(m as usize);
            true
        }
        _ => false,
    }
}

/// Runs `f` on every root move in parallel, each with its own scratch context; the
/// results come back in generation order, whatever the thread timing.
fn by_root<R: Send + Default>(
    engine: &Engine,
    roots: &[(Move, Position)],
    settings: &Settings,
    f: impl Fn(&mut Ctx, Move, &Position) -> R + Sync,
) -> Vec<R> {
    let done = AtomicU64::new(0);
    roots
        .par_iter()
        .map(|(m, child)| {
            if engine.stopped() {
                // Not searched: the default says nothing was found (callers that need to
                // tell "not searched" from "refuted" look at the stop flag themselves).
                return R::default();
            }
            let mut ctx = Ctx::new();
            let r = f(&mut ctx, *m, child);
            engine.flush(&mut ctx);
            report(settings, &done, roots.len());
            r
        })
        .collect()
}

/// Levels below the root at which every move is a task of its own, so that the threads
/// share the work of a root move too (help and series play).
const SPLIT_LEVELS: u32 = 2;

/// Every help play of exactly `plies` half-moves, root moves in parallel and the first
/// [`SPLIT_LEVELS`] levels below them split into tasks.
pub fn help_lines(
    engine: &Engine,
    pos: &Position,
    plies: u32,
    settings: &Settings,
) -> Vec<Vec<MoveInfo>> {
    lines_by_root(engine, pos, settings, |ctx, child| {
        help_split(engine, ctx, child, plies - 1, SPLIT_LEVELS)
    })
}

/// Puts `first` in front of every line (none when there are no lines).
fn prepend(first: MoveInfo, lines: Vec<Vec<MoveInfo>>) -> Vec<Vec<MoveInfo>> {
    lines
        .into_iter()
        .map(|line| std::iter::once(first.clone()).chain(line).collect())
        .collect()
}

/// Runs `f` on each move of `pos` as a task of its own (rayon), each with its own scratch
/// context; the lines come back in generation order, each behind its move.
fn split_moves(
    engine: &Engine,
    pos: &Position,
    f: impl Fn(&mut Ctx, &Position) -> Vec<Vec<MoveInfo>> + Sync,
) -> Vec<Vec<MoveInfo>> {
    let moves = engine.rules.legal_moves(pos);
    let per_move: Vec<Vec<Vec<MoveInfo>>> = moves
        .par_iter()
        .map(|(m, child)| {
            if engine.stopped() {
                return vec![];
            }
            let mut ctx = Ctx::new();
            let lines = f(&mut ctx, child);
            engine.flush(&mut ctx);
            if lines.is_empty() {
                return lines;
            }
            prepend(
                MoveInfo::new(engine.rules, engine.goal, pos, *m, child),
                lines,
            )
        })
        .collect();
    per_move.into_iter().flatten().collect()
}

/// The help lines from `pos` with `plies` left. At the first `split` levels (where at
/// least three plies are left and the table and cuts leave the node open) each move is
/// its own task; below, one task proves and enumerates the lines. The lines and their
/// order are those of the plain depth-first enumeration, whatever the thread count.
fn help_split(
    engine: &Engine,
    ctx: &mut Ctx,
    pos: &Position,
    plies: u32,
    split: u32,
) -> Vec<Vec<MoveInfo>> {
    let mut lines = vec![];
    if split == 0 || plies < 3 {
        if engine.help(ctx, pos, plies) {
            help_enum(engine, ctx, pos, plies, &mut vec![], &mut lines);
        }
    } else if engine.help_open(pos, plies) {
        lines = split_moves(engine, pos, |ctx, child| {
            help_split(engine, ctx, child, plies - 1, split - 1)
        });
        engine.remember_help(pos, plies, !lines.is_empty());
    }
    lines
}

fn help_enum(
    engine: &Engine,
    ctx: &mut Ctx,
    pos: &Position,
    plies: u32,
    prefix: &mut Vec<MoveInfo>,
    out: &mut Vec<Vec<MoveInfo>>,
) {
    if plies == 0 {
        if engine.goal_reached(pos) {
            out.push(prefix.clone());
        }
        return;
    }
    for (m, child) in engine.rules.legal_moves(pos) {
        if engine.help(ctx, &child, plies - 1) {
            prefix.push(MoveInfo::new(engine.rules, engine.goal, pos, m, &child));
            help_enum(engine, ctx, &child, plies - 1, prefix, out);
            prefix.pop();
        }
    }
}

// ----- series play -----

fn series_end(play: Play) -> SeriesEnd {
    match play {
        Play::SeriesHelp => SeriesEnd::Help,
        Play::SeriesSelf => SeriesEnd::Self_,
        _ => SeriesEnd::Direct,
    }
}

fn solve_series(
    engine: &Engine,
    pos: &Position,
    stip: Stipulation,
    settings: &Settings,
    out: &mut TwinResult,
) {
    let end = series_end(stip.play);
    for k in 1..=stip.moves {
        let mut lines = series_lines(engine, end, pos, k, settings);
        for line in &mut lines {
            if let Some((_, before)) = line.split_last_mut() {
                before.iter_mut().for_each(MoveInfo::unmark_stalemate);
            }
        }
        out.lines.extend(lines);
    }
    if settings.options.set_play {
        // Set play: the series side passes once more than it may (the other side starts).
        if let Some(passed) = passed_position(engine, pos, out) {
            out.set_lines = match end {
                SeriesEnd::Direct => vec![],
                _ => final_moves(engine, end, &passed, &mut Ctx::new()),
            };
        }
    }
    out.partial = limit(&mut out.lines, settings.options.max_solutions);
}

fn series_lines(
    engine: &Engine,
    end: SeriesEnd,
    pos: &Position,
    k: u32,
    settings: &Settings,
) -> Vec<Vec<MoveInfo>> {
    lines_by_root(engine, pos, settings, |ctx, child| {
        series_split(engine, ctx, end, child, k, SPLIT_LEVELS)
    })
}

/// The rest of the series lines after a series move (`child`, `k` moves left before it),
/// split into tasks at the first `split` levels as in [`help_split`].
fn series_split(
    engine: &Engine,
    ctx: &mut Ctx,
    end: SeriesEnd,
    child: &Position,
    k: u32,
    split: u32,
) -> Vec<Vec<MoveInfo>> {
    let mut lines = vec![];
    if split == 0 || k < 3 {
        if engine.series_step(ctx, end, child, k) {
            series_after(engine, ctx, end, child, k, &mut vec![], &mut lines);
        }
    } else if let Some(passed) = engine.series_goes_on(ctx, end, child) {
        if engine.series_open(end, &passed, k - 1) {
            lines = split_moves(engine, &passed, |ctx, c| {
                series_split(engine, ctx, end, c, k - 1, split - 1)
            });
            engine.remember_series(end, &passed, k - 1, !lines.is_empty());
        }
    }
    lines
}

/// After a proven series move with `k` moves left before it: finish or continue.
fn series_after(
    engine: &Engine,
    ctx: &mut Ctx,
    end: SeriesEnd,
    child: &Position,
    k: u32,
    prefix: &mut Vec<MoveInfo>,
    out: &mut Vec<Vec<MoveInfo>>,
) {
    if k == 1 {
        match end {
            SeriesEnd::Direct => out.push(prefix.clone()),
            _ => {
                for fin in final_moves(engine, end, child, ctx) {
                    let mut line = prefix.clone();
                    line.extend(fin);
                    out.push(line);
                }
            }
        }
        return;
    }
    let passed = child.null_move();
    for (m, c) in engine.rules.legal_moves(&passed) {
        if engine.stopped() {
            return;
        }
        if engine.series_step(ctx, end, &c, k - 1) {
            prefix.push(MoveInfo::new(engine.rules, engine.goal, &passed, m, &c));
            series_after(engine, ctx, end, &c, k - 1, prefix, out);
            prefix.pop();
        }
    }
}

/// The other side's final moves after a series (help: those reaching the goal; self: all,
/// when all reach it).
fn final_moves(
    engine: &Engine,
    end: SeriesEnd,
    pos: &Position,
    ctx: &mut Ctx,
) -> Vec<Vec<MoveInfo>> {
    let moves = engine.rules.legal_moves(pos);
    ctx.nodes += moves.len() as u64;
    let hits: Vec<&(Move, Position)> = moves
        .iter()
        .filter(|(_, c)| engine.goal_reached(c))
        .collect();
    let ok = match end {
        SeriesEnd::Self_ => !moves.is_empty() && hits.len() == moves.len(),
        _ => true,
    };
    if !ok {
        return vec![];
    }
    hits.into_iter()
        .map(|(m, c)| vec![MoveInfo::new(engine.rules, engine.goal, pos, *m, c)])
        .collect()
}

// ----- battle play -----

/// What the parallel pass found for one first move in battle play.
#[derive(Default)]
struct RootVerdict {
    /// The defender's refutations: empty for a key; capped at defence+1 when tries are
    /// wanted (at 1 otherwise); `None` when the move fails without a defence to name.
    refutations: Option<Vec<Move>>,
    /// For a key, its own (shortest) length; else the stipulation's.
    len: u32,
    /// Searched to the end (not cut short by the stop flag).
    decided: bool,
}

/// One battle-play twin being solved: the engine, the kind of play, the diagram (attacker
/// to move), the number of attacker moves and the options.
struct BattleSolve<'a> {
    engine: &'a Engine<'a>,
    battle: Battle,
    pos: &'a Position,
    n: u32,
    opts: &'a SearchOptions,
}

/// Battle play (direct, self, reflex): the keys and tries with their trees, set play, and
/// the shortest key length when it is shorter than the stipulation's.
fn solve_battle(
    engine: &Engine,
    battle: Battle,
    pos: &Position,
    stip: Stipulation,
    settings: &Settings,
    out: &mut TwinResult,
) {
    let b = BattleSolve {
        engine,
        battle,
        pos,
        n: stip.moves.min(MAX_BATTLE_MOVES),
        opts: &settings.options,
    };
    if battle == Battle::Reflex && engine.goal_in_one(&mut Ctx::new(), pos).is_some() {
        b.reflex_forced_tries(out);
    } else {
        b.keys_and_tries(&engine.rules.legal_moves(pos), settings, out);
    }
}

/// `MaxSolutions N` and N keys found already.
fn max_keys_found(opts: &SearchOptions, out: &TwinResult) -> bool {
    opts.max_solutions
        .is_some_and(|max| out.keys.len() >= max as usize)
}

impl BattleSolve<'_> {
    /// The keys and tries among the first moves `roots`, with their trees, set play and
    /// the shortest key length.
    fn keys_and_tries(
        &self,
        roots: &[(Move, Position)],
        settings: &Settings,
        out: &mut TwinResult,
    ) {
        let (engine, battle, pos, n) = (self.engine, self.battle, self.pos, self.n);
        let verdicts = self.analyse_roots(roots, settings);
        let mut ctx = Ctx::new();
        let mut shortest = n;
        for ((m, child), v) in roots.iter().zip(verdicts) {
            // MaxSolutions: Popeye stops solving at the Nth key and calls the solution
            // partial.
            if max_keys_found(self.opts, out) {
                out.partial = true;
                break;
            }
            // A move that fails without a defence to name is neither key nor try.
            let (true, Some(refs)) = (v.decided, v.refutations) else {
                continue;
            };
            if refs.is_empty() {
                // Each key is shown at its own (shortest) length.
                shortest = shortest.min(v.len);
                self.push_key(&mut ctx, *m, child, v.len, out);
            } else if self.opts.tries && refs.len() <= self.opts.defence as usize {
                self.push_try(&mut ctx, *m, child, &refs, out);
            }
        }
        if max_keys_found(self.opts, out) {
            out.partial = true;
        }
        if self.opts.set_play && passed_position(engine, pos, out).is_some() {
            out.set_play = tree::set_play(engine, &mut ctx, battle, pos, n, self.opts);
        }
        if battle == Battle::Direct && !out.keys.is_empty() && shortest < n {
            out.shorter = Some(shortest);
        }
        engine.flush(&mut ctx);
    }

    /// Reflex play where White must reach the goal at once: every such move is printed as
    /// a failed try.
    fn reflex_forced_tries(&self, out: &mut TwinResult) {
        for mv in self.goal_moves(self.pos) {
            let mut node = TreeNode::bare(mv, 0);
            node.mark = "?!?".into();
            out.tree.push(node);
        }
    }

    /// The moves from `pos` that reach the goal at once, in generation order.
    fn goal_moves(&self, pos: &Position) -> Vec<MoveInfo> {
        let e = self.engine;
        e.rules
            .legal_moves(pos)
            .iter()
            .filter(|(_, c)| e.goal_reached(c))
            .map(|(m, c)| MoveInfo::new(e.rules, e.goal, pos, *m, c))
            .collect()
    }

    /// Every first move's refutations and, for a key, its length; root moves in parallel.
    fn analyse_roots(&self, roots: &[(Move, Position)], settings: &Settings) -> Vec<RootVerdict> {
        let (engine, battle, n) = (self.engine, self.battle, self.n);
        let cap = if self.opts.tries {
            self.opts.defence as usize + 1
        } else {
            1
        };
        by_root(engine, roots, settings, |ctx, _, child| {
            let refutations = tree::refutations(engine, ctx, battle, child, n, cap);
            let len = if refutations.as_ref().is_some_and(|r| r.is_empty()) {
                (1..=n)
                    .find(|&k| engine.def(ctx, battle, child, k))
                    .unwrap_or(n)
            } else {
                n
            };
            RootVerdict {
                refutations,
                len,
                decided: !engine.stopped(),
            }
        })
    }

    /// Records key `m` (leading to `child`, succeeding in `len` moves) with its tree.
    fn push_key(&self, ctx: &mut Ctx, m: Move, child: &Position, len: u32, out: &mut TwinResult) {
        let (e, b, pos) = (self.engine, self.battle, self.pos);
        out.keys.push(MoveInfo::new(e.rules, e.goal, pos, m, child));
        let node = tree::key_node(e, ctx, b, pos, m, child, len, self.opts, "key");
        out.tree.push(node);
    }

    /// Records try `m` (leading to `child`) with its tree and the defences that refute it.
    fn push_try(
        &self,
        ctx: &mut Ctx,
        m: Move,
        child: &Position,
        refs: &[Move],
        out: &mut TwinResult,
    ) {
        let e = self.engine;
        let (b, pos, n) = (self.battle, self.pos, self.n);
        let refutations: Vec<Refutation> = refs
            .iter()
            .map(|r| {
                let c = e.rules.play(child, *r).unwrap_or_else(|| child.make(*r));
                let forced = if b == Battle::Reflex && n >= 2 {
                    self.goal_moves(&c)
                } else {
                    vec![]
                };
                Refutation {
                    mv: MoveInfo::new(e.rules, e.goal, child, *r, &c),
                    forced,
                }
            })
            .collect();
        let mut node = tree::key_node(e, ctx, b, pos, m, child, n, self.opts, "try");
        out.tries.push(TryInfo {
            mv: MoveInfo::new(e.rules, e.goal, pos, m, child),
            refutations: refutations.iter().map(|r| r.mv.clone()).collect(),
        });
        node.refutations = refutations;
        out.tree.push(node);
    }
}

/// The defender's refutations of a first move (battle play) that leads to `child`, as move
/// texts; empty when the move fails without a defence to name or does not fail.
pub fn refutations_of(
    stipulation: Stipulation,
    rules: &Rules,
    child: &Position,
    stop: &Arc<AtomicBool>,
) -> Vec<String> {
    let battle = match stipulation.play {
        Play::Self_ => Battle::Self_,
        Play::Reflex => Battle::Reflex,
        _ => Battle::Direct,
    };
    let tt = Tt::acquire(64);
    let rules = &rules.clone().with_stop(stop.clone());
    let engine = Engine::new(rules, stipulation.goal, &tt, stop);
    let mut ctx = Ctx::new();
    let n = stipulation.moves.min(MAX_BATTLE_MOVES);
    let refs = tree::refutations(&engine, &mut ctx, battle, child, n, usize::MAX);
    if engine.stopped() {
        return vec![];
    }
    refs.unwrap_or_default()
        .into_iter()
        .map(|d| {
            let grand = rules.play(child, d).unwrap_or_else(|| child.make(d));
            MoveInfo::new(rules, stipulation.goal, child, d, &grand).text
        })
        .collect()
}
