//! Drives a [`Rollout`] over the Kubernetes API: each resource is applied
//! server-side with Helm's ownership metadata, then watched until its
//! readiness gate holds.
//!
//! What Helm 4 does to a rendered object before it applies it, we do too:
//! the label `app.kubernetes.io/managed-by=Helm` and the annotations
//! `meta.helm.sh/release-name` and `meta.helm.sh/release-namespace` (so
//! stock `helm upgrade` and `helm uninstall` recognise the objects as the
//! release's), and HIP-0025's `helm.sh/depends-on/resource-groups` removed —
//! a key with two slashes the API server rejects.

use std::io::Write;

use serde_json::Value;

use crate::base::time::{format_duration, Millis};
use crate::exec::kstatus::{self, Health};
use crate::exec::rollout::{Action, Input, Options, Report, Rollout, State};
use crate::kube::{Client, KubeError, ObjectKey, Observed, Tracker};
use crate::model::readiness::Status;
use crate::model::resource::Resource;
use crate::plan::{EventPlan, ItemId};

pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "Helm");
pub const RELEASE_NAME: &str = "meta.helm.sh/release-name";
pub const RELEASE_NAMESPACE: &str = "meta.helm.sh/release-namespace";
/// Annotations Helm strips before an object reaches the API server.
const INTERNAL_ANNOTATIONS: [&str; 1] = [crate::model::annotation::DEPENDS_ON_RESOURCE_GROUPS];

/// Pods whose logs a failure shows, at most (a Deployment may have many).
const MAX_POD_LOGS: usize = 3;

/// How often, at most, the resources still awaited are listed with why.
const PROGRESS_EVERY_MS: Millis = 5_000;

/// The object to apply for a rendered manifest.
pub fn prepare(manifest: &str, release: &str, namespace: &str) -> Result<Value, String> {
    let mut object: Value =
        crate::model::yaml::to_json(manifest).map_err(|e| format!("the manifest is not valid YAML: {e}"))?;
    let meta = object
        .as_object_mut()
        .ok_or("the manifest is not a mapping")?
        .entry("metadata")
        .or_insert_with(|| Value::Object(Default::default()));
    let meta = meta.as_object_mut().ok_or("metadata is not a mapping")?;
    let ann = meta.entry("annotations").or_insert_with(|| Value::Object(Default::default()));
    if !ann.is_object() {
        *ann = Value::Object(Default::default());
    }
    let ann = ann.as_object_mut().expect("annotations is a mapping");
    for key in INTERNAL_ANNOTATIONS {
        ann.remove(key);
    }
    ann.insert(RELEASE_NAME.into(), Value::String(release.into()));
    ann.insert(RELEASE_NAMESPACE.into(), Value::String(namespace.into()));
    Ok(object)
}

/// A resource's readiness: its HIP-0025 expressions when it has both,
/// otherwise its kind's rules. A Job counts as ready once started, as
/// `helm install --wait` counts it (kstatus), unless `complete_jobs`: then
/// only once complete, as with `--wait-for-jobs` (docs/design.md §4).
pub fn readiness(resource: &Resource, object: &Value, complete_jobs: bool) -> Health {
    let readiness = base_readiness(resource, object);
    if complete_jobs || resource.readiness.is_some() || resource.head.kind != "Job" {
        return readiness;
    }
    match readiness {
        Health::InProgress { .. } if kstatus::job_started(object) => Health::Ready,
        other => other,
    }
}

fn base_readiness(resource: &Resource, object: &Value) -> Health {
    match &resource.readiness {
        Some(r) => match r.evaluate(object) {
            Status::Ready => Health::Ready,
            Status::Failed => Health::Failed { reason: "a helm.sh/readiness-failure expression holds".into() },
            Status::Pending => Health::InProgress { reason: r.waiting_for(object) },
        },
        None => kstatus::health(&resource.head.kind, object),
    }
}

