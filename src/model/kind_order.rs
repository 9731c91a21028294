//! Helm's install and uninstall order of kinds (`kind_sorter.go`).
//!
//! Kind order only breaks ties between hooks of equal weight *and* name, and
//! orders the resources of one batch. Its tiers ([`tier`]) keep parallel
//! hooks of one weight from starting before the kinds they may use.

#[cfg(test)]
const INSTALL_ORDER: &[&str] = &[
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
];

/// `INSTALL_ORDER.iter().position(|k| *k == kind)` without the loop: the
/// plan ranks every hook and resource by kind, often more than once, and
/// each step of a search is a call into Go under Helm's Wasm runtime
/// (docs/benchmarks.md); a `match` compares lengths first and loops over
/// nothing.
fn position(kind: &str) -> Option<usize> {
    Some(match kind {
        "PriorityClass" => 0,
        "Namespace" => 1,
        "NetworkPolicy" => 2,
        "ResourceQuota" => 3,
        "LimitRange" => 4,
        "PodSecurityPolicy" => 5,
        "PodDisruptionBudget" => 6,
        "ServiceAccount" => 7,
        "Secret" => 8,
        "SecretList" => 9,
        "ConfigMap" => 10,
        "StorageClass" => 11,
        "PersistentVolume" => 12,
        "PersistentVolumeClaim" => 13,
        "CustomResourceDefinition" => 14,
        "ClusterRole" => 15,
        "ClusterRoleList" => 16,
        "ClusterRoleBinding" => 17,
        "ClusterRoleBindingList" => 18,
        "Role" => 19,
        "RoleList" => 20,
        "RoleBinding" => 21,
        "RoleBindingList" => 22,
        "Service" => 23,
        "DaemonSet" => 24,
        "Pod" => 25,
        "ReplicationController" => 26,
        "ReplicaSet" => 27,
        "Deployment" => 28,
        "HorizontalPodAutoscaler" => 29,
        "StatefulSet" => 30,
        "Job" => 31,
        "CronJob" => 32,
        "IngressClass" => 33,
        "Ingress" => 34,
        "APIService" => 35,
        "MutatingWebhookConfiguration" => 36,
        "ValidatingWebhookConfiguration" => 37,
        _ => return None,
    })
}

/// The rank of a kind in Helm's install order; unknown kinds come after
/// every known one and sort among themselves by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum KindRank {
    Known(usize),
    Unknown(String),
}

pub fn install_rank(kind: &str) -> KindRank {
    match position(kind) {
        Some(i) => KindRank::Known(i),
        None => KindRank::Unknown(kind.to_string()),
    }
}

/// Helm's uninstall order: the reverse of install order, except that
/// `Service` moves up to right after `IngressClass`.
#[cfg(test)]
fn uninstall_rank(kind: &str) -> KindRank {
    let mut order: Vec<&str> = INSTALL_ORDER.iter().rev().copied().collect();
    order.retain(|k| *k != "Service");
    let at = order.iter().position(|k| *k == "IngressClass").map_or(0, |i| i + 1);
    order.insert(at, "Service");
    match order.iter().position(|k| *k == kind) {
        Some(i) => KindRank::Known(i),
        None => KindRank::Unknown(kind.to_string()),
    }
}

/// Where Helm's install order goes from kinds to the kinds that may use
/// them: the first kind of each tier after the first. A tier is a run of
/// [`INSTALL_ORDER`]; unknown kinds (custom resources) are the last tier,
/// as Helm installs them last.
///
/// 0. PriorityClass, Namespace: what everything else lives in or refers to;
/// 1. NetworkPolicy … CustomResourceDefinition: policies, identities
///    (ServiceAccount), configuration (Secret, ConfigMap), storage and CRDs,
///    which pods and bindings name;
/// 2. ClusterRole … RoleBindingList, Service: RBAC, which binds the
///    ServiceAccounts, and Services, whose addresses pods read at start;
/// 3. DaemonSet … CronJob: workloads, which run as, mount and call all of
///    the above;
/// 4. IngressClass … ValidatingWebhookConfiguration: what routes to or
///    intercepts workloads (a webhook before its server blocks the API);
/// 5. every other kind.
const TIER_STARTS: &[&str] = &["NetworkPolicy", "ClusterRole", "DaemonSet", "IngressClass"];

