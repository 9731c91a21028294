//! The deploy driver (`deploy::deploy`, `uninstall`, `recover`, the rollout
//! loop of `deploy::apply` and the commands of `action::deploy`, `rollback` and `uninstall`) against a
//! simulated cluster, release store and clock (`seam`), as
//! `executor_sim.rs` simulates `run`: the simulation answers the seam's small
//! steps (apply, get, follow what was applied and wait for it to change,
//! delete) the way the test says, instantly in real time, and the driver's
//! own code decides everything from those answers. Checks the order of the
//! batches, hooks and deletions, a readiness failure and a readiness timeout,
//! a failing hook, `--rollback-on-failure` (an install uninstalled, an
//! upgrade rolled back), an uninstall keeping its history, an ownership read
//! that fails, an interrupt between batches, a record another command stored
//! first, a permission missing before anything is done, and an external
//! dependency awaited (`helm.sh/depends-on-external`), met or never met.

use std::collections::{BTreeMap, BTreeSet};

use helm_hooks::action::deploy::{DeployOutcome, DeployRequest};
use helm_hooks::action::rollback::{RollbackOutcome, RollbackRequest};
use helm_hooks::action::uninstall::UninstallRequest;
use helm_hooks::action::{Action, Stop};
use helm_hooks::base::time::Millis;
use helm_hooks::deploy::command::Refused;
use helm_hooks::deploy::crd::Crd;
use helm_hooks::deploy::options::Flags;
use helm_hooks::deploy::{self, DeployOptions, Ended, Error, Report};
use helm_hooks::exec::executor::{self, ContainerLog, Phase as HookPhase};
use helm_hooks::exec::progress::{Elapsed, HookEvent, HookProgress};
use helm_hooks::exec::rollout::ResourceState;
use helm_hooks::exec::runner::{HookRow, RunEnd, Summary};
use helm_hooks::kube::{KubeError, ObjectKey, Observed, Selector};
use helm_hooks::model::event::Event;
use helm_hooks::model::external::External;
use helm_hooks::model::hook::Hook;
use helm_hooks::plan::{EventPlan, Target};
use helm_hooks::release::record::Operation;
use helm_hooks::release::storage::{self, Driver, Elsewhere, StorageError, StoredRelease};
use helm_hooks::render::progress_lines::ProgressLines;
use helm_hooks::seam::Want;
use helm_hooks::seam::{Clock, Cluster, Env, Recording, Store};
use serde_json::{json, Value};

const NS: &str = "ns";
const T0: Millis = 1_700_000_000_000;
/// How long a Deployment takes to become ready once applied.
const STARTUP_MS: Millis = 1_000;
/// How long one call that applies objects takes.
const APPLY_MS: Millis = 10;

/// The cluster, the store and the clock, simulated.
struct Sim {
    now: Millis,
    /// The stored records by revision (what Helm's storage holds).
    records: BTreeMap<u64, Value>,
    /// The objects that exist, by `Kind/name`, as the API server has them.
    live: BTreeMap<String, Value>,
    /// When each object applied and not ready yet becomes ready.
    ready_at: BTreeMap<String, Millis>,
    /// What the driver did, in order.
    log: Vec<String>,
    /// Resources (by name) that never become ready.
    never_ready: BTreeSet<String>,
    /// The API server goes away when the object of this name is applied.
    interrupt_at: Option<String>,
    /// The hooks of these events fail.
    failing_hooks: BTreeSet<Event>,
    /// Objects (by `Kind/name`) whose reads the API server refuses.
    unreadable: BTreeSet<String>,
    /// Kinds discovery does not list yet (a CRD just established).
    unmapped: BTreeSet<String>,
    /// When discovery starts to list each of `unmapped`'s kinds, if ever.
    served_at: BTreeMap<String, Millis>,
    /// The permission the credentials lack, refused by `check_access`.
    forbidden: Option<&'static str>,
    /// What `check_access` was asked, in order.
    asked: Vec<Want>,
    /// Whether `apply_many` sends its objects at once (Helm's `kube_request`).
    at_once: bool,
    /// Objects no release applies (by `Kind/name`), created by someone else
    /// at the time given: external dependencies.
    appears: BTreeMap<String, (Millis, Value)>,
    /// Where else a release of the name is stored, as the cluster would answer.
    elsewhere: Elsewhere,
    /// The API server rejects the object of this name (422), as an invalid one.
    rejects: Option<String>,
}

