//! The deploy driver (`deploy::deploy`, `uninstall`, `recover`, the rollout
//! loop of `deploy::apply` and the commands of `action::deploy`, `rollback`
//! and `uninstall`) in the one simulated world (`seam::sim`), as `run_sim.rs` drives `run`: the
//! simulation answers the seam's steps (apply, read, wait for change,
//! delete) the way the test scripts it, instantly in real time, and the
//! drivers' own code decides everything from those answers — the hooks too,
//! run through the real hook code (`seam::run_hooks`), their Job applied,
//! awaited and deleted by its policy. Checks the order of the
//! batches, hooks and deletions, a readiness failure and a readiness timeout,
//! a failing hook, `--rollback-on-failure` (an install uninstalled, an
//! upgrade rolled back), an uninstall keeping its history, an ownership read
//! that fails, an interrupt between batches, a record another command stored
//! first, a permission missing before anything is done, and an external
//! dependency awaited (`helm.sh/depends-on-external`), met or never met.

use helm_hooks::action::deploy::{DeployOutcome, DeployRequest};
use helm_hooks::action::rollback::{RollbackOutcome, RollbackRequest};
use helm_hooks::action::uninstall::UninstallRequest;
use helm_hooks::action::{Action, Stop};
use helm_hooks::base::time::Millis;
use helm_hooks::deploy::command::Refused;
use helm_hooks::deploy::crd::Crd;
use helm_hooks::deploy::options::Flags;
use helm_hooks::deploy::{self, DeployOptions, Ended, Error, Report};
use helm_hooks::exec::rollout::ResourceState;
use helm_hooks::kube::KubeError;
use helm_hooks::model::event::Event;
use helm_hooks::release::record::Operation;
use helm_hooks::release::storage::{Elsewhere, StorageError, StoredRelease};
use helm_hooks::render::progress_lines::ProgressLines;
use helm_hooks::seam::sim::{Script, Sim};
use helm_hooks::seam::{history, Want};
use serde_json::{json, Value};

const NS: &str = "ns";
const T0: Millis = 1_700_000_000_000;
/// How long a Deployment takes to become ready once applied.
const STARTUP_MS: Millis = 1_000;
/// How long one call that applies objects takes.
const APPLY_MS: Millis = 10;
/// How long the hook's Job runs.
const HOOK_MS: Millis = 500;
/// What a hook whose Job failed says, as the hook code reads the Job.
const JOB_FAILED: &str =
    "BackoffLimitExceeded: Job Failed. failed: 1/1 (BackoffLimitExceeded: Job has reached the specified backoff limit)";

/// The one simulation, as the deploys here see it: applies take
/// `APPLY_MS`, a deletion 100 ms, a Deployment is ready `STARTUP_MS` after
/// its apply, and the release's hook, Job/migrate, completes `HOOK_MS`
/// after its own.
fn world() -> Sim {
    let mut sim = Sim::new(NS, T0);
    (sim.apply_ms, sim.delete_ms, sim.startup_ms) = (APPLY_MS, 100, STARTUP_MS);
    sim.scripts.insert("Job/migrate".into(), Script { ends_after_ms: Some(HOOK_MS), ..Script::default() });
    sim
}

/// The Deployment `name` never becomes ready.
fn never_ready(sim: &mut Sim, name: &str) {
    sim.scripts.insert(format!("Deployment/{name}"), Script { ends_after_ms: None, ..Script::default() });
}

fn options() -> DeployOptions {
    DeployOptions {
        parallel: 1,
        parallel_all: false,
        parallel_resources: None,
        timeout_ms: 300_000,
        readiness_timeout_ms: 60_000,
        ignore_fail_fast: false,
        wait_for_jobs: false,
    }
}

fn doc(path: &str, kind: &str, name: &str, annotations: &[(&str, &str)]) -> String {
    let api = if kind == "ConfigMap" { "v1" } else { "apps/v1" };
    let mut s =
        format!("---\n# Source: app/templates/{path}\napiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name}\n");
    if !annotations.is_empty() {
        s.push_str("  annotations:\n");
        for (k, v) in annotations {
            s.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
        }
    }
    s
}

/// Version 1: the database (its ConfigMap and Deployment) in one batch, the
/// web Deployment after it, and a ConfigMap version 2 drops. Version 2 adds
/// a worker after the database.
fn release(version: u32) -> Value {
    let db = [("helm.sh/resource-group", "db")];
    let after_db = [("helm.sh/depends-on/resource-groups", "[\"db\"]")];
    let mut manifest = doc("db-config.yaml", "ConfigMap", "db-config", &db);
    manifest += &doc("db.yaml", "Deployment", "db", &db);
    manifest += &doc("web.yaml", "Deployment", "web", &after_db);
    if version == 1 {
        manifest += &doc("legacy.yaml", "ConfigMap", "legacy", &[]);
    } else {
        manifest += &doc("worker.yaml", "Deployment", "worker", &after_db);
    }
    let hook = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    \
                helm.sh/hook: pre-install,pre-upgrade,pre-rollback,post-install,post-upgrade,post-rollback,\
                pre-delete\n";
    json!({
        "name": "app",
        "namespace": NS,
        "chart": {"metadata": {"name": "app", "version": format!("{version}.0.0")}},
        "manifest": manifest,
        "hooks": [{"path": "app/templates/migrate.yaml", "manifest": hook}],
        "info": {},
    })
}

const DEPLOY_EVENTS: [Event; 4] = [Event::PreInstall, Event::PostInstall, Event::PreUpgrade, Event::PostUpgrade];