/// One resource's outcome, for the summary.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ResourceRow {
    #[serde(rename = "ref")]
    pub reference: String,
    pub batch: usize,
    pub state: State,
    pub applied_at: Option<Millis>,
    pub ready_at: Option<Millis>,
    /// When it failed (applied and not ready in time, or refused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_at: Option<Millis>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

#[derive(Debug)]
pub struct Outcome {
    pub rows: Vec<ResourceRow>,
    /// The resource that failed and why, with its pods' output.
    pub failure: Option<String>,
    /// The failing resource was refused by the API server (never applied),
    /// as opposed to applied and not ready: Helm records the two differently.
    pub rejected: bool,
    /// The cluster failed us (exit 3).
    pub cluster_error: Option<KubeError>,
}

pub struct Applier<'a> {
    pub client: &'a mut Client,
    pub plan: &'a EventPlan,
    pub resources: &'a [Resource],
    pub release: &'a str,
    pub namespace: &'a str,
    /// Per plan item: a Job awaited until complete, not just started.
    pub complete_jobs: Vec<bool>,
    /// External dependencies found met already in this deploy.
    pub external_met: std::collections::BTreeSet<crate::model::external::External>,
    pub now: &'a mut dyn FnMut() -> Millis,
}

/// Which Jobs of `plan` are awaited until complete rather than started:
/// all with `--wait-for-jobs`; otherwise those something is ordered after —
/// named in another resource's `helm.sh/depends-on`, or in a batch that a
/// later batch follows. Being ordered after a Job means after its work (a
/// migration), not its start; a Job nothing waits for is judged as
/// `helm --wait` judges it (docs/design.md §4).
pub fn complete_jobs(plan: &EventPlan, wait_for_jobs: bool) -> Vec<bool> {
    let last = plan.items.iter().map(|i| i.level).max().unwrap_or_default();
    let mut wanted: Vec<bool> = plan.items.iter().map(|i| wait_for_jobs || i.level < last).collect();
    for item in &plan.items {
        for &(before, reason) in &item.after {
            if reason == crate::plan::Reason::DependsOn {
                wanted[before.0] = true;
            }
        }
    }
    wanted
}

