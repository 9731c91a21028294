//! Helm's release storage (`pkg/storage/driver`): read the latest revision
//! of a release, and write it back after a run with the hooks' `last_run`.
//!
//! - Object name `sh.helm.release.v1.<release>.v<revision>`, in the
//!   release's namespace; Secret (`type: helm.sh/release.v1`, the default,
//!   `HELM_DRIVER=secret`) or ConfigMap (`HELM_DRIVER=configmap`).
//! - `data.release` = base64(gzip(JSON)); Kubernetes base64-encodes a
//!   Secret's data once more, so a Secret's payload is decoded twice, a
//!   ConfigMap's once. The bytes are gunzipped only when they start with
//!   `1f 8b 08`; otherwise they are the JSON itself. The codec is
//!   [`super::payload`].
//! - Labels `name`, `owner=helm`, `status`, `version`, `createdAt` (on
//!   create) and `modifiedAt` (on update), unix seconds.
//!
//! The release stays a `serde_json::Value`, so fields this crate does not
//! know round-trip unchanged (JSON key order aside, which Go ignores). The
//! hooks' `last_run` it carries are typed in [`super::last_run`].
//!
//! plugin.wasm of the `host-functions` build reads and writes through Helm
//! instead ([`Driver::Helm`], `super::helm`): whatever driver Helm is
//! configured for, sql and memory included. Everything that stores a
//! release goes through the functions below, which pick the backend.

use crate::base::base64;
use crate::base::cause::Cause;
use crate::release::release_status::ReleaseStatus;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::helm::{self, HelmStorageError, Record};
use super::last_run::{carry_hook_runs, find_hook, set_last_run, LastRun};
use super::payload::{decode_payload, Encoder, PayloadError};
use crate::kube::{Client, KubeError, ObjectKey, Selector};

/// `helm.sh/release.v1`, the Secret type Helm writes.
pub const SECRET_TYPE: &str = "helm.sh/release.v1";

/// The object holding revision `revision` of `release`.
pub fn object_name(release: &str, revision: u64) -> String {
    format!("sh.helm.release.v1.{release}.v{revision}")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    Secret,
    ConfigMap,
    /// Helm's own storage through its `release_storage` host function:
    /// whatever `HELM_DRIVER` Helm is configured for.
    Helm,
}

impl Driver {
    /// From `HELM_DRIVER`, as Helm reads it (`""`, `secret`, `secrets`,
    /// `configmap`, `configmaps`); `memory` and `sql` cannot work from the
    /// plugin's own client. plugin.wasm of the host-functions build leaves
    /// the driver to Helm, which knows them all (and refuses an unknown one
    /// before the plugin runs).
    pub(crate) fn from_env(value: Option<&str>) -> Result<Driver, StorageError> {
        if cfg!(all(target_arch = "wasm32", feature = "host-functions")) {
            return Ok(Driver::Helm);
        }
        match value.unwrap_or_default() {
            "" | "secret" | "secrets" => Ok(Driver::Secret),
            "configmap" | "configmaps" => Ok(Driver::ConfigMap),
            other => Err(StorageError::UnsupportedDriver(other.to_string())),
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Driver::Secret => "Secret",
            Driver::ConfigMap => "ConfigMap",
            Driver::Helm => "Helm release",
        }
    }

