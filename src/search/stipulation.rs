//! Stipulations in the community's notation: `#3`, `=2`, `h#2`, `h#2.5`, `h=3`, `s#4`,
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

/// Longest stipulation the solver accepts.
pub const MAX_MOVES: u32 = 99;

impl Stipulation {
    /// Parses a stipulation; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Stipulation, String> {
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
        if half && play != Play::Help {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for s in [
            "#3", "=2", "h#2", "h#2.5", "h#0.5", "h=3", "s#4", "s=2", "r#2", "ser-#5", "ser-=4",
            "ser-h#6", "ser-h=7", "ser-s#3",
        ] {
            assert_eq!(Stipulation::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Stipulation::parse("H#2").unwrap().play, Play::Help);
        assert_eq!(Stipulation::parse("h#2.5").unwrap().help_plies(), 5);
    }

    #[test]
    fn rejects_malformed() {
        for s in ["", "#", "x#2", "#2.3", "s#2.5", "#0", "h#abc", "#100"] {
            assert!(Stipulation::parse(s).is_err(), "{s}");
        }
    }
}
