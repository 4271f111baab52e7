//! Kazan chess: follow-my-leader chains. A move starts with an orthodox move of the side
//! to move (the *leader*, captures, promotion, en passant and castling included). Then, as
//! long as an own piece that has not moved in this turn can make a non-capturing step of
//! its kind onto the square vacated last, one must (the chain is compulsory): the weakest
//! such piece follows (pawn, knight, bishop, rook, queen, the fairy pieces by class (D4),
//! the king last); between pieces of the same kind the mover chooses, and each choice is a
//! separate move. A pawn follows only straight (one step, or the two-step from its second
//! rank over an empty square); one arriving on its last rank promotes, the mover choosing
//! the piece (D5). Castling vacates two squares; the weakest piece able to step onto either
//! follows. Each piece moves at most once per turn. Check is judged after the whole chain,
//! so a pinned piece may lead when its follower closes the line again; a chain that ends
//! with the own king attacked makes the leader illegal. Attacks are orthodox single
//! captures (chains never capture). The last two-step of the move gives en-passant rights.
//!
//! A move is stored as its leader plus `Move::chain`, the number of its chain in the
//! (deterministic) enumeration of the leader's chains; the chain is replayed from it
//! (`play`, notation), so the move stays small.

use super::{IdSet, KeySet, Rules, Scratch, orthodox};
use crate::core::bitboard::KING;
use crate::core::board::piece_attacks;
use crate::core::{Bitboard, Kind, NO_SQUARE, Square, Squares, bb};
use crate::moves::{Effect, Effects, Move, MoveKind, Step};
use crate::position::{CASTLINGS, Position};
use std::ops::ControlFlow;

/// Kazan chess.
pub struct Kazan;

impl super::ConditionRules for Kazan {
    const NAME: &'static str = "kazan";
    const ALIASES: &'static [&'static str] = &["kazan", "kazanchess"];
    const TITLE: Option<&'static str> = Some("Kazan Chess");
    const REFILLS_DOUBLE_STEP_ORIGIN: bool = true;
    /// A chain moves several pieces in one move, but each at most once a turn, with a move
    /// of its kind (a follower's is non-capturing, a pawn's straight), and attacks stay
    /// orthodox: each piece is still bound by its side's moves left, so the king-square cut
    /// holds with each piece given all of them. Not shared: the one-final-position cut and
    /// the one-mover rule. Not the immobile test: a free piece may have only leaders whose
    /// compulsory chain exposes the king. (`docs/solving.md`, "Under the conditions".)
    const HELP_CUTS: super::HelpCuts = super::HelpCuts {
        final_position: true,
        immobile: false,
        shared_moves: false,
        standing_checks: false,
        walls: false,
    };

    fn for_each_legal<F>(pos: &Position, rules: &Rules, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        for_each_legal(pos, rules, f)
    }

    fn effects(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Effects)> {
        let (fin, chain) = replay(pos, rules, m)?;
        Some((fin, chain_effects(pos, m, &chain, &[])))
    }

    fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
        replay(pos, rules, m).is_some()
    }

    fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
        play(pos, rules, m)
    }

    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        count_legal(pos, rules)
    }

    fn moves_with_effects(pos: &Position, rules: &Rules) -> Vec<(Position, Effects)> {
        let mut v = vec![];
        let _ = orthodox::each_pseudo_legal(pos, rules, &mut |leader| {
            each_chain(pos, rules, leader, &mut |m, fin, chain| {
                v.push((*fin, chain_effects(pos, m, chain, &[])));
                ControlFlow::Continue(())
            })
        });
        v
    }
}

/// The effects of a leader, its chain and the transformations after it (Tatarstan).
pub(crate) fn chain_effects(
    pos: &Position,
    m: Move,
    chain: &[Follow],
    transformations: &[(Square, Kind)],
) -> Effects {
    let leader = Move { chain: 0, ..m };
    let mut e = super::leader_effects(pos, leader);
    let mut board = pos.make(leader);
    for &(from, to, promo) in chain {
        let kind = board.board.kind_at(from).unwrap_or(Kind::Pawn);
        board.step(from, to, promo);
        e.effects.push(Effect::Step(Step {
            from,
            to,
            kind,
            promo,
            capture: false,
            castle: false,
        }));
    }
    e.effects.extend(
        transformations
            .iter()
            .map(|&(at, kind)| Effect::Transform { at, kind }),
    );
    e
}

/// One follower step as the chain walk records it: (from, to, promotion).
pub type Follow = (Square, Square, Option<Kind>);

/// Squares the leader vacated and the pieces that have moved (by their squares now).
fn after_leader(pos: &Position, m: Move) -> (Position, [Square; 2], Bitboard, Square) {
    let child = pos.make(m);
    let us = pos.side;
    let (vacated, moved) = if m.kind == MoveKind::Castle {
        let wing = if m.to > m.from { 0 } else { 1 };
        let (kf, kt, rf, rt, _) = CASTLINGS[us.idx()][wing];
        ([kf, rf], bb(kt) | bb(rt))
    } else {
        ([m.from, NO_SQUARE], bb(m.to))
    };
    let double = match m.kind {
        MoveKind::DoublePush => ((m.from as i8 + m.to as i8) / 2) as Square,
        _ => NO_SQUARE,
    };
    (child, vacated, moved, double)
}

