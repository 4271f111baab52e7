//! Tatarstan chess: a Kazan move (leader plus compulsory chain; or, with the chains switched
//! off, an orthodox move) followed by a cascade of transformations.
//!
//! *X defends Y* when both have the same colour and X could capture on Y's square if Y were
//! an enemy (pawns diagonally forward). Kings neither defend nor are transformed (D6).
//! Every defence relation that exists after the move but did not before is an *event*: all
//! relations of a piece that moved in this turn (leader, followers, king and rook when
//! castling, a promoted piece) are new, and so are relations opened by the vacated squares
//! or by the removal of a captured piece, for both colours (D7). An event is
//! (defender square, defended square, defender kind). The cascade always fires a pending
//! event of the weakest defender kind: if the defender still has the event's kind, the
//! defended piece takes that kind, and each relation in which it now defends a piece becomes
//! an event. An event fires at most once per move; one whose defender has changed kind is
//! dropped without firing, so it can be created again (D17: the result does not depend on
//! the order within one kind). A piece that becomes a pawn on its last rank promotes, each
//! choice being a separate move (D8). A rook changing kind on its corner loses its castling
//! right for good (D13). Legality, check and the en-passant right (of the last two-step,
//! kept only if that piece is still a pawn) are judged after the cascade.
//!
//! A move is stored as its Kazan move (leader + `chain` choices in the low 24 bits) plus
//! the index of its cascade outcome (promotion choices, D8) in the high 8 bits.

use super::{IdSet, Rules, Scratch, kazan, orthodox};
use crate::core::board::piece_attacks;
use crate::core::piece::KIND_COUNT;
use crate::core::{Bitboard, Kind, NO_SQUARE, Square, Squares, bb};
use crate::moves::{Effects, Move, MoveKind};
use crate::position::{CASTLINGS, Position};
use std::ops::ControlFlow;

/// Tatarstan chess with the Kazan chains (`CHAINS`, D12: the default) or without them.
pub struct TatarstanRules<const CHAINS: bool>;
pub type Tatarstan = TatarstanRules<true>;
pub type TatarstanNoChains = TatarstanRules<false>;

impl<const CHAINS: bool> super::ConditionRules for TatarstanRules<CHAINS> {
    const NAME: &'static str = if CHAINS {
        "tatarstan"
    } else {
        "tatarstan-nochains"
    };
    const ALIASES: &'static [&'static str] = if CHAINS {
        &["tatarstan", "tatarstanchess"]
    } else {
        &[
            "tatarstan-nochains",
            "tatarstan-no-chains",
            "tatarstan-without-chains",
        ]
    };
    const TITLE: Option<&'static str> = Some(if CHAINS {
        "Tatarstan Chess"
    } else {
        "Tatarstan Chess (without chains)"
    });
    /// A Kazan follower can step onto the square a two-stepping pawn left.
    const REFILLS_DOUBLE_STEP_ORIGIN: bool = CHAINS;

    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        for_each_legal(pos, rules, CHAINS, f)
    }
    fn effects(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Effects)> {
        replay(pos, rules, CHAINS, m, true).map(|(p, e)| (p, e.expect("effects asked for")))
    }
    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        replay(pos, rules, CHAINS, m, false).is_some()
    }
    fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
        replay(pos, rules, CHAINS, m, false)
            .map(|r| r.0)
            .filter(orthodox::is_legal_child)
    }
    fn moves_with_effects(pos: &Position, rules: &Rules) -> Vec<(Position, Effects)> {
        moves_with_effects(pos, rules, CHAINS)
    }
}

/// Bits of `Move::chain` that hold the Kazan chain choices.
const CHAIN_BITS: u32 = 24;
const CHAIN_MASK: u32 = (1 << CHAIN_BITS) - 1;

/// One transformation of the cascade: the square and the piece's new kind.
pub type Transformation = (Square, Kind);

