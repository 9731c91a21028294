//! The execution plan: one graph per event, which hook waits for which and
//! why, the waves a lockstep run would start, and the critical path.
//!
//! Edges (docs/design.md §4): weight barriers (every hook waits for all hooks of
//! lower weight), `helm.sh/depends-on`, serial barriers (within a weight, a
//! serial hook waits for every hook before it in Helm order and every later
//! hook waits for it), and kind-order barriers (among parallel hooks of one
//! weight, a hook of a later tier of Helm's kind order waits for those of the
//! tier before: the ServiceAccount and RBAC before the Job that uses them).
//! Weight and kind-order barriers are modelled as one barrier node each, so
//! a plan of n hooks has O(n) edges even when thousands of parallel hooks
//! share a weight.
//!
//! Resources use the same machinery: their level is the HIP-0025 batch
//! instead of the weight, and every resource of a batch may run in parallel.

pub mod action;
pub mod batch;
pub mod estimate;
pub mod frontier;
pub mod layout;
pub mod lifecycle;
pub mod order_check;
pub mod subchart;

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction;

use crate::base::spelling;
use crate::base::text::NAMED;
use crate::model::annotation::DEPENDS_ON;
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::event::Event;
use crate::model::input::Release;
use crate::model::kind_order::{install_rank, tier, tier_kinds};
use crate::model::manifest::Head;
use crate::model::reference::ObjectRef;
use batch::Batch;

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Most hooks running at once; 1 is Helm's serial behaviour.
    pub parallel: usize,
    /// Treat hooks without `helm.sh/hook-parallel` as parallel.
    pub parallel_all: bool,
    /// Most resources applied and not yet ready at once; `None`: a whole
    /// batch at once, as Helm applies a release.
    pub parallel_resources: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options { parallel: 1, parallel_all: false, parallel_resources: None }
    }
}

/// What an [`EventPlan`] orders: the hooks of one event, or the install of
/// the resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Hooks(Event),
    Install,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Hooks(e) => e.as_str(),
            Target::Install => "install",
        }
    }
}

/// Why one item waits for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// A lower weight (hooks) or an earlier batch (resources).
    Level,
    /// Helm's serial order within a weight.
    Serial,
    DependsOn,
    /// Helm's kind order among parallel hooks of one weight.
    KindOrder,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Level => "lower weight",
            Reason::Serial => "serial order",
            Reason::DependsOn => "depends-on",
            Reason::KindOrder => "kind order",
        }
    }
}

/// An item's position in its [`EventPlan`]'s `items`: how the graph, the
/// waves, the frontier, the hook executor and the resource rollout name an
/// item (the executor's hooks are its plan's items). Not [`Item::index`],
/// the position of what the item stands for among the release's hooks or
/// resources.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct ItemId(pub usize);

impl std::ops::Index<ItemId> for Vec<Item> {
    type Output = Item;