    /// The API resource of the records, as RBAC names it. Through Helm:
    /// Secrets or ConfigMaps when Helm said it answered from that driver
    /// (with the same kubeconfig identity, so the plugin's permission checks
    /// still hold); `None` for sql and memory, or before Helm answered.
    pub(crate) fn resource(self) -> Option<&'static str> {
        match self {
            Driver::Secret => Some("secrets"),
            Driver::ConfigMap => Some("configmaps"),
            Driver::Helm => match helm::driver_name() {
                Some("Secret") => Some("secrets"),
                Some("ConfigMap") => Some("configmaps"),
                _ => None,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    #[error(transparent)]
    Kube(#[from] KubeError),
    #[error("release {release:?} not found in namespace {namespace:?} (looked for {kind}s labelled \
             owner=helm,name={release}){}", elsewhere.said(release, namespace, kind))]
    NotFound { release: String, namespace: String, kind: &'static str, elsewhere: Elsewhere },
    /// The release is stored, but not that revision.
    #[error("release {release:?} has no revision {revision} in namespace {namespace:?} (looked for {looked_for}; \
             stored revisions: {})", stored.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))]
    NoRevision { release: String, namespace: String, revision: u64, looked_for: String, stored: Vec<u64> },
    #[error("HELM_DRIVER={0} is not supported by the plugin: use secret (the default) or configmap")]
    UnsupportedDriver(String),
    #[error("cannot decode release {name}: {source}")]
    Decode {
        name: String,
        #[source]
        source: RecordError,
    },
    #[error("release {name}: the API server kept changing it (conflicts on every retry)")]
    Conflicts { name: String },
    #[error("release {release:?} not found in namespace {namespace:?} (Helm's {driver} storage){}",
        elsewhere.said(release, namespace, driver))]
    NotStored { release: String, namespace: String, driver: String, elsewhere: Elsewhere },
    #[error(transparent)]
    Helm(#[from] HelmStorageError),
}

/// Why a stored Secret or ConfigMap holds no release.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("it has no data.release")]
    NoData,
    /// The Secret's own base64 layer (Kubernetes' encoding of its data).
    #[error("Secret data: {0}")]
    SecretData(#[source] base64::Base64Error),
    #[error("{0}")]
    Payload(#[from] PayloadError),
    #[error("release JSON: {0}")]
    Json(#[source] Cause<serde_json::Error>),
    #[error("the release JSON is not an object")]
    NotObject,
}

/// Where else a release of the name is stored, when it is not in the
/// namespace looked in: asked with one list of Helm's records across
/// namespaces (label selector `owner=helm,name=<release>`), and, when none
/// holds it, one of a single record of any release, for the storage hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elsewhere {
    /// Not asked: a store that is no Secrets or ConfigMaps the plugin can
    /// list (Helm's sql or memory driver, a test's).
    NotAsked,
    /// The other namespaces holding a revision of it, sorted; when there
    /// are none, whether the records' kind holds any Helm release at all.
    Searched { namespaces: Vec<String>, any_release: bool },
    /// The list across namespaces was refused (a Role of one namespace
    /// may not list cluster-wide) or failed.
    Unsearched(Box<KubeError>),
}

impl Elsewhere {
    /// What the not-found message adds: the namespaces to name with `-n`,
    /// or why none was named.
    fn said(&self, release: &str, namespace: &str, kind: &str) -> String {
        match self {
            Elsewhere::NotAsked => String::new(),
            Elsewhere::Searched { namespaces, .. } if namespaces.len() == 1 => {
                format!("; a release {release:?} is in namespace {:?}: add -n {}", namespaces[0], namespaces[0])
            }
            Elsewhere::Searched { namespaces, .. } if !namespaces.is_empty() => {
                let list = namespaces.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ");
                format!(
                    "; releases named {release:?} are in namespaces {list}: add -n with one of them (-n {})",
                    namespaces[0]
                )
            }
            Elsewhere::Searched { any_release: true, .. } => {
                format!("; no other namespace holds a release {release:?} either")
            }
            // No Helm release at all in this driver's records: the releases are elsewhere.
            Elsewhere::Searched { any_release: false, .. } => match kind {
                "Secret" => "; no Secret in any namespace holds a Helm release: set HELM_DRIVER=configmap if \
                             Helm stores releases in ConfigMaps"
                    .to_string(),
                "ConfigMap" => "; no ConfigMap in any namespace holds a Helm release: unset HELM_DRIVER if Helm \
                                stores releases in Secrets (its default)"
                    .to_string(),
                _ => format!("; no namespace holds a release {release:?} either"),
            },
            Elsewhere::Unsearched(e) => format!("; other namespaces than {namespace:?} were not searched: {e}"),
        }
    }
}

impl StorageError {
    /// The release, or the revision asked for, is not stored (exit code 4):
    /// no cluster or permission error.
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, StorageError::NotFound { .. } | StorageError::NotStored { .. } | StorageError::NoRevision { .. })
    }

    /// A `create` refused because the revision exists: another command
    /// stored it first.
    pub(crate) fn is_exists(&self) -> bool {
        matches!(self, StorageError::Kube(KubeError::Conflict { .. }) | StorageError::Helm(HelmStorageError::Exists(_)))
    }
}

/// A release revision as read from the cluster.
#[derive(Debug, Clone)]
pub struct StoredRelease {
    driver: Driver,
    pub name: String,
    pub revision: u64,
    pub namespace: String,
    /// The release (Helm's `Release` JSON).
    pub release: Value,
    origin: Origin,
    /// The payload as last written, to reuse what did not change.
    payload: Encoder,
}

/// Where a revision was read from, as an update must find it again.
#[derive(Debug, Clone)]
enum Origin {
    /// The Secret or ConfigMap as last read or written, without its payload
    /// and managed fields (its resourceVersion makes the update conditional).
    Object(Value),
    /// Through Helm: the revision as last read or written (Helm refuses an
    /// update when the stored one differs from it).
    Helm(Record),
}

impl StoredRelease {
    /// The release JSON, for [`crate::model::input::parse`].
    pub fn json(&self) -> Vec<u8> {
        serde_json::to_vec(&self.release).expect("a Value serialises")
    }

