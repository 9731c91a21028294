//! What a command will ask of the API server beyond reading, worked out
//! before it acts (docs/design.md §4; the Role: README, "Permissions"), as
//! [`Want`]s: verbs on the objects of a kind, on a resource named outright,
//! or on the pods and logs of a kind's objects. The cluster
//! ([`super::seam::Cluster::check_access`]) finds each kind's resource and
//! asks ([`check`]); the first refused stops the command with nothing done.

use crate::kube::{self, Client, KubeError};
use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::model::input::Release;
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;

use super::Checked;

/// One permission, or a few, a command needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    /// `verbs` on the resource serving `kind`, in the namespace an object of
    /// it named with `namespace` lands in. A kind the cluster does not serve
    /// yet (its CRD comes with the same release) cannot be asked about and
    /// is left out.
    Kind { verbs: &'static [&'static str], api_version: String, kind: String, namespace: Option<String> },
    /// `verbs` on `resource` of API group `group` in `namespace` (`None`:
    /// cluster-wide).
    Resource { verbs: &'static [&'static str], group: &'static str, resource: &'static str, namespace: Option<String> },
    /// Pods listed and their logs read where objects of `kind` named with
    /// `namespace` land (a hook's output).
    Logs { api_version: String, kind: String, namespace: Option<String> },
}

impl Want {
    fn kind(verbs: &'static [&'static str], head: &crate::model::manifest::Head) -> Want {
        Want::Kind {
            verbs,
            api_version: head.api_version.clone(),
            kind: head.kind.clone(),
            namespace: head.namespace.clone(),
        }
    }

    /// The release records in `namespace`, stored as `records` (Helm's
    /// storage driver's resource; none under the `release_storage` host
    /// function).
    pub fn records(verbs: &'static [&'static str], records: Option<&'static str>, namespace: &str) -> Option<Want> {
        let resource = records?;
        Some(Want::Resource { verbs, group: "", resource, namespace: Some(namespace.to_string()) })
    }
}

/// What running `hooks` needs: for each hook's kind create and patch
/// (server-side apply), delete (delete policies: Helm's default is
/// before-hook-creation), list and watch (waiting); pods list and pods/log get
/// where logs may be read (`--logs` for Pod hooks, an output log policy,
/// `helm.sh/show-output`, a fail-fast hook). Shared by `run` and the deploys.
pub fn hook_wants(hooks: &[&Hook], logs: bool) -> Vec<Want> {
    let mut wants = Vec::new();
    for h in hooks {
        wants.push(Want::kind(&["create", "patch", "delete", "list", "watch"], &h.head));
        let kind = h.head.kind.as_str();
        let reads_logs = (logs && kind == "Pod") || !h.output_log_policies.is_empty() || h.show_output || h.fail_fast;
        if reads_logs && matches!(kind, "Job" | "Pod") {
            let (api_version, namespace) = (h.head.api_version.clone(), h.head.namespace.clone());
            wants.push(Want::Logs { api_version, kind: kind.to_string(), namespace });
        }
    }
    wants
}

/// What a deploy or rollback needs besides its resources and hooks.
#[derive(Debug, Clone, Copy)]
pub struct Needs<'a> {
    /// The chart's CRDs, installed first (a first install).
    pub crds: &'a [super::crd::Crd],
    pub create_namespace: bool,
    pub dry_run: bool,
    /// Also what uninstalling the release would need (`--rollback-on-failure`
    /// of an install: it may not stop half way either).
    pub uninstall: bool,
}

impl Needs<'_> {
    /// Helm's storage (read; create and update the record); per resource
    /// kind get, list and watch (waiting) and create and patch (server-side
    /// apply, also for a dry run); per kind of what the replaced revision
    /// had and this one has not, delete; the hooks of `operation` as `run`
    /// needs them; the chart's CRDs and a namespace to create, cluster-wide.
    pub fn wants(
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
            for (_, r) in current.map(|c| super::removed(c, &checked.release, namespace)).unwrap_or_default() {
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
    pub fn why(&self) -> &'static str {
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
pub fn uninstall_wants(
    records: Option<&'static str>,
    namespace: &str,
    release: &Release,
    keep_history: bool,
) -> Vec<Want> {
    let mut wants: Vec<Want> = Want::records(&["get", "list", "update"], records, namespace).into_iter().collect();
    if !keep_history {
        wants.extend(Want::records(&["delete"], records, namespace));
    }
    for r in release.resources.iter().filter(|r| !super::kept(r)) {
        // get: ownership is read before deleting, as Helm 4.3 reads it (deploy::ownership).
        wants.push(Want::kind(&["get", "delete", "list", "watch"], &r.head));
    }
    wants.extend(hook_wants(&hooks_of(release, [Event::PreDelete, Event::PostDelete]), false));
    wants
}

/// Why an uninstall stops when a permission is missing.
pub const UNINSTALL_WHY: &str = "the uninstall needs it (checked before acting; nothing was deleted)";

/// Asks the API server for `wants`, each kind found by discovery in the
/// order given; the first refused is `Forbidden`, naming the verb, the
/// resource and `why` ([`kube::access::Needs::check`]).
pub fn check(client: &mut Client, wants: &[Want], why: &str) -> Result<(), KubeError> {
    let mut needs = kube::access::Needs::default();
    for want in wants {
        match want {
            Want::Kind { verbs, api_version, kind, namespace } => {
                needs.kind(client, verbs, api_version, kind, namespace.as_deref())?
            }
            Want::Resource { verbs, group, resource, namespace } => {
                needs.add(verbs, group, resource, namespace.as_deref())
            }
            Want::Logs { api_version, kind, namespace } => {
                let res = client.resource(api_version, kind)?;
                let ns = client.effective_namespace(&res, namespace.as_deref());
                needs.add(&["list"], "", "pods", ns.as_deref());
                needs.add(&["get"], "", "pods/log", ns.as_deref());
            }
        }
    }
    needs.check(client, why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diagnostic::Diagnostics;

    #[test]
    fn a_hook_whose_output_is_shown_needs_its_pods_logs() {
        let manifest = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: m\n  annotations:\n    \
                        helm.sh/hook: pre-install\n    helm.sh/show-output: \"true\"\n";
        let value = serde_json::json!({"name": "r", "namespace": "ns", "manifest": "",
            "chart": {"metadata": {"name": "c", "version": "1.0.0"}},
            "hooks": [{"path": "c/templates/m.yaml", "manifest": manifest}]});
        let mut d = Diagnostics::default();
        let release = crate::model::input::from_release_value(&value, &mut d).unwrap();
        let hooks: Vec<&Hook> = release.hooks.iter().collect();
        let wants = hook_wants(&hooks, false);
        assert_eq!(wants.len(), 2, "{wants:?}");
        assert!(matches!(&wants[1], Want::Logs { kind, .. } if kind == "Job"), "{wants:?}");
    }
}
