//! Sequenced install, upgrade, rollback and uninstall on stock Helm 4.
//!
//! Helm renders (`--dry-run=server -o json`); the plugin deploys what Helm
//! rendered, in the plan's order, and keeps the release record in Helm's
//! storage exactly as Helm's own actions would (`pkg/action`), so that
//! stock `helm list`, `status`, `history`, `get manifest`, `upgrade`,
//! `rollback` and `uninstall` treat the result as their own:
//!
//! 1. the new revision is stored `pending-*`;
//! 2. the pre-hooks run (the `run` executor);
//! 3. the resources roll out batch by batch ([`apply`]), each batch ready
//!    before the next;
//! 4. resources the previous revision had and this one has not are deleted
//!    in reverse plan order (upgrade, rollback);
//! 5. the post-hooks run;
//! 6. the revision becomes `deployed` and the one it replaces `superseded`
//!    — or, on any failure, it becomes `failed` and nothing later happens.
//!
//! The driver, not the commands: the commands (`deploy`, `rollback`,
//! `uninstall`) are in `action`, each preparing apart from acting and
//! calling in here to act. [`operation`] is the one operation that install,
//! upgrade and rollback are, [`uninstall`] the other, [`steps`] what they
//! share. They act over the seam (`crate::seam`) and say what happens as
//! typed events ([`progress`]).

mod apply;
mod checked;
pub mod command;
pub mod crd;
pub(crate) mod crds;
mod error;
mod external;
mod operation;
pub mod options;
pub(crate) mod ownership;
pub(crate) mod policy;
pub(crate) mod preview;
pub mod progress;
mod removed;
pub mod report;
mod steps;
mod stuck;
pub mod teardown;
pub(crate) mod wants;

pub use checked::{check, Checked};
pub use error::{Diagnosis, Error, HookFailure};
pub use operation::deploy;
pub use options::{DeployOptions, Flags};
pub use policy::{choose, recover};
pub use report::{Deletion, Ended, Report};
