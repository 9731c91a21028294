//! What a person wants to know first about an event's hooks, beyond the
//! order: how long a run would take (from the hooks' last runs, which a
//! stored release carries), and which hooks run one at a time only because
//! nobody marked them parallel.
//!
//! Both are advice for `plan`, never errors or warnings: a chart that keeps
//! Helm's serial order is correct.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::model::event::Event;
use crate::model::input::Release;
use crate::plan::build::build;
use crate::plan::event_plan::{self as plan, Estimate, EventPlan, ItemId};
use crate::plan::frontier::Frontier;

/// The estimate for `plan`'s hooks, when every one of them has a last run
/// with both times.
pub(crate) fn estimate(release: &Release, plan: &EventPlan, parallel: usize) -> Option<Estimate> {
    let durations: Vec<u64> = plan.items.iter().map(|it| release.hooks[it.index].last_run_ms).collect::<Option<_>>()?;
    if durations.is_empty() {
        return None;
    }
    Some(Estimate { planned_ms: run_time(plan, &durations, parallel), serial_ms: durations.iter().sum() })
}

/// A run of the plan in which item i takes `durations[i]`: every item
/// starts as soon as its predecessors are done and fewer than `n` run, in
/// Helm order, as the executor admits them.
fn run_time(plan: &EventPlan, durations: &[u64], n: usize) -> u64 {
    let mut frontier = Frontier::new(plan);
    let mut running: BinaryHeap<Reverse<(u64, ItemId)>> = BinaryHeap::new();
    let mut now = 0;
    loop {
        while running.len() < n.max(1) {
            match frontier.pop() {
                Some(i) => running.push(Reverse((now + durations[i.0], i))),
                None => break,
            }
        }
        let Some(Reverse((end, i))) = running.pop() else { break };
        now = end;
        frontier.complete(plan, i);
    }
    now
}

/// Hooks that run one at a time only because they set no
/// `helm.sh/hook-parallel`, in weights they share with other hooks, and
/// how long the longest chain would be if they were parallel. `None` when
/// marking them would change nothing.
///
/// With last runs known, it also says how long the run would take so at
/// `parallel` (8 when that is 1).
pub(crate) fn hint(
    release: &Release,
    event: Event,
    plan: &EventPlan,
    parallel: usize,
    parallel_all: bool,
) -> Option<String> {
    if parallel_all {
        return None;
    }
    let unmarked: Vec<ItemId> = plan
        .ids()
        .zip(&plan.items)
        .filter(|(_, it)| {
            release.hooks[it.index].parallel.is_none() && plan.items.iter().filter(|o| o.level == it.level).count() > 1
        })
        .map(|(i, _)| i)
        .collect();
    if unmarked.len() < 2 {
        return None;
    }
    let mut scratch = crate::model::diagnostic::Diagnostics::default();
    let options = plan::PlanOptions { parallel: usize::MAX, parallel_all: true, parallel_resources: None };
    let all = build(release, &[plan::Target::Hooks(event)], options, &mut scratch);
    let all = all.events.first()?;
    let shorter = all.critical_path.len();
    if scratch.has_errors() || shorter >= plan.critical_path.len() {
        return None;
    }
    let n = if parallel > 1 { parallel } else { 8 };
    let faster = all
        .items
        .iter()
        .map(|it| release.hooks[it.index].last_run_ms)
        .collect::<Option<Vec<u64>>>()
        .map(|d| {
            format!(
                ", and at --parallel {n} the run would take about {}",
                crate::base::time::format_duration(run_time(all, &d, n))
            )
        })
        .unwrap_or_default();
    let names: Vec<String> = unmarked.iter().map(|&i| plan.items[i].reference.to_string()).collect();
    let shown = if names.len() > 4 {
        format!("{}, … ({} more)", names[..3].join(", "), names.len() - 3)
    } else {
        names.join(", ")
    };
    let hooks = |n: usize| if n == 1 { "1 hook".to_string() } else { format!("{n} hooks") };
    let (run, they) = if names.len() == 1 { ("runs", "it does") } else { ("run", "they do") };
    Some(format!(
        "{} {run} one at a time only because {they} not set helm.sh/hook-parallel ({shown}); marked \"true\" (or with --parallel-all), the longest chain would be {} instead of {}{faster}",
        hooks(names.len()),
        hooks(shorter),
        plan.critical_path.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diagnostic::Diagnostics;

    fn hook(name: &str, weight: i64, parallel: Option<bool>) -> String {
        let p = parallel.map(|p| format!("\n    helm.sh/hook-parallel: \"{p}\"")).unwrap_or_default();
        format!("---\n# Source: c/templates/{name}.yaml\nkind: Job\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-weight: \"{weight}\"{p}\n")
    }

    fn plan_of(stream: &str, parallel: usize) -> (Release, plan::Plan) {
        let mut d = Diagnostics::default();
        let (_, mut r) = crate::model::input::parse(stream.as_bytes(), &mut d).unwrap();
        for (i, h) in r.hooks.iter_mut().enumerate() {
            h.last_run_ms = Some(1000 * (i as u64 + 1));
        }
        let options = plan::PlanOptions { parallel, ..Default::default() };
        let p = build(&r, &[], options, &mut d);
        (r, p)
    }

    #[test]
    fn estimates_from_last_runs() {
        // a (1 s) alone at weight 0; b (2 s), c (3 s) parallel at weight 1.
        let stream = [hook("a", 0, None), hook("b", 1, Some(true)), hook("c", 1, Some(true))].concat();
        let (r, p) = plan_of(&stream, 2);
        assert_eq!(estimate(&r, &p.events[0], 2), Some(Estimate { planned_ms: 4000, serial_ms: 6000 }));
        let (r, p) = plan_of(&stream, 1);
        assert_eq!(estimate(&r, &p.events[0], 1), Some(Estimate { planned_ms: 6000, serial_ms: 6000 }));
    }

    #[test]
    fn hints_at_hooks_serial_only_by_default() {
        let stream = [hook("a", 0, None), hook("b", 0, None), hook("c", 0, None), hook("d", 1, None)].concat();
        let (r, p) = plan_of(&stream, 8);
        let h = hint(&r, Event::Test, &p.events[0], 8, false).expect("a hint");
        assert!(
            h.contains("3 hooks") && h.contains("Job/a, Job/b, Job/c") && h.contains("2 hooks instead of 4"),
            "{h}"
        );
        // a, b, c together (3 s), then d (4 s).
        assert!(h.ends_with("at --parallel 8 the run would take about 7s"), "{h}");
        assert_eq!(hint(&r, Event::Test, &p.events[0], 8, true), None);
        // Marked serial on purpose, or alone in their weight: nothing to say.
        let stream = [hook("a", 0, Some(false)), hook("b", 0, Some(false)), hook("c", 1, None)].concat();
        let (r, p) = plan_of(&stream, 8);
        assert_eq!(hint(&r, Event::Test, &p.events[0], 8, false), None);
    }
}
