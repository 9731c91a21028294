//! What every renderer shows of a plan's item, read once from the release:
//! where it comes from and the annotations that change how it runs.

use crate::model::input::Release;
use crate::plan::{EventPlan, ItemId, Target};

/// Facts about an item that every renderer shows, read from the release.
pub(super) struct ItemFacts<'a> {
    pub(super) source: &'a str,
    pub(super) fail_fast: bool,
    pub(super) show_output: bool,
    /// `helm.sh/hook-timeout`.
    pub(super) timeout_ms: Option<crate::base::time::Millis>,
    pub(super) delete_policies: &'a [crate::model::hook::DeletePolicy],
    pub(crate) output_log_policies: &'a [crate::model::hook::OutputLogPolicy],
    pub(super) readiness: Option<&'a crate::ready::Readiness>,
    pub(super) external: &'a [crate::model::external::External],
}

pub(super) fn facts<'a>(release: &'a Release, plan: &EventPlan, i: ItemId) -> ItemFacts<'a> {
    let index = plan.items[i].index;
    match plan.target {
        Target::Hooks(_) => {
            let h = &release.hooks[index];
            ItemFacts {
                source: &h.source,
                fail_fast: h.fail_fast,
                show_output: h.show_output,
                timeout_ms: h.timeout_ms,
                delete_policies: &h.delete_policies,
                output_log_policies: &h.output_log_policies,
                readiness: None,
                external: &[],
            }
        }
        Target::Install => {
            let r = &release.resources[index];
            ItemFacts {
                source: &r.source,
                fail_fast: false,
                show_output: false,
                timeout_ms: None,
                delete_policies: &[],
                output_log_policies: &[],
                readiness: r.readiness.as_ref(),
                external: &r.external,
            }
        }
    }
}

pub(super) fn refs(plan: &EventPlan, items: &[ItemId]) -> Vec<String> {
    items.iter().map(|&i| plan.items[i].reference.to_string()).collect()
}
