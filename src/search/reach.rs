//! A cheap, sound cut for help and series play aiming at mate or stalemate (orthodox
//! movement only): a relaxed picture of the final position, on an empty board.
//!
//! In the final position the losing side's king stands on some square `k` it can reach
//! with the moves it has left; every square next to `k` is either held by one of its own
//! pieces or attacked by the winning side, and for mate `k` itself is attacked. Ignoring
//! every other piece (so riders are never blocked, pawns may step diagonally as if they
//! captured, every pawn may promote to every promotion piece) and letting each piece use
//! all the moves its side has left, the sets "squares a piece can occupy within d moves"
//! and "squares it can attack within d moves" only grow. When even these generous sets
//! leave no square `k` that works, no play of that length reaches the goal.
//!
//! Castling moves the king two squares and a rook at once, so the cut is skipped while any
//! castling right remains. Fairy pieces are covered: a compound's distances come from the
//! union of its parts' moves.
//!
//! # Free units (stalemate, [`Reach::units_can_be_stopped`](Reach))
//!
//! In a stalemate none of the loser's units can move. A unit that can move now (an empty
//! first square of one of its moves) must have moved, been captured, been pinned, or had
//! those squares filled by the end (by other pieces, which must reach them in time); each
//! move achieves little of that (one unit moved, one
//! square filled, one unit captured), so too many free units for the moves left rule the
//! position out. The same count, done before each of the loser's last moves is played,
//! skips the moves that would leave too many ([`Reach::last_loser_moves_into`]).
//!
//! # One final position ([`Reach::final_possible`])
//!
//! The test above lets every piece of a side use all of that side's moves and attack from
//! every square it can reach at once. The sharper test pictures one final position:
//!
//! * each winner piece ends on one square `t` as one kind (a pawn as a pawn, or as a
//!   promotion piece after reaching its last rank), which takes at least its empty-board
//!   distance `d(t)` of moves; the winner's moves are shared, so the distances add up to at
//!   most the winner's moves left. A piece may also be captured (or stand anywhere and
//!   attack nothing near the king), which costs nothing and covers nothing. The winner's
//!   king always stands somewhere, never on or next to the loser's king square `k`; a piece
//!   standing next to `k` has its square covered by another piece (else the king takes
//!   it, which a real attack from another piece prevents, as its empty-board one does);
//! * a square is covered by the winner when a winner piece attacks it from its `t` on an
//!   empty board (a real attack is never more than that);
//! * for mate, `k` is covered; every square next to `k` is covered or held by a loser
//!   piece, distinct pieces for distinct squares; the king's walk to `k` plus the holders'
//!   empty-board distances add up to at most the loser's moves left. Where one winner
//!   piece alone attacks `k` on the empty board, no holder other than a pawn can step onto
//!   the check's answer square: the flight `i` the check passes (a line check from two or
//!   more squares away), or the checker's own square (a check from next to `k` or by a
//!   knight's leap). Nothing pins the holder (a pinner of a unit next to `k` would stand
//!   on the line through both and attack `k` on the empty board: a second check), the
//!   step is a move (`i` is empty; the checker is the winner's), and it leaves no other
//!   check (a line opened through the holder's flight would be a second check too), so it
//!   would block the check or take the checker.
//!
//! Every real final position reached within the moves gives such a picture: take each
//! winner piece's final square and kind (or "captured"), each flight's loser piece, and
//! the moves each actually made, which are at least its distance. So when no picture
//! exists, no play reaches the goal. The test tries every `k` the cheap test leaves; for
//! each, a table over the subsets of the nine squares around `k` gives the winner's
//! cheapest cover (one piece after the other, each taking one square), and an assignment
//! table the loser's cheapest distinct holders for the rest.

use crate::core::bitboard::{KING, KNIGHT, pawn_attacks};
use crate::core::board::piece_attacks;
use crate::core::piece::{ALL_KINDS, KIND_COUNT, part};
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Squares, bb};
use crate::moves::MoveKind;
use crate::position::Position;
use crate::rules::HelpCuts;
use std::cell::Cell;

mod walls;

/// Distances 0..=MAX_D are tabled; a budget above it skips the cut.
const MAX_D: usize = 15;
type Within = [[Bitboard; MAX_D + 1]; 64];

pub struct Reach {
    /// [colour][kind][from][d]: squares the piece can stand on after at most d moves.
    occupy: Vec<Within>,
    /// [colour][kind][from][d]: squares the piece can attack after at most d moves.
    attack: Vec<Within>,
    /// [from][d]: king steps.
    ball: Within,
    /// [kind][square]: the first square of each of the piece's moves (a piece whose every
    /// first square holds one of its own pieces cannot move).
    steps: Vec<[Bitboard; 64]>,
    /// [colour][kind][from][to]: moves on an empty board (`u8::MAX`: never); a pawn's
    /// count includes promoting to any promotion piece on the way.
    far: Vec<[[u8; 64]; 64]>,
    /// [colour][from]: a pawn's forms.
    pawn_forms: [Vec<PawnForms>; 2],
    /// [colour][from]: a pawn's forms where it cannot capture (`walls.rs`: the other
    /// side has nothing but its king to take), made at their first use.
    pawn_pushes: std::sync::OnceLock<[Vec<PawnForms>; 2]>,
    promotions: Vec<Kind>,
    /// [colour][kind][k]: the squares from which such a piece attacks `k` or a square next
    /// to it, on an empty board.
    near_att: Vec<[Bitboard; 64]>,
    /// [colour][kind][from][k]: what such a piece on `from` attacks around `k` on an empty
    /// board, as bits in the order of `around(k)` (bit 8 at most: `k` itself).
    masks: Vec<[[u16; 64]; 64]>,
    /// [k]: `around(k)`.
    around: [([u8; 9], usize); 64],
    /// This set of tables' number (see `COVERS`).
    id: u64,
    /// Stalemate: is the immobile-pieces test sound here (see `all_can_be_immobile`)?
    immobile: bool,
    /// Are a side's moves shared among its pieces (`HelpCuts::shared_moves`)?
    shared: bool,
    /// Do attacks next to a unit stand (`HelpCuts::standing_checks`)?
    standing_checks: bool,
    /// Series-help stalemates: the walled-in test (`HelpCuts::walls`, `walls.rs`).
    walls: bool,
    /// [king][x]: see [`beyond_table`].
    beyond: Vec<[(u8, u8); 64]>,
    /// Can a pawn promote to a piece with the nightrider's move (which pins along the
    /// knight's lines)?
    night_promotions: bool,
}

/// The bit of a winner cover state from which the squares next to the king square that a
/// winner piece stands on are kept (bit `NEEDS + i`: the `i`-th square of `around(k)`).
const NEEDS: usize = 9;

/// The bits of a state that are its cover: the squares around the king square and, bit
/// n, the king square itself.
const COVER: usize = (1 << 9) - 1;

/// The bits (five) of a winner cover state from which its check on the king square is
/// kept: 0 none, else a lone check's code ([`check_code`]), [`OTHER_CHECK`] for one no
/// holder answers by a step, and for two checks. Kept only where the covers carry checks (`Reach::covers_around`); in a cover
/// given out, from bit [`OUT_CHECK`].
const CHECK: usize = NEEDS + 8;
const OTHER_CHECK: usize = 31;
const OUT_CHECK: usize = 9;

/// Does the cover option `m` (a state of [`Reach::winner_covers`]) cover no more than
/// `m2`, standing next to the king square where `m2` does too, with a check no harder to
/// answer ([`check_no_worse`])?
fn no_more(m: usize, m2: usize) -> bool {
    let needs = |x: usize| (x >> NEEDS) & 0xFF;
    m & COVER & !(m2 & COVER) == 0 && needs(m2) & !needs(m) == 0 && check_no_worse(m, m2)
}

/// Is the check of the state `m2` ([`CHECK`]) at least as good for the winner as `m`'s,
/// whatever the pieces after add? No check is the least (a later check stands alone in
/// it, and without one there is no mate), [`OTHER_CHECK`] the most (it stays so, and no
/// holder answers it); two other codes that differ compare neither way.
fn check_no_worse(m: usize, m2: usize) -> bool {
    let (c, c2) = (check_of(m), check_of(m2));
    c == c2 || c == 0 || c2 == OTHER_CHECK
}

/// The state of [`Reach::cover_steps`] after the state `m` with a piece's option `om`:
/// the squares covered and wanting cover of both, less the wanting ones now covered (a
/// square stood on is no longer wanting once covered), and the check: two checks are no
/// lone check.
fn joined(m: usize, om: usize) -> usize {
    let check = match (check_of(m), check_of(om)) {
        (c, 0) | (0, c) => c,
        _ => OTHER_CHECK,
    };
    let union = (m | om) & !(0x1F << CHECK);
    union & !((union & COVER) << NEEDS) | check << CHECK
}

/// The check of a state ([`CHECK`]).
fn check_of(m: usize) -> usize {
    (m >> CHECK) & 0x1F
}

/// The check from `t` on `k` ([`CHECK`]): along a line from two or more squares away,
/// the index in `around(k)` of the square next to `k` it passes, plus one; from a square
/// next to `k`, 9 plus its index there; by a knight's leap, 17 plus the index of `t`
/// among the knight's squares of `k`; else [`OTHER_CHECK`].
fn check_code(k: u8, t: u8) -> usize {
    let (df, dr) = (
        i32::from(t % 8) - i32::from(k % 8),
        i32::from(t / 8) - i32::from(k / 8),
    );
    let below = |set: Bitboard, x: u8| (set & (bb(x) - 1)).count_ones() as usize;
    let line = df == 0 || dr == 0 || df.abs() == dr.abs();
    if KING[k as usize] & bb(t) != 0 {
        9 + below(KING[k as usize], t)
    } else if KNIGHT[k as usize] & bb(t) != 0 {
        17 + below(KNIGHT[k as usize], t)
    } else if line {
        let i = (i32::from(k) + df.signum() + 8 * dr.signum()) as u8;
        1 + below(KING[k as usize], i)
    } else {
        OTHER_CHECK
    }
}

/// The square where a loser unit next to `k` could answer the check `check`
/// ([`check_code`]) by one step: the square between on the line, or the checker's.
#[inline]
fn answer_square(k: u8, check: usize) -> Option<u8> {
    let x = ANSWERS[k as usize][check.min(OTHER_CHECK)];
    (x != NONE).then_some(x)
}

/// [k][check]: [`answer_square`], `NONE` for none: for codes 1-8 and 9-16 the n-th square
/// around `k`, for 17-24 the n-th a knight's leap away (squares in increasing order).
static ANSWERS: [[u8; OTHER_CHECK + 1]; 64] = {
    let king = crate::core::bitboard::leaper_table(&crate::core::bitboard::KING_DELTAS);
    let knight = crate::core::bitboard::leaper_table(&crate::core::bitboard::KNIGHT_DELTAS);
    let mut t = [[NONE; OTHER_CHECK + 1]; 64];
    let mut k = 0;
    while k < 64 {
        let mut c = 1;
        while c <= 24 {
            let (mut set, n) = match c {
                1..=8 => (king[k], c - 1),
                9..=16 => (king[k], c - 9),
                _ => (knight[k], c - 17),
            };
            let mut i = 0;
            while set != 0 && i < n {
                set &= set - 1;
                i += 1;
            }
            if set != 0 {
                t[k][c] = set.trailing_zeros() as u8;
            }
            c += 1;
        }
        k += 1;
    }
    t
};

thread_local! {
    /// [`Reach::cover_steps`]' table of states (zero, the kernel's zeroed pages, until
    /// touched; each call leaves it zero again).
    static DP_BEST: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; 1 << (CHECK + 5)]);
}

/// The loser's stuck pieces last found per thread ([`Reach::stuck_pieces_kept`]), each
/// with what they were found for: the loser's units by part, its king's square and the
/// moves left. The winner's moves leave all of it as it is, so the positions after
/// them ask for the same set.
const STUCK_SLOTS: usize = 64;
type StuckKey = [u64; crate::core::piece::part::COUNT + 2];
/// No key of a position (an empty slot).
const NO_STUCK_KEY: StuckKey = [u64::MAX; crate::core::piece::part::COUNT + 2];

thread_local! {
    static STUCK: std::cell::RefCell<Vec<(StuckKey, Bitboard)>> =
        std::cell::RefCell::new(vec![(NO_STUCK_KEY, 0); STUCK_SLOTS]);
}

/// Slots of the kept options per thread ([`Reach::kept_options`]), and the most options
/// one keeps.
const OPT_SLOTS: usize = 1 << 12;
const OPTS_KEPT: usize = 24;

/// One piece's kept options around one king square: its key (words 0 and 1; 0: none), the
/// options' count (word 2) and the options (the state bits above the moves' byte). All
/// zero when empty, so that the slots take memory only once used.
type KeptOptions = [u32; OPTS_KEPT + 3];

