//! Solution trees for battle play (direct, self, reflex), as problemists print them:
//! the key, its threat (the attacker's shortest continuation if the defender could pass)
//! or `zugzwang`, the defences that stop every threat move, and after each of them every
//! shortest continuation of the attacker, recursively.

use super::engine::{Battle, Ctx, Engine};
use super::input::SearchOptions;
use super::result::{MoveInfo, TreeNode};
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Defender's moves in `child` (defender to move, attacker has `n` moves including the one
/// just made) that refute the attacker's plan; `None` when the plan fails without a defence
/// to name (no legal defence, or Popeye's `Threat n`). The defences are examined in
/// parallel, where the search orders them ([`Engine::orders_defences`]) those that leave
/// the attacker the fewest replies first; once `cap` refutations are known the rest are
/// skipped, so the list is complete (and the same for every thread count) whenever it is
/// shorter than `cap`. It is given in the order the defences are generated in.
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
    let mut defences: Vec<(usize, Move, Position)> = engine
        .rules
        .legal_moves(child)
        .into_iter()
        .enumerate()
        .map(|(i, (d, grand))| (i, d, grand))
        .collect();
    if engine.orders_defences(n) {
        // Popeye's order, as at the defender's nodes of the search (`Engine::all_
        // defences`): the defences that leave the attacker the fewest replies first; they
        // tend to refute, and the first refutation ends a first move that is no key.
        defences.sort_by_cached_key(|(_, _, grand)| engine.rules.count_legal(grand));
    }
    let found = AtomicUsize::new(0);
    let results: Vec<Option<(usize, Move)>> = defences
        .par_iter()
        .map_init(Ctx::new, |local, (i, d, grand)| {
            if found.load(Ordering::Relaxed) >= cap {
                return None;
            }
            let fails = defence_fails(engine, local, b, grand, n);
            engine.flush(local);
            if fails {
                None
            } else {
                found.fetch_add(1, Ordering::Relaxed);
                Some((*i, *d))
            }
        })
        .collect();
    // In the order the defences were generated in, whatever order they were searched in.
    let mut refuting: Vec<(usize, Move)> = results.into_iter().flatten().collect();
    refuting.sort_by_key(|r| r.0);
    Some(refuting.into_iter().map(|r| r.1).collect())
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
    TreeNode::bare(MoveInfo::new(engine.rules, engine.goal, pos, m, child), ply)
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
    opts: &SearchOptions,
    mark: &str,
) -> TreeNode {
    let builder = Builder { engine, b, opts };
    let mut node = builder.attacker_node(ctx, pos, m, child, n, 0, opts.variations);
    node.mark = mark.to_string();
    node
}

/// Builds the trees of one battle play: the engine, the kind of play and the options.
struct Builder<'a> {
    engine: &'a Engine<'a>,
    b: Battle,
    opts: &'a SearchOptions,
}

/// The attacker's threats after one of its moves: the threat moves and their length.
#[derive(Default)]
struct Threat {
    moves: Vec<Move>,
    len: u32,
}

