//! Solution trees for battle play (direct, self, reflex), as problemists print them:
//! the key, its threat (the attacker's shortest continuation if the defender could pass)
//! or `zugzwang`, the defences that stop every threat move, and after each of them every
//! shortest continuation of the attacker, recursively.

use super::engine::{Battle, Ctx, Engine};
use super::result::{MoveInfo, TreeNode};
use crate::moves::Move;
use crate::position::Position;
use crate::problem::Options;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Defender's moves in `child` (defender to move, attacker has `n` moves including the one
/// just made) that refute the attacker's plan; `None` when the plan fails without a defence
/// to name (no legal defence, or Popeye's `Threat n`). The defences are examined in parallel;
/// once `cap` refutations are known the rest are skipped, so the list is complete (and the
/// same for every thread count) whenever it is shorter than `cap`.
pub fn refutations(
    engine: &Engine,
    ctx: &mut Ctx,
    b: Battle,
    child: &Position,
    n: u32,
    cap: usize,
) -> Option<Vec<Move>> {
    if !engine.rules.has_legal_move(child) {
        return engine.def(ctx, b, child, n).then(Vec::new);
    }
    if engine.threat_restricted(ctx, b, child, n) {
        return None;
    }
    if b == Battle::Reflex && engine.goal_in_one(ctx, child).is_some() {
        return Some(vec![]);
    }
    let defences = engine.rules.legal_moves(child);
    let found = AtomicUsize::new(0);
    let results: Vec<Option<Move>> = defences
        .par_iter()
        .map(|(d, grand)| {
            if found.load(Ordering::Relaxed) >= cap {
                return None;
            }
            let mut local = Ctx::new();
            let fails = defence_fails(engine, &mut local, b, grand, n);
            engine.flush(&mut local);
            if fails {
                None
            } else {
                found.fetch_add(1, Ordering::Relaxed);
                Some(*d)
            }
        })
        .collect();
    Some(results.into_iter().flatten().collect())
}

/// After defence `d` (attacker to move in `grand`): does the attacker still succeed?
fn defence_fails(engine: &Engine, ctx: &mut Ctx, b: Battle, grand: &Position, n: u32) -> bool {
    match b {
        Battle::Direct => n > 1 && engine.att(ctx, b, grand, n - 1),
        Battle::Self_ | Battle::Reflex => {
            engine.goal_reached(grand) || (n > 1 && engine.att(ctx, b, grand, n - 1))
        }
    }
}

/// A node without continuations.
pub fn leaf(engine: &Engine, pos: &Position, m: Move, child: &Position, ply: u32) -> TreeNode {
    TreeNode {
        ply,
        mv: MoveInfo::new(engine.rules, pos, m, child),
        mark: String::new(),
        threats: vec![],
        zugzwang: false,
        children: vec![],
        refutations: vec![],
    }
}

/// Same move for threat comparison: squares and promotion (capture or not does not matter).
fn same_move(a: Move, b: Move) -> bool {
    a.from == b.from && a.to == b.to && a.promo == b.promo
}

/// Shortest k in 1..=n with which the attacker (to move in `pos`) succeeds.
fn shortest_win(engine: &Engine, ctx: &mut Ctx, b: Battle, pos: &Position, n: u32) -> Option<u32> {
    (1..=n).find(|&k| engine.att(ctx, b, pos, k))
}

/// The node of a first move (key or try) with its threats and variations.
#[allow(clippy::too_many_arguments)]
pub fn key_node(
    engine: &Engine,
    ctx: &mut Ctx,
    b: Battle,
    pos: &Position,
    m: Move,
    child: &Position,
    n: u32,
    opts: &Options,
    mark: &str,
) -> TreeNode {
    let mut node = attacker_node(engine, ctx, b, pos, m, child, n, 0, opts, opts.variations);
    node.mark = mark.to_string();
    node
}

