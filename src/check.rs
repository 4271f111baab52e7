//! The composition checker: solves a problem and compares with the stated solution.
//! Verdicts per twin: `sound` (exactly the stated keys / solutions), `cooked` (more keys or
//! solutions than stated, or a shorter direct solution), `no solution` (a stated key or line
//! fails, or nothing works), `unstated` (the file states no solution).
//!
//! Stated moves are matched against the position's legal moves in both notations (long
//! `Qd1-d5`, short `Qd5`), ignoring check and mate signs, so YACPDB-style and Popeye-style
//! solutions are both understood.

use crate::moves::{Effects, Move};
use crate::output::notation::{Style, effects_text};
use crate::position::Position;
use crate::problem::{Duplex, Problem, TwinInstance};
use crate::rules::Rules;
use crate::search::result::{MoveInfo, TwinResult};
use crate::search::solve::{Settings, solve_twin, start_position};
use crate::search::stipulation::Play;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Sound,
    Cooked,
    NoSolution,
    Unstated,
    /// The search was stopped (time limit, Ctrl-C) before the twin was decided.
    Unknown,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Cooked => "cooked",
            Verdict::NoSolution => "no solution",
            Verdict::Unstated => "unstated",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The verdict of one twin with its evidence (lines of text).
#[derive(Clone, Debug, Serialize)]
pub struct TwinVerdict {
    pub twin: String,
    /// The half of a `Duplex` or `HalfDuplex` twin with the colours' roles exchanged;
    /// left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exchanged: bool,
    /// The twin's diagram as FEN.
    pub fen: String,
    pub stipulation: String,
    pub verdict: Verdict,
    pub evidence: Vec<String>,
    pub complete: bool,
    pub seconds: f64,
}

/// Text of a move for comparison: no numbers, signs or marks, no spaces.
pub fn normalize(text: &str) -> String {
    let t = text.trim();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    t.chars()
        .filter(|c| !matches!(c, '+' | '#' | '=' | '!' | '?' | ' ' | 'x' | '*' | '-' | ':'))
        .collect()
}

