//! Board + side to move + castling rights + en-passant square + pockets. Small and Copy.

use crate::core::bitboard::pawn_attacks;
use crate::core::piece::KIND_COUNT;
use crate::core::square::{file_of, rank_of, square};
use crate::core::{Board, Color, Kind, NO_SQUARE, Piece, Square, bb, parse_square, square_name};
use crate::moves::{Move, MoveKind};

/// Castling right bits.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub board: Board,
    pub side: Color,
    pub castling: u8,
    /// En-passant target square (the square the capturing pawn moves to), NO_SQUARE if none.
    /// Only set when an en-passant capture is pseudo-possible ("moves are positions").
    pub ep: Square,
    /// Pocket Mutation pockets (at most one piece each).
    pub pockets: [Option<Kind>; 2],
    pub hash: u64,
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

pub struct Zobrist {
    pub piece: [[[u64; 64]; KIND_COUNT]; 2],
    pub side: u64,
    pub castling: [u64; 16],
    pub ep: [u64; 65],
    pub pocket: [[u64; KIND_COUNT + 1]; 2],
}

const fn zobrist() -> Zobrist {
    let mut z = Zobrist {
        piece: [[[0; 64]; KIND_COUNT]; 2],
        side: 0,
        castling: [0; 16],
        ep: [0; 65],
        pocket: [[0; KIND_COUNT + 1]; 2],
    };
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < KIND_COUNT {
            let mut s = 0;
            while s < 64 {
                seed = splitmix(seed);
                z.piece[c][k][s] = seed;
                s += 1;
            }
            k += 1;
        }
        let mut k = 1;
        while k <= KIND_COUNT {
            seed = splitmix(seed);
            z.pocket[c][k] = seed;
            k += 1;
        }
        c += 1;
    }
    seed = splitmix(seed);
    z.side = seed;
    let mut i = 1;
    while i < 16 {
        seed = splitmix(seed);
        z.castling[i] = seed;
        i += 1;
    }
    let mut i = 0;
    while i < 64 {
        seed = splitmix(seed);
        z.ep[i] = seed;
        i += 1;
    }
    z
}

pub static ZOBRIST: Zobrist = zobrist();

#[inline]
pub(crate) fn zpiece(p: Piece, s: Square) -> u64 {
    ZOBRIST.piece[p.color.idx()][p.kind as usize][s as usize]
}

/// Castling-right bits that survive a piece leaving or arriving on each square.
const fn castle_masks() -> [u8; 64] {
    let mut m = [0xFu8; 64];
    m[0] = !WHITE_QUEENSIDE & 0xF;
    m[4] = !(WHITE_KINGSIDE | WHITE_QUEENSIDE) & 0xF;
    m[7] = !WHITE_KINGSIDE & 0xF;
    m[56] = !BLACK_QUEENSIDE & 0xF;
    m[60] = !(BLACK_KINGSIDE | BLACK_QUEENSIDE) & 0xF;
    m[63] = !BLACK_KINGSIDE & 0xF;
    m
}
pub static CASTLE_MASK: [u8; 64] = castle_masks();

/// (king from, king to, rook from, rook to, right bit).
pub type Castling = (Square, Square, Square, Square, u8);

/// The castlings of each colour (king side, queen side).
pub const CASTLINGS: [[Castling; 2]; 2] = [
    [(4, 6, 7, 5, WHITE_KINGSIDE), (4, 2, 0, 3, WHITE_QUEENSIDE)],
    [
        (60, 62, 63, 61, BLACK_KINGSIDE),
        (60, 58, 56, 59, BLACK_QUEENSIDE),
    ],
];

impl Position {
    pub fn empty() -> Position {
        Position {
            board: Board::empty(),
            side: Color::White,
            castling: 0,
            ep: NO_SQUARE,
            pockets: [None; 2],
            hash: 0,
        }
    }

    /// The hash after a teleport without promotion (`MoveKind::Swap`) of the own pieces on
    /// `from` and `to`, without playing it: `self.make(m).hash` for that move (the pieces
    /// trade squares, an en-passant right ends, castling rights fall as in `apply`).
    pub fn swap_hash(&self, from: Square, to: Square) -> u64 {
        let (Some(x), Some(y)) = (self.board.get(from), self.board.get(to)) else {
            return self.hash;
        };
        self.hash_leaving(from, to)
            ^ ZOBRIST.side
            ^ zpiece(x, from)
            ^ zpiece(x, to)
            ^ zpiece(y, to)
            ^ zpiece(y, from)
    }

