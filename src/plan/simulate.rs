//! The lockstep run that gives a plan its waves and critical path, and the
//! cycle that blocks it, reported by its members.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction;

use crate::base::text::NAMED;
use crate::model::annotation::DEPENDS_ON;
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};

use super::event_plan::*;
use super::spec::Spec;

/// The lockstep run: start every admissible item in Helm order up to `n`,
/// let all finish, repeat. Returns the waves and the critical path, or the
/// items left unstarted when a cycle blocks them.
/// Waves and critical path of a lockstep run.
type Simulation = (Vec<Vec<ItemId>>, Vec<ItemId>);

pub(super) fn simulate(plan: &EventPlan, n: usize) -> Result<Simulation, Vec<ItemId>> {
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
pub(super) fn report_cycle(plan: &EventPlan, specs: &[Spec], blocked: &[ItemId], diags: &mut Diagnostics) {
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
