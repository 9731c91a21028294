//! A resource: a rendered document without `helm.sh/hook`, deployed by
//! install and upgrade in HIP-0025 batch order.

use std::collections::BTreeMap;

use crate::model::annotation as a;
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::external::{self, External};
use crate::model::hook::{check_keys, depends_on};
use crate::model::manifest::{Document, Head};
use crate::model::reference::ObjectRef;
use crate::ready::Readiness;

#[derive(Debug, Clone)]
pub struct Resource {
    pub head: Head,
    pub(crate) source: String,
    pub(crate) document: usize,
    pub manifest: String,
    pub(crate) depends_on: Vec<ObjectRef>,
    /// `helm.sh/resource-group`; an empty value means no group (HIP-0025).
    pub(crate) group: Option<String>,
    /// `helm.sh/depends-on-resource-groups` or HIP-0025's
    /// `helm.sh/depends-on/resource-groups`: `Err` holds the invalid text,
    /// which demotes this manifest to the unsequenced batch.
    pub(super) group_depends_on: Result<Vec<String>, String>,
    /// Which of the two keys [`Resource::group_depends_on`] was read from,
    /// for messages.
    pub(crate) group_depends_on_key: &'static str,
    pub(crate) readiness: Option<Readiness>,
    /// `helm.sh/depends-on-external`: objects outside the release awaited
    /// before this one is applied.
    pub(crate) external: Vec<External>,
    /// The document as the JSON it reads as, when it was read so
    /// ([`crate::model::manifest::Syntax::Kept`]): what `deploy` applies.
    pub object: Option<serde_json::Value>,
}

impl Resource {
    pub(super) fn from_document(doc: Document, head: Head, diags: &mut Diagnostics) -> Resource {
        let loc = Location { object: Some(head.display()), ..doc.location() };
        let ann = &head.annotations;
        check_keys(ann, &loc, diags);
        let depends_on = depends_on(ann, &loc, diags);
        let group = a::get(ann, a::RESOURCE_GROUP).map(|g| g.trim().to_string()).filter(|g| !g.is_empty());
        let (group_depends_on_key, group_depends_on) = group_dependencies(ann, &loc, diags);
        if group.is_none() && a::has(ann, group_depends_on_key) {
            // HIP-0025 orders groups, not resources: outside one, the
            // dependency orders nothing, and its author expected it to.
            diags.push(
                Diagnostic::warning(
                    loc.clone(),
                    format!(
                        "is ignored: this resource has no {} annotation, and only groups wait for groups",
                        a::RESOURCE_GROUP
                    ),
                )
                .on(group_depends_on_key)
                .help(format!("add {}: <group> to this resource, or remove the dependency", a::RESOURCE_GROUP)),
            );
        }
        let readiness = Readiness::from_annotations(ann, &loc, diags);
        let external = external_dependencies(ann, &loc, diags);
        warn_hook_keys(ann, &loc, diags);
        Resource {
            source: doc.source,
            document: doc.index,
            manifest: doc.text,
            head,
            depends_on,
            group,
            group_depends_on,
            group_depends_on_key,
            readiness,
            external,
            object: None,
        }
    }

    pub(crate) fn location(&self) -> Location {
        Location { source: self.source.clone(), document: self.document, object: Some(self.head.display()) }
    }

    pub(crate) fn reference(&self) -> ObjectRef {
        self.head.reference()
    }

    /// HIP-0025's resource identity: `apiVersion/kind/namespace/name`.
    pub(super) fn group_identity(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.head.api_version,
            self.head.kind,
            self.head.namespace.as_deref().unwrap_or(""),
            self.head.name
        )
    }
}

/// `helm.sh/depends-on-external`: the objects outside the release it names;
/// none, each problem an error, when the list does not read.
fn external_dependencies(ann: &BTreeMap<String, String>, loc: &Location, diags: &mut Diagnostics) -> Vec<External> {
    match a::get(ann, external::DEPENDS_ON_EXTERNAL).map(|v| external::parse_list(v)) {
        None => Vec::new(),
        Some(Ok(list)) => list,
        Some(Err(problems)) => {
            for p in problems {
                diags.push(Diagnostic::error(loc.clone(), p).on(external::DEPENDS_ON_EXTERNAL).help(
                    "write Kind[.group]/[namespace/]name[:ready], e.g. '[\"Secret/db-credentials\", \"Deployment.apps/platform/auth:ready\"]'",
                ));
            }
            Vec::new()
        }
    }
}

