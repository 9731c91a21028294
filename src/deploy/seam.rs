//! What the deploy driver needs of the world, as traits: the cluster
//! ([`Cluster`]), Helm's release storage ([`Store`]) and the time
//! ([`Clock`]) — as `exec::run::Cluster` is `run`'s seam, and as Helm's
//! `action.Configuration` injects its kube client, storage and clock. The
//! driver ([`super::operation`], [`super::uninstall`], [`super::recover`], the
//! rollout in [`super::apply`], the commands in [`super::action`]) takes one
//! value that is all three ([`Env`]); [`Kube`] is the real one, a thin
//! adapter over [`Client`] and the storage driver, and `tests/deploy_sim.rs`
//! simulates the rest.
//!
//! The cluster's steps are small — apply, get, watch what was applied and
//! wait for it to change, delete — so that what is decided from what the
//! cluster answers (the order, readiness, deadlines, what a failure says)
//! is the driver's, run the same against the simulation.

use serde_json::Value;

use crate::base::time::{wall_ms, Millis};
use crate::exec::executor::{self, ContainerLog};
use crate::exec::run::{self as runner, Summary};
use crate::kube::{Client, Conflicts, KubeError, ObjectKey, Observed, Selector, Tracker};
use crate::model::external::External;
use crate::model::hook::Hook;
use crate::plan::EventPlan;
use crate::release::storage::{self, Driver, StorageError, StoredRelease};
use crate::run::cluster::KubeCluster;

use super::progress::{Hooks, Progress};
use crate::run::access::{self, Want};

/// The resources one rollout applies and awaits, in the plan's order.
pub struct Resources<'a> {
    pub plan: &'a EventPlan,
    pub resources: &'a [crate::model::resource::Resource],
    /// The release whose ownership metadata the objects get.
    pub release: &'a str,
    pub namespace: &'a str,
    /// Per plan item: a Job awaited until complete ([`super::apply::complete_jobs`]).
    pub complete_jobs: Vec<bool>,
    /// The command's start: progress lines are timed from it.
    pub since: Millis,
}

/// The cluster operations of a deploy or uninstall.
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
    /// Awaits the object behind `key`, whose state is not known (it may not
    /// exist yet): read by the next [`Cluster::refresh`].
    fn find(&mut self, watch: &mut Self::Watch, key: &ObjectKey) -> Result<(), KubeError>;
    /// Brings what `watch` holds up to date: one round of watching, which
    /// ends when something changed or after a while.
    fn refresh(&mut self, watch: &mut Self::Watch) -> Result<(), KubeError>;
    /// The objects of `kind` in `namespace` that `selector` picks (pods,
    /// events: what explains a resource that is not ready, [`super::stuck`]).
    fn list(
        &mut self,
        api_version: &str,
        kind: &str,
        namespace: &str,
        selector: &Selector,
    ) -> Result<Vec<Value>, KubeError>;
    /// The logs of every container of `pods` in `namespace`; a log that
    /// cannot be read says why in its place.
    fn container_logs(&mut self, namespace: &str, pods: &[Value]) -> Vec<ContainerLog>;

    /// Runs one event's hooks (`plan`) of `stored`, recording their last
    /// runs in it; the caller stores it next. Progress is timed from
    /// `since`, the command's start.
    fn run_hooks(
        &mut self,
        plan: &EventPlan,
        hooks: &[Hook],
        stored: &mut StoredRelease,
        options: executor::Options,
        progress: &mut dyn Progress,
        since: Millis,
    ) -> Summary;

    /// Asks, before acting, for every permission `wants` names; the first
    /// refused is the error, its message ending in `why`.
    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError>;
}

/// Helm's release storage for one release's namespace.
pub trait Store {
    /// The resource Helm's records are stored as (`secrets`, `configmaps`),
    /// for the permissions a command needs; `None` when Helm stores them
    /// itself (the `release_storage` host function).
    fn records(&self) -> Option<&'static str>;
    /// Stores a new revision (Helm's `Storage.Create`). A revision stored
    /// already is refused ([`StorageError::is_exists`]): that create is the
    /// lock two commands at once race for.
    fn create(
        &mut self,
        namespace: &str,
        release: serde_json::Value,
        now_unix: u64,
    ) -> Result<StoredRelease, StorageError>;
    /// Writes `stored` back (Helm's `Storage.Update`).
    fn save(&mut self, stored: &mut StoredRelease, now_unix: u64) -> Result<(), StorageError>;
    /// Every revision of `release`, oldest first.
    fn history(&mut self, release: &str) -> Result<Vec<StoredRelease>, StorageError>;
    /// Why a command that needs `release` stored cannot go on when its
    /// history is empty: where the store looked, and where else a release of
    /// that name is ([`storage::not_found`]).
    fn not_found(&mut self, release: &str) -> StorageError;
    /// The revisions `wanted` picks by revision and status label, oldest first
    /// ([`storage::history_where`]).
    fn history_where(
        &mut self,
        release: &str,
        wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError>;
    /// Removes one revision (Helm's `Storage.Delete`).
    fn delete(&mut self, stored: &StoredRelease) -> Result<(), StorageError>;
}

/// The time the driver reads: only drivers read a clock (docs/design.md §6).
pub trait Clock {
    fn now_ms(&mut self) -> Millis;
}

/// All the driver needs, in one value (the cluster and the store share one
/// client in the real world).
pub trait Env: Cluster + Store + Clock {}
impl<T: Cluster + Store + Clock + ?Sized> Env for T {}

/// The real world: the Kubernetes API through `client`, records in Helm's
/// storage `driver`, the wall clock.
pub struct Kube<'a> {
    pub client: &'a mut Client,
    pub driver: Driver,
    pub conflicts: Conflicts,
}

