//! Release storage through Helm: the `release_storage` host function of a
//! Helm with testbed/helm-patches (docs/hip-host-functions.md), used by
//! plugin.wasm built with the `host-functions` feature.
//!
//! Helm answers from the storage its own commands use — whatever
//! `HELM_DRIVER` names (secret, configmap, sql, memory) — in the namespace
//! it is configured for, so the plugin needs neither the driver's format
//! nor its credentials. A revision crosses as Helm's release v1 JSON plus
//! its custom labels (which that JSON leaves out). Helm hides the drivers'
//! resourceVersions, so an update carries the revision as the plugin last
//! read it and Helm refuses it (`conflict`, with the stored revision) when
//! the stored one differs: the plugin then merges and tries again, as after
//! a 409 of the API server.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::base::cause::Cause;

/// One revision as it crosses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub(super) release: Value,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) labels: BTreeMap<String, String>,
}

/// One call (docs/hip-host-functions.md, "release_storage").
#[derive(Debug, Serialize, PartialEq)]
pub(super) struct StorageRequest<'a> {
    op: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "is_zero")]
    version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<&'a Record>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a Record>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct StorageAnswer {
    #[serde(default)]
    pub(super) namespace: String,
    #[serde(default)]
    pub(super) driver: String,
    #[serde(default)]
    record: Option<Record>,
    #[serde(default)]
    pub(super) records: Vec<Record>,
    #[serde(default)]
    code: String,
    #[serde(default)]
    error: String,
}

