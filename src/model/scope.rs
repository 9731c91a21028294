//! Which kinds are cluster-scoped: they have no namespace, whatever a
//! manifest's `metadata.namespace` says (charts often set one on a
//! ClusterRole; the API server ignores it). The plan names such objects
//! `Kind/name`, so `ClusterRole/ns/x` and `ClusterRole/x` are one object.
//!
//! Kubernetes' own cluster-scoped kinds; a custom resource's scope is in its
//! CRD, which the plan does not read, so custom kinds keep what the manifest
//! says.

const CLUSTER_SCOPED: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterTrustBundle",
    "ComponentStatus",
    "CSIDriver",
    "CSINode",
    "CustomResourceDefinition",
    "DeviceClass",
    "FlowSchema",
    "IngressClass",
    "IPAddress",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PodSecurityPolicy",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "ResourceSlice",
    "RuntimeClass",
    "ServiceCIDR",
    "StorageClass",
    "StorageVersionMigration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// Is `kind` one of Kubernetes' cluster-scoped kinds?
pub fn cluster_scoped(kind: &str) -> bool {
    CLUSTER_SCOPED.contains(&kind)
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
