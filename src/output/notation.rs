//! Move notation. Long algebraic as Popeye prints it (`Qd1-d5`, `Qd1*d5`, `e7-e8=Q`,
//! `e5*d6 ep.`, `0-0`, `0-0-0`, suffixes ` +`, ` #`, ` =`), and short algebraic (`Qd5`,
//! `Qxd5`, `e8=Q`, `exd6`, `O-O`, `+`, `#`) on request.

use crate::core::{Color, Kind, Piece, Square, square_name};
use crate::moves::{Effect, Effects, Layout, Move, Step};
use crate::position::Position;
use crate::rules::Rules;
use crate::search::stipulation::Goal;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    #[default]
    Long,
    Short,
}

/// Letter(s) of a piece kind in move text (none for the pawn, `S` for the knight).
pub fn piece_letters(k: Kind) -> &'static str {
    if k == Kind::Pawn { "" } else { k.code() }
}

/// Text of a move without suffix.
pub fn move_body(rules: &Rules, pos: &Position, m: Move, style: Style) -> String {
    match rules.effects(pos, m) {
        Some((_, effects)) => effects_text(rules, pos, &effects, style),
        None => "[?]".into(),
    }
}

/// Text of a move from its effects: the condition's layout decides the shape.
pub fn effects_text(rules: &Rules, pos: &Position, e: &Effects, style: Style) -> String {
    match e.layout {
        Layout::Steps => {
            let steps: Vec<Step> = e.steps().copied().collect();
            steps_text(rules, pos, &steps, style)
        }
        Layout::Leader => {
            let Some(first) = e.effects.first() else {
                return "[?]".into();
            };
            let mut s = leader_text(rules, pos, first, e.en_passant, style);
            // Circe: a rebirth follows the move at once in brackets: `Qd1*d5[+bRa8]`.
            for effect in &e.effects[1..] {
                if let Effect::Reborn { at, piece } = *effect {
                    s.push_str(&reborn_text(at, piece));
                }
            }
            // Kazan: the chain follows the leader in parentheses: `e2-e4 (Sg1-e2, Rh1-g1)`.
            // Tatarstan: the transformations follow the chain: `Sg1-f3 (f3=P, f1=R)`.
            let rest: Vec<String> = e.effects[1..]
                .iter()
                .filter(|x| !matches!(x, Effect::Reborn { .. }))
                .map(follower_text)
                .collect();
            if !rest.is_empty() {
                s.push_str(&format!(" ({})", rest.join(", ")));
            }
            s
        }
    }
}

/// A unit reborn on `at`, as Popeye writes it: `[+bRa8]`, `[+wPe2]`.
fn reborn_text(at: Square, piece: Piece) -> String {
    let side = if piece.color == Color::White {
        'w'
    } else {
        'b'
    };
    format!("[+{side}{}{}]", piece.kind.code(), square_name(at))
}

/// An effect after the first, always long: `Sg1-e2`, `e7-e8=Q`, `f3=P`.
fn follower_text(e: &Effect) -> String {
    match *e {
        Effect::Step(st) => {
            let mut t = format!(
                "{}{}-{}",
                piece_letters(st.kind),
                square_name(st.from),
                square_name(st.to)
            );
            if let Some(k) = st.promo {
                t.push('=');
                t.push_str(k.code());
            }
            t
        }
        Effect::Transform { at, kind } => format!("{}={}", square_name(at), kind.code()),
        Effect::Swap { from, to, .. } => format!("{}<->{}", square_name(from), square_name(to)),
        Effect::Pocket { from, kind, .. } => {
            format!("{}{}->pocket", kind.code(), square_name(from))
        }
        Effect::Drop { to, kind } => format!("{}@{}", kind.code(), square_name(to)),
        Effect::Reborn { at, piece } => reborn_text(at, piece),
    }
}

/// The first effect of a move (the whole move for orthodox, Teleport and Pocket Mutation).
fn leader_text(rules: &Rules, pos: &Position, e: &Effect, ep: bool, style: Style) -> String {
    match *e {
        Effect::Step(st) => step_text(rules, pos, &st, ep, style, true),
        Effect::Swap {
            from,
            to,
            kind,
            other,
            promo,
        } => swap_text(pos, from, to, kind, other, promo),
        // Pocket Mutation: `Rh1->pocket` (`Rh1->pocket=N` when it mutates), drops `Q@a3`.
        Effect::Pocket {
            from,
            kind,
            as_kind,
        } => {
            let mut t = format!("{}{}->pocket", kind.code(), square_name(from));
            if as_kind != kind {
                t.push('=');
                t.push_str(as_kind.code());
            }
            t
        }
        Effect::Drop { to, kind } => format!("{}@{}", kind.code(), square_name(to)),
        Effect::Transform { at, kind } => format!("{}={}", square_name(at), kind.code()),
        Effect::Reborn { at, piece } => reborn_text(at, piece),
    }
}