    /// The Secret or ConfigMap's labels; through Helm, the custom labels.
    #[cfg(test)]
    fn labels(&self) -> BTreeMap<String, String> {
        match &self.origin {
            Origin::Object(object) => object
                .pointer("/metadata/labels")
                .and_then(Value::as_object)
                .map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect())
                .unwrap_or_default(),
            Origin::Helm(read) => read.labels.clone(),
        }
    }

    pub fn find_hook(&self, kind: &str, name: &str, path: &str) -> Option<usize> {
        find_hook(&self.release, kind, name, path)
    }

    pub fn set_last_run(&mut self, index: usize, run: &LastRun) -> bool {
        set_last_run(&mut self.release, index, run)
    }

    /// Writes the release back to the same object (an update, as Helm's
    /// `Storage.Update`: same revision, label `modifiedAt` = `now_unix`
    /// seconds). If the object changed meanwhile (409), it is read again,
    /// the hooks' `last_run` and `delete_policies` are carried over onto
    /// the fresh release, and the write is retried.
    pub fn save(&mut self, client: &mut Client, now_unix: u64) -> Result<(), StorageError> {
        let object = match &self.origin {
            Origin::Object(object) => object.clone(),
            Origin::Helm(_) => return self.save_through_helm(client),
        };
        self.save_object(client, object, now_unix)
    }

    fn save_object(&mut self, client: &mut Client, mut last: Value, now_unix: u64) -> Result<(), StorageError> {
        for _ in 0..4 {
            let mut object = last.clone();
            let span = crate::trace::span(|| "encode the release record".into());
            let payload = self.payload.encode(&self.release);
            let data = match self.driver {
                Driver::Secret => base64::encode(payload.as_bytes()),
                // (Helm's records are never written as objects.)
                Driver::ConfigMap | Driver::Helm => payload,
            };
            drop(span);
            let o = object.as_object_mut().expect("an object");
            let mut d = Map::new();
            d.insert("release".into(), Value::String(data));
            o.insert("data".into(), Value::Object(d));
            let status = self.release.pointer("/info/status").and_then(Value::as_str).map(str::to_string);
            if let Some(labels) = object.pointer_mut("/metadata/labels").and_then(Value::as_object_mut) {
                labels.insert("modifiedAt".into(), Value::String(now_unix.to_string()));
                labels.remove("createdAt");
                if let Some(status) = status {
                    labels.insert("status".into(), Value::String(status));
                }
            }
            match client.replace(&object) {
                Ok(stored) => {
                    self.origin = Origin::Object(without_payload(stored));
                    return Ok(());
                }
                Err(KubeError::Conflict { .. }) => {
                    let key = ObjectKey::new(
                        "v1",
                        self.driver.kind(),
                        Some(&self.namespace),
                        &object_name(&self.name, self.revision),
                    );
                    let fresh = read_object(self.driver, &self.name, client.get(&key)?)?;
                    let mut release = fresh.release;
                    carry_hook_runs(&self.release, &mut release);
                    self.release = release;
                    let Origin::Object(object) = fresh.origin else { unreachable!("read from an object") };
                    last = object;
                    self.origin = Origin::Object(last.clone());
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StorageError::Conflicts { name: object_name(&self.name, self.revision) })
    }

    /// [`Self::save`] through Helm: the update carries the revision as read;
    /// when Helm answers that the stored one differs, the hooks' runs are
    /// carried onto the stored one, as after a 409.
    fn save_through_helm(&mut self, client: &Client) -> Result<(), StorageError> {
        for _ in 0..4 {
            let Origin::Helm(read) = &self.origin else { unreachable!("read through Helm") };
            let record = Record { release: self.release.clone(), labels: read.labels.clone() };
            match helm::call(&helm::StorageRequest::update(&record, read)).map_err(|e| unreachable_cluster(client, e)) {
                Ok(_) => {
                    self.origin = Origin::Helm(record);
                    return Ok(());
                }
                Err(StorageError::Helm(HelmStorageError::Conflict { current, .. })) => {
                    let mut release = current.release.clone();
                    carry_hook_runs(&self.release, &mut release);
                    self.release = release;
                    self.origin = Origin::Helm(*current);
                }
                Err(e) => return Err(e),
            }
        }
        Err(StorageError::Conflicts { name: object_name(&self.name, self.revision) })
    }
}

impl StoredRelease {
    /// Stores a new revision, as Helm's `Storage.Create`: the object named
    /// for `release.version`, labels `name`, `owner=helm`, `status`,
    /// `version`, `createdAt`.
    pub(crate) fn create(
        client: &mut Client,
        driver: Driver,
        namespace: &str,
        release: Value,
        now_unix: u64,
    ) -> Result<StoredRelease, StorageError> {
        let name = release.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let revision = release.get("version").and_then(Value::as_u64).unwrap_or(0);
        if driver == Driver::Helm {
            let record = Record { release, labels: BTreeMap::new() };
            helm::call(&helm::StorageRequest::create(&record)).map_err(|e| unreachable_cluster(client, e))?;
            return Ok(StoredRelease {
                driver,
                name,
                revision,
                namespace: namespace.to_string(),
                release: record.release.clone(),
                origin: Origin::Helm(record),
                payload: Encoder::default(),
            });
        }
        let status = release.pointer("/info/status").and_then(Value::as_str).unwrap_or("unknown").to_string();
        let span = crate::trace::span(|| "encode the release record".into());
        let mut encoder = Encoder::default();
        let payload = encoder.encode(&release);
        drop(span);
        let mut object = serde_json::json!({
            "apiVersion": "v1",
            "kind": driver.kind(),
            "metadata": {
                "name": object_name(&name, revision),
                "namespace": namespace,
                "labels": {
                    "name": name,
                    "owner": "helm",
                    "status": status,
                    "version": revision.to_string(),
                    "createdAt": now_unix.to_string(),
                },
            },
        });
        match driver {
            Driver::Secret => {
                object["type"] = Value::String(SECRET_TYPE.into());
                object["data"] = serde_json::json!({ "release": base64::encode(payload.as_bytes()) });
            }
            Driver::ConfigMap | Driver::Helm => object["data"] = serde_json::json!({ "release": payload }),
        }
        let stored = client.create(&object)?;
        Ok(StoredRelease {
            driver,
            name,
            revision,
            namespace: namespace.to_string(),
            release,
            origin: Origin::Object(without_payload(stored)),
            payload: encoder,
        })
    }

    /// Removes this revision's object (Helm's `Storage.Delete`).
    pub(crate) fn delete(&self, client: &mut Client) -> Result<(), StorageError> {
        if self.driver == Driver::Helm {
            helm::call(&helm::StorageRequest::delete(&self.name, self.revision))
                .map_err(|e| unreachable_cluster(client, e))?;
            return Ok(());
        }
        let key =
            ObjectKey::new("v1", self.driver.kind(), Some(&self.namespace), &object_name(&self.name, self.revision));
        client.delete(&key)?;
        Ok(())
    }

    /// `info.status` of the stored release.
    pub(crate) fn status(&self) -> ReleaseStatus {
        ReleaseStatus::parse(self.release.pointer("/info/status").and_then(Value::as_str).unwrap_or_default())
    }
}

fn without_payload(mut object: Value) -> Value {
    if let Some(o) = object.as_object_mut() {
        o.remove("data");
        o.remove("stringData");
        o.entry("apiVersion").or_insert_with(|| Value::String("v1".into()));
    }
    if let Some(m) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    object
}

/// Decodes a Secret or ConfigMap holding a release.
pub fn read_object(driver: Driver, release: &str, object: Value) -> Result<StoredRelease, StorageError> {
    let obj_name = object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
    let bad = |source: RecordError| StorageError::Decode { name: obj_name.clone(), source };
    let data = object.pointer("/data/release").and_then(Value::as_str).ok_or_else(|| bad(RecordError::NoData))?;
    let payload = match driver {
        Driver::Secret => base64::decode(data.as_bytes()).map_err(|e| bad(RecordError::SecretData(e)))?,
        Driver::ConfigMap | Driver::Helm => data.as_bytes().to_vec(),
    };
    let json = decode_payload(&payload).map_err(|e| bad(e.into()))?;
    let value: Value = serde_json::from_slice(&json).map_err(|e| bad(RecordError::Json(e.into())))?;
    if !value.is_object() {
        return Err(bad(RecordError::NotObject));
    }
    let revision = value
        .get("version")
        .and_then(Value::as_u64)
        .or_else(|| object.pointer("/metadata/labels/version").and_then(Value::as_str).and_then(|v| v.parse().ok()))
        .unwrap_or(0);
    let namespace = object.pointer("/metadata/namespace").and_then(Value::as_str).unwrap_or_default().to_string();
    Ok(StoredRelease {
        driver,
        name: release.to_string(),
        revision,
        namespace,
        release: value,
        origin: Origin::Object(without_payload(object)),
        payload: Encoder::default(),
    })
}

/// Every stored object of `release` in the client's namespace (labelled
/// `owner=helm,name=<release>`), lowest `version` first.
fn list_revisions(client: &mut Client, driver: Driver, release: &str) -> Result<Vec<Value>, StorageError> {
    let res = client.resource("v1", driver.kind())?;
    let ns = client.namespace().to_string();
    let list = client.list(&res, Some(&ns), &Selector::labels(&format!("owner=helm,name={release}")))?;
    let version =
        |o: &Value| o.pointer("/metadata/labels/version").and_then(Value::as_str).and_then(|v| v.parse::<u64>().ok());
    let mut items: Vec<(u64, Value)> = list.items.into_iter().filter_map(|o| Some((version(&o)?, o))).collect();
    crate::base::order::by_key(&mut items, |(v, _)| *v);
    Ok(items.into_iter().map(|(_, o)| o).collect())
}

/// Reads the latest revision of `release` from the client's namespace, as
/// Helm's `Storage.Last`: every object labelled `owner=helm,name=<release>`,
/// the highest `version`.
pub fn read_latest(client: &mut Client, driver: Driver, release: &str) -> Result<StoredRelease, StorageError> {
    if driver == Driver::Helm {
        let (namespace, storage, mut all) =
            history_through_helm(release).map_err(|e| unreachable_cluster(client, e))?;
        if let Some(latest) = all.pop() {
            return Ok(latest);
        }
        let elsewhere = look_elsewhere(client, driver, release);
        return Err(StorageError::NotStored { release: release.to_string(), namespace, driver: storage, elsewhere });
    }
    let ns = client.namespace().to_string();
    match list_revisions(client, driver, release)?.pop() {
        Some(latest) => read_object(driver, release, latest),
        None => Err(not_found(client, driver, &ns, release)),
    }
}

/// A release with no revision stored in `namespace`, said the same way by
/// every command that needs one (`run`, `status`, `rollback`, `uninstall`):
/// its name, the namespace, what was looked for there, and where else a
/// release of that name is ([`look_elsewhere`]).
pub(crate) fn not_found(client: &mut Client, driver: Driver, namespace: &str, release: &str) -> StorageError {
    let elsewhere = look_elsewhere(client, driver, release);
    not_found_with(driver, namespace, release, elsewhere)
}

/// [`not_found`] with what is known of where else it is.
pub fn not_found_with(driver: Driver, namespace: &str, release: &str, elsewhere: Elsewhere) -> StorageError {
    let (release, namespace) = (release.to_string(), namespace.to_string());
    match driver {
        Driver::Secret | Driver::ConfigMap => {
            StorageError::NotFound { release, namespace, kind: driver.kind(), elsewhere }
        }
        Driver::Helm => {
            let driver = helm::driver_name().unwrap_or("configured").to_string();
            StorageError::NotStored { release, namespace, driver, elsewhere }
        }
    }
}

/// The other namespaces holding a release named `release`: one list of
/// Helm's records across namespaces; when it finds none, one record of
/// any release, so that the storage hint comes only when this driver's
/// kind holds no Helm release at all. Through Helm's own storage, only
/// when Helm answered from Secrets or ConfigMaps (which the plugin's
/// client can list too); sql and memory are not asked.
fn look_elsewhere(client: &mut Client, driver: Driver, release: &str) -> Elsewhere {
    let kind = match (driver, driver.resource()) {
        (Driver::Secret | Driver::ConfigMap, _) => driver.kind(),
        (Driver::Helm, Some("secrets")) => "Secret",
        (Driver::Helm, Some("configmaps")) => "ConfigMap",
        (Driver::Helm, _) => return Elsewhere::NotAsked,
    };
    let here = client.namespace().to_string();
    let mut search = || -> Result<Elsewhere, KubeError> {
        let res = client.resource("v1", kind)?;
        let list = client.list(&res, None, &Selector::labels(&format!("owner=helm,name={release}")))?;
        let mut namespaces: Vec<String> = list
            .items
            .iter()
            .filter_map(|o| o.pointer("/metadata/namespace").and_then(Value::as_str))
            .filter(|n| *n != here)
            .map(str::to_string)
            .collect();
        crate::base::order::by(&mut namespaces, |a, b| a.cmp(b));
        namespaces.dedup();
        let any_release = !namespaces.is_empty() || client.any(&res, None, &Selector::labels("owner=helm"))?;
        Ok(Elsewhere::Searched { namespaces, any_release })
    };
    search().unwrap_or_else(|e| Elsewhere::Unsearched(Box::new(e)))
}

/// A release whose latest stored revision holds Helm's lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pending {
    pub(crate) release: String,
    pub(crate) namespace: String,
    pub(crate) revision: u64,
    pub(crate) status: ReleaseStatus,
}

