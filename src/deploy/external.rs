//! Waiting for `helm.sh/depends-on-external` objects before the resources
//! that name them are applied (docs/design.md §4): each is found by its
//! group's preferred version, watched (not polled) until it exists or is
//! ready by its kind's rules, within the batch's time limit, with the same
//! progress lines as the release's own resources.

use crate::exec::executor::Millis;
use crate::exec::kstatus::{self, Health};
use crate::exec::progress::Elapsed;
use crate::kube::{Client, KubeError, ObjectKey, Observed, Tracker};
use crate::model::external::{External, Wait};

use super::progress::{DeployEvent, Progress};

/// How often, at most, what is still awaited is printed.
const PROGRESS_EVERY_MS: Millis = 5_000;

/// Why an external dependency is not met yet.
fn unmet(e: &External, seen: Observed<'_>) -> Option<String> {
    let object = match seen {
        Observed::Live(o) => o,
        Observed::Gone { last: None } => return Some("not found yet".into()),
        Observed::Gone { last: Some(_) } => return Some("deleted".into()),
    };
    match (e.wait, kstatus::health(&e.kind, object)) {
        (Wait::Exists, _) | (Wait::Ready, Health::Ready) => None,
        (Wait::Ready, Health::InProgress { reason } | Health::Failed { reason }) => Some(reason),
    }
}

/// The object an external reference names, in `namespace` unless it says.
fn resolve(client: &mut Client, e: &External, namespace: &str) -> Result<ObjectKey, String> {
    let api_version = match client.preferred_version(&e.group) {
        Ok(Some(v)) => v,
        Ok(None) => return Err(format!("the cluster serves no API group {:?}", e.group)),
        Err(err) => return Err(err.to_string()),
    };
    let ns = e.namespace.as_deref().unwrap_or(namespace);
    match client.resource(&api_version, &e.kind) {
        Ok(_) => Ok(ObjectKey::new(&api_version, &e.kind, Some(ns), &e.name)),
        Err(KubeError::NoMapping { .. }) => Err(format!("the cluster serves no kind {:?} in {api_version}", e.kind)),
        Err(err) => Err(err.to_string()),
    }
}

/// Waits until every one of `wanted` is met or `deadline` passes. The outer
/// error is the cluster failing us; the inner one names what is missing.
/// Progress is timed from `since`, the command's start.
pub fn wait(
    client: &mut Client,
    wanted: &[External],
    namespace: &str,
    deadline: Millis,
    now: &mut dyn FnMut() -> Millis,
    progress: &mut dyn Progress,
    since: Millis,
) -> Result<Result<(), String>, KubeError> {
    let mut tracker = Tracker::new(None);
    let mut pending: Vec<(External, ObjectKey)> = Vec::new();
    for e in wanted {
        match resolve(client, e, namespace) {
            Ok(key) => {
                client.track(&mut tracker, &key)?;
                pending.push((e.clone(), key));
            }
            Err(why) => return Ok(Err(format!("helm.sh/depends-on-external {e}: {why}"))),
        }
    }
    let mut last_progress = now();
    loop {
        client.refresh(&mut tracker)?;
        pending.retain(|(e, key)| {
            let met = unmet(e, tracker.observed(key)).is_none();
            if met {
                progress.event(&DeployEvent::ExternalFound { dependency: e, at: Elapsed::since(since, now()) });
            }
            !met
        });
        if pending.is_empty() {
            return Ok(Ok(()));
        }
        let why = |(e, key): &(External, ObjectKey)| (e.clone(), unmet(e, tracker.observed(key)).unwrap_or_default());
        let t = now();
        if t >= deadline {
            let waited: Vec<String> = pending.iter().map(why).map(|(e, why)| format!("{e} ({why})")).collect();
            return Ok(Err(format!("external dependency not met: {}", waited.join(", "))));
        }
        if t >= last_progress + PROGRESS_EVERY_MS {
            last_progress = t;
            let waited: Vec<(External, String)> = pending.iter().map(why).collect();
            progress.event(&DeployEvent::ExternalWaiting { dependencies: &waited, at: Elapsed::since(since, t) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ext(s: &str) -> External {
        s.parse().unwrap()
    }

    #[test]
    fn exists_or_ready_by_the_kinds_rules() {
        let ready = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"generation": 1},
            "spec": {"replicas": 1}, "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1,
            "readyReplicas": 1, "availableReplicas": 1,
            "conditions": [{"type": "Available", "status": "True"}]}});
        let starting = json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 1}, "status": {}});
        assert_eq!(unmet(&ext("Deployment.apps/a"), Observed::Live(&starting)), None);
        assert_eq!(unmet(&ext("Deployment.apps/a:ready"), Observed::Live(&ready)), None);
        assert_eq!(
            unmet(&ext("Deployment.apps/a:ready"), Observed::Live(&starting)).as_deref(),
            Some("0/1 replicas created")
        );
        assert_eq!(unmet(&ext("Secret/s"), Observed::Gone { last: None }).as_deref(), Some("not found yet"));
        assert_eq!(unmet(&ext("Secret/s"), Observed::Gone { last: Some(&ready) }).as_deref(), Some("deleted"));
    }
}
