//! The commands once their arguments are parsed, as Helm's `pkg/action`
//! runs them, one room each: `helm hooks deploy` ([`super::install`]),
//! `rollback` ([`super::rollback`]) and `uninstall` ([`super::uninstall`]),
//! each finding what it acts on, asking for its permissions and then acting,
//! over the seam ([`super::Env`]) — so that the CLI only parses, chooses the
//! output and prints what comes back. What they share is in
//! [`super::command`].

pub use super::command::{refuse_pending, way_out, Done, Flags, Refused};
pub use super::install::run as upgrade_install;
pub use super::rollback::{run as rollback, target as rollback_target};
pub use super::uninstall::{run as uninstall, target as uninstall_target};
