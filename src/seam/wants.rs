//! The permissions a run of hooks needs, as [`Want`]s: verbs on the objects
//! of a kind, on a resource named outright, or on the pods and logs of a
//! kind's objects — worked out before anything is created (docs/design.md
//! §4; the Role: README, "Permissions") and asked of the API server by
//! [`check`]; the first refused stops the command with nothing done. `run`
//! asks for its hooks' wants; deploy (`deploy::wants`) adds its resources'.

use crate::kube::{self, Client, KubeError};
use crate::model::hook::Hook;

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
    /// `verbs` on the objects of `head`'s kind, where it lands.
    pub(crate) fn kind(verbs: &'static [&'static str], head: &crate::model::manifest::Head) -> Want {
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
    pub(crate) fn records(
        verbs: &'static [&'static str],
        records: Option<&'static str>,
        namespace: &str,
    ) -> Option<Want> {
        let resource = records?;
        Some(Want::Resource { verbs, group: "", resource, namespace: Some(namespace.to_string()) })
    }
}

/// What running `hooks` needs: for each hook's kind create and patch
/// (server-side apply), delete (delete policies: Helm's default is
/// before-hook-creation), list and watch (waiting); pods list and pods/log get
/// where logs may be read (`--logs` for Pod hooks, an output log policy,
/// `helm.sh/show-output`, a fail-fast hook). Shared by `run` and the deploys.
pub(crate) fn hook_wants(hooks: &[&Hook], logs: bool) -> Vec<Want> {
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

/// Asks the API server for `wants`, each kind found by discovery in the
/// order given; the first refused is `Forbidden`, naming the verb, the
/// resource and `why` ([`kube::access::Permissions::check`]).
pub(super) fn check(client: &mut Client, wants: &[Want], why: &str) -> Result<(), KubeError> {
    let mut needs = kube::access::Permissions::default();
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