/// An attacker move at `ply` leading to `child`, with `n` attacker moves including it.
#[allow(clippy::too_many_arguments)]
fn attacker_node(
    engine: &Engine,
    ctx: &mut Ctx,
    b: Battle,
    pos: &Position,
    m: Move,
    child: &Position,
    n: u32,
    ply: u32,
    opts: &Options,
    expand: bool,
) -> TreeNode {
    let mut node = leaf(engine, pos, m, child, ply);
    if !engine.rules.has_legal_move(child) {
        return node;
    }
    // Threats: what the attacker would do next if the defender could pass.
    let mut threat_moves: Vec<Move> = vec![];
    let mut threat_len = 0;
    if n >= 2 && !engine.rules.in_check(child) && !opts.no_threat {
        let passed = child.null_move();
        if let Some(t) = shortest_win(engine, ctx, b, &passed, n - 1) {
            threat_len = t;
            for (tm, tc) in engine.rules.legal_moves(&passed) {
                if attacker_move_wins(engine, ctx, b, &tc, t) {
                    threat_moves.push(tm);
                    if expand {
                        node.threats.push(attacker_node(
                            engine,
                            ctx,
                            b,
                            &passed,
                            tm,
                            &tc,
                            t,
                            ply + 2,
                            opts,
                            true,
                        ));
                    }
                }
            }
        } else {
            node.zugzwang = true;
        }
    }
    if !expand {
        // Without variations only the first move line (and its threat marker) is printed.
        node.threats.clear();
        node.zugzwang = false;
        return node;
    }
    let reflex_forced = b == Battle::Reflex && engine.goal_in_one(ctx, child).is_some();
    for (d, grand) in engine.rules.legal_moves(child) {
        if reflex_forced {
            if engine.goal_reached(&grand) {
                node.children.push(leaf(engine, child, d, &grand, ply + 1));
            }
            continue;
        }
        let mut dnode = leaf(engine, child, d, &grand, ply + 1);
        if b != Battle::Direct && engine.goal_reached(&grand) {
            // The defender reaches the goal: shown after the attacker's last move; earlier it
            // is a trivial defence (Popeye's default hides it).
            if n == 1 {
                node.children.push(dnode);
            }
            continue;
        }
        if b == Battle::Reflex && (n == 1 || engine.goal_in_one(ctx, &grand).is_some()) {
            // Reflex: where the defender can reach the goal it must; only those moves count.
            continue;
        }
        if n < 2 {
            continue;
        }
        let Some(s) = shortest_win(engine, ctx, b, &grand, n - 1) else {
            continue; // a refutation (tries): printed under "but"
        };
        if !threat_moves.is_empty() {
            // Defences answered faster than the threat, or that stop no threat move, are not
            // shown.
            if s < threat_len {
                continue;
            }
            let threat_still_works = s == threat_len
                && threat_moves.iter().all(|&tm| {
                    legal_child_like(engine, &grand, tm)
                        .is_some_and(|tc| attacker_move_wins(engine, ctx, b, &tc, threat_len))
                });
            if threat_still_works {
                continue;
            }
        }
        if opts.short_variations_off && s < n - 1 {
            continue;
        }
        dnode.children = continuations(engine, ctx, b, &grand, s, ply + 2, opts);
        node.children.push(dnode);
    }
    node
}

/// Every attacker move in `pos` that succeeds within `s` moves, each with its subtree.
fn continuations(
    engine: &Engine,
    ctx: &mut Ctx,
    b: Battle,
    pos: &Position,
    s: u32,
    ply: u32,
    opts: &Options,
) -> Vec<TreeNode> {
    let mut out = vec![];
    for (am, ac) in engine.rules.legal_moves(pos) {
        if attacker_move_wins(engine, ctx, b, &ac, s) {
            out.push(attacker_node(
                engine, ctx, b, pos, am, &ac, s, ply, opts, true,
            ));
        }
    }
    out
}

/// After an attacker move (defender to move in `child`), does the plan succeed within `k`
/// attacker moves (including that move)?
fn attacker_move_wins(engine: &Engine, ctx: &mut Ctx, b: Battle, child: &Position, k: u32) -> bool {
    engine.def(ctx, b, child, k)
}

/// The legal move with the same squares and promotion as `m`, played.
fn legal_child_like(engine: &Engine, pos: &Position, m: Move) -> Option<Position> {
    let mut out = None;
    let _ = engine.rules.for_each_legal(pos, |x, c| {
        if same_move(x, m) {
            out = Some(*c);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

/// Set play: the defender moves first in the diagram; each defence with the attacker's
/// shortest continuations (as in a variation).
pub fn set_play(
    engine: &Engine,
    ctx: &mut Ctx,
    b: Battle,
    pos: &Position,
    n: u32,
    opts: &Options,
) -> Vec<TreeNode> {
    let passed = pos.null_move();
    let mut out = vec![];
    let reflex_forced = b == Battle::Reflex && engine.goal_in_one(ctx, &passed).is_some();
    for (d, grand) in engine.rules.legal_moves(&passed) {
        if reflex_forced {
            if engine.goal_reached(&grand) {
                out.push(leaf(engine, &passed, d, &grand, 1));
            }
            continue;
        }
        let mut dnode = leaf(engine, &passed, d, &grand, 1);
        if b != Battle::Direct && engine.goal_reached(&grand) {
            // Short set play (the defender reaches the goal at once) is shown when threats
            // are off or the stipulation has one move.
            if n == 1 || opts.no_threat {
                out.push(dnode);
            }
            continue;
        }
        if b == Battle::Reflex && engine.goal_in_one(ctx, &grand).is_some() {
            continue;
        }
        if n < 2 {
            continue;
        }
        let Some(s) = shortest_win(engine, ctx, b, &grand, n - 1) else {
            continue;
        };
        dnode.children = continuations(engine, ctx, b, &grand, s, 2, opts);
        out.push(dnode);
    }
    out
}
