//! A pod's and a hook's state in the words a user acts on, read from live
//! objects without I/O: a pod no node takes and the scheduler's reason, a
//! container waiting on its image, crash-looping or killed; a Job's active,
//! failed and retried pods. `deploy` says it of a resource that fails, `run`
//! of each hook while it runs.

use serde_json::Value;

pub(crate) fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

/// One line for a pod that is not simply running or done: its phase, why it
/// is not scheduled, and each container that waits, crashed or restarts.
/// Empty for a healthy pod.
pub(crate) fn pod_state(pod: &Value) -> String {
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
                    let what = format!("container {container} terminated with {}", super::completion::exit_code(code));
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

/// What a running hook is doing, in the words a user acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookState {
    pub text: String,
    /// Something keeps it from running as it should: no pod yet, a pod not
    /// scheduled or not started, a container waiting or failed, a Job's
    /// failed pod. A hook that simply runs is not news every few seconds.
    pub stuck: bool,
}

/// What a running hook is doing, for `run`'s progress: a Job's pod counts
/// (`Job: 1 active, 1 failed`), then each pod as [`pod_state`] says it, or
/// its phase when nothing is wrong (`Pod/x (Running)`, `Pod/x (Pending):
/// ContainerCreating`).
pub(crate) fn hook_state(kind: &str, job: Option<&Value>, pods: &[Value]) -> HookState {
    let mut parts = Vec::new();
    let mut stuck = pods.is_empty();
    if let Some(job) = job.filter(|_| kind == "Job") {
        let count = |what: &str| job.pointer(&format!("/status/{what}")).and_then(Value::as_u64).unwrap_or(0);
        let counts: Vec<String> =
            [("active", count("active")), ("failed", count("failed")), ("succeeded", count("succeeded"))]
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(what, n)| format!("{n} {what}"))
                .collect();
        stuck |= count("failed") > 0;
        if !counts.is_empty() {
            let retried = if count("failed") > 0 && count("active") > 0 { " (retrying)" } else { "" };
            parts.push(format!("Job: {}{retried}", counts.join(", ")));
        }
    }
    if pods.is_empty() {
        parts.push(if kind == "Job" { "no pod yet".into() } else { "no pod".into() });
    }
    for pod in pods {
        let state = pod_state(pod);
        stuck |= !state.is_empty() || str_at(pod, "/status/phase") == "Pending";
        parts.push(if state.is_empty() { plain_state(pod) } else { state });
    }
    HookState { text: parts.join("; "), stuck }
}

/// A pod with nothing wrong: its phase, and the container that is still
/// being created or initialised.
fn plain_state(pod: &Value) -> String {
    let name = str_at(pod, "/metadata/name");
    let phase = match str_at(pod, "/status/phase") {
        "" => "no phase",
        p => p,
    };
    let waiting = ["initContainerStatuses", "containerStatuses"].iter().find_map(|list| {
        let statuses = pod.pointer(&format!("/status/{list}")).and_then(Value::as_array)?;
        statuses.iter().find_map(|cs| Some(str_at(cs.pointer("/state/waiting")?, "/reason")).filter(|r| !r.is_empty()))
    });
    match waiting {
        Some(reason) => format!("Pod/{name} ({phase}): {reason}"),
        None => format!("Pod/{name} ({phase})"),
    }
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
    fn a_hook_says_its_jobs_counts_and_each_pod() {
        let job = json!({"status": {"active": 1, "failed": 1}});
        let failed = json!({"metadata": {"name": "m-1"}, "status": {"phase": "Failed", "containerStatuses": [
            {"name": "main", "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]}});
        let creating = json!({"metadata": {"name": "m-2"}, "status": {"phase": "Pending", "containerStatuses": [
            {"name": "main", "state": {"waiting": {"reason": "ContainerCreating"}}}]}});
        let state = hook_state("Job", Some(&job), &[failed, creating]);
        assert_eq!(
            state.text,
            "Job: 1 active, 1 failed (retrying); Pod/m-1 (Failed): container main terminated with exit code 1: Error; \
             Pod/m-2 (Pending): ContainerCreating"
        );
        assert!(state.stuck);
        let running = json!({"metadata": {"name": "p"}, "status": {"phase": "Running"}});
        let state = hook_state("Pod", None, std::slice::from_ref(&running));
        assert_eq!((state.text.as_str(), state.stuck), ("Pod/p (Running)", false));
        assert!(!hook_state("Job", Some(&json!({"status": {"active": 1}})), &[running]).stuck);
        let none = hook_state("Job", Some(&json!({})), &[]);
        assert_eq!((none.text.as_str(), none.stuck), ("no pod yet", true));
    }
}
