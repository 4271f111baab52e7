//! Move notation, solution printers and machine-readable output.
pub mod notation;
pub mod text;