/// The squares defended by the piece on `s` (same-colour pieces other than kings), or
/// nothing for a king or an empty square.
fn defended(pos: &Position, s: Square) -> Bitboard {
    let board = &pos.board;
    let Some(p) = board.get(s) else { return 0 };
    if p.kind == Kind::King {
        return 0;
    }
    let own = board.by_color[p.color.idx()];
    let kings = bb(board.kings[0]) | bb(board.kings[1]);
    piece_attacks(s, p.color, p.kind, board.occupied()) & own & !kings
}

/// The defence relations of a position before a move, per defender square (see
/// [`defended`]), with each defender's whole attack set and the occupied squares.
pub(crate) struct Defences {
    defends: [Bitboard; 64],
    attacks: [Bitboard; 64],
    occupied: Bitboard,
}

/// The defence relations of a position (see [`Defences`]).
pub(crate) fn defences(pos: &Position) -> Defences {
    let board = &pos.board;
    let occupied = board.occupied();
    let kings = bb(board.kings[0]) | bb(board.kings[1]);
    let mut d = Defences {
        defends: [0; 64],
        attacks: [0; 64],
        occupied,
    };
    for a in Squares(occupied) {
        let p = board.get(a).expect("occupied");
        if p.kind != Kind::King {
            let attacks = piece_attacks(a, p.color, p.kind, occupied);
            d.attacks[a as usize] = attacks;
            d.defends[a as usize] = attacks & board.by_color[p.color.idx()] & !kings;
        }
    }
    d
}

/// Number of strength levels (see `piece::KindInfo::strength`).
const LEVELS: usize = 32;

/// The state of one cascade (cloned where a D8 promotion branches), kept between the
/// cascades of one leader so that its buffers are allocated once. Pending events wait in
/// one stack per defender strength (`nonempty` marks the stacks in use); per defender
/// kind (`marks[kind]`, `kinds` the set of those met so far), two bitsets per defender
/// square over the defended squares, queued and fired, and the defender squares whose
/// bitsets may be set (so that `reset` clears those alone).
struct Cascade {
    pos: Position,
    buckets: [Vec<(Square, Square, Kind)>; LEVELS],
    nonempty: u32,
    marks: Vec<(Bitboard, Box<[[Bitboard; 2]; 64]>)>,
    kinds: u32,
    done: Vec<Transformation>,
}

const QUEUED: usize = 0;
const FIRED: usize = 1;

impl Default for Cascade {
    fn default() -> Cascade {
        Cascade {
            pos: Position::empty(),
            buckets: Default::default(),
            nonempty: 0,
            marks: (0..KIND_COUNT).map(|_| (0, Box::new([[0; 2]; 64]))).collect(),
            kinds: 0,
            done: Vec::new(),
        }
    }
}

// `cascade` starts each use with `reset` (which keeps the room of the buffers). Pooled
// boxed: a cascade is a kilobyte, taken and given back once per leader.
super::reusable!(Box<Cascade>, |c| {
    let empty = Position::empty();
    Cascade::reset(c, &empty)
});

impl Cascade {

    /// Starts a new cascade from `pos`, keeping the buffers.
    fn reset(&mut self, pos: &Position) {
        self.pos = *pos;
        while self.nonempty != 0 {
            let level = self.nonempty.trailing_zeros() as usize;
            self.buckets[level].clear();
            self.nonempty &= self.nonempty - 1;
        }
        for kind in Squares(u64::from(self.kinds)) {
            let (touched, marks) = &mut self.marks[kind as usize];
            for a in Squares(*touched) {
                marks[a as usize] = [0; 2];
            }
            *touched = 0;
        }
        self.kinds = 0;
        self.done.clear();
    }

