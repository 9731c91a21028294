//! Drives a [`Rollout`] over the cluster seam ([`Cluster`]): each resource
//! is applied server-side with Helm's ownership metadata, then watched until
//! its readiness gate holds.
//!
//! What Helm 4 does to a rendered object before it applies it, we do too:
//! the label `app.kubernetes.io/managed-by=Helm` and the annotations
//! `meta.helm.sh/release-name` and `meta.helm.sh/release-namespace` (so
//! stock `helm upgrade` and `helm uninstall` recognise the objects as the
//! release's), and HIP-0025's `helm.sh/depends-on/resource-groups` removed —
//! a key with two slashes the API server rejects.

use serde_json::Value;

use crate::base::time::Millis;
use crate::exec::progress::{Elapsed, Every, ResourceEvent, PROGRESS_EVERY_MS};
use crate::exec::rollout::{ResourceState, Rollout, RolloutAction, RolloutInput, RolloutOptions, RolloutReport};
use crate::kube::{KubeError, ObjectKey};
use crate::model::resource::Resource;
use crate::plan::{EventPlan, ItemId};
use crate::ready::{Condition, Health};

use super::error::Error;
use super::progress::{DeployEvent, Progress};
use super::report::ResourceRow;
use crate::seam::{release_apply, Awaiting, Clock, Cluster};

pub(crate) use crate::model::annotation::{MANAGED_BY, RELEASE_NAME, RELEASE_NAMESPACE};

/// The resources one rollout applies and awaits, in the plan's order.
pub(super) struct Resources<'a> {
    pub(super) plan: &'a EventPlan,
    pub(crate) resources: &'a [crate::model::resource::Resource],
    /// The release whose ownership metadata the objects get.
    pub(super) release: &'a str,
    pub(super) namespace: &'a str,
    /// Per plan item: a Job awaited until complete ([`complete_jobs`]).
    pub(super) complete_jobs: Vec<bool>,
    /// The command's start: progress lines are timed from it.
    pub(super) since: Millis,
}

/// Annotations Helm strips before an object reaches the API server.
const INTERNAL_ANNOTATIONS: [&str; 1] = [crate::model::annotation::DEPENDS_ON_RESOURCE_GROUPS];

/// The object to apply for a resource: the JSON its document was read as
/// when the release was checked ([`crate::model::manifest::Syntax::Kept`]),
/// else its manifest read now, with Helm's ownership annotations.
pub(super) fn prepare(resource: &Resource, release: &str, namespace: &str) -> Result<Value, String> {
    let object = match &resource.object {
        Some(object) => object.clone(),
        None => read(&resource.manifest)?,
    };
    owned(object, release, namespace)
}

fn read(manifest: &str) -> Result<Value, String> {
    crate::model::yaml::to_json(manifest).map_err(|e| format!("the manifest is not valid YAML: {e}"))
}

/// `object` with Helm's ownership annotations, and without those Helm strips.
fn owned(mut object: Value, release: &str, namespace: &str) -> Result<Value, String> {
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

/// What `resource` is awaited for ([`crate::ready::resource`]).
fn condition<'a>(resource: &'a Resource, complete_job: bool) -> Box<dyn Condition + 'a> {
    crate::ready::resource(&resource.head.kind, resource.readiness.as_ref(), complete_job)
}

#[derive(Debug)]
pub(super) struct RolloutOutcome {
    pub(super) rows: Vec<ResourceRow>,
    /// The resource that failed and why ([`Error::NotApplied`] or
    /// [`Error::NotReady`], with what the cluster shows of it).
    pub(super) failure: Option<Error>,
    /// The failing resource was refused by the API server (never applied),
    /// as opposed to applied and not ready: Helm records the two differently.
    pub(super) rejected: bool,
    /// The cluster failed us (exit 3).
    pub(super) cluster_error: Option<KubeError>,
}

/// Which Jobs of `plan` are awaited until complete rather than started
/// ([`crate::ready::jobs_complete`]), by plan item.
pub(super) fn complete_jobs(plan: &EventPlan, wait_for_jobs: bool) -> Vec<bool> {
    crate::ready::jobs_complete(wait_for_jobs, plan.ordered_after())
}

