//! How the text names an object: the progress lines and the text reports
//! (`text/deploy`, `text/run`, `text/preview`) name an object of the
//! release's namespace `Kind/name`, the namespace said once by the header,
//! and only an object of another namespace with its own. A file of its own,
//! below both, so that the progress lines and the reports they share tables
//! with import it one way.

use crate::model::reference::ObjectRef;

/// How the text names objects: without the release's namespace.
#[derive(Debug, Clone, Default)]
pub(super) struct Names {
    namespace: Option<String>,
}

impl Names {
    /// Objects of `namespace`, the release's, named without it.
    pub(super) fn within(namespace: &str) -> Names {
        Names { namespace: Some(namespace.to_string()) }
    }

    pub(super) fn of(&self, r: &ObjectRef) -> String {
        match (&r.namespace, &self.namespace) {
            (Some(ns), Some(release)) if ns == release => format!("{}/{}", r.kind, r.name),
            _ => r.to_string(),
        }
    }

    pub(super) fn all(&self, refs: &[ObjectRef]) -> String {
        refs.iter().map(|r| self.of(r)).collect::<Vec<_>>().join(", ")
    }
}

/// A reference as the text of a report whose release is in `namespace`
/// names it: without that namespace (the tables of `deploy`, `run`).
pub(super) fn local_name(reference: &str, namespace: Option<&str>) -> String {
    match (reference.parse::<ObjectRef>(), namespace) {
        (Ok(r), Some(ns)) => Names::within(ns).of(&r),
        _ => reference.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_namespace_is_left_out() {
        assert_eq!(local_name("Job/demo/shop-migrate", Some("demo")), "Job/shop-migrate");
        assert_eq!(local_name("Job/demo/shop-migrate", None), "Job/demo/shop-migrate");
        assert_eq!(local_name("Job/other/shop-migrate", Some("demo")), "Job/other/shop-migrate");
    }
}
