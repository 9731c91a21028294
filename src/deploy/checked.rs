//! A release checked before anything touches the cluster: parsed, its
//! hooks and resources planned for the events an operation runs
//! (docs/design.md §3, validate then act).

use serde_json::Value;

use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::{self, Release};
use crate::model::manifest::Syntax;
use crate::plan::{self, EventPlan, Plan, Target};

use super::options::DeployOptions;

/// The parsed and checked release with its plans: everything is validated
/// before anything touches the cluster.
pub struct Checked {
    pub(crate) value: Value,
    pub(crate) release: Release,
    pub(super) plan: Plan,
}

/// Parses a release JSON and plans `events` and the resources. `Err`
/// carries the diagnostics (exit 2).
pub fn check(value: Value, events: &[Event], options: &DeployOptions) -> Result<(Checked, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    // Each resource's JSON kept: read once, checked here, applied later.
    let release = match input::from_release_value_as(&value, Syntax::Kept, &mut diags) {
        Ok(r) => r,
        Err(e) => {
            diags.push(crate::model::diagnostic::Diagnostic::error(Default::default(), e.to_string()));
            return Err(diags);
        }
    };
    let mut phases: Vec<Target> = events.iter().map(|&e| Target::Hooks(e)).collect();
    phases.push(Target::Install);
    let plan = plan::build(
        &release,
        &phases,
        plan::PlanOptions {
            parallel: options.parallel,
            parallel_all: options.parallel_all,
            parallel_resources: options.parallel_resources,
        },
        &mut diags,
    );
    if diags.has_errors() {
        return Err(diags);
    }
    let planned = plan.events.iter().filter(|e| matches!(e.target, Target::Hooks(_)));
    let hooks = planned.flat_map(|e| e.items.iter().map(|i| &release.hooks[i.index]));
    let mut seen = std::collections::BTreeSet::new();
    let hooks = hooks.filter(|h| seen.insert((h.source.as_str(), h.document)));
    diags.extend(crate::model::hook::timeouts_over(hooks, options.timeout_ms, "--timeout"));
    Ok((Checked { value, release, plan }, diags))
}

pub(super) fn event_plan(plan: &Plan, phase: Target) -> &EventPlan {
    plan.events.iter().find(|e| e.target == phase).expect("every requested phase is planned")
}