/// `helm hooks deploy` of `value` on top of what `sim` stores, with
/// `--rollback-on-failure` when `rollback`.
fn deploy(sim: &mut Sim, value: Value, rollback: bool) -> Report {
    deploy_printing(sim, value, rollback).0
}

/// [`deploy`], with the progress it printed.
fn deploy_printing(sim: &mut Sim, value: Value, rollback: bool) -> (Report, String) {
    let history = history(sim, "app").unwrap();
    let (operation, current, revision) = deploy::choose(&history);
    deploy_as(sim, value, operation, current, revision, rollback)
}

fn deploy_as(
    sim: &mut Sim,
    value: Value,
    operation: Operation,
    current: Option<StoredRelease>,
    revision: u64,
    rollback: bool,
) -> (Report, String) {
    let (checked, _) = deploy::check(value, &DEPLOY_EVENTS, &options()).unwrap();
    let mut out = Vec::new();
    let mut progress = ProgressLines::new(&mut out);
    let mut report = deploy::deploy(sim, checked, operation, current, revision, &options(), &mut progress);
    if rollback {
        deploy::recover(sim, &mut report, operation, &options(), &mut progress);
    }
    (report, String::from_utf8(out).unwrap())
}

/// `helm hooks uninstall app`, with `--keep-history` when `keep_history`.
fn uninstall(sim: &mut Sim, keep_history: bool) -> Report {
    uninstall_printing(sim, keep_history).0
}

/// [`uninstall`], with the progress it printed.
fn uninstall_printing(sim: &mut Sim, keep_history: bool) -> (Report, String) {
    let history = history(sim, "app").unwrap();
    let latest = history.last().cloned().unwrap();
    let (checked, _) =
        deploy::check(latest.release.clone(), &[Event::PreDelete, Event::PostDelete], &options()).unwrap();
    let mut out = Vec::new();
    let r = deploy::teardown::perform(
        sim,
        latest,
        history,
        &checked,
        &options(),
        keep_history,
        &mut ProgressLines::new(&mut out),
    );
    (r, String::from_utf8(out).unwrap())
}

/// The times of a command's progress lines (`[   2.1s] …`), in order; the
/// lines without one are the headings (`Release …`, `Running 2 pre-install hooks`).
fn stamps(out: &str) -> Vec<(Millis, String)> {
    out.lines()
        .filter_map(|l| {
            let (t, rest) = l.strip_prefix('[')?.split_once(']')?;
            Some((helm_hooks::base::time::parse_duration(t.trim()).unwrap_or(0), rest.trim().to_string()))
        })
        .collect()
}

/// One clock for the whole command (issue 32): the hooks' lines, the
/// batches' and the deletions' count from the command's start, as its table
/// does, never from 0 again; uninstall's lines have their times too; the
/// hooks are announced as `Running 1 pre-install hook`.
#[test]
fn one_clock_for_the_whole_command() {
    let mut sim = world();
    let (r, out) = deploy_printing(&mut sim, release(1), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    let times = stamps(&out);
    assert!(times.windows(2).all(|w| w[0].0 <= w[1].0), "the clock went back:\n{out}");
    // The post-install hook: the last to start.
    let post = times.iter().rev().find(|(_, l)| l == "started   Job/migrate").expect(&out);
    // After the pre-hooks' half second and the batches: not 0 again.
    assert!(post.0 > 500 && post.0 < r.ended_at - r.started_at, "{out}");
    assert!(out.contains("Running 1 pre-install hook\n"), "{out}");
    let (_, out) = uninstall_printing(&mut sim, false);
    let times = stamps(&out);
    assert!(times.iter().any(|(_, l)| l.starts_with("deleting  ")), "{out}");
    assert!(times.iter().any(|(_, l)| l.starts_with("deleted   ")), "{out}");
    assert!(
        out.lines().all(|l| l.starts_with('[') || l.starts_with("Running ") || l.starts_with("Release ")),
        "every line of the uninstall but its headings has its time:\n{out}"
    );
    assert!(times.windows(2).all(|w| w[0].0 <= w[1].0), "the clock went back:\n{out}");
}

fn states(r: &Report) -> Vec<(String, ResourceState)> {
    r.resources.iter().map(|row| (row.reference.clone(), row.state)).collect()
}

fn failure(r: &Report) -> &Error {
    match &r.ended {
        Ended::Failed(e) => e,
        Ended::Done => panic!("{r:?} did not fail"),
    }
}

#[test]
fn an_install_runs_its_batches_in_order_between_its_hooks_and_stores_the_release_deployed() {
    let mut sim = world();
    let r = deploy(&mut sim, release(1), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Install, 1, "deployed"));
    assert_eq!(
        sim.log,
        [
            "create 1 pending-install",
            // The pre-install hook, run by the real hook code: the record
            // stored as it starts, its Job applied and awaited to its end.
            "save 1 pending-install",
            "apply Job/migrate",
            "complete Job/migrate",
            // Batch 1: the db group, applied in Helm's kind order (one object at
            // a time: a transport that sends one request at a time); batch 2
            // (what depends on it, and what no group orders) once it is ready.
            "apply ConfigMap/db-config",
            "apply Deployment/db",
            "ready Deployment/db",
            "apply ConfigMap/legacy",
            "apply Deployment/web",
            "ready Deployment/web",
            // The post-install hook: the last run's Job deleted first
            // (before-hook-creation, Helm's default policy).
            "delete Job/migrate",
            "save 1 pending-install",
            "apply Job/migrate",
            "complete Job/migrate",
            "save 1 deployed",
        ],
    );
    assert_eq!(sim.statuses(), [(1, "deployed".into())]);
    assert_eq!((r.started_at, r.ended_at > r.started_at), (T0, true));
    // The times the driver read off the simulated clock: the ConfigMap ready as
    // applied, the Deployment once the simulation made it so.
    let db = r.resources.iter().find(|row| row.reference == "Deployment/db").unwrap();
    assert_eq!(db.ready_at.unwrap() - db.applied_at.unwrap(), STARTUP_MS);
    let config = r.resources.iter().find(|row| row.reference == "ConfigMap/db-config").unwrap();
    assert_eq!(config.ready_at, config.applied_at);
}

