//! The last run of an event's hooks as the release record keeps it (each
//! hook's `last_run`, which `helm test`, `helm install` … and `helm hooks`
//! write), as the summary a run returns, so that every output of `run` can
//! print it for `helm hooks status`. It says only what the record shows:
//!
//! - **Which event.** Helm keeps one `last_run` per hook and no event in it
//!   (`pkg/release/v1/hook.go` `HookExecution`), so a `pre-install,pre-upgrade`
//!   hook's run is credited to the event the revision's operation ran
//!   ([`record::events_run`]: an install revision runs the install events,
//!   an upgrade the upgrade events, `test` any time); under any other event
//!   the hook is not run, with what its run was for.
//! - **Which run.** Helm leaves a hook a run did not reach untouched, so a
//!   record can hold runs of different times. A hook whose last run started
//!   before one of a lower weight, or before one that precedes it in Helm's
//!   order and that the plan orders before it, is from an earlier run: not
//!   run in the last one. Edges against Helm's order (a `helm.sh/depends-on`
//!   on a hook sorted later) are not used: stock `helm test` ignores them
//!   and runs by name, and its runs are as much the last run. A rollback
//!   revision carries the hooks of the revision it went back to, runs
//!   included (Helm's `rollback.go` copies them): a run that started before
//!   the revision was made is that revision's.
//! - **How it ended.** Helm stores `Running` before it creates a hook and the
//!   end after (`hooks.go`), so a run stopped by fail-fast or Ctrl-C leaves
//!   `Running` (or `Unknown`) behind: [`Phase::Abandoned`] here, which the
//!   command may turn into what the cluster shows now.
//!
//! Outputs are not stored: there are none.

use serde_json::Value;

use crate::base::time::{go_time, parse_time};
use crate::exec::executor::{Millis, Phase};
use crate::exec::run::{Outcome, Row, Summary};
use crate::model::event::Event;
use crate::model::input::Release;
use crate::plan::{EventPlan, ItemId, Target};
use crate::release::record::{self, Operation};

/// A hook's `last_run` as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stored {
    started_at: Option<Millis>,
    completed_at: Option<Millis>,
    phase: Phase,
}

fn read_last_run(release_json: &Value, position: Option<usize>) -> Option<Stored> {
    let last_run = release_json.pointer(&format!("/hooks/{}/last_run", position?))?;
    let time = |k: &str| last_run.get(k).and_then(Value::as_str).and_then(parse_time);
    let started_at = time("started_at");
    let phase = match last_run.get("phase").and_then(Value::as_str).unwrap_or_default() {
        "Succeeded" => Phase::Succeeded,
        "Failed" => Phase::Failed,
        // Stored before the hook was created, or set in memory after it, and
        // never followed by its end: the run stopped.
        "Running" | "Unknown" if started_at.is_some() => Phase::Abandoned,
        // "" (never run).
        _ => return None,
    };
    Some(Stored { started_at, completed_at: time("completed_at"), phase })
}

/// `an install`, `an upgrade`, `a rollback to 2`.
fn operation_words(op: Operation) -> String {
    match op {
        Operation::Install => "an install".into(),
        Operation::Upgrade => "an upgrade".into(),
        Operation::Rollback { to: 0 } => "a rollback".into(),
        Operation::Rollback { to } => format!("a rollback to {to}"),
        Operation::Uninstall => "an uninstall".into(),
    }
}

/// What the header says of the revision: `revision 3, an upgrade`.
pub fn revision_words(release_json: &Value) -> String {
    let revision = release_json.get("version").and_then(Value::as_u64).unwrap_or_default();
    format!("revision {revision}, {}", operation_words(record::made_by(release_json)))
}