impl Applier<'_> {
    fn resource(&self, item: ItemId) -> &Resource {
        &self.resources[self.plan.items[item].index]
    }

    fn key(&self, item: ItemId) -> ObjectKey {
        let h = &self.resource(item).head;
        ObjectKey::new(&h.api_version, &h.kind, h.namespace.as_deref(), &h.name)
    }

    fn batch_name(&self, b: usize) -> String {
        format!("batch {}/{} ({})", b + 1, self.plan.batches.len(), crate::plan::batch::describe(&self.plan.batches, b))
    }

    /// Applies and awaits every resource in plan order; progress to `out`.
    pub fn run(&mut self, options: Options, out: &mut dyn Write) -> Outcome {
        let t0 = (self.now)();
        let mut rollout = Rollout::new(self.plan, options, t0);
        let mut tracker = Tracker::new(Some(&format!("{}={}", MANAGED_BY.0, MANAGED_BY.1)));
        let mut cluster_error = None;
        let mut last_progress = t0;
        let stamp = |at: Millis| format!("[{:>7}]", format_duration(at.saturating_sub(t0) / 100 * 100));
        loop {
            let now = (self.now)();
            let result = match rollout.poll(now) {
                Action::Done => break,
                Action::Apply { items } => {
                    let deadline = (now + options.readiness_timeout_ms).min(options.deadline);
                    let _span = crate::trace::span(|| format!("apply {} resources", items.len()));
                    match self.await_external(&mut rollout, &items, deadline, out, &stamp) {
                        Ok(ready) => self.apply(&mut rollout, &mut tracker, &ready),
                        Err(e) => Err(e),
                    }
                }
                Action::Await { items, deadline } => {
                    let span = crate::trace::span(|| format!("wait for {} resources", items.len()));
                    let r = self.wait(&mut rollout, &mut tracker, &items, deadline.min(now + PROGRESS_EVERY_MS));
                    drop(span);
                    let now = (self.now)();
                    if r.is_ok() && now >= last_progress + PROGRESS_EVERY_MS {
                        last_progress = now;
                        let waiting: Vec<String> = rollout
                            .waiting()
                            .into_iter()
                            .map(|i| match rollout.reason(i) {
                                "" => self.plan.items[i].reference.to_string(),
                                why => format!("{} ({why})", self.plan.items[i].reference),
                            })
                            .collect();
                        if !waiting.is_empty() {
                            let _ = writeln!(out, "{} waiting   {}", stamp(now), waiting.join(", "));
                        }
                    }
                    r
                }
            };
            for report in rollout.drain_reports() {
                let name = |i: ItemId| self.plan.items[i].reference.to_string();
                let line = match report {
                    Report::BatchStarted { batch, at } => format!("{} {}\n", stamp(at), self.batch_name(batch)),
                    Report::Applied { item, at } => format!("{} applied   {}\n", stamp(at), name(item)),
                    Report::Ready { item, at } => format!("{} ready     {}\n", stamp(at), name(item)),
                    Report::BatchReady { batch, at } => {
                        format!("{} {} ready\n", stamp(at), self.batch_name(batch))
                    }
                    Report::Failed { item, at, message } => {
                        format!("{} failed    {}: {message}\n", stamp(at), name(item))
                    }
                };
                let _ = out.write_all(line.as_bytes());
            }
            if let Err(e) = result {
                cluster_error = Some(e);
                break;
            }
        }
        let rejected = rollout.failed().is_some_and(|i| rollout.times(i).0.is_none());
        let failure = match (rollout.failed(), &cluster_error) {
            (Some(i), None) => {
                let applied = rollout.times(i).0.is_some();
                Some(self.failure_text(i, rollout.reason(i), applied))
            }
            _ => None,
        };
        let rows = self
            .plan
            .ids()
            .map(|i| {
                let (applied_at, ready_at) = rollout.times(i);
                ResourceRow {
                    reference: self.plan.items[i].reference.to_string(),
                    batch: self.plan.items[i].level as usize + 1,
                    state: rollout.state(i),
                    applied_at,
                    ready_at,
                    failed_at: rollout.failed_at(i),
                    message: if rollout.state(i) == State::Failed {
                        rollout.reason(i).to_string()
                    } else {
                        String::new()
                    },
                }
            })
            .collect();
        Outcome { rows, failure, rejected, cluster_error }
    }

    /// Waits for the `helm.sh/depends-on-external` objects of `items` (each
    /// object once per deploy); the items whose wait failed are failed in
    /// the rollout, the others returned to be applied.
    fn await_external(
        &mut self,
        rollout: &mut Rollout<'_>,
        items: &[ItemId],
        deadline: Millis,
        out: &mut dyn Write,
        stamp: &dyn Fn(Millis) -> String,
    ) -> Result<Vec<ItemId>, KubeError> {
        let mut ready = Vec::new();
        for &item in items {
            let wanted: Vec<_> =
                self.resource(item).external.iter().filter(|e| !self.external_met.contains(*e)).cloned().collect();
            if wanted.is_empty() {
                ready.push(item);
                continue;
            }
            match super::external::wait(self.client, &wanted, self.namespace, deadline, self.now, out, stamp)? {
                Ok(()) => {
                    self.external_met.extend(wanted);
                    ready.push(item);
                }
                Err(message) => {
                    rollout.advance((self.now)());
                    rollout.handle(Input::Failed { item, message });
                }
            }
        }
        Ok(ready)
    }

    /// Applies `items` (one batch's, in install order): consecutive items
    /// of one kind in one batch of requests ([`Client::apply_many`]: at once
    /// under Helm's `kube_request`), kinds in turn, as Helm applies them.
    /// Outcomes are handled in item order, as if applied one by one; a
    /// cluster error ends the batch there (no later kind is sent).
    fn apply(&mut self, rollout: &mut Rollout<'_>, tracker: &mut Tracker, items: &[ItemId]) -> Result<(), KubeError> {
        // Per item: not sent (None), not valid (its message), or the answer.
        let mut outcomes: Vec<Option<Result<Result<Value, KubeError>, String>>> = Vec::with_capacity(items.len());
        let mut prepared = Vec::new();
        for (at, &item) in items.iter().enumerate() {
            let r = self.resource(item);
            match prepare(&r.manifest, self.release, self.namespace) {
                Ok(o) => {
                    outcomes.push(None);
                    prepared.push((at, o));
                }
                Err(message) => outcomes.push(Some(Err(message))),
            }
        }
        // One object at a time when the transport sends one request at a
        // time: each is handled as soon as it is applied, as always.
        let runs: Vec<&[(usize, Value)]> = if self.client.at_once() {
            let kind = |(_, o): &(usize, Value)| o.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
            crate::kube::objects::runs_of_kind(&prepared, kind)
        } else {
            prepared.chunks(1).collect()
        };
        let mut next = 0;
        for run in runs {
            let objects: Vec<Value> = run.iter().map(|(_, o)| o.clone()).collect();
            let answers = self.client.apply_many(&objects, &[MANAGED_BY]);
            for (&(at, _), answer) in run.iter().zip(answers) {
                outcomes[at] = Some(Ok(answer));
            }
            // Handled in item order, up to the first not answered.
            while let Some(Some(_)) = outcomes.get(next) {
                let item = items[next];
                match outcomes[next].take().expect("answered") {
                    Err(message) => rollout.handle(Input::Failed { item, message }),
                    Ok(Ok(live)) => {
                        let ready = readiness(self.resource(item), &live, self.complete_jobs[item.0]) == Health::Ready;
                        if !ready {
                            let key = self.key(item);
                            self.client.track_known(tracker, &key, &live)?;
                        }
                        rollout.advance((self.now)());
                        rollout.handle(Input::Applied { item, ready });
                    }
                    Ok(Err(e)) if e.is_object_fault() => rollout.handle(Input::Failed { item, message: e.to_string() }),
                    Ok(Err(e)) => return Err(e),
                }
                next += 1;
            }
        }
        // Items after the last object that could be applied.
        for (at, outcome) in outcomes.into_iter().enumerate().skip(next) {
            if let Some(Err(message)) = outcome {
                rollout.handle(Input::Failed { item: items[at], message });
            }
        }
        Ok(())
    }

    fn wait(
        &mut self,
        rollout: &mut Rollout<'_>,
        tracker: &mut Tracker,
        items: &[ItemId],
        deadline: Millis,
    ) -> Result<(), KubeError> {
        let keyed: Vec<(ItemId, ObjectKey)> = items.iter().map(|&i| (i, self.key(i))).collect();
        let resources = self.resources;
        let plan = self.plan;
        let of =
            |key: &ObjectKey| keyed.iter().find(|(_, k)| k == key).map(|(i, _)| (*i, &resources[plan.items[*i].index]));
        // A resource that went away counts by its final state: a Job the TTL
        // controller deletes once complete is ready; one that vanished while
        // in progress is waited for until it comes back or the deadline.
        let complete = &self.complete_jobs;
        let settled = |(i, r): (ItemId, &Resource), o: &Value| {
            !matches!(readiness(r, o, complete[i.0]), Health::InProgress { .. })
        };
        let mut done = |key: &ObjectKey, seen: Observed<'_>| match (of(key), seen.last()) {
            (Some(r), Some(o)) => settled(r, o),
            _ => false,
        };
        self.client.wait_any(tracker, deadline, self.now, &mut done)?;
        rollout.advance((self.now)());
        for (item, key) in &keyed {
            let r = &resources[plan.items[*item].index];
            let seen = tracker.observed(key);
            let gone = matches!(seen, Observed::Gone { .. });
            match seen.last().map(|o| readiness(r, o, self.complete_jobs[item.0])) {
                Some(Health::Ready) => {
                    tracker.untrack(key);
                    rollout.handle(Input::Ready { item: *item });
                }
                Some(Health::Failed { reason }) => {
                    tracker.untrack(key);
                    rollout.handle(Input::Failed { item: *item, message: reason });
                }
                Some(Health::InProgress { .. }) if gone => {
                    rollout.handle(Input::Waiting { item: *item, reason: "deleted while not ready".into() })
                }
                Some(Health::InProgress { reason }) => rollout.handle(Input::Waiting { item: *item, reason }),
                None => rollout.handle(Input::Waiting { item: *item, reason: "not found yet".into() }),
            }
        }
        Ok(())
    }

    /// The failure as the release records it: the resource, why, and the
    /// output of its pods when it has them (Jobs and Pods) — pods of this
    /// rollout only: a rejected apply has none of its own.
    fn failure_text(&mut self, item: ItemId, reason: &str, applied: bool) -> String {
        let reference = &self.plan.items[item].reference;
        if !applied {
            return format!("{reference} was not applied: {reason}");
        }
        let mut text = format!("{reference} is not ready: {reason}");
        let key = self.key(item);
        let ns = key.namespace.clone().unwrap_or_else(|| self.namespace.to_string());
        let pods = match key.kind.as_str() {
            "Job" | "Pod" => self.client.hook_pods(&key.kind, Some(&ns), &key.name).unwrap_or_default(),
            _ => match self.client.get_opt(&key) {
                Ok(Some(live)) => self.workload_pods(&live, &ns),
                _ => Vec::new(),
            },
        };
        let pods = &pods[..pods.len().min(MAX_POD_LOGS)];
        for line in super::stuck::explain(self.client, &ns, &key.kind, &key.name, pods) {
            text.push_str("\n  ");
            text.push_str(&line);
        }
        let logs = crate::run::cluster::container_logs(self.client, Some(&ns), pods);
        if !logs.is_empty() {
            text.push('\n');
            text.push_str(crate::exec::run::output_block(&key.kind, &key.name, &logs).trim_end());
        }
        text
    }

    /// The pods a workload selects by `spec.selector.matchLabels`
    /// (Deployment, StatefulSet, DaemonSet, ReplicaSet); none for others.
    fn workload_pods(&mut self, live: &Value, namespace: &str) -> Vec<Value> {
        let Some(labels) = live.pointer("/spec/selector/matchLabels").and_then(Value::as_object) else {
            return Vec::new();
        };
        let selector: Vec<String> = labels.iter().filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?))).collect();
        if selector.is_empty() {
            return Vec::new();
        }
        let Ok(res) = self.client.resource("v1", "Pod") else { return Vec::new() };
        self.client
            .list(&res, Some(namespace), &crate::kube::Selector::labels(&selector.join(",")))
            .map(|l| l.items)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_adds_helm_ownership_and_strips_the_internal_key() {
        let m = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    \
                 helm.sh/depends-on/resource-groups: '[\"db\"]'\n    helm.sh/resource-group: app\n";
        let o = prepare(m, "rel", "ns").unwrap();
        let ann = &o["metadata"]["annotations"];
        assert!(ann.get("helm.sh/depends-on/resource-groups").is_none());
        assert_eq!(ann["helm.sh/resource-group"], "app");
        assert_eq!(ann[RELEASE_NAME], "rel");
        assert_eq!(ann[RELEASE_NAMESPACE], "ns");
        assert!(prepare("- a\n", "r", "n").is_err());
        assert!(prepare("kind: X\nmetadata: 3\n", "r", "n").is_err());
        let o = prepare("kind: X\nmetadata:\n  annotations: null\n", "r", "n").unwrap();
        assert_eq!(o["metadata"]["annotations"][RELEASE_NAME], "r");
    }
}

