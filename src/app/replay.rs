//! The `replay` command: play a game or move sequence and print each position.

use super::*;

/// Replays moves from the initial array (game rules: in Pocket Mutation White may not use
/// the pocket on the first move, D15) or from a FEN, checking each move and printing the
/// position after it.
pub(super) fn replay_cmd(a: &ReplayArgs) -> i32 {
    let name = a.game.display().to_string();
    let text = if name == "-" {
        let mut s = String::new();
        match std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            Ok(_) => s,
            Err(e) => {
                eprintln!("error: stdin: {e}");
                return EXIT_INPUT;
            }
        }
    } else {
        match std::fs::read_to_string(&a.game) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                return EXIT_INPUT;
            }
        }
    };
    let Some(cond) = Condition::parse(&a.condition) else {
        eprintln!("error: --condition: unknown condition '{}'", a.condition);
        return EXIT_INPUT;
    };
    let game_start = a.fen.is_none();
    let mut pos = match &a.fen {
        Some(f) => match fen_arg(f, cond) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: --fen: {e}");
                return EXIT_INPUT;
            }
        },
        None => Position::initial(),
    };
    let rules = rules_for(cond, &pos);
    let mut clock = GameClock::new(a.fen.as_deref());
    println!("start {}", clock.fen(&pos));
    for (ply, token) in crate::check::tokens(&text).iter().enumerate() {
        let number = format!(
            "{}{}",
            clock.full,
            if pos.side == crate::core::Color::White {
                "."
            } else {
                "..."
            }
        );
        if cond == Condition::Combo {
            // Game semantics: a combo may leave the own king capturable; a king capture
            // ends the game.
            let shown = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            let (child, steps) = match crate::rules::combo::parse(&pos, &rules, shown) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("error: {name}: move {number}{shown}: {e}");
                    return EXIT_INPUT;
                }
            };
            let text = crate::rules::combo::steps_text(&pos, &rules, &steps, false);
            let last = steps.last().expect("a combo has steps");
            if last.capture && last.to == pos.king(pos.side.flip()) {
                clock.advance(&pos, &child);
                println!("{number}{text} {} (king captured)", clock.fen(&child));
                return EXIT_OK;
            }
            let mut notes = vec![];
            if crate::rules::combo::can_capture_king(&child, child.side, &rules) {
                notes.push("own king left capturable");
            }
            if rules.in_check(&child) {
                notes.push("combo check");
            }
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join(", "))
            };
            let sign = if rules.in_check(&child) { "+" } else { "" };
            clock.advance(&pos, &child);
            println!("{number}{text}{sign} {}{notes}", clock.fen(&child));
            pos = child;
            continue;
        }
        let found = crate::check::find_move(&rules, &pos, token).filter(|(m, _)| {
            // D15: no pocket use on White's first move of a game.
            !(game_start
                && ply == 0
                && cond == Condition::PocketMutation
                && matches!(
                    m.kind,
                    crate::moves::MoveKind::Pocket | crate::moves::MoveKind::Drop
                ))
        });
        let Some((m, child)) = found else {
            let shown = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            eprintln!(
                "error: {name}: move {number}{shown} is not a legal {} move here ({})",
                cond.name(),
                pos.to_fen()
            );
            return EXIT_INPUT;
        };
        clock.advance(&pos, &child);
        println!(
            "{number}{} {}",
            move_text(&rules, &pos, m, &child, Style::Long),
            clock.fen(&child)
        );
        pos = child;
    }
    EXIT_OK
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
