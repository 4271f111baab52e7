//! The `replay` command: play a game or move sequence and print each position.

use super::*;
use crate::output::notation::{effects_text, suffix};

/// Replays moves from the initial array (game rules: in Pocket Mutation White may not use
/// the pocket on the first move, D15) or from a FEN, checking each move and printing the
/// position after it.
pub(super) fn replay_cmd(a: &ReplayArgs) -> Result<(), Failure> {
    let name = a.game.display().to_string();
    let text = read_text_arg(&a.game).map_err(Failure::Input)?;
    let cond = condition_arg(&a.condition)?;
    let game_start = a.fen.is_none();
    let mut pos = match &a.fen {
        Some(f) => fen_arg(f, cond).map_err(|e| Failure::Input(format!("--fen: {e}")))?,
        None => Position::initial(),
    };
    let rules = rules_for(cond, &pos);
    let mut clock = GameClock::new(a.fen.as_deref());
    println!("start {}", clock.fen(&pos));
    for (ply, token) in crate::check::tokens(&text).iter().enumerate() {
        let side = if pos.side == crate::core::Color::White {
            "."
        } else {
            "..."
        };
        let number = format!("{}{side}", clock.full);
        let shown = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let bad = |e: String| Failure::Input(format!("{name}: move {number}{shown}{e}"));
        let reader = crate::check::MoveReader::new(&rules, &pos);
        let read = reader.read_game_move(shown).map_err(&bad)?;
        let line = game_line(&rules, &pos, &read, game_start && ply == 0).map_err(&bad)?;
        let child = read.child;
        clock.advance(&pos, &child);
        match line {
            GameLine::Ended(text) => {
                println!("{number}{text} {} (king captured)", clock.fen(&child));
                return Ok(());
            }
            GameLine::Move(text, notes) => println!("{number}{text} {}{notes}", clock.fen(&child)),
        }
        pos = child;
    }
    Ok(())
}

/// How a replayed move is printed: the move (and the notes after the FEN), or the move
/// that captured the king and ended the game.
enum GameLine {
    Move(String, String),
    Ended(String),
}

/// The text of a game move. A move read step by step (game semantics) is printed short,
/// with `+` for check and notes on the kings; any other move as Popeye writes it. The
/// first move of a game must be allowed at its start (D15).
fn game_line(
    rules: &Rules,
    pos: &Position,
    read: &crate::check::GameMove,
    first: bool,
) -> Result<GameLine, String> {
    if !read.stepwise {
        let m = rules
            .legal_with_effects(pos)
            .into_iter()
            .find(|x| x.1.hash == read.child.hash && x.1.board == read.child.board)
            .map(|x| x.0)
            .expect("a read legal move is legal");
        if first && !rules.allowed_at_game_start(pos, m) {
            return Err(format!(
                " is not a legal {} move here ({})",
                rules.condition.name(),
                pos.to_fen()
            ));
        }
        let text = effects_text(rules, pos, &read.effects, Style::Long);
        return Ok(GameLine::Move(
            format!("{text}{}", suffix(rules, &read.child, Style::Long, None)),
            String::new(),
        ));
    }
    let text = effects_text(rules, pos, &read.effects, Style::Short);
    if read.captures_king(pos) {
        return Ok(GameLine::Ended(text));
    }
    let child = &read.child;
    let mut notes = vec![];
    if rules.other_side_in_check(child) {
        notes.push("own king left capturable".to_string());
    }
    let check = rules.in_check(child);
    if check {
        notes.push(rules.check_name().to_string());
    }
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    let sign = if check { "+" } else { "" };
    Ok(GameLine::Move(format!("{text}{sign}"), notes))
}

/// The move counters of a replayed game (FEN's last two fields). The half-move clock
/// restarts when a move captures (the opponent has fewer pieces after it) or moves, drops
/// or pockets a pawn (a promotion moves a pawn); the move number grows after each Black
/// move.
struct GameClock {
    half: u32,
    full: u32,
}

impl GameClock {
    /// The counters of a FEN (`0 1` when absent or not numbers).
    fn new(fen: Option<&str>) -> GameClock {
        let fields: Vec<&str> = fen.unwrap_or("").split_whitespace().collect();
        let number = |i: usize, default: u32| {
            fields
                .get(i)
                .and_then(|f| f.parse().ok())
                .unwrap_or(default)
        };
        GameClock {
            half: number(4, 0),
            full: number(5, 1).max(1),
        }
    }

    fn advance(&mut self, before: &Position, after: &Position) {
        use crate::core::Piece;
        let us = before.side;
        let pawns = |p: &Position| -> u64 {
            (0..64u8)
                .filter(|&s| p.board.get(s) == Some(Piece::new(us, Kind::Pawn)))
                .fold(0, |m, s| m | 1 << s)
        };
        let pocket = |p: &Position| p.pockets[us.idx()];
        let capture = after.count(us.flip()) < before.count(us.flip());
        let pawn_move = pawns(before) != pawns(after)
            || pocket(before) == Some(Kind::Pawn)
            || pocket(after) == Some(Kind::Pawn);
        self.half = if capture || pawn_move {
            0
        } else {
            self.half + 1
        };
        if us == crate::core::Color::Black {
            self.full += 1;
        }
    }

    fn fen(&self, pos: &Position) -> String {
        let f = pos.to_fen();
        let board = f.strip_suffix(" 0 1").unwrap_or(&f);
        format!("{board} {} {}", self.half, self.full)
    }
}
