#![allow(
    clippy::needless_range_loop,
    clippy::explicit_counter_loop,
    clippy::manual_is_multiple_of,
    clippy::collapsible_if
)]
//! chainmate: a chess problem solver and composition checker for fairy conditions
//! (Teleport, Kazan, Tatarstan, Combo, Pocket Mutation) and orthodox problems.
//!
//! Layout: `core` (squares, bitboards, pieces, board: no rules), `position` (copy-make
//! position), `moves`, `rules` (one file per condition), `search` (stipulations and
//! solvers), `problem` (problem model and readers), `output` (notation and printers).

pub mod app;
pub mod check;
pub mod claim;
pub mod cli;
pub mod core;
pub mod moves;
pub mod output;
pub mod position;
pub mod problem;
pub mod rules;
pub mod search;