/// The releases of the client's namespace whose newest revision carrying a
/// pending status label is pending (`pending-*`, `uninstalling`), found by
/// Helm's `status` label alone: one list of those records, none decoded, as
/// a name is not known (`deploy` after the `helm` before its pipe failed).
/// Through Helm's storage (no name, no list): none; the caller lists the
/// Secrets or ConfigMaps of Helm's driver instead.
pub(crate) fn pending_releases(client: &mut Client, driver: Driver) -> Result<Vec<Pending>, StorageError> {
    if driver == Driver::Helm {
        return Ok(Vec::new());
    }
    let res = client.resource("v1", driver.kind())?;
    let namespace = client.namespace().to_string();
    let selector = "owner=helm,status in (pending-install,pending-upgrade,pending-rollback,uninstalling)";
    let list = client.list(&res, Some(&namespace), &Selector::labels(selector))?;
    let label =
        |o: &Value, l: &str| o.pointer(&format!("/metadata/labels/{l}")).and_then(Value::as_str).map(str::to_string);
    let mut found: Vec<Pending> = list
        .items
        .iter()
        .filter_map(|o| {
            Some(Pending {
                release: label(o, "name")?,
                namespace: namespace.clone(),
                revision: label(o, "version")?.parse().ok()?,
                status: ReleaseStatus::parse(&label(o, "status")?),
            })
        })
        .collect();
    // One line per release: its newest pending revision.
    crate::base::order::by(&mut found, |a, b| (&a.release, b.revision).cmp(&(&b.release, a.revision)));
    found.dedup_by(|a, b| a.release == b.release);
    Ok(found)
}

