//! `helm hooks plan` and `helm hooks lint`: the input read, the action
//! (`action::plan`, `action::lint`) prepared and performed, its outcome
//! rendered.

use super::io::{fail, problems, read_input, show, Io};
use super::spec::DEFAULT_TIMEOUT;
use super::typed::PlanArgs;
use crate::action::plan::PlanRequest;
use crate::action::{lint, plan, Exit};
use crate::render::{LintShown, PlanShown};

/// `plan` and `lint`: read the input, call the action, print the plan or
/// the problems.
pub(super) fn plan_or_lint(args: &PlanArgs, io: &mut Io, lint: bool) -> Exit {
    let command = if lint { "lint" } else { "plan" };
    let bytes = match read_input(args.source.as_deref(), io, command) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let request = PlanRequest {
        targets: &args.targets,
        options: args.options,
        default_timeout_ms: DEFAULT_TIMEOUT.as_millis() as crate::base::time::Millis,
    };
    let planned = if lint {
        lint::prepare(&bytes, request).map(lint::perform)
    } else {
        plan::prepare(&bytes, request).map(|p| plan::perform(p, request))
    };
    // The process ends after the report: freeing a release of 20,000
    // objects piece by piece took 7 % of `plan`'s time through Helm
    // (docs/benchmarks.md), for memory the runtime drops whole.
    let planned = match planned {
        Ok(p) => std::mem::ManuallyDrop::new(p),
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    let _span = crate::trace::span(|| "report".into());
    if lint {
        if let Err(code) = show(io, &LintShown { planned: &planned, strict: args.strict }, args.output) {
            return code;
        }
        return if planned.lint_failed(args.strict) { Exit::Invalid } else { Exit::Ok };
    }
    problems(io, &planned.diags);
    if planned.diags.has_errors() {
        return fail(io, &"the plan has errors; nothing would run. Fix them and try again.", Exit::Invalid);
    }
    match show(io, &PlanShown(&planned), args.output) {
        Ok(()) => Exit::Ok,
        Err(code) => code,
    }
}
