//! Whether a live object is ready, from the object alone (no I/O).
//!
//! Helm 4 waits for a release with kstatus (`sigs.k8s.io/cli-utils/pkg/kstatus/status`,
//! Helm vendors the `fluxcd/cli-utils` fork): an object is done when its status is
//! `Current`. We wait for our own batches with the same rules, so that `helm-hooks`
//! neither moves on earlier nor hangs longer than `helm install --wait` would on the same
//! objects. The order of the checks follows kstatus, because the first check that fails
//! is the one the operator is told about.
//!
//! Deliberate differences from plain kstatus, each for a reason:
//! - Job and Pod use Helm's own status readers (`internal/statusreaders`): a running Job
//!   is not ready until it completes, and a failed Pod is failed rather than "Current".
//!   (A Job resource is ready once started, kstatus's rule, unless `--wait-for-jobs` or a
//!   `depends-on` asks for completion: see `super::condition::resource`.)
//!   A crash-looping container stays in progress (kstatus would fail the Pod) but is named.
//! - StatefulSet revisions are compared only when the controller has reported both.
//! - A Namespace in phase `Terminating` is in progress.
//!
//! Malformed input never panics: a field of the wrong JSON type counts as missing (a
//! replica count given as the string `"3"` falls back to the default), and malformed
//! conditions are skipped. kstatus would report an error for such objects; they cannot
//! come from the API server, which validates its built-in types.
//!
//! Kinds are matched by name; when the object carries an `apiVersion` its group must also
//! match, so that for example a Knative `Service` is judged by its conditions rather than
//! as a core Service.

use serde_json::Value;

use super::completion::{job_end, pod_completion, Completion};

/// What a live object's status says now, as kstatus computes it (its
/// `Current` is [`Health::Ready`]); Flux calls this a health check. It is
/// also the verdict of every condition an object is awaited for
/// (`super::condition`), a chart's own rule ([`super::Readiness`]) and a
/// hook's end among them: ready (done), failed, or in progress, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    Ready,
    InProgress { reason: String },
    Failed { reason: String },
}

/// The kinds with rules of their own; every other kind is judged by its
/// `Ready` condition.
pub const KINDS: [&str; 14] = [
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "Pod",
    "PersistentVolumeClaim",
    "Service",
    "Namespace",
    "CustomResourceDefinition",
    "PodDisruptionBudget",
    "CronJob",
    "ConfigMap",
    "Secret",
];

/// The health of `object`, a live object of kind `kind` as returned by GET or watch.
pub fn health(kind: &str, object: &Value) -> Health {
    if let Some(r) = generic_properties(kind, object) {
        return r;
    }
    match kind {
        "Deployment" if in_group(object, &["apps", "extensions"]) => deployment(object),
        "StatefulSet" if in_group(object, &["apps"]) => stateful_set(object),
        "DaemonSet" if in_group(object, &["apps", "extensions"]) => daemon_set(object),
        "ReplicaSet" if in_group(object, &["apps", "extensions"]) => replica_set(object),
        "Job" if in_group(object, &["batch"]) => job(object),
        "Pod" if in_group(object, &[""]) => pod(object),
        "PersistentVolumeClaim" if in_group(object, &[""]) => pvc(object),
        "Service" if in_group(object, &[""]) => service(object),
        "Namespace" if in_group(object, &[""]) => namespace(object),
        "CustomResourceDefinition" if in_group(object, &["apiextensions.k8s.io"]) => crd(object),
        // These have nothing to wait for; kstatus calls them always ready, so a Ready
        // condition some other tool put on them must not hold the release up either.
        "PodDisruptionBudget" if in_group(object, &["policy"]) => Health::Ready,
        "CronJob" if in_group(object, &["batch"]) => Health::Ready,
        "ConfigMap" | "Secret" if in_group(object, &[""]) => Health::Ready,
        _ => ready_condition(object),
    }
}

fn in_progress(reason: impl Into<String>) -> Health {
    Health::InProgress { reason: reason.into() }
}

fn failed(reason: impl Into<String>) -> Health {
    Health::Failed { reason: reason.into() }
}

/// True when the object's API group is one of `groups`, or when it does not say (the
/// caller passed a bare object and named the kind itself).
fn in_group(object: &Value, groups: &[&str]) -> bool {
    let Some(api_version) = object.get("apiVersion").and_then(Value::as_str) else {
        return true;
    };
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    groups.contains(&group)
}

fn int(object: &Value, pointer: &str) -> Option<i64> {
    object.pointer(pointer).and_then(Value::as_i64)
}

fn string<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// One entry of `status.conditions`; absent or non-string fields read as empty.
#[derive(Debug, Clone, Copy)]
struct Condition<'a> {
    kind: &'a str,
    status: &'a str,
    reason: &'a str,
    message: &'a str,
}

impl Condition<'_> {
    fn is(&self, kind: &str, status: &str) -> bool {
        self.kind == kind && self.status == status
    }

    /// `condition Ready=False: Reason: message`.
    fn describe(&self) -> String {
        format!("condition {}={}{}", self.kind, self.status, detail(self.reason, self.message))
    }
}

/// `: reason: message`, leaving out whichever is empty.
fn detail(reason: &str, message: &str) -> String {
    let message = message.trim();
    match (reason.is_empty(), message.is_empty()) {
        (true, true) => String::new(),
        (false, true) => format!(": {reason}"),
        (true, false) => format!(": {message}"),
        (false, false) => format!(": {reason}: {message}"),
    }
}

fn conditions(object: &Value) -> impl Iterator<Item = Condition<'_>> {
    let list = object.pointer("/status/conditions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    list.iter().filter_map(|c| {
        let field = |key: &str| c.get(key).and_then(Value::as_str).unwrap_or_default();
        let kind = c.get("type").and_then(Value::as_str)?;
        Some(Condition { kind, status: field("status"), reason: field("reason"), message: field("message") })
    })
}

fn condition<'a>(object: &'a Value, kind: &str) -> Option<Condition<'a>> {
    conditions(object).find(|c| c.kind == kind)
}

fn has_condition(object: &Value, kind: &str, status: &str) -> bool {
    conditions(object).any(|c| c.is(kind, status))
}