#[test]
fn a_transport_that_sends_at_once_gets_each_batch_one_kind_at_a_time() {
    let mut sim = world();
    sim.at_once = true;
    // Two ConfigMaps in batch 1 go in one call; the Deployment in the next.
    let mut value = release(1);
    let extra = doc("db-extra.yaml", "ConfigMap", "db-extra", &[("helm.sh/resource-group", "db")]);
    value["manifest"] = json!(value["manifest"].as_str().unwrap().to_string() + &extra);
    let r = deploy(&mut sim, value, false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!(
        sim.only(&["apply"]),
        [
            "apply Job/migrate",
            "apply ConfigMap/db-config, ConfigMap/db-extra",
            "apply Deployment/db",
            "apply ConfigMap/legacy",
            "apply Deployment/web",
            "apply Job/migrate"
        ]
    );
}

#[test]
fn an_upgrade_deletes_what_the_new_version_drops_after_its_rollout_and_supersedes_the_old_revision() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision), (Operation::Upgrade, 2));
    assert_eq!(
        sim.only(&["apply Job", "complete Job", "delete", "save", "create"]),
        [
            "create 2 pending-upgrade",
            "delete Job/migrate",
            "save 2 pending-upgrade",
            "apply Job/migrate",
            "complete Job/migrate",
            "delete ConfigMap/legacy",
            "delete Job/migrate",
            "save 2 pending-upgrade",
            "apply Job/migrate",
            "complete Job/migrate",
            "save 1 superseded",
            "save 2 deployed"
        ],
    );
    // The deletion follows the whole rollout.
    let last_apply = sim.log.iter().rposition(|l| l.starts_with("apply") && !l.contains("Job/")).unwrap();
    assert!(last_apply < sim.log.iter().position(|l| l == "delete ConfigMap/legacy").unwrap(), "{:?}", sim.log);
    assert_eq!(r.deleted, ["ConfigMap/legacy"]);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "deployed".into())]);
}

#[test]
fn a_resource_never_ready_fails_the_release_at_its_batch_and_nothing_after_it_runs() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    never_ready(&mut sim, "db");
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    let e = failure(&r).to_string();
    assert!(e.contains("Deployment/db is not ready: not ready after 1m0s (--readiness-timeout): 0/1 replicas"), "{e}");
    assert_eq!(r.status, "failed");
    // Batch 2 never applied, nothing deleted, no post-hooks; the revision it
    // was to replace stays deployed (Helm supersedes only on success).
    assert!(sim
        .only(&["apply Deployment/web", "apply Deployment/worker", "delete ConfigMap", "delete Deployment"])
        .is_empty());
    assert_eq!(sim.only(&["apply Job"]), ["apply Job/migrate"], "the pre-upgrade hook only: {:?}", sim.log);
    let skipped: Vec<_> =
        states(&r).into_iter().filter(|(_, s)| *s == ResourceState::Skipped).map(|(n, _)| n).collect();
    assert_eq!(skipped, ["Deployment/web", "Deployment/worker"]);
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "failed".into())]);
    let description = sim.records[&2].pointer("/info/description").unwrap().as_str().unwrap();
    assert!(description.starts_with("Upgrade \"app\" failed: "), "{description}");
}

#[test]
fn a_readiness_timeout_is_awaited_through_the_seam_reported_as_it_goes_and_explained() {
    let mut sim = world();
    never_ready(&mut sim, "web");
    let (r, progress) = deploy_printing(&mut sim, release(1), false);
    let Error::NotReady { reference, reason, diagnosis } = failure(&r) else { panic!("{:?}", r.ended) };
    assert_eq!(reference, "Deployment/web");
    assert_eq!(reason, "not ready after 1m0s (--readiness-timeout): 0/1 replicas available");
    // What the cluster shows of it comes with the failure, into the record.
    assert_eq!(diagnosis.explanation, ["Pod/web-0 (Pending): not scheduled: Unschedulable"]);
    let description = sim.records[&1].pointer("/info/description").unwrap().as_str().unwrap();
    assert!(description.ends_with("0/1 replicas available\n  Pod/web-0 (Pending): not scheduled: Unschedulable"));
    // Failed exactly when the batch's readiness timeout ran out, on the simulated
    // clock: a minute after the batch began (its first apply took APPLY_MS).
    let row = |name: &str| r.resources.iter().find(|row| row.reference == name).unwrap();
    let batch_began = row("ConfigMap/legacy").applied_at.unwrap() - APPLY_MS;
    let web = row("Deployment/web");
    assert_eq!((web.state, web.failed_at.unwrap() - batch_began), (ResourceState::Failed, 60_000));
    // The wait went in steps of at most 5 s, each saying what is still awaited.
    let waiting = progress.lines().filter(|l| l.contains("waiting   Deployment/web (0/1 replicas available)")).count();
    assert_eq!(waiting, 11, "{progress}");
    // And the progress says when it failed, as it says when others became ready.
    let failed = "] failed    Deployment/web: not ready after 1m0s (--readiness-timeout): 0/1 replicas available";
    assert!(progress.lines().any(|l| l.ends_with(failed)), "{progress}");
    assert!(!failure(&r).is_cluster());
}

