//! Running a plan, without I/O: the sans-IO hook executor and resource
//! rollout, and the loop that drives the executor against any
//! [`runner::HookApi`] (over the seam: `seam::HookCluster`). Whether an
//! object is ready or done is `ready`'s to say.

pub mod executor;
pub(crate) mod follow;
pub mod progress;
pub mod rollout;
pub mod runner;
