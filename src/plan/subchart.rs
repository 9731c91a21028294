//! The chart tree of a release and HIP-0025's order of its subcharts.
//!
//! Rendered paths carry the tree: `app/charts/db/templates/x.yaml` belongs
//! to subchart `db` of chart `app`. The order between sibling subcharts comes
//! from, in this order of precedence:
//! - `helm.sh/subchart-depends-on` in the top chart's Chart.yaml annotations
//!   (helm-hooks; it survives stock Helm 4, which keeps annotations in the
//!   release but drops unknown Chart.yaml fields): a JSON object from a
//!   subchart path (`db`, or `backend/cache` for a nested one) to the
//!   sibling subcharts it waits for;
//! - HIP-0025's `dependencies[].depends-on`, where the input carries it.
//!
//! Each level then deploys as HIP-0025's reference builder does: its
//! subcharts in DAG batch order (names sorted inside a batch, each subchart
//! whole before the next), then undeclared subcharts (sorted), then its own
//! resource-group batches, then its unsequenced batch. [`crate::plan::batch`]
//! decides whether a release is laid out this way at all.

use std::collections::{BTreeMap, BTreeSet};

use crate::base::bytes;
use crate::base::dag::{self, DagError};
use crate::model::annotation::{self as a, DEPENDS_ON_SUBCHARTS, SUBCHART_DEPENDS_ON};
use crate::model::chart::ChartMeta;
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::resource::Resource;
use crate::model::resource_group;
use crate::plan::batch::{Batch, Role};

#[derive(Debug, Default)]
struct Node {
    subcharts: BTreeMap<String, Node>,
    resources: Vec<usize>,
}

/// Does the release declare any order between its resources or charts?
/// HIP-0025 sequencing is opt-in (`helm install --wait=ordered`); a chart
/// opts in by using its annotations: a resource group, a dependency between
/// groups, or an order between subcharts (Chart.yaml `depends-on`,
/// `helm.sh/depends-on/subcharts`, `helm.sh/subchart-depends-on`).
/// `helm.sh/depends-on` between resources does not count: it orders
/// resources inside a batch.
pub(super) fn declares_order(chart: &ChartMeta, resources: &[Resource]) -> bool {
    resources.iter().any(|r| r.group.is_some() || a::has(&r.head.annotations, r.group_depends_on_key))
        || chart.annotations.contains_key(SUBCHART_DEPENDS_ON)
        || chart.annotations.contains_key(DEPENDS_ON_SUBCHARTS)
        || chart.dependencies.iter().any(|d| !d.depends_on.is_empty())
}

/// The top chart's name: from its metadata, or the first path segment of
/// the rendered sources when there is none (`helm template` input).
pub(super) fn top_chart(chart: &ChartMeta, resources: &[Resource]) -> String {
    if !chart.name.is_empty() {
        return chart.name.clone();
    }
    resources.first().and_then(|r| r.source.split('/').next()).unwrap_or_default().to_string()
}

fn tree(resources: &[Resource]) -> Node {
    let mut root = Node::default();
    for (i, r) in resources.iter().enumerate() {
        // Most sources are the top chart's: no path to cut into segments.
        if !bytes::contains(r.source.as_bytes(), b"/charts/") {
            root.resources.push(i);
            continue;
        }
        let rest: Vec<&str> = r.source.split('/').skip(1).collect();
        let mut node = &mut root;
        let mut k = 0;
        while k + 2 < rest.len() && rest[k] == "charts" {
            node = node.subcharts.entry(rest[k + 1].to_string()).or_default();
            k += 2;
        }
        node.resources.push(i);
    }
    root
}

/// Are there two subcharts of one chart, whose order only Chart.yaml can tell?
pub(super) fn has_sibling_subcharts(resources: &[Resource]) -> bool {
    has_siblings(&tree(resources))
}

/// Builds the HIP-0025 batches of all resources, chart level by chart
/// level, deepest subcharts first.
pub(super) fn plan(chart: &ChartMeta, resources: &[Resource], diags: &mut Diagnostics) -> Vec<Batch> {
    let root = tree(resources);
    let top = top_chart(chart, resources);
    let graph = declared_graph(chart, diags);
    let mut out = Vec::new();
    walk(&top, &top, "", &root, chart, &graph, resources, diags, &mut out);
    out
}

fn has_siblings(node: &Node) -> bool {
    node.subcharts.len() >= 2 || node.subcharts.values().any(has_siblings)
}