#[test]
fn a_failing_pre_hook_fails_the_release_before_any_resource_and_rollback_on_failure_rolls_back() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    // The next run of the hook, pre-upgrade's, fails.
    sim.fail_next.insert("Job/migrate".into());
    sim.log.clear();
    let r = deploy(&mut sim, release(2), true);
    let Error::Recovered { original, .. } = failure(&r) else { panic!("{:?}", r.ended) };
    let Error::Hooks { event, failed } = original.as_ref() else { panic!("{original:?}") };
    assert_eq!((*event, failed.len()), (Event::PreUpgrade, 1));
    assert_eq!(original.to_string(), format!("pre-upgrade hook(s) failed: Job/migrate: {JOB_FAILED}"));
    // Nothing of version 2 applied; its revision failed with Helm's description;
    // the rollback to 1 runs its own hooks and applies version 1 again.
    assert_eq!(
        sim.only(&["create", "apply Job", "complete Job", "failed Job", "save", "apply Deployment/worker"]),
        [
            "create 2 pending-upgrade",
            "save 2 pending-upgrade",
            "apply Job/migrate",
            "failed Job/migrate",
            "save 2 failed",
            "create 3 pending-rollback",
            "save 3 pending-rollback",
            "apply Job/migrate",
            "complete Job/migrate",
            "save 3 pending-rollback",
            "apply Job/migrate",
            "complete Job/migrate",
            "save 1 superseded",
            "save 3 deployed",
        ],
    );
    let description = sim.records[&2].pointer("/info/description").unwrap().as_str().unwrap();
    assert_eq!(description, format!("Upgrade \"app\" failed: pre-upgrade hook(s) failed: Job/migrate: {JOB_FAILED}"));
    assert!(r.resources.is_empty(), "{:?}", r.resources);
    assert_eq!(r.hooks.len(), 1, "no post-upgrade hooks");
}

#[test]
fn rollback_on_failure_rolls_a_failed_upgrade_back_to_the_last_good_revision() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    never_ready(&mut sim, "worker");
    sim.log.clear();
    let r = deploy(&mut sim, release(2), true);
    let e = failure(&r).to_string();
    assert!(
        e.starts_with("release app failed, and has been rolled back due to rollback-on-failure being set: "),
        "{e}"
    );
    let recovery = r.recovery.as_ref().expect("a recovery");
    assert!(matches!(recovery.ended, Ended::Done), "{:?}", recovery.ended);
    assert_eq!(
        (recovery.operation, recovery.revision, recovery.status.as_str()),
        (Operation::Rollback { to: 1 }, 3, "deployed")
    );
    // The rollback deletes what version 1 lacks, the worker the upgrade applied.
    assert_eq!(recovery.deleted, ["Deployment/worker"]);
    assert_eq!(
        sim.only(&["create", "apply Job", "save", "delete"]),
        [
            "create 2 pending-upgrade",
            "delete Job/migrate",
            "save 2 pending-upgrade",
            "apply Job/migrate",
            "save 2 failed",
            "create 3 pending-rollback",
            "delete Job/migrate",
            "save 3 pending-rollback",
            "apply Job/migrate",
            "delete Deployment/worker",
            "delete Job/migrate",
            "save 3 pending-rollback",
            "apply Job/migrate",
            "save 1 superseded",
            "save 3 deployed",
        ],
    );
    // A rollback leaves a failed revision failed (Helm supersedes deployed ones).
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "failed".into()), (3, "deployed".into())]);
}

#[test]
fn rollback_on_failure_uninstalls_a_failed_install_in_reverse_batch_order() {
    let mut sim = world();
    never_ready(&mut sim, "web");
    let r = deploy(&mut sim, release(1), true);
    let e = failure(&r).to_string();
    assert!(e.starts_with("release app failed, and has been uninstalled due to rollback-on-failure"), "{e}");
    let recovery = r.recovery.as_ref().expect("a recovery");
    assert_eq!((recovery.operation, recovery.status.as_str()), (Operation::Uninstall, "deleted"));
    // What was applied goes, the last batch first (each in reverse of Helm's
    // order); the record with it.
    assert_eq!(
        sim.only(&["delete", "forget", "save"]),
        [
            // The pre-install hook's start.
            "save 1 pending-install",
            "save 1 failed",
            // The pre-delete hook: the last run's Job deleted, the record stored as it
            // starts, and again once the hooks are done (Helm's `Update`).
            "delete Job/migrate",
            "save 1 uninstalling",
            "save 1 uninstalling",
            "delete Deployment/web, ConfigMap/legacy",
            "delete Deployment/db, ConfigMap/db-config",
            "forget 1",
        ],
    );
    // Only the pre-delete hook's Job stays, as Helm leaves a hook under its
    // default policy (before-hook-creation).
    assert!(sim.records.is_empty(), "{:?}", sim.records);
    assert_eq!(sim.live.keys().collect::<Vec<_>>(), ["Job/migrate"], "{:?}", sim.live);
}

