//! What the graph outputs draw, whatever the format: one box per event, in
//! the order a release lives through them (pre-install, the resources,
//! post-install, test, then upgrade, rollback and delete), each holding its
//! weights (or batches) top to bottom; and large levels folded into one node
//! with a count, so that a batch of a hundred resources is one box, not a
//! picture wider than Graphviz can draw.
//!
//! A level is folded when it would be too long or too wide — more than
//! [`FOLD_OVER`] items, or more than [`SIDE_BY_SIDE`] that run together and
//! would be drawn in one row — and none of its items takes part in a
//! `helm.sh/depends-on` or kind-order edge: then the items are
//! interchangeable for the picture, and one node says how many of each kind
//! there are and whether they run together or one at a time.

use std::collections::{BTreeMap, HashMap, HashSet};

use petgraph::graph::NodeIndex;

use super::graph_names::node_id;
use crate::model::kind_order::install_rank;
use crate::plan::{EventPlan, ItemId, Node, Plan, Reason, Target};

/// Levels with more items than this may be folded.
pub(super) const FOLD_OVER: usize = 8;
/// Levels with more items than this running together may be folded.
const SIDE_BY_SIDE: usize = 4;

pub(super) struct Picture {
    pub(super) events: Vec<EventPicture>,
}

pub(super) struct EventPicture {
    /// The event's name (`install` for the resources); events with the same
    /// picture are drawn once, named `pre-install, pre-upgrade`.
    pub(super) name: String,
    pub(super) levels: Vec<PictureLevel>,
    /// Barrier points: id and what they stand for.
    pub(super) barriers: Vec<(String, String)>,
    pub(super) edges: Vec<(String, String, Edge)>,
}

pub(super) struct PictureLevel {
    pub(super) id: String,
    /// `weight -5`, `batch 2 (CRDs and Namespaces)`.
    pub(super) label: String,
    pub(super) boxes: Vec<BoxNode>,
}

pub(super) struct BoxNode {
    pub(super) id: String,
    pub(super) label: String,
    /// Runs with others of its level (a parallel hook, any resource).
    pub(super) parallel: bool,
    pub(super) folded: bool,
}

/// How an edge is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Edge {
    /// Into a barrier point (no arrowhead) or out of one.
    IntoBarrier,
    FromBarrier,
    Serial,
    DependsOn,
    KindOrder,
}

/// The order a release lives through its events: install (pre, resources,
/// post), test, then upgrade, rollback and delete.
fn lifecycle_rank(target: Target) -> usize {
    const ORDER: [&str; 10] = [
        "pre-install",
        "install",
        "post-install",
        "test",
        "pre-upgrade",
        "post-upgrade",
        "pre-rollback",
        "post-rollback",
        "pre-delete",
        "post-delete",
    ];
    ORDER.iter().position(|n| *n == target.name()).unwrap_or(ORDER.len())
}

pub(super) fn picture(plan: &Plan) -> Picture {
    let mut events: Vec<&EventPlan> = plan.events.iter().collect();
    crate::base::order::by_key(&mut events, |e| lifecycle_rank(e.target) as u64);
    let mut out: Vec<(String, EventPicture)> = Vec::new();
    for e in events {
        let pic = event(e);
        let shape = signature(&pic);
        match out.iter_mut().find(|(s, _)| *s == shape) {
            Some((_, same)) => {
                same.name.push_str(", ");
                same.name.push_str(&pic.name);
            }
            None => out.push((shape, pic)),
        }
    }
    Picture { events: out.into_iter().map(|(_, p)| p).collect() }
}

/// What an event's picture shows, without the ids (which name the event):
/// two events with the same signature draw the same.
fn signature(e: &EventPicture) -> String {
    let mut label: HashMap<&str, String> = HashMap::new();
    let mut out = String::new();
    for level in &e.levels {
        out.push_str(&format!("[{}]", level.label));
        for b in &level.boxes {
            label.insert(&b.id, b.label.clone());
            out.push_str(&format!("({}|{}|{})", b.label, b.parallel, b.folded));
        }
    }
    for (id, what) in &e.barriers {
        label.insert(id, format!("barrier {what} {}", label.len()));
    }
    for (a, b, kind) in &e.edges {
        out.push_str(&format!(
            "{}>{}:{kind:?};",
            label.get(a.as_str()).map_or("?", |s| s),
            label.get(b.as_str()).map_or("?", |s| s)
        ));
    }
    out
}