    /// Becomes a copy of `other`, in its own buffers (a D8 branch).
    ///
    /// The fired marks are copied to keep the branch a faithful copy, but no branch can
    /// read them, which is why no test tells the copy from a branch without them: a
    /// branch starts while pawn events fire (only a pawn defender makes a pawn), and pawn
    /// events fire before all others, so every event fired before it is a pawn event
    /// `(a, c, pawn)`. Pushing that event again needs the piece on `a` to become a pawn
    /// again, so to stop being one in between. While pawn events fire, a pawn changes
    /// kind only by promoting, which a pawn does the moment it becomes one on its last
    /// rank; the pawn on `a` already was one and defended forward, so it stands short of
    /// that rank. Once the pawn events are spent no new one comes: a firing makes a piece
    /// of the defender's kind, and a promotion a piece other than a pawn.
    fn copy_from(&mut self, other: &Cascade) {
        self.reset(&other.pos);
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            mine.clone_from(theirs);
        }
        self.nonempty = other.nonempty;
        for kind in Squares(u64::from(other.kinds)) {
            let (touched, marks) = &other.marks[kind as usize];
            let (mine, my_marks) = &mut self.marks[kind as usize];
            for a in Squares(*touched) {
                my_marks[a as usize] = marks[a as usize];
            }
            *mine = *touched;
        }
        self.kinds = other.kinds;
        self.done.clone_from(&other.done);
    }

    /// The queued and fired bitsets of the defender square `a` for `kind` (noted as
    /// touched).
    #[inline]
    fn marks(&mut self, kind: Kind, a: Square) -> &mut [Bitboard; 2] {
        self.kinds |= 1 << kind as u32;
        let (touched, marks) = &mut self.marks[kind as usize];
        *touched |= bb(a);
        &mut marks[a as usize]
    }

    fn push(&mut self, a: Square, b: Square, kind: Kind) {
        let bit = bb(b);
        let m = self.marks(kind, a);
        if (m[QUEUED] | m[FIRED]) & bit == 0 {
            m[QUEUED] |= bit;
            let level = kind.info().strength as usize % LEVELS;
            self.buckets[level].push((a, b, kind));
            self.nonempty |= 1 << level;
        }
    }

    /// Takes the next event of the weakest pending strength.
    fn pop(&mut self) -> Option<(Square, Square, Kind)> {
        if self.nonempty == 0 {
            return None;
        }
        let level = self.nonempty.trailing_zeros() as usize;
        let e = self.buckets[level].pop().expect("a marked stack is not empty");
        if self.buckets[level].is_empty() {
            self.nonempty &= !(1 << level);
        }
        self.marks(e.2, e.0)[QUEUED] &= !bb(e.1);
        Some(e)
    }

    /// The relations in which the piece on `s` now defends are new events.
    fn add_events(&mut self, s: Square) {
        let kind = self.pos.board.kind_at(s).expect("occupied");
        for b in Squares(defended(&self.pos, s)) {
            self.push(s, b, kind);
        }
    }
}

/// The squares of a set, highest first.
fn descending(mut set: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let s = 63 - set.leading_zeros() as Square;
        set &= !bb(s);
        Some(s)
    })
}