    /// The hash with what any move between `from` and `to` changes besides the pieces and
    /// the turn: an en-passant right ended, the castling rights the two squares take away.
    fn hash_leaving(&self, from: Square, to: Square) -> u64 {
        let mut h = self.hash;
        if self.ep != NO_SQUARE {
            h ^= ZOBRIST.ep[self.ep as usize];
        }
        let kept = self.castling & CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        h ^ ZOBRIST.castling[self.castling as usize] ^ ZOBRIST.castling[kept as usize]
    }

    /// Recomputes the hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..64u8 {
            if let Some(p) = self.board.get(s) {
                h ^= zpiece(p, s);
            }
        }
        if self.side == Color::Black {
            h ^= ZOBRIST.side;
        }
        h ^= ZOBRIST.castling[self.castling as usize];
        if self.ep != NO_SQUARE {
            h ^= ZOBRIST.ep[self.ep as usize];
        }
        for c in 0..2 {
            if let Some(k) = self.pockets[c] {
                h ^= ZOBRIST.pocket[c][k as usize + 1];
            }
        }
        h
    }

    /// Drops castling rights whose king and rook are not both on their home squares,
    /// drops an en-passant square that no pawn can use, and recomputes the hash.
    pub fn normalize(&mut self) {
        for c in [Color::White, Color::Black] {
            for &(kf, _, rf, _, bit) in &CASTLINGS[c.idx()] {
                let ok = self.board.get(kf) == Some(Piece::new(c, Kind::King))
                    && self.board.get(rf) == Some(Piece::new(c, Kind::Rook));
                if !ok {
                    self.castling &= !bit;
                }
            }
        }
        if self.ep != NO_SQUARE && !self.ep_usable(self.ep) {
            self.ep = NO_SQUARE;
        }
        self.hash = self.compute_hash();
    }

    /// Castling rights implied by the problem convention: every king+rook pair on its
    /// home squares may castle.
    pub fn home_castling_rights(&self) -> u8 {
        let mut r = 0;
        for c in [Color::White, Color::Black] {
            for &(kf, _, rf, _, bit) in &CASTLINGS[c.idx()] {
                if self.board.get(kf) == Some(Piece::new(c, Kind::King))
                    && self.board.get(rf) == Some(Piece::new(c, Kind::Rook))
                {
                    r |= bit;
                }
            }
        }
        r
    }

    /// Refuses an en-passant square no pawn can just have passed: it must be on the 6th
    /// rank with White to move (3rd with Black), empty, with a pawn of the side that just
    /// moved in front of it. (Whether the square the pawn came from must be empty depends
    /// on the condition: see [`Position::ep_origin_error`].) A square that passes but no
    /// pawn can capture on is kept until [`Position::normalize`] drops it.
    fn check_ep_possible(&self, ep: Square) -> Result<(), String> {
        let them = self.side.flip();
        let name = square_name(ep);
        let (rank, from_rank) = if them == Color::Black { (5, 6) } else { (2, 1) };
        if rank_of(ep) != rank {
            return Err(format!(
                "impossible en-passant square {name}: with {} to move it must be on the {} rank",
                self.side,
                if rank == 5 { "6th" } else { "3rd" }
            ));
        }
        let to = (ep as i8 - self.side.forward()) as Square;
        let from = square(file_of(ep), from_rank);
        if !self.board.is_empty(ep) {
            return Err(format!(
                "impossible en-passant square {name}: it must be empty (a pawn just passed it)"
            ));
        }
        if self.board.get(to) != Some(Piece::new(them, Kind::Pawn)) {
            return Err(format!(
                "impossible en-passant square {name}: no {them} pawn on {} that could just have \
                 made the double step {}-{}",
                square_name(to),
                square_name(from),
                square_name(to)
            ));
        }
        Ok(())
    }

    /// For a position read by [`Position::from_fen_unnormalized`]: an error when the
    /// square the en-passant pawn came from is occupied. That is impossible in orthodox
    /// chess, but not where the same move can fill the square again (a teleporting
    /// two-step, a Kazan follower), so the caller decides.
    pub fn ep_origin_error(&self) -> Option<String> {
        if self.ep == NO_SQUARE {
            return None;
        }
        let from_rank = if self.side == Color::White { 6 } else { 1 };
        let from = square(file_of(self.ep), from_rank);
        let to = (self.ep as i8 - self.side.forward()) as Square;
        (!self.board.is_empty(from)).then(|| {
            format!(
                "impossible en-passant square {}: {} must be empty (the {} pawn on {} came from it)",
                square_name(self.ep),
                square_name(from),
                self.side.flip(),
                square_name(to)
            )
        })
    }

    /// Could a pawn of the side to move capture en passant onto `ep`?
    fn ep_usable(&self, ep: Square) -> bool {
        let us = self.side;
        let victim = (ep as i8 - us.forward()) as Square;
        self.board.get(victim) == Some(Piece::new(us.flip(), Kind::Pawn))
            && self.board.is_empty(ep)
            && pawn_attacks(us.flip(), ep) & self.board.part(0, us) & self.board.by_part[0] != 0
    }

    #[inline]
    pub fn king(&self, c: Color) -> Square {
        self.board.kings[c.idx()]
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        let k = self.king(self.side);
        k != NO_SQUARE && self.board.attacked(k, self.side.flip())
    }

    /// Is the king of the side that just moved attacked (the move was illegal)?
    #[inline]
    pub fn mover_king_attacked(&self) -> bool {
        let them = self.side.flip();
        let k = self.king(them);
        k != NO_SQUARE && self.board.attacked(k, self.side)
    }

    #[inline]
    pub(crate) fn put(&mut self, s: Square, p: Piece) {
        self.board.put(s, p);
        self.hash ^= zpiece(p, s);
    }

    #[inline]
    pub(crate) fn remove(&mut self, s: Square) -> Option<Piece> {
        let p = self.board.remove(s)?;
        self.hash ^= zpiece(p, s);
        Some(p)
    }

    /// Plays an orthodox move (copy-make); legality is not checked here.
    #[inline]
    pub fn make(&self, m: Move) -> Position {
        let mut p = *self;
        p.apply(m);
        p
    }

    /// Plays an orthodox move in place; legality is not checked here.
    #[inline]
    fn apply(&mut self, m: Move) {
        let p = self;
        let us = p.side;
        if p.ep != NO_SQUARE {
            p.hash ^= ZOBRIST.ep[p.ep as usize];
            p.ep = NO_SQUARE;
        }
        if m.kind == MoveKind::FromPocket {
            let kind = p.pockets[us.idx()].expect("drop from an empty pocket");
            p.set_pocket(us, None);
            p.put(m.to, Piece::new(us, kind));
            p.side = us.flip();
            p.hash ^= ZOBRIST.side;
            return;
        }
        if matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) && m.promo.is_none() {
            // The common move: the piece keeps its kind and slides over in place.
            let piece = p.board.get(m.from).expect("move from an empty square");
            p.remove(m.to);
            p.board.shift(m.from, m.to, piece);
            p.hash ^= zpiece(piece, m.from) ^ zpiece(piece, m.to);
        } else {
            p.apply_special(m);
        }
        p.finish_move(m, us);
    }

    /// The moves other than a plain move or double step: castling, en passant, promotion,
    /// pockets, Combo's turn pass and Teleport's swaps.
    fn apply_special(&mut self, m: Move) {
        let p = self;
        let us = p.side;
        let mut piece = p.remove(m.from).expect("move from an empty square");
        match m.kind {
            MoveKind::Castle => {
                let wing = if m.to > m.from { 0 } else { 1 };
                let (_, _, rf, rt, _) = CASTLINGS[us.idx()][wing];
                let rook = p.remove(rf).expect("castling without rook");
                p.put(m.to, piece);
                p.put(rt, rook);
            }
            MoveKind::EnPassant => {
                let victim = (m.to as i8 - us.forward()) as Square;
                p.remove(victim);
                p.put(m.to, piece);
            }
            MoveKind::Normal | MoveKind::DoublePush => {
                p.remove(m.to);
                if let Some(k) = m.promo {
                    piece.kind = k;
                }
                p.put(m.to, piece);
            }
            MoveKind::ToPocket => {
                p.set_pocket(us, Some(m.promo.unwrap_or(piece.kind)));
            }
            MoveKind::FromPocket => {} // returned above
            // A combo is played by `rules::combo` (it needs its steps); here the piece
            // stays where it was and only the turn passes.
            MoveKind::Compound => p.put(m.from, piece),
            MoveKind::Swap | MoveKind::SwapDouble => {
                let mut other = p.remove(m.to).expect("teleport onto an empty square");
                if let Some(k) = m.promo {
                    if piece.kind == Kind::Pawn && us.relative_rank(m.to) == 7 {
                        piece.kind = k;
                    } else {
                        other.kind = k;
                    }
                }
                p.put(m.to, piece);
                p.put(m.from, other);
            }
        }
    }

    /// Castling rights, the turn and the en-passant square after move `m` of side `us`.
    #[inline]
    fn finish_move(&mut self, m: Move, us: Color) {
        let p = self;
        let new_castling = p.castling & CASTLE_MASK[m.from as usize] & CASTLE_MASK[m.to as usize];
        if new_castling != p.castling {
            p.hash ^=
                ZOBRIST.castling[p.castling as usize] ^ ZOBRIST.castling[new_castling as usize];
            p.castling = new_castling;
        }
        p.side = us.flip();
        p.hash ^= ZOBRIST.side;
        if matches!(m.kind, MoveKind::DoublePush | MoveKind::SwapDouble) {
            let ep = ((m.from as i8 + m.to as i8) / 2) as Square;
            if p.ep_usable(ep) {
                p.ep = ep;
                p.hash ^= ZOBRIST.ep[ep as usize];
            }
        }
    }

    /// Sets a pocket (hash included).
    pub fn set_pocket(&mut self, c: Color, kind: Option<Kind>) {
        if let Some(k) = self.pockets[c.idx()] {
            self.hash ^= ZOBRIST.pocket[c.idx()][k as usize + 1];
        }
        self.pockets[c.idx()] = kind;
        if let Some(k) = kind {
            self.hash ^= ZOBRIST.pocket[c.idx()][k as usize + 1];
        }
    }

    /// Moves a piece of the side that just moved from `from` to the empty square `to`
    /// (a follower step inside a move), promoting it when `promo` is given; castling rights
    /// follow the squares as in `make`.
    pub fn step(&mut self, from: Square, to: Square, promo: Option<Kind>) {
        let mut piece = self.remove(from).expect("step from an empty square");
        if let Some(k) = promo {
            piece.kind = k;
        }
        self.put(to, piece);
        let new_castling = self.castling & CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        if new_castling != self.castling {
            self.hash ^=
                ZOBRIST.castling[self.castling as usize] ^ ZOBRIST.castling[new_castling as usize];
            self.castling = new_castling;
        }
    }

    /// Keeps only the castling rights in `mask` (hash included).
    pub(crate) fn restrict_castling(&mut self, mask: u8) {
        let new_castling = self.castling & mask;
        if new_castling != self.castling {
            self.hash ^=
                ZOBRIST.castling[self.castling as usize] ^ ZOBRIST.castling[new_castling as usize];
            self.castling = new_castling;
        }
    }

    /// Changes the kind of the piece on `s` (its colour stays); a piece changing on a
    /// castling square loses the castling rights tied to that square.
    pub fn transform(&mut self, s: Square, kind: Kind) {
        let mut piece = self.remove(s).expect("transform on an empty square");
        piece.kind = kind;
        self.put(s, piece);
        let new_castling = self.castling & CASTLE_MASK[s as usize];
        if new_castling != self.castling {
            self.hash ^=
                ZOBRIST.castling[self.castling as usize] ^ ZOBRIST.castling[new_castling as usize];
            self.castling = new_castling;
        }
    }

    /// Sets the en-passant square after a two-step over `sq` (NO_SQUARE: none), kept only
    /// when the side to move can use it.
    pub fn set_en_passant(&mut self, sq: Square) {
        if self.ep != NO_SQUARE {
            self.hash ^= ZOBRIST.ep[self.ep as usize];
            self.ep = NO_SQUARE;
        }
        if sq != NO_SQUARE && self.ep_usable(sq) {
            self.ep = sq;
            self.hash ^= ZOBRIST.ep[sq as usize];
        }
    }

    /// [`Self::null_move_hash`] of `self.make(m)`, without playing the move, for an
    /// orthodox move that neither promotes nor castles nor takes en passant (`None` for
    /// the others): the pieces' keys on the two squares, an en-passant right ended, the
    /// castling rights the squares take away; the side to move is the mover's again, and a
    /// double step's en-passant right is gone with the null move.
    #[inline]
    pub fn null_move_hash_after(&self, m: Move) -> Option<u64> {
        if !matches!(m.kind, MoveKind::Normal | MoveKind::DoublePush) || m.promo.is_some() {
            return None;
        }
        let piece = self.board.get(m.from)?;
        let taken = self.board.get(m.to).map_or(0, |t| zpiece(t, m.to));
        Some(self.hash_leaving(m.from, m.to) ^ zpiece(piece, m.from) ^ zpiece(piece, m.to) ^ taken)
    }

    /// Passes the move to the other side (for threats and series play).
    pub fn null_move(&self) -> Position {
        let mut p = *self;
        p.hash = self.null_move_hash();
        p.ep = NO_SQUARE;
        p.side = p.side.flip();
        p
    }

    /// The hash of [`Self::null_move`]'s position, without making it.
    pub fn null_move_hash(&self) -> u64 {
        let ep = if self.ep != NO_SQUARE {
            ZOBRIST.ep[self.ep as usize]
        } else {
            0
        };
        self.hash ^ ep ^ ZOBRIST.side
    }

    /// The orthodox initial array.
    pub fn initial() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("initial FEN")
    }

    /// Parses FEN. Orthodox pieces use the usual letters (N = knight); a fairy piece is its
    /// Popeye code in parentheses, upper case for White, e.g. `(AM)` or `(n)` for a black
    /// nightrider. A crazyhouse-style pocket group may follow the board: `.../RNBQKBNR[Qn]`.
    pub fn from_fen(fen: &str) -> Result<Position, String> {
        let mut pos = Position::from_fen_unnormalized(fen)?;
        pos.normalize();
        Ok(pos)
    }

    /// [`Position::from_fen`] before [`Position::normalize`]: castling rights and the
    /// en-passant square as the FEN gives them (the en-passant square already checked to
    /// be possible), and no hash.
    pub fn from_fen_unnormalized(fen: &str) -> Result<Position, String> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or("empty FEN")?;
        let mut pos = Position::empty();
        let (board_part, pocket_part) = match placement.find('[') {
            Some(i) => {
                let rest = &placement[i + 1..];
                let end = rest.find(']').ok_or("unclosed pocket bracket '['")?;
                if end + 1 != rest.len() {
                    return Err("text after the pocket group".into());
                }
                (&placement[..i], Some(&rest[..end]))
            }
            None => (placement, None),
        };
        parse_placement(board_part, &mut pos)?;
        if let Some(pk) = pocket_part {
            parse_pockets(pk, &mut pos)?;
        }
        pos.side = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(s) => return Err(format!("bad side to move '{s}' (expected w or b)")),
        };
        pos.castling = parse_castling(fields.next())?;
        pos.ep = match fields.next() {
            None | Some("-") => NO_SQUARE,
            Some(s) => {
                let ep = parse_square(s).ok_or(format!("bad en-passant square '{s}'"))?;
                pos.check_ep_possible(ep)?;
                ep
            }
        };
        Ok(pos)
    }

    /// FEN of the position (fairy pieces in parentheses, pockets in brackets when any).
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.board.get(rank * 8 + file) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&fen_piece(p));
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if self.pockets.iter().any(|p| p.is_some()) {
            out.push('[');
            for c in [Color::White, Color::Black] {
                if let Some(k) = self.pockets[c.idx()] {
                    out.push_str(&fen_piece(Piece::new(c, k)));
                }
            }
            out.push(']');
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        let mut cs = String::new();
        for (bit, ch) in [
            (WHITE_KINGSIDE, 'K'),
            (WHITE_QUEENSIDE, 'Q'),
            (BLACK_KINGSIDE, 'k'),
            (BLACK_QUEENSIDE, 'q'),
        ] {
            if self.castling & bit != 0 {
                cs.push(ch);
            }
        }
        out.push_str(if cs.is_empty() { "-" } else { &cs });
        out.push(' ');
        out.push_str(&if self.ep == NO_SQUARE {
            "-".to_string()
        } else {
            square_name(self.ep)
        });
        out.push_str(" 0 1");
        out
    }

    /// Number of pieces of a colour.
    pub fn count(&self, c: Color) -> u32 {
        self.board.by_color[c.idx()].count_ones()
    }

    /// True when `s` holds a piece of the side to move.
    pub fn own(&self, s: Square) -> bool {
        self.board.by_color[self.side.idx()] & bb(s) != 0
    }
}

