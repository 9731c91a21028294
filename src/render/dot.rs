//! `plan -o dot`: a Graphviz picture of [`super::picture`], top to bottom in
//! the order a release lives through its events. One box per event and per
//! weight (or batch); serial hooks solid, parallel ones dashed, folded levels
//! filled; depends-on edges bold; weight and kind-order barriers drawn as
//! one small point rather than all-to-all edges.

use std::fmt::Write;

use super::picture::{self, Edge};
use crate::plan::Plan;

pub fn plan(plan: &Plan) -> String {
    let pic = picture::picture(plan);
    let mut out = String::from(
        "digraph plan {\n  rankdir=TB;\n  compound=true;\n  newrank=true;\n  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n",
    );
    for e in &pic.events {
        let _ = writeln!(out, "  subgraph \"cluster_{0}\" {{\n    label=\"{0}\";\n    fontsize=16;", e.name);
        for level in &e.levels {
            let _ = writeln!(
                out,
                "    subgraph \"cluster_{}\" {{\n      label=\"{}\";\n      color=gray60;",
                level.id,
                escape(&level.label)
            );
            for b in &level.boxes {
                let style = match (b.folded, b.parallel) {
                    (true, true) => "\"filled,dashed\", fillcolor=gray92",
                    (true, false) => "filled, fillcolor=gray92",
                    (false, true) => "dashed",
                    (false, false) => "solid",
                };
                let _ = writeln!(out, "      {} [label=\"{}\", style={style}];", b.id, escape(&b.label));
            }
            out.push_str("    }\n");
        }
        for (id, label) in &e.barriers {
            let _ = writeln!(out, "    {id} [shape=point, xlabel=\"{}\"];", escape(label));
        }
        for (a, b, kind) in &e.edges {
            let attrs = match kind {
                Edge::IntoBarrier => "[style=dotted, arrowhead=none]",
                Edge::FromBarrier => "[style=dotted]",
                Edge::Serial => "[label=\"serial\"]",
                Edge::DependsOn => "[label=\"depends-on\", penwidth=2]",
                // The barrier point says "kind order"; labels on each edge would crowd it.
                Edge::KindOrder => "[style=dashed]",
            };
            let _ = writeln!(out, "    {a} -> {b} {attrs};");
        }
        out.push_str("  }\n");
    }
    // One event after the other, top to bottom.
    for pair in pic.events.windows(2) {
        if let (Some((_, last)), Some((first, _))) = (picture::ends(&pair[0]), picture::ends(&pair[1])) {
            let _ = writeln!(
                out,
                "  {last} -> {first} [ltail=\"cluster_{}\", lhead=\"cluster_{}\", color=gray50, penwidth=2, label=\"then\"];",
                pair[0].name, pair[1].name
            );
        }
    }
    out.push_str("}\n");
    out
}

fn escape(s: &str) -> String {
    super::graph_names::visible_controls(s).replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
