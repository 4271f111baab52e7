//! chainmate: a chess problem solver and composition checker for fairy conditions
//! (Teleport, Kazan, Tatarstan, Combo, Pocket Mutation) and orthodox problems.
//!
//! Layout: `core` (squares, bitboards, pieces, board: no rules), `position` (copy-make
//! position), `moves`, `rules` (one file per condition), `search` (stipulations and
//! solvers), `problem` (problem model and readers), `output` (notation and printers).

pub mod core;
pub mod moves;
pub mod position;
pub mod rules;
pub mod solution_text;
pub mod search;
pub mod problem;
pub mod output;
pub mod app;
pub mod cli;
