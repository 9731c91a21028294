//! `helm hooks plan`: the rendered release read by its heads and planned
//! ([`prepare`]), then each event's estimated time and hints added
//! ([`perform`]) — with no cluster, as Helm's `pkg/action/lint.go` has
//! none. The input is stdin's bytes or a stored release's
//! ([`read_stored`]); `lint` shares the reading ([`read_and_plan`]).

use crate::base::time::Millis;
use crate::model::diagnostic::Diagnostics;
use crate::model::hook;
use crate::model::input::{self, InputError, InputFormat, Release};
use crate::model::manifest::Syntax;
use crate::release::storage::StorageError;
use crate::seam::Env;

use crate::plan::{build, estimate, Plan, PlanOptions, Target};

/// What `plan` and `lint` ask for.
#[derive(Debug, Clone, Copy)]
pub struct PlanRequest<'a> {
    /// The events asked for, in order; empty: every event and the install.
    pub targets: &'a [Target],
    pub options: PlanOptions,
    /// The `--timeout` a run takes when none is given: `plan` and `lint`
    /// cannot know the run's, so hook timeouts are held against this one.
    pub default_timeout_ms: Millis,
}

/// A release read and planned, with every problem found.
#[derive(Debug)]
pub struct Planned {
    pub release: Release,
    /// What the input was (`helm template`'s text, a release's JSON, ...).
    pub format: InputFormat,
    pub plan: Plan,
    pub diags: Diagnostics,
}

impl Planned {
    /// Whether `lint` fails: an error, or with `--strict` (as `helm lint
    /// --strict`) a warning.
    pub fn lint_failed(&self, strict: bool) -> bool {
        self.diags.has_errors() || (strict && !self.diags.0.is_empty())
    }
}

/// The release read by its heads and planned; every problem in its
/// diagnostics.
pub fn prepare(bytes: &[u8], request: PlanRequest) -> Result<Planned, InputError> {
    read_and_plan(bytes, Syntax::HeadOnly, request)
}

/// Each event's estimated time and hints, when the plan has no error.
pub fn perform(mut planned: Planned, request: PlanRequest) -> Planned {
    if !planned.diags.has_errors() {
        let _span = crate::trace::span(|| "estimate".into());
        let (n, all) = (request.options.parallel, request.options.parallel_all);
        for e in &mut planned.plan.events {
            if let Target::Hooks(event) = e.target {
                e.estimate = estimate::estimate(&planned.release, e, n);
                e.hints.extend(estimate::hint(&planned.release, event, e, n, all));
            }
        }
    }
    planned
}

pub(super) fn read_and_plan(bytes: &[u8], syntax: Syntax, request: PlanRequest) -> Result<Planned, InputError> {
    let mut diags = Diagnostics::default();
    let span = crate::trace::span(|| format!("read {} bytes", bytes.len()));
    let (format, release) = input::parse_as(bytes, syntax, &mut diags)?;
    drop(span);
    let _span = crate::trace::span(|| "plan".into());
    let plan = build(&release, request.targets, request.options, &mut diags);
    diags.extend(hook::timeouts_over(&release.hooks, request.default_timeout_ms, "--timeout's default"));
    Ok(Planned { release, format, plan, diags })
}

/// An installed release's latest revision, as JSON, from Helm's storage
/// (as `run` reads it): what `plan RELEASE` and `lint RELEASE` plan, with
/// its hooks' `last_run`.
pub fn read_stored(env: &mut (impl Env + ?Sized), release: &str) -> Result<Vec<u8>, StorageError> {
    Ok(env.latest(release)?.json())
}
