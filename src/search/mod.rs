//! Stipulations and the solvers.
pub mod engine;
pub mod input;
pub mod solve;
pub mod stipulation;
pub mod tree;
pub mod tt;

pub use input::{SearchInput, SearchOptions};
pub use stipulation::{Goal, Play, Stipulation};
pub mod reach;
pub mod result;
