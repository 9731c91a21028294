//! `-o markdown` of `run`, `deploy`, `rollback`, `uninstall` and `status`:
//! what happened, for the places people already look — a CI job summary
//! (`$GITHUB_STEP_SUMMARY`), a pull or merge request note. Both GitHub and
//! GitLab render Markdown with Mermaid diagrams.
//!
//! The report is, top to bottom: a heading (release, event or operation,
//! outcome); a line of facts; the error, if any; a Mermaid `gantt` chart of
//! the [`Timeline`] (one bar per hook, resource or deletion, a section per
//! weight or batch, from the observed start and end, so the bars carry the
//! very times `-o json` has); a legend; the table; each failed hook's output
//! folded in `<details>`; the counts.
//!
//! In the chart the observed critical path ([`Timeline::critical_path`]) is
//! drawn in the chart's strong colour and everything else that succeeded in
//! grey (`done`), so the straggler of each group stands out; a failure is
//! red (`crit`), an item still running when the operation stopped is
//! outlined red (`crit, active`), and an item never started is a light
//! diamond (`active, milestone`) where the operation stopped.
//!
//! Long releases stay readable as `plan`'s pictures do ([`super::picture`]):
//! a group of more than [`FOLD_OVER`] items keeps the items that matter (on
//! the critical path, failed, cut short) and folds the rest into one bar
//! with a count per kind; when the chart would still have more than
//! [`MAX_BARS`] bars, runs of uneventful groups become one bar each. The
//! table then folds into `<details>`, failures kept above it.
//!
//! Nothing secret: the report shows what the text output shows — object
//! references, states, times, messages, and the logs of hooks whose output
//! the chart asked for (`helm.sh/show-output`, fail-fast) — never a
//! manifest. Everything that comes from the cluster or the chart is escaped
//! for where it lands: Mermaid text keeps only characters that cannot end a
//! task or a statement, table cells have Markdown and HTML neutralised, and
//! logs go in a code fence longer than any run of backticks in them.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::picture::FOLD_OVER;
use super::timeline::{At, Group, Level, ReportedCommand, Stage, State, Timeline, TimelineItem, Verdict};
use crate::base::time::{format_duration, Millis};
use crate::model::kind_order::install_rank;

/// Bars beyond which uneventful groups are merged.
pub const MAX_BARS: usize = 60;
/// Table rows beyond which the full table folds into `<details>`.
const TABLE_OPEN: usize = 30;
/// Lines of a hook's output shown (the last ones, where the error is).
const OUTPUT_LINES: usize = 200;

pub fn render(t: &Timeline) -> String {
    let mut out = String::new();
    report(&mut out, t, 3);
    out
}

fn report(out: &mut String, t: &Timeline, depth: usize) {
    let path = t.critical_path();
    heading(out, t, depth);
    if let Some(e) = &t.error {
        let mut lines = e.lines();
        let first = lines.next().unwrap_or_default();
        let _ = writeln!(out, "> **Error:** {}\n", cell(first));
        let rest: Vec<&str> = lines.collect();
        if !rest.is_empty() {
            details(out, "The whole error", &rest.join("\n"));
        }
    }
    if t.verdict == Verdict::NeverRun {
        match t.groups.is_empty() {
            true => {
                let _ = writeln!(out, "This release has no {} hooks.\n", text(&t.subject));
            }
            false => {
                let _ = writeln!(out, "No {} hook of this release has run yet.\n", text(&t.subject));
            }
        }
        return;
    }
    if t.groups.iter().any(|g| !g.items.is_empty()) {
        gantt(out, t, &path);
        table(out, t, &path);
    }
    if let Some(line) = never_applied(t) {
        let _ = writeln!(out, "{line}\n");
    }
    outputs(out, t);
    let _ = writeln!(out, "{}\n", counts(t));
    if let Some(r) = &t.recovery {
        let _ = writeln!(out, "**`--rollback-on-failure`:**\n");
        report(out, r, depth + 1);
    }
}

