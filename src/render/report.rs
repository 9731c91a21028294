//! What a run, deploy, rollback or uninstall really did, as one timeline,
//! whatever the format that draws it ([`super::markdown`]): its items (hooks,
//! resources, deletions) grouped by stage and by weight or batch, each with
//! the start and end that were observed — the very times `-o json` reports —
//! and the chain of items the operation waited for.
//!
//! The timeline is built from what the command already returns
//! ([`crate::exec::run::Summary`], [`crate::deploy::Report`]), or from what
//! the release record keeps of the last run of each hook ([`stored_summary`]),
//! so that a report printed later tells the same story as the one printed
//! at the time.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::deploy::{Ended, Report as DeployReport};
use crate::exec::executor::{Millis, Phase};
use crate::exec::rollout::State as ResourceState;
use crate::exec::run::{Outcome, Row, Summary};
use crate::model::input::Release;
use crate::plan::{EventPlan, ItemId};
use crate::release::record::Operation;

/// What produced the timeline: a command that just ran, or the release
/// record read afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Run,
    Deploy,
    Rollback,
    Uninstall,
    /// `helm hooks status`: the hooks' last runs as stored in the release.
    Status,
}

impl Command {
    pub fn name(self) -> &'static str {
        match self {
            Command::Run => "run",
            Command::Deploy => "deploy",
            Command::Rollback => "rollback",
            Command::Uninstall => "uninstall",
            Command::Status => "status",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Succeeded,
    /// A hook or resource failed (exit 1).
    Failed,
    /// The cluster failed the command (exit 3).
    ClusterError,
    /// Nothing of the event has run (`status` of an event never run).
    NeverRun,
}

/// Which part of an operation a group belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// One event's hooks (`pre-upgrade`, `test`).
    Hooks(String),
    Resources,
    /// Resources deleted: on uninstall, or what an upgrade or rollback removes.
    Deletion,
}

/// The level inside a stage: items of one level start only after the
/// previous level is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Weight(i64),
    /// Numbered from 1, as `deploy` prints them.
    Batch(usize),
    Deletion(usize),
}

#[derive(Debug, Clone)]
pub struct Group {
    pub stage: Stage,
    pub level: Level,
    pub items: Vec<Item>,
}

impl Group {
    /// `pre-install, weight 0`, `batch 2`, `deletion 1`: for tables and
    /// chart sections.
    pub fn label(&self) -> String {
        let level = match self.level {
            Level::Weight(w) => format!("weight {w}"),
            Level::Batch(b) => format!("batch {b}"),
            Level::Deletion(d) => format!("deletion {d}"),
        };
        match &self.stage {
            Stage::Hooks(event) => format!("{event}, {level}"),
            Stage::Resources | Stage::Deletion => level,
        }
    }

