//! HIP-0025 resource groups of one chart level: which groups deploy in
//! which batch, and which resources fall to the unsequenced batch.
//!
//! Semantics follow the reference implementation (research/helm_spec.md §B):
//! invalid JSON demotes one manifest; a group depending on a missing group
//! is demoted whole, transitively; with two or more groups left, isolated
//! ones are demoted; one resource in two groups, cycles and self-loops are
//! fatal.

use std::collections::{BTreeMap, BTreeSet};

use crate::base::dag::{self, DagError};
use crate::model::annotation::{DEPENDS_ON_RESOURCE_GROUPS, RESOURCE_GROUP};
use crate::model::diagnostic::{Diagnostic, Diagnostics};
use crate::model::resource::Resource;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct GroupBatches {
    /// Batches of group names; each group's members in input order.
    pub batches: Vec<Vec<(String, Vec<usize>)>>,
    /// Resources deployed last, in HIP-0025's order.
    pub unsequenced: Vec<usize>,
}

/// Plans the resources `members` (indices into `resources`, in input order)
/// of the chart at `chart_path`. Fatal problems are pushed as errors.
pub fn plan(chart_path: &str, resources: &[Resource], members: &[usize], diags: &mut Diagnostics) -> GroupBatches {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut identity_group: BTreeMap<String, &str> = BTreeMap::new();
    let mut ungrouped = Vec::new();
    for &i in members {
        let r = &resources[i];
        let Some(group) = &r.group else {
            ungrouped.push(i);
            continue;
        };
        match &r.group_depends_on {
            Err(text) => {
                diags.push(
                    Diagnostic::lint_error(
                        r.location(),
                        format!("invalid JSON {text:?}; this resource moves to the unsequenced batch"),
                    )
                    .on(DEPENDS_ON_RESOURCE_GROUPS)
                    .help("write a JSON array of group names, e.g. '[\"databases\"]'"),
                );
                ungrouped.push(i);
                continue;
            }
            Ok(ds) => deps.entry(group.clone()).or_default().extend(ds.iter().cloned()),
        }
        let id = r.group_identity();
        match identity_group.get(&id) {
            Some(other) if *other != group => diags.push(
                Diagnostic::error(
                    r.location(),
                    format!("resource {id} is assigned to multiple resource groups: {other:?} and {group:?}"),
                )
                .on(RESOURCE_GROUP)
                .help("give each resource one helm.sh/resource-group"),
            ),
            _ => {
                identity_group.insert(id, group);
            }
        }
        groups.entry(group.clone()).or_default().push(i);
    }

    // Demote groups with missing dependencies, and then the groups that
    // depend on those, transitively. One pass over the dependency edges:
    // repeating a scan of every group until nothing changed took 19 s for a
    // chain of 10,000 groups. The demotable group with the least name goes
    // first, the order that fixed point reported them in.
    let mut dependents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (g, ds) in &deps {
        for d in ds {
            dependents.entry(d.as_str()).or_default().push(g.as_str());
        }
    }
    let mut demoted: BTreeSet<&str> = BTreeSet::new();
    let mut queued: BTreeSet<&str> =
        deps.iter().filter(|(_, ds)| ds.iter().any(|d| !deps.contains_key(d))).map(|(g, _)| g.as_str()).collect();
    let mut missing_demoted = Vec::new();
    while let Some(g) = queued.pop_first() {
        // Its first dependency, by name, that is not a group or is demoted.
        let missing = deps[g].iter().find(|d| !deps.contains_key(*d) || demoted.contains(d.as_str()));
        let Some(missing) = missing else { continue };
        let first = groups[g][0];
        diags.push(
            Diagnostic::lint_error(
                resources[first].location(),
                format!("group {g:?} depends-on non-existent group {missing:?}; moving group to unsequenced batch"),
            )
            .on(DEPENDS_ON_RESOURCE_GROUPS)
            .help(format!(
                "add a resource with helm.sh/resource-group: {missing} to {chart_path}, or drop the dependency"
            )),
        );
        demoted.insert(g);
        missing_demoted.push(g.to_string());
        for &d in dependents.get(g).into_iter().flatten() {
            if !demoted.contains(d) {
                queued.insert(d);
            }
        }
    }
    for g in &missing_demoted {
        deps.remove(g);
    }

    // Isolated groups, when at least two remain.
    let mut isolated = Vec::new();
    if deps.len() >= 2 {
        let depended: BTreeSet<&String> = deps.values().flatten().collect();
        isolated =
            deps.iter().filter(|(g, ds)| ds.is_empty() && !depended.contains(g)).map(|(g, _)| g.clone()).collect();
        for g in &isolated {
            diags.push(
                Diagnostic::warning(
                    resources[groups[g][0]].location(),
                    format!("group {g:?} is isolated (no dependencies, no dependents); it is deployed with the unsequenced batch"),
                )
                .on(RESOURCE_GROUP)
                .advice(),
            );
            deps.remove(g);
        }
    }

    let nodes: BTreeSet<String> = deps.keys().cloned().collect();
    let batches = match dag::batches(&nodes, &deps) {
        Ok(b) => b,
        Err(e) => {
            let (group, help) = match &e {
                DagError::SelfLoop(g) => (g, "a group cannot depend on itself"),
                DagError::Cycle(m) => (&m[0], "remove one of the dependencies on the cycle"),
            };
            // Point at a member that declares the dependency, not just any member.
            let in_group = &groups[group];
            let declaring = in_group
                .iter()
                .find(|&&i| resources[i].group_depends_on.as_ref().is_ok_and(|d| !d.is_empty()))
                .unwrap_or(&in_group[0]);
            diags.push(
                Diagnostic::error(
                    resources[*declaring].location(),
                    format!("resource-group circular dependency detected in {chart_path}: {e}"),
                )
                .on(DEPENDS_ON_RESOURCE_GROUPS)
                .help(help),
            );
            // Keep every resource in the plan so that its other problems
            // are still found and listed.
            return GroupBatches { batches: Vec::new(), unsequenced: members.to_vec() };
        }
    };
    let mut unsequenced = ungrouped;
    for g in missing_demoted.iter().chain(&isolated) {
        unsequenced.extend(&groups[g]);
    }
    GroupBatches {
        batches: batches
            .into_iter()
            .map(|b| {
                b.into_iter()
                    .map(|g| {
                        let m = groups[&g].clone();
                        (g, m)
                    })
                    .collect()
            })
            .collect(),
        unsequenced,
    }
}
