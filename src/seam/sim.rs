//! The one simulated world every simulation test runs in (`tests/*_sim.rs`):
//! a cluster, Helm's records and a clock, answering the seam's steps the
//! way each test scripts them, on a virtual clock, instantly in real time.
//! The drivers' own code — hooks through [`super::run_hooks`], resources
//! through `deploy::apply` — decides everything from its answers. Built
//! for the tests only (the `sim` feature), never into plugin.wasm.
//!
//! Objects behave by kind once applied: a Deployment becomes ready
//! [`Sim::startup_ms`] later; a Job or a Pod ends as its [`Script`] says
//! (complete by default) — a Job with its `Complete` or `Failed` condition
//! as the Job controller writes them, a Pod with its phase and its
//! container's exit code — and a Job has one pod, named as Kubernetes names
//! a Job's pods ([`job_pod`]), whose container writes the script's lines or
//! waits (`ImagePullBackOff`) as the script says; a script may say an
//! object never settles. Faults are fields: an API server that goes away at
//! an object, an object rejected, reads refused, kinds discovery does not
//! serve yet, a permission missing, records refused, answers that come late,
//! logs cut at a size.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::base::time::{go_time, parse_time, Millis};
use crate::kube::{KubeError, ObjectKey, Observed};
use crate::release::storage::{self, Driver, Elsewhere, StorageError, StoredRelease};

use super::cluster::{About, Api, Apply, Cluster, LogFrom, Read, Served, Until};
use super::store::{Clock, Pick, Store, Write};
use super::wants::Want;
use super::watch::Watch;

/// How a scripted object behaves once applied.
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// When it settles (a Deployment ready, a Job done) after its apply;
    /// `None`: never.
    pub ends_after_ms: Option<Millis>,
    /// A Job that ends fails (`BackoffLimitExceeded`).
    pub fails: bool,
    /// What its container writes: (ms after the apply, line).
    pub lines: Vec<(Millis, String)>,
    /// Why its container waits while it runs (`ImagePullBackOff`): its pod
    /// is `Pending`, the container not started.
    pub waiting: Option<String>,
}

/// The pod of Job `job`, named as Kubernetes names a Job's pods: the Job's
/// name, a dash and five characters of the alphabet Kubernetes draws
/// `generateName` suffixes from (here from the name, not at random).
pub fn job_pod(job: &str) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut h: u64 = 1469598103934665603;
    for b in job.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(1099511628211);
    }
    let suffix: String = (0..5).map(|i| ALPHABET[((h >> (i * 8)) % ALPHABET.len() as u64) as usize] as char).collect();
    format!("{job}-{suffix}")
}