    /// What the items are called.
    pub fn noun(&self) -> &'static str {
        match self.stage {
            Stage::Hooks(_) => "hook",
            Stage::Resources | Stage::Deletion => "resource",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// A hook succeeded, a resource became ready, a deletion completed.
    Succeeded,
    Failed,
    /// Still running (or not ready) when the operation stopped: a fail-fast
    /// hook ended the run, or another item failed.
    CutShort,
    /// Never started: an earlier failure stopped the operation.
    NotRun,
}

#[derive(Debug, Clone)]
pub struct Item {
    /// `Kind/name` or `Kind/namespace/name`, as every output names it.
    pub reference: String,
    pub state: State,
    pub started_at: Option<Millis>,
    /// `None` for an item cut short: its bar ends when the operation did.
    pub ended_at: Option<Millis>,
    pub message: String,
    /// A hook's output as `helm.sh/show-output` prints it (its logs).
    pub output: Option<String>,
}

impl Item {
    pub fn kind(&self) -> &str {
        self.reference.split('/').next().unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
pub struct Timeline {
    pub command: Command,
    pub release: String,
    pub namespace: Option<String>,
    pub revision: Option<u64>,
    /// The event run (`test`) or the operation (`upgrade`, `rollback to 2`).
    pub subject: String,
    pub verdict: Verdict,
    pub error: Option<String>,
    /// The fail-fast hook that stopped the run.
    pub failed_fast: Option<String>,
    /// The release's status afterwards (deploy, rollback, uninstall).
    pub status: Option<String>,
    pub started_at: Millis,
    pub ended_at: Millis,
    pub groups: Vec<Group>,
    /// API requests sent, and how many of them were repeats.
    pub api_requests: Option<(u64, u64)>,
    /// What `--rollback-on-failure` did afterwards.
    pub recovery: Option<Box<Timeline>>,
}

/// Identifies an item: (group, item) positions.
pub type At = (usize, usize);

impl Timeline {
    pub fn items(&self) -> impl Iterator<Item = (At, &Item)> {
        self.groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| group.items.iter().enumerate().map(move |(i, it)| ((g, i), it)))
    }

    pub fn item(&self, (g, i): At) -> &Item {
        &self.groups[g].items[i]
    }

    /// Where an item's bar ends: its end, or the operation's for one cut short.
    pub fn end_of(&self, item: &Item) -> Option<Millis> {
        match (item.started_at, item.ended_at) {
            (Some(_), Some(end)) => Some(end),
            (Some(start), None) => Some(self.ended_at.max(start)),
            _ => None,
        }
    }

    /// The chain of items the operation waited for, as observed: from the
    /// item that ended last, back through whatever ended last before each
    /// one started (its predecessor in the plan, or the item whose end
    /// freed a `--parallel` slot), to the first. The executors start an item
    /// the moment what it waits for is done, so this is the path along
    /// which a faster item would have made the whole operation faster; in a
    /// group of items started together it ends on the straggler.
    ///
    /// Items cut short take no part: their end is only where the operation
    /// stopped, so after a fail-fast stop the path ends on the hook that
    /// failed. Nor do items done the moment they were created (a ConfigMap,
    /// a Service): they cost nothing, and the next item of their batch
    /// starting a few milliseconds later only follows them in the order of
    /// the requests.
    pub fn critical_path(&self) -> BTreeSet<At> {
        let timed: Vec<(At, Millis, Millis)> = self
            .items()
            .filter(|(_, it)| it.state != State::CutShort)
            .filter_map(|(at, it)| Some((at, it.started_at?, it.ended_at?)))
            .filter(|&(_, start, end)| end > start)
            .collect();
        // The latest end; on a tie the later item in the order the operation has them.
        let Some(mut current) = timed.iter().copied().max_by_key(|&(at, _, end)| (end, at)) else {
            return BTreeSet::new();
        };
        let mut path = BTreeSet::from([current.0]);
        while let Some(before) = timed
            .iter()
            .copied()
            .filter(|&(at, _, end)| end <= current.1 && at != current.0 && !path.contains(&at))
            .max_by_key(|&(at, _, end)| (end, at))
        {
            path.insert(before.0);
            current = before;
        }
        path
    }

    /// How many items of `noun` (`hook`, `resource`) are in `state`.
    pub fn count(&self, noun: &str, state: State) -> usize {
        self.groups
            .iter()
            .filter(|g| g.noun() == noun && g.stage != Stage::Deletion)
            .flat_map(|g| &g.items)
            .filter(|it| it.state == state)
            .count()
    }
}

fn hook_state(phase: Phase) -> State {
    match phase {
        Phase::Succeeded => State::Succeeded,
        Phase::Failed => State::Failed,
        Phase::Running => State::CutShort,
        Phase::Pending | Phase::Skipped => State::NotRun,
    }
}

/// A hook's message and, when it did not succeed, what it was last seen
/// waiting on (unless the message says it already, as a timeout's does).
fn with_waiting(row: &Row) -> String {
    match &row.waiting {
        Some(w) if !row.message.contains(w.as_str()) => {
            let sep = if row.message.is_empty() { "" } else { "; " };
            format!("{}{sep}last seen: {w}", row.message)
        }
        _ => row.message.clone(),
    }
}

/// One event's hooks, a group per weight in the order they ran.
fn hook_groups(summary: &Summary) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for row in &summary.rows {
        let item = Item {
            reference: row.reference.clone(),
            state: hook_state(row.phase),
            started_at: row.started_at,
            ended_at: row.completed_at,
            message: with_waiting(row),
            output: row.output.clone(),
        };
        match groups.last_mut() {
            Some(g) if g.level == Level::Weight(row.weight) => g.items.push(item),
            _ => groups.push(Group {
                stage: Stage::Hooks(summary.event.clone()),
                level: Level::Weight(row.weight),
                items: vec![item],
            }),
        }
    }
    groups
}

fn verdict(outcome: Outcome) -> Verdict {
    match outcome {
        Outcome::Succeeded => Verdict::Succeeded,
        Outcome::Failed => Verdict::Failed,
        Outcome::ClusterError => Verdict::ClusterError,
    }
}

/// `helm hooks run`'s timeline (and `status`'s, from [`stored_summary`]).
pub fn from_run(
    command: Command,
    summary: &Summary,
    release: &str,
    namespace: Option<&str>,
    revision: Option<u64>,
) -> Timeline {
    let never = command == Command::Status && summary.rows.iter().all(|r| r.started_at.is_none());
    Timeline {
        command,
        release: release.to_string(),
        namespace: namespace.map(str::to_string),
        revision,
        subject: summary.event.clone(),
        verdict: if never { Verdict::NeverRun } else { verdict(summary.outcome) },
        error: summary.error.as_ref().map(ToString::to_string),
        failed_fast: summary.failed_fast.clone(),
        status: None,
        started_at: summary.started_at,
        ended_at: summary.ended_at,
        groups: hook_groups(summary),
        api_requests: summary.api_requests,
        recovery: None,
    }
}

/// `deploy`'s, `rollback`'s and `uninstall`'s timeline: the pre-hooks, the
/// resources batch by batch, the deletions, the post-hooks.
pub fn from_deploy(command: Command, report: &DeployReport) -> Timeline {
    let mut groups = Vec::new();
    let (pre, post): (Vec<&Summary>, Vec<&Summary>) = report.hooks.iter().partition(|s| s.event.starts_with("pre-"));
    for s in pre {
        groups.extend(hook_groups(s));
    }
    for row in &report.resources {
        let (state, started_at, ended_at) = match row.state {
            ResourceState::Ready => (State::Succeeded, row.applied_at, row.ready_at),
            // Refused by the API server: never applied, over the moment it failed.
            ResourceState::Failed => (State::Failed, row.applied_at.or(row.failed_at), row.failed_at),
            ResourceState::Applied => (State::CutShort, row.applied_at, None),
            ResourceState::Pending | ResourceState::Skipped => (State::NotRun, None, None),
        };
        let item = Item {
            reference: row.reference.clone(),
            state,
            started_at,
            ended_at,
            message: row.message.clone(),
            output: None,
        };
        match groups.last_mut() {
            Some(Group { stage: Stage::Resources, level: Level::Batch(b), items }) if *b == row.batch => {
                items.push(item)
            }
            _ => groups.push(Group { stage: Stage::Resources, level: Level::Batch(row.batch), items: vec![item] }),
        }
    }
    for (n, d) in report.deletions.iter().enumerate() {
        let items = d
            .resources
            .iter()
            .map(|r| Item {
                reference: r.clone(),
                state: State::Succeeded,
                started_at: Some(d.started_at),
                ended_at: Some(d.ended_at),
                message: String::new(),
                output: None,
            })
            .collect();
        groups.push(Group { stage: Stage::Deletion, level: Level::Deletion(n + 1), items });
    }
    for s in post {
        groups.extend(hook_groups(s));
    }
    let (verdict, error) = match &report.ended {
        Ended::Done => (Verdict::Succeeded, None),
        Ended::Failed(e) if e.is_cluster() => (Verdict::ClusterError, Some(e.to_string())),
        Ended::Failed(e) => (Verdict::Failed, Some(e.to_string())),
    };
    let subject = match report.operation {
        Operation::Install => "install",
        Operation::Upgrade => "upgrade",
        Operation::Uninstall => "uninstall",
        Operation::Rollback { .. } => "rollback",
    }
    .to_string();
    Timeline {
        command,
        release: report.release.clone(),
        namespace: Some(report.namespace.clone()),
        revision: Some(report.revision),
        subject,
        verdict,
        error,
        failed_fast: report.hooks.iter().find_map(|s| s.failed_fast.clone()),
        status: (!report.status.is_empty()).then(|| report.status.clone()),
        started_at: report.started_at,
        ended_at: report.ended_at,
        groups,
        api_requests: Some((report.api_requests, report.api_requests_repeated)),
        recovery: report.recovery.as_deref().map(|r| {
            let command = if r.operation == Operation::Uninstall { Command::Uninstall } else { Command::Rollback };
            Box::new(from_deploy(command, r))
        }),
    }
}

/// The last run of `plan`'s hooks as the release record keeps it (each
/// hook's `last_run`, which `helm test`, `helm install` … and `helm hooks
/// run` write), as the summary a run returns, so that every output of `run`
/// can print it.
///
/// Helm leaves a hook that a run did not reach untouched, so a record can
/// hold runs of different times. A hook whose last run started before
/// something the plan orders before it (a lower weight, a serial
/// predecessor, `helm.sh/depends-on`) is from an earlier run: it is shown as
/// not run in the last one, with when it last ran. Outputs are not stored:
/// there are none.
pub fn stored_summary(release_json: &Value, release: &Release, plan: &EventPlan) -> Summary {
    let runs: Vec<(Option<Millis>, Option<Millis>, Phase)> = plan
        .items
        .iter()
        .map(|it| {
            let last_run = release.hooks[it.index]
                .position
                .and_then(|p| release_json.pointer(&format!("/hooks/{p}/last_run")))
                .cloned()
                .unwrap_or(Value::Null);
            let time = |k: &str| last_run.get(k).and_then(Value::as_str).and_then(crate::base::time::parse_time);
            let phase = match last_run.get("phase").and_then(Value::as_str).unwrap_or_default() {
                "Succeeded" => Phase::Succeeded,
                "Failed" => Phase::Failed,
                "Running" => Phase::Running,
                // "" (never run); Helm's "Unknown" says nothing of how it went.
                _ => Phase::Pending,
            };
            let started = time("started_at");
            match phase {
                Phase::Pending => (None, None, Phase::Skipped),
                _ => (started, time("completed_at"), phase),
            }
        })
        .collect();
    // Per item: the latest start of anything the plan orders before it.
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
        for &(ItemId(p), _) in &it.after {
            latest = latest.max(runs[p].0).max(before.get(p).copied().flatten());
        }
        before[i] = latest;
        level_max = level_max.max(runs[i].0);
    }
    let rows: Vec<Row> = plan
        .items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let (started_at, completed_at, phase) = runs[i];
            let earlier = matches!((started_at, before[i]), (Some(s), Some(b)) if s < b);
            let (started_at, completed_at, phase, message) = if earlier {
                let at = crate::base::time::go_time(started_at.unwrap_or_default());
                (None, None, Phase::Skipped, format!("not reached by the last run; last ran at {at}"))
            } else {
                (started_at, completed_at, phase, String::new())
            };
            Row {
                reference: it.reference.to_string(),
                weight: it.level,
                phase,
                started_at,
                completed_at,
                message,
                output: None,
                waiting: None,
            }
        })
        .collect();
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diagnostic::Diagnostics;
    use crate::model::event::Event;
    use crate::plan::{self, Target};

    /// A stored release with three test hooks: weight 0 (`a`), then weight 1
    /// (`b`, `c`), each with the `last_run` given.
    fn stored(runs: [serde_json::Value; 3]) -> (Value, Release, plan::Plan) {
        let hook = |name: &str, weight: i64, run: &Value| {
            serde_json::json!({"name": name, "kind": "Job", "path": format!("c/templates/{name}.yaml"),
                "manifest": format!("kind: Job\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-weight: \"{weight}\"\n"),
                "events": ["test"], "last_run": run})
        };
        let json = serde_json::json!({"name": "r", "namespace": "ns", "version": 3, "manifest": "",
            "chart": {"metadata": {"name": "c"}},
            "hooks": [hook("a", 0, &runs[0]), hook("b", 1, &runs[1]), hook("c", 1, &runs[2])]});
        let mut diags = Diagnostics::default();
        let release = crate::model::input::from_release_value(&json, &mut diags).unwrap();
        let plan = plan::build(&release, &[Target::Hooks(Event::Test)], plan::Options::default(), &mut diags);
        assert!(!diags.has_errors(), "{:?}", diags.0);
        (json, release, plan)
    }

    fn run(start: &str, end: &str, phase: &str) -> Value {
        serde_json::json!({"started_at": start, "completed_at": end, "phase": phase})
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
        let t0 = crate::base::time::parse_time("2026-01-02T03:04:05.123Z").unwrap();
        assert_eq!((s.started_at, s.ended_at), (t0, t0 + 6_877));
        assert_eq!(s.outcome, Outcome::Failed);
        let phases: Vec<_> = s.rows.iter().map(|r| (r.reference.as_str(), r.phase, r.started_at)).collect();
        assert_eq!(
            phases,
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

    /// The observed critical path: the straggler of each group, through
    /// whatever freed the next start.
    #[test]
    fn critical_path_follows_the_stragglers() {
        let item = |name: &str, start: Millis, end: Millis| Item {
            reference: format!("Job/{name}"),
            state: State::Succeeded,
            started_at: Some(start),
            ended_at: Some(end),
            message: String::new(),
            output: None,
        };
        let group =
            |w: i64, items: Vec<Item>| Group { stage: Stage::Hooks("test".into()), level: Level::Weight(w), items };
        let t = Timeline {
            command: Command::Run,
            release: "r".into(),
            namespace: None,
            revision: None,
            subject: "test".into(),
            verdict: Verdict::Succeeded,
            error: None,
            failed_fast: None,
            status: None,
            started_at: 0,
            ended_at: 100,
            groups: vec![
                group(0, vec![item("a", 0, 10), item("b", 0, 30), item("c", 0, 20)]),
                // `--parallel 1` inside the weight: e waits for d's slot.
                group(1, vec![item("d", 31, 50), item("e", 51, 60)]),
            ],
            api_requests: None,
            recovery: None,
        };
        assert_eq!(t.critical_path(), BTreeSet::from([(0, 1), (1, 0), (1, 1)]));
    }
}
