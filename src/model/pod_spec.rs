//! What a workload's pod spec names of other objects in its own namespace:
//! the ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims its
//! pods cannot start without. `lint`'s order check (`plan::order_check`)
//! compares where the release creates each of them with where it creates
//! the workload.
//!
//! Only references that block a pod are returned: one marked `optional:
//! true` lets the pod start without the object (the kubelet fills in a
//! volume once it appears), so its order is no bug this check can prove,
//! and a ServiceAccount named `default` exists in every namespace.

use serde_json::Value;

use crate::model::yaml;

/// One object a pod spec names, with where it names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodReference {
    /// `ConfigMap`, `Secret`, `ServiceAccount` or `PersistentVolumeClaim`.
    pub kind: &'static str,
    pub name: String,
    /// Where in the manifest, as kubectl's field paths read:
    /// `spec.template.spec.volumes[0].configMap.name`.
    pub(crate) path: String,
}

/// Where each workload kind keeps its pod spec. Other kinds (custom
/// resources included) have none this check can read.
fn pod_spec_path(kind: &str) -> Option<&'static [&'static str]> {
    match kind {
        "Pod" => Some(&["spec"]),
        "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet" | "Job" => Some(&["spec", "template", "spec"]),
        "CronJob" => Some(&["spec", "jobTemplate", "spec", "template", "spec"]),
        _ => None,
    }
}

/// Does the kind carry a pod spec? Lets callers skip parsing other documents.
pub(crate) fn has_pod_spec(kind: &str) -> bool {
    pod_spec_path(kind).is_some()
}

/// The blocking references of a manifest of `kind`, in document order. A
/// manifest that does not parse has none: `lint` reports its YAML already.
pub fn references(kind: &str, manifest: &str) -> Vec<PodReference> {
    let Some(path) = pod_spec_path(kind) else { return Vec::new() };
    // Every path starts at a `spec` key, which YAML can only spell without
    // those letters through an escape in a double-quoted key: without both,
    // nothing to parse (10,000 spec-less Jobs were a quarter of `lint`).
    let text = manifest.as_bytes();
    if !crate::base::bytes::contains(text, b"spec") && crate::base::bytes::find(text, b'\\').is_none() {
        return Vec::new();
    }
    let Ok(doc) = yaml::to_json(manifest) else { return Vec::new() };
    let spec = path.iter().try_fold(&doc, |v, key| v.get(key));
    let Some(spec) = spec.filter(|s| s.is_object()) else { return Vec::new() };
    let mut found = Refs { prefix: path.join("."), out: Vec::new() };
    found.pod_spec(spec);
    found.out
}

struct Refs {
    prefix: String,
    out: Vec<PodReference>,
}

/// The items of a list field, with their indexes; nothing when absent or
/// not a list.
fn items<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    v.get(key).and_then(Value::as_array).into_iter().flatten().enumerate()
}

fn optional(v: &Value) -> bool {
    v.get("optional").and_then(Value::as_bool) == Some(true)
}

impl Refs {
    fn push(&mut self, kind: &'static str, name: Option<&Value>, path: String) {
        // A name that is not a plain string (a template left unrendered, a
        // number) names nothing this release could create.
        if let Some(name) = name.and_then(Value::as_str).filter(|n| !n.is_empty()) {
            self.out.push(PodReference { kind, name: name.to_string(), path: format!("{}.{path}", self.prefix) });
        }
    }

    fn pod_spec(&mut self, spec: &Value) {
        // `serviceAccount` is the deprecated spelling, read only without the other.
        let (sa, field) = match spec.get("serviceAccountName") {
            Some(v) => (Some(v), "serviceAccountName"),
            None => (spec.get("serviceAccount"), "serviceAccount"),
        };
        if sa.and_then(Value::as_str) != Some("default") {
            self.push("ServiceAccount", sa, field.to_string());
        }
        for (i, s) in items(spec, "imagePullSecrets") {
            self.push("Secret", s.get("name"), format!("imagePullSecrets[{i}].name"));
        }
        for list in ["initContainers", "containers"] {
            for (i, c) in items(spec, list) {
                self.container(c, &format!("{list}[{i}]"));
            }
        }
        for (i, v) in items(spec, "volumes") {
            self.volume(v, &format!("volumes[{i}]"));
        }
    }

    fn container(&mut self, c: &Value, at: &str) {
        for (j, from) in items(c, "envFrom") {
            for (key, kind) in [("configMapRef", "ConfigMap"), ("secretRef", "Secret")] {
                if let Some(r) = from.get(key).filter(|r| !optional(r)) {
                    self.push(kind, r.get("name"), format!("{at}.envFrom[{j}].{key}.name"));
                }
            }
        }
        for (j, env) in items(c, "env") {
            let Some(from) = env.get("valueFrom") else { continue };
            for (key, kind) in [("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret")] {
                if let Some(r) = from.get(key).filter(|r| !optional(r)) {
                    self.push(kind, r.get("name"), format!("{at}.env[{j}].valueFrom.{key}.name"));
                }
            }
        }
    }