/// Runs the cascade after a move from `before` to `after`, where the pieces that moved
/// stand on `moved`; calls `f` with each outcome (one per D8 choice sequence) and the
/// transformations in firing order.
fn cascade(
    st: &mut Cascade,
    before: &Defences,
    after: &Position,
    moved: Bitboard,
    rules: &Rules,
    f: &mut impl FnMut(&Position, &[Transformation]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let board = &after.board;
    // The new relations of the piece on `a`, with its kind.
    let new_events = |a: Square| {
        let now = defended(after, a);
        let kind = board.kind_at(a).expect("occupied");
        if moved & bb(a) != 0 {
            (now, kind)
        } else {
            // The same piece stood on `a` before the move.
            (now & (moved | !before.defends[a as usize]), kind)
        }
    };
    // Only the pieces that moved, and those that attacked a moved or vacated square
    // before the move, can have new relations. For another piece on `a` (the same as
    // before), a new relation to `b` means `b` is attacked now but was not before, or `b`
    // moved. Either way, unless `b` was attacked before, a line from `a` to `b` was
    // blocked before and is open now (leaps do not depend on the board); its occupied
    // square nearest to `a` was attacked before and is empty now.
    let changed = moved | (before.occupied & !board.occupied());
    let mut cand = moved & board.occupied();
    for a in Squares(board.occupied() & !moved) {
        if before.attacks[a as usize] & changed != 0 {
            cand |= bb(a);
        }
    }
    // Most cascades change nothing: when every event's defended piece already has the
    // defender's kind, no event transforms, so no kind ever changes and no event is added
    // (by induction over the firings): the outcome is `after` itself.
    let inert = Squares(cand).all(|a| {
        let (new, kind) = new_events(a);
        Squares(new).all(|b| board.kind_at(b) == Some(kind))
    });
    if inert {
        return f(after, &[]);
    }
    st.reset(after);
    // Pushed in descending square order so that buckets pop in ascending order.
    for a in descending(cand) {
        let (new, kind) = new_events(a);
        for b in descending(new) {
            st.push(a, b, kind);
        }
    }
    run(st, rules, f)
}

fn run(
    st: &mut Cascade,
    rules: &Rules,
    f: &mut impl FnMut(&Position, &[Transformation]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    while let Some((a, b, kind)) = st.pop() {
        if st.pos.board.kind_at(a) != Some(kind) {
            continue; // dropped, not fired (D17)
        }
        st.marks(kind, a)[FIRED] |= bb(b);
        let Some(target) = st.pos.board.get(b) else {
            continue;
        };
        if target.kind == Kind::King || target.kind == kind {
            continue;
        }
        st.pos.transform(b, kind);
        st.done.push((b, kind));
        let last_rank = target.color.relative_rank(b) == 7;
        if kind == Kind::Pawn && last_rank && !rules.promotions().is_empty() {
            // D8: the pawn promotes at once; each choice is a separate outcome.
            for &k in rules.promotions() {
                let mut branch = Scratch::<Box<Cascade>>::take();
                branch.copy_from(st);
                branch.pos.transform(b, k);
                branch.done.push((b, k));
                branch.add_events(b);
                run(&mut branch, rules, f)?;
            }
            return ControlFlow::Continue(());
        }
        st.add_events(b);
    }
    f(&st.pos, &st.done)
}

/// The squares the pieces that moved stand on after a leader and its chain.
fn moved_squares(pos: &Position, m: Move, steps: &[kazan::Follow]) -> Bitboard {
    let mut moved = if m.kind == MoveKind::Castle {
        let wing = if m.to > m.from { 0 } else { 1 };
        let (_, kt, _, rt, _) = CASTLINGS[pos.side.idx()][wing];
        bb(kt) | bb(rt)
    } else {
        bb(m.to)
    };
    for &(from, to, _) in steps {
        moved = (moved & !bb(from)) | bb(to);
    }
    moved
}

/// The last pawn two-step of a move (leader or follower): the square passed over and the
/// square the pawn stands on, or `None`.
fn last_double(pos: &Position, m: Move, steps: &[kazan::Follow]) -> Option<(Square, Square)> {
    let mut out = None;
    if m.kind == MoveKind::DoublePush {
        out = Some((((m.from as i8 + m.to as i8) / 2) as Square, m.to));
    }
    for &(from, to, _) in steps {
        let pawn = pos.board.kind_at(from) == Some(Kind::Pawn);
        if pawn && (to as i8 - from as i8).abs() == 16 {
            out = Some((((from as i8 + to as i8) / 2) as Square, to));
        }
    }
    out
}

/// Enumerates every Tatarstan move of the side to move (legal or not) from the leader `m`:
/// the move, its final position, the chain steps and the transformations. Chains that end
/// on the same board with the same pieces moved have the same cascade, so one whose
/// (board, moved pieces) key is already in `seen` is skipped: per leader, that only drops
/// repeats of outcomes already given; a caller that wants each final position once may
/// share `seen` across the leaders of a position.
fn each_move(
    pos: &Position,
    before: &Defences,
    rules: &Rules,
    chains: bool,
    leader: Move,
    seen: &mut IdSet,
    f: &mut impl FnMut(Move, &Position, &[kazan::Follow], &[Transformation]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut st = Scratch::<Box<Cascade>>::take();
    // With the mover's units of one kind (`kazan::one_kind`), the cascade does not depend
    // on which of them moved: the opponent's relations are new or not by the boards alone.
    let one_kind = kazan::one_kind(pos).is_some();
    let mut body = |m: Move, after: &Position, steps: &[kazan::Follow]| {
        let moved = moved_squares(pos, m, steps);
        let key = if one_kind { 0 } else { moved.wrapping_mul(0x9E37_79B9_7F4A_7C15) };
        if !seen.insert(after.hash ^ key) {
            return ControlFlow::Continue(());
        }
        // The en-passant right needs the two-step pawn to be a pawn after the cascade.
        let double = last_double(pos, m, steps);
        let mut index = 0u32;
        cascade(&mut st, before, after, moved, rules, &mut |fin, done| {
            let mut fin = *fin;
            let ep = match double {
                Some((ep, at)) if fin.board.kind_at(at) == Some(Kind::Pawn) => ep,
                _ => NO_SQUARE,
            };
            fin.set_en_passant(ep);
            let chain = m.chain | (index << CHAIN_BITS);
            index += 1;
            f(Move { chain, ..m }, &fin, steps, done)
        })
    };
    if chains {
        kazan::each_chain(pos, rules, leader, &mut |m, after, steps| {
            if m.chain > CHAIN_MASK {
                // More chain choices than the move encoding holds: never met in practice
                // (it needs over 16 million same-kind choice combinations).
                return ControlFlow::Continue(());
            }
            body(m, after, steps)
        })
    } else {
        let after = pos.make(leader);
        body(leader, &after, &[])
    }
}

/// Every legal Tatarstan move with its result, each distinct result once.
fn for_each_legal<F>(pos: &Position, rules: &Rules, chains: bool, mut f: F) -> ControlFlow<()>
where
    F: FnMut(Move, &Position) -> ControlFlow<()>,
{
    let mut seen = Scratch::<IdSet>::take();
    // Shared by the leaders: a (board, moved pieces) pair met again gives only final
    // positions already given.
    let mut cascaded = Scratch::<IdSet>::take();
    let before = defences(pos);
    orthodox::each_pseudo_legal(pos, rules, &mut |leader| {
        each_move(pos, &before, rules, chains, leader, &mut cascaded, &mut |m, fin, _, _| {
            if !orthodox::is_legal_child(fin) || !seen.insert(fin.hash) {
                return ControlFlow::Continue(());
            }
            f(m, fin)
        })
    })
}

/// Replays a move (leader + chain choices + cascade outcome): the final position and,
/// when `with_effects`, its effects; `None` when it does not fit the position (legality
/// is not checked).
fn replay(
    pos: &Position,
    rules: &Rules,
    chains: bool,
    m: Move,
    with_effects: bool,
) -> Option<(Position, Option<Effects>)> {
    let leader = Move { chain: 0, ..m };
    if !orthodox::is_pseudo_legal(pos, rules, leader) {
        return None;
    }
    let mut out = None;
    let before = defences(pos);
    let _ = each_move(
        pos,
        &before,
        rules,
        chains,
        leader,
        &mut Scratch::<IdSet>::take(),
        &mut |x, fin, steps, done| {
            if x.chain == m.chain {
                let effects = with_effects.then(|| kazan::chain_effects(pos, x, steps, done));
                out = Some((*fin, effects));
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    out
}

fn moves_with_effects(pos: &Position, rules: &Rules, chains: bool) -> Vec<(Position, Effects)> {
    let mut v = vec![];
    let before = defences(pos);
    let _ = orthodox::each_pseudo_legal(pos, rules, &mut |leader| {
        each_move(
            pos,
            &before,
            rules,
            chains,
            leader,
            &mut IdSet::default(),
            &mut |m, fin, steps, done| {
                v.push((*fin, kazan::chain_effects(pos, m, steps, done)));
                ControlFlow::Continue(())
            },
        )
    });
    v
}

#[cfg(test)]
mod tests {
    use crate::output::notation::{Style, move_text};
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    /// (move text, resulting FEN) of the legal moves whose text starts with `prefix`.
    fn play(cond: Condition, fen: &str, prefix: &str) -> Vec<(String, String)> {
        let pos = Position::from_fen(fen).unwrap();
        let r = Rules::new(cond);
        let mut v: Vec<(String, String)> = r
            .legal_moves(&pos)
            .into_iter()
            .map(|(m, c)| (move_text(&r, &pos, m, &c, Style::Long), c.to_fen()))
            .filter(|(t, _)| t.starts_with(prefix))
            .collect();
        v.sort();
        v
    }

    fn one(cond: Condition, fen: &str, prefix: &str) -> (String, String) {
        let v = play(cond, fen, prefix);
        assert_eq!(v.len(), 1, "{prefix}: {v:?}");
        v[0].clone()
    }

    const OFF: Condition = Condition::TatarstanNoChains;

    #[test]
    fn the_moved_piece_is_transformed_by_its_defender() {
        // The knight lands on e5, defended by the pawn d4: it becomes a pawn.
        let (t, fen) = one(OFF, "7k/8/8/8/2NP4/8/8/7K w - - 0 1", "Sc4-e5");
        assert_eq!(t, "Sc4-e5 (e5=P)");
        assert_eq!(fen, "7k/8/8/4P3/3P4/8/8/7K b - - 0 1");
    }

    #[test]
    fn a_discovered_defence_and_a_check_by_transformation() {
        // Sb1 leaves: the rook a1 now defends the bishop d1 (a discovered defence) and the
        // knight on a3 (the moved piece). Both become rooks; the new rook d1 checks d8.
        let (t, fen) = one(OFF, "3k4/8/8/8/8/8/7K/RN1B4 w - - 0 1", "Sb1-a3");
        assert_eq!(t, "Sb1-a3 (d1=R, a3=R) +");
        assert_eq!(fen, "3k4/8/8/8/8/R7/7K/R2R4 b - - 0 1");
    }

    #[test]
    fn a_capture_opens_a_line_between_the_opponents_pieces() {
        // Sd5xf6 vacates d5: the black rook a5 now defends the black knight h5, which
        // becomes a rook (both colours' events count, D7).
        let (t, fen) = one(OFF, "k7/8/5b2/r2N3n/8/8/8/1K6 w - - 0 1", "Sd5*f6");
        assert_eq!(t, "Sd5*f6 (h5=R)");
        assert_eq!(fen, "k7/8/5N2/r6r/8/8/8/1K6 b - - 0 1");
        // With the white king on h1 the new rook h5 would attack it: the move is illegal.
        assert!(play(OFF, "k7/8/5b2/r2N3n/8/8/8/7K w - - 0 1", "Sd5*f6").is_empty());
    }

    #[test]
    fn the_weakest_defender_fires_first() {
        // The rook on e2 is newly defended by the knight c3 and the bishop f1: the knight
        // event fires first (e2=S), then the bishop event (e2=B).
        let (t, fen) = one(OFF, "7k/8/8/8/8/2N5/R7/5B1K w - - 0 1", "Ra2-e2");
        assert_eq!(t, "Ra2-e2 (e2=S, e2=B)");
        assert_eq!(fen, "7k/8/8/8/8/2N5/4B3/5B1K b - - 0 1");
    }

    #[test]
    fn a_chain_of_transformations() {
        // Sf5-d4: d4 is defended by the pawn c3 and becomes a pawn, which defends e5, which
        // becomes a pawn and defends f6, which defends g7. The bishop's event (e5 defends
        // d4) is dropped: e5 is no longer a bishop when its turn comes.
        let (t, fen) = one(OFF, "k7/6Q1/5R2/4BN2/8/2P5/8/K7 w - - 0 1", "Sf5-d4");
        assert_eq!(t, "Sf5-d4 (d4=P, e5=P, f6=P, g7=P)");
        assert_eq!(fen, "k7/6P1/5P2/4P3/3P4/2P5/8/K7 b - - 0 1");
    }

    #[test]
    fn a_pawn_on_its_last_rank_promotes() {
        // c6-c7 defends the rook d8, which becomes a pawn on the last rank and promotes
        // (D8): four moves. The new queen (bishop) defends c7 in turn.
        let v = play(OFF, "3R4/8/2P5/8/k7/8/8/7K w - - 0 1", "c6-c7");
        let texts: Vec<&str> = v.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(
            texts,
            [
                "c6-c7 (d8=P, d8=B, c7=B)",
                "c6-c7 (d8=P, d8=Q, c7=Q)",
                "c6-c7 (d8=P, d8=R)",
                "c6-c7 (d8=P, d8=S)",
            ]
        );
        assert_eq!(v[1].1, "3Q4/2Q5/8/8/k7/8/8/7K b - - 0 1");
    }

    #[test]
    fn a_rook_changed_on_its_corner_loses_castling_for_good() {
        // Sh5-g3 defends h1 (knight) and opens the h-file for the rook h8 (rook). The
        // knight fires first (h1=S), then the rook turns h1 back into a rook: the right
        // to castle short is gone all the same (D13).
        let (t, fen) = one(OFF, "7R/8/k7/7N/8/8/8/4K2R w K - 0 1", "Sh5-g3");
        assert_eq!(t, "Sh5-g3 (h1=S, h1=R)");
        assert_eq!(fen, "7R/8/k7/8/8/6N1/8/4K2R b - - 0 1");
        // Without the cascade the right would stay.
        let pos = Position::from_fen("7R/8/k7/7N/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(pos.castling, crate::position::WHITE_KINGSIDE);
    }

    #[test]
    fn a_transformation_removes_a_check() {
        // White is in check from the bishop b4. Sb6-d5 opens the b-file: the rook b8 now
        // defends b4, which becomes a rook and no longer attacks e1. Legal only thanks to
        // the cascade.
        let fen = "kr6/8/1N6/8/1b6/8/8/4K3 w - - 0 1";
        let (t, after) = one(OFF, fen, "Sb6-d5");
        assert_eq!(t, "Sb6-d5 (b4=R)");
        assert_eq!(after, "kr6/8/8/3N4/1r6/8/8/4K3 b - - 0 1");
        let ortho = Rules::new(Condition::Orthodox);
        let pos = Position::from_fen(fen).unwrap();
        assert!(ortho.legal_moves(&pos).iter().all(|(m, _)| m.from != 41));
    }

    #[test]
    fn the_rook_wave_from_the_initial_array() {
        // Chains off: the knight f3 is defended by e2 and g2 and becomes a pawn; g1's
        // departure lets the rook h1 defend f1, which becomes a rook and defends f2, and the
        // wave of rooks runs over both ranks (see docs/conditions.md for the hand check).
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (_, fen) = one(OFF, start, "Sg1-f3");
        assert_eq!(
            fen,
            "rnbqkbnr/pppppppp/8/8/8/5R2/RRRRRRRR/RRRRKR1R b KQkq - 0 1"
        );
        // Chains on: 1.e2-e4 (Sg1-e2, Rh1-g1), then the knight e2 defends c1 and g1,
        // the new knight c1 defends a2; the bishop f1 defends e2 (moved), which becomes a
        // bishop and turns d1, c2, (through c2-d3) e4, then g2, b1 and a2 into bishops
        // (the order within one kind is chainmate's; D17 makes the result independent).
        let (t, fen) = one(Condition::Tatarstan, start, "e2-e4");
        assert_eq!(
            t,
            "e2-e4 (Sg1-e2, Rh1-g1, c1=S, a2=S, g1=S, e2=B, d1=B, c2=B, e4=B, g2=B, b1=B, a2=B)"
        );
        // The rook a1 and the pawns b2, d2, f2, h2 stay: no new relation reaches them (a1
        // already defended a2 and b1 before the move).
        assert_eq!(
            fen,
            "rnbqkbnr/pppppppp/8/8/4B3/8/BPBPBPBP/RBNBKBN1 b Qkq - 0 1"
        );
    }
}
