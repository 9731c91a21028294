//! The real world every command that talks to the cluster acts in: a
//! [`KubeEnv`] from the environment Helm gives the plugin (its kubeconfig
//! and context, `HELM_NAMESPACE`, `HELM_DRIVER`; docs/design.md §5).

use crate::kube::{self, Client, KubeError};
use crate::release::storage::{Driver, StorageError};
use crate::seam::KubeEnv;

use super::exit::Exit;

/// Why there is no environment to act in.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// `HELM_DRIVER` names no storage the plugin can use (exit 2).
    #[error(transparent)]
    Driver(StorageError),
    /// No cluster to talk to (exit 3).
    #[error(transparent)]
    Cluster(KubeError),
}

impl ConnectError {
    pub fn exit(&self) -> Exit {
        match self {
            ConnectError::Driver(_) => Exit::Invalid,
            ConnectError::Cluster(_) => Exit::Cluster,
        }
    }
}

/// A connection opened ahead of time (deploy opens one while Helm renders),
/// or none.
#[derive(Default)]
pub struct Early(pub(super) Option<Client>);

/// The cluster and the release store; `namespace` is the release's when the
/// command knows it (otherwise Helm's `--namespace`).
pub fn connect(early: Early, namespace: Option<&str>) -> Result<KubeEnv, ConnectError> {
    let driver = Driver::from_env(std::env::var("HELM_DRIVER").ok().as_deref()).map_err(ConnectError::Driver)?;
    let mut client = match early.0 {
        Some(c) => c,
        None => kube::connect_from_env().map_err(ConnectError::Cluster)?,
    };
    if let Some(ns) = namespace.filter(|n| !n.is_empty()) {
        client.set_namespace(ns);
    }
    Ok(KubeEnv::new(client, driver))
}
