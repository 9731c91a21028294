//! What a run, deploy, rollback or uninstall really did, as one timeline,
//! whatever the format that draws it ([`super::markdown`]): its items (hooks,
//! resources, deletions) grouped by stage and by weight or batch, each with
//! the start and end that were observed — the very times `-o json` reports —
//! and the chain of items the operation waited for.
//!
//! The timeline is built from what the command already returns
//! ([`crate::exec::runner::Summary`], [`crate::deploy::Report`]), or from what
//! the release record keeps of the last run of each hook ([`super::stored`]),
//! so that a report printed later tells the same story as the one printed
//! at the time.

use std::collections::BTreeSet;

use crate::deploy::{Ended, Report as DeployReport};
use crate::exec::executor::{Millis, Phase};
use crate::exec::rollout::ResourceState;
use crate::exec::runner::{RunEnd, Summary};
use crate::release::record::Operation;

/// What produced the timeline: a command that just ran, or the release
/// record read afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportedCommand {
    Run,
    Deploy,
    Rollback,
    Uninstall,
    /// `helm hooks status`: the hooks' last runs as stored in the release.
    Status,
}

impl ReportedCommand {
    pub(super) fn name(self) -> &'static str {
        match self {
            ReportedCommand::Run => "run",
            ReportedCommand::Deploy => "deploy",
            ReportedCommand::Rollback => "rollback",
            ReportedCommand::Uninstall => "uninstall",
            ReportedCommand::Status => "status",
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
pub(super) enum Stage {
    /// One event's hooks (`pre-upgrade`, `test`).
    Hooks(String),
    Resources,
    /// Resources deleted: on uninstall, or what an upgrade or rollback removes.
    Deletion,
}

/// The level inside a stage: items of one level start only after the
/// previous level is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    Weight(i64),
    /// Numbered from 1, as `deploy` prints them.
    Batch(usize),
    Deletion(usize),
}

#[derive(Debug, Clone)]
pub(super) struct Group {
    pub(super) stage: Stage,
    pub(super) level: Level,
    pub(super) items: Vec<TimelineItem>,
}

impl Group {
    /// `pre-install, weight 0`, `batch 2`, `deletion 1`: for tables and
    /// chart sections.
    pub(super) fn label(&self) -> String {
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
    pub(super) fn noun(&self) -> &'static str {
        match self.stage {
            Stage::Hooks(_) => "hook",
            Stage::Resources | Stage::Deletion => "resource",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// A hook succeeded, a resource became ready, a deletion completed.
    Succeeded,
    Failed,
    /// Still running (or not ready) when the operation stopped: a fail-fast
    /// hook ended the run, or another item failed.
    CutShort,
    /// Never started: an earlier failure stopped the operation.
    NotRun,
    /// `status`: started by a run that stopped before it ended, and how it
    /// ended is unknown ([`Phase::Abandoned`]).
    Abandoned,
}

#[derive(Debug, Clone)]
pub(super) struct TimelineItem {
    /// `Kind/name` or `Kind/namespace/name`, as every output names it.
    pub(super) reference: String,
    pub(super) state: State,
    pub(super) started_at: Option<Millis>,
    /// `None` for an item cut short: its bar ends when the operation did.
    pub(super) ended_at: Option<Millis>,
    pub(super) message: String,
    /// A hook's output as `helm.sh/show-output` prints it (its logs).
    pub(super) output: Option<String>,
}

impl TimelineItem {
    pub(super) fn kind(&self) -> &str {
        self.reference.split('/').next().unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
pub struct Timeline {
    pub(super) command: ReportedCommand,
    pub(super) release: String,
    pub(super) namespace: Option<String>,
    pub(super) revision: Option<u64>,
    /// The event run (`test`) or the operation (`upgrade`, `rollback to 2`).
    pub(super) subject: String,
    pub verdict: Verdict,
    pub(super) error: Option<String>,
    /// The fail-fast hook that stopped the run.
    pub(super) failed_fast: Option<String>,
    /// The release's status afterwards (deploy, rollback, uninstall).
    pub(super) status: Option<String>,
    pub(super) started_at: Millis,
    pub(super) ended_at: Millis,
    pub(super) groups: Vec<Group>,
    /// API requests sent, and how many of them were repeats.
    pub(super) api_requests: Option<(u64, u64)>,
    /// What `--rollback-on-failure` did afterwards.
    pub(super) recovery: Option<Box<Timeline>>,
}

/// Identifies an item: (group, item) positions.
pub(super) type At = (usize, usize);

impl Timeline {
    pub(super) fn items(&self) -> impl Iterator<Item = (At, &TimelineItem)> {
        self.groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| group.items.iter().enumerate().map(move |(i, it)| ((g, i), it)))
    }

    pub(super) fn item(&self, (g, i): At) -> &TimelineItem {
        &self.groups[g].items[i]
    }

    /// Where an item's bar ends: its end, or the operation's for one cut short.
    pub(super) fn end_of(&self, item: &TimelineItem) -> Option<Millis> {
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
    pub(super) fn critical_path(&self) -> BTreeSet<At> {
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
    pub(super) fn count(&self, noun: &str, state: State) -> usize {
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
        Phase::Abandoned => State::Abandoned,
        Phase::Pending | Phase::Skipped => State::NotRun,
    }
}

/// A hook's message and, when it did not succeed, what it was last seen
/// waiting on (unless the message says it already, as a timeout's does).
fn with_waiting(row: &crate::exec::runner::HookRow) -> String {
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
        let item = TimelineItem {
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

fn verdict(outcome: RunEnd) -> Verdict {
    match outcome {
        RunEnd::Succeeded => Verdict::Succeeded,
        RunEnd::Failed => Verdict::Failed,
        RunEnd::ClusterError => Verdict::ClusterError,
    }
}

/// `helm hooks run`'s timeline (and `status`'s, from [`crate::release::hook_runs::stored_summary`]).
pub fn from_run(
    command: ReportedCommand,
    summary: &Summary,
    release: &str,
    namespace: Option<&str>,
    revision: Option<u64>,
) -> Timeline {
    let never = command == ReportedCommand::Status && summary.rows.iter().all(|r| r.started_at.is_none());
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
pub fn from_deploy(command: ReportedCommand, report: &DeployReport) -> Timeline {
    let mut groups = Vec::new();
    let (pre, post): (Vec<&Summary>, Vec<&Summary>) = report.hooks.iter().partition(|s| s.event.starts_with("pre-"));
    for s in pre {
        groups.extend(hook_groups(s));
    }
    groups.extend(resource_groups(report));
    groups.extend(deletion_groups(report));
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
            let command = if r.operation == Operation::Uninstall {
                ReportedCommand::Uninstall
            } else {
                ReportedCommand::Rollback
            };
            Box::new(from_deploy(command, r))
        }),
    }
}

/// The resources of a deploy, a group per batch, each over the time from its
/// apply to its readiness or failure.
fn resource_groups(report: &DeployReport) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for row in &report.resources {
        let (state, started_at, ended_at) = match row.state {
            ResourceState::Ready => (State::Succeeded, row.applied_at, row.ready_at),
            // Refused by the API server: never applied, over the moment it failed.
            ResourceState::Failed => (State::Failed, row.applied_at.or(row.failed_at), row.failed_at),
            ResourceState::Applied => (State::CutShort, row.applied_at, None),
            ResourceState::Pending | ResourceState::Skipped => (State::NotRun, None, None),
        };
        let item = TimelineItem {
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
    groups
}

/// The deletions of a deploy, a group each, in the order they were made.
fn deletion_groups(report: &DeployReport) -> Vec<Group> {
    let mut groups = Vec::new();
    for (n, d) in report.deletions.iter().enumerate() {
        let items = d
            .resources
            .iter()
            .map(|r| TimelineItem {
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
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The observed critical path: the straggler of each group, through
    /// whatever freed the next start.
    #[test]
    fn critical_path_follows_the_stragglers() {
        let item = |name: &str, start: Millis, end: Millis| TimelineItem {
            reference: format!("Job/{name}"),
            state: State::Succeeded,
            started_at: Some(start),
            ended_at: Some(end),
            message: String::new(),
            output: None,
        };
        let group = |w: i64, items: Vec<TimelineItem>| Group {
            stage: Stage::Hooks("test".into()),
            level: Level::Weight(w),
            items,
        };
        let t = Timeline {
            command: ReportedCommand::Run,
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
