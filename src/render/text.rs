//! `plan -o text`: what runs together, and for each item what it waits for
//! and why. Built for a terminal, read top to bottom.

use std::fmt::Write;

use super::{facts, refs};
use crate::diagnostic::Diagnostics;
use crate::input::Release;
use crate::plan::{EventPlan, Phase, Plan};

pub fn plan(release: &Release, plan: &Plan) -> String {
    let mut out = String::new();
    let name = release
        .name
        .as_deref()
        .map(|n| format!("release {n}"))
        .unwrap_or_else(|| "rendered chart".into());
    let mut header = format!("Plan for {name}");
    if !release.chart.name.is_empty() {
        let _ = write!(header, " (chart {}", release.chart.name);
        if let Some(r) = release.revision {
            let _ = write!(header, ", revision {r}");
        }
        header.push(')');
    }
    let _ = writeln!(
        out,
        "{header}, --parallel {}{}",
        plan.options.parallel.max(1),
        if plan.options.parallel_all {
            " --parallel-all"
        } else {
            ""
        }
    );
    if plan.events.is_empty() {
        let _ = writeln!(
            out,
            "\nNothing to run: the input has no hooks or resources for the events asked."
        );
    }
    for e in &plan.events {
        out.push('\n');
        event(release, e, &mut out);
    }
    out
}

fn event(release: &Release, plan: &EventPlan, out: &mut String) {
    let install = plan.phase == Phase::Install;
    let noun = if install { "resource" } else { "hook" };
    let n = plan.items.len();
    let _ = writeln!(
        out,
        "{}: {n} {noun}{} in {} wave{}; critical path {} ({})",
        plan.phase.name(),
        plural(n),
        plan.waves.len(),
        plural(plan.waves.len()),
        plan.critical_path.len(),
        refs(plan, &plan.critical_path).join(" -> ")
    );
    if install {
        for (b, batch) in plan.batches.iter().enumerate() {
            let what = if batch.groups.is_empty() {
                "unsequenced".to_string()
            } else {
                format!("group {}", batch.groups.join(", "))
            };
            let members: Vec<String> = batch
                .resources
                .iter()
                .map(|&i| release.resources[i].reference().to_string())
                .collect();
            let _ = writeln!(
                out,
                "  batch {:<3} {} {what}: {}",
                b + 1,
                batch.chart,
                members.join(", ")
            );
        }
    }
    for (w, wave) in plan.waves.iter().enumerate() {
        let _ = writeln!(out, "  wave {:<4} {}", w + 1, refs(plan, wave).join(", "));
    }
    let level = if install { "BATCH" } else { "WEIGHT" };
    let rows: Vec<[String; 5]> = plan
        .items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let f = facts(release, plan, i);
            let mut waits: Vec<String> = Vec::new();
            if let Some(l) = it.after_level {
                waits.push(if install {
                    format!("batch {}", l + 1)
                } else {
                    format!("weight {l}")
                });
            }
            waits.extend(
                it.after
                    .iter()
                    .map(|(p, r)| format!("{} ({})", plan.items[*p].reference, r.describe())),
            );
            let mut flags = Vec::new();
            if f.fail_fast {
                flags.push("fail-fast");
            }
            if f.show_output {
                flags.push("show-output");
            }
            [
                it.reference.to_string(),
                if install {
                    (it.level + 1).to_string()
                } else {
                    it.level.to_string()
                },
                if it.parallel { "parallel" } else { "serial" }.to_string(),
                if waits.is_empty() {
                    "-".to_string()
                } else {
                    waits.join(", ")
                },
                flags.join(","),
            ]
        })
        .collect();
    let headers = [
        noun.to_uppercase(),
        level.to_string(),
        "RUNS".to_string(),
        "WAITS FOR".to_string(),
        "FLAGS".to_string(),
    ];
    let widths: Vec<usize> = (0..4)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([headers[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut line = |cells: &[String; 5]| {
        let mut l = format!(
            "  {:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        );
        l.truncate(l.trim_end().len());
        let _ = writeln!(out, "{l}");
    };
    line(&headers);
    for r in &rows {
        line(r);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Diagnostics for a terminal, one block per problem, errors first, then a
/// count. `strict` applies lint's severities.
pub fn diagnostics(diags: &Diagnostics, strict: bool) -> String {
    let mut out = String::new();
    let is_error = |d: &crate::diagnostic::Diagnostic| d.is_error() || (strict && d.lint_error);
    let (errors, warnings): (Vec<_>, Vec<_>) = diags.0.iter().partition(|d| is_error(d));
    for d in errors.iter().chain(&warnings) {
        let mut d = (*d).clone();
        if is_error(&d) {
            d.severity = crate::diagnostic::Severity::Error;
        }
        let _ = writeln!(out, "{d}");
    }
    if !errors.is_empty() || !warnings.is_empty() {
        let _ = writeln!(
            out,
            "{} error{}, {} warning{}",
            errors.len(),
            plural(errors.len()),
            warnings.len(),
            plural(warnings.len())
        );
    }
    out
}
