//! What the deploy driver needs of the world, as traits: the cluster
//! ([`Cluster`]), Helm's release storage ([`Store`]) and the time
//! ([`Clock`]) — as `exec::run::Cluster` is `run`'s seam, and as Helm's
//! `action.Configuration` injects its kube client, storage and clock. The
//! driver ([`super::deploy`], [`super::uninstall`], [`super::recover`])
//! takes one value that is all three ([`Env`]); [`Kube`] is the real one,
//! a thin adapter over [`Client`] and the storage driver, and
//! `tests/deploy_sim.rs` simulates the rest.

use std::io::Write;

use crate::base::time::{wall_ms, Millis};
use crate::exec::executor;
use crate::exec::rollout;
use crate::exec::run::{self as runner, Summary};
use crate::kube::{Client, KubeError, ObjectKey};
use crate::model::hook::Hook;
use crate::model::resource::Resource;
use crate::plan::EventPlan;
use crate::release::storage::{self, Driver, StorageError, StoredRelease};
use crate::run::cluster::KubeCluster;

use super::apply;
use super::ownership::{self, Ownership};

/// The resources one rollout applies and awaits, in the plan's order.
pub struct Resources<'a> {
    pub plan: &'a EventPlan,
    pub resources: &'a [Resource],
    /// The release whose ownership metadata the objects get.
    pub release: &'a str,
    pub namespace: &'a str,
    /// Per plan item: a Job awaited until complete ([`apply::complete_jobs`]).
    pub complete_jobs: Vec<bool>,
}

/// The cluster operations of a deploy or uninstall.
pub trait Cluster {
    /// The release's namespace.
    fn namespace(&self) -> &str;
    /// Requests sent so far, and how many of them were repeats (after a 429
    /// or a gateway error); the report counts the difference.
    fn requests(&self) -> (u64, u64);
    /// Applies and awaits `resources` batch by batch, each batch ready before
    /// the next (HIP-0025); progress to `out`.
    fn roll_out(&mut self, resources: Resources<'_>, options: rollout::Options, out: &mut dyn Write) -> apply::Outcome;
    /// Deletes `keys` and waits until they are gone or `deadline` passes;
    /// `Ok` holds those still there.
    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, KubeError>;
    /// Reads the object behind `key`: does release `release` own it?
    fn ownership(&mut self, key: &ObjectKey, release: &str, namespace: &str) -> Ownership;
    /// Runs one event's hooks (`plan`) of `stored`, recording their last
    /// runs in it; the caller stores it next.
    fn run_hooks(
        &mut self,
        plan: &EventPlan,
        hooks: &[Hook],
        stored: &mut StoredRelease,
        options: executor::Options,
        out: &mut dyn Write,
    ) -> Summary;
}

/// Helm's release storage for one release's namespace.
pub trait Store {
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
}

impl<'a> Kube<'a> {
    pub fn new(client: &'a mut Client, driver: Driver) -> Self {
        Kube { client, driver }
    }
}

impl Clock for Kube<'_> {
    fn now_ms(&mut self) -> Millis {
        wall_ms()
    }
}

impl Cluster for Kube<'_> {
    fn namespace(&self) -> &str {
        self.client.namespace()
    }

    fn requests(&self) -> (u64, u64) {
        (self.client.requests(), self.client.repeated())
    }

    fn roll_out(&mut self, r: Resources<'_>, options: rollout::Options, out: &mut dyn Write) -> apply::Outcome {
        apply::Applier {
            client: self.client,
            plan: r.plan,
            resources: r.resources,
            release: r.release,
            namespace: r.namespace,
            complete_jobs: r.complete_jobs,
            external_met: Default::default(),
            now: &mut wall_ms,
        }
        .run(options, out)
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        self.client.delete_and_wait(keys, deadline, &mut wall_ms)
    }

    fn ownership(&mut self, key: &ObjectKey, release: &str, namespace: &str) -> Ownership {
        ownership::check(self.client, key, release, namespace)
    }

    fn run_hooks(
        &mut self,
        plan: &EventPlan,
        hooks: &[Hook],
        stored: &mut StoredRelease,
        options: executor::Options,
        out: &mut dyn Write,
    ) -> Summary {
        let name = stored.name.clone();
        let parallel = options.parallel;
        let mut cluster = KubeCluster::new(self.client, plan, hooks, stored, &name, parallel).storing_after();
        runner::execute(plan, hooks, options, &mut cluster, Some(out))
    }
}

impl Store for Kube<'_> {
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
