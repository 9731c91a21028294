//! The deploy driver (`deploy::deploy`, `uninstall`, `recover`) against a
//! simulated cluster, release store and clock (`deploy::seam`), as
//! `executor_sim.rs` simulates `run`: resources become ready, or not, the way
//! the test says, instantly in real time. Checks the order of the batches,
//! hooks and deletions, a readiness failure, `--rollback-on-failure` (an
//! install uninstalled, an upgrade rolled back), an interrupt between
//! batches, and a record another command stored first.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use helm_hooks::base::time::Millis;
use helm_hooks::deploy::apply::{Outcome, ResourceRow};
use helm_hooks::deploy::ownership::Ownership;
use helm_hooks::deploy::seam::Resources;
use helm_hooks::deploy::{self, Clock, Cluster, Ended, Options, Report, Store};
use helm_hooks::exec::executor;
use helm_hooks::exec::rollout::{self, Action, Input, Rollout, State};
use helm_hooks::exec::run::{Outcome as RunOutcome, Summary};
use helm_hooks::kube::{KubeError, ObjectKey};
use helm_hooks::model::event::Event;
use helm_hooks::model::hook::Hook;
use helm_hooks::plan::{EventPlan, ItemId, Target};
use helm_hooks::release::record::Operation;
use helm_hooks::release::storage::{self, Driver, StorageError, StoredRelease};
use serde_json::{json, Value};

const NS: &str = "ns";
const T0: Millis = 1_700_000_000_000;

/// The cluster, the store and the clock, simulated.
struct Sim {
    now: Millis,
    /// The stored records by revision (what Helm's storage holds).
    records: BTreeMap<u64, Value>,
    /// The objects that exist, by `Kind/name`.
    live: BTreeSet<String>,
    /// What the driver did, in order.
    log: Vec<String>,
    /// Resources (by name) that never become ready.
    never_ready: BTreeSet<String>,
    /// The API server goes away when the rollout reaches this batch (0-based).
    interrupt_at_batch: Option<i64>,
}

impl Sim {
    fn new() -> Sim {
        Sim {
            now: T0,
            records: BTreeMap::new(),
            live: BTreeSet::new(),
            log: Vec::new(),
            never_ready: BTreeSet::new(),
            interrupt_at_batch: None,
        }
    }

    fn stored(&self, revision: u64) -> StoredRelease {
        let release = &self.records[&revision];
        let name = release["name"].as_str().unwrap();
        let object = json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "name": storage::object_name(name, revision),
                "namespace": NS,
                "labels": {"name": name, "owner": "helm", "version": revision.to_string(), "status": status(release)},
            },
            "data": {"release": helm_hooks::release::payload::encode_payload(release.to_string().as_bytes())},
        });
        storage::read_object(Driver::ConfigMap, name, object).unwrap()
    }

    fn statuses(&self) -> Vec<(u64, String)> {
        self.records.iter().map(|(r, v)| (*r, status(v))).collect()
    }

    /// The entries of the log that start with one of `prefixes`.
    fn only(&self, prefixes: &[&str]) -> Vec<&str> {
        self.log.iter().map(String::as_str).filter(|l| prefixes.iter().any(|p| l.starts_with(p))).collect()
    }
}

fn status(release: &Value) -> String {
    release.pointer("/info/status").and_then(Value::as_str).unwrap_or_default().to_string()
}

fn name_of(plan: &EventPlan, item: ItemId) -> String {
    let r = &plan.items[item].reference;
    format!("{}/{}", r.kind, r.name)
}

impl Clock for Sim {
    fn now_ms(&mut self) -> Millis {
        self.now
    }
}

impl Cluster for Sim {
    fn namespace(&self) -> &str {
        NS
    }

    fn requests(&self) -> (u64, u64) {
        (0, 0)
    }

