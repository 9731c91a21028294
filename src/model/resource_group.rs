//! HIP-0025 resource groups of one chart level: which groups deploy in
//! which batch, and which resources fall to the unsequenced batch.
//!
//! Semantics follow the reference implementation (research/helm_spec.md §B):
//! invalid JSON demotes one manifest; a group depending on a missing group
//! is demoted whole, transitively; with two or more groups left, isolated
//! ones are demoted; one resource in two groups, cycles and self-loops are
//! fatal.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::base::dag::{self, DagError};
use crate::base::hash::WordMap;
use crate::model::annotation::RESOURCE_GROUP;
use crate::model::diagnostic::{Diagnostic, Diagnostics};
use crate::model::object::ObjectKey;
use crate::model::resource::Resource;

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupBatches {
    /// Batches of group names; each group's members in input order.
    pub(crate) batches: Vec<Vec<(String, Vec<usize>)>>,
    /// Resources deployed last, in HIP-0025's order.
    pub(crate) unsequenced: Vec<usize>,
}

/// The groups of one chart level by dense id: every lookup after the first
/// pass is an index, not a comparison of names. Under Helm's Wasm runtime
/// each byte a name comparison loops over costs an exit to Go, and ordered
/// maps of names made a chain of 10,000 groups take over a second there.
struct Groups<'r> {
    ids: WordMap<&'r str, usize>,
    names: Vec<&'r str>,
    /// Each group's members, in input order.
    members: Vec<Vec<usize>>,
    /// Each group's dependencies by name, sorted, without repeats.
    deps: Vec<Vec<&'r str>>,
}

impl Groups<'_> {
    /// One sort for every list of groups: each closure passed to a sort is
    /// a copy of the sort in plugin.wasm (about 14 KB).
    fn sort_by_name(&self, ids: &mut [usize]) {
        let order = crate::base::order::sorted(ids.len(), &|a, b| self.names[ids[a]].cmp(self.names[ids[b]]));
        let sorted: Vec<usize> = order.into_iter().map(|i| ids[i]).collect();
        ids.copy_from_slice(&sorted);
    }
}

/// Plans the resources `members` (indices into `resources`, in input order)
/// of the chart at `chart_path`. Fatal problems are pushed as errors.
pub(crate) fn plan(
    chart_path: &str,
    resources: &[Resource],
    members: &[usize],
    diags: &mut Diagnostics,
) -> GroupBatches {
    let (g, ungrouped) = gather(resources, members, diags);
    let n = g.names.len();
    let resolved: Vec<Vec<Option<usize>>> =
        g.deps.iter().map(|ds| ds.iter().map(|d| g.ids.get(d).copied()).collect()).collect();
    let mut demoted = vec![false; n];
    let missing_demoted = demote_missing(chart_path, resources, &g, &resolved, &mut demoted, diags);
    // Isolated groups, when at least two remain.
    let isolated = match n - missing_demoted.len() >= 2 {
        true => demote_isolated(resources, &g, &resolved, &mut demoted, diags),
        false => Vec::new(),
    };
    let mut unsequenced = ungrouped;
    for &id in missing_demoted.iter().chain(&isolated) {
        unsequenced.extend(&g.members[id]);
    }
    match batches(chart_path, resources, &g, &demoted, diags) {
        Some(batches) => GroupBatches { batches, unsequenced },
        // Keep every resource in the plan so that its other problems are
        // still found and listed.
        None => GroupBatches { batches: Vec::new(), unsequenced: members.to_vec() },
    }
}

/// The groups of `members`, and the members in no group (or with invalid
/// dependencies, which demote them); a resource in two groups is an error.
fn gather<'r>(resources: &'r [Resource], members: &[usize], diags: &mut Diagnostics) -> (Groups<'r>, Vec<usize>) {
    let mut g = Groups { ids: WordMap::default(), names: Vec::new(), members: Vec::new(), deps: Vec::new() };
    let mut identity_group: WordMap<ObjectKey, &str> = WordMap::default();
    let mut ungrouped = Vec::new();
    for &i in members {
        let r = &resources[i];
        let Some(group) = &r.group else {
            ungrouped.push(i);
            continue;
        };
        let ds = match &r.group_depends_on {
            Err(text) => {
                diags.push(
                    Diagnostic::warning(
                        r.location(),
                        format!("invalid JSON {text:?}; this resource moves to the unsequenced batch"),
                    )
                    .on(r.group_depends_on_key)
                    .help("write a JSON array of group names, e.g. '[\"databases\"]'"),
                );
                ungrouped.push(i);
                continue;
            }
            Ok(ds) => ds,
        };
        let id = *g.ids.entry(group.as_str()).or_insert_with(|| {
            g.names.push(group.as_str());
            g.members.push(Vec::new());
            g.deps.push(Vec::new());
            g.names.len() - 1
        });
        g.deps[id].extend(ds.iter().map(String::as_str));
        // One lookup: under Helm's Wasm runtime each hash of a key is dear.
        match identity_group.entry(r.head.key()) {
            Entry::Occupied(other) if *other.get() != group => diags.push(
                Diagnostic::error(
                    r.location(),
                    format!(
                        "resource {} is assigned to multiple resource groups: {:?} and {group:?}",
                        r.group_identity(),
                        other.get()
                    ),
                )
                .on(RESOURCE_GROUP)
                .help("give each resource one helm.sh/resource-group"),
            ),
            Entry::Occupied(_) => {}
            Entry::Vacant(slot) => {
                slot.insert(group);
            }
        }
        g.members[id].push(i);
    }
    for ds in &mut g.deps {
        crate::base::order::by(ds, |a, b| a.cmp(b));
        ds.dedup();
    }
    (g, ungrouped)
}

