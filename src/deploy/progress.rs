//! What install, upgrade, rollback and uninstall say as they happen, as
//! typed events given to a sink ([`Progress`]): the hooks' and the
//! resources' events of the pure cores ([`crate::exec::progress`]) and the
//! driver's own steps around them (the record stored, the chart's CRDs,
//! external dependencies, deletions, `--rollback-on-failure`). The sink is
//! every command's (`action::contract`): `run` tells its start and its
//! hooks' events here too. The text lines are one sink
//! (`render::progress_lines`); `tests/deploy_sim.rs` reads them.

use crate::exec::progress::{Elapsed, HookEvent, HookProgress, ResourceEvent};
use crate::kube::KubeError;
use crate::model::event::Event;
use crate::model::external::External;
use crate::model::reference::ObjectRef;
use crate::plan::EventPlan;
use crate::release::record::Operation;

use super::error::Error;
use super::report::Report;

/// One step of a deploy or an uninstall (or a run's start), in the order it
/// happens.
#[derive(Debug, Clone, Copy)]
pub enum DeployEvent<'a> {
    /// `helm hooks run` begins: `count` hooks of `event` of `release`'s
    /// `revision`, at most `parallel` at once.
    RunStarted {
        release: &'a str,
        revision: Option<u64>,
        event: Event,
        count: usize,
        parallel: usize,
    },
    /// The new revision is stored `pending-*`: what the operation will roll
    /// out (`resources`), and how many at once (`--parallel-resources`;
    /// `None`: a whole batch).
    Started {
        release: &'a str,
        namespace: &'a str,
        operation: Operation,
        revision: u64,
        resources: &'a EventPlan,
        parallel_resources: Option<usize>,
    },
    /// One event's `count` hooks are about to run.
    RunningHooks {
        event: Event,
        count: usize,
    },
    Hook(HookEvent<'a>),
    Resource(ResourceEvent<'a>),
    /// A CRD of the chart's (or a subchart's) `crds/` applied (a first install).
    CrdApplied {
        name: &'a str,
        origin: &'a super::crd::Origin,
    },
    /// A `helm.sh/depends-on-external` object is there, or ready as asked.
    ExternalFound {
        dependency: &'a External,
        at: Elapsed,
    },
    /// What external dependencies are still awaited, and why.
    ExternalWaiting {
        dependencies: &'a [(External, String)],
        at: Elapsed,
    },
    /// A resource that is not deleted, and why.
    Kept {
        resource: &'a ObjectRef,
        why: Keep<'a>,
        at: Elapsed,
    },
    /// One batch of deletions sent, in reverse plan order.
    Deleting {
        resources: &'a [ObjectRef],
        at: Elapsed,
    },
    /// That batch is gone.
    Deleted {
        resources: &'a [ObjectRef],
        at: Elapsed,
    },
    /// The operation failed and `--rollback-on-failure` is to undo it: the
    /// operation's report so far, and why it failed.
    Failed {
        report: &'a Report,
        error: &'a Error,
    },
    /// `--rollback-on-failure` uninstalls a failed install.
    Uninstalling {
        release: &'a str,
    },
    /// `--rollback-on-failure` rolls a failed upgrade back to `to`.
    RollingBack {
        release: &'a str,
        to: u64,
    },
}

/// Why a resource of the release stays where it is.
#[derive(Debug, Clone, Copy)]
pub enum Keep<'a> {
    /// `helm.sh/resource-policy: keep`.
    Policy,
    /// An uninstall found it is not the release's.
    NotOwned,
    /// An uninstall could not read whose it is.
    Unverifiable(&'a KubeError),
}

/// Where a command says what happens.
pub trait Progress {
    fn event(&mut self, e: &DeployEvent<'_>);
}

/// Nothing said.
impl Progress for () {
    fn event(&mut self, _: &DeployEvent<'_>) {}
}

/// A deploy's sink as a run of hooks sees it: each hook event is a deploy's.
pub(crate) struct Hooks<'a>(pub(crate) &'a mut dyn Progress);

impl HookProgress for Hooks<'_> {
    fn hook(&mut self, e: &HookEvent<'_>) {
        self.0.event(&DeployEvent::Hook(*e));
    }
}
