//! Orthodox chess: FIDE movement for the orthodox pieces, and the same walk for every fairy
//! piece of the table (a compound moves and captures as each of its parts). Move generation
//! and the attack test (`Board::attacked_with`) use the same part tables, so they agree.
//!
//! Problem conventions: castling when king and rook are on their home squares and the
//! position grants the right; en passant only when the position names the square.

use super::Rules;
use crate::core::bitboard::*;
use crate::core::board::{BISHOP_IDX, NIGHT_IDX, PAWN_IDX, ROOK_IDX, piece_attacks};
use crate::core::board::Board;
use crate::core::piece::part;
use crate::core::{Bitboard, Color, Kind, NO_SQUARE, Square, Squares, bb};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{CASTLINGS, Position};
use std::ops::ControlFlow;

/// Orthodox chess (and the fairy pieces' own movement): the registry's first entry.
pub struct Orthodox;

impl super::ConditionRules for Orthodox {
    const NAME: &'static str = "orthodox";
    const ALIASES: &'static [&'static str] = &["orthodox", "none"];
    const TITLE: Option<&'static str> = None;
    const CHEAP_REPLAY: bool = true;
    const ORTHODOX_MOVEMENT: bool = true;
    const HELP_CUTS: super::HelpCuts = super::HelpCuts::ALL;

    #[inline]
    fn for_each_legal<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        each_legal_unplayed(pos, rules, &mut |m| f(m, &pos.make(m)))
    }

    #[inline]
    fn for_each_legal_where<K, F>(pos: &Position, rules: &Rules, mut keep: K, mut f: F) -> ControlFlow<()>
    where
        K: FnMut(Move) -> bool,
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        each_legal_unplayed(pos, rules, &mut |m| {
            if keep(m) {
                f(m, &pos.make(m))
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    #[inline]
    fn generate(pos: &Position, rules: &Rules, list: &mut MoveList) {
        pseudo_legal(pos, rules, list)
    }

    #[inline]
    fn play_then<R, F: FnOnce(&Position) -> R>(pos: &Position, _: &Rules, m: Move, f: F) -> Option<R> {
        let child = pos.make(m);
        is_legal_child(&child).then(|| f(&child))
    }

    #[inline]
    fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
        has_legal_move(pos, rules)
    }

    #[inline]
    fn for_each_legal_without_quiet_answer<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        each_legal_without_quiet_answer(pos, rules, &mut f)
    }

    #[inline]
    fn has_legal_move_without_check(pos: &Position, rules: &Rules) -> bool {
        let checks = CheckTest::new(pos);
        each_legal_unplayed(pos, rules, &mut |m| {
            if checks.may_check(pos, m) {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_break()
    }

    #[inline]
    fn for_each_stalemate_candidate<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        let land = stalemate_landing(pos, rules);
        if land == 0 && pos.ep == NO_SQUARE && pos.castling == 0 {
            return ControlFlow::Continue(());
        }
        each_legal_unplayed(pos, rules, &mut |m| {
            if land & bb(m.to) != 0 || m.kind == MoveKind::Castle || m.kind == MoveKind::EnPassant {
                f(m, &pos.make(m))
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    #[inline]
    fn for_each_mate_candidate<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        let mut flights: Option<Flights> = None;
        each_check_candidate(pos, rules, &mut |m| {
            let fl = flights.get_or_insert_with(|| Flights::new(pos));
            if fl.one_survives(pos, m) {
                return ControlFlow::Continue(());
            }
            play_if_check(pos, m, &mut f)
        })
    }

    #[inline]
    fn for_each_legal_check<F>(pos: &Position, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        each_check_candidate(pos, rules, &mut |m| play_if_check(pos, m, &mut f))
    }

    fn count_legal(pos: &Position, rules: &Rules) -> u64 {
        count_legal(pos, rules)
    }
}

/// Plays a check candidate `m` and calls `f` with it when it is legal and gives check.
#[inline]
fn play_if_check(
    pos: &Position,
    m: Move,
    f: &mut impl FnMut(Move, &Position) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let child = pos.make(m);
    if is_legal_child(&child) && child.in_check() {
        f(m, &child)
    } else {
        ControlFlow::Continue(())
    }
}

/// A plain capture of the king of `by`'s opponent, by the lowest attacker square.
pub fn king_capture(pos: &Position, by: Color) -> Option<Vec<crate::moves::Step>> {
    let k = pos.king(by.flip());
    if k == NO_SQUARE {
        return None;
    }
    let from = Squares(pos.board.attackers_to(k, by, pos.board.occupied())).next()?;
    Some(vec![crate::moves::Step {
        from,
        to: k,
        kind: pos.board.kind_at(from)?,
        promo: None,
        capture: true,
        castle: false,
    }])
}

/// All pseudo-legal moves of the side to move (own king may be left attacked).
pub fn pseudo_legal(pos: &Position, rules: &Rules, out: &mut MoveList) {
    let _ = each_pseudo_legal(pos, rules, &mut |m| {
        out.push(m);
        ControlFlow::Continue(())
    });
}

/// Calls `emit` with each pseudo-legal move, in square order, until it breaks.
pub fn each_pseudo_legal(
    pos: &Position,
    rules: &Rules,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for from in Squares(pos.board.by_color[pos.side.idx()]) {
        each_piece_move(pos, rules, from, emit)?;
    }
    castling_moves(pos, rules, emit)
}

/// Calls `emit` with each pseudo-legal move of the own piece on `from` (castling aside).
#[inline]
pub(crate) fn each_piece_move(
    pos: &Position,
    rules: &Rules,
    from: Square,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let them = board.by_color[us.flip().idx()];
    let occ = own | them;
    let kind = board.kind_at(from).expect("own square is occupied");
    if kind == Kind::Pawn {
        return pawn_moves(pos, rules, from, occ, them, emit);
    }
    for to in Squares(piece_attacks(from, us, kind, occ) & !own) {
        emit(Move::new(from, to))?;
    }
    ControlFlow::Continue(())
}

/// Could `m` have been generated in `pos`? (Lets the search try remembered moves first
/// without generating the whole list.)
pub fn is_pseudo_legal(pos: &Position, rules: &Rules, m: Move) -> bool {
    let us = pos.side;
    let board = &pos.board;
    let Some(p) = board.get(m.from) else {
        return false;
    };
    if p.color != us {
        return false;
    }
    let own = board.by_color[us.idx()];
    let them = board.by_color[us.flip().idx()];
    let occ = own | them;
    // An orthodox move has no chain number, and only a pawn's single step or capture
    // promotes: the generator makes no other move, so none other is pseudo-legal.
    if own & bb(m.to) != 0 || m.chain != 0 {
        return false;
    }
    if m.promo.is_some() && matches!(m.kind, MoveKind::DoublePush | MoveKind::EnPassant) {
        return false;
    }
    match m.kind {
        MoveKind::Castle => castling_moves(pos, rules, &mut super::stop_at(m)).is_break(),
        MoveKind::EnPassant => {
            p.kind == Kind::Pawn && pos.ep == m.to && pawn_attacks(us, m.from) & bb(m.to) != 0
        }
        MoveKind::DoublePush => {
            let one = (m.from as i8 + us.forward()) as u8;
            p.kind == Kind::Pawn
                && us.relative_rank(m.from) == 1
                && m.to == (one as i8 + us.forward()) as u8
                && occ & (bb(one) | bb(m.to)) == 0
        }
        MoveKind::Normal if p.kind == Kind::Pawn => {
            let promotes = us.relative_rank(m.to) == 7;
            let promo_ok = match m.promo {
                Some(k) => promotes && rules.promotions().contains(&k),
                None => !promotes || rules.promotions().is_empty(),
            };
            let step = m.to as i8 == m.from as i8 + us.forward() && occ & bb(m.to) == 0;
            let capture = pawn_attacks(us, m.from) & them & bb(m.to) != 0;
            promo_ok && us.relative_rank(m.from) != 7 && (step || capture)
        }
        MoveKind::Normal => {
            m.promo.is_none() && piece_attacks(m.from, us, p.kind, occ) & bb(m.to) != 0
        }
        MoveKind::Swap
        | MoveKind::SwapDouble
        | MoveKind::ToPocket
        | MoveKind::FromPocket
        | MoveKind::Compound => false,
    }
}

/// Own pieces pinned against the own royal king (by riders: bishop, rook, nightrider lines).
pub fn pinned(pos: &Position) -> Bitboard {
    line_blockers(pos, pos.side, pos.side, pos.side.flip())
}

/// Pieces of colour `blocker` that alone stand between the royal king of `king` and a rider
/// of colour `rider` that would attack it along a bishop, rook or nightrider line.
pub fn line_blockers(pos: &Position, king: Color, blocker: Color, rider: Color) -> Bitboard {
    let ksq = pos.king(king);
    if ksq == NO_SQUARE {
        return 0;
    }
    let board = &pos.board;
    let own = board.by_color[blocker.idx()];
    let them = rider;
    let occ = board.occupied();
    let mut pinned = 0;
    let snipers = (rook_attacks(ksq, 0) & board.part(ROOK_IDX, them))
        | (bishop_attacks(ksq, 0) & board.part(BISHOP_IDX, them));
    for s in Squares(snipers) {
        let b = between(ksq, s) & occ;
        if b.count_ones() == 1 && b & own != 0 {
            pinned |= b;
        }
    }
    let nights = board.part(NIGHT_IDX, them);
    if nights != 0 {
        let lines = &NIGHT_LINES;
        for d in 0..8 {
            let n = lines.len[ksq as usize][d] as usize;
            let mut first = None;
            for i in 0..n {
                let t = lines.sq[ksq as usize][d][i];
                if occ & bb(t) != 0 {
                    match first {
                        None => {
                            if own & bb(t) == 0 {
                                break;
                            }
                            first = Some(t);
                        }
                        Some(f) => {
                            if nights & bb(t) != 0 {
                                pinned |= bb(f);
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    pinned
}

/// Calls `emit` with every pseudo-legal move that may give check (a superset of the
/// checking moves: direct checks, moves of line blockers, promotions, en passant, castling).
pub fn each_check_candidate(
    pos: &Position,
    rules: &Rules,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let them = us.flip();
    let ksq = pos.king(them);
    if ksq == NO_SQUARE {
        return ControlFlow::Continue(());
    }
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let occ = board.occupied();
    let discoverers = line_blockers(pos, them, us, us);
    let checks = CheckSquares::new(ksq, occ);
    let check_sqs = pawn_attacks(them, ksq);
    let pawn_reach = pawn_sources(us, check_sqs, pos.ep);
    for from in Squares(own) {
        let kind = board.kind_at(from).expect("own square is occupied");
        let disc = discoverers & bb(from) != 0;
        if kind == Kind::Pawn {
            let last = us.relative_rank(from) == 6;
            if !disc && !last && pawn_reach & bb(from) == 0 {
                continue; // no move of this pawn lands on a check square
            }
            pawn_moves(
                pos,
                rules,
                from,
                occ,
                board.by_color[them.idx()],
                &mut |m| {
                    if disc || last || m.kind == MoveKind::EnPassant || check_sqs & bb(m.to) != 0 {
                        emit(m)
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )?;
            continue;
        }
        let mut targets = piece_attacks(from, us, kind, occ) & !own;
        if !disc {
            targets &= checks.of(from, us, kind, occ);
        }
        for to in Squares(targets) {
            emit(Move::new(from, to))?;
        }
    }
    castling_moves(pos, rules, emit)
}

/// The squares from which a pawn of `us` can land on a square of `to` in one move (a push,
/// a two-step, a capture); every square when an en passant capture is possible (it may
/// uncover a check along the rank).
#[inline]
fn pawn_sources(us: Color, to: Bitboard, ep: Square) -> Bitboard {
    if ep != NO_SQUARE {
        return !0;
    }
    let mut from = 0;
    for c in Squares(to) {
        from |= pawn_attacks(us.flip(), c);
    }
    if us == Color::White {
        from | (to >> 8) | (to >> 16)
    } else {
        from | (to << 8) | (to << 16)
    }
}

/// The squares from which a piece would attack the king on `k`, by part, looked up once
/// per node rather than once per piece: for a piece on `from` the lookup must be made with
/// `from` empty, which changes a rider's squares only where `from` is the first unit on one
/// of the king's lines; such a piece is looked up on its own.
struct CheckSquares {
    k: Square,
    rook: Bitboard,
    bishop: Bitboard,
}

impl CheckSquares {
    #[inline]
    fn new(k: Square, occ: Bitboard) -> CheckSquares {
        CheckSquares {
            k,
            rook: rook_attacks(k, occ),
            bishop: bishop_attacks(k, occ),
        }
    }

    /// The squares from which a `kind` of colour `us` moving from `from` would attack the
    /// king: `piece_attacks(k, us, kind, occ & !bb(from))`, kinds not a pawn.
    #[inline]
    fn of(&self, from: Square, us: Color, kind: Kind, occ: Bitboard) -> Bitboard {
        let parts = kind.parts();
        let simple = part::KNIGHT | part::KING | part::BISHOP | part::ROOK;
        if parts & !simple != 0 || (self.rook | self.bishop) & bb(from) != 0 {
            return piece_attacks(self.k, us, kind, occ & !bb(from));
        }
        let k = self.k as usize;
        let mut c = 0;
        if parts & part::KNIGHT != 0 {
            c |= KNIGHT[k];
        }
        if parts & part::KING != 0 {
            c |= KING[k];
        }
        if parts & part::BISHOP != 0 {
            c |= self.bishop;
        }
        if parts & part::ROOK != 0 {
            c |= self.rook;
        }
        c
    }
}

/// Can the move `m` of the side to move (pseudo-legal, in a legal position) check the other
/// side's royal king? See [`CheckTest`].
#[cfg(test)]
fn may_give_check(pos: &Position, m: Move) -> bool {
    CheckTest::new(pos).may_check(pos, m)
}

/// Whether a move of the side to move checks the other side's royal king K, decided without
/// playing it: exact for plain moves, two-steps and promotions (the moved piece attacks K
/// from its new square, or a piece of ours attacks it through the square the move left; no
/// other piece of ours attacks K before the move, the position being legal). Castling, en
/// passant and the fairy move kinds answer true without looking.
struct CheckTest {
    k: Square,
    /// The squares from which some piece could attack K on an empty board.
    reach: Bitboard,
    /// The squares between K and each piece of ours riding toward it along that line: only
    /// leaving one of them can uncover a check.
    lines: Bitboard,
}

impl CheckTest {
    fn new(pos: &Position) -> CheckTest {
        let us = pos.side;
        let k = pos.king(us.flip());
        if k == NO_SQUARE {
            return CheckTest {
                k,
                reach: 0,
                lines: 0,
            };
        }
        let board = &pos.board;
        let mut lines = 0;
        each_rider_line(board, k, us, |b| lines |= b);
        CheckTest {
            k,
            reach: reach_of(k),
            lines,
        }
    }

    #[inline]
    fn may_check(&self, pos: &Position, m: Move) -> bool {
        if !matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) {
            return true;
        }
        let k = self.k;
        if k == NO_SQUARE {
            return false;
        }
        let board = &pos.board;
        let Some(kind) = m.promo.or_else(|| board.kind_at(m.from)) else {
            return true;
        };
        let occ = (board.occupied() & !bb(m.from)) | bb(m.to);
        (self.reach & bb(m.to) != 0 && piece_attacks(m.to, pos.side, kind, occ) & bb(k) != 0)
            || (self.lines & bb(m.from) != 0
                && board.attackers_to(k, pos.side, occ) & !bb(m.from) != 0)
    }
}

/// The squares from which some piece could attack a king on `k` on an empty board (a
/// pawn's are among the king's).
fn reach_of(k: Square) -> Bitboard {
    rook_attacks(k, 0)
        | bishop_attacks(k, 0)
        | KNIGHT[k as usize]
        | KING[k as usize]
        | nightrider_attacks(k, 0)
}

/// A quiet reply of the other side, kept across the moves of the side to move: the squares
/// a move of ours must not land on (`lands`) or leave (`leaves`) for the reply to stay
/// legal and checkless.
#[derive(Clone, Copy)]
struct QuietReply {
    from: Square,
    to: Square,
    /// The kind q's piece has on its target.
    kind: Kind,
    lands: Bitboard,
    leaves: Bitboard,
}

/// Calls `f` with the squares between `target` and each piece of `by` that rides toward it
/// along their line (a rook part on a rook line, a bishop part on a diagonal, a nightrider
/// part on any line through both: conservative where a nightrider stands on a queen line).
#[inline]
fn each_rider_line(board: &Board, target: Square, by: Color, mut f: impl FnMut(Bitboard)) {
    for s in Squares(rook_attacks(target, 0) & board.part(ROOK_IDX, by)) {
        f(between(target, s));
    }
    for s in Squares(bishop_attacks(target, 0) & board.part(BISHOP_IDX, by)) {
        f(between(target, s));
    }
    for s in Squares(board.part(NIGHT_IDX, by)) {
        f(line_between(target, s));
    }
}

/// The lines a move and a reply could open together: between a king and each piece of the
/// other colour that rides toward it along their line (a rook part on a rook line, a bishop
/// part on a diagonal, a nightrider part on any line) and has one or two units between.
/// A line with one unit between opens when that unit leaves; with two, when both leave
/// (one by the move, one by the reply); with more it stays shut.
struct OpenLines {
    one: Bitboard,
    two: [Bitboard; 16],
    len: usize,
}

impl OpenLines {
    fn new() -> OpenLines {
        OpenLines {
            one: 0,
            two: [0; 16],
            len: 0,
        }
    }

    fn add(&mut self, between: Bitboard, occ: Bitboard) {
        match (between & occ).count_ones() {
            0 => {}
            1 => self.one |= between,
            2 if self.len < self.two.len() => {
                self.two[self.len] = between;
                self.len += 1;
            }
            2 => self.one |= between,
            _ => {}
        }
    }

    /// The riders of `by` toward `king`.
    fn toward(&mut self, board: &Board, king: Square, by: Color, occ: Bitboard) {
        each_rider_line(board, king, by, |b| self.add(b, occ));
    }

    /// The squares a move must not leave when the reply leaves `from`.
    fn with(&self, from: Square) -> Bitboard {
        let mut lines = self.one;
        for &b in &self.two[..self.len] {
            if b & bb(from) != 0 {
                lines |= b;
            }
        }
        lines
    }
}

/// As `for_each_legal`, leaving out moves after which the other side surely keeps a legal
/// move that gives no check (in a selfmate's last move such a reply refutes). Where the
/// side to move is in check, or a king is missing, every move is played.
///
/// Why it is sound. Let P be the position (we are to move, not in check, so the other
/// side's king K and our king W are safe), and q a legal reply in P with the other side to
/// move (the null move) that is a plain move (or two-step, or promotion) of a piece other
/// than the king and does not attack W. Let m be one of our legal moves: a plain move (or
/// two-step, promotion) of a piece other than our king. After m, q is still a legal,
/// checkless reply when (our king's moves: 4):
/// 1. m lands on none of q's squares (its origin, its target, the squares between): q's
///    piece is still there, its path is still empty and its target still holds what it
///    held, unless m leaves q's target (a capture target gone);
/// 2. m leaves no square between K and a piece of ours riding toward it along that line,
///    nor between W and such a piece of theirs, where that line has one unit between, or
///    two with q's origin one of them (`OpenLines`: other lines stay shut when m and q
///    empty a square each), and no square between q's target and W: after
///    q and m the only lines opened are those q opens, so K is attacked only if it is
///    attacked after q alone (it is not, q is legal) or by the piece m moved, and W is not
///    attacked (q gives no check; m's opened squares are none of those lines; filled
///    squares only block);
/// 3. the piece m moved does not attack K from its new square even with q's origin
///    emptied (a superset of its attacks after m, and after m and q).
///
/// 4. When m is a move of our king from W to t instead: m lands on none of q's squares, W
///    is none of the squares of 2 (lines toward K it could open), and after q and m no unit
///    of theirs attacks t: q's piece from its target, or another (the one m takes on t
///    aside) with q's origin and W emptied and t and q's target filled. K is attacked after
///    q and m only through W (excluded) or by our king (t is not next to K: m is legal).
///
/// Then the move is left out: a defence of the selfmate's last move would find q.
pub fn each_legal_without_quiet_answer(
    pos: &Position,
    rules: &Rules,
    f: &mut impl FnMut(Move, &Position) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let (w, k) = (pos.king(us), pos.king(us.flip()));
    let board = &pos.board;
    if w == NO_SQUARE || k == NO_SQUARE || board.attacked(w, us.flip()) {
        return each_legal_unplayed(pos, rules, &mut |m| f(m, &pos.make(m)));
    }
    let replies = QuietReplies::new(pos, rules);
    let guard = KingGuard::new(pos, w);
    // A move is skipped before its legality is asked (an illegal move is no move).
    let mut each = |m: Move| {
        if replies.keep_one(board, m) {
            ControlFlow::Continue(())
        } else if guard.allows(pos, m) {
            f(m, &pos.make(m))
        } else {
            ControlFlow::Continue(())
        }
    };
    // The moves of a piece other than a pawn or the king are skipped by square sets
    // first; the others go through the test above, move by move.
    let own = board.by_color[us.idx()];
    for from in Squares(own) {
        let Some(kind) = board.kind_at(from) else {
            continue;
        };
        if kind == Kind::Pawn || from == w {
            each_piece_move(pos, rules, from, &mut each)?;
            continue;
        }
        let targets = piece_attacks(from, us, kind, board.occupied()) & !own;
        for to in Squares(targets & !replies.kept_targets(board, from, kind, targets)) {
            each(Move::new(from, to))?;
        }
    }
    castling_moves(pos, rules, &mut each)
}

/// Up to four quiet replies of the other side (moves of different units), with what a
/// move of ours must not do to keep one (see [`each_legal_without_quiet_answer`]).
struct QuietReplies {
    list: [QuietReply; 4],
    len: usize,
    /// The replies' origins.
    froms: Bitboard,
    us: Color,
    /// Our king, theirs.
    w: Square,
    k: Square,
    /// The squares from which some piece could attack K on an empty board: a piece
    /// landing elsewhere cannot attack it.
    reach: Bitboard,
}

impl QuietReplies {
    /// The replies found with the other side to move in `pos` (our king is not in check,
    /// both kings are on the board).
    fn new(pos: &Position, rules: &Rules) -> QuietReplies {
        let us = pos.side;
        let (w, k) = (pos.king(us), pos.king(us.flip()));
        let board = &pos.board;
        let occ = board.occupied();
        let mut lines = OpenLines::new();
        lines.toward(board, k, us, occ);
        lines.toward(board, w, us.flip(), occ);
        let empty = QuietReply {
            from: 0,
            to: 0,
            kind: Kind::Pawn,
            lands: 0,
            leaves: 0,
        };
        let mut r = QuietReplies {
            list: [empty; 4],
            len: 0,
            froms: 0,
            us,
            w,
            k,
            reach: reach_of(k),
        };
        let null = pos.null_move();
        let checks = CheckTest::new(&null);
        let _ = each_legal_unplayed(&null, rules, &mut |q| {
            if !matches!(q.kind, MoveKind::Normal | MoveKind::DoublePush)
                || q.from == k
                || r.froms & bb(q.from) != 0
                || checks.may_check(&null, q)
            {
                return ControlFlow::Continue(());
            }
            let Some(kind) = q.promo.or_else(|| board.kind_at(q.from)) else {
                return ControlFlow::Continue(());
            };
            r.list[r.len] = QuietReply {
                from: q.from,
                to: q.to,
                kind,
                lands: bb(q.from) | bb(q.to) | line_between(q.from, q.to),
                leaves: bb(q.to) | line_between(q.to, w) | lines.with(q.from),
            };
            r.froms |= bb(q.from);
            r.len += 1;
            if r.len == r.list.len() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        r
    }

    fn replies(&self) -> &[QuietReply] {
        &self.list[..self.len]
    }

    /// Does our move `m` surely keep one of the replies legal and quiet?
    #[inline]
    fn keep_one(&self, board: &Board, m: Move) -> bool {
        let (us, w, k) = (self.us, self.w, self.k);
        let occ = board.occupied();
        if matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) && m.from != w {
            let Some(kind) = m.promo.or_else(|| board.kind_at(m.from)) else {
                return false;
            };
            let occ_m = (occ & !bb(m.from)) | bb(m.to);
            let near = self.reach & bb(m.to) == 0
                || piece_attacks(m.to, us, kind, occ_m & !self.froms) & bb(k) == 0;
            self.replies().iter().any(|r| {
                r.lands & bb(m.to) == 0
                    && r.leaves & bb(m.from) == 0
                    && (near || piece_attacks(m.to, us, kind, occ_m & !bb(r.from)) & bb(k) == 0)
            })
        } else if m.kind == MoveKind::Normal {
            // Our king moves (to t): q's piece from its target and the units of theirs
            // behind q's origin must not attack t (a unit taken on t attacks nothing).
            let t = m.to;
            self.replies().iter().any(|r| {
                let occ_q = (occ & !bb(w) & !bb(r.from)) | bb(t) | bb(r.to);
                r.lands & bb(t) == 0
                    && r.leaves & bb(w) == 0
                    && board.attackers_to(t, us.flip(), occ_q) & !bb(r.from) & !bb(t) == 0
                    && piece_attacks(r.to, us.flip(), r.kind, occ_q) & bb(t) == 0
            })
        } else {
            false
        }
    }

    /// The targets of our piece on `from` (not a pawn, not our king) whose moves surely
    /// keep a reply: the reply's squares are neither left nor landed on, and the piece
    /// cannot attack K from the target (tested with every reply's origin emptied).
    fn kept_targets(&self, board: &Board, from: Square, kind: Kind, targets: Bitboard) -> Bitboard {
        if self.replies().iter().all(|r| r.leaves & bb(from) != 0) {
            return 0;
        }
        let occ = board.occupied();
        let mut safe = targets & !self.reach;
        for t in Squares(targets & self.reach) {
            let occ_t = ((occ & !bb(from)) | bb(t)) & !self.froms;
            if piece_attacks(t, self.us, kind, occ_t) & bb(self.k) == 0 {
                safe |= bb(t);
            }
        }
        let mut kept = 0;
        for r in self.replies().iter().filter(|r| r.leaves & bb(from) == 0) {
            kept |= safe & !r.lands;
        }
        kept
    }
}

/// The other side's king's flights, for the mate-in-one search: the squares next to its
/// king K that hold none of its units and that none of ours attacks with K off the board,
/// each with the squares whose emptying alone would open a line of ours onto it.
///
/// Why a flight that survives a move m of ours (a plain move, two-step or promotion) is
/// still a legal king move after m, so that m is no mate: let f be a flight, the piece m
/// moves not attack f from its new square (with K off the board), and m not leave the one
/// unit between f and a rider of ours on that line. After m the leapers of ours other than
/// m's piece attack what they attacked (not f); a rider other than m's piece attacks f only
/// through a line that m opened, that is one whose only unit between was m's origin (m's
/// target only fills a square); and m's piece is tested. So K can go to f, taking m's piece
/// if m landed there. Castling and en passant are never skipped.
struct Flights {
    k: Square,
    /// Each flight and the squares that must stay filled for it (`line`).
    list: [(Square, Bitboard); 8],
    len: usize,
}

impl Flights {
    fn new(pos: &Position) -> Flights {
        let us = pos.side;
        let them = us.flip();
        let k = pos.king(them);
        let mut fl = Flights {
            k,
            list: [(0, 0); 8],
            len: 0,
        };
        if k == NO_SQUARE {
            return fl;
        }
        let board = &pos.board;
        let occ = board.occupied() & !bb(k);
        let area = KING[k as usize] & !board.by_color[them.idx()];
        for f in Squares(area & !board.attacked_in(area, us, occ)) {
            let mut line = 0;
            each_rider_line(board, f, us, |between| {
                if (between & occ).count_ones() == 1 {
                    line |= between & occ;
                }
            });
            fl.list[fl.len] = (f, line);
            fl.len += 1;
        }
        fl
    }

    /// Does one flight surely stay open after our move `m`?
    #[inline]
    fn one_survives(&self, pos: &Position, m: Move) -> bool {
        if self.len == 0 || !matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) {
            return false;
        }
        let board = &pos.board;
        let Some(kind) = m.promo.or_else(|| board.kind_at(m.from)) else {
            return false;
        };
        let occ = ((board.occupied() & !bb(m.from)) | bb(m.to)) & !bb(self.k);
        let covered = piece_attacks(m.to, pos.side, kind, occ);
        self.list[..self.len]
            .iter()
            .any(|&(f, line)| covered & bb(f) == 0 && line & bb(m.from) == 0)
    }
}

/// Calls `f` with each legal move, deciding legality without playing the move wherever the
/// king, the checkers and the pins tell (en passant and castling are played and tested).
pub fn each_legal_unplayed(
    pos: &Position,
    rules: &Rules,
    f: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let ksq = pos.king(us);
    if ksq == NO_SQUARE {
        return each_pseudo_legal(pos, rules, f);
    }
    let guard = KingGuard::new(pos, ksq);
    each_pseudo_legal(pos, rules, &mut |m| {
        if guard.allows(pos, m) {
            f(m)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// What the legality of a move of the side to move depends on, found once per node: its
/// royal king, the squares that answer a check (all squares without check, none in double
/// check) and its pinned pieces.
struct KingGuard {
    ksq: Square,
    checkers: Bitboard,
    targets: Bitboard,
    pinned: Bitboard,
}

impl KingGuard {
    fn new(pos: &Position, ksq: Square) -> KingGuard {
        let checkers = pos
            .board
            .attackers_to(ksq, pos.side.flip(), pos.board.occupied());
        let targets = match checkers.count_ones() {
            0 => !0,
            1 => checkers | line_between(ksq, checkers.trailing_zeros() as u8),
            _ => 0,
        };
        KingGuard {
            ksq,
            checkers,
            targets,
            pinned: pinned(pos),
        }
    }

    /// Is the pseudo-legal move `m` legal? Decided without playing it, but for en passant
    /// and castling.
    #[inline]
    fn allows(&self, pos: &Position, m: Move) -> bool {
        let ksq = self.ksq;
        if m.from == ksq && m.kind != MoveKind::Castle {
            let occ = pos.board.occupied() ^ bb(ksq);
            !pos.board.attacked_with(m.to, pos.side.flip(), occ)
        } else if m.kind == MoveKind::EnPassant || m.kind == MoveKind::Castle {
            is_legal_child(&pos.make(m))
        } else if self.targets & bb(m.to) == 0 {
            false
        } else if self.pinned & bb(m.from) != 0 {
            // A pinned piece stays on the line through the king.
            line_between(ksq, m.to) & bb(m.from) != 0 || line_between(ksq, m.from) & bb(m.to) != 0
        } else {
            true
        }
    }
}

/// Does the side to move have a legal move? (The mate solver's hottest question.)
/// Decided square-set-wise: king flights first, then for each unpinned piece whether any
/// of its target squares answers the check (or any target at all without check). Pinned
/// pieces, en passant and castling go through the move-by-move test.
pub fn has_legal_move(pos: &Position, rules: &Rules) -> bool {
    let us = pos.side;
    let ksq = pos.king(us);
    if ksq == NO_SQUARE {
        return each_pseudo_legal(pos, rules, &mut |_| ControlFlow::Break(())).is_break();
    }
    let them = us.flip();
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let enemy = board.by_color[them.idx()];
    let occ = own | enemy;
    for to in Squares(KING[ksq as usize] & !own) {
        if !board.attacked_with(to, them, occ ^ bb(ksq)) {
            return true;
        }
    }
    let guard = KingGuard::new(pos, ksq);
    if guard.targets == 0 {
        return false; // double check: only the king moves
    }
    // Only the pawn has the pawn part (a unit test of `core::piece` says so).
    let pawns = own & board.by_part[PAWN_IDX];
    let pawn_targets = pawn_sets(us, pawns & !guard.pinned, occ, enemy);
    if pawn_targets.iter().any(|&t| t & guard.targets != 0) {
        return true;
    }
    for from in Squares(own & !pawns & !bb(ksq) & !guard.pinned) {
        let kind = board.kind_at(from).expect("own square is occupied");
        if piece_attacks(from, us, kind, occ) & !own & guard.targets != 0 {
            return true;
        }
    }
    each_slow_legal(pos, rules, &guard, (!0, true), &mut |_| ControlFlow::Break(())).is_break()
}

/// Calls `f` with the legal moves that the target sets leave undecided: those of pinned
/// pieces on `origins`, and when `special` en passant by unpinned pawns (a pinned one's is
/// among its own moves) and castling.
fn each_slow_legal(
    pos: &Position,
    rules: &Rules,
    guard: &KingGuard,
    (origins, special): (Bitboard, bool),
    f: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut legal = |m: Move| {
        if guard.allows(pos, m) {
            f(m)
        } else {
            ControlFlow::Continue(())
        }
    };
    for from in Squares(guard.pinned & origins) {
        each_piece_move(pos, rules, from, &mut legal)?;
    }
    if special {
        each_special_legal(pos, rules, guard, &mut legal)?;
    }
    ControlFlow::Continue(())
}

/// En passant by unpinned pawns and castling, each passed to `legal` (which tests it).
fn each_special_legal(
    pos: &Position,
    rules: &Rules,
    guard: &KingGuard,
    legal: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let board = &pos.board;
    if pos.ep != NO_SQUARE {
        let own = board.by_color[pos.side.idx()];
        let takers = pawn_attacks(pos.side.flip(), pos.ep) & own & board.by_part[PAWN_IDX];
        for from in Squares(takers & !guard.pinned) {
            legal(Move::with_kind(from, pos.ep, MoveKind::EnPassant))?;
        }
    }
    if guard.checkers == 0 {
        castling_moves(pos, rules, legal)?;
    }
    ControlFlow::Continue(())
}

/// Number of legal moves (perft's last ply), counted from target sets: the king's flights
/// one by one, every unpinned piece by the size of its targets that answer a check, pawn
/// moves to the last rank once per promotion piece. Pinned pieces, en passant and castling
/// go through the same move-by-move test as [`each_legal_unplayed`].
pub fn count_legal(pos: &Position, rules: &Rules) -> u64 {
    if pos.king(pos.side) == NO_SQUARE {
        return count_moves(|mut f| each_pseudo_legal(pos, rules, &mut f));
    }
    count_legal_from(pos, rules, !0, true)
}

/// [`count_legal`] for the moves that start on a square of `origins` only, en passant and
/// castling included only when `special`. The side to move has its king.
pub fn count_legal_from(pos: &Position, rules: &Rules, origins: Bitboard, special: bool) -> u64 {
    let us = pos.side;
    let ksq = pos.king(us);
    let them = us.flip();
    let board = &pos.board;
    let own = board.by_color[us.idx()];
    let enemy = board.by_color[them.idx()];
    let occ = own | enemy;
    let mut n = 0;
    if origins & bb(ksq) != 0 {
        for to in Squares(KING[ksq as usize] & !own) {
            n += u64::from(!board.attacked_with(to, them, occ ^ bb(ksq)));
        }
    }
    let guard = KingGuard::new(pos, ksq);
    let targets = guard.targets;
    if targets == 0 {
        return n;
    }
    let promotions = rules.promotions().len().max(1) as u64;
    let last_rank = us.last_rank_squares();
    // Only the pawn has the pawn part (a unit test of `core::piece` says so).
    let pawns = own & board.by_part[PAWN_IDX];
    for reach in pawn_sets(us, pawns & origins & !guard.pinned, occ, enemy) {
        let reach = reach & targets;
        n += u64::from((reach & !last_rank).count_ones())
            + u64::from((reach & last_rank).count_ones()) * promotions;
    }
    for from in Squares(own & origins & !pawns & !bb(ksq) & !guard.pinned) {
        let kind = board.kind_at(from).expect("own square is occupied");
        n += u64::from((piece_attacks(from, us, kind, occ) & !own & targets).count_ones());
    }
    // Pinned pieces move by move; en passant and castling too, when asked for.
    n + count_moves(|mut f| each_slow_legal(pos, rules, &guard, (origins, special), &mut f))
}

/// How many moves `each` emits.
fn count_moves(
    each: impl FnOnce(&mut dyn FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()>,
) -> u64 {
    let mut n = 0;
    let _ = each(&mut |_| {
        n += 1;
        ControlFlow::Continue(())
    });
    n
}

/// The target squares of the pawns `pawns` of `us`, en passant aside, as four sets that
/// each hold at most one move per pawn: single pushes, double pushes, captures towards the
/// a-file and towards the h-file.
#[inline]
fn pawn_sets(us: Color, pawns: Bitboard, occ: Bitboard, enemy: Bitboard) -> [Bitboard; 4] {
    const NOT_A: Bitboard = !0x0101_0101_0101_0101;
    const NOT_H: Bitboard = !0x8080_8080_8080_8080;
    if us == Color::White {
        let single = (pawns << 8) & !occ;
        [
            single,
            ((single & 0xFF_0000) << 8) & !occ,
            ((pawns & NOT_A) << 7) & enemy,
            ((pawns & NOT_H) << 9) & enemy,
        ]
    } else {
        let single = (pawns >> 8) & !occ;
        [
            single,
            ((single & 0xFF00_0000_0000) >> 8) & !occ,
            ((pawns & NOT_A) >> 9) & enemy,
            ((pawns & NOT_H) >> 7) & enemy,
        ]
    }
}

fn push_pawn(
    rules: &Rules,
    us: Color,
    from: u8,
    to: u8,
    kind: MoveKind,
    out: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if us.relative_rank(to) == 7 && !rules.promotions().is_empty() {
        for &k in rules.promotions() {
            out(Move {
                from,
                to,
                promo: Some(k),
                kind,
                chain: 0,
            })?;
        }
        ControlFlow::Continue(())
    } else {
        out(Move::with_kind(from, to, kind))
    }
}

fn pawn_moves(
    pos: &Position,
    rules: &Rules,
    from: u8,
    occ: Bitboard,
    them: Bitboard,
    out: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let fwd = us.forward();
    let rel = us.relative_rank(from);
    if rel == 7 {
        return ControlFlow::Continue(()); // a pawn on its last rank (fairy setups) cannot move
    }
    let one = (from as i8 + fwd) as u8;
    if occ & bb(one) == 0 {
        push_pawn(rules, us, from, one, MoveKind::Normal, out)?;
        if rel == 1 {
            let two = (one as i8 + fwd) as u8;
            if occ & bb(two) == 0 {
                out(Move::with_kind(from, two, MoveKind::DoublePush))?;
            }
        }
    }
    let caps = pawn_attacks(us, from);
    for to in Squares(caps & them) {
        push_pawn(rules, us, from, to, MoveKind::Normal, out)?;
    }
    if pos.ep != NO_SQUARE && caps & bb(pos.ep) != 0 {
        out(Move::with_kind(from, pos.ep, MoveKind::EnPassant))?;
    }
    ControlFlow::Continue(())
}

fn castling_moves(
    pos: &Position,
    rules: &Rules,
    out: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let them = pos.side.flip();
    castlings_with(pos, rules, |s| pos.board.attacked(s, them), out)
}

/// The castlings of the side to move whose king neither stands on nor passes a square
/// that `attacked` names (the square it reaches is left to the legality test): orthodox
/// with the orthodox attack test, and any condition with its own.
pub fn castlings_with(
    pos: &Position,
    rules: &Rules,
    attacked: impl Fn(Square) -> bool,
    out: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let us = pos.side;
    let rights = pos.castling;
    if rights == 0 || !rules.castling_allowed() {
        return ControlFlow::Continue(());
    }
    let occ = pos.board.occupied();
    for &(kf, kt, rf, _, bit) in &CASTLINGS[us.idx()] {
        let pass = if kt > kf { kf + 1 } else { kf - 1 };
        if rights & bit == 0 || between(kf, rf) & occ != 0 || attacked(kf) || attacked(pass) {
            continue;
        }
        out(Move::with_kind(kf, kt, MoveKind::Castle))?;
    }
    ControlFlow::Continue(())
}

/// Squares of the side-to-move's pieces that have the KING part but are not royal are
/// ordinary pieces; only the royal king matters for legality.
#[inline]
pub fn is_legal_child(child: &Position) -> bool {
    !child.mover_king_attacked()
}

/// Where a stalemating move of the side to move must land, as a square set (castling and
/// en passant are not covered by it and must always be tried); `!0` when nothing is known.
///
/// A quiet move `m` of the other side, by a piece that stands on no bishop, rook or
/// nightrider line through its own king, stays legal after any move of ours that does not
/// land on the moving piece, on a square it passes, or (pawn push) on its target: our move
/// can only add a blocker where it lands, it cannot pin that piece (the piece is not on a
/// line through its king), and a move that checks is no stalemate anyway. So a stalemating
/// move lands in the intersection of those square sets over every such quiet move.
pub fn stalemate_landing(pos: &Position, rules: &Rules) -> Bitboard {
    let us = pos.side;
    let them = us.flip();
    let board = &pos.board;
    let occ = board.occupied();
    let theirs = board.by_color[them.idx()];
    let ksq = pos.king(them);
    // Lines on which one of our riders could pin after our move.
    let mut lines = if ksq == NO_SQUARE {
        0
    } else {
        rook_attacks(ksq, 0) | bishop_attacks(ksq, 0)
    };
    let night_possible = board.part(NIGHT_IDX, us) != 0
        || rules
            .promotions()
            .iter()
            .any(|k| k.parts() & crate::core::piece::part::NIGHT != 0);
    if ksq != NO_SQUARE && night_possible {
        lines |= nightrider_attacks(ksq, 0);
    }
    let fwd = them.forward();
    let mut land: Bitboard = !0;
    for from in Squares(theirs & !lines) {
        if from == ksq {
            continue;
        }
        let kind = board.kind_at(from).expect("their square is occupied");
        if kind == Kind::Pawn {
            let rel = them.relative_rank(from);
            if rel == 7 {
                continue;
            }
            let one = (from as i8 + fwd) as u8;
            if occ & bb(one) == 0 {
                land &= bb(from) | bb(one);
            }
            continue;
        }
        for to in Squares(piece_attacks(from, them, kind, occ) & !occ) {
            land &= bb(from) | line_between(from, to);
        }
        if land == 0 {
            break;
        }
    }
    land
}

#[cfg(test)]
mod tests {
    use crate::core::parse_square as sq;
    use crate::position::Position;
    use crate::rules::Rules;

    /// `CheckSquares::of` is the lookup it replaces, `piece_attacks` from the king with the
    /// piece's square emptied, for every kind but the pawn, on random boards where the
    /// piece often stands first on one of the king's lines.
    #[test]
    fn check_squares_are_the_lookup_with_the_piece_lifted() {
        use super::{CheckSquares, piece_attacks};
        use crate::core::piece::ALL_KINDS;
        use crate::core::{Color, Kind, bb};
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || crate::core::xorshift(&mut seed);
        let mut lined = 0;
        for _ in 0..20_000 {
            let k = (next() % 64) as u8;
            let from = (next() % 64) as u8;
            if k == from {
                continue;
            }
            let occ = (next() & next()) | bb(from) | bb(k);
            let checks = CheckSquares::new(k, occ);
            lined += usize::from((checks.rook | checks.bishop) & bb(from) != 0);
            for kind in ALL_KINDS.into_iter().filter(|&kind| kind != Kind::Pawn) {
                for us in [Color::White, Color::Black] {
                    assert_eq!(
                        checks.of(from, us, kind, occ),
                        piece_attacks(k, us, kind, occ & !bb(from)),
                        "{kind:?} on {from}, king on {k}, occupancy {occ:#x}"
                    );
                }
            }
        }
        assert!(lined > 2_000, "{lined}");
    }

    fn moves_from(fen: &str, from: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let f = sq(from).unwrap();
        let mut v: Vec<String> = Rules::default()
            .legal_moves(&pos)
            .into_iter()
            .filter(|(m, _)| m.from == f)
            .map(|(m, _)| crate::core::square_name(m.to))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn nightrider_empty_and_blocked() {
        // a1 nightrider: b3 c5 d7 along (1,2), c2 e3 g4 along (2,1) — counted by hand.
        assert_eq!(
            moves_from("k7/8/8/8/8/8/8/(N)6K w - - 0 1", "a1"),
            ["b3", "c2", "c5", "d7", "e3", "g4"]
        );
        // an own pawn on c5 blocks the (1,2) line after b3
        assert_eq!(
            moves_from("k7/8/8/2P5/8/8/8/(N)6K w - - 0 1", "a1"),
            ["b3", "c2", "e3", "g4"]
        );
        // an enemy piece on c5 can be captured, d7 stays out of reach
        assert_eq!(
            moves_from("k7/8/8/2p5/8/8/8/(N)6K w - - 0 1", "a1"),
            ["b3", "c2", "c5", "e3", "g4"]
        );
    }

    #[test]
    fn compounds_move_as_each_part() {
        // Empress (R+S) on a1 with the kings out of the way: 14 rook squares + b3, c2 = 16.
        assert_eq!(
            moves_from("7K/8/8/4k3/8/8/8/(EM)7 w - - 0 1", "a1").len(),
            16
        );
        // Queen-nightrider on d4: 27 queen squares less a1 (own king) = 26, plus the
        // nightrider squares e6 f8, f5 h6, f3 h2, e2, c2, b3, b5, c6 b8 = 12.
        let v = moves_from("8/8/8/8/3(NQ)4/8/8/K6k w - - 0 1", "d4");
        assert_eq!(v.len(), 27 - 1 + 12);
    }

    #[test]
    fn pinned_compound_keeps_the_line() {
        // White empress e2 pinned by the rook e8 against Ke1: only e3..e8 (no knight jumps).
        assert_eq!(
            moves_from("4r2k/8/8/8/8/8/4(EM)3/4K3 w - - 0 1", "e2"),
            ["e3", "e4", "e5", "e6", "e7", "e8"]
        );
    }

    /// `is_pseudo_legal` agrees with generation: every generated move passes, and moves
    /// generated in other positions pass exactly when they are generated here too.
    #[test]
    fn pseudo_legality_agrees_with_generation() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "4k3/1P6/8/8/8/8/8/(AM)3K2(n) w - - 0 1",
        ];
        let rules = Rules::default()
            .with_fairy_promotions([crate::core::Kind::Amazon, crate::core::Kind::Nightrider]);
        let lists: Vec<Vec<crate::moves::Move>> = fens
            .iter()
            .map(|f| {
                let pos = Position::from_fen(f).unwrap();
                let mut l = crate::moves::MoveList::new();
                rules.generate(&pos, &mut l);
                l.as_slice().to_vec()
            })
            .collect();
        for (i, f) in fens.iter().enumerate() {
            let pos = Position::from_fen(f).unwrap();
            for list in &lists {
                for &m in list {
                    assert_eq!(
                        rules.is_pseudo_legal(&pos, m),
                        lists[i].contains(&m),
                        "{f}: {m:?}"
                    );
                }
            }
        }
    }

    /// The fast "any legal move?" answer agrees with counting the legal moves, on every
    /// position two plies deep from the public perft positions.
    #[test]
    fn has_legal_move_agrees_with_count() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "k7/8/1K6/8/8/8/8/(n)6(EM) w - - 0 1",
        ];
        let rules = Rules::default();
        let mut checked = 0;
        for f in fens {
            let pos = Position::from_fen(f).unwrap();
            for (_, c1) in rules.legal_moves(&pos) {
                for (_, c2) in std::iter::once((crate::moves::Move::new(0, 0), c1))
                    .chain(rules.legal_moves(&c1))
                {
                    assert_eq!(
                        super::has_legal_move(&c2, &rules),
                        super::count_legal(&c2, &rules) > 0,
                        "{}",
                        c2.to_fen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    /// The check test before the move agrees with playing it: exact for plain moves, two-
    /// steps and promotions, never false before a move that checks; and the selfmate's
    /// "a legal move without check?" agrees with playing every legal move.
    #[test]
    fn checks_are_seen_before_the_move_is_played() {
        use crate::moves::MoveKind;
        use std::ops::ControlFlow;
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "k7/8/1K6/8/8/8/8/(n)6(EM) w - - 0 1",
            "4k3/1P4P1/8/3(nr)4/8/8/4(am)3/K6(KB) w - - 0 1",
            "8/7p/8/8/8/4k3/2B5/(N)3K3 w - - 0 1",
        ];
        let rules = Rules::default();
        let (mut checks, mut quiet) = (0, 0);
        for f in fens {
            let pos = Position::from_fen(f).unwrap();
            for (_, c1) in rules.legal_moves(&pos) {
                for (_, c2) in std::iter::once((crate::moves::Move::new(0, 0), c1))
                    .chain(rules.legal_moves(&c1))
                {
                    let mut without_check = false;
                    for (m, child) in rules.legal_moves(&c2) {
                        let gives = child.in_check();
                        let said = super::may_give_check(&c2, m);
                        if matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) {
                            assert_eq!(said, gives, "{} {m:?}", c2.to_fen());
                        } else {
                            assert!(said || !gives, "{} {m:?}", c2.to_fen());
                        }
                        if gives {
                            checks += 1;
                        } else {
                            quiet += 1;
                            without_check = true;
                        }
                    }
                    assert_eq!(
                        rules.has_legal_move_without_check(&c2),
                        without_check,
                        "{}",
                        c2.to_fen()
                    );
                    let generic = rules
                        .for_each_legal(&c2, |_, child| {
                            if child.in_check() {
                                ControlFlow::Continue(())
                            } else {
                                ControlFlow::Break(())
                            }
                        })
                        .is_break();
                    assert_eq!(generic, without_check);
                }
            }
        }
        assert!(checks > 1000 && quiet > 10000, "{checks} {quiet}");
    }

    #[test]
    fn nightrider_checks_through_a_gap() {
        let pos = Position::from_fen("7k/8/8/2K5/8/8/8/(n)7 w - - 0 1").unwrap();
        assert!(pos.in_check(), "a1-b3-c5 is open");
        let pos = Position::from_fen("7k/8/8/2K5/8/1P6/8/(n)7 w - - 0 1").unwrap();
        assert!(!pos.in_check(), "b3 blocks");
    }
}
