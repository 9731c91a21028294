//! Kahn's algorithm with name-sorted batches, as HIP-0025 orders resource
//! groups and subcharts.
//!
//! Unlike the reference implementation, a cycle error names only the nodes
//! that are on a cycle (strongly connected components), not everything
//! downstream of it, so the user sees exactly which declarations to change.

use std::collections::{BTreeMap, BTreeSet};

use petgraph::graphmap::DiGraphMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DagError {
    #[error("{0:?} depends on itself")]
    SelfLoop(String),
    #[error("cycle detected among nodes: {}", crate::base::text::first_few(.0, ", "))]
    Cycle(Vec<String>),
}

/// Orders `nodes` so that every node comes in a batch after all of its
/// dependencies. `deps` maps a node to the nodes it depends on; every name
/// in it must be in `nodes`.
pub fn batches(
    nodes: &BTreeSet<String>,
    deps: &BTreeMap<String, BTreeSet<String>>,
) -> Result<Vec<Vec<String>>, DagError> {
    // Inserted one by one: collect() would sort first, a sort of its own in plugin.wasm.
    let mut indegree: BTreeMap<&str, usize> = BTreeMap::new();
    for n in nodes {
        indegree.insert(n.as_str(), 0);
    }
    let mut dependents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (node, ds) in deps {
        for d in ds {
            if d == node {
                return Err(DagError::SelfLoop(node.clone()));
            }
            *indegree.get_mut(node.as_str()).expect("node of a dependency") += 1;
            dependents.entry(d.as_str()).or_default().push(node);
        }
    }
    let mut out = Vec::new();
    let mut ready: Vec<&str> = indegree.iter().filter(|(_, d)| **d == 0).map(|(n, _)| *n).collect();
    let mut done = 0;
    while !ready.is_empty() {
        crate::base::order::by(&mut ready, |a, b| a.cmp(b));
        done += ready.len();
        let mut next = Vec::new();
        for n in &ready {
            for m in dependents.get(n).into_iter().flatten() {
                let d = indegree.get_mut(m).expect("known node");
                *d -= 1;
                if *d == 0 {
                    next.push(*m);
                }
            }
        }
        out.push(ready.iter().map(|s| s.to_string()).collect());
        ready = next;
    }
    if done < nodes.len() {
        return Err(DagError::Cycle(cycle_members(deps)));
    }
    Ok(out)
}

/// The nodes that lie on a cycle, sorted.
fn cycle_members(deps: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut g = DiGraphMap::<&str, ()>::new();
    for (node, ds) in deps {
        for d in ds {
            g.add_edge(d.as_str(), node.as_str(), ());
        }
    }
    // Kosaraju's keeps its own stack; Tarjan's recursion overflows on long cycles.
    let mut members: Vec<String> = petgraph::algo::kosaraju_scc(&g)
        .into_iter()
        .filter(|scc| scc.len() > 1 || g.contains_edge(scc[0], scc[0]))
        .flatten()
        .map(str::to_string)
        .collect();
    crate::base::order::by(&mut members, |a, b| a.cmp(b));
    members
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(nodes: &[&str], edges: &[(&str, &str)]) -> Result<Vec<Vec<String>>, DagError> {
        let nodes = nodes.iter().map(|s| s.to_string()).collect();
        let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            deps.entry(to.to_string()).or_default().insert(from.to_string());
        }
        batches(&nodes, &deps)
    }

    // Helm dag_test.go vectors.
    #[test]
    fn diamond() {
        let b = run(&["a", "b", "c", "d"], &[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]).unwrap();
        assert_eq!(b, vec![vec!["a"], vec!["b", "c"], vec!["d"]]);
    }

    #[test]
    fn disconnected_components() {
        let b = run(
            &["alpha", "beta", "gamma", "delta", "epsilon", "zeta"],
            &[("alpha", "delta"), ("beta", "gamma"), ("delta", "epsilon")],
        )
        .unwrap();
        assert_eq!(b, vec![vec!["alpha", "beta", "zeta"], vec!["delta", "gamma"], vec!["epsilon"]]);
    }

    #[test]
    fn cycle_names_its_members_only() {
        let e = run(&["a", "b", "c", "d"], &[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]).unwrap_err();
        assert_eq!(e, DagError::Cycle(vec!["a".into(), "b".into(), "c".into()]));
        assert!(e.to_string().contains("cycle"));
    }

    #[test]
    fn self_loop() {
        assert_eq!(run(&["a"], &[("a", "a")]).unwrap_err(), DagError::SelfLoop("a".into()));
    }
}
