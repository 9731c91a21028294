//! The executor's cluster ([`crate::exec::runner::HookApi`]) over the seam:
//! hooks are applied server-side with field manager `helm`, watched in
//! batches by a label the run puts on them, and their `last_run` written
//! back into the release Helm stored. `run` and the deploys run their hooks
//! through it ([`super::run_hooks`]), on the real cluster and in the
//! simulation alike.

use serde_json::Value;

use crate::base::cause::Cause;
use crate::exec::executor::{ContainerLog, Executor, Millis};
use crate::exec::runner::{ClusterError, CreateError, Finished, HookApi};
use crate::kube::{KubeError, ObjectKey};
use crate::model::hook::Hook;
use crate::model::yaml::YamlError;
use crate::plan::{EventPlan, ItemId};
use crate::ready::pod_state::HookState;
use crate::ready::{Health, HookDone};
use crate::release::last_run::LastRun;
use crate::release::storage::StoredRelease;

use super::awaiting::Awaiting;
use super::cluster::{apply_one, container_logs, hook_pods, Apply, Cluster, Conflicts, LogFrom};
use super::store::{save, Clock, Store};

pub use crate::model::annotation::RUN_LABEL;

/// When the hooks' last runs are stored with the release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recording {
    /// Before each start and at the end: `helm hooks run`, as `helm test`.
    Always,
    /// Before each start; at the end only taken into the release in memory,
    /// which the caller stores next: deploy, whose operation records the
    /// release when it ends, as Helm's install, upgrade and rollback do —
    /// they store it before each hook starts and not when an event's hooks
    /// are over (`pkg/action/hooks.go` `execHookWithDelayedShutdown`;
    /// docs/design.md §4). Each record of a release with large CRDs is a
    /// write of megabytes.
    CallerStoresLast,
}

pub struct HookCluster<'a, E: Cluster + Store + Clock + ?Sized> {
    env: &'a mut E,
    plan: &'a EventPlan,
    hooks: &'a [Hook],
    stored: &'a mut StoredRelease,
    release: String,
    /// The Job and Pod hooks running, each awaited until done ([`HookDone`]).
    awaiting: Awaiting<'a>,
    /// Put [`RUN_LABEL`] on the hooks (more than one may run at once).
    label: bool,
    recording: Recording,
    /// Where each followed container's log was read up to, by pod and container.
    cursors: std::collections::BTreeMap<(String, String), crate::exec::follow::Cursor>,
}

impl<'a, E: Cluster + Store + Clock + ?Sized> HookCluster<'a, E> {
    pub(super) fn new(
        env: &'a mut E,
        (plan, hooks): (&'a EventPlan, &'a [Hook]),
        stored: &'a mut StoredRelease,
        parallel: usize,
        recording: Recording,
    ) -> Self {
        let release = stored.name.clone();
        let selector = format!("{RUN_LABEL}={release}");
        let label = parallel > 1;
        let awaiting = Awaiting::new(label.then_some(selector.as_str()));
        HookCluster { env, plan, hooks, stored, release, awaiting, label, recording, cursors: Default::default() }
    }

    fn hook(&self, i: ItemId) -> &'a Hook {
        let hooks: &'a [Hook] = self.hooks;
        &hooks[self.plan.items[i].index]
    }

    /// The hook's pods, as Helm finds them for logs.
    fn pods(&mut self, hook: ItemId) -> Result<Vec<Value>, KubeError> {
        let h = self.hook(hook);
        hook_pods(self.env, &h.head.kind, h.head.namespace.as_deref(), &h.head.name)
    }

    fn key(&self, i: ItemId) -> ObjectKey {
        self.hook(i).head.key()
    }

    /// The object a hook's manifest describes.
    fn object(&self, hook: ItemId) -> Result<Value, CreateError> {
        crate::model::yaml::to_json(&self.hook(hook).manifest)
            .map_err(|e| CreateError::Hook(Cause::new(InvalidManifest(e))))
    }

    /// Takes the API server's answer to a hook's apply in: a Job or Pod is
    /// followed from the state the answer gives.
    fn created(&mut self, hook: ItemId, answer: Result<Value, KubeError>) -> Result<(), CreateError> {
        let live = match answer {
            Ok(live) => live,
            Err(e) if e.is_object_fault() => return Err(CreateError::Hook(Cause::new(e))),
            Err(e) => return Err(CreateError::Cluster(cluster_error(e))),
        };
        let h = self.hook(hook);
        if crate::ready::hook_awaited(&h.head.kind) {
            let done = Box::new(HookDone { kind: &h.head.kind, name: &h.head.name });
            self.awaiting.follow((hook.0, self.key(hook)), &live, done);
        }
        Ok(())
    }

    fn labels(&self) -> Vec<(&'static str, String)> {
        if self.label {
            vec![(RUN_LABEL, self.release.clone())]
        } else {
            Vec::new()
        }
    }
}