/// Revision `revision` of `release`, or why not: [`not_found`] when the
/// release has no revision at all, [`StorageError::NoRevision`] naming the
/// namespace, the object looked for and the revisions there are.
pub(crate) fn read_revision(
    client: &mut Client,
    driver: Driver,
    release: &str,
    revision: u64,
) -> Result<StoredRelease, StorageError> {
    let all = history(client, driver, release)?;
    let namespace = all.first().map(|s| s.namespace.clone()).unwrap_or_else(|| client.namespace().to_string());
    if all.is_empty() {
        return Err(not_found(client, driver, &namespace, release));
    }
    let stored: Vec<u64> = all.iter().map(|s| s.revision).collect();
    all.into_iter().find(|s| s.revision == revision).ok_or_else(|| StorageError::NoRevision {
        release: release.to_string(),
        namespace,
        revision,
        looked_for: match driver {
            Driver::Secret | Driver::ConfigMap => format!("{} {}", driver.kind(), object_name(release, revision)),
            Driver::Helm => format!("revision {revision} in Helm's storage"),
        },
        stored,
    })
}

/// Every revision of `release` (Helm's `Storage.History`), oldest first;
/// empty when it was never installed.
pub(crate) fn history(client: &mut Client, driver: Driver, release: &str) -> Result<Vec<StoredRelease>, StorageError> {
    if driver == Driver::Helm {
        return history_through_helm(release).map(|(_, _, all)| all).map_err(|e| unreachable_cluster(client, e));
    }
    list_revisions(client, driver, release)?.into_iter().map(|o| read_object(driver, release, o)).collect()
}