#[test]
fn an_uninstall_with_keep_history_deletes_the_resources_and_keeps_every_revision_uninstalled() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    deploy(&mut sim, release(2), false);
    sim.log.clear();
    let r = uninstall(&mut sim, true);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Uninstall, 2, "uninstalled"));
    assert_eq!(
        sim.only(&["apply Job", "delete", "save", "forget"]),
        [
            // The pre-delete hook, then the record stored again once it is done.
            "delete Job/migrate",
            "save 2 uninstalling",
            "apply Job/migrate",
            "save 2 uninstalling",
            "delete Deployment/worker, Deployment/web",
            "delete Deployment/db, ConfigMap/db-config",
            "save 2 uninstalled",
        ],
    );
    // Only the pre-delete hook's Job stays (before-hook-creation).
    assert_eq!(sim.live.keys().collect::<Vec<_>>(), ["Job/migrate"], "{:?}", sim.live);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "uninstalled".into())]);
    assert!(sim.records[&2].pointer("/info/deleted").is_some());
    // The next deploy installs again, as the next revision.
    let (operation, current, revision) = deploy::choose(&history(&mut sim, "app").unwrap());
    assert_eq!((operation, current.is_none(), revision), (Operation::Install, true, 3));
}

/// `release` with a second hook, Job/cleanup, run after an uninstall.
fn with_post_delete(mut release: Value) -> Value {
    let cleanup = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: cleanup\n  annotations:\n    \
                   helm.sh/hook: post-delete\n";
    release["hooks"].as_array_mut().unwrap().push(json!({"path": "app/templates/cleanup.yaml", "manifest": cleanup}));
    release
}

/// Helm's `Uninstall.Run` goes on past a failed post-delete hook: the
/// release is removed all the same, and the error counted (found by the
/// corpus: openfga's post-delete Job).
#[test]
fn an_uninstall_whose_post_delete_hook_fails_still_removes_the_release_and_counts_the_error_as_helm_does() {
    for keep_history in [false, true] {
        let mut sim = world();
        sim.scripts
            .insert("Job/cleanup".into(), Script { ends_after_ms: Some(HOOK_MS), fails: true, ..Script::default() });
        deploy(&mut sim, with_post_delete(release(1)), false);
        sim.log.clear();
        let r = uninstall(&mut sim, keep_history);
        let e = failure(&r);
        assert_eq!(
            e.to_string(),
            format!("uninstallation completed with 1 error(s): post-delete hook(s) failed: Job/cleanup: {JOB_FAILED}")
        );
        assert!(!e.is_cluster());
        // The hooks' Jobs stay (before-hook-creation); the release's objects are gone.
        assert_eq!(sim.live.keys().collect::<Vec<_>>(), ["Job/cleanup", "Job/migrate"], "{:?}", sim.live);
        if keep_history {
            assert_eq!(r.status, "uninstalled");
            assert_eq!(sim.statuses(), [(1, "uninstalled".into())]);
        } else {
            assert_eq!(r.status, "deleted");
            assert!(sim.records.is_empty(), "{:?}", sim.records);
        }
        let last = if keep_history { "save 1 uninstalled" } else { "forget 1" };
        assert_eq!(sim.log.last().map(String::as_str), Some(last), "{:?}", sim.log);
    }
}

/// A failed pre-delete hook stops Helm's uninstall before any deletion, and
/// the record stays as it was stored when the hook started: `uninstalling`.
#[test]
fn an_uninstall_whose_pre_delete_hook_fails_deletes_nothing_and_leaves_the_record_uninstalling() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    sim.fail_next.insert("Job/migrate".into());
    sim.log.clear();
    let r = uninstall(&mut sim, false);
    assert_eq!(failure(&r).to_string(), format!("pre-delete hook(s) failed: Job/migrate: {JOB_FAILED}"));
    assert_eq!(r.status, "uninstalling");
    assert_eq!(sim.only(&["delete"]), ["delete Job/migrate"], "only the hook's last Job: {:?}", sim.log);
    assert_eq!(sim.statuses(), [(1, "uninstalling".into())]);
    let description = sim.records[&1].pointer("/info/description").unwrap().as_str().unwrap();
    assert_eq!(description, "Deletion in progress (or silently failed)");
}

#[test]
fn an_uninstall_keeps_a_resource_whose_ownership_cannot_be_read_and_says_so_as_helm_does() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    sim.unreadable.insert("Deployment/db".into());
    // Another release's object of the same name is not this release's to delete.
    sim.live.get_mut("ConfigMap/legacy").unwrap()["metadata"]["annotations"]["meta.helm.sh/release-name"] =
        json!("other");
    sim.log.clear();
    let r = uninstall(&mut sim, false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    // The pre-delete hook's last Job, then what the release owns.
    assert_eq!(sim.only(&["delete"]), ["delete Job/migrate", "delete Deployment/web", "delete ConfigMap/db-config"]);
    assert!(sim.live.contains_key("Deployment/db") && sim.live.contains_key("ConfigMap/legacy"), "{:?}", sim.live);
    assert_eq!(
        r.not_deleted,
        "1 resource(s) were not deleted because they are not owned by this release:\n[ConfigMap] legacy\n\n\
         1 resource(s) were not deleted because their ownership could not be verified:\n[Deployment] db: \
         forbidden: cannot get deployments.apps in namespace \"ns\": the credentials may not read it\n"
    );
    // The release itself is uninstalled all the same.
    assert!(sim.records.is_empty(), "{:?}", sim.records);
}

