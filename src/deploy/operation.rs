//! One revision deployed: install, upgrade and rollback are one operation
//! over the seam, as Helm's `performInstall`, `performUpgrade` and
//! `performRollback` are one shape — the revision stored `pending-*`
//! (`begin`), the pre-hooks, the batches, what the replaced revision had
//! and this one has not deleted, the post-hooks (`act`), then the record
//! `deployed` (the replaced ones `superseded`) or `failed` (`finish`).

use serde_json::Value;

use crate::exec::executor::Millis;
use crate::exec::rollout;
use crate::model::input::Release;
use crate::plan::{EventPlan, Target};
use crate::release::record::{self, Operation};
use crate::release::release_status::ReleaseStatus;
use crate::release::storage::{StorageError, StoredRelease};

use super::apply;
use super::checked::{event_plan, Checked};
use super::error::Error;
use super::options::DeployOptions;
use super::progress::{DeployEvent, Progress};
use super::report::{Ended, Report};
use super::steps::{delete_in_order, run_hooks};
use crate::seam::{Clock, Cluster, Env, Store};

/// What one operation deploys, over what.
struct Deploying<'a> {
    checked: &'a Checked,
    operation: Operation,
    /// The stored revision it replaces, if any.
    current: Option<&'a StoredRelease>,
    revision: u64,
    /// The release's resources, planned.
    resources: &'a EventPlan,
    options: &'a DeployOptions,
}

/// Install, upgrade or roll back to `checked` as revision `revision`, on
/// top of `current` (the revision it replaces, if any), in `env` (the
/// cluster, the release store and the clock: [`seam`]).
pub fn deploy(
    env: &mut (impl Env + ?Sized),
    mut checked: Checked,
    operation: Operation,
    current: Option<StoredRelease>,
    revision: u64,
    options: &DeployOptions,
    progress: &mut dyn Progress,
) -> Report {
    let started_at = env.now_ms();
    let requests_before = env.about().requests;
    let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let namespace = env.about().namespace.to_string();
    let mut report = Report::new(operation, &name, &namespace, revision, started_at);
    if matches!(operation, Operation::Install | Operation::Upgrade) {
        let notes = checked.value.pointer("/info/notes").and_then(Value::as_str).unwrap_or_default();
        report.notes = notes.trim_end().to_string();
    }
    let value = std::mem::take(&mut checked.value);
    let resources = event_plan(&checked.plan, Target::Install);
    let d = Deploying { checked: &checked, operation, current: current.as_ref(), revision, resources, options };
    let mut stored = match begin(env, &d, value, started_at) {
        Ok(s) => s,
        Err(e) => {
            report.ended = Ended::Failed(e);
            return report;
        }
    };
    progress.event(&DeployEvent::Started {
        release: &name,
        namespace: &namespace,
        operation,
        revision,
        resources,
        parallel_resources: options.parallel_resources,
    });
    let result = act(env, &d, &mut stored, progress, &mut report);
    finish(env, &d, &mut stored, result, &mut report);
    report.ended_at = env.now_ms();
    let requests = env.about().requests;
    report.api_requests = requests.0 - requests_before.0;
    report.api_requests_repeated = requests.1 - requests_before.1;
    report
}

/// Stores the new revision `pending-*` (`value`, the release Helm rendered).
fn begin(
    store: &mut (impl Store + Cluster + ?Sized),
    d: &Deploying<'_>,
    mut value: Value,
    started_at: Millis,
) -> Result<StoredRelease, Error> {
    let first_deployed = d.current.and_then(|c| record::first_deployed(&c.release));
    record::begin(&mut value, d.operation, d.revision, first_deployed, started_at);
    let namespace = store.about().namespace.to_string();
    match crate::seam::create(store, &namespace, value, started_at / 1000) {
        Ok(s) => Ok(s),
        // Another command read the same history and stored this revision first (two
        // deploys at once): refused as Helm refuses a release being changed, before
        // anything of this one was applied: the create is the lock (docs/design.md §4).
        Err(e) if e.is_exists() => Err(Error::Locked(e)),
        Err(e) => Err(e.into()),
    }
}

/// Why an operation failed.
struct Failure {
    /// Boxed: an error is large, and this one travels by `?` through `act`.
    error: Box<Error>,
    /// A failing resource was refused by the API server rather than
    /// applied and not ready: Helm records the two apart.
    rejected: bool,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure { error: Box::new(error), rejected: false }
    }
}

/// The pre-hooks, the batches, the deletions, the post-hooks: the first
/// failure stops it.
fn act(
    env: &mut (impl Env + ?Sized),
    d: &Deploying<'_>,
    stored: &mut StoredRelease,
    progress: &mut dyn Progress,
    report: &mut Report,
) -> Result<(), Failure> {
    let (checked, options) = (d.checked, d.options);
    run_hooks(env, stored, checked, d.operation.pre_event(), options, progress, report)?;
    // HIP-0025: the deadline counts from after the pre-hooks.
    let deadline = env.now_ms() + options.timeout_ms;
    let resources = apply::Resources {
        plan: d.resources,
        resources: &checked.release.resources,
        release: &report.release,
        namespace: &report.namespace,
        complete_jobs: apply::complete_jobs(d.resources, options.wait_for_jobs),
        since: report.started_at,
    };
    let rollout = rollout::RolloutOptions {
        parallel: options.parallel_resources.unwrap_or(usize::MAX),
        readiness_timeout_ms: options.readiness_timeout_ms,
        deadline,
    };
    let outcome = apply::roll_out(env, resources, rollout, progress);
    report.resources = outcome.rows;
    let failed = outcome.cluster_error.map(Error::from).or(outcome.failure);
    if let Some(error) = failed {
        return Err(Failure { error: Box::new(error), rejected: outcome.rejected });
    }
    if let Some(current) = d.current {
        let namespace = report.namespace.clone();
        report.deleted = delete_removed(env, current, &checked.release, &namespace, deadline, progress, report)?;
    }
    run_hooks(env, stored, checked, d.operation.post_event(), options, progress, report).map_err(Failure::from)
}