/// What the report is of, as the heading and the chart's title name it:
/// `test hooks`, `upgrade` (the command is said beside it, never in it, so
/// an uninstall is not `uninstall uninstall`).
fn what(t: &Timeline) -> String {
    match t.command {
        ReportedCommand::Run => format!("{} hooks", t.subject),
        ReportedCommand::Status => format!("last run of the {} hooks", t.subject),
        _ => t.subject.clone(),
    }
}

fn heading(out: &mut String, t: &Timeline, depth: usize) {
    let (mark, outcome) = match t.verdict {
        Verdict::Succeeded => ("✅", "succeeded".to_string()),
        Verdict::Failed if t.failed_fast.is_some() => ("❌", "failed fast".to_string()),
        Verdict::Failed => ("❌", "failed".to_string()),
        Verdict::ClusterError => ("⚠️", "cluster error".to_string()),
        Verdict::NeverRun => ("➖", "never run".to_string()),
    };
    let what = what(t);
    let _ = writeln!(
        out,
        "{} {mark} helm hooks {}: {} of {} {outcome}\n",
        "#".repeat(depth),
        t.command.name(),
        text(&what),
        code(&t.release)
    );
    let mut facts = Vec::new();
    if let Some(ns) = &t.namespace {
        facts.push(format!("namespace {}", code(ns)));
    }
    if let Some(r) = t.revision {
        facts.push(format!("revision {r}"));
    }
    if let Some(s) = &t.status {
        facts.push(format!("status {}", code(s)));
    }
    if t.verdict != Verdict::NeverRun {
        facts.push(format!("started {}", utc(t.started_at)));
        facts.push(format!("took {}", duration(t.ended_at.saturating_sub(t.started_at))));
    }
    if let Some((n, again)) = t.api_requests {
        facts.push(text(&crate::base::text::api_requests(n, again)));
    }
    if t.command == ReportedCommand::Status {
        facts.push("from the release record".to_string());
    }
    let _ = writeln!(out, "{}\n", facts.join(" · "));
    if let Some(f) = &t.failed_fast {
        let _ = writeln!(out, "{} failed fast (`helm.sh/hook-fail-fast`): nothing else was started, and hooks still running were not awaited.\n", code(f));
    }
}

/// `2026-01-02 03:04:05 UTC`.
fn utc(ms: Millis) -> String {
    let t = crate::base::time::go_time(ms / 1000 * 1000);
    format!("{} UTC", t.trim_end_matches('Z').replacen('T', " ", 1))
}

/// A duration as the text output prints it (tenths of a second).
fn duration(ms: Millis) -> String {
    format_duration(ms / 100 * 100)
}

// ---------------------------------------------------------------------------
// The chart.

/// How a bar is drawn (Mermaid gantt tags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// On the critical path: the chart's strong colour.
    Path,
    Done,
    Failed,
    CutShort,
    NotRun,
}

impl Look {
    fn tags(self) -> &'static str {
        match self {
            Look::Path => "",
            Look::Done => "done, ",
            Look::Failed => "crit, ",
            Look::CutShort => "crit, active, ",
            // Light, apart from the strong colour of the critical path.
            Look::NotRun => "active, milestone, ",
        }
    }
}

struct Bar {
    label: String,
    look: Look,
    start: Millis,
    end: Millis,
}

struct Section {
    title: String,
    bars: Vec<Bar>,
}

fn look(t: &Timeline, at: At, path: &std::collections::BTreeSet<At>) -> Look {
    match t.item(at).state {
        State::Succeeded if path.contains(&at) => Look::Path,
        State::Succeeded => Look::Done,
        State::Failed => Look::Failed,
        State::CutShort | State::Abandoned => Look::CutShort,
        State::NotRun => Look::NotRun,
    }
}