impl Sim {
    fn new() -> Sim {
        Sim {
            now: T0,
            records: BTreeMap::new(),
            live: BTreeMap::new(),
            ready_at: BTreeMap::new(),
            log: Vec::new(),
            never_ready: BTreeSet::new(),
            interrupt_at: None,
            failing_hooks: BTreeSet::new(),
            unreadable: BTreeSet::new(),
            unmapped: BTreeSet::new(),
            served_at: BTreeMap::new(),
            forbidden: None,
            asked: Vec::new(),
            at_once: false,
            appears: BTreeMap::new(),
            elsewhere: Elsewhere::NotAsked,
            rejects: None,
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

    /// The object as the API server has it after an apply: a Deployment
    /// starts with no replica available and becomes ready `STARTUP_MS`
    /// later, unless the test says it never does.
    fn admit(&mut self, object: &Value, labels: &[(&str, &str)]) -> Value {
        let mut live = object.clone();
        for (k, v) in labels {
            live["metadata"]["labels"][*k] = json!(v);
        }
        let name = name_of(&live);
        if live["kind"] == "Deployment" {
            live["metadata"]["generation"] = json!(1);
            live["spec"]["replicas"] = json!(1);
            live["spec"]["selector"] = json!({"matchLabels": {"app": live["metadata"]["name"]}});
            live["status"] = json!({"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                "readyReplicas": 0, "availableReplicas": 0});
            if !self.never_ready.contains(live["metadata"]["name"].as_str().unwrap()) {
                self.ready_at.insert(name.clone(), self.now + STARTUP_MS);
            }
        }
        self.live.insert(name, live.clone());
        live
    }
}

fn status(release: &Value) -> String {
    release.pointer("/info/status").and_then(Value::as_str).unwrap_or_default().to_string()
}

fn name_of(object: &Value) -> String {
    format!("{}/{}", object["kind"].as_str().unwrap(), object["metadata"]["name"].as_str().unwrap())
}

fn key_name(key: &ObjectKey) -> String {
    format!("{}/{}", key.kind, key.name)
}

fn ready_status() -> Value {
    json!({"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
        "availableReplicas": 1, "conditions": [{"type": "Available", "status": "True"},
        {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]})
}

impl Clock for Sim {
    fn now_ms(&mut self) -> Millis {
        self.now
    }
}

impl Cluster for Sim {
    /// The objects followed.
    type Watch = BTreeSet<ObjectKey>;

    fn namespace(&self) -> &str {
        NS
    }

    fn requests(&self) -> (u64, u64) {
        (0, 0)
    }

    fn at_once(&self) -> bool {
        self.at_once
    }

    fn apply(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        self.apply_many(std::slice::from_ref(object), labels).pop().unwrap()
    }

    /// Each object answers at once, in order; the interrupt is a 503 that
    /// ends the answers (nothing after it is sent).
    fn apply_many(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        self.now += APPLY_MS;
        let names: Vec<String> = objects.iter().map(name_of).collect();
        self.log.push(format!("apply {}", names.join(", ")));
        let mut answers = Vec::new();
        for o in objects {
            if self.interrupt_at.as_deref() == o["metadata"]["name"].as_str() {
                self.log.push(format!("interrupted at {}", name_of(o)));
                answers.push(Err(KubeError::Status {
                    code: 503,
                    verb: "patch".into(),
                    resource: "configmaps".into(),
                    namespace: Some(NS.into()),
                    message: "the API server is shutting down".into(),
                }));
                break;
            }
            if self.rejects.as_deref() == o["metadata"]["name"].as_str() {
                self.log.push(format!("rejected {}", name_of(o)));
                answers.push(Err(KubeError::Invalid {
                    resource: "deployments.apps".into(),
                    namespace: Some(NS.into()),
                    name: name_of(o),
                    message: "spec.replicas: Invalid value: -1".into(),
                }));
                continue;
            }
            answers.push(Ok(self.admit(o, labels)));
        }
        answers
    }

    fn apply_dry_run(&mut self, object: &Value, _labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        Ok(object.clone())
    }

    fn get(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError> {
        let name = key_name(key);
        if self.unreadable.contains(&name) {
            return Err(KubeError::Forbidden {
                verb: "get".into(),
                resource: "deployments.apps".into(),
                namespace: Some(NS.into()),
                message: "the credentials may not read it".into(),
            });
        }
        if key.kind == "Namespace" {
            return Ok(Some(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": key.name}})));
        }
        if self.unmapped.contains(&key.kind) {
            return Err(KubeError::NoMapping { api_version: key.api_version.clone(), kind: key.kind.clone() });
        }
        Ok(self.live.get(&name).cloned())
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], _deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        let names: Vec<String> = keys.iter().map(key_name).collect();
        self.log.push(format!("delete {}", names.join(", ")));
        for name in names {
            self.live.remove(&name);
        }
        self.now += 100;
        Ok(Vec::new())
    }

    fn watch(&mut self, _label_selector: Option<&str>) -> Self::Watch {
        BTreeSet::new()
    }

    fn follow(&mut self, watch: &mut Self::Watch, key: &ObjectKey, _known: &Value) -> Result<(), KubeError> {
        watch.insert(key.clone());
        Ok(())
    }

    fn unfollow(&mut self, watch: &mut Self::Watch, key: &ObjectKey) {
        watch.remove(key);
    }

    fn observed<'a>(&'a self, _watch: &'a Self::Watch, key: &ObjectKey) -> Observed<'a> {
        match self.live.get(&key_name(key)) {
            Some(o) => Observed::Live(o),
            None => Observed::Gone { last: None },
        }
    }

    /// Time passes until a followed object becomes ready, or the deadline.
    fn wait(
        &mut self,
        watch: &mut Self::Watch,
        deadline: Millis,
        done: &mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        loop {
            let finished: Vec<ObjectKey> = watch.iter().filter(|k| done(k, self.observed(watch, k))).cloned().collect();
            if !finished.is_empty() || watch.is_empty() || self.now >= deadline {
                return Ok(finished);
            }
            let next = watch.iter().filter_map(|k| Some((self.ready_at.get(&key_name(k))?, key_name(k)))).min();
            match next {
                Some((&at, name)) if at <= deadline => {
                    self.now = self.now.max(at);
                    self.ready_at.remove(&name);
                    self.live.get_mut(&name).unwrap()["status"] = ready_status();
                    self.log.push(format!("ready {name}"));
                }
                _ => self.now = deadline,
            }
        }
    }

    /// Every group's preferred version is `v1`.
    fn resolve(&mut self, e: &External, namespace: &str) -> Result<ObjectKey, String> {
        let api_version = if e.group.is_empty() { "v1".to_string() } else { format!("{}/v1", e.group) };
        Ok(ObjectKey::new(&api_version, &e.kind, Some(e.namespace.as_deref().unwrap_or(namespace)), &e.name))
    }

    fn await_served(&mut self, _api_version: &str, kind: &str, deadline: Millis) -> Result<bool, KubeError> {
        if !self.unmapped.contains(kind) {
            return Ok(true);
        }
        self.log.push(format!("await discovery of {kind}"));
        match self.served_at.get(kind) {
            Some(&at) if at <= deadline => {
                self.now = self.now.max(at);
                self.unmapped.remove(kind);
                Ok(true)
            }
            _ => {
                self.now = self.now.max(deadline);
                Ok(false)
            }
        }
    }

    fn find(&mut self, watch: &mut Self::Watch, key: &ObjectKey) -> Result<(), KubeError> {
        watch.insert(key.clone());
        Ok(())
    }

    /// A round of watching: a second passes, or less when a followed
    /// object someone else creates appears sooner.
    fn refresh(&mut self, watch: &mut Self::Watch) -> Result<(), KubeError> {
        let round_end = self.now + 1_000;
        let next = watch.iter().filter_map(|k| Some((self.appears.get(&key_name(k))?.0, key_name(k)))).min();
        match next {
            Some((at, name)) if at <= round_end => {
                self.now = self.now.max(at);
                let (_, object) = self.appears.remove(&name).unwrap();
                self.log.push(format!("appeared {name}"));
                self.live.insert(name, object);
            }
            _ => self.now = round_end,
        }
        Ok(())
    }

    /// A Deployment not ready yet has one pod no node takes; no events.
    fn list(
        &mut self,
        _api_version: &str,
        kind: &str,
        _namespace: &str,
        selector: &Selector,
    ) -> Result<Vec<Value>, KubeError> {
        let Some(app) = selector.labels.as_deref().and_then(|l| l.strip_prefix("app=")) else { return Ok(Vec::new()) };
        let waiting = self.ready_at.contains_key(&format!("Deployment/{app}")) || self.never_ready.contains(app);
        if kind != "Pod" || !waiting {
            return Ok(Vec::new());
        }
        Ok(vec![json!({"kind": "Pod", "metadata": {"name": format!("{app}-0")}, "status": {"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})])
    }

    fn create_hooks(&mut self, _objects: &[Value], _labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        unreachable!("hooks are played whole here (Env::run_hooks); tests/run_sim.rs runs them step by step")
    }

    fn hook_pods(&mut self, _kind: &str, _namespace: Option<&str>, _name: &str) -> Result<Vec<Value>, KubeError> {
        unreachable!("hooks are played whole here (Env::run_hooks)")
    }

    fn pod_log_since(
        &mut self,
        _namespace: Option<&str>,
        _pod: &str,
        _container: &str,
        _since: Option<&str>,
    ) -> Result<(String, bool), KubeError> {
        unreachable!("hooks are played whole here (Env::run_hooks)")
    }

    fn container_logs(&mut self, _namespace: &str, _pods: &[Value]) -> Vec<ContainerLog> {
        Vec::new()
    }

    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError> {
        self.asked.extend(wants.iter().cloned());
        match self.forbidden {
            Some(resource) => Err(KubeError::Forbidden {
                verb: "create".into(),
                resource: resource.into(),
                namespace: Some(NS.into()),
                message: why.into(),
            }),
            None => Ok(()),
        }
    }
}

/// Hooks played whole: each event's succeed or fail together, half a second
/// after they start.
impl Env for Sim {
    fn run_hooks(
        &mut self,
        (plan, _hooks): (&EventPlan, &[Hook]),
        _stored: &mut StoredRelease,
        _options: executor::RunOptions,
        recording: Recording,
        progress: &mut dyn HookProgress,
        since: Option<Millis>,
    ) -> Summary {
        assert_eq!(recording, Recording::CallerStoresLast, "a deploy stores the record itself at its end");
        let since = since.expect("a deploy's hooks are timed from its start");
        let Target::Hooks(event) = plan.target else { panic!("hooks of {:?}", plan.target) };
        // The hooks' progress on the command's clock, as the real runner tells it.
        let at = Elapsed::since(since, self.now);
        for i in &plan.items {
            progress.hook(&HookEvent::Started { hook: &i.reference, at });
        }
        let fails = self.failing_hooks.contains(&event);
        self.log.push(format!("hooks {event}{}", if fails { " (failed)" } else { "" }));
        let started_at = self.now;
        self.now += 500;
        let rows = plan
            .items
            .iter()
            .map(|i| HookRow {
                reference: i.reference.to_string(),
                weight: 0,
                phase: if fails { HookPhase::Failed } else { HookPhase::Succeeded },
                started_at: Some(started_at),
                completed_at: Some(self.now),
                message: if fails { "BackoffLimitExceeded".into() } else { String::new() },
                output: None,
                waiting: None,
            })
            .collect();
        Summary {
            event: event.to_string(),
            rows,
            started_at,
            ended_at: self.now,
            outcome: if fails { RunEnd::Failed } else { RunEnd::Succeeded },
            error: None,
            failed_fast: None,
            api_requests: None,
            annotate: false,
            left_running: Vec::new(),
        }
    }
}

impl Store for Sim {
    fn records(&self) -> Option<&'static str> {
        Some("configmaps")
    }

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

    fn not_found(&mut self, release: &str) -> StorageError {
        storage::not_found_with(Driver::ConfigMap, NS, release, self.elsewhere.clone())
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
    let history = sim.history("app").unwrap();
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
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
    let r = deploy(&mut sim, release(1), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Install, 1, "deployed"));
    assert_eq!(
        sim.log,
        [
            "create 1 pending-install",
            "hooks pre-install",
            // Batch 1: the db group, applied in Helm's kind order (one object at
            // a time: a transport that sends one request at a time); batch 2
            // (what depends on it, and what no group orders) once it is ready.
            "apply ConfigMap/db-config",
            "apply Deployment/db",
            "ready Deployment/db",
            "apply ConfigMap/legacy",
            "apply Deployment/web",
            "ready Deployment/web",
            "hooks post-install",
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
    let mut sim = Sim::new();
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
            "apply ConfigMap/db-config, ConfigMap/db-extra",
            "apply Deployment/db",
            "apply ConfigMap/legacy",
            "apply Deployment/web"
        ]
    );
}

#[test]
fn an_upgrade_deletes_what_the_new_version_drops_after_its_rollout_and_supersedes_the_old_revision() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision), (Operation::Upgrade, 2));
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
    let e = failure(&r).to_string();
    assert!(e.contains("Deployment/db is not ready: not ready after 1m0s (--readiness-timeout): 0/1 replicas"), "{e}");
    assert_eq!(r.status, "failed");
    // Batch 2 never applied, nothing deleted, no post-hooks; the revision it
    // was to replace stays deployed (Helm supersedes only on success).
    assert!(sim.only(&["apply Deployment/web", "apply Deployment/worker", "delete", "hooks post"]).is_empty());
    let skipped: Vec<_> =
        states(&r).into_iter().filter(|(_, s)| *s == ResourceState::Skipped).map(|(n, _)| n).collect();
    assert_eq!(skipped, ["Deployment/web", "Deployment/worker"]);
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "failed".into())]);
    let description = sim.records[&2].pointer("/info/description").unwrap().as_str().unwrap();
    assert!(description.starts_with("Upgrade \"app\" failed: "), "{description}");
}

#[test]
fn a_readiness_timeout_is_awaited_through_the_seam_reported_as_it_goes_and_explained() {
    let mut sim = Sim::new();
    sim.never_ready.insert("web".into());
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
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.failing_hooks.insert(Event::PreUpgrade);
    sim.log.clear();
    let r = deploy(&mut sim, release(2), true);
    let Error::Recovered { original, .. } = failure(&r) else { panic!("{:?}", r.ended) };
    let Error::Hooks { event, failed } = original.as_ref() else { panic!("{original:?}") };
    assert_eq!((*event, failed.len()), (Event::PreUpgrade, 1));
    assert_eq!(original.to_string(), "pre-upgrade hook(s) failed: Job/migrate: BackoffLimitExceeded");
    // Nothing of version 2 applied; its revision failed with Helm's description;
    // the rollback to 1 runs its own hooks and applies version 1 again.
    assert_eq!(
        sim.only(&["create", "hooks", "save", "apply Deployment/worker"]),
        [
            "create 2 pending-upgrade",
            "hooks pre-upgrade (failed)",
            "save 2 failed",
            "create 3 pending-rollback",
            "hooks pre-rollback",
            "hooks post-rollback",
            "save 1 superseded",
            "save 3 deployed",
        ],
    );
    let description = sim.records[&2].pointer("/info/description").unwrap().as_str().unwrap();
    assert_eq!(description, "Upgrade \"app\" failed: pre-upgrade hook(s) failed: Job/migrate: BackoffLimitExceeded");
    assert!(r.resources.is_empty(), "{:?}", r.resources);
    assert_eq!(r.hooks.len(), 1, "no post-upgrade hooks");
}

#[test]
fn rollback_on_failure_rolls_a_failed_upgrade_back_to_the_last_good_revision() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.never_ready.insert("worker".into());
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
    let e = failure(&r).to_string();
    assert!(e.starts_with("release app failed, and has been uninstalled due to rollback-on-failure"), "{e}");
    let recovery = r.recovery.as_ref().expect("a recovery");
    assert_eq!((recovery.operation, recovery.status.as_str()), (Operation::Uninstall, "deleted"));
    // What was applied goes, the last batch first (each in reverse of Helm's
    // order); the record with it.
    assert_eq!(
        sim.only(&["delete", "forget", "save"]),
        [
            "save 1 failed",
            "save 1 uninstalling",
            "save 1 uninstalling",
            "delete Deployment/web, ConfigMap/legacy",
            "delete Deployment/db, ConfigMap/db-config",
            "forget 1",
        ],
    );
    assert!(sim.records.is_empty() && sim.live.is_empty(), "{:?} {:?}", sim.records, sim.live);
}

#[test]
fn an_uninstall_with_keep_history_deletes_the_resources_and_keeps_every_revision_uninstalled() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    deploy(&mut sim, release(2), false);
    sim.log.clear();
    let r = uninstall(&mut sim, true);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Uninstall, 2, "uninstalled"));
    assert_eq!(
        sim.only(&["hooks", "delete", "save", "forget"]),
        [
            "save 2 uninstalling",
            "hooks pre-delete",
            // Helm stores the record again once its pre-delete hooks are done.
            "save 2 uninstalling",
            "delete Deployment/worker, Deployment/web",
            "delete Deployment/db, ConfigMap/db-config",
            "save 2 uninstalled",
        ],
    );
    assert!(sim.live.is_empty(), "{:?}", sim.live);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "uninstalled".into())]);
    assert!(sim.records[&2].pointer("/info/deleted").is_some());
    // The next deploy installs again, as the next revision.
    let (operation, current, revision) = deploy::choose(&sim.history("app").unwrap());
    assert_eq!((operation, current.is_none(), revision), (Operation::Install, true, 3));
}