/// The checks kstatus makes on every kind before its kind-specific rules: deletion,
/// the controller having seen the latest spec, and the standard `Reconciling` and
/// `Stalled` conditions, which any controller may set to speak for itself.
fn generic_properties(kind: &str, object: &Value) -> Option<Health> {
    if let Some(ts) = string(object, "/metadata/deletionTimestamp").filter(|ts| !ts.is_empty()) {
        return Some(in_progress(format!("{kind} is being deleted (deletionTimestamp {ts})")));
    }
    if let (Some(generation), Some(observed)) =
        (int(object, "/metadata/generation"), int(object, "/status/observedGeneration"))
    {
        // kstatus compares for inequality: an observedGeneration ahead of generation is
        // as untrustworthy as one behind it.
        if observed < generation {
            return Some(in_progress(format!(
                "waiting for rollout: observedGeneration {observed} < generation {generation}"
            )));
        }
        if observed != generation {
            return Some(in_progress(format!(
                "waiting for controller: observedGeneration {observed} != generation {generation}"
            )));
        }
    }
    conditions(object).find_map(|c| {
        if c.is("Reconciling", "True") {
            Some(in_progress(c.describe()))
        } else if c.is("Stalled", "True") {
            Some(failed(c.describe()))
        } else {
            None
        }
    })
}

/// Kinds without rules of their own: the `Ready` condition if there is one, else ready.
fn ready_condition(object: &Value) -> Health {
    match condition(object, "Ready") {
        Some(c) if c.status == "True" => Health::Ready,
        Some(c) if c.status == "False" || c.status == "Unknown" => in_progress(c.describe()),
        _ => Health::Ready,
    }
}

fn deployment(object: &Value) -> Health {
    // Without progressDeadlineSeconds (or with the controller's "never" value) the
    // controller never sets a final Progressing reason, so there is nothing to wait for.
    let mut progressing = int(object, "/spec/progressDeadlineSeconds").is_none_or(|d| d == i64::from(i32::MAX));
    let mut available = None;
    for c in conditions(object) {
        match c.kind {
            "Progressing" if c.reason == "ProgressDeadlineExceeded" => {
                return failed(format!("ProgressDeadlineExceeded{}", detail("", c.message)));
            }
            "Progressing" if c.status == "True" && c.reason == "NewReplicaSetAvailable" => progressing = true,
            "Available" if available.is_none() => available = Some(c),
            _ => {}
        }
    }

    let spec = int(object, "/spec/replicas").unwrap_or(1);
    let total = int(object, "/status/replicas").unwrap_or(0);
    let updated = int(object, "/status/updatedReplicas").unwrap_or(0);
    let ready = int(object, "/status/readyReplicas").unwrap_or(0);
    let avail = int(object, "/status/availableReplicas").unwrap_or(0);
    if total < spec {
        return in_progress(format!("{total}/{spec} replicas created"));
    }
    if updated < spec {
        return in_progress(format!("{updated}/{spec} replicas updated"));
    }
    if total > spec {
        return in_progress(format!("{} old replicas pending termination", total.saturating_sub(spec)));
    }
    if avail < updated {
        return in_progress(format!("{avail}/{updated} replicas available"));
    }
    if ready < spec {
        return in_progress(format!("{ready}/{spec} replicas ready"));
    }
    if !progressing {
        let why = match condition(object, "Progressing") {
            Some(c) => format!(" ({})", c.describe()),
            None => String::new(),
        };
        return in_progress(format!("waiting for rollout: new ReplicaSet not yet available{why}"));
    }
    match available {
        Some(c) if c.status == "True" => Health::Ready,
        Some(c) => in_progress(format!("Deployment not Available ({})", c.describe())),
        None => in_progress("Deployment not Available (no Available condition yet)"),
    }
}

fn stateful_set(object: &Value) -> Health {
    let spec = int(object, "/spec/replicas").unwrap_or(1);
    let ready = int(object, "/status/readyReplicas").unwrap_or(0);
    // As kstatus: an OnDelete StatefulSet is the user's to roll, and counts as current at
    // once. Charts rely on it: Vault's server pods are not ready until someone unseals
    // them, and `helm install --wait` of Vault succeeds because of this rule.
    if string(object, "/spec/updateStrategy/type") == Some("OnDelete") {
        return Health::Ready;
    }

    let total = int(object, "/status/replicas").unwrap_or(0);
    let current = int(object, "/status/currentReplicas").unwrap_or(0);
    let updated = int(object, "/status/updatedReplicas").unwrap_or(0);
    if total < spec {
        return in_progress(format!("{total}/{spec} replicas created"));
    }
    if ready < spec {
        return in_progress(format!("{ready}/{spec} replicas ready"));
    }
    if total > spec {
        return in_progress(format!("{} old replicas pending termination", total.saturating_sub(spec)));
    }
    // With a partition only the ordinals at or above it are rolled; the rest keep the
    // old revision on purpose, so the revisions never converge.
    if let Some(partition) = int(object, "/spec/updateStrategy/rollingUpdate/partition") {
        let want = spec.saturating_sub(partition);
        if updated < want {
            return in_progress(format!("{updated}/{want} replicas updated (partition {partition})"));
        }
        return Health::Ready;
    }
    if updated < spec {
        return in_progress(format!("{updated}/{spec} replicas updated"));
    }
    if current < spec {
        return in_progress(format!("{current}/{spec} replicas at the current revision"));
    }
    if let (Some(current), Some(update)) =
        (string(object, "/status/currentRevision"), string(object, "/status/updateRevision"))
    {
        if current != update {
            return in_progress(format!("waiting for rollout: currentRevision {current} != updateRevision {update}"));
        }
    }
    Health::Ready
}

fn daemon_set(object: &Value) -> Health {
    // The generic check skips objects without generations; a DaemonSet the controller
    // has acted on always has both, so a missing one means the controller has not.
    for (pointer, name) in
        [("/metadata/generation", "metadata.generation"), ("/status/observedGeneration", "status.observedGeneration")]
    {
        if int(object, pointer).is_none() {
            return in_progress(format!("waiting for the DaemonSet controller: {name} not set"));
        }
    }
    let Some(desired) = int(object, "/status/desiredNumberScheduled") else {
        return in_progress("waiting for the DaemonSet controller: status.desiredNumberScheduled not set");
    };
    let checks = [
        ("/status/currentNumberScheduled", "pods scheduled"),
        ("/status/updatedNumberScheduled", "pods updated"),
        ("/status/numberAvailable", "pods available"),
        ("/status/numberReady", "pods ready"),
    ];
    for (pointer, what) in checks {
        let n = int(object, pointer).unwrap_or(0);
        if n < desired {
            return in_progress(format!("{n}/{desired} {what}"));
        }
    }
    Health::Ready
}

