//! Helm's release record: its storage in Secrets or ConfigMaps, and the statuses and descriptions Helm's actions write through its life cycle.

pub mod record;
pub mod storage;
