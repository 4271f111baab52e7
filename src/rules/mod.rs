//! The rules of each condition: one file per condition, each a type implementing
//! [`ConditionRules`], and one registry line each (the `registry!` list below). Dispatch
//! is one `match` on [`Condition`] (the generated `dispatch!`: static, inlinable), never
//! `dyn` per node. [`Rules`] is the face the rest of the program sees.
//!
//! To add a condition: write `src/rules/<name>.rs` with a type implementing
//! `ConditionRules` (its moves and their effects, its check test, its notation hooks) and
//! add its line to the registry (`<name> { Variant => Type },`: the line also declares
//! the module).

use crate::core::piece::{ALL_KINDS, ORTHODOX_PROMOTIONS};
use crate::core::{Color, Kind, Square};
use crate::moves::{Effect, Effects, Layout, Move, MoveKind, MoveList, Step};
use crate::position::Position;
use std::ops::ControlFlow;

/// Keys are Zobrist hashes already: hash them by identity.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    /// A key of 128 bits that is no hash (bit sets and squares): mixed into 64.
    fn write_u128(&mut self, n: u128) {
        let x = ((n as u64) ^ ((n >> 64) as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 31);
    }
}

/// A set of Zobrist hashes (seen positions, chain states).
pub(crate) type IdSet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<IdHasher>>;

/// A set of exact keys of 128 bits (chain states told apart by their parts, not by a hash).
pub(crate) type KeySet = std::collections::HashSet<u128, std::hash::BuildHasherDefault<IdHasher>>;

/// A buffer the move generators of the conditions reuse (sets of seen positions, chain and
/// combo walks, cascades): each thread keeps the buffers given back, emptied but with their
/// room, so that generating moves allocates nothing once they have grown. The generators
/// nest (a callback generates the moves of the next position), hence a pool per thread
/// rather than one buffer.
pub(crate) trait Reusable: Default + 'static {
    /// This thread's pool of buffers of this type.
    fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Self>>>;
    /// Empties the buffer for its next use (keeping its room).
    fn reset(&mut self);
}

/// Declares the pool of a [`Reusable`] type and how it is emptied; `capped` for a
/// collection that is cleared, or dropped once it has grown beyond [`REUSE_LIMIT`].
macro_rules! reusable {
    (capped $t:ty) => {
        $crate::rules::reusable!($t, |v| if v.capacity() > $crate::rules::REUSE_LIMIT {
            *v = <$t>::default()
        } else {
            v.clear()
        });
    };
    ($t:ty, |$v:ident| $reset:expr) => {
        impl $crate::rules::Reusable for $t {
            fn pool() -> &'static std::thread::LocalKey<std::cell::RefCell<Vec<Self>>> {
                thread_local! {
                    static POOL: std::cell::RefCell<Vec<$t>> =
                        const { std::cell::RefCell::new(Vec::new()) };
                }
                &POOL
            }
            fn reset(&mut self) {
                let $v = self;
                $reset
            }
        }
    };
}
pub(crate) use reusable;

/// Buffers kept by a pool are dropped instead when they have grown beyond this many
/// entries (one huge node should not make every later reuse clear a huge buffer).
pub(crate) const REUSE_LIMIT: usize = 1 << 16;

reusable!(capped IdSet);

reusable!(capped KeySet);

reusable!(Vec<u64>, |v| v.clear());

/// A [`Reusable`] buffer taken from this thread's pool (or new), given back on drop.
pub(crate) struct Scratch<T: Reusable>(Option<T>);

impl<T: Reusable> Scratch<T> {
    pub(crate) fn take() -> Scratch<T> {
        let reused = T::pool().try_with(|p| p.borrow_mut().pop()).ok().flatten();
        Scratch(Some(reused.unwrap_or_default()))
    }
}

impl<T: Reusable> std::ops::Deref for Scratch<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0.as_ref().expect("present until drop")
    }
}

impl<T: Reusable> std::ops::DerefMut for Scratch<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0.as_mut().expect("present until drop")
    }
}

impl<T: Reusable> Drop for Scratch<T> {
    fn drop(&mut self) {
        if let Some(mut v) = self.0.take() {
            v.reset();
            let _ = T::pool().try_with(|p| p.borrow_mut().push(v));
        }
    }
}

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

