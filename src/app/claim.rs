//! The `claim` and `verify-claim` commands: their arguments and output; the claims and
//! proofs themselves are [`crate::claim`]'s.

use super::*;
use crate::claim::{self, Finding, ReadError};

/// A stalemate claim: it holds when the claimant is not in check and has no legal move
/// (Combo: when each of its combos lets the opponent capture the king). Exit code 0 when
/// it holds, 1 when it fails.
pub(super) fn claim_cmd(a: &ClaimArgs) -> Result<(), Failure> {
    let (pos, cond) = claimed_position(a)?;
    let rules = rules_for(cond, &pos);
    let proof = claim::prove(&pos, &rules).map_err(Failure::Input)?;
    print_document(a.format, &proof);
    if a.format == Format::Text {
        print_finding(&proof, &pos, cond);
    }
    if proof.holds {
        Ok(())
    } else {
        Err(Failure::Failed)
    }
}

/// The position of the claim (`--fen`, or the first problem of the file), with the
/// claimant (`--side`) to move, and its condition (`--condition`, else the file's, else
/// orthodox).
fn claimed_position(a: &ClaimArgs) -> Result<(Position, Condition), Failure> {
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
    Ok((pos, cond))
}

/// The text output of a claim: its verdict and why.
fn print_finding(proof: &claim::ClaimProof, pos: &Position, cond: Condition) {
    let claimant = &proof.claimant;
    let opponent = pos.side.flip();
    match proof.finding() {
        Finding::EveryComboRefuted(refutations) => {
            println!(
                "claim holds: {claimant} is not in combo check, and each of its {} combos lets {opponent} capture the king:",
                refutations.len(),
            );
            for r in refutations {
                println!("  {} {}", r.combo, r.capture);
            }
        }
        Finding::NoMove => println!(
            "claim holds: {claimant} is not in check and has no legal move ({})",
            cond.name()
        ),
        Finding::InCheck(Some(c)) => {
            println!("claim fails: {claimant} is in combo check: {opponent} can play {c}")
        }
        Finding::InCheck(None) => println!("claim fails: {claimant} is in check"),
        Finding::CanMove(m) => println!("claim fails: {claimant} can play {m}"),
    }
}

/// Re-checks a claim proof (see [`claim::verify`]). Exit 0 when the proof is right, 1 when
/// it is wrong, 2 on unreadable input.
pub(super) fn verify_claim_cmd(a: &VerifyClaimArgs) -> Result<(), Failure> {
    let name = a.proof.display();
    let text = read_text_arg(&a.proof).map_err(Failure::Input)?;
    let read = claim::read_proof(&text).map_err(|e| {
        Failure::Input(match e {
            ReadError::Syntax {
                line,
                column,
                message,
            } => format!("{name}:{line}:{column}: not a claim proof: {message}"),
            ReadError::Content(m) => format!("{name}: {m}"),
        })
    })?;
    let rules = rules_for(read.condition, &read.position);
    match claim::verify(&read.proof, &read.position, &rules) {
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