#[cfg(test)]
mod batch_tests {
    use super::*;
    use crate::kube::fixture::{client, host_client, respond, Script};
    use crate::kube::{Method, ReturnOn};
    use crate::model::diagnostic::Diagnostics;

    const V1: &str = r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","namespaced":true,"kind":"ConfigMap"},{"name":"secrets","namespaced":true,"kind":"Secret"}]}"#;

    // One batch: a Secret, then (Helm's install order) two ConfigMaps.
    const CHART: &str = "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n\
        ---\n# Source: c/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n\
        ---\n# Source: c/templates/s.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n";

    /// Deploys CHART over `c`; the lines printed, without their times.
    fn deploy(c: &mut Client) -> (Vec<String>, Outcome) {
        let mut d = Diagnostics::default();
        let (_, release) = crate::model::input::parse(CHART.as_bytes(), &mut d).unwrap();
        let p = crate::plan::build(&release, &[crate::plan::Target::Install], Default::default(), &mut d);
        let plan = p.events.into_iter().next().unwrap();
        let mut clock = 0;
        let mut now = || {
            clock += 1;
            clock
        };
        let mut applier = Applier {
            client: c,
            plan: &plan,
            resources: &release.resources,
            release: "rel",
            namespace: "rel",
            complete_jobs: complete_jobs(&plan, false),
            external_met: Default::default(),
            now: &mut now,
        };
        let mut out = Vec::new();
        let options = Options { parallel: 8, readiness_timeout_ms: 60_000, deadline: 300_000 };
        let outcome = applier.run(options, &mut out);
        let lines =
            String::from_utf8(out).unwrap().lines().map(|l| l[l.find(']').unwrap() + 2..].to_string()).collect();
        (lines, outcome)
    }

