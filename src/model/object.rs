//! An object in the cluster by identity, one type for every layer: what a
//! request names ([`ObjectKey`]: group, version, kind, namespace, name), and
//! what makes two of them one object whatever version each is read at
//! ([`Identity`], how Helm matches resources between revisions and how a
//! release's duplicates are found).
//!
//! A chart's own references (`Kind/name` in `helm.sh/depends-on`,
//! [`super::reference::ObjectRef`]) stay apart: they name no version or
//! group, and are matched against objects rather than sent.

use std::fmt;

use serde_json::Value;

/// An object by identity. `namespace: None` means the client's namespace
/// for namespaced kinds; it is ignored for cluster-scoped ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    /// `v1`, `batch/v1`: the group and the version.
    pub api_version: String,
    pub kind: String,
    pub(crate) namespace: Option<String>,
    pub name: String,
}

/// Why an object has no key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum KeyError {
    /// An object without apiVersion, kind or name.
    #[error("the object has no {0}")]
    Incomplete(&'static str),
    /// apiVersion, kind or name written so that YAML reads it as no string.
    #[error("the object's {what} is {value}, not a string: Kubernetes reads YAML 1.1, where a plain y, yes, on, no, off or a number is not text; quote it in the template")]
    NotAString { what: &'static str, value: String },
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
    pub(crate) fn of(object: &Value) -> Result<Self, KeyError> {
        fn s<'a>(v: Option<&'a Value>, what: &'static str) -> Result<&'a str, KeyError> {
            match v {
                Some(Value::String(s)) if !s.is_empty() => Ok(s),
                // YAML as Kubernetes reads it makes a plain `y`, `no` or `0644` a boolean
                // or a number (crate::model::yaml); Helm refuses such an object too.
                Some(v @ (Value::Bool(_) | Value::Number(_))) => {
                    Err(KeyError::NotAString { what, value: v.to_string() })
                }
                _ => Err(KeyError::Incomplete(what)),
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

    /// The API group: empty for the core group (`v1`).
    #[cfg(test)]
    fn group(&self) -> &str {
        group_of(&self.api_version)
    }

    /// The version within the group.
    #[cfg(test)]
    fn version(&self) -> &str {
        self.api_version.rsplit_once('/').map_or(&self.api_version, |(_, v)| v)
    }

    /// What makes this one object in the cluster, whatever version it is
    /// read at.
    #[cfg(test)]
    pub(super) fn identity(&self) -> Identity<'_> {
        Identity { group: self.group(), kind: &self.kind, namespace: self.namespace.as_deref(), name: &self.name }
    }
}

/// The group of an `apiVersion`: empty for the core group.
pub(crate) fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// An [`ObjectKey`] as Kubernetes tells objects apart: API group, kind,
/// namespace and name, without the version — one object is served at every
/// version of its group. Borrowed, so that it costs nothing to make for
/// every object of a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Identity<'a> {
    pub(super) group: &'a str,
    pub(super) kind: &'a str,
    pub(super) namespace: Option<&'a str>,
    pub(super) name: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_object_whatever_version_it_is_read_at() {
        let (a, b) = (
            ObjectKey::new("apps/v1", "Deployment", Some("n"), "d"),
            ObjectKey::new("apps/v1beta2", "Deployment", Some("n"), "d"),
        );
        assert_ne!(a, b, "a request names its version");
        assert_eq!(a.identity(), b.identity());
        assert_eq!((a.group(), a.version()), ("apps", "v1"));
        let core = ObjectKey::new("v1", "ConfigMap", Some(""), "c");
        assert_eq!((core.group(), core.version(), core.namespace.as_deref()), ("", "v1", None));
        assert_ne!(core.identity(), ObjectKey::new("example.com/v1", "ConfigMap", None, "c").identity());
    }

    #[test]
    fn a_name_yaml_reads_as_a_boolean_is_named_as_such() {
        let o = crate::model::yaml::to_json("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: y\n").unwrap();
        let e = ObjectKey::of(&o).unwrap_err();
        assert!(e.to_string().contains("metadata.name is true, not a string"), "{e}");
        let o = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}});
        assert_eq!(ObjectKey::of(&o), Err(KeyError::Incomplete("metadata.name")));
    }
}
