//! Move notation, solution printers and machine-readable output.
pub mod diagram;
pub mod latex;
pub mod notation;
pub mod svg;
pub mod text;