/// The board field of a FEN (fairy pieces in parentheses), put on `pos`.
fn parse_placement(board_part: &str, pos: &mut Position) -> Result<(), String> {
    let ranks: Vec<&str> = board_part.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("FEN board has {} ranks, expected 8", ranks.len()));
    }
    for (ri, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - ri as u8;
        let mut file = 0u8;
        let mut chars = rank_text.chars();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                file += d as u8;
                continue;
            }
            let piece = if ch == '(' {
                let mut code = String::new();
                loop {
                    match chars.next() {
                        Some(')') => break,
                        Some(c) => code.push(c),
                        None => return Err("unclosed '(' in FEN".into()),
                    }
                }
                fen_fairy(&code)?
            } else {
                fen_letter(ch)?
            };
            if file >= 8 {
                return Err(format!("FEN rank {} has more than 8 squares", rank + 1));
            }
            pos.board.put(rank * 8 + file, piece);
            file += 1;
        }
        if file != 8 {
            return Err(format!(
                "FEN rank {} has {} squares, expected 8",
                rank + 1,
                file
            ));
        }
    }
    Ok(())
}

/// The castling field of a FEN (absent or `-`: none).
fn parse_castling(field: Option<&str>) -> Result<u8, String> {
    let mut rights = 0;
    if let Some(s) = field.filter(|&s| s != "-") {
        for ch in s.chars() {
            rights |= match ch {
                'K' => WHITE_KINGSIDE,
                'Q' => WHITE_QUEENSIDE,
                'k' => BLACK_KINGSIDE,
                'q' => BLACK_QUEENSIDE,
                _ => return Err(format!("bad castling field '{s}'")),
            };
        }
    }
    Ok(rights)
}