thread_local! {
    static OPTIONS: std::cell::RefCell<Vec<KeptOptions>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A kept options slot's key.
fn kept_key(e: &KeptOptions) -> u64 {
    u64::from(e[0]) | u64::from(e[1]) << 32
}

/// Scratch tables of [`Reach::winner_covers`], one set per thread.
struct Scratch {
    states: Vec<usize>,
    opts: Vec<(usize, u8)>,
    opt_best: [u8; 512],
    old: Vec<(usize, u8)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            states: vec![],
            opts: vec![],
            opt_best: [NONE; 512],
            old: vec![],
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Per king square, a range of a list: the squares in `done`, their ranges in the order
/// they were made (`at`: each square's place there, sized at the first use).
#[derive(Default)]
struct Spans {
    done: Bitboard,
    at: Vec<u8>,
    ranges: Vec<(u32, u32)>,
}

impl Spans {
    fn clear(&mut self) {
        self.done = 0;
        self.ranges.clear();
    }

    fn get(&self, k: u8) -> Option<(usize, usize)> {
        (self.done & bb(k) != 0).then(|| {
            let (a, b) = self.ranges[self.at[k as usize] as usize];
            (a as usize, b as usize)
        })
    }

    fn set(&mut self, k: u8, (a, b): (usize, usize)) {
        if self.at.is_empty() {
            self.at.resize(64, 0);
        }
        self.at[k as usize] = self.ranges.len() as u8;
        self.ranges.push((a as u32, b as u32));
        self.done |= bb(k);
    }
}

/// The winner's covers for one placement of its pieces (`config`: the tables' id, the
/// moves, the colour, then each piece's square and kind), for the king squares of `spans`
/// (their ranges of `data`).
#[derive(Default)]
struct Covers {
    config: Vec<u16>,
    spans: Spans,
    data: Vec<(u16, u8)>,
    /// [`Reach::loser_holds`]: the flight sets a cover leaves open.
    open: Vec<u16>,
    /// Per king square of `leaf_spans`, the range of `leaves` holding what the covers
    /// leave the loser to do there ([`minimal_leaves`]), for mate when `leaves_mate`.
    leaf_spans: Spans,
    leaves_mate: bool,
    leaves: Vec<u16>,
}

/// Slots of the kept covers per thread (each made at its first use): with 1,024 three in
/// four of a helpmate's cover sets were rebuilt after a collision (BENCHMARKS.md).
const COVER_SLOTS: usize = 16384;

impl Covers {
    /// Starts over when the kept covers are another placement's.
    fn reset_unless(&mut self, config: impl Iterator<Item = u16> + Clone) {
        if !self.config.iter().copied().eq(config.clone()) {
            self.config.clear();
            self.config.extend(config);
            self.spans.clear();
            self.data.clear();
            self.leaf_spans.clear();
            self.leaves.clear();
        }
    }

    /// The range of `leaves` for the king square `k` (its covers: `data[a..b]`, with `n`
    /// flights), made at the first call.
    fn leaves_around(
        &mut self,
        k: u8,
        n: usize,
        (a, b): (usize, usize),
        mate: bool,
    ) -> (usize, usize) {
        if self.leaves_mate != mate {
            self.leaves_mate = mate;
            self.leaf_spans.clear();
            self.leaves.clear();
        }
        if let Some(range) = self.leaf_spans.get(k) {
            return range;
        }
        let start = self.leaves.len();
        minimal_leaves(k, n, &self.data[a..b], mate, &mut self.leaves);
        self.leaf_spans.set(k, (start, self.leaves.len()));
        (start, self.leaves.len())
    }
}

/// [u]: the bytes of a word whose bit is set in `u` (0..8) all ones, the others zero.
const BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut u = 0;
    while u < 256 {
        let mut i = 0;
        while i < 8 {
            if u & 1 << i != 0 {
                t[u] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        u += 1;
    }
    t
};

/// What the winner's covers `states` around `k` (with `n` flights) leave the loser to do,
/// appended to `out`: per cover (for mate, one that attacks `k`), the flights it leaves
/// open, with the cover's check code from bit [`OUT_CHECK`] for mate where the check has
/// an answer square ([`answer_square`]; 0 otherwise, and always for stalemate). An entry
/// is left out where another has its open flights inside the entry's and no answer square
/// or the same check: every reader ([`Reach::least_bound`], [`Reach::loser_holds`]) that
/// finds the loser able to do the larger entry finds it able to do the smaller (fewer
/// flights to hold by distinct units, each at no greater cost; the same pieces barred by
/// the same check's answer, or none), so the answers are the same as with every cover.
fn minimal_leaves(k: u8, n: usize, states: &[(u16, u8)], mate: bool, out: &mut Vec<u16>) {
    let start = out.len();
    let all_flights = (1usize << n) - 1;
    // Does `v` imply `u`: its open flights inside `u`'s, and no check or the same one?
    let implies = |v: u16, u: u16| {
        v & !u & COVER as u16 == 0 && (v >> OUT_CHECK == 0 || v >> OUT_CHECK == u >> OUT_CHECK)
    };
    for &(m, _) in states {
        let m = usize::from(m);
        if mate && m & 1 << n == 0 {
            continue;
        }
        let code = if mate && answer_square(k, m >> OUT_CHECK).is_some() {
            m >> OUT_CHECK
        } else {
            0
        };
        let u = ((all_flights & !m) | code << OUT_CHECK) as u16;
        if out[start..].iter().any(|&v| implies(v, u)) {
            continue;
        }
        let mut i = start;
        while i < out.len() {
            if implies(u, out[i]) {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
        out.push(u);
    }
}

thread_local! {
    /// The kept covers, each slot made at its first use.
    static COVERS: std::cell::RefCell<Vec<Option<Box<Covers>>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The slot of the kept covers for a key (FNV-1a over its numbers).
fn cover_slot(config: impl Iterator<Item = u16>) -> usize {
    let hash = config.fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    });
    hash as usize % COVER_SLOTS
}

/// Numbers the tables, so that kept covers are never read with other promotion choices.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The greatest common divisor (of a file and a rank distance, not both 0).
fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// [king][x]: the square after `x` on the line from the king through `x`, along a queen's
/// line and along a nightrider's; `NONE` where `x` is not on such a line or the line
/// leaves the board after `x`.
fn beyond_table() -> Vec<[(u8, u8); 64]> {
    use crate::core::square::{file_of, rank_of, square_checked};
    let mut t = vec![[(NONE, NONE); 64]; 64];
    for (k, row) in t.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            if k == x {
                continue;
            }
            let (k, x) = (k as u8, x as u8);
            let df = file_of(x) as i8 - file_of(k) as i8;
            let dr = rank_of(x) as i8 - rank_of(k) as i8;
            let g = gcd(df.unsigned_abs(), dr.unsigned_abs()) as i8;
            let (sf, sr) = (df / g, dr / g);
            let next = square_checked(file_of(x) as i8 + sf, rank_of(x) as i8 + sr).unwrap_or(NONE);
            if sf.abs() <= 1 && sr.abs() <= 1 {
                cell.0 = next;
            } else if sf.abs() + sr.abs() == 3 {
                cell.1 = next;
            }
        }
    }
    t
}

/// The loser's last moves that can be followed by a stalemate ([`Reach::last_loser_moves_into`]).
pub struct LastMoves {
    king: u8,
    /// [square]: a free unit's only empty first square (`NO_SQUARE`: none or several).
    single: [u8; 64],
    /// The free units that no pin could stop, and all free units, each with its budget.
    sets: [FreeSet; 2],
    /// The loser, and whether a winner piece may pin along a knight's line.
    side: Color,
    night_pins: bool,
    /// The squares the winner attacks as its pieces stand, those each piece may attack
    /// after its move (`movers`; the first `n` are its pieces', `n` = 0 when there are
    /// more than 16 or only one), their union, and the squares of the loser's units other
    /// than the king: after the loser's last move and the winner's one move, every square
    /// next to the loser's king must be attacked or held.
    standing: Bitboard,
    movers: [Bitboard; 16],
    n: usize,
    guarded: Bitboard,
    held: Bitboard,
}

/// May the winner's move `m` be played where the immobility test found it no move to spare
/// ([`Reach::all_can_be_immobile`]'s `tight`, 0 where it has one)? Only one landing on a
/// tight square, or en passant.
#[inline]
pub fn keeps_tight(tight: Bitboard, m: crate::moves::Move) -> bool {
    tight == 0 || tight & bb(m.to) != 0 || m.kind == MoveKind::EnPassant
}

/// The winner's moves that can leave a position passing the free-units count where it
/// fails with one winner move fewer ([`Reach::units_relevant`]): those that start or end
/// on a first square of a loser unit's moves (`first`), take a unit, or are a pawn's.
pub struct UnitMoves {
    first: Bitboard,
    loser: Color,
}

impl UnitMoves {
    /// May the position after `m` (from `pos`) pass the count?
    #[inline]
    pub fn keep(&self, pos: &Position, m: crate::moves::Move) -> bool {
        let board = &pos.board;
        (bb(m.from) | bb(m.to)) & self.first != 0
            || board.by_part[crate::core::board::PAWN_IDX] & bb(m.from) != 0
            || board.by_color[self.loser.idx()] & bb(m.to) != 0
    }
}

/// Free units of [`LastMoves`]: their squares, their number, per square the units whose
/// only empty first square it is, per square the units not free now that a move from it
/// frees (its own unit's square is a first square of theirs), and how many the winner's
/// moves and pins can stop.
struct FreeSet {
    at: Bitboard,
    count: i32,
    group: [u8; 64],
    freed: [u8; 64],
    budget: i32,
}

impl FreeSet {
    fn new(budget: i32) -> FreeSet {
        FreeSet {
            at: 0,
            count: 0,
            group: [0; 64],
            freed: [0; 64],
            budget,
        }
    }
}

impl LastMoves {
    /// Is every square of `flights` held (`held`) or attacked after one move of the winner
    /// (by one moving piece, the others standing)?
    #[inline]
    fn covered(&self, flights: Bitboard, held: Bitboard) -> bool {
        let open = flights & !held;
        open & !self.guarded == 0
            && (self.n == 0
                || self.movers[..self.n]
                    .iter()
                    .any(|&m| open & !(self.standing | m) == 0))
    }

    /// May `m` (from `pos`) be followed by a stalemate, as far as the free units and the
    /// squares next to the king tell?
    #[inline]
    pub fn keep(&self, reach: &Reach, pos: &Position, m: crate::moves::Move) -> bool {
        let (a, b) = (m.from as usize, m.to as usize);
        if m.from == self.king {
            // A king move changes which units a pin could stop, but not which are free
            // (the units on the squares first of theirs: `a` is emptied, `b` filled).
            let all = &self.sets[1];
            return m.kind == MoveKind::Castle
                || self.covered(KING[b], self.held)
                    && all.count - i32::from(all.group[b]) + i32::from(all.freed[a]) <= all.budget;
        }
        if !self.covered(KING[self.king as usize], self.held & !bb(m.from) | bb(m.to)) {
            return false;
        }
        // The mover is free after its move when a first square of its moves from `b` is
        // empty (the squares empty before the move and `a`; en passant's captured pawn
        // counted as standing, which can only leave it unfree).
        let Some(kind) = pos.board.kind_at(m.from) else {
            return true;
        };
        let kind = m.promo.unwrap_or(kind);
        let empty = !(pos.board.occupied() | bb(m.to)) | bb(m.from);
        let first = if kind == Kind::Pawn {
            let ahead = b as i8 + self.side.forward();
            if (0..64).contains(&ahead) {
                bb(ahead as u8)
            } else {
                0
            }
        } else {
            reach.steps[kind as usize][b]
        };
        let free = first & empty != 0;
        // Never stopped by a pin at `b` (with the winner's pieces as they are: a capture
        // may remove the only nightrider, so then it is not counted there).
        let unpinnable = free
            && m.kind != MoveKind::EnPassant
            && pos.board.is_empty(m.to)
            && reach.never_pinned_still(kind, m.to, self.king, self.night_pins);
        self.sets
            .iter()
            .zip([unpinnable, free])
            .all(|(set, freed)| {
                let mut left = set.count - i32::from(set.group[b]) + i32::from(freed);
                // The units the move frees by leaving `a`: free after it, whatever `b`.
                left += i32::from(set.freed[a]);
                if set.at & bb(m.from) != 0 {
                    // The mover is free no more (or counted in `group[b]` already).
                    left -= i32::from(self.single[a] != m.to);
                }
                left <= set.budget
            })
    }
}

/// Most loser units (its king aside) [`Progress`] keeps rooms for; with more, every move
/// is kept.
const HOLDERS: usize = 16;

/// The loser's moves worth playing where it has no move to spare
/// ([`Reach::loser_progress_into`]): king moves nearer to a final square, and moves bringing a
/// unit nearer to a square it could hold in a picture, each within the moves it may take.
pub struct Progress {
    king: u8,
    /// The loser (its units' `far` tables).
    side: Color,
    /// [square]: the index in `room` of the loser's unit there (`NONE`: no room kept).
    slot: [u8; 64],
    /// [unit][f]: one more than the most moves the unit may be from `f` after its move
    /// for a picture in which it holds `f` (0: none).
    room: [[u8; 64]; HOLDERS],
    /// [unit]: the squares `f` with room.
    roomy: [Bitboard; HOLDERS],
    /// [k]: one more than the most moves the king may be from `k` after its move for a
    /// picture with the king on `k` (0: none); `ends`: the squares with room.
    king_room: [u8; 64],
    ends: Bitboard,
}

impl Progress {
    /// May the loser's move `m` from `pos` still lead to a final picture?
    #[inline]
    pub fn keep(&self, reach: &Reach, pos: &Position, m: crate::moves::Move) -> bool {
        if m.from == self.king {
            // The king walks nearer to a square its walk ends on.
            return m.kind == MoveKind::Castle
                || Squares(self.ends).any(|k| {
                    let d = king_distance(m.to, k);
                    d < usize::from(self.king_room[k as usize]) && d < king_distance(m.from, k)
                });
        }
        let unit = self.slot[m.from as usize] as usize;
        let Some(old) = pos.board.kind_at(m.from).filter(|_| unit < HOLDERS) else {
            return true;
        };
        let new = m.promo.unwrap_or(old);
        let before = &reach.far[idx(self.side, old)][m.from as usize];
        let after = &reach.far[idx(self.side, new)][m.to as usize];
        let room = &self.room[unit];
        Squares(self.roomy[unit]).any(|f| {
            let (a, b) = (after[f as usize], before[f as usize]);
            a < room[f as usize] && a < b
        })
    }
}

/// Could one of the loser's units (`others`, its king aside) answer a lone check by a
/// step, in a mate picture (`Reach::holders_assigned`)? Pawns, which may end promoted,
/// never count, so without another unit the covers need not carry their checks.
fn answers_checks(others: &[(Kind, u8)]) -> bool {
    others.iter().any(|u| u.0 != Kind::Pawn)
}

/// The a-file.
const FILE_A: Bitboard = 0x0101_0101_0101_0101;

/// The squares ahead of `x` on its file, as seen by a pawn of side `c` (the square in
/// front of it included).
fn file_ahead(x: u8, c: Color) -> Bitboard {
    let file = FILE_A << crate::core::square::file_of(x);
    let above = if x == 63 { 0 } else { !0u64 << (x + 1) };
    file & if c == Color::White {
        above
    } else {
        !above & !bb(x)
    }
}

/// The squares a pawn of side `c` on `x` could capture on, or beside which an enemy pawn
/// could be taken en passant: the files next to it, level with it and ahead.
fn capture_cone(x: u8, c: Color) -> Bitboard {
    let f = crate::core::square::file_of(x);
    let mut files = 0;
    if f > 0 {
        files |= FILE_A << (f - 1);
    }
    if f < 7 {
        files |= FILE_A << (f + 1);
    }
    let r = crate::core::square::rank_of(x);
    let level_and_ahead = if c == Color::White {
        !0u64 << (8 * r)
    } else {
        !0u64 >> (8 * (7 - r))
    };
    files & level_and_ahead
}

/// The winner's pieces that could pin a loser piece in the final position, at most one
/// each: its riders, and its pawns that can still promote with `w` moves left (each move
/// of a pawn takes it one rank ahead, the double step from its second rank two).
fn pinners(pos: &Position, winner: Color, w: usize) -> usize {
    pinner_squares(pos, winner, w).count_ones() as usize
}

/// The squares of [`pinners`].
fn pinner_squares(pos: &Position, winner: Color, w: usize) -> Bitboard {
    use crate::core::board::{BISHOP_IDX, NIGHT_IDX, PAWN_IDX, ROOK_IDX};
    let board = &pos.board;
    let own = board.by_color[winner.idx()];
    let p = &board.by_part;
    let riders = (p[BISHOP_IDX] | p[ROOK_IDX] | p[NIGHT_IDX]) & own;
    // The ranks from which a pawn promotes within `w` moves.
    let ranks = (0..8u8)
        .filter(|&r| promotion_moves(winner, 8 * r) <= w)
        .fold(0, |m, r| m | RANK_1 << (8 * r));
    let pawns = p[PAWN_IDX] & own & ranks;
    riders | pawns
}

/// Counts per square of the sets added, bit-sliced: `at_least[k]` holds the squares in more
/// than `k` of them (up to 16 sets).
#[derive(Default)]
struct Tally {
    at_least: [Bitboard; 16],
    levels: usize,
}

impl Tally {
    /// Adds one to the count of every square of `set`.
    #[inline]
    fn add(&mut self, set: Bitboard) {
        if self.levels < self.at_least.len() {
            self.levels += 1;
        }
        for k in (1..self.levels).rev() {
            self.at_least[k] |= self.at_least[k - 1] & set;
        }
        self.at_least[0] |= set;
    }

    /// The sum of the `n` largest counts: the squares counted more than `k` times number
    /// `at_least[k]`'s, and the `n` largest counts take `min(n, that)` of them at level `k`.
    fn top(&self, n: usize) -> usize {
        self.at_least[..self.levels]
            .iter()
            .map(|b| (b.count_ones() as usize).min(n))
            .sum()
    }
}

/// The first rank.
const RANK_1: Bitboard = 0xFF;

/// The fewest moves a pawn of side `c` on `s` needs to promote.
fn promotion_moves(c: Color, s: u8) -> usize {
    let r = c.relative_rank(s) as usize;
    7 - r - usize::from(r == 1)
}

/// What a winner piece can be at the end (its kind then), with the moves it takes to
/// stand on each square (`NONE`: too many) and the set of those squares. A pawn has one
/// form as a pawn and one per promotion piece; `piece` numbers the pieces, the winner's
/// king (when there is one) first.
struct Form<'r> {
    piece: u8,
    kind: Kind,
    from: u8,
    row: &'r [u8; 64],
    reach: Bitboard,
}

/// A pawn's moves to each square as a pawn (it stops on its last rank, which it never
/// holds as a pawn) and as each promotion piece, with the squares within d moves.
type Table = ([u8; 64], [Bitboard; MAX_D + 1]);
struct PawnForms {
    as_pawn: Table,
    promoted: Vec<Table>,
}

fn table(row: [u8; 64]) -> Table {
    let mut within = [0; MAX_D + 1];
    for (t, &d) in row.iter().enumerate() {
        if (d as usize) <= MAX_D {
            within[d as usize] |= bb(t as u8);
        }
    }
    for i in 1..=MAX_D {
        within[i] |= within[i - 1];
    }
    (row, within)
}

const NONE: u8 = u8::MAX;

/// The units of one side, at most 64, without allocating.
struct Units<T: Copy> {
    list: [T; 64],
    len: usize,
}

impl<T: Copy> Units<T> {
    /// An empty list (`fill` only fills the unused room).
    fn new(fill: T) -> Self {
        Units {
            list: [fill; 64],
            len: 0,
        }
    }

    fn push(&mut self, x: T) {
        self.list[self.len] = x;
        self.len += 1;
    }

    fn as_slice(&self) -> &[T] {
        &self.list[..self.len]
    }
}

/// The loser's units other than its king: (kind, square).
fn loser_units(pos: &Position, loser: Color) -> Units<(Kind, u8)> {
    let board = &pos.board;
    let mut others = Units::new((Kind::Pawn, 0u8));
    let king = match pos.king(loser) {
        NO_SQUARE => 0,
        k => bb(k),
    };
    Squares(board.by_color[loser.idx()] & !king)
        .for_each(|s| others.push((board.kind_at(s).expect("occupied"), s)));
    others
}

/// The squares around `k` (its flights) in a fixed order, then `k` itself as the last one.
fn around(k: u8) -> ([u8; 9], usize) {
    let mut out = [k; 9];
    let mut n = 0;
    for s in Squares(KING[k as usize]) {
        out[n] = s;
        n += 1;
    }
    out[n] = k;
    (out, n)
}

/// Can distinct pieces hold every flight of `u` (bit i: flight i; not empty) within
/// `budget` moves in all, `costs[p][i]` being piece p's moves to flight i (at most 16
/// pieces)? The least such cost is a minimum-cost assignment of the flights (rows) to
/// pieces (columns), found by the Hungarian method: shortest augmenting paths with
/// potentials, one row at a time, the rows so far matched at least cost after each. That
/// cost only grows with more rows (the costs are not negative), so the search stops once
/// it exceeds the budget.
///
/// Two bounds answer most calls first ([`assign_bounds`]).
fn assign(u: usize, costs: &[[u8; 8]], budget: usize) -> bool {
    const INF: i32 = i32::MAX / 4;
    let mut flights = [0usize; 8];
    let mut n = 0;
    for i in (0..8).filter(|&i| u & 1 << i != 0) {
        flights[n] = i;
        n += 1;
    }
    let m = costs.len();
    debug_assert!(m <= 16, "at most 16 pieces");
    if n > m {
        return false;
    }
    if let Some(fits) = assign_bounds(&flights[..n], costs, budget) {
        return fits;
    }
    // Rows 1..=n, columns 1..=m; row and column 0 stand for "none".
    let cost = |i: usize, j: usize| i32::from(costs[j - 1][flights[i - 1]]);
    let (mut row_pot, mut col_pot) = ([0i32; 9], [0i32; 17]);
    // `matched[j]`: the row matched to column j (0: none); `way`: the augmenting path.
    let (mut matched, mut way) = ([0usize; 17], [0usize; 17]);
    for i in 1..=n {
        matched[0] = i;
        let mut j0 = 0;
        let mut least = [INF; 17];
        let mut used = [false; 17];
        while matched[j0] != 0 {
            used[j0] = true;
            let i0 = matched[j0];
            let (mut delta, mut j1) = (INF, 0);
            for j in 1..=m {
                if !used[j] {
                    let reduced = cost(i0, j) - row_pot[i0] - col_pot[j];
                    if reduced < least[j] {
                        least[j] = reduced;
                        way[j] = j0;
                    }
                    if least[j] < delta {
                        delta = least[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    row_pot[matched[j]] += delta;
                    col_pot[j] -= delta;
                } else {
                    least[j] -= delta;
                }
            }
            j0 = j1;
        }
        while j0 != 0 {
            let j1 = way[j0];
            matched[j0] = matched[j1];
            j0 = j1;
        }
        let total: i32 = (1..=m)
            .filter(|&j| matched[j] != 0)
            .map(|j| cost(matched[j], j))
            .sum();
        if total > budget as i32 {
            return false;
        }
    }
    true
}

/// [`assign`] where two bounds answer (at least as many pieces as flights): the sum of
/// each flight's cheapest piece (pieces may repeat) is at most the least cost, so above
/// the budget nothing fits; a greedy assignment (each flight in turn the cheapest piece
/// not yet taken) is one assignment, so within the budget it fits. `None` between them.
fn assign_bounds(flights: &[usize], costs: &[[u8; 8]], budget: usize) -> Option<bool> {
    let (mut low, mut greedy, mut taken) = (0usize, 0usize, 0u32);
    for &i in flights {
        let (mut least, mut free) = (usize::MAX, (usize::MAX, 0));
        for (j, c) in costs.iter().enumerate() {
            let c = usize::from(c[i]);
            least = least.min(c);
            if taken & 1 << j == 0 && c < free.0 {
                free = (c, j);
            }
        }
        low += least;
        greedy += free.0;
        taken |= 1 << free.1;
    }
    if low > budget {
        Some(false)
    } else if greedy <= budget {
        Some(true)
    } else {
        None
    }
}

/// The bits of `b` at `sq[..=n]`, as bits 0..=n.
#[inline]
fn gather(b: Bitboard, sq: &[u8; 9], n: usize) -> usize {
    let mut m = 0;
    for (i, &s) in sq[..=n].iter().enumerate() {
        m |= (((b >> s) & 1) as usize) << i;
    }
    m
}

fn idx(c: Color, k: Kind) -> usize {
    c.idx() * KIND_COUNT + k as usize
}

/// Breadth-first distances on an empty board, `step` giving the squares one move away.
fn dist(from: usize, step: impl Fn(u8) -> Bitboard) -> [u8; 64] {
    let mut d = [u8::MAX; 64];
    d[from] = 0;
    let mut frontier = bb(from as u8);
    let mut seen = frontier;
    let mut n = 0u8;
    while frontier != 0 {
        n += 1;
        let next = Squares(frontier).fold(0, |acc, s| acc | step(s)) & !seen;
        for s in Squares(next) {
            d[s as usize] = n;
        }
        seen |= next;
        frontier = next;
    }
    d
}

/// A non-pawn kind's distances.
fn piece_dist(k: Kind, from: usize) -> [u8; 64] {
    dist(from, |s| piece_attacks(s, Color::White, k, 0))
}

/// Pawn distances (as a pawn): one step forward or diagonally forward, two from the second
/// rank; a pawn stops on its last rank (it promotes there).
fn pawn_dist(c: Color, from: usize) -> [u8; 64] {
    pawn_dist_with(c, from, true)
}

/// [`pawn_dist`], with the pawn's captures or without (`captures`).
fn pawn_dist_with(c: Color, from: usize, captures: bool) -> [u8; 64] {
    let fwd = c.forward();
    dist(from, |s| {
        let rel = c.relative_rank(s);
        if rel == 7 {
            return 0;
        }
        let one = (s as i8 + fwd) as u8;
        let mut next = bb(one) | if captures { pawn_attacks(c, s) } else { 0 };
        if rel == 1 {
            next |= bb((one as i8 + fwd) as u8);
        }
        next
    })
}

/// `[d]`: the union of `of(s)` over the squares `s` at most `d` moves away.
fn within(d: &[u8; 64], of: impl Fn(u8) -> Bitboard) -> [Bitboard; MAX_D + 1] {
    let mut out = [0; MAX_D + 1];
    for s in 0..64u8 {
        let ds = d[s as usize] as usize;
        if ds <= MAX_D {
            out[ds] |= of(s);
        }
    }
    for i in 1..=MAX_D {
        out[i] |= out[i - 1];
    }
    out
}

/// King moves between two squares on an empty board.
#[inline]
fn king_distance(a: u8, b: u8) -> usize {
    let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
    usize::from(fa.abs_diff(fb).max(ra.abs_diff(rb)))
}

/// Every square a king step away from some square of `b`.
#[inline]
fn king_spread(b: Bitboard) -> Bitboard {
    const NOT_A: Bitboard = !0x0101_0101_0101_0101;
    const NOT_H: Bitboard = !0x8080_8080_8080_8080;
    let side = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | side;
    side | (row << 8) | (row >> 8)
}

/// [colour][kind][from][to]: the fewest moves within `occupy`'s reach (`NONE`: never),
/// for the tables `used` (the others stay zero).
fn far_table(occupy: &[Within], used: impl Fn(usize) -> bool) -> Vec<[[u8; 64]; 64]> {
    let mut far = vec![[[0; 64]; 64]; occupy.len()];
    for (i, table) in far.iter_mut().enumerate().filter(|(i, _)| used(*i)) {
        for (from, row) in table.iter_mut().enumerate() {
            for (to, d) in row.iter_mut().enumerate() {
                *d = (0..=MAX_D)
                    .find(|&x| occupy[i][from][x] & bb(to as u8) != 0)
                    .map_or(NONE, |x| x as u8);
            }
        }
    }
    far
}

/// [from]: a pawn of colour `c`'s forms, as a pawn and as each promotion piece.
fn pawn_forms_table(
    c: Color,
    promotions: &[Kind],
    far: &[[[u8; 64]; 64]],
    captures: bool,
) -> Vec<PawnForms> {
    (0..64)
        .map(|from| {
            let d = pawn_dist_with(c, from, captures);
            let as_pawn = std::array::from_fn(|t| {
                if c.relative_rank(t as u8) == 7 {
                    NONE
                } else {
                    d[t]
                }
            });
            let promoted = promotions
                .iter()
                .map(|&p| {
                    let mut row = [NONE; 64];
                    for q in (0..64).filter(|&q| c.relative_rank(q as u8) == 7) {
                        for (t, r) in row.iter_mut().enumerate() {
                            let x = d[q] as usize + far[idx(c, p)][q][t] as usize;
                            *r = (*r).min(x.min(NONE as usize) as u8);
                        }
                    }
                    table(row)
                })
                .collect();
            PawnForms {
                as_pawn: table(as_pawn),
                promoted,
            }
        })
        .collect()
}

/// The tables around each king square: [colour][kind][k] the squares from which such a
/// piece attacks `k` or a square next to it, and [colour][kind][from][k] what it attacks
/// there from `from` (bits in the order of `around(k)`), on an empty board, for the tables
/// `used` (by index; the others stay zero).
#[allow(clippy::type_complexity)]
fn around_tables(
    attack: &[Within],
    used: impl Fn(usize) -> bool,
) -> (Vec<[Bitboard; 64]>, Vec<[[u16; 64]; 64]>) {
    let n = attack.len();
    let mut near_att = vec![[0; 64]; n];
    for c in [Color::White, Color::Black] {
        for &kind in ALL_KINDS.iter().filter(|&&k| used(idx(c, k))) {
            // Attacks on an empty board are symmetric, except the pawn's, whose
            // attackers are where the other colour's pawn would attack.
            let back = if kind == Kind::Pawn {
                idx(c.flip(), kind)
            } else {
                idx(c, kind)
            };
            for k in 0..64usize {
                let near = KING[k] | bb(k as u8);
                near_att[idx(c, kind)][k] =
                    Squares(near).fold(0, |a, x| a | attack[back][x as usize][0]);
            }
        }
    }
    let mut masks = vec![[[0u16; 64]; 64]; n];
    for k in 0..64u8 {
        let (sq, len) = around(k);
        for (i, table) in masks.iter_mut().enumerate().filter(|(i, _)| used(*i)) {
            for from in 0..64 {
                table[from][k as usize] = gather(attack[i][from][0], &sq, len) as u16;
            }
        }
    }
    (near_att, masks)
}

/// [colour][kind][from][d]: the squares a piece can stand on, and those it can attack,
/// after at most d moves on an empty board (a pawn: as a pawn, then as each promotion
/// piece); zero for the kinds not `used`.
fn reach_tables(promotions: &[Kind], used: impl Fn(Kind) -> bool) -> (Vec<Within>, Vec<Within>) {
    let n = 2 * KIND_COUNT;
    let mut occupy = vec![[[0; MAX_D + 1]; 64]; n];
    let mut attack = vec![[[0; MAX_D + 1]; 64]; n];
    for &k in ALL_KINDS.iter().filter(|&&k| k != Kind::Pawn && used(k)) {
        for from in 0..64 {
            let d = piece_dist(k, from);
            let occ = within(&d, bb);
            let att = within(&d, |s| piece_attacks(s, Color::White, k, 0));
            for c in [Color::White, Color::Black] {
                occupy[idx(c, k)][from] = occ;
                attack[idx(c, k)][from] = att;
            }
        }
    }
    for c in [Color::White, Color::Black] {
        for from in 0..64 {
            let d = pawn_dist(c, from);
            let mut occ = within(&d, bb);
            let mut att = within(&d, |s| {
                if c.relative_rank(s) == 7 {
                    0
                } else {
                    pawn_attacks(c, s)
                }
            });
            // Promotion on q after d[q] moves, then the new piece's moves.
            for q in 0..64usize {
                let dq = d[q] as usize;
                if c.relative_rank(q as u8) != 7 || dq > MAX_D {
                    continue;
                }
                for &k in promotions {
                    let po = &occupy[idx(c, k)][q];
                    let pa = &attack[idx(c, k)][q];
                    for i in dq..=MAX_D {
                        occ[i] |= po[i - dq];
                        att[i] |= pa[i - dq];
                    }
                }
            }
            occupy[idx(c, Kind::Pawn)][from] = occ;
            attack[idx(c, Kind::Pawn)][from] = att;
        }
    }
    (occupy, attack)
}

impl Reach {
    /// Tables for the given promotion choices, for the cuts `cuts` allows (whether the
    /// stalemate test of the loser's other pieces applies, whether a side's moves are shared
    /// among its pieces), of the units' kinds that can occur (`kinds`, besides the king,
    /// the pawn and the promotion pieces, which always get tables).
    pub fn new(promotions: &[Kind], cuts: HelpCuts, kinds: &[Kind]) -> Reach {
        // Only the kinds that can occur get tables; the others stay zero, in pages never
        // touched (`vec!` of zeros asks the system for zeroed memory).
        let used = |k: Kind| {
            matches!(k, Kind::King | Kind::Pawn) || promotions.contains(&k) || kinds.contains(&k)
        };
        let (occupy, attack) = reach_tables(promotions, used);
        let mut ball = [[0; MAX_D + 1]; 64];
        for (from, b) in ball.iter_mut().enumerate() {
            let d = piece_dist(Kind::King, from);
            *b = within(&d, bb);
        }
        let mut steps = vec![[0; 64]; KIND_COUNT];
        for &k in ALL_KINDS.iter() {
            for (sq, t) in steps[k as usize].iter_mut().enumerate() {
                // With every square occupied, riders stop on their first square.
                *t = piece_attacks(sq as u8, Color::White, k, !0);
            }
        }
        let table_used = |i: usize| used(ALL_KINDS[i % KIND_COUNT]);
        let far = far_table(&occupy, table_used);
        let pawn_forms =
            [Color::White, Color::Black].map(|c| pawn_forms_table(c, promotions, &far, true));
        let (near_att, masks) = around_tables(&attack, table_used);
        Reach {
            occupy,
            attack,
            ball,
            steps,
            far,
            near_att,
            masks,
            around: std::array::from_fn(|k| around(k as u8)),
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            pawn_forms,
            pawn_pushes: std::sync::OnceLock::new(),
            promotions: promotions.to_vec(),
            immobile: cuts.immobile,
            shared: cuts.shared_moves,
            standing_checks: cuts.standing_checks,
            walls: cuts.walls,
            beyond: beyond_table(),
            night_promotions: promotions.iter().any(|k| k.parts() & part::NIGHT != 0),
        }
    }

    /// Can the goal (mate when `mate`, else stalemate) be reached against `loser`, with
    /// `win_moves` moves left for the other side and `lose_moves` for the loser? `false`
    /// only when it certainly cannot. (The engine asks [`Self::king_squares`]; this is
    /// the unit tests' yes/no.)
    #[cfg(test)]
    pub fn goal_possible(
        &self,
        pos: &Position,
        loser: Color,
        win_moves: u32,
        lose_moves: u32,
        mate: bool,
    ) -> bool {
        self.king_squares(pos, loser, win_moves, lose_moves, mate) != 0
    }

    /// The squares the cheap cut leaves for the loser's king in the final position
    /// (every square when the cut does not apply); empty when the goal certainly cannot be
    /// reached. For stalemate the immobility test must pass too.
    pub fn king_squares(
        &self,
        pos: &Position,
        loser: Color,
        win_moves: u32,
        lose_moves: u32,
        mate: bool,
    ) -> Bitboard {
        let tight = Cell::new(0);
        self.king_squares_noting(pos, loser, (win_moves, lose_moves), mate, (!0, &tight))
    }

    /// [`Self::king_squares`] among `within` (the king squares the search carries down:
    /// `Engine::help_within`), setting `tight` where the immobility test finds the
    /// winner no move to spare (see [`Self::all_can_be_immobile`]).
    pub fn king_squares_noting(
        &self,
        pos: &Position,
        loser: Color,
        (win_moves, lose_moves): (u32, u32),
        mate: bool,
        (within, tight): (Bitboard, &Cell<Bitboard>),
    ) -> Bitboard {
        let (w, l) = (win_moves as usize, lose_moves as usize);
        if w > MAX_D || l > MAX_D || pos.castling != 0 {
            return !0;
        }
        let ksq = pos.king(loser);
        if ksq == NO_SQUARE {
            return !0;
        }
        if !mate
            && self.immobile
            && self.shared
            && !self.units_can_be_stopped(pos, loser, (w, l), (within & bb(ksq) != 0, w))
        {
            return 0;
        }
        let board = &pos.board;
        let winner = loser.flip();
        // With one move left only one of the winner's pieces moves; the others attack
        // from where they stand. (Each table includes the squares attacked with fewer
        // moves, so the mover's present attacks are in its own set too.)
        let (mut standing, mut any_mover): (Bitboard, Bitboard) = (0, 0);
        let mut movers = [0 as Bitboard; 16];
        let mut n = 0;
        for s in Squares(board.by_color[winner.idx()]) {
            let k = board.kind_at(s).expect("occupied");
            let t = &self.attack[idx(winner, k)][s as usize];
            standing |= t[0];
            any_mover |= t[w];
            if n < movers.len() {
                movers[n] = t[w];
            }
            n += 1;
        }
        let (layers, pieces) = self.loser_layers(pos, loser, l);
        let test =
            |guarded| self.king_squares_with(ksq, guarded, (&layers, within), l, pieces, mate);
        // The test only grows with the guarded squares, and each mover's set lies within
        // `any_mover`: when that leaves nothing, no single mover does.
        let mut squares = test(any_mover);
        if squares != 0 && self.shared && w == 1 && (2..=movers.len()).contains(&n) {
            squares = movers[..n].iter().fold(0, |a, &m| a | test(standing | m));
        }
        if squares != 0 && self.standing_checks && w == 1 && l >= 1 {
            squares &= !self.checked_before(pos, loser, l, &layers);
        }
        let immobile =
            || !self.immobile || self.all_can_be_immobile(pos, loser, (w, l), &layers, tight);
        if squares != 0 && (mate || immobile()) {
            squares
        } else {
            0
        }
    }

    /// `layers[d]`: the squares some unit of the loser other than its king can stand on
    /// within `d` moves (up to `l`), on an empty board; and the number of those units.
    fn loser_layers(&self, pos: &Position, loser: Color, l: usize) -> ([Bitboard; MAX_D + 1], u32) {
        let board = &pos.board;
        let mut layers = [0; MAX_D + 1];
        let mut pieces = 0;
        for s in Squares(board.by_color[loser.idx()] & !bb(pos.king(loser))) {
            let k = board.kind_at(s).expect("occupied");
            let t = &self.occupy[idx(loser, k)][s as usize];
            for (d, layer) in layers.iter_mut().enumerate().take(l + 1) {
                *layer |= t[d];
            }
            pieces += 1;
        }
        (layers, pieces)
    }

    /// With the winner's last move alone left (`w == 1`) and the loser still to move
    /// (`l >= 1` moves): the squares its king cannot stand on in the final position, being
    /// attacked already before that move by a unit of the winner that nothing can block (a
    /// leap, or a step to a square next to the unit: [`Self::standing_attacks`]). The loser's
    /// last move never leaves its king in check, and the winner's units stand where they
    /// are until the last move, which no unit makes from a square attacking the king (that
    /// was check already). So the king's final square is not attacked so by a unit
    /// unless the loser captures that unit first: another of its units reaching the
    /// unit's square (`layers`, by [`Self::king_squares`]) within the moves its king's
    /// walk leaves, or the king itself on its way. (A pawn that may be taken en passant is
    /// taken beside its square: pawns count as taken then. The winner's king, which no one
    /// takes, is left to the test itself, which never puts the two kings side by side.)
    /// The captured unit then covers nothing in the final position
    /// ([`Self::covers_around`]).
    fn checked_before(
        &self,
        pos: &Position,
        loser: Color,
        l: usize,
        layers: &[Bitboard; MAX_D + 1],
    ) -> Bitboard {
        let winner = loser.flip();
        let board = &pos.board;
        let (ksq, wk) = (pos.king(loser), pos.king(winner));
        let mut out = 0;
        let reach = self.ball[ksq as usize][l];
        for s in Squares(board.by_color[winner.idx()] & !bb(wk)) {
            let kind = board.kind_at(s).expect("occupied");
            if kind == Kind::Pawn && pos.ep != NO_SQUARE {
                continue;
            }
            for k in Squares(self.standing_attacks(s, winner, kind) & reach & !out) {
                let walk = king_distance(ksq, k);
                let taken = layers[l - walk] & bb(s) != 0
                    || king_distance(ksq, s) + king_distance(s, k) <= l;
                if !taken {
                    out |= bb(k);
                }
            }
        }
        out
    }

    /// What a unit of kind `k` and colour `c` on `s` attacks whatever stands around it:
    /// its leaps, and the first square of each of its rides (`steps`; a pawn's captures).
    fn standing_attacks(&self, s: u8, c: Color, k: Kind) -> Bitboard {
        if k == Kind::Pawn {
            pawn_attacks(c, s)
        } else {
            self.steps[k as usize][s as usize]
        }
    }

    /// The sharper, costlier form of the king-square test (see "One final position" in
    /// the module comment): every winner piece ends on one square, their moves add up
    /// within `win_moves`, and distinct loser pieces hold the flights the winner leaves,
    /// their moves and the king's walk adding up within `lose_moves`. `false` only when no
    /// such picture exists.
    pub fn final_possible(
        &self,
        pos: &Position,
        loser: Color,
        win_moves: u32,
        lose_moves: u32,
        mate: bool,
        squares: Bitboard,
    ) -> bool {
        let sides = (loser, win_moves, lose_moves);
        self.final_pictures(pos, sides, mate, squares, false).0 != 0
    }

    /// [`Self::final_possible`] (the first answer: every king square of a picture, of
    /// those in `squares`, empty when there is none) and, when `spare` is asked for,
    /// whether a picture fits within one loser move less (the second; `true` where the
    /// test does not apply). One pass: a picture with one move less is one with all the
    /// moves. Every king square is looked at: the search gives the squares to the
    /// positions after the moves, where they are the only ones that can fit.
    pub fn final_pictures(
        &self,
        pos: &Position,
        (loser, win_moves, lose_moves): (Color, u32, u32),
        mate: bool,
        squares: Bitboard,
        spare: bool,
    ) -> (Bitboard, bool) {
        let (w, l) = (win_moves as usize, lose_moves as usize);
        let ksq = pos.king(loser);
        if !self.shared || w > MAX_D || l > MAX_D || pos.castling != 0 || ksq == NO_SQUARE {
            return (!0, true);
        }
        let winner = loser.flip();
        let (pieces, reach_any) = self.winner_pieces(pos, winner, w);
        let forms = std::cell::OnceCell::new();
        // The loser's other pieces, and what they can hold within `l` moves.
        let others = loser_units(pos, loser);
        let others = others.as_slice();
        let mut held_any = 0;
        // Per square, the fewest moves in which one of those pieces reaches it.
        let mut near = [NONE; 64];
        for &(k, s) in others {
            let table = idx(loser, k);
            held_any |= self.occupy[table][s as usize][l];
            for (n, &d) in near.iter_mut().zip(self.far[table][s as usize].iter()) {
                *n = (*n).min(d);
            }
        }
        let king = pos.king(winner) != NO_SQUARE;
        let checks = mate && self.standing_checks && answers_checks(others);
        self.with_covers(winner, pieces.as_slice(), (w, checks), |covers| {
            let (mut fits, mut spared) = (0, false);
            for k in Squares(self.ball[ksq as usize][l] & squares) {
                let walk = king_distance(ksq, k);
                let flights = KING[k as usize];
                if mate && reach_any & bb(k) == 0 || flights & !(reach_any | held_any) != 0 {
                    continue;
                }
                let (a, b) = self.covers_around(
                    covers,
                    &forms,
                    pieces.as_slice(),
                    (winner, king, checks),
                    w,
                    k,
                );
                let n = self.around[k as usize].1;
                let (a, b) = covers.leaves_around(k, n, (a, b), mate);
                let leaves = &covers.leaves[a..b];
                let open = &mut covers.open;
                // The cheap bound first (most king squares end there), from each square's
                // nearest piece: one that reaches no flight within the budget is farther
                // than the budget from each, so it changes no answer of the bound.
                let (least, at_once) = self.least_bound(&near, k, leaves, &pos.board);
                let holds = |budget: usize, open: &mut Vec<u16>| {
                    at_once
                        || least <= budget
                            && self.loser_holds(others, loser, k, budget, leaves, open)
                };
                if holds(l - walk, open) {
                    fits |= bb(k);
                    if spare && !spared && walk < l && holds(l - 1 - walk, open) {
                        spared = true;
                    }
                }
            }
            (fits, spared)
        })
    }

    /// Runs `f` with the winner's kept covers for its placement `pieces` (square, kind),
    /// `w` moves and whether they carry checks (`checks`: for mate, where attacks stand
    /// and a loser unit could answer one, [`answers_checks`]): they depend only on those, the same for
    /// almost every loser move between two winner moves, so they are kept per thread.
    fn with_covers<R>(
        &self,
        winner: Color,
        pieces: &[(u8, Kind)],
        (w, checks): (usize, bool),
        f: impl FnOnce(&mut Covers) -> R,
    ) -> R {
        let config = self.cover_config((w, checks), winner, pieces);
        let slot = cover_slot(config.clone());
        COVERS.with_borrow_mut(|cache| {
            if cache.is_empty() {
                cache.resize_with(COVER_SLOTS, || None);
            }
            let covers = cache[slot].get_or_insert_with(Box::default);
            covers.reset_unless(config);
            f(covers)
        })
    }

    /// The range of `covers.data` holding the winner's cheapest covers around `k`
    /// ([`Self::winner_covers`]; `king`: the winner has a king, its first piece; `pieces`:
    /// the winner's units, square and kind, whose forms (`forms`, [`Self::forms_of`]) are
    /// made at the first cover set built; with `checks` they
    /// carry their check, [`CHECK`]), made the first time
    /// they are asked for. With the last move alone left, a unit other than the king that
    /// attacks `k` where it stands ([`Self::standing_attacks`]) covers nothing: it is captured
    /// before the loser's king gets to `k` ([`Self::checked_before`]).
    fn covers_around<'r>(
        &'r self,
        covers: &mut Covers,
        forms: &'r std::cell::OnceCell<Vec<Form<'r>>>,
        pieces: &[(u8, Kind)],
        (winner, king, checks): (Color, bool, bool),
        w: usize,
        k: u8,
    ) -> (usize, usize) {
        if let Some(range) = covers.spans.get(k) {
            return range;
        }
        let start = covers.data.len();
        let mut taken = 0u64;
        if self.standing_checks && w == 1 {
            for (i, &(s, kind)) in pieces.iter().enumerate().skip(usize::from(king)) {
                if self.standing_attacks(s, winner, kind) & bb(k) != 0 {
                    taken |= 1 << i;
                }
            }
        }
        let forms = self.forms_of(forms, winner, pieces, w);
        SCRATCH.with_borrow_mut(|scratch| {
            let data = &mut covers.data;
            self.winner_covers(forms, (winner, king, taken, checks), w, k, scratch, data);
        });
        covers.spans.set(k, (start, covers.data.len()));
        (start, covers.data.len())
    }

    /// The winner's pieces (the king first), and every square they can attack within `w`
    /// moves.
    fn winner_pieces(
        &self,
        pos: &Position,
        winner: Color,
        w: usize,
    ) -> (Units<(u8, Kind)>, Bitboard) {
        let board = &pos.board;
        let mut pieces = Units::new((0u8, Kind::Pawn));
        let mut reach_any = 0;
        let wk = pos.king(winner);
        for s in std::iter::once(wk)
            .filter(|&s| s != NO_SQUARE)
            .chain(Squares(board.by_color[winner.idx()] & !bb(wk)))
        {
            let k = board.kind_at(s).expect("occupied");
            reach_any |= self.attack[idx(winner, k)][s as usize][w];
            pieces.push((s, k));
        }
        (pieces, reach_any)
    }

    /// The forms of the winner's `pieces` (a pawn: as a pawn and as each promotion piece)
    /// within `w` moves, made once per caller at the first cover set built
    /// ([`Self::covers_around`]).
    fn forms_of<'r>(
        &'r self,
        forms: &'r std::cell::OnceCell<Vec<Form<'r>>>,
        winner: Color,
        pieces: &[(u8, Kind)],
        w: usize,
    ) -> &'r [Form<'r>] {
        forms.get_or_init(|| {
            let mut out = Vec::with_capacity(32);
            for &(s, k) in pieces {
                self.forms(winner, k, s, w, &mut out);
            }
            out
        })
    }

    /// The key of the winner's kept covers (see `Covers`), as a sequence of numbers (its
    /// slot: [`cover_slot`]).
    fn cover_config<'p>(
        &self,
        (w, checks): (usize, bool),
        winner: Color,
        pieces: &'p [(u8, Kind)],
    ) -> impl Iterator<Item = u16> + Clone + 'p {
        let id = self.id;
        let head = [
            id as u16,
            (id >> 16) as u16,
            (id >> 32) as u16,
            w as u16 | u16::from(checks) << 8,
            winner.idx() as u16,
        ];
        let units = pieces.iter().map(|&(s, k)| u16::from(s) | (k as u16) << 6);
        head.into_iter().chain(units)
    }

    /// The least of the cheap bounds of [`Self::loser_holds`] over what the winner's covers
    /// around `k` leave (`leaves`, [`minimal_leaves`]): the moves the loser needs at least
    /// to hold the flights a cover leaves, each flight by its nearest piece (`near`, per
    /// square); `usize::MAX` when no cover applies. `loser_holds` can hold only within a
    /// budget at least this bound. The second answer: whether it holds at once, a bound
    /// of 0 (a loser unit on each flight the cover leaves) where none of those units could
    /// answer the cover's check ([`answer_square`]), as `loser_holds` would find (the
    /// units on `board`).
    fn least_bound(
        &self,
        near: &[u8; 64],
        k: u8,
        leaves: &[u16],
        board: &crate::core::board::Board,
    ) -> (usize, bool) {
        let (sq, n) = self.around[k as usize];
        // Each flight's cost in a byte, at most 31 (more than any budget, `MAX_D`): a sum
        // of up to eight stays within its byte, and is over every budget where the true
        // one is.
        let nearest = (0..n).fold(0u64, |acc, i| {
            acc | u64::from(near[sq[i] as usize].min(31)) << (8 * i)
        });
        // With a bound of 0 a loser unit stands on each flight `u` leaves: does one of
        // them (not a pawn) step onto `x`, answering the check?
        let answered = |x: u8, u: u64| {
            Squares(u).any(|i| {
                let f = sq[i as usize];
                board
                    .kind_at(f)
                    .is_some_and(|kind| self.answers(kind, f, x))
            })
        };
        let mut least = usize::MAX;
        for &e in leaves {
            let u = u64::from(e) & COVER as u64;
            let bound = ((nearest & BYTES[u as usize & 0xFF]).wrapping_mul(0x0101_0101_0101_0101)
                >> 56) as usize;
            least = least.min(bound);
            if bound == 0
                && answer_square(k, usize::from(e) >> OUT_CHECK).is_none_or(|x| !answered(x, u))
            {
                return (0, true);
            }
        }
        (least, false)
    }

    /// Can distinct pieces of the loser (`others`: kind and square) hold the flights of `k`
    /// that one of the winner's covers leaves (`leaves`, [`minimal_leaves`]: for mate, of
    /// the covers that attack `k`), within `budget` moves in all? First the cheap bound
    /// (each flight's nearest piece), then the exact assignment.
    fn loser_holds(
        &self,
        others: &[(Kind, u8)],
        loser: Color,
        k: u8,
        budget: usize,
        leaves: &[u16],
        open: &mut Vec<u16>,
    ) -> bool {
        let (sq, n) = self.around[k as usize];
        let mut nearest = [NONE; 8];
        let mut costs = [[NONE; 8]; 16];
        let mut kinds = [Kind::Pawn; 16];
        let mut movers = 0;
        // `budget` is at most `l`, within the tables (MAX_D).
        let flights = KING[k as usize];
        for &(kind, s) in others {
            let table = idx(loser, kind);
            // A piece that can reach no flight within the budget holds none (the same
            // as every `far` cost above the budget: `far` is the first `occupy` step).
            if self.occupy[table][s as usize][budget] & flights == 0 {
                continue;
            }
            let row = &self.far[table][s as usize];
            let cost: [u8; 8] =
                std::array::from_fn(|i| if i < n { row[sq[i] as usize] } else { NONE });
            for i in 0..n {
                nearest[i] = nearest[i].min(cost[i]);
            }
            if movers < costs.len() {
                costs[movers] = cost;
                kinds[movers] = kind;
            }
            movers += 1;
        }
        let bound = |u: usize| -> usize {
            (0..n)
                .filter(|&i| u & 1 << i != 0)
                .map(|i| nearest[i] as usize)
                .sum()
        };
        open.clear();
        for &e in leaves {
            let u = usize::from(e) & COVER;
            if u.count_ones() as usize <= movers && bound(u) <= budget {
                if u == 0 || movers > costs.len() {
                    return true;
                }
                open.push(e);
            }
        }
        self.holders_assigned(open, (&costs[..movers], &kinds[..movers]), k, budget)
    }

    /// The exact part of [`Self::loser_holds`]: can distinct pieces (`costs` to each
    /// flight, and their `kinds`) hold the flights of one of the `open` sets within
    /// `budget`? Each set carries the cover's check from bit [`OUT_CHECK`] ([`check_code`]):
    /// where it is a lone check (nothing can pin a unit next to the king without a
    /// second one) with an answer square
    /// ([`answer_square`]: the square between on a line, or the checker's own square next
    /// to the king or a knight's leap away), a piece other than a pawn (which may end
    /// promoted) that could step from its flight onto that square would answer the check
    /// (block it, or take the checker): it holds no flight. Fewest flights first.
    fn holders_assigned(
        &self,
        open: &mut [u16],
        (costs, kinds): (&[[u8; 8]], &[Kind]),
        k: u8,
        budget: usize,
    ) -> bool {
        let low = |u: u16| u & ((1 << OUT_CHECK) - 1);
        // The sets of the same flights together: the plain assignment (no holder taken
        // away) is asked once for them, and where it fails, every one fails, and so does
        // every set holding all their flights.
        open.sort_unstable_by_key(|&u| (low(u).count_ones(), low(u), u));
        let mut failed = [0u16; 256];
        let mut fails = 0;
        let mut plain: Option<(u16, bool)> = None;
        let mut last = None;
        for &u in open.iter() {
            let flights = low(u);
            if last == Some(u) {
                continue;
            }
            last = Some(u);
            let fits = match plain {
                Some((p, fits)) if p == flights => fits,
                _ => {
                    let fits = !failed[..fails].iter().any(|&f| f & !flights == 0)
                        && assign(usize::from(flights), costs, budget);
                    if !fits && fails < failed.len() {
                        failed[fails] = flights;
                        fails += 1;
                    }
                    plain = Some((flights, fits));
                    fits
                }
            };
            if !fits {
                continue;
            }
            let Some(x) = answer_square(k, usize::from(u >> OUT_CHECK)) else {
                return true;
            };
            match self.answering_masked((costs, kinds), k, flights, x) {
                None => return true,
                Some(masked) if assign(usize::from(flights), &masked[..costs.len()], budget) => {
                    return true;
                }
                Some(_) => {}
            }
        }
        false
    }

    /// Would a loser unit of kind `kind` holding the flight `f` answer a lone check whose
    /// answer square is `x` ([`answer_square`]) by one step? Never a pawn, which may end
    /// promoted.
    fn answers(&self, kind: Kind, f: u8, x: u8) -> bool {
        kind != Kind::Pawn && self.steps[kind as usize][f as usize] & bb(x) != 0
    }

    /// The holders' `costs` (with their `kinds`) for the flights `flights` of `k` where a
    /// unit other than a pawn that could step from a flight onto `x` holds nothing there
    /// (it would answer the check: [`Self::holders_assigned`]); `None` where that takes no
    /// flight of `flights` from any unit.
    fn answering_masked(
        &self,
        (costs, kinds): (&[[u8; 8]], &[Kind]),
        k: u8,
        flights: u16,
        x: u8,
    ) -> Option<[[u8; 8]; 16]> {
        let (sq, n) = self.around[k as usize];
        let mut masked = [[NONE; 8]; 16];
        let mut changed = false;
        for (j, row) in masked.iter_mut().enumerate().take(costs.len()) {
            *row = costs[j];
            for (f, c) in row.iter_mut().enumerate().take(n) {
                if self.answers(kinds[j], sq[f], x) {
                    changed |= flights & 1 << f != 0 && *c != NONE;
                    *c = NONE;
                }
            }
        }
        changed.then_some(masked)
    }

    /// [`Self::loser_progress_into`], returned (for the tests).
    #[cfg(test)]
    pub fn loser_progress(
        &self,
        pos: &Position,
        sides: (Color, u32, u32),
        mate: bool,
        squares: Bitboard,
    ) -> Option<Progress> {
        let mut out = None;
        self.loser_progress_into(pos, sides, mate, squares, &mut out);
        out
    }

    /// The filter of the loser's moves (`loser` to move; `win_moves` and `lose_moves`
    /// left, this one included) where no final picture ([`Self::final_possible`]) fits
    /// within `lose_moves - 1` of its moves, and `squares` holds the king squares of the
    /// pictures with all of them (as [`Self::final_pictures`] gives them): the caller has
    /// found none with one move less. `None` where the pictures do not apply, or the
    /// loser has more than [`HOLDERS`] units besides its king (every move is kept then).
    ///
    /// Sound: the picture depends on the loser's units only through the king's walk and
    /// the holders' distances to their flights, and a move of the loser only takes
    /// options from the winner (a captured piece covers nothing, which was an option
    /// already). Let a move of a unit `x` other than the king lead to a position with a
    /// picture: its loser cost is at most `lose_moves - 1` there, and it is a picture with
    /// all the loser's moves before the move (`x` being one move further from its flight
    /// at most), so its king square `k` is among `squares`. Were `x` not one of its
    /// holders, the same picture would fit before the move within `lose_moves - 1`, which
    /// it does not. So `x` holds a flight `f` of some open set `u` (the flights a cover of
    /// the winner leaves; a cover inside another one leaves a larger `u`, and a picture
    /// with it gives one with the larger cover whose holders are among the same, so the
    /// largest covers suffice: where `x` would not be among those holders, the picture
    /// with them fits before the move; a larger cover whose lone check bars other units
    /// from holding stands for no smaller one: the open sets are those of
    /// [`minimal_leaves`], as the pictures take them). The other flights of `u` are held
    /// by distinct units other than `x`, each at least as far as the nearest such unit,
    /// so `x`'s distance to `f` after its move is at most the moves after it less the
    /// king's walk to `k` and less those nearest distances; and it fell by at least one
    /// (else the picture fitted before the move within `lose_moves - 1`). Likewise a king move
    /// leads to a picture only if its walk to the picture's `k` fell by one and fits in
    /// the moves after this one with the nearest holders of the open flights (castling,
    /// which moves a rook too, is kept). A move of no such kind leaves no picture, so no
    /// goal.
    ///
    /// Built where `out` stands (left `None` where the filter does not apply): a
    /// `Progress` is over a kilobyte, and returned by value it was copied three times on
    /// its way into the node's filter.
    pub fn loser_progress_into(
        &self,
        pos: &Position,
        (loser, win_moves, lose_moves): (Color, u32, u32),
        mate: bool,
        squares: Bitboard,
        out: &mut Option<Progress>,
    ) {
        let (w, l) = (win_moves as usize, lose_moves as usize);
        let ksq = pos.king(loser);
        let others = loser_units(pos, loser);
        let others = others.as_slice();
        if w > MAX_D || l > MAX_D || l == 0 || ksq == NO_SQUARE || others.len() > HOLDERS {
            return;
        }
        let p = out.insert(Progress {
            king: ksq,
            side: loser,
            slot: [NONE; 64],
            room: [[0; 64]; HOLDERS],
            roomy: [0; HOLDERS],
            king_room: [0; 64],
            ends: 0,
        });
        for (i, &(_, s)) in others.iter().enumerate() {
            p.slot[s as usize] = i as u8;
        }
        let winner = loser.flip();
        let (pieces, _) = self.winner_pieces(pos, winner, w);
        let forms = std::cell::OnceCell::new();
        let king = pos.king(winner) != NO_SQUARE;
        let checks = mate && self.standing_checks && answers_checks(others);
        self.with_covers(winner, pieces.as_slice(), (w, checks), |covers| {
            // `squares` holds only king squares of pictures (`final_pictures` tested each).
            for k in Squares(self.ball[ksq as usize][l] & squares) {
                let (a, b) = self.covers_around(
                    covers,
                    &forms,
                    pieces.as_slice(),
                    (winner, king, checks),
                    w,
                    k,
                );
                let n = self.around[k as usize].1;
                let (a, b) = covers.leaves_around(k, n, (a, b), mate);
                self.rooms_around(p, others, (k, l), &covers.leaves[a..b]);
            }
        });
    }

    /// The rooms of [`Progress`] for the pictures with the king on `k` (`l`: the loser's
    /// moves, this one included), from what the winner's covers around `k` leave open
    /// (`leaves`, [`minimal_leaves`]: an open set is left out only where another inside
    /// it bars no other holder, so the loser has no more room with it). Each open flight
    /// set `u` (the flights a cover leaves, for mate one that attacks `k`) must be held by
    /// distinct units; the others' part costs at least the sum, over their flights, of the
    /// nearest unit other than the mover (the nearest and the second nearest are kept per
    /// flight).
    fn rooms_around(
        &self,
        p: &mut Progress,
        others: &[(Kind, u8)],
        (k, l): (u8, usize),
        leaves: &[u16],
    ) {
        let (sq, n) = self.around[k as usize];
        let near = self.nearest_holders(others, p.side, &sq[..n]);
        let bits = |u: usize| (0..n).filter(move |&i| u & 1 << i != 0);
        let walk = king_distance(p.king, k);
        let all = (1usize << n) - 1;
        let mut plain = [0u8; 8];
        // The units nearest to some flight of `k` (the others get `plain`).
        let special = near[..n]
            .iter()
            .filter(|e| e.1 != NONE)
            .fold(0u32, |acc, e| acc | 1 << e.1);
        for &e in leaves {
            let u = usize::from(e) & all;
            let nearest: usize = bits(u).map(|i| usize::from(near[i].0)).sum();
            // A king move: the walk after it and the holders fit in the moves left.
            if let Some(r) = (l - 1).checked_sub(nearest) {
                let room = &mut p.king_room[k as usize];
                *room = (*room).max(r.min(MAX_D) as u8 + 1);
                p.ends |= bb(k);
            }
            let Some(budget) = (l - 1).checked_sub(walk) else {
                continue;
            };
            // A unit nearest to no flight of `k` counts the nearest everywhere (`plain`);
            // one nearest to some counts the second nearest there instead.
            let mut room_of = |unit: Option<usize>, p: &mut Progress| {
                let own = |i: usize| match near[i] {
                    (_, x, second) if Some(x as usize) == unit => usize::from(second),
                    (first, _, _) => usize::from(first),
                };
                let total: usize = bits(u).map(own).sum();
                for i in bits(u) {
                    let rest = total - own(i);
                    if rest <= budget {
                        let r = (budget - rest) as u8 + 1;
                        match unit {
                            Some(x) => {
                                p.room[x][sq[i] as usize] = p.room[x][sq[i] as usize].max(r);
                                p.roomy[x] |= bb(sq[i]);
                            }
                            None => plain[i] = plain[i].max(r),
                        }
                    }
                }
            };
            room_of(None, p);
            for x in (0..others.len()).filter(|&x| special & 1 << x != 0) {
                room_of(Some(x), p);
            }
        }
        // The plain rooms, for every unit nearest to no flight of `k`.
        for unit in (0..others.len()).filter(|&x| special & 1 << x == 0) {
            for (i, &r) in plain[..n].iter().enumerate().filter(|x| *x.1 > 0) {
                let room = &mut p.room[unit][sq[i] as usize];
                *room = (*room).max(r);
                p.roomy[unit] |= bb(sq[i]);
            }
        }
    }

    /// Per flight `sq[i]`: the distance of the nearest of the loser's units `others`,
    /// that unit's index (`NONE`: none can get there), and the second nearest distance.
    fn nearest_holders(&self, others: &[(Kind, u8)], side: Color, sq: &[u8]) -> [(u8, u8, u8); 8] {
        let mut near = [(NONE, NONE, NONE); 8];
        for (unit, &(kind, s)) in others.iter().enumerate() {
            let row = &self.far[idx(side, kind)][s as usize];
            for (e, &f) in near.iter_mut().zip(sq) {
                let d = row[f as usize];
                if d < e.0 {
                    *e = (d, unit as u8, e.0);
                } else if d < e.2 {
                    e.2 = d;
                }
            }
        }
        near
    }

    /// The options of one winner piece (its `forms`) around `k`: each set of squares it
    /// can attack there, with the fewest moves for it; for the king also attacking
    /// nothing, at the moves to the nearest square from which it attacks nothing there.
    #[allow(clippy::too_many_arguments)]
    fn piece_options(
        &self,
        forms: &[Form],
        (winner, is_king, checks_kept): (Color, bool, bool),
        w: usize,
        k: u8,
        opts: &mut Vec<(usize, u8)>,
        opt_best: &mut [u8; 512],
    ) {
        let near = KING[k as usize] | bb(k);
        let checks = 1 << KING[k as usize].count_ones();
        opts.clear();
        for f in forms {
            let fi = idx(winner, f.kind);
            let mut cands = f.reach & self.near_att[fi][k as usize] & !bb(k);
            if is_king {
                // The king never stands next to the other king; attacking nothing
                // around `k` costs it the moves to the nearest such square.
                cands &= !near;
                let idle = f.reach & !near & !self.near_att[fi][k as usize];
                if let Some(d) = (0..=w).find(|&d| self.occupy[fi][f.from as usize][d] & idle != 0)
                {
                    opts.push((0, d as u8));
                    opt_best[0] = opt_best[0].min(d as u8);
                }
            }
            for t in Squares(cands) {
                let mut m = self.masks[fi][t as usize][k as usize] as usize;
                let c = f.row[t as usize];
                if checks_kept && m & checks != 0 {
                    m |= check_code(k, t) << CHECK;
                }
                if KING[k as usize] & bb(t) != 0 {
                    // Standing next to `k`, the piece needs another one to cover its
                    // square: the square's bit above the cover ([`NEEDS`]).
                    let i = (KING[k as usize] & (bb(t) - 1)).count_ones();
                    m |= 1 << (NEEDS + i as usize);
                }
                if m > COVER {
                    match opts.iter_mut().find(|o| o.0 == m) {
                        Some(o) => o.1 = o.1.min(c),
                        None => opts.push((m, c)),
                    }
                } else if opt_best[m] == NONE {
                    opts.push((m, c));
                    opt_best[m] = c;
                } else if c < opt_best[m] {
                    opt_best[m] = c;
                }
            }
        }
        for o in opts.iter_mut().filter(|o| o.0 <= COVER) {
            o.1 = opt_best[o.0];
            opt_best[o.0] = NONE;
        }
    }

    /// The winner's cheapest covers of the squares around `k` (bit i: the i-th square of
    /// `around(k)`, bit n: `k`): one entry per set it can cover, with the fewest moves in
    /// all that cover it, each piece taking one of its forms' squares (see the module
    /// comment). `king`: the first piece is the winner's king.
    #[allow(clippy::too_many_arguments)]
    fn winner_covers(
        &self,
        forms: &[Form],
        (winner, king, taken, checks_kept): (Color, bool, u64, bool),
        w: usize,
        k: u8,
        scratch: &mut Scratch,
        out: &mut Vec<(u16, u8)>,
    ) {
        let Scratch {
            states,
            opts,
            opt_best,
            old,
        } = scratch;
        DP_BEST.with_borrow_mut(|best| {
            states.clear();
            best[0] = 1;
            states.push(0);
            self.cover_steps(
                forms,
                (winner, king, taken, checks_kept),
                w,
                k,
                (best, states, opts, opt_best, old),
            );
            // A piece next to `k` is covered by another, or the king takes it: the states
            // wanting a square are no final position. The others are their covers with
            // their check, each once.
            for &m in states.iter() {
                if (m >> NEEDS) & 0xFF == 0 {
                    let cover = m & COVER;
                    out.push(((cover | check_of(m) << OUT_CHECK) as u16, best[m] - 1));
                }
                best[m] = 0;
            }
        });
    }

    /// The steps of [`Self::winner_covers`], one piece after the other: `best[key]` holds
    /// one more than the fewest moves for the state `key` (0: none), a state being the
    /// squares covered and, above them ([`NEEDS`]), the squares next to `k` that a piece
    /// stands on and none covers yet; `states` lists the keys reached.
    #[allow(clippy::type_complexity)]
    fn cover_steps(
        &self,
        forms: &[Form],
        (winner, king, taken, checks_kept): (Color, bool, u64, bool),
        w: usize,
        k: u8,
        (best, states, opts, opt_best, old): (
            &mut [u8],
            &mut Vec<usize>,
            &mut Vec<(usize, u8)>,
            &mut [u8; 512],
            &mut Vec<(usize, u8)>,
        ),
    ) {
        // [piece]: the squares around `k` the pieces after it may attack within `w` moves;
        // a state wanting a square none of them can cover is dropped.
        let (sq, n) = self.around[k as usize];
        let mut later = [0usize; 65];
        for f in forms.iter().rev() {
            let p = f.piece as usize;
            let attack = self.attack[idx(winner, f.kind)][f.from as usize][w];
            later[p] = later[p + 1] | gather(attack, &sq, n);
        }
        let mut i = 0;
        while i < forms.len() {
            let piece = forms[i].piece;
            let is_king = king && piece == 0;
            let end = forms[i..]
                .iter()
                .position(|f| f.piece != piece)
                .map_or(forms.len(), |j| i + j);
            let group = &forms[i..end];
            i = end;
            if taken & 1 << piece != 0 {
                continue;
            }
            self.kept_options(group, (winner, is_king, checks_kept), w, k, opts, opt_best);
            // Each piece takes one of its options; a piece other than the king may also
            // be captured or attack nothing around `k`, which keeps the states as they
            // are. The king always stands somewhere, never next to `k`.
            old.clear();
            old.extend(states.iter().map(|&m| (m, best[m] - 1)));
            if is_king {
                for &(m, _) in old.iter() {
                    best[m] = 0;
                }
                states.clear();
            }
            for &(m, c) in old.iter() {
                // The options come cheapest first.
                for &(om, oc) in opts.iter() {
                    let nc = c as usize + oc as usize;
                    if nc > w {
                        break;
                    }
                    let nm = joined(m, om);
                    let coverable = (nm >> NEEDS) & 0xFF & !later[piece as usize + 1] == 0;
                    // The same cover with a check no holder can answer is as good.
                    let other = nm | OTHER_CHECK << CHECK;
                    let beaten = checks_kept
                        && other != nm
                        && best[other] != 0
                        && best[other] as usize <= nc + 1;
                    if coverable && !beaten && (best[nm] == 0 || nc + 1 < best[nm] as usize) {
                        if best[nm] == 0 {
                            states.push(nm);
                        }
                        best[nm] = nc as u8 + 1;
                    }
                }
            }
        }
    }

    /// The options of one winner piece around `k` ([`Self::piece_options`]) less those
    /// covering no more than a cheaper one, standing next to `k` where it does (they add
    /// nothing), cheapest first; kept per thread for the piece's kind, square and moves.
    fn kept_options(
        &self,
        forms: &[Form],
        (winner, is_king, checks_kept): (Color, bool, bool),
        w: usize,
        k: u8,
        opts: &mut Vec<(usize, u8)>,
        opt_best: &mut [u8; 512],
    ) {
        let f = &forms[0];
        let key = 1 << 63
            | u64::from(checks_kept) << 61
            | (self.id & 0xFFFF_FFFF) << 24
            | (winner.idx() as u64) << 23
            | (f.kind as u64) << 17
            | u64::from(f.from) << 11
            | (w as u64) << 7
            | u64::from(k) << 1
            | u64::from(is_king);
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize;
        let hit = OPTIONS.with_borrow(|kept| {
            let e = kept.get(slot).filter(|e| kept_key(e) == key)?;
            opts.clear();
            opts.extend(
                e[3..3 + e[2] as usize]
                    .iter()
                    .map(|&x| ((x >> 8) as usize, x as u8)),
            );
            Some(())
        });
        if hit.is_some() {
            return;
        }
        self.piece_options(forms, (winner, is_king, checks_kept), w, k, opts, opt_best);
        opts.sort_unstable_by_key(|o| o.1);
        let mut kept = 0;
        for j in 0..opts.len() {
            let (m, c) = opts[j];
            if c != NONE && !opts[..kept].iter().any(|&(m2, _)| no_more(m, m2)) {
                opts[kept] = (m, c);
                kept += 1;
            }
        }
        opts.truncate(kept);
        if kept <= OPTS_KEPT {
            OPTIONS.with_borrow_mut(|all| {
                if all.is_empty() {
                    *all = vec![[0; OPTS_KEPT + 3]; OPT_SLOTS];
                }
                let e = &mut all[slot];
                (e[0], e[1], e[2]) = (key as u32, (key >> 32) as u32, kept as u32);
                for (x, &(m, c)) in e[3..].iter_mut().zip(opts.iter()) {
                    *x = (m as u32) << 8 | u32::from(c);
                }
            });
        }
    }

    /// The forms of a winner piece of kind `k` on `s` within `w` moves: what it can be at
    /// the end (a pawn: a pawn, or a promotion piece after promoting on the way), each
    /// with the moves it takes to stand on each square.
    fn forms<'r>(&'r self, c: Color, k: Kind, s: u8, w: usize, out: &mut Vec<Form<'r>>) {
        let piece = out.last().map_or(0, |f: &Form| f.piece + 1);
        let mut push = |kind: Kind, row: &'r [u8; 64], within: &[Bitboard; MAX_D + 1]| {
            if within[w] != 0 {
                out.push(Form {
                    piece,
                    kind,
                    from: s,
                    row,
                    reach: within[w],
                });
            }
        };
        let (s, i) = (s as usize, idx(c, k));
        if k != Kind::Pawn {
            push(k, &self.far[i][s], &self.occupy[i][s]);
            return;
        }
        let p = &self.pawn_forms[c.idx()][s];
        push(Kind::Pawn, &p.as_pawn.0, &p.as_pawn.1);
        for (kind, (row, within)) in self.promotions.iter().zip(&p.promoted) {
            push(*kind, row, within);
        }
    }

    /// Stalemate: the loser's *hard* pawns. A pawn on `x` of the loser (`l` moves left; the
    /// winner `w`) is hard when the square in front of it is empty and
    /// - no square ahead of it on its file is occupied (it cannot walk up to a unit),
    /// - no winner unit other than the king can reach, within `w` moves on an empty board
    ///   (promotions included), a square of the files next to it level with it or ahead of
    ///   it (it never captures, en passant included), and
    /// - it cannot promote into a piece that gets walled in: no square it can stand on as
    ///   a promotion piece within `dx` moves has first squares the loser's units fill
    ///   within the other `l - dx` (as [`Self::can_be_blocked`] asks).
    ///
    /// In a stalemate a hard pawn is then captured (a winner move), pinned (a pinner), or a
    /// pawn on its file whose front square, empty now, holds a unit: some move lands there
    /// first. That first landing is a winner move that captures nothing (a move onto an
    /// empty square; a winner's en passant lands behind a pawn that came from its start
    /// square, which no pawn of its side stands behind), or a loser move by a unit other
    /// than a pawn (a loser pawn lands only ahead of itself on its file, where a hard pawn
    /// has nothing ahead, or by a capture onto a square someone reached first). Hard pawns
    /// stand on distinct files (the rear of two on one file has one ahead), so their front
    /// squares differ: each needs an event of its own. The loser's moves can be such first
    /// landings only when one of its units other than a pawn reaches a square `j + 1` ahead
    /// of a hard pawn within `l - j` moves (the pawn walking `j`), or one of its pawns can
    /// promote with a move to spare; then at most `l` of them. So the hard pawns number at
    /// most `w` plus the pinners plus those landings. The winner's moves and pins are
    /// shared with the loser's pieces that must be captured or pinned
    /// ([`Self::stuck_pieces`]): `None` where the hard pawns need more than `room` of them,
    /// else a set of hard pawns found and what it needs (none where the pawns that may be
    /// hard are fewer than `room`), for the winner's tight squares
    /// ([`Self::all_can_be_immobile`]).
    fn hard_pawns(
        &self,
        pos: &Position,
        loser: Color,
        (w, l): (usize, usize),
        lone: Bitboard,
        room: usize,
    ) -> Option<(Bitboard, usize)> {
        if (lone.count_ones() as usize) < room {
            return Some((0, 0));
        }
        let winner = loser.flip();
        // Squares some winner unit other than the king can stand on within `w` moves.
        let others = pos.board.by_color[winner.idx()] & !bb(pos.king(winner));
        let winner_reach = self.reach_within(pos, winner, others, w);
        // Hard for sure (too far to promote), and hard unless promoting walls them in. Any
        // set of hard pawns obeys the count, its landings asked of it alone, so those hard
        // for sure may rule the position out before a promotion is looked at.
        let (mut sure, mut open) = (0, 0);
        for x in Squares(lone) {
            if capture_cone(x, loser) & winner_reach == 0 {
                if promotion_moves(loser, x) > l {
                    sure |= bb(x);
                } else {
                    open |= bb(x);
                }
            }
        }
        let need = |hard: Bitboard| {
            let landings = if self.loser_lands_ahead(pos, loser, l, hard) {
                l
            } else {
                0
            };
            (hard.count_ones() as usize).saturating_sub(landings)
        };
        let sure_need = need(sure);
        if sure_need > room {
            return None;
        }
        // With no pawn that may be hard, or room to spare with all of them, those hard for
        // sure decide; else whether the others can promote walled in.
        if open == 0 || need(sure | open) < room {
            return Some((sure, sure_need));
        }
        let walled = Squares(open)
            .filter(|&x| self.promotes_walled(pos, x, loser, l))
            .fold(0, |b, x| b | bb(x));
        let hard = sure | open & !walled;
        match need(hard) {
            n if n > room => None,
            n if n < sure_need => Some((sure, sure_need)),
            n => Some((hard, n)),
        }
    }

    /// Stalemate: can the loser's pieces and its hard pawns all be stopped? Each piece with
    /// no square to be walled in on ([`Self::stuck_pieces`]) and each hard pawn beyond the
    /// loser's landings ([`Self::hard_pawns`]) takes a winner move (a capture, or for a
    /// pawn a first landing in front of it: one or the other, never both) or a pinner; a
    /// piece nothing can capture ([`Self::uncapturable`]) a pinner.
    ///
    /// Where the stuck pieces and the hard pawns' need (`hard`, the set [`Self::hard_pawns`]
    /// counted) number exactly the winner's moves `w` plus its pinners ([`pinners`]), the
    /// winner has no move to spare: `tight` is set to the squares of those pieces and
    /// pawns and the squares ahead of the pawns on their files. With the winner to move
    /// (`w` at least two), a move that lands on none of them (en passant aside) leaves a
    /// position with no stalemate in time. Why: the loser moves next, with `w - 1` winner
    /// moves and its `l` left, and the same count there must fit in `w - 1` plus the
    /// pinners. A winner move takes no unit then, or one outside those squares, and
    /// - every stuck piece stays stuck: that depends on the loser's units and its king's
    ///   square alone, and with a unit fewer the others reach fewer squares;
    /// - every pawn of `hard` stays hard: nothing lands ahead of it on its file, the winner
    ///   reaches no more squares within `w - 1` moves after the move than within `w`
    ///   before it (one move nearer at most, promotions included), and whether it can
    ///   promote walled in, and the loser's landings in front of `hard`, depend on the
    ///   loser's units and `l` alone, so `hard` needs as many moves or pinners as before;
    /// - no pinner is added: a winner move makes no rider but by promoting a pawn that
    ///   counted already, and a pawn's move brings it exactly one move nearer to promoting
    ///   (the double step counts as one), so a pawn that can promote within `w - 1` moves
    ///   after the move could within the `w` before it.
    ///
    /// So the count stays `w` plus the pinners, one more than the `w - 1` moves left allow
    /// (the argument above, for any set of hard pawns; the test there may count another
    /// set, so the rule is checked against the plain search).
    fn all_can_be_immobile(
        &self,
        pos: &Position,
        loser: Color,
        (w, l): (usize, usize),
        layers: &[Bitboard; MAX_D + 1],
        tight: &Cell<Bitboard>,
    ) -> bool {
        let stuck_at = self.stuck_pieces_kept(pos, loser, l, layers);
        let lone = self.lone_pawns(pos, loser);
        if stuck_at == 0 && (lone.count_ones() as usize) < w {
            return true;
        }
        let pins = pinners(pos, loser.flip(), w);
        let stuck = stuck_at.count_ones() as usize;
        // No more stuck pieces than pinners leaves no more uncapturable ones either.
        if stuck > w + pins
            || stuck > pins && self.uncapturable(pos, loser, (w, l), stuck_at) > pins
        {
            return false;
        }
        let Some((hard, need)) = self.hard_pawns(pos, loser, (w, l), lone, w + pins - stuck) else {
            return false;
        };
        if stuck + need == w + pins {
            let ahead = Squares(hard).fold(0, |a, x| a | file_ahead(x, loser));
            tight.set(stuck_at | hard | ahead);
        }
        true
    }

    /// How many of the loser's units on `units` no winner unit can capture: none of the
    /// winner's units (its king included) can reach, within `w` moves on an empty board, a
    /// square the unit can stand on within `l`. Such a unit, to be stopped by a capture or
    /// a pin, takes a pinner.
    fn uncapturable(
        &self,
        pos: &Position,
        loser: Color,
        (w, l): (usize, usize),
        units: Bitboard,
    ) -> usize {
        if units == 0 {
            return 0;
        }
        let board = &pos.board;
        let winner = loser.flip();
        let reach = self.reach_within(pos, winner, board.by_color[winner.idx()], w);
        Squares(units)
            .filter(|&x| {
                let kind = board.kind_at(x).expect("occupied");
                self.occupy[idx(loser, kind)][x as usize][l] & reach == 0
            })
            .count()
    }

    /// The squares the units of side `c` on `units` can stand on within `d` moves, on an
    /// empty board (pawns promoting on the way).
    fn reach_within(&self, pos: &Position, c: Color, units: Bitboard, d: usize) -> Bitboard {
        Squares(units).fold(0, |r, u| {
            let kind = pos.board.kind_at(u).expect("occupied");
            r | self.occupy[idx(c, kind)][u as usize][d]
        })
    }

    /// The loser's pawns with no unit ahead of them on their file (the candidates for
    /// [`Self::hard_pawns`]).
    fn lone_pawns(&self, pos: &Position, loser: Color) -> Bitboard {
        let board = &pos.board;
        let occupied = board.occupied();
        let pawns = board.by_color[loser.idx()] & board.by_part[crate::core::board::PAWN_IDX];
        Squares(pawns)
            .filter(|&x| {
                board.kind_at(x) == Some(Kind::Pawn) && file_ahead(x, loser) & occupied == 0
            })
            .fold(0, |b, x| b | bb(x))
    }

    /// Can the loser's pawn on `x`, which never captures, promote (by its pushes) into a
    /// piece walled in within `l` moves ([`Self::hard_pawns`])? The walls
    /// are filled by its side's other units (`near[d]`: squares those units, the pawn
    /// aside, can stand on within d moves).
    fn promotes_walled(&self, pos: &Position, x: u8, loser: Color, l: usize) -> bool {
        let r = loser.relative_rank(x) as usize;
        let pushes = promotion_moves(loser, x);
        if pushes > l || self.promotions.is_empty() {
            return false;
        }
        let q = (x as i32 + loser.forward() as i32 * (7 - r) as i32) as usize;
        let board = &pos.board;
        let ksq = pos.king(loser);
        let mut near = [0; MAX_D + 1];
        for u in Squares(board.by_color[loser.idx()] & !bb(x)) {
            let t = if u == ksq {
                &self.ball[u as usize]
            } else {
                &self.occupy[idx(loser, board.kind_at(u).expect("occupied"))][u as usize]
            };
            for (n, &b) in near.iter_mut().zip(t.iter()).take(l + 1) {
                *n |= b;
            }
        }
        self.promotions.iter().any(|&kind| {
            let from = &self.occupy[idx(loser, kind)][q];
            let occ: [Bitboard; MAX_D + 1] =
                std::array::from_fn(|d| if d < pushes { 0 } else { from[d - pushes] });
            self.can_be_blocked(kind, &occ, l, &near)
        })
    }

    /// Can a loser move land first in front of one of the hard pawns on `hard`
    /// ([`Self::hard_pawns`]): a unit other than a pawn reaching the square
    /// `j + 1` ahead of one within `l - j` moves, or a pawn promoting with a move to spare?
    fn loser_lands_ahead(&self, pos: &Position, loser: Color, l: usize, hard: Bitboard) -> bool {
        let board = &pos.board;
        let fwd = loser.forward();
        Squares(board.by_color[loser.idx()]).any(|u| {
            let kind = board.kind_at(u).expect("occupied");
            if kind == Kind::Pawn {
                return promotion_moves(loser, u) < l;
            }
            let row = &self.far[idx(loser, kind)][u as usize];
            Squares(hard).any(|x| {
                (0..l).any(|j| {
                    let s = x as i32 + fwd as i32 * (j as i32 + 1);
                    (0..64).contains(&s) && row[s as usize] as usize + j <= l
                })
            })
        })
    }

    /// [`Self::stuck_pieces`], kept per thread for the loser's units, king square and moves
    /// left it depends on (`layers` are the loser's, [`Self::loser_layers`]).
    fn stuck_pieces_kept(
        &self,
        pos: &Position,
        loser: Color,
        l: usize,
        layers: &[Bitboard; MAX_D + 1],
    ) -> Bitboard {
        let board = &pos.board;
        let own = board.by_color[loser.idx()];
        let mut key: StuckKey = [0; crate::core::piece::part::COUNT + 2];
        for (k, part) in key.iter_mut().zip(&board.by_part) {
            *k = part & own;
        }
        key[crate::core::piece::part::COUNT] = own;
        key[crate::core::piece::part::COUNT + 1] = (pos.king(loser) as u64) << 8 | l as u64;
        let slot = key
            .iter()
            .fold(0u64, |h, &k| (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            >> 58;
        STUCK.with_borrow_mut(|kept| {
            let entry = &mut kept[slot as usize];
            // Compared word by word in registers (an array `!=` here was a call of memcmp,
            // 2.5 % of a help stalemate's time).
            let differs = entry.0.iter().zip(&key).fold(0, |d, (a, b)| d | (a ^ b)) != 0;
            if differs {
                *entry = (key, self.stuck_pieces(pos, loser, l, layers));
            }
            entry.1
        })
    }

    /// Stalemate: in the final position each of the loser's pieces other than its king and
    /// its pawns (a non-pawn piece stays one until captured) cannot move. Such a piece is
    /// captured (one winner move each), pinned (one winning line piece each: a piece with a
    /// rider's move, or a pawn that can promote in time), or every first square of its
    /// moves holds one of the loser's own pieces. The last needs a square `s` it reaches in
    /// `dx` moves whose first squares `T` other pieces fill with the remaining `l - dx`
    /// moves; on an empty board each square `t` of `T` costs at least the moves of the
    /// nearest piece that can get there (king included), and the sum must fit. The number
    /// of pieces with no such square, each to be captured or pinned.
    fn stuck_pieces(
        &self,
        pos: &Position,
        loser: Color,
        l: usize,
        layers: &[Bitboard; MAX_D + 1],
    ) -> Bitboard {
        let board = &pos.board;
        let ksq = pos.king(loser);
        let others = Squares(board.by_color[loser.idx()] & !bb(ksq))
            .map(|x| (x, board.kind_at(x).expect("occupied")))
            .filter(|(_, k)| k.parts() & part::PAWN == 0);
        let mut near = None;
        let mut stuck = 0;
        for (x, k) in others {
            // near[d]: squares some loser piece (king included) can stand on within d moves.
            let near = near.get_or_insert_with(|| {
                let mut n = [0; MAX_D + 1];
                for d in 0..=l {
                    n[d] = layers[d] | self.ball[ksq as usize][d];
                }
                n
            });
            if !self.can_be_blocked(k, &self.occupy[idx(loser, k)][x as usize], l, near) {
                stuck |= bb(x);
            }
        }
        stuck
    }

    /// Stalemate, every piece moving alone: can each of the loser's units (king aside)
    /// that can move now be stopped in time? A *free* unit has an empty first square of
    /// some move (a pawn: the square in front of it); `F` is the set of them. In the final
    /// position it must be captured (one winner move each), have moved (one loser move
    /// each), be pinned (one winner rider or promotable pawn each, see [`pinners`]), or
    /// have every square of `F` filled: by its own side's pieces, or for a pawn's square by
    /// any piece. A square empty now and filled at the end takes a move landing there, so
    /// the loser's `l` moves fill at most `l` squares, and each winner move fills one square
    /// or captures one unit, never both. Some units no pin can stop: those a pin to the
    /// king where it stands would leave a move along the pin line
    /// ([`Self::never_pinned_still`]).
    ///
    /// A unit is completed only by pieces other than itself (had it moved, it would count
    /// as moved): by the loser's pieces landing on its squares within `l` moves, or, for a
    /// pawn's square, by a winner move (counted among the `w`; a unit other than a pawn
    /// could take a winner piece on its first square, unless pinned). So a unit the
    /// loser's moves can complete has at most `l` squares in `F`, each one that another
    /// loser piece can land on within `l` moves (its empty-board reach,
    /// [`Self::fillers`]).
    ///
    /// So with the king staying, the free units number at most `l + w + pins` plus the
    /// most units that `l` squares can complete (the sum of the `l` largest counts, per
    /// square, of the free units `l` loser moves could complete), and those no pin can stop
    /// at most `l + w` plus the same count over them (and a pin then stops only a unit
    /// whose line from the king, beyond it, a pinner can reach: [`Self::pins_in_reach`]);
    /// with the king moving (one of the
    /// loser's moves), all free units at most `l - 1 + w + pins` plus that count. A unit's
    /// captures are left out (fewer free units: a weaker test). A position failing both
    /// cases cannot end in stalemate within the moves. `stays` is false where the king's
    /// final square cannot be its square now (the carried king squares,
    /// `Engine::help_within`, do not hold it): the king moves, and only the second case
    /// applies. The winner's landing squares are taken within `reach_w` moves: `w`, or
    /// more where the count stands for the positions after the winner's moves
    /// ([`Self::units_relevant`]).
    fn units_can_be_stopped(
        &self,
        pos: &Position,
        loser: Color,
        (w, l): (usize, usize),
        (stays, reach_w): (bool, usize),
    ) -> bool {
        // The free units: square, empty first squares, whether no pin could stop it.
        let mut units = [(0u8, 0 as Bitboard, false); 16];
        let mut free_b = 0usize;
        self.free_units(pos, loser, |x, first, unpinnable| {
            if free_b < units.len() {
                units[free_b] = (x, first, unpinnable);
            }
            free_b += 1;
        });
        // (The counters hold up to 16 sets.)
        if free_b <= l || free_b > 16 {
            return true;
        }
        // The winner's moves stop at most `w` units, and only those a winner piece can
        // land on (or, for a pawn, in front of) within `reach_w` moves.
        let (w_b, w_a) = self.units_winner_stops(pos, loser, &units[..free_b], (w, reach_w));
        if free_b <= l + w_b {
            return true;
        }
        // Per square, how many of the free units (all, and those no pin could stop) with
        // at most `l` empty first squares, each of them a square another loser piece can
        // land on within `l` moves, have it among them, as bit-sliced counters ([`Tally`]).
        let (mut tally_a, mut tally_b) = (Tally::default(), Tally::default());
        let mut fill = None;
        let mut free_a = 0usize;
        for &(x, first, unpinnable) in &units[..free_b] {
            free_a += usize::from(unpinnable);
            if first.count_ones() as usize <= l && {
                // The squares a loser piece other than this unit can land on.
                let (once, twice) = *fill.get_or_insert_with(|| self.fillers(pos, loser, l));
                first & !(twice | (once & !self.lands(pos, loser, x, l))) == 0
            } {
                tally_b.add(first);
                if unpinnable {
                    tally_a.add(first);
                }
            }
        }
        // The most units that `l` squares complete (of all, or of those no pin could stop):
        // the sum of the `l` largest counts per square.
        let top_b = tally_b.top(l);
        // Every unit not stopped otherwise is pinned, one pinner each.
        let pins = pinners(pos, loser.flip(), w);
        if free_b > l + w_b + top_b + pins {
            return false;
        }
        // With the king moving, or with the king staying: then a pin stops a unit only
        // from its line through the king, beyond it.
        (l >= 1 && free_b < l + w_b + top_b + pins)
            || stays
                && free_a <= l + w_a + tally_a.top(l)
                && (free_b <= l + w_b + top_b
                    || free_b
                        <= l + w_b
                            + top_b
                            + self.pins_in_reach(pos, loser, &units[..free_b], reach_w))
    }

    /// With the loser's king staying, the most free units pins can stop: those a pin could
    /// stop where some pinner ([`pinners`]) can land, within `reach_w` moves on an empty
    /// board, on the line from the king through the unit beyond it (every such unit where
    /// a nightrider may pin).
    fn pins_in_reach(
        &self,
        pos: &Position,
        loser: Color,
        units: &[(u8, Bitboard, bool)],
        reach_w: usize,
    ) -> usize {
        let winner = loser.flip();
        let pinners = pinner_squares(pos, winner, reach_w);
        if pinners == 0 {
            return 0;
        }
        let night = self.night_pins(pos, winner);
        let reach = self.reach_within(pos, winner, pinners, reach_w);
        let ksq = pos.king(loser);
        let rays = &crate::core::bitboard::RAYS;
        units
            .iter()
            .filter(|&&(x, _, unpinnable)| {
                !unpinnable
                    && (night
                        || (0..8).any(|d| {
                            rays[d][ksq as usize] & bb(x) != 0 && rays[d][x as usize] & reach != 0
                        }))
            })
            .count()
            .min(pinners.count_ones() as usize)
    }

    /// The most free units (all, and those no pin could stop) the winner's `w` moves can
    /// stop: a capture lands on the unit's square (it has not moved: a unit that moves is
    /// counted as moved), and a landing on a first square stops only a pawn (another unit
    /// could take the piece there, unless pinned, which the pins count), so each such
    /// unit's square, or a pawn's square ahead, is one a winner piece can land on within
    /// `reach_w` moves on an empty board. Where en passant is possible a capture may land
    /// beside the unit: every unit counts then.
    fn units_winner_stops(
        &self,
        pos: &Position,
        loser: Color,
        units: &[(u8, Bitboard, bool)],
        (w, reach_w): (usize, usize),
    ) -> (usize, usize) {
        let winner = loser.flip();
        let reach = if pos.ep != NO_SQUARE {
            !0
        } else {
            self.reach_within(pos, winner, pos.board.by_color[winner.idx()], reach_w)
        };
        let pawns = pos.board.by_part[crate::core::board::PAWN_IDX];
        let (mut b, mut a) = (0, 0);
        for &(x, first, unpinnable) in units {
            let ahead = if pawns & bb(x) != 0 { first } else { 0 };
            if reach & (bb(x) | ahead) != 0 {
                b += 1;
                a += usize::from(unpinnable);
            }
        }
        (w.min(b), w.min(a))
    }

    /// Stalemate, the winner to move with `w` >= 2 moves left (this one included) and the
    /// loser with `l`, the loser's king ending on one of `within`: the winner's moves that
    /// can leave a position passing the free-units count ([`Self::units_can_be_stopped`])
    /// where it fails with one winner move fewer ([`UnitMoves`]); `None` where any move
    /// may.
    ///
    /// The count after a move reads the loser's units other than its king (squares and
    /// kinds), for each the empty first squares of its moves and whether a pin to its king
    /// could stop it (its square, the king's, and whether the winner has or may promote to
    /// a nightrider), the winner's pinners (riders, and pawns that can promote in the moves
    /// left), the moves left, and whether the king's square is among the king squares
    /// given, and the squares the winner's pieces can land on within the winner's moves
    /// left ([`Self::units_winner_stops`]). A winner move by a piece other than a pawn
    /// that takes nothing (no castling: the count does not run while there are rights,
    /// and a move cannot add any) changes none of these but the emptiness of its two
    /// squares, the moves left (`w - 1`), the landing squares, and not the king squares
    /// given either (the node hands its own to the position after the move:
    /// `Engine::help_within`). The moved piece lands within `w - 1` moves from its new
    /// square only where it lands within `w` from its old one, so the count here takes
    /// the landing squares within `w` moves and the moves left as `w - 1`: the count after
    /// the move counts no more. Where neither square is a first square of a loser unit's
    /// moves, not even the emptiness counts: the count after the move is at most this
    /// count. So where this fails, every such move leads to a position that fails it.
    pub fn units_relevant(
        &self,
        pos: &Position,
        loser: Color,
        (w, l): (u32, u32),
        within: Bitboard,
    ) -> Option<UnitMoves> {
        let (w, l) = (w as usize, l as usize);
        let ksq = pos.king(loser);
        if !self.immobile
            || !self.shared
            || !(2..=MAX_D + 1).contains(&w)
            || l > MAX_D
            || pos.castling != 0
            || ksq == NO_SQUARE
            // (No more units than moves: the count passes.)
            || (pos.board.by_color[loser.idx()].count_ones() as usize) <= l + w
            || self.units_can_be_stopped(pos, loser, (w - 1, l), (within & bb(ksq) != 0, w))
        {
            return None;
        }
        let board = &pos.board;
        let units = board.by_color[loser.idx()] & !bb(ksq);
        let first = Squares(units).fold(0, |s, x| {
            s | self.first_squares(board.kind_at(x).expect("occupied"), x, loser)
        });
        Some(UnitMoves { first, loser })
    }

    /// The squares the loser's pieces can land on within `l` moves (empty-board reach):
    /// those one piece or more can land on, and those two or more can.
    fn fillers(&self, pos: &Position, loser: Color, l: usize) -> (Bitboard, Bitboard) {
        let (mut once, mut twice) = (0, 0);
        for s in Squares(pos.board.by_color[loser.idx()]) {
            let r = self.lands(pos, loser, s, l);
            twice |= once & r;
            once |= r;
        }
        (once, twice)
    }

    /// The squares the loser's piece on `s` can land on within `l` moves (empty board;
    /// the king's table is its ball).
    fn lands(&self, pos: &Position, loser: Color, s: u8, l: usize) -> Bitboard {
        let k = pos.board.kind_at(s).expect("occupied");
        self.occupy[idx(loser, k)][s as usize][l]
    }

    /// May the winner pin along a knight's line: has it a nightrider, or may a pawn of it
    /// promote to one?
    fn night_pins(&self, pos: &Position, winner: Color) -> bool {
        let board = &pos.board;
        board.by_part[crate::core::board::NIGHT_IDX] & board.by_color[winner.idx()] != 0
            || self.night_promotions
    }

    /// Calls `f` with each free unit of the loser (king aside; see
    /// [`Self::units_can_be_stopped`]): its square, the empty first squares of its moves, and
    /// whether a pin to its king (standing where it stands) could never stop it.
    fn free_units(&self, pos: &Position, loser: Color, mut f: impl FnMut(u8, Bitboard, bool)) {
        let board = &pos.board;
        let ksq = pos.king(loser);
        let winner = loser.flip();
        let empty = !board.occupied();
        let night_pins = self.night_pins(pos, winner);
        for x in Squares(board.by_color[loser.idx()] & !bb(ksq)) {
            let k = board.kind_at(x).expect("occupied");
            let first = self.first_squares(k, x, loser) & empty;
            if first != 0 {
                f(x, first, self.never_pinned_still(k, x, ksq, night_pins));
            }
        }
    }

    /// The first squares of the moves of a unit of kind `k` on `x` (side `c`) on an empty
    /// board, captures aside: a pawn's the square in front of it.
    fn first_squares(&self, k: Kind, x: u8, c: Color) -> Bitboard {
        if k == Kind::Pawn {
            let ahead = x as i8 + c.forward();
            if (0..64).contains(&ahead) {
                bb(ahead as u8)
            } else {
                0
            }
        } else {
            self.steps[k as usize][x as usize]
        }
    }

    /// Can a pin of the piece of kind `k` on `x` to its king on `ksq` never leave it without
    /// moves? So when `x` is on no line through `ksq` along which a winner piece pins (the
    /// queen's lines, and the nightrider's where `night_pins`), when nothing lies beyond
    /// `x` on that line, or when the piece moves along the line (the square after `x`,
    /// away from the king, is a first square of its moves; a pawn on a file pushes along it):
    /// a pinned piece may still move along the pin line, between the king and the pinner
    /// or onto the pinner.
    fn never_pinned_still(&self, k: Kind, x: u8, ksq: u8, night_pins: bool) -> bool {
        let (queen, night) = self.beyond[ksq as usize][x as usize];
        let beyond = if queen != NONE || !night_pins {
            queen
        } else {
            night
        };
        if beyond == NONE {
            return true;
        }
        if k == Kind::Pawn {
            crate::core::square::file_of(x) == crate::core::square::file_of(ksq)
        } else {
            self.steps[k as usize][x as usize] & bb(beyond) != 0
        }
    }

    /// [`Self::last_loser_moves_into`], returned (for the tests).
    #[cfg(test)]
    pub fn last_loser_moves(&self, pos: &Position, w: u32) -> Option<LastMoves> {
        let mut out = None;
        self.last_loser_moves_into(pos, w, &mut out);
        out
    }

    /// Stalemate, the loser to move with this one move left and the winner with `w` after
    /// it: which of the loser's moves can be followed by a stalemate? (`None` where the
    /// cuts do not apply.) After a move from `a` to `b` of a piece other than the king the
    /// king stays, whether a pin could stop a unit stays as it is, and a free unit (not
    /// the mover) stays free unless `b` was its only empty first square, a unit not free
    /// becomes free when `a` is a first square of its moves; a king move leaves the free
    /// units as that rule says too, though not which a pin could stop. With no loser move
    /// left, [`Self::units_can_be_stopped`] then needs at most `w` free units that no pin
    /// could stop and at most `w` plus the pinners free units in all (the mover captures
    /// pinners, if anything). So a move leaving more is dropped before it is played (the
    /// same test would rule out the position after it). Likewise a move after which a
    /// square next to the king is neither attacked by the winner within `w` moves (the
    /// empty-board attack sets of [`Self::king_squares`], one piece moving where `w` is 1,
    /// a captured piece counted too) nor one of the loser's units: the king can no longer
    /// move, so that test rules the position out.
    ///
    /// Built where `out` stands (left `None` where the filter does not apply), as
    /// [`Self::loser_progress_into`].
    pub fn last_loser_moves_into(&self, pos: &Position, w: u32, out: &mut Option<LastMoves>) {
        let loser = pos.side;
        let ksq = pos.king(loser);
        let wd = w as usize;
        if !self.immobile || !self.shared || pos.castling != 0 || ksq == NO_SQUARE || wd > MAX_D {
            return;
        }
        let budget = w as i32;
        let pins = pinners(pos, loser.flip(), wd) as i32;
        let board = &pos.board;
        let winner = loser.flip();
        let last = out.insert(LastMoves {
            king: ksq,
            single: [NO_SQUARE; 64],
            sets: [FreeSet::new(budget), FreeSet::new(budget + pins)],
            standing: 0,
            side: loser,
            night_pins: false,
            movers: [0; 16],
            n: 0,
            guarded: 0,
            held: board.by_color[loser.idx()] & !bb(ksq),
        });
        last.night_pins = self.night_pins(pos, winner);
        // As `king_squares` sees the position after the move (one winner piece moving
        // when `w` is 1).
        for s in Squares(board.by_color[winner.idx()]) {
            let t = &self.attack[idx(winner, board.kind_at(s).expect("occupied"))][s as usize];
            last.standing |= t[0];
            last.guarded |= t[wd];
            if last.n < last.movers.len() {
                last.movers[last.n] = t[wd];
            }
            last.n += 1;
        }
        if wd != 1 || !(2..=last.movers.len()).contains(&last.n) {
            last.n = 0;
        }
        self.free_units(pos, loser, |x, first, unpinnable| {
            let single = (first.count_ones() == 1).then(|| first.trailing_zeros() as u8);
            if let Some(s) = single {
                last.single[x as usize] = s;
            }
            for set in &mut last.sets[usize::from(!unpinnable)..] {
                set.at |= bb(x);
                set.count += 1;
                if let Some(s) = single {
                    set.group[s as usize] += 1;
                }
            }
        });
        // A unit not free now, one of whose first squares holds its own unit `a`, is free
        // once that unit moves (the square is empty then; nothing lands on it). Whether a
        // pin could stop it is judged with the winner's pieces as they are: a capture only
        // takes pinners away.
        let own = board.by_color[loser.idx()];
        for x in Squares(own & !bb(ksq) & !last.sets[1].at) {
            let k = board.kind_at(x).expect("occupied");
            let unpinnable = self.never_pinned_still(k, x, ksq, last.night_pins);
            for a in Squares(self.first_squares(k, x, loser) & own) {
                for set in &mut last.sets[usize::from(!unpinnable)..] {
                    set.freed[a as usize] += 1;
                }
            }
        }
    }

    /// Can a piece of kind `k` (`occ[d]`: squares it reaches within d moves) end on a square
    /// whose first squares the loser's pieces (`near[d]`) fill, all within `l` moves?
    fn can_be_blocked(
        &self,
        k: Kind,
        occ: &[Bitboard; MAX_D + 1],
        l: usize,
        near: &[Bitboard; MAX_D + 1],
    ) -> bool {
        let mut seen = 0;
        for dx in 0..=l {
            let budget = l - dx;
            for s in Squares(occ[dx] & !seen) {
                let t = self.steps[k as usize][s as usize];
                if t & !near[budget] != 0 {
                    continue;
                }
                // Each square of `t` costs the number of depths at which nobody reaches it.
                let cost: usize = (0..budget)
                    .map(|d| (t & !near[d]).count_ones() as usize)
                    .sum();
                if cost <= budget {
                    return true;
                }
            }
            seen = occ[dx];
        }
        false
    }

    /// The squares for the loser's king (at `ksq`, `l` moves left) whose flights are all
    /// held by its own pieces (`layers[d]`: squares one of its `pieces` other pieces can
    /// hold within d moves) or in `guarded`, and, for mate, that are themselves guarded.
    fn king_squares_with(
        &self,
        ksq: u8,
        guarded: Bitboard,
        (layers, within): (&[Bitboard; MAX_D + 1], Bitboard),
        l: usize,
        pieces: u32,
        mate: bool,
    ) -> Bitboard {
        let held = layers[l];
        let open = !(guarded | held);
        // Squares next to an open square.
        let bad = king_spread(open);
        let mut ok = self.ball[ksq as usize][l] & within & !bad;
        if mate {
            ok &= guarded;
        }
        // The loser's moves are shared: the king's walk to `k` plus, for every flight the
        // winner cannot attack, the moves of a distinct own piece to hold it. Each flight
        // costs at least its nearest piece's distance: the number of depths d < l at
        // which no piece reaches it yet. (Unshared, each piece has all `l` moves.)
        // With many moves left the flights' costs are added up bit-sliced: `slices[j]`
        // holds bit j of each square's count of depths at which no piece reaches it.
        let slices = (l > 3).then(|| {
            let mut s = [0 as Bitboard; 4];
            for &layer in &layers[..l] {
                let mut carry = !layer;
                for slice in s.iter_mut() {
                    let next = *slice & carry;
                    *slice ^= carry;
                    carry = next;
                }
            }
            s
        });
        let mut out = 0;
        for k in Squares(ok) {
            let walk = king_distance(ksq, k);
            let flights = KING[k as usize] & !guarded;
            if flights.count_ones() > pieces {
                continue;
            }
            if !self.shared {
                out |= bb(k);
                continue;
            }
            let holds: usize = match &slices {
                Some(s) => (0..4)
                    .map(|j| ((flights & s[j]).count_ones() as usize) << j)
                    .sum(),
                None => layers[..l]
                    .iter()
                    .map(|&layer| (flights & !layer).count_ones() as usize)
                    .sum(),
            };
            if walk + holds <= l {
                out |= bb(k);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::piece::{ORTHODOX_PROMOTIONS, Piece};

    fn sq(s: &str) -> usize {
        crate::core::parse_square(s).unwrap() as usize
    }

    /// The least cost of holding each flight of `u` by a distinct piece, by trying every
    /// assignment (pieces taken in order, each flight by one not taken yet).
    fn least_assignment(flights: &[usize], costs: &[[u8; 8]], used: u32) -> usize {
        let Some((&f, rest)) = flights.split_first() else {
            return 0;
        };
        (0..costs.len())
            .filter(|&p| used & 1 << p == 0 && costs[p][f] != NONE)
            .map(|p| costs[p][f] as usize + least_assignment(rest, costs, used | 1 << p))
            .min()
            .unwrap_or(usize::MAX / 2)
    }

    /// The bit-sliced counts give the sum of the `n` largest counts per square, as counting
    /// square by square and sorting does, on random sets (few squares, often shared).
    #[test]
    fn tally_tops_are_the_largest_counts() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        for _ in 0..5000 {
            let (mut tally, mut count) = (Tally::default(), [0usize; 64]);
            for _ in 0..=next(16) {
                let mut set: Bitboard = 0;
                for _ in 0..=next(3) {
                    set |= 1 << (next(6) * 9);
                }
                tally.add(set);
                for s in Squares(set) {
                    count[s as usize] += 1;
                }
            }
            count.sort_unstable_by(|a, b| b.cmp(a));
            for n in 0..=MAX_D {
                assert_eq!(tally.top(n), count[..n].iter().sum::<usize>(), "{n}");
            }
        }
    }

    /// `assign` answers as an exhaustive search over the assignments does, on random costs
    /// (unreachable flights included), flight sets and budgets.
    #[test]
    fn assign_finds_the_cheapest_distinct_holders() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        for _ in 0..3000 {
            let pieces = next(7) as usize;
            let costs: Vec<[u8; 8]> = (0..pieces)
                .map(|_| std::array::from_fn(|_| if next(5) == 0 { NONE } else { next(6) as u8 }))
                .collect();
            // (`loser_holds` asks only about non-empty sets.)
            let u = 1 + next(255) as usize;
            let budget = next(14) as usize;
            let flights: Vec<usize> = (0..8).filter(|&i| u & 1 << i != 0).collect();
            let least = least_assignment(&flights, &costs, 0);
            assert_eq!(
                assign(u, &costs, budget),
                least <= budget,
                "{costs:?} {u:#b} {budget}"
            );
        }
    }

    #[test]
    fn distances_on_an_empty_board() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let kn = &r.occupy[idx(Color::White, Kind::Knight)][sq("a1")];
        assert_eq!(kn[0], bb(sq("a1") as u8));
        assert!(kn[1] & bb(sq("b3") as u8) != 0);
        assert!(kn[1] & bb(sq("b2") as u8) == 0);
        // a1-b2 takes the knight four moves.
        assert!(kn[3] & bb(sq("b2") as u8) == 0);
        assert!(kn[4] & bb(sq("b2") as u8) != 0);
        // A bishop never reaches the other colour.
        let b = &r.attack[idx(Color::Black, Kind::Bishop)][sq("c1")];
        assert!(b[MAX_D] & bb(sq("c2") as u8) == 0);
        // A white pawn on b7 attacks f8... after promoting (b8=Q, then one move).
        let p = &r.attack[idx(Color::White, Kind::Pawn)][sq("b7")];
        assert!(p[0] & bb(sq("a8") as u8) != 0);
        assert!(p[1] & bb(sq("f4") as u8) != 0);
        assert!(p[0] & bb(sq("f4") as u8) == 0);
        // A black pawn on e2 occupies e1, d1 and f1 in one move and nothing behind it.
        let bp = &r.occupy[idx(Color::Black, Kind::Pawn)][sq("e2")];
        assert_eq!(
            bp[1],
            bb(sq("e2") as u8) | bb(sq("e1") as u8) | bb(sq("d1") as u8) | bb(sq("f1") as u8)
        );
        assert!(bp[5] & bb(sq("e3") as u8) != 0);
        // The king ball.
        assert_eq!(r.ball[sq("a1")][1].count_ones(), 4);
    }

    /// The king that stays where it is walks no moves: here Black's last series move
    /// (Sd6-b5) fills the king's last open flight, and Sf2-e4 mates.
    #[test]
    fn a_king_that_stays_costs_nothing() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen("8/8/1qbn3K/2kr4/1rpn4/8/5N2/8 b - - 0 1").unwrap();
        assert!(r.goal_possible(&pos, Color::Black, 1, 1, true));
        // With no move left, the open flight b5 stays open.
        assert!(!r.goal_possible(&pos, Color::Black, 1, 0, true));
    }

    /// With White's mating move alone left, Black's king ends on a square a White knight
    /// attacks where it stands (h8, from f7) only once Black has taken the knight: a square
    /// of the final position of each solution (both checked with Popeye, in
    /// `tests/help_cuts.rs`) stays while the knight can be taken in time, by the knight of
    /// g5 (first) or by the king on its way (second), and goes when it cannot.
    #[test]
    fn a_square_attacked_where_the_attacker_stands_needs_it_taken() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let h8 = bb(63);
        let by_knight = Position::from_fen("6k1/5Npp/8/6n1/8/2K5/8/4R3 b - - 0 1").unwrap();
        assert_ne!(r.king_squares(&by_knight, Color::Black, 1, 2, true) & h8, 0);
        assert_eq!(r.king_squares(&by_knight, Color::Black, 1, 1, true) & h8, 0);
        let by_king = Position::from_fen("6k1/5Npp/8/8/8/2K5/8/4R3 b - - 0 1").unwrap();
        assert_ne!(r.king_squares(&by_king, Color::Black, 1, 3, true) & h8, 0);
        assert_eq!(r.king_squares(&by_king, Color::Black, 1, 2, true) & h8, 0);
        // Without the rule (more moves for White), h8 stays with fewer Black moves.
        assert_ne!(r.king_squares(&by_king, Color::Black, 2, 2, true) & h8, 0);
        // White's pawn of b3 is its only unit besides the king: a king square the pawn
        // attacks from b3 needs it taken, and then nothing checks (the pawn covers nothing
        // in the picture). Popeye 4.104 finds no ser-h#3 nor ser-h#4 here.
        let pawn = Position::from_fen("8/3n4/k1b5/npq5/8/rP1K4/2rb4/8 b - - 0 1").unwrap();
        for l in [3, 4] {
            assert!(!r.final_possible(&pawn, Color::Black, 1, l, true, !0));
        }
        assert!(r.final_possible(&pawn, Color::Black, 2, 4, true, !0));
    }

    /// A lone check along a line that a holder of a flight can block by one step is no
    /// mate (nothing can pin the holder without a second check): Black's rook of d8 answers Be6+
    /// by Rd8-d7, and nothing else can hold d8 in Black's one move.
    #[test]
    fn a_holder_that_can_block_the_check_holds_nothing() {
        assert!(!mate_pictured("2kr4/qbp2B2/7r/8/8/8/8/4K3 b - - 0 1", 1, 1));
        // A bishop on d8 cannot step to d7.
        assert!(mate_pictured("2kb4/qbp2B2/7r/8/8/8/8/4K3 b - - 0 1", 1, 1));
        // A second white bishop pins nothing next to the king (a pinner there would
        // attack the king on the empty board too: a second check).
        assert!(!mate_pictured(
            "2kr4/qbp2B2/7r/8/8/8/8/4K2B b - - 0 1",
            1,
            1
        ));
        // A white rook on the rook's line to the king might pin it: two checks on the
        // empty board, no rule.
        assert!(mate_pictured("2kr3R/qbp2B2/7r/8/8/8/8/4K3 b - - 0 1", 1, 1));
    }

    /// A lone check by a step or a leap that a holder could answer by taking the checker
    /// is no mate where nothing can pin the holder: after b3xc4+ (the pawn guarded by
    /// the king, every flight held) a knight on b6 takes on c4, a queen there cannot
    /// (Popeye's solution of ser9_0729 ends so). A white bishop that cannot pin it
    /// changes nothing; a white rook on b8, which can (it attacks b5 on the empty board,
    /// a second check there), lifts the rule.
    #[test]
    fn a_holder_that_can_take_the_checker_holds_nothing() {
        assert!(mate_pictured(
            "8/8/bqn5/rkb5/npr5/1P1K4/8/8 w - - 0 1",
            1,
            0
        ));
        assert!(!mate_pictured(
            "8/8/bnn5/rkb5/npr5/1P1K4/8/8 w - - 0 1",
            1,
            0
        ));
        assert!(!mate_pictured(
            "8/8/bnn5/rkb5/npr5/1P1K4/8/7B w - - 0 1",
            1,
            0
        ));
        assert!(mate_pictured(
            "1R6/8/bnn5/rkb5/npr5/1P1K4/8/8 w - - 0 1",
            1,
            0
        ));
    }

    /// The same where the holders already stand on their flights (no move needed, the
    /// cheap bound is 0): Black's king on a6 with its queen on a5 and bishop on a7 has no
    /// picture, since a white queen's lone line check through b6 (from c6, d6 or c7...)
    /// could be blocked by either; a second white rider lifts the rule. (A shortcut that
    /// took a bound of 0 as held let the loser's no-move-to-spare filter drop a move to
    /// such a position.)
    #[test]
    fn holders_on_their_flights_may_block_too() {
        assert!(!mate_pictured(
            "5Q1K/b7/k4p2/q7/1bp5/8/8/2q5 w - - 0 1",
            2,
            1
        ));
        assert!(mate_pictured(
            "5Q1K/b7/k4p2/q7/1bp5/8/8/2q4B w - - 0 1",
            2,
            1
        ));
    }

    /// The answer squares' table gives the n-th square around the king, or a knight's leap
    /// away, as the squares come in order.
    #[test]
    fn answer_squares_are_the_nth_squares() {
        for k in 0..64u8 {
            for check in 0..40 {
                let nth = |set: Bitboard, n: usize| Squares(set).nth(n);
                let expected = match check {
                    1..=8 => nth(KING[k as usize], check - 1),
                    9..=16 => nth(KING[k as usize], check - 9),
                    17..=24 => nth(KNIGHT[k as usize], check - 17),
                    _ => None,
                };
                assert_eq!(answer_square(k, check), expected, "{k} {check}");
            }
        }
    }

    /// A black king on `k` with up to five other black units, about half of them on its
    /// flights.
    fn black_units_around(r: &Reach, k: u8, next: &mut impl FnMut(u64) -> u64) -> Position {
        let kinds = [
            Kind::Knight,
            Kind::Bishop,
            Kind::Rook,
            Kind::Queen,
            Kind::Pawn,
        ];
        let (sq, n) = r.around[k as usize];
        let mut pos = Position::from_fen("8/8/8/8/8/8/8/8 b - - 0 1").unwrap();
        pos.board.put(k, Piece::new(Color::Black, Kind::King));
        for _ in 0..1 + next(5) {
            let s = if next(2) == 0 {
                sq[next(n as u64) as usize]
            } else {
                next(64) as u8
            };
            let kind = kinds[next(5) as usize];
            let rank = crate::core::square::rank_of(s);
            if pos.board.is_empty(s) && !(kind == Kind::Pawn && (rank == 0 || rank == 7)) {
                pos.board.put(s, Piece::new(Color::Black, kind));
            }
        }
        pos
    }

    /// Every cover's entry of what it leaves (as [`minimal_leaves`] makes them, none left
    /// out).
    fn every_leaf(n: usize, states: &[(u16, u8)], mate: bool) -> Vec<u16> {
        states
            .iter()
            .filter(|&&(m, _)| !mate || usize::from(m) & 1 << n != 0)
            .map(|&(m, _)| {
                let m = usize::from(m);
                let code = if mate { m >> OUT_CHECK } else { 0 };
                (((1 << n) - 1) & !m | code << OUT_CHECK) as u16
            })
            .collect()
    }

    /// What the covers leave with the entries another implies left out
    /// ([`minimal_leaves`]) answers the cheap bound and the holders' test as every
    /// cover's entry does: random black units around random king squares (several on
    /// the flights, where the checks' answers matter), random covers with random checks,
    /// mate and stalemate, every budget.
    #[test]
    fn the_least_leaves_answer_as_every_cover() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let mut seed = 0x51A7_E5C0_FFEE_1234u64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        let (mut reduced, mut all) = (0, 0);
        for round in 0..3000 {
            let k = next(64) as u8;
            let n = r.around[k as usize].1;
            let pos = black_units_around(&r, k, &mut next);
            let others = loser_units(&pos, Color::Black);
            let mate = round % 4 != 0;
            let states: Vec<(u16, u8)> = (0..1 + next(40))
                .map(|_| {
                    let m = next(1 << (n + 1)) as usize | usize::from(next(3) != 0) << n;
                    (
                        (m | (next(OTHER_CHECK as u64 + 1) as usize) << OUT_CHECK) as u16,
                        0,
                    )
                })
                .collect();
            let mut leaves = vec![];
            minimal_leaves(k, n, &states, mate, &mut leaves);
            let every = every_leaf(n, &states, mate);
            reduced += leaves.len();
            all += every.len();
            let mut near = [NONE; 64];
            for &(kind, s) in others.as_slice() {
                for (x, &d) in near
                    .iter_mut()
                    .zip(r.far[idx(Color::Black, kind)][s as usize].iter())
                {
                    *x = (*x).min(d);
                }
            }
            let board = &pos.board;
            assert_eq!(
                r.least_bound(&near, k, &leaves, board),
                r.least_bound(&near, k, &every, board),
                "{} {states:?}",
                pos.to_fen()
            );
            let mut open = vec![];
            for budget in 0..=4 {
                let held = r.loser_holds(
                    others.as_slice(),
                    Color::Black,
                    k,
                    budget,
                    &leaves,
                    &mut open,
                );
                let every_held = r.loser_holds(
                    others.as_slice(),
                    Color::Black,
                    k,
                    budget,
                    &every,
                    &mut open,
                );
                assert_eq!(held, every_held, "{} {budget} {states:?}", pos.to_fen());
            }
        }
        // The reduction leaves something out.
        assert!(reduced * 2 < all, "{reduced} of {all}");
    }

    /// The progress filter's rooms come from the open sets of the covers, and a larger
    /// cover with another lone check stands for no smaller one. Black to move, h#1: 1.Se4-d6
    /// EMb5-c5 # (the empress checks by its leap, Sd6 and Se7 hold). Bg2-h3 + with the
    /// empress standing covers more (all but e7), but Se7 could block on f5, so it holds
    /// nothing there: that cover has no picture, and the knight's move to d6 (no progress
    /// for it) must be kept. The random sweep against Popeye found this (an h#3 missing
    /// 24 of Popeye's 94,499 solutions).
    #[test]
    fn a_larger_cover_with_another_lone_check_leaves_the_smaller_its_room() {
        let r = Reach::new(
            &ORTHODOX_PROMOTIONS,
            HelpCuts::ALL,
            &crate::core::piece::ALL_KINDS,
        );
        let pos = Position::from_fen("8/4n1K1/4k3/1(EM)6/4n3/8/6B1/8 b - - 0 1").unwrap();
        let e6 = sq("e6") as u8;
        let (fits, spared) = r.final_pictures(&pos, (Color::Black, 1, 1), true, !0, true);
        assert_eq!((fits, spared), (bb(e6), false));
        let p = r
            .loser_progress(&pos, (Color::Black, 1, 1), true, fits)
            .unwrap();
        let rules = crate::rules::Rules::new(crate::rules::Condition::Orthodox);
        let kept: Vec<String> = rules
            .legal_moves(&pos)
            .into_iter()
            .filter(|(m, _)| p.keep(&r, &pos, *m))
            .map(|(m, _)| {
                format!(
                    "{}{}",
                    crate::core::square_name(m.from),
                    crate::core::square_name(m.to)
                )
            })
            .collect();
        assert!(kept.contains(&"e4d6".to_string()), "{kept:?}");
    }

    /// Does a picture of Black mated in `fen` fit with White's moves `w` and Black's `l`?
    fn mate_pictured(fen: &str, w: u32, l: u32) -> bool {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen(fen).unwrap();
        r.final_possible(&pos, Color::Black, w, l, true, !0)
    }

    /// A winner piece standing next to the king square needs another winner piece
    /// covering its square, else the king takes it: White's pawn of f4 mates on g5 only
    /// with its king near enough to cover g5 (Black's knight there, which the pawn takes,
    /// holds nothing then; the pawn is too far from its last rank to promote).
    #[test]
    fn a_piece_next_to_the_king_needs_another_to_cover_it() {
        assert!(!mate_pictured("8/6pp/6pk/6np/5P2/8/8/K7 w - - 0 1", 1, 0));
        assert!(mate_pictured("8/6pp/6pk/6np/5P1K/8/8/8 w - - 0 1", 1, 0));
        // The king on h2 needs two moves to h4 or g4, and the pawn one.
        let far = "8/6pp/6pk/6np/5P2/8/7K/8 w - - 0 1";
        assert!(!mate_pictured(far, 2, 0));
        assert!(mate_pictured(far, 3, 0));
    }

    /// Does the cheap cut leave open Black stalemated in `fen` with White's moves `w` and
    /// Black's `l`?
    fn stalemate_possible(fen: &str, w: u32, l: u32) -> bool {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen(fen).unwrap();
        r.goal_possible(&pos, Color::Black, w, l, false)
    }

    /// Stalemate: the loser's other pieces must end immobile. Here Black's knight and
    /// bishop both have free squares, one move of Black cannot fill them, and White's one
    /// move can capture only one of them; a white rook could pin the other.
    #[test]
    fn free_pieces_must_be_captured_pinned_or_blocked() {
        let free = "kn6/8/1K6/8/3b4/8/8/8 b - - 0 1";
        assert!(!stalemate_possible(free, 1, 1));
        let one = "kn6/8/1K6/8/8/8/8/8 b - - 0 1";
        assert!(stalemate_possible(one, 1, 1));
        let pinner = "kn6/8/1K6/8/3b3R/8/8/8 b - - 0 1";
        assert!(stalemate_possible(pinner, 1, 1));
        // With more moves the cut no longer decides.
        assert!(stalemate_possible(free, 4, 6));
    }

    /// A unit whose empty first squares one loser move could fill is stopped by that move
    /// only when another loser piece can land there in time. Black's knight f7 and pawns
    /// b6 and c2 are free, for one move of each side and White's bishop as the one pinner:
    /// no black piece can land on b5 or c1 in one move (each pawn's own step moves it, it
    /// fills nothing), so the count fails. With the knight on a7 it can land on b5, and the
    /// count no longer decides.
    #[test]
    fn only_another_piece_fills_a_units_square() {
        assert!(!stalemate_possible(
            "7k/5n2/1p3N2/8/8/3N4/p1p1P3/Bb5K b - - 0 1",
            1,
            1
        ));
        assert!(stalemate_possible(
            "7k/n7/1p3N2/8/8/3N4/p1p1P3/Bb5K b - - 0 1",
            1,
            1
        ));
    }

    /// Does Black's free-units count pass in `fen` with White's and Black's moves `(w, l)`,
    /// the king staying?
    fn units_count(fen: &str, (w, l): (usize, usize)) -> bool {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen(fen).unwrap();
        r.units_can_be_stopped(&pos, Color::Black, (w, l), (true, w))
    }

    /// A winner move stops a free unit only by landing on its square (or in front of a
    /// pawn). Black's pawns c5 and e5 are free and Black has no move left: White's knight
    /// from g1 reaches e5 in two moves but neither c5 nor c4, and its king neither, so two
    /// moves stop one pawn at most; from b2 the knight reaches c4 and e5.
    #[test]
    fn a_winner_move_stops_only_a_unit_it_reaches() {
        let count = |fen: &str| units_count(fen, (2, 0));
        assert!(!count("7k/8/8/2p1p3/8/8/8/K5N1 w - - 0 1"));
        assert!(count("7k/8/8/2p1p3/8/8/1N6/K7 w - - 0 1"));
        // A king near enough takes c5 or stands on c4.
        assert!(count("7k/8/8/2p1p3/8/2K5/8/6N1 w - - 0 1"));
    }

    /// With the king staying, a pin stops a unit only from beyond it on its line through the
    /// king. Black's knight g7 (on the long diagonal to h8) is free and Black has no move
    /// left: White's bishop from h1 cannot reach that diagonal in one move, from f4 it can
    /// (e5).
    #[test]
    fn a_pin_needs_its_pinner_on_the_line() {
        let count = |fen: &str| units_count(fen, (1, 0));
        assert!(!count("7k/6n1/8/8/8/8/8/K6B w - - 0 1"));
        assert!(count("7k/6n1/8/8/5B2/8/8/K7 w - - 0 1"));
    }

    /// Hard pawns: a pawn with nothing ahead on its file, nothing to capture and no
    /// walled-in promotion is stopped only by a winner move, a pinner or a landing in
    /// front of it. Black's b2, d2 and f4 are hard here and White has two moves, Black one
    /// that lands in front of none: no stalemate. With a2 beside b2, a2 promotes to a
    /// bishop walled in by b2 and is not hard; b2 and f4 are, two for White's two moves.
    #[test]
    fn hard_pawns_need_a_move_each() {
        let three = "8/8/8/5K2/1P3p2/8/1p1p3k/6b1 w - - 0 1";
        assert!(!stalemate_possible(three, 2, 1));
        // With four winner moves (with three, White's king reaches only d2 and f4 of the
        // free units, and Black's one move cannot stop both b2 and the bishop: the free
        // units' count decides), or three and a knight that can reach a square each pawn
        // could take on, the count no longer decides.
        assert!(!stalemate_possible(three, 3, 1));
        assert!(stalemate_possible(three, 4, 1));
        let knight = "8/8/8/5K2/1PN2p2/8/1p1p3k/6b1 w - - 0 1";
        assert!(stalemate_possible(knight, 3, 1));
        // Black's king can step in front of b2 or d2: one of them is not White's to stop.
        let king = "8/8/8/5K2/1P3p2/8/1pkp4/8 w - - 0 1";
        assert!(stalemate_possible(king, 2, 1));
        let walled = "8/8/8/5K2/1P3p2/8/pp5k/8 w - - 0 1";
        assert!(stalemate_possible(walled, 2, 1));
        let lone = "8/8/8/5K2/1P3p2/8/p1p4k/8 w - - 0 1";
        assert!(!stalemate_possible(lone, 2, 1));
    }

    /// The stuck pieces kept per thread are those found anew: on 4,000 random black
    /// armies around random king squares (many alike, so that kept sets are met again),
    /// with random moves left, and a white unit beside them that the key leaves out.
    #[test]
    fn the_stuck_pieces_kept_are_those_found_anew() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let mut seed = 0x0DDB_1A5E_5BAD_5EEDu64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        let (mut stuck, mut kept) = (0, 0);
        for round in 0..4000 {
            // Every other army is drawn from a small seed set, so that many repeat.
            let mut small = 1 + round as u64 % 97;
            let mut again = |n: u64| crate::core::xorshift(&mut small) % n;
            let k = if round % 2 == 0 { next(64) } else { again(64) } as u8;
            let mut pos = if round % 2 == 0 {
                black_units_around(&r, k, &mut next)
            } else {
                black_units_around(&r, k, &mut again)
            };
            let s = next(64) as u8;
            if pos.board.is_empty(s) {
                pos.board.put(s, Piece::new(Color::White, Kind::Rook));
            }
            let l = next(4) as usize;
            let (layers, _) = r.loser_layers(&pos, Color::Black, l);
            let found = r.stuck_pieces(&pos, Color::Black, l, &layers);
            assert_eq!(r.stuck_pieces_kept(&pos, Color::Black, l, &layers), found);
            assert_eq!(r.stuck_pieces_kept(&pos, Color::Black, l, &layers), found);
            stuck += usize::from(found != 0);
            kept += 1;
        }
        assert!(stuck > 300 && kept == 4000, "{stuck}");
    }

    /// [`pinners`] (counted from the part sets) against its definition, unit by unit: the
    /// riders, and the pawns that promote within `w` moves, on random boards of every kind
    /// for both colours, pawns on every rank.
    #[test]
    fn pinners_are_the_riders_and_the_pawns_near_promotion() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut next = |n: u64| crate::core::xorshift(&mut seed) % n;
        let mut counted = 0;
        for _ in 0..3000 {
            let mut pos = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
            for _ in 0..next(12) {
                let kind = ALL_KINDS[next(ALL_KINDS.len() as u64) as usize];
                let color = if next(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let s = next(64) as u8;
                if pos.board.is_empty(s) {
                    pos.board.put(s, Piece::new(color, kind));
                }
            }
            for (winner, w) in [Color::White, Color::Black]
                .into_iter()
                .zip([next(9), next(9)])
            {
                let w = w as usize;
                let by_unit = Squares(pos.board.by_color[winner.idx()])
                    .filter(|&s| {
                        let parts = pos.board.kind_at(s).unwrap().parts();
                        parts & (part::BISHOP | part::ROOK | part::NIGHT) != 0
                            || parts & part::PAWN != 0 && promotion_moves(winner, s) <= w
                    })
                    .count();
                assert_eq!(pinners(&pos, winner, w), by_unit, "{} {w}", pos.to_fen());
                counted += by_unit;
            }
        }
        assert!(counted > 3000, "{counted}");
    }

    /// The winner with no move to spare: Black's hard pawns on b2 and d2 (or b3 and d2)
    /// need White's two moves, so White's next move must take one or land ahead of one
    /// (`tight`: the pawns and the squares ahead on their files); a white rook, a pinner,
    /// leaves a move to spare. (White's king stands near enough to take either pawn: a
    /// king that could not would leave the free units' count failing already.)
    #[test]
    fn the_winner_with_no_move_to_spare_must_land_on_the_tight_squares() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let tight = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let t = Cell::new(0);
            assert_ne!(
                r.king_squares_noting(&pos, Color::Black, (2, 1), false, (!0, &t)),
                0
            );
            t.get()
        };
        let squares = |names: &[&str]| names.iter().fold(0, |b, n| b | bb(sq(n) as u8));
        let two = "8/8/8/4k3/8/2K5/1p1p4/8 w - - 0 1";
        assert_eq!(tight(two), squares(&["b2", "d2", "b1", "d1"]));
        let rook = "7R/8/8/4k3/8/2K5/1p1p4/8 w - - 0 1";
        assert_eq!(tight(rook), 0);
        let higher = "8/8/8/4k3/8/1pK5/3p4/8 w - - 0 1";
        assert_eq!(tight(higher), squares(&["b3", "b2", "b1", "d2", "d1"]));
    }

    /// A piece that must be captured or pinned, where no winner unit can reach a square it
    /// can stand on, takes a pinner: the knight on d4 here (on the long diagonal to its
    /// king, so a pin could stop it), with White's one move left. A knight that can take
    /// it on d4, or a rook (a pinner), leaves the position open.
    #[test]
    fn a_piece_nothing_can_take_needs_a_pinner() {
        let far = "7k/5K1p/7P/8/3n4/8/8/8 w - - 0 1";
        assert!(!stalemate_possible(far, 1, 0));
        let knight = "7k/5K1p/7P/8/3n4/1N6/8/8 w - - 0 1";
        assert!(stalemate_possible(knight, 1, 0));
        let rook = "7k/5K1p/7P/8/3n4/8/R7/8 w - - 0 1";
        assert!(stalemate_possible(rook, 1, 0));
        // A queen no pin can stop (it moves along every line) and no unit can take in
        // time leaves no stalemate, pinner or not.
        let queen = "7k/5K1p/7P/8/8/8/R7/3q4 w - - 0 1";
        assert!(!stalemate_possible(queen, 1, 0));
    }

    /// One final position: a rook on one square covers one line, not every square it can
    /// reach; with the white king far away, Black's lone king cannot be mated in two moves
    /// on any square it can walk to, though each flight is attacked from somewhere.
    #[test]
    fn one_rook_square_covers_one_line() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen("k7/8/8/8/8/8/7R/7K b - - 0 1").unwrap();
        let squares = r.king_squares(&pos, Color::Black, 2, 2, true);
        assert_ne!(squares, 0);
        assert!(!r.final_possible(&pos, Color::Black, 2, 2, true, squares));
        // With the king near, the picture exists (Kb6 and Rh8#: a8 and b8 by the rook).
        let near = Position::from_fen("k7/8/2K5/8/8/8/7R/8 b - - 0 1").unwrap();
        let squares = r.king_squares(&near, Color::Black, 2, 2, true);
        assert!(r.final_possible(&near, Color::Black, 2, 2, true, squares));
    }

    /// h5_0642 (Popeye's corpus): its solution ends with Ka3 mated by Kc3 and Sb5, Ba2
    /// blocking, so the picture exists at the start. With the black king unable to move
    /// and no black move left, a2, b2, b3 and b4 need white guards: the white king can
    /// take at most three of them (from c3 or b1, never next to a3) and a knight that checks
    /// on a3 (from b1, c2, c4 or b5) guards none of them.
    #[test]
    fn the_winner_moves_are_counted_together() {
        let r = Reach::new(&ORTHODOX_PROMOTIONS, HelpCuts::ALL, &ALL_KINDS);
        let pos = Position::from_fen("1b4b1/N5K1/8/4p3/r7/k3nq2/3p4/8 b - - 0 1").unwrap();
        let all = !0;
        assert!(r.final_possible(&pos, Color::Black, 5, 5, true, all));
        assert!(!r.final_possible(&pos, Color::Black, 5, 0, true, all));
        assert!(!r.final_possible(&pos, Color::Black, 15, 0, true, all));
    }

    #[test]
    fn king_spread_is_the_union_of_king_steps() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = x & (x >> 3);
            let want = Squares(b).fold(0, |a, s| a | KING[s as usize]);
            assert_eq!(king_spread(b), want);
        }
    }
}
