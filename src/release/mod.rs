//! Helm's release record: its storage (in Secrets or ConfigMaps through the API, or through
//! Helm's own driver in the host-functions build), and the statuses and descriptions Helm's
//! actions write through its life cycle.

mod helm;
pub mod hook_runs;
pub mod last_run;
pub mod payload;
pub mod record;
pub(crate) mod release_status;
pub mod storage;
