//! `helm hooks status`'s reading of the release record (`release::hook_runs`): the
//! last run as the record has it, abandoned hooks, the event a run is
//! credited to, and stock `helm test`'s record — each checked through the
//! summary and the outputs `run` prints.

use serde_json::Value;

use helm_hooks::base::time::parse_time;

use helm_hooks::exec::executor::Phase;
use helm_hooks::exec::runner::Totals;
use helm_hooks::exec::runner::{RunEnd, Summary};
use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::event::Event;
use helm_hooks::model::input::Release;
use helm_hooks::plan::{self, Target};
use helm_hooks::release::hook_runs::*;
use helm_hooks::render::text::run::summary as summary_text;
use helm_hooks::render::timeline::{from_run, ReportedCommand, Verdict};

/// A hook of the stored release: name, weight, events, extra annotations, `last_run`.
struct H(&'static str, i64, &'static str, &'static str, Value);

/// A stored revision with these hooks and this `info`, and the plan of `event`.
fn stored_with(version: u64, info: Value, hooks: &[H], event: Event) -> (Value, Release, plan::Plan) {
    let hooks: Vec<Value> = hooks
        .iter()
        .map(|H(name, weight, events, extra, run)| {
            serde_json::json!({"name": name, "kind": "Job", "path": format!("c/templates/{name}.yaml"),
            "manifest": format!("kind: Job\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/hook: {events}\n    helm.sh/hook-weight: \"{weight}\"\n{extra}"),
            "events": events.split(',').collect::<Vec<_>>(), "last_run": run})
        })
        .collect();
    let json = serde_json::json!({"name": "r", "namespace": "ns", "version": version, "manifest": "", "info": info,
        "chart": {"metadata": {"name": "c"}}, "hooks": hooks});
    let mut diags = Diagnostics::default();
    let release = helm_hooks::model::input::from_release_value(&json, &mut diags).unwrap();
    let plan = plan::build(&release, &[Target::Hooks(event)], plan::PlanOptions::default(), &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.0);
    (json, release, plan)
}

/// Three test hooks: weight 0 (`a`), then weight 1 (`b`, `c`).
fn stored(runs: [Value; 3]) -> (Value, Release, plan::Plan) {
    let [a, b, c] = runs;
    let hooks = [H("a", 0, "test", "", a), H("b", 1, "test", "", b), H("c", 1, "test", "", c)];
    stored_with(3, serde_json::json!({"description": "Upgrade complete"}), &hooks, Event::Test)
}

fn run(start: &str, end: &str, phase: &str) -> Value {
    serde_json::json!({"started_at": start, "completed_at": end, "phase": phase})
}

fn phases(s: &Summary) -> Vec<(&str, Phase)> {
    s.rows.iter().map(|r| (r.reference.as_str(), r.phase)).collect()
}

/// The record's times, to the millisecond, as the run had them; a hook
/// the last run did not reach keeps an earlier run's times (Helm leaves
/// it untouched) and is shown as not run in the last one.
#[test]
fn the_last_run_from_the_record() {
    let (json, release, plan) = stored([
        run("2026-01-02T03:04:05.123456789Z", "2026-01-02T03:04:09.5Z", "Succeeded"),
        run("2026-01-02T03:04:09.7Z", "2026-01-02T03:04:12Z", "Failed"),
        // From yesterday's run: the failure of `b` stopped today's before it.
        run("2026-01-01T03:04:09.7Z", "2026-01-01T03:04:10Z", "Succeeded"),
    ]);
    let s = stored_summary(&json, &release, &plan.events[0]);
    let t0 = parse_time("2026-01-02T03:04:05.123Z").unwrap();
    assert_eq!((s.started_at, s.ended_at), (t0, t0 + 6_877));
    assert_eq!(s.outcome, RunEnd::Failed);
    let starts: Vec<_> = s.rows.iter().map(|r| (r.reference.as_str(), r.phase, r.started_at)).collect();
    assert_eq!(
        starts,
        [
            ("Job/a", Phase::Succeeded, Some(t0)),
            ("Job/b", Phase::Failed, Some(t0 + 4_577)),
            ("Job/c", Phase::Skipped, None)
        ]
    );
    assert_eq!(s.rows[2].message, "not reached by the last run; last ran at 2026-01-01T03:04:09.7Z");

    // Never run: Helm's empty phase.
    let empty = serde_json::json!({"phase": ""});
    let (json, release, plan) = stored([empty.clone(), empty.clone(), empty]);
    let s = stored_summary(&json, &release, &plan.events[0]);
    assert!(s.rows.iter().all(|r| r.phase == Phase::Skipped && r.started_at.is_none()));
    let t = from_run(ReportedCommand::Status, &s, "r", None, Some(3));
    assert_eq!(t.verdict, Verdict::NeverRun);
}

/// A fail-fast stop leaves its sibling `Running` in the record: it is
/// abandoned, never `Running … still running`, and the totals add up;
/// what the cluster shows now replaces it, said as read now (issue 32).
#[test]
fn a_stopped_runs_hooks_are_abandoned_and_the_totals_add_up() {
    let running = serde_json::json!({"started_at": "2026-01-02T03:04:05Z", "phase": "Running"});
    let (json, release, plan) = stored([
        run("2026-01-02T03:04:05Z", "2026-01-02T03:04:07Z", "Failed"),
        running,
        serde_json::json!({"phase": ""}),
    ]);
    let mut s = stored_summary(&json, &release, &plan.events[0]);
    assert_eq!(phases(&s), [("Job/a", Phase::Failed), ("Job/b", Phase::Abandoned), ("Job/c", Phase::Skipped)]);
    let t = Totals::of(&s.rows);
    assert_eq!((t.succeeded, t.failed, t.abandoned, t.running, t.not_run), (0, 1, 1, 0, 1));
    let text = summary_text(&s);
    assert!(!text.contains("still running") && !text.contains("Running"), "{text}");
    assert!(text.contains("3 hooks of test: 0 succeeded, 1 failed, 1 abandoned, 1 not run"), "{text}");
    assert!(text.contains("  Job/b: abandoned: the run that started it stopped"), "{text}");

    // The Job completed after the run stopped: its end as the cluster has it.
    let done = serde_json::json!({"spec": {"completions": 1}, "status": {"succeeded": 1,
        "completionTime": "2026-01-02T03:04:40Z", "conditions": [{"type": "Complete", "status": "True"}]}});
    as_seen_now(&mut s.rows[1], "Job", &SeenNow::Object(done));
    assert_eq!(s.rows[1].phase, Phase::Succeeded);
    assert_eq!(s.rows[1].completed_at, parse_time("2026-01-02T03:04:40Z"));
    assert!(s.rows[1].message.contains("read from the cluster now"), "{}", s.rows[1].message);
    let text = summary_text(&s);
    assert!(text.contains("3 hooks of test: 1 succeeded, 1 failed, 1 not run"), "{text}");
    let mut row = s.rows[1].clone();
    row.phase = Phase::Abandoned;
    as_seen_now(&mut row, "Job", &SeenNow::Object(serde_json::json!({"status": {"active": 1}})));
    assert_eq!(row.phase, Phase::Running);
    assert_eq!(row.completed_at, None);
    // Its Markdown says it runs (read now), not that it was stopped.
    let mut live = s.clone();
    live.rows[1] = row.clone();
    let md = helm_hooks::render::markdown::render(&from_run(ReportedCommand::Status, &live, "r", None, Some(3)));
    assert!(md.contains("still running") && !md.contains("stopped while running"), "{md}");
    row.phase = Phase::Abandoned;
    as_seen_now(&mut row, "Job", &SeenNow::Gone);
    assert_eq!(row.phase, Phase::Abandoned);
    assert!(row.message.contains("its object is gone"), "{}", row.message);
    // Helm's `Unknown` (set in memory after `Running` was stored) is the same.
    let unknown = serde_json::json!({"started_at": "2026-01-02T03:04:05Z", "phase": "Unknown"});
    let (json, release, plan) = stored([unknown, serde_json::json!({"phase": ""}), serde_json::json!({"phase": ""})]);
    assert_eq!(stored_summary(&json, &release, &plan.events[0]).rows[0].phase, Phase::Abandoned);
}

/// A `pre-install,pre-upgrade` hook's one `last_run` is credited to the
/// event the revision's operation ran (issue 32).
#[test]
fn a_run_is_credited_to_the_event_it_ran_for() {
    let ran = || run("2026-01-02T03:04:05Z", "2026-01-02T03:04:07Z", "Succeeded");
    let hooks = || [H("m", 0, "pre-install,pre-upgrade", "", ran())];
    let upgrade = serde_json::json!({"description": "Upgrade complete"});
    let (json, release, plan) = stored_with(2, upgrade.clone(), &hooks(), Event::PreUpgrade);
    assert_eq!(phases(&stored_summary(&json, &release, &plan.events[0])), [("Job/m", Phase::Succeeded)]);
    let (json, release, plan) = stored_with(2, upgrade, &hooks(), Event::PreInstall);
    let s = stored_summary(&json, &release, &plan.events[0]);
    assert_eq!(phases(&s), [("Job/m", Phase::Skipped)]);
    assert!(
        s.rows[0].message.starts_with(
            "not run for pre-install on revision 2 (an upgrade); its last run, at 2026-01-02T03:04:05Z, was for \
             pre-upgrade"
        ),
        "{}",
        s.rows[0].message
    );
    let install = serde_json::json!({"description": "Install complete"});
    let (json, release, plan) = stored_with(1, install, &hooks(), Event::PreInstall);
    assert_eq!(phases(&stored_summary(&json, &release, &plan.events[0])), [("Job/m", Phase::Succeeded)]);
    assert_eq!(revision_words(&json), "revision 1, an install");
    // A rollback carries the runs of the revision it went back to: not this revision's.
    let rollback = serde_json::json!({"description": "Rollback to 1", "last_deployed": "2026-01-03T00:00:00Z"});
    let hooks = [H("m", 0, "pre-install,pre-rollback", "", ran())];
    let (json, release, plan) = stored_with(3, rollback, &hooks, Event::PreRollback);
    let s = stored_summary(&json, &release, &plan.events[0]);
    assert_eq!(phases(&s), [("Job/m", Phase::Skipped)]);
    assert!(s.rows[0].message.contains("came with the hooks of the revision rolled back to"), "{}", s.rows[0].message);
}

/// Stock `helm test` runs by weight and name, not by `helm.sh/depends-on`:
/// a hook it ran before the one it depends on ran, and is shown so, not
/// as `Skipped` (issue 32).
#[test]
fn stock_helm_tests_order_is_a_run_too() {
    let hooks = [
        H(
            "conn",
            0,
            "test",
            "    helm.sh/hook-parallel: \"true\"\n    helm.sh/depends-on: Job/db\n",
            run("2026-01-02T03:04:05Z", "2026-01-02T03:04:07Z", "Succeeded"),
        ),
        H(
            "db",
            0,
            "test",
            "    helm.sh/hook-parallel: \"true\"\n",
            run("2026-01-02T03:04:08Z", "2026-01-02T03:04:10Z", "Succeeded"),
        ),
    ];
    let (json, release, plan) = stored_with(1, serde_json::json!({}), &hooks, Event::Test);
    let s = stored_summary(&json, &release, &plan.events[0]);
    assert_eq!(phases(&s), [("Job/conn", Phase::Succeeded), ("Job/db", Phase::Succeeded)]);
}
