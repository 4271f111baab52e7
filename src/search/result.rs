//! Solving results: plain data, printed by `output` as text, JSON or YAML.

use super::stipulation::Goal;
use crate::core::square_name;
use crate::moves::{Effect, Effects, Move};
use crate::output::notation::{Style, effects_text, suffix};
use crate::position::Position;
use crate::rules::Rules;
use serde::Serialize;

/// A move as reported: squares, promotion and its text in both notations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveInfo {
    pub from: String,
    pub to: String,
    pub promotion: Option<String>,
    /// Long algebraic with suffix, as Popeye prints it (`Qd1*d5 +`).
    pub text: String,
    /// Short algebraic with suffix (`Qxd5+`).
    pub short: String,
    /// The steps of the move (`from-to` pairs, castling includes the rook's step; Kazan
    /// and Tatarstan followers, every step of a combo).
    pub steps: Vec<String>,
    #[serde(skip)]
    pub mv: Move,
}

impl MoveInfo {
    /// Move `m` from `pos` (leading to `child`) in a problem whose goal is `goal`: its
    /// sign names that goal only ([`suffix`]).
    pub fn new(rules: &Rules, goal: Goal, pos: &Position, m: Move, child: &Position) -> MoveInfo {
        let rules = &rules.without_stop();
        let effects = rules.effects(pos, m).map(|(_, e)| e);
        let text = |style| {
            let body = match &effects {
                Some(e) => effects_text(rules, pos, e, style),
                None => "[?]".into(),
            };
            format!("{body}{}", suffix(rules, child, style, Some(goal)))
        };
        MoveInfo {
            from: square_name(m.from),
            to: square_name(m.to),
            promotion: m.promo.map(|k| k.code().to_string()),
            text: text(Style::Long),
            short: text(Style::Short),
            steps: effects
                .as_ref()
                .map(|e| step_pairs(pos, e))
                .unwrap_or_default(),
            mv: m,
        }
    }

    /// Drops the stalemate mark (`=`) of a move before the last of a series line: the other
    /// side makes no move in the series, so a stalemate there ends nothing, and Popeye's
    /// lines mark none.
    pub fn unmark_stalemate(&mut self) {
        if let Some(t) = self.text.strip_suffix(" =") {
            self.text = t.to_string();
        }
        if let Some(t) = self.short.strip_suffix('=') {
            self.short = t.to_string();
        }
    }

    pub fn text_in(&self, style: Style) -> &str {
        match style {
            Style::Long => &self.text,
            Style::Short => &self.short,
        }
    }
}

/// The `from-to` pairs of a move's effects: each step (castling adds the rook's), both
/// directions of a swap, `sq-sq` for a pocketing or a drop.
fn step_pairs(pos: &Position, e: &Effects) -> Vec<String> {
    let pair = |a: u8, b: u8| format!("{}-{}", square_name(a), square_name(b));
    let mut out = vec![];
    for effect in &e.effects {
        match *effect {
            Effect::Step(st) => {
                out.push(pair(st.from, st.to));
                if st.castle {
                    let wing = if st.to > st.from { 0 } else { 1 };
                    let (_, _, rf, rt, _) = crate::position::CASTLINGS[pos.side.idx()][wing];
                    out.push(pair(rf, rt));
                }
            }
            Effect::Swap { from, to, .. } => {
                out.push(pair(from, to));
                out.push(pair(to, from));
            }
            Effect::Pocket { from, .. } => out.push(pair(from, from)),
            Effect::Drop { to, .. } => out.push(pair(to, to)),
            Effect::Transform { .. } | Effect::Reborn { .. } => {}
        }
    }
    out
}

/// One node of a battle-play solution tree.
#[derive(Clone, Debug, Serialize)]
pub struct TreeNode {
    /// 0-based ply: 0 = White's first move ("1."), 1 = "1...", 2 = "2." ...
    pub ply: u32,
    #[serde(rename = "move")]
    pub mv: MoveInfo,
    /// Only for the first move: "key", "try" or "".
    pub mark: String,
    /// Attacker node: the threat lines (empty: none); `zugzwang` when no threat exists.
    pub threats: Vec<TreeNode>,
    pub zugzwang: bool,
    /// Continuations (defences below an attacker move, replies below a defence).
    pub children: Vec<TreeNode>,
    /// For tries: the refutations.
    pub refutations: Vec<Refutation>,
}

impl TreeNode {
    /// Move `mv` at `ply`, without continuations.
    pub fn bare(mv: MoveInfo, ply: u32) -> TreeNode {
        TreeNode {
            ply,
            mv,
            mark: String::new(),
            threats: vec![],
            zugzwang: false,
            children: vec![],
            refutations: vec![],
        }
    }
}