/// A hook's annotations on a resource do nothing: each one found is a warning.
fn warn_hook_keys(ann: &BTreeMap<String, String>, loc: &Location, diags: &mut Diagnostics) {
    // Looked for one by one only when the object has one of them: each
    // lookup is a walk over its annotations.
    let hook_keys = [
        a::HOOK_WEIGHT,
        a::HOOK_DELETE_POLICY,
        a::HOOK_OUTPUT_LOG_POLICY,
        a::HOOK_PARALLEL,
        a::HOOK_FAIL_FAST,
        a::SHOW_OUTPUT,
        a::HOOK_TIMEOUT,
    ];
    let any = ann.keys().any(|k| {
        matches!(
            k.as_str(),
            a::HOOK_WEIGHT
                | a::HOOK_DELETE_POLICY
                | a::HOOK_OUTPUT_LOG_POLICY
                | a::HOOK_PARALLEL
                | a::HOOK_FAIL_FAST
                | a::SHOW_OUTPUT
                | a::HOOK_TIMEOUT
        )
    });
    if any {
        for key in hook_keys {
            if a::has(ann, key) {
                diags.push(
                    Diagnostic::warning(loc.clone(), "is ignored: this document has no helm.sh/hook annotation")
                        .on(key),
                );
            }
        }
    }
}

/// The groups a resource's group waits for, and the key they were read
/// from. The portable key and HIP-0025's are read alike; where an object
/// carries both (a chart on its way from one to the other) they must say
/// the same, and the portable one is read.
fn group_dependencies(
    ann: &BTreeMap<String, String>,
    loc: &Location,
    diags: &mut Diagnostics,
) -> (&'static str, Result<Vec<String>, String>) {
    let read = |v: &String| a::parse_string_array(v).map_err(|_| v.clone());
    match (a::get(ann, a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS), a::get(ann, a::DEPENDS_ON_RESOURCE_GROUPS)) {
        (None, None) => (a::DEPENDS_ON_RESOURCE_GROUPS, Ok(Vec::new())),
        (None, Some(hip)) => (a::DEPENDS_ON_RESOURCE_GROUPS, read(hip)),
        (Some(portable), hip) => {
            let value = read(portable);
            let sorted = |r: &Result<Vec<String>, String>| {
                r.clone().map(|mut v| {
                    crate::base::order::by(&mut v, |a, b| a.cmp(b));
                    v.dedup();
                    v
                })
            };
            if let Some(hip) = hip.filter(|hip| sorted(&read(hip)) != sorted(&value)) {
                diags.push(
                    Diagnostic::error(
                        loc.clone(),
                        format!(
                            "says {portable:?} and {} says {hip:?}: one object, two orders",
                            a::DEPENDS_ON_RESOURCE_GROUPS
                        ),
                    )
                    .on(a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS)
                    .help(format!("keep {} alone", a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS)),
                );
            }
            (a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS, value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::manifest::{parse_head, split};

    /// Issue 32: `helm.sh/resource-polcy: keep` let uninstall delete the object.
    #[test]
    fn a_misspelt_key_is_named_with_the_key_meant() {
        let doc = &split(
            "kind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    helm.sh/resource-polcy: keep\n    helm.sh/resource-group: g\n",
            "s",
        )[0];
        let mut d = Diagnostics::default();
        Resource::from_document(doc.clone(), parse_head(doc).unwrap(), &mut d);
        assert_eq!(d.0.len(), 1, "{:?}", d.0);
        assert_eq!(d.0[0].annotation.as_deref(), Some("helm.sh/resource-polcy"));
        assert!(d.0[0].message.ends_with("did you mean helm.sh/resource-policy?"), "{}", d.0[0]);
    }
}