/// Applies and awaits `resources` batch by batch, each batch ready before
/// the next (HIP-0025), in `env`; progress to `progress`.
pub(super) fn roll_out<E: Cluster + Clock + ?Sized>(
    env: &mut E,
    resources: Resources<'_>,
    options: RolloutOptions,
    progress: &mut dyn Progress,
) -> RolloutOutcome {
    let awaiting = Awaiting::new(Some(&format!("{}={}", MANAGED_BY.0, MANAGED_BY.1)));
    let mut applier = Applier { env, r: resources, awaiting, external_met: Default::default(), rejections: Vec::new() };
    applier.run(options, progress)
}

/// The rollout driver: feeds the [`Rollout`] state machine what the
/// cluster answers, as `exec::runner::execute` feeds the hook executor.
struct Applier<'a, E: Cluster + Clock + ?Sized> {
    env: &'a mut E,
    r: Resources<'a>,
    /// What is applied and not ready yet, each awaited for its readiness.
    awaiting: Awaiting<'a>,
    /// External dependencies found met already in this deploy.
    external_met: std::collections::BTreeSet<crate::model::external::External>,
    /// Why the API server refused an item, kept as the failure's cause.
    rejections: Vec<(ItemId, KubeError)>,
}

impl<'a, E: Cluster + Clock + ?Sized> Applier<'a, E> {
    fn resource(&self, item: ItemId) -> &Resource {
        &self.r.resources[self.r.plan.items[item].index]
    }

    fn key(&self, item: ItemId) -> ObjectKey {
        let h = &self.resource(item).head;
        ObjectKey::new(&h.api_version, &h.kind, h.namespace.as_deref(), &h.name)
    }

    /// Applies and awaits every resource in plan order; progress to `progress`.
    fn run(&mut self, options: RolloutOptions, progress: &mut dyn Progress) -> RolloutOutcome {
        let t0 = self.env.now_ms();
        let mut rollout = Rollout::new(self.r.plan, options, t0);
        let mut cluster_error = None;
        let mut every = Every::starting(t0);
        loop {
            let now = self.env.now_ms();
            let action = rollout.poll(now);
            // A poll that ends the rollout may have failed an item (its time ran out): its
            // report is told before the loop ends.
            let done = matches!(action, RolloutAction::Done);
            let result = match action {
                RolloutAction::Done => Ok(()),
                RolloutAction::Apply { items } => {
                    let deadline = (now + options.readiness_timeout_ms).min(options.deadline);
                    let _span = crate::trace::span(|| format!("apply {} resources", items.len()));
                    match self.await_external(&mut rollout, &items, deadline, progress) {
                        Ok(ready) => self.apply(&mut rollout, &ready),
                        Err(e) => Err(e),
                    }
                }
                RolloutAction::Await { items, deadline } => {
                    let deadline = deadline.min(now + PROGRESS_EVERY_MS);
                    self.await_ready(&mut rollout, &items, deadline, &mut every, progress)
                }
            };
            self.tell(&mut rollout, progress);
            if let Err(e) = result {
                cluster_error = Some(e);
                break;
            }
            if done {
                break;
            }
        }
        self.outcome(&rollout, cluster_error)
    }

    /// [`Self::wait`], then, at most every [`PROGRESS_EVERY_MS`], what is
    /// still awaited and why.
    fn await_ready(
        &mut self,
        rollout: &mut Rollout<'_>,
        items: &[ItemId],
        deadline: Millis,
        every: &mut Every,
        progress: &mut dyn Progress,
    ) -> Result<(), KubeError> {
        let span = crate::trace::span(|| format!("wait for {} resources", items.len()));
        let r = self.wait(rollout, items, deadline);
        drop(span);
        let now = self.env.now_ms();
        if r.is_ok() && every.due(now) {
            let plan = self.r.plan;
            let waiting: Vec<_> =
                rollout.waiting().into_iter().map(|i| (&plan.items[i].reference, rollout.reason(i))).collect();
            if !waiting.is_empty() {
                let at = Elapsed::since(self.r.since, now);
                progress.event(&DeployEvent::Resource(ResourceEvent::Waiting { resources: &waiting, at }));
            }
        }
        r
    }

