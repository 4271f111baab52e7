//! Move notation, solution printers and machine-readable output.
pub mod diagram;
pub mod latex;
pub mod notation;
pub mod svg;
pub mod text;

/// The version of the JSON and YAML output; `docs/schema.json` describes it and
/// `docs/solving.md` says what a change of it means.
pub const SCHEMA: &str = "chainmate/1";