    fn index(&self, id: ItemId) -> &Item {
        &self[id.0]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    Item(ItemId),
    /// Completes when every item of the previous level has; holds the level
    /// it opens.
    Barrier(i64),
    /// Completes when every hook of the previous kind tier in a run of
    /// parallel hooks has; holds the level and the tier it opens.
    KindBarrier(i64, usize),
}

impl Node {
    /// Barriers are not run: they pass the moment their predecessors are done.
    pub fn is_barrier(self) -> bool {
        !matches!(self, Node::Item(_))
    }
}

/// One hook or resource in a plan, in Helm order.
#[derive(Debug, Clone)]
pub struct Item {
    /// Index into the release's hooks (or resources, for `Target::Install`).
    pub index: usize,
    pub reference: ObjectRef,
    /// The weight (hooks) or batch number (resources).
    pub level: i64,
    pub parallel: bool,
    /// Direct predecessors within the same level, with the reason.
    pub after: Vec<(ItemId, Reason)>,
    /// The previous level, all of whose items finish first.
    pub after_level: Option<i64>,
    /// Kind order: the kinds of the parallel hooks of this weight that all
    /// finish first (the tier before this hook's, among the parallel hooks
    /// that may run with it).
    pub after_kinds: Vec<String>,
    pub node: NodeIndex,
}

#[derive(Debug, Clone)]
pub struct EventPlan {
    pub target: Target,
    pub items: Vec<Item>,
    pub graph: DiGraph<Node, Reason>,
    /// Start order under the given `--parallel`, if every item took as long.
    pub waves: Vec<Vec<ItemId>>,
    /// The longest chain of items that must run one after another.
    pub critical_path: Vec<ItemId>,
    /// For `Target::Install`: the batches, each ready before the next.
    pub batches: Vec<Batch>,
    /// Why the items are ordered as they are, where that is not plain.
    pub notes: Vec<String>,
    /// Advice for `plan` (hooks): what could run in parallel. Filled in by
    /// the caller that wants it ([`estimate::hint`]).
    pub hints: Vec<String>,
    /// How long the hooks would take, from their last runs.
    pub estimate: Option<estimate::Estimate>,
}

impl EventPlan {
    /// Every item, in Helm order.
    pub fn ids(&self) -> impl Iterator<Item = ItemId> {
        (0..self.items.len()).map(ItemId)
    }
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub options: Options,
    pub events: Vec<EventPlan>,
}

/// Builds the plan for the given targets (all that have anything when
/// `targets` is empty). Problems are pushed to `diags`; with errors, the
/// entries concerned may be incomplete and must not be executed.
pub fn build(release: &Release, targets: &[Target], options: Options, diags: &mut Diagnostics) -> Plan {
    let mut wanted: Vec<Target> = targets.to_vec();
    if wanted.is_empty() {
        wanted.extend(
            Event::ALL.into_iter().filter(|e| release.hooks.iter().any(|h| h.events.contains(e))).map(Target::Hooks),
        );
        if !release.resources.is_empty() {
            wanted.push(Target::Install);
        } else if release.chart.known {
            // A chart whose resources all stayed unrendered still declares
            // its subchart order, and HIP-0025 checks it all the same.
            layout::plan(&release.chart, &release.resources, diags);
        }
    }
    let n = options.parallel.max(1);
    // Built on the first reference that names no item: most plans have none,
    // and `estimate::hint` builds a plan several times over.
    let index = std::cell::OnceCell::new();
    let events = wanted
        .into_iter()
        .map(|target| match target {
            Target::Hooks(event) => plan_hooks(release, &index, event, n, options.parallel_all, diags),
            // Helm applies a whole batch at once; only an explicit limit caps it.
            Target::Install => {
                plan_resources(release, &index, options.parallel_resources.unwrap_or(usize::MAX).max(1), diags)
            }
        })
        .collect();
    Plan { options, events }
}

/// The release's hooks and resources by kind and name, built at most once: a
/// reference that names no item of a plan is explained by what it does name,
/// and a scan of every object for each such reference made 10,000 dangling
/// references take 45 s.
type LazyIndex<'a> = std::cell::OnceCell<Index<'a>>;

struct Index<'a> {
    /// Positions in the release's hooks and resources: a reference is
    /// made only for the few a lookup finds, not for every object.
    hooks: HashMap<(&'a str, &'a str), Vec<usize>>,
    resources: HashMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Index<'a> {
    fn new(release: &'a Release) -> Self {
        let mut hooks: HashMap<_, Vec<_>> = HashMap::new();
        for (i, h) in release.hooks.iter().enumerate() {
            hooks.entry((h.head.kind.as_str(), h.head.name.as_str())).or_default().push(i);
        }
        let mut resources: HashMap<_, Vec<_>> = HashMap::new();
        for (i, r) in release.resources.iter().enumerate() {
            resources.entry((r.head.kind.as_str(), r.head.name.as_str())).or_default().push(i);
        }
        Index { hooks, resources }
    }

    /// The first hook, in release order, that `r` names.
    fn hook(&self, r: &ObjectRef, release: &Release) -> Option<usize> {
        let named = self.hooks.get(&(r.kind.as_str(), r.name.as_str()))?;
        named.iter().copied().find(|&i| matches_ref(r, &release.hooks[i].reference(), release))
    }

    fn is_resource(&self, r: &ObjectRef, release: &Release) -> bool {
        let named = self.resources.get(&(r.kind.as_str(), r.name.as_str()));
        named.into_iter().flatten().any(|&i| matches_ref(r, &release.resources[i].reference(), release))
    }
}

/// What the graph builder needs of a hook or resource.
struct Spec<'a> {
    index: usize,
    reference: ObjectRef,
    level: i64,
    parallel: bool,
    depends_on: &'a [ObjectRef],
    /// Where it comes from, made a [`Location`] only for a message: most
    /// plans have none, and a location is four allocations.
    source: &'a str,
    document: usize,
    head: &'a Head,
}