#[test]
fn an_interrupt_between_batches_leaves_the_release_failed_with_its_cause_and_later_batches_unapplied() {
    let mut sim = world();
    sim.interrupt_at = Some("legacy".into());
    let r = deploy(&mut sim, release(1), false);
    let e = failure(&r);
    assert!(matches!(e, Error::Kube(KubeError::Status { code: 503, .. })) && e.is_cluster(), "{e:?}");
    assert!(e.to_string().contains("shutting down"), "{e}");
    assert_eq!(r.status, "failed");
    assert_eq!(
        states(&r),
        [
            ("ConfigMap/db-config".to_string(), ResourceState::Ready),
            ("Deployment/db".to_string(), ResourceState::Ready),
            ("ConfigMap/legacy".to_string(), ResourceState::Pending),
            ("Deployment/web".to_string(), ResourceState::Pending),
        ],
    );
    // Nothing after the interrupted apply was sent.
    assert_eq!(sim.log.iter().rfind(|l| l.starts_with("apply")).unwrap(), "apply ConfigMap/legacy");
    assert!(!sim.live.contains_key("Deployment/web"));
    assert_eq!(sim.only(&["apply Job"]), ["apply Job/migrate"], "the pre-install hook only");
    assert_eq!(sim.statuses(), [(1, "failed".into())]);
}

#[test]
fn a_revision_another_command_stored_first_is_refused_before_anything_is_applied() {
    let mut sim = world();
    deploy(&mut sim, release(1), false);
    // Both commands read the same history; the other stores revision 2 first.
    let history = history(&mut sim, "app").unwrap();
    let (operation, current, revision) = deploy::choose(&history);
    assert_eq!((operation, revision), (Operation::Upgrade, 2));
    let mut other = release(2);
    other["version"] = json!(2);
    other["info"] = json!({"status": "pending-upgrade"});
    sim.records.insert(2, other);
    sim.log.clear();
    let (r, _) = deploy_as(&mut sim, release(2), operation, current, revision, true);
    let e = failure(&r);
    assert!(matches!(e, Error::Locked(StorageError::Kube(KubeError::Conflict { .. }))), "{e:?}");
    assert!(e.to_string().starts_with("another operation (install/upgrade/rollback) is in progress"), "{e}");
    // Nothing applied, run or stored; no recovery of someone else's revision.
    assert!(sim.log.is_empty(), "{:?}", sim.log);
    assert!(r.status.is_empty() && r.recovery.is_none());
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "pending-upgrade".into())]);
}

#[test]
fn a_deploy_installs_on_no_history_or_an_uninstalled_one_and_upgrades_the_newest_deployed_revision_otherwise() {
    let mut sim = world();
    let (operation, current, revision) = deploy::choose(&[]);
    assert_eq!((operation, current.is_none(), revision), (Operation::Install, true, 1));
    let record = |status: &str, version: u64| {
        let mut r = release(1);
        r["version"] = json!(version);
        r["info"] = json!({"status": status});
        r
    };
    let choice = |sim: &mut Sim| {
        let (operation, current, revision) = deploy::choose(&history(sim, "app").unwrap());
        (operation, current.map(|c| c.revision), revision)
    };
    // A failed first install is upgraded (Helm's `upgrade --install`).
    sim.records.insert(1, record("failed", 1));
    assert_eq!(choice(&mut sim), (Operation::Upgrade, Some(1), 2));
    sim.records.insert(1, record("deployed", 1));
    sim.records.insert(2, record("failed", 2));
    assert_eq!(choice(&mut sim), (Operation::Upgrade, Some(1), 3));
    // Uninstalled with its history kept: installed again, as the next revision.
    sim.records.insert(3, record("uninstalled", 3));
    assert_eq!(choice(&mut sim), (Operation::Install, None, 4));
}

fn flags() -> Flags {
    Flags {
        options: options(),
        create_namespace: false,
        rollback_on_failure: false,
        dry_run: false,
        keep_history: false,
        check_ownership: false,
    }
}

/// A first install rendered client-side (`helm show crds` before the release, issue 42)
/// does what Helm's server-side dry-run would have done: an object of the release that
/// exists without this release's ownership metadata stops the install with Helm's words,
/// nothing stored, nothing of the release applied; one this release owns is taken up, as
/// Helm's install adopts it. Without the flag (the release rendered server-side, where
/// Helm checked) nothing is read.
#[test]
fn a_first_install_rendered_client_side_refuses_an_object_of_someone_else_as_helm_does() {
    let mut sim = world();
    let other = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "legacy", "namespace": NS,
        "labels": {"app.kubernetes.io/managed-by": "Helm"},
        "annotations": {"meta.helm.sh/release-name": "other", "meta.helm.sh/release-namespace": NS}}});
    sim.live.insert("ConfigMap/legacy".into(), other.clone());
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let checking = Flags { check_ownership: true, ..flags() };
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), checking));
    let Err(e) = done else { panic!("{done:?}") };
    assert!(matches!(*e, Refused::Taken(_)), "{e:?}");
    assert!(!e.is_cluster());
    assert_eq!(
        e.to_string(),
        "unable to continue with install: ConfigMap \"legacy\" in namespace \"ns\" exists and cannot be imported into \
         the current release: invalid ownership metadata (it needs label app.kubernetes.io/managed-by: Helm, and \
         annotations meta.helm.sh/release-name: \"app\" and meta.helm.sh/release-namespace: \"ns\"); nothing was stored"
    );
    assert!(sim.records.is_empty(), "{:?}", sim.records);
    assert_eq!(sim.live.keys().collect::<Vec<_>>(), ["ConfigMap/legacy"], "{:?}", sim.log);

    // This release's own object (a reinstall after an uninstall that kept it) is taken up.
    sim.live.get_mut("ConfigMap/legacy").unwrap()["metadata"]["annotations"]["meta.helm.sh/release-name"] =
        json!("app");
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), checking)).unwrap();
    let DeployOutcome::Report(r) = done else { panic!("{done:?}") };
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);

    // A kind discovery does not list yet (its CRD just established) has no objects.
    let mut sim = world();
    sim.unmapped.insert("Deployment".into());
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), checking));
    assert!(matches!(done, Ok(DeployOutcome::Report(_))), "{done:?}");

    // Rendered server-side: Helm checked; the plugin reads nothing and applies.
    let mut sim = world();
    sim.live.insert("ConfigMap/legacy".into(), other);
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), flags()));
    assert!(matches!(done, Ok(DeployOutcome::Report(_))), "{done:?}");
}

