//! The chart tree of a release and the order of its subcharts.
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
//! Each level then deploys as HIP-0025 does: its subcharts in DAG batch
//! order (names sorted inside a batch, each subchart whole before the next),
//! then undeclared subcharts (sorted), then its own resource-group batches,
//! then its unsequenced batch.
//!
//! Two rules come before HIP-0025's walk (docs/design.md, "Resource batches"):
//! - CustomResourceDefinitions and Namespaces form a first batch, wherever they
//!   were rendered from: nothing can use them before they exist, and Helm
//!   installs `crds/` first and puts Namespace first in its kind order.
//! - A release that declares no order at all (no subchart order, no resource
//!   group) deploys the rest in one batch, as stock Helm applies a release.
//!   HIP-0025 batches subcharts structurally only under `--wait=ordered`,
//!   which a user asks for; a chart that never asked must not deploy slower,
//!   one subchart after another, than with stock Helm.

use std::collections::{BTreeMap, BTreeSet};

use crate::annotation::{self as a, DEPENDS_ON_SUBCHARTS, SUBCHART_DEPENDS_ON};
use crate::dag::{self, DagError};
use crate::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::resource::Resource;
use crate::resource_group;

/// Chart metadata, where the input has it (release JSON does; `helm
/// template` output does not).
#[derive(Debug, Clone, Default)]
pub struct ChartMeta {
    pub name: String,
    pub annotations: BTreeMap<String, String>,
    pub dependencies: Vec<Dependency>,
    /// False for `helm template` input: there is no Chart.yaml to read.
    pub known: bool,
}

#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Dependency {
    pub name: String,
    #[serde(default)]
    pub alias: Option<String>,
    #[serde(default, rename = "depends-on")]
    pub depends_on: Vec<String>,
}

impl Dependency {
    fn effective_name(&self) -> &str {
        self.alias.as_deref().filter(|a| !a.is_empty()).unwrap_or(&self.name)
    }
}

/// One batch of the install plan: resources that deploy together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The chart's display path (`app/db` for `app/charts/db`).
    pub chart: String,
    /// The resource groups of this batch; empty for the others.
    pub groups: Vec<String>,
    pub resources: Vec<usize>,
    pub role: Role,
}

/// Why a batch's resources deploy together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// CustomResourceDefinitions and Namespaces, first.
    Definitions,
    /// Resource groups of one chart, in HIP-0025's order.
    Groups,
    /// A chart's resources in no group (HIP-0025's last batch of a level).
    Unsequenced,
    /// The whole release: it declares no order, so it deploys as stock Helm.
    Release,
}

impl Role {
    /// How plans and progress lines name it.
    pub fn describe(self) -> &'static str {
        match self {
            Role::Definitions => "CRDs and Namespaces first",
            Role::Groups => "resource groups",
            Role::Unsequenced => "unsequenced",
            Role::Release => "no order declared: all at once, as Helm",
        }
    }
}

/// Kinds that must exist before anything that could use them.
fn is_definition(kind: &str) -> bool {
    matches!(kind, "CustomResourceDefinition" | "Namespace")
}

/// Does the release ask for any order between its resources' batches?
fn declares_order(chart: &ChartMeta, resources: &[Resource]) -> bool {
    chart.dependencies.iter().any(|d| !d.depends_on.is_empty())
        || chart.annotations.contains_key(SUBCHART_DEPENDS_ON)
        || chart.annotations.contains_key(DEPENDS_ON_SUBCHARTS)
        || resources.iter().any(|r| r.group.is_some() || !matches!(&r.group_depends_on, Ok(v) if v.is_empty()))
}

#[derive(Debug, Default)]
struct Node {
    subcharts: BTreeMap<String, Node>,
    resources: Vec<usize>,
}

/// Builds the HIP-0025 batches of all resources. `top` is the top chart's
/// name (the first path segment when metadata is unknown).
pub fn plan(chart: &ChartMeta, resources: &[Resource], diags: &mut Diagnostics) -> Vec<Batch> {
    let mut top = chart.name.clone();
    if top.is_empty() {
        top = resources.first().and_then(|r| r.source.split('/').next()).unwrap_or_default().to_string();
    }
    let (definitions, rest): (Vec<usize>, Vec<usize>) =
        (0..resources.len()).partition(|&i| is_definition(&resources[i].head.kind));
    let mut out = Vec::new();
    if !definitions.is_empty() {
        out.push(Batch { chart: top.clone(), groups: Vec::new(), resources: definitions, role: Role::Definitions });
    }
    let declared = declares_order(chart, resources);
    // The declaration is validated even when nothing is left to order.
    let graph = declared_graph(chart, diags);
    if !declared {
        if !rest.is_empty() {
            out.push(Batch { chart: top, groups: Vec::new(), resources: rest, role: Role::Release });
        }
        return out;
    }
    let mut root = Node::default();
    for i in rest {
        let r = &resources[i];
        let mut segments = r.source.split('/');
        segments.next();
        let mut node = &mut root;
        let rest: Vec<&str> = segments.collect();
        let mut k = 0;
        while k + 2 < rest.len() && rest[k] == "charts" {
            node = node.subcharts.entry(rest[k + 1].to_string()).or_default();
            k += 2;
        }
        node.resources.push(i);
    }
    if !chart.known && has_siblings(&root) {
        diags.push(
            Diagnostic::warning(
                Location::chart(format!("{top}/Chart.yaml")),
                "subchart order is unknown: `helm template` output carries no Chart.yaml, so sibling subcharts deploy in name order",
            )
            .on(SUBCHART_DEPENDS_ON)
            .help("pipe `helm install NAME CHART --dry-run=client -o json` instead to use the order declared in Chart.yaml"),
        );
    }
    walk(&top, &top, "", &root, chart, &graph, resources, diags, &mut out);
    out
}

