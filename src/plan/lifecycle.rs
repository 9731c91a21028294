//! When a release's objects exist, along the life Helm gives them: on
//! install, the pre-install hooks (weight by weight), then the resources
//! (batch by batch), then the post-install hooks; on uninstall, the
//! pre-delete hooks, the resources deleted, the post-delete hooks. The
//! order check (`plan::order_check`) asks of each object a workload needs
//! whether it is there at the moment the workload starts, and [`Gap`] is
//! why it is not.
//!
//! Strict where the answer is certain: a first install starts from nothing,
//! so a pre-install hook can use only earlier pre-install hooks, and a
//! resource only pre-install hooks and resources of its batch or an earlier
//! one. Upgrades, rollbacks, tests and deletes find what earlier revisions
//! left (a resource of the last revision, a hook Helm did not delete), so
//! they are judged only by what is certain for them too: the order inside
//! one event, a `hook-succeeded` hook deleted at the end of its event, and
//! the resources `helm uninstall` deletes before the post-delete hooks.

use std::cmp::Ordering;
use std::collections::HashSet;

use petgraph::Direction;

use crate::model::event::Event;
use crate::model::hook::{DeletePolicy, Hook};
use crate::plan::batch::{describe, Batch};
use crate::plan::event_plan::{EventPlan, ItemId, Node};

/// When a workload starts, and so needs what its pods name.
#[derive(Debug, Clone, Copy)]
pub(super) enum Moment<'p> {
    /// A hook of `event`: `item` in that event's plan.
    Hook { event: Event, plan: &'p EventPlan, item: ItemId, weight: i64 },
    /// A resource applied in install batch `batch` (0-based).
    Apply { batch: usize },
}

/// What the workload names: one of the release's hooks (with its item in
/// the plan of the moment's event, when it is a hook of that event too), or
/// a resource with its install batch (0-based) and whether uninstall keeps
/// it (`helm.sh/resource-policy: keep`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Needed<'r> {
    Hook { hook: &'r Hook, same_event: Option<ItemId> },
    Resource { batch: usize, kept: bool },
}

