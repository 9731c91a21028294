//! Running a plan: the sans-IO hook executor and resource rollout, the readiness rules they apply to live objects (kstatus, Helm's hook status), and the `run` driver with its cluster adapter.

pub mod cluster;
pub mod executor;
pub mod kstatus;
pub mod rollout;
pub mod run;
pub mod status;
