//! Which kinds are cluster-scoped: they have no namespace, whatever a
//! manifest's `metadata.namespace` says (charts often set one on a
//! ClusterRole; the API server ignores it). The plan names such objects
//! `Kind/name`, so `ClusterRole/ns/x` and `ClusterRole/x` are one object.
//!
//! Kubernetes' own cluster-scoped kinds; a custom resource's scope is in its
//! CRD, which the plan does not read, so custom kinds keep what the manifest
//! says.

/// Is `kind` one of Kubernetes' cluster-scoped kinds?
///
/// A `match`, not a search of a list: every object's name and every
/// reference asks, and under Helm's Wasm runtime each step of a search's
/// loop is a call into Go (docs/benchmarks.md).
pub fn cluster_scoped(kind: &str) -> bool {
    matches!(
        kind,
        "APIService"
            | "CertificateSigningRequest"
            | "ClusterRole"
            | "ClusterRoleBinding"
            | "ClusterTrustBundle"
            | "ComponentStatus"
            | "CSIDriver"
            | "CSINode"
            | "CustomResourceDefinition"
            | "DeviceClass"
            | "FlowSchema"
            | "IngressClass"
            | "IPAddress"
            | "MutatingAdmissionPolicy"
            | "MutatingAdmissionPolicyBinding"
            | "MutatingWebhookConfiguration"
            | "Namespace"
            | "Node"
            | "PersistentVolume"
            | "PodSecurityPolicy"
            | "PriorityClass"
            | "PriorityLevelConfiguration"
            | "ResourceSlice"
            | "RuntimeClass"
            | "ServiceCIDR"
            | "StorageClass"
            | "StorageVersionMigration"
            | "ValidatingAdmissionPolicy"
            | "ValidatingAdmissionPolicyBinding"
            | "ValidatingWebhookConfiguration"
            | "VolumeAttachment"
            | "VolumeAttributesClass"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_common_kinds() {
        for k in ["ClusterRole", "ClusterRoleBinding", "Namespace", "CustomResourceDefinition", "StorageClass"] {
            assert!(cluster_scoped(k), "{k}");
        }
        for k in ["Role", "ServiceAccount", "Job", "ConfigMap", "Widget"] {
            assert!(!cluster_scoped(k), "{k}");
        }
    }
}