/// The cluster, the store and the clock, simulated.
pub struct Sim {
    pub now: Millis,
    pub namespace: String,
    /// Helm's records by revision, as the release JSON (one release, as ConfigMaps).
    pub records: BTreeMap<u64, Value>,
    /// The objects that exist, by `Kind/name`, as the API server has them.
    pub live: BTreeMap<String, Value>,
    /// How objects behave, by `Kind/name`; unscripted Deployments are
    /// ready [`Sim::startup_ms`] after their apply, Jobs complete at once.
    pub scripts: BTreeMap<String, Script>,
    /// Jobs (by `Kind/name`) whose next run fails, whatever their script says.
    pub fail_next: BTreeSet<String>,
    pub startup_ms: Millis,
    /// How long one call that applies objects takes, one deletion, and one
    /// write of a record.
    pub apply_ms: Millis,
    pub delete_ms: Millis,
    pub write_ms: Millis,
    /// How long past its deadline a wait that saw nothing end answers (a
    /// watch the API server holds on a quiet cluster).
    pub late_ms: Millis,
    /// Each object deleted (by `Kind/name`), and when.
    pub deleted: Vec<(String, Millis)>,
    /// The credentials may not update Helm's records (a 403 on each write).
    pub refuses_writes: bool,
    /// A log read answers at most this many bytes (`limitBytes`).
    pub log_limit_bytes: Option<usize>,
    /// What was done, in order: `apply A, B`, `delete A`, `ready A`,
    /// `complete Job/x`, `failed Job/x`, `create 1 pending-install`,
    /// `save 1 deployed`, `forget 1`, `appeared A`, `interrupted at A`,
    /// `rejected A`, `await discovery of Kind`.
    pub log: Vec<String>,
    /// The objects read one by one (GET), by `Kind/name`, in order.
    pub gets: Vec<String>,
    /// Whether a batch of applies goes at once (Helm's `kube_request`).
    pub at_once: bool,
    /// The API server goes away when the object of this name is applied (a 503).
    pub interrupt_at: Option<String>,
    /// The API server rejects the object of this name (422), as an invalid one.
    pub rejects: Option<String>,
    /// Objects (by `Kind/name`) whose reads the API server refuses.
    pub unreadable: BTreeSet<String>,
    /// Kinds discovery does not list yet (a CRD just established), and
    /// when it starts to, if ever.
    pub unmapped: BTreeSet<String>,
    pub served_at: BTreeMap<String, Millis>,
    /// The permission the credentials lack, refused by `check_access`; what it was asked.
    pub forbidden: Option<&'static str>,
    pub asked: Vec<Want>,
    /// Objects no release applies (by `Kind/name`), created by someone else
    /// at the time given: external dependencies.
    pub appears: BTreeMap<String, (Millis, Value)>,
    /// Where else a release of the name is stored, as the cluster would answer.
    pub elsewhere: Elsewhere,
    /// When each applied object settles, and whether it fails then.
    settles: BTreeMap<String, (Millis, bool)>,
    requests: u64,
}

impl Sim {
    /// An empty world in `namespace` at `now`.
    pub fn new(namespace: &str, now: Millis) -> Sim {
        Sim {
            now,
            namespace: namespace.to_string(),
            records: BTreeMap::new(),
            live: BTreeMap::new(),
            scripts: BTreeMap::new(),
            fail_next: BTreeSet::new(),
            startup_ms: 1_000,
            apply_ms: 0,
            delete_ms: 0,
            write_ms: 0,
            late_ms: 0,
            deleted: Vec::new(),
            refuses_writes: false,
            log_limit_bytes: None,
            log: Vec::new(),
            gets: Vec::new(),
            at_once: false,
            interrupt_at: None,
            rejects: None,
            unreadable: BTreeSet::new(),
            unmapped: BTreeSet::new(),
            served_at: BTreeMap::new(),
            forbidden: None,
            asked: Vec::new(),
            appears: BTreeMap::new(),
            elsewhere: Elsewhere::NotAsked,
            settles: BTreeMap::new(),
            requests: 0,
        }
    }

