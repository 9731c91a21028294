//! Why a deploy, rollback or uninstall failed, typed: what failed, with the
//! cause kept ([`std::error::Error::source`]). The words are Helm's where
//! Helm has them; the release's description and the closing line print them
//! as they are.

use crate::exec::runner::ClusterError;
use crate::kube::{KubeError, ObjectKey};
use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::storage::StorageError;

/// How an operation failed. [`Error::is_cluster`] tells the cluster failing
/// us (exit 3) from a hook or resource of the release failing (exit 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Another command stored the revision first (two deploys at once):
    /// the create is the lock (docs/design.md §4).
    #[error(
        "another operation (install/upgrade/rollback) is in progress: another command stored this revision \
         first; nothing was applied"
    )]
    Locked(#[source] StorageError),
    /// Hooks of `event` failed.
    #[error("{event} hook(s) failed: {}", hook_list(.failed))]
    Hooks { event: Event, failed: Vec<HookFailure> },
    /// The hook executor stopped on a cluster error, as `run` words it.
    #[error("{0}")]
    HookCluster(#[source] ClusterError),
    /// The API server refused a resource (or it could not be sent, or an
    /// external dependency it waits for was not met): it was never applied.
    #[error("{reference} was not applied: {reason}")]
    NotApplied {
        reference: String,
        reason: String,
        #[source]
        cause: Option<Box<KubeError>>,
    },
    /// A resource was applied and did not become ready in time (or failed).
    #[error("{reference} is not ready: {reason}{}", details(.diagnosis))]
    NotReady { reference: String, reason: String, diagnosis: Diagnosis },
    /// A deleted object was still there at the deadline.
    #[error("timed out waiting for {}/{} to be deleted", .0.kind, .0.name)]
    NotDeleted(ObjectKey),
    /// The API server refused one of the chart's CRDs.
    #[error("failed to install CRD {origin}: {source}")]
    CrdRejected {
        origin: super::crd::Origin,
        #[source]
        source: Box<KubeError>,
    },
    #[error("CustomResourceDefinition {0} is not established after 1m")]
    CrdNotEstablished(String),
    /// Established, but discovery did not serve its kind in time.
    #[error("CustomResourceDefinition {name} is established, but the API server does not serve its kind {kind} in {api_version} after 1m")]
    CrdNotServed { name: String, api_version: String, kind: String },
    /// The cluster failed us.
    #[error(transparent)]
    Kube(#[from] KubeError),
    /// Helm's release storage failed us.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// `--rollback-on-failure` could not read the history to recover from
    /// `original` (the failed install's or upgrade's error).
    #[error(
        "an error occurred while finding last successful release. original {} error: {original}: {source}",
        failed_verb(.operation)
    )]
    HistoryUnread {
        operation: Operation,
        original: Box<Error>,
        #[source]
        source: Box<StorageError>,
    },
    /// `--rollback-on-failure` of an upgrade found no revision to go back to.
    #[error(
        "unable to find a previously successful release when attempting to rollback. original upgrade error: \
         {0}"
    )]
    NoRollbackTarget(#[source] Box<Error>),
    /// An uninstall that went on past its failures, as Helm's does: the
    /// release is removed, and what failed on the way (the wait for
    /// deletions, post-delete hooks, the record) is kept, in order.
    #[error("uninstallation completed with {} error(s): {}", .0.len(), joined(.0))]
    Incomplete(Vec<Error>),
    /// `--rollback-on-failure` undid the failed operation (`recovery`:
    /// an uninstall or a rollback); `original` is why it failed.
    #[error(
        "release {release} failed, and has been {} due to rollback-on-failure being set: {original}",
        .recovery.past_tense()
    )]
    Recovered {
        release: String,
        recovery: Operation,
        #[source]
        original: Box<Error>,
    },
    /// `--rollback-on-failure`'s uninstall or rollback failed too.
    #[error(
        "an error occurred while {} the release. original {} error: {original}: {source}",
        doing(.recovery),
        undone(.recovery)
    )]
    RecoveryFailed {
        recovery: Operation,
        original: Box<Error>,
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// `Ok` when nothing failed; otherwise Helm's count of what did.
    pub(super) fn incomplete(errors: Vec<Error>) -> Result<(), Error> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Error::Incomplete(errors))
        }
    }

    /// The cluster failed us (exit 3), rather than the release (exit 1).
    pub fn is_cluster(&self) -> bool {
        match self {
            Error::Incomplete(errors) => errors.iter().any(Error::is_cluster),
            Error::HookCluster(_) | Error::Kube(_) | Error::Storage(_) | Error::HistoryUnread { .. } => true,
            Error::RecoveryFailed { source, .. } => source.is_cluster(),
            Error::Locked(_)
            | Error::Hooks { .. }
            | Error::NotApplied { .. }
            | Error::NotReady { .. }
            | Error::NotDeleted(_)
            | Error::CrdRejected { .. }
            | Error::CrdNotEstablished(_)
            | Error::CrdNotServed { .. }
            | Error::NoRollbackTarget(_)
            | Error::Recovered { .. } => false,
        }
    }
}