/// Why a stored run is not one of `event` on this revision, if it is not.
fn not_for_event(release_json: &Value, hook_events: &[Event], event: Event, run: &Stored) -> Option<String> {
    let ran = record::events_run(release_json);
    let op = record::made_by(release_json);
    let revision = release_json.get("version").and_then(Value::as_u64).unwrap_or_default();
    let at = go_time(run.started_at.unwrap_or_default());
    let made = release_json.pointer("/info/last_deployed").and_then(Value::as_str).and_then(parse_time);
    if let (Operation::Rollback { .. }, Some(s), Some(made)) = (op, run.started_at, made) {
        if s < made {
            return Some(format!(
                "not run on revision {revision} ({}); its last run, at {at}, came with the hooks of the \
                 revision rolled back to",
                operation_words(op)
            ));
        }
    }
    let credited: Vec<&str> = hook_events.iter().filter(|e| ran.contains(e)).map(|e| e.as_str()).collect();
    if credited.contains(&event.as_str()) {
        return None;
    }
    let was_for = if credited.is_empty() { "another event".to_string() } else { credited.join(" or ") };
    Some(format!(
        "not run for {event} on revision {revision} ({}); its last run, at {at}, was for {was_for} \
         (Helm's last_run keeps no event: the revision's operation says which)",
        operation_words(op)
    ))
}

/// The summary of the last run of `plan`'s hooks (one event's) from the
/// stored release (`release_json`, parsed as `release`).
pub fn stored_summary(release_json: &Value, release: &Release, plan: &EventPlan) -> Summary {
    let event = match plan.target {
        Target::Hooks(e) => e,
        Target::Install => Event::Test,
    };
    // Per item: its run credited to this event, or why not.
    let runs: Vec<Result<Option<Stored>, String>> = plan
        .items
        .iter()
        .map(|it| {
            let hook = &release.hooks[it.index];
            match read_last_run(release_json, hook.position) {
                None => Ok(None),
                Some(run) => match not_for_event(release_json, &hook.events, event, &run) {
                    Some(why) => Err(why),
                    None => Ok(Some(run)),
                },
            }
        })
        .collect();
    let before = started_before(plan, &runs);
    let rows: Vec<Row> = plan.items.iter().enumerate().map(|(i, it)| row(it, &runs[i], before[i])).collect();
    let started_at = rows.iter().filter_map(|r| r.started_at).min().unwrap_or_default();
    let ended_at = rows.iter().filter_map(|r| r.completed_at.or(r.started_at)).max().unwrap_or(started_at);
    let failed = rows.iter().any(|r| r.phase == Phase::Failed);
    Summary {
        event: plan.target.name().to_string(),
        outcome: if failed { Outcome::Failed } else { Outcome::Succeeded },
        failed_fast: rows
            .iter()
            .zip(&plan.items)
            .find(|(r, it)| r.phase == Phase::Failed && release.hooks[it.index].fail_fast)
            .map(|(r, _)| r.reference.clone()),
        rows,
        started_at,
        ended_at,
        error: None,
        api_requests: None,
        annotate: true,
    }
}

/// Per item: the latest start of anything that both Helm's order and the
/// plan put before it.
fn started_before(plan: &EventPlan, runs: &[Result<Option<Stored>, String>]) -> Vec<Option<Millis>> {
    let start = |i: usize| runs[i].as_ref().ok().copied().flatten().and_then(|r| r.started_at);
    let mut before: Vec<Option<Millis>> = vec![None; plan.items.len()];
    let mut lower_levels: Option<Millis> = None;
    let mut level_max: Option<Millis> = None;
    let mut level = plan.items.first().map(|it| it.level);
    for (i, it) in plan.items.iter().enumerate() {
        if Some(it.level) != level {
            lower_levels = lower_levels.max(level_max);
            level_max = None;
            level = Some(it.level);
        }
        let mut latest = lower_levels;
        for &(ItemId(p), _) in it.after.iter().filter(|(ItemId(p), _)| *p < i) {
            latest = latest.max(start(p)).max(before[p]);
        }
        before[i] = latest;
        level_max = level_max.max(start(i));
    }
    before
}