/// The revisions of `release` that `wanted` picks by revision and status
/// (`None`: a record without Helm's `status` label, picked to be read),
/// oldest first: as [`history`], without decoding the others. Helm's
/// storage queries records by the same labels (`Storage.DeployedAll`).
pub(crate) fn history_where(
    client: &mut Client,
    driver: Driver,
    release: &str,
    wanted: &dyn Fn(u64, Option<&str>) -> bool,
) -> Result<Vec<StoredRelease>, StorageError> {
    if driver == Driver::Helm {
        let all = history(client, driver, release)?;
        return Ok(all.into_iter().filter(|h| wanted(h.revision, Some(h.status().as_str()))).collect());
    }
    let label =
        |o: &Value, l: &str| o.pointer(&format!("/metadata/labels/{l}")).and_then(Value::as_str).map(str::to_string);
    list_revisions(client, driver, release)?
        .into_iter()
        .filter(|o| {
            let revision = label(o, "version").and_then(|v| v.parse().ok()).unwrap_or_default();
            wanted(revision, label(o, "status").as_deref())
        })
        .map(|o| read_object(driver, release, o))
        .collect()
}

/// Every revision of `release` as Helm reads it (lowest version first),
/// with the namespace and the driver Helm answered from.
fn history_through_helm(release: &str) -> Result<(String, String, Vec<StoredRelease>), HelmStorageError> {
    let answer = helm::call(&helm::StorageRequest::history(release))?;
    let namespace = answer.namespace;
    let all = answer.records.into_iter().map(|r| from_record(release, &namespace, r)).collect();
    Ok((namespace, answer.driver, all))
}

/// Helm's storage unreachable while its driver keeps the records in the
/// cluster: the API server is, and the plugin says so as for its own
/// requests (naming the server, exit code 3).
fn unreachable_cluster(client: &Client, e: HelmStorageError) -> StorageError {
    match (e, Driver::Helm.resource()) {
        (HelmStorageError::Unavailable(message), Some(records)) => {
            // The records' collection, which Helm's driver was asking for.
            let url = format!("{}/api/v1/namespaces/{}/{records}", client.connection().server, client.namespace());
            StorageError::Kube(KubeError::Transport(crate::kube::TransportError::Io { url, message }))
        }
        (e, _) => StorageError::Helm(e),
    }
}