fn replica_set(object: &Value) -> Health {
    if let Some(c) = conditions(object).find(|c| c.is("ReplicaFailure", "True")) {
        return in_progress(c.describe());
    }
    let spec = int(object, "/spec/replicas").unwrap_or(1);
    let checks = [
        ("/status/fullyLabeledReplicas", "replicas fully labeled"),
        ("/status/availableReplicas", "replicas available"),
        ("/status/readyReplicas", "replicas ready"),
    ];
    for (pointer, what) in checks {
        let n = int(object, pointer).unwrap_or(0);
        if n < spec {
            return in_progress(format!("{n}/{spec} {what}"));
        }
    }
    let total = int(object, "/status/replicas").unwrap_or(0);
    if total > spec {
        return in_progress(format!("{} old replicas pending termination", total.saturating_sub(spec)));
    }
    Health::Ready
}

/// Helm's own Job reader: ready only once complete (kstatus calls a running Job current).
fn job(object: &Value) -> Health {
    match job_end(object) {
        Some((true, _)) => return Health::Ready,
        Some((false, c)) => {
            let field = |key: &str| c.get(key).and_then(Value::as_str).unwrap_or_default();
            return failed(format!("Job failed{}", detail(field("reason"), field("message"))));
        }
        None => {}
    }
    let suspended = object.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true);
    if suspended || has_condition(object, "Suspended", "True") {
        return in_progress("Job is suspended");
    }
    let count = |field: &str| int(object, &format!("/status/{field}")).unwrap_or(0);
    if string(object, "/status/startTime").is_none() {
        return in_progress("Job not started");
    }
    in_progress(format!(
        "Job running: {} active, {} succeeded, {} failed",
        count("active"),
        count("succeeded"),
        count("failed")
    ))
}

/// kstatus's reading of a Job that has not completed or failed: current once
/// it has a start time. Helm's `--wait` (without `--wait-for-jobs`) uses it.
pub(super) fn job_started(object: &Value) -> bool {
    string(object, "/status/startTime").is_some()
}

fn pod(object: &Value) -> Health {
    let phase = string(object, "/status/phase").unwrap_or_default();
    match phase {
        "Succeeded" => return Health::Ready,
        "Failed" => {
            let reason = match pod_completion(object) {
                Completion::Failed { message, .. } => message,
                _ => "pod failed".to_string(),
            };
            return failed(reason);
        }
        _ => {}
    }
    if has_condition(object, "Ready", "True") {
        return Health::Ready;
    }
    if let Some(waiting) = waiting_container(object) {
        return in_progress(waiting);
    }
    if let Some(c) = conditions(object).find(|c| c.is("PodScheduled", "False")) {
        return in_progress(format!("pod not scheduled ({})", c.describe()));
    }
    if let Some(name) = unready_container(object) {
        return in_progress(format!("container {name} not ready"));
    }
    match phase {
        "" => in_progress("pod phase not yet reported"),
        phase => in_progress(format!("pod is {phase}, not Ready")),
    }
}

fn container_statuses(object: &Value) -> impl Iterator<Item = &Value> {
    ["/status/initContainerStatuses", "/status/containerStatuses"]
        .into_iter()
        .filter_map(|p| object.pointer(p).and_then(Value::as_array))
        .flatten()
}

/// `container app waiting: CrashLoopBackOff: back-off 10s …`, preferring a container
/// stuck for a reason the operator must fix over one that is merely being created.
fn waiting_container(object: &Value) -> Option<String> {
    let routine = |reason: &str| matches!(reason, "ContainerCreating" | "PodInitializing");
    let waiting: Vec<(&str, &str, &str)> = container_statuses(object)
        .filter_map(|cs| {
            let w = cs.pointer("/state/waiting")?;
            let text = |key: &str| w.get(key).and_then(Value::as_str).unwrap_or_default();
            let name = cs.get("name").and_then(Value::as_str).unwrap_or("?");
            Some((name, text("reason"), text("message")))
        })
        .filter(|(_, reason, _)| !reason.is_empty())
        .collect();
    let (name, reason, message) =
        waiting.iter().find(|(_, reason, _)| !routine(reason)).or_else(|| waiting.first()).copied()?;
    Some(format!("container {name} waiting{}", detail(reason, message)))
}

fn unready_container(object: &Value) -> Option<&str> {
    let list = object.pointer("/status/containerStatuses").and_then(Value::as_array)?;
    list.iter()
        .find(|cs| cs.get("ready").and_then(Value::as_bool) == Some(false))
        .map(|cs| cs.get("name").and_then(Value::as_str).unwrap_or("?"))
}

fn pvc(object: &Value) -> Health {
    match string(object, "/status/phase") {
        Some("Bound") => Health::Ready,
        Some(phase) if !phase.is_empty() => in_progress(format!("PersistentVolumeClaim is {phase}, not Bound")),
        _ => in_progress("PersistentVolumeClaim is not Bound (no phase yet)"),
    }
}

fn service(object: &Value) -> Health {
    // As kstatus (Helm 4's default `--wait`): a LoadBalancer Service is
    // current once it has a cluster IP. Waiting for an external address, as
    // Helm 3's legacy waiter did, would hang on every cluster without a load
    // balancer controller (kind, bare metal) where stock Helm 4 succeeds.
    if string(object, "/spec/type") == Some("LoadBalancer")
        && string(object, "/spec/clusterIP").is_none_or(str::is_empty)
    {
        return in_progress("ClusterIP not set. Service type: LoadBalancer");
    }
    Health::Ready
}

fn namespace(object: &Value) -> Health {
    match string(object, "/status/phase") {
        Some("Terminating") => in_progress("Namespace is Terminating"),
        _ => Health::Ready,
    }
}

