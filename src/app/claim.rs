//! The `claim` and `verify-claim` commands: stalemate claims and their proofs.

use super::*;

#[derive(Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimProof {
    /// The output version (absent in proofs written before it was introduced).
    #[serde(default = "schema_version")]
    schema: String,
    #[serde(default = "claim_command")]
    command: String,
    fen: String,
    condition: String,
    claimant: String,
    holds: bool,
    in_check: bool,
    /// When the claim fails because the claimant can move: one legal move.
    safe_move: Option<String>,
    /// Combo, claimant in combo check: the opponent's combo that captures the king.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check_capture: Option<String>,
    /// Combo, claim holds: every distinct combo of the claimant with a king capture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    refutations: Vec<ComboRefutation>,
}

fn schema_version() -> String {
    SCHEMA.into()
}

fn claim_command() -> String {
    "claim".into()
}

#[derive(Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ComboRefutation {
    /// The claimant's combo.
    combo: String,
    /// The opponent's combo after it that captures the claimant's king.
    capture: String,
}

/// The Combo part of a claim: the proof fields, or an error text.
fn combo_claim(pos: &Position, rules: &Rules) -> ClaimProof {
    use crate::rules::combo;
    let us = pos.side;
    let mut proof = ClaimProof {
        schema: SCHEMA.into(),
        command: "claim".into(),
        fen: pos.to_fen(),
        condition: "combo".into(),
        claimant: us.to_string(),
        holds: false,
        in_check: false,
        safe_move: None,
        check_capture: None,
        refutations: vec![],
    };
    let them_to_move = pos.null_move();
    if let Some(steps) = combo::king_capture(pos, us.flip(), rules) {
        proof.in_check = true;
        proof.check_capture = Some(combo::steps_text(&them_to_move, rules, &steps, false));
        return proof;
    }
    for (after, steps) in combo::moves_with_steps(pos, rules) {
        let text = combo::steps_text(pos, rules, &steps, false);
        match combo::king_capture(&after, after.side, rules) {
            Some(capture) => proof.refutations.push(ComboRefutation {
                combo: text,
                capture: combo::steps_text(&after, rules, &capture, false),
            }),
            None => {
                proof.safe_move = Some(text);
                proof.refutations.clear();
                return proof;
            }
        }
    }
    proof.holds = true;
    proof
}

/// A stalemate claim (orthodox and the non-Combo conditions): it holds when the claimant is
/// not in check and has no legal move. Exit code 0 when it holds, 1 when it fails.
pub(super) fn claim_cmd(a: &ClaimArgs) -> Result<(), Failure> {
    let arg_condition = a.condition.as_deref().map(condition_arg).transpose()?;
    let (mut pos, file_condition) = match (&a.fen, &a.file) {
        (Some(f), _) => {
            let pos = fen_arg(f, arg_condition.unwrap_or(Condition::Orthodox))
                .map_err(|e| Failure::Input(format!("--fen: {e}")))?;
            (pos, None)
        }
        (None, Some(file)) => match problem::load_file(file)?.first() {
            Some(p) => (p.position, Some(p.condition)),
            None => {
                return Err(Failure::Input(format!(
                    "{}: no problem in the file",
                    file.display()
                )));
            }
        },
        (None, None) => return Err(Failure::usage("claim", "give a problem file or --fen FEN")),
    };
    let cond = arg_condition
        .or(file_condition)
        .unwrap_or(Condition::Orthodox);
    if let Some(side) = a.side {
        let c = if side == Side::White {
            crate::core::Color::White
        } else {
            crate::core::Color::Black
        };
        if pos.side != c {
            pos = pos.null_move();
        }
    }
    let rules = rules_for(cond, &pos);
    if rules.other_side_in_check(&pos) {
        return Err(Failure::Input(format!(
            "illegal position: the side not to move is in check ({})",
            pos.to_fen()
        )));
    }
    let proof = if cond == Condition::Combo {
        combo_claim(&pos, &rules)
    } else {
        let in_check = rules.in_check(&pos);
        let first = rules.legal_moves(&pos).into_iter().next();
        let safe_move = first.map(|(m, c)| move_text(&rules, &pos, m, &c, Style::Long));
        ClaimProof {
            schema: SCHEMA.into(),
            command: "claim".into(),
            fen: pos.to_fen(),
            condition: cond.name().to_string(),
            claimant: pos.side.to_string(),
            holds: !in_check && safe_move.is_none(),
            in_check,
            safe_move,
            check_capture: None,
            refutations: vec![],
        }
    };
    let holds = proof.holds;
    let in_check = proof.in_check;
    let safe_move = proof.safe_move.clone();
    print_document(a.format, &proof);
    match a.format {
        Format::Json | Format::Yaml => {}
        Format::Text => {
            if holds && cond == Condition::Combo {
                println!(
                    "claim holds: {} is not in combo check, and each of its {} combos lets {} capture the king:",
                    proof.claimant,
                    proof.refutations.len(),
                    pos.side.flip()
                );
                for r in &proof.refutations {
                    println!("  {} {}", r.combo, r.capture);
                }
            } else if holds {
                println!(
                    "claim holds: {} is not in check and has no legal move ({})",
                    proof.claimant,
                    cond.name()
                );
            } else if in_check {
                match &proof.check_capture {
                    Some(c) => println!(
                        "claim fails: {} is in combo check: {} can play {c}",
                        proof.claimant,
                        pos.side.flip()
                    ),
                    None => println!("claim fails: {} is in check", proof.claimant),
                }
            } else {
                println!(
                    "claim fails: {} can play {}",
                    proof.claimant,
                    safe_move.unwrap_or_default()
                );
            }
        }
    }
    if holds { Ok(()) } else { Err(Failure::Failed) }
}

