//! Why a resource is stuck or failed, in the words `kubectl describe` would
//! use: the state of its pods (an image that cannot be pulled, a container
//! crash-looping, a pod no node will take) and the Warning events recorded
//! for it and its pods. Printed beside the pods' logs when a resource fails
//! or is not ready in time, so that the failure explains itself without a
//! second tool. Read over the seam ([`crate::seam::Cluster`]): what to read
//! and what it says is decided here, and `tests/deploy_sim.rs` drives it.

use serde_json::Value;

use super::error::Diagnosis;
use crate::kube::{ObjectKey, Selector};
use crate::ready::pod_state::{pod_state, str_at};

use crate::seam::{container_logs, get, hook_pods, list, Cluster};

/// Warning events shown per failure, the most recent last.
const MAX_EVENTS: usize = 8;

/// Pods whose logs a failure shows, at most (a Deployment may have many).
const MAX_POD_LOGS: usize = 3;

/// What the cluster shows of the object behind `key` that is not ready:
/// [`explain`] of it and its pods (a Job's or a Pod's own; a workload's, by
/// its selector), and their output; read over the seam, best effort.
pub(super) fn diagnose<E: Cluster + ?Sized>(env: &mut E, key: &ObjectKey, namespace: &str) -> Diagnosis {
    let ns = key.namespace.clone().unwrap_or_else(|| namespace.to_string());
    // A Job's and a Pod's own pods as Helm finds a hook's (`seam::hook_pods`).
    let pods = match key.kind.as_str() {
        "Job" | "Pod" => hook_pods(env, &key.kind, Some(&ns), &key.name).unwrap_or_default(),
        _ => match get(env, key) {
            Ok(Some(live)) => workload_pods(env, &live, &ns),
            _ => Vec::new(),
        },
    };
    let pods = &pods[..pods.len().min(MAX_POD_LOGS)];
    let explanation = explain(env, &ns, &key.kind, &key.name, pods);
    let logs = container_logs(env, &ns, pods);
    let output = (!logs.is_empty())
        .then(|| crate::exec::runner::output_block(&key.kind, &key.name, &logs).trim_end().to_string());
    Diagnosis { explanation, output }
}

/// The pods a workload selects by `spec.selector.matchLabels`
/// (Deployment, StatefulSet, DaemonSet, ReplicaSet); none for others.
fn workload_pods<E: Cluster + ?Sized>(env: &mut E, live: &Value, namespace: &str) -> Vec<Value> {
    let Some(labels) = live.pointer("/spec/selector/matchLabels").and_then(Value::as_object) else {
        return Vec::new();
    };
    let selector: Vec<String> = labels.iter().filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?))).collect();
    if selector.is_empty() {
        return Vec::new();
    }
    list(env, ("v1", "Pod"), Some(namespace), &Selector::labels(&selector.join(","))).unwrap_or_default()
}

/// `Warning Reason Kind/name: message (xN)`.
fn event_line(event: &Value) -> String {
    let count = event.get("count").and_then(Value::as_u64).unwrap_or(1);
    let times = if count > 1 { format!(" (x{count})") } else { String::new() };
    format!(
        "{} {} {}/{}: {}{times}",
        str_at(event, "/type"),
        str_at(event, "/reason"),
        str_at(event, "/involvedObject/kind"),
        str_at(event, "/involvedObject/name"),
        str_at(event, "/message").trim(),
    )
}

/// When an event last happened, for ordering: RFC 3339 strings sort as times.
fn last_seen(event: &Value) -> &str {
    ["/lastTimestamp", "/eventTime", "/firstTimestamp", "/metadata/creationTimestamp"]
        .iter()
        .map(|p| str_at(event, p))
        .find(|t| !t.is_empty())
        .unwrap_or_default()
}

/// The pods' states and the Warning events of the object and its pods, as
/// lines; empty when there is nothing to say or the events cannot be read
/// (a credential without `list events` loses only this explanation).
fn explain<E: Cluster + ?Sized>(env: &mut E, namespace: &str, kind: &str, name: &str, pods: &[Value]) -> Vec<String> {
    let mut lines: Vec<String> = pods.iter().map(pod_state).filter(|l| !l.is_empty()).collect();
    let mut subjects = vec![(kind.to_string(), name.to_string())];
    subjects.extend(pods.iter().map(|p| ("Pod".to_string(), str_at(p, "/metadata/name").to_string())));
    let mut events = Vec::new();
    for (kind, name) in subjects {
        let selector = format!("type=Warning,involvedObject.kind={kind},involvedObject.name={name}");
        if let Ok(items) = list(env, ("v1", "Event"), Some(namespace), &Selector::fields(&selector)) {
            events.extend(items);
        }
    }
    crate::base::order::by(&mut events, |a, b| last_seen(a).cmp(last_seen(b)));
    // The scheduler's event repeats the pod's condition word for word.
    events.retain(|e| {
        let message = str_at(e, "/message").trim();
        message.is_empty() || !lines.iter().any(|l| l.contains(message))
    });
    let skip = events.len().saturating_sub(MAX_EVENTS);
    lines.extend(events.iter().skip(skip).map(event_line));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn event_lines_read_as_kubectl_describe() {
        let e = json!({"type": "Warning", "reason": "FailedMount", "count": 3,
            "involvedObject": {"kind": "Pod", "name": "db-0"}, "message": "MountVolume.SetUp failed for volume \"data\" "});
        assert_eq!(event_line(&e), "Warning FailedMount Pod/db-0: MountVolume.SetUp failed for volume \"data\" (x3)");
        assert_eq!(event_line(&json!({})), "  /: ");
    }
}