fn crd(object: &Value) -> Health {
    for c in conditions(object) {
        if c.is("NamesAccepted", "False") {
            return failed(c.describe());
        }
        if c.kind == "Established" {
            if c.status == "True" {
                return Health::Ready;
            }
            // "Installing" is the transient reason while the API server sets up the
            // new resource; any other False reason will not resolve by waiting.
            if c.status == "False" && c.reason != "Installing" {
                return failed(c.describe());
            }
        }
    }
    in_progress("CustomResourceDefinition not yet Established")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ip(reason: &str) -> Health {
        in_progress(reason)
    }

    fn is_in_progress(r: &Health) -> bool {
        matches!(r, Health::InProgress { .. })
    }

    fn deploy(status: Value) -> Value {
        json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","generation":2},
            "spec":{"replicas":3,"progressDeadlineSeconds":600},"status":status})
    }

    fn deploy_ok_status() -> Value {
        json!({"observedGeneration":2,"replicas":3,"updatedReplicas":3,"readyReplicas":3,"availableReplicas":3,
            "conditions":[
                {"type":"Available","status":"True","reason":"MinimumReplicasAvailable"},
                {"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"}]})
    }

    #[test]
    fn deletion_comes_first() {
        let obj = json!({"metadata":{"deletionTimestamp":"2024-01-01T00:00:00Z"},"status":{"phase":"Bound"}});
        assert_eq!(
            health("PersistentVolumeClaim", &obj),
            ip("PersistentVolumeClaim is being deleted (deletionTimestamp 2024-01-01T00:00:00Z)")
        );
        // Even a completed pod: the object is going away.
        let pod = json!({"metadata":{"deletionTimestamp":"t"},"status":{"phase":"Succeeded"}});
        assert!(is_in_progress(&health("Pod", &pod)));
        // Empty or non-string timestamps do not count.
        for ts in [json!(""), json!(3), json!(null), json!({})] {
            let obj = json!({"metadata":{"deletionTimestamp":ts}});
            assert_eq!(health("ConfigMap", &obj), Health::Ready, "{ts}");
        }
    }

    #[test]
    fn generation_must_be_observed() {
        let obj = json!({"metadata":{"generation":2},"status":{"observedGeneration":1}});
        assert_eq!(health("Widget", &obj), ip("waiting for rollout: observedGeneration 1 < generation 2"));
        let ahead = json!({"metadata":{"generation":2},"status":{"observedGeneration":3}});
        assert_eq!(health("Widget", &ahead), ip("waiting for controller: observedGeneration 3 != generation 2"));
        let equal = json!({"metadata":{"generation":2},"status":{"observedGeneration":2}});
        assert_eq!(health("Widget", &equal), Health::Ready);
        // Either one missing, or of the wrong type: no check.
        for obj in [
            json!({"metadata":{"generation":2}}),
            json!({"status":{"observedGeneration":1}}),
            json!({"metadata":{"generation":"2"},"status":{"observedGeneration":1}}),
            json!({"metadata":{"generation":2},"status":{"observedGeneration":"1"}}),
            json!({"metadata":{"generation":2.0},"status":{"observedGeneration":1}}),
        ] {
            assert_eq!(health("Widget", &obj), Health::Ready, "{obj}");
        }
        // The generation check applies to built-in kinds too, before their own rules.
        let mut d = deploy(deploy_ok_status());
        d["status"]["observedGeneration"] = json!(1);
        assert_eq!(health("Deployment", &d), ip("waiting for rollout: observedGeneration 1 < generation 2"));
        let pdb = json!({"apiVersion":"policy/v1","metadata":{"generation":5},"status":{"observedGeneration":4}});
        assert!(is_in_progress(&health("PodDisruptionBudget", &pdb)));
    }

    #[test]
    fn standard_conditions_apply_to_every_kind() {
        let reconciling = json!({"status":{"conditions":[
            {"type":"Ready","status":"True"},
            {"type":"Reconciling","status":"True","reason":"Progressing","message":"applying revision 3"}]}});
        assert_eq!(
            health("HelmRelease", &reconciling),
            ip("condition Reconciling=True: Progressing: applying revision 3")
        );
        let stalled = json!({"status":{"conditions":[
            {"type":"Stalled","status":"True","reason":"InvalidSpec","message":"bad\n"}]}});
        assert_eq!(health("Kustomization", &stalled), failed("condition Stalled=True: InvalidSpec: bad"));
        assert_eq!(health("ConfigMap", &stalled), failed("condition Stalled=True: InvalidSpec: bad"));
        // The first of them in list order wins.
        let both = json!({"status":{"conditions":[
            {"type":"Stalled","status":"True"},{"type":"Reconciling","status":"True"}]}});
        assert_eq!(health("Widget", &both), failed("condition Stalled=True"));
        // False or Unknown do not count.
        let off = json!({"status":{"conditions":[
            {"type":"Stalled","status":"False"},{"type":"Reconciling","status":"Unknown"}]}});
        assert_eq!(health("Widget", &off), Health::Ready);
    }

    #[test]
    fn generic_kinds_use_ready_condition() {
        assert_eq!(health("Widget", &json!({})), Health::Ready);
        assert_eq!(health("Widget", &json!({"status":{}})), Health::Ready);
        assert_eq!(health("Widget", &json!({"status":{"conditions":[]}})), Health::Ready);
        let ready =
            json!({"status":{"conditions":[{"type":"Synced","status":"False"},{"type":"Ready","status":"True"}]}});
        assert_eq!(health("Widget", &ready), Health::Ready);
        let not_ready = json!({"status":{"conditions":[
            {"type":"Ready","status":"False","reason":"DependencyNotReady","message":"waiting for db"}]}});
        assert_eq!(health("Widget", &not_ready), ip("condition Ready=False: DependencyNotReady: waiting for db"));
        let unknown = json!({"status":{"conditions":[{"type":"Ready","status":"Unknown","message":"m"}]}});
        assert_eq!(health("Widget", &unknown), ip("condition Ready=Unknown: m"));
        // An unrecognised status value is no verdict at all.
        let odd = json!({"status":{"conditions":[{"type":"Ready","status":"Maybe"}]}});
        assert_eq!(health("Widget", &odd), Health::Ready);
        let other = json!({"status":{"conditions":[{"type":"Synced","status":"False"}]}});
        assert_eq!(health("Widget", &other), Health::Ready);
    }

    #[test]
    fn always_ready_kinds() {
        for kind in [
            "ConfigMap",
            "Secret",
            "ServiceAccount",
            "Role",
            "RoleBinding",
            "ClusterRole",
            "ClusterRoleBinding",
            "NetworkPolicy",
            "Ingress",
            "CronJob",
            "PodDisruptionBudget",
            "PriorityClass",
        ] {
            assert_eq!(health(kind, &json!({"metadata":{"name":"x"}})), Health::Ready, "{kind}");
        }
        // kstatus ignores a Ready condition on the kinds it calls always ready.
        let cond = json!({"status":{"conditions":[{"type":"Ready","status":"False"}]}});
        assert_eq!(health("PodDisruptionBudget", &cond), Health::Ready);
        assert_eq!(health("Secret", &cond), Health::Ready);
        assert!(is_in_progress(&health("ServiceAccount", &cond)));
    }

    #[test]
    fn namespace() {
        assert_eq!(health("Namespace", &json!({"status":{"phase":"Active"}})), Health::Ready);
        assert_eq!(health("Namespace", &json!({})), Health::Ready);
        assert_eq!(health("Namespace", &json!({"status":{"phase":"Terminating"}})), ip("Namespace is Terminating"));
    }

    #[test]
    fn deployment_ready() {
        assert_eq!(health("Deployment", &deploy(deploy_ok_status())), Health::Ready);
        // extensions/v1beta1 and a bare object are Deployments too.
        let mut d = deploy(deploy_ok_status());
        d["apiVersion"] = json!("extensions/v1beta1");
        assert_eq!(health("Deployment", &d), Health::Ready);
        d.as_object_mut().unwrap().remove("apiVersion");
        assert_eq!(health("Deployment", &d), Health::Ready);
    }

    #[test]
    fn deployment_replica_counts_in_order() {
        let cases = [
            ("replicas", 2, "2/3 replicas created"),
            ("updatedReplicas", 1, "1/3 replicas updated"),
            ("replicas", 5, "2 old replicas pending termination"),
            ("availableReplicas", 2, "2/3 replicas available"),
            ("readyReplicas", 0, "0/3 replicas ready"),
        ];
        for (field, value, want) in cases {
            let mut s = deploy_ok_status();
            s[field] = json!(value);
            assert_eq!(health("Deployment", &deploy(s)), ip(want), "{field}");
        }
        // The first unmet check is the one reported.
        let mut s = deploy_ok_status();
        s["replicas"] = json!(1);
        s["readyReplicas"] = json!(0);
        assert_eq!(health("Deployment", &deploy(s)), ip("1/3 replicas created"));
        // Missing status counts as zero replicas.
        assert_eq!(health("Deployment", &json!({"spec":{}})), ip("0/1 replicas created"));
        let mut no_status = deploy(Value::Null);
        no_status["metadata"]["generation"] = json!(1);
        assert_eq!(health("Deployment", &no_status), ip("0/3 replicas created"));
    }

    #[test]
    fn deployment_replicas_default_and_zero() {
        let status = json!({"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,
            "conditions":[{"type":"Available","status":"True"}]});
        assert_eq!(health("Deployment", &json!({"spec":{},"status":status.clone()})), Health::Ready);
        let zero = json!({"spec":{"replicas":0},"status":{"conditions":[{"type":"Available","status":"True"}]}});
        assert_eq!(health("Deployment", &zero), Health::Ready);
        // A string count is malformed and falls back to the default of 1.
        let stringy = json!({"spec":{"replicas":"3"},"status":status});
        assert_eq!(health("Deployment", &stringy), Health::Ready);
    }

    #[test]
    fn deployment_progress_deadline_fails() {
        let mut s = deploy_ok_status();
        s["replicas"] = json!(4);
        s["conditions"] = json!([
            {"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"},
            {"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded",
             "message":"ReplicaSet \"d-1\" has timed out progressing."}]);
        assert_eq!(
            health("Deployment", &deploy(s)),
            failed("ProgressDeadlineExceeded: ReplicaSet \"d-1\" has timed out progressing.")
        );
        let mut bare = deploy_ok_status();
        bare["conditions"] = json!([{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded"}]);
        assert_eq!(health("Deployment", &deploy(bare)), failed("ProgressDeadlineExceeded"));
    }

    #[test]
    fn deployment_waits_for_new_replica_set() {
        let mut s = deploy_ok_status();
        s["conditions"] = json!([
            {"type":"Available","status":"True"},
            {"type":"Progressing","status":"True","reason":"ReplicaSetUpdated","message":"ReplicaSet \"d-2\" is progressing."}]);
        assert_eq!(
            health("Deployment", &deploy(s.clone())),
            ip("waiting for rollout: new ReplicaSet not yet available \
                (condition Progressing=True: ReplicaSetUpdated: ReplicaSet \"d-2\" is progressing.)")
        );
        s["conditions"] = json!([{"type":"Available","status":"True"}]);
        assert_eq!(
            health("Deployment", &deploy(s.clone())),
            ip("waiting for rollout: new ReplicaSet not yet available")
        );
        // Without a deadline (or with the "never" value) the controller never reports it.
        for deadline in [json!(null), json!(2147483647), json!("600")] {
            let mut d = deploy(s.clone());
            d["spec"]["progressDeadlineSeconds"] = deadline.clone();
            assert_eq!(health("Deployment", &d), Health::Ready, "{deadline}");
        }
    }

    #[test]
    fn deployment_needs_available() {
        let mut s = deploy_ok_status();
        s["conditions"] = json!([
            {"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"},
            {"type":"Available","status":"False","reason":"MinimumReplicasUnavailable","message":"Deployment does not have minimum availability."}]);
        assert_eq!(
            health("Deployment", &deploy(s.clone())),
            ip("Deployment not Available (condition Available=False: MinimumReplicasUnavailable: \
                Deployment does not have minimum availability.)")
        );
        s["conditions"] = json!([{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable"}]);
        assert_eq!(health("Deployment", &deploy(s)), ip("Deployment not Available (no Available condition yet)"));
    }

    fn sts(spec: Value, status: Value) -> Value {
        json!({"apiVersion":"apps/v1","kind":"StatefulSet","spec":spec,"status":status})
    }

    fn sts_ok() -> Value {
        json!({"replicas":3,"readyReplicas":3,"currentReplicas":3,"updatedReplicas":3,
            "currentRevision":"web-1","updateRevision":"web-1"})
    }

    #[test]
    fn stateful_set_rolling_update() {
        let spec = json!({"replicas":3});
        assert_eq!(health("StatefulSet", &sts(spec.clone(), sts_ok())), Health::Ready);
        let explicit = json!({"replicas":3,"updateStrategy":{"type":"RollingUpdate"}});
        assert_eq!(health("StatefulSet", &sts(explicit, sts_ok())), Health::Ready);
        let cases = [
            ("replicas", json!(2), "2/3 replicas created"),
            ("readyReplicas", json!(1), "1/3 replicas ready"),
            ("replicas", json!(4), "1 old replicas pending termination"),
            ("updatedReplicas", json!(2), "2/3 replicas updated"),
            ("currentReplicas", json!(2), "2/3 replicas at the current revision"),
            ("updateRevision", json!("web-2"), "waiting for rollout: currentRevision web-1 != updateRevision web-2"),
        ];
        for (field, value, want) in cases {
            let mut s = sts_ok();
            s[field] = value;
            assert_eq!(health("StatefulSet", &sts(spec.clone(), s)), ip(want), "{field}");
        }
        // Revisions are compared only when both are reported.
        for field in ["currentRevision", "updateRevision"] {
            let mut s = sts_ok();
            s["updateRevision"] = json!("web-2");
            s.as_object_mut().unwrap().remove(field);
            assert_eq!(health("StatefulSet", &sts(spec.clone(), s)), Health::Ready, "{field}");
        }
        // Default of one replica; no status at all.
        assert_eq!(health("StatefulSet", &json!({})), ip("0/1 replicas created"));
        let one = json!({"replicas":1,"readyReplicas":1,"currentReplicas":1,"updatedReplicas":1});
        assert_eq!(health("StatefulSet", &sts(json!({}), one)), Health::Ready);
    }

    #[test]
    fn stateful_set_partition() {
        let spec = json!({"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}});
        let mut s = sts_ok();
        s["updatedReplicas"] = json!(1);
        s["currentReplicas"] = json!(2);
        s["updateRevision"] = json!("web-2");
        assert_eq!(health("StatefulSet", &sts(spec.clone(), s.clone())), Health::Ready);
        s["updatedReplicas"] = json!(0);
        assert_eq!(health("StatefulSet", &sts(spec, s)), ip("0/1 replicas updated (partition 2)"));
        // Partition 0 rolls every pod.
        let zero = json!({"replicas":3,"updateStrategy":{"rollingUpdate":{"partition":0}}});
        let mut s = sts_ok();
        s["updatedReplicas"] = json!(2);
        assert_eq!(health("StatefulSet", &sts(zero, s)), ip("2/3 replicas updated (partition 0)"));
        // Ready pods are still required first.
        let spec = json!({"replicas":3,"updateStrategy":{"rollingUpdate":{"partition":2}}});
        let mut s = sts_ok();
        s["readyReplicas"] = json!(2);
        assert_eq!(health("StatefulSet", &sts(spec, s)), ip("2/3 replicas ready"));
    }

    #[test]
    fn stateful_set_on_delete_is_ready_at_once() {
        let spec = json!({"replicas":2,"updateStrategy":{"type":"OnDelete"}});
        for status in [json!({}), json!({"replicas":2,"readyReplicas":0}), json!({"replicas":2,"readyReplicas":2})] {
            assert_eq!(health("StatefulSet", &sts(spec.clone(), status)), Health::Ready);
        }
    }

    fn ds(status: Value) -> Value {
        json!({"apiVersion":"apps/v1","metadata":{"generation":1},"status":status})
    }

    fn ds_ok() -> Value {
        json!({"observedGeneration":1,"desiredNumberScheduled":3,"currentNumberScheduled":3,
            "updatedNumberScheduled":3,"numberAvailable":3,"numberReady":3})
    }

    #[test]
    fn daemon_set() {
        assert_eq!(health("DaemonSet", &ds(ds_ok())), Health::Ready);
        let cases = [
            ("currentNumberScheduled", "2/3 pods scheduled"),
            ("updatedNumberScheduled", "2/3 pods updated"),
            ("numberAvailable", "2/3 pods available"),
            ("numberReady", "2/3 pods ready"),
        ];
        for (field, want) in cases {
            let mut s = ds_ok();
            s[field] = json!(2);
            assert_eq!(health("DaemonSet", &ds(s.clone())), ip(want), "{field}");
            s.as_object_mut().unwrap().remove(field);
            assert_eq!(health("DaemonSet", &ds(s)), ip(&want.replacen('2', "0", 1)), "{field} missing");
        }
        let mut s = ds_ok();
        s.as_object_mut().unwrap().remove("desiredNumberScheduled");
        assert_eq!(
            health("DaemonSet", &ds(s)),
            ip("waiting for the DaemonSet controller: status.desiredNumberScheduled not set")
        );
        // Zero desired nodes: nothing to wait for.
        let zero = json!({"observedGeneration":1,"desiredNumberScheduled":0});
        assert_eq!(health("DaemonSet", &ds(zero)), Health::Ready);
    }

    #[test]
    fn daemon_set_needs_generations() {
        let mut d = ds(ds_ok());
        d["metadata"] = json!({});
        assert_eq!(health("DaemonSet", &d), ip("waiting for the DaemonSet controller: metadata.generation not set"));
        let no_status = json!({"metadata":{"generation":1}});
        assert_eq!(
            health("DaemonSet", &no_status),
            ip("waiting for the DaemonSet controller: status.observedGeneration not set")
        );
        assert!(is_in_progress(&health("DaemonSet", &json!({}))));
    }

    #[test]
    fn replica_set() {
        let ok = json!({"replicas":2,"fullyLabeledReplicas":2,"readyReplicas":2,"availableReplicas":2});
        let rs = |status: Value| json!({"apiVersion":"apps/v1","spec":{"replicas":2},"status":status});
        assert_eq!(health("ReplicaSet", &rs(ok.clone())), Health::Ready);
        let cases = [
            ("fullyLabeledReplicas", 1, "1/2 replicas fully labeled"),
            ("availableReplicas", 1, "1/2 replicas available"),
            ("readyReplicas", 1, "1/2 replicas ready"),
            ("replicas", 3, "1 old replicas pending termination"),
        ];
        for (field, value, want) in cases {
            let mut s = ok.clone();
            s[field] = json!(value);
            assert_eq!(health("ReplicaSet", &rs(s)), ip(want), "{field}");
        }
        let mut s = ok.clone();
        s["conditions"] = json!([{"type":"ReplicaFailure","status":"True","reason":"FailedCreate",
            "message":"pods \"x\" is forbidden: exceeded quota"}]);
        assert_eq!(
            health("ReplicaSet", &rs(s)),
            ip("condition ReplicaFailure=True: FailedCreate: pods \"x\" is forbidden: exceeded quota")
        );
        assert_eq!(health("ReplicaSet", &json!({})), ip("0/1 replicas fully labeled"));
    }

    #[test]
    fn job() {
        let job = |status: Value| json!({"apiVersion":"batch/v1","spec":{"completions":1},"status":status});
        let done = json!({"succeeded":1,"conditions":[
            {"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]});
        assert_eq!(health("Job", &job(done)), Health::Ready);
        let fail = json!({"failed":1,"conditions":[
            {"type":"FailureTarget","status":"True"},
            {"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]});
        assert_eq!(
            health("Job", &job(fail)),
            failed("Job failed: BackoffLimitExceeded: Job has reached the specified backoff limit")
        );
        let bare_fail = json!({"conditions":[{"type":"Failed","status":"True"}]});
        assert_eq!(health("Job", &job(bare_fail)), failed("Job failed"));
        // A running Job is not ready (Helm's reader, unlike plain kstatus).
        let running = json!({"startTime":"2024-01-01T00:00:00Z","active":1,"conditions":[
            {"type":"Complete","status":"False"},{"type":"FailureTarget","status":"True"}]});
        assert_eq!(health("Job", &job(running)), ip("Job running: 1 active, 0 succeeded, 0 failed"));
        assert_eq!(health("Job", &job(json!({}))), ip("Job not started"));
        assert_eq!(health("Job", &json!({})), ip("Job not started"));
        let suspended = json!({"spec":{"suspend":true},"status":{}});
        assert_eq!(health("Job", &suspended), ip("Job is suspended"));
        let suspended_cond = json!({"status":{"conditions":[{"type":"Suspended","status":"True"}]}});
        assert_eq!(health("Job", &suspended_cond), ip("Job is suspended"));
        // The first final condition in list order wins.
        let both = json!({"conditions":[{"type":"Complete","status":"True"},{"type":"Failed","status":"True"}]});
        assert_eq!(health("Job", &job(both)), Health::Ready);
    }

    fn pod_with(status: Value) -> Value {
        json!({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"status":status})
    }

    #[test]
    fn pod_phases() {
        assert_eq!(health("Pod", &pod_with(json!({"phase":"Succeeded"}))), Health::Ready);
        let failed_pod = pod_with(json!({"phase":"Failed","containerStatuses":[
            {"name":"b","state":{"terminated":{"exitCode":3,"reason":"Error","message":"db unreachable"}}}]}));
        assert_eq!(
            health("Pod", &failed_pod),
            failed("pod p failed (container b: Error, exit code 3: db unreachable)")
        );
        assert_eq!(health("Pod", &pod_with(json!({"phase":"Failed"}))), failed("pod p failed"));
        let ready = pod_with(json!({"phase":"Running","conditions":[
            {"type":"PodScheduled","status":"True"},{"type":"Ready","status":"True"}]}));
        assert_eq!(health("Pod", &ready), Health::Ready);
        assert_eq!(health("Pod", &pod_with(json!({"phase":"Running"}))), ip("pod is Running, not Ready"));
        assert_eq!(health("Pod", &pod_with(json!({"phase":"Pending"}))), ip("pod is Pending, not Ready"));
        assert_eq!(health("Pod", &json!({})), ip("pod phase not yet reported"));
    }

    #[test]
    fn pod_names_what_it_waits_for() {
        let crash = pod_with(json!({"phase":"Running","containerStatuses":[
            {"name":"side","ready":true,"state":{"running":{}}},
            {"name":"app","ready":false,"state":{"waiting":{"reason":"CrashLoopBackOff",
                "message":"back-off 10s restarting failed container"}}}]}));
        assert_eq!(
            health("Pod", &crash),
            ip("container app waiting: CrashLoopBackOff: back-off 10s restarting failed container")
        );
        // A stuck init container beats main containers that merely wait for it.
        let init = pod_with(json!({"phase":"Pending",
            "containerStatuses":[{"name":"app","state":{"waiting":{"reason":"PodInitializing"}}}],
            "initContainerStatuses":[{"name":"init","state":{"waiting":{"reason":"ImagePullBackOff",
                "message":"Back-off pulling image \"x\""}}}]}));
        assert_eq!(health("Pod", &init), ip("container init waiting: ImagePullBackOff: Back-off pulling image \"x\""));
        let creating = pod_with(json!({"phase":"Pending","containerStatuses":[
            {"name":"app","state":{"waiting":{"reason":"ContainerCreating"}}}]}));
        assert_eq!(health("Pod", &creating), ip("container app waiting: ContainerCreating"));
        let unschedulable = pod_with(json!({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",
            "reason":"Unschedulable","message":"0/1 nodes are available"}]}));
        assert_eq!(
            health("Pod", &unschedulable),
            ip("pod not scheduled (condition PodScheduled=False: Unschedulable: 0/1 nodes are available)")
        );
        let unready = pod_with(json!({"phase":"Running","containerStatuses":[
            {"name":"app","ready":false,"state":{"running":{}}}]}));
        assert_eq!(health("Pod", &unready), ip("container app not ready"));
        let waiting_no_reason = pod_with(json!({"phase":"Pending","containerStatuses":[
            {"state":{"waiting":{}}},{"ready":false}]}));
        assert_eq!(health("Pod", &waiting_no_reason), ip("container ? not ready"));
    }

    #[test]
    fn persistent_volume_claim() {
        assert_eq!(health("PersistentVolumeClaim", &json!({"status":{"phase":"Bound"}})), Health::Ready);
        assert_eq!(
            health("PersistentVolumeClaim", &json!({"status":{"phase":"Pending"}})),
            ip("PersistentVolumeClaim is Pending, not Bound")
        );
        assert_eq!(
            health("PersistentVolumeClaim", &json!({"status":{"phase":"Lost"}})),
            ip("PersistentVolumeClaim is Lost, not Bound")
        );
        for obj in [json!({}), json!({"status":{"phase":""}}), json!({"status":{"phase":1}})] {
            assert_eq!(
                health("PersistentVolumeClaim", &obj),
                ip("PersistentVolumeClaim is not Bound (no phase yet)"),
                "{obj}"
            );
        }
    }

    #[test]
    fn custom_resource_definition() {
        let crd = |conds: Value| json!({"apiVersion":"apiextensions.k8s.io/v1","status":{"conditions":conds}});
        let ok = crd(json!([{"type":"NamesAccepted","status":"True"},{"type":"Established","status":"True"}]));
        assert_eq!(health("CustomResourceDefinition", &ok), Health::Ready);
        let names = crd(json!([
            {"type":"NamesAccepted","status":"False","reason":"ListKindConflict","message":"\"WidgetList\" is already in use"},
            {"type":"Established","status":"False","reason":"NotAccepted"}]));
        assert_eq!(
            health("CustomResourceDefinition", &names),
            failed("condition NamesAccepted=False: ListKindConflict: \"WidgetList\" is already in use")
        );
        let installing = crd(json!([{"type":"Established","status":"False","reason":"Installing"}]));
        assert_eq!(health("CustomResourceDefinition", &installing), ip("CustomResourceDefinition not yet Established"));
        let not_accepted = crd(json!([{"type":"Established","status":"False","reason":"NotAccepted"}]));
        assert_eq!(
            health("CustomResourceDefinition", &not_accepted),
            failed("condition Established=False: NotAccepted")
        );
        let unknown = crd(json!([{"type":"Established","status":"Unknown"}]));
        assert!(is_in_progress(&health("CustomResourceDefinition", &unknown)));
        assert_eq!(health("CustomResourceDefinition", &json!({})), ip("CustomResourceDefinition not yet Established"));
    }

    #[test]
    fn service() {
        assert_eq!(health("Service", &json!({"spec":{"type":"ClusterIP"}})), Health::Ready);
        assert_eq!(health("Service", &json!({})), Health::Ready);
        assert_eq!(health("Service", &json!({"spec":{"type":"NodePort"}})), Health::Ready);
        assert_eq!(health("Service", &json!({"spec":{"type":"ExternalName"}})), Health::Ready);
        // No load balancer needed, as kstatus: the cluster IP is enough.
        let want = ip("ClusterIP not set. Service type: LoadBalancer");
        assert_eq!(health("Service", &json!({"spec":{"type":"LoadBalancer"}})), want);
        assert_eq!(health("Service", &json!({"spec":{"type":"LoadBalancer","clusterIP":""}})), want);
        for status in [json!({}), json!({"loadBalancer":{}}), json!({"loadBalancer":{"ingress":[{"ip":"1.2.3.4"}]}})] {
            let svc = json!({"spec":{"type":"LoadBalancer","clusterIP":"10.0.0.1"},"status":status});
            assert_eq!(health("Service", &svc), Health::Ready, "{status}");
        }
    }

    #[test]
    fn group_must_match_when_given() {
        // A Knative Service is judged by its conditions, not as a core Service.
        let knative = json!({"apiVersion":"serving.knative.dev/v1","kind":"Service",
            "status":{"conditions":[{"type":"Ready","status":"False","reason":"RevisionMissing"}]}});
        assert_eq!(health("Service", &knative), ip("condition Ready=False: RevisionMissing"));
        let core = json!({"apiVersion":"v1","spec":{"type":"LoadBalancer"}});
        assert!(is_in_progress(&health("Service", &core)));
        // A custom "Deployment" with a Ready condition.
        let custom = json!({"apiVersion":"example.com/v1","spec":{"replicas":3},
            "status":{"conditions":[{"type":"Ready","status":"True"}]}});
        assert_eq!(health("Deployment", &custom), Health::Ready);
        let job = json!({"apiVersion":"example.com/v1"});
        assert_eq!(health("Job", &job), Health::Ready);
        // A non-string apiVersion is ignored.
        assert_eq!(health("Job", &json!({"apiVersion":1})), ip("Job not started"));
    }

    #[test]
    fn condition_details() {
        assert_eq!(detail("", ""), "");
        assert_eq!(detail("R", ""), ": R");
        assert_eq!(detail("", " m\n"), ": m");
        assert_eq!(detail("R", "m"), ": R: m");
    }

    #[test]
    fn malformed_conditions_are_skipped() {
        for conds in [
            json!({"type":"Ready","status":"False"}),
            json!("Ready"),
            json!([1, "x", null, [], {"status":"False"}, {"type":1,"status":"False"}]),
        ] {
            let obj = json!({"status":{"conditions":conds}});
            assert_eq!(health("Widget", &obj), Health::Ready, "{conds}");
        }
        // Non-string status, reason and message read as empty.
        let obj = json!({"status":{"conditions":[{"type":"Ready","status":false,"reason":3,"message":{}}]}});
        assert_eq!(health("Widget", &obj), Health::Ready);
        let obj = json!({"status":{"conditions":[{"type":"Ready","status":"False","reason":3,"message":["m"]}]}});
        assert_eq!(health("Widget", &obj), ip("condition Ready=False"));
    }

    /// Every kind against shapes no API server would return: nothing may panic, and
    /// nothing built from garbage may claim a workload is ready when it has no status.
    #[test]
    fn never_panics_on_any_json() {
        let kinds: Vec<&str> = KINDS.iter().copied().chain(["Widget", ""]).collect();
        let scalars = [json!(null), json!(true), json!(-1), json!(1.5), json!("3"), json!([]), json!({}), json!([{}])];
        let mut shapes: Vec<Value> = scalars.to_vec();
        for s in &scalars {
            shapes.push(json!({"metadata":s,"spec":s,"status":s}));
            shapes.push(json!({"apiVersion":s,"metadata":{"generation":s,"deletionTimestamp":s},
                "status":{"observedGeneration":s,"conditions":s,"phase":s}}));
            shapes.push(json!({"spec":{"replicas":s,"type":s,"updateStrategy":s,"progressDeadlineSeconds":s,
                "suspend":s,"externalIPs":s},
                "status":{"replicas":s,"readyReplicas":s,"updatedReplicas":s,"availableReplicas":s,
                "currentReplicas":s,"currentRevision":s,"updateRevision":s,"desiredNumberScheduled":s,
                "numberReady":s,"loadBalancer":s,"startTime":s,"conditions":[s,{"type":s,"status":s}],
                "containerStatuses":[s,{"name":s,"ready":s,"state":s},{"state":{"waiting":s}}],
                "initContainerStatuses":s}}));
            shapes.push(json!({"spec":{"updateStrategy":{"type":s,"rollingUpdate":s}},
                "status":{"loadBalancer":{"ingress":s},"conditions":[{"type":"Ready","status":s,"reason":s}]}}));
        }
        shapes.push(json!({"spec":{"replicas":i64::MIN},"status":{"replicas":i64::MAX}}));
        shapes.push(json!({"spec":{"replicas":u64::MAX,"updateStrategy":{"rollingUpdate":{"partition":i64::MIN}}}}));
        for kind in kinds {
            for shape in &shapes {
                let _ = health(kind, shape);
            }
        }
        for kind in ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "PersistentVolumeClaim"] {
            for s in &scalars {
                let obj = json!({"status":s});
                assert!(is_in_progress(&health(kind, &obj)), "{kind} {obj}");
            }
        }
    }

    /// helm/helm#32615: an Argo Rollout writes `observedGeneration` as a string and has
    /// no Ready condition; Helm 4's kstatus reads it as Unknown and waits until the
    /// timeout. Here the malformed field counts as missing, so it is ready once applied
    /// (readiness expressions can ask for more, e.g. `{.phase} == Healthy`).
    #[test]
    fn a_rollout_with_a_string_observed_generation_does_not_hang() {
        let rollout = json!({"apiVersion": "argoproj.io/v1alpha1", "kind": "Rollout",
            "metadata": {"generation": 3},
            "status": {"observedGeneration": "5d8f7c9b4", "phase": "Healthy",
                "conditions": [{"type": "Progressing", "status": "True"}, {"type": "Available", "status": "True"}]}});
        assert_eq!(health("Rollout", &rollout), Health::Ready);
    }
}