/// Why Helm did not do what was asked, or could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HelmStorageError {
    #[error("{0}")]
    NotFound(String),
    /// `create` of a revision that exists: another command stored it first.
    #[error("{0}")]
    Exists(String),
    /// `update` of a revision changed since it was read; the stored one.
    #[error("{message}")]
    Conflict { message: String, current: Box<Record> },
    /// The storage could not be reached (the API server for the secret and
    /// configmap drivers, the database for sql).
    #[error("Helm's release storage cannot be reached: {0}")]
    Unavailable(String),
    /// Anything else Helm answered: the driver failed, the request was
    /// refused.
    #[error("Helm's release storage: {0}")]
    Failed(String),
    /// A `conflict` without the stored revision, which the plugin needs to
    /// merge.
    #[error("Helm's release storage: {0}: a conflict without the stored revision")]
    ConflictWithoutRecord(String),
    /// The request could not be written as the contract's JSON.
    #[error("Helm's release storage: {0}")]
    Request(#[source] Cause<serde_json::Error>),
    /// Helm's answer is not the contract's JSON.
    #[error("Helm's release storage: Helm's release_storage answer: {0}")]
    Answer(#[source] Cause<serde_json::Error>),
    /// The host function could not be called.
    #[error("Helm's release storage: {0}")]
    Call(#[source] Cause),
    /// There is no Helm to ask: not plugin.wasm of the host-functions build.
    #[error("Helm's release storage: release_storage is a host function of Helm; only plugin.wasm of the host-functions build has it")]
    NoHost,
}

impl<'a> StorageRequest<'a> {
    pub(super) fn history(name: &'a str) -> Self {
        StorageRequest { op: "history", name, version: 0, record: None, expected: None }
    }
    pub(super) fn create(record: &'a Record) -> Self {
        StorageRequest { op: "create", name: "", version: 0, record: Some(record), expected: None }
    }
    pub(super) fn update(record: &'a Record, expected: &'a Record) -> Self {
        StorageRequest { op: "update", name: "", version: 0, record: Some(record), expected: Some(expected) }
    }
    pub(super) fn delete(name: &'a str, version: u64) -> Self {
        StorageRequest { op: "delete", name, version, record: None, expected: None }
    }
}

/// Helm's answer, or the error value it carries.
fn interpret(answer: StorageAnswer) -> Result<StorageAnswer, HelmStorageError> {
    let detail = |a: &StorageAnswer| format!("{} ({} storage, namespace {:?})", a.error, a.driver, a.namespace);
    match answer.code.as_str() {
        "" if answer.error.is_empty() => Ok(answer),
        "notFound" => Err(HelmStorageError::NotFound(detail(&answer))),
        "exists" => Err(HelmStorageError::Exists(detail(&answer))),
        "unavailable" => Err(HelmStorageError::Unavailable(detail(&answer))),
        "conflict" => {
            let message = detail(&answer);
            match answer.record {
                Some(current) => Err(HelmStorageError::Conflict { message, current: Box::new(current) }),
                None => Err(HelmStorageError::ConflictWithoutRecord(message)),
            }
        }
        _ => Err(HelmStorageError::Failed(detail(&answer))),
    }
}

/// The name of the driver Helm answered from (`Secret`, `ConfigMap`, `SQL`,
/// `Memory`), once it has answered (failures included): one per invocation,
/// as Helm's configuration is.
static DRIVER_NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();

pub(super) fn driver_name() -> Option<&'static str> {
    DRIVER_NAME.get().map(String::as_str)
}

/// One call of the host function, repeated while the storage cannot be
/// reached, as the plugin's own requests are (`kube::retry::RECONNECT_MS`),
/// when that is safe: reads, and an update (Helm refuses it once the stored
/// revision differs). A create or a delete may have been done before the
/// connection was lost: not repeated.
pub(super) fn call(req: &StorageRequest<'_>) -> Result<StorageAnswer, HelmStorageError> {
    let mut lost = crate::kube::retry::Reconnect::after(1);
    loop {
        match call_once(req) {
            Err(HelmStorageError::Unavailable(m)) if matches!(req.op, "history" | "update") => {
                lost.wait(m).map_err(HelmStorageError::Unavailable)?;
            }
            answer => return answer,
        }
    }
}

fn call_once(req: &StorageRequest<'_>) -> Result<StorageAnswer, HelmStorageError> {
    let input = serde_json::to_string(req).map_err(|e| HelmStorageError::Request(e.into()))?;
    let output = raw_call(input)?;
    let answer: StorageAnswer =
        serde_json::from_slice(output.as_bytes()).map_err(|e| HelmStorageError::Answer(e.into()))?;
    if !answer.driver.is_empty() {
        let _ = DRIVER_NAME.set(answer.driver.clone());
    }
    interpret(answer)
}

#[cfg(all(target_arch = "wasm32", feature = "host-functions"))]
fn raw_call(input: String) -> Result<String, HelmStorageError> {
    #[extism_pdk::host_fn]
    extern "ExtismHost" {
        fn release_storage(input: String) -> String;
    }
    // SAFETY: an import Helm provides when plugin.yaml names it; Helm
    // refuses to load the plugin otherwise.
    unsafe { release_storage(input) }
        .map_err(|e| HelmStorageError::Call(Box::<dyn std::error::Error + Send + Sync>::from(e).into()))
}

/// Outside plugin.wasm of the host-functions build there is no Helm to ask;
/// `Driver::from_env` never picks this backend there.
#[cfg(not(all(target_arch = "wasm32", feature = "host-functions")))]
fn raw_call(_input: String) -> Result<String, HelmStorageError> {
    Err(HelmStorageError::NoHost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(version: u64, desc: &str) -> Record {
        Record {
            release: json!({"name": "r", "namespace": "apps", "version": version, "info": {"description": desc}}),
            labels: BTreeMap::new(),
        }
    }

    #[test]
    fn requests_as_the_contract_spells_them() {
        let r = rec(2, "mine");
        let mut read = rec(2, "read");
        read.labels.insert("team".into(), "a".into());
        let j = |req: StorageRequest<'_>| serde_json::to_value(req).unwrap();
        assert_eq!(j(StorageRequest::history("r")), json!({"op": "history", "name": "r"}));
        assert_eq!(j(StorageRequest::delete("r", 3)), json!({"op": "delete", "name": "r", "version": 3}));
        assert_eq!(j(StorageRequest::create(&r)), json!({"op": "create", "record": {"release": r.release}}));
        assert_eq!(
            j(StorageRequest::update(&r, &read)),
            json!({"op": "update", "record": {"release": r.release},
                   "expected": {"release": read.release, "labels": {"team": "a"}}})
        );
    }

    #[test]
    fn answers_and_error_values() {
        let parse = |s: &str| interpret(serde_json::from_str(s).unwrap());
        let a = parse(
            r#"{"namespace":"apps","driver":"SQL","records":[{"release":{"version":1},"labels":{"team":"a"}},{"release":{"version":2}}]}"#,
        )
        .unwrap();
        assert_eq!((a.namespace.as_str(), a.driver.as_str(), a.records.len()), ("apps", "SQL", 2));
        assert_eq!(a.records[0].labels["team"], "a");
        assert!(a.records[1].labels.is_empty());
        // No history: no records field at all.
        assert!(parse(r#"{"namespace":"apps","driver":"Secret"}"#).unwrap().records.is_empty());

        let e = parse(r#"{"namespace":"apps","driver":"SQL","code":"notFound","error":"release: not found"}"#);
        assert_eq!(e.unwrap_err().to_string(), r#"release: not found (SQL storage, namespace "apps")"#);
        assert!(matches!(
            parse(r#"{"code":"unavailable","error":"dial tcp: connection refused"}"#),
            Err(HelmStorageError::Unavailable(m)) if m.contains("connection refused")
        ));
        assert!(matches!(
            parse(r#"{"code":"exists","error":"release: already exists"}"#),
            Err(HelmStorageError::Exists(_))
        ));
        match parse(r#"{"code":"conflict","error":"changed","record":{"release":{"version":3},"labels":{"x":"y"}}}"#) {
            Err(HelmStorageError::Conflict { current, .. }) => {
                assert_eq!(current.release["version"], 3);
                assert_eq!(current.labels["x"], "y");
            }
            other => panic!("{other:?}"),
        }
        // A conflict must carry the stored revision, or the plugin could not merge.
        let e = parse(r#"{"code":"conflict","error":"changed"}"#).unwrap_err();
        assert!(matches!(e, HelmStorageError::ConflictWithoutRecord(_)));
        assert_eq!(
            e.to_string(),
            r#"Helm's release storage: changed ( storage, namespace ""): a conflict without the stored revision"#
        );
        for s in [
            r#"{"code":"failed","error":"pq: connection refused"}"#,
            r#"{"code":"forbidden","error":"namespace"}"#,
            r#"{"error":"no code"}"#,
        ] {
            assert!(matches!(parse(s), Err(HelmStorageError::Failed(_))), "{s}");
        }
    }

    #[test]
    fn outside_helm_there_is_no_host_function() {
        #[cfg(not(all(target_arch = "wasm32", feature = "host-functions")))]
        let e = call(&StorageRequest::history("r")).unwrap_err();
        assert!(matches!(e, HelmStorageError::NoHost));
        assert!(e.to_string().contains("only plugin.wasm"));
    }
}
