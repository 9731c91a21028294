//! Why a resource is stuck or failed, in the words `kubectl describe` would
//! use: the state of its pods (an image that cannot be pulled, a container
//! crash-looping, a pod no node will take) and the Warning events recorded
//! for it and its pods. Printed beside the pods' logs when a resource fails
//! or is not ready in time, so that the failure explains itself without a
//! second tool.

use serde_json::Value;

use super::error::Diagnosis;
use crate::kube::{Client, ObjectKey, Selector};

/// Warning events shown per failure, the most recent last.
const MAX_EVENTS: usize = 8;

/// Pods whose logs a failure shows, at most (a Deployment may have many).
const MAX_POD_LOGS: usize = 3;

/// What the cluster shows of the object behind `key` that is not ready:
/// [`explain`] of it and its pods (a Job's or a Pod's own; a workload's, by
/// its selector), and their output.
pub fn diagnose(client: &mut Client, key: &ObjectKey, namespace: &str) -> Diagnosis {
    let ns = key.namespace.clone().unwrap_or_else(|| namespace.to_string());
    let pods = match key.kind.as_str() {
        "Job" | "Pod" => client.hook_pods(&key.kind, Some(&ns), &key.name).unwrap_or_default(),
        _ => match client.get_opt(key) {
            Ok(Some(live)) => workload_pods(client, &live, &ns),
            _ => Vec::new(),
        },
    };
    let pods = &pods[..pods.len().min(MAX_POD_LOGS)];
    let explanation = explain(client, &ns, &key.kind, &key.name, pods);
    let logs = crate::run::cluster::container_logs(client, Some(&ns), pods);
    let output =
        (!logs.is_empty()).then(|| crate::exec::run::output_block(&key.kind, &key.name, &logs).trim_end().to_string());
    Diagnosis { explanation, output }
}

/// The pods a workload selects by `spec.selector.matchLabels`
/// (Deployment, StatefulSet, DaemonSet, ReplicaSet); none for others.
fn workload_pods(client: &mut Client, live: &Value, namespace: &str) -> Vec<Value> {
    let Some(labels) = live.pointer("/spec/selector/matchLabels").and_then(Value::as_object) else {
        return Vec::new();
    };
    let selector: Vec<String> = labels.iter().filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?))).collect();
    if selector.is_empty() {
        return Vec::new();
    }
    let Ok(res) = client.resource("v1", "Pod") else { return Vec::new() };
    client.list(&res, Some(namespace), &Selector::labels(&selector.join(","))).map(|l| l.items).unwrap_or_default()
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

/// One line for a pod that is not simply running or done: its phase, why it
/// is not scheduled, and each container that waits, crashed or restarts.
/// Empty for a healthy pod.
pub fn pod_state(pod: &Value) -> String {
    let name = str_at(pod, "/metadata/name");
    let phase = str_at(pod, "/status/phase");
    let mut notes = Vec::new();
    let conditions = pod.pointer("/status/conditions").and_then(Value::as_array).map(Vec::as_slice);
    for c in conditions.unwrap_or_default() {
        if str_at(c, "/type") == "PodScheduled" && str_at(c, "/status") == "False" {
            notes.push(join("not scheduled", str_at(c, "/reason"), str_at(c, "/message")));
        }
    }
    for list in ["initContainerStatuses", "containerStatuses"] {
        let statuses = pod.pointer(&format!("/status/{list}")).and_then(Value::as_array).map(Vec::as_slice);
        for cs in statuses.unwrap_or_default() {
            let container = str_at(cs, "/name");
            let restarts = cs.get("restartCount").and_then(Value::as_u64).unwrap_or(0);
            let restarted = if restarts > 0 { format!(", restarted {restarts}x") } else { String::new() };
            if let Some(w) = cs.pointer("/state/waiting") {
                let reason = str_at(w, "/reason");
                if reason != "ContainerCreating" && reason != "PodInitializing" || restarts > 0 {
                    notes.push(
                        join(&format!("container {container} waiting"), reason, str_at(w, "/message")) + &restarted,
                    );
                }
            } else if let Some(t) = cs.pointer("/state/terminated") {
                let code = t.get("exitCode").and_then(Value::as_i64).unwrap_or(0);
                if code != 0 {
                    let what = format!("container {container} terminated with exit code {code}");
                    notes.push(join(&what, str_at(t, "/reason"), str_at(t, "/message")) + &restarted);
                }
            } else if restarts > 0 {
                notes.push(format!("container {container} running{restarted}"));
            }
        }
    }
    if notes.is_empty() {
        return String::new();
    }
    format!("Pod/{name} ({}): {}", if phase.is_empty() { "no phase" } else { phase }, notes.join("; "))
}

