//! Whether a hook's object has finished, from the object alone (no I/O).
//!
//! Helm's rules (`pkg/kube/statuswait.go`, `internal/statusreaders`): a Job
//! is done when its `Complete` or `Failed` condition is `True`; a Pod when
//! its phase is `Succeeded` or `Failed`; every other kind is ready at once.
//! The messages are Helm's (`Job Completed. succeeded: 1/1`, `Job Failed.
//! failed: 1/1`, `pod x failed`), followed by what the object says about
//! why.

use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// Not finished yet.
    InProgress,
    Succeeded {
        message: String,
    },
    Failed {
        /// The condition's or container's reason (`BackoffLimitExceeded`,
        /// `Error`, `DeadlineExceeded`); empty when none is given.
        reason: String,
        message: String,
    },
}

impl Completion {
    pub fn is_done(&self) -> bool {
        !matches!(self, Completion::InProgress)
    }
}

/// Whether a hook of `kind` is awaited until it completes, as Helm awaits
/// it: a Job or a Pod. Any other kind is done once created, and can neither
/// fail after that nor time out.
pub(crate) fn hook_awaited(kind: &str) -> bool {
    matches!(kind, "Job" | "Pod")
}

/// The completion of a hook's object of kind `kind`: Jobs and Pods by their
/// status, `None` for other kinds (Helm does not wait for them).
pub fn hook_completion(kind: &str, object: &Value) -> Option<Completion> {
    match kind {
        "Job" => Some(job_completion(object)),
        "Pod" => Some(pod_completion(object)),
        _ => None,
    }
}

/// When a finished hook's object says it ended: a Job's `completionTime`,
/// or its `Failed` condition's transition; a Pod's last container end.
pub(crate) fn finished_at(kind: &str, object: &Value) -> Option<crate::base::time::Millis> {
    let time = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).and_then(crate::base::time::parse_time);
    let status = object.get("status")?;
    match kind {
        "Job" => time(status, "completionTime").or_else(|| {
            let conditions = status.get("conditions")?.as_array()?;
            conditions.iter().filter(|c| text(c, "type") == "Failed").find_map(|c| time(c, "lastTransitionTime"))
        }),
        "Pod" => ["initContainerStatuses", "containerStatuses"]
            .iter()
            .filter_map(|l| status.get(*l).and_then(Value::as_array))
            .flatten()
            .filter_map(|cs| cs.pointer("/state/terminated").and_then(|t| time(t, "finishedAt")))
            .max(),
        _ => None,
    }
}

fn int(v: &Value, pointer: &str) -> Option<i64> {
    v.pointer(pointer).and_then(Value::as_i64)
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// How a Job ended, as Helm reads it: the first of its `Complete` and
/// `Failed` conditions that is `True`, in the conditions' order — whether it
/// completed, and the condition (its reason and message). `None`: not yet.
/// kstatus's reading of a Job resource (`super::kstatus`) ends the same way.
pub(super) fn job_end(job: &Value) -> Option<(bool, &Value)> {
    let conditions = job.pointer("/status/conditions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    conditions.iter().filter(|c| text(c, "status") == "True").find_map(|c| match text(c, "type") {
        "Complete" => Some((true, c)),
        "Failed" => Some((false, c)),
        _ => None,
    })
}

/// A Job: `Complete=True` succeeded, `Failed=True` failed (first of them in
/// the conditions' order, as Helm reads them); anything else is in progress.
pub fn job_completion(job: &Value) -> Completion {
    let parallelism = int(job, "/spec/parallelism").unwrap_or(1);
    let completions = int(job, "/spec/completions").unwrap_or(parallelism);
    let succeeded = int(job, "/status/succeeded").unwrap_or(0);
    let failed = int(job, "/status/failed").unwrap_or(0);
    match job_end(job) {
        Some((true, _)) => {
            Completion::Succeeded { message: format!("Job Completed. succeeded: {succeeded}/{completions}") }
        }
        Some((false, c)) => {
            let reason = text(c, "reason").to_string();
            let detail = match (reason.as_str(), text(c, "message")) {
                ("", "") => String::new(),
                (r, "") => format!(" ({r})"),
                ("", m) => format!(" ({m})"),
                (r, m) => format!(" ({r}: {m})"),
            };
            Completion::Failed { reason, message: format!("Job Failed. failed: {failed}/{completions}{detail}") }
        }
        None => Completion::InProgress,
    }
}

