//! `helm hooks run` and `helm hooks status` (`action::run`, `action::status`)
//! against a simulated cluster, release store and clock (`seam`), as
//! `deploy_sim.rs` drives the deploys: the simulation answers the seam's
//! small steps — a hook applied, its Job's state as time passes, its pods
//! and their logs, the record stored — on a virtual clock, and the hooks run
//! through the same executor and the same `seam::HookCluster` as on a real
//! cluster. Checks a fail-fast hook stopping the run with another left
//! running, that run read back by `status` (the record's `Running`, then
//! what the cluster shows now), a hook's own timeout, and a followed log
//! printed line by line as it is written, each line once.

use std::collections::BTreeMap;

use helm_hooks::action::run::{RunOutcome, RunRequest};
use helm_hooks::action::status::StatusRequest;
use helm_hooks::action::Action;
use helm_hooks::base::time::{go_time, Millis};
use helm_hooks::deploy::progress::{DeployEvent, Progress};
use helm_hooks::exec::executor::{ContainerLog, LeftRunning, Phase};
use helm_hooks::exec::progress::{HookEvent, HookProgress};
use helm_hooks::exec::runner::RunEnd;
use helm_hooks::kube::{KubeError, ObjectKey, Observed, Selector};
use helm_hooks::model::event::Event;
use helm_hooks::model::external::External;
use helm_hooks::release::storage::{self, Driver, Elsewhere, StorageError, StoredRelease};
use helm_hooks::seam::{Clock, Cluster, Env, Store, Want};
use serde_json::{json, Value};

const NS: &str = "ns";
const T0: Millis = 1_700_000_000_000;

/// How a hook's Job behaves once applied: when it ends and how, and what
/// its container writes when.
#[derive(Debug, Clone, Default)]
struct Script {
    ends_after_ms: Millis,
    fails: bool,
    /// (ms after the start, line).
    lines: Vec<(Millis, &'static str)>,
}

/// A hook of the stored release: its name, its annotations, how its Job behaves.
type HookSpec<'a> = (&'a str, &'a [(&'a str, &'a str)], Script);

struct Sim {
    now: Millis,
    /// The stored record of each revision.
    records: BTreeMap<u64, Value>,
    /// Each Job applied, by name: when it started.
    started: BTreeMap<String, Millis>,
    scripts: BTreeMap<String, Script>,
    /// What the run did, in order: `apply Job/x`, `delete Job/x`, `save 1`, `get Job/x`.
    log: Vec<String>,
}

impl Sim {
    fn new(hooks: &[HookSpec]) -> Sim {
        let mut scripts = BTreeMap::new();
        let docs: Vec<Value> = hooks
            .iter()
            .map(|(name, annotations, script)| {
                scripts.insert(name.to_string(), script.clone());
                let mut manifest = format!(
                    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\n  annotations:\n    \
                     helm.sh/hook: test\n"
                );
                for (k, v) in *annotations {
                    manifest.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
                }
                json!({"name": name, "kind": "Job", "path": format!("app/templates/{name}.yaml"),
                    "manifest": manifest, "events": ["test"], "last_run": {}})
            })
            .collect();
        let release = json!({
            "name": "app", "namespace": NS, "version": 1,
            "info": {"status": "deployed", "description": "Install complete",
                "last_deployed": go_time(T0 - 60_000)},
            "chart": {"metadata": {"name": "app", "version": "1.0.0"}},
            "manifest": "", "hooks": docs,
        });
        Sim { now: T0, records: BTreeMap::from([(1, release)]), started: BTreeMap::new(), scripts, log: Vec::new() }
    }

