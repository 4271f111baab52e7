//! The rules of each condition: one file per condition, one registry line each.
//! Dispatch is a `match` on [`Condition`] (static, inlinable), never `dyn` per node.

pub mod combo;
pub mod kazan;
pub mod orthodox;
pub mod pocket;
pub mod tatarstan;
pub mod teleport;

use crate::core::piece::{ALL_KINDS, ORTHODOX_PROMOTIONS};
use crate::core::{Kind, NO_SQUARE, bb};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use std::ops::ControlFlow;

/// A move callback that stops at `m` (for "could this move have been generated?").
pub(crate) fn stop_at(m: Move) -> impl FnMut(Move) -> ControlFlow<()> {
    move |x| {
        if x == m {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// The fairy conditions chainmate knows. Registry: name, aliases, constructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    Orthodox,
    Teleport,
    Kazan,
    PocketMutation,
    /// Tatarstan with the Kazan chains (the default, D12).
    Tatarstan,
    /// Tatarstan with the chains switched off: an orthodox move, then the cascade.
    TatarstanNoChains,
    /// Combo chess: challenged own pieces move on in the same turn.
    Combo,
}

/// (canonical name, accepted spellings) per condition.
pub const REGISTRY: &[(Condition, &str, &[&str])] = &[
    (Condition::Orthodox, "orthodox", &["orthodox", "none"]),
    (
        Condition::Teleport,
        "teleport",
        &["teleport", "teleportchess"],
    ),
    (Condition::Kazan, "kazan", &["kazan", "kazanchess"]),
    (
        Condition::PocketMutation,
        "pocket-mutation",
        &["pocket-mutation", "pocketmutation", "pocket"],
    ),
    (
        Condition::Tatarstan,
        "tatarstan",
        &["tatarstan", "tatarstanchess"],
    ),
    (
        Condition::TatarstanNoChains,
        "tatarstan-nochains",
        &[
            "tatarstan-nochains",
            "tatarstan-no-chains",
            "tatarstan-without-chains",
        ],
    ),
    (Condition::Combo, "combo", &["combo", "combochess"]),
];

impl Condition {
    pub fn name(self) -> &'static str {
        REGISTRY
            .iter()
            .find(|r| r.0 == self)
            .map(|r| r.1)
            .unwrap_or("?")
    }
    /// Parses a condition name (case-insensitive, `-`/`_`/space ignored).
    pub fn parse(text: &str) -> Option<Condition> {
        let norm: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        REGISTRY
            .iter()
            .find(|r| r.2.iter().any(|a| a.replace('-', "") == norm))
            .map(|r| r.0)
    }
}

/// Everything the move generator needs to know besides the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub condition: Condition,
    promotions: Vec<Kind>,
    stop: StopFlag,
}

/// The search's stop flag (time limit, Ctrl-C), seen by the generators whose loops are not
/// bounded by a small constant (the combo walk). Once it is set, such a loop ends early, so
/// whatever it returns is meaningless: every caller that may run with a flag checks it
/// after the call and discards the answer (the search engine does). Rules compare equal
/// whatever their flag.
#[derive(Clone, Debug, Default)]
struct StopFlag(Option<std::sync::Arc<std::sync::atomic::AtomicBool>>);

impl PartialEq for StopFlag {
    fn eq(&self, _: &StopFlag) -> bool {
        true
    }
}
impl Eq for StopFlag {}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(Condition::Orthodox)
    }
}

impl Rules {
    pub fn new(condition: Condition) -> Rules {
        // Pocket Mutation: pawns never promote by moving (they are promoted by pocketing).
        let promotions = if condition == Condition::PocketMutation {
            vec![]
        } else {
            ORTHODOX_PROMOTIONS.to_vec()
        };
        Rules {
            condition,
            promotions,
            stop: StopFlag::default(),
        }
    }

