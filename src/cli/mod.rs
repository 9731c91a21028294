//! The command line: `helm hooks plan|lint|run|deploy|rollback|uninstall|status|version`,
//! every command and flag defined once (`spec`), read by one parser
//! (`args`), each flag's value converted by its own entry in the table
//! into [`low_args::LowArgs`], and then once into the command's own struct
//! (`typed`), as ripgrep reads its flags; every mistake gets one message
//! and exit code 2. A command's file reads its input, calls the action and
//! hands what it returns to `render`. [`entry`] is where a command line
//! comes in.

pub mod arg_error;
pub mod args;
mod deploy;
pub mod entry;
pub mod io;
pub mod low_args;
mod plan;
mod run;
pub mod spec;
mod status;
mod typed;

pub use crate::action::Exit;
pub use entry::{main, run_captured, VERSION};
pub use io::Io;