/// Subchart path (relative to the top chart, `/`-joined) → siblings it waits for.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The dependency `reference` names, by its name or its alias, as HIP-0025
/// resolves references (`resolveDependsOnReferences`): `Ok(None)` when it
/// names none, an error when it names several (a chart pulled in twice
/// under two aliases, named by its chart name).
fn resolve<'c>(chart: &'c ChartMeta, reference: &str) -> Result<Option<&'c str>, ()> {
    let mut found: Option<&str> = None;
    for d in &chart.dependencies {
        if d.name == reference || d.alias.as_deref() == Some(reference) {
            match found {
                Some(other) if other != d.effective_name() => return Err(()),
                _ => found = Some(d.effective_name()),
            }
        }
    }
    Ok(found)
}

fn declared_graph(chart: &ChartMeta, diags: &mut Diagnostics) -> Graph {
    let loc = Location::chart(format!("{}/Chart.yaml", chart.name));
    let mut graph: Graph = BTreeMap::new();
    for d in &chart.dependencies {
        let entry = graph.entry(d.effective_name().to_string()).or_default();
        for target in &d.depends_on {
            match resolve(chart, target) {
                Ok(found) => {
                    entry.insert(found.unwrap_or(target).to_string());
                }
                Err(()) => diags.push(
                    Diagnostic::error(
                        loc.clone(),
                        format!("subchart {:?} depends-on {target:?}, which is ambiguous", d.effective_name()),
                    )
                    .help("refer to the dependency by its alias"),
                ),
            }
        }
    }
    if let Some(value) = chart.annotations.get(SUBCHART_DEPENDS_ON) {
        match serde_json::from_slice::<BTreeMap<String, Vec<String>>>(value.as_bytes()) {
            Ok(map) => {
                for (sub, ds) in map {
                    graph.entry(sub.trim_matches('/').to_string()).or_default().extend(ds);
                }
            }
            Err(e) => diags.push(
                Diagnostic::error(loc.clone(), format!("is not a JSON object of string arrays: {e}"))
                    .on(SUBCHART_DEPENDS_ON)
                    .help("write '{\"backend\": [\"database\"], \"frontend\": [\"backend\"]}'"),
            ),
        }
    }
    graph
}

/// The subcharts the top chart was rendered with, as HIP-0025's reference
/// builds its subchart DAG from a stored chart: every dependency Helm left
/// enabled, whether or not it rendered a resource (one that renders only
/// hooks, or nothing, is still a node, with an empty batch), and every
/// declared one that rendered (release JSON written without `enabled`).
fn top_nodes(chart: &ChartMeta, rendered: &BTreeSet<String>) -> BTreeSet<String> {
    chart
        .dependencies
        .iter()
        .filter(|d| d.enabled || rendered.contains(d.effective_name()))
        .map(|d| d.effective_name().to_string())
        .collect()
}

/// `helm.sh/depends-on/subcharts`: the subcharts the top chart's own
/// resources wait for. The walk puts every subchart before its parent
/// anyway, so the annotation is only checked, as the reference checks it.
fn check_parent_order(chart: &ChartMeta, nodes: &BTreeSet<String>, diags: &mut Diagnostics) {
    let Some(value) = chart.annotations.get(DEPENDS_ON_SUBCHARTS).filter(|v| !v.trim().is_empty()) else {
        return;
    };
    let loc = Location::chart(format!("{}/Chart.yaml", chart.name));
    match a::parse_string_array(value) {
        Ok(names) => {
            for n in &names {
                let message = match resolve(chart, n) {
                    Err(()) => format!("references ambiguous subchart {n:?}"),
                    Ok(found) if nodes.contains(found.unwrap_or(n)) => continue,
                    Ok(_) => format!("references unknown or disabled subchart {n:?}"),
                };
                diags.push(Diagnostic::error(loc.clone(), message).on(DEPENDS_ON_SUBCHARTS).help(one_of(nodes)));
            }
        }
        Err(e) => diags.push(Diagnostic::error(loc, e.to_string()).on(DEPENDS_ON_SUBCHARTS).help(e.help())),
    }
}

fn one_of(nodes: &BTreeSet<String>) -> String {
    match nodes.is_empty() {
        true => "this chart has no enabled subchart: remove the reference".to_string(),
        false => format!("name one of its enabled subcharts: {}", nodes.iter().cloned().collect::<Vec<_>>().join(", ")),
    }
}