/// The record after the operation: `deployed`, the revisions it replaces
/// `superseded`; or `failed` with Helm's description. Then stored.
fn finish(
    env: &mut (impl Env + ?Sized),
    d: &Deploying<'_>,
    stored: &mut StoredRelease,
    result: Result<(), Failure>,
    report: &mut Report,
) {
    let now_unix = env.now_ms() / 1000;
    let name = report.release.clone();
    match &result {
        Ok(()) => {
            if let Err(e) = supersede_replaced(env, d, &name, now_unix) {
                report.ended = Ended::Failed(e.into());
            }
            record::set_status(&mut stored.release, ReleaseStatus::Deployed, &d.operation.done_description());
        }
        Err(Failure { error, rejected }) => {
            // Helm's rollback: an apply the API server refused supersedes the
            // revision being replaced and says "Rollback failed"; a resource
            // that is not ready (a failed wait) is recorded as an install's.
            let rejected = *rejected;
            let e = error.to_string();
            let description = match d.operation {
                Operation::Rollback { .. } if !rejected => Operation::Install.failed_description(&name, &e),
                _ => d.operation.failed_description(&name, &e),
            };
            record::set_status(&mut stored.release, ReleaseStatus::Failed, &description);
            if let (Operation::Rollback { .. }, true, Some(cur)) = (d.operation, rejected, d.current) {
                let _ = supersede(env, cur.clone(), now_unix);
            }
        }
    }
    if let Err(e) = crate::seam::save(env, stored, now_unix) {
        if result.is_ok() {
            report.ended = Ended::Failed(e.into());
        }
    }
    report.status = stored.status().to_string();
    if let Err(f) = result {
        report.ended = Ended::Failed(*f.error);
    }
}

/// Every deployed revision becomes superseded (Helm: issue #2941), and an
/// upgrade supersedes the revision it replaced even when that one failed; a
/// rollback leaves a failed one failed (`pkg/action/rollback.go` supersedes
/// `DeployedAll` only). The last failure to store one is the error; a
/// history that cannot be read supersedes nothing.
fn supersede_replaced(
    env: &mut (impl Store + ?Sized),
    d: &Deploying<'_>,
    name: &str,
    now_unix: u64,
) -> Result<(), StorageError> {
    let (revision, current_revision) = (d.revision, d.current.map(|c| c.revision));
    let upgrade = matches!(d.operation, Operation::Upgrade);
    // Only those to supersede are read whole (a release with large CRDs takes
    // 0.2 s to decode under Helm's Wasm runtime); by their labels, as Helm finds them.
    let candidate = |rev: u64, status: Option<&str>| {
        rev != revision && (status.is_none_or(|s| s == "deployed") || (upgrade && Some(rev) == current_revision))
    };
    // Revision 1 has nothing to supersede: the history was empty, and any
    // other command's revision 1 would have made this one's create fail.
    let history = if revision == 1 { Ok(Vec::new()) } else { env.history(name, crate::seam::Pick::Where(&candidate)) };
    let Ok(history) = history else { return Ok(()) };
    let replaced = |h: &StoredRelease| {
        h.revision != revision
            && (h.status() == ReleaseStatus::Deployed || (upgrade && Some(h.revision) == current_revision))
    };
    let mut outcome = Ok(());
    for old in history.into_iter().filter(replaced) {
        if let Err(e) = supersede(env, old, now_unix) {
            outcome = Err(e);
        }
    }
    outcome
}

/// Marks a stored revision `superseded`, keeping its description.
fn supersede(store: &mut (impl Store + ?Sized), mut old: StoredRelease, now_unix: u64) -> Result<(), StorageError> {
    let description = old.release.pointer("/info/description").and_then(Value::as_str).unwrap_or_default().to_string();
    record::set_status(&mut old.release, ReleaseStatus::Superseded, &description);
    crate::seam::save(store, &mut old, now_unix)
}

/// Deletes what `current` had and `next` has not, in reverse order of
/// `current`'s plan.
fn delete_removed(
    env: &mut (impl Cluster + Clock + ?Sized),
    current: &StoredRelease,
    next: &Release,
    namespace: &str,
    deadline: Millis,
    progress: &mut dyn Progress,
    report: &mut Report,
) -> Result<Vec<String>, Error> {
    let Some((old, old_plan)) = super::removed::stored_plan(current) else { return Ok(Vec::new()) };
    let dropped = super::removed::dropped_by(next, namespace);
    let removed = |i: usize| dropped(&old.resources[i]);
    let deleted = delete_in_order(env, &old, &old_plan, &removed, deadline, progress, report)?;
    match deleted.left {
        Some(k) => Err(Error::NotDeleted(k)),
        None => Ok(deleted.names),
    }
}
