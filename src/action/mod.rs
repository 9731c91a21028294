//! The commands, one file each, as Helm's `pkg/action` (docs/design.md §6):
//! every command has a typed request, `prepare` — read, check, plan, ask
//! for permissions; nothing in the cluster changed — returning what it will
//! act on, and `perform`, which acts, tells progress to a sink and returns
//! a typed outcome. The commands that talk to the cluster act over the seam
//! ([`crate::seam::Env`]), so that a simulation drives each of them as the
//! real cluster does. The CLI parses, calls an action, and hands what it
//! returns to rendering.

pub mod connect;
pub mod deploy;
pub mod exit;
pub mod lint;
pub mod pipe;
pub mod plan;
pub mod rollback;
pub mod run;
pub mod status;
pub mod stop;
pub mod uninstall;

pub use exit::Exit;
pub use stop::OperationStop;