fn fen_letter(ch: char) -> Result<Piece, String> {
    let color = if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let kind = match ch.to_ascii_lowercase() {
        'p' => Kind::Pawn,
        'n' => Kind::Knight,
        'b' => Kind::Bishop,
        'r' => Kind::Rook,
        'q' => Kind::Queen,
        'k' => Kind::King,
        _ => return Err(format!("unknown FEN piece letter '{ch}'")),
    };
    Ok(Piece::new(color, kind))
}

fn fen_fairy(code: &str) -> Result<Piece, String> {
    let color = if code.chars().all(|c| c.is_ascii_uppercase()) {
        Color::White
    } else if code.chars().all(|c| c.is_ascii_lowercase()) {
        Color::Black
    } else {
        return Err(format!(
            "fairy piece code '({code})' must be all upper case (White) or all lower case (Black)"
        ));
    };
    let kind = Kind::from_input_code(code).ok_or(format!("unknown piece code '({code})'"))?;
    Ok(Piece::new(color, kind))
}

fn fen_piece(p: Piece) -> String {
    let s = match p.kind {
        Kind::Pawn => "p".to_string(),
        Kind::Knight => "n".to_string(),
        Kind::Bishop => "b".to_string(),
        Kind::Rook => "r".to_string(),
        Kind::Queen => "q".to_string(),
        Kind::King => "k".to_string(),
        k => format!("({})", k.code().to_ascii_lowercase()),
    };
    if p.color == Color::White {
        s.to_ascii_uppercase()
    } else {
        s
    }
}

