//! Sequenced install, upgrade, rollback and uninstall on stock Helm 4.
//!
//! Helm renders (`--dry-run=server -o json`); the plugin deploys what Helm
//! rendered, in the plan's order, and keeps the release record in Helm's
//! storage exactly as Helm's own actions would (`pkg/action`), so that
//! stock `helm list`, `status`, `history`, `get manifest`, `upgrade`,
//! `rollback` and `uninstall` treat the result as their own:
//!
//! 1. the new revision is stored `pending-*`;
//! 2. the pre-hooks run (the `run` executor);
//! 3. the resources roll out batch by batch ([`apply`]), each batch ready
//!    before the next;
//! 4. resources the previous revision had and this one has not are deleted
//!    in reverse plan order (upgrade, rollback);
//! 5. the post-hooks run;
//! 6. the revision becomes `deployed` and the one it replaces `superseded`
//!    — or, on any failure, it becomes `failed` and nothing later happens.

pub mod access;
pub mod action;
pub mod apply;
pub mod crd;
pub mod crds;
pub mod error;
pub mod external;
pub mod ownership;
pub mod policy;
pub mod preview;
pub mod seam;
pub mod stuck;

use std::io::Write;

use serde_json::Value;

use crate::base::time::{format_duration, stamp};
use crate::exec::executor::{self, Millis};
use crate::exec::rollout::{self, deletion_batches};
use crate::exec::run::{self as runner, Outcome as RunOutcome};
use crate::kube::ObjectKey;
use crate::model::annotation::RESOURCE_POLICY;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::{self, Release};
use crate::plan::{self, EventPlan, Plan, Target};
use crate::release::record::{self, Operation};
use crate::release::status::Status;
use crate::release::storage::StoredRelease;

