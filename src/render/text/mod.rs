//! The text format, for a terminal, read top to bottom: a file per outcome
//! (`plan`, `problems` for `lint` and every command's diagnostics, `run`,
//! `deploy`, `preview`).

pub mod deploy;
pub(super) mod plan;
pub(super) mod preview;
pub(super) mod problems;
pub mod run;

pub use plan::plan;
pub use problems::{diagnostics, lint};