    /// Drives the rollout state machine as `deploy::apply` does: each object
    /// applied answers at once; one the test calls never ready waits until
    /// its batch's deadline.
    fn roll_out(&mut self, r: Resources<'_>, options: rollout::Options, _out: &mut dyn Write) -> Outcome {
        let plan = r.plan;
        let mut rollout = Rollout::new(plan, options, self.now);
        let mut cluster_error = None;
        loop {
            match rollout.poll(self.now) {
                Action::Done => break,
                Action::Apply { items } => {
                    if let Some(at) =
                        self.interrupt_at_batch.filter(|&b| items.iter().any(|&i| plan.items[i].level == b))
                    {
                        self.log.push(format!("interrupted at batch {}", at + 1));
                        cluster_error = Some(KubeError::Status {
                            code: 503,
                            verb: "patch".into(),
                            resource: "deployments".into(),
                            namespace: Some(NS.into()),
                            message: "the API server is shutting down".into(),
                        });
                        break;
                    }
                    self.now += 10;
                    rollout.advance(self.now);
                    for item in items {
                        let name = name_of(plan, item);
                        self.log.push(format!("apply {name} (batch {})", plan.items[item].level + 1));
                        self.live.insert(name);
                        rollout.handle(Input::Applied { item, ready: false });
                    }
                }
                Action::Await { items, deadline } => {
                    let stuck = items.iter().any(|&i| self.never_ready.contains(&plan.items[i].reference.name));
                    self.now = if stuck { deadline } else { self.now + 1_000 };
                    rollout.advance(self.now);
                    for item in items {
                        if self.never_ready.contains(&plan.items[item].reference.name) {
                            rollout.handle(Input::Waiting { item, reason: "0/1 replicas available".into() });
                        } else {
                            self.log.push(format!("ready {}", name_of(plan, item)));
                            rollout.handle(Input::Ready { item });
                        }
                    }
                }
            }
        }
        let failure = match (rollout.failed(), &cluster_error) {
            (Some(i), None) => Some(format!("{} is not ready: {}", plan.items[i].reference, rollout.reason(i))),
            _ => None,
        };
        let rows = plan
            .ids()
            .map(|i| {
                let (applied_at, ready_at) = rollout.times(i);
                ResourceRow {
                    reference: plan.items[i].reference.to_string(),
                    batch: plan.items[i].level as usize + 1,
                    state: rollout.state(i),
                    applied_at,
                    ready_at,
                    failed_at: rollout.failed_at(i),
                    message: String::new(),
                }
            })
            .collect();
        let rejected = rollout.failed().is_some_and(|i| rollout.times(i).0.is_none());
        Outcome { rows, failure, rejected, cluster_error }
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], _deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        for k in keys {
            let name = format!("{}/{}", k.kind, k.name);
            self.log.push(format!("delete {name}"));
            self.live.remove(&name);
        }
        self.now += 100;
        Ok(Vec::new())
    }

    fn ownership(&mut self, key: &ObjectKey, _release: &str, _namespace: &str) -> Ownership {
        match self.live.contains(&format!("{}/{}", key.kind, key.name)) {
            true => Ownership::Owned,
            false => Ownership::Gone,
        }
    }

    fn run_hooks(
        &mut self,
        plan: &EventPlan,
        _hooks: &[Hook],
        _stored: &mut StoredRelease,
        _options: executor::Options,
        _out: &mut dyn Write,
    ) -> Summary {
        let Target::Hooks(event) = plan.target else { panic!("hooks of {:?}", plan.target) };
        self.log.push(format!("hooks {event}"));
        let started_at = self.now;
        self.now += 500;
        Summary {
            event: event.to_string(),
            rows: Vec::new(),
            started_at,
            ended_at: self.now,
            outcome: RunOutcome::Succeeded,
            error: None,
            failed_fast: None,
            api_requests: None,
        }
    }
}

impl Store for Sim {
    fn create(&mut self, namespace: &str, release: Value, _now_unix: u64) -> Result<StoredRelease, StorageError> {
        let revision = release["version"].as_u64().unwrap();
        if self.records.contains_key(&revision) {
            return Err(StorageError::Kube(KubeError::Conflict {
                verb: "create".into(),
                resource: "configmaps".into(),
                namespace: Some(namespace.into()),
                name: storage::object_name("app", revision),
                message: "already exists".into(),
            }));
        }
        self.log.push(format!("create {revision} {}", status(&release)));
        self.records.insert(revision, release);
        Ok(self.stored(revision))
    }

    fn save(&mut self, stored: &mut StoredRelease, _now_unix: u64) -> Result<(), StorageError> {
        self.log.push(format!("save {} {}", stored.revision, status(&stored.release)));
        self.records.insert(stored.revision, stored.release.clone());
        Ok(())
    }

    fn history(&mut self, _release: &str) -> Result<Vec<StoredRelease>, StorageError> {
        Ok(self.records.keys().map(|&r| self.stored(r)).collect())
    }