    fn stored(&self, revision: u64) -> StoredRelease {
        let release = &self.records[&revision];
        let object = json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "name": storage::object_name("app", revision), "namespace": NS,
                "labels": {"name": "app", "owner": "helm", "version": revision.to_string(), "status": "deployed"},
            },
            "data": {"release": helm_hooks::release::payload::encode_payload(release.to_string().as_bytes())},
        });
        storage::read_object(Driver::ConfigMap, "app", object).unwrap()
    }

    /// A Job as the API server has it now: active until its script's end,
    /// then complete or failed.
    fn job(&self, name: &str) -> Option<Value> {
        let start = *self.started.get(name)?;
        let script = &self.scripts[name];
        let status = if self.now < start + script.ends_after_ms {
            json!({"active": 1, "startTime": go_time(start)})
        } else if script.fails {
            json!({"failed": 1, "conditions": [{"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded",
                "message": "Job has reached the specified backoff limit",
                "lastTransitionTime": go_time(start + script.ends_after_ms)}]})
        } else {
            json!({"succeeded": 1, "completionTime": go_time(start + script.ends_after_ms),
                "conditions": [{"type": "Complete", "status": "True"}]})
        };
        Some(json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "namespace": NS},
            "spec": {"completions": 1, "parallelism": 1}, "status": status}))
    }

    /// When the next followed Job ends.
    fn next_end(&self, watch: &BTreeMap<ObjectKey, Value>) -> Option<Millis> {
        let ends = watch.keys().filter_map(|k| Some(self.started.get(&k.name)? + self.scripts[&k.name].ends_after_ms));
        ends.filter(|&t| t > self.now).min()
    }

    fn last_run_phase(&self, hook: &str) -> String {
        let hooks = self.records[&1]["hooks"].as_array().unwrap();
        let h = hooks.iter().find(|h| h["name"] == hook).unwrap();
        h["last_run"]["phase"].as_str().unwrap_or_default().to_string()
    }
}

impl Clock for Sim {
    fn now_ms(&mut self) -> Millis {
        self.now
    }
}

impl Cluster for Sim {
    /// The Jobs followed, each as last seen (brought up to date by `wait`).
    type Watch = BTreeMap<ObjectKey, Value>;

    fn namespace(&self) -> &str {
        NS
    }

    fn requests(&self) -> (u64, u64) {
        (self.log.len() as u64, 0)
    }

    fn at_once(&self) -> bool {
        false
    }

    fn apply(&mut self, _object: &Value, _labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        unreachable!("run applies hooks only (create_hooks)")
    }

    fn apply_many(&mut self, _objects: &[Value], _labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        unreachable!("run applies hooks only (create_hooks)")
    }

    fn apply_dry_run(&mut self, _object: &Value, _labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        unreachable!("run has no dry run")
    }

    fn get(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError> {
        self.log.push(format!("get {}/{}", key.kind, key.name));
        Ok(self.job(&key.name))
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], _deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        for k in keys {
            if self.started.remove(&k.name).is_some() {
                self.log.push(format!("delete {}/{}", k.kind, k.name));
            }
        }
        Ok(Vec::new())
    }

    fn watch(&mut self, _label_selector: Option<&str>) -> Self::Watch {
        BTreeMap::new()
    }

    fn follow(&mut self, watch: &mut Self::Watch, key: &ObjectKey, known: &Value) -> Result<(), KubeError> {
        watch.insert(key.clone(), known.clone());
        Ok(())
    }

    fn unfollow(&mut self, watch: &mut Self::Watch, key: &ObjectKey) {
        watch.remove(key);
    }

    fn observed<'a>(&'a self, watch: &'a Self::Watch, key: &ObjectKey) -> Observed<'a> {
        match watch.get(key) {
            Some(o) => Observed::Live(o),
            None => Observed::Gone { last: None },
        }
    }

    fn wait(
        &mut self,
        watch: &mut Self::Watch,
        deadline: Millis,
        done: &mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        loop {
            let mut finished = Vec::new();
            for (k, seen) in watch.iter_mut() {
                if let Some(job) = self.job(&k.name) {
                    *seen = job;
                }
                if done(k, Observed::Live(seen)) {
                    finished.push(k.clone());
                }
            }
            if !finished.is_empty() || self.now >= deadline {
                return Ok(finished);
            }
            self.now = self.next_end(watch).map_or(deadline, |t| t.min(deadline));
        }
    }

    fn resolve(&mut self, _e: &External, _namespace: &str) -> Result<ObjectKey, String> {
        unreachable!("hooks have no external dependencies")
    }

    fn await_served(&mut self, _api_version: &str, _kind: &str, _deadline: Millis) -> Result<bool, KubeError> {
        unreachable!("run installs no CRDs")
    }

