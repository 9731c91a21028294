//! `plan -o text`: what runs together, and for each item what it waits for
//! and why. Built for a terminal, read top to bottom.

use std::fmt::Write;

use crate::model::input::Release;
use crate::plan::{EventPlan, ItemId, Plan, Reason, Target};
use crate::render::item_facts::{facts, refs};

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
    let o = &plan.options;
    let _ = write!(out, "{header}: hooks --parallel {}", o.parallel.max(1));
    if o.parallel_all {
        out.push_str(" --parallel-all");
    }
    match o.parallel_resources {
        Some(n) => {
            let _ = writeln!(out, ", resources --parallel-resources {n}");
        }
        None => out.push_str(", resources a batch at a time\n"),
    }
    if plan.events.is_empty() {
        let _ = writeln!(out, "\nNothing to run: the input has no hooks or resources for the events asked.");
    }
    // Events whose plans read the same (ingress-nginx's pre-install and
    // pre-upgrade hooks are one set of documents) are printed once.
    let mut bodies: Vec<(Vec<&str>, String)> = Vec::new();
    for e in &plan.events {
        let body = event(release, e, o.parallel.max(1));
        match bodies.iter_mut().find(|(_, b)| *b == body) {
            Some((names, _)) => names.push(e.target.name()),
            None => bodies.push((vec![e.target.name()], body)),
        }
    }
    for (names, body) in bodies {
        let _ = write!(out, "\n{}: {body}", names.join(", "));
    }
    out
}

/// Everything printed for one event after its name; `limit` is `--parallel`.
fn event(release: &Release, plan: &EventPlan, limit: usize) -> String {
    let mut out = String::new();
    let install = plan.target == Target::Install;
    let noun = if install { "resource" } else { "hook" };
    let n = plan.items.len();
    if n == 0 {
        let _ = writeln!(out, "no {noun}s");
        return out;
    }
    if install {
        install_lines(release, plan, &mut out);
    } else {
        hook_lines(plan, limit, &mut out);
    }
    out.push_str(&table(release, plan));
    out
}

/// The install's count of resources and batches, its notes, each batch,
/// and its waves when they are not its batches.
fn install_lines(release: &Release, plan: &EventPlan, out: &mut String) {
    let (n, noun) = (plan.items.len(), "resource");
    let batches = plan.batches.len();
    let _ = writeln!(
        out,
        "{} in {}{}",
        crate::base::text::count(n, noun),
        crate::base::text::count(batches, "batch"),
        if batches == 1 { "" } else { ", each ready before the next" }
    );
    for note in &plan.notes {
        out.push_str(&crate::base::text::wrap(&format!("note: {note}"), "  ", "        "));
    }
    for (b, batch) in plan.batches.iter().enumerate() {
        let line = format!(
            "batch {:<3} {}: {}",
            b + 1,
            crate::plan::batch::describe(&plan.batches, b),
            members(release, batch)
        );
        out.push_str(&crate::base::text::wrap(&line, "  ", "            "));
    }
    let by_batch = plan.waves.len() == plan.batches.len()
        && plan.waves.iter().zip(&plan.batches).all(|(w, b)| w.len() == b.resources.len());
    if !by_batch {
        waves_lines(plan, out);
    }
}

/// An event's count of hooks, its critical path, estimate and hints, and its
/// waves when the table does not already show them.
fn hook_lines(plan: &EventPlan, limit: usize, out: &mut String) {
    let (n, noun) = (plan.items.len(), "hook");
    // Waves are worth printing only where they say more than the table,
    // which lists the items in Helm order with what each waits for.
    let in_table_order = plan.waves.iter().flatten().copied().eq(plan.ids());
    let one_at_a_time = in_table_order && plan.waves.iter().all(|w| w.len() == 1);
    let held = if limit == 1 && one_at_a_time { held_back(plan) } else { 0 };
    let _ = match (n, one_at_a_time) {
        (1, _) => writeln!(out, "1 {noun}"),
        // Under --parallel 1 the table's `parallel` hooks run one at a time
        // too: the count says so, so that it and the table agree.
        (_, true) if held > 0 => writeln!(
            out,
            "{n} {noun}s, one at a time by --parallel 1 ({held} marked parallel run together with --parallel 2)"
        ),
        (_, true) => writeln!(out, "{n} {noun}s, one at a time"),
        _ => writeln!(out, "{n} {noun}s in {}", crate::base::text::count(plan.waves.len(), "wave")),
    };
    if plan.critical_path.len() > 1 && !one_at_a_time {
        let line = format!(
            "critical path: {} of {n} {noun}s one after another: {}",
            plan.critical_path.len(),
            summarise(&refs(plan, &plan.critical_path), " -> ")
        );
        out.push_str(&crate::base::text::wrap(&line, "  ", "    "));
    }
    if let Some(e) = plan.estimate {
        let planned = crate::base::time::format_duration(e.planned_ms);
        let line = if e.planned_ms == e.serial_ms {
            format!("estimate from the last runs: {planned}")
        } else {
            let serial = crate::base::time::format_duration(e.serial_ms);
            format!("estimate from the last runs: {planned} as planned, {serial} one at a time")
        };
        out.push_str(&crate::base::text::wrap(&line, "  ", "    "));
    }
    for hint in &plan.hints {
        out.push_str(&crate::base::text::wrap(&format!("hint: {hint}"), "  ", "    "));
    }
    if !in_table_order || !one_at_a_time {
        waves_lines(plan, out);
    }
}

