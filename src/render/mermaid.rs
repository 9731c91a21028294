//! `plan -o mermaid`: the picture of [`super::picture`] for Markdown
//! viewers, top to bottom in the order a release lives through its events.
//! Serial items are rectangles, parallel ones rounded, folded levels
//! stadium-shaped with a count; barriers are small circles.

use std::fmt::Write;

use super::picture::{self, sanitize, Edge};
use crate::plan::Plan;

pub fn plan(plan: &Plan) -> String {
    let pic = picture::picture(plan);
    let mut out = String::from("flowchart TD\n");
    for e in &pic.events {
        let _ = writeln!(out, "  subgraph {}[\"{}\"]", sanitize(&format!("ev_{}", e.name)), e.name);
        out.push_str("    direction TB\n");
        for level in &e.levels {
            let _ = writeln!(out, "    subgraph {}[\"{}\"]", level.id, text(&level.label));
            for b in &level.boxes {
                let (open, close) = match (b.folded, b.parallel) {
                    (true, _) => ("([", "])"),
                    (false, true) => ("(", ")"),
                    (false, false) => ("[", "]"),
                };
                let _ = writeln!(out, "      {}{open}\"{}\"{close}", b.id, text(&b.label));
            }
            out.push_str("    end\n");
        }
        out.push_str("  end\n");
        for (id, _) in &e.barriers {
            let _ = writeln!(out, "  {id}((\" \"))");
        }
        for (a, b, kind) in &e.edges {
            let arrow = match kind {
                Edge::IntoBarrier => "---",
                Edge::FromBarrier => "-.->",
                Edge::Serial => "-->|serial|",
                Edge::DependsOn => "==>|depends-on|",
                Edge::KindOrder => "-.->|kind order|",
            };
            let _ = writeln!(out, "  {a} {arrow} {b}");
        }
    }
    // One event after the other, top to bottom.
    for pair in pic.events.windows(2) {
        let _ = writeln!(
            out,
            "  {} ==>|then| {}",
            sanitize(&format!("ev_{}", pair[0].name)),
            sanitize(&format!("ev_{}", pair[1].name))
        );
    }
    out
}

/// A label for Mermaid: quotes as entities, line breaks as `<br/>`.
fn text(s: &str) -> String {
    super::graph_names::visible_controls(s).replace('"', "#quot;").replace('\n', "<br/>")
}