/// Splits a stated line into move tokens (a chain in parentheses stays with its move).
pub fn tokens(line: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut depth = 0;
    let mut cur = String::new();
    for c in line.chars() {
        match c {
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            c if c.is_whitespace() && depth > 0 && cur.starts_with('[') => cur.push(c),
            c if c.is_whitespace() && depth == 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c if c.is_whitespace() => {}
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // A chain in parentheses belongs to the move before it.
    let mut merged: Vec<String> = vec![];
    for t in out {
        match merged.last_mut() {
            Some(last) if t.starts_with('(') => last.push_str(&t),
            // Popeye's long en passant, `e5*d6 ep.`: the mark belongs to the move.
            Some(last) if t == "ep." || t == "e.p." => last.push_str(&t),
            _ => merged.push(t),
        }
    }
    // Drop bare move numbers ("1.", "2...") and bare signs.
    merged
        .into_iter()
        .filter(|t| !t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
        .filter(|t| {
            !matches!(
                t.as_str(),
                "+" | "#" | "=" | "!" | "?" | "threat:" | "zugzwang."
            )
        })
        .collect()
}

/// Keys written in a stated tree solution: first moves followed by `!`; when no first
/// move has one (`1.Rh8#` as YACPDB often writes a key), every first move that is not marked
/// as a try (`?`).
fn stated_keys(solution: &str) -> Vec<String> {
    let firsts: Vec<&str> = solution
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("1.")?;
            (!rest.starts_with('.')).then_some(rest.trim())
        })
        .collect();
    // A first move followed by `?` is a try (`1.Rh7? Kg8!`, Popeye's `1.Rh7-h8 ?`).
    let moves: Vec<(&str, String)> = firsts
        .iter()
        .filter(|rest| !rest.split_whitespace().take(2).any(|w| w.contains('?')))
        .filter_map(|rest| Some((*rest, tokens(rest).into_iter().next()?)))
        .collect();
    let banged: Vec<String> = moves
        .iter()
        .filter_map(|(rest, _)| rest.find('!').map(|bang| rest[..bang].trim().to_string()))
        .filter(|k| !k.is_empty() && tokens(k).len() == 1)
        .collect();
    if !banged.is_empty() {
        return banged;
    }
    moves.into_iter().map(|(_, first)| first).collect()
}

/// A twin label at the start of `text` (`a)`, `+b)`, `c)`): the label and the rest.
fn twin_label(text: &str) -> Option<(&str, &str)> {
    let t = text.strip_prefix('+').unwrap_or(text);
    let close = t.find(')')?;
    let label = &t[..close];
    (!label.is_empty() && label.len() <= 2 && label.chars().all(|c| c.is_ascii_lowercase()))
        .then(|| (label, &t[close + 1..]))
}

/// The part of a stated solution that belongs to twin `label`. YACPDB and Olive state one
/// solution per twin (`a) 1.Kc5 ... b) 1.Ke4 ...`, on one line or several); a text without
/// twin sections belongs to every twin, and a twin the text has no section for has no
/// stated solution.
pub fn twin_section(solution: &str, label: &str) -> String {
    // Each section starts a line of its own, also when written inline after another.
    let mut lines: Vec<String> = vec![];
    for line in solution.lines() {
        let mut cur = String::new();
        for word in line.split_whitespace() {
            if twin_label(word).is_some() && !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        lines.push(cur);
    }
    if !lines.iter().any(|l| twin_label(l).is_some()) {
        return solution.to_string();
    }
    let mut out = String::new();
    let mut inside = false;
    for l in &lines {
        if let Some((lab, rest)) = twin_label(l) {
            inside = lab == label;
            if inside {
                out.push_str(rest.trim());
                out.push('\n');
            }
        } else if inside {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// Lines of a stated help/series solution (those starting with a move number).
fn stated_lines(solution: &str) -> Vec<Vec<String>> {
    solution
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| tokens(l).iter().map(|t| normalize(t)).collect())
        .collect()
}

/// The legal move of `pos` a stated text names (long or short notation), if any. A chain
/// may be left out when the leader alone names one move, and `N` is read as the knight
/// when no nightrider is on the board (English notation).
pub fn find_move(rules: &Rules, pos: &Position, text: &str) -> Option<(Move, Position)> {
    MoveReader::new(rules, pos).find(text)
}

/// Reads move texts in one position: the legal moves and their texts are worked out once,
/// so that many texts (a stated solution's variations, a round-trip test, a game) can be
/// read cheaply. A text names a move when its normalized form is the move's long or short
/// text; a text that fits moves with different results names none (it is ambiguous).
/// Conditions whose moves are written step by step read them with their own reader
/// (`Rules::read_move`); the move is then found by the position it leads to.
pub struct MoveReader<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    /// Each legal move with its result and its effects.
    moves: Vec<(Move, Position, Effects)>,
    /// The normalized long and short bodies of the moves, worked out when first needed
    /// (not for a condition that reads its moves itself).
    texts: std::cell::OnceCell<Vec<(String, String)>>,
    has_nightrider: bool,
}

/// A move of a game as read: the position after it (the opponent to move), its effects,
/// and whether it was read by the condition's own reader (game semantics: it may leave
/// the own king attacked or capture the enemy king).
pub struct GameMove {
    pub child: Position,
    pub effects: Effects,
    pub stepwise: bool,
}

impl GameMove {
    /// Does the move capture the enemy king (`before`: the position it was played in)?
    pub fn captures_king(&self, before: &Position) -> bool {
        let k = before.king(before.side.flip());
        self.effects.steps().any(|s| s.capture && s.to == k)
    }
}

impl<'a> MoveReader<'a> {
    pub fn new(rules: &'a Rules, pos: &'a Position) -> MoveReader<'a> {
        let has_nightrider =
            (0..64u8).any(|s| pos.board.kind_at(s) == Some(crate::core::Kind::Nightrider));
        MoveReader {
            rules,
            pos,
            moves: rules.legal_with_effects(pos),
            texts: std::cell::OnceCell::new(),
            has_nightrider,
        }
    }

    fn texts(&self) -> &[(String, String)] {
        self.texts.get_or_init(|| {
            self.moves
                .iter()
                .map(|(_, _, e)| {
                    let text = |style| normalize(&effects_text(self.rules, self.pos, e, style));
                    (text(Style::Long), text(Style::Short))
                })
                .collect()
        })
    }

    /// The one legal move `text` names, if any.
    pub fn find(&self, text: &str) -> Option<(Move, Position)> {
        if let Some(read) = self.rules.read_move(self.pos, text, false) {
            let (after, _) = read.ok()?;
            return self
                .moves
                .iter()
                .find(|(_, c, _)| c.hash == after.hash && c.board == after.board)
                .map(|(m, c, _)| (*m, *c));
        }
        // The first step alone: without a Kazan chain or Tatarstan cascade in parentheses,
        // or a Circe rebirth in brackets (`Qxd5` for `Qxd5[+bRa8]`).
        let leader = |t: &str| without_rebirth(t.split('(').next().unwrap_or(""));
        let mut wants = vec![normalize(text)];
        if !self.has_nightrider && wants[0].starts_with('N') {
            wants.push(format!("S{}", &wants[0][1..]));
        }
        for want in &wants {
            let exact = self.unique(|long, short| long == want || short == want);
            if exact.is_some() {
                return exact;
            }
            if !want.contains('(') && !want.contains('[') {
                let by_leader =
                    self.unique(|long, short| leader(long) == *want || leader(short) == *want);
                if by_leader.is_some() {
                    return by_leader;
                }
            }
        }
        None
    }

    /// A move of a game: read by the condition's own reader where it has one (game
    /// semantics), otherwise the one legal move the text names. The error says why not,
    /// to follow the move's text (`: step 2 ...`, ` is not a legal ... move here`).
    pub fn read_game_move(&self, text: &str) -> Result<GameMove, String> {
        if let Some(read) = self.rules.read_move(self.pos, text, false) {
            let (child, effects) = read.map_err(|e| format!(": {e}"))?;
            return Ok(GameMove {
                child,
                effects,
                stepwise: true,
            });
        }
        let (m, child) = self.find(text).ok_or_else(|| {
            format!(
                " is not a legal {} move here ({})",
                self.rules.condition.name(),
                self.pos.to_fen()
            )
        })?;
        let effects = self
            .moves
            .iter()
            .find(|x| x.0 == m)
            .map(|x| x.2.clone())
            .expect("a found move is in the list");
        Ok(GameMove {
            child,
            effects,
            stepwise: false,
        })
    }

    /// The move whose texts fit, when all the moves that fit have one result.
    fn unique(&self, fits: impl Fn(&str, &str) -> bool) -> Option<(Move, Position)> {
        let mut hits = self
            .moves
            .iter()
            .zip(self.texts())
            .filter(|(_, (l, s))| fits(l, s))
            .map(|(x, _)| x);
        let (m, c, _) = hits.next()?;
        if hits.any(|(_, d, _)| d.hash != c.hash || d.board != c.board) {
            return None;
        }
        Some((*m, *c))
    }
}

fn line_matches(found: &[MoveInfo], stated: &[String]) -> bool {
    found.len() == stated.len()
        && found.iter().zip(stated).all(|(f, s)| {
            let (long, short) = (normalize(&f.text), normalize(&f.short));
            long == *s
                || short == *s
                || (!s.contains('[')
                    && (without_rebirth(&long) == *s || without_rebirth(&short) == *s))
        })
}

/// A normalized move text without its Circe rebirth (`Qd1d5[bRa8]` is `Qd1d5`): the
/// rebirth follows from the move, so a stated line may leave it out. A text that starts
/// with a bracket (a combo) stays as it is.
fn without_rebirth(text: &str) -> String {
    match text.find('[') {
        Some(i) if i > 0 => {
            let end = text[i..].find(']').map_or(text.len(), |j| i + j + 1);
            format!("{}{}", &text[..i], &text[end..])
        }
        _ => text.to_string(),
    }
}

fn line_text(line: &[MoveInfo]) -> String {
    line.iter()
        .map(|m| m.text.clone())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Solves and judges one twin.
pub fn check_twin(
    p: &Problem,
    t: &TwinInstance,
    rules: &Rules,
    settings: &Settings,
) -> (TwinVerdict, TwinResult) {
    let r = solve_twin(&t.search_input(), rules, settings);
    let mut evidence = vec![];
    let helpish = !matches!(
        t.stipulation.play,
        Play::Direct | Play::Self_ | Play::Reflex
    );
    let section = if t.label.is_empty() {
        p.solution.clone().unwrap_or_default()
    } else {
        twin_section(p.solution.as_deref().unwrap_or(""), &t.label)
    };
    // A duplex half is judged on its own part of the stated solution, and counts as
    // stated (with nothing stated for it) when only the other half's part is given.
    let given = !section.trim().is_empty();
    let section = if p.options.duplex == Duplex::Off {
        section
    } else {
        duplex_part(&section, rules, t)
    };
    let stated = section.trim();
    let verdict = if !given {
        unstated_verdict(helpish, &r, &mut evidence)
    } else if helpish {
        lines_verdict(stated, &r, &mut evidence)
    } else {
        keys_verdict(stated, rules, t, settings, &r, &mut evidence)
    };
    let verdict = if r.complete {
        verdict
    } else {
        undecided(verdict, helpish, &r, &mut evidence)
    };
    let v = TwinVerdict {
        twin: t.label.clone(),
        exchanged: t.exchanged,
        fen: r.fen.clone(),
        stipulation: t.stipulation.to_string(),
        verdict,
        evidence,
        complete: r.complete,
        seconds: r.seconds,
    };
    (v, r)
}

/// The part of a duplex twin's stated solution that belongs to half `t`: each stated line
/// goes with the half from whose starting position its first move is legal; any other
/// line (a variation under a key, a remark) goes with the line before it. In battle play
/// only a line of the first move (`1.`, not `1...`) starts a half's part: a defence
/// written as `1...` may be legal where the other half starts.
fn duplex_part(section: &str, rules: &Rules, t: &TwinInstance) -> String {
    let this = start_position(&t.search_input());
    let mut other = t.search_input();
    other.exchanged = !other.exchanged;
    let other = start_position(&other);
    let (this, other) = (
        MoveReader::new(rules, &this),
        MoveReader::new(rules, &other),
    );
    let battle = t.stipulation.play.is_battle();
    let mut mine = true;
    let mut out = String::new();
    for line in section.lines() {
        let first = line
            .trim()
            .strip_prefix("1.")
            .filter(|rest| !battle || !rest.starts_with('.'))
            .and_then(|rest| tokens(rest.trim_start_matches('.')).into_iter().next());
        if let Some(first) = first {
            if this.find(&first).is_some() {
                mine = true;
            } else if other.find(&first).is_some() {
                mine = false;
            }
        }
        if mine {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// No solution stated: what the search found is the evidence.
fn unstated_verdict(helpish: bool, r: &TwinResult, evidence: &mut Vec<String>) -> Verdict {
    if helpish {
        evidence.extend(r.lines.iter().map(|l| format!("found: {}", line_text(l))));
    } else {
        evidence.extend(r.keys.iter().map(|k| format!("found key: 1.{} !", k.text)));
    }
    if evidence.is_empty() {
        evidence.push("found: no solution".into());
    }
    Verdict::Unstated
}

/// Help and series play: every stated line must work, and every line found be stated.
fn lines_verdict(stated: &str, r: &TwinResult, evidence: &mut Vec<String>) -> Verdict {
    let want = stated_lines(stated);
    let missing: Vec<&Vec<String>> = want
        .iter()
        .filter(|w| !r.lines.iter().any(|l| line_matches(l, w)))
        .collect();
    let extra: Vec<&Vec<MoveInfo>> = r
        .lines
        .iter()
        .filter(|l| !want.iter().any(|w| line_matches(l, w)))
        .collect();
    for m in &missing {
        evidence.push(format!("stated line does not work: {}", m.join(" ")));
    }
    for e in &extra {
        evidence.push(format!("extra solution: {}", line_text(e)));
    }
    if r.lines.is_empty() || !missing.is_empty() {
        if r.lines.is_empty() {
            evidence.push("no solution exists".into());
        }
        Verdict::NoSolution
    } else if !extra.is_empty() {
        Verdict::Cooked
    } else {
        Verdict::Sound
    }
}

/// Direct, self and reflex play: every stated key must work (a failing one is shown with
/// its refutations), and every key found be stated; a shorter solution is a cook.
fn keys_verdict(
    stated: &str,
    rules: &Rules,
    t: &TwinInstance,
    settings: &Settings,
    r: &TwinResult,
    evidence: &mut Vec<String>,
) -> Verdict {
    let pos = start_position(&t.search_input());
    let reader = MoveReader::new(rules, &pos);
    let want = stated_keys(stated);
    let mut failing = false;
    let mut named = vec![];
    for k in &want {
        match reader.find(k) {
            None => {
                evidence.push(format!("stated key 1.{k} is not a legal move"));
                failing = true;
            }
            Some((m, child)) => {
                named.push(m);
                if !r.keys.iter().any(|x| x.mv == m) {
                    failing = true;
                    let refs = refutation_texts(rules, t, &child, settings);
                    evidence.push(format!("stated key 1.{k} fails: {}", refs));
                }
            }
        }
    }
    let extra: Vec<&MoveInfo> = r.keys.iter().filter(|x| !named.contains(&x.mv)).collect();
    for e in &extra {
        evidence.push(format!("extra key (cook): 1.{} !", e.text));
    }
    if let Some(s) = r.shorter {
        evidence.push(format!("shorter solution: the goal is reached in {s}"));
    }
    if r.keys.is_empty() {
        evidence.push("no key works".into());
        Verdict::NoSolution
    } else if failing || want.is_empty() {
        Verdict::NoSolution
    } else if !extra.is_empty() || r.shorter.is_some() {
        Verdict::Cooked
    } else {
        Verdict::Sound
    }
}

/// The verdict of a twin whose search was stopped: `cooked` stays (every key and solution
/// the search reports was proven before the stop, so an extra one or a shorter one is a
/// proven cook); anything else is `unknown`, and the evidence says what was and was not
/// established.
fn undecided(
    verdict: Verdict,
    helpish: bool,
    r: &TwinResult,
    evidence: &mut Vec<String>,
) -> Verdict {
    let what = if helpish { "solution" } else { "key" };
    if evidence.iter().any(|e| e.ends_with("is not a legal move")) {
        // Proven without any search.
        return Verdict::NoSolution;
    }
    if verdict == Verdict::Cooked {
        evidence.push(format!(
            "search stopped after {:.1} s: the cook above is proven; other {what}s may exist",
            r.seconds
        ));
        return Verdict::Cooked;
    }
    // What was found before the stop is true, but what was not found is not proven absent.
    evidence.retain(|e| {
        !e.starts_with("no solution exists")
            && !e.starts_with("no key works")
            && !e.starts_with("found: no solution")
            && !e.contains(" fails")
            && !e.starts_with("stated line does not work")
    });
    let found = if helpish { r.lines.len() } else { r.keys.len() };
    evidence.push(if verdict == Verdict::Unstated {
        format!(
            "not decided: the search was stopped after {:.1} s; {found} {what}(s) proven in the part searched",
            r.seconds
        )
    } else {
        format!(
            "not decided: the search was stopped after {:.1} s; {found} {what}(s) proven in the part searched, no cook found there, the stated {what}s not refuted there",
            r.seconds
        )
    });
    Verdict::Unknown
}

/// The defences that refute a failed key, as text ("but 1...x !").
fn refutation_texts(
    rules: &Rules,
    t: &TwinInstance,
    child: &Position,
    settings: &Settings,
) -> String {
    let refs = crate::search::solve::refutations_of(t.stipulation, rules, child, &settings.stop);
    if refs.is_empty() {
        "the move fails without a defence to name (no legal reply, or it stalemates)".into()
    } else {
        format!(
            "but {}",
            refs.iter()
                .map(|m| format!("1...{m} !"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}