/// The choices at one point of the chain (see [`options`]): per vacated square, the
/// squares of the pieces that may follow onto it (two sets rather than a sorted list of
/// pairs returned by value: BENCHMARKS.md, "a chain point's choices as two sets").
struct Options {
    onto: [Square; 2],
    from: [Bitboard; 2],
}

impl Options {
    fn is_empty(&self) -> bool {
        self.from[0] | self.from[1] == 0
    }

    /// The only choice, where there is one: one follower, onto one of the squares.
    fn single(&self) -> Option<(Square, Square)> {
        let all = self.from[0] | self.from[1];
        if all.count_ones() != 1 || self.from[0] != 0 && self.from[1] != 0 {
            return None;
        }
        let i = usize::from(self.from[0] == 0);
        Some((all.trailing_zeros() as Square, self.onto[i]))
    }

    /// The choices as (follower square, target square), in that order of the pairs.
    fn each(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        // The vacated squares in ascending order (an unused one has no followers).
        let order = if self.onto[0] <= self.onto[1] {
            [0, 1]
        } else {
            [1, 0]
        };
        Squares(self.from[0] | self.from[1]).flat_map(move |s| {
            order
                .into_iter()
                .filter(move |&i| self.from[i] & bb(s) != 0)
                .map(move |i| (s, self.onto[i]))
        })
    }
}

/// Own unmoved pawns that can step straight onto the empty square `v` (one step, or the
/// two-step from the second rank over an empty square).
fn pawn_followers(pos: &Position, mover: crate::core::Color, v: Square, pawns: Bitboard) -> Bitboard {
    let fwd = mover.forward();
    let mut out = 0;
    let one = v as i8 - fwd;
    if (0..64).contains(&one) && mover.relative_rank(one as Square) < 7 {
        out |= pawns & bb(one as Square);
        let two = one - fwd;
        if (0..64).contains(&two)
            && mover.relative_rank(two as Square) == 1
            && pos.board.is_empty(one as Square)
        {
            out |= pawns & bb(two as Square);
        }
    }
    out
}

/// The choices at one point of the chain: (follower square, target square) of the own
/// unmoved pieces of the weakest strength that can step onto a vacated (empty) square,
/// in square order; empty when the chain ends. Looked up from the vacated squares: a
/// piece other than a pawn steps from `s` to `v` exactly when one of its kind on `v`
/// could step to `s` (every walk of the table is symmetric), so the pieces that can step
/// onto `v` are those of each movement part that part reaches from `v`
/// ([`Board::attackers_to`] less the pawns, which follow only straight), all found at
/// once; the weakest among them are chosen from.
fn options(pos: &Position, mover: crate::core::Color, vacated: [Square; 2], moved: Bitboard) -> Options {
    let board = &pos.board;
    let occ = board.occupied();
    let mut out = Options {
        onto: vacated,
        from: [0; 2],
    };
    let own = board.by_color[mover.idx()] & !moved;
    let pawns = own & board.by_part[crate::core::board::PAWN_IDX];
    for (i, &v) in vacated.iter().enumerate() {
        if v != NO_SQUARE && board.is_empty(v) {
            out.from[i] = pawn_followers(pos, mover, v, pawns)
                | board.attackers_to(v, mover, occ) & own & !pawns;
        }
    }
    let all = out.from[0] | out.from[1];
    if all & pawns != 0 {
        // Pawns are the weakest.
        out.from = out.from.map(|f| f & pawns);
    } else if all.count_ones() > 1 {
        // The weakest strength met so far, and its pieces.
        let (mut weakest, mut keep) = (u8::MAX, 0);
        for s in Squares(all) {
            let strength = board.kind_at(s).expect("occupied").info().strength;
            if strength < weakest {
                (weakest, keep) = (strength, 0);
            }
            if strength == weakest {
                keep |= bb(s);
            }
        }
        out.from = out.from.map(|f| f & keep);
    }
    out
}

/// Enumerates every chain after the leader `m`: calls `f` with the move (leader + chain
/// number), the final position and the steps. A chain state (board, vacated squares, moved
/// pieces, last two-step) reached a second time by another order of same-kind followers is
/// not expanded again: its continuations are the ones already enumerated. Without this the
/// enumeration is exponential in crowded positions (an army of queens in Tatarstan chess).
/// `Move::chain` numbers the chains in enumeration order.
pub(crate) fn each_chain(
    pos: &Position,
    rules: &Rules,
    m: Move,
    f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    Chains::new(pos).each(pos, rules, m, f)
}

/// What the chain walks of one position's leaders share: the buffers, and the one-kind
/// walk where it applies ([`OneKind`]).
pub(crate) struct Chains {
    bufs: Scratch<ChainBufs>,
    one_kind: Option<OneKind>,
}

