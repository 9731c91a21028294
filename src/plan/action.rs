//! `helm hooks plan` and `helm hooks lint` as actions, as Helm's
//! `pkg/action/lint.go` is one: the rendered release read, planned and
//! checked, with no I/O. The CLI reads the bytes (stdin or a stored
//! release) and hands what comes back to the renderer (docs/design.md §6).

use crate::base::time::Millis;
use crate::model::diagnostic::Diagnostics;
use crate::model::hook;
use crate::model::input::{self, Format, InputError, Release};
use crate::model::manifest::Syntax;

use super::{build, estimate, order_check, Options, Plan, Target};

/// What `plan` and `lint` ask for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The events asked for, in order; empty: every event and the install.
    pub targets: &'a [Target],
    pub options: Options,
    /// The `--timeout` a run takes when none is given: `plan` and `lint`
    /// cannot know the run's, so hook timeouts are held against this one.
    pub default_timeout_ms: Millis,
}

/// A release read and planned, with every problem found.
#[derive(Debug)]
pub struct Planned {
    pub release: Release,
    /// What the input was (`helm template`'s text, a release's JSON, ...).
    pub format: Format,
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

/// `helm hooks plan`: the release read by its heads, planned, and each
/// event's estimated time and hints when the plan has no error.
pub fn plan(bytes: &[u8], request: Request) -> Result<Planned, InputError> {
    let mut planned = read_and_plan(bytes, Syntax::HeadOnly, request)?;
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
    Ok(planned)
}

/// `helm hooks lint`: every document read whole, every event and the
/// install planned, and the order bugs between them found (where each
/// object is made against where it is used).
pub fn lint(bytes: &[u8], request: Request) -> Result<Planned, InputError> {
    let mut planned = read_and_plan(bytes, Syntax::Whole, request)?;
    planned.diags.0.extend(order_check::check(&planned.release, &planned.plan));
    Ok(planned)
}

fn read_and_plan(bytes: &[u8], syntax: Syntax, request: Request) -> Result<Planned, InputError> {
    let mut diags = Diagnostics::default();
    let span = crate::trace::span(|| format!("read {} bytes", bytes.len()));
    let (format, release) = input::parse_as(bytes, syntax, &mut diags)?;
    drop(span);
    let _span = crate::trace::span(|| "plan".into());
    let plan = build(&release, request.targets, request.options, &mut diags);
    diags.extend(hook::timeouts_over(&release.hooks, request.default_timeout_ms, "--timeout's default"));
    Ok(Planned { release, format, plan, diags })
}
