//! What every command needs of the world, as traits — the cluster
//! ([`Cluster`]), Helm's release storage ([`Store`]) and the time
//! ([`Clock`]), in one value ([`Env`]) — as Helm's `action.Configuration`
//! injects its kube client, storage and clock (docs/design.md §6). One real
//! adapter ([`KubeEnv`]); the simulations are in `tests/`. The hooks of
//! `run` and of the deploys run through [`HookCluster`], the executor's
//! cluster over the seam; hooks and resources are awaited alike through
//! [`Awaiting`], the one waiting driver.

mod awaiting;
mod cluster;
mod env;
mod hook_cluster;
mod kube_env;
mod store;
pub(crate) mod wants;

/// The apply policy of `--force-conflicts`, part of what the seam's applies are asked.
pub(crate) use crate::kube::Conflicts;
pub(crate) use awaiting::Awaiting;
pub use cluster::Cluster;
pub use env::Env;
pub use hook_cluster::{HookCluster, Recording, RUN_LABEL};
pub(crate) use kube_env::KubeEnv;
pub use store::{Clock, Store};
pub use wants::Want;
