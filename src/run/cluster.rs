//! The [`Cluster`] of `helm hooks run` over the Kubernetes API: hooks are
//! applied server-side with field manager `helm`, watched in batches by a
//! label the run puts on them, and their `last_run` is written back into
//! the release Helm stored.

use serde_json::Value;

use crate::base::cause::Cause;
use crate::base::time::wall_ms;
use crate::exec::executor::{ContainerLog, Executor, Millis};
use crate::exec::pod_state::HookState;
use crate::exec::run::{Cluster, ClusterError, CreateError, Finished};
use crate::exec::status::{hook_completion, Completion};
use crate::kube::{Client, Conflicts, KubeError, ObjectKey, Observed, Tracker};
use crate::model::hook::Hook;
use crate::model::yaml::YamlError;
use crate::plan::{EventPlan, ItemId};
use crate::release::last_run::LastRun;
use crate::release::storage::StoredRelease;

pub use crate::model::annotation::RUN_LABEL;

pub struct KubeCluster<'a> {
    pub client: &'a mut Client,
    plan: &'a EventPlan,
    hooks: &'a [Hook],
    stored: &'a mut StoredRelease,
    release: String,
    tracker: Tracker,
    keys: Vec<Option<ObjectKey>>,
    /// Put [`RUN_LABEL`] on the hooks (more than one may run at once).
    label: bool,
    /// The record at the end of the run only updates the release in
    /// memory: the caller stores it next ([`KubeCluster::storing_after`]).
    store_after: bool,
    /// Where each followed container's log was read up to, by pod and container.
    cursors: std::collections::BTreeMap<(String, String), crate::exec::follow::Cursor>,
}

impl<'a> KubeCluster<'a> {
    pub fn new(
        client: &'a mut Client,
        plan: &'a EventPlan,
        hooks: &'a [Hook],
        stored: &'a mut StoredRelease,
        release: &str,
        parallel: usize,
    ) -> Self {
        let selector = format!("{RUN_LABEL}={release}");
        let label = parallel > 1;
        KubeCluster {
            client,
            plan,
            hooks,
            stored,
            release: release.to_string(),
            tracker: Tracker::new(label.then_some(selector.as_str())),
            keys: vec![None; plan.items.len()],
            label,
            store_after: false,
            cursors: Default::default(),
        }
    }

    /// The hooks' last runs are stored with the release before each start,
    /// and at the end only taken into the release in memory, which the
    /// caller stores next: deploy, whose operation records the release when
    /// it ends, as Helm's install, upgrade and rollback do — they store it
    /// before each hook starts and not when an event's hooks are over
    /// (`pkg/action/hooks.go` `execHookWithDelayedShutdown`; docs/design.md
    /// §4). Each record of a release with large CRDs is a write of megabytes.
    pub fn storing_after(mut self) -> Self {
        self.store_after = true;
        self
    }

    fn hook(&self, i: ItemId) -> &'a Hook {
        let hooks: &'a [Hook] = self.hooks;
        &hooks[self.plan.items[i].index]
    }

    /// The hook's pods, as Helm finds them for logs ([`Client::hook_pods`]).
    fn pods(&mut self, hook: ItemId) -> Result<Vec<Value>, KubeError> {
        let h = self.hook(hook);
        self.client.hook_pods(&h.head.kind, h.head.namespace.as_deref(), &h.head.name)
    }

    fn key(&self, i: ItemId) -> ObjectKey {
        let h = self.hook(i);
        h.head.key()
    }
}

impl KubeCluster<'_> {
    /// The object a hook's manifest describes.
    fn object(&self, hook: ItemId) -> Result<Value, CreateError> {
        crate::model::yaml::to_json(&self.hook(hook).manifest)
            .map_err(|e| CreateError::Hook(Cause::new(InvalidManifest(e))))
    }

    /// Takes the API server's answer to a hook's apply in: a Job or Pod is
    /// tracked from the state the answer gives.
    fn created(&mut self, hook: ItemId, answer: Result<Value, KubeError>) -> Result<(), CreateError> {
        let live = match answer {
            Ok(live) => live,
            Err(e) if e.is_object_fault() => return Err(CreateError::Hook(Cause::new(e))),
            Err(e) => return Err(CreateError::Cluster(cluster_error(e))),
        };
        let key = self.key(hook);
        if matches!(self.hook(hook).head.kind.as_str(), "Job" | "Pod") {
            self.client
                .track_known(&mut self.tracker, &key, &live)
                .map_err(|e| CreateError::Cluster(cluster_error(e)))?;
        }
        self.keys[hook.0] = Some(key);
        Ok(())
    }
}