/// Re-checks a claim proof. Combo: the claimant's combos and the king captures are replayed
/// step by step by the notation reader (each step validated on the board), the list is
/// compared with the move generator's distinct results, and "not in combo check" is
/// decided by the plain exhaustive walk, without the search's over-approximation.
/// Exit 0 when the proof is right, 1 when it is wrong, 2 on unreadable input.
pub(super) fn verify_claim_cmd(a: &VerifyClaimArgs) -> Result<(), Failure> {
    let name = a.proof.display();
    let text = read_text_arg(&a.proof).map_err(Failure::Input)?;
    let proof: ClaimProof = serde_json::from_str(&text).map_err(|e| {
        Failure::Input(format!(
            "{name}:{}:{}: not a claim proof: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if proof.schema != SCHEMA || proof.command != "claim" {
        return Err(Failure::Input(format!(
            "{name}: a proof of schema '{}' and command '{}'; this chainmate reads '{SCHEMA}' claim proofs",
            proof.schema, proof.command
        )));
    }
    let pos =
        Position::from_fen(&proof.fen).map_err(|e| Failure::Input(format!("{name}: fen: {e}")))?;
    let Some(cond) = Condition::parse(&proof.condition) else {
        return Err(Failure::Input(format!(
            "{name}: unknown condition '{}'",
            proof.condition
        )));
    };
    let rules = rules_for(cond, &pos);
    let verdict = verify_proof(&pos, cond, &rules, &proof);
    match verdict {
        Ok(why) => {
            println!("proof verified: {why}");
            Ok(())
        }
        Err(why) => {
            println!("proof rejected: {why}");
            Err(Failure::Failed)
        }
    }
}

/// Checks every field of a proof: against the position (the claimant is the side to move,
/// the diagram is legal under the condition), against each other (a claim that holds has no
/// check, no safe move; a failing one has a reason), and then the claim itself.
fn verify_proof(
    pos: &Position,
    cond: Condition,
    rules: &Rules,
    proof: &ClaimProof,
) -> Result<String, String> {
    let us = pos.side;
    if proof.claimant != us.to_string() {
        return Err(format!(
            "the claimant is '{}', but {us} is to move in the FEN",
            proof.claimant
        ));
    }
    let combo = cond == Condition::Combo;
    if rules.other_side_in_check(pos) {
        return Err(format!(
            "illegal position: {} is in check with {us} to move",
            us.flip()
        ));
    }
    if proof.holds && proof.in_check {
        return Err(
            "\"holds\" and \"in_check\" contradict each other: no stalemate in check".into(),
        );
    }
    if proof.holds && proof.safe_move.is_some() {
        return Err("the claim is said to hold, yet a safe move is given".into());
    }
    if !proof.in_check && proof.check_capture.is_some() {
        return Err("a check capture is given, but \"in_check\" is false".into());
    }
    if !proof.holds && !proof.refutations.is_empty() {
        return Err("refutations are given for a claim said to fail".into());
    }
    if !proof.holds && !proof.in_check && proof.safe_move.is_none() {
        return Err("the claim is said to fail, but neither check nor a safe move is given".into());
    }
    if combo {
        return verify_combo(pos, rules, proof);
    }
    if proof.check_capture.is_some() || !proof.refutations.is_empty() {
        return Err(format!(
            "check captures and refutations belong to Combo proofs, not to {}",
            cond.name()
        ));
    }
    let in_check = rules.in_check(pos);
    if proof.in_check != in_check {
        return Err(format!(
            "\"in_check\" is {}, but {us} is {}in check",
            proof.in_check,
            if in_check { "" } else { "not " }
        ));
    }
    if let Some(m) = &proof.safe_move {
        if crate::check::find_move(rules, pos, m).is_none() {
            return Err(format!("the safe move {m} is not a legal move of {us}"));
        }
    }
    let any = rules.has_legal_move(pos);
    if proof.holds != (!in_check && !any) {
        return Err("the claim's verdict is wrong".into());
    }
    Ok(if proof.holds {
        format!("{us} is not in check and has no legal move")
    } else if in_check {
        format!("{us} is in check: the claim fails")
    } else {
        format!("{us} can move: the claim fails")
    })
}

fn verify_combo(pos: &Position, rules: &Rules, proof: &ClaimProof) -> Result<String, String> {
    use crate::rules::combo;
    let us = pos.side;
    let king_taken = |after: &Position, capture: &str| -> Result<(), String> {
        let (_, steps) = combo::parse_capture(after, rules, capture)?;
        let last = steps.last().ok_or("empty capture")?;
        if last.capture && last.to == after.king(after.side.flip()) {
            Ok(())
        } else {
            Err(format!("{capture} does not capture the king"))
        }
    };
    if proof.in_check {
        let c = proof
            .check_capture
            .as_deref()
            .ok_or("in check, but no capture given")?;
        king_taken(&pos.null_move(), c)?;
        if let Some(m) = &proof.safe_move {
            // Not needed for a claim in check, but a field that is printed is checked.
            let (after, _) = combo::parse(pos, rules, m)?;
            if combo::king_capture(&after, after.side, rules).is_some() {
                return Err(format!("the safe move {m} lets the king be captured"));
            }
        }
        return Ok(format!("{us} is in combo check: {c}"));
    }
    if combo::king_capture(pos, us.flip(), rules).is_some() {
        return Err(format!("{us} is in combo check, the proof says not"));
    }
    if !proof.holds {
        let m = proof.safe_move.as_deref().ok_or("no safe move given")?;
        let (after, _) = combo::parse(pos, rules, m)?;
        if combo::king_capture(&after, after.side, rules).is_some() {
            return Err(format!("the safe move {m} lets the king be captured"));
        }
        return Ok(format!("{m} keeps the king safe: the claim fails"));
    }
    let mut covered = std::collections::HashSet::new();
    for r in &proof.refutations {
        let (after, _) = combo::parse(pos, rules, &r.combo)?;
        king_taken(&after, &r.capture).map_err(|e| format!("{}: {e}", r.combo))?;
        covered.insert(after.hash);
    }
    let all = combo::moves_with_steps(pos, rules);
    if let Some((_, steps)) = all.iter().find(|(after, _)| !covered.contains(&after.hash)) {
        return Err(format!(
            "the combo {} is not refuted in the proof",
            combo::steps_text(pos, rules, steps, false)
        ));
    }
    Ok(format!(
        "{us} is not in combo check and all {} combos are refuted by a king capture",
        all.len()
    ))
}
