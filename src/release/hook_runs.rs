//! The last run of an event's hooks as the release record keeps it (each
//! hook's `last_run`, which `helm test`, `helm install` … and `helm hooks`
//! write), as the summary a run returns, so that every output of `run` can
//! print it ([`stored_summary`]; `helm hooks status` shows it). It says only
//! what the record shows, and what the cluster shows now of a hook the
//! record leaves running ([`as_seen_now`]):
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
//!   `Running` (or `Unknown`) behind: [`Phase::Abandoned`] here, which
//!   [`as_seen_now`] turns into what the cluster shows now.
//!
//! Outputs are not stored: there are none.

use serde_json::Value;

use crate::base::time::{go_time, parse_time};
use crate::exec::executor::{Millis, Phase};
use crate::exec::runner::{HookRow, RunEnd, Summary};
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
    let rows: Vec<HookRow> = plan.items.iter().enumerate().map(|(i, it)| row(it, &runs[i], before[i])).collect();
    let started_at = rows.iter().filter_map(|r| r.started_at).min().unwrap_or_default();
    let ended_at = rows.iter().filter_map(|r| r.completed_at.or(r.started_at)).max().unwrap_or(started_at);
    let failed = rows.iter().any(|r| r.phase == Phase::Failed);
    Summary {
        event: plan.target.name().to_string(),
        outcome: if failed { RunEnd::Failed } else { RunEnd::Succeeded },
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
        left_running: Vec::new(),
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
fn row(it: &crate::plan::Item, run: &Result<Option<Stored>, String>, before: Option<Millis>) -> HookRow {
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
    HookRow::new(it, (started_at, completed_at, phase), message)
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
pub fn as_seen_now(row: &mut HookRow, kind: &str, seen: &SeenNow) {
    use crate::ready::completion::{finished_at, hook_completion, Completion};
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
