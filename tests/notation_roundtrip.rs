//! Every move chainmate prints reads back: for every position of every perft suite, under
//! its condition, each legal move is printed in long and in short notation (with its check
//! or mate sign), split into tokens as a stated solution or a game is, and read again by the
//! move reader that `check` and `replay` use; it must name exactly the move printed (the same
//! resulting position).

use chainmate::check::{MoveReader, tokens};
use chainmate::core::Kind;
use chainmate::output::notation::{Style, move_text};
use chainmate::position::Position;
use chainmate::rules::{Condition, Rules};

fn positions(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// Checks every move of every position of `suite` under `cond`; positions with more than
/// `limit` legal moves are left out (crowded Combo positions have hundreds of thousands).
fn round_trip(suite: &str, cond: Condition, limit: usize) -> usize {
    let mut checked = 0;
    for fen in positions(suite) {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let kinds: Vec<Kind> = (0..64u8).filter_map(|s| pos.board.kind_at(s)).collect();
        let rules = Rules::new(cond).with_fairy_promotions(kinds);
        let moves = rules.legal_moves(&pos);
        if moves.len() > limit {
            continue;
        }
        let reader = MoveReader::new(&rules, &pos);
        for (m, child) in &moves {
            for style in [Style::Long, Style::Short] {
                let text = move_text(&rules, &pos, *m, child, style);
                let toks = tokens(&text);
                assert_eq!(
                    toks.len(),
                    1,
                    "{fen} ({}): '{text}' splits into {toks:?}",
                    cond.name()
                );
                let found = reader.find(&toks[0]);
                assert!(
                    found.is_some_and(|(_, c)| c.hash == child.hash && c.board == child.board),
                    "{fen} ({}): '{text}' reads back as {:?}",
                    cond.name(),
                    found.map(|(_, c)| c.to_fen())
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn orthodox_moves_read_back() {
    let n = round_trip(
        include_str!("data/perft/perftsuite.epd"),
        Condition::Orthodox,
        500,
    );
    assert!(n > 2000, "{n}");
}

#[test]
fn teleport_moves_read_back() {
    let n = round_trip(
        include_str!("data/perft/teleport.epd"),
        Condition::Teleport,
        500,
    );
    assert!(n > 200, "{n}");
}

#[test]
fn kazan_moves_read_back() {
    let n = round_trip(include_str!("data/perft/kazan.epd"), Condition::Kazan, 500);
    assert!(n > 200, "{n}");
}

#[test]
fn tatarstan_moves_read_back() {
    let n = round_trip(
        include_str!("data/perft/tatarstan.epd"),
        Condition::Tatarstan,
        500,
    );
    let m = round_trip(
        include_str!("data/perft/tatarstan-nochains.epd"),
        Condition::TatarstanNoChains,
        500,
    );
    assert!(n > 200 && m > 200, "{n} {m}");
}

#[test]
fn pocket_mutation_moves_read_back() {
    let n = round_trip(
        include_str!("data/perft/pocket-mutation.epd"),
        Condition::PocketMutation,
        500,
    );
    assert!(n > 200, "{n}");
}

#[test]
fn combo_moves_read_back() {
    let n = round_trip(include_str!("data/perft/combo.epd"), Condition::Combo, 3000);
    assert!(n > 200, "{n}");
}

/// The same over the fairy pieces: every piece kind, under every condition, in positions
/// where the pieces can move, capture, promote and (Combo) challenge each other.
#[test]
fn fairy_moves_read_back() {
    let fens = "\
4k3/1P6/8/3(N)4/8/2(KG)5/8/(AM)3K2N w - - 0 1
4k3/1P6/8/3(N)4/8/2(KG)5/8/(AM)3K2N b - - 0 1
4k3/1P6/2(nb)5/3(N)(n)3/2(PR)5/8/(KB)6(KE)/4K3 w - - 0 1
4k3/1P6/2(nb)5/3(N)(n)3/2(PR)5/8/(KB)6(KE)/4K3 b - - 0 1
r3k2r/1P4P1/8/3(N)4/8/8/(KC)(KF)6/R3K2R w KQkq - 0 1
4k3/8/8/8/3(NQ)(NR)3/8/2N1(N)3/4K3 w - - 0 1
";
    // Crowded, for the conditions whose moves are few: challenges make Combo's many.
    let crowded = "\
r3k2r/1P4P1/2(nb)5/3(N)(n)3/2(PR)1(EM)3/8/(KB)(KC)(KE)(KF)4/R3K2R w KQkq - 0 1
r3k2r/1P4P1/2(nb)5/3(N)(n)3/2(PR)1(EM)3/8/(KB)(KC)(KE)(KF)4/R3K2R b KQkq - 0 1
";
    for cond in [
        Condition::Orthodox,
        Condition::Teleport,
        Condition::Kazan,
        Condition::Tatarstan,
        Condition::TatarstanNoChains,
        Condition::PocketMutation,
        Condition::Combo,
    ] {
        let mut n = round_trip(fens, cond, 5000);
        if cond != Condition::Combo {
            n += round_trip(crowded, cond, 5000);
        }
        assert!(n > 300, "{}: {n}", cond.name());
    }
}