/// `name` at the level `rel` (`""` for the top chart), as the order's keys
/// name it.
fn level_key(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

/// The nodes of the level `rel` (`""` for the top chart) and their edges.
/// At the top of a release whose chart metadata is known, the nodes are
/// [`top_nodes`] and a dependency on anything else is an error, as in the
/// reference. Below it, and for `helm template` input, the metadata is
/// not there: the nodes are the subcharts that rendered resources, and a
/// dependency on one that did not orders nothing, with a warning (it may
/// be disabled or render only hooks, which the input cannot tell from a
/// typo).
fn level_edges(
    rel: &str,
    rendered: &BTreeSet<String>,
    chart: &ChartMeta,
    graph: &Graph,
    diags: &mut Diagnostics,
) -> (BTreeSet<String>, Graph) {
    let top_known = rel.is_empty() && chart.known;
    let (mut declared, nodes) = level_nodes(rel, rendered, chart, graph, diags);
    let loc = Location::chart(format!("{}/Chart.yaml", chart.name));
    let mut deps: Graph = BTreeMap::new();
    for (path, ds) in graph {
        let (parent, name) = path.rsplit_once('/').unwrap_or(("", path));
        if parent != rel {
            continue;
        }
        if !nodes.contains(name) {
            // A disabled dependency orders nothing; a name that is no
            // dependency at all is a mistake in the order.
            let is_dependency = rel.is_empty() && chart.dependencies.iter().any(|d| d.effective_name() == name);
            if !ds.is_empty() && chart.known && !is_dependency {
                diags.push(
                    Diagnostic::warning(
                        loc.clone(),
                        format!("subchart {path:?} is declared in the order but was not rendered"),
                    )
                    .on(SUBCHART_DEPENDS_ON),
                );
            }
            continue;
        }
        declared.insert(name.to_string());
        let entry = deps.entry(name.to_string()).or_default();
        for d in ds {
            if nodes.contains(d) {
                declared.insert(d.clone());
                entry.insert(d.clone());
            } else {
                let name = level_key(rel, name);
                diags.push(missing_dependency(loc.clone(), &name, d, top_known, &nodes, rendered));
            }
        }
    }
    for d in &declared {
        deps.entry(d.clone()).or_default();
    }
    (declared, deps)
}

/// The level's nodes declared so far (at a known top: [`top_nodes`], checked
/// against the parent chart's order; below it: none yet, the order's edges
/// declare them), and every node its order may name.
fn level_nodes(
    rel: &str,
    rendered: &BTreeSet<String>,
    chart: &ChartMeta,
    graph: &Graph,
    diags: &mut Diagnostics,
) -> (BTreeSet<String>, BTreeSet<String>) {
    if rel.is_empty() && chart.known {
        let declared = top_nodes(chart, rendered);
        check_parent_order(chart, &declared, diags);
        return (declared.clone(), declared);
    }
    // Below the top, the order's own keys declare subcharts too: one that
    // rendered nothing still orders its siblings, and closes a cycle.
    let keys = graph.keys().map(|p| p.rsplit_once('/').unwrap_or(("", p)));
    let nodes =
        rendered.iter().cloned().chain(keys.filter(|(parent, _)| *parent == rel).map(|(_, n)| n.to_string())).collect();
    (BTreeSet::new(), nodes)
}

/// What a dependency of subchart `name` on `d`, no node of its level, is: at
/// the top of a known chart an error, as in the reference; elsewhere a
/// warning, since the input cannot tell a typo from a subchart that is
/// disabled or rendered only hooks.
fn missing_dependency(
    loc: Location,
    name: &str,
    d: &str,
    top_known: bool,
    nodes: &BTreeSet<String>,
    rendered: &BTreeSet<String>,
) -> Diagnostic {
    if top_known {
        return Diagnostic::error(loc, format!("subchart {name:?} depends-on unknown or disabled subchart {d:?}"))
            .on(SUBCHART_DEPENDS_ON)
            .help(one_of(nodes));
    }
    Diagnostic::warning(
        loc,
        format!("subchart {name:?} depends-on {d:?}, which rendered no resource beside it: the dependency orders nothing"),
    )
    .on(SUBCHART_DEPENDS_ON)
    .help(format!(
        "check the name (a typo, a disabled subchart and one with only hooks look alike here); its siblings that rendered: {}",
        rendered.iter().cloned().collect::<Vec<_>>().join(", ")
    ))
}

/// Lays out the chart at `node` (`rel` in the order's keys, `display` in the
/// batches' names): its subcharts, each whole and in the level's order, then
/// its own resources.
#[allow(clippy::too_many_arguments)]
fn walk(
    display: &str,
    chart_path: &str,
    rel: &str,
    node: &Node,
    chart: &ChartMeta,
    graph: &Graph,
    resources: &[Resource],
    diags: &mut Diagnostics,
    out: &mut Vec<Batch>,
) {
    let rendered: BTreeSet<String> = node.subcharts.keys().cloned().collect();
    let (declared, deps) = level_edges(rel, &rendered, chart, graph, diags);
    let Some(order) = level_order(&declared, &deps, chart, chart_path, diags) else { return };
    let undeclared: Vec<&String> = rendered.iter().filter(|s| !declared.contains(*s)).collect();
    warn_unordered(rel, chart_path, chart, &rendered, &deps, &undeclared, diags);
    // A declared subchart that rendered no resource is a node with an
    // empty batch: it orders its dependents and deploys nothing.
    for name in order.iter().flatten().filter(|n| rendered.contains(*n)).chain(undeclared) {
        let sub = &node.subcharts[name];
        walk(
            &format!("{display}/{name}"),
            &format!("{chart_path}/charts/{name}"),
            &level_key(rel, name),
            sub,
            chart,
            graph,
            resources,
            diags,
            out,
        );
    }
    own_batches(display, chart_path, node, resources, diags, out);
}

/// The level's subcharts in batches of the DAG's order, or none when their
/// dependencies close a cycle (an error: nothing of the level is laid out).
fn level_order(
    declared: &BTreeSet<String>,
    deps: &Graph,
    chart: &ChartMeta,
    chart_path: &str,
    diags: &mut Diagnostics,
) -> Option<Vec<Vec<String>>> {
    let e = match dag::batches(declared, deps) {
        Ok(b) => return Some(b),
        Err(e) => e,
    };
    let help = match e {
        DagError::SelfLoop(_) => "a subchart cannot depend on itself",
        DagError::Cycle(_) => "remove one of the dependencies on the cycle",
    };
    diags.push(
        Diagnostic::error(
            Location::chart(format!("{}/Chart.yaml", chart.name)),
            format!("subchart circular dependency detected in {chart_path}: {e}"),
        )
        .on(SUBCHART_DEPENDS_ON)
        .help(help),
    );
    None
}

/// The warnings of a level whose subcharts deploy in an order the chart did
/// not state: a nested level of a stored chart with no order of its own (in
/// name order), and at the top a subchart missing from `dependencies` (after
/// the declared ones).
fn warn_unordered(
    rel: &str,
    chart_path: &str,
    chart: &ChartMeta,
    rendered: &BTreeSet<String>,
    deps: &Graph,
    undeclared: &[&String],
    diags: &mut Diagnostics,
) {
    if chart.known && !rel.is_empty() && rendered.len() >= 2 && deps.values().all(BTreeSet::is_empty) {
        // The reference warns alike when it walks a stored chart's nested level.
        diags.push(
            Diagnostic::warning(
                Location::chart(format!("{}/Chart.yaml", chart.name)),
                format!(
                    "the release carries only the top chart's Chart.yaml: the subcharts of {chart_path} ({}) deploy in name order",
                    rendered.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            )
            .on(SUBCHART_DEPENDS_ON)
            .help(format!(
                "declare their order in the top chart's {SUBCHART_DEPENDS_ON}, e.g. '{{\"{rel}/{}\": [\"{}\"]}}'",
                rendered.iter().nth(1).map_or("", String::as_str),
                rendered.iter().next().map_or("", String::as_str)
            ))
            .advice(),
        );
    }
    if chart.known && rel.is_empty() {
        for s in undeclared {
            if !chart.dependencies.iter().any(|d| d.effective_name() == s.as_str()) {
                diags.push(Diagnostic::warning(
                    Location::chart(format!("{}/Chart.yaml", chart.name)),
                    format!("subchart {s:?} is rendered but not declared in dependencies; it deploys after the declared ones"),
                ));
            }
        }
    }
}

/// The batches of the chart's own resources, after its subcharts': its
/// resource groups in their order, then the resources of no group.
fn own_batches(
    display: &str,
    chart_path: &str,
    node: &Node,
    resources: &[Resource],
    diags: &mut Diagnostics,
    out: &mut Vec<Batch>,
) {
    let groups = resource_group::plan(chart_path, resources, &node.resources, diags);
    for batch in groups.batches {
        let (names, members): (Vec<String>, Vec<Vec<usize>>) = batch.into_iter().unzip();
        out.push(Batch { chart: display.to_string(), role: Role::Groups, groups: names, resources: members.concat() });
    }
    if !groups.unsequenced.is_empty() {
        out.push(Batch {
            chart: display.to_string(),
            role: Role::Unsequenced,
            groups: Vec::new(),
            resources: groups.unsequenced,
        });
    }
}