impl<'a> Kube<'a> {
    pub fn new(client: &'a mut Client, driver: Driver) -> Self {
        Kube { client, driver, conflicts: Conflicts::Fail }
    }

    /// What the release's applies (not its hooks') do with fields another
    /// manager owns: `--force-conflicts`.
    pub fn with_conflicts(self, conflicts: Conflicts) -> Self {
        Kube { conflicts, ..self }
    }
}

impl Clock for Kube<'_> {
    fn now_ms(&mut self) -> Millis {
        wall_ms()
    }
}

impl Cluster for Kube<'_> {
    type Watch = Tracker;

    fn namespace(&self) -> &str {
        self.client.namespace()
    }

    fn requests(&self) -> (u64, u64) {
        (self.client.requests(), self.client.repeated())
    }

    fn at_once(&self) -> bool {
        self.client.at_once()
    }

    fn apply(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        self.client.apply(object, labels, self.conflicts)
    }

    fn apply_many(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        self.client.apply_many(objects, labels, self.conflicts)
    }

    fn apply_dry_run(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        self.client.apply_dry_run(object, labels, self.conflicts)
    }

    fn get(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError> {
        self.client.get_opt(key)
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        self.client.delete_and_wait(keys, deadline, &mut wall_ms)
    }

    fn watch(&mut self, label_selector: Option<&str>) -> Tracker {
        Tracker::new(label_selector)
    }

    fn follow(&mut self, watch: &mut Tracker, key: &ObjectKey, known: &Value) -> Result<(), KubeError> {
        self.client.track_known(watch, key, known)
    }

    fn unfollow(&mut self, watch: &mut Tracker, key: &ObjectKey) {
        watch.untrack(key);
    }

    fn observed<'a>(&'a self, watch: &'a Tracker, key: &ObjectKey) -> Observed<'a> {
        watch.observed(key)
    }

    fn wait(
        &mut self,
        watch: &mut Tracker,
        deadline: Millis,
        done: &mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        self.client.wait_any(watch, deadline, &mut wall_ms, done)
    }

    fn resolve(&mut self, e: &External, namespace: &str) -> Result<ObjectKey, String> {
        let api_version = match self.client.preferred_version(&e.group) {
            Ok(Some(v)) => v,
            Ok(None) => return Err(format!("the cluster serves no API group {:?}", e.group)),
            Err(err) => return Err(err.to_string()),
        };
        let ns = e.namespace.as_deref().unwrap_or(namespace);
        match self.client.resource(&api_version, &e.kind) {
            Ok(_) => Ok(ObjectKey::new(&api_version, &e.kind, Some(ns), &e.name)),
            Err(KubeError::NoMapping { .. }) => {
                Err(format!("the cluster serves no kind {:?} in {api_version}", e.kind))
            }
            Err(err) => Err(err.to_string()),
        }
    }

    fn find(&mut self, watch: &mut Tracker, key: &ObjectKey) -> Result<(), KubeError> {
        self.client.track(watch, key)
    }

    fn refresh(&mut self, watch: &mut Tracker) -> Result<(), KubeError> {
        self.client.refresh(watch).map(|_| ())
    }

    fn list(
        &mut self,
        api_version: &str,
        kind: &str,
        namespace: &str,
        selector: &Selector,
    ) -> Result<Vec<Value>, KubeError> {
        let res = self.client.resource(api_version, kind)?;
        let ns = self.client.effective_namespace(&res, Some(namespace));
        Ok(self.client.list(&res, ns.as_deref(), selector)?.items)
    }

    fn container_logs(&mut self, namespace: &str, pods: &[Value]) -> Vec<ContainerLog> {
        crate::run::cluster::container_logs(self.client, Some(namespace), pods)
    }

    fn run_hooks(
        &mut self,
        plan: &EventPlan,
        hooks: &[Hook],
        stored: &mut StoredRelease,
        options: executor::Options,
        progress: &mut dyn Progress,
        since: Millis,
    ) -> Summary {
        let name = stored.name.clone();
        let parallel = options.parallel;
        let mut cluster = KubeCluster::new(self.client, plan, hooks, stored, &name, parallel).storing_after();
        runner::execute_since(plan, hooks, options, &mut cluster, &mut Hooks(progress), Some(since))
    }

    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError> {
        access::check(self.client, wants, why)
    }
}

impl Store for Kube<'_> {
    fn records(&self) -> Option<&'static str> {
        self.driver.resource()
    }

    fn create(
        &mut self,
        namespace: &str,
        release: serde_json::Value,
        now_unix: u64,
    ) -> Result<StoredRelease, StorageError> {
        StoredRelease::create(self.client, self.driver, namespace, release, now_unix)
    }

    fn save(&mut self, stored: &mut StoredRelease, now_unix: u64) -> Result<(), StorageError> {
        stored.save(self.client, now_unix)
    }

    fn history(&mut self, release: &str) -> Result<Vec<StoredRelease>, StorageError> {
        storage::history(self.client, self.driver, release)
    }

    fn not_found(&mut self, release: &str) -> StorageError {
        let namespace = self.client.namespace().to_string();
        storage::not_found(self.client, self.driver, &namespace, release)
    }

    fn history_where(
        &mut self,
        release: &str,
        wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError> {
        storage::history_where(self.client, self.driver, release, wanted)
    }

    fn delete(&mut self, stored: &StoredRelease) -> Result<(), StorageError> {
        stored.delete(self.client)
    }
}