/// A refutation of a try, with what the attacker must play after it.
#[derive(Clone, Debug, Serialize)]
pub struct Refutation {
    #[serde(flatten)]
    pub mv: MoveInfo,
    /// Reflex play with attacker moves still to come: the attacker's moves that reach the
    /// goal at once after the refutation. The attacker must play one of them (either side
    /// must reach the goal when it can), which ends the play the wrong way round: that is
    /// why the refutation holds. Printed under it with `?!?`, as Popeye does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<MoveInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TryInfo {
    #[serde(rename = "move")]
    pub mv: MoveInfo,
    pub refutations: Vec<MoveInfo>,
}

/// Everything found for one twin.
#[derive(Clone, Debug, Serialize)]
pub struct TwinResult {
    pub twin: String,
    /// The twin's diagram as FEN (as given, before the starting side is set).
    pub fen: String,
    pub stipulation: String,
    pub condition: String,
    /// Solved with the colours' roles exchanged (a `Duplex` or `HalfDuplex` half); left
    /// out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exchanged: bool,
    pub keys: Vec<MoveInfo>,
    pub tries: Vec<TryInfo>,
    /// Help and series solutions, each as its move sequence.
    pub lines: Vec<Vec<MoveInfo>>,
    /// Set play: tree nodes (battle play) or lines (help/series).
    pub set_play: Vec<TreeNode>,
    pub set_lines: Vec<Vec<MoveInfo>>,
    /// Keys and tries with their threats and variations.
    pub tree: Vec<TreeNode>,
    /// Shorter solutions than stipulated (direct play), reported as cooks.
    pub shorter: Option<u32>,
    /// Help/series lines start with a half move ("1...").
    #[serde(skip)]
    pub half_start: bool,
    /// Series play: the opponent's final move follows the last series move.
    #[serde(skip)]
    pub series: bool,
    /// Series help/self: each line ends with the other side's single reply.
    #[serde(skip)]
    pub series_reply: bool,
    pub complete: bool,
    /// MaxSolutions cut the solutions short.
    pub partial: bool,
    pub nodes: u64,
    pub seconds: f64,
    /// Kilobytes of transposition table in use when the search ended.
    pub table_kb: u64,
    /// Problems found before solving (e.g. the side not to move is in check).
    pub notes: Vec<String>,
    /// Popeye `MoveNumbers` lines (`  1  (Ke1-e2 )`), one per first move in generation
    /// order; empty without the option.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub move_numbers: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::rules::Rules;

    /// The move of `fen` from `from` to `to`, as written in a problem whose goal is
    /// `goal`: long and short texts.
    fn info(fen: &str, from: &str, to: &str, goal: Goal) -> (String, String) {
        let pos = Position::from_fen(fen).unwrap();
        let rules = Rules::default();
        let (m, child) = rules
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| square_name(m.from) == from && square_name(m.to) == to)
            .expect("the move");
        let i = MoveInfo::new(&rules, goal, &pos, m, &child);
        (i.text, i.short)
    }

    fn pair(long: &str, short: &str) -> (String, String) {
        (long.into(), short.into())
    }

    #[test]
    fn a_sign_names_the_stipulation_goal_only() {
        // A back-rank mate: its sign in a mate stipulation, a check in a stalemate one.
        let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(info(mate, "a1", "a8", Goal::Mate), pair("Ra1-a8 #", "Ra8#"));
        assert_eq!(
            info(mate, "a1", "a8", Goal::Stalemate),
            pair("Ra1-a8 +", "Ra8+")
        );
        // A promotion that mates.
        let promo = "6k1/P4ppp/8/8/8/8/8/6K1 w - - 0 1";
        let (long, short) = info(promo, "a7", "a8", Goal::Stalemate);
        assert!(
            long.ends_with("=Q +") && short.ends_with("=Q+"),
            "{long} {short}"
        );
        let (long, short) = info(promo, "a7", "a8", Goal::Mate);
        assert!(
            long.ends_with("=Q #") && short.ends_with("=Q#"),
            "{long} {short}"
        );
        // A stalemate: its sign in a stalemate stipulation, none in a mate one.
        let stale = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1";
        assert_eq!(
            info(stale, "b1", "b6", Goal::Stalemate),
            pair("Qb1-b6 =", "Qb6=")
        );
        assert_eq!(info(stale, "b1", "b6", Goal::Mate), pair("Qb1-b6", "Qb6"));
        // A plain check keeps its sign under both goals.
        let check = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        for goal in [Goal::Mate, Goal::Stalemate] {
            assert_eq!(info(check, "a1", "a8", goal), pair("Ra1-a8 +", "Ra8+"));
        }
    }
}