impl Spec<'_> {
    fn location(&self) -> Location {
        Location { source: self.source.to_string(), document: self.document, object: Some(self.head.display()) }
    }
}

fn plan_hooks<'a>(
    release: &'a Release,
    index: &LazyIndex<'a>,
    event: Event,
    n: usize,
    parallel_all: bool,
    diags: &mut Diagnostics,
) -> EventPlan {
    let mut specs: Vec<(usize, &crate::model::hook::Hook)> =
        release.hooks.iter().enumerate().filter(|(_, h)| h.events.contains(&event)).collect();
    crate::base::order::by_cached_key(&mut specs, |&(_, h)| h.helm_order_key());
    let specs: Vec<Spec> = specs
        .into_iter()
        .map(|(index, h)| Spec {
            index,
            reference: h.reference(),
            level: h.weight,
            parallel: h.parallel.unwrap_or(parallel_all),
            depends_on: &h.depends_on,
            source: &h.source,
            document: h.document,
            head: &h.head,
        })
        .collect();
    let others = |r: &ObjectRef| -> Option<String> {
        let index = index.get_or_init(|| Index::new(release));
        if let Some(h) = index.hook(r, release).map(|i| &release.hooks[i]) {
            let events: Vec<&str> = h.events.iter().map(|e| e.as_str()).collect();
            return Some(format!("it is a hook of {} only", events.join(", ")));
        }
        index
            .is_resource(r, release)
            .then(|| "it is a resource, not a hook; hooks can depend only on hooks of the same event".to_string())
    };
    build_graph(Target::Hooks(event), specs, n, release, &others, diags, Vec::new())
}

fn plan_resources<'a>(release: &'a Release, index: &LazyIndex<'a>, n: usize, diags: &mut Diagnostics) -> EventPlan {
    let layout = layout::plan(&release.chart, &release.resources, diags);
    let mut specs = Vec::new();
    for (level, batch) in layout.batches.iter().enumerate() {
        let mut members = batch.resources.clone();
        crate::base::order::by_cached_key(&mut members, |&i| install_rank(&release.resources[i].head.kind));
        for i in members {
            let r = &release.resources[i];
            specs.push(Spec {
                index: i,
                reference: r.reference(),
                level: level as i64,
                parallel: true,
                depends_on: &r.depends_on,
                source: &r.source,
                document: r.document,
                head: &r.head,
            });
        }
    }
    let others = |r: &ObjectRef| -> Option<String> {
        let index = index.get_or_init(|| Index::new(release));
        index.hook(r, release).map(|_| "it is a hook; resources can depend only on resources".to_string())
    };
    let mut plan = build_graph(Target::Install, specs, n, release, &others, diags, layout.batches);
    plan.notes = layout.notes;
    plan
}

/// Does `r` name the object kind/namespace/name? A reference without a
/// namespace matches any namespace; with one, it matches the manifest's
/// namespace, or the release namespace when the manifest sets none.
fn matches_ref(r: &ObjectRef, object: &ObjectRef, release: &Release) -> bool {
    r.kind == object.kind
        && r.name == object.name
        && match (&r.namespace, object.namespace.as_deref()) {
            (None, _) => true,
            (Some(ns), Some(own)) => own == ns,
            // No namespace in the manifest: it lands in the release
            // namespace, which `helm template` output does not tell.
            (Some(ns), None) => release.namespace.as_deref().is_none_or(|rn| rn == ns),
        }
}

fn build_graph(
    target: Target,
    specs: Vec<Spec>,
    n: usize,
    release: &Release,
    others: &dyn Fn(&ObjectRef) -> Option<String>,
    diags: &mut Diagnostics,
    batches: Vec<Batch>,
) -> EventPlan {
    let mut graph = DiGraph::<Node, Reason>::new();
    let mut items: Vec<Item> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| Item {
            index: s.index,
            reference: s.reference.clone(),
            level: s.level,
            parallel: s.parallel,
            after: Vec::new(),
            after_level: None,
            after_kinds: Vec::new(),
            node: graph.add_node(Node::Item(ItemId(i))),
        })
        .collect();
    let levels = serial_barriers(&mut graph, &mut items);
    depends_on_edges(target, &specs, release, others, &mut graph, &mut items, diags, &batches);
    // Kind order, after depends-on, which it yields to.
    if target != Target::Install {
        for level in &levels {
            kind_barriers(&mut graph, &mut items, level.start, level.end);
        }
    }
    level_barriers(&mut graph, &items, &levels);

    let mut plan = EventPlan {
        target,
        items,
        graph,
        waves: Vec::new(),
        critical_path: Vec::new(),
        batches,
        notes: Vec::new(),
        hints: Vec::new(),
        estimate: None,
    };
    match simulate(&plan, n) {
        Ok((waves, critical_path)) => {
            plan.waves = waves;
            plan.critical_path = critical_path;
        }
        Err(cycle) => report_cycle(&plan, &specs, &cycle, diags),
    }
    plan
}

