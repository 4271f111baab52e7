//! The `perft` command: count the leaves of the legal move tree under a condition.

use super::*;

pub(super) fn perft_cmd(a: &PerftArgs) -> Result<(), Failure> {
    let fen = a
        .fen
        .clone()
        .unwrap_or_else(|| Position::initial().to_fen());
    let cond = condition_arg(&a.condition)?;
    let pos = fen_arg(&fen, cond).map_err(|e| Failure::Input(format!("--fen: {e}")))?;
    let rules = rules_for(cond, &pos);
    // Each first move with its count (--divide), then the total.
    let mut divide: Vec<PerftMove> = vec![];
    let total = if a.divide && a.depth > 0 && cond == Condition::Combo {
        // Combos are printed from the walk's own paths (replaying each one would cost a
        // generation per move), without check signs.
        use crate::rules::combo;
        let mut total = 0;
        for (child, steps) in combo::moves_with_steps(&pos, &rules) {
            if combo::can_capture_king(&child, child.side, &rules) {
                continue;
            }
            let n = perft(&rules, &child, a.depth - 1);
            total += n;
            divide.push(PerftMove {
                r#move: combo::steps_text(&pos, &rules, &steps, true),
                nodes: n,
            });
        }
        total
    } else if a.divide && a.depth > 0 {
        let mut total = 0;
        for (m, child) in rules.legal_moves(&pos) {
            let n = perft(&rules, &child, a.depth - 1);
            total += n;
            divide.push(PerftMove {
                r#move: move_text(&rules, &pos, m, &child, Style::Long),
                nodes: n,
            });
        }
        total
    } else if a.game_start {
        crate::rules::perft_game_start(&rules, &pos, a.depth)
    } else {
        perft(&rules, &pos, a.depth)
    };
    match a.format {
        Format::Text => {
            let mut out = std::io::stdout().lock();
            for d in &divide {
                let _ = writeln!(out, "{} {}", d.r#move, d.nodes);
            }
            let _ = writeln!(out, "Nodes searched: {total}");
        }
        _ => {
            let report = PerftReport {
                schema: SCHEMA,
                command: "perft",
                fen: pos.to_fen(),
                condition: cond.name(),
                depth: a.depth,
                nodes: total,
                divide,
            };
            print_document(a.format, &report);
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct PerftReport {
    schema: &'static str,
    command: &'static str,
    fen: String,
    condition: &'static str,
    depth: u32,
    nodes: u64,
    /// With --divide: each first move and its count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    divide: Vec<PerftMove>,
}

#[derive(Serialize)]
struct PerftMove {
    r#move: String,
    nodes: u64,
}