fn bar(t: &Timeline, at: At, path: &std::collections::BTreeSet<At>) -> Bar {
    let it = t.item(at);
    let look = look(t, at, path);
    // A diamond where the operation stopped: the item never had a time of its own.
    let (start, end) = match (it.started_at, t.end_of(it)) {
        (Some(s), Some(e)) => (s, e),
        _ => (t.ended_at, t.ended_at),
    };
    let took = duration(end.saturating_sub(start));
    let label = match it.state {
        State::Succeeded => format!("{} {took}", it.reference),
        State::Failed => format!("{} failed {took}", it.reference),
        State::CutShort => format!("{} still running {took}", it.reference),
        State::Abandoned => format!("{} abandoned", it.reference),
        State::NotRun => format!("{} not run", it.reference),
    };
    Bar { label, look, start, end }
}

/// `3 ConfigMap, 2 Deployment`, in Helm's kind order.
fn kind_counts<'a>(items: impl Iterator<Item = &'a TimelineItem>) -> String {
    let mut counts: BTreeMap<(crate::model::kind_order::KindRank, String), usize> = BTreeMap::new();
    for it in items {
        *counts.entry((install_rank(it.kind()), it.kind().to_string())).or_default() += 1;
    }
    counts.into_iter().map(|((_, k), n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ")
}

/// One folded bar over `members`, or none.
fn folded(t: &Timeline, g: &Group, members: &[usize], path: &std::collections::BTreeSet<At>, gi: usize) -> Option<Bar> {
    let first = *members.first()?;
    let items = || members.iter().map(|&i| &g.items[i]);
    let noun = crate::base::text::count(members.len(), g.noun());
    if g.items[first].state == State::NotRun {
        return Some(Bar {
            label: format!("{noun} not run ({})", kind_counts(items())),
            look: Look::NotRun,
            start: t.ended_at,
            end: t.ended_at,
        });
    }
    let start = items().filter_map(|it| it.started_at).min()?;
    let end = items().filter_map(|it| t.end_of(it)).max()?;
    let on_path = members.iter().any(|&i| path.contains(&(gi, i)));
    let look = if on_path { Look::Path } else { Look::Done };
    Some(Bar { label: format!("{noun} more ({}) {}", kind_counts(items()), duration(end - start)), look, start, end })
}

/// A group's section: `weight -5` when the chart shows one event's hooks
/// (the title names it), else `pre-upgrade, weight 0`, `batch 2`.
fn section_title(t: &Timeline, g: &Group) -> String {
    match (&g.stage, g.level) {
        (Stage::Hooks(_), Level::Weight(w)) if t.groups.iter().all(|o| o.stage == g.stage) => format!("weight {w}"),
        _ => g.label(),
    }
}

fn sections(t: &Timeline, path: &std::collections::BTreeSet<At>) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for (gi, g) in t.groups.iter().enumerate() {
        let mut bars = Vec::new();
        if g.items.len() <= FOLD_OVER {
            bars.extend((0..g.items.len()).map(|i| bar(t, (gi, i), path)));
        } else {
            // The items that tell the story, up to FOLD_OVER - 2 (room for the two folds).
            let keep: Vec<usize> = (0..g.items.len())
                .filter(|&i| {
                    path.contains(&(gi, i))
                        || matches!(g.items[i].state, State::Failed | State::CutShort | State::Abandoned)
                })
                .take(FOLD_OVER - 2)
                .collect();
            let rest = |not_run: bool| -> Vec<usize> {
                (0..g.items.len())
                    .filter(|i| !keep.contains(i) && (g.items[*i].state == State::NotRun) == not_run)
                    .collect()
            };
            bars.extend(keep.iter().map(|&i| bar(t, (gi, i), path)));
            bars.extend(folded(t, g, &rest(false), path, gi));
            bars.extend(folded(t, g, &rest(true), path, gi));
        }
        out.push(Section { title: section_title(t, g), bars });
    }
    let total: usize = out.iter().map(|s| s.bars.len()).sum();
    if total > MAX_BARS {
        out = merge_quiet(t, out, path);
    }
    out
}

/// Merges runs of consecutive groups of one stage in which every item
/// succeeded into one bar each: a serial chain of hundreds of hooks stays a
/// chart, its failures and the groups around them still one by one.
fn merge_quiet(t: &Timeline, sections: Vec<Section>, path: &std::collections::BTreeSet<At>) -> Vec<Section> {
    let quiet = |g: usize| t.groups[g].items.iter().all(|it| it.state == State::Succeeded);
    // Runs of consecutive quiet groups of one stage; a loud group is a run of its own.
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for g in 0..t.groups.len() {
        match runs.last_mut() {
            Some(run) if quiet(g) && quiet(run[0]) && t.groups[run[0]].stage == t.groups[g].stage => run.push(g),
            _ => runs.push(vec![g]),
        }
    }
    let mut sections: Vec<Option<Section>> = sections.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for run in runs {
        if run.len() == 1 {
            out.push(sections[run[0]].take().expect("each section once"));
            continue;
        }
        let groups: Vec<&Group> = run.iter().map(|&g| &t.groups[g]).collect();
        let items: Vec<&TimelineItem> = groups.iter().flat_map(|g| &g.items).collect();
        let start = items.iter().filter_map(|it| it.started_at).min().unwrap_or(t.started_at);
        let end = items.iter().filter_map(|it| t.end_of(it)).max().unwrap_or(start);
        let on_path = path.iter().any(|(g, _)| run.contains(g));
        let label = format!(
            "{} in {} groups ({}) {}",
            crate::base::text::count(items.len(), groups[0].noun()),
            groups.len(),
            kind_counts(items.iter().copied()),
            duration(end - start)
        );
        let look = if on_path { Look::Path } else { Look::Done };
        out.push(Section {
            title: format!("{} to {}", section_title(t, groups[0]), section_title(t, groups[groups.len() - 1])),
            bars: vec![Bar { label, look, start, end }],
        });
    }
    out
}

fn gantt(out: &mut String, t: &Timeline, path: &std::collections::BTreeSet<At>) {
    let sections = sections(t, path);
    let title = format!("{} of {}", what(t), t.release);
    // Section titles are drawn left of the chart in a fixed margin (75 px by
    // default): widened to the longest title, at about 7 px a character.
    let widest = sections.iter().map(|s| mermaid(&s.title).chars().count()).max().unwrap_or(0);
    let padding = (widest * 7 + 20).max(75);
    let _ = writeln!(out, "```mermaid\n%%{{init: {{\"gantt\": {{\"leftPadding\": {padding}}}}}}}%%\ngantt");
    let _ = writeln!(out, "  title {}", mermaid(&title));
    // Raw epoch milliseconds: the bars carry the very times of `-o json`, and
    // the axis shows the reader's wall clock, ticks at a round interval.
    let span = t.ended_at.saturating_sub(t.started_at);
    let (format, tick) = axis(span);
    let _ = writeln!(out, "  dateFormat x\n  axisFormat {format}\n  tickInterval {tick}\n  todayMarker off");
    let mut n = 0;
    for s in sections {
        let _ = writeln!(out, "  section {}", mermaid(&s.title));
        for b in s.bars {
            n += 1;
            let end = if b.look != Look::NotRun && b.end <= b.start { b.start + min_bar(span) } else { b.end };
            let _ = writeln!(out, "    {} :{}t{n}, {}, {end}", mermaid(&b.label), b.look.tags(), b.start);
        }
    }
    out.push_str("```\n\n");
    // `status` reads a stopped run's hooks from the cluster: they run, or are abandoned.
    let outlined =
        if t.command == ReportedCommand::Status { "still running or abandoned" } else { "stopped while running" };
    let _ = write!(
        out,
        "<sub>Strong colour: the critical path, what the operation waited for · grey: done meanwhile · \
         red: failed · outlined red: {outlined} · light ◆: not run</sub>\n\n",
    );
}

/// A deploy or rollback that failed before any resource: its table has no
/// resource to say so, so a line does.
fn never_applied(t: &Timeline) -> Option<String> {
    let failed = matches!(t.verdict, Verdict::Failed | Verdict::ClusterError);
    let acts = matches!(t.command, ReportedCommand::Deploy | ReportedCommand::Rollback);
    let any = t.groups.iter().any(|g| g.stage == Stage::Resources);
    (failed && acts && !any).then(|| {
        format!(
            "**No resource was applied:** the {} stopped before its resources, so none of them reached the cluster.",
            text(&t.subject)
        )
    })
}

/// The shortest bar drawn for `span`: an item done the moment it was applied
/// (a ConfigMap, a Service) lasted 0 ms, which Mermaid draws as nothing; it is
/// drawn a hundredth of the chart long (at least 100 ms), its label and the
/// table keeping the observed time.
fn min_bar(span: Millis) -> Millis {
    (span / 100).max(100)
}

/// The axis labels and the interval between ticks for a run of `span`:
/// at most eight ticks, never two labels alike (Mermaid's own choice
/// repeats a second at sub-second ticks).
fn axis(span: Millis) -> (&'static str, &'static str) {
    const TICKS: [(Millis, &str); 14] = [
        (200, "200millisecond"),
        (500, "500millisecond"),
        (1_000, "1second"),
        (2_000, "2second"),
        (5_000, "5second"),
        (10_000, "10second"),
        (15_000, "15second"),
        (30_000, "30second"),
        (60_000, "1minute"),
        (120_000, "2minute"),
        (300_000, "5minute"),
        (600_000, "10minute"),
        (1_800_000, "30minute"),
        (3_600_000, "1hour"),
    ];
    let (every, tick) = TICKS.iter().copied().find(|(every, _)| span / every <= 8).unwrap_or(TICKS[TICKS.len() - 1]);
    let format = if every < 1_000 { "%H:%M:%S.%L" } else { "%H:%M:%S" };
    (format, tick)
}

/// Text for Mermaid's gantt: letters, digits and the few marks that cannot
/// end a task name (`:`), start a comment (`%%`), an entity (`#`), a
/// directive or a statement (`;`); everything else becomes `_`.
fn mermaid(s: &str) -> String {
    let keep = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '.' | '/' | '_' | '-' | '(' | ')' | '+' | ',' | '=');
    let cleaned: String = s.chars().map(|c| if keep(c) { c } else { '_' }).collect();
    let trimmed = cleaned.trim();
    // Mermaid reads some leading words of a line as keywords.
    if [
        "section",
        "title",
        "dateFormat",
        "axisFormat",
        "excludes",
        "includes",
        "todayMarker",
        "tickInterval",
        "weekday",
        "click",
    ]
    .iter()
    .any(|k| trimmed.starts_with(k))
    {
        format!("_{trimmed}")
    } else {
        trimmed.to_string()
    }
}