/// The items of one level (weight or batch): a run of the sorted items.
struct Level {
    level: i64,
    start: usize,
    end: usize,
}

/// Serial barriers, within each level: a serial item waits for every item
/// before it, and every later item waits for it. Items are sorted, so a
/// level is a run; each item learns the level before its own. Returns the
/// levels in order.
fn serial_barriers(graph: &mut DiGraph<Node, Reason>, items: &mut [Item]) -> Vec<Level> {
    let mut levels: Vec<Level> = Vec::new();
    let mut level_start = 0;
    while level_start < items.len() {
        let level = items[level_start].level;
        let end = items[level_start..].iter().position(|it| it.level != level).map_or(items.len(), |p| level_start + p);
        if let Some(prev) = levels.last() {
            for it in &mut items[level_start..end] {
                it.after_level = Some(prev.level);
            }
        }
        let mut last_serial: Option<usize> = None;
        let mut since_serial: Vec<usize> = Vec::new();
        for i in level_start..end {
            let preds: Vec<usize> = if items[i].parallel {
                since_serial.push(i);
                last_serial.into_iter().collect()
            } else if since_serial.is_empty() {
                let p = last_serial.into_iter().collect();
                last_serial = Some(i);
                p
            } else {
                last_serial = Some(i);
                std::mem::take(&mut since_serial)
            };
            for p in preds {
                graph.add_edge(items[p].node, items[i].node, Reason::Serial);
                items[i].after.push((ItemId(p), Reason::Serial));
            }
        }
        levels.push(Level { level, start: level_start, end });
        level_start = end;
    }
    levels
}