    fn history_where(
        &mut self,
        _release: &str,
        wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError> {
        let picked = self.records.iter().filter(|(r, v)| wanted(**r, Some(&status(v)))).map(|(r, _)| *r);
        Ok(picked.collect::<Vec<_>>().into_iter().map(|r| self.stored(r)).collect())
    }

    fn delete(&mut self, stored: &StoredRelease) -> Result<(), StorageError> {
        self.log.push(format!("forget {}", stored.revision));
        self.records.remove(&stored.revision);
        Ok(())
    }
}

fn options() -> Options {
    Options {
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
                helm.sh/hook: pre-install,pre-upgrade,pre-rollback,post-install,post-upgrade,post-rollback\n";
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
    let history = sim.history("app").unwrap();
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
) -> Report {
    let (checked, _) = deploy::check(value, &DEPLOY_EVENTS, &options()).unwrap();
    let mut out = Vec::new();
    let mut report = deploy::deploy(sim, checked, operation, current, revision, &options(), &mut out);
    if rollback {
        deploy::recover(sim, &mut report, operation, &options(), &mut out);
    }
    report
}

fn states(r: &Report) -> Vec<(String, State)> {
    r.resources.iter().map(|row| (row.reference.clone(), row.state)).collect()
}

#[test]
fn an_install_runs_its_batches_in_order_between_its_hooks_and_stores_the_release_deployed() {
    let mut sim = Sim::new();
    let r = deploy(&mut sim, release(1), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision, r.status.as_str()), ("installed", 1, "deployed"));
    assert_eq!(
        sim.log,
        [
            "create 1 pending-install",
            "hooks pre-install",
            // Batch 1: the db group, applied at once in Helm's kind order; batch
            // 2 (what depends on it, and what no group orders) once it is ready.
            "apply ConfigMap/db-config (batch 1)",
            "apply Deployment/db (batch 1)",
            "ready ConfigMap/db-config",
            "ready Deployment/db",
            "apply ConfigMap/legacy (batch 2)",
            "apply Deployment/web (batch 2)",
            "ready ConfigMap/legacy",
            "ready Deployment/web",
            "hooks post-install",
            "save 1 deployed",
        ],
    );
    assert_eq!(sim.statuses(), [(1, "deployed".into())]);
    assert_eq!((r.started_at, r.ended_at > r.started_at), (T0, true));
}

#[test]
fn an_upgrade_deletes_what_the_new_version_drops_after_its_rollout_and_supersedes_the_old_revision() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision), ("upgraded", 2));
    assert_eq!(
        sim.only(&["hooks", "delete", "save", "create"]),
        [
            "create 2 pending-upgrade",
            "hooks pre-upgrade",
            "delete ConfigMap/legacy",
            "hooks post-upgrade",
            "save 1 superseded",
            "save 2 deployed"
        ],
    );
    // The deletion follows the whole rollout.
    let last_apply = sim.log.iter().rposition(|l| l.starts_with("apply")).unwrap();
    assert!(last_apply < sim.log.iter().position(|l| l.starts_with("delete")).unwrap(), "{:?}", sim.log);
    assert_eq!(r.deleted, ["ConfigMap/legacy"]);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "deployed".into())]);
}

#[test]
fn a_resource_never_ready_fails_the_release_at_its_batch_and_nothing_after_it_runs() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.never_ready.insert("db".into());
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    let Ended::Failed(e) = &r.ended else { panic!("{:?}", r.ended) };
    assert!(e.contains("Deployment/db is not ready: not ready after 1m0s (--readiness-timeout): 0/1 replicas"), "{e}");
    assert_eq!(r.status, "failed");
    // Batch 2 never applied, nothing deleted, no post-hooks; the revision it
    // was to replace stays deployed (Helm supersedes only on success).
    assert!(sim.only(&["apply Deployment/web", "apply Deployment/worker", "delete", "hooks post"]).is_empty());
    let skipped: Vec<_> = states(&r).into_iter().filter(|(_, s)| *s == State::Skipped).map(|(n, _)| n).collect();
    assert_eq!(skipped, ["Deployment/web", "Deployment/worker"]);
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "failed".into())]);
    let description = sim.records[&2].pointer("/info/description").unwrap().as_str().unwrap();
    assert!(description.starts_with("Upgrade \"app\" failed: "), "{description}");
}