// ---------------------------------------------------------------------------
// The table, the outputs, the counts.

fn row(t: &Timeline, at: At, path: &std::collections::BTreeSet<At>) -> String {
    let g = &t.groups[at.0];
    let it = t.item(at);
    let (mark, result) = match it.state {
        State::Succeeded if g.stage == Stage::Deletion => ("✅", "deleted".to_string()),
        State::Succeeded if g.stage == Stage::Resources => ("✅", "ready".to_string()),
        State::Succeeded => ("✅", "succeeded".to_string()),
        State::Failed => ("❌", "failed".to_string()),
        // `status`: read from the cluster now, where it still runs.
        State::CutShort if t.command == ReportedCommand::Status => ("⏳", "running".to_string()),
        State::CutShort => ("⏹️", "stopped while running".to_string()),
        State::Abandoned => ("⏹️", "abandoned".to_string()),
        State::NotRun => ("➖", "not run".to_string()),
    };
    let result = if it.message.is_empty() { result } else { format!("{result}: {}", it.message) };
    let critical = if path.contains(&at) { " · critical path" } else { "" };
    let start = it.started_at.map_or("-".to_string(), |s| format!("+{}", duration(s.saturating_sub(t.started_at))));
    let took = match (it.started_at, it.ended_at) {
        (Some(s), Some(e)) => duration(e.saturating_sub(s)),
        (Some(_), None) if it.state == State::CutShort => "still running".to_string(),
        _ => "-".to_string(),
    };
    format!(
        "| {mark} | {} | {} | {}{critical} | {start} | {took} |\n",
        code(&it.reference),
        cell(&g.label()),
        cell(&result)
    )
}

