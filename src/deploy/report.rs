//! What an install, upgrade, rollback or uninstall did: its [`Report`],
//! filled in as it goes and returned however it ended.

use crate::exec::executor::Millis;
use crate::exec::runner;
use crate::release::record::Operation;

use super::error::Error;
use crate::exec::rollout::ResourceState;

/// How an operation ended.
#[derive(Debug)]
pub enum Ended {
    Done,
    /// It failed, and why: a hook or resource (exit 1), or the cluster
    /// failing us (exit 3, [`Error::is_cluster`]).
    Failed(Error),
}

#[derive(Debug)]
pub struct Report {
    pub operation: Operation,
    pub release: String,
    pub namespace: String,
    pub revision: u64,
    pub status: String,
    pub resources: Vec<ResourceRow>,
    pub deleted: Vec<String>,
    /// The deletions batch by batch, with their times (for a timeline:
    /// uninstall, and what an upgrade or rollback removes).
    pub deletions: Vec<Deletion>,
    /// Each event's hooks as they ran, in the order the events ran.
    pub hooks: Vec<runner::Summary>,
    pub started_at: Millis,
    pub ended_at: Millis,
    pub api_requests: u64,
    /// Of those, repeated after a 429 or a gateway error.
    pub api_requests_repeated: u64,
    pub ended: Ended,
    /// The chart's rendered NOTES.txt, printed after an install or upgrade as
    /// `helm install` and `helm upgrade` print it.
    pub notes: String,
    /// What an uninstall did not delete because the release does not own it
    /// or its ownership could not be verified, in Helm 4.3's words
    /// (`ownership::kept_text`), printed before the outcome as `helm uninstall` does.
    pub not_deleted: String,
    /// What `--rollback-on-failure` did after this operation failed: the
    /// uninstall or rollback, with its own outcome.
    pub recovery: Option<Box<Report>>,
}

impl Report {
    pub(super) fn new(
        operation: Operation,
        release: &str,
        namespace: &str,
        revision: u64,
        started_at: Millis,
    ) -> Report {
        Report {
            operation,
            release: release.to_string(),
            namespace: namespace.to_string(),
            revision,
            status: String::new(),
            resources: Vec::new(),
            deleted: Vec::new(),
            deletions: Vec::new(),
            hooks: Vec::new(),
            started_at,
            ended_at: started_at,
            api_requests: 0,
            api_requests_repeated: 0,
            ended: Ended::Done,
            notes: String::new(),
            not_deleted: String::new(),
            recovery: None,
        }
    }
}

/// One batch of deletions: what was deleted, from the delete request until
/// every object was gone.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Deletion {
    pub resources: Vec<String>,
    pub started_at: Millis,
    pub ended_at: Millis,
}

/// One resource's outcome, for the summary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ResourceRow {
    #[serde(rename = "ref")]
    pub reference: String,
    pub batch: usize,
    pub state: ResourceState,
    pub applied_at: Option<Millis>,
    pub ready_at: Option<Millis>,
    /// When it failed (applied and not ready in time, or refused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_at: Option<Millis>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}