/// One step: `Qd1-d5`, `Qd1*d5`, `e7-e8=Q`, `e5*d6 ep.`, `0-0`; short `Qxd5`, `exd6`,
/// `O-O`. `first`: the move's first step (only it is disambiguated in short notation).
fn step_text(
    rules: &Rules,
    pos: &Position,
    st: &Step,
    ep: bool,
    style: Style,
    first: bool,
) -> String {
    if st.castle {
        let long = st.to < st.from;
        return match (style, long) {
            (Style::Long, false) => "0-0".into(),
            (Style::Long, true) => "0-0-0".into(),
            (Style::Short, false) => "O-O".into(),
            (Style::Short, true) => "O-O-O".into(),
        };
    }
    let mut s = String::new();
    match style {
        Style::Long => {
            s.push_str(piece_letters(st.kind));
            s.push_str(&square_name(st.from));
            s.push(if st.capture { '*' } else { '-' });
        }
        Style::Short => {
            if st.kind == Kind::Pawn {
                if st.capture {
                    s.push((b'a' + (st.from & 7)) as char);
                    s.push('x');
                }
            } else {
                s.push_str(piece_letters(st.kind));
                if first {
                    s.push_str(&disambiguation(rules, pos, st));
                }
                if st.capture {
                    s.push('x');
                }
            }
        }
    }
    s.push_str(&square_name(st.to));
    if let Some(p) = st.promo {
        s.push('=');
        s.push_str(p.code());
    }
    if ep && style == Style::Long {
        s.push_str(" ep.");
    }
    s
}

/// A move written as its steps in brackets: `[Bg2; g3]` (short) or `[Bf1-g2; g2-g3]`
/// (long); only the first step is disambiguated.
pub fn steps_text(rules: &Rules, pos: &Position, steps: &[Step], style: Style) -> String {
    let texts: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, st)| step_text(rules, pos, st, false, style, i == 0))
        .collect();
    format!("[{}]", texts.join("; "))
}

/// A swap names both pieces and both squares: `Sf3-g5<->Bg5` (the knight goes to g5,
/// the bishop from g5 to f3); a promotion follows the pawn it promotes:
/// `Rb8-b7<->Pb7=Q` (the pawn arrives on b8), `e7-e8=Q<->Re8`.
fn swap_text(
    pos: &Position,
    from: Square,
    to: Square,
    kind: Kind,
    other: Kind,
    promo: Option<Kind>,
) -> String {
    let us = pos.side;
    let promo = |applies: bool| match (applies, promo) {
        (true, Some(k)) => format!("={}", k.code()),
        _ => String::new(),
    };
    let mover_promotes = kind == Kind::Pawn && us.relative_rank(to) == 7;
    format!(
        "{}{}-{}{}<->{}{}{}",
        piece_letters(kind),
        square_name(from),
        square_name(to),
        promo(mover_promotes),
        other.code(),
        square_name(to),
        promo(!mover_promotes),
    )
}

/// Short-algebraic disambiguation (file, rank or square) among same-kind pieces that
/// can make a first step to the same square (the condition's `leader_sources`).
fn disambiguation(rules: &Rules, pos: &Position, st: &Step) -> String {
    let others: Vec<Square> = rules
        .leader_sources(pos, st.kind, st.to)
        .into_iter()
        .filter(|&f| f != st.from)
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let name = square_name(st.from);
    if others.iter().all(|&x| x & 7 != st.from & 7) {
        name[..1].to_string()
    } else if others.iter().all(|&x| x >> 3 != st.from >> 3) {
        name[1..].to_string()
    } else {
        name
    }
}

/// The suffix of a move: check, mate or stalemate of the side now to move in `child`.
///
/// With a stipulation's `goal`, a goal's sign is written only where that goal is reached,
/// as Popeye writes it: a mate in a stalemate stipulation (a defence mating the attacker
/// in an r=, s= or = problem) is written as a check, and a stalemate in a mate stipulation
/// gets no sign. Without one (perft, replay) the position alone decides.
pub fn suffix(rules: &Rules, child: &Position, style: Style, goal: Option<Goal>) -> &'static str {
    let check = rules.in_check(child);
    let any = rules.has_legal_move(child);
    let (long, short) = match (check, any) {
        (true, false) if goal != Some(Goal::Stalemate) => (" #", "#"),
        (true, _) => (" +", "+"),
        (false, false) if goal != Some(Goal::Mate) => (" =", "="),
        (false, _) => ("", ""),
    };
    match style {
        Style::Long => long,
        Style::Short => short,
    }
}

/// Full move text: body plus suffix.
pub fn move_text(rules: &Rules, pos: &Position, m: Move, child: &Position, style: Style) -> String {
    let mut s = move_body(rules, pos, m, style);
    s.push_str(suffix(rules, child, style, None));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::parse_square as sq;

    fn text(fen: &str, from: &str, to: &str, style: Style) -> String {
        let pos = Position::from_fen(fen).unwrap();
        let rules = Rules::default();
        let (m, child) = rules
            .legal_moves(&pos)
            .into_iter()
            .find(|(m, _)| m.from == sq(from).unwrap() && m.to == sq(to).unwrap())
            .unwrap();
        move_text(&rules, &pos, m, &child, style)
    }

    #[test]
    fn long_and_short() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(text(fen, "e1", "g1", Style::Long), "0-0");
        assert_eq!(text(fen, "e1", "c1", Style::Short), "O-O-O");
        assert_eq!(text(fen, "a1", "a8", Style::Long), "Ra1*a8 +");
        assert_eq!(text(fen, "a1", "a8", Style::Short), "Rxa8+");
        // two rooks can reach d1: disambiguation by file
        assert_eq!(
            text("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1", "d1", Style::Short),
            "Rad1"
        );
        assert_eq!(
            text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1", "a8", Style::Long),
            "Ra1-a8 #"
        );
        assert_eq!(
            text("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5", "d6", Style::Long),
            "e5*d6 ep."
        );
    }
}