/// Issue 48: a CRD of the chart is Established a moment before discovery serves its
/// kind; the deploy waits for discovery, as Helm's install refreshes it, and only then
/// goes on. One never served stops the install with nothing of the release applied.
#[test]
fn crds_are_served_by_discovery_before_the_release_is_applied() {
    let crd = |served| Crd {
        origin: deploy::crd::Origin::File("crds/widgets.yaml".into()),
        object: json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
                     "versions": [{"name": "v1", "served": served, "storage": true}, {"name": "v0", "served": false}]},
            "status": {"conditions": [{"type": "Established", "status": "True"}]}}),
    };
    let mut sim = world();
    sim.unmapped.insert("Widget".into());
    sim.served_at.insert("Widget".into(), 400);
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, vec![crd(true)], flags()));
    assert!(matches!(done, Ok(DeployOutcome::Report(_))), "{done:?}");
    let at = sim.log.iter().position(|l| l == "await discovery of Widget").expect("discovery awaited");
    assert_eq!(sim.log[..at].len(), 1, "{:?}", sim.log);
    assert!(sim.log[at + 1..].iter().any(|l| l.starts_with("apply ")), "{:?}", sim.log);

    let mut sim = world();
    sim.unmapped.insert("Widget".into());
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, vec![crd(true)], flags()));
    let Err(e) = done else { panic!("{done:?}") };
    assert!(e.to_string().contains("does not serve its kind Widget in example.com/v1 after 1m"), "{e}");
    assert!(sim.records.is_empty(), "{:?}", sim.log);
}

#[test]
fn the_deploy_command_asks_for_every_permission_first_and_a_missing_one_stops_it_with_nothing_done() {
    let mut sim = world();
    sim.forbidden = Some("deployments.apps");
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), flags()));
    let Err(e) = done else { panic!("{done:?}") };
    assert!(matches!(*e, Refused::Access(_)), "{e:?}");
    assert!(e.is_cluster());
    assert!(e.to_string().ends_with("the deploy needs it (checked before acting; nothing was applied or stored)"));
    assert!(sim.log.is_empty() && sim.records.is_empty(), "{:?}", sim.log);
    // The records, each resource's kind, and the hooks of an install.
    let kinds: Vec<&str> = sim
        .asked
        .iter()
        .filter_map(|w| match w {
            Want::Kind { kind, .. } => Some(kind.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["ConfigMap", "Deployment", "Deployment", "ConfigMap", "Job"]);

    // Allowed, the same command installs; a second one upgrades.
    sim.forbidden = None;
    for expected in [Operation::Install, Operation::Upgrade] {
        let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
        let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), flags()));
        let Ok(DeployOutcome::Report(r)) = done else { panic!("{done:?}") };
        assert_eq!((r.operation, r.status.as_str()), (expected, "deployed"));
    }
}

/// Issue 32: `rollback nosuch` and `uninstall nosuch` said `release: not
/// found: "nosuch"` as a failed hook (exit 1); they say what `run` says,
/// naming the namespace and what was looked for. Issue 41: as a release not
/// found (exit 4), not a cluster error, naming the namespaces that hold one.
#[test]
fn a_release_that_is_not_stored_is_named_with_where_it_was_looked_for() {
    let mut sim = world();
    let said =
        "release \"nosuch\" not found in namespace \"ns\" (looked for ConfigMaps labelled owner=helm,name=nosuch)";
    let e = rollback_refused(&mut sim, "nosuch", None);
    assert!(matches!(e, Refused::NotFound(_)) && e.is_not_found() && !e.is_cluster(), "{e:?}");
    assert_eq!(e.to_string(), said);
    let request = UninstallRequest { release: "nosuch".into(), flags: flags() };
    let Err(Stop::Refused(e, _)) = request.prepare(&mut sim) else { panic!("not refused") };
    assert!(matches!(*e, Refused::NotFound(_)) && e.is_not_found() && !e.is_cluster(), "{e:?}");
    assert_eq!(e.to_string(), said);
    sim.elsewhere = Elsewhere::Searched { namespaces: vec!["other".into()], any_release: true };
    let e = rollback_refused(&mut sim, "nosuch", None);
    assert_eq!(e.to_string(), format!("{said}; a release \"nosuch\" is in namespace \"other\": add -n other"));
    // A revision the history lacks is a not-found too.
    let mut deployed = release(1);
    deployed["info"] = json!({"status": "deployed"});
    sim.records.insert(1, deployed);
    let e = rollback_refused(&mut sim, "app", Some(7));
    assert!(matches!(e, Refused::NoRevision(7)) && e.is_not_found(), "{e:?}");
}

/// `deploy -` of `request`, prepared and performed: what it did, or why it
/// was refused.
fn deploy_command(sim: &mut Sim, request: DeployRequest) -> Result<DeployOutcome, Box<Refused>> {
    match request.run(sim, &mut ()) {
        Ok(done) => Ok(done),
        Err(Stop::Refused(e, _)) => Err(e),
        Err(other) => panic!("{other:?}"),
    }
}

