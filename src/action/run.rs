//! `helm hooks run RELEASE`: one event's hooks of the stored release,
//! [`prepare`]d — read, filtered, planned, checked and every permission
//! asked for, the cluster untouched — then [`perform`]ed over the seam, as
//! `helm test` runs a release's test hooks (Helm's `pkg/action/release_testing.go`).

use crate::exec::executor;
use crate::exec::progress::HookProgress;
use crate::exec::runner::Summary;
use crate::kube::KubeError;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::model::input::{self, InputError, Release};
use crate::model::manifest::Syntax;
use crate::plan::{self, EventPlan, Plan, Target};
use crate::release::storage::{StorageError, StoredRelease};
use crate::seam::wants::{hook_wants, Want};
use crate::seam::{Env, Recording};

/// Which hooks of which stored release run, and how.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub release: String,
    pub event: Event,
    pub plan: plan::PlanOptions,
    /// `--timeout`, `--parallel`, `--ignore-fail-fast`, `--logs`.
    pub executor: executor::RunOptions,
    /// `--filter name=X`: only these hooks (all when empty).
    pub include: Vec<String>,
    /// `--filter !name=X`: never these.
    pub exclude: Vec<String>,
}

/// What [`perform`] runs: the stored revision, its hooks planned for the
/// event, and the warnings found on the way.
#[derive(Debug)]
pub struct RunPrepared {
    stored: StoredRelease,
    release: Release,
    plan: Plan,
    options: executor::RunOptions,
    /// Warnings only: an error stops [`prepare`].
    pub diags: Diagnostics,
}

impl RunPrepared {
    pub fn event_plan(&self) -> &EventPlan {
        &self.plan.events[0]
    }

    pub fn revision(&self) -> Option<u64> {
        self.release.revision
    }

    pub fn namespace(&self) -> &str {
        &self.stored.namespace
    }
}

/// Why `run` stopped before running anything.
#[derive(Debug, thiserror::Error)]
pub enum RunStop {
    /// The release could not be read from Helm's storage.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The stored release is not one the plugin can read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The release's hooks have errors (each in the diagnostics).
    #[error("the release's hooks have errors; nothing was run.")]
    Invalid(Diagnostics),
    /// A permission is missing, or could not be asked for; the warnings
    /// found before are kept to be shown.
    #[error("{0}")]
    Access(#[source] Box<KubeError>, Diagnostics),
}

/// How a run ended: its summary, with the API requests it made.
#[derive(Debug)]
pub struct RunOutcome {
    pub summary: Summary,
    pub namespace: String,
    pub revision: Option<u64>,
}

/// The latest revision read, the hooks the filter keeps planned for the
/// event, every problem found, and every permission the run needs asked for
/// (the record's get and update, and the hooks' own) — nothing created.
pub fn prepare(env: &mut (impl Env + ?Sized), r: &RunRequest) -> Result<RunPrepared, RunStop> {
    let stored = env.latest(&r.release)?;
    let mut diags = Diagnostics::default();
    let (_, mut release) = input::parse_as(&stored.json(), Syntax::HeadOnly, &mut diags)?;
    release.hooks.retain(|h| {
        let name = &h.head.name;
        !r.exclude.contains(name) && (r.include.is_empty() || r.include.contains(name))
    });
    let plan = plan::build(&release, &[Target::Hooks(r.event)], r.plan, &mut diags);
    let planned = plan.events[0].items.iter().map(|i| &release.hooks[i.index]);
    diags.extend(crate::model::hook::timeouts_over(planned, r.executor.timeout_ms, "--timeout"));
    if diags.has_errors() {
        return Err(RunStop::Invalid(diags));
    }
    let hooks: Vec<&Hook> = plan.events[0].items.iter().map(|i| &release.hooks[i.index]).collect();
    let mut wants: Vec<Want> =
        Want::records(&["get", "update"], env.records(), &stored.namespace).into_iter().collect();
    wants.extend(hook_wants(&hooks, r.executor.pod_logs));
    let why = "the run needs it (checked before acting; nothing was created)";
    if let Err(e) = env.check_access(&wants, why) {
        return Err(RunStop::Access(Box::new(e), diags));
    }
    Ok(RunPrepared { stored, release, plan, options: r.executor, diags })
}

/// Runs the prepared hooks, telling `progress` as they go; the record is
/// stored before each hook starts and at the end, as `helm test` stores it.
pub fn perform(env: &mut (impl Env + ?Sized), prepared: RunPrepared, progress: &mut dyn HookProgress) -> RunOutcome {
    let RunPrepared { mut stored, release, plan, options, .. } = prepared;
    let before = env.requests();
    let event_plan = (&plan.events[0], release.hooks.as_slice());
    let mut summary = env.run_hooks(event_plan, &mut stored, options, Recording::Always, progress, None);
    let after = env.requests();
    summary.api_requests = Some((after.0 - before.0, after.1 - before.1));
    RunOutcome { summary, namespace: stored.namespace, revision: release.revision }
}
