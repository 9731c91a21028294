//! `helm hooks run RELEASE`: one event's hooks of the stored release,
//! prepared — read, filtered, planned, checked and every permission asked
//! for, the cluster untouched — then performed over the seam, as `helm
//! test` runs a release's test hooks (Helm's `pkg/action/release_testing.go`).

use crate::base::time::Millis;
use crate::deploy::command::Refused;
use crate::deploy::progress::{DeployEvent, Hooks, Progress};
use crate::exec::executor;
use crate::exec::runner::Summary;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::model::input::{self, Release};
use crate::model::manifest::Syntax;
use crate::plan::{self, Plan, Target};
use crate::release::storage::StoredRelease;
use crate::seam::wants::{hook_wants, Want};
use crate::seam::{Env, Recording};

use super::contract::Action;
use super::stop::Stop;

/// Which hooks of which stored release run, and how: the flags of `run`.
#[derive(Debug, Clone)]
pub struct RunRequest {
    pub release: String,
    pub event: Event,
    /// `--parallel`: at most this many hooks at once.
    pub parallel: usize,
    /// `--parallel-all`: hooks not marked parallel are too.
    pub parallel_all: bool,
    /// `--timeout`, of each hook.
    pub timeout_ms: Millis,
    pub ignore_fail_fast: bool,
    /// `--logs`: the logs of every Pod hook that ran.
    pub logs: bool,
    /// `--filter name=X`: only these hooks (all when empty).
    pub include: Vec<String>,
    /// `--filter !name=X`: never these.
    pub exclude: Vec<String>,
}

/// What [`Action::perform`] runs: the stored revision, its hooks planned
/// for the event, and the warnings found on the way.
#[derive(Debug)]
pub struct RunPrepared {
    stored: StoredRelease,
    release: Release,
    plan: Plan,
    options: executor::RunOptions,
    /// Warnings only, advice left out: an error stops [`Action::prepare`].
    warnings: Diagnostics,
}

/// How a run ended: its summary, with the API requests it made.
#[derive(Debug)]
pub struct RunOutcome {
    pub release: String,
    pub summary: Summary,
    pub(crate) namespace: String,
    pub(crate) revision: Option<u64>,
}

impl<E: Env + ?Sized> Action<E> for RunRequest {
    type Prepared = RunPrepared;
    type Outcome = RunOutcome;

    /// The latest revision read, the hooks the filter keeps planned for the
    /// event, every problem found, and every permission the run needs asked
    /// for (the record's get and update, and the hooks' own) — nothing created.
    fn prepare(&self, env: &mut E) -> Result<RunPrepared, Stop> {
        let stored = crate::seam::latest(env, &self.release)?;
        let mut diags = Diagnostics::default();
        let (_, mut release) = input::parse_as(&stored.json(), Syntax::HeadOnly, &mut diags)?;
        release.hooks.retain(|h| {
            let name = &h.head.name;
            !self.exclude.contains(name) && (self.include.is_empty() || self.include.contains(name))
        });
        let options =
            plan::PlanOptions { parallel: self.parallel, parallel_all: self.parallel_all, parallel_resources: None };
        let plan = plan::build(&release, &[Target::Hooks(self.event)], options, &mut diags);
        let planned = plan.events[0].items.iter().map(|i| &release.hooks[i.index]);
        diags.extend(crate::model::hook::timeouts_over(planned, self.timeout_ms, "--timeout"));
        if diags.has_errors() {
            let message = "the release's hooks have errors; nothing was run.".to_string();
            return Err(Stop::Invalid { diags, problems: Vec::new(), message });
        }
        let hooks: Vec<&Hook> = plan.events[0].items.iter().map(|i| &release.hooks[i.index]).collect();
        let mut wants: Vec<Want> =
            Want::records(&["get", "update"], env.about().records, &stored.namespace).into_iter().collect();
        wants.extend(hook_wants(&hooks, self.logs));
        let why = "the run needs it (checked before acting; nothing was created)";
        if let Err(e) = env.check_access(&wants, why) {
            return Err(Stop::refused(Refused::Access(e), diags));
        }
        let options = executor::RunOptions {
            parallel: self.parallel,
            timeout_ms: self.timeout_ms,
            ignore_fail_fast: self.ignore_fail_fast,
            pod_logs: self.logs,
            // As `helm test`, which stores the release before it deletes
            // the hooks; an event of an operation cleans up first.
            record_before_cleanup: self.event == Event::Test,
        };
        Ok(RunPrepared { stored, release, plan, options, warnings: diags.acting() })
    }

    fn warnings(prepared: &RunPrepared) -> &Diagnostics {
        &prepared.warnings
    }

    /// Runs the prepared hooks, telling `progress` as they go; the record is
    /// stored before each hook starts and at the end, as `helm test` stores it.
    fn perform(self, env: &mut E, prepared: RunPrepared, progress: &mut dyn Progress) -> Result<RunOutcome, Stop> {
        let RunPrepared { mut stored, release, plan, options, .. } = prepared;
        let (event_plan, revision) = (&plan.events[0], release.revision);
        progress.event(&DeployEvent::RunStarted {
            release: &self.release,
            revision,
            event: self.event,
            count: event_plan.items.len(),
            parallel: self.parallel,
        });
        let before = env.about().requests;
        let hooks = (event_plan, release.hooks.as_slice());
        let mut summary =
            crate::seam::run_hooks(env, hooks, &mut stored, options, Recording::Always, &mut Hooks(progress), None);
        let after = env.about().requests;
        summary.api_requests = Some((after.0 - before.0, after.1 - before.1));
        Ok(RunOutcome { release: self.release, summary, namespace: stored.namespace, revision })
    }
}
