//! `helm hooks plan` and `helm hooks lint`: the input read, the action
//! (`action::plan`, `action::lint`) prepared and performed, its outcome
//! rendered.

use super::io::{fail, read_input, Io};
use super::spec::DEFAULT_TIMEOUT;
use super::typed::PlanArgs;
use crate::action::plan::{PlanRequest, Planned};
use crate::action::{lint, plan, Exit};
use crate::render;

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
    let planned = match planned {
        Ok(p) => p,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    let _span = crate::trace::span(|| "report".into());
    let Planned { release, format, plan, diags } = &planned;
    if lint {
        let _ = io.stdout.write_all(render::lint(args.output, release, diags, args.strict).as_bytes());
        return if planned.lint_failed(args.strict) { Exit::Invalid } else { Exit::Ok };
    }
    let _ = io.stderr.write_all(render::text::diagnostics(diags, false).as_bytes());
    if diags.has_errors() {
        return fail(io, &"the plan has errors; nothing would run. Fix them and try again.", Exit::Invalid);
    }
    let _ = io.stdout.write_all(render::plan(args.output, release, *format, plan, diags).as_bytes());
    Exit::Ok
}