impl Chains {
    pub(crate) fn new(pos: &Position) -> Chains {
        Chains {
            bufs: Scratch::take(),
            one_kind: OneKind::of(pos),
        }
    }

    /// The walks without the [`OneKind`] walk (to test it against).
    #[cfg(test)]
    fn general(pos: &Position) -> Chains {
        Chains {
            one_kind: None,
            ..Chains::new(pos)
        }
    }

    /// [`each_chain`] for a leader of the position the walks were made for.
    pub(crate) fn each(
        &mut self,
        pos: &Position,
        rules: &Rules,
        m: Move,
        f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        use super::Reusable;
        self.bufs.reset();
        let (child, vacated, moved, double) = after_leader(pos, m);
        if let Some(one) = &self.one_kind
            && m.kind == MoveKind::Normal
        {
            return one.walk(m, &child, &mut self.bufs, f);
        }
        let mut walk = Walk {
            bufs: &mut self.bufs,
            count: 0,
        };
        extend(pos, rules, m, child, vacated, moved, double, &mut walk, f)
    }
}

/// The kind and squares of the units of the side to move, its king aside, when they are
/// all of one kind other than the pawn and the king is on the board (no move then changes
/// their kind: no promotion, and a defence between two of them transforms nothing).
pub(crate) fn one_kind(pos: &Position) -> Option<(Kind, Bitboard)> {
    let board = &pos.board;
    let king = pos.king(pos.side);
    if king == NO_SQUARE {
        return None;
    }
    let units = board.by_color[pos.side.idx()] & !bb(king);
    let kind = board.kind_at(Squares(units).next()?)?;
    let same = Squares(units).all(|s| board.kind_at(s) == Some(kind));
    (kind != Kind::Pawn && kind != Kind::King && same).then_some((kind, units))
}

/// The chain walk of a side whose units other than the king are all of one kind `K`
/// (not pawns), with no castling right a chain could change: what the cascades of Tatarstan
/// chess make of an army. Then a leader's chain results differ only by the square left
/// empty at the end (the *hole*) and where the king stands, so the walk keeps, per king
/// square, the holes of the results given so far, gives each result once (its first chain
/// in the general walk's order, `extend`) and skips every state whose results are all
/// given already.
///
/// Why: during a chain the mover's squares with the hole filled stay those after the
/// leader plus its origin (`fill`: each step fills the hole and leaves the follower's
/// square as the new hole), so the board is fixed by the hole and the king's square (the
/// castling rights cannot change, and without pawns there is no two-step). From a state
/// with hole `h`, the later holes are among the squares `reach` finds from `h`: `h` and
/// the unmoved units that can step onto one of them, and so on. While the king stays, a
/// state is skipped when every such square is the hole of a result given with the king
/// where it stands. That covers the king's moves too: a result with the king unmoved on
/// `k` never has its hole next to `k` (the king would have followed), so then no later
/// hole is next to `k` and the king never follows; and once it has moved, it stays.
/// The units that no later hole can call (outside `reach` from `h`, and from the king's
/// square when the king may follow) never move again, so a state is known by its hole, its
/// king square and the other unmoved units; a state met again is skipped (as the general
/// walk does), since its continuations are the ones already walked.
///
/// Tatarstan chess walks its chains here too, and may: with the mover's units all of one
/// kind (a cascade or a chain never makes another kind of them: no pawns, and kings do not
/// change), a defence between them transforms nothing, so the cascade after a chain
/// depends on the board alone, not on which units moved.
///
/// Tested against the general walk (same results, first chains, order) on random armies,
/// and against the independent reference generator of `tests/reference_conditions.rs`.
pub(crate) struct OneKind {
    us: crate::core::Color,
    kind: Kind,
    /// The mover's `K` units when the walks start.
    units: Bitboard,
}

impl OneKind {
    fn of(pos: &Position) -> Option<OneKind> {
        let us = pos.side;
        let (kind, units) = one_kind(pos)?;
        let own = pos.board.by_color[us.idx()];
        let mut castling = pos.castling;
        for s in Squares(own) {
            castling &= crate::position::CASTLE_MASK[s as usize];
        }
        (castling == pos.castling).then_some(OneKind { us, kind, units })
    }

    /// Every result of the leader `m` (a plain move or capture) once, as `each` gives them.
    fn walk(
        &self,
        m: Move,
        child: &Position,
        bufs: &mut ChainBufs,
        f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let king = child.king(self.us);
        let king_led = king == m.to;
        let units = self.units & !bb(m.from);
        let mut w = OneWalk {
            one: self,
            m,
            child,
            units,
            fill: child.board.occupied() | bb(m.from),
            follow: [0; 64],
            known: 0,
            found: [0; 64],
            count: 0,
            bufs,
        };
        w.extend(units, m.from, king, !king_led, f)
    }
}