/// A hook whose manifest Kubernetes could not read: the hook fails.
#[derive(Debug, thiserror::Error)]
#[error("the manifest is not valid YAML: {0}")]
struct InvalidManifest(#[source] YamlError);

/// How hooks are created, as Helm creates them: server-side apply by `helm`
/// with `force=false`, whatever `--force-conflicts` says; one kind's in one
/// batch of requests.
fn hooks_apply<'a>(labels: &'a [(&'a str, &'a str)]) -> Apply<'a> {
    Apply { labels, conflicts: Some(Conflicts::Fail), dry_run: false, together: true }
}

fn cluster_error(e: KubeError) -> ClusterError {
    ClusterError::Api(Cause::new(e))
}

impl<E: Cluster + Store + Clock + ?Sized> HookApi for HookCluster<'_, E> {
    fn now(&mut self) -> Millis {
        self.env.now_ms()
    }

    fn delete(&mut self, hooks: &[ItemId], deadline: Millis) -> Result<(), ClusterError> {
        let keys: Vec<ObjectKey> = hooks.iter().map(|&h| self.key(h)).collect();
        for k in &keys {
            self.awaiting.unfollow(k);
        }
        let left = self.env.delete_and_wait(&keys, deadline).map_err(cluster_error)?;
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
        if self.recording == Recording::CallerStoresLast && exec.is_over() {
            return Ok(());
        }
        let now_unix = self.env.now_ms() / 1000;
        save(self.env, self.stored, now_unix).map_err(|e| ClusterError::Record(Cause::new(e)))
    }

    fn create(&mut self, hook: ItemId) -> Result<(), CreateError> {
        let object = self.object(hook)?;
        let labels = self.labels();
        let labels: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = apply_one(self.env, &object, &hooks_apply(&labels));
        self.created(hook, answer)
    }

    /// Hooks of one kind in one batch of requests (at once under Helm's
    /// `kube_request`), kinds in turn.
    fn create_many(&mut self, hooks: &[ItemId]) -> Vec<Result<(), CreateError>> {
        if !self.env.about().at_once {
            // One request at a time: one hook after another, as always.
            return crate::exec::runner::create_one_by_one(hooks, |h| self.create(h));
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
        let labels = self.labels();
        let labels: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let kind = |(_, o): &(usize, Value)| o.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        'runs: for run in crate::kube::objects::runs_of_kind(&prepared, kind) {
            let objects: Vec<Value> = run.iter().map(|(_, o)| o.clone()).collect();
            let answers = self.env.apply(&objects, &hooks_apply(&labels));
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
        let ended = self.awaiting.wait(self.env, deadline).map_err(cluster_error)?;
        // One no hook awaits any more (it timed out) is dropped: left followed, its end
        // would answer every wait at once, and the others would never be looked at again.
        let awaited = ended.into_iter().map(|(h, verdict)| (ItemId(h), verdict)).filter(|(h, _)| hooks.contains(h));
        Ok(awaited
            .map(|(hook, verdict)| match verdict {
                Health::Failed { reason } => Finished { hook, succeeded: false, message: reason },
                _ => Finished { hook, succeeded: true, message: String::new() },
            })
            .collect())
    }

    fn logs(&mut self, hook: ItemId) -> Result<Vec<ContainerLog>, ClusterError> {
        let pods = self.pods(hook).map_err(cluster_error)?;
        let ns = self.hook(hook).head.namespace.clone().unwrap_or_else(|| self.env.about().namespace.to_string());
        Ok(container_logs(self.env, &ns, &pods))
    }

    fn why(&mut self, hook: ItemId) -> Option<HookState> {
        let pods = self.pods(hook).ok()?;
        // The Job as the wait last saw it: its counts cost no request.
        let job = self.awaiting.last(&self.key(hook)).cloned();
        Some(crate::ready::pod_state::hook_state(&self.hook(hook).head.kind, job.as_ref(), &pods))
    }

    fn follow(&mut self, hook: ItemId) -> Vec<ContainerLog> {
        let ns = self.hook(hook).head.namespace.clone();
        let Ok(pods) = self.pods(hook) else { return Vec::new() };
        let mut out = Vec::new();
        for pod in &pods {
            let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
            for container in crate::kube::pods::started_containers(pod) {
                let cursor = self.cursors.entry((pod_name.clone(), container.clone())).or_default();
                let since = cursor.since().map(str::to_string);
                // Not readable yet, or a moment's error: the next look reads from the same place.
                let from = LogFrom::Stamped(since.as_deref());
                let Ok((body, complete)) = self.env.logs(ns.as_deref(), &pod_name, &container, from) else {
                    continue;
                };
                let cursor = self.cursors.entry((pod_name.clone(), container.clone())).or_default();
                let lines = cursor.take(&body, complete);
                if !lines.is_empty() {
                    out.push(ContainerLog { pod: pod_name.clone(), container, text: lines.join("\n") });
                }
            }
        }
        out
    }
}
