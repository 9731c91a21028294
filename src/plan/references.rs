//! `helm.sh/depends-on` edges, and what a reference that names nothing, two
//! things or a later item is told (docs/annotations.md).

use crate::base::hash::WordMap;

use petgraph::graph::DiGraph;

use super::batch::Batch;
use crate::base::spelling;
use crate::model::annotation::DEPENDS_ON;
use crate::model::diagnostic::{Diagnostic, Diagnostics};
use crate::model::input::Release;
use crate::model::reference::ObjectRef;

use super::batch;
use super::event_plan::*;
use super::spec::{matches_ref, Spec};

/// `helm.sh/depends-on` edges. A reference that names no item, several,
/// the item itself, or one of a higher level is reported and left out.
#[allow(clippy::too_many_arguments)]
pub(super) fn depends_on_edges(
    target: Target,
    specs: &[Spec],
    release: &Release,
    others: &dyn Fn(&ObjectRef) -> Option<String>,
    graph: &mut DiGraph<Node, Reason>,
    items: &mut [Item],
    diags: &mut Diagnostics,
    batches: &[Batch],
) {
    let mut by_name: WordMap<(&str, &str), Vec<usize>> = WordMap::default();
    for (i, s) in specs.iter().enumerate() {
        by_name.entry((&s.reference.kind, &s.reference.name)).or_default().push(i);
    }
    let what = if target == Target::Install { "resource" } else { "hook" };
    let mut budget = MEANT_BUDGET;
    for (i, s) in specs.iter().enumerate() {
        for r in s.depends_on {
            let candidates: Vec<usize> = by_name
                .get(&(r.kind.as_str(), r.name.as_str()))
                .into_iter()
                .flatten()
                .copied()
                .filter(|&j| matches_ref(r, &specs[j].reference, release))
                .collect();
            let fail = |msg: String, help: String| Diagnostic::error(s.location(), msg).on(DEPENDS_ON).help(help);
            let j = match candidates.as_slice() {
                [j] => *j,
                [] => {
                    let why = others(r).unwrap_or_else(|| {
                        let none = format!("no {what} of this release has that kind and name");
                        match meant(r, specs, i, &mut budget) {
                            Some(near) => format!("{none}; did you mean {near}?"),
                            None => none,
                        }
                    });
                    let (subject, help) = not_found(r, target);
                    diags.push(fail(format!("{subject}: {why}"), help));
                    continue;
                }
                many => {
                    let (msg, help) = ambiguous(r, many, specs, what);
                    diags.push(fail(msg, help));
                    continue;
                }
            };
            if j == i {
                diags.push(fail(format!("{r} is this {what} itself"), "remove it from helm.sh/depends-on".into()));
                continue;
            }
            if specs[j].level > s.level {
                let (msg, help) = later(r, target, specs[j].level, s.level, batches);
                diags.push(fail(msg, help));
                continue;
            }
            if !items[i].after.iter().any(|&(p, _)| p == ItemId(j)) {
                graph.add_edge(items[j].node, items[i].node, Reason::DependsOn);
                items[i].after.push((ItemId(j), Reason::DependsOn));
            }
        }
    }
}

/// The message and help of a reference that names no item of the plan.
fn not_found(r: &ObjectRef, target: Target) -> (String, String) {
    match target {
        Target::Install => (
            format!("{r} is not a resource of this release"),
            "name a resource of this release as Kind/name; kinds and names are case-sensitive".to_string(),
        ),
        Target::Hooks(e) => (
            format!("{r} is not a {e} hook"),
            format!("name a {e} hook of this release as Kind/name; kinds and names are case-sensitive"),
        ),
    }
}

/// The message and help of a reference that names several items (`many`).
fn ambiguous(r: &ObjectRef, many: &[usize], specs: &[Spec], what: &str) -> (String, String) {
    let same_namespace = many.iter().all(|&j| specs[j].reference.namespace == specs[many[0]].reference.namespace);
    if same_namespace {
        let sources: Vec<&str> = many.iter().map(|&j| specs[j].source).collect();
        (
            format!(
                "{r} is ambiguous: {} {what}s have that kind, name and namespace ({})",
                many.len(),
                sources.join(", ")
            ),
            "give each object a unique name; Kubernetes keeps only one object per name".to_string(),
        )
    } else {
        (format!("{r} is ambiguous: {what}s in several namespaces match"), "write Kind/namespace/name".to_string())
    }
}

/// The message and help of a reference to an item of a later level
/// (`theirs`) than the referrer's (`own`). Weights order hooks; batches
/// (resource groups, subcharts, CRDs and Namespaces first) order resources,
/// and no weight moves a resource to another batch.
fn later(r: &ObjectRef, target: Target, theirs: i64, own: i64, batches: &[Batch]) -> (String, String) {
    match target {
        Target::Install => {
            let describe = |level: i64| {
                let b = level as usize;
                match batches.get(b) {
                    Some(_) => format!("batch {} ({})", b + 1, batch::describe(batches, b)),
                    None => format!("batch {}", b + 1),
                }
            };
            (
                format!(
                    "{r} is deployed in a later batch, {}, than this resource's {}, so this resource would wait forever",
                    describe(theirs),
                    describe(own)
                ),
                "put both in one helm.sh/resource-group, or give this resource a group that lists the dependency's in helm.sh/depends-on-resource-groups (subcharts: order them the other way), or drop the dependency".to_string(),
            )
        }
        Target::Hooks(_) => (
            format!("{r} has a higher weight ({theirs} > {own}), so this hook would wait forever"),
            "lower the weight of the dependency, or drop the dependency".to_string(),
        ),
    }
}

/// How many items one plan's search for what its dangling references meant
/// may look at ([`meant`]): every typo in a chart of thousands of objects is
/// explained, while 10,000 references to nothing among 10,000 hooks, each
/// compared with each, stay as fast as they were.
const MEANT_BUDGET: usize = 200_000;

/// The item a reference to nothing was probably meant to name, other than
/// the one that refers (`own`): one of the same kind whose name is a typo
/// away (`base::spelling`), else one of any kind with that name or one as
/// near (`ConfigMap/migrate` for `Job/migrate`, `job/migrate`). Each search
/// costs `budget` two looks per item; none is made once it is spent.
fn meant<'s>(r: &ObjectRef, specs: &'s [Spec], own: usize, budget: &mut usize) -> Option<&'s ObjectRef> {
    *budget = budget.checked_sub(2 * specs.len())?;
    let candidates = move || specs.iter().enumerate().filter(move |&(j, _)| j != own).map(|(_, s)| &s.reference);
    let same_kind = move || candidates().filter(move |o| o.kind == r.kind);
    if let Some(name) = spelling::nearest(&r.name, same_kind().map(|o| o.name.as_str())) {
        return same_kind().find(|o| o.name == name);
    }
    let name = spelling::nearest(&r.name, candidates().map(|o| o.name.as_str()))?;
    candidates().find(|o| o.name == name)
}