impl Builder<'_> {
    /// An attacker move at `ply` leading to `child`, with `n` attacker moves including it;
    /// with `expand`, its threats and variations.
    #[allow(clippy::too_many_arguments)]
    fn attacker_node(
        &self,
        ctx: &mut Ctx,
        pos: &Position,
        m: Move,
        child: &Position,
        n: u32,
        ply: u32,
        expand: bool,
    ) -> TreeNode {
        let mut node = leaf(self.engine, pos, m, child, ply);
        if !self.engine.rules.has_legal_move(child) {
            return node;
        }
        let threat = self.threats(ctx, child, n, ply, expand, &mut node);
        if !expand {
            // Without variations only the first move line (and its threat marker) is printed.
            node.threats.clear();
            node.zugzwang = false;
            return node;
        }
        node.children = self.variations(ctx, child, n, ply, &threat);
        node
    }

    /// What the attacker would do next after its move to `child` if the defender could
    /// pass (when `n` >= 2, the defender is not in check and threats are wanted). With
    /// `expand`, each threat move becomes a subtree in `node.threats`; `node.zugzwang`
    /// when there is no threat.
    fn threats(
        &self,
        ctx: &mut Ctx,
        child: &Position,
        n: u32,
        ply: u32,
        expand: bool,
        node: &mut TreeNode,
    ) -> Threat {
        let mut threat = Threat::default();
        if n < 2 || self.engine.rules.in_check(child) || self.opts.no_threat {
            return threat;
        }
        let passed = child.null_move();
        let Some(t) = shortest_win(self.engine, ctx, self.b, &passed, n - 1) else {
            node.zugzwang = true;
            return threat;
        };
        threat.len = t;
        for (tm, tc) in self.engine.rules.legal_moves(&passed) {
            if attacker_move_wins(self.engine, ctx, self.b, &tc, t) {
                threat.moves.push(tm);
                if expand {
                    let sub = self.attacker_node(ctx, &passed, tm, &tc, t, ply + 2, true);
                    node.threats.push(sub);
                }
            }
        }
        threat
    }

    /// The defences to the attacker's move to `child` that are shown, each with the
    /// attacker's shortest continuations.
    fn variations(
        &self,
        ctx: &mut Ctx,
        child: &Position,
        n: u32,
        ply: u32,
        threat: &Threat,
    ) -> Vec<TreeNode> {
        let e = self.engine;
        let reflex_forced = self.b == Battle::Reflex && e.goal_in_one(ctx, child).is_some();
        let mut out = vec![];
        for (d, grand) in e.rules.legal_moves(child) {
            if reflex_forced {
                if e.goal_reached(&grand) {
                    out.push(leaf(e, child, d, &grand, ply + 1));
                }
                continue;
            }
            out.extend(self.variation(ctx, child, (d, &grand), n, ply, threat));
        }
        out
    }

    /// Defence `d` (leading to `grand`) to the attacker's move to `child`, with its
    /// continuations; `None` when it is not shown (a refutation, a trivial or a short
    /// defence, one that does not stop the threat).
    fn variation(
        &self,
        ctx: &mut Ctx,
        child: &Position,
        (d, grand): (Move, &Position),
        n: u32,
        ply: u32,
        threat: &Threat,
    ) -> Option<TreeNode> {
        let (e, b) = (self.engine, self.b);
        let mut dnode = leaf(e, child, d, grand, ply + 1);
        if b != Battle::Direct && e.goal_reached(grand) {
            // The defender reaches the goal: shown after the attacker's last move; earlier it
            // is a trivial defence (Popeye's default hides it).
            return (n == 1).then_some(dnode);
        }
        if b == Battle::Reflex && (n == 1 || e.goal_in_one(ctx, grand).is_some()) {
            // Reflex: where the defender can reach the goal it must; only those moves count.
            return None;
        }
        if n < 2 {
            return None;
        }
        // None: a refutation (tries), printed under "but".
        let s = shortest_win(e, ctx, b, grand, n - 1)?;
        if !threat.moves.is_empty() && !self.stops_threat(ctx, grand, s, threat) {
            return None;
        }
        if self.opts.short_variations_off && s < n - 1 {
            return None;
        }
        dnode.children = self.continuations(ctx, grand, s, ply + 2);
        Some(dnode)
    }

    /// Is a defence (leading to `grand`, the attacker then succeeding in `s` moves) shown
    /// against `threat`? Defences answered faster than the threat, or that stop no threat
    /// move, are not.
    fn stops_threat(&self, ctx: &mut Ctx, grand: &Position, s: u32, threat: &Threat) -> bool {
        if s < threat.len {
            return false;
        }
        let threat_still_works = s == threat.len
            && threat.moves.iter().all(|&tm| {
                legal_child_like(self.engine, grand, tm)
                    .is_some_and(|tc| attacker_move_wins(self.engine, ctx, self.b, &tc, threat.len))
            });
        !threat_still_works
    }

    /// Every attacker move in `pos` that succeeds within `s` moves, each with its subtree.
    fn continuations(&self, ctx: &mut Ctx, pos: &Position, s: u32, ply: u32) -> Vec<TreeNode> {
        let mut out = vec![];
        for (am, ac) in self.engine.rules.legal_moves(pos) {
            if attacker_move_wins(self.engine, ctx, self.b, &ac, s) {
                out.push(self.attacker_node(ctx, pos, am, &ac, s, ply, true));
            }
        }
        out
    }
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
    opts: &SearchOptions,
) -> Vec<TreeNode> {
    // The continuations are shown as Popeye shows set play: every defence with its
    // answers, no threat or zugzwang computed (`1...Kh2-g1 2.Kf4-g3 2...Kg1-h1 3.EMc5-c1#
    // 2...a5-a4 3.EMc5-c1#`, where play would say `2.Kf4-g3 threat: 3.EMc5-c1#`).
    let plain = SearchOptions {
        no_threat: true,
        ..opts.clone()
    };
    let builder = Builder {
        engine,
        b,
        opts: &plain,
    };
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
        dnode.children = builder.continuations(ctx, &grand, s, 2);
        out.push(dnode);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Condition, Rules};
    use crate::search::stipulation::Goal;
    use crate::search::tt::Tt;
    use std::sync::atomic::AtomicBool;

    /// Whatever order the defences are searched in (from three attacker moves, Popeye's),
    /// `refutations` without a cap names every refuting defence, in the order the moves
    /// are generated in: after each first move of four mates in three and four, against
    /// each defence searched on its own.
    #[test]
    fn refutations_are_complete_and_in_generation_order() {
        let rules = Rules::new(Condition::Orthodox);
        let stop = AtomicBool::new(false);
        let problems = [
            ("1r4k1/8/5PP1/K7/6NR/7B/1r6/7R w - - 0 1", 3),
            ("8/5p2/3N4/1BPp1P2/1Bpk1Pp1/2p2pP1/2p2K2/2N5 w - - 0 1", 3),
            ("8/5p1b/5Pp1/6P1/6PR/3P4/2P1P1pp/2K1Q1nk w - - 0 1", 4),
            ("8/8/8/2ppp3/2pkp3/2ppp3/7K/5N1Q w - - 0 1", 4),
        ];
        let (mut lists, mut out_of_order) = (0, 0);
        for (fen, n) in problems {
            let pos = Position::from_fen(fen).expect("FEN");
            let tt = Tt::new(4);
            let engine = Engine::new(&rules, Goal::Mate, &tt, &stop);
            let mut ctx = Ctx::new();
            for (_, child) in rules.legal_moves(&pos) {
                let Some(refs) =
                    refutations(&engine, &mut ctx, Battle::Direct, &child, n, usize::MAX)
                else {
                    // A stalemating first move: nothing to name.
                    assert!(!rules.has_legal_move(&child));
                    continue;
                };
                let expected: Vec<Move> = rules
                    .legal_moves(&child)
                    .iter()
                    .filter(|(_, grand)| {
                        !defence_fails(&engine, &mut ctx, Battle::Direct, grand, n)
                    })
                    .map(|(d, _)| *d)
                    .collect();
                assert_eq!(refs, expected, "{fen} {}", child.to_fen());
                lists += usize::from(refs.len() >= 2);
                // The search order differs from the generation order somewhere.
                let mut by_replies = expected.clone();
                by_replies.sort_by_cached_key(|d| {
                    rules.count_legal(&rules.play(&child, *d).expect("legal"))
                });
                out_of_order += usize::from(by_replies != expected);
            }
        }
        assert!(lists > 40 && out_of_order > 20, "{lists} {out_of_order}");
    }
}