fn parse_pockets(text: &str, pos: &mut Position) -> Result<(), String> {
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        let piece = if ch == '(' {
            let code: String = chars.by_ref().take_while(|&c| c != ')').collect();
            fen_fairy(&code)?
        } else {
            fen_letter(ch)?
        };
        if piece.kind == Kind::King {
            return Err("a king cannot be in a pocket".into());
        }
        let slot = &mut pos.pockets[piece.color.idx()];
        if slot.is_some() {
            return Err(format!("{} pocket holds more than one piece", piece.color));
        }
        *slot = Some(piece.kind);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The null-move hash after a move, taken without playing it, is that of the played
    /// move's position wherever it is given (captures, double steps with and without an
    /// en-passant right, castling rights falling, a right ending), and it is given for
    /// every plain move; walked two plies deep from positions with all of these.
    #[test]
    fn null_move_hash_after_a_move_is_that_of_the_move_played() {
        let rules = crate::rules::Rules::new(crate::rules::Condition::Orthodox);
        let mut given = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let root = Position::from_fen(fen).unwrap();
            for (_, pos) in std::iter::once((None, root)).chain(
                rules
                    .legal_moves(&root)
                    .into_iter()
                    .map(|(m, p)| (Some(m), p)),
            ) {
                for (m, child) in rules.legal_moves(&pos) {
                    let plain = m.kind == MoveKind::Normal && m.promo.is_none();
                    match pos.null_move_hash_after(m) {
                        Some(h) => {
                            assert_eq!(h, child.null_move_hash(), "{fen}: {m:?}");
                            given += 1;
                        }
                        None => assert!(!plain, "{fen}: {m:?} not given"),
                    }
                }
            }
        }
        assert!(given > 1000);
    }

    #[test]
    fn fen_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/(AM)3K2(n) b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1",
        ] {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(p.to_fen(), fen);
            assert_eq!(p.hash, p.compute_hash());
        }
    }

    #[test]
    fn fen_errors() {
        assert!(Position::from_fen("8/8/8 w").is_err());
        assert!(Position::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w").is_err());
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K2X w").is_err());
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K3[QQ] w").is_err());
    }

    #[test]
    fn ep_square_only_when_usable() {
        let p = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(p.ep, NO_SQUARE);
        let p = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(p.ep, parse_square("e3").unwrap());
        // Possible but unusable (no white pawn beside e5): accepted, then dropped.
        let p = Position::from_fen("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1").unwrap();
        assert_eq!(p.ep, NO_SQUARE);
    }

    #[test]
    fn impossible_ep_square_is_refused() {
        for (fen, says) in [
            // No black pawn on f5.
            ("4k3/8/8/4P3/8/8/8/4K3 w - f6 0 1", "no black pawn on f5"),
            // A white pawn on f5, not a black one.
            ("4k3/8/8/4PP2/8/8/8/4K3 w - f6 0 1", "no black pawn on f5"),
            // The square passed over is occupied.
            (
                "4k3/8/5n2/4Pp2/8/8/8/4K3 w - f6 0 1",
                "f6: it must be empty",
            ),
            // Wrong rank for the side to move.
            ("4k3/8/8/4Pp2/8/8/8/4K3 b - f6 0 1", "3rd rank"),
            ("4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1", "6th rank"),
            ("4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "6th rank"),
            ("4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1", "no white pawn on e4"),
        ] {
            let e = Position::from_fen(fen).unwrap_err();
            assert!(
                e.starts_with("impossible en-passant square") && e.contains(says),
                "{fen}: {e}"
            );
        }
        // The square the pawn came from is occupied: the caller decides.
        let fen = "4k3/5n2/8/4Pp2/8/8/8/4K3 w - f6 0 1";
        let p = Position::from_fen_unnormalized(fen).unwrap();
        let e = p.ep_origin_error().unwrap();
        assert!(e.contains("f7 must be empty"), "{e}");
        assert_eq!(
            Position::from_fen(fen).unwrap().ep,
            parse_square("f6").unwrap()
        );
        let p = Position::from_fen_unnormalized("4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 1").unwrap();
        assert_eq!(p.ep_origin_error(), None);
    }
}