    fn find(&mut self, _watch: &mut Self::Watch, _key: &ObjectKey) -> Result<(), KubeError> {
        unreachable!("run follows what it applied")
    }

    fn refresh(&mut self, _watch: &mut Self::Watch) -> Result<(), KubeError> {
        unreachable!("run waits with wait")
    }

    fn list(&mut self, _: &str, _: &str, _: &str, _: &Selector) -> Result<Vec<Value>, KubeError> {
        Ok(Vec::new())
    }

    fn create_hooks(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        objects
            .iter()
            .map(|o| {
                let name = o["metadata"]["name"].as_str().unwrap().to_string();
                assert!(labels.is_empty() || labels[0].1 == "app", "the run's label names the release");
                self.log.push(format!("apply Job/{name}"));
                self.started.insert(name.clone(), self.now);
                Ok(self.job(&name).unwrap())
            })
            .collect()
    }

    /// One pod per Job, its container running from the start.
    fn hook_pods(&mut self, _kind: &str, _namespace: Option<&str>, name: &str) -> Result<Vec<Value>, KubeError> {
        Ok(vec![json!({"metadata": {"name": format!("{name}-pod")}, "spec": {"containers": [{"name": "main"}]},
            "status": {"phase": "Running", "containerStatuses": [{"name": "main", "state": {"running": {}}}]}})])
    }

    /// The lines written up to now, stamped, from `since` (whole seconds) on.
    fn pod_log_since(
        &mut self,
        _namespace: Option<&str>,
        pod: &str,
        _container: &str,
        since: Option<&str>,
    ) -> Result<(String, bool), KubeError> {
        let name = pod.strip_suffix("-pod").unwrap();
        let start = self.started[name];
        let since = since.and_then(helm_hooks::base::time::parse_time).unwrap_or(0);
        let mut body = String::new();
        for (at, line) in &self.scripts[name].lines {
            let t = start + at;
            if t <= self.now && t >= since {
                let second = go_time(t - t % 1000);
                let stamp = second.trim_end_matches('Z');
                body.push_str(&format!("{stamp}.{:03}000000Z {line}\n", t % 1000));
            }
        }
        Ok((body, true))
    }

    fn container_logs(&mut self, _namespace: &str, pods: &[Value]) -> Vec<ContainerLog> {
        pods.iter()
            .map(|p| {
                let pod = p["metadata"]["name"].as_str().unwrap().to_string();
                let name = pod.strip_suffix("-pod").unwrap();
                let text = self.scripts[name].lines.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
                ContainerLog { pod, container: "main".into(), text }
            })
            .collect()
    }

    fn check_access(&mut self, _wants: &[Want], _why: &str) -> Result<(), KubeError> {
        Ok(())
    }
}

/// Hooks run through the seam's steps (the default, as on the real cluster).
impl Env for Sim {}

impl Store for Sim {
    fn records(&self) -> Option<&'static str> {
        Some("configmaps")
    }

    fn create(&mut self, _namespace: &str, _release: Value, _now_unix: u64) -> Result<StoredRelease, StorageError> {
        unreachable!("run stores no new revision")
    }

    fn save(&mut self, stored: &mut StoredRelease, _now_unix: u64) -> Result<(), StorageError> {
        self.log.push(format!("save {}", stored.revision));
        self.records.insert(stored.revision, stored.release.clone());
        Ok(())
    }

    fn history(&mut self, _release: &str) -> Result<Vec<StoredRelease>, StorageError> {
        Ok(self.records.keys().map(|&r| self.stored(r)).collect())
    }

    fn not_found(&mut self, release: &str) -> StorageError {
        storage::not_found_with(Driver::ConfigMap, NS, release, Elsewhere::NotAsked)
    }

    fn history_where(
        &mut self,
        _release: &str,
        _wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError> {
        unreachable!("run reads the latest revision")
    }

    fn delete(&mut self, _stored: &StoredRelease) -> Result<(), StorageError> {
        unreachable!("run deletes no revision")
    }
}

/// What the run said, as lines with their times from its start.
#[derive(Default)]
struct Said(Vec<String>);

