//! The commands, one file each, as Helm's `pkg/action` (docs/design.md §6):
//! each command's request is an [`Action`] (`contract`) — prepared (read,
//! check, plan, ask for permissions; nothing in the cluster changed), then
//! performed (acts, tells progress to one sink) — whose outcome says its
//! exit code (`exit`, where every code is mapped) and why it stops is a
//! [`Stop`]. The commands that talk to the cluster act over the seam
//! ([`crate::seam::Env`]), so that a simulation drives each of them as the
//! real cluster does. The CLI's one driver runs them all.

mod contract;
pub mod deploy;
mod exit;
pub mod lint;
pub(crate) mod pipe;
pub mod plan;
pub mod rollback;
pub mod run;
pub mod status;
mod stop;
pub mod uninstall;

pub use contract::{Action, Exit, Exits};
pub use stop::Stop;
