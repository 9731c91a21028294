//! `plan -o mermaid`: the same picture as DOT for Markdown viewers.
//! Serial items are rectangles, parallel ones rounded; weight barriers are
//! small circles between weights.

use std::fmt::Write;

use super::node_id;
use crate::plan::{Node, Phase, Plan, Reason};

pub fn plan(plan: &Plan) -> String {
    let mut out = String::from("flowchart TD\n");
    for e in &plan.events {
        let phase = e.phase.name();
        let level = if e.phase == Phase::Install { "batch" } else { "weight" };
        let _ = writeln!(out, "  subgraph {}[\"{phase}\"]", sanitize(&format!("ev_{phase}")));
        let mut start = 0;
        while start < e.items.len() {
            let l = e.items[start].level;
            let end = e.items[start..].iter().position(|it| it.level != l).map_or(e.items.len(), |p| start + p);
            let shown = if e.phase == Phase::Install { l + 1 } else { l };
            let _ = writeln!(out, "    subgraph {}[\"{level} {shown}\"]", sanitize(&format!("lv_{phase}_{l}")));
            for it in &e.items[start..end] {
                let label = it.reference.to_string().replace('"', "#quot;");
                let (open, close) = if it.parallel { ("(", ")") } else { ("[", "]") };
                let _ = writeln!(out, "      {}{open}\"{label}\"{close}", node_id(phase, &it.reference));
            }
            out.push_str("    end\n");
            start = end;
        }
        out.push_str("  end\n");
        let id = |v: petgraph::graph::NodeIndex| match e.graph[v] {
            Node::Item(i) => node_id(phase, &e.items[i].reference),
            Node::Barrier(l) => sanitize(&format!("barrier_{phase}_{l}")),
            Node::KindBarrier(l, t) => sanitize(&format!("kinds_{phase}_{l}_{t}")),
        };
        for v in e.graph.node_indices() {
            if e.graph[v].is_barrier() {
                let _ = writeln!(out, "  {}((\" \"))", id(v));
            }
        }
        for edge in e.graph.edge_indices() {
            let (a, b) = e.graph.edge_endpoints(edge).expect("edge");
            let arrow = match e.graph[edge] {
                Reason::Level => "-.->",
                Reason::Serial => "-->|serial|",
                Reason::DependsOn => "==>|depends-on|",
                Reason::KindOrder => "-.->|kind order|",
            };
            let _ = writeln!(out, "  {} {arrow} {}", id(a), id(b));
        }
    }
    out
}

fn sanitize(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}
