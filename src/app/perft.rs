//! The `perft` command: count the leaves of the legal move tree under a condition.

use super::*;
use crate::output::notation::{effects_text, suffix};

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
    let total = if a.divide && a.depth > 0 {
        // Moves written as steps (combos) are printed without check signs: a sign would
        // cost a combo walk per move.
        let signs = rules.layout() == crate::moves::Layout::Leader;
        let mut total = 0;
        for (_, child, effects) in rules.legal_with_effects(&pos) {
            let n = perft(&rules, &child, a.depth - 1);
            total += n;
            let mut text = effects_text(&rules, &pos, &effects, Style::Long);
            if signs {
                text.push_str(suffix(&rules, &child, Style::Long, None));
            }
            divide.push(PerftMove {
                r#move: text,
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
