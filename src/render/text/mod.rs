//! The text format, for a terminal, read top to bottom: a file per outcome
//! (`plan`, `problems` for `lint` and every command's diagnostics, `run`,
//! `deploy`, `preview`).

pub mod deploy;
pub mod plan;
pub mod preview;
pub mod problems;
pub mod run;

pub use plan::plan;
pub use problems::{diagnostics, lint};