    fn volume(&mut self, v: &Value, at: &str) {
        if let Some(cm) = v.get("configMap").filter(|r| !optional(r)) {
            self.push("ConfigMap", cm.get("name"), format!("{at}.configMap.name"));
        }
        if let Some(s) = v.get("secret").filter(|r| !optional(r)) {
            self.push("Secret", s.get("secretName"), format!("{at}.secret.secretName"));
        }
        if let Some(pvc) = v.get("persistentVolumeClaim") {
            self.push("PersistentVolumeClaim", pvc.get("claimName"), format!("{at}.persistentVolumeClaim.claimName"));
        }
        let Some(projected) = v.get("projected") else { return };
        for (j, source) in items(projected, "sources") {
            for (key, kind) in [("configMap", "ConfigMap"), ("secret", "Secret")] {
                if let Some(r) = source.get(key).filter(|r| !optional(r)) {
                    self.push(kind, r.get("name"), format!("{at}.projected.sources[{j}].{key}.name"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(kind: &str, manifest: &str) -> Vec<String> {
        references(kind, manifest).into_iter().map(|r| format!("{} {}/{}", r.path, r.kind, r.name)).collect()
    }

    #[test]
    fn every_blocking_reference_of_a_deployment_is_named_with_its_path() {
        let m = "kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      serviceAccountName: web
      imagePullSecrets: [{name: pull}]
      initContainers:
        - name: init
          envFrom: [{secretRef: {name: init-env}}, {configMapRef: {name: maybe, optional: true}}]
      containers:
        - name: app
          env:
            - {name: A, value: plain}
            - name: B
              valueFrom: {configMapKeyRef: {name: settings, key: b}}
            - name: C
              valueFrom: {secretKeyRef: {name: creds, key: c, optional: true}}
      volumes:
        - {name: a, configMap: {name: files}}
        - {name: b, secret: {secretName: tls}}
        - {name: c, persistentVolumeClaim: {claimName: data}}
        - name: d
          projected:
            sources: [{configMap: {name: p1}}, {secret: {name: p2}}, {serviceAccountToken: {path: t}}]
        - {name: e, emptyDir: {}}
";
        assert_eq!(
            paths("Deployment", m),
            [
                "spec.template.spec.serviceAccountName ServiceAccount/web",
                "spec.template.spec.imagePullSecrets[0].name Secret/pull",
                "spec.template.spec.initContainers[0].envFrom[0].secretRef.name Secret/init-env",
                "spec.template.spec.containers[0].env[1].valueFrom.configMapKeyRef.name ConfigMap/settings",
                "spec.template.spec.volumes[0].configMap.name ConfigMap/files",
                "spec.template.spec.volumes[1].secret.secretName Secret/tls",
                "spec.template.spec.volumes[2].persistentVolumeClaim.claimName PersistentVolumeClaim/data",
                "spec.template.spec.volumes[3].projected.sources[0].configMap.name ConfigMap/p1",
                "spec.template.spec.volumes[3].projected.sources[1].secret.name Secret/p2",
            ]
        );
    }

    #[test]
    fn pods_and_cronjobs_keep_their_pod_spec_elsewhere() {
        assert_eq!(paths("Pod", "spec:\n  serviceAccountName: t\n"), ["spec.serviceAccountName ServiceAccount/t"]);
        let cron = "spec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          serviceAccount: old\n";
        assert_eq!(paths("CronJob", cron), ["spec.jobTemplate.spec.template.spec.serviceAccount ServiceAccount/old"]);
    }

    #[test]
    fn the_default_service_account_other_kinds_and_bad_yaml_name_nothing() {
        assert!(paths("Job", "spec:\n  template:\n    spec:\n      serviceAccountName: default\n").is_empty());
        assert!(paths("ConfigMap", "data:\n  serviceAccountName: x\n").is_empty());
        assert!(paths("Pod", "spec: [").is_empty());
        assert!(paths("Pod", "spec:\n  volumes: [{configMap: {name: 3}}]\n").is_empty());
    }

    /// Without the letters `spec` the manifest is not parsed; an escape
    /// spells the key without them, and is read.
    #[test]
    fn a_spec_key_spelled_with_an_escape_is_still_read() {
        assert!(paths("Job", "metadata: {name: j}\n").is_empty());
        assert_eq!(
            paths("Pod", "\"\\x73pec\":\n  serviceAccountName: t\n"),
            ["spec.serviceAccountName ServiceAccount/t"]
        );
    }
}
