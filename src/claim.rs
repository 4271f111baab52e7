//! Stalemate claims and their proofs: [`prove`] decides a claim and writes down why,
//! [`read_proof`] reads such a proof back (the JSON of `claim --format json`) and
//! [`verify`] re-checks it against the position without trusting any of its fields.
//!
//! A claim holds when the claimant (the side to move) is not in check and has no legal
//! move. Under Combo a proof that holds lists every distinct combo of the claimant with
//! the opponent's king capture after it, and one that fails in check gives the capture.

use crate::output::SCHEMA;
use crate::output::notation::{Style, effects_text, move_text, steps_text};
use crate::position::Position;
use crate::rules::{Condition, Rules};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// The `command` field of a claim proof.
pub const COMMAND: &str = "claim";

/// A claim and the evidence for its verdict, as `claim --format json` writes it and
/// `verify-claim` reads it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClaimProof {
    /// The output version (absent in proofs written before it was introduced).
    #[serde(default = "schema_version")]
    pub schema: String,
    #[serde(default = "claim_command")]
    pub command: String,
    pub fen: String,
    pub condition: String,
    pub claimant: String,
    pub holds: bool,
    pub in_check: bool,
    /// When the claim fails because the claimant can move: one legal move.
    pub safe_move: Option<String>,
    /// Combo, claimant in combo check: the opponent's combo that captures the king.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_capture: Option<String>,
    /// Combo, claim holds: every distinct combo of the claimant with a king capture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refutations: Vec<ComboRefutation>,
}

fn schema_version() -> String {
    SCHEMA.into()
}

fn claim_command() -> String {
    COMMAND.into()
}

/// One combo of the claimant, refuted.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ComboRefutation {
    /// The claimant's combo.
    pub combo: String,
    /// The opponent's combo after it that captures the claimant's king.
    pub capture: String,
}