pub use error::{Diagnosis, Error, HookFailure};
pub use policy::{choose, recover};
pub use seam::{Clock, Cluster, Env, Kube, Store};

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Most hooks running at once (`--parallel`).
    pub parallel: usize,
    pub parallel_all: bool,
    /// Most resources applied and not yet ready at once
    /// (`--parallel-resources`); `None`: a whole batch, as Helm.
    pub parallel_resources: Option<usize>,
    /// The whole operation's time, and each hook's wait (as Helm's --timeout).
    pub timeout_ms: Millis,
    pub readiness_timeout_ms: Millis,
    pub ignore_fail_fast: bool,
    /// `--wait-for-jobs`: every Job resource awaited until complete.
    pub wait_for_jobs: bool,
}

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
    pub resources: Vec<apply::ResourceRow>,
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
    fn new(operation: Operation, release: &str, namespace: &str, revision: u64, started_at: Millis) -> Report {
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

/// The parsed and checked release with its plans: everything is validated
/// before anything touches the cluster.
pub struct Checked {
    pub value: Value,
    pub release: Release,
    pub plan: Plan,
}

/// Parses a release JSON and plans `events` and the resources. `Err`
/// carries the diagnostics (exit 2).
pub fn check(value: Value, events: &[Event], options: &Options) -> Result<(Checked, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let release = match input::from_release_value(&value, &mut diags) {
        Ok(r) => r,
        Err(e) => {
            diags.push(crate::model::diagnostic::Diagnostic::error(Default::default(), e.to_string()));
            return Err(diags);
        }
    };
    let mut phases: Vec<Target> = events.iter().map(|&e| Target::Hooks(e)).collect();
    phases.push(Target::Install);
    let plan = plan::build(
        &release,
        &phases,
        plan::Options {
            parallel: options.parallel,
            parallel_all: options.parallel_all,
            parallel_resources: options.parallel_resources,
        },
        &mut diags,
    );
    if diags.has_errors() {
        return Err(diags);
    }
    let planned = plan.events.iter().filter(|e| matches!(e.target, Target::Hooks(_)));
    let hooks = planned.flat_map(|e| e.items.iter().map(|i| &release.hooks[i.index]));
    let mut seen = std::collections::BTreeSet::new();
    let hooks = hooks.filter(|h| seen.insert((h.source.as_str(), h.document)));
    diags.extend(crate::model::hook::timeouts_over(hooks, options.timeout_ms, "--timeout"));
    Ok((Checked { value, release, plan }, diags))
}

pub(crate) fn event_plan(plan: &Plan, phase: Target) -> &EventPlan {
    plan.events.iter().find(|e| e.target == phase).expect("every requested phase is planned")
}

/// The objects a release's manifest names, by API group, kind, namespace
/// and name (how Helm matches resources between revisions).
fn identity(r: &crate::model::resource::Resource, namespace: &str) -> (String, String, String, String) {
    let group = r.head.api_version.rsplit_once('/').map_or("", |(g, _)| g).to_string();
    let ns = r.head.namespace.clone().unwrap_or_else(|| namespace.to_string());
    (group, r.head.kind.clone(), ns, r.head.name.clone())
}

fn key_of(r: &crate::model::resource::Resource) -> ObjectKey {
    ObjectKey::new(&r.head.api_version, &r.head.kind, r.head.namespace.as_deref(), &r.head.name)
}

/// Runs one event's hooks of the stored revision; `Err` is the failure.
fn run_hooks(
    cluster: &mut (impl Cluster + ?Sized),
    stored: &mut StoredRelease,
    checked: &Checked,
    event: Event,
    options: &Options,
    out: &mut dyn Write,
    report: &mut Report,
) -> Result<(), Error> {
    let plan = event_plan(&checked.plan, Target::Hooks(event));
    if plan.items.is_empty() {
        return Ok(());
    }
    let _span = crate::trace::span(|| format!("{event} hooks"));
    let n = plan.items.len();
    let _ = writeln!(out, "Running {n} {event} hook{}", if n == 1 { "" } else { "s" });
    let exec_options = executor::Options {
        parallel: options.parallel,
        timeout_ms: options.timeout_ms,
        ignore_fail_fast: options.ignore_fail_fast,
        pod_logs: false,
        record_before_cleanup: false,
    };
    let summary = cluster.run_hooks(plan, &checked.release.hooks, stored, exec_options, out, report.started_at);
    report.hooks.push(summary.clone());
    if let Some(e) = summary.error {
        // The outcome is ClusterError exactly when the run says why.
        return Err(Error::HookCluster(e));
    }
    match summary.outcome {
        // ClusterError returned above, with its cause.
        RunOutcome::Succeeded | RunOutcome::ClusterError => Ok(()),
        RunOutcome::Failed => {
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

/// Whether Helm leaves `r` in place on uninstall and upgrade
/// (`helm.sh/resource-policy: keep`).
pub fn kept(r: &crate::model::resource::Resource) -> bool {
    r.head.annotations.get(RESOURCE_POLICY).is_some_and(|p| p.trim() == "keep")
}

/// Deletes `items` of `plan` (resources of `release`) in reverse plan order,
/// each batch gone before the next; resources marked `keep` stay.
fn delete_in_order(
    env: &mut (impl Cluster + Clock + ?Sized),
    release: &Release,
    plan: &EventPlan,
    wanted: &dyn Fn(usize) -> bool,
    deadline: Millis,
    out: &mut dyn Write,
    report: &mut Report,
) -> Result<Vec<String>, Error> {
    // One clock for the command's lines (`uninstall`'s had none).
    let since = report.started_at;
    let mut deleted = Vec::new();
    for batch in deletion_batches(plan) {
        let mut keys = Vec::new();
        for i in batch {
            let r = &release.resources[plan.items[i].index];
            if !wanted(plan.items[i].index) {
                continue;
            }
            if kept(r) {
                let at = stamp(since, env.now_ms());
                let _ = writeln!(out, "{at} kept      {} (helm.sh/resource-policy: keep)", plan.items[i].reference);
                continue;
            }
            keys.push((plan.items[i].reference.to_string(), key_of(r)));
        }
        if keys.is_empty() {
            continue;
        }
        let only: Vec<ObjectKey> = keys.iter().map(|(_, k)| k.clone()).collect();
        let names: Vec<String> = keys.into_iter().map(|(n, _)| n).collect();
        let started_at = env.now_ms();
        let _ = writeln!(out, "{} deleting  {}", stamp(since, started_at), names.join(", "));
        let left = env.delete_and_wait(&only, deadline)?;
        let ended_at = env.now_ms();
        report.deletions.push(Deletion { resources: names.clone(), started_at, ended_at });
        if let Some(k) = left.into_iter().next() {
            return Err(Error::NotDeleted(k));
        }
        let _ = writeln!(out, "{} deleted   {}", stamp(since, ended_at), names.join(", "));
        deleted.extend(names);
    }
    Ok(deleted)
}

/// The resources (by index) an uninstall may delete: those the release
/// owns, read one by one as Helm 4.3 reads them before deleting
/// (`ownership`), and Helm's words for the rest. Resources kept by
/// `helm.sh/resource-policy: keep` are not read: they stay anyway.
fn owned_resources(
    cluster: &mut (impl Cluster + Clock + ?Sized),
    release: &Release,
    plan: &EventPlan,
    (name, namespace): (&str, &str),
    out: &mut dyn Write,
    since: Millis,
) -> (std::collections::BTreeSet<usize>, String) {
    let mut owned = std::collections::BTreeSet::new();
    let mut kept = Vec::new();
    for item in &plan.items {
        let r = &release.resources[item.index];
        if self::kept(r) {
            continue;
        }
        match ownership::check(cluster, &key_of(r), name, namespace) {
            ownership::Ownership::Owned => {
                owned.insert(item.index);
            }
            ownership::Ownership::Gone => {}
            other => {
                let why = match &other {
                    ownership::Ownership::Unverifiable(e) => format!("its ownership could not be verified: {e}"),
                    _ => "not owned by this release".to_string(),
                };
                let _ = writeln!(out, "{} kept      {} ({why})", stamp(since, cluster.now_ms()), item.reference);
                kept.push((r.head.kind.clone(), r.head.name.clone(), other));
            }
        }
    }
    (owned, ownership::kept_text(&kept))
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
    options: &Options,
    out: &mut dyn Write,
) -> Report {
    let started_at = env.now_ms();
    let requests_before = env.requests();
    let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let namespace = env.namespace().to_string();
    let resources_plan = event_plan(&checked.plan, Target::Install).clone();
    let mut report = Report::new(operation, &name, &namespace, revision, started_at);

    if matches!(operation, Operation::Install | Operation::Upgrade) {
        let notes = checked.value.pointer("/info/notes").and_then(Value::as_str).unwrap_or_default();
        report.notes = notes.trim_end().to_string();
    }
    let mut value = std::mem::take(&mut checked.value);
    record::begin(
        &mut value,
        operation,
        revision,
        current.as_ref().and_then(|c| record::first_deployed(&c.release)),
        started_at,
    );
    let mut stored = match env.create(&namespace, value, started_at / 1000) {
        Ok(s) => s,
        // Another command read the same history and stored this revision first (two
        // deploys at once): refused as Helm refuses a release being changed, before
        // anything of this one was applied: the create is the lock (docs/design.md §4).
        Err(e) if e.is_exists() => {
            report.ended = Ended::Failed(Error::Locked(e));
            return report;
        }
        Err(e) => {
            report.ended = Ended::Failed(e.into());
            return report;
        }
    };
    let _ = writeln!(
        out,
        "Release {name:?} in namespace {namespace:?}: {}, revision {revision}, {} in {}, {}",
        operation.pending_status().as_str().trim_start_matches("pending-"),
        crate::base::text::count(resources_plan.items.len(), "resource"),
        crate::base::text::count(resources_plan.batches.len(), "batch"),
        match options.parallel_resources {
            None => "each batch applied at once".to_string(),
            Some(n) => format!("at most {n} resources waiting at once"),
        }
    );
    for note in &resources_plan.notes {
        let _ = out.write_all(crate::base::text::wrap(&format!("note: {note}"), "  ", "        ").as_bytes());
    }

    let mut rejected = false;
    let result = (|| -> Result<(), Error> {
        run_hooks(env, &mut stored, &checked, operation.pre_event(), options, out, &mut report)?;
        // HIP-0025: the deadline counts from after the pre-hooks.
        let deadline = env.now_ms() + options.timeout_ms;
        let resources = seam::Resources {
            plan: &resources_plan,
            resources: &checked.release.resources,
            release: &name,
            namespace: &namespace,
            complete_jobs: apply::complete_jobs(&resources_plan, options.wait_for_jobs),
            since: started_at,
        };
        let outcome = apply::roll_out(
            env,
            resources,
            rollout::Options {
                parallel: options.parallel_resources.unwrap_or(usize::MAX),
                readiness_timeout_ms: options.readiness_timeout_ms,
                deadline,
            },
            out,
        );
        report.resources = outcome.rows;
        rejected = outcome.rejected;
        if let Some(e) = outcome.cluster_error {
            return Err(e.into());
        }
        if let Some(f) = outcome.failure {
            return Err(f);
        }
        if let Some(current) = &current {
            let deleted = delete_removed(env, current, &checked.release, &namespace, deadline, out, &mut report)?;
            report.deleted = deleted;
        }
        run_hooks(env, &mut stored, &checked, operation.post_event(), options, out, &mut report)
    })();

    let now_unix = env.now_ms() / 1000;
    let current_revision = current.as_ref().map(|c| c.revision);
    match &result {
        Ok(()) => {
            // Every deployed revision becomes superseded (Helm: issue #2941),
            // and an upgrade supersedes the revision it replaced even when
            // that one failed; a rollback leaves a failed one failed
            // (`pkg/action/rollback.go` supersedes `DeployedAll` only).
            let upgrade = matches!(operation, Operation::Upgrade);
            // Only those to supersede are read whole (a release with large CRDs takes
            // 0.2 s to decode under Helm's Wasm runtime); by their labels, as Helm finds them.
            let candidate = |rev: u64, status: Option<&str>| {
                rev != revision
                    && (status.is_none_or(|s| s == "deployed") || (upgrade && Some(rev) == current_revision))
            };
            // Revision 1 has nothing to supersede: the history was empty, and any
            // other command's revision 1 would have made this one's create fail.
            let first = revision == 1;
            let history = if first { Ok(Vec::new()) } else { env.history_where(&name, &candidate) };
            if let Ok(history) = history {
                let replaced = |h: &StoredRelease| {
                    h.revision != revision
                        && (h.status() == Status::Deployed || (upgrade && Some(h.revision) == current_revision))
                };
                for old in history.into_iter().filter(replaced) {
                    if let Err(e) = supersede(env, old, now_unix) {
                        report.ended = Ended::Failed(e.into());
                    }
                }
            }
            record::set_status(&mut stored.release, Status::Deployed, &operation.done_description());
        }
        Err(e) => {
            // Helm's rollback: an apply the API server refused supersedes the
            // revision being replaced and says "Rollback failed"; a resource
            // that is not ready (a failed wait) is recorded as an install's.
            let e = e.to_string();
            let description = match operation {
                Operation::Rollback { .. } if !rejected => Operation::Install.failed_description(&name, &e),
                _ => operation.failed_description(&name, &e),
            };
            record::set_status(&mut stored.release, Status::Failed, &description);
            if let (Operation::Rollback { .. }, true, Some(cur)) = (operation, rejected, current) {
                let _ = supersede(env, cur, now_unix);
            }
        }
    }
    if let Err(e) = env.save(&mut stored, now_unix) {
        if matches!(result, Ok(())) {
            report.ended = Ended::Failed(e.into());
        }
    }
    report.status = stored.status().to_string();
    if let Err(e) = result {
        report.ended = Ended::Failed(e);
    }
    report.ended_at = env.now_ms();
    let requests = env.requests();
    report.api_requests = requests.0 - requests_before.0;
    report.api_requests_repeated = requests.1 - requests_before.1;
    report
}

/// Marks a stored revision `superseded`, keeping its description.
fn supersede(
    store: &mut (impl Store + ?Sized),
    mut old: StoredRelease,
    now_unix: u64,
) -> Result<(), crate::release::storage::StorageError> {
    let description = old.release.pointer("/info/description").and_then(Value::as_str).unwrap_or_default().to_string();
    record::set_status(&mut old.release, Status::Superseded, &description);
    store.save(&mut old, now_unix)
}

/// Deletes what `current` had and `next` has not, in reverse order of
/// `current`'s plan.
fn delete_removed(
    env: &mut (impl Cluster + Clock + ?Sized),
    current: &StoredRelease,
    next: &Release,
    namespace: &str,
    deadline: Millis,
    out: &mut dyn Write,
    report: &mut Report,
) -> Result<Vec<String>, Error> {
    let mut diags = Diagnostics::default();
    let Ok(old) = input::from_release_value(&current.release, &mut diags) else { return Ok(Vec::new()) };
    let old_plan = plan::build(&old, &[Target::Install], plan::Options::default(), &mut diags);
    let Some(old_plan) = old_plan.events.into_iter().next() else { return Ok(Vec::new()) };
    let keep: std::collections::BTreeSet<_> = next.resources.iter().map(|r| identity(r, namespace)).collect();
    let removed = |i: usize| !keep.contains(&identity(&old.resources[i], namespace));
    delete_in_order(env, &old, &old_plan, &removed, deadline, out, report)
}

/// What `current` had and `next` has not, in deletion order, with their plan
/// references: what an upgrade or rollback deletes.
pub fn removed(
    current: &StoredRelease,
    next: &Release,
    namespace: &str,
) -> Vec<(String, crate::model::resource::Resource)> {
    let mut diags = Diagnostics::default();
    let Ok(old) = input::from_release_value(&current.release, &mut diags) else { return Vec::new() };
    let old_plan = plan::build(&old, &[Target::Install], plan::Options::default(), &mut diags);
    let Some(old_plan) = old_plan.events.into_iter().next() else { return Vec::new() };
    let keep: std::collections::BTreeSet<_> = next.resources.iter().map(|r| identity(r, namespace)).collect();
    deletion_batches(&old_plan)
        .into_iter()
        .flatten()
        .map(|i| (old_plan.items[i].reference.to_string(), &old.resources[old_plan.items[i].index]))
        .filter(|(_, r)| !keep.contains(&identity(r, namespace)))
        .map(|(reference, r)| (reference, r.clone()))
        .collect()
}

/// The references of [`removed`] (for `deploy --dry-run`).
pub fn removed_refs(current: &StoredRelease, next: &Release, namespace: &str) -> Vec<String> {
    removed(current, next, namespace).into_iter().map(|(reference, _)| reference).collect()
}

/// `helm hooks uninstall`: pre-delete hooks, the resources in reverse plan
/// order (each batch gone before the next), post-delete hooks, then the
/// record removed — or kept as `uninstalled` with `keep_history`.
pub fn uninstall(
    env: &mut (impl Env + ?Sized),
    mut latest: StoredRelease,
    history: Vec<StoredRelease>,
    checked: &Checked,
    options: &Options,
    keep_history: bool,
    out: &mut dyn Write,
) -> Report {
    let started_at = env.now_ms();
    let requests_before = env.requests();
    let plan = event_plan(&checked.plan, Target::Install).clone();
    let operation = Operation::Uninstall;
    let mut report = Report::new(operation, &latest.name, &latest.namespace, latest.revision, started_at);
    record::set_status(&mut latest.release, operation.pending_status(), &operation.pending_description());
    let result = (|| -> Result<(), Error> {
        let now_unix = env.now_ms() / 1000;
        env.save(&mut latest, now_unix)?;
        run_hooks(env, &mut latest, checked, Event::PreDelete, options, out, &mut report)?;
        let (owned, not_deleted) =
            owned_resources(env, &checked.release, &plan, (&latest.name, &latest.namespace), out, started_at);
        report.not_deleted = not_deleted;
        let deadline = env.now_ms() + options.timeout_ms;
        let deleted =
            delete_in_order(env, &checked.release, &plan, &|i| owned.contains(&i), deadline, out, &mut report)?;
        report.deleted = deleted;
        run_hooks(env, &mut latest, checked, Event::PostDelete, options, out, &mut report)?;
        let now = env.now_ms();
        record::uninstalled(&mut latest.release, now);
        if keep_history {
            let now_unix = env.now_ms() / 1000;
            env.save(&mut latest, now_unix)?;
        } else {
            for h in &history {
                env.delete(h)?;
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => report.status = if keep_history { "uninstalled".into() } else { "deleted".into() },
        Err(e) => {
            // Helm leaves a failed uninstall `uninstalling`... then failed.
            let description = operation.failed_description(&latest.name, &e.to_string());
            record::set_status(&mut latest.release, Status::Failed, &description);
            let now_unix = env.now_ms() / 1000;
            let _ = env.save(&mut latest, now_unix);
            report.status = "failed".into();
            report.ended = Ended::Failed(e);
        }
    }
    report.ended_at = env.now_ms();
    let requests = env.requests();
    report.api_requests = requests.0 - requests_before.0;
    report.api_requests_repeated = requests.1 - requests_before.1;
    report
}

/// The resources, their batches, states and times.
pub fn resources_table(r: &Report) -> String {
    let mut rows: Vec<Vec<String>> =
        vec![vec!["BATCH".into(), "RESOURCE".into(), "STATE".into(), "APPLIED".into(), "READY AFTER".into()]];
    for row in &r.resources {
        rows.push(vec![
            row.batch.to_string(),
            row.reference.clone(),
            format!("{:?}", row.state),
            row.applied_at.map_or("-".into(), |t| format!("+{}", format_duration((t - r.started_at) / 100 * 100))),
            match (row.applied_at, row.ready_at) {
                (Some(a), Some(b)) => format_duration((b - a) / 100 * 100),
                _ => "-".into(),
            },
        ]);
    }
    if r.resources.is_empty() {
        String::new()
    } else {
        crate::base::text::table(&rows, "")
    }
}