    /// The record of `revision` as Helm's storage holds it.
    pub fn stored(&self, revision: u64) -> StoredRelease {
        let release = &self.records[&revision];
        let name = release["name"].as_str().unwrap_or_default();
        let object = json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "name": storage::object_name(name, revision),
                "namespace": self.namespace,
                "labels": {"name": name, "owner": "helm", "version": revision.to_string(), "status": status(release)},
            },
            "data": {"release": crate::release::payload::encode_payload(release.to_string().as_bytes())},
        });
        storage::read_object(Driver::ConfigMap, name, object).expect("a record the simulation wrote")
    }

    /// Each revision's status.
    pub fn statuses(&self) -> Vec<(u64, String)> {
        self.records.iter().map(|(r, v)| (*r, status(v))).collect()
    }

    /// The entries of the log that start with one of `prefixes`.
    pub fn only(&self, prefixes: &[&str]) -> Vec<&str> {
        self.log.iter().map(String::as_str).filter(|l| prefixes.iter().any(|p| l.starts_with(p))).collect()
    }

    /// Settles what is due by now (in time order) and lets what someone
    /// else creates appear.
    fn catch_up(&mut self) {
        let due: Vec<(String, Millis)> =
            self.appears.iter().filter(|(_, (at, _))| *at <= self.now).map(|(k, (at, _))| (k.clone(), *at)).collect();
        for (name, _) in due {
            let (_, object) = self.appears.remove(&name).expect("listed");
            self.log.push(format!("appeared {name}"));
            self.live.insert(name, object);
        }
        let mut due: Vec<(Millis, String, bool)> = self
            .settles
            .iter()
            .filter(|(_, (at, _))| *at <= self.now)
            .map(|(k, (at, f))| (*at, k.clone(), *f))
            .collect();
        due.sort();
        for (at, name, fails) in due {
            self.settles.remove(&name);
            self.settle(&name, at, fails);
        }
    }

    /// The object `name` settles at `at`: a Deployment ready, a Job done.
    fn settle(&mut self, name: &str, at: Millis, fails: bool) {
        let Some(live) = self.live.get_mut(name) else { return };
        let started = live["status"]["startTime"].clone();
        match live["kind"].as_str() {
            Some("Job") if fails => {
                live["status"] = json!({"failed": 1, "startTime": started, "conditions": [{"type": "Failed", "status": "True",
                    "reason": "BackoffLimitExceeded", "message": "Job has reached the specified backoff limit",
                    "lastTransitionTime": go_time(at)}]});
                self.log.push(format!("failed {name}"));
            }
            Some("Job") => {
                live["status"] = json!({"succeeded": 1, "startTime": started, "completionTime": go_time(at),
                    "conditions": [{"type": "Complete", "status": "True"}]});
                self.log.push(format!("complete {name}"));
            }
            Some("Pod") => {
                let (phase, code, reason) = if fails { ("Failed", 1, "Error") } else { ("Succeeded", 0, "Completed") };
                let container = first_container(live);
                live["status"] = json!({"phase": phase, "startTime": started, "containerStatuses": [{"name": container,
                    "state": {"terminated": {"exitCode": code, "reason": reason, "startedAt": started,
                    "finishedAt": go_time(at)}}}]});
                self.log.push(format!("{} {name}", if fails { "failed" } else { "complete" }));
            }
            _ => {
                live["status"] = json!({"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                    "readyReplicas": 1, "availableReplicas": 1, "conditions": [{"type": "Available", "status": "True"},
                    {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]});
                self.log.push(format!("ready {name}"));
            }
        }
    }

    /// The object as the API server has it after an apply, with what it
    /// will do next scheduled.
    fn admit(&mut self, object: &Value, labels: &[(&str, &str)]) -> Value {
        let mut live = object.clone();
        for (k, v) in labels {
            live["metadata"]["labels"][*k] = json!(v);
        }
        let name = name_of(&live);
        let script = self.scripts.get(&name).cloned();
        let fails = self.fail_next.remove(&name) || script.as_ref().is_some_and(|s| s.fails);
        let after = match live["kind"].as_str() {
            Some("Deployment") => {
                live["metadata"]["generation"] = json!(1);
                live["spec"]["replicas"] = json!(1);
                live["spec"]["selector"] = json!({"matchLabels": {"app": live["metadata"]["name"]}});
                live["status"] = json!({"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
                    "readyReplicas": 0, "availableReplicas": 0});
                script.map_or(Some(self.startup_ms), |s| s.ends_after_ms)
            }
            Some("Job") => {
                live["status"] = json!({"active": 1, "startTime": go_time(self.now)});
                script.map_or(Some(0), |s| s.ends_after_ms)
            }
            Some("Pod") => {
                if live.pointer("/spec/containers").is_none() {
                    live["spec"]["containers"] = json!([{"name": "main", "image": "busybox"}]);
                }
                let waiting = script.as_ref().and_then(|s| s.waiting.as_deref());
                live["status"] = pod_status(&first_container(&live), waiting, &go_time(self.now));
                script.map_or(Some(0), |s| s.ends_after_ms)
            }
            _ => None,
        };
        self.settles.remove(&name);
        if let Some(after) = after {
            self.settles.insert(name.clone(), (self.now + after, fails));
        }
        self.live.insert(name.clone(), live);
        self.catch_up();
        self.live[&name].clone()
    }

    /// One object's answer to an apply: a 503 at the interrupt, a 422 for
    /// the one rejected.
    fn answer(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        let name = object["metadata"]["name"].as_str();
        if self.interrupt_at.as_deref() == name {
            self.log.push(format!("interrupted at {}", name_of(object)));
            return Err(KubeError::Status {
                code: 503,
                verb: "patch".into(),
                resource: "configmaps".into(),
                namespace: Some(self.namespace.clone()),
                message: "the API server is shutting down".into(),
            });
        }
        if self.rejects.as_deref() == name {
            self.log.push(format!("rejected {}", name_of(object)));
            return Err(KubeError::Invalid {
                resource: "deployments.apps".into(),
                namespace: Some(self.namespace.clone()),
                name: name_of(object),
                message: "spec.replicas: Invalid value: -1".into(),
            });
        }
        Ok(self.admit(object, labels))
    }

    fn observed(&self, key: &ObjectKey) -> Observed<'_> {
        match self.live.get(&key_name(key)) {
            Some(o) => Observed::Live(o),
            None => Observed::Gone { last: None },
        }
    }

    /// What `watch` holds, brought up to date.
    fn look(&mut self, watch: &mut Watch) -> Vec<ObjectKey> {
        self.catch_up();
        watch.take_changes();
        let mut keys = Vec::new();
        watch.saw(|k| {
            keys.push(k.clone());
            self.observed(k)
        });
        keys
    }

    /// When the next of `keys` settles or appears, after now.
    fn next_event(&self, keys: &[ObjectKey]) -> Option<Millis> {
        let at = |k: &ObjectKey| {
            let name = key_name(k);
            self.settles.get(&name).map(|(at, _)| *at).or_else(|| self.appears.get(&name).map(|(at, _)| *at))
        };
        keys.iter().filter_map(at).filter(|&t| t > self.now).min()
    }

    /// Job `job`'s one pod ([`job_pod`]) as the Job's state has it:
    /// running (or `Pending`, its container waiting as the script says)
    /// while the Job is active, its container ended with exit code 0 once
    /// the Job completed, 1 once it failed.
    fn job_pod_object(&self, job: &str) -> Value {
        let name = format!("Job/{job}");
        let status = &self.live[&name]["status"];
        let started = status["startTime"].as_str().unwrap_or_default().to_string();
        let conditions = status["conditions"].as_array().map(Vec::as_slice).unwrap_or_default();
        let ended = conditions.iter().find(|c| c["status"] == "True").map(|c| c["type"] == "Complete");
        let status = match ended {
            None => {
                let waiting = self.scripts.get(&name).and_then(|s| s.waiting.as_deref());
                pod_status("main", waiting, &started)
            }
            Some(ok) => {
                let at =
                    if ok { status["completionTime"].clone() } else { conditions[0]["lastTransitionTime"].clone() };
                let (phase, code, reason) = if ok { ("Succeeded", 0, "Completed") } else { ("Failed", 1, "Error") };
                json!({"phase": phase, "startTime": started, "containerStatuses": [{"name": "main", "state":
                    {"terminated": {"exitCode": code, "reason": reason, "startedAt": started, "finishedAt": at}}}]})
            }
        };
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": job_pod(job), "labels": {"job-name": job}},
            "spec": {"containers": [{"name": "main", "image": "busybox"}]}, "status": status})
    }

    /// The pods of what a selector names: a Job's one pod (`job-name=`),
    /// a Pod by name, or a Deployment's pod no node takes while it is not
    /// ready (`app=`).
    fn pods(&self, labels: Option<&str>, fields: Option<&str>) -> Vec<Value> {
        if let Some(name) = fields.and_then(|f| f.strip_prefix("metadata.name=")) {
            return self.live.get(&format!("Pod/{name}")).cloned().into_iter().collect();
        }
        if let Some(job) = labels.and_then(|l| l.strip_prefix("job-name=")) {
            if !self.live.contains_key(&format!("Job/{job}")) {
                return Vec::new();
            }
            return vec![self.job_pod_object(job)];
        }
        let Some(app) = labels.and_then(|l| l.strip_prefix("app=")) else { return Vec::new() };
        let name = format!("Deployment/{app}");
        let waiting = self.live.contains_key(&name) && self.live[&name]["status"]["readyReplicas"] == json!(0);
        if !waiting {
            return Vec::new();
        }
        vec![json!({"kind": "Pod", "metadata": {"name": format!("{app}-0")}, "status": {"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}]}})]
    }
}

/// A pod's status while it runs, started at `started`: `Running`, or
/// `Pending` with its container waiting for `waiting`.
fn pod_status(container: &str, waiting: Option<&str>, started: &str) -> Value {
    match waiting {
        Some(reason) => json!({"phase": "Pending", "startTime": started, "containerStatuses": [{"name": container,
            "ready": false, "state": {"waiting": {"reason": reason}}}]}),
        None => json!({"phase": "Running", "startTime": started, "containerStatuses": [{"name": container,
            "ready": true, "state": {"running": {"startedAt": started}}}]}),
    }
}

/// The name of a pod's first container.
fn first_container(pod: &Value) -> String {
    pod.pointer("/spec/containers/0/name").and_then(Value::as_str).unwrap_or("main").to_string()
}

fn status(release: &Value) -> String {
    release.pointer("/info/status").and_then(Value::as_str).unwrap_or_default().to_string()
}

fn name_of(object: &Value) -> String {
    let kind = object["kind"].as_str().unwrap_or_default();
    format!("{kind}/{}", object["metadata"]["name"].as_str().unwrap_or_default())
}

fn key_name(key: &ObjectKey) -> String {
    format!("{}/{}", key.kind, key.name)
}

impl Clock for Sim {
    fn now_ms(&mut self) -> Millis {
        self.now
    }
}

impl Cluster for Sim {
    fn about(&self) -> About<'_> {
        About {
            namespace: &self.namespace,
            requests: (self.requests, 0),
            at_once: self.at_once,
            records: Some("configmaps"),
        }
    }

    /// Each object answers in order; the interrupt ends the answers
    /// (nothing after it is sent).
    fn apply(&mut self, objects: &[Value], how: &Apply<'_>) -> Vec<Result<Value, KubeError>> {
        self.requests += objects.len() as u64;
        if how.dry_run {
            return objects.iter().map(|o| Ok(o.clone())).collect();
        }
        self.now += self.apply_ms;
        let names: Vec<String> = objects.iter().map(name_of).collect();
        self.log.push(format!("apply {}", names.join(", ")));
        let mut answers = Vec::new();
        for o in objects {
            let answer = self.answer(o, how.labels);
            let stop = matches!(&answer, Err(e) if !e.is_object_fault());
            answers.push(answer);
            if stop {
                break;
            }
        }
        answers
    }

    fn read(&mut self, what: Read<'_>) -> Result<Vec<Value>, KubeError> {
        self.requests += 1;
        self.catch_up();
        let key = match what {
            Read::One(key) => key,
            Read::Many { kind: "Pod", selector, .. } => {
                return Ok(self.pods(selector.labels.as_deref(), selector.field_selector()))
            }
            Read::Many { .. } => return Ok(Vec::new()),
        };
        let name = key_name(key);
        self.gets.push(name.clone());
        if self.unreadable.contains(&name) {
            return Err(KubeError::Forbidden {
                verb: "get".into(),
                resource: "deployments.apps".into(),
                namespace: Some(self.namespace.clone()),
                message: "the credentials may not read it".into(),
            });
        }
        if key.kind == "Namespace" {
            return Ok(vec![json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": key.name}})]);
        }
        if self.unmapped.contains(&key.kind) {
            return Err(KubeError::NoMapping { api_version: key.api_version.clone(), kind: key.kind.clone() });
        }
        Ok(self.live.get(&name).cloned().into_iter().collect())
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], _deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        self.requests += keys.len() as u64;
        let names: Vec<String> = keys.iter().map(key_name).filter(|n| self.live.contains_key(n)).collect();
        if !names.is_empty() {
            self.log.push(format!("delete {}", names.join(", ")));
        }
        for name in names {
            self.live.remove(&name);
            self.settles.remove(&name);
            self.deleted.push((name, self.now));
        }
        self.now += self.delete_ms;
        Ok(Vec::new())
    }

    /// Time passes until a followed object settles (or the deadline); a
    /// round of watching is a second, or less when a followed object
    /// appears or settles sooner.
    fn wait(&mut self, watch: &mut Watch, until: Until<'_>) -> Result<Vec<ObjectKey>, KubeError> {
        self.requests += 1;
        let (deadline, done) = match until {
            Until::Changed => {
                let keys = self.look(watch);
                let round_end = self.now + 1_000;
                self.now = self.next_event(&keys).filter(|&t| t <= round_end).unwrap_or(round_end);
                self.look(watch);
                return Ok(Vec::new());
            }
            Until::Settled { deadline, done } => (deadline, done),
        };
        loop {
            let keys = self.look(watch);
            let finished: Vec<ObjectKey> = keys.iter().filter(|k| done(k, watch.observed(k))).cloned().collect();
            if !finished.is_empty() || keys.is_empty() {
                return Ok(finished);
            }
            if self.now >= deadline {
                self.now += self.late_ms;
                return Ok(finished);
            }
            self.now = self.next_event(&keys).map_or(deadline, |t| t.min(deadline));
        }
    }

    /// Every group's preferred version is `v1`; the kinds of
    /// [`Sim::unmapped`] are served once [`Sim::served_at`] says.
    fn served(&mut self, api: Api<'_>, kind: &str, deadline: Option<Millis>) -> Result<Served, KubeError> {
        self.requests += 1;
        let api_version = match api {
            Api::Group("") => "v1".to_string(),
            Api::Group(group) => format!("{group}/v1"),
            Api::Version(v) => v.to_string(),
        };
        if !self.unmapped.contains(kind) {
            return Ok(Served::Yes(api_version));
        }
        let Some(deadline) = deadline else { return Ok(Served::NoKind(api_version)) };
        self.log.push(format!("await discovery of {kind}"));
        match self.served_at.get(kind) {
            Some(&at) if at <= deadline => {
                self.now = self.now.max(at);
                self.unmapped.remove(kind);
                Ok(Served::Yes(api_version))
            }
            _ => {
                self.now = self.now.max(deadline);
                Ok(Served::NoKind(api_version))
            }
        }
    }

    /// A Pod hook, or a Job's pod ([`job_pod`]), writes its script's lines:
    /// all written up to now, or, stamped, those from `since` (whole
    /// seconds) on; at most [`Sim::log_limit_bytes`] of them.
    fn logs(
        &mut self,
        _namespace: Option<&str>,
        pod: &str,
        _container: &str,
        from: LogFrom<'_>,
    ) -> Result<(String, bool), KubeError> {
        self.requests += 1;
        let owner = match pod.rsplit_once('-') {
            Some((job, _)) if job_pod(job) == pod && self.live.contains_key(&format!("Job/{job}")) => {
                format!("Job/{job}")
            }
            _ => format!("Pod/{pod}"),
        };
        let Some(start) = self.live.get(&owner).and_then(|j| parse_time(j["status"]["startTime"].as_str()?)) else {
            return Ok((String::new(), true));
        };
        let lines = self.scripts.get(&owner).map(|s| s.lines.clone()).unwrap_or_default();
        let written = lines.into_iter().map(|(at, l)| (start + at, l)).filter(|(t, _)| *t <= self.now);
        let body = match from {
            LogFrom::Whole => written.map(|(_, l)| l).collect::<Vec<_>>().join("\n"),
            LogFrom::Stamped(since) => {
                let since = since.and_then(parse_time).unwrap_or(0);
                let mut body = String::new();
                for (t, line) in written.filter(|(t, _)| *t >= since) {
                    let second = go_time(t - t % 1000);
                    let stamp = second.trim_end_matches('Z');
                    body.push_str(&format!("{stamp}.{:03}000000Z {line}\n", t % 1000));
                }
                body
            }
        };
        match self.log_limit_bytes {
            Some(limit) if body.len() > limit => {
                let cut = (0..=limit).rev().find(|&i| body.is_char_boundary(i)).unwrap_or(0);
                Ok((body[..cut].to_string(), false))
            }
            _ => Ok((body, true)),
        }
    }

    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError> {
        self.requests += 1;
        self.asked.extend(wants.iter().cloned());
        match self.forbidden {
            Some(resource) => Err(KubeError::Forbidden {
                verb: "create".into(),
                resource: resource.into(),
                namespace: Some(self.namespace.clone()),
                message: why.into(),
            }),
            None => Ok(()),
        }
    }
}

impl Store for Sim {
    fn history(&mut self, _release: &str, pick: Pick<'_>) -> Result<Vec<StoredRelease>, StorageError> {
        let revisions: Vec<u64> = match pick {
            Pick::Latest => self.records.keys().last().copied().into_iter().collect(),
            Pick::Revision(n) => self.records.keys().copied().filter(|&r| r == n).collect(),
            Pick::Where(wanted) => {
                self.records.iter().filter(|(r, v)| wanted(**r, Some(&status(v)))).map(|(r, _)| *r).collect()
            }
        };
        Ok(revisions.into_iter().map(|r| self.stored(r)).collect())
    }

    fn write(&mut self, write: Write<'_>, _now_unix: u64) -> Result<Option<StoredRelease>, StorageError> {
        self.now += self.write_ms;
        if self.refuses_writes {
            return Err(StorageError::Kube(KubeError::Forbidden {
                verb: "update".into(),
                resource: "configmaps".into(),
                namespace: Some(self.namespace.clone()),
                message: "the credentials may not write Helm's records".into(),
            }));
        }
        match write {
            Write::Create { namespace, release } => {
                let revision = release["version"].as_u64().unwrap_or_default();
                if self.records.contains_key(&revision) {
                    let name = release["name"].as_str().unwrap_or_default();
                    return Err(StorageError::Kube(KubeError::Conflict {
                        verb: "create".into(),
                        resource: "configmaps".into(),
                        namespace: Some(namespace.into()),
                        name: storage::object_name(name, revision),
                        message: "already exists".into(),
                    }));
                }
                self.log.push(format!("create {revision} {}", status(&release)));
                self.records.insert(revision, release);
                Ok(Some(self.stored(revision)))
            }
            Write::Update(stored) => {
                self.log.push(format!("save {} {}", stored.revision, status(&stored.release)));
                self.records.insert(stored.revision, stored.release.clone());
                Ok(None)
            }
            Write::Delete(stored) => {
                self.log.push(format!("forget {}", stored.revision));
                self.records.remove(&stored.revision);
                Ok(None)
            }
        }
    }

    fn not_found(&mut self, release: &str) -> StorageError {
        storage::not_found_with(Driver::ConfigMap, &self.namespace, release, self.elsewhere.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::Selector;
    use crate::ready::completion::{hook_completion, Completion};

    fn applied(sim: &mut Sim, object: Value) -> Value {
        let how = Apply { labels: &[], conflicts: None, dry_run: false, together: false };
        sim.apply(&[object], &how).pop().unwrap().unwrap()
    }

    fn pods(sim: &mut Sim, selector: &Selector) -> Vec<Value> {
        sim.read(Read::Many { api_version: "v1", kind: "Pod", namespace: None, selector }).unwrap()
    }

    #[test]
    fn a_jobs_pod_is_named_as_kubernetes_names_it() {
        let pod = job_pod("migrate");
        let suffix = pod.strip_prefix("migrate-").expect(&pod);
        assert_eq!(suffix.len(), 5);
        assert!(suffix.bytes().all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)), "{pod}");
        assert_eq!(job_pod("migrate"), pod, "the same name each time");
        assert_ne!(job_pod("migrat"), pod);
    }

    /// A Job's pod waits on its image while the Job runs, and ends as the
    /// Job does; the Job's `Failed` condition reads as Kubernetes writes it.
    #[test]
    fn a_jobs_pod_follows_its_job() {
        let mut sim = Sim::new("ns", 0);
        let waiting = Some("ImagePullBackOff".to_string());
        let script = Script { ends_after_ms: Some(5_000), fails: true, waiting, ..Script::default() };
        sim.scripts.insert("Job/migrate".into(), script);
        applied(&mut sim, json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate"}}));
        let selector = Selector::labels("job-name=migrate");
        let pod = &pods(&mut sim, &selector)[0];
        assert_eq!(pod["metadata"]["name"], json!(job_pod("migrate")));
        assert_eq!(pod["status"]["phase"], "Pending");
        assert_eq!(pod["status"]["containerStatuses"][0]["state"]["waiting"]["reason"], "ImagePullBackOff");
        sim.now = 5_000;
        let pod = &pods(&mut sim, &selector)[0];
        assert_eq!(pod["status"]["phase"], "Failed");
        assert_eq!(pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"], 1);
        let job = sim.live["Job/migrate"].clone();
        let Some(Completion::Failed { reason, message }) = hook_completion("Job", &job) else { panic!("{job}") };
        assert_eq!(reason, "BackoffLimitExceeded");
        assert_eq!(
            message,
            "Job Failed. failed: 1/1 (BackoffLimitExceeded: Job has reached the specified backoff limit)"
        );
    }

    /// A Pod hook runs, then its container exits: with code 1 when it fails.
    #[test]
    fn a_pod_hook_ends_with_its_containers_exit_code() {
        let mut sim = Sim::new("ns", 0);
        sim.scripts.insert("Pod/smoke".into(), Script { ends_after_ms: Some(2_000), fails: true, ..Script::default() });
        let live = applied(&mut sim, json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "smoke"}}));
        assert_eq!(live["status"]["phase"], "Running");
        sim.now = 2_000;
        let pod = pods(&mut sim, &Selector::name("smoke")).pop().unwrap();
        let Some(Completion::Failed { message, .. }) = hook_completion("Pod", &pod) else { panic!("{pod}") };
        assert_eq!(message, "pod smoke failed (container main: Error, exit code 1)");
    }

    /// A log read is cut at `limitBytes`, and says it is not whole.
    #[test]
    fn a_log_read_is_cut_at_its_limit() {
        let mut sim = Sim::new("ns", 0);
        let lines = vec![(0, "one".to_string()), (0, "two".to_string())];
        sim.scripts.insert("Pod/p".into(), Script { ends_after_ms: None, lines, ..Script::default() });
        applied(&mut sim, json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}));
        assert_eq!(sim.logs(None, "p", "main", LogFrom::Whole).unwrap(), ("one\ntwo".to_string(), true));
        sim.log_limit_bytes = Some(5);
        assert_eq!(sim.logs(None, "p", "main", LogFrom::Whole).unwrap(), ("one\nt".to_string(), false));
    }
}