/// A hook whose manifest Kubernetes could not read: the hook fails.
#[derive(Debug, thiserror::Error)]
#[error("the manifest is not valid YAML: {0}")]
struct InvalidManifest(#[source] YamlError);

fn cluster_error(e: KubeError) -> ClusterError {
    ClusterError::Api(Cause::new(e))
}

impl Cluster for KubeCluster<'_> {
    fn now(&mut self) -> Millis {
        wall_ms()
    }

    fn delete(&mut self, hooks: &[ItemId], deadline: Millis) -> Result<(), ClusterError> {
        let keys: Vec<ObjectKey> = hooks.iter().map(|&h| self.key(h)).collect();
        for (k, &h) in keys.iter().zip(hooks) {
            self.tracker.untrack(k);
            self.keys[h.0] = None;
        }
        let left = self.client.delete_and_wait(&keys, deadline, &mut wall_ms).map_err(cluster_error)?;
        match left.first() {
            None => Ok(()),
            Some(k) => Err(ClusterError::NotDeleted { kind: k.kind.clone(), name: k.name.clone() }),
        }
    }

    fn record(&mut self, exec: &Executor) -> Result<(), ClusterError> {
        for i in self.plan.ids() {
            let Some(run) = LastRun::from_executor(exec.last_run(i)) else { continue };
            let h = self.hook(i);
            // Helm reorders its stored hooks (`helm test --filter`), so
            // entries are found by identity, never by position.
            if let Some(at) = self.stored.find_hook(&h.head.kind, &h.head.name, &h.source) {
                self.stored.set_last_run(at, &run);
            }
        }
        if self.store_after && exec.is_over() {
            return Ok(());
        }
        self.stored.save(self.client, wall_ms() / 1000).map_err(|e| ClusterError::Record(Cause::new(e)))
    }

    fn create(&mut self, hook: ItemId) -> Result<(), CreateError> {
        let object = self.object(hook)?;
        let release = self.release.clone();
        let labels: &[(&str, &str)] = if self.label { &[(RUN_LABEL, &release)] } else { &[] };
        // Helm creates hooks with force=false, whatever --force-conflicts says.
        let answer = self.client.apply(&object, labels, Conflicts::Fail);
        self.created(hook, answer)
    }

    /// Hooks of one kind in one batch of requests ([`Client::apply_many`]:
    /// at once under Helm's `kube_request`), kinds in turn.
    fn create_many(&mut self, hooks: &[ItemId]) -> Vec<Result<(), CreateError>> {
        if !self.client.at_once() {
            // One request at a time: one hook after another, as always.
            return crate::exec::run::create_one_by_one(hooks, |h| self.create(h));
        }
        let mut outcomes: Vec<Option<Result<(), CreateError>>> = Vec::with_capacity(hooks.len());
        let mut prepared = Vec::new();
        for (at, &h) in hooks.iter().enumerate() {
            match self.object(h) {
                Ok(o) => {
                    outcomes.push(None);
                    prepared.push((at, o));
                }
                Err(e) => outcomes.push(Some(Err(e))),
            }
        }
        let release = self.release.clone();
        let labels: &[(&str, &str)] = if self.label { &[(RUN_LABEL, &release)] } else { &[] };
        let kind = |(_, o): &(usize, Value)| o.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        'runs: for run in crate::kube::objects::runs_of_kind(&prepared, kind) {
            let objects: Vec<Value> = run.iter().map(|(_, o)| o.clone()).collect();
            let answers = self.client.apply_many(&objects, labels, Conflicts::Fail);
            for (&(at, _), answer) in run.iter().zip(answers) {
                let r = self.created(hooks[at], answer);
                let stop = matches!(r, Err(CreateError::Cluster(_)));
                outcomes[at] = Some(r);
                if stop {
                    break 'runs;
                }
            }
        }
        // In order, up to the first hook not sent or the first cluster error.
        let mut out = Vec::with_capacity(hooks.len());
        for r in outcomes.into_iter().map_while(|o| o) {
            let stop = matches!(r, Err(CreateError::Cluster(_)));
            out.push(r);
            if stop {
                break;
            }
        }
        out
    }

    fn wait(&mut self, hooks: &[ItemId], deadline: Millis) -> Result<Vec<Finished>, ClusterError> {
        let watched: Vec<(ItemId, ObjectKey)> =
            hooks.iter().filter_map(|&h| self.keys[h.0].clone().map(|k| (h, k))).collect();
        let mut done = |key: &ObjectKey, seen: Observed<'_>| match seen {
            Observed::Live(o) => !matches!(hook_completion(&key.kind, o), Some(Completion::InProgress) | None),
            // Gone: it ended as last seen (a Job the TTL controller deletes
            // once complete), or it was deleted while it ran.
            Observed::Gone { .. } => true,
        };
        let finished =
            self.client.wait_any(&mut self.tracker, deadline, &mut wall_ms, &mut done).map_err(cluster_error)?;
        let mut out = Vec::new();
        for key in finished {
            let Some(&(h, _)) = watched.iter().find(|(_, k)| *k == key) else {
                // No hook awaits it any more (it timed out): left tracked, its end would
                // answer every wait at once, and the others would never be looked at again.
                self.tracker.untrack(&key);
                continue;
            };
            let seen = self.tracker.observed(&key);
            let (succeeded, message) = match seen.last().and_then(|o| hook_completion(&key.kind, o)) {
                Some(Completion::Succeeded { .. }) => (true, String::new()),
                Some(Completion::Failed { reason, message }) => {
                    (false, [reason, message].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(": "))
                }
                // Deleted by someone else while it ran: Helm's legacy waiter
                // counts that as done; we report it as a failure.
                _ => (false, format!("{}/{} disappeared while it ran", key.kind, key.name)),
            };
            self.tracker.untrack(&key);
            out.push(Finished { hook: h, succeeded, message });
        }
        Ok(out)
    }

    fn logs(&mut self, hook: ItemId) -> Result<Vec<ContainerLog>, ClusterError> {
        let pods = self.pods(hook).map_err(cluster_error)?;
        Ok(container_logs(self.client, self.hook(hook).head.namespace.as_deref(), &pods))
    }

    fn why(&mut self, hook: ItemId) -> Option<HookState> {
        let pods = self.pods(hook).ok()?;
        // The Job as the wait last saw it: its counts cost no request.
        let job = self.keys[hook.0].as_ref().and_then(|k| self.tracker.observed(k).last().cloned());
        Some(crate::exec::pod_state::hook_state(&self.hook(hook).head.kind, job.as_ref(), &pods))
    }

    fn follow(&mut self, hook: ItemId) -> Vec<ContainerLog> {
        let ns = self.hook(hook).head.namespace.as_deref();
        let Ok(pods) = self.pods(hook) else { return Vec::new() };
        let mut out = Vec::new();
        for pod in &pods {
            let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
            for container in crate::kube::pods::started_containers(pod) {
                let cursor = self.cursors.entry((pod_name.clone(), container.clone())).or_default();
                // Not readable yet, or a moment's error: the next look reads from the same place.
                let Ok((body, complete)) = self.client.pod_log_since(ns, &pod_name, &container, cursor.since()) else {
                    continue;
                };
                let lines = cursor.take(&body, complete);
                if !lines.is_empty() {
                    out.push(ContainerLog { pod: pod_name.clone(), container, text: lines.join("\n") });
                }
            }
        }
        out
    }
}

/// The log of every container of `pods` (init containers first); a log
/// that cannot be read says why in its place.
pub fn container_logs(client: &mut Client, namespace: Option<&str>, pods: &[Value]) -> Vec<ContainerLog> {
    let mut logs = Vec::new();
    for pod in pods {
        let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        for container in crate::kube::pods::container_names(pod) {
            let text = match client.pod_log(namespace, &pod_name, &container) {
                Ok(t) => t,
                Err(e) => format!("(no logs: {e})"),
            };
            logs.push(ContainerLog { pod: pod_name.clone(), container, text });
        }
    }
    logs
}
