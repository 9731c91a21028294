//! The API server as every command sees it: the small steps the drivers
//! take (docs/design.md §6), answered by the real cluster
//! ([`super::KubeEnv`]) or by a simulation (`tests/deploy_sim.rs`,
//! `tests/run_sim.rs`). What is decided from the answers (order, readiness,
//! deadlines, what a failure says) is the drivers' own code, run the same
//! against either.

use serde_json::Value;

use crate::base::time::Millis;
use crate::exec::executor::ContainerLog;
use crate::kube::{KubeError, ObjectKey, Observed, Selector};
use crate::model::external::External;

use super::wants::Want;

/// The API server's steps every command takes: apply, get, watch what was
/// applied and wait for it to change, delete, list, read logs.
pub trait Cluster {
    /// Objects awaited together, followed from one wait to the next
    /// (`kube::Tracker` in the real world).
    type Watch;

    /// The release's namespace.
    fn namespace(&self) -> &str;
    /// Requests sent so far, and how many of them were repeats (after a 429
    /// or a gateway error); the report counts the difference.
    fn requests(&self) -> (u64, u64);

    /// Whether [`Cluster::apply_many`] sends its objects at once (Helm's
    /// `kube_request`) rather than one after another.
    fn at_once(&self) -> bool;
    /// Server-side apply (field manager `helm`) of `object` with `labels`
    /// added; the object as the API server now has it.
    fn apply(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError>;
    /// [`Cluster::apply`] of several objects in one batch of requests; each
    /// one's answer, in order, ending with the first that is not the
    /// object's fault ([`KubeError::is_object_fault`]).
    fn apply_many(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>>;
    /// [`Cluster::apply`] as a dry run: the object as the API server would
    /// have it; nothing persisted.
    fn apply_dry_run(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError>;
    /// The object behind `key`; `None` when there is none.
    fn get(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError>;
    /// Deletes `keys` and waits until they are gone or `deadline` passes;
    /// `Ok` holds those still there.
    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, KubeError>;

    /// A new, empty set of awaited objects; `label_selector` is a label
    /// every object it will hold carries (it may be listed by it).
    fn watch(&mut self, label_selector: Option<&str>) -> Self::Watch;
    /// Awaits the object behind `key`, whose state `known` is (the answer
    /// to its apply).
    fn follow(&mut self, watch: &mut Self::Watch, key: &ObjectKey, known: &Value) -> Result<(), KubeError>;
    /// Stops awaiting `key`.
    fn unfollow(&mut self, watch: &mut Self::Watch, key: &ObjectKey);
    /// What is known of an awaited object: live, or gone with its final state.
    fn observed<'a>(&'a self, watch: &'a Self::Watch, key: &ObjectKey) -> Observed<'a>;
    /// Waits until `done` holds for at least one awaited object or the clock
    /// reaches `deadline`; the keys for which it holds (empty: the deadline).
    fn wait(
        &mut self,
        watch: &mut Self::Watch,
        deadline: Millis,
        done: &mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool,
    ) -> Result<Vec<ObjectKey>, KubeError>;
    /// The object a `helm.sh/depends-on-external` reference names: its
    /// kind in its group's preferred version, in `namespace` unless it says.
    /// `Err` says why it names none (a group or kind the cluster does not
    /// serve, or discovery failing): the dependency is not met.
    fn resolve(&mut self, external: &External, namespace: &str) -> Result<ObjectKey, String>;
    /// Waits until the cluster serves `kind` in `api_version` (a CRD just
    /// Established may not be served yet) or `deadline` passes; whether it
    /// is.
    fn await_served(&mut self, api_version: &str, kind: &str, deadline: Millis) -> Result<bool, KubeError>;
    /// Awaits the object behind `key`, whose state is not known (it may not
    /// exist yet): read by the next [`Cluster::refresh`].
    fn find(&mut self, watch: &mut Self::Watch, key: &ObjectKey) -> Result<(), KubeError>;
    /// Brings what `watch` holds up to date: one round of watching, which
    /// ends when something changed or after a while.
    fn refresh(&mut self, watch: &mut Self::Watch) -> Result<(), KubeError>;
    /// The objects of `kind` in `namespace` that `selector` picks (pods,
    /// events: what explains a resource that is not ready, `deploy::stuck`).
    fn list(
        &mut self,
        api_version: &str,
        kind: &str,
        namespace: &str,
        selector: &Selector,
    ) -> Result<Vec<Value>, KubeError>;
    /// Creates hooks as Helm does (server-side apply by `helm` with
    /// `force=false`, whatever `--force-conflicts` says), `labels` added: at
    /// once when [`Cluster::at_once`], otherwise one after another; each
    /// one's answer, in order, ending with the first that is not the
    /// object's fault.
    fn create_hooks(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>>;
    /// The pods of a Job or Pod hook, as Helm finds them for its logs
    /// (`job-name=NAME`, or the Pod itself).
    fn hook_pods(&mut self, kind: &str, namespace: Option<&str>, name: &str) -> Result<Vec<Value>, KubeError>;
    /// What one container wrote from `since` on (a log's RFC 3339 time;
    /// `None`: from its start), and whether that is all it will write.
    fn pod_log_since(
        &mut self,
        namespace: Option<&str>,
        pod: &str,
        container: &str,
        since: Option<&str>,
    ) -> Result<(String, bool), KubeError>;
    /// The logs of every container of `pods` in `namespace`; a log that
    /// cannot be read says why in its place.
    fn container_logs(&mut self, namespace: &str, pods: &[Value]) -> Vec<ContainerLog>;

    /// Asks, before acting, for every permission `wants` names; the first
    /// refused is the error, its message ending in `why`.
    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError>;
}
