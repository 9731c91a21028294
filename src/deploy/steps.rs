//! The steps install, upgrade, rollback and uninstall share: one event's
//! hooks run (the `run` executor, through the seam), and resources deleted
//! in reverse plan order, each batch gone before the next.

use crate::exec::executor::{self, Millis};
use crate::exec::progress::Elapsed;
use crate::exec::rollout::deletion_batches;
use crate::exec::runner::RunEnd;
use crate::kube::ObjectKey;
use crate::model::event::Event;
use crate::model::input::Release;
use crate::model::reference::ObjectRef;
use crate::plan::{EventPlan, Target};
use crate::release::storage::StoredRelease;

use super::checked::{event_plan, Checked};
use super::error::{Error, HookFailure};
use super::options::DeployOptions;
use super::progress::{DeployEvent, Hooks, Keep, Progress};
use super::removed::kept;
use super::report::{Deletion, Report};
use crate::seam::{Clock, Cluster, Env, Recording};

/// Runs one event's hooks of the stored revision; `Err` is the failure.
pub(super) fn run_hooks(
    env: &mut (impl Env + ?Sized),
    stored: &mut StoredRelease,
    checked: &Checked,
    event: Event,
    options: &DeployOptions,
    progress: &mut dyn Progress,
    report: &mut Report,
) -> Result<(), Error> {
    let plan = event_plan(&checked.plan, Target::Hooks(event));
    if plan.items.is_empty() {
        return Ok(());
    }
    let _span = crate::trace::span(|| format!("{event} hooks"));
    let n = plan.items.len();
    progress.event(&DeployEvent::RunningHooks { event, count: n });
    let exec_options = executor::RunOptions {
        parallel: options.parallel,
        timeout_ms: options.timeout_ms,
        ignore_fail_fast: options.ignore_fail_fast,
        pod_logs: false,
        record_before_cleanup: false,
    };
    let summary = crate::seam::run_hooks(
        env,
        (plan, &checked.release.hooks),
        stored,
        exec_options,
        Recording::CallerStoresLast,
        &mut Hooks(progress),
        Some(report.started_at),
    );
    report.hooks.push(summary.clone());
    if let Some(e) = summary.error {
        // The outcome is ClusterError exactly when the run says why.
        return Err(Error::HookCluster(e));
    }
    match summary.outcome {
        // ClusterError returned above, with its cause.
        RunEnd::Succeeded | RunEnd::ClusterError => Ok(()),
        RunEnd::Failed => {
            let failed = summary
                .rows
                .iter()
                .filter(|r| r.phase == executor::Phase::Failed)
                .map(|r| HookFailure { reference: r.reference.clone(), message: r.message.clone() })
                .collect();
            Err(Error::Hooks { event, failed })
        }
    }
}

/// Deletes `items` of `plan` (resources of `release`) in reverse plan order,
/// each batch gone before the next (once the deadline has passed, the rest
/// are deleted without waiting); resources marked `keep` stay.
pub(super) fn delete_in_order(
    env: &mut (impl Cluster + Clock + ?Sized),
    release: &Release,
    plan: &EventPlan,
    wanted: &dyn Fn(usize) -> bool,
    deadline: Millis,
    progress: &mut dyn Progress,
    report: &mut Report,
) -> Result<Deleted, Error> {
    // One clock for the command's lines (`uninstall`'s had none).
    let since = report.started_at;
    let mut done = Deleted { names: Vec::new(), left: None };
    for batch in deletion_batches(plan) {
        let mut keys = Vec::new();
        for i in batch {
            let r = &release.resources[plan.items[i].index];
            if !wanted(plan.items[i].index) {
                continue;
            }
            let reference = &plan.items[i].reference;
            if kept(r) {
                let at = Elapsed::since(since, env.now_ms());
                progress.event(&DeployEvent::Kept { resource: reference, why: Keep::Policy, at });
                continue;
            }
            keys.push((reference.clone(), r.head.key()));
        }
        if keys.is_empty() {
            continue;
        }
        let (refs, only): (Vec<ObjectRef>, Vec<ObjectKey>) = keys.into_iter().unzip();
        let names: Vec<String> = refs.iter().map(ToString::to_string).collect();
        let started_at = env.now_ms();
        progress.event(&DeployEvent::Deleting { resources: &refs, at: Elapsed::since(since, started_at) });
        let left = env.delete_and_wait(&only, deadline)?;
        let ended_at = env.now_ms();
        report.deletions.push(Deletion { resources: names.clone(), started_at, ended_at });
        if let Some(k) = left.into_iter().next() {
            // Helm deletes everything, then waits once: a batch still there
            // at the deadline is that wait's one error, and the rest is
            // deleted all the same.
            done.left.get_or_insert(k);
            continue;
        }
        progress.event(&DeployEvent::Deleted { resources: &refs, at: Elapsed::since(since, ended_at) });
        done.names.extend(names);
    }
    Ok(done)
}

/// What [`delete_in_order`] deleted, and the first object still there at
/// the deadline (Helm's failed wait for deletions).
pub(super) struct Deleted {
    pub(super) names: Vec<String>,
    pub(super) left: Option<ObjectKey>,
}
