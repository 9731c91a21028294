//! What names a thing in the cluster, apart from any request: a kind as the
//! API server serves it ([`ApiResource`]), an object by identity
//! ([`ObjectKey`]), and the selectors of a list or watch ([`Selector`]).

use std::fmt;

use serde_json::Value;

use super::error::KubeError;
use super::query::Query;

/// A kind as the API server serves it, from discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `v1`, `batch/v1`.
    pub api_version: String,
    pub kind: String,
    /// `jobs`.
    pub plural: String,
    pub namespaced: bool,
}

impl ApiResource {
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }

    /// `jobs.batch`, `pods`: how Kubernetes names the resource in messages.
    pub fn display_name(&self) -> String {
        match self.group() {
            "" => self.plural.clone(),
            g => format!("{}.{g}", self.plural),
        }
    }

    /// `/api/v1` or `/apis/batch/v1`.
    pub(super) fn prefix(&self) -> String {
        gv_path(&self.api_version)
    }
}

pub(super) fn gv_path(api_version: &str) -> String {
    if api_version.contains('/') {
        format!("/apis/{api_version}")
    } else {
        format!("/api/{api_version}")
    }
}

/// An object by identity. `namespace: None` means the client's namespace
/// for namespaced kinds; it is ignored for cluster-scoped ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectKey {
    pub fn new(api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectKey {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: namespace.filter(|n| !n.is_empty()).map(str::to_string),
            name: name.to_string(),
        }
    }

    /// The key of an object (`apiVersion`, `kind`, `metadata`).
    pub fn of(object: &Value) -> Result<Self, KubeError> {
        fn s<'a>(v: Option<&'a Value>, what: &'static str) -> Result<&'a str, KubeError> {
            match v {
                Some(Value::String(s)) if !s.is_empty() => Ok(s),
                // YAML as Kubernetes reads it makes a plain `y`, `no` or `0644` a boolean
                // or a number (crate::model::yaml); Helm refuses such an object too.
                Some(v @ (Value::Bool(_) | Value::Number(_))) => {
                    Err(KubeError::NotAString { what, value: v.to_string() })
                }
                _ => Err(KubeError::Incomplete(what)),
            }
        }
        let meta = object.get("metadata");
        Ok(ObjectKey::new(
            s(object.get("apiVersion"), "apiVersion")?,
            s(object.get("kind"), "kind")?,
            meta.and_then(|m| m.get("namespace")).and_then(Value::as_str),
            s(meta.and_then(|m| m.get("name")), "metadata.name")?,
        ))
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// `labelSelector` and `fieldSelector` of a list or watch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    pub labels: Option<String>,
    pub fields: Option<String>,
}

impl Selector {
    pub fn labels(s: &str) -> Self {
        Selector { labels: Some(s.to_string()), fields: None }
    }

    pub fn fields(s: &str) -> Self {
        Selector { labels: None, fields: Some(s.to_string()) }
    }

    /// One object by name.
    pub fn name(name: &str) -> Self {
        Selector::fields(&format!("metadata.name={name}"))
    }

    pub(super) fn query(&self, q: &mut Query) {
        if let Some(l) = &self.labels {
            q.push("labelSelector", l);
        }
        if let Some(f) = &self.fields {
            q.push("fieldSelector", f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_yaml_reads_as_a_boolean_is_named_as_such() {
        let o = crate::model::yaml::to_json("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: y\n").unwrap();
        let e = ObjectKey::of(&o).unwrap_err();
        assert!(e.is_object_fault());
        assert!(e.to_string().contains("metadata.name is true, not a string"), "{e}");
    }
}
