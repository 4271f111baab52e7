//! What the search is given: one twin's position and stipulation ([`SearchInput`]) and the
//! solving options it reads ([`SearchOptions`]). The problem readers build these (see
//! `TwinInstance::search_input` and `Options::search_options`); the search knows nothing
//! of files, twins or printing options.

use super::stipulation::Stipulation;
use crate::position::Position;

/// One twin to solve.
#[derive(Clone, Debug)]
pub struct SearchInput {
    /// The twin's label ("" without twins), copied into the result.
    pub label: String,
    /// The diagram; the side to move is derived from the stipulation
    /// ([`super::solve::start_position`]).
    pub position: Position,
    pub stipulation: Stipulation,
    /// The colours' roles exchanged (Popeye's `Duplex`, `HalfDuplex`): the side that the
    /// stipulation does not name as the starter starts, and plays for the goal as the
    /// other would.
    pub exchanged: bool,
}

/// The options that change what the search finds or reports (Popeye's `Option` words that
/// concern solving; the printing ones stay with the problem).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Look for tries (`Try`).
    pub tries: bool,
    /// A first move with at most this many refutations is a try (`Defence N`, default 1).
    pub defence: u32,
    /// Look for set play (`SetPlay`).
    pub set_play: bool,
    /// `Threat N`: only threats of at most N moves are looked for.
    pub threat: Option<u32>,
    /// `NoThreat`: no threats in the tree.
    pub no_threat: bool,
    /// `MaxSolutions N`: stop at the Nth solution.
    pub max_solutions: Option<u32>,
    /// Build the variation tree (`Variations`); otherwise only key/try lines.
    pub variations: bool,
    /// `NoShortVariations`: variations shorter than the full length are left out.
    pub short_variations_off: bool,
    /// `MoveNumbers`: Popeye's lines, one per first move.
    pub move_numbers: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            tries: false,
            defence: 1,
            set_play: false,
            threat: None,
            no_threat: false,
            max_solutions: None,
            variations: false,
            short_variations_off: false,
            move_numbers: false,
        }
    }
}