/// Version 1 with its hook also a post-delete hook.
fn with_post_delete(mut release: Value) -> Value {
    let hook = release["hooks"][0]["manifest"].as_str().unwrap().replace("pre-delete\n", "pre-delete,post-delete\n");
    release["hooks"][0]["manifest"] = json!(hook);
    release
}

/// Helm's `Uninstall.Run` goes on past a failed post-delete hook: the
/// release is removed all the same, and the error counted (found by the
/// corpus: openfga's post-delete Job).
#[test]
fn an_uninstall_whose_post_delete_hook_fails_still_removes_the_release_and_counts_the_error_as_helm_does() {
    for keep_history in [false, true] {
        let mut sim = Sim::new();
        deploy(&mut sim, with_post_delete(release(1)), false);
        sim.failing_hooks.insert(Event::PostDelete);
        sim.log.clear();
        let r = uninstall(&mut sim, keep_history);
        let e = failure(&r);
        assert_eq!(
            e.to_string(),
            "uninstallation completed with 1 error(s): post-delete hook(s) failed: Job/migrate: BackoffLimitExceeded"
        );
        assert!(!e.is_cluster());
        assert!(sim.live.is_empty(), "{:?}", sim.live);
        if keep_history {
            assert_eq!(r.status, "uninstalled");
            assert_eq!(sim.statuses(), [(1, "uninstalled".into())]);
        } else {
            assert_eq!(r.status, "deleted");
            assert!(sim.records.is_empty(), "{:?}", sim.records);
        }
        let last = sim.log.iter().rev().find(|l| l.starts_with("hooks") || l.starts_with("delete ")).unwrap();
        assert_eq!(last, "hooks post-delete (failed)");
    }
}