/// Why an object is not there when a workload starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum Gap {
    #[error("a {event} hook of weight {weight}, which Helm creates after this weight-{own} hook")]
    LaterWeight { event: Event, weight: i64, own: i64 },
    #[error("a {event} hook of the same weight that Helm creates after this one (serial hooks go one at a time by name; helm.sh/depends-on orders others)")]
    LaterInOrder { event: Event },
    #[error("a resource, which Helm applies only after every pre-install hook has completed, so on a first install it does not exist when this pre-install hook starts")]
    ResourceAfterPreInstall,
    #[error("a resource of batch {batch} ({why}), which is applied only once batch {own} ({own_why}), this resource's, is ready")]
    LaterBatch { batch: usize, why: String, chart: String, own: usize, own_why: String, own_chart: String },
    #[error("a {} hook, which Helm creates only after every resource is ready", events_of(.events))]
    HookAfterResources { events: Vec<Event> },
    #[error("a hook of {} only, which a first install does not create before {before}", events_of(.events))]
    HookNotCreated { events: Vec<Event>, before: &'static str },
    #[error("a {} hook with the hook-succeeded delete policy, which Helm deletes once the {} hooks have succeeded, before {before}", events_of(.events), events_of(.events))]
    DeletedOnSuccess { events: Vec<Event>, before: &'static str },
    #[error("a resource, which helm uninstall deletes before it runs the post-delete hooks")]
    DeletedByUninstall,
}

/// `pre-install,pre-upgrade`, as `helm.sh/hook` lists them.
fn events_of(events: &[Event]) -> String {
    events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(",")
}

/// Whether `needed` exists at `moment`, and why not when it does not;
/// `batches` are the install plan's, to name them, and `search` bounds the
/// graph searched for it over all calls.
pub(super) fn gap(moment: Moment, needed: Needed, batches: &[Batch], search: &mut Search) -> Option<Gap> {
    match needed {
        Needed::Resource { batch, kept } => resource_gap(moment, batch, kept, batches),
        Needed::Hook { hook, same_event } => hook_gap(moment, hook, same_event, search),
    }
}

/// How many graph nodes the searches between parallel hooks of one weight
/// may visit in all: each is bounded by its weight's hooks, and a hostile
/// release of 100,000 parallel hooks naming each other must not make
/// `lint` quadratic. Past it, such pairs are taken as unordered (no
/// warning): silence, never a false alarm.
pub(super) struct Search {
    left: usize,
}

impl Default for Search {
    fn default() -> Self {
        Search { left: 2_000_000 }
    }
}

/// Does hook `to` start only after hook `from` (of one weight of `plan`)
/// has completed? Items are in Helm's order, and with no cycle (a cycle is
/// the plan's error) a serial hook waits for every hook before it and every
/// later hook waits for it: then the order alone answers. Two parallel
/// hooks are ordered only through the graph (a serial hook between them,
/// kind order, `helm.sh/depends-on`), searched within their weight.
fn starts_after(plan: &EventPlan, from: ItemId, to: ItemId, search: &mut Search) -> bool {
    let (a, b) = (&plan.items[from], &plan.items[to]);
    if !a.parallel || !b.parallel {
        return to > from;
    }
    let mut seen = HashSet::new();
    let mut stack = vec![a.node];
    while let Some(n) = stack.pop() {
        if n == b.node {
            return true;
        }
        if search.left == 0 {
            return false;
        }
        search.left -= 1;
        for next in plan.graph.neighbors_directed(n, Direction::Outgoing) {
            // A weight barrier leads only to higher weights.
            if !matches!(plan.graph[next], Node::Barrier(_)) && seen.insert(next) {
                stack.push(next);
            }
        }
    }
    false
}

fn resource_gap(moment: Moment, batch: usize, kept: bool, batches: &[Batch]) -> Option<Gap> {
    match moment {
        Moment::Hook { event: Event::PreInstall, .. } => Some(Gap::ResourceAfterPreInstall),
        Moment::Hook { event: Event::PostDelete, .. } if !kept => Some(Gap::DeletedByUninstall),
        // Upgrades and rollbacks find the last revision's resources, and
        // every other hook runs once they are applied.
        Moment::Hook { .. } => None,
        Moment::Apply { batch: own } if batch > own => Some(Gap::LaterBatch {
            batch: batch + 1,
            why: describe(batches, batch),
            chart: batches[batch].chart.clone(),
            own: own + 1,
            own_why: describe(batches, own),
            own_chart: batches[own].chart.clone(),
        }),
        Moment::Apply { .. } => None,
    }
}

fn hook_gap(moment: Moment, hook: &Hook, same_event: Option<ItemId>, search: &mut Search) -> Option<Gap> {
    let events = sorted(&hook.events);
    if let Moment::Hook { event, plan, item, weight } = moment {
        if let Some(needed) = same_event {
            // Same event: the plan says which starts first. Every hook of
            // a lower weight completes before a higher weight starts (so
            // only one weight needs the graph searched); within one,
            // Helm's serial order or a depends-on may put the needed hook
            // after. Parallel hooks that nothing orders start together,
            // and a pod waits for a ConfigMap that appears a moment later.
            return match hook.weight.cmp(&weight) {
                Ordering::Greater => Some(Gap::LaterWeight { event, weight: hook.weight, own: weight }),
                Ordering::Less => None,
                Ordering::Equal => starts_after(plan, item, needed, search).then_some(Gap::LaterInOrder { event }),
            };
        }
    }
    // Another event (or the resources' turn): a first install creates it
    // before only if it is a pre-install hook and this is install's.
    let before = match moment {
        Moment::Apply { .. } => "this resource is applied",
        Moment::Hook { event: Event::PreInstall, .. } => "this pre-install hook",
        Moment::Hook { event: Event::PostInstall, .. } => "this post-install hook",
        Moment::Hook { .. } => "this hook",
    };
    let install_needs_it = matches!(moment, Moment::Apply { .. } | Moment::Hook { event: Event::PostInstall, .. });
    let pre_install = events.contains(&Event::PreInstall);
    match moment {
        Moment::Hook { event: Event::PreInstall, .. } => {
            return Some(Gap::HookNotCreated { events, before });
        }
        _ if install_needs_it && !pre_install => {
            let after_resources = events.iter().any(|e| matches!(e, Event::PostInstall));
            return Some(match moment {
                Moment::Apply { .. } if after_resources => Gap::HookAfterResources { events },
                _ => Gap::HookNotCreated { events, before },
            });
        }
        _ => {}
    }
    // Created before; still there unless Helm deleted it when its own
    // event's hooks succeeded (at the end of the event, not when the hook
    // finishes: `Executor`'s clean-up, as Helm's).
    hook.has_delete_policy(&DeletePolicy::HookSucceeded).then_some(Gap::DeletedOnSuccess { events, before })
}

fn sorted(events: &[Event]) -> Vec<Event> {
    let mut e = events.to_vec();
    crate::base::order::by(&mut e, |a, b| a.cmp(b));
    e
}