fn event(e: &EventPlan) -> EventPicture {
    let target = e.target.name();
    let install = e.target == Target::Install;
    let (levels, node_of) = levels(e, &pinned(e));
    let level_word = if install { "batch" } else { "weight" };
    let id = |v: NodeIndex| match e.graph[v] {
        Node::Item(ItemId(i)) => node_of[i].clone(),
        Node::Barrier(l) => sanitize(&format!("barrier_{target}_{l}")),
        Node::KindBarrier(l, t) => sanitize(&format!("kinds_{target}_{l}_{t}")),
    };
    let mut barriers = Vec::new();
    for v in e.graph.node_indices() {
        match e.graph[v] {
            Node::Barrier(l) => {
                let shown = if install { l + 1 } else { l };
                barriers.push((id(v), format!("before {level_word} {shown}")));
            }
            Node::KindBarrier(..) => barriers.push((id(v), "kind order".to_string())),
            Node::Item(_) => {}
        }
    }
    let mut seen = HashSet::new();
    let mut edges = Vec::new();
    for edge in e.graph.edge_indices() {
        let (a, b) = e.graph.edge_endpoints(edge).expect("edge");
        let (from, to) = (id(a), id(b));
        if from == to {
            continue;
        }
        let kind = match (e.graph[edge], e.graph[b].is_barrier(), e.graph[a].is_barrier()) {
            (Reason::Level, true, _) | (Reason::KindOrder, true, _) => Edge::IntoBarrier,
            (Reason::Level, _, _) => Edge::FromBarrier,
            (Reason::KindOrder, _, _) => Edge::KindOrder,
            (Reason::Serial, _, _) => Edge::Serial,
            (Reason::DependsOn, _, _) => Edge::DependsOn,
        };
        if seen.insert((from.clone(), to.clone(), kind)) {
            edges.push((from, to, kind));
        }
    }
    EventPicture { name: target.to_string(), levels, barriers, edges }
}

/// The items touched by an edge that folding would hide.
fn pinned(e: &EventPlan) -> Vec<bool> {
    let mut pinned = vec![false; e.items.len()];
    for edge in e.graph.edge_indices() {
        if matches!(e.graph[edge], Reason::DependsOn | Reason::KindOrder) {
            let (a, b) = e.graph.edge_endpoints(edge).expect("edge");
            for v in [a, b] {
                if let Node::Item(ItemId(i)) = e.graph[v] {
                    pinned[i] = true;
                }
            }
        }
    }
    pinned
}

/// The event's levels, each item a box or folded into its level's one, and
/// the id of the node that stands for each item.
fn levels(e: &EventPlan, pinned: &[bool]) -> (Vec<PictureLevel>, Vec<String>) {
    let target = e.target.name();
    let install = e.target == Target::Install;
    let mut levels = Vec::new();
    let mut node_of: Vec<String> = vec![String::new(); e.items.len()];
    let mut start = 0;
    while start < e.items.len() {
        let l = e.items[start].level;
        let end = e.items[start..].iter().position(|it| it.level != l).map_or(e.items.len(), |p| start + p);
        let members = start..end;
        let label = if install {
            let what = e.batches.get(l as usize).map(|_| crate::plan::batch::describe(&e.batches, l as usize));
            format!("batch {}{}", l + 1, what.map(|w| format!(" ({w})")).unwrap_or_default())
        } else {
            format!("weight {l}")
        };
        let level_id = sanitize(&format!("lv_{target}_{l}"));
        let together = e.items[members.clone()].iter().filter(|it| it.parallel).count();
        let fold = (members.len() > FOLD_OVER || together > SIDE_BY_SIDE) && !members.clone().any(|i| pinned[i]);
        let boxes = if fold {
            let folded = folded(e, members.clone(), l);
            for i in members {
                node_of[i] = folded.id.clone();
            }
            vec![folded]
        } else {
            members
                .map(|i| {
                    let id = node_id(target, &e.items[i].reference);
                    node_of[i] = id.clone();
                    BoxNode {
                        id,
                        label: e.items[i].reference.to_string(),
                        parallel: e.items[i].parallel,
                        folded: false,
                    }
                })
                .collect()
        };
        levels.push(PictureLevel { id: level_id, label, boxes });
        start = end;
    }
    (levels, node_of)
}

/// The one box of level `l`'s `members`: how many, how they run, of which kinds.
fn folded(e: &EventPlan, members: std::ops::Range<usize>, l: i64) -> BoxNode {
    let install = e.target == Target::Install;
    let all_parallel = install || e.items[members.clone()].iter().all(|it| it.parallel);
    let none_parallel = !install && e.items[members.clone()].iter().all(|it| !it.parallel);
    let how = match (all_parallel, none_parallel) {
        (true, _) => "together",
        (_, true) => "one at a time",
        _ => "serial and parallel",
    };
    let noun = if install { "resources" } else { "hooks" };
    BoxNode {
        id: sanitize(&format!("fold_{}_{l}", e.target.name())),
        label: format!("{} {noun}, {how}\n{}", members.len(), kind_counts(e, members)),
        parallel: all_parallel,
        folded: true,
    }
}

/// `3 ConfigMap, 2 Deployment`, in Helm's kind order.
fn kind_counts(e: &EventPlan, members: std::ops::Range<usize>) -> String {
    let mut counts: BTreeMap<(crate::model::kind_order::KindRank, &str), usize> = BTreeMap::new();
    for it in &e.items[members] {
        *counts.entry((install_rank(&it.reference.kind), it.reference.kind.as_str())).or_default() += 1;
    }
    let parts: Vec<String> = counts.into_iter().map(|((_, k), n)| format!("{n} {k}")).collect();
    // Three kinds to a line keeps a folded box narrow.
    parts.chunks(3).map(|c| c.join(", ")).collect::<Vec<_>>().join("\n")
}

pub(super) fn sanitize(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}

/// The boxes that start and end an event, to chain events top to bottom:
/// the first box of the first level and the last of the last.
pub(super) fn ends(e: &EventPicture) -> Option<(&str, &str)> {
    let first = e.levels.first()?.boxes.first()?;
    let last = e.levels.last()?.boxes.last()?;
    Some((&first.id, &last.id))
}
