//! Stipulations in the community's notation: `#3`, `=2`, `h#2`, `h#2.5`, `h=3`, `hs#3`, `s#4`,
//! `s=2`, `r#2`, `ser-#5`, `ser-=4`, `ser-h#6`, `ser-h=7`, `ser-s#3`.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    Mate,
    Stalemate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// White forces the goal against Black.
    Direct,
    /// Both cooperate; the last move (White's) reaches the goal.
    Help,
    /// White forces Black to reach the goal (against White).
    Self_,
    /// Like self, but each side must reach the goal in one move when it can.
    Reflex,
    /// Series direct: White plays N moves in a row, the last one reaches the goal.
    Series,
    /// Series help: Black plays N moves in a row, then White reaches the goal in one.
    SeriesHelp,
    /// Series self: White plays N moves in a row, then Black is forced to reach the goal.
    SeriesSelf,
    /// Help-self: both cooperate (White starts; Black with N.5) until White's last move,
    /// after which Black is forced to reach the goal (every Black move reaches it).
    HelpSelf,
}

impl Play {
    /// Direct, self and reflex play: the attacker forces, the defender resists.
    pub fn is_battle(self) -> bool {
        matches!(self, Play::Direct | Play::Self_ | Play::Reflex)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stipulation {
    pub play: Play,
    pub goal: Goal,
    /// Number of (full) moves N.
    pub moves: u32,
    /// `h#N.5`: help play where White starts (one extra half-move).
    pub half: bool,
}

/// Longest stipulation the solver accepts (help and series play).
pub const MAX_MOVES: u32 = 99;

/// Longest direct, self and reflex play: the table keeps one bit per length in 32 bits.
pub const MAX_BATTLE_MOVES: u32 = 30;

impl Stipulation {
    /// Parses a stipulation; the error says what is wrong. A stipulation Popeye knows
    /// but chainmate does not solve (`hr#2`, `exact-#2`, `ser-r#3`, `h==2`, ...) is named
    /// as not supported rather than malformed.
    pub fn parse(text: &str) -> Result<Stipulation, String> {
        Stipulation::parse_supported(text).map_err(|e| {
            let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            match popeye_unsupported(&t.to_ascii_lowercase()) {
                Some(what) => format!(
                    "stipulation '{}' ({what}) is not supported: chainmate solves direct, help (h), help-self (hs), \
                     self (s), reflex (r) and series (ser-, ser-h, ser-s) play with the goals # and =",
                    text.trim()
                ),
                None => e,
            }
        })
    }

    fn parse_supported(text: &str) -> Result<Stipulation, String> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if t.is_empty() {
            return Err("empty stipulation".into());
        }
        let lower = t.to_ascii_lowercase();
        let (play, rest) = if let Some(r) = lower.strip_prefix("ser-h") {
            (Play::SeriesHelp, r)
        } else if let Some(r) = lower.strip_prefix("ser-s") {
            (Play::SeriesSelf, r)
        } else if let Some(r) = lower.strip_prefix("ser-") {
            (Play::Series, r)
        } else if let Some(r) = lower.strip_prefix("hs") {
            (Play::HelpSelf, r)
        } else if let Some(r) = lower.strip_prefix('h') {
            (Play::Help, r)
        } else if let Some(r) = lower.strip_prefix('s') {
            (Play::Self_, r)
        } else if let Some(r) = lower.strip_prefix('r') {
            (Play::Reflex, r)
        } else {
            (Play::Direct, lower.as_str())
        };
        let goal = match rest.chars().next() {
            Some('#') => Goal::Mate,
            Some('=') => Goal::Stalemate,
            _ => {
                return Err(format!(
                    "malformed stipulation '{text}': expected a goal '#' or '=' (e.g. #2, h#3, s=2, ser-h#4)"
                ));
            }
        };
        let num = &rest[1..];
        let (whole, half) = match num.split_once('.') {
            Some((w, "5")) => (w, true),
            Some(_) => {
                return Err(format!(
                    "malformed stipulation '{text}': only .5 may follow the number"
                ));
            }
            None => (num, false),
        };
        let moves: u32 = whole.parse().map_err(|_| {
            format!("malformed stipulation '{text}': '{whole}' is not a number of moves")
        })?;
        if half && !matches!(play, Play::Help | Play::HelpSelf) {
            return Err(format!(
                "malformed stipulation '{text}': N.5 is only defined for help play"
            ));
        }
        if moves == 0 && !half {
            return Err(format!(
                "malformed stipulation '{text}': the number of moves must be at least 1"
            ));
        }
        if moves > MAX_MOVES {
            return Err(format!(
                "stipulation '{text}' is longer than the supported {MAX_MOVES} moves"
            ));
        }
        if play.is_battle() && moves > MAX_BATTLE_MOVES {
            return Err(format!(
                "stipulation '{text}' is longer than the {MAX_BATTLE_MOVES} moves supported in direct, self and reflex play"
            ));
        }
        Ok(Stipulation {
            play,
            goal,
            moves,
            half,
        })
    }

    /// Total plies of the stipulated play (help play; N.5 adds one).
    pub fn help_plies(&self) -> u32 {
        2 * self.moves + u32::from(self.half)
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = match self.play {
            Play::Direct => "",
            Play::Help => "h",
            Play::HelpSelf => "hs",
            Play::Self_ => "s",
            Play::Reflex => "r",
            Play::Series => "ser-",
            Play::SeriesHelp => "ser-h",
            Play::SeriesSelf => "ser-s",
        };
        let goal = match self.goal {
            Goal::Mate => "#",
            Goal::Stalemate => "=",
        };
        write!(
            f,
            "{prefix}{goal}{}{}",
            self.moves,
            if self.half { ".5" } else { "" }
        )
    }
}

/// Popeye's play prefixes, in the order its parser tries them, with what chainmate calls
/// the ones it does not solve (`None`: supported).
const POPEYE_PLAYS: &[(&str, Option<&str>)] = &[
    ("ser-reci-h", Some("series reciprocal helpmate")),
    ("ser-hs", Some("series help-selfmate")),
    ("ser-h", None),
    ("ser-s", None),
    ("ser-r", Some("series reflexmate")),
    ("ser-", None),
    ("phser-r", Some("parry help-series reflexmate")),
    ("phser-s", Some("parry help-series selfmate")),
    ("phser-", Some("parry help-series play")),
    ("pser-hs", Some("parry series help-selfmate")),
    ("pser-h", Some("parry series helpmate")),
    ("pser-r", Some("parry series reflexmate")),
    ("pser-s", Some("parry series selfmate")),
    ("pser-", Some("parry series play")),
    ("reci-h", Some("reciprocal helpmate")),
    ("dia", Some("proof game")),
    ("a=>b", Some("a-to-b proof game")),
    ("hs", None),
    ("hr", Some("help-reflexmate")),
    ("h", None),
    ("semi-r", Some("semi-reflexmate")),
    ("s", None),
    ("r", None),
    ("", None),
];

/// Popeye's goals, in the order its parser tries them, with their names; `#` and `=` are
/// the ones chainmate solves.
const POPEYE_GOALS: &[(&str, &str)] = &[
    ("##!", "counter-mate"),
    ("##", "double mate"),
    ("#=", "mate or stalemate"),
    ("#", "mate"),
    ("==", "double stalemate"),
    ("!=", "auto-stalemate"),
    ("=", "stalemate"),
    ("z", "target square"),
    ("+", "check"),
    ("x", "capture"),
    ("%", "Steingewinn"),
    ("ep", "en passant capture"),
    ("ctr", "circuit by rebirth"),
    ("ct", "circuit"),
    ("<>r", "exchange by rebirth"),
    ("<>", "exchange"),
    ("00", "castling"),
    ("~", "any move"),
    ("dia", "proof game"),
    ("a=>b", "a-to-b proof game"),
    ("c81", "Chess81"),
    ("k", "kiss"),
    ("!#", "auto-mate"),
];

/// A Popeye goal at the start of `s`: (its text, its name, the rest). The target goal
/// takes its square (`ze4`).
fn popeye_goal(s: &str) -> Option<(&str, &'static str, &str)> {
    let &(g, name) = POPEYE_GOALS.iter().find(|(g, _)| s.starts_with(g))?;
    let mut len = g.len();
    if g == "z" {
        let b = s.as_bytes();
        if b.len() < 3 || !(b'a'..=b'h').contains(&b[1]) || !(b'1'..=b'8').contains(&b[2]) {
            return None;
        }
        len = 3;
    }
    Some((&s[..len], name, &s[len..]))
}

/// When `s` (lower case, no white space) is a stipulation Popeye reads but chainmate does
/// not solve, what it is ("help-selfmate", "exact length", "goal '==' (double stalemate)").
fn popeye_unsupported(s: &str) -> Option<String> {
    let mut what: Vec<String> = Vec::new();
    let mut s = s;
    if let Some(r) = s.strip_prefix("exact-") {
        what.push("exact length".into());
        s = r;
    }
    if let Some((intro, r)) = s.split_once("->") {
        if intro.is_empty() || !intro.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        what.push("introductory moves".into());
        s = r;
    }
    let &(prefix, play) = POPEYE_PLAYS.iter().find(|(p, _)| s.starts_with(p))?;
    if let Some(p) = play {
        what.insert(0, p.to_string());
    }
    let mut rest = &s[prefix.len()..];
    if !matches!(prefix, "dia" | "a=>b") {
        if prefix.ends_with("reci-h")
            && let Some(r) = rest.strip_prefix('(')
        {
            // The reciprocal part's own goal: `reci-h(=)#2`.
            let (inner, r) = r.split_once(')')?;
            popeye_goal(inner).filter(|g| g.2.is_empty())?;
            rest = r;
        }
        let (goal, name, r) = popeye_goal(rest)?;
        if goal != "#" && goal != "=" {
            what.push(format!("goal '{goal}' ({name})"));
        }
        rest = r;
    }
    let whole = rest.strip_suffix(".5").unwrap_or(rest);
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || what.is_empty() {
        return None;
    }
    Some(what.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for s in [
            "#3", "=2", "h#2", "h#2.5", "h#0.5", "h=3", "s#4", "s=2", "r#2", "ser-#5", "ser-=4",
            "ser-h#6", "ser-h=7", "ser-s#3", "hs#2", "hs=3", "hs#1.5",
        ] {
            assert_eq!(Stipulation::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Stipulation::parse("H#2").unwrap().play, Play::Help);
        assert_eq!(Stipulation::parse("HS#2").unwrap().play, Play::HelpSelf);
        assert_eq!(Stipulation::parse("h#2.5").unwrap().help_plies(), 5);
    }

    #[test]
    fn popeye_stipulations_chainmate_does_not_solve() {
        for (s, what) in [
            ("hr#2", "help-reflexmate"),
            ("exact-s#2", "exact length"),
            ("ser-r#2", "series reflexmate"),
            ("pser-#3", "parry series play"),
            ("phser-s#3", "parry help-series selfmate"),
            ("ser-hs#4", "series help-selfmate"),
            ("semi-r#2", "semi-reflexmate"),
            ("reci-h#2", "reciprocal helpmate"),
            ("dia4.5", "proof game"),
            ("3->ser-#2", "introductory moves"),
            ("h==2", "goal '==' (double stalemate)"),
            ("#=2", "goal '#=' (mate or stalemate)"),
            ("hze42", "goal 'ze4' (target square)"),
            ("HR#2", "help-reflexmate"),
        ] {
            let e = Stipulation::parse(s).unwrap_err();
            assert!(
                e.starts_with(&format!("stipulation '{s}' (")) && e.contains(what),
                "{s}: {e}"
            );
            assert!(e.contains("is not supported"), "{s}: {e}");
        }
        // Not Popeye stipulations either: still malformed.
        for s in ["hs#", "x#2", "h#abc", "hq#2", "ser-r#x"] {
            let e = Stipulation::parse(s).unwrap_err();
            assert!(e.starts_with("malformed stipulation"), "{s}: {e}");
        }
    }

    #[test]
    fn rejects_malformed() {
        for s in ["", "#", "x#2", "#2.3", "s#2.5", "#0", "h#abc", "#100"] {
            assert!(Stipulation::parse(s).is_err(), "{s}");
        }
    }
}
