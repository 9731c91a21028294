//! The real [`Env`]: the Kubernetes API through one [`Client`], Helm's
//! records in its storage driver, the wall clock. A thin adapter: every
//! method is one call of `kube` or `release`.

use serde_json::Value;

use crate::base::time::{wall_ms, Millis};
use crate::exec::executor::ContainerLog;
use crate::kube::{Client, Conflicts, KubeError, ObjectKey, Observed, Selector, Tracker};
use crate::model::external::External;
use crate::release::storage::{self, Driver, StorageError, StoredRelease};

use super::cluster::Cluster;
use super::env::Env;
use super::store::{Clock, Store};
use super::wants::Want;

/// The real world: the Kubernetes API through `client`, records in Helm's
/// storage `driver`, the wall clock.
pub(crate) struct KubeEnv {
    client: Client,
    driver: Driver,
    conflicts: Conflicts,
}

impl KubeEnv {
    pub(crate) fn new(client: Client, driver: Driver) -> Self {
        KubeEnv { client, driver, conflicts: Conflicts::Fail }
    }

    /// What the release's applies (not its hooks') do with fields another
    /// manager owns: `--force-conflicts`.
    pub(crate) fn with_conflicts(self, conflicts: Conflicts) -> Self {
        KubeEnv { conflicts, ..self }
    }
}

impl Clock for KubeEnv {
    fn now_ms(&mut self) -> Millis {
        wall_ms()
    }
}

impl Cluster for KubeEnv {
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

    fn await_served(&mut self, api_version: &str, kind: &str, deadline: Millis) -> Result<bool, KubeError> {
        self.client.await_kind(api_version, kind, deadline)
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
        let mut logs = Vec::new();
        for pod in pods {
            let pod_name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
            for container in crate::kube::pods::container_names(pod) {
                let text = match self.client.pod_log(Some(namespace), &pod_name, &container) {
                    Ok(t) => t,
                    Err(e) => format!("(no logs: {e})"),
                };
                logs.push(ContainerLog { pod: pod_name.clone(), container, text });
            }
        }
        logs
    }

    fn create_hooks(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        // Helm creates hooks with force=false, whatever --force-conflicts says.
        if self.client.at_once() {
            return self.client.apply_many(objects, labels, Conflicts::Fail);
        }
        let mut out = Vec::with_capacity(objects.len());
        for object in objects {
            let answer = self.client.apply(object, labels, Conflicts::Fail);
            let stop = matches!(&answer, Err(e) if !e.is_object_fault());
            out.push(answer);
            if stop {
                break;
            }
        }
        out
    }

    fn hook_pods(&mut self, kind: &str, namespace: Option<&str>, name: &str) -> Result<Vec<Value>, KubeError> {
        self.client.hook_pods(kind, namespace, name)
    }

    fn pod_log_since(
        &mut self,
        namespace: Option<&str>,
        pod: &str,
        container: &str,
        since: Option<&str>,
    ) -> Result<(String, bool), KubeError> {
        self.client.pod_log_since(namespace, pod, container, since)
    }

    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError> {
        super::wants::check(&mut self.client, wants, why)
    }
}

impl Store for KubeEnv {
    fn records(&self) -> Option<&'static str> {
        self.driver.resource()
    }

    fn create(
        &mut self,
        namespace: &str,
        release: serde_json::Value,
        now_unix: u64,
    ) -> Result<StoredRelease, StorageError> {
        StoredRelease::create(&mut self.client, self.driver, namespace, release, now_unix)
    }

    fn save(&mut self, stored: &mut StoredRelease, now_unix: u64) -> Result<(), StorageError> {
        stored.save(&mut self.client, now_unix)
    }

    fn latest(&mut self, release: &str) -> Result<StoredRelease, StorageError> {
        storage::read_latest(&mut self.client, self.driver, release)
    }

    fn revision(&mut self, release: &str, revision: u64) -> Result<StoredRelease, StorageError> {
        storage::read_revision(&mut self.client, self.driver, release, revision)
    }

    fn history(&mut self, release: &str) -> Result<Vec<StoredRelease>, StorageError> {
        storage::history(&mut self.client, self.driver, release)
    }

    fn not_found(&mut self, release: &str) -> StorageError {
        let namespace = self.client.namespace().to_string();
        storage::not_found(&mut self.client, self.driver, &namespace, release)
    }

    fn history_where(
        &mut self,
        release: &str,
        wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError> {
        storage::history_where(&mut self.client, self.driver, release, wanted)
    }

    fn delete(&mut self, stored: &StoredRelease) -> Result<(), StorageError> {
        stored.delete(&mut self.client)
    }
}

/// Hooks run through the seam's steps ([`Env::run_hooks`]'s default).
impl Env for KubeEnv {}