    /// These rules with the search's stop flag (see [`Rules::stopped`]).
    pub fn with_stop(mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Rules {
        self.stop = StopFlag(Some(stop));
        self
    }

    /// These rules without a stop flag: for what is printed (move texts and their check
    /// and mate signs must be exact even after a stop).
    pub fn without_stop(&self) -> Rules {
        Rules {
            stop: StopFlag::default(),
            ..self.clone()
        }
    }

    /// Has the search been asked to stop? Long generator loops look at this and end early;
    /// their answer is then meaningless and is discarded by the caller.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop
            .0
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Is replaying one move (`play`, `is_pseudo_legal`) cheap, and does a position's move
    /// list fit a `MoveList`? Not with chains, cascades or combos: replaying regenerates
    /// (a whole position's combos in Combo chess), and a position can have thousands of
    /// moves (an army of queens in Tatarstan). The search then keeps positions instead.
    #[inline]
    pub fn cheap_replay(&self) -> bool {
        matches!(
            self.condition,
            Condition::Orthodox | Condition::Teleport | Condition::PocketMutation
        )
    }

    /// Is castling part of the condition? (Not in Pocket Mutation.)
    #[inline]
    pub fn castling_allowed(&self) -> bool {
        self.condition != Condition::PocketMutation
    }

    /// Adds the fairy kinds of a problem to the promotion choices (as Popeye does: a pawn may
    /// promote to any fairy piece present in the problem), in table order after Q, S, R, B.
    pub fn with_fairy_promotions(mut self, kinds: impl IntoIterator<Item = Kind>) -> Rules {
        if self.promotions.is_empty() {
            return self; // no promotion by moving under this condition
        }
        let mut extra: Vec<Kind> = kinds.into_iter().filter(|k| !k.is_orthodox()).collect();
        extra.sort();
        extra.dedup();
        for k in ALL_KINDS.iter().copied().filter(|k| extra.contains(k)) {
            self.promotions.push(k);
        }
        self
    }

    #[inline]
    pub fn promotions(&self) -> &[Kind] {
        &self.promotions
    }

    /// Calls `f` with each legal move of the side to move and the position after it, in
    /// generation order, until `f` breaks. Returns whether it broke.
    #[inline]
    pub fn for_each_legal<F>(&self, pos: &Position, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        match self.condition {
            Condition::Orthodox => {
                orthodox::each_legal_unplayed(pos, self, &mut |m| f(m, &pos.make(m)))
            }
            Condition::Teleport => teleport::for_each_legal(pos, self, f),
            Condition::Kazan => kazan::for_each_legal(pos, self, f),
            Condition::PocketMutation => pocket::for_each_legal(pos, self, f),
            Condition::Tatarstan | Condition::TatarstanNoChains => {
                tatarstan::for_each_legal(pos, self, f)
            }
            Condition::Combo => combo::for_each_legal(pos, self, f),
        }
    }

    /// All legal moves with their resulting positions.
    pub fn legal_moves(&self, pos: &Position) -> Vec<(Move, Position)> {
        let mut v = Vec::new();
        let _ = self.for_each_legal(pos, |m, c| {
            v.push((m, *c));
            ControlFlow::Continue(())
        });
        v
    }

    /// Does the side to move have at least one legal move? (Early exit.)
    #[inline]
    pub fn has_legal_move(&self, pos: &Position) -> bool {
        match self.condition {
            Condition::Orthodox => orthodox::has_legal_move(pos, self),
            Condition::Teleport => teleport::has_legal_move(pos, self),
            Condition::Combo => combo::has_legal_move(pos, self),
            Condition::Kazan
            | Condition::PocketMutation
            | Condition::Tatarstan
            | Condition::TatarstanNoChains => self
                .for_each_legal(pos, |_, _| ControlFlow::Break(()))
                .is_break(),
        }
    }

    /// Is the side not to move in check under this condition (an illegal diagram)? For Combo
    /// that is combo check: the side to move could capture the king with one combo.
    pub fn other_side_in_check(&self, pos: &Position) -> bool {
        match self.condition {
            Condition::Combo => combo::can_capture_king(pos, pos.side, self),
            _ => pos.mover_king_attacked(),
        }
    }

    /// Calls `f` with each legal move that could stalemate the other side (every such move
    /// is among them; others may be too), with the position after it.
    #[inline]
    pub fn for_each_stalemate_candidate<F>(&self, pos: &Position, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        match self.condition {
            Condition::Orthodox => {
                let land = orthodox::stalemate_landing(pos, self);
                if land == 0 && pos.ep == NO_SQUARE && pos.castling == 0 {
                    return ControlFlow::Continue(());
                }
                orthodox::each_legal_unplayed(pos, self, &mut |m| {
                    if land & bb(m.to) != 0
                        || m.kind == MoveKind::Castle
                        || m.kind == MoveKind::EnPassant
                    {
                        f(m, &pos.make(m))
                    } else {
                        ControlFlow::Continue(())
                    }
                })
            }
            _ => self.for_each_legal(pos, f),
        }
    }

    /// Calls `f` with each legal move that gives check (and its resulting position).
    #[inline]
    pub fn for_each_legal_check<F>(&self, pos: &Position, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        match self.condition {
            Condition::Orthodox => orthodox::each_check_candidate(pos, self, &mut |m| {
                let child = pos.make(m);
                if orthodox::is_legal_child(&child) && child.in_check() {
                    f(m, &child)
                } else {
                    ControlFlow::Continue(())
                }
            }),
            _ => self.for_each_legal(pos, |m, child| {
                if self.in_check(child) {
                    f(m, child)
                } else {
                    ControlFlow::Continue(())
                }
            }),
        }
    }

    /// Pseudo-legal moves of the side to move (for callers that reorder before playing).
    #[inline]
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        match self.condition {
            Condition::Orthodox => orthodox::pseudo_legal(pos, self, list),
            Condition::Teleport => {
                orthodox::pseudo_legal(pos, self, list);
                let _ = teleport::each_teleport(pos, self, &mut |m| {
                    list.push(m);
                    ControlFlow::Continue(())
                });
            }
            // A chain move only exists with its chain: the legal moves are the list. (The
            // search uses `legal_moves` where `cheap_replay` is false; a list that would
            // overflow stops at the capacity.)
            Condition::Kazan
            | Condition::PocketMutation
            | Condition::Tatarstan
            | Condition::TatarstanNoChains
            | Condition::Combo => {
                let _ = self.for_each_legal(pos, |m, _| {
                    if list.len() == MoveList::CAP {
                        return ControlFlow::Break(());
                    }
                    list.push(m);
                    ControlFlow::Continue(())
                });
            }
        }
    }

