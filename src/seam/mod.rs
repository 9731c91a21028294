//! What every command needs of the world, as three narrow traits — the
//! cluster's basic steps ([`Cluster`]: apply, read, delete, wait for change,
//! logs, discovery, permissions), Helm's release storage ([`Store`]: read,
//! write, not found) and the time ([`Clock`]), twelve methods in all, in the
//! crate's own types — joined as [`Env`], as Helm's `action.Configuration`
//! injects its kube client, storage and clock (docs/design.md §6). What a
//! command asks beyond those steps (a hook's pods, the latest revision,
//! where a release is not) is built above them, here and in the drivers. One
//! real adapter ([`KubeEnv`]) and one simulation (`sim`, built for the
//! tests only). Hooks run through [`run_hooks`] — [`HookCluster`], the
//! executor's cluster over the seam — everywhere; hooks and resources are
//! awaited alike through [`Awaiting`], the one waiting driver, over a
//! [`Watch`].

mod awaiting;
mod cluster;
mod env;
mod hook_cluster;
mod kube_env;
#[cfg(any(test, feature = "sim"))]
pub mod sim;
mod store;
pub(crate) mod wants;
mod watch;

pub(crate) use awaiting::Awaiting;
pub(crate) use cluster::{apply_one, container_logs, hook_pods, list, release_apply, resolve, Conflicts};
pub use cluster::{get, About, Api, ApiError, Apply, Cluster, LogFrom, Read, Served, Until};
pub(crate) use env::run_hooks;
pub use env::Env;
pub use hook_cluster::{HookCluster, Recording, RUN_LABEL};
pub(crate) use kube_env::KubeEnv;
pub(crate) use store::{create, forget, latest, revision, save};
pub use store::{history, Clock, Pick, Store, Write};
pub use wants::Want;
pub use watch::Watch;
