//! Whether the release owns an object before uninstall deletes it, as Helm
//! 4.3 decides (`pkg/action/validate.go` `verifyOwnershipBeforeDelete`,
//! helm/helm#31584; docs/design.md §8): an object is deleted only when it
//! carries `app.kubernetes.io/managed-by: Helm` and the release's
//! `meta.helm.sh/release-name` and `meta.helm.sh/release-namespace`. One
//! that lacks them is kept, so is one whose read fails other than by 404
//! (ownership cannot be verified), and one already gone needs nothing.
//! The same marks, read before a first install that Helm rendered
//! client-side, refuse an object of someone else as Helm's install does
//! ([`refuse_taken`]).

use serde_json::Value;

use crate::kube::{KubeError, ObjectKey};
use crate::model::annotation::{MANAGED_BY, RELEASE_NAME, RELEASE_NAMESPACE};

use crate::seam::Cluster;

/// What a read of one of the release's objects found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Ownership {
    Owned,
    NotOwned,
    /// The read failed (a 403, the server away): kept, with why.
    Unverifiable(KubeError),
    /// Already deleted: nothing to do, nothing to say.
    Gone,
}

/// Does `object` carry this release's ownership metadata?
fn owned_by(object: &Value, release: &str, namespace: &str) -> bool {
    let meta = &object["metadata"];
    meta["labels"][MANAGED_BY.0] == MANAGED_BY.1
        && meta["annotations"][RELEASE_NAME] == release
        && meta["annotations"][RELEASE_NAMESPACE] == namespace
}

/// Reads the object behind `key` and says whether the release owns it.
pub(super) fn check(
    cluster: &mut (impl Cluster + ?Sized),
    key: &ObjectKey,
    release: &str,
    namespace: &str,
) -> Ownership {
    match crate::seam::get(cluster, key) {
        Ok(Some(object)) if owned_by(&object, release, namespace) => Ownership::Owned,
        Ok(Some(_)) => Ownership::NotOwned,
        Ok(None) => Ownership::Gone,
        Err(e) => Ownership::Unverifiable(e),
    }
}

/// An object a first install would take over from someone else: Helm's
/// `existingResourceConflict` (`pkg/action/validate.go`), which
/// `--dry-run=server` runs and `--dry-run=client` does not.
#[derive(Debug, thiserror::Error)]
pub enum Taken {
    #[error(
        "{kind} {name:?} in namespace {namespace:?} exists and cannot be imported into the current release: \
         invalid ownership metadata (it needs label app.kubernetes.io/managed-by: Helm, and annotations \
         meta.helm.sh/release-name: {release:?} and meta.helm.sh/release-namespace: {release_namespace:?})"
    )]
    NotOwned { kind: String, name: String, namespace: String, release: String, release_namespace: String },
    #[error("could not get information about the resource {kind} {name:?} in namespace {namespace:?}: {source}")]
    Unverifiable {
        kind: String,
        name: String,
        namespace: String,
        #[source]
        source: Box<KubeError>,
    },
}

/// Refuses the first object of `keys` that exists without this release's
/// ownership metadata, or whose read fails other than by 404, as Helm's
/// install does before it stores anything.
pub(crate) fn refuse_taken(
    cluster: &mut (impl Cluster + ?Sized),
    keys: impl IntoIterator<Item = ObjectKey>,
    release: &str,
    namespace: &str,
) -> Result<(), Taken> {
    for key in keys {
        // Helm names a cluster-scoped object's namespace as "".
        let shown = if crate::model::scope::cluster_scoped(&key.kind) {
            String::new()
        } else {
            key.namespace.clone().unwrap_or_else(|| namespace.to_string())
        };
        match check(cluster, &key, release, namespace) {
            Ownership::Owned | Ownership::Gone => {}
            // A kind the API server does not serve has no objects. Right
            // after a CRD of `crds/` is established, discovery may not
            // list its kind yet for a moment: nothing of it exists then.
            Ownership::Unverifiable(KubeError::NoMapping { .. }) => {}
            Ownership::NotOwned => {
                return Err(Taken::NotOwned {
                    kind: key.kind,
                    name: key.name,
                    namespace: shown,
                    release: release.to_string(),
                    release_namespace: namespace.to_string(),
                })
            }
            Ownership::Unverifiable(e) => {
                return Err(Taken::Unverifiable {
                    kind: key.kind,
                    name: key.name,
                    namespace: shown,
                    source: Box::new(e),
                })
            }
        }
    }
    Ok(())
}

/// Helm's words for what uninstall did not delete (`helm uninstall` prints
/// them before `release "…" uninstalled`), from `(kind, name, ownership)`.
pub(super) fn kept_text(kept: &[(String, String, Ownership)]) -> String {
    let not_owned: Vec<_> = kept.iter().filter(|(_, _, o)| *o == Ownership::NotOwned).collect();
    let unverifiable: Vec<_> = kept
        .iter()
        .filter_map(|(k, n, o)| match o {
            Ownership::Unverifiable(e) => Some((k, n, e)),
            _ => None,
        })
        .collect();
    let mut out = String::new();
    if !not_owned.is_empty() {
        out.push_str(&format!(
            "{} resource(s) were not deleted because they are not owned by this release:\n",
            not_owned.len()
        ));
        for (kind, name, _) in &not_owned {
            out.push_str(&format!("[{kind}] {name}\n"));
        }
    }
    if !unverifiable.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!(
            "{} resource(s) were not deleted because their ownership could not be verified:\n",
            unverifiable.len()
        ));
        for (kind, name, e) in &unverifiable {
            out.push_str(&format!("[{kind}] {name}: {e}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(managed: &str, release: &str, namespace: &str) -> Value {
        json!({"metadata": {"labels": {"app.kubernetes.io/managed-by": managed},
            "annotations": {"meta.helm.sh/release-name": release, "meta.helm.sh/release-namespace": namespace}}})
    }

    #[test]
    fn owned_only_with_all_three_marks_of_this_release() {
        assert!(owned_by(&object("Helm", "r", "ns"), "r", "ns"));
        assert!(!owned_by(&object("Helm", "other", "ns"), "r", "ns"));
        assert!(!owned_by(&object("Helm", "r", "elsewhere"), "r", "ns"));
        assert!(!owned_by(&object("kubectl", "r", "ns"), "r", "ns"));
        assert!(!owned_by(&json!({"metadata": {}}), "r", "ns"));
    }

    #[test]
    fn kept_text_is_helms() {
        let kept = vec![
            ("ConfigMap".to_string(), "a".to_string(), Ownership::NotOwned),
            ("Secret".to_string(), "b".to_string(), Ownership::Unverifiable(KubeError::Incomplete("name"))),
            ("ConfigMap".to_string(), "c".to_string(), Ownership::NotOwned),
        ];
        assert_eq!(
            kept_text(&kept),
            "2 resource(s) were not deleted because they are not owned by this release:\n[ConfigMap] a\n\
             [ConfigMap] c\n\n1 resource(s) were not deleted because their ownership could not be verified:\n\
             [Secret] b: the object has no name\n"
        );
        assert_eq!(kept_text(&[]), "");
    }
}