/// The state of one [`OneKind`] walk.
struct OneWalk<'a, 'b> {
    one: &'a OneKind,
    m: Move,
    child: &'a Position,
    /// The `K` units that may follow (the leader excluded).
    units: Bitboard,
    /// The occupied squares with the hole filled.
    fill: Bitboard,
    /// Per hole, the units that can step onto it (computed when first asked, `known`).
    follow: [Bitboard; 64],
    known: Bitboard,
    /// Per king square, the holes of the results given.
    found: [Bitboard; 64],
    count: u32,
    bufs: &'b mut ChainBufs,
}

impl OneWalk<'_, '_> {
    fn followers(&mut self, h: Square) -> Bitboard {
        if self.known & bb(h) == 0 {
            let occ = self.fill & !bb(h);
            let (us, kind) = (self.one.us, self.one.kind);
            self.follow[h as usize] = piece_attacks(h, us, kind, occ) & self.units;
            self.known |= bb(h);
        }
        self.follow[h as usize]
    }

    /// The squares that can become the hole from the holes `from`: closed under stepping
    /// back to the unmoved units that can step onto one of them.
    fn reach(&mut self, unmoved: Bitboard, from: Bitboard) -> Bitboard {
        let (mut r, mut frontier) = (from, from);
        while frontier != 0 {
            let mut next = 0;
            for x in Squares(frontier) {
                next |= self.followers(x) & unmoved;
            }
            frontier = next & !r;
            r |= frontier;
        }
        r
    }

    /// An exact key of the state: the unmoved units, the hole and the king's square (which
    /// tells whether it moved).
    fn key(unmoved: Bitboard, h: Square, k: Square) -> u128 {
        u128::from(unmoved) | u128::from(h) << 64 | u128::from(k) << 72
    }

    fn extend(
        &mut self,
        unmoved: Bitboard,
        h: Square,
        k: Square,
        king_free: bool,
        f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let opts = self.followers(h) & unmoved;
        if opts == 0 {
            if king_free && KING[h as usize] & bb(k) != 0 {
                // The king follows (the strongest, so only when no unit can).
                self.bufs.steps.push((k, h, None));
                self.extend(unmoved, k, h, false, f)?;
                self.bufs.steps.pop();
                return ControlFlow::Continue(());
            }
            return self.end(h, k, f);
        }
        let holes = self.reach(unmoved, bb(h));
        let after = if king_free && holes & KING[k as usize] != 0 {
            holes | self.reach(unmoved, bb(k))
        } else {
            holes
        };
        let unmoved = unmoved & after;
        if holes & !self.found[k as usize] == 0 || !self.bufs.states.insert(Self::key(unmoved, h, k))
        {
            return ControlFlow::Continue(());
        }
        for s in Squares(opts) {
            self.bufs.steps.push((s, h, None));
            self.extend(unmoved & !bb(s), s, k, king_free, f)?;
            self.bufs.steps.pop();
        }
        ControlFlow::Continue(())
    }

    /// A chain ends with the hole `h` and the king on `k`: its result, if not given yet.
    fn end(
        &mut self,
        h: Square,
        k: Square,
        f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.found[k as usize] & bb(h) != 0 {
            return ControlFlow::Continue(());
        }
        self.found[k as usize] |= bb(h);
        let mut fin = *self.child;
        for &(s, v, promo) in &self.bufs.steps {
            fin.step(s, v, promo);
        }
        fin.set_en_passant(NO_SQUARE);
        let chain = self.count;
        self.count += 1;
        f(Move { chain, ..self.m }, &fin, &self.bufs.steps)
    }
}

/// The state of one chain enumeration.
struct Walk<'a> {
    bufs: &'a mut ChainBufs,
    count: u32,
}

/// The buffers of a chain enumeration: the steps so far and the chain states expanded.
#[derive(Default)]
struct ChainBufs {
    steps: Vec<Follow>,
    seen: IdSet,
    /// The states of the one-kind walk ([`OneWalk::key`]).
    states: KeySet,
}

super::reusable!(ChainBufs, |b| {
    b.steps.clear();
    b.seen.reset();
    b.states.reset();
});

