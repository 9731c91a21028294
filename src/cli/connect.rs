//! The world the commands that talk to the cluster act in: a [`KubeEnv`]
//! made from what Helm gives the plugin (its kubeconfig and context,
//! `HELM_NAMESPACE`, `HELM_DRIVER`; docs/design.md §5). Connecting is the
//! driver's, never an action's: `deploy` opens its connection early, while
//! Helm still renders, and names the pending releases when the pipe
//! brought none.

use crate::action::Stop;
use crate::kube::{self, Client};
use crate::release::storage::{self, Driver, Pending};
use crate::seam::KubeEnv;

/// The cluster and the release store, over `early` when a connection is
/// open already; `namespace` is the release's when the command knows it
/// (otherwise Helm's `--namespace`).
pub(super) fn connect(early: Option<Client>, namespace: Option<&str>) -> Result<KubeEnv, Stop> {
    let driver = Driver::from_env(std::env::var("HELM_DRIVER").ok().as_deref()).map_err(Stop::Driver)?;
    let mut client = match early {
        Some(c) => c,
        None => kube::connect_from_env().map_err(|e| Stop::NoCluster(Box::new(e)))?,
    };
    if let Some(ns) = namespace.filter(|n| !n.is_empty()) {
        client.set_namespace(ns);
    }
    Ok(KubeEnv::new(client, driver))
}

/// What every deploy asks the cluster whatever the release says — the
/// connection itself, discovery, the permission rules of Helm's namespace
/// and of cluster scope — asked while Helm is still rendering the dry-run
/// that stdin will bring (0.15–0.4 s on public charts, docs/benchmarks.md),
/// so that the deploy does not wait for them after. Reads only, and any
/// failure is set aside: the input is still checked first, and the same
/// question asked again later fails in its usual place.
pub(super) fn ask_while_helm_renders() -> Option<Client> {
    let _span = crate::trace::span(|| "ask while Helm renders".into());
    let mut client = kube::connect_from_env().ok()?;
    if client.discover_all().is_err() {
        return Some(client);
    }
    let namespace = client.namespace().to_string();
    if client.rules(&namespace).is_ok() {
        let _ = client.cluster_rules();
    }
    Some(client)
}

/// The pending releases of the namespace, if the cluster can be asked; a
/// failure to ask says nothing more (the pipe's failure is the message).
pub(super) fn pending(early: Option<Client>) -> Vec<Pending> {
    let Some(mut client) = early.or_else(|| kube::connect_from_env().ok()) else { return Vec::new() };
    let Some(driver) = records(std::env::var("HELM_DRIVER").ok().as_deref()) else { return Vec::new() };
    storage::pending_releases(&mut client, driver).unwrap_or_default()
}

/// Where Helm keeps the records, from `HELM_DRIVER` as Helm reads it, in
/// every build: Helm's `release_storage` (the host-functions build) reads
/// by name only, and no name came through the pipe, so the records are
/// listed by their labels with the plugin's own client. `sql` and `memory`:
/// nowhere to list.
fn records(helm_driver: Option<&str>) -> Option<Driver> {
    match helm_driver.unwrap_or_default() {
        "" | "secret" | "secrets" => Some(Driver::Secret),
        "configmap" | "configmaps" => Some(Driver::ConfigMap),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_releases_are_listed_where_helm_driver_keeps_them() {
        assert_eq!(records(None), Some(Driver::Secret));
        assert_eq!(records(Some("configmaps")), Some(Driver::ConfigMap));
        assert_eq!(records(Some("sql")), None);
    }
}