    fn answers() -> Vec<crate::kube::Response> {
        vec![
            respond(200, V1),
            respond(200, r#"{"kind":"Secret","metadata":{"name":"s"}}"#),
            respond(200, r#"{"kind":"ConfigMap","metadata":{"name":"a"}}"#),
            respond(422, r#"{"kind":"Status","message":"data: Invalid value"}"#),
        ]
    }

    fn patched(script: &Script) -> Vec<String> {
        let seen = script.seen.borrow();
        seen.iter()
            .filter(|r| r.method == Method::Patch)
            .map(|r| r.url.rsplit('/').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn a_batch_is_applied_one_kind_per_call_with_each_objects_outcome_in_order() {
        let (mut c, script) = host_client(answers());
        let (lines, outcome) = deploy(&mut c);
        // Discovery, then the Secret alone, then both ConfigMaps in one call.
        assert_eq!(*script.batches.borrow(), vec![(1, ReturnOn::All), (2, ReturnOn::All)]);
        assert_eq!(
            patched(&script),
            ["s?fieldManager=helm&force=true", "a?fieldManager=helm&force=true", "b?fieldManager=helm&force=true"]
        );
        assert!(outcome.cluster_error.is_none());
        let states: Vec<State> = outcome.rows.iter().map(|r| r.state).collect();
        assert_eq!(states, [State::Ready, State::Ready, State::Failed], "{:?}", outcome.rows);
        assert!(outcome.rows[2].message.contains("Invalid value"), "{:?}", outcome.rows[2]);

        // The http_request build: one request at a time, the same requests,
        // the same lines in the same order.
        let (mut c, script) = client(None, answers());
        let (stock, _) = deploy(&mut c);
        assert!(script.batches.borrow().is_empty());
        assert_eq!(patched(&script).len(), 3);
        assert_eq!(lines, stock);
        assert!(lines.iter().any(|l| l.starts_with("failed    ConfigMap/b")), "{lines:?}");
    }
}