/// An item's row from its stored run (or why it has none), given the latest
/// start of what runs before it: a run older than that was not the last run's.
fn row(it: &crate::plan::Item, run: &Result<Option<Stored>, String>, before: Option<Millis>) -> Row {
    let (started_at, completed_at, phase, message) = match run {
        Err(why) => (None, None, Phase::Skipped, why.clone()),
        Ok(None) => (None, None, Phase::Skipped, String::new()),
        Ok(Some(run)) if matches!((run.started_at, before), (Some(s), Some(b)) if s < b) => {
            let at = go_time(run.started_at.unwrap_or_default());
            (None, None, Phase::Skipped, format!("not reached by the last run; last ran at {at}"))
        }
        Ok(Some(run)) => {
            let message = if run.phase == Phase::Abandoned {
                "abandoned: the run that started it stopped (fail-fast, Ctrl-C) before it ended, \
                 leaving it recorded as started"
                    .to_string()
            } else {
                String::new()
            };
            (run.started_at, run.completed_at, run.phase, message)
        }
    };
    Row::new(it, (started_at, completed_at, phase), message)
}

/// What the cluster shows now of an abandoned hook's object.
#[derive(Debug, Clone, PartialEq)]
pub enum SeenNow {
    Object(Value),
    /// Deleted (by a delete policy, or by hand).
    Gone,
    /// The GET failed: why.
    Unreadable(String),
}

/// An abandoned row as the cluster shows its hook now: its end as its object
/// says it (said as read now, since the record never had it), still running,
/// or abandoned still when the object is gone or cannot be read.
pub fn as_seen_now(row: &mut Row, kind: &str, seen: &SeenNow) {
    use crate::exec::status::{finished_at, hook_completion, Completion};
    if row.phase != Phase::Abandoned {
        return;
    }
    let object = match seen {
        SeenNow::Object(o) => o,
        SeenNow::Gone => {
            row.message = "abandoned: the run that started it stopped before it ended, and its object is gone \
                           (deleted by a policy or by hand), so how it ended is not known"
                .into();
            return;
        }
        SeenNow::Unreadable(why) => {
            row.message = format!(
                "abandoned: the run that started it stopped before it ended; its object could not be read: {why}"
            );
            return;
        }
    };
    const STOPPED: &str = "read from the cluster now; the run that started it stopped before it ended";
    match hook_completion(kind, object) {
        // A kind Helm does not wait for is done once it exists.
        None => {
            row.phase = Phase::Succeeded;
            row.message = format!("created ({STOPPED})");
        }
        Some(Completion::InProgress) => {
            row.phase = Phase::Running;
            row.completed_at = None;
            row.message = format!("still running in the cluster ({STOPPED})");
        }
        Some(Completion::Succeeded { message }) => {
            row.phase = Phase::Succeeded;
            row.completed_at = finished_at(kind, object);
            row.message = format!("{message} ({STOPPED})");
        }
        Some(Completion::Failed { message, .. }) => {
            row.phase = Phase::Failed;
            row.completed_at = finished_at(kind, object);
            row.message = format!("{message} ({STOPPED})");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::Totals;
    use crate::model::diagnostic::Diagnostics;
    use crate::plan::{self, Target};
    use crate::render::report::{from_run, Command, Verdict};
    use crate::render::text::run::summary as summary_text;

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
        let release = crate::model::input::from_release_value(&json, &mut diags).unwrap();
        let plan = plan::build(&release, &[Target::Hooks(event)], plan::Options::default(), &mut diags);
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
        assert_eq!(s.outcome, Outcome::Failed);
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
        let t = from_run(Command::Status, &s, "r", None, Some(3));
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
        let md = crate::render::markdown::render(&from_run(Command::Status, &live, "r", None, Some(3)));
        assert!(md.contains("still running") && !md.contains("stopped while running"), "{md}");
        row.phase = Phase::Abandoned;
        as_seen_now(&mut row, "Job", &SeenNow::Gone);
        assert_eq!(row.phase, Phase::Abandoned);
        assert!(row.message.contains("its object is gone"), "{}", row.message);
        // Helm's `Unknown` (set in memory after `Running` was stored) is the same.
        let unknown = serde_json::json!({"started_at": "2026-01-02T03:04:05Z", "phase": "Unknown"});
        let (json, release, plan) =
            stored([unknown, serde_json::json!({"phase": ""}), serde_json::json!({"phase": ""})]);
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
        assert!(
            s.rows[0].message.contains("came with the hooks of the revision rolled back to"),
            "{}",
            s.rows[0].message
        );
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
}