/// How many parallel hooks share their weight with another parallel hook:
/// those that a limit above 1 would let run together.
fn held_back(plan: &EventPlan) -> usize {
    // Counted by sorting the levels, not by a scan of every item for each:
    // 10,000 parallel hooks were 10^8 comparisons, seconds under Helm.
    let mut levels: Vec<i64> = plan.items.iter().filter(|it| it.parallel).map(|it| it.level).collect();
    crate::base::order::by_key(&mut levels, |&l| (l as u64) ^ (1 << 63));
    levels.chunk_by(|a, b| a == b).filter(|run| run.len() > 1).map(<[i64]>::len).sum()
}

fn waves_lines(plan: &EventPlan, out: &mut String) {
    for (w, wave) in plan.waves.iter().enumerate() {
        // Built in place: a chain prints a line per resource, and `format!`
        // with a padded argument loops over the formatter's pieces.
        let mut line = format!("wave {}", w + 1);
        line.push_str(&"    "[(line.len() - 5).min(4)..]);
        line.push(' ');
        line.push_str(&refs(plan, wave).join(", "));
        out.push_str(&crate::base::text::wrap(&line, "  ", "            "));
    }
}

/// A batch's members: their names when few, else a count per kind.
fn members(release: &Release, batch: &crate::plan::batch::Batch) -> String {
    if batch.resources.len() <= 6 {
        let mut members = batch.resources.clone();
        crate::base::order::by_cached_key(&mut members, |&i| {
            crate::model::kind_order::install_rank(&release.resources[i].head.kind)
        });
        let refs: Vec<String> = members.iter().map(|&i| release.resources[i].reference().to_string()).collect();
        return refs.join(", ");
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    let mut sorted: Vec<&str> = batch.resources.iter().map(|&i| release.resources[i].head.kind.as_str()).collect();
    crate::base::order::by_cached_key(&mut sorted, |k| crate::model::kind_order::install_rank(k));
    for k in sorted {
        match kinds.last_mut() {
            Some((last, count)) if *last == k => *count += 1,
            _ => kinds.push((k, 1)),
        }
    }
    let counts: Vec<String> = kinds.iter().map(|(k, c)| format!("{c} {k}")).collect();
    format!("{} resources ({})", batch.resources.len(), counts.join(", "))
}

/// A long chain shortened to its ends: `a -> b -> c -> … 12 more … -> y -> z`.
fn summarise(items: &[String], sep: &str) -> String {
    if items.len() <= 8 {
        return items.join(sep);
    }
    format!("{}{sep}… {} more …{sep}{}", items[..3].join(sep), items.len() - 6, items[items.len() - 3..].join(sep))
}

/// One row per item, in Helm order: what it is, when, and what it waits for.
fn table(release: &Release, plan: &EventPlan) -> String {
    let install = plan.target == Target::Install;
    let noun = if install { "resource" } else { "hook" };
    let mut rows: Vec<Vec<String>> = plan
        .ids()
        .zip(&plan.items)
        .map(|(i, it)| {
            let f = facts(release, plan, i);
            let mut waits: Vec<String> = Vec::new();
            if let Some(l) = it.after_level {
                waits.push(if install { format!("batch {}", l + 1) } else { format!("weight {l}") });
            }
            if !it.after_kinds.is_empty() {
                waits.push(format!("weight {}'s {} (kind order)", it.level, it.after_kinds.join(", ")));
            }
            let serial: Vec<&ItemId> = it.after.iter().filter(|(_, r)| *r == Reason::Serial).map(|(p, _)| p).collect();
            if serial.len() > 3 {
                waits.push(format!("the {} {noun}s before it (serial order)", serial.len()));
            } else {
                waits.extend(serial.iter().map(|p| format!("{} (serial order)", plan.items[**p].reference)));
            }
            waits.extend(
                it.after
                    .iter()
                    .filter(|(_, r)| *r == Reason::DependsOn)
                    .map(|(p, _)| plan.items[*p].reference.to_string() + " (depends-on)"),
            );
            waits.extend(f.external.iter().map(|e| {
                let wait = if e.wait == crate::model::external::Wait::Ready { "ready" } else { "exists" };
                format!("{} (external, {wait})", e.object())
            }));
            let mut flags: Vec<String> = Vec::new();
            if f.fail_fast {
                flags.push("fail-fast".into());
            }
            if f.show_output {
                flags.push("show-output".into());
            }
            if let Some(t) = f.timeout_ms {
                flags.push(format!("timeout={}", crate::base::time::format_duration(t)));
            }
            if f.readiness.is_some() {
                flags.push("readiness".into());
            }
            let mut row =
                vec![it.reference.to_string(), if install { (it.level + 1).to_string() } else { it.level.to_string() }];
            // Every resource of a batch may run with the others: no column.
            if !install {
                row.push(if it.parallel { "parallel" } else { "serial" }.to_string());
            }
            row.push(if flags.is_empty() { "-".to_string() } else { flags.join(",") });
            row.push(if waits.is_empty() { "-".to_string() } else { waits.join(", ") });
            row
        })
        .collect();
    let mut headers = vec![noun.to_uppercase(), if install { "BATCH" } else { "WEIGHT" }.to_string()];
    if !install {
        headers.push("RUNS".into());
    }
    headers.extend(["FLAGS".into(), "WAITS FOR".into()]);
    // Put first in place: a concatenation copied every cell of every row.
    rows.insert(0, headers);
    crate::base::text::table(&rows, "  ")
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