/// Why `rollback RELEASE [REVISION]` stops before acting.
fn rollback_refused(sim: &mut Sim, release: &str, revision: Option<u64>) -> Refused {
    let request = RollbackRequest { release: release.into(), revision, flags: flags() };
    match request.prepare(sim) {
        Err(Stop::Refused(e, _)) => *e,
        Err(other) => panic!("{other:?}"),
        Ok(_) => panic!("rollback of {release} {revision:?} prepared"),
    }
}

/// A release whose web Deployment waits for a Secret someone else writes
/// (`helm.sh/depends-on-external`).
fn external_release() -> Value {
    let needs = [("helm.sh/depends-on-external", "[\"Secret/credentials\"]")];
    json!({
        "name": "app",
        "namespace": NS,
        "chart": {"metadata": {"name": "app", "version": "1.0.0"}},
        "manifest": doc("web.yaml", "Deployment", "web", &needs),
        "hooks": [],
        "info": {},
    })
}

/// The wait for an external dependency is the driver's, over the seam: the
/// simulation only says when the object appears. It is said as awaited
/// every 5 s, found when it appears, and what named it applied after.
#[test]
fn an_external_dependency_is_awaited_through_the_seam_before_what_names_it() {
    let mut sim = world();
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "credentials", "namespace": NS}});
    sim.appears.insert("Secret/credentials".into(), (T0 + 7_000, secret));
    let (r, progress) = deploy_printing(&mut sim, external_release(), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!(sim.only(&["appeared", "apply"]), ["appeared Secret/credentials", "apply Deployment/web"]);
    let times = stamps(&progress);
    let said = |line: &str| times.iter().filter(|(_, l)| l == line).map(|(t, _)| *t).collect::<Vec<_>>();
    assert_eq!(said("waiting   Secret/credentials (not found yet) (external)"), [5_000], "{progress}");
    assert_eq!(said("found     Secret/credentials (external)"), [7_000], "{progress}");
}

/// One that never comes fails what names it when the batch's time runs out,
/// never applied, with what was missing.
#[test]
fn an_external_dependency_that_never_comes_fails_what_names_it_unapplied() {
    let mut sim = world();
    let r = deploy(&mut sim, external_release(), false);
    let e = failure(&r).to_string();
    assert!(
        e.contains("Deployment/web") && e.contains("external dependency not met: Secret/credentials (not found yet)"),
        "{e}"
    );
    assert!(sim.only(&["apply"]).is_empty(), "{:?}", sim.log);
    let web = &r.resources[0];
    assert_eq!((web.state, web.applied_at, web.failed_at.map(|t| t - T0)), (ResourceState::Failed, None, Some(60_000)));
    assert_eq!(sim.statuses(), [(1, "failed".into())]);
}

/// Issue 41, item 3: a deploy cut off (Helm killed by SIGPIPE: `| head -4`) leaves revision 2
/// `pending-upgrade`; `helm hooks rollback`, the way out the next deploy names, leaves every
/// revision as stock `helm rollback` does (pkg/action/rollback.go, Helm 4.3.2): the deployed
/// revisions superseded (`DeployedAll`), the new one deployed, and the pending one as it
/// was — Helm's rollback never writes the revision it replaces on success. When the API
/// server rejects the rollback's apply, Helm marks the replaced revision superseded and the
/// new one failed (`Rollback "app" failed`), leaving the deployed one deployed.
#[test]
fn a_rollback_out_of_a_cut_upgrade_leaves_the_records_as_helms_rollback() {
    let cut = |sim: &mut Sim| {
        deploy(sim, release(1), false);
        let mut pending = release(2);
        pending["version"] = json!(2);
        pending["info"] = json!({"status": "pending-upgrade", "description": "Preparing upgrade"});
        sim.records.insert(2, pending);
        sim.log.clear();
    };
    let back = |sim: &mut Sim| {
        let request = RollbackRequest { release: "app".into(), revision: None, flags: flags() };
        let prepared = request.prepare(sim).unwrap();
        assert_eq!((prepared.current(), prepared.to()), (2, 1));
        let done = request.perform(sim, prepared, &mut ()).unwrap();
        let RollbackOutcome::Report(r) = done else { panic!("{done:?}") };
        r
    };
    let description = |sim: &Sim, rev: u64| sim.records[&rev]["info"]["description"].as_str().unwrap().to_string();

    let mut sim = world();
    cut(&mut sim);
    let r = back(&mut sim);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "pending-upgrade".into()), (3, "deployed".into())]);
    // Revision 3 is stored as each of its hooks starts (pre- and post-rollback).
    assert_eq!(
        sim.only(&["save", "create"]),
        [
            "create 3 pending-rollback",
            "save 3 pending-rollback",
            "save 3 pending-rollback",
            "save 1 superseded",
            "save 3 deployed"
        ]
    );
    assert_eq!((description(&sim, 1), description(&sim, 3)), ("Install complete".into(), "Rollback to 1".into()));
    // The next deploy is an upgrade of revision 3, which it supersedes; 2 stays as Helm leaves it.
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Upgrade, 4, "deployed"));
    assert_eq!(
        sim.statuses(),
        [(1, "superseded".into()), (2, "pending-upgrade".into()), (3, "superseded".into()), (4, "deployed".into())]
    );

    let mut sim = world();
    cut(&mut sim);
    sim.rejects = Some("web".into());
    let r = back(&mut sim);
    assert!(matches!(r.ended, Ended::Failed(_)), "{:?}", r.ended);
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "superseded".into()), (3, "failed".into())]);
    assert!(description(&sim, 3).starts_with("Rollback \"app\" failed: "), "{}", description(&sim, 3));
    assert_eq!(description(&sim, 2), "Preparing upgrade", "superseded, its description kept");
}