/// A Pod: phase `Succeeded` or `Failed`; anything else is in progress. A
/// failed pod's message names each container that terminated unsuccessfully,
/// with its reason and exit code.
pub(super) fn pod_completion(pod: &Value) -> Completion {
    let name = pod.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    match pod.pointer("/status/phase").and_then(Value::as_str) {
        Some("Succeeded") => Completion::Succeeded { message: format!("pod {name} succeeded") },
        Some("Failed") => {
            let status = pod.get("status").cloned().unwrap_or(Value::Null);
            let mut reason = text(&status, "reason").to_string();
            let mut details = Vec::new();
            for list in ["initContainerStatuses", "containerStatuses"] {
                let statuses = status.get(list).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
                for cs in statuses {
                    let Some(t) = cs.pointer("/state/terminated") else {
                        continue;
                    };
                    let code = t.get("exitCode").and_then(Value::as_i64).unwrap_or(0);
                    if code == 0 {
                        continue;
                    }
                    let why = text(t, "reason");
                    if reason.is_empty() {
                        reason = why.to_string();
                    }
                    let mut d = format!("container {}", text(cs, "name"));
                    if !why.is_empty() {
                        d.push_str(&format!(": {why}"));
                    }
                    d.push_str(&format!(", {}", exit_code(code)));
                    let msg = text(t, "message").trim();
                    if !msg.is_empty() {
                        d.push_str(&format!(": {msg}"));
                    }
                    details.push(d);
                }
            }
            let pod_msg = text(&status, "message");
            if details.is_empty() && !pod_msg.is_empty() {
                details.push(pod_msg.to_string());
            }
            let mut message = format!("pod {name} failed");
            if !details.is_empty() {
                message.push_str(&format!(" ({})", details.join("; ")));
            }
            Completion::Failed { reason, message }
        }
        _ => Completion::InProgress,
    }
}