fn join(what: &str, reason: &str, message: &str) -> String {
    match (reason.is_empty(), message.trim().is_empty()) {
        (true, true) => what.to_string(),
        (false, true) => format!("{what}: {reason}"),
        (true, false) => format!("{what}: {}", message.trim()),
        (false, false) => format!("{what}: {reason}: {}", message.trim()),
    }
}

/// `Warning Reason Kind/name: message (xN)`.
pub fn event_line(event: &Value) -> String {
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
pub fn explain(client: &mut Client, namespace: &str, kind: &str, name: &str, pods: &[Value]) -> Vec<String> {
    let mut lines: Vec<String> = pods.iter().map(pod_state).filter(|l| !l.is_empty()).collect();
    let Ok(res) = client.resource("v1", "Event") else { return lines };
    let mut subjects = vec![(kind.to_string(), name.to_string())];
    subjects.extend(pods.iter().map(|p| ("Pod".to_string(), str_at(p, "/metadata/name").to_string())));
    let mut events = Vec::new();
    for (kind, name) in subjects {
        let selector = format!("type=Warning,involvedObject.kind={kind},involvedObject.name={name}");
        if let Ok(list) = client.list(&res, Some(namespace), &Selector::fields(&selector)) {
            events.extend(list.items);
        }
    }
    events.sort_by(|a, b| last_seen(a).cmp(last_seen(b)));
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
    fn names_what_keeps_a_pod_from_running() {
        let pulling = json!({"metadata": {"name": "web-1"}, "status": {"phase": "Pending", "containerStatuses": [
            {"name": "app", "restartCount": 0, "state": {"waiting": {"reason": "ImagePullBackOff",
             "message": "Back-off pulling image \"nope:1\""}}}]}});
        assert_eq!(
            pod_state(&pulling),
            "Pod/web-1 (Pending): container app waiting: ImagePullBackOff: Back-off pulling image \"nope:1\""
        );
        let crashing = json!({"metadata": {"name": "w"}, "status": {"phase": "Running", "containerStatuses": [
            {"name": "app", "restartCount": 4, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}});
        assert_eq!(pod_state(&crashing), "Pod/w (Running): container app waiting: CrashLoopBackOff, restarted 4x");
        let unscheduled = json!({"metadata": {"name": "u"}, "status": {"phase": "Pending", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
             "message": "0/1 nodes are available: 1 Insufficient cpu."}]}});
        assert_eq!(
            pod_state(&unscheduled),
            "Pod/u (Pending): not scheduled: Unschedulable: 0/1 nodes are available: 1 Insufficient cpu."
        );
        let failed = json!({"metadata": {"name": "j"}, "status": {"phase": "Failed", "containerStatuses": [
            {"name": "main", "state": {"terminated": {"exitCode": 3, "reason": "Error"}}}]}});
        assert_eq!(pod_state(&failed), "Pod/j (Failed): container main terminated with exit code 3: Error");
    }

    #[test]
    fn a_healthy_or_starting_pod_says_nothing() {
        let running = json!({"metadata": {"name": "ok"}, "status": {"phase": "Running", "containerStatuses": [
            {"name": "app", "restartCount": 0, "state": {"running": {}}}]}});
        assert_eq!(pod_state(&running), "");
        let creating = json!({"metadata": {"name": "c"}, "status": {"phase": "Pending", "containerStatuses": [
            {"name": "app", "state": {"waiting": {"reason": "ContainerCreating"}}}]}});
        assert_eq!(pod_state(&creating), "");
        assert_eq!(pod_state(&json!({})), "");
        assert_eq!(pod_state(&json!({"status": {"containerStatuses": 3}})), "");
    }

    #[test]
    fn event_lines_read_as_kubectl_describe() {
        let e = json!({"type": "Warning", "reason": "FailedMount", "count": 3,
            "involvedObject": {"kind": "Pod", "name": "db-0"}, "message": "MountVolume.SetUp failed for volume \"data\" "});
        assert_eq!(event_line(&e), "Warning FailedMount Pod/db-0: MountVolume.SetUp failed for volume \"data\" (x3)");
        assert_eq!(event_line(&json!({})), "  /: ");
    }
}