/// What a condition is: its moves, their effects, its check test, and how its moves are
/// written and read. Every method gets the [`Rules`] (promotion choices, stop flag).
/// The defaults are orthodox where orthodox is the natural reading.
pub trait ConditionRules {
    /// The canonical name (`--condition`, YAML), the accepted spellings (compared with
    /// case, `-`, `_` and spaces ignored) and the diagram's condition line.
    const NAME: &'static str;
    const ALIASES: &'static [&'static str];
    const TITLE: Option<&'static str>;
    /// Is replaying one move (`play`, `is_pseudo_legal`) cheap, and does a position's
    /// move list fit a `MoveList`? Not with chains, cascades or combos: the search then
    /// keeps positions instead.
    const CHEAP_REPLAY: bool = false;
    const CASTLING: bool = true;
    /// Do pawns promote by moving to their last rank?
    const PROMOTES_BY_MOVING: bool = true;
    /// Can the move that makes a pawn two-step also fill the square the pawn left? If
    /// not, an en-passant square whose pawn's starting square is occupied is impossible.
    const REFILLS_DOUBLE_STEP_ORIGIN: bool = false;
    /// Does the orthodox defence ordering of battle play apply (orthodox movement)?
    const ORTHODOX_MOVEMENT: bool = false;
    /// Which help-play cuts of `search::reach` stay sound under this condition
    /// (`docs/solving.md`, "Under the conditions").
    const HELP_CUTS: HelpCuts = HelpCuts::NONE;
    /// How a move is written (its effects in order).
    const LAYOUT: Layout = Layout::Leader;
    /// Are stalemate claims proved by refuting every move with a king capture (and is
    /// check shown by a king capture)? Otherwise a claim states check and a safe move.
    const PROOF_BY_REFUTATION: bool = false;
    /// What check is called (`combo check`).
    const CHECK_NAME: &'static str = "check";

    /// Calls `f` with each legal move and the position after it, in generation order,
    /// until `f` breaks; each distinct result once.
    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>;

    /// As [`Self::for_each_legal`], for the moves `keep` accepts only (a rule that can
    /// ask before playing a move saves playing the others).
    fn for_each_legal_where<K, F>(
        pos: &Position,
        rules: &Rules,
        mut keep: K,
        mut f: F,
    ) -> ControlFlow<()>
    where
        K: FnMut(Move) -> bool,
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        Self::for_each_legal(pos, rules, |m, child| {
            if keep(m) {
                f(m, child)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// The position after a generated move and what the move does, or `None` when the
    /// move does not fit the position (legality is not checked).
    fn effects(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Effects)> {
        let _ = rules;
        Some((pos.make(m), leader_effects(pos, m)))
    }

    /// Could `m` have been generated in `pos`?
    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        orthodox::is_pseudo_legal(pos, rules, m)
    }

    /// Plays a generated move; `None` when it leaves the own king attacked.
    fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
        let _ = rules;
        let child = pos.make(m);
        orthodox::is_legal_child(&child).then_some(child)
    }

    /// [`ConditionRules::play`], the child handed to `f` where it was built: `None` when
    /// the move is illegal.
    #[inline]
    fn play_then<R, F: FnOnce(&Position) -> R>(
        pos: &Position,
        rules: &Rules,
        m: Move,
        f: F,
    ) -> Option<R> {
        Self::play(pos, rules, m).map(|child| f(&child))
    }

    /// Pseudo-legal moves (cheap-replay conditions) or the legal moves (the others; a
    /// list that would overflow stops at the capacity).
    fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
        let _ = Self::for_each_legal(pos, rules, |m, _| {
            if list.len() == MoveList::CAP {
                return ControlFlow::Break(());
            }
            list.push(m);
            ControlFlow::Continue(())
        });
    }

    fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
        Self::for_each_legal(pos, rules, |_, _| ControlFlow::Break(())).is_break()
    }

    /// As [`Self::for_each_legal`], where the rules may leave out moves after which the
    /// other side surely has a legal move that gives no check (a selfmate's last move:
    /// such a reply refutes it). The default leaves out none.
    fn for_each_legal_without_quiet_answer<F>(
        pos: &Position,
        rules: &Rules,
        f: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        Self::for_each_legal(pos, rules, f)
    }

    /// Does the side to move have a legal move that leaves the other side out of check?
    /// (A selfmate's last defence: any such move refutes.)
    fn has_legal_move_without_check(pos: &Position, rules: &Rules) -> bool {
        Self::for_each_legal(pos, rules, |_, child| {
            if Self::in_check(child, rules) {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_break()
    }

    /// Is the side to move in check?
    fn in_check(pos: &Position, rules: &Rules) -> bool {
        let _ = rules;
        pos.in_check()
    }

    /// Is the side not to move in check (an illegal diagram)?
    fn other_side_in_check(pos: &Position, rules: &Rules) -> bool {
        let _ = rules;
        pos.mover_king_attacked()
    }

    /// Every legal move that could stalemate the other side (others may be among them).
    fn for_each_stalemate_candidate<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        Self::for_each_legal(pos, rules, f)
    }

    /// Every legal move that gives check, where the rules may leave out checks after which
    /// the checked king surely has a flight (no mate). The default leaves out none.
    fn for_each_mate_candidate<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        Self::for_each_legal_check(pos, rules, f)
    }

    /// Every legal move that gives check.
    fn for_each_legal_check<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        Self::for_each_legal(pos, rules, |m, child| {
            if Self::in_check(child, rules) {
                f(m, child)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        let mut n = 0;
        let _ = Self::for_each_legal(pos, rules, |_, _| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// May a pawn stand on this relative rank (0 = own first rank) in a diagram?
    fn allows_pawn_on_relative_rank(rel_rank: u8) -> bool {
        (1..=6).contains(&rel_rank)
    }

    /// May `m` be played as the first move of a game from the initial array?
    fn allowed_at_game_start(pos: &Position, m: Move) -> bool {
        let _ = (pos, m);
        true
    }

    /// Notation hook: the squares from which a piece of `kind` can make the first step of
    /// a move to `to` (short-notation disambiguation).
    fn leader_sources(pos: &Position, rules: &Rules, kind: Kind, to: Square) -> Vec<Square> {
        let mut v = vec![];
        let _ = Self::for_each_legal(pos, rules, |x, _| {
            if x.to == to && pos.board.kind_at(x.from) == Some(kind) && !v.contains(&x.from) {
                v.push(x.from);
            }
            ControlFlow::Continue(())
        });
        v
    }

    /// Reader hook for conditions whose moves are written step by step: plays the move
    /// `text` names (game semantics: the own king may be left attacked, the enemy king
    /// may be captured) and returns the position after it with the opponent to move and
    /// its effects, or an error naming what is wrong. `None`: moves are read by their
    /// printed texts. `king_capture`: the text is a king capture (castling then needs
    /// only its structural conditions).
    fn read_move(
        pos: &Position,
        rules: &Rules,
        text: &str,
        king_capture: bool,
    ) -> Option<Result<(Position, Effects), String>> {
        let _ = (pos, rules, text, king_capture);
        None
    }

    /// A move of `by` that captures the other side's king, as its steps (for proofs:
    /// found by the plain exhaustive walk). The default: a plain capture.
    fn king_capture(pos: &Position, by: Color, rules: &Rules) -> Option<Vec<Step>> {
        let _ = rules;
        orthodox::king_capture(pos, by)
    }

    /// Every legal move with the position after it and its effects, in generation order.
    fn legal_with_effects(pos: &Position, rules: &Rules) -> Vec<(Move, Position, Effects)> {
        let mut v = vec![];
        let _ = Self::for_each_legal(pos, rules, |m, child| {
            if let Some((_, e)) = Self::effects(pos, rules, m) {
                v.push((m, *child, e));
            }
            ControlFlow::Continue(())
        });
        v
    }

    /// Every move of the side to move, legal or not, with the position after it and its
    /// effects.
    fn moves_with_effects(pos: &Position, rules: &Rules) -> Vec<(Position, Effects)> {
        let mut list = MoveList::new();
        orthodox::pseudo_legal(pos, rules, &mut list);
        list.as_slice()
            .iter()
            .filter_map(|&m| Self::effects(pos, rules, m))
            .collect()
    }
}

/// The effects of a move that is one first step (orthodox, Teleport, Pocket Mutation,
/// and the leader of a Kazan or Tatarstan move).
pub fn leader_effects(pos: &Position, m: Move) -> Effects {
    let kind = pos.board.kind_at(m.from).unwrap_or(Kind::Pawn);
    let step = |capture, castle| {
        Effect::Step(Step {
            from: m.from,
            to: m.to,
            kind,
            promo: m.promo,
            capture,
            castle,
        })
    };
    let effect = match m.kind {
        MoveKind::Normal | MoveKind::DoublePush | MoveKind::Compound => {
            step(!pos.board.is_empty(m.to), false)
        }
        MoveKind::EnPassant => step(true, false),
        MoveKind::Castle => step(false, true),
        MoveKind::Swap | MoveKind::SwapDouble => Effect::Swap {
            from: m.from,
            to: m.to,
            kind,
            other: pos.board.kind_at(m.to).unwrap_or(Kind::Pawn),
            promo: m.promo,
        },
        MoveKind::ToPocket => Effect::Pocket {
            from: m.from,
            kind,
            as_kind: m.promo.unwrap_or(kind),
        },
        MoveKind::FromPocket => Effect::Drop {
            to: m.to,
            kind: pos.pockets[pos.side.idx()].unwrap_or(Kind::Pawn),
        },
    };
    Effects {
        layout: Layout::Leader,
        effects: vec![effect],
        en_passant: m.kind == MoveKind::EnPassant,
    }
}

/// The registry: one line per condition file (its module, then each `Condition` variant
/// it defines with its type). It declares the modules and generates the enum,
/// `Condition::ALL` and the one dispatch.
macro_rules! registry {
    ($d:tt $( $module:ident { $( $(#[$doc:meta])* $variant:ident => $ty:ident ),* $(,)? } ),* $(,)?) => {
        $( pub mod $module; )*

        /// The conditions chainmate knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Condition { $( $( $(#[$doc])* $variant ),* ),* }

        impl Condition {
            pub const ALL: &'static [Condition] = &[ $( $( Condition::$variant ),* ),* ];
        }

        /// Runs `$body` with `$C` the type of the condition `$cond`.
        macro_rules! dispatch {
            ($d cond:expr, $d C:ident => $d body:expr) => {
                match $d cond {
                    $( $( Condition::$variant => {
                        type $d C = $module::$ty;
                        $d body
                    } )* )*
                }
            };
        }
    };
}

registry! { $
    orthodox { Orthodox => Orthodox },
    teleport { Teleport => Teleport },
    kazan { Kazan => Kazan },
    pocket { PocketMutation => PocketMutation },
    tatarstan {
        /// Tatarstan with the Kazan chains (the default, D12).
        Tatarstan => Tatarstan,
        /// Tatarstan with the chains switched off: an orthodox move, then the cascade.
        TatarstanNoChains => TatarstanNoChains,
    },
    combo {
        /// Combo chess: challenged own pieces move on in the same turn.
        Combo => Combo,
    },
    circe { Circe => Circe },
    madrasi { Madrasi => Madrasi },
}

impl Condition {
    pub fn name(self) -> &'static str {
        dispatch!(self, C => C::NAME)
    }
    /// The condition line under a diagram (`Kazan Chess`); none for orthodox.
    pub fn title(self) -> Option<&'static str> {
        dispatch!(self, C => C::TITLE)
    }
    /// Parses a condition name (case-insensitive, `-`/`_`/space ignored).
    pub fn parse(text: &str) -> Option<Condition> {
        let norm = |t: &str| {
            t.chars()
                .filter(|c| !matches!(c, '-' | '_' | ' '))
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let want = norm(text);
        Condition::ALL
            .iter()
            .copied()
            .find(|&c| dispatch!(c, C => C::ALIASES.iter().any(|a| norm(a) == want)))
    }
    /// See [`ConditionRules::REFILLS_DOUBLE_STEP_ORIGIN`].
    pub fn refills_double_step_origin(self) -> bool {
        dispatch!(self, C => C::REFILLS_DOUBLE_STEP_ORIGIN)
    }
    /// May a pawn of this colour stand on the given relative rank (0 = own first rank)
    /// in a problem position under this condition?
    pub fn allows_pawn_on_relative_rank(self, rel_rank: u8) -> bool {
        dispatch!(self, C => C::allows_pawn_on_relative_rank(rel_rank))
    }
}

/// Everything the move generator needs to know besides the position.
/// The help-play cuts a condition allows (`docs/solving.md`, "How help and series play are
/// searched"); the stalemate landing filter is the condition's own
/// `for_each_stalemate_candidate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpCuts {
    /// The final-position cuts: the losing king's square and flights, and for mate the one
    /// final position.
    pub final_position: bool,
    /// Stalemate: the immobile-pieces test.
    pub immobile: bool,
    /// Does each move move one piece of its side, so that a side's moves are shared among
    /// its pieces (their distances add up, and with one move left the others stand)? Where
    /// not (Kazan's chains), the final-position cut bounds each piece by its side's moves
    /// alone, and the one-final-position cut is off.
    pub shared_moves: bool,
    /// Does a unit's attack on a square next to it (or a leap) stand whatever else moves,
    /// so that the loser's king can never have stood on such a square before the winner's
    /// last move? Not under Madrasi (paralysis takes attacks away) nor Kazan (one chain
    /// moves the king and the unit that captures the attacker).
    pub standing_checks: bool,
    /// Series-help stalemates: may every unit of the stalemated side that no pin can stop
    /// be asked to end walled in by its own units (orthodox moves and captures, one unit
    /// per move, no paralysis: `search/reach/walls.rs`)?
    pub walls: bool,
}

impl HelpCuts {
    pub const NONE: HelpCuts = HelpCuts {
        final_position: false,
        immobile: false,
        shared_moves: false,
        standing_checks: false,
        walls: false,
    };
    pub const ALL: HelpCuts = HelpCuts {
        final_position: true,
        immobile: true,
        shared_moves: true,
        standing_checks: true,
        walls: true,
    };
}

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
        let promotions = if dispatch!(condition, C => C::PROMOTES_BY_MOVING) {
            ORTHODOX_PROMOTIONS.to_vec()
        } else {
            vec![]
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

    /// See [`ConditionRules::CHEAP_REPLAY`].
    #[inline]
    pub fn cheap_replay(&self) -> bool {
        dispatch!(self.condition, C => C::CHEAP_REPLAY)
    }

    /// Is castling part of the condition? (Not in Pocket Mutation.)
    #[inline]
    pub fn castling_allowed(&self) -> bool {
        dispatch!(self.condition, C => C::CASTLING)
    }

    /// See [`ConditionRules::HELP_CUTS`].
    #[inline]
    pub fn help_cuts(&self) -> HelpCuts {
        dispatch!(self.condition, C => C::HELP_CUTS)
    }

    /// See [`ConditionRules::ORTHODOX_MOVEMENT`].
    #[inline]
    pub fn orthodox_movement(&self) -> bool {
        dispatch!(self.condition, C => C::ORTHODOX_MOVEMENT)
    }

    /// How this condition writes its moves.
    pub fn layout(&self) -> Layout {
        dispatch!(self.condition, C => C::LAYOUT)
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
    pub fn for_each_legal<F>(&self, pos: &Position, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_legal(pos, self, f))
    }

    /// As [`Self::for_each_legal`], for the moves `keep` accepts only.
    #[inline]
    pub fn for_each_legal_where<K, F>(&self, pos: &Position, keep: K, f: F) -> ControlFlow<()>
    where
        K: FnMut(Move) -> bool,
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_legal_where(pos, self, keep, f))
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
        dispatch!(self.condition, C => C::has_legal_move(pos, self))
    }

    /// See [`ConditionRules::for_each_legal_without_quiet_answer`].
    #[inline]
    pub fn for_each_legal_without_quiet_answer<F>(&self, pos: &Position, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_legal_without_quiet_answer(pos, self, f))
    }

    /// See [`ConditionRules::has_legal_move_without_check`].
    #[inline]
    pub fn has_legal_move_without_check(&self, pos: &Position) -> bool {
        dispatch!(self.condition, C => C::has_legal_move_without_check(pos, self))
    }

    /// Is the side not to move in check under this condition (an illegal diagram)? For Combo
    /// that is combo check: the side to move could capture the king with one combo.
    pub fn other_side_in_check(&self, pos: &Position) -> bool {
        dispatch!(self.condition, C => C::other_side_in_check(pos, self))
    }

    /// Calls `f` with each legal move that could stalemate the other side (every such move
    /// is among them; others may be too), with the position after it.
    #[inline]
    pub fn for_each_stalemate_candidate<F>(&self, pos: &Position, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_stalemate_candidate(pos, self, f))
    }

    /// Calls `f` with each legal move that gives check (and its resulting position).
    #[inline]
    pub fn for_each_legal_check<F>(&self, pos: &Position, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_legal_check(pos, self, f))
    }

    /// See [`ConditionRules::for_each_mate_candidate`].
    #[inline]
    pub fn for_each_mate_candidate<F>(&self, pos: &Position, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        dispatch!(self.condition, C => C::for_each_mate_candidate(pos, self, f))
    }

    /// Pseudo-legal moves of the side to move (for callers that reorder before playing).
    #[inline]
    pub fn generate(&self, pos: &Position, list: &mut MoveList) {
        dispatch!(self.condition, C => C::generate(pos, self, list))
    }

    /// Could `m` have been generated in `pos`?
    #[inline]
    pub fn is_pseudo_legal(&self, pos: &Position, m: Move) -> bool {
        dispatch!(self.condition, C => C::is_pseudo_legal(pos, self, m))
    }

    /// Plays a generated move; `None` when it leaves the own king attacked.
    #[inline]
    pub fn play(&self, pos: &Position, m: Move) -> Option<Position> {
        dispatch!(self.condition, C => C::play(pos, self, m))
    }

    /// [`Rules::play`], the child handed to `f` where it was built (a copy of a position
    /// just written stalls on its stores, and the search copied each child it played):
    /// `None` when the move is illegal.
    #[inline]
    pub fn play_then<R, F: FnOnce(&Position) -> R>(
        &self,
        pos: &Position,
        m: Move,
        f: F,
    ) -> Option<R> {
        dispatch!(self.condition, C => C::play_then(pos, self, m, f))
    }

    /// The position after a generated move and its effects (legality not checked), or
    /// `None` when the move does not fit the position.
    pub fn effects(&self, pos: &Position, m: Move) -> Option<(Position, Effects)> {
        dispatch!(self.condition, C => C::effects(pos, self, m))
    }

    /// Is the side to move attacked (in check) under this condition?
    #[inline]
    pub fn in_check(&self, pos: &Position) -> bool {
        dispatch!(self.condition, C => C::in_check(pos, self))
    }

    /// Number of legal moves (distinct successor positions).
    pub fn count_legal(&self, pos: &Position) -> u64 {
        dispatch!(self.condition, C => C::count_legal(pos, self))
    }

    /// See [`ConditionRules::allowed_at_game_start`].
    pub fn allowed_at_game_start(&self, pos: &Position, m: Move) -> bool {
        dispatch!(self.condition, C => C::allowed_at_game_start(pos, m))
    }

    /// See [`ConditionRules::leader_sources`].
    pub fn leader_sources(&self, pos: &Position, kind: Kind, to: Square) -> Vec<Square> {
        dispatch!(self.condition, C => C::leader_sources(pos, self, kind, to))
    }

    /// See [`ConditionRules::read_move`].
    pub fn read_move(
        &self,
        pos: &Position,
        text: &str,
        king_capture: bool,
    ) -> Option<Result<(Position, Effects), String>> {
        dispatch!(self.condition, C => C::read_move(pos, self, text, king_capture))
    }

    /// See [`ConditionRules::CHECK_NAME`].
    pub fn check_name(&self) -> &'static str {
        dispatch!(self.condition, C => C::CHECK_NAME)
    }

    /// See [`ConditionRules::PROOF_BY_REFUTATION`].
    pub fn proof_by_refutation(&self) -> bool {
        dispatch!(self.condition, C => C::PROOF_BY_REFUTATION)
    }

    /// See [`ConditionRules::king_capture`].
    pub fn king_capture(&self, pos: &Position, by: crate::core::Color) -> Option<Vec<Step>> {
        dispatch!(self.condition, C => C::king_capture(pos, by, self))
    }

    /// See [`ConditionRules::legal_with_effects`].
    pub fn legal_with_effects(&self, pos: &Position) -> Vec<(Move, Position, Effects)> {
        dispatch!(self.condition, C => C::legal_with_effects(pos, self))
    }

    /// See [`ConditionRules::moves_with_effects`].
    pub fn moves_with_effects(&self, pos: &Position) -> Vec<(Position, Effects)> {
        dispatch!(self.condition, C => C::moves_with_effects(pos, self))
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
        if rules.allowed_at_game_start(pos, m) {
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

/// Test helper: at every node of random games (40 from each root, 12 plies each), the
/// counted moves (`count_legal`) are the moves `for_each_legal` plays.
#[cfg(test)]
pub(crate) fn assert_counts_are_played_moves(r: &Rules, roots: &[&str]) {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut compared = 0;
    for fen in roots {
        for _ in 0..40 {
            let mut pos = Position::from_fen(fen).expect("test FEN");
            for _ in 0..12 {
                let moves = r.legal_moves(&pos);
                assert_eq!(r.count_legal(&pos), moves.len() as u64, "{}", pos.to_fen());
                compared += 1;
                if moves.is_empty() {
                    break;
                }
                pos = moves[(crate::core::xorshift(&mut seed) % moves.len() as u64) as usize].1;
            }
        }
    }
    assert!(compared > 300 * roots.len(), "{compared}");
}