/// The tier of a kind among Helm's install order (see [`TIER_STARTS`]).
pub(crate) fn tier(kind: &str) -> usize {
    match position(kind) {
        Some(i) => TIER_STARTS.iter().filter(|s| position(s) <= Some(i)).count(),
        None => TIER_STARTS.len() + 1,
    }
}

/// The distinct kinds among `kinds`, in Helm's install order.
pub(crate) fn tier_kinds<'a>(kinds: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<&str> = kinds.collect();
    // By cached key, as plan::build sorts by kind: the two share one copy of
    // the sort in plugin.wasm (docs/benchmarks.md, "plugin.wasm size").
    crate::base::order::by_cached_key(&mut out, |k| install_rank(k));
    out.dedup();
    out.into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(items: &[(&str, &str)], rank: fn(&str) -> KindRank) -> String {
        let mut v = items.to_vec();
        v.sort_by_key(|(kind, _)| rank(kind));
        v.iter().map(|(_, n)| *n).collect()
    }

    // Helm kind_sorter_test.go: KeepOriginalOrder.
    #[test]
    fn keeps_original_order_within_a_kind() {
        let items = [
            ("ClusterRole", "a"),
            ("ClusterRole", "A"),
            ("ConfigMap", "0"),
            ("ConfigMap", "1"),
            ("ClusterRoleBinding", "z"),
            ("ClusterRoleBinding", "!"),
            ("Unknown", "u2"),
            ("Unknown", "u1"),
            ("Unknown2", "t3"),
        ];
        assert_eq!(sorted(&items, install_rank), "01aAz!u2u1t3");
    }

    #[test]
    fn namespace_before_unknown() {
        assert_eq!(sorted(&[("Unknown", "a"), ("Namespace", "b")], install_rank), "ba");
    }

    #[test]
    fn hooks_install_and_uninstall() {
        let items = [("ClusterRole", "i"), ("ClusterRoleBinding", "j"), ("LimitRange", "c"), ("Namespace", "a")];
        assert_eq!(sorted(&items, install_rank), "acij");
        assert_eq!(sorted(&items, uninstall_rank), "jica");
    }

    #[test]
    fn positions_are_install_order() {
        for (i, k) in INSTALL_ORDER.iter().enumerate() {
            assert_eq!(position(k), Some(i), "{k}");
        }
        assert_eq!(position("Jobs"), None);
        assert_eq!(position(""), None);
    }

    #[test]
    fn tiers_follow_install_order() {
        let tiers: Vec<usize> = INSTALL_ORDER.iter().map(|k| tier(k)).collect();
        assert!(tiers.windows(2).all(|w| w[0] <= w[1]), "{tiers:?}");
        assert_eq!(tier("Namespace"), 0);
        for (earlier, later) in [
            ("ServiceAccount", "ClusterRoleBinding"),
            ("ServiceAccount", "Job"),
            ("Secret", "Pod"),
            ("CustomResourceDefinition", "Certificate"),
            ("RoleBinding", "Job"),
            ("Service", "Deployment"),
            ("Deployment", "ValidatingWebhookConfiguration"),
        ] {
            assert!(tier(earlier) < tier(later), "{earlier} before {later}");
        }
        // Kinds that do not use each other share a tier.
        assert_eq!(tier("Secret"), tier("ConfigMap"));
        assert_eq!(tier("Role"), tier("RoleBinding"));
        assert_eq!(tier("Job"), tier("Pod"));
    }

    #[test]
    fn service_uninstalls_right_after_ingress_class() {
        assert!(uninstall_rank("IngressClass") < uninstall_rank("Service"));
        assert!(uninstall_rank("Ingress") < uninstall_rank("IngressClass"));
        assert!(uninstall_rank("Service") < uninstall_rank("CronJob"));
    }
}