impl HookProgress for Said {
    fn hook(&mut self, e: &HookEvent<'_>) {
        let line = match *e {
            HookEvent::Started { hook, at } => format!("{at:?} started {hook}"),
            HookEvent::Finished { hook, at, phase, .. } => format!("{at:?} {phase:?} {hook}"),
            HookEvent::FailFast { hook, ignored } => format!("fail-fast {hook} ignored={ignored}"),
            HookEvent::LogLines { hook, log } => format!("log {hook}: {}", log.text),
            HookEvent::Output { hook, .. } => format!("output {hook}"),
            HookEvent::Waiting { .. } => return,
        };
        self.0.push(line);
    }
}

/// The one sink of every command: a run tells its hooks' events through it.
impl Progress for Said {
    fn event(&mut self, e: &DeployEvent<'_>) {
        if let DeployEvent::Hook(h) = e {
            self.hook(h);
        }
    }
}

fn request(parallel: usize, timeout_ms: Millis, logs: bool) -> RunRequest {
    RunRequest {
        release: "app".into(),
        event: Event::Test,
        parallel,
        parallel_all: false,
        timeout_ms,
        ignore_fail_fast: false,
        logs,
        include: Vec::new(),
        exclude: Vec::new(),
    }
}

fn run(sim: &mut Sim, request: RunRequest) -> (RunOutcome, Vec<String>) {
    let mut said = Said::default();
    let outcome = request.run(sim, &mut said).unwrap_or_else(|e| panic!("{e}"));
    (outcome, said.0)
}

fn phases(outcome: &RunOutcome) -> Vec<(String, Phase)> {
    outcome.summary.rows.iter().map(|r| (r.reference.clone(), r.phase)).collect()
}

/// A fail-fast hook that fails after 2 s stops the run at once: the hook
/// beside it, which would take a minute, is neither awaited nor deleted, and
/// is named as left running. The record keeps it `Running`, as Helm leaves
/// a hook whose end it never saw.
#[test]
fn a_fail_fast_hook_stops_the_run_and_leaves_the_other_running() {
    let slow = Script { ends_after_ms: 60_000, ..Script::default() };
    let broken = Script { ends_after_ms: 2_000, fails: true, ..Script::default() };
    let parallel = ("helm.sh/hook-parallel", "true");
    let mut sim =
        Sim::new(&[("migrate", &[("helm.sh/hook-fail-fast", "true"), parallel], broken), ("warm", &[parallel], slow)]);
    let (outcome, said) = run(&mut sim, request(2, 300_000, false));
    assert_eq!(outcome.summary.outcome, RunEnd::Failed);
    assert_eq!(outcome.summary.failed_fast.as_deref(), Some("Job/migrate"), "{said:?}");
    assert_eq!(sim.now - T0, 2_000, "stopped when the fail-fast hook failed: {said:?} {:?}", sim.log);
    let left: Vec<(String, LeftRunning)> =
        outcome.summary.left_running.iter().map(|(r, why)| (r.to_string(), *why)).collect();
    assert_eq!(left, [("Job/warm".to_string(), LeftRunning::NotAwaited)]);
    assert!(!sim.log.contains(&"delete Job/warm".to_string()), "{:?}", sim.log);
    assert_eq!((sim.last_run_phase("migrate"), sim.last_run_phase("warm")), ("Failed".into(), "Running".into()));
    assert!(said.contains(&"fail-fast Job/migrate ignored=false".to_string()), "{said:?}");
}

