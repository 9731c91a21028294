//! What a deploy, rollback or uninstall will ask of the API server beyond
//! reading, worked out before it acts: its resources' and hooks' [`Want`]s
//! (the kinds of want and the hooks' are `seam::wants`', which `run` shares).
//! The cluster ([`crate::seam::Cluster::check_access`]) finds each kind's
//! resource and asks (`seam::wants::check`); the first refused stops the
//! command with nothing done.

use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::model::input::Release;
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;
use crate::seam::wants::{hook_wants, Want};

use super::checked::Checked;

/// What a deploy or rollback needs besides its resources and hooks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeployNeeds<'a> {
    /// The chart's CRDs, installed first (a first install).
    pub(crate) crds: &'a [super::crd::Crd],
    pub(crate) create_namespace: bool,
    pub(crate) dry_run: bool,
    /// Also what uninstalling the release would need (`--rollback-on-failure`
    /// of an install: it may not stop half way either).
    pub(crate) uninstall: bool,
}

impl DeployNeeds<'_> {
    /// Helm's storage (read; create and update the record); per resource
    /// kind get, list and watch (waiting) and create and patch (server-side
    /// apply, also for a dry run); per kind of what the replaced revision
    /// had and this one has not, delete; the hooks of `operation` as `run`
    /// needs them; the chart's CRDs and a namespace to create, cluster-wide.
    pub(crate) fn wants(
        &self,
        records: Option<&'static str>,
        namespace: &str,
        checked: &Checked,
        operation: Operation,
        current: Option<&StoredRelease>,
    ) -> Vec<Want> {
        let mut wants: Vec<Want> = Want::records(&["get", "list"], records, namespace).into_iter().collect();
        if !self.dry_run {
            wants.extend(Want::records(&["create", "update"], records, namespace));
        }
        for r in &checked.release.resources {
            wants.push(Want::kind(&["get", "list", "watch", "create", "patch"], &r.head));
        }
        if !self.dry_run {
            for (_, r) in current.map(|c| super::removed::removed(c, &checked.release, namespace)).unwrap_or_default() {
                // get: ownership is read before deleting, as Helm 4.3 reads it (deploy::ownership).
                wants.push(Want::kind(&["get", "delete", "list", "watch"], &r.head));
            }
            let events = [operation.pre_event(), operation.post_event()];
            wants.extend(hook_wants(&hooks_of(&checked.release, events), false));
        }
        if !self.crds.is_empty() {
            let verbs = &["get", "list", "watch", "create", "patch"];
            wants.push(Want::Resource {
                verbs,
                group: "apiextensions.k8s.io",
                resource: "customresourcedefinitions",
                namespace: None,
            });
        }
        if self.create_namespace && !self.dry_run {
            wants.push(Want::Resource {
                verbs: &["get", "create", "patch"],
                group: "",
                resource: "namespaces",
                namespace: None,
            });
        }
        if self.uninstall {
            wants.extend(uninstall_wants(records, namespace, &checked.release, false));
        }
        wants
    }

    /// Why the command stops when a permission is missing.
    pub(crate) fn why(&self) -> &'static str {
        if self.dry_run {
            "the plan needs it (checked before acting; nothing was applied or stored)"
        } else {
            "the deploy needs it (checked before acting; nothing was applied or stored)"
        }
    }
}

/// The hooks of `release` that run on one of `events`.
fn hooks_of(release: &Release, events: [Event; 2]) -> Vec<&Hook> {
    release.hooks.iter().filter(|h| events.iter().any(|e| h.events.contains(e))).collect()
}

/// What an uninstall asks of the API server beyond reading: storage
/// (update the record; delete every revision unless `keep_history`), per
/// resource kind delete and the list and watch of waiting until gone (not
/// for kinds whose every resource Helm keeps), and the delete hooks as `run`
/// needs them.
pub(crate) fn uninstall_wants(
    records: Option<&'static str>,
    namespace: &str,
    release: &Release,
    keep_history: bool,
) -> Vec<Want> {
    let mut wants: Vec<Want> = Want::records(&["get", "list", "update"], records, namespace).into_iter().collect();
    if !keep_history {
        wants.extend(Want::records(&["delete"], records, namespace));
    }
    for r in release.resources.iter().filter(|r| !super::removed::kept(r)) {
        // get: ownership is read before deleting, as Helm 4.3 reads it (deploy::ownership).
        wants.push(Want::kind(&["get", "delete", "list", "watch"], &r.head));
    }
    wants.extend(hook_wants(&hooks_of(release, [Event::PreDelete, Event::PostDelete]), false));
    wants
}

/// Why an uninstall stops when a permission is missing.
pub(crate) const UNINSTALL_WHY: &str = "the uninstall needs it (checked before acting; nothing was deleted)";