fn state_key(cur: &Position, vacated: [Square; 2], moved: Bitboard, double: Square) -> u64 {
    let mut h = cur.hash ^ moved.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = h.rotate_left(17) ^ (vacated[0] as u64) ^ ((vacated[1] as u64) << 8);
    h ^ ((double as u64) << 16).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Walks the chains from the chain point `cur` (the board after the steps so far, the
/// squares just vacated, the pieces that have moved, the last two-step's square): calls
/// `f` at each chain's end. A point with one choice (one follower, not promoting) is
/// stepped in place, without a copy of the position; a point with more branches
/// ([`branch`]).
#[allow(clippy::too_many_arguments)]
fn extend(
    pos: &Position,
    rules: &Rules,
    m: Move,
    mut cur: Position,
    mut vacated: [Square; 2],
    mut moved: Bitboard,
    mut double: Square,
    walk: &mut Walk<'_>,
    f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mover = pos.side;
    let depth = walk.bufs.steps.len();
    let flow = loop {
        let opts = options(&cur, mover, vacated, moved);
        if opts.is_empty() {
            cur.set_en_passant(double);
            let chain = walk.count;
            walk.count += 1;
            break f(Move { chain, ..m }, &cur, &walk.bufs.steps);
        }
        // A state recurs only after two followers or more: the leader's state is the walk's
        // first, and after one follower the follower's empty square tells the choices apart
        // (a promotion choice, the new piece).
        if walk.bufs.steps.len() >= 2
            && !walk.bufs.seen.insert(state_key(&cur, vacated, moved, double))
        {
            break ControlFlow::Continue(());
        }
        let single = opts.single().map(|sv| (sv, follower_step(&cur, mover, sv, double)));
        match single {
            Some(((s, v), (false, next_double))) => {
                double = next_double;
                cur.step(s, v, None);
                walk.bufs.steps.push((s, v, None));
                (vacated, moved) = ([s, NO_SQUARE], (moved & !bb(s)) | bb(v));
            }
            _ => break branch(pos, rules, m, &cur, &opts, (moved, double), walk, f),
        }
    };
    walk.bufs.steps.truncate(depth);
    flow
}

/// The follower on `s` stepping to `v`: does it promote, and the last two-step's square
/// after it (its kind read once).
fn follower_step(
    cur: &Position,
    mover: crate::core::Color,
    (s, v): (Square, Square),
    double: Square,
) -> (bool, Square) {
    if cur.board.kind_at(s) != Some(Kind::Pawn) {
        return (false, double);
    }
    if (v as i8 - s as i8).abs() == 16 {
        (false, ((s as i8 + v as i8) / 2) as Square)
    } else {
        (mover.relative_rank(v) == 7, double)
    }
}

/// [`extend`] at a chain point with several choices: each (follower, square, promotion)
/// in turn, on a copy of the position.
#[allow(clippy::too_many_arguments)]
fn branch(
    pos: &Position,
    rules: &Rules,
    m: Move,
    cur: &Position,
    opts: &Options,
    (moved, double): (Bitboard, Square),
    walk: &mut Walk<'_>,
    f: &mut impl FnMut(Move, &Position, &[Follow]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mover = pos.side;
    for (s, v) in opts.each() {
        let (promotes, next_double) = follower_step(cur, mover, (s, v), double);
        let choices = if promotes { rules.promotions().len() } else { 1 };
        for i in 0..choices {
            let promo = promotes.then(|| rules.promotions()[i]);
            let mut next = *cur;
            next.step(s, v, promo);
            walk.bufs.steps.push((s, v, promo));
            extend(
                pos,
                rules,
                m,
                next,
                [s, NO_SQUARE],
                (moved & !bb(s)) | bb(v),
                next_double,
                walk,
                f,
            )?;
            walk.bufs.steps.pop();
        }
    }
    ControlFlow::Continue(())
}

/// The squares onto which some piece of the side to move could make a follower's move
/// (non-capturing, a pawn's straight) on the board as it stands.
///
/// A leader from an own square outside this set has no follower (call it *free*): after
/// the leader's move the vacated square is looked at from the same pieces, on a board that
/// differs only by the vacated square itself (which a move onto it does not pass) and the
/// leader's new square (which can only close a line), so no piece can step onto it then
/// either. Its move is an orthodox move, legal when the own king is safe after it. En
/// passant (the captured pawn's square may open a line) and castling (two squares) are not
/// covered. A free move's result is never another move's: two free moves differ in their
/// squares, and a chained move ending with the free move's position would need every piece
/// of the chain to be of the leader's kind with its last follower coming from the free
/// move's origin `o`; that follower's square `s` then holds a piece of the same kind that,
/// every walk being symmetric and the squares between `o` and `s` the same on both boards,
/// could step onto `o`, so `o` would not be free. (Pawns cannot form such a chain: a pawn
/// follows straight, and the squares of a straight pawn chain block the direct move.)
fn followable(pos: &Position) -> Bitboard {
    let us = pos.side;
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let occ = board.occupied();
    let pawns = own & board.by_part[crate::core::board::PAWN_IDX];
    let mut out = 0;
    for s in Squares(own & !pawns) {
        let kind = board.kind_at(s).expect("own square is occupied");
        out |= match kind {
            Kind::King => KING[s as usize],
            _ => piece_attacks(s, us, kind, occ),
        };
    }
    // A pawn steps one square forward, or two from its second rank over an empty square.
    let forward = |b: Bitboard| match us {
        crate::core::Color::White => b << 8,
        crate::core::Color::Black => b >> 8,
    };
    let one = forward(pawns);
    let third_rank = match us {
        crate::core::Color::White => 0xFF_0000,
        crate::core::Color::Black => 0xFF00_0000_0000,
    };
    let two = forward(one & third_rank & !occ);
    out | one | two
}

/// Every legal Kazan move with its result, each distinct result once. A free leader (see
/// [`followable`]) is played as it is; the others walk their chains, their results kept
/// apart from one another.
pub fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
where
    F: FnMut(Move, &Position) -> ControlFlow<()>,
{
    let mut walked = Walked::new(pos);
    orthodox::each_pseudo_legal(pos, rules, &mut |leader| {
        if walked.chained(leader) {
            return walked.each(pos, rules, leader, &mut f);
        }
        let (mut fin, _, _, double) = after_leader(pos, leader);
        fin.set_en_passant(double);
        if orthodox::is_legal_child(&fin) {
            f(leader, &fin)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// The leaders of one position that walk their chains (see [`followable`]), with what their
/// walks share and the results already given.
struct Walked {
    slow: Bitboard,
    chains: Option<Chains>,
    seen: Scratch<IdSet>,
}

impl Walked {
    fn new(pos: &Position) -> Walked {
        Walked {
            slow: followable(pos) & pos.board.by_color[pos.side.idx()],
            chains: None,
            seen: Scratch::take(),
        }
    }

    /// Does `leader` need the chain walk: does it start on a followable square, or is it en
    /// passant or castling?
    #[inline]
    fn chained(&self, leader: Move) -> bool {
        self.slow & bb(leader.from) != 0
            || matches!(leader.kind, MoveKind::EnPassant | MoveKind::Castle)
    }

    /// Calls `f` with each legal result of `leader`'s chains not given before.
    fn each(
        &mut self,
        pos: &Position,
        rules: &Rules,
        leader: Move,
        f: &mut impl FnMut(Move, &Position) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let seen = &mut self.seen;
        let chains = self.chains.get_or_insert_with(|| Chains::new(pos));
        chains.each(pos, rules, leader, &mut |m, fin, _| {
            if orthodox::is_legal_child(fin) && seen.insert(fin.hash) {
                f(m, fin)
            } else {
                ControlFlow::Continue(())
            }
        })
    }
}

/// The number of legal Kazan moves: the free leaders' (see [`followable`]) counted as
/// orthodox moves from target sets, the others by walking their chains.
pub fn count_legal(pos: &Position, rules: &Rules) -> u64 {
    let mut n = 0;
    if pos.king(pos.side) == NO_SQUARE {
        let _ = for_each_legal(pos, rules, |_, _| {
            n += 1;
            ControlFlow::Continue(())
        });
        return n;
    }
    let mut walked = Walked::new(pos);
    n += orthodox::count_legal_from(pos, rules, !walked.slow, false);
    let _ = orthodox::each_pseudo_legal(pos, rules, &mut |leader| {
        if walked.chained(leader) {
            let _ = walked.each(pos, rules, leader, &mut |_, _| {
                n += 1;
                ControlFlow::Continue(())
            });
        }
        ControlFlow::Continue(())
    });
    n
}

/// Replays a move (leader + chain choices): the final position and the steps, or `None`
/// when the move does not fit the position (legality is not checked).
pub fn replay(pos: &Position, rules: &Rules, m: Move) -> Option<(Position, Vec<Follow>)> {
    if !orthodox::is_pseudo_legal(pos, rules, Move { chain: 0, ..m }) {
        return None;
    }
    let mut out = None;
    let _ = each_chain(pos, rules, Move { chain: 0, ..m }, &mut |x, fin, steps| {
        if x.chain == m.chain {
            out = Some((*fin, steps.to_vec()));
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    out
}

/// Plays a move if it fits the position and leaves the own king safe.
pub fn play(pos: &Position, rules: &Rules, m: Move) -> Option<Position> {
    replay(pos, rules, m)
        .map(|r| r.0)
        .filter(orthodox::is_legal_child)
}

#[cfg(test)]
mod tests {
    use crate::core::parse_square as sq;
    use crate::output::notation::{Style, move_body};
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    fn texts(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let r = Rules::new(Condition::Kazan);
        r.legal_moves(&pos)
            .into_iter()
            .map(|(m, _)| move_body(&r, &pos, m, Style::Long))
            .collect()
    }

    fn from(fen: &str, prefix: &str) -> Vec<String> {
        let mut v: Vec<String> = texts(fen)
            .into_iter()
            .filter(|t| t.starts_with(prefix))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn chains_of_the_seed_opening() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(texts(start).contains(&"e2-e4 (Sg1-e2, Rh1-g1)".to_string()));
        // after 1.e2-e4 (Sg1-e2, Rh1-g1) e7-e5 (Sg8-e7, Rh8-g8)
        let after = "rnbqkbr1/ppppnppp/8/4p3/4P3/8/PPPPNPPP/RNBQKBR1 w Qq - 0 2";
        assert!(texts(after).contains(&"b2-b3 (Bc1-b2, Se2-c1, Bf1-e2, Rg1-f1)".to_string()));
    }

    /// The choices at one point of a chain come in the order of the follower's square,
    /// then of the square it steps onto (after castling, one queen may follow onto
    /// either vacated square): the chains are numbered, and a result reached twice keeps
    /// its first chain, in that order.
    #[test]
    fn choices_come_in_square_order() {
        let t: Vec<String> = texts("4k3/8/8/8/7Q/8/8/4K2R w K - 0 1")
            .into_iter()
            .filter(|t| t.starts_with("0-0"))
            .collect();
        assert_eq!(t, ["0-0 (Qh4-e1)", "0-0 (Qh4-h1)"]);
    }

    #[test]
    fn a_pinned_piece_moves_when_its_follower_closes_the_line() {
        let t = from("4k3/4r3/8/8/8/8/4B3/4K1N1 w - - 0 1", "Be2");
        assert_eq!(t.len(), 9);
        assert!(t.iter().all(|x| x.ends_with("(Sg1-e2)")), "{t:?}");
    }

    #[test]
    fn a_chain_that_exposes_the_king_makes_the_leader_illegal() {
        // Any rook move is followed by Sd2-b1 (then the king to d2), opening b4-e1 or walking
        // into it; only taking the bishop stays.
        assert_eq!(
            from("4k3/8/8/8/1b6/8/3N4/1R2K3 w - - 0 1", "Rb1"),
            ["Rb1*b4 (Sd2-b1, Ke1-d2)"]
        );
    }

    #[test]
    fn a_piece_moves_once_per_turn() {
        // After Ra1-b1 the rook could step back onto a1, but it has moved: no chain.
        assert_eq!(from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra1-b1"), ["Ra1-b1"]);
    }

    #[test]
    fn castling_is_followed_by_the_weakest_piece() {
        assert_eq!(
            from("4k3/8/8/8/8/5N2/8/4K2R w K - 0 1", "0-0"),
            ["0-0 (Sf3-e1)"]
        );
    }

    #[test]
    fn same_kind_followers_give_separate_moves() {
        let t = from("4k3/8/8/8/8/2N5/5N2/3RK3 w - - 0 1", "Rd1-d5");
        assert_eq!(t, ["Rd1-d5 (Sc3-d1)", "Rd1-d5 (Sf2-d1, Ke1-f2)"]);
    }

    #[test]
    fn follower_pawn_two_step_and_promotion() {
        let pos = Position::from_fen("4k3/8/8/8/3pN3/8/4P3/4K3 w - - 0 1").unwrap();
        let r = Rules::new(Condition::Kazan);
        let (m, child) = r
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| m.to == sq("f6").unwrap())
            .expect("Se4-f6");
        assert_eq!(
            move_body(&r, &pos, m, Style::Long),
            "Se4-f6 (e2-e4, Ke1-e2)"
        );
        assert_eq!(
            child.ep,
            sq("e3").unwrap(),
            "the follower's two-step gives en passant"
        );
        let t = from("R7/P6k/8/8/8/8/8/4K3 w - - 0 1", "Ra8-b8");
        assert_eq!(
            t,
            [
                "Ra8-b8 (a7-a8=B)",
                "Ra8-b8 (a7-a8=Q)",
                "Ra8-b8 (a7-a8=R)",
                "Ra8-b8 (a7-a8=S)"
            ]
        );
    }
}

#[cfg(test)]
mod fairy_order_tests {
    use crate::output::notation::{Style, move_body};
    use crate::position::Position;
    use crate::rules::{Condition, Rules};

    /// D4: fairy pieces follow after the queen (by Pocket Mutation class), so a rook goes
    /// before a nightrider (class 3) and a queen before an empress (class 5).
    #[test]
    fn fairy_followers_come_after_the_queen() {
        let r = Rules::new(Condition::Kazan);
        let texts = |fen: &str| -> Vec<String> {
            let pos = Position::from_fen(fen).unwrap();
            r.legal_moves(&pos)
                .into_iter()
                .map(|(m, _)| move_body(&r, &pos, m, Style::Long))
                .collect()
        };
        // Bd4 leads; both the rook d8 and the nightrider b3 (b3-d4 is a knight step) can
        // step onto d4: the rook follows.
        let t = texts("3R3k/8/8/8/3B4/1(N)6/8/K7 w - - 0 1");
        assert!(t.contains(&"Bd4-e5 (Rd8-d4)".to_string()), "{t:?}");
        // Bd4 leads; queen d1 and empress d8 can both reach d4: the queen follows.
        let t = texts("3(EM)3k/8/8/8/3B4/8/8/K2Q4 w - - 0 1");
        assert!(t.contains(&"Bd4-e5 (Qd1-d4)".to_string()), "{t:?}");
    }

    /// Every leader through the chain walk, each distinct legal result once: the moves as
    /// they were found before free leaders were played directly.
    fn walked(r: &Rules, pos: &Position) -> Vec<(crate::moves::Move, u64)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = vec![];
        let _ = super::orthodox::each_pseudo_legal(pos, r, &mut |leader| {
            super::each_chain(pos, r, leader, &mut |m, fin, _| {
                if super::orthodox::is_legal_child(fin) && seen.insert(fin.hash) {
                    out.push((m, fin.hash));
                }
                std::ops::ControlFlow::Continue(())
            })
        });
        out
    }

    #[test]
    fn free_leaders_give_the_moves_of_the_chain_walk() {
        // Random games from crowded and open roots (castling, en passant, promotions,
        // same-kind armies, fairy followers): at every node the moves played and counted
        // are those of the walk over every leader, in the same order.
        let r = Rules::new(Condition::Kazan);
        let roots = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k3/rr6/8/8/8/2QQ4/1QQQ4/4K2R w Kq - 0 1",
            "3R3k/8/8/8/3B4/1(N)6/8/K7 w - - 0 1",
            "4k3/1P1P4/8/2pP4/8/8/P7/R3K2R w KQ c6 0 1",
            "n1n1k3/PPPP4/8/8/8/8/pppp4/N1N1K3 w - - 0 1",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut nodes = 0;
        for fen in roots {
            for _ in 0..25 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..10 {
                    let played: Vec<_> =
                        r.legal_moves(&pos).iter().map(|(m, c)| (*m, c.hash)).collect();
                    assert_eq!(played, walked(&r, &pos), "{}", pos.to_fen());
                    assert_eq!(r.count_legal(&pos), played.len() as u64, "{}", pos.to_fen());
                    nodes += 1;
                    if played.is_empty() {
                        break;
                    }
                    let pick = crate::core::xorshift(&mut seed);
                    let moves = r.legal_moves(&pos);
                    pos = moves[(pick % moves.len() as u64) as usize].1;
                }
            }
        }
        assert!(nodes > 1000, "{nodes}");
    }

    /// A random position where White, to move, has its king and units of one kind,
    /// crowded in a block of ranks so that chains are long, and Black a king and a few
    /// pieces; `None` when the position is not legal.
    fn one_kind_army(seed: &mut u64) -> Option<Position> {
        let mut next = |n: u64| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed % n
        };
        let kinds = ["Q", "R", "B", "N", "(N)", "(AM)", "(KR)", "(EM)", "(KB)"];
        let unit = kinds[next(kinds.len() as u64) as usize];
        let mut board: Vec<String> = vec![String::new(); 64];
        let place = |board: &mut Vec<String>, s: u64, p: &str| {
            let free = board[s as usize].is_empty();
            if free {
                board[s as usize] = p.to_string();
            }
            free
        };
        let low = next(5);
        let rows = 2 + next(3);
        let n = 4 + next(12);
        for _ in 0..n {
            let s = (low + next(rows)) * 8 + next(8);
            place(&mut board, s, unit);
        }
        while !place(&mut board, (low + next(rows)) * 8 + next(8), "K") {}
        while !place(&mut board, next(64), "k") {}
        for _ in 0..next(7) {
            let p = ["p", "n", "b", "r", "q"][next(5) as usize];
            let s = next(64);
            if p != "p" || (8..56).contains(&s) {
                place(&mut board, s, &p.to_lowercase());
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let p = &board[rank * 8 + file];
                if p.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    fen += &empty.to_string();
                    empty = 0;
                }
                fen += p;
            }
            if empty > 0 {
                fen += &empty.to_string();
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let pos = Position::from_fen(&format!("{fen} w - - 0 1")).ok()?;
        let black_king = pos.king(crate::core::Color::Black);
        let checked = pos.board.attacked_with(black_king, crate::core::Color::White, pos.board.occupied());
        (!checked).then_some(pos)
    }

    #[test]
    fn the_one_kind_walk_gives_the_first_results_of_the_general_walk() {
        // Every leader of random one-kind armies (five kinds of line piece, the knight and
        // fairy compounds): the one-kind walk gives exactly the results the general walk
        // gives first, in the same order, each with the same chain.
        let r = Rules::new(Condition::Kazan);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let (mut samples, mut ends, mut results) = (0, 0u64, 0u64);
        while samples < 2_000 {
            let Some(pos) = one_kind_army(&mut seed) else {
                continue;
            };
            samples += 1;
            assert!(super::Chains::new(&pos).one_kind.is_some(), "{}", pos.to_fen());
            let _ = super::orthodox::each_pseudo_legal(&pos, &r, &mut |leader| {
                let mut general = vec![];
                let mut seen = std::collections::HashSet::new();
                let _ = super::Chains::general(&pos).each(&pos, &r, leader, &mut |_, fin, steps| {
                    ends += 1;
                    if seen.insert(fin.hash) {
                        general.push((fin.hash, steps.to_vec()));
                    }
                    std::ops::ControlFlow::Continue(())
                });
                let mut one = vec![];
                let _ = super::Chains::new(&pos).each(&pos, &r, leader, &mut |m, fin, steps| {
                    assert_eq!(m.chain as usize, one.len());
                    one.push((fin.hash, steps.to_vec()));
                    std::ops::ControlFlow::Continue(())
                });
                results += one.len() as u64;
                assert_eq!(one, general, "{} {leader:?}", pos.to_fen());
                std::ops::ControlFlow::Continue(())
            });
        }
        // The armies must give long chains with many repeated results.
        assert!(ends > 4 * results && results > 50_000, "{ends} {results}");
    }
}
