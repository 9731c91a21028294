//! `plan -o dot`: a Graphviz picture. One cluster per event and per weight
//! (or batch); serial items are solid boxes, parallel ones dashed; edges are
//! labelled with why one item waits for another. Weight barriers are drawn
//! as one small point between weights rather than all-to-all edges.

use std::fmt::Write;

use super::node_id;
use crate::plan::{Node, Phase, Plan, Reason};

pub fn plan(plan: &Plan) -> String {
    let mut out =
        String::from("digraph plan {\n  rankdir=TB;\n  compound=true;\n  node [shape=box, fontname=\"Helvetica\"];\n");
    for e in &plan.events {
        let phase = e.phase.name();
        let level = if e.phase == Phase::Install { "batch" } else { "weight" };
        let _ = writeln!(out, "  subgraph \"cluster_{phase}\" {{\n    label=\"{phase}\";");
        let mut start = 0;
        while start < e.items.len() {
            let l = e.items[start].level;
            let end = e.items[start..].iter().position(|it| it.level != l).map_or(e.items.len(), |p| start + p);
            let shown = if e.phase == Phase::Install { l + 1 } else { l };
            let _ = writeln!(out, "    subgraph \"cluster_{phase}_{l}\" {{\n      label=\"{level} {shown}\";");
            for it in &e.items[start..end] {
                let style = if it.parallel { "dashed" } else { "solid" };
                let _ = writeln!(
                    out,
                    "      {} [label=\"{}\", style={style}];",
                    node_id(phase, &it.reference),
                    escape(&it.reference.to_string())
                );
            }
            out.push_str("    }\n");
            start = end;
        }
        let id = |v: petgraph::graph::NodeIndex| match e.graph[v] {
            Node::Item(i) => node_id(phase, &e.items[i].reference),
            Node::Barrier(l) => format!("barrier_{phase}_{}", l.to_string().replace('-', "m"))
                .replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"),
            Node::KindBarrier(l, t) => format!("kinds_{phase}_{}_{t}", l.to_string().replace('-', "m"))
                .replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"),
        };
        for v in e.graph.node_indices() {
            match e.graph[v] {
                Node::Barrier(l) => {
                    let shown = if e.phase == Phase::Install { l + 1 } else { l };
                    let _ = writeln!(out, "    {} [shape=point, xlabel=\"before {level} {shown}\"];", id(v));
                }
                Node::KindBarrier(..) => {
                    let _ = writeln!(out, "    {} [shape=point, xlabel=\"kind order\"];", id(v));
                }
                Node::Item(_) => {}
            }
        }
        for edge in e.graph.edge_indices() {
            let (a, b) = e.graph.edge_endpoints(edge).expect("edge");
            let attrs = match (e.graph[edge], e.graph[b]) {
                (Reason::Level, Node::Barrier(_) | Node::KindBarrier(..)) => "[style=dotted, arrowhead=none]",
                (Reason::Level, Node::Item(_)) => "[style=dotted]",
                (Reason::Serial, _) => "[label=\"serial\"]",
                (Reason::DependsOn, _) => "[label=\"depends-on\", penwidth=2]",
                (Reason::KindOrder, Node::KindBarrier(..)) => "[style=dashed, arrowhead=none]",
                (Reason::KindOrder, _) => "[style=dashed]",
            };
            let _ = writeln!(out, "    {} -> {} {attrs};", id(a), id(b));
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