/// `helm.sh/depends-on` edges. A reference that names no item, several,
/// the item itself, or one of a higher level is reported and left out.
#[allow(clippy::too_many_arguments)]
fn depends_on_edges(
    target: Target,
    specs: &[Spec],
    release: &Release,
    others: &dyn Fn(&ObjectRef) -> Option<String>,
    graph: &mut DiGraph<Node, Reason>,
    items: &mut [Item],
    diags: &mut Diagnostics,
    batches: &[Batch],
) {
    let mut by_name: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
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

/// Weight (or batch) barriers, reduced: from the items of the previous
/// level that no item of that level waits for, to the items of this level
/// that wait for no item of this level. The rest follow transitively, so a
/// plan keeps O(n) edges however many items share a level.
fn level_barriers(graph: &mut DiGraph<Node, Reason>, items: &[Item], levels: &[Level]) {
    let mut has_same_level_succ = vec![false; items.len()];
    let mut waits_in_level = vec![false; items.len()];
    for (i, it) in items.iter().enumerate() {
        for &(ItemId(p), _) in &it.after {
            if items[p].level == it.level {
                has_same_level_succ[p] = true;
                waits_in_level[i] = true;
            }
        }
        // Through a kind barrier, which only ever joins hooks of one level.
        for v in graph.neighbors_directed(it.node, Direction::Outgoing) {
            if matches!(graph[v], Node::KindBarrier(..)) {
                has_same_level_succ[i] = true;
            }
        }
        if !it.after_kinds.is_empty() {
            waits_in_level[i] = true;
        }
    }
    for pair in levels.windows(2) {
        let (prev, this) = (&pair[0], &pair[1]);
        let barrier = graph.add_node(Node::Barrier(this.level));
        for p in (prev.start..prev.end).filter(|&p| !has_same_level_succ[p]) {
            graph.add_edge(items[p].node, barrier, Reason::Level);
        }
        for i in this.start..this.end {
            if !waits_in_level[i] {
                graph.add_edge(barrier, items[i].node, Reason::Level);
            }
        }
    }
}

/// Kind-order barriers among the hooks `start..end` of one weight: in each
/// run of parallel hooks between two serial ones (the hooks that may run
/// together), the hooks of each tier of Helm's kind order wait for those of
/// the tier before. At `--parallel 1` Helm's order already runs them one by
/// one; in parallel, without this, a Job would start beside the
/// ServiceAccount and Role it runs as.
///
/// An explicit `helm.sh/depends-on` outranks the implicit order: a hook that
/// waits for a hook of a later tier (a ConfigMap recording a Job's result)
/// joins that tier, so kind order never contradicts what the author wrote
/// (every edge then goes to an equal or later tier, and only depends-on
/// edges can close a cycle).
fn kind_barriers(graph: &mut DiGraph<Node, Reason>, items: &mut [Item], start: usize, end: usize) {
    let mut run_start = start;
    while run_start < end {
        if !items[run_start].parallel {
            run_start += 1;
            continue;
        }
        let run_end = (run_start..end).find(|&i| !items[i].parallel).unwrap_or(end);
        let run = run_start..run_end;
        // Effective tiers: raised along depends-on edges inside the run, by
        // a worklist (a tier only rises, at most once per tier).
        let mut effective: Vec<usize> = items[run.clone()].iter().map(|it| tier(&it.reference.kind)).collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); run.len()];
        for i in run.clone() {
            for &(ItemId(p), r) in &items[i].after {
                if r == Reason::DependsOn && run.contains(&p) {
                    dependents[p - run_start].push(i - run_start);
                }
            }
        }
        let mut work: Vec<usize> = (0..run.len()).collect();
        while let Some(p) = work.pop() {
            for &d in &dependents[p] {
                if effective[d] < effective[p] {
                    effective[d] = effective[p];
                    work.push(d);
                }
            }
        }
        let mut tiers: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (k, &t) in effective.iter().enumerate() {
            tiers.entry(t).or_default().push(run_start + k);
        }
        let tiers: Vec<(usize, Vec<usize>)> = tiers.into_iter().collect();
        for pair in tiers.windows(2) {
            let ((_, before), (t, after)) = (&pair[0], &pair[1]);
            let level = items[after[0]].level;
            let barrier = graph.add_node(Node::KindBarrier(level, *t));
            for &p in before {
                graph.add_edge(items[p].node, barrier, Reason::KindOrder);
            }
            let kinds = tier_kinds(before.iter().map(|&p| items[p].reference.kind.as_str()));
            for &i in after {
                graph.add_edge(barrier, items[i].node, Reason::KindOrder);
                items[i].after_kinds.clone_from(&kinds);
            }
        }
        run_start = run_end;
    }
}

/// The lockstep run: start every admissible item in Helm order up to `n`,
/// let all finish, repeat. Returns the waves and the critical path, or the
/// items left unstarted when a cycle blocks them.
/// Waves and critical path of a lockstep run.
type Simulation = (Vec<Vec<ItemId>>, Vec<ItemId>);

fn simulate(plan: &EventPlan, n: usize) -> Result<Simulation, Vec<ItemId>> {
    let g = &plan.graph;
    let mut indegree: Vec<usize> =
        g.node_indices().map(|v| g.neighbors_directed(v, Direction::Incoming).count()).collect();
    // Critical path by dynamic programming along the order nodes complete in.
    let mut length = vec![0usize; g.node_count()];
    let mut best_pred: Vec<Option<NodeIndex>> = vec![None; g.node_count()];
    let mut ready: BinaryHeap<Reverse<ItemId>> = BinaryHeap::new();
    let mut instant: Vec<NodeIndex> = Vec::new();
    for v in g.node_indices() {
        if indegree[v.index()] == 0 {
            match g[v] {
                Node::Item(i) => ready.push(Reverse(i)),
                Node::Barrier(_) | Node::KindBarrier(..) => instant.push(v),
            }
        }
    }
    let complete = |v: NodeIndex,
                    indegree: &mut Vec<usize>,
                    ready: &mut BinaryHeap<Reverse<ItemId>>,
                    instant: &mut Vec<NodeIndex>,
                    length: &mut Vec<usize>,
                    best_pred: &mut Vec<Option<NodeIndex>>| {
        let own = usize::from(matches!(g[v], Node::Item(_)));
        let here = length[v.index()] + own;
        for w in g.neighbors_directed(v, Direction::Outgoing) {
            if best_pred[w.index()].is_none() || here > length[w.index()] {
                length[w.index()] = here;
                best_pred[w.index()] = Some(v);
            }
            indegree[w.index()] -= 1;
            if indegree[w.index()] == 0 {
                match g[w] {
                    Node::Item(i) => ready.push(Reverse(i)),
                    Node::Barrier(_) | Node::KindBarrier(..) => instant.push(w),
                }
            }
        }
    };
    let mut waves = Vec::new();
    let mut done = 0;
    loop {
        while let Some(b) = instant.pop() {
            complete(b, &mut indegree, &mut ready, &mut instant, &mut length, &mut best_pred);
        }
        let mut wave = Vec::new();
        while wave.len() < n {
            match ready.pop() {
                Some(Reverse(i)) => wave.push(i),
                None => break,
            }
        }
        if wave.is_empty() {
            break;
        }
        for &i in &wave {
            complete(plan.items[i].node, &mut indegree, &mut ready, &mut instant, &mut length, &mut best_pred);
        }
        done += wave.len();
        waves.push(wave);
    }
    if done < plan.items.len() {
        let blocked = plan.ids().filter(|&i| indegree[plan.items[i].node.index()] > 0).collect();
        return Err(blocked);
    }
    let end = plan.items.iter().enumerate().max_by_key(|(i, it)| (length[it.node.index()], Reverse(*i)));
    let mut path = Vec::new();
    let mut cursor = end.map(|(_, it)| it.node);
    while let Some(v) = cursor {
        if let Node::Item(i) = g[v] {
            path.push(i);
        }
        cursor = best_pred[v.index()];
    }
    path.reverse();
    Ok((waves, path))
}

