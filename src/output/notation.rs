//! Move notation. Long algebraic as Popeye prints it (`Qd1-d5`, `Qd1*d5`, `e7-e8=Q`,
//! `e5*d6 ep.`, `0-0`, `0-0-0`, suffixes ` +`, ` #`, ` =`), and short algebraic (`Qd5`,
//! `Qxd5`, `e8=Q`, `exd6`, `O-O`, `+`, `#`) on request.

use crate::core::{Kind, square_name};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;

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
    use crate::rules::Condition;
    if rules.condition == Condition::Combo {
        // `[Bg2; g3]` (short) or `[Bf1-g2; g2-g3]` (long).
        return match crate::rules::combo::replay(pos, rules, m) {
            Some((_, steps)) => {
                crate::rules::combo::steps_text(pos, rules, &steps, style == Style::Long)
            }
            None => "[?]".into(),
        };
    }
    let mut s = leader_body(rules, pos, m, style);
    // Kazan: the chain follows the leader in parentheses: `e2-e4 (Sg1-e2, Rh1-g1)`.
    // Tatarstan: the transformations follow the chain: `Sg1-f3 (f3=P, f1=R)`.
    let (steps, transformations) = match rules.condition {
        Condition::Kazan => match crate::rules::kazan::replay(pos, rules, m) {
            Some((_, steps)) => (steps, vec![]),
            None => return s,
        },
        Condition::Tatarstan | Condition::TatarstanNoChains => {
            match crate::rules::tatarstan::replay(pos, rules, m) {
                Some(r) => (r.steps, r.transformations),
                None => return s,
            }
        }
        _ => return s,
    };
    let leader = Move { chain: 0, ..m };
    let mut board = pos.make(leader);
    let mut texts: Vec<String> = steps
        .iter()
        .map(|&(from, to, promo)| {
            let kind = board.board.kind_at(from).unwrap_or(Kind::Pawn);
            board.step(from, to, promo);
            let mut t = format!(
                "{}{}-{}",
                piece_letters(kind),
                square_name(from),
                square_name(to)
            );
            if let Some(k) = promo {
                t.push('=');
                t.push_str(k.code());
            }
            t
        })
        .collect();
    texts.extend(
        transformations
            .iter()
            .map(|&(sq, kind)| format!("{}={}", square_name(sq), kind.code())),
    );
    if !texts.is_empty() {
        s.push_str(&format!(" ({})", texts.join(", ")));
    }
    s
}

/// The first step of a move (the whole move for orthodox and Teleport chess).
fn leader_body(rules: &Rules, pos: &Position, m: Move, style: Style) -> String {
    let kind = pos.board.kind_at(m.from).unwrap_or(Kind::Pawn);
    if m.kind == MoveKind::Castle {
        let long = m.to < m.from;
        return match (style, long) {
            (Style::Long, false) => "0-0".into(),
            (Style::Long, true) => "0-0-0".into(),
            (Style::Short, false) => "O-O".into(),
            (Style::Short, true) => "O-O-O".into(),
        };
    }
    if matches!(m.kind, MoveKind::Teleport | MoveKind::TeleportDouble) {
        return teleport_text(pos, m, kind);
    }
    // Pocket Mutation: `Rh1->pocket` (`Rh1->pocket=N` when it mutates), drops `Q@a3`.
    if m.kind == MoveKind::Pocket {
        let mut t = format!("{}{}->pocket", kind.code(), square_name(m.from));
        if let Some(k) = m.promo.filter(|&k| k != kind) {
            t.push('=');
            t.push_str(k.code());
        }
        return t;
    }
    if m.kind == MoveKind::Drop {
        let k = pos.pockets[pos.side.idx()].unwrap_or(Kind::Pawn);
        return format!("{}@{}", k.code(), square_name(m.to));
    }
    let capture = m.kind == MoveKind::EnPassant || !pos.board.is_empty(m.to);
    let mut s = String::new();
    match style {
        Style::Long => {
            s.push_str(piece_letters(kind));
            s.push_str(&square_name(m.from));
            s.push(if capture { '*' } else { '-' });
            s.push_str(&square_name(m.to));
        }
        Style::Short => {
            if kind == Kind::Pawn {
                if capture {
                    s.push((b'a' + (m.from & 7)) as char);
                    s.push('x');
                }
            } else {
                s.push_str(piece_letters(kind));
                s.push_str(&disambiguation(rules, pos, m, kind));
                if capture {
                    s.push('x');
                }
            }
            s.push_str(&square_name(m.to));
        }
    }
    if let Some(p) = m.promo {
        s.push('=');
        s.push_str(p.code());
    }
    if m.kind == MoveKind::EnPassant && style == Style::Long {
        s.push_str(" ep.");
    }
    s
}

/// A teleport names both pieces and both squares: `Sf3-g5<->Bg5` (the knight goes to g5,
/// the bishop from g5 to f3); a promotion follows the pawn it promotes:
/// `Rb8-b7<->Pb7=Q` (the pawn arrives on b8), `e7-e8=Q<->Re8`.
fn teleport_text(pos: &Position, m: Move, kind: Kind) -> String {
    let other = pos.board.kind_at(m.to).unwrap_or(Kind::Pawn);
    let us = pos.side;
    let promo = |applies: bool| match (applies, m.promo) {
        (true, Some(k)) => format!("={}", k.code()),
        _ => String::new(),
    };
    let mover_promotes = kind == Kind::Pawn && us.relative_rank(m.to) == 7;
    format!(
        "{}{}-{}{}<->{}{}{}",
        piece_letters(kind),
        square_name(m.from),
        square_name(m.to),
        promo(mover_promotes),
        other.code(),
        square_name(m.to),
        promo(!mover_promotes),
    )
}

/// Short-algebraic disambiguation (file, rank or square) among same-kind pieces.
fn disambiguation(rules: &Rules, pos: &Position, m: Move, kind: Kind) -> String {
    let others: Vec<Move> = rules
        .legal_moves(pos)
        .into_iter()
        .map(|(x, _)| x)
        .filter(|x| x.to == m.to && x.from != m.from && pos.board.kind_at(x.from) == Some(kind))
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let name = square_name(m.from);
    if others.iter().all(|x| x.from & 7 != m.from & 7) {
        name[..1].to_string()
    } else if others.iter().all(|x| x.from >> 3 != m.from >> 3) {
        name[1..].to_string()
    } else {
        name
    }
}

/// The suffix of a move: check, mate or stalemate of the side now to move in `child`.
pub fn suffix(rules: &Rules, child: &Position, style: Style) -> &'static str {
    let check = rules.in_check(child);
    let any = rules.has_legal_move(child);
    match (style, check, any) {
        (Style::Long, true, false) => " #",
        (Style::Long, true, true) => " +",
        (Style::Long, false, false) => " =",
        (Style::Short, true, false) => "#",
        (Style::Short, true, true) => "+",
        (Style::Short, false, false) => "=",
        (_, false, true) => "",
    }
}

/// Full move text: body plus suffix.
pub fn move_text(rules: &Rules, pos: &Position, m: Move, child: &Position, style: Style) -> String {
    let mut s = move_body(rules, pos, m, style);
    s.push_str(suffix(rules, child, style));
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