    /// The rollout's reports, as they came, told to `progress`.
    fn tell(&self, rollout: &mut Rollout<'_>, progress: &mut dyn Progress) {
        let plan = self.r.plan;
        let batches = &plan.batches;
        let at = |t: &Millis| Elapsed::since(self.r.since, *t);
        let name = |i: &ItemId| &plan.items[*i].reference;
        for report in rollout.drain_reports() {
            let e = match &report {
                RolloutReport::BatchStarted { batch, at: t } => {
                    ResourceEvent::BatchStarted { batch: *batch, batches, at: at(t) }
                }
                RolloutReport::Applied { item, at: t } => ResourceEvent::Applied { resource: name(item), at: at(t) },
                RolloutReport::Ready { item, at: t } => ResourceEvent::Ready { resource: name(item), at: at(t) },
                RolloutReport::BatchReady { batch, at: t } => {
                    ResourceEvent::BatchReady { batch: *batch, batches, at: at(t) }
                }
                RolloutReport::Failed { item, at: t, message } => {
                    ResourceEvent::Failed { resource: name(item), at: at(t), message }
                }
            };
            progress.event(&DeployEvent::Resource(e));
        }
    }

    /// What the rollout did: each resource's row, and how it failed, if it did.
    fn outcome(&mut self, rollout: &Rollout<'_>, cluster_error: Option<KubeError>) -> RolloutOutcome {
        let plan = self.r.plan;
        let rejected = rollout.failed().is_some_and(|i| rollout.times(i).0.is_none());
        let failure = match (rollout.failed(), &cluster_error) {
            (Some(i), None) => Some(self.failure(i, rollout.reason(i), rollout.times(i).0.is_some())),
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
                    message: if rollout.state(i) == ResourceState::Failed {
                        rollout.reason(i).to_string()
                    } else {
                        String::new()
                    },
                }
            })
            .collect();
        RolloutOutcome { rows, failure, rejected, cluster_error }
    }

    /// Waits for the `helm.sh/depends-on-external` objects of `items` (each
    /// object once per deploy); the items whose wait failed are failed in
    /// the rollout, the others returned to be applied.
    fn await_external(
        &mut self,
        rollout: &mut Rollout<'_>,
        items: &[ItemId],
        deadline: Millis,
        progress: &mut dyn Progress,
    ) -> Result<Vec<ItemId>, KubeError> {
        let mut ready = Vec::new();
        for &item in items {
            let wanted: Vec<_> =
                self.resource(item).external.iter().filter(|e| !self.external_met.contains(*e)).cloned().collect();
            if wanted.is_empty() {
                ready.push(item);
                continue;
            }
            match super::external::wait(self.env, &wanted, self.r.namespace, deadline, progress, self.r.since)? {
                Ok(()) => {
                    self.external_met.extend(wanted);
                    ready.push(item);
                }
                Err(message) => {
                    rollout.advance(self.env.now_ms());
                    rollout.handle(RolloutInput::Failed { item, message });
                }
            }
        }
        Ok(ready)
    }

    /// Applies `items` (one batch's, in install order): consecutive items
    /// of one kind in one batch of requests ([`Cluster::apply`] together: at once
    /// under Helm's `kube_request`), kinds in turn, as Helm applies them.
    /// Outcomes are handled in item order, as if applied one by one; a
    /// cluster error ends the batch there (no later kind is sent).
    fn apply(&mut self, rollout: &mut Rollout<'_>, items: &[ItemId]) -> Result<(), KubeError> {
        // Per item: not sent (None), not valid (its message), or the answer.
        let mut outcomes: Vec<Option<Result<Result<Value, KubeError>, String>>> = Vec::with_capacity(items.len());
        let mut prepared = Vec::new();
        for (at, &item) in items.iter().enumerate() {
            let r = self.resource(item);
            match prepare(r, self.r.release, self.r.namespace) {
                Ok(o) => {
                    outcomes.push(None);
                    prepared.push((at, o));
                }
                Err(message) => outcomes.push(Some(Err(message))),
            }
        }
        // One object at a time when the transport sends one request at a
        // time: each is handled as soon as it is applied, as always.
        let runs: Vec<&[(usize, Value)]> = if self.env.about().at_once {
            let kind = |(_, o): &(usize, Value)| o.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
            crate::kube::objects::runs_of_kind(&prepared, kind)
        } else {
            prepared.chunks(1).collect()
        };
        let mut next = 0;
        for run in runs {
            let objects: Vec<Value> = run.iter().map(|(_, o)| o.clone()).collect();
            let answers = self.env.apply(&objects, &release_apply(&[MANAGED_BY], true));
            for (&(at, _), answer) in run.iter().zip(answers) {
                outcomes[at] = Some(Ok(answer));
            }
            // Handled in item order, up to the first not answered.
            while let Some(Some(_)) = outcomes.get(next) {
                let item = items[next];
                match outcomes[next].take().expect("answered") {
                    Err(message) => rollout.handle(RolloutInput::Failed { item, message }),
                    Ok(Ok(live)) => {
                        let resources: &'a [Resource] = self.r.resources;
                        let condition =
                            condition(&resources[self.r.plan.items[item].index], self.r.complete_jobs[item.0]);
                        let ready = condition.judge(&live) == Health::Ready;
                        if !ready {
                            let key = self.key(item);
                            self.awaiting.follow((item.0, key), &live, condition);
                        }
                        rollout.advance(self.env.now_ms());
                        rollout.handle(RolloutInput::Applied { item, ready });
                    }
                    Ok(Err(e)) if e.is_object_fault() => {
                        rollout.handle(RolloutInput::Failed { item, message: e.to_string() });
                        self.rejections.push((item, e));
                    }
                    Ok(Err(e)) => return Err(e),
                }
                next += 1;
            }
        }
        // Items after the last object that could be applied.
        for (at, outcome) in outcomes.into_iter().enumerate().skip(next) {
            if let Some(Err(message)) = outcome {
                rollout.handle(RolloutInput::Failed { item: items[at], message });
            }
        }
        Ok(())
    }

    fn wait(&mut self, rollout: &mut Rollout<'_>, items: &[ItemId], deadline: Millis) -> Result<(), KubeError> {
        let mut settled = self.awaiting.wait(self.env, deadline)?;
        rollout.advance(self.env.now_ms());
        for &item in items {
            let verdict = match settled.iter_mut().find(|(i, _)| *i == item.0) {
                Some((_, verdict)) => std::mem::replace(verdict, Health::Ready),
                None => self
                    .awaiting
                    .verdict(&self.key(item))
                    .unwrap_or(Health::InProgress { reason: "not found yet".into() }),
            };
            rollout.handle(match verdict {
                Health::Ready => RolloutInput::Ready { item },
                Health::Failed { reason } => RolloutInput::Failed { item, message: reason },
                Health::InProgress { reason } => RolloutInput::Waiting { item, reason },
            });
        }
        Ok(())
    }

    /// The failure as the release records it: the resource, why, and what
    /// the cluster shows of it when it was applied (its pods' states, the
    /// warning events, its pods' output) — pods of this rollout only: a
    /// rejected apply has none of its own.
    fn failure(&mut self, item: ItemId, reason: &str, applied: bool) -> Error {
        let reference = self.r.plan.items[item].reference.to_string();
        let reason = reason.to_string();
        if !applied {
            let cause = self.rejections.iter().find(|(i, _)| *i == item).map(|(_, e)| Box::new(e.clone()));
            return Error::NotApplied { reference, reason, cause };
        }
        let key = self.key(item);
        let diagnosis = super::stuck::diagnose(self.env, &key, self.r.namespace);
        Error::NotReady { reference, reason, diagnosis }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_adds_helm_ownership_and_strips_the_internal_key() {
        let m = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    \
                 helm.sh/depends-on/resource-groups: '[\"db\"]'\n    helm.sh/resource-group: app\n";
        let prepare = |m: &str, release: &str, namespace: &str| owned(read(m)?, release, namespace);
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
    use crate::kube::transport::{Method, ReturnOn};
    use crate::kube::Client;
    use crate::model::diagnostic::Diagnostics;

    const V1: &str = r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","namespaced":true,"kind":"ConfigMap"},{"name":"secrets","namespaced":true,"kind":"Secret"}]}"#;

    // One batch: a Secret, then (Helm's install order) two ConfigMaps.
    const CHART: &str = "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n\
        ---\n# Source: c/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n\
        ---\n# Source: c/templates/s.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n";

    /// Deploys CHART over `c` (the real seam, `seam::KubeEnv`); the lines
    /// printed, without their times.
    fn deploy(c: Client) -> (Vec<String>, RolloutOutcome) {
        let mut d = Diagnostics::default();
        let (_, release) = crate::model::input::parse(CHART.as_bytes(), &mut d).unwrap();
        let p = crate::plan::build(&release, &[crate::plan::Target::Install], Default::default(), &mut d);
        let plan = p.events.into_iter().next().unwrap();
        let resources = Resources {
            plan: &plan,
            resources: &release.resources,
            release: "rel",
            namespace: "rel",
            complete_jobs: complete_jobs(&plan, false),
            since: 0,
        };
        let mut out = Lines(Vec::new());
        let options = RolloutOptions {
            parallel: 8,
            readiness_timeout_ms: 60_000,
            deadline: crate::base::time::wall_ms() + 300_000,
        };
        let mut kube = crate::seam::KubeEnv::new(c, crate::release::storage::Driver::Secret);
        let outcome = roll_out(&mut kube, resources, options, &mut out);
        (out.0, outcome)
    }

    /// The rollout's events, as lines without their times.
    struct Lines(Vec<String>);

    impl Progress for Lines {
        fn event(&mut self, e: &DeployEvent<'_>) {
            let DeployEvent::Resource(r) = e else { return };
            self.0.push(match *r {
                ResourceEvent::BatchStarted { batch, .. } => format!("batch {batch}"),
                ResourceEvent::Applied { resource, .. } => format!("applied   {resource}"),
                ResourceEvent::Ready { resource, .. } => format!("ready     {resource}"),
                ResourceEvent::BatchReady { batch, .. } => format!("batch {batch} ready"),
                ResourceEvent::Failed { resource, message, .. } => format!("failed    {resource}: {message}"),
                ResourceEvent::Waiting { .. } => "waiting".to_string(),
            });
        }
    }

    fn answers() -> Vec<crate::kube::transport::Response> {
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
        let (c, script) = host_client(answers());
        let (lines, outcome) = deploy(c);
        // Discovery, then the Secret alone, then both ConfigMaps in one call.
        assert_eq!(*script.batches.borrow(), vec![(1, ReturnOn::All), (2, ReturnOn::All)]);
        assert_eq!(
            patched(&script),
            [
                "s?fieldManager=helm&fieldValidation=Strict",
                "a?fieldManager=helm&fieldValidation=Strict",
                "b?fieldManager=helm&fieldValidation=Strict"
            ]
        );
        assert!(outcome.cluster_error.is_none());
        let states: Vec<ResourceState> = outcome.rows.iter().map(|r| r.state).collect();
        assert_eq!(states, [ResourceState::Ready, ResourceState::Ready, ResourceState::Failed], "{:?}", outcome.rows);
        assert!(outcome.rows[2].message.contains("Invalid value"), "{:?}", outcome.rows[2]);

        // The http_request build: one request at a time, the same requests,
        // the same lines in the same order.
        let (c, script) = client(None, answers());
        let (stock, _) = deploy(c);
        assert!(script.batches.borrow().is_empty());
        assert_eq!(patched(&script).len(), 3);
        assert_eq!(lines, stock);
        assert!(lines.iter().any(|l| l.starts_with("failed    ConfigMap/b")), "{lines:?}");
    }
}
