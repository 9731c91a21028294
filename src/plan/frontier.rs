//! Which plan items may start: the items whose predecessors in the plan's
//! graph have all completed, in Helm order. Shared by the hook executor
//! and the resource rollout, which differ in what "complete" means (a hook
//! finished; a resource is ready) but not in how the graph opens up.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use petgraph::graph::NodeIndex;
use petgraph::Direction;

use crate::plan::event_plan::{EventPlan, ItemId, Node};

#[derive(Debug, Clone)]
pub(crate) struct Frontier {
    /// Unfinished predecessors per graph node.
    indegree: Vec<usize>,
    /// Startable items, lowest (earliest in Helm order) first.
    ready: BinaryHeap<Reverse<ItemId>>,
}

impl Frontier {
    pub(crate) fn new(plan: &EventPlan) -> Self {
        let g = &plan.graph;
        let indegree = g.node_indices().map(|v| g.neighbors_directed(v, Direction::Incoming).count()).collect();
        let mut f = Frontier { indegree, ready: BinaryHeap::new() };
        let roots: Vec<_> = g.node_indices().filter(|v| f.indegree[v.index()] == 0).collect();
        for v in roots {
            f.release(plan, v);
        }
        f
    }

    /// The next startable item in Helm order.
    pub(crate) fn pop(&mut self) -> Option<ItemId> {
        self.ready.pop().map(|Reverse(i)| i)
    }

    /// The item is complete: its successors may open up.
    pub(crate) fn complete(&mut self, plan: &EventPlan, item: ItemId) {
        let v = plan.items[item].node;
        let next: Vec<_> = plan.graph.neighbors_directed(v, Direction::Outgoing).collect();
        for w in next {
            self.indegree[w.index()] -= 1;
            if self.indegree[w.index()] == 0 {
                self.release(plan, w);
            }
        }
    }

    /// A node's predecessors are all done: barriers pass through at once,
    /// items become startable.
    fn release(&mut self, plan: &EventPlan, v: NodeIndex) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match plan.graph[v] {
                Node::Item(i) => self.ready.push(Reverse(i)),
                Node::Barrier(_) | Node::KindBarrier(..) => {
                    for w in plan.graph.neighbors_directed(v, Direction::Outgoing) {
                        self.indegree[w.index()] -= 1;
                        if self.indegree[w.index()] == 0 {
                            stack.push(w);
                        }
                    }
                }
            }
        }
    }
}
