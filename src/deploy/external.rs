//! Waiting for `helm.sh/depends-on-external` objects before the resources
//! that name them are applied (docs/design.md §4): each is found by its
//! group's preferred version, watched (not polled) until it exists or is
//! ready by its kind's rules, within the batch's time limit, with the same
//! progress as the release's own resources — over the seam
//! ([`crate::seam::Cluster`]), so that `tests/deploy_sim.rs` drives it.

use crate::exec::executor::Millis;
use crate::exec::progress::{Elapsed, Every};
use crate::kube::{KubeError, ObjectKey, Observed};
use crate::model::external::{External, Wait};
use crate::ready::Health;

use super::progress::{DeployEvent, Progress};
use crate::seam::{resolve, Clock, Cluster, Until, Watch};

/// Why an external dependency is not met yet (`crate::ready::External`).
fn unmet(e: &External, seen: Observed<'_>) -> Option<String> {
    match crate::ready::verdict(&crate::ready::External { kind: &e.kind, ready: e.wait == Wait::Ready }, seen) {
        Health::Ready => None,
        Health::InProgress { reason } | Health::Failed { reason } => Some(reason),
    }
}

/// Waits until every one of `wanted` is met or `deadline` passes, in
/// `env`. The outer error is the cluster failing us; the inner one names
/// what is missing. Progress is timed from `since`, the command's start.
pub(super) fn wait<E: Cluster + Clock + ?Sized>(
    env: &mut E,
    wanted: &[External],
    namespace: &str,
    deadline: Millis,
    progress: &mut dyn Progress,
    since: Millis,
) -> Result<Result<(), String>, KubeError> {
    let mut watch = Watch::new(None);
    let mut pending: Vec<(External, ObjectKey)> = Vec::new();
    for e in wanted {
        match resolve(env, e, namespace) {
            Ok(key) => {
                watch.follow(&key, None);
                pending.push((e.clone(), key));
            }
            Err(why) => return Ok(Err(format!("{} {e}: {why}", crate::model::annotation::DEPENDS_ON_EXTERNAL))),
        }
    }
    let mut every = Every::starting(env.now_ms());
    loop {
        env.wait(&mut watch, Until::Changed)?;
        let mut still = Vec::new();
        for (e, key) in pending {
            if unmet(&e, watch.observed(&key)).is_some() {
                still.push((e, key));
                continue;
            }
            let at = Elapsed::since(since, env.now_ms());
            progress.event(&DeployEvent::ExternalFound { dependency: &e, at });
        }
        pending = still;
        if pending.is_empty() {
            return Ok(Ok(()));
        }
        let waited: Vec<(External, String)> =
            pending.iter().map(|(e, key)| (e.clone(), unmet(e, watch.observed(key)).unwrap_or_default())).collect();
        let t = env.now_ms();
        if t >= deadline {
            let waited: Vec<String> = waited.iter().map(|(e, why)| format!("{e} ({why})")).collect();
            return Ok(Err(format!("external dependency not met: {}", waited.join(", "))));
        }
        if every.due(t) {
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