fn from_record(release: &str, namespace: &str, record: Record) -> StoredRelease {
    StoredRelease {
        driver: Driver::Helm,
        name: release.to_string(),
        revision: record.release.get("version").and_then(Value::as_u64).unwrap_or(0),
        namespace: namespace.to_string(),
        release: record.release.clone(),
        origin: Origin::Helm(record),
        payload: Encoder::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{client, respond};
    use crate::release::last_run::HookPhase;
    use crate::release::payload::encode_payload;

    /// A Secret as Helm 4.2.4 wrote it: `helm install demo
    /// testbed/charts/hooks-demo` on the test bed, then `kubectl get secret
    /// -o json` (payload: Go's gzip at BestCompression).
    fn helm_secret() -> Value {
        serde_json::from_str(include_str!("../../testdata/storage/helm-secret.json")).expect("the fixture is JSON")
    }

    #[test]
    fn reads_a_secret_helm_wrote() {
        let s = read_object(Driver::Secret, "demo", helm_secret()).unwrap();
        assert_eq!(s.revision, 1);
        assert_eq!(s.release["name"], "demo");
        assert_eq!(s.release["info"]["status"], "deployed");
        let hooks = s.release["hooks"].as_array().unwrap();
        assert!(!hooks.is_empty());
        // A hook Helm never ran: phase "" and no times.
        let test = s.find_hook("Pod", "demo-test-ok", "").unwrap();
        assert_eq!(hooks[test]["last_run"], serde_json::json!({"phase": ""}));
        // Helm ran the pre-install hook: nanosecond times, defaults filled in.
        let pre = s.find_hook("Job", "demo-pre-install", "").unwrap();
        assert_eq!(hooks[pre]["last_run"]["phase"], "Succeeded");
        assert!(hooks[pre]["last_run"]["started_at"].as_str().unwrap().ends_with('Z'));
        assert_eq!(hooks[pre]["delete_policies"], serde_json::json!(["before-hook-creation"]));
        assert_eq!(s.labels()["owner"], "helm");
        // Helm's Update rebuilds the labels: createdAt is gone after install's
        // second write, modifiedAt is there.
        assert!(s.labels().contains_key("modifiedAt"));
        assert!(!s.labels().contains_key("createdAt"));
        // Helm's own encoding decodes to what our encoding decodes to.
        let again = decode_payload(encode_payload(&s.json()).as_bytes()).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&again).unwrap(), s.release);
    }

    #[test]
    fn drivers() {
        assert_eq!(Driver::from_env(None).unwrap(), Driver::Secret);
        assert_eq!(Driver::from_env(Some("configmaps")).unwrap(), Driver::ConfigMap);
        assert!(Driver::from_env(Some("sql")).is_err());
        assert_eq!(object_name("demo", 12), "sh.helm.release.v1.demo.v12");
    }

    fn secret(version: u64, release: &Value) -> Value {
        let payload = encode_payload(&serde_json::to_vec(release).unwrap());
        serde_json::json!({
            "apiVersion": "v1", "kind": "Secret", "type": SECRET_TYPE,
            "metadata": {"name": object_name("r", version), "namespace": "rel", "resourceVersion": format!("{version}0"),
                "managedFields": [{"manager": "helm"}],
                "labels": {"name": "r", "owner": "helm", "status": "deployed", "version": version.to_string(), "createdAt": "1"}},
            "data": {"release": base64::encode(payload.as_bytes())}
        })
    }

    #[test]
    fn read_latest_then_save_retries_a_conflict() {
        let rel = |v: u64, desc: &str| {
            serde_json::json!({"name":"r","version":v,"info":{"description":desc},
            "hooks":[{"name":"t","kind":"Pod","path":"c/t.yaml","last_run":{"phase":""}}]})
        };
        let list = serde_json::json!({"metadata":{"resourceVersion":"99"},
            "items":[secret(1, &rel(1, "one")), secret(3, &rel(3, "three")), secret(2, &rel(2, "two"))]});
        let core = r#"{"resources":[{"name":"secrets","namespaced":true,"kind":"Secret"},{"name":"configmaps","namespaced":true,"kind":"ConfigMap"}]}"#;
        let (mut c, script) = client(
            None,
            vec![
                respond(200, core),
                respond(200, &list.to_string()),
                respond(409, r#"{"message":"the object has been modified"}"#),
                respond(200, &secret(3, &rel(3, "changed meanwhile")).to_string()),
                respond(200, &secret(3, &rel(3, "ignored")).to_string()),
            ],
        );
        let mut s = read_latest(&mut c, Driver::Secret, "r").unwrap();
        assert_eq!((s.revision, s.namespace.as_str()), (3, "rel"));
        let i = s.find_hook("Pod", "t", "c/t.yaml").unwrap();
        s.set_last_run(i, &LastRun { started_at: Some(1000), completed_at: Some(2500), phase: HookPhase::Succeeded });
        s.save(&mut c, 1_700_000_000).unwrap();
        let seen = script.seen.borrow();
        assert!(seen[1]
            .url
            .ends_with("/api/v1/namespaces/rel/secrets?labelSelector=owner%3Dhelm%2Cname%3Dr&limit=500"));
        // The first PUT carried the resourceVersion read, no managed fields.
        let put: Value = serde_json::from_slice(seen[2].body.as_ref().unwrap()).unwrap();
        assert_eq!(
            seen[2].url,
            "https://k:6443/api/v1/namespaces/rel/secrets/sh.helm.release.v1.r.v3?fieldManager=helm"
        );
        assert_eq!(put["metadata"]["resourceVersion"], "30");
        assert!(put["metadata"].get("managedFields").is_none());
        assert_eq!(put["metadata"]["labels"]["modifiedAt"], "1700000000");
        // Helm's Update rebuilds the labels without createdAt.
        assert!(put["metadata"]["labels"].get("createdAt").is_none());
        assert_eq!(put["type"], SECRET_TYPE);
        // After the conflict: re-read, our last_run on the fresh release.
        let put2: Value = serde_json::from_slice(seen[4].body.as_ref().unwrap()).unwrap();
        let data = put2["data"]["release"].as_str().unwrap();
        let json = decode_payload(&base64::decode(data.as_bytes()).unwrap()).unwrap();
        let written: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(written["info"]["description"], "changed meanwhile");
        assert_eq!(
            written["hooks"][0]["last_run"],
            serde_json::json!({"started_at":"1970-01-01T00:00:01Z","completed_at":"1970-01-01T00:00:02.5Z","phase":"Succeeded"})
        );
        assert_eq!(written["hooks"][0]["delete_policies"], serde_json::json!(["before-hook-creation"]));
    }

    /// Issue 41: a release not stored in the namespace names the namespace, what was
    /// looked for, and, from one list across namespaces, the namespaces that hold one; the
    /// storage hint only when no Secret anywhere holds a Helm release; a list refused is said.
    #[test]
    fn missing_release_says_where_it_looked_and_where_it_is() {
        let core = r#"{"resources":[{"name":"secrets","namespaced":true,"kind":"Secret"}]}"#;
        let empty = r#"{"metadata":{},"items":[]}"#;
        let record = |ns: &str| {
            serde_json::json!({"metadata": {"name": "sh.helm.release.v1.nope.v1", "namespace": ns,
                "labels": {"owner": "helm", "name": "nope", "version": "1"}}})
        };
        let elsewhere = serde_json::json!({"metadata": {}, "items": [record("b"), record("a"), record("b")]});
        let looked =
            "release \"nope\" not found in namespace \"rel\" (looked for Secrets labelled owner=helm,name=nope)";

        let (mut c, script) =
            client(None, vec![respond(200, core), respond(200, empty), respond(200, &elsewhere.to_string())]);
        let e = read_latest(&mut c, Driver::Secret, "nope").unwrap_err();
        assert!(e.is_not_found(), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("{looked}; releases named \"nope\" are in namespaces \"a\", \"b\": add -n with one of them (-n a)")
        );
        let urls: Vec<String> = script.seen.borrow().iter().map(|r| r.url.clone()).collect();
        assert!(
            urls[2].contains("/api/v1/secrets?") && urls[2].contains("labelSelector=owner%3Dhelm%2Cname%3Dnope"),
            "{urls:?}"
        );
        assert_eq!(urls.len(), 3, "one list across namespaces: {urls:?}");

        // No release of the name anywhere, but Secrets hold other releases: no storage hint.
        let other = serde_json::json!({"metadata": {}, "items": [record("x")]});
        let (mut c, script) = client(
            None,
            vec![respond(200, core), respond(200, empty), respond(200, empty), respond(200, &other.to_string())],
        );
        let e = read_latest(&mut c, Driver::Secret, "nope").unwrap_err().to_string();
        assert_eq!(e, format!("{looked}; no other namespace holds a release \"nope\" either"));
        assert!(script.seen.borrow()[3].url.contains("limit=1"), "one record is enough");
        // No Secret holds any Helm release: the releases are in ConfigMaps, perhaps.
        let (mut c, _) =
            client(None, vec![respond(200, core), respond(200, empty), respond(200, empty), respond(200, empty)]);
        let e = read_latest(&mut c, Driver::Secret, "nope").unwrap_err().to_string();
        assert!(e.ends_with("no Secret in any namespace holds a Helm release: set HELM_DRIVER=configmap if Helm stores releases in ConfigMaps"), "{e}");

        // Credentials of one namespace: the list across namespaces is refused, and said.
        let forbidden = r#"{"kind":"Status","message":"secrets is forbidden: User \"u\" cannot list resource \"secrets\" in API group \"\" at the cluster scope","reason":"Forbidden","code":403}"#;
        let (mut c, _) = client(None, vec![respond(200, core), respond(200, empty), respond(403, forbidden)]);
        let e = read_latest(&mut c, Driver::Secret, "nope").unwrap_err();
        assert!(e.is_not_found(), "{e:?}");
        let e = e.to_string();
        assert!(
            e.starts_with(&format!(
                "{looked}; other namespaces than \"rel\" were not searched: forbidden: cannot list"
            )),
            "{e}"
        );
    }

    /// `status --revision N` of a revision that is not stored names the
    /// namespace, the object looked for and the revisions there are; of a
    /// release that is not stored, as every command says it.
    #[test]
    fn missing_revision_says_where_it_looked() {
        let rel = |v: u64| serde_json::json!({"name":"r","version":v,"info":{"description":"x"},"hooks":[]});
        let list =
            serde_json::json!({"metadata":{"resourceVersion":"9"},"items":[secret(1, &rel(1)), secret(2, &rel(2))]});
        let core = r#"{"resources":[{"name":"secrets","namespaced":true,"kind":"Secret"}]}"#;
        let (mut c, _) = client(None, vec![respond(200, core), respond(200, &list.to_string())]);
        let e = read_revision(&mut c, Driver::Secret, "r", 7).unwrap_err().to_string();
        assert_eq!(
            e,
            "release \"r\" has no revision 7 in namespace \"rel\" (looked for Secret sh.helm.release.v1.r.v7; \
             stored revisions: 1, 2)"
        );
        let (mut c, _) = client(None, vec![respond(200, core), respond(200, &list.to_string())]);
        assert_eq!(read_revision(&mut c, Driver::Secret, "r", 2).unwrap().revision, 2);
        let (mut c, _) = client(None, vec![respond(200, core), respond(200, r#"{"metadata":{},"items":[]}"#)]);
        let e = read_revision(&mut c, Driver::Secret, "nope", 1).unwrap_err();
        assert!(matches!(e, StorageError::NotFound { .. }), "{e}");
    }

    /// The pending releases of a namespace, by Helm's labels alone, the
    /// newest pending revision of each.
    #[test]
    fn pending_releases_by_their_labels() {
        let rec = |name: &str, v: u64, status: &str| {
            serde_json::json!({"metadata": {"name": object_name(name, v), "labels": {"name": name, "owner": "helm",
                "version": v.to_string(), "status": status}}})
        };
        let list = serde_json::json!({"metadata": {"resourceVersion": "9"}, "items": [
            rec("s2", 1, "pending-install"), rec("web", 3, "pending-upgrade"), rec("web", 4, "pending-rollback")]});
        let core = r#"{"resources":[{"name":"secrets","namespaced":true,"kind":"Secret"}]}"#;
        let (mut c, script) = client(None, vec![respond(200, core), respond(200, &list.to_string())]);
        let found = pending_releases(&mut c, Driver::Secret).unwrap();
        let got: Vec<_> = found.iter().map(|p| (p.release.as_str(), p.revision, p.status)).collect();
        assert_eq!(got, [("s2", 1, ReleaseStatus::PendingInstall), ("web", 4, ReleaseStatus::PendingRollback)]);
        assert_eq!(found[0].namespace, "rel");
        let url = &script.seen.borrow()[1].url;
        assert!(
            url.contains("labelSelector=owner%3Dhelm%2Cstatus+in+")
                || url.contains("labelSelector=owner%3Dhelm%2Cstatus%20in%20"),
            "{url}"
        );
    }
}
