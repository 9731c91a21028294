//! The barriers between levels: serial items within a weight or batch,
//! every item of a level after the whole level before, and Helm's kind
//! order among the parallel hooks of one weight (docs/design.md §4). Each
//! barrier is one node, so that a plan of n items has O(n) edges.

use std::collections::BTreeMap;

use petgraph::graph::DiGraph;
use petgraph::Direction;

use crate::model::kind_order::{tier, tier_kinds};

use super::event_plan::*;

/// The items of one level (weight or batch): a run of the sorted items.
pub(super) struct LevelRun {
    level: i64,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Serial barriers, within each level: a serial item waits for every item
/// before it, and every later item waits for it. Items are sorted, so a
/// level is a run; each item learns the level before its own. Returns the
/// levels in order.
pub(super) fn serial_barriers(graph: &mut DiGraph<Node, Reason>, items: &mut [Item]) -> Vec<LevelRun> {
    let mut levels: Vec<LevelRun> = Vec::new();
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
        levels.push(LevelRun { level, start: level_start, end });
        level_start = end;
    }
    levels
}

/// Weight (or batch) barriers, reduced: from the items of the previous
/// level that no item of that level waits for, to the items of this level
/// that wait for no item of this level. The rest follow transitively, so a
/// plan keeps O(n) edges however many items share a level.
pub(super) fn level_barriers(graph: &mut DiGraph<Node, Reason>, items: &[Item], levels: &[LevelRun]) {
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
pub(super) fn kind_barriers(graph: &mut DiGraph<Node, Reason>, items: &mut [Item], start: usize, end: usize) {
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