/// One failed hook: its reference and why (empty when it says nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookFailure {
    pub reference: String,
    pub message: String,
}

/// Helm's `joinErrors(errs, "; ")`.
fn joined(errors: &[Error]) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

fn hook_list(failed: &[HookFailure]) -> String {
    let each = |h: &HookFailure| match h.message.as_str() {
        "" => h.reference.clone(),
        m => format!("{}: {m}", h.reference),
    };
    failed.iter().map(each).collect::<Vec<_>>().join("; ")
}

/// What the cluster shows of a resource that is not ready: its pods' states
/// and warning events (`deploy::stuck`), and its pods' output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnosis {
    pub explanation: Vec<String>,
    /// The pods' logs as a block (`exec::runner::output_block`), when they have any.
    pub output: Option<String>,
}

fn details(d: &Diagnosis) -> String {
    let mut text = String::new();
    for line in &d.explanation {
        text.push_str("\n  ");
        text.push_str(line);
    }
    if let Some(output) = &d.output {
        text.push('\n');
        text.push_str(output);
    }
    text
}

/// Helm's name for the operation a recovery undoes, in its messages.
fn failed_verb(operation: &Operation) -> &'static str {
    match operation {
        Operation::Install => "install",
        _ => "upgrade",
    }
}

fn doing(recovery: &Operation) -> &'static str {
    match recovery {
        Operation::Uninstall => "uninstalling",
        _ => "rolling back",
    }
}

/// What a recovery undoes: an uninstall undoes an install, a rollback an upgrade.
fn undone(recovery: &Operation) -> &'static str {
    match recovery {
        Operation::Uninstall => "install",
        _ => "upgrade",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recovery_keeps_the_original_error_as_its_cause() {
        let original = Error::NotDeleted(ObjectKey::new("v1", "ConfigMap", None, "c"));
        let e = Error::Recovered {
            release: "app".into(),
            recovery: Operation::Rollback { to: 1 },
            original: Box::new(original.clone()),
        };
        assert_eq!(
            e.to_string(),
            "release app failed, and has been rolled back due to rollback-on-failure being set: timed out waiting \
             for ConfigMap/c to be deleted"
        );
        assert_eq!(std::error::Error::source(&e).map(|s| s.to_string()), Some(original.to_string()));
        assert!(!e.is_cluster());
        let failed = Error::RecoveryFailed {
            recovery: Operation::Uninstall,
            original: Box::new(original),
            source: Box::new(Error::HookCluster(ClusterError::Api("the API server went away".into()))),
        };
        assert!(failed.is_cluster());
        assert!(failed.to_string().starts_with("an error occurred while uninstalling the release. original install"));
    }

    #[test]
    fn a_resource_not_ready_shows_what_the_cluster_says_of_it() {
        let e = Error::NotReady {
            reference: "Deployment/db".into(),
            reason: "0/1 replicas available".into(),
            diagnosis: Diagnosis {
                explanation: vec!["Pod/db-1 (Pending): not scheduled".into()],
                output: Some("Pod db-1 output:\n  boom".into()),
            },
        };
        assert_eq!(
            e.to_string(),
            "Deployment/db is not ready: 0/1 replicas available\n  Pod/db-1 (Pending): not scheduled\nPod db-1 \
             output:\n  boom"
        );
        let hooks = Error::Hooks {
            event: Event::PreInstall,
            failed: vec![
                HookFailure { reference: "Job/a".into(), message: "BackoffLimitExceeded".into() },
                HookFailure { reference: "Job/b".into(), message: String::new() },
            ],
        };
        assert_eq!(hooks.to_string(), "pre-install hook(s) failed: Job/a: BackoffLimitExceeded; Job/b");
    }
}
