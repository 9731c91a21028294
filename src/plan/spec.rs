//! What the graph builder needs of a hook or resource.

use crate::model::diagnostic::Location;
use crate::model::input::Release;
use crate::model::manifest::Head;
use crate::model::reference::ObjectRef;

/// What the graph builder needs of a hook or resource.
pub(super) struct Spec<'a> {
    pub(super) index: usize,
    pub(super) reference: ObjectRef,
    pub(super) level: i64,
    pub(super) parallel: bool,
    pub(super) depends_on: &'a [ObjectRef],
    /// Where it comes from, made a [`Location`] only for a message: most
    /// plans have none, and a location is four allocations.
    pub(super) source: &'a str,
    pub(super) document: usize,
    pub(super) head: &'a Head,
}

impl Spec<'_> {
    pub(super) fn location(&self) -> Location {
        Location { source: self.source.to_string(), document: self.document, object: Some(self.head.display()) }
    }
}

/// Does `r` name the object kind/namespace/name? A reference without a
/// namespace matches any namespace; with one, it matches the manifest's
/// namespace, or the release namespace when the manifest sets none.
pub(super) fn matches_ref(r: &ObjectRef, object: &ObjectRef, release: &Release) -> bool {
    r.kind == object.kind
        && r.name == object.name
        && match (&r.namespace, object.namespace.as_deref()) {
            (None, _) => true,
            (Some(ns), Some(own)) => own == ns,
            // No namespace in the manifest: it lands in the release
            // namespace, which `helm template` output does not tell.
            (Some(ns), None) => release.namespace.as_deref().is_none_or(|rn| rn == ns),
        }
}
