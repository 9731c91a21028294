//! `plan -o text`: what runs together, and for each item what it waits for
//! and why. Built for a terminal, read top to bottom.

use std::fmt::Write;

use super::{facts, refs};
use crate::diagnostic::Diagnostics;
use crate::input::Release;
use crate::plan::{EventPlan, Phase, Plan, Reason};
use crate::subchart::Role;

pub fn plan(release: &Release, plan: &Plan) -> String {
    let mut out = String::new();
    let name = release.name.as_deref().map(|n| format!("release {n}")).unwrap_or_else(|| "rendered chart".into());
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
        if plan.options.parallel_all { " --parallel-all" } else { "" }
    );
    if plan.events.is_empty() {
        let _ = writeln!(out, "\nNothing to run: the input has no hooks or resources for the events asked.");
    }
    for e in &plan.events {
        out.push('\n');
        event(release, e, plan.options.parallel.max(1), &mut out);
    }
    out
}

fn event(release: &Release, plan: &EventPlan, parallel: usize, out: &mut String) {
    let install = plan.phase == Phase::Install;
    let noun = if install { "resource" } else { "hook" };
    let n = plan.items.len();
    let waves = plan.waves.len();
    if install {
        let _ = writeln!(
            out,
            "install: {n} resource{} in {} batch{}, {waves} wave{}{}",
            plural(n),
            plan.batches.len(),
            if plan.batches.len() == 1 { "" } else { "es" },
            plural(waves),
            if parallel <= 1 { " (a batch's resources are applied together, as Helm does)" } else { "" }
        );
        for (b, batch) in plan.batches.iter().enumerate() {
            let grouped_level = plan.batches.iter().any(|x| x.chart == batch.chart && x.role == Role::Groups);
            let what = match batch.role {
                Role::Groups => format!(" group {}", batch.groups.join(", ")),
                Role::Unsequenced if grouped_level => " unsequenced".to_string(),
                Role::Unsequenced => String::new(),
                Role::Definitions | Role::Release => format!(" ({})", batch.role.describe()),
            };
            let members: Vec<String> =
                batch.resources.iter().map(|&i| release.resources[i].reference().to_string()).collect();
            let _ = writeln!(out, "  batch {:<3} {}{what}: {}", b + 1, batch.chart, members.join(", "));
        }
    } else {
        let _ = writeln!(
            out,
            "{}: {n} hook{} in {waves} wave{}; critical path {} ({})",
            plan.phase.name(),
            plural(n),
            plural(waves),
            plan.critical_path.len(),
            refs(plan, &plan.critical_path).join(" -> ")
        );
    }
    for (w, wave) in plan.waves.iter().enumerate() {
        let _ = writeln!(out, "  wave {:<4} {}", w + 1, refs(plan, wave).join(", "));
    }
    let level = if install { "BATCH" } else { "WEIGHT" };
    let rows: Vec<Vec<String>> = plan
        .items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let f = facts(release, plan, i);
            let mut waits: Vec<String> = Vec::new();
            if let Some(l) = it.after_level {
                waits.push(if install { format!("batch {}", l + 1) } else { format!("weight {l}") });
            }
            let serial: Vec<&usize> = it.after.iter().filter(|(_, r)| *r == Reason::Serial).map(|(p, _)| p).collect();
            if serial.len() > 3 {
                waits.push(format!("the {} {noun}s before it (serial order)", serial.len()));
            } else {
                waits.extend(serial.iter().map(|p| format!("{} (serial order)", plan.items[**p].reference)));
            }
            waits.extend(
                it.after
                    .iter()
                    .filter(|(_, r)| *r == Reason::DependsOn)
                    .map(|(p, _)| format!("{} (depends-on)", plan.items[*p].reference)),
            );
            let mut flags = Vec::new();
            if f.fail_fast {
                flags.push("fail-fast");
            }
            if f.show_output {
                flags.push("show-output");
            }
            if f.readiness.is_some() {
                flags.push("readiness");
            }
            vec![
                it.reference.to_string(),
                if install { (it.level + 1).to_string() } else { it.level.to_string() },
                if it.parallel { "parallel" } else { "serial" }.to_string(),
                if flags.is_empty() { "-".to_string() } else { flags.join(",") },
                if waits.is_empty() { "-".to_string() } else { waits.join(", ") },
            ]
        })
        .collect();
    let headers = vec![noun.to_uppercase(), level.to_string(), "RUNS".into(), "FLAGS".into(), "WAITS FOR".into()];
    out.push_str(&super::table(&[vec![headers], rows].concat(), "  "));
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
