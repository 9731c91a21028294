//! Running a plan, without I/O: the sans-IO hook executor and resource
//! rollout, what they read from live objects (their health by kstatus's
//! rules, Helm's hook status), and the loop that drives the executor against any
//! [`run::HookApi`] (over the seam: `seam::HookCluster`).

pub mod completion;
pub mod executor;
pub(crate) mod follow;
pub mod kstatus;
pub mod pod_state;
pub mod progress;
pub mod rollout;
pub mod runner;
