//! `helm hooks plan`: the rendered release read by its heads and planned
//! ([`Action::prepare`]), then each event's estimated time and hints added
//! ([`Action::perform`]) — with no cluster, as Helm's `pkg/action/lint.go`
//! has none. It acts on its input alone ([`PlanInput`]): stdin's bytes or a
//! stored release's ([`read_stored`]); `lint` shares the reading
//! ([`read_and_plan`]).

use crate::base::time::Millis;
use crate::deploy::progress::Progress;
use crate::model::diagnostic::Diagnostics;
use crate::model::hook;
use crate::model::input::{self, InputError, InputFormat, Release};
use crate::model::manifest::Syntax;
use crate::release::storage::StorageError;
use crate::seam::Env;

use crate::plan::{build, estimate, Plan, PlanOptions, Target};

use super::contract::Action;
use super::stop::Stop;

/// What `plan` and `lint` act on: the release as it came, from stdin or a
/// stored revision.
pub struct PlanInput(pub Vec<u8>);

/// What `plan` asks for.
#[derive(Debug, Clone)]
pub(crate) struct PlanRequest {
    /// The events asked for, in order; empty: every event and the install.
    pub(crate) targets: Vec<Target>,
    pub(crate) options: PlanOptions,
    /// The `--timeout` a run takes when none is given: `plan` and `lint`
    /// cannot know the run's, so hook timeouts are held against this one.
    pub(crate) default_timeout_ms: Millis,
}

/// A release read and planned, with every problem found.
#[derive(Debug)]
pub struct Planned {
    pub release: Release,
    /// What the input was (`helm template`'s text, a release's JSON, ...).
    pub(crate) format: InputFormat,
    pub plan: Plan,
    pub diags: Diagnostics,
}

impl Planned {
    /// Whether `lint` fails: an error, or with `--strict` (as `helm lint
    /// --strict`) a warning.
    pub(super) fn lint_failed(&self, strict: bool) -> bool {
        self.diags.has_errors() || (strict && !self.diags.0.is_empty())
    }
}

/// `plan`'s outcome: the release planned, each event with its estimate.
#[derive(Debug)]
pub(crate) struct PlanOutcome(pub(crate) Planned);

impl Action<PlanInput> for PlanRequest {
    type Prepared = Planned;
    type Outcome = PlanOutcome;

    /// The release read by its heads and planned; every problem in its
    /// diagnostics.
    fn prepare(&self, input: &mut PlanInput) -> Result<Planned, Stop> {
        Ok(read_and_plan(&input.0, Syntax::HeadOnly, &self.targets, self.options, self.default_timeout_ms)?)
    }

    /// Every problem, advice included: a plan is read by the chart's author.
    fn warnings(planned: &Planned) -> &Diagnostics {
        &planned.diags
    }

    /// Each event's estimated time and hints; a plan with errors stops.
    fn perform(self, _: &mut PlanInput, mut planned: Planned, _: &mut dyn Progress) -> Result<PlanOutcome, Stop> {
        if planned.diags.has_errors() {
            return Err(Stop::invalid("the plan has errors; nothing would run. Fix them and try again."));
        }
        let _span = crate::trace::span(|| "estimate".into());
        let (n, all) = (self.options.parallel, self.options.parallel_all);
        for e in &mut planned.plan.events {
            if let Target::Hooks(event) = e.target {
                e.estimate = estimate::estimate(&planned.release, e, n);
                e.hints.extend(estimate::hint(&planned.release, event, e, n, all));
            }
        }
        Ok(PlanOutcome(planned))
    }
}

pub(super) fn read_and_plan(
    bytes: &[u8],
    syntax: Syntax,
    targets: &[Target],
    options: PlanOptions,
    default_timeout_ms: Millis,
) -> Result<Planned, InputError> {
    let mut diags = Diagnostics::default();
    let span = crate::trace::span(|| format!("read {} bytes", bytes.len()));
    let (format, release) = input::parse_as(bytes, syntax, &mut diags)?;
    drop(span);
    let _span = crate::trace::span(|| "plan".into());
    let plan = build(&release, targets, options, &mut diags);
    diags.extend(hook::timeouts_over(&release.hooks, default_timeout_ms, "--timeout's default"));
    Ok(Planned { release, format, plan, diags })
}

/// An installed release's latest revision, as JSON, from Helm's storage
/// (as `run` reads it): what `plan RELEASE` and `lint RELEASE` plan, with
/// its hooks' `last_run`.
pub(crate) fn read_stored(env: &mut (impl Env + ?Sized), release: &str) -> Result<PlanInput, StorageError> {
    Ok(PlanInput(crate::seam::latest(env, release)?.json()))
}
