//! `helm hooks run`'s action: one event's hooks of the stored release,
//! prepared — read, filtered, planned and checked, the cluster untouched —
//! then, once every permission is granted, performed over the cluster, as
//! Helm's `pkg/action` has an action per file with its steps apart. The CLI
//! reads the flags, prints what this returns, and picks the exit code.

use crate::base::time::Millis;
use crate::exec::executor;
use crate::exec::progress::HookProgress;
use crate::exec::run::{self as runner, Summary};
use crate::kube::{Client, KubeError};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::model::input::{self, InputError, Release};
use crate::model::manifest::Syntax;
use crate::plan::{self, EventPlan, Plan, Target};
use crate::release::storage::StoredRelease;

use super::access::{self, Want};
use super::cluster::KubeCluster;

/// Which hooks of the stored release run, and how they are planned.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub event: Event,
    pub plan: plan::Options,
    /// `--timeout`: a hook's `helm.sh/hook-timeout` over it is warned.
    pub timeout_ms: Millis,
    /// `--filter name=X`: only these hooks (all when empty).
    pub include: &'a [String],
    /// `--filter !name=X`: never these.
    pub exclude: &'a [String],
}

/// Validate, then act: the stored release's hooks that the filter keeps,
/// planned for the event, every problem in `diags` before anything is
/// created (the plan is to be run only when `diags` has no error).
pub fn prepare(stored: &StoredRelease, r: &Request, diags: &mut Diagnostics) -> Result<(Release, Plan), InputError> {
    let (_, mut release) = input::parse_as(&stored.json(), Syntax::HeadOnly, diags)?;
    release.hooks.retain(|h| {
        let name = &h.head.name;
        !r.exclude.contains(name) && (r.include.is_empty() || r.include.contains(name))
    });
    let plan = plan::build(&release, &[Target::Hooks(r.event)], r.plan, diags);
    let planned = plan.events[0].items.iter().map(|i| &release.hooks[i.index]);
    diags.extend(crate::model::hook::timeouts_over(planned, r.timeout_ms, "--timeout"));
    Ok((release, plan))
}

/// Every permission the run needs, asked before anything is created, so that
/// a missing one stops it with nothing done: the release record's get and
/// update (a record changed meanwhile is read again before it is written),
/// and the hooks' ([`access::hook_wants`]); the first one missing is named.
pub fn check_access(
    client: &mut Client,
    stored: &StoredRelease,
    release: &Release,
    plan: &EventPlan,
    logs: bool,
) -> Result<(), KubeError> {
    let hooks: Vec<&Hook> = plan.items.iter().map(|i| &release.hooks[i.index]).collect();
    let mut wants: Vec<Want> =
        Want::records(&["get", "update"], stored.driver.resource(), &stored.namespace).into_iter().collect();
    wants.extend(access::hook_wants(&hooks, logs));
    access::check(client, &wants, "the run needs it (checked before acting; nothing was created)")
}

/// Runs `plan`'s hooks over the cluster, telling `progress` as they go; the
/// summary counts the API requests the run made.
pub fn perform(
    client: &mut Client,
    stored: &mut StoredRelease,
    (release, plan): (&Release, &EventPlan),
    options: executor::Options,
    progress: &mut dyn HookProgress,
) -> Summary {
    let name = stored.name.clone();
    let mut cluster = KubeCluster::new(client, plan, &release.hooks, stored, &name, options.parallel);
    let before = (cluster.client.requests(), cluster.client.repeated());
    let mut summary = runner::execute(plan, &release.hooks, options, &mut cluster, progress);
    summary.api_requests = Some((cluster.client.requests() - before.0, cluster.client.repeated() - before.1));
    summary
}