/// `status` reads that run back from the record: the stopped hook is
/// abandoned, and what the cluster shows now (one GET) says it is still
/// running; once its Job has completed, the same `status` says so.
#[test]
fn status_reads_a_stopped_run_back_and_asks_the_cluster_about_what_it_left_running() {
    let slow = Script { ends_after_ms: 60_000, ..Script::default() };
    let broken = Script { ends_after_ms: 2_000, fails: true, ..Script::default() };
    let parallel = ("helm.sh/hook-parallel", "true");
    let mut sim =
        Sim::new(&[("migrate", &[("helm.sh/hook-fail-fast", "true"), parallel], broken), ("warm", &[parallel], slow)]);
    run(&mut sim, request(2, 300_000, false));
    let asked = StatusRequest { release: "app".into(), event: Event::Test, revision: None };
    let read = |sim: &mut Sim| asked.clone().run(sim, &mut ()).unwrap();
    sim.log.clear();
    let s = read(&mut sim);
    assert_eq!(sim.log, ["get Job/warm"], "one GET, of the hook the record leaves running");
    let rows: Vec<(&str, Phase, &str)> =
        s.summary.rows.iter().map(|r| (r.reference.as_str(), r.phase, r.message.as_str())).collect();
    assert_eq!((rows[0].0, rows[0].1), ("Job/migrate", Phase::Failed));
    assert_eq!((rows[1].0, rows[1].1), ("Job/warm", Phase::Running));
    assert!(rows[1].2.starts_with("still running in the cluster"), "{}", rows[1].2);
    assert_eq!((s.revision, s.namespace.as_str()), (1, NS));

    sim.now = T0 + 61_000;
    let s = read(&mut sim);
    assert_eq!(s.summary.rows[1].phase, Phase::Succeeded);
    assert_eq!(s.summary.rows[1].completed_at, Some(T0 + 60_000), "the end as the Job says it");
    // Nothing was changed: the record still says what the run stored.
    assert_eq!(sim.last_run_phase("warm"), "Running");
}

/// A hook's own `helm.sh/hook-timeout` ends its wait at its start plus its
/// time, under a longer `--timeout`; it fails and, with no `hook-failed`
/// policy to delete it, is named as left running. As in Helm, the hooks
/// after a failed one do not run.
#[test]
fn a_hook_timeout_ends_its_wait_at_its_own_time() {
    let stuck = Script { ends_after_ms: 600_000, ..Script::default() };
    let quick = Script { ends_after_ms: 1_000, ..Script::default() };
    let mut sim = Sim::new(&[
        ("a-stuck", &[("helm.sh/hook-timeout", "30s"), ("helm.sh/hook-weight", "1")], stuck),
        ("b-after", &[("helm.sh/hook-weight", "2")], quick),
    ]);
    let (outcome, said) = run(&mut sim, request(1, 300_000, false));
    assert_eq!(outcome.summary.outcome, RunEnd::Failed, "{said:?}");
    let stuck_row = &outcome.summary.rows[0];
    assert_eq!(stuck_row.phase, Phase::Failed);
    assert_eq!(stuck_row.completed_at.map(|t| t - T0), Some(30_000), "{said:?}");
    assert_eq!(phases(&outcome)[1], ("Job/b-after".to_string(), Phase::Skipped));
    assert!(!sim.log.contains(&"apply Job/b-after".to_string()), "{:?}", sim.log);
    let left: Vec<String> = outcome.summary.left_running.iter().map(|(r, _)| r.to_string()).collect();
    assert_eq!(left, ["Job/a-stuck"]);
    assert_eq!(sim.now - T0, 30_000, "{said:?}");
}

/// A `helm.sh/show-output` hook's lines are printed as they are written,
/// read again at the follow pace, each line once and in order, before the
/// hook's end.
#[test]
fn a_followed_hooks_log_is_printed_as_it_is_written_each_line_once() {
    let talky = Script {
        ends_after_ms: 4_000,
        lines: vec![(200, "connecting"), (1_300, "migrating 1/2"), (1_300, "migrating 2/2"), (3_500, "done")],
        ..Script::default()
    };
    let mut sim = Sim::new(&[("migrate", &[("helm.sh/show-output", "true")], talky)]);
    let (outcome, said) = run(&mut sim, request(1, 300_000, false));
    assert_eq!(outcome.summary.outcome, RunEnd::Succeeded, "{said:?}");
    let logs: Vec<&str> = said.iter().filter(|l| l.starts_with("log ")).map(String::as_str).collect();
    let lines: Vec<&str> = logs.iter().flat_map(|l| l["log Job/migrate: ".len()..].lines()).collect();
    assert_eq!(lines, ["connecting", "migrating 1/2", "migrating 2/2", "done"], "{said:?}");
    assert!(logs.len() >= 3, "read as they came, not at the end: {said:?}");
    let end = said.iter().position(|l| l.contains("Succeeded Job/migrate")).unwrap();
    let last_log = said.iter().rposition(|l| l.starts_with("log ")).unwrap();
    assert!(last_log < end, "{said:?}");
}
