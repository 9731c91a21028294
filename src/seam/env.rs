//! [`Env`]: the cluster, the store and the clock in one value, as Helm's
//! `action.Configuration` holds its kube client, storage and clock; and
//! [`run_hooks`], the one way hooks run in it.

use crate::base::time::Millis;
use crate::exec::executor;
use crate::exec::progress::HookProgress;
use crate::exec::runner::{self as runner, Summary};
use crate::model::hook::Hook;
use crate::plan::EventPlan;
use crate::release::storage::StoredRelease;

use super::cluster::Cluster;
use super::hook_cluster::{HookCluster, Recording};
use super::store::{Clock, Store};

/// All a command needs, in one value (the cluster and the store share one
/// client in the real world).
pub trait Env: Cluster + Store + Clock {}

impl<E: Cluster + Store + Clock + ?Sized> Env for E {}

/// Runs one event's hooks (`plan`) of `stored` through the executor over
/// the seam's steps ([`HookCluster`]), their last runs recorded in it as
/// `recording` says; progress timed from `since` (a deploy's start) or from
/// the run's own start. A free function, not a method of [`Env`], so that
/// every world — the real one and the simulation — runs the same hook code.
pub(crate) fn run_hooks<E: Env + ?Sized>(
    env: &mut E,
    (plan, hooks): (&EventPlan, &[Hook]),
    stored: &mut StoredRelease,
    options: executor::RunOptions,
    recording: Recording,
    progress: &mut dyn HookProgress,
    since: Option<Millis>,
) -> Summary {
    let mut cluster = HookCluster::new(env, (plan, hooks), stored, options.parallel, recording);
    runner::execute_since(plan, hooks, options, &mut cluster, progress, since)
}
