//! How a command ends when it does not simply succeed, and the one mapping from that to
//! the exit code.

use crate::problem::ProblemError;

pub const EXIT_OK: i32 = 0;
/// A check or a claim failed.
pub const EXIT_FAILED: i32 = 1;
/// Bad input: a file, a problem or an argument that cannot be read or used.
pub const EXIT_INPUT: i32 = 2;
/// Nothing proven wrong, but some search was stopped (time limit, Ctrl-C) before it decided.
pub const EXIT_UNKNOWN: i32 = 3;

/// Why a command did not succeed. Each command returns `Result<(), Failure>`;
/// [`super::run`] prints what is still to be said and turns it into the exit code
/// ([`Failure::exit_code`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Bad input, said in one message that names the file (and line) or the argument at
    /// fault; printed as `error: MESSAGE`.
    Input(String),
    /// The command was given nothing to work on, or a combination it cannot do; printed
    /// as `chainmate COMMAND: MESSAGE`.
    Usage {
        command: &'static str,
        message: String,
    },
    /// Bad input, already reported on stderr where it was met (a command that goes on
    /// past an unreadable problem prints each error in its place).
    InputReported,
    /// A check or a claim failed: a verdict, not an error.
    Failed,
    /// Nothing proven wrong, but a search was stopped (time limit, Ctrl-C) before it
    /// decided.
    Unknown,
}

impl Failure {
    pub fn usage(command: &'static str, message: impl Into<String>) -> Failure {
        Failure::Usage {
            command,
            message: message.into(),
        }
    }

    /// The process's exit code: 1 a check or claim failed, 2 bad input, 3 undecided
    /// (success is 0).
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Input(_) | Failure::Usage { .. } | Failure::InputReported => EXIT_INPUT,
            Failure::Failed => EXIT_FAILED,
            Failure::Unknown => EXIT_UNKNOWN,
        }
    }

    /// What is printed on stderr for it, when that is not done yet.
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Input(m) => Some(format!("error: {m}")),
            Failure::Usage { command, message } => Some(format!("chainmate {command}: {message}")),
            Failure::InputReported | Failure::Failed | Failure::Unknown => None,
        }
    }
}

impl From<ProblemError> for Failure {
    fn from(e: ProblemError) -> Failure {
        Failure::Input(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_has_its_exit_code_and_message() {
        assert_eq!(Failure::Input("x.yaml:3: bad".into()).exit_code(), 2);
        assert_eq!(
            Failure::Input("x.yaml:3: bad".into()).message().as_deref(),
            Some("error: x.yaml:3: bad")
        );
        let usage = Failure::usage("show", "no problem files given");
        assert_eq!(usage.exit_code(), 2);
        assert_eq!(
            usage.message().as_deref(),
            Some("chainmate show: no problem files given")
        );
        assert_eq!(Failure::InputReported.exit_code(), 2);
        assert_eq!(Failure::InputReported.message(), None);
        assert_eq!(Failure::Failed.exit_code(), 1);
        assert_eq!(Failure::Unknown.exit_code(), 3);
    }
}