fn table(out: &mut String, t: &Timeline, path: &std::collections::BTreeSet<At>) {
    const HEAD: &str = "| | Item | Stage | Result | Started | Took |\n|---|---|---|---|---|---|\n";
    let all: Vec<At> = t.items().map(|(at, _)| at).collect();
    if all.len() <= TABLE_OPEN {
        out.push_str(HEAD);
        for &at in &all {
            out.push_str(&row(t, at, path));
        }
        out.push('\n');
        return;
    }
    let trouble: Vec<At> = all
        .iter()
        .copied()
        .filter(|&at| matches!(t.item(at).state, State::Failed | State::CutShort | State::Abandoned))
        .collect();
    if !trouble.is_empty() {
        out.push_str(HEAD);
        for &at in &trouble {
            out.push_str(&row(t, at, path));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "<details><summary>All {} items</summary>\n", all.len());
    out.push_str(HEAD);
    for &at in &all {
        out.push_str(&row(t, at, path));
    }
    out.push_str("\n</details>\n\n");
}

/// Each failed hook's output, as `helm.sh/show-output` prints it, folded.
fn outputs(out: &mut String, t: &Timeline) {
    for (_, it) in t.items() {
        let (Some(o), State::Failed) = (&it.output, it.state) else { continue };
        let (kind, name) = it.reference.split_once('/').unwrap_or(("", &it.reference));
        let name = name.rsplit('/').next().unwrap_or(name);
        let lines: Vec<&str> = o.lines().collect();
        let shown = &lines[lines.len().saturating_sub(OUTPUT_LINES)..];
        let mut block = format!("{kind} {name} output:\n");
        if shown.len() < lines.len() {
            let _ = writeln!(block, "  … {} earlier lines not shown", lines.len() - shown.len());
        }
        for l in shown {
            let _ = writeln!(block, "  {l}");
        }
        if o.is_empty() {
            block.push_str("  (no output)\n");
        }
        details(out, &format!("Output of {} (failed)", it.reference), &block);
    }
}

/// A `<details>` block holding `body` as preformatted text.
fn details(out: &mut String, summary: &str, body: &str) {
    // Control characters (terminal colours) would garble the page.
    let body: String = body.chars().filter(|&c| c == '\n' || c == '\t' || !c.is_control()).collect();
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(
        out,
        "<details><summary>{}</summary>\n\n{fence}text\n{}\n{fence}\n\n</details>\n",
        html(summary),
        body.trim_end()
    );
}

fn counts(t: &Timeline) -> String {
    let cut_short = if t.command == ReportedCommand::Status { "still running" } else { "stopped while running" };
    let mut parts = Vec::new();
    for noun in ["hook", "resource"] {
        let total: usize =
            t.groups.iter().filter(|g| g.noun() == noun && g.stage != Stage::Deletion).map(|g| g.items.len()).sum();
        if total == 0 {
            continue;
        }
        let done = if noun == "hook" { "succeeded" } else { "ready" };
        let mut p = format!("{}: {} {done}", crate::base::text::count(total, noun), t.count(noun, State::Succeeded));
        for (state, word) in [
            (State::Failed, "failed"),
            (State::CutShort, cut_short),
            (State::Abandoned, "abandoned"),
            (State::NotRun, "not run"),
        ] {
            let n = t.count(noun, state);
            if n > 0 || !matches!(state, State::CutShort | State::Abandoned) {
                let _ = write!(p, ", {n} {word}");
            }
        }
        parts.push(p);
    }
    let deleted: usize = t.groups.iter().filter(|g| g.stage == Stage::Deletion).map(|g| g.items.len()).sum();
    if deleted > 0 {
        parts.push(format!("{} deleted", crate::base::text::count(deleted, "resource")));
    }
    if parts.is_empty() {
        parts.push("nothing to do".to_string());
    }
    format!("**{}** in {}", parts.join("; "), duration(t.ended_at.saturating_sub(t.started_at)))
}

// ---------------------------------------------------------------------------
// Escaping.

/// Inline code: a fence of backticks longer than any run inside.
fn code(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{}{pad}{fence}", s.replace(['\n', '\r', '|'], " "))
}

/// HTML special characters as entities.
fn html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Text for a Markdown table cell or paragraph: HTML, Markdown marks, the
/// cell separator, `@mentions` and `$math$` neutralised, on one line.
fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("&#124;"),
            '@' => out.push_str("&#64;"),
            '\n' | '\r' | '\t' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '!' | '$' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Plain text in the heading.
fn text(s: &str) -> String {
    cell(s)
}

/// `text` as a Markdown section: a heading and the text in a fence longer
/// than any run of backticks in it, so that it shows as it was written.
pub(super) fn fenced(title: &str, text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("## {title}\n\n{fence}text\n{}\n{fence}\n", text.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::timeline::{Group, Level, Stage};

    fn timeline(reference: &str, message: &str, output: Option<&str>) -> Timeline {
        Timeline {
            command: ReportedCommand::Run,
            release: "r`x".into(),
            namespace: Some("ns".into()),
            revision: Some(2),
            subject: "test".into(),
            verdict: Verdict::Failed,
            error: Some("test hook(s) failed\n</details><script>alert(1)</script>".into()),
            failed_fast: None,
            status: None,
            started_at: 1_000,
            ended_at: 9_000,
            groups: vec![Group {
                stage: Stage::Hooks("test".into()),
                level: Level::Weight(0),
                items: vec![TimelineItem {
                    reference: reference.into(),
                    state: State::Failed,
                    started_at: Some(1_000),
                    ended_at: Some(9_000),
                    message: message.into(),
                    output: output.map(str::to_string),
                }],
            }],
            api_requests: None,
            recovery: None,
        }
    }

    /// What a chart or a hook may contain cannot end a Mermaid task, start a
    /// comment or directive, or become HTML, a link, a mention or math.
    #[test]
    fn everything_from_outside_is_escaped() {
        let md = render(&timeline(
            "Job/a:b;c#d%%e",
            "<img src=x onerror=alert(1)> | @here $x$ *b* [l](http://e) `c`",
            Some("```\n</details>\n\u{1b}[31mred\u{1b}[0m\n````"),
        ));
        let chart = md.split("```mermaid\n").nth(1).unwrap().split("\n```\n").next().unwrap();
        let bar = chart.lines().find(|l| l.contains("Job/a")).unwrap();
        assert_eq!(bar, "    Job/a_b_c_d__e failed 8s :crit, t1, 1000, 9000", "{chart}");
        assert!(
            md.contains(
                "failed: &lt;img src=x onerror=alert(1)&gt; &#124; &#64;here \\$x\\$ \\*b\\* \\[l\\](http://e) \\`c\\`"
            ),
            "{md}"
        );
        // The whole error in a fence; the log in a fence longer than its backticks, colours gone.
        assert!(md.contains("```text\n</details><script>alert(1)</script>\n```"), "{md}");
        assert!(
            md.contains("`````text\nJob a:b;c#d%%e output:\n  ```\n  </details>\n  [31mred[0m\n  ````\n`````"),
            "{md}"
        );
        assert!(md.contains("of ``r`x`` failed"), "{md}");
    }
}
