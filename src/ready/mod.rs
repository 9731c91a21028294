//! Whether an object is ready, done or failed, decided here and only here,
//! from the object alone (no I/O): kstatus's rules for each kind
//! (`kstatus`), Helm's completion of a hook's Job or Pod (`completion`), a
//! chart's HIP-0025 expressions (`expr`), and what a hook's pods are doing,
//! in words (`pod_state`); composed into the conditions every wait awaits
//! (`condition`): a resource's, a hook's, an external dependency's, a CRD's. `model`
//! reads a chart's expressions with them (and `lint` says what cannot
//! hold); `seam::Awaiting` awaits hooks, resources and CRDs by them.

pub mod completion;
mod condition;
mod expr;
pub mod kstatus;
pub mod pod_state;

pub(crate) use completion::hook_awaited;
pub use condition::Observed;
pub(crate) use condition::{crd_established, jobs_complete, resource, settled, verdict, Condition, External, HookDone};
pub use expr::{Expr, ExprError, Readiness, ReadinessStatus};
pub(crate) use kstatus::Health;