/// What a proof says, in the terms its reader is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding<'a> {
    /// The claim holds: the claimant is not in check and has no legal move.
    NoMove,
    /// The claim holds (Combo): not in combo check, and each of these combos lets the
    /// opponent capture the king.
    EveryComboRefuted(&'a [ComboRefutation]),
    /// The claim fails: the claimant is in check; under Combo, the opponent's capture.
    InCheck(Option<&'a str>),
    /// The claim fails: the claimant can play this move.
    CanMove(&'a str),
}

impl ClaimProof {
    /// A proof of the claimant `pos.side` with the verdict still open.
    fn open(pos: &Position, condition: Condition) -> ClaimProof {
        ClaimProof {
            schema: SCHEMA.into(),
            command: COMMAND.into(),
            fen: pos.to_fen(),
            condition: condition.name().into(),
            claimant: pos.side.to_string(),
            holds: false,
            in_check: false,
            safe_move: None,
            check_capture: None,
            refutations: vec![],
        }
    }

    /// Whether the verdict rests on king captures (Combo) rather than on check.
    fn by_king_capture(&self) -> bool {
        Condition::parse(&self.condition).is_some_and(|c| Rules::new(c).proof_by_refutation())
    }

    /// What the proof says.
    pub fn finding(&self) -> Finding<'_> {
        if self.holds && self.by_king_capture() {
            Finding::EveryComboRefuted(&self.refutations)
        } else if self.holds {
            Finding::NoMove
        } else if self.in_check {
            Finding::InCheck(self.check_capture.as_deref())
        } else {
            Finding::CanMove(self.safe_move.as_deref().unwrap_or_default())
        }
    }
}

/// Decides the stalemate claim of the side to move under `rules`. An illegal position
/// (the side not to move in check) is an error, with its FEN.
pub fn prove(pos: &Position, rules: &Rules) -> Result<ClaimProof, String> {
    if rules.other_side_in_check(pos) {
        return Err(format!(
            "illegal position: the side not to move is in check ({})",
            pos.to_fen()
        ));
    }
    if rules.proof_by_refutation() {
        return Ok(prove_by_refutation(pos, rules));
    }
    let mut proof = ClaimProof::open(pos, rules.condition);
    proof.in_check = rules.in_check(pos);
    let first = rules.legal_moves(pos).into_iter().next();
    proof.safe_move = first.map(|(m, c)| move_text(rules, pos, m, &c, Style::Long));
    proof.holds = !proof.in_check && proof.safe_move.is_none();
    Ok(proof)
}

/// A claim proved by king captures (Combo): in check (with the capture), a move that
/// keeps the king safe, or every move refuted by a king capture.
fn prove_by_refutation(pos: &Position, rules: &Rules) -> ClaimProof {
    let us = pos.side;
    let mut proof = ClaimProof::open(pos, rules.condition);
    if let Some(steps) = rules.king_capture(pos, us.flip()) {
        proof.in_check = true;
        let them_to_move = pos.null_move();
        proof.check_capture = Some(steps_text(rules, &them_to_move, &steps, Style::Short));
        return proof;
    }
    for (after, effects) in rules.moves_with_effects(pos) {
        let text = effects_text(rules, pos, &effects, Style::Short);
        match rules.king_capture(&after, after.side) {
            Some(capture) => proof.refutations.push(ComboRefutation {
                combo: text,
                capture: steps_text(rules, &after, &capture, Style::Short),
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

/// A proof that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Not the JSON of a claim proof: where (1-based line and column) and why.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A claim proof, but of another version, or with a FEN or condition that is not one.
    Content(String),
}

/// A proof read back, with the position and condition it names.
#[derive(Clone, Debug)]
pub struct ReadProof {
    pub proof: ClaimProof,
    pub position: Position,
    pub condition: Condition,
}

/// Reads a claim proof (the JSON of `claim --format json`) of this chainmate's version.
pub fn read_proof(text: &str) -> Result<ReadProof, ReadError> {
    let proof: ClaimProof = serde_json::from_str(text).map_err(|e| ReadError::Syntax {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    if proof.schema != SCHEMA || proof.command != COMMAND {
        return Err(ReadError::Content(format!(
            "a proof of schema '{}' and command '{}'; this chainmate reads '{SCHEMA}' claim proofs",
            proof.schema, proof.command
        )));
    }
    let position =
        Position::from_fen(&proof.fen).map_err(|e| ReadError::Content(format!("fen: {e}")))?;
    let Some(condition) = Condition::parse(&proof.condition) else {
        return Err(ReadError::Content(format!(
            "unknown condition '{}'",
            proof.condition
        )));
    };
    Ok(ReadProof {
        proof,
        position,
        condition,
    })
}

/// Re-checks every field of a proof of `pos` under `rules`: against the position (the
/// claimant is the side to move, the diagram is legal under the condition), against each
/// other (a claim that holds has no check, no safe move; a failing one has a reason), and
/// then the claim itself. Combo: the claimant's combos and the king captures are replayed
/// step by step by the notation reader (each step validated on the board), the list is
/// compared with the move generator's distinct results, and "not in combo check" is
/// decided by the plain exhaustive walk, without the search's over-approximation.
///
/// `Ok`: why the proof is right; `Err`: why it is wrong.
pub fn verify(proof: &ClaimProof, pos: &Position, rules: &Rules) -> Result<String, String> {
    let us = pos.side;
    if proof.claimant != us.to_string() {
        return Err(format!(
            "the claimant is '{}', but {us} is to move in the FEN",
            proof.claimant
        ));
    }
    if rules.other_side_in_check(pos) {
        return Err(format!(
            "illegal position: {} is in check with {us} to move",
            us.flip()
        ));
    }
    consistent(proof)?;
    if rules.proof_by_refutation() {
        return verify_by_refutation(pos, rules, proof);
    }
    verify_plain(pos, rules, proof)
}

/// The fields of a proof agree with each other.
fn consistent(proof: &ClaimProof) -> Result<(), String> {
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
    Ok(())
}

/// A proof under the conditions where a stalemate is decided by check and legal moves.
fn verify_plain(pos: &Position, rules: &Rules, proof: &ClaimProof) -> Result<String, String> {
    let us = pos.side;
    if proof.check_capture.is_some() || !proof.refutations.is_empty() {
        return Err(format!(
            "check captures and refutations belong to Combo proofs, not to {}",
            rules.condition.name()
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

/// A proof by king captures (Combo): the check capture, the safe move, or every move
/// refuted.
fn verify_by_refutation(
    pos: &Position,
    rules: &Rules,
    proof: &ClaimProof,
) -> Result<String, String> {
    let us = pos.side;
    if proof.in_check {
        let c = proof
            .check_capture
            .as_deref()
            .ok_or("in check, but no capture given")?;
        king_taken(&pos.null_move(), rules, c)?;
        if let Some(m) = &proof.safe_move {
            // Not needed for a claim in check, but a field that is printed is checked.
            keeps_king_safe(pos, rules, m)?;
        }
        return Ok(format!("{us} is in {}: {c}", rules.check_name()));
    }
    if rules.king_capture(pos, us.flip()).is_some() {
        return Err(format!(
            "{us} is in {}, the proof says not",
            rules.check_name()
        ));
    }
    if !proof.holds {
        let m = proof.safe_move.as_deref().ok_or("no safe move given")?;
        keeps_king_safe(pos, rules, m)?;
        return Ok(format!("{m} keeps the king safe: the claim fails"));
    }
    let mut covered = HashSet::new();
    for r in &proof.refutations {
        let (after, _) = read(pos, rules, &r.combo, false)?;
        king_taken(&after, rules, &r.capture).map_err(|e| format!("{}: {e}", r.combo))?;
        covered.insert(after.hash);
    }
    let all = rules.moves_with_effects(pos);
    if let Some((_, effects)) = all.iter().find(|(after, _)| !covered.contains(&after.hash)) {
        return Err(format!(
            "the combo {} is not refuted in the proof",
            effects_text(rules, pos, effects, Style::Short)
        ));
    }
    Ok(format!(
        "{us} is not in {} and all {} combos are refuted by a king capture",
        rules.check_name(),
        all.len()
    ))
}

/// A move of a proof, read by the condition's own reader (`king_capture`: castling needs
/// only its structural conditions).
fn read(
    pos: &Position,
    rules: &Rules,
    text: &str,
    king_capture: bool,
) -> Result<(Position, crate::moves::Effects), String> {
    rules.read_move(pos, text, king_capture).unwrap_or_else(|| {
        Err(format!(
            "'{text}': {} has no step reader",
            rules.condition.name()
        ))
    })
}

/// `capture`, played by the side to move in `after`, ends by capturing the other king.
fn king_taken(after: &Position, rules: &Rules, capture: &str) -> Result<(), String> {
    let (_, effects) = read(after, rules, capture, true)?;
    let last = effects.steps().last().ok_or("empty capture")?;
    if last.capture && last.to == after.king(after.side.flip()) {
        Ok(())
    } else {
        Err(format!("{capture} does not capture the king"))
    }
}

/// The combo `m` of the side to move leaves no king capture to the opponent.
fn keeps_king_safe(pos: &Position, rules: &Rules, m: &str) -> Result<(), String> {
    let (after, _) = read(pos, rules, m, false)?;
    if rules.king_capture(&after, after.side).is_some() {
        return Err(format!("the safe move {m} lets the king be captured"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(cond: Condition) -> Rules {
        Rules::new(cond)
    }

    fn fen(f: &str) -> Position {
        Position::from_fen(f).unwrap()
    }

    #[test]
    fn a_stalemate_holds_and_its_proof_verifies() {
        let pos = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        let r = rules(Condition::Orthodox);
        let proof = prove(&pos, &r).unwrap();
        assert!(proof.holds);
        assert_eq!(proof.finding(), Finding::NoMove);
        let json = serde_json::to_string(&proof).unwrap();
        let read = read_proof(&json).unwrap();
        assert_eq!(read.proof, proof);
        assert_eq!(read.condition, Condition::Orthodox);
        assert!(verify(&read.proof, &read.position, &r).is_ok());
    }

    #[test]
    fn a_combo_claim_lists_every_refuted_combo() {
        let pos = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        let r = rules(Condition::Combo);
        let proof = prove(&pos, &r).unwrap();
        assert!(proof.holds);
        assert!(matches!(proof.finding(), Finding::EveryComboRefuted(rs) if rs.len() == 3));
        assert!(verify(&proof, &pos, &r).is_ok());
        // A proof that leaves one combo out is rejected.
        let mut short = proof.clone();
        short.refutations.pop();
        assert!(
            verify(&short, &pos, &r)
                .unwrap_err()
                .contains("is not refuted")
        );
    }

    #[test]
    fn a_claim_with_a_move_fails_and_a_false_verdict_is_rejected() {
        let pos = fen("7k/8/6K1/8/8/8/8/6Q1 b - - 0 1");
        let r = rules(Condition::Orthodox);
        let proof = prove(&pos, &r).unwrap();
        assert!(!proof.holds);
        assert!(matches!(proof.finding(), Finding::CanMove(_)));
        let mut lie = proof.clone();
        lie.holds = true;
        lie.safe_move = None;
        assert_eq!(
            verify(&lie, &pos, &r).unwrap_err(),
            "the claim's verdict is wrong"
        );
    }

    #[test]
    fn an_illegal_position_is_no_claim() {
        let pos = fen("7k/6Q1/5K2/8/8/8/8/8 w - - 0 1");
        assert!(
            prove(&pos, &rules(Condition::Orthodox))
                .unwrap_err()
                .starts_with("illegal position")
        );
    }

    #[test]
    fn proofs_of_another_version_are_not_read() {
        let pos = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        let mut proof = prove(&pos, &rules(Condition::Orthodox)).unwrap();
        proof.schema = "chainmate/0".into();
        let json = serde_json::to_string(&proof).unwrap();
        assert!(matches!(read_proof(&json), Err(ReadError::Content(_))));
        assert!(matches!(
            read_proof("{"),
            Err(ReadError::Syntax { line: 1, .. })
        ));
    }
}