/// A failed pre-delete hook stops Helm's uninstall before any deletion, and
/// the record stays as it was stored when the hooks ran: `uninstalling`.
#[test]
fn an_uninstall_whose_pre_delete_hook_fails_deletes_nothing_and_leaves_the_record_uninstalling() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.failing_hooks.insert(Event::PreDelete);
    sim.log.clear();
    let r = uninstall(&mut sim, false);
    assert_eq!(failure(&r).to_string(), "pre-delete hook(s) failed: Job/migrate: BackoffLimitExceeded");
    assert_eq!(r.status, "uninstalling");
    assert!(sim.only(&["delete"]).is_empty(), "{:?}", sim.log);
    assert_eq!(sim.statuses(), [(1, "uninstalling".into())]);
    let description = sim.records[&1].pointer("/info/description").unwrap().as_str().unwrap();
    assert_eq!(description, "Deletion in progress (or silently failed)");
}

#[test]
fn an_uninstall_keeps_a_resource_whose_ownership_cannot_be_read_and_says_so_as_helm_does() {
    let mut sim = Sim::new();
    deploy(&mut sim, release(1), false);
    sim.unreadable.insert("Deployment/db".into());
    // Another release's object of the same name is not this release's to delete.
    sim.live.get_mut("ConfigMap/legacy").unwrap()["metadata"]["annotations"]["meta.helm.sh/release-name"] =
        json!("other");
    sim.log.clear();
    let r = uninstall(&mut sim, false);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!(sim.only(&["delete"]), ["delete Deployment/web", "delete ConfigMap/db-config"]);
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
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
    sim.unmapped.insert("Deployment".into());
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, Vec::new(), checking));
    assert!(matches!(done, Ok(DeployOutcome::Report(_))), "{done:?}");

    // Rendered server-side: Helm checked; the plugin reads nothing and applies.
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
    sim.unmapped.insert("Widget".into());
    sim.served_at.insert("Widget".into(), 400);
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, vec![crd(true)], flags()));
    assert!(matches!(done, Ok(DeployOutcome::Report(_))), "{done:?}");
    let at = sim.log.iter().position(|l| l == "await discovery of Widget").expect("discovery awaited");
    assert_eq!(sim.log[..at].len(), 1, "{:?}", sim.log);
    assert!(sim.log[at + 1..].iter().any(|l| l.starts_with("apply ")), "{:?}", sim.log);

    let mut sim = Sim::new();
    sim.unmapped.insert("Widget".into());
    let (checked, _) = deploy::check(release(1), &DEPLOY_EVENTS, &options()).unwrap();
    let done = deploy_command(&mut sim, DeployRequest::new(checked, vec![crd(true)], flags()));
    let Err(e) = done else { panic!("{done:?}") };
    assert!(e.to_string().contains("does not serve its kind Widget in example.com/v1 after 1m"), "{e}");
    assert!(sim.records.is_empty(), "{:?}", sim.log);
}