    /// Could `m` have been generated in `pos`?
    #[inline]
    pub fn is_pseudo_legal(&self, pos: &Position, m: Move) -> bool {
        match self.condition {
            Condition::Orthodox => orthodox::is_pseudo_legal(pos, self, m),
            Condition::Teleport => teleport::is_pseudo_legal(pos, self, m),
            Condition::Kazan => kazan::replay(pos, self, m).is_some(),
            Condition::PocketMutation => pocket::is_pseudo_legal(pos, self, m),
            Condition::Tatarstan | Condition::TatarstanNoChains => {
                tatarstan::replay(pos, self, m).is_some()
            }
            Condition::Combo => combo::replay(pos, self, m).is_some(),
        }
    }

    /// Plays a generated move; `None` when it leaves the own king attacked.
    #[inline]
    pub fn play(&self, pos: &Position, m: Move) -> Option<Position> {
        match self.condition {
            Condition::Orthodox | Condition::Teleport | Condition::PocketMutation => {
                let child = pos.make(m);
                orthodox::is_legal_child(&child).then_some(child)
            }
            Condition::Kazan => kazan::play(pos, self, m),
            Condition::Tatarstan | Condition::TatarstanNoChains => tatarstan::play(pos, self, m),
            Condition::Combo => combo::play(pos, self, m),
        }
    }

    /// Is the side to move attacked (in check) under this condition?
    #[inline]
    pub fn in_check(&self, pos: &Position) -> bool {
        match self.condition {
            Condition::Orthodox
            | Condition::Teleport
            | Condition::Kazan
            | Condition::PocketMutation
            | Condition::Tatarstan
            | Condition::TatarstanNoChains => pos.in_check(),
            Condition::Combo => combo::in_check(pos, self),
        }
    }

    /// Number of legal moves (distinct successor positions).
    pub fn count_legal(&self, pos: &Position) -> u64 {
        if self.condition == Condition::Orthodox {
            return orthodox::count_legal(pos, self);
        }
        let mut n = 0;
        let _ = self.for_each_legal(pos, |_, _| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }
}

/// Perft of a game from its start (D15: in Pocket Mutation, White may not use the pocket
/// on the first move).
pub fn perft_game_start(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    let _ = rules.for_each_legal(pos, |m, c| {
        let pocket = matches!(
            m.kind,
            crate::moves::MoveKind::Pocket | crate::moves::MoveKind::Drop
        );
        if !(pocket && pos.side == crate::core::Color::White) {
            n += perft(rules, c, depth - 1);
        }
        ControlFlow::Continue(())
    });
    n
}

/// Perft: leaf paths over distinct successor positions.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return rules.count_legal(pos);
    }
    let mut n = 0;
    let _ = rules.for_each_legal(pos, |_, c| {
        n += perft(rules, c, depth - 1);
        ControlFlow::Continue(())
    });
    n
}

impl Condition {
    /// Can the move that makes a pawn two-step also fill the square the pawn left (a
    /// teleporting two-step puts the other piece there, a Kazan follower steps onto it, a
    /// combo's challenged piece may)? If not, an en-passant square whose pawn's starting
    /// square is occupied is impossible.
    pub fn refills_double_step_origin(self) -> bool {
        match self {
            Condition::Teleport | Condition::Kazan | Condition::Tatarstan | Condition::Combo => {
                true
            }
            Condition::Orthodox | Condition::TatarstanNoChains | Condition::PocketMutation => false,
        }
    }

    /// May a pawn of this colour stand on the given relative rank (0 = own first rank)
    /// in a problem position under this condition?
    pub fn allows_pawn_on_relative_rank(self, rel_rank: u8) -> bool {
        match self {
            Condition::Orthodox => (1..=6).contains(&rel_rank),
            // A teleport can bring a pawn to its first rank.
            Condition::Teleport => rel_rank <= 6,
            Condition::Kazan
            | Condition::Tatarstan
            | Condition::TatarstanNoChains
            | Condition::Combo => (1..=6).contains(&rel_rank),
            // Pawns may stand anywhere: dropped on the first rank, moved to the last.
            Condition::PocketMutation => true,
        }
    }
}
