//! The plan's types: what a plan orders ([`Target`]), its items and the
//! graph between them ([`EventPlan`]), and why each edge is there
//! ([`Reason`]).

use petgraph::graph::{DiGraph, NodeIndex};

use super::batch::Batch;
use crate::model::event::Event;
use crate::model::reference::ObjectRef;

#[derive(Debug, Clone, Copy)]
pub struct PlanOptions {
    /// Most hooks running at once; 1 is Helm's serial behaviour.
    pub parallel: usize,
    /// Treat hooks without `helm.sh/hook-parallel` as parallel.
    pub parallel_all: bool,
    /// Most resources applied and not yet ready at once; `None`: a whole
    /// batch at once, as Helm applies a release.
    pub parallel_resources: Option<usize>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions { parallel: 1, parallel_all: false, parallel_resources: None }
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
    pub(super) fn describe(self) -> &'static str {
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
    pub(crate) after_level: Option<i64>,
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
    pub(crate) notes: Vec<String>,
    /// Advice for `plan` (hooks): what could run in parallel. Filled in by
    /// the caller that wants it ([`estimate::hint`]).
    pub(crate) hints: Vec<String>,
    /// How long the hooks would take, from their last runs.
    pub(crate) estimate: Option<Estimate>,
}

impl EventPlan {
    /// Every item, in Helm order.
    pub fn ids(&self) -> impl Iterator<Item = ItemId> {
        (0..self.items.len()).map(ItemId)
    }

    /// By item: whether something is ordered after it — another item names
    /// it in `helm.sh/depends-on`, or it is in a batch (a level) a later one
    /// follows. What that asks of a Job is `ready`'s to say.
    pub(crate) fn ordered_after(&self) -> Vec<bool> {
        let last = self.items.iter().map(|i| i.level).max().unwrap_or_default();
        let mut after: Vec<bool> = self.items.iter().map(|i| i.level < last).collect();
        for item in &self.items {
            for &(before, reason) in &item.after {
                if reason == Reason::DependsOn {
                    after[before.0] = true;
                }
            }
        }
        after
    }
}

#[derive(Debug, Clone)]
pub struct Plan {
    pub(crate) options: PlanOptions,
    pub events: Vec<EventPlan>,
}

/// Run times of one event's hooks, if each took as long as its last run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Estimate {
    /// Under the plan's `--parallel` and its graph.
    pub(crate) planned_ms: u64,
    /// One at a time, as Helm runs them.
    pub(crate) serial_ms: u64,
}