#[test]
fn the_deploy_command_asks_for_every_permission_first_and_a_missing_one_stops_it_with_nothing_done() {
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
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
    let mut sim = Sim::new();
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

    let mut sim = Sim::new();
    cut(&mut sim);
    let r = back(&mut sim);
    assert!(matches!(r.ended, Ended::Done), "{:?}", r.ended);
    assert_eq!(sim.statuses(), [(1, "superseded".into()), (2, "pending-upgrade".into()), (3, "deployed".into())]);
    assert_eq!(sim.only(&["save", "create"]), ["create 3 pending-rollback", "save 1 superseded", "save 3 deployed"]);
    assert_eq!((description(&sim, 1), description(&sim, 3)), ("Install complete".into(), "Rollback to 1".into()));
    // The next deploy is an upgrade of revision 3, which it supersedes; 2 stays as Helm leaves it.
    sim.log.clear();
    let r = deploy(&mut sim, release(2), false);
    assert_eq!((r.operation, r.revision, r.status.as_str()), (Operation::Upgrade, 4, "deployed"));
    assert_eq!(
        sim.statuses(),
        [(1, "superseded".into()), (2, "pending-upgrade".into()), (3, "superseded".into()), (4, "deployed".into())]
    );

    let mut sim = Sim::new();
    cut(&mut sim);
    sim.rejects = Some("web".into());
    let r = back(&mut sim);
    assert!(matches!(r.ended, Ended::Failed(_)), "{:?}", r.ended);
    assert_eq!(sim.statuses(), [(1, "deployed".into()), (2, "superseded".into()), (3, "failed".into())]);
    assert!(description(&sim, 3).starts_with("Rollback \"app\" failed: "), "{}", description(&sim, 3));
    assert_eq!(description(&sim, 2), "Preparing upgrade", "superseded, its description kept");
}