fn has_siblings(node: &Node) -> bool {
    node.subcharts.len() >= 2 || node.subcharts.values().any(has_siblings)
}

/// Subchart path (relative to the top chart, `/`-joined) → siblings it waits for.
type Graph = BTreeMap<String, BTreeSet<String>>;

fn declared_graph(chart: &ChartMeta, diags: &mut Diagnostics) -> Graph {
    let loc = Location::chart(format!("{}/Chart.yaml", chart.name));
    let mut graph: Graph = BTreeMap::new();
    for d in &chart.dependencies {
        let entry = graph.entry(d.effective_name().to_string()).or_default();
        for target in &d.depends_on {
            // Chart.yaml names the dependency; aliases rename it (HIP-0025 ProcessDependencies).
            let matches: Vec<&Dependency> =
                chart.dependencies.iter().filter(|x| x.name == *target || x.alias.as_deref() == Some(target)).collect();
            match matches.as_slice() {
                [one] => {
                    entry.insert(one.effective_name().to_string());
                }
                [] => {
                    entry.insert(target.clone());
                }
                _ => diags.push(
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
        match serde_json::from_str::<BTreeMap<String, Vec<String>>>(value) {
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
    if let Some(value) = chart.annotations.get(DEPENDS_ON_SUBCHARTS) {
        match a::parse_string_array(value) {
            Ok(names) => {
                let known: BTreeSet<&str> = chart.dependencies.iter().map(Dependency::effective_name).collect();
                for n in names.iter().filter(|n| chart.known && !known.contains(n.as_str())) {
                    diags.push(
                        Diagnostic::error(loc.clone(), format!("names {n:?}, which is not a dependency of this chart"))
                            .on(DEPENDS_ON_SUBCHARTS),
                    );
                }
            }
            Err(e) => diags.push(Diagnostic::error(loc.clone(), e.to_string()).on(DEPENDS_ON_SUBCHARTS).help(e.help())),
        }
    }
    graph
}

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
    let key = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    // The declared subcharts of this level and their edges.
    let mut declared: BTreeSet<String> = BTreeSet::new();
    let mut deps: Graph = BTreeMap::new();
    if rel.is_empty() {
        declared
            .extend(chart.dependencies.iter().map(|d| d.effective_name().to_string()).filter(|n| rendered.contains(n)));
    }
    for (path, ds) in graph {
        let (parent, name) = path.rsplit_once('/').unwrap_or(("", path));
        if parent != rel {
            continue;
        }
        let loc = Location::chart(format!("{}/Chart.yaml", chart.name));
        if !rendered.contains(name) {
            if !ds.is_empty() && chart.known && !chart.dependencies.iter().any(|d| d.effective_name() == name) {
                diags.push(
                    Diagnostic::warning(
                        loc,
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
            if rendered.contains(d) {
                declared.insert(d.clone());
                entry.insert(d.clone());
            } else {
                diags.push(
                    Diagnostic::error(
                        loc.clone(),
                        format!("subchart {:?} depends-on unknown or disabled subchart {:?}", key(name), d),
                    )
                    .on(SUBCHART_DEPENDS_ON)
                    .help(format!(
                        "name a sibling of {name}: {}",
                        rendered.iter().cloned().collect::<Vec<_>>().join(", ")
                    )),
                );
            }
        }
    }
    for d in &declared {
        deps.entry(d.clone()).or_default();
    }
    let order = match dag::batches(&declared, &deps) {
        Ok(b) => b,
        Err(e) => {
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
            return;
        }
    };
    let undeclared: Vec<&String> = rendered.iter().filter(|s| !declared.contains(*s)).collect();
    if chart.known && rel.is_empty() {
        for s in &undeclared {
            if !chart.dependencies.iter().any(|d| d.effective_name() == s.as_str()) {
                diags.push(Diagnostic::warning(
                    Location::chart(format!("{}/Chart.yaml", chart.name)),
                    format!("subchart {s:?} is rendered but not declared in dependencies; it deploys after the declared ones"),
                ));
            }
        }
    }
    for name in order.iter().flatten().chain(undeclared) {
        let sub = &node.subcharts[name];
        walk(
            &format!("{display}/{name}"),
            &format!("{chart_path}/charts/{name}"),
            &key(name),
            sub,
            chart,
            graph,
            resources,
            diags,
            out,
        );
    }
    let groups = resource_group::plan(chart_path, resources, &node.resources, diags);
    for batch in groups.batches {
        let (names, members): (Vec<String>, Vec<Vec<usize>>) = batch.into_iter().unzip();
        out.push(Batch { chart: display.to_string(), groups: names, resources: members.concat(), role: Role::Groups });
    }
    if !groups.unsequenced.is_empty() {
        out.push(Batch {
            chart: display.to_string(),
            groups: Vec::new(),
            resources: groups.unsequenced,
            role: Role::Unsequenced,
        });
    }
}