/// One cycle in the strongly connected component `scc` (of more than one
/// node), from its least item, as it closes: walked backwards along "waits
/// for" edges inside the component, the least node first at each step.
fn one_cycle(g: &DiGraph<Node, Reason>, scc: &[NodeIndex]) -> Vec<NodeIndex> {
    let members: std::collections::HashSet<NodeIndex> = scc.iter().copied().collect();
    let start = *scc.iter().filter(|v| matches!(g[**v], Node::Item(_))).min_by_key(|v| v.index()).unwrap_or(&scc[0]);
    let mut order: Vec<NodeIndex> = vec![start];
    let mut position: BTreeMap<usize, usize> = BTreeMap::from([(start.index(), 0)]);
    loop {
        let here = *order.last().expect("non-empty");
        let next = g
            .neighbors_directed(here, Direction::Incoming)
            .filter(|w| members.contains(w))
            .min_by_key(|w| w.index())
            .expect("every node of a component has a predecessor in it");
        if let Some(&p) = position.get(&next.index()) {
            let mut c = order[p..].to_vec();
            c.push(next);
            return c;
        }
        position.insert(next.index(), order.len());
        order.push(next);
    }
}

/// Names one cycle exactly: `A waits for B (depends-on), which waits for A
/// (serial order)`.
fn report_cycle(plan: &EventPlan, specs: &[Spec], blocked: &[ItemId], diags: &mut Diagnostics) {
    let g = &plan.graph;
    // Kosaraju's, whose searches keep their own stacks: petgraph's Tarjan
    // recurses once per node of a component and overflowed a test
    // thread's stack on a cycle of 10,000 hooks. Sorted by their least
    // node, so that cycles are reported in the order of the input.
    let mut sccs = petgraph::algo::kosaraju_scc(g);
    crate::base::order::by_key(&mut sccs, |c| c.iter().map(|v| v.index() as u64).min().unwrap_or(0));
    let mut seen_any = false;
    for scc in sccs.into_iter().filter(|c| c.len() > 1) {
        let cycle = one_cycle(g, &scc);
        let name = |v: NodeIndex| match g[v] {
            Node::Item(i) => plan.items[i].reference.to_string(),
            Node::Barrier(l) => {
                format!("every {} below {l}", if plan.target == Target::Install { "batch" } else { "hook of weight" })
            }
            // Kind order never closes a cycle (see kind_barriers); named all the same.
            Node::KindBarrier(l, _) => format!("the hooks of weight {l} before it in kind order"),
        };
        let mut text = name(cycle[0]);
        let mut serial_hint = None;
        // A long cycle is named by its first links and where it closes.
        let links = cycle.len() - 1;
        let shown = if links > NAMED + 1 { NAMED } else { links };
        for (k, pair) in cycle.windows(2).enumerate() {
            let reason = g.find_edge(pair[1], pair[0]).map(|e| g[e]).unwrap_or(Reason::DependsOn);
            if reason == Reason::Serial && serial_hint.is_none() {
                serial_hint = Some((name(pair[0]), name(pair[1])));
            }
            if k < shown {
                let link = if k == 0 { " waits for" } else { ", which waits for" };
                text.push_str(&format!("{link} {} ({})", name(pair[1]), reason.describe()));
            } else if k + 1 == links {
                let more = links - shown - 1;
                text.push_str(&format!(
                    ", and so on through {more} more, the last of which waits for {} ({})",
                    name(pair[1]),
                    reason.describe()
                ));
            }
        }
        let first = cycle.iter().find_map(|v| match g[*v] {
            Node::Item(i) => Some(i),
            _ => None,
        });
        let loc = first.map(|ItemId(i)| specs[i].location()).unwrap_or_default();
        diags.push(
            Diagnostic::error(loc, format!("{} cycle: {text}", plan.target.name())).on(DEPENDS_ON).help(match serial_hint {
                Some((later, earlier)) => format!(
                    "{later} sorts after the serial {earlier} in Helm order (weight, then name); mark {earlier} helm.sh/hook-parallel: \"true\", rename or reweight one of them, or drop a helm.sh/depends-on on the cycle"
                ),
                None => "remove one helm.sh/depends-on on the cycle".to_string(),
            }),
        );
        seen_any = true;
    }
    if !seen_any {
        // Cannot happen for a well-formed graph; still never stay silent.
        let names: Vec<String> = blocked.iter().map(|&i| plan.items[i].reference.to_string()).collect();
        diags.push(Diagnostic::error(
            Location::default(),
            format!("{} can never start: {}", plan.target.name(), crate::base::text::first_few(&names, ", ")),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::input;

    fn errors(chart: &str) -> Vec<String> {
        let mut diags = Diagnostics::default();
        let (_, release) = input::parse(chart.as_bytes(), &mut diags).unwrap();
        build(&release, &[], Options::default(), &mut diags);
        diags.errors().map(|d| d.message.clone()).collect()
    }

    fn doc(kind: &str, name: &str, annotations: &str) -> String {
        format!("---\n# Source: c/templates/{name}.yaml\nkind: {kind}\nmetadata:\n  name: {name}\n  annotations:\n{annotations}")
    }

    /// Issue 32: a reference to nothing names what it was probably meant to.
    #[test]
    fn a_dangling_reference_names_the_item_a_typo_away() {
        let hook = |kind: &str, name: &str, depends: &str| {
            let depends =
                if depends.is_empty() { String::new() } else { format!("    helm.sh/depends-on: {depends}\n") };
            doc(kind, name, &format!("    helm.sh/hook: pre-install\n{depends}"))
        };
        let chart = [
            hook("Job", "a-preflight", ""),
            hook("Job", "b", "Job/a-preflgiht"),
            hook("Job", "c", "job/a-preflight"),
            hook("Job", "d", "Job/zzz"),
            hook("Job", "e", "Job/f"),
            hook("Job", "f-x", ""),
        ]
        .concat();
        assert_eq!(
            errors(&chart),
            [
                "Job/a-preflgiht is not a pre-install hook: no hook of this release has that kind and name; \
                 did you mean Job/a-preflight?",
                "job/a-preflight is not a pre-install hook: no hook of this release has that kind and name; \
                 did you mean Job/a-preflight?",
                "Job/zzz is not a pre-install hook: no hook of this release has that kind and name",
                // A short name gets one edit: "f" is not "f-x"'s typo.
                "Job/f is not a pre-install hook: no hook of this release has that kind and name",
            ]
        );
        // Resources: the same, among resources.
        let chart = [
            doc("ConfigMap", "settings", "    helm.sh/resource-group: a\n"),
            doc("Deployment", "web", "    helm.sh/depends-on: ConfigMap/setings\n"),
        ]
        .concat();
        assert_eq!(
            errors(&chart),
            ["ConfigMap/setings is not a resource of this release: no resource of this release has that kind and \
              name; did you mean ConfigMap/settings?"]
        );
    }

    /// A reference to the referring item itself is never what was meant.
    #[test]
    fn the_referring_item_is_not_suggested() {
        let chart = doc("Job", "migrate", "    helm.sh/hook: test\n    helm.sh/depends-on: Job/migrat\n");
        assert_eq!(errors(&chart), ["Job/migrat is not a test hook: no hook of this release has that kind and name"]);
    }
}
