//! The API server as every command sees it: the basic steps the drivers
//! take (docs/design.md §6), answered by the real cluster
//! ([`super::KubeEnv`]) or by the one simulation (`seam::sim`). What is
//! decided from the answers (order, readiness, deadlines, what a failure
//! says, which pods are a hook's) is the drivers' own code, above the
//! trait, run the same against either.

use serde_json::Value;

use crate::base::time::Millis;
use crate::exec::executor::ContainerLog;
use crate::kube::{ObjectKey, Observed, Selector};
use crate::model::external::External;

use super::wants::Want;
use super::watch::Watch;

/// The apply policy of `--force-conflicts`, part of what an apply is asked.
pub(crate) use crate::kube::Conflicts;
/// An error of the API server or of the way to it, with its cause: the
/// seam's name for it, whichever adapter answers.
pub use crate::kube::KubeError as ApiError;

/// What a cluster is, read whenever asked: plain data, no request.
#[derive(Debug, Clone, Copy)]
pub struct About<'a> {
    /// The release's namespace.
    pub namespace: &'a str,
    /// Requests sent so far, and how many of them were repeats (after a 429
    /// or a gateway error); the report counts the difference.
    pub requests: (u64, u64),
    /// Whether a batch of applies goes at once (Helm's `kube_request`)
    /// rather than one request after another.
    pub at_once: bool,
    /// The resource Helm's records are stored as (`secrets`, `configmaps`),
    /// for the permissions a command needs; `None` when Helm stores them
    /// itself (the `release_storage` host function).
    pub records: Option<&'static str>,
}

/// How the objects of one [`Cluster::apply`] are applied: server-side,
/// field manager `helm`.
#[derive(Debug, Clone, Copy)]
pub struct Apply<'a> {
    /// Labels added to each object.
    pub labels: &'a [(&'a str, &'a str)],
    /// What to do with fields another manager owns; `None`: as the command
    /// was told (`--force-conflicts`).
    pub conflicts: Option<Conflicts>,
    /// Nothing persisted: each answer is the object as the API server would have it.
    pub dry_run: bool,
    /// The objects go as one batch of requests (at once where
    /// [`About::at_once`]), rather than each as a request of its own.
    pub together: bool,
}

/// What one [`Cluster::read`] reads.
#[derive(Debug, Clone, Copy)]
pub enum Read<'a> {
    /// The object behind a key (a GET): none or one.
    One(&'a ObjectKey),
    /// The objects of `kind` that `selector` picks, in `namespace` (the
    /// client's when `None`; ignored for cluster-wide kinds) (a LIST).
    Many { api_version: &'a str, kind: &'a str, namespace: Option<&'a str>, selector: &'a Selector },
}

/// Until when one [`Cluster::wait`] waits.
pub enum Until<'a> {
    /// One round of watching, which ends when something changed or after a while.
    Changed,
    /// Until `done` holds for at least one awaited object, or the clock
    /// reaches `deadline`.
    Settled { deadline: Millis, done: &'a mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool },
}

/// The API group, or the version, a [`Cluster::served`] asks about.
#[derive(Debug, Clone, Copy)]
pub enum Api<'a> {
    /// A group, in its preferred version.
    Group(&'a str),
    /// One `apiVersion`.
    Version(&'a str),
}

/// What discovery says of a kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// Served, in this `apiVersion`.
    Yes(String),
    /// The cluster serves no such API group.
    NoGroup,
    /// The group is served, in this `apiVersion`, but not the kind.
    NoKind(String),
}

/// Where a container's log is read from.
#[derive(Debug, Clone, Copy)]
pub enum LogFrom<'a> {
    /// All of it, as written (Helm's `--logs`).
    Whole,
    /// Each line stamped, from `since` on (a log's RFC 3339 time; `None`:
    /// from its start): following a log by polling.
    Stamped(Option<&'a str>),
}

