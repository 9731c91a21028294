//! The command line: `helm hooks plan|lint|run|deploy|rollback|uninstall|status|version`,
//! every command and flag defined once (`spec`), read by one parser
//! (`args`), each flag's value converted by its own entry in the table
//! into [`low_args::LowArgs`], and then once into the command's request
//! (`typed`), as ripgrep reads its flags; every mistake gets one message
//! and exit code 2. One driver (`driver`) runs every command: the world
//! connected (`connect`), the request prepared and performed, its outcome
//! handed to `render`. [`entry`] is where a command line comes in; `deploy`
//! holds what is that command's own (stdin read and checked before
//! connecting).

mod arg_error;
mod args;
mod connect;
mod deploy;
mod driver;
mod entry;
mod io;
mod low_args;
pub mod spec;
mod typed;

pub use crate::action::Exit;
pub use entry::{main, run_captured, VERSION};
pub use io::Io;