#[test]
fn rollback_on_failure_rolls_a_failed_upgrade_back_to_the_last_good_revision() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.never_ready.insert("worker".into());
    sim.log.clear();
    let r = deploy(&mut sim, release(2), true);
    let Ended::Failed(e) = &r.ended else { panic!("{:?}", r.ended) };
    assert!(
        e.starts_with("release app failed, and has been rolled back due to rollback-on-failure being set: "),
        "{e}"
    );
    let recovery = r.recovery.as_ref().expect("a recovery");
    assert!(matches!(recovery.ended, Ended::Done), "{:?}", recovery.ended);
    assert_eq!((recovery.operation, recovery.revision, recovery.status.as_str()), ("rolled back", 3, "deployed"));
    // The rollback deletes what version 1 lacks, the worker the upgrade applied.
    assert_eq!(recovery.deleted, ["Deployment/worker"]);
    assert_eq!(
        sim.only(&["create", "hooks", "save", "delete"]),
        [
            "create 2 pending-upgrade",
            "hooks pre-upgrade",
            "save 2 failed",
            "create 3 pending-rollback",
            "hooks pre-rollback",
            "delete Deployment/worker",
            "hooks post-rollback",
            "save 1 superseded",
            "save 3 deployed",
        ],
    );
    // A rollback leaves a failed revision failed (Helm supersedes deployed ones).
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "failed".into()), (3, "deployed".into())]);
}

#[test]
fn rollback_on_failure_uninstalls_a_failed_install_in_reverse_batch_order() {
    let mut sim = Sim::new();
    sim.never_ready.insert("web".into());
    let r = deploy(&mut sim, release(1), true);
    let Ended::Failed(e) = &r.ended else { panic!("{:?}", r.ended) };
    assert!(e.starts_with("release app failed, and has been uninstalled due to rollback-on-failure"), "{e}");
    let recovery = r.recovery.as_ref().expect("a recovery");
    assert_eq!((recovery.operation, recovery.status.as_str()), ("uninstalled", "deleted"));
    // What was applied goes, the last batch first (each in reverse of Helm's
    // order); the record with it.
    assert_eq!(
        sim.only(&["delete", "forget", "save"]),
        [
            "save 1 failed",
            "save 1 uninstalling",
            "delete Deployment/web",
            "delete ConfigMap/legacy",
            "delete Deployment/db",
            "delete ConfigMap/db-config",
            "forget 1",
        ],
    );
    assert!(sim.records.is_empty() && sim.live.is_empty(), "{:?} {:?}", sim.records, sim.live);
}

#[test]
fn an_interrupt_between_batches_leaves_the_release_failed_with_its_cause_and_later_batches_unapplied() {
    let mut sim = Sim::new();
    sim.interrupt_at_batch = Some(1);
    let r = deploy(&mut sim, release(1), false);
    let Ended::Cluster(e) = &r.ended else { panic!("{:?}", r.ended) };
    assert!(e.contains("503") && e.contains("shutting down"), "{e}");
    assert_eq!(r.status, "failed");
    assert_eq!(
        states(&r),
        [
            ("ConfigMap/db-config".to_string(), State::Ready),
            ("Deployment/db".to_string(), State::Ready),
            ("ConfigMap/legacy".to_string(), State::Pending),
            ("Deployment/web".to_string(), State::Pending),
        ],
    );
    assert_eq!(sim.log.iter().filter(|l| l.starts_with("hooks")).collect::<Vec<_>>(), ["hooks pre-install"]);
    assert_eq!(sim.statuses(), [(1, "failed".into())]);
}

#[test]
fn a_revision_another_command_stored_first_is_refused_before_anything_is_applied() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    // Both commands read the same history; the other stores revision 2 first.
    let history = sim.history("app").unwrap();
    let (operation, current, revision) = deploy::choose(&history);
    assert_eq!((operation, revision), (Operation::Upgrade, 2));
    let mut other = release(2);
    other["version"] = json!(2);
    other["info"] = json!({"status": "pending-upgrade"});
    sim.records.insert(2, other);
    sim.log.clear();
    let r = deploy_as(&mut sim, release(2), operation, current, revision, true);
    let Ended::Failed(e) = &r.ended else { panic!("{:?}", r.ended) };
    assert!(e.starts_with("another operation (install/upgrade/rollback) is in progress"), "{e}");
    // Nothing applied, run or stored; no recovery of someone else's revision.
    assert!(sim.log.is_empty(), "{:?}", sim.log);
    assert!(r.status.is_empty() && r.recovery.is_none());
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "pending-upgrade".into())]);
}

#[test]
fn a_deploy_installs_on_no_history_or_an_uninstalled_one_and_upgrades_the_newest_deployed_revision_otherwise() {
    let mut sim = Sim::new();
    let (operation, current, revision) = deploy::choose(&[]);
    assert_eq!((operation, current.is_none(), revision), (Operation::Install, true, 1));
    let record = |status: &str, version: u64| {
        let mut r = release(1);
        r["version"] = json!(version);
        r["info"] = json!({"status": status});
        r
    };
    let choice = |sim: &mut Sim| {
        let (operation, current, revision) = deploy::choose(&sim.history("app").unwrap());
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