/// The API server's basic steps: apply, read, delete, wait for change,
/// logs, discovery, permissions. Nothing here knows hooks or records.
pub trait Cluster {
    /// What this cluster is (no request).
    fn about(&self) -> About<'_>;
    /// Applies `objects` as `how` says; each one's answer (the object as the
    /// API server now has it), in order, ending with the first that is not
    /// the object's fault ([`ApiError::is_object_fault`]).
    fn apply(&mut self, objects: &[Value], how: &Apply<'_>) -> Vec<Result<Value, ApiError>>;
    /// Reads objects ([`Read`]); a [`Read::One`] that finds none is empty.
    fn read(&mut self, what: Read<'_>) -> Result<Vec<Value>, ApiError>;
    /// Deletes `keys` and waits until they are gone or `deadline` passes;
    /// `Ok` holds those still there.
    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, ApiError>;
    /// Brings `watch` up to date — what was followed and unfollowed since
    /// taken in — and waits ([`Until`]); the keys for which `done` holds
    /// (empty: the deadline), or those that changed.
    fn wait(&mut self, watch: &mut Watch, until: Until<'_>) -> Result<Vec<ObjectKey>, ApiError>;
    /// Whether the cluster serves `kind` in `api`, waiting for it until
    /// `deadline` when one is given (a CRD just Established may not be
    /// served yet).
    fn served(&mut self, api: Api<'_>, kind: &str, deadline: Option<Millis>) -> Result<Served, ApiError>;
    /// What one container wrote, and whether that is all of it (not cut at
    /// a size). `namespace`: the client's when `None`.
    fn logs(
        &mut self,
        namespace: Option<&str>,
        pod: &str,
        container: &str,
        from: LogFrom<'_>,
    ) -> Result<(String, bool), ApiError>;
    /// Asks, before acting, for every permission `wants` names; the first
    /// refused is the error, its message ending in `why`.
    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), ApiError>;
}

/// [`Cluster::apply`] of one object.
pub(crate) fn apply_one<C: Cluster + ?Sized>(
    cluster: &mut C,
    object: &Value,
    how: &Apply<'_>,
) -> Result<Value, ApiError> {
    let answer = cluster.apply(std::slice::from_ref(object), how).pop();
    answer.unwrap_or(Err(ApiError::Incomplete("the API server's answer to an apply")))
}

/// The release's objects applied as the command was told, labelled `labels`.
pub(crate) fn release_apply<'a>(labels: &'a [(&'a str, &'a str)], together: bool) -> Apply<'a> {
    Apply { labels, conflicts: None, dry_run: false, together }
}

/// The object behind `key`; `None` when there is none.
pub fn get<C: Cluster + ?Sized>(cluster: &mut C, key: &ObjectKey) -> Result<Option<Value>, ApiError> {
    Ok(cluster.read(Read::One(key))?.pop())
}

/// The objects of `kind` in `namespace` that `selector` picks.
pub(crate) fn list<C: Cluster + ?Sized>(
    cluster: &mut C,
    (api_version, kind): (&str, &str),
    namespace: Option<&str>,
    selector: &Selector,
) -> Result<Vec<Value>, ApiError> {
    cluster.read(Read::Many { api_version, kind, namespace, selector })
}

/// The pods of a Job or Pod hook, as Helm finds them for its logs: a Job's
/// by the label `job-name=<name>`, a Pod by its name; other kinds have none.
pub(crate) fn hook_pods<C: Cluster + ?Sized>(
    cluster: &mut C,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Result<Vec<Value>, ApiError> {
    let selector = match kind {
        "Job" => Selector::labels(&format!("job-name={name}")),
        "Pod" => Selector::name(name),
        _ => return Ok(Vec::new()),
    };
    list(cluster, ("v1", "Pod"), namespace, &selector)
}

/// The logs of every container of `pods` in `namespace` (init containers
/// first); a log that cannot be read says why in its place.
pub(crate) fn container_logs<C: Cluster + ?Sized>(
    cluster: &mut C,
    namespace: &str,
    pods: &[Value],
) -> Vec<ContainerLog> {
    let mut logs = Vec::new();
    for pod in pods {
        let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        for container in crate::kube::pods::container_names(pod) {
            let text = match cluster.logs(Some(namespace), &pod_name, &container, LogFrom::Whole) {
                Ok((t, _)) => t,
                Err(e) => format!("(no logs: {e})"),
            };
            logs.push(ContainerLog { pod: pod_name.clone(), container, text });
        }
    }
    logs
}

/// The object a `helm.sh/depends-on-external` reference names: its kind in
/// its group's preferred version, in `namespace` unless it says. `Err` says
/// why it names none (a group or kind the cluster does not serve, or
/// discovery failing): the dependency is not met.
pub(crate) fn resolve<C: Cluster + ?Sized>(
    cluster: &mut C,
    e: &External,
    namespace: &str,
) -> Result<ObjectKey, String> {
    let ns = e.namespace.as_deref().unwrap_or(namespace);
    match cluster.served(Api::Group(&e.group), &e.kind, None) {
        Ok(Served::Yes(api_version)) => Ok(ObjectKey::new(&api_version, &e.kind, Some(ns), &e.name)),
        Ok(Served::NoGroup) => Err(format!("the cluster serves no API group {:?}", e.group)),
        Ok(Served::NoKind(api_version)) => Err(format!("the cluster serves no kind {:?} in {api_version}", e.kind)),
        Err(err) => Err(err.to_string()),
    }
}
