//! What names a thing in the cluster, apart from any request: a kind as the
//! API server serves it ([`ApiResource`]), an object by identity
//! ([`ObjectKey`], the model's, which every layer shares), and the
//! selectors of a list or watch ([`Selector`]).

use super::query::Query;
pub use crate::model::object::ObjectKey;

/// A kind as the API server serves it, from discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `v1`, `batch/v1`.
    pub(super) api_version: String,
    pub(super) kind: String,
    /// `jobs`.
    pub plural: String,
    pub namespaced: bool,
}

impl ApiResource {
    pub(super) fn group(&self) -> &str {
        crate::model::object::group_of(&self.api_version)
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

/// `labelSelector` and `fieldSelector` of a list or watch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    pub labels: Option<String>,
    fields: Option<String>,
}

impl Selector {
    pub fn labels(s: &str) -> Self {
        Selector { labels: Some(s.to_string()), fields: None }
    }

    pub(crate) fn fields(s: &str) -> Self {
        Selector { labels: None, fields: Some(s.to_string()) }
    }

    /// The field selector (`metadata.name=…`), for the simulation to answer.
    #[cfg(any(test, feature = "sim"))]
    pub(crate) fn field_selector(&self) -> Option<&str> {
        self.fields.as_deref()
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
        let e = crate::kube::KubeError::from(ObjectKey::of(&o).unwrap_err());
        assert!(e.is_object_fault());
        assert!(e.to_string().contains("metadata.name is true, not a string"), "{e}");
    }
}