/// `exit code 137 (SIGKILL)`: a process killed by a signal is reported with
/// 128 plus the signal's number (by runc, as by a shell), and the kubelet's
/// `Error` for such a kill says no more (docs/limits.md). The common signals
/// are named; the code alone cannot tell a kill from a process that chose
/// that code, so the name is what the convention reads, in brackets.
pub(super) fn exit_code(code: i64) -> String {
    const NAMES: [(i64, &str); 9] = [
        (1, "SIGHUP"),
        (2, "SIGINT"),
        (3, "SIGQUIT"),
        (4, "SIGILL"),
        (6, "SIGABRT"),
        (7, "SIGBUS"),
        (9, "SIGKILL"),
        (11, "SIGSEGV"),
        (15, "SIGTERM"),
    ];
    match NAMES.iter().find(|(n, _)| code == 128 + n) {
        Some((_, name)) => format!("exit code {code} ({name})"),
        None => format!("exit code {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn job_conditions() {
        let running = json!({"spec":{"completions":1},"status":{"active":1}});
        assert_eq!(job_completion(&running), Completion::InProgress);
        // Kubernetes ≥ 1.31 sets SuccessCriteriaMet/FailureTarget first: not final.
        let target = json!({"status":{"conditions":[{"type":"FailureTarget","status":"True"}]}});
        assert_eq!(job_completion(&target), Completion::InProgress);
        let done = json!({"spec":{"completions":2,"parallelism":1},"status":{"succeeded":2,"conditions":[
            {"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}});
        assert_eq!(job_completion(&done), Completion::Succeeded { message: "Job Completed. succeeded: 2/2".into() });
        let failed = json!({"spec":{"backoffLimit":0},"status":{"failed":1,"conditions":[
            {"type":"FailureTarget","status":"True"},
            {"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]}});
        assert_eq!(
            job_completion(&failed),
            Completion::Failed {
                reason: "BackoffLimitExceeded".into(),
                message: "Job Failed. failed: 1/1 (BackoffLimitExceeded: Job has reached the specified backoff limit)"
                    .into()
            }
        );
        let not_true = json!({"status":{"conditions":[{"type":"Complete","status":"False"}]}});
        assert!(!job_completion(&not_true).is_done());
    }

    #[test]
    fn pod_phases() {
        let pending = json!({"metadata":{"name":"p"},"status":{"phase":"Running"}});
        assert_eq!(pod_completion(&pending), Completion::InProgress);
        assert_eq!(pod_completion(&json!({})), Completion::InProgress);
        let ok = json!({"metadata":{"name":"p"},"status":{"phase":"Succeeded"}});
        assert_eq!(pod_completion(&ok), Completion::Succeeded { message: "pod p succeeded".into() });
        let failed = json!({"metadata":{"name":"p"},"status":{"phase":"Failed","containerStatuses":[
            {"name":"a","state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
            {"name":"b","state":{"terminated":{"exitCode":3,"reason":"Error","message":"db unreachable\n"}}}]}});
        assert_eq!(
            pod_completion(&failed),
            Completion::Failed {
                reason: "Error".into(),
                message: "pod p failed (container b: Error, exit code 3: db unreachable)".into()
            }
        );
        let evicted = json!({"metadata":{"name":"p"},"status":{"phase":"Failed","reason":"DeadlineExceeded","message":"Pod was active on the node longer than the specified deadline"}});
        assert_eq!(
            pod_completion(&evicted),
            Completion::Failed {
                reason: "DeadlineExceeded".into(),
                message: "pod p failed (Pod was active on the node longer than the specified deadline)".into()
            }
        );
    }

    /// What the real node reported once for a container killed over its memory
    /// limit in its first moments (docs/limits.md): the signal is named.
    #[test]
    fn a_kill_names_its_signal() {
        let killed = json!({"metadata":{"name":"hungry"},"status":{"phase":"Failed","containerStatuses":[
            {"name":"main","state":{"terminated":{"exitCode":137,"reason":"Error"}}}]}});
        let Completion::Failed { message, .. } = pod_completion(&killed) else { panic!("failed") };
        assert_eq!(message, "pod hungry failed (container main: Error, exit code 137 (SIGKILL))");
        assert_eq!(exit_code(143), "exit code 143 (SIGTERM)");
        assert_eq!(exit_code(139), "exit code 139 (SIGSEGV)");
        for plain in [1, 3, 128, 130 + 3, 255, -1] {
            assert_eq!(exit_code(plain), format!("exit code {plain}"), "no signal named for {plain}");
        }
    }

    #[test]
    fn when_it_ended() {
        let job = json!({"status":{"completionTime":"2026-01-02T03:04:05Z"}});
        assert_eq!(finished_at("Job", &job), crate::base::time::parse_time("2026-01-02T03:04:05Z"));
        let failed = json!({"status":{"conditions":[{"type":"Failed","status":"True","lastTransitionTime":"2026-01-02T03:04:06Z"}]}});
        assert_eq!(finished_at("Job", &failed), crate::base::time::parse_time("2026-01-02T03:04:06Z"));
        let pod =
            json!({"status":{"containerStatuses":[{"state":{"terminated":{"finishedAt":"2026-01-02T03:04:07Z"}}}]}});
        assert_eq!(finished_at("Pod", &pod), crate::base::time::parse_time("2026-01-02T03:04:07Z"));
        assert_eq!(finished_at("ConfigMap", &pod), None);
    }

    #[test]
    fn other_kinds_are_not_awaited() {
        assert_eq!(hook_completion("ConfigMap", &json!({})), None);
        assert_eq!(hook_completion("Job", &json!({})), Some(Completion::InProgress));
    }
}