/// Demotes the groups that depend on a missing or demoted group, each with
/// its message; returns them in the order they were demoted.
fn demote_missing(
    chart_path: &str,
    resources: &[Resource],
    g: &Groups,
    resolved: &[Vec<Option<usize>>],
    demoted: &mut [bool],
    diags: &mut Diagnostics,
) -> Vec<usize> {
    let n = g.names.len();
    // Demote groups with missing dependencies, and then the groups that
    // depend on those, transitively: one pass over the dependency edges,
    // breadth first from the groups that name a missing one (in name
    // order). Repeating a scan of every group until nothing changed took
    // 19 s for a chain of 10,000 groups; sorting every group by name, to
    // report them in the order that fixed point found them, made a chain
    // grow faster than its length.
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (id, ds) in resolved.iter().enumerate() {
        for &d in ds.iter().flatten() {
            dependents[d].push(id);
        }
    }
    let mut first: Vec<usize> = (0..n).filter(|&id| resolved[id].iter().any(Option::is_none)).collect();
    g.sort_by_name(&mut first);
    let mut queued: VecDeque<usize> = first.into();
    let mut missing_demoted = Vec::new();
    while let Some(id) = queued.pop_front() {
        if demoted[id] {
            continue;
        }
        // Its first dependency, by name, that is not a group or is demoted.
        let Some(missing) = resolved[id].iter().position(|d| d.is_none_or(|d| demoted[d])) else { continue };
        let (name, missing) = (g.names[id], g.deps[id][missing]);
        diags.push(
            Diagnostic::warning(
                resources[g.members[id][0]].location(),
                format!("group {name:?} depends-on non-existent group {missing:?}; moving group to unsequenced batch"),
            )
            .on(resources[g.members[id][0]].group_depends_on_key)
            .help(format!(
                "add a resource with helm.sh/resource-group: {missing} to {chart_path}, or drop the dependency"
            )),
        );
        demoted[id] = true;
        missing_demoted.push(id);
        for &d in &dependents[id] {
            if !demoted[d] {
                queued.push_back(d);
            }
        }
    }

    missing_demoted
}

/// Demotes the groups left that neither depend nor are depended on, each
/// with its warning; returns them by name.
fn demote_isolated(
    resources: &[Resource],
    g: &Groups,
    resolved: &[Vec<Option<usize>>],
    demoted: &mut [bool],
    diags: &mut Diagnostics,
) -> Vec<usize> {
    let n = g.names.len();
    let mut depended = vec![false; n];
    for id in (0..n).filter(|&id| !demoted[id]) {
        for &d in resolved[id].iter().flatten() {
            depended[d] = true;
        }
    }
    let mut isolated: Vec<usize> =
        (0..n).filter(|&id| !demoted[id] && resolved[id].is_empty() && !depended[id]).collect();
    g.sort_by_name(&mut isolated);
    for &id in &isolated {
        let name = g.names[id];
        diags.push(
            Diagnostic::warning(
                resources[g.members[id][0]].location(),
                format!("group {name:?} is isolated (no dependencies, no dependents); it is deployed with the unsequenced batch"),
            )
            .on(RESOURCE_GROUP)
            .advice(),
        );
        demoted[id] = true;
    }
    isolated
}

/// One batch of groups: each group's name and members.
type GroupBatch = Vec<(String, Vec<usize>)>;

/// The groups not demoted, in batches of dependency order, each with its
/// members; `None` after the error of a cycle or a self-loop.
fn batches(
    chart_path: &str,
    resources: &[Resource],
    g: &Groups,
    demoted: &[bool],
    diags: &mut Diagnostics,
) -> Option<Vec<GroupBatch>> {
    let n = g.names.len();
    // Inserted one by one: collect() would sort first, a sort of its own in plugin.wasm.
    let (mut deps, mut nodes) = (BTreeMap::<String, BTreeSet<String>>::new(), BTreeSet::new());
    for id in (0..n).filter(|&id| !demoted[id]) {
        let mut set = BTreeSet::new();
        for d in &g.deps[id] {
            set.insert(d.to_string());
        }
        deps.insert(g.names[id].to_string(), set);
        nodes.insert(g.names[id].to_string());
    }
    let groups = |name: &str| &g.members[g.ids[name]];
    let batches = match dag::batches(&nodes, &deps) {
        Ok(b) => b,
        Err(e) => {
            let (group, help) = match &e {
                DagError::SelfLoop(g) => (g, "a group cannot depend on itself"),
                DagError::Cycle(m) => (&m[0], "remove one of the dependencies on the cycle"),
            };
            // Point at a member that declares the dependency, not just any member.
            let in_group = groups(group);
            let declaring = in_group
                .iter()
                .find(|&&i| resources[i].group_depends_on.as_ref().is_ok_and(|d| !d.is_empty()))
                .unwrap_or(&in_group[0]);
            diags.push(
                Diagnostic::error(
                    resources[*declaring].location(),
                    format!("resource-group circular dependency detected in {chart_path}: {e}"),
                )
                .on(resources[*declaring].group_depends_on_key)
                .help(help),
            );
            return None;
        }
    };
    Some(
        batches
            .into_iter()
            .map(|b| {
                b.into_iter()
                    .map(|name| {
                        let m = groups(&name).clone();
                        (name, m)
                    })
                    .collect()
            })
            .collect(),
    )
}
