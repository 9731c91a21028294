//! `helm hooks run`: drives the [`Executor`] against a [`HookApi`] and
//! says what happens as it happens, to a progress sink
//! ([`crate::exec::progress`]).
//!
//! The [`HookApi`] trait is the seam between the pure core and I/O: the
//! plugin implements it over the Kubernetes API, tests over a simulated
//! cluster with a virtual clock.

use crate::base::cause::Cause;
use crate::exec::executor::{
    ContainerLog, Executor, HookAction, HookInput, HookReport, LeftRunning, Millis, Phase, RunOptions,
};
use crate::exec::progress::{Elapsed, Every, HookEvent, HookProgress, PROGRESS_EVERY_MS};
use crate::model::hook::Hook;
use crate::model::reference::ObjectRef;
use crate::plan::{EventPlan, ItemId};
use crate::ready::pod_state::HookState;

/// An error that is the cluster's, not one hook's: the run stops (exit 3).
/// Its cause is the adapter's error, which this pure layer, below `kube`
/// and `release`, cannot name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClusterError {
    /// A request the run needs failed: refused by the API server (a
    /// permission, a 5xx), or never answered.
    #[error("{0}")]
    Api(#[source] Cause),
    /// The release could not be stored with the hooks' `last_run`.
    #[error("{0}")]
    Record(#[source] Cause),
    /// A hook's object was still there when the deadline passed.
    #[error("timed out waiting for {kind}/{name} to be deleted")]
    NotDeleted { kind: String, name: String },
}

/// Creating a hook failed: because of the hook (the API server rejected
/// its manifest: the hook fails) or because of the cluster (the run stops).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The hook's own fault (a manifest the API server rejected, or that
    /// is not YAML): the hook fails, the run goes on.
    #[error("{0}")]
    Hook(#[source] Cause),
    /// The cluster's: the run stops.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// One hook's end, observed while waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub hook: ItemId,
    pub succeeded: bool,
    pub message: String,
}

/// Creates `hooks` one after another with `create`, stopping after the first
/// cluster error (its outcome is the last): [`HookApi::create_many`] on a
/// transport that sends one request at a time.
pub(crate) fn create_one_by_one(
    hooks: &[ItemId],
    mut create: impl FnMut(ItemId) -> Result<(), CreateError>,
) -> Vec<Result<(), CreateError>> {
    let mut out = Vec::with_capacity(hooks.len());
    for &h in hooks {
        let r = create(h);
        let stop = matches!(r, Err(CreateError::Cluster(_)));
        out.push(r);
        if stop {
            break;
        }
    }
    out
}

/// What `run` needs of a cluster. Hooks are named by their plan items;
/// `hooks[plan.items[i].index]` is the hook.
pub trait HookApi {
    /// The wall clock, in milliseconds since the Unix epoch.
    fn now(&mut self) -> Millis;
    /// Deletes the hooks' objects and waits until they are gone.
    fn delete(&mut self, hooks: &[ItemId], deadline: Millis) -> Result<(), ClusterError>;
    /// Stores the release with the hooks' `last_run` as the executor has them.
    fn record(&mut self, exec: &Executor) -> Result<(), ClusterError>;
    fn create(&mut self, hook: ItemId) -> Result<(), CreateError>;
    /// Creates several hooks the executor starts together; each one's
    /// outcome, in order. Stops at the first cluster error (its outcome is
    /// the last). By default one after another.
    fn create_many(&mut self, hooks: &[ItemId]) -> Vec<Result<(), CreateError>> {
        create_one_by_one(hooks, |h| self.create(h))
    }
    /// Waits until at least one of `hooks` finishes or `deadline` passes.
    fn wait(&mut self, hooks: &[ItemId], deadline: Millis) -> Result<Vec<Finished>, ClusterError>;
    /// The logs of every container (init containers first) of the hook's pods.
    fn logs(&mut self, hook: ItemId) -> Result<Vec<ContainerLog>, ClusterError>;
    /// What the hook is stuck on, in the words a user acts on (`Pod/x (Pending):
    /// container main waiting: ImagePullBackOff: …`); asked when its time is up.
    /// None when nothing is known.
    fn why(&mut self, _hook: ItemId) -> Option<HookState> {
        None
    }
    /// The lines the hook's containers wrote since the last call (init
    /// containers first), each chunk one container's; nothing when they
    /// cannot be read yet (a container not started).
    fn follow(&mut self, _hook: ItemId) -> Vec<ContainerLog> {
        Vec::new()
    }
}

/// A hook's unchanged state is said again after this long, so a long wait
/// still shows signs of life.
const SAY_AGAIN_MS: Millis = 30_000;

/// How often followed hooks' logs are read: the latency of a streamed line,
/// besides the request's own time (docs/commands.md, `run --logs`).
const FOLLOW_EVERY_MS: Millis = 1_000;

/// When the driver next looks at running hooks between their ends.
struct Pace {
    /// What each running hook waits on is said (as `deploy` says it of resources).
    progress: Every,
    next_follow: Millis,
    /// Hooks whose logs are printed as they come: every Job and Pod hook with
    /// `--logs`, and `helm.sh/show-output` hooks.
    followed: Vec<bool>,
}

impl Pace {
    fn new(plan: &EventPlan, hooks: &[Hook], options: &RunOptions, now: Millis) -> Self {
        let followed = plan
            .items
            .iter()
            .map(|it| {
                let h = &hooks[it.index];
                matches!(h.head.kind.as_str(), "Job" | "Pod") && (options.pod_logs || h.show_output)
            })
            .collect();
        Pace { progress: Every::starting(now), next_follow: now + FOLLOW_EVERY_MS, followed }
    }

    /// The wait's deadline, brought forward to the next look.
    fn deadline(&self, running: &[ItemId], deadline: Millis) -> Millis {
        let follow = running.iter().any(|h| self.followed[h.0]);
        let next = if follow { self.next_follow.min(self.progress.next()) } else { self.progress.next() };
        deadline.min(next)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    Succeeded,
    /// One or more hooks failed (exit 1).
    Failed,
    /// The cluster failed us (exit 3).
    ClusterError,
}

/// How a finished run is summarised.
#[derive(Debug, Clone)]
pub struct Summary {
    pub event: String,
    pub rows: Vec<HookRow>,
    pub started_at: Millis,
    pub ended_at: Millis,
    pub outcome: RunEnd,
    /// Why the run stopped on the cluster ([`RunEnd::ClusterError`]).
    pub error: Option<ClusterError>,
    pub failed_fast: Option<String>,
    /// Requests sent to the API server during the run, when counted, and
    /// how many of them were repeats after a 429 or a gateway error.
    pub api_requests: Option<(u64, u64)>,
    /// Print each row's message under the text table: `status`, whose rows
    /// say why a hook is shown as it is (a live run prints them as progress).
    pub annotate: bool,
    /// The hooks the run leaves running in the cluster, and why, in start
    /// order ([`Executor::left_running`]): named with how to remove them.
    pub left_running: Vec<(ObjectRef, LeftRunning)>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct HookRow {
    #[serde(rename = "ref")]
    pub reference: String,
    pub weight: i64,
    pub phase: Phase,
    pub started_at: Option<Millis>,
    pub completed_at: Option<Millis>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// What it was last seen waiting on while it ran, unless it succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
}

impl HookRow {
    /// The row of plan item `it` that ran as `run` says (started, completed,
    /// phase), without output or what it waited on.
    pub(crate) fn new(
        it: &crate::plan::Item,
        run: (Option<Millis>, Option<Millis>, Phase),
        message: String,
    ) -> HookRow {
        let (started_at, completed_at, phase) = run;
        let (reference, weight) = (it.reference.to_string(), it.level);
        HookRow { reference, weight, phase, started_at, completed_at, message, output: None, waiting: None }
    }
}

/// Runs one event, saying what happens to `progress` as it happens; the
/// summary is returned for the chosen renderer.
pub fn execute(
    plan: &EventPlan,
    hooks: &[Hook],
    options: RunOptions,
    cluster: &mut dyn HookApi,
    progress: &mut dyn HookProgress,
) -> Summary {
    execute_since(plan, hooks, options, cluster, progress, None)
}

/// [`execute`], its progress timed from `since` (a deploy's start, so that
/// its hooks, resources and table share one clock) rather than from the
/// run's own start.
pub(crate) fn execute_since(
    plan: &EventPlan,
    hooks: &[Hook],
    options: RunOptions,
    cluster: &mut dyn HookApi,
    progress: &mut dyn HookProgress,
    since: Option<Millis>,
) -> Summary {
    let started_at = cluster.now();
    let clock = since.unwrap_or(started_at);
    let mut exec = Executor::new(plan, hooks, options, started_at);
    let mut pace = Pace::new(plan, hooks, &options, started_at);
    let mut teller = Teller::new(plan, progress, clock);
    let mut error = None;
    loop {
        let now = cluster.now();
        let action = exec.poll(now);
        if action == HookAction::Done {
            break;
        }
        let mut streamed = Vec::new();
        let result = perform(cluster, &mut exec, &mut pace, action, now, options.timeout_ms, &mut streamed);
        teller.lines(&streamed);
        for report in exec.drain_reports() {
            teller.report(report);
        }
        if let Err(e) = result {
            error = Some(e);
            break;
        }
    }
    summarise(plan, &exec, teller.outputs, started_at, cluster.now(), error)
}

/// Performs one action of the executor and gives it what was observed;
/// `streamed` gets the followed hooks' new lines.
fn perform(
    cluster: &mut dyn HookApi,
    exec: &mut Executor,
    pace: &mut Pace,
    action: HookAction,
    now: Millis,
    timeout_ms: Millis,
    streamed: &mut Vec<(ItemId, ContainerLog)>,
) -> Result<(), ClusterError> {
    match action {
        HookAction::Done => Ok(()),
        HookAction::Delete { hooks, .. } => {
            cluster.delete(&hooks, now + timeout_ms).map(|_| exec.handle(HookInput::Deleted { hooks }))
        }
        HookAction::Record => cluster.record(exec).map(|_| exec.handle(HookInput::Recorded)),
        HookAction::Create { hooks } => {
            for (h, created) in hooks.iter().copied().zip(cluster.create_many(&hooks)) {
                match created {
                    Ok(()) => exec.handle(HookInput::Created { hook: h }),
                    Err(CreateError::Hook(e)) => exec.handle(HookInput::Failed { hook: h, message: e.to_string() }),
                    Err(CreateError::Cluster(e)) => return Err(e),
                }
            }
            Ok(())
        }
        HookAction::Await { hooks, deadline } => {
            let finished = cluster.wait(&hooks, pace.deadline(&hooks, deadline))?;
            let now = cluster.now();
            exec.advance(now);
            let done: Vec<ItemId> = finished.iter().map(|f| f.hook).collect();
            // The last lines of a hook that ended come before its end.
            *streamed = look(cluster, exec, pace, &hooks, &done, now);
            for f in finished {
                exec.handle(HookInput::Finished { hook: f.hook, succeeded: f.succeeded, message: f.message });
            }
            // A hook about to time out says what it was stuck on (docs/commands.md, run).
            for hook in exec.expiring(now).into_iter().filter(|h| !done.contains(h)) {
                if let Some(why) = cluster.why(hook) {
                    exec.handle(HookInput::Stuck { hook, why: why.text });
                }
            }
            Ok(())
        }
        HookAction::Logs { hook, purpose } => {
            cluster.logs(hook).map(|logs| exec.handle(HookInput::Logs { hook, purpose, logs }))
        }
    }
}

/// The run's progress: the executor's reports and the streamed lines, as
/// they come, told as [`HookEvent`]s; it keeps each hook's output for the
/// summary.
struct Teller<'a, 'p> {
    plan: &'p EventPlan,
    progress: &'a mut dyn HookProgress,
    t0: Millis,
    /// What each hook was last said to wait on, and when.
    said: Vec<Option<(String, Millis)>>,
    outputs: Vec<Option<String>>,
}

impl<'a, 'p> Teller<'a, 'p> {
    fn new(plan: &'p EventPlan, progress: &'a mut dyn HookProgress, t0: Millis) -> Self {
        let n = plan.items.len();
        Teller { plan, progress, t0, said: vec![None; n], outputs: vec![None; n] }
    }

    fn lines(&mut self, lines: &[(ItemId, ContainerLog)]) {
        for (hook, log) in lines {
            self.progress.hook(&HookEvent::LogLines { hook: &self.plan.items[*hook].reference, log });
        }
    }

    fn report(&mut self, report: HookReport) {
        if let HookReport::Started { hook, at } = &report {
            self.said[hook.0] = Some((String::new(), *at));
        }
        if let HookReport::Waiting { hook, at, why, stuck } = &report {
            // What keeps a hook from running is said when it changes; that it
            // runs, every SAY_AGAIN_MS (a heartbeat of a long hook).
            let last = &mut self.said[hook.0];
            let since = last.as_ref().map_or(0, |(_, t)| at.saturating_sub(*t));
            let changed = last.as_ref().is_none_or(|(w, _)| w != why);
            if since < SAY_AGAIN_MS && !(*stuck && changed) {
                return;
            }
            *last = Some((why.clone(), *at));
        }
        if let HookReport::Output { hook, logs, .. } = &report {
            let text: String = logs.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n");
            self.outputs[hook.0] = Some(text);
        }
        let name = |h: &ItemId| &self.plan.items[*h].reference;
        let at = |t: &Millis| Elapsed::since(self.t0, *t);
        let event = match &report {
            HookReport::Started { hook, at: t } => HookEvent::Started { hook: name(hook), at: at(t) },
            HookReport::Finished { hook, phase, at: t, message } => {
                HookEvent::Finished { hook: name(hook), at: at(t), phase: *phase, message }
            }
            HookReport::FailFast { hook, ignored } => HookEvent::FailFast { hook: name(hook), ignored: *ignored },
            HookReport::Output { hook, purpose, logs } => {
                HookEvent::Output { hook: name(hook), purpose: *purpose, logs }
            }
            HookReport::Waiting { hook, at: t, why, .. } => HookEvent::Waiting { hook: name(hook), at: at(t), why },
        };
        self.progress.hook(&event);
    }
}

/// The summary of a run that ended (or stopped on `error`).
fn summarise(
    plan: &EventPlan,
    exec: &Executor,
    mut outputs: Vec<Option<String>>,
    started_at: Millis,
    ended_at: Millis,
    error: Option<ClusterError>,
) -> Summary {
    let rows = plan
        .ids()
        .zip(&plan.items)
        .map(|(i, it)| HookRow {
            output: outputs[i.0].take(),
            waiting: exec.waiting(i).map(str::to_string),
            ..HookRow::new(it, exec.last_run(i), exec.message(i).to_string())
        })
        .collect();
    let outcome = if error.is_some() {
        RunEnd::ClusterError
    } else if exec.succeeded() {
        RunEnd::Succeeded
    } else {
        RunEnd::Failed
    };
    Summary {
        event: plan.target.name().to_string(),
        rows,
        started_at,
        ended_at,
        outcome,
        error,
        failed_fast: exec.failed_fast().map(|h| plan.items[h].reference.to_string()),
        api_requests: None,
        annotate: false,
        left_running: exec.left_running().into_iter().map(|(h, why)| (plan.items[h].reference.clone(), why)).collect(),
    }
}

/// Between hooks' ends: the followed hooks' new lines (at [`FOLLOW_EVERY_MS`], and
/// once more for those in `ended`), and what each running hook waits on (at
/// [`PROGRESS_EVERY_MS`]). Returns the lines, by hook, to print.
fn look(
    cluster: &mut dyn HookApi,
    exec: &mut Executor,
    pace: &mut Pace,
    running: &[ItemId],
    ended: &[ItemId],
    now: Millis,
) -> Vec<(ItemId, ContainerLog)> {
    let mut lines = Vec::new();
    let follow_now = now >= pace.next_follow;
    if follow_now {
        pace.next_follow = now + FOLLOW_EVERY_MS;
    }
    for &h in running.iter().filter(|h| pace.followed[h.0]) {
        if follow_now || ended.contains(&h) {
            lines.extend(cluster.follow(h).into_iter().map(|l| (h, l)));
        }
    }
    if pace.progress.due(now) {
        // A hook whose time is up says it in its failure instead.
        let expiring = exec.expiring(now);
        // A hook is looked at once it has had the interval to start: a pod
        // being created a moment after the hook started is no news.
        let settled = |h: &ItemId| exec.last_run(*h).0.is_some_and(|t| now >= t + PROGRESS_EVERY_MS);
        let looked: Vec<ItemId> =
            running.iter().copied().filter(|h| !ended.contains(h) && !expiring.contains(h) && settled(h)).collect();
        for hook in looked {
            if let Some(state) = cluster.why(hook) {
                exec.handle(HookInput::Waiting { hook, why: state.text, stuck: state.stuck });
            }
        }
    }
    lines
}

/// A hook's logs as one block, never interleaved with other output. With
/// more than one container, each gets a `--- pod/container` line.
pub(crate) fn output_block(kind: &str, name: &str, logs: &[ContainerLog]) -> String {
    output_block_after(kind, name, logs, &[])
}

/// [`output_block`] after the first `shown[i]` lines of `logs[i]` were
/// printed as they came (`run --logs`): those are counted, `(2 lines shown
/// above)`, not printed again.
pub(crate) fn output_block_after(kind: &str, name: &str, logs: &[ContainerLog], shown: &[usize]) -> String {
    let mut s = format!("{kind} {name} output:\n");
    for (i, l) in logs.iter().enumerate() {
        if logs.len() > 1 {
            s.push_str(&format!("  --- {}/{}\n", l.pod, l.container));
        }
        let n = shown.get(i).copied().unwrap_or(0);
        if n > 0 {
            s.push_str(&format!("  {}\n", shown_above(n)));
        }
        for line in l.text.lines().skip(n) {
            s.push_str("  ");
            s.push_str(line);
            s.push('\n');
        }
    }
    if logs.iter().all(|l| l.text.is_empty()) {
        s.push_str("  (no output)\n");
    }
    s
}

/// `(2 lines shown above)`: where a block leaves out lines printed before it.
pub(crate) fn shown_above(lines: usize) -> String {
    format!("({} shown above)", crate::base::text::count(lines, "line"))
}

/// How many hooks of a summary ended each way; every hook is counted
/// exactly once, so the parts add up to the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub succeeded: usize,
    pub failed: usize,
    /// Running when the run stopped (`run`), or in the cluster now (`status`).
    pub running: usize,
    pub abandoned: usize,
    pub not_run: usize,
}

impl Totals {
    pub fn of(rows: &[HookRow]) -> Totals {
        let mut t = Totals::default();
        for r in rows {
            match r.phase {
                Phase::Succeeded => t.succeeded += 1,
                Phase::Failed => t.failed += 1,
                Phase::Running => t.running += 1,
                Phase::Abandoned => t.abandoned += 1,
                Phase::Pending | Phase::Skipped => t.not_run += 1,
            }
        }
        t
    }

    /// `1 succeeded, 1 failed, 1 still running, 0 not run`: succeeded,
    /// failed and not run always, the others only when some hook is in them.
    pub(crate) fn text(&self) -> String {
        let mut parts = vec![format!("{} succeeded", self.succeeded), format!("{} failed", self.failed)];
        if self.running > 0 {
            parts.push(format!("{} still running", self.running));
        }
        if self.abandoned > 0 {
            parts.push(format!("{} abandoned", self.abandoned));
        }
        parts.push(format!("{} not run", self.not_run));
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn a_cluster_error_says_what_its_cause_says_and_keeps_it() {
        let cause = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused");
        let e = ClusterError::Api(Cause::new(cause));
        assert_eq!(e.to_string(), "connection refused");
        assert!(e.source().is_some());
        let ClusterError::Api(cause) = &e else { unreachable!() };
        assert_eq!(
            cause.get().downcast_ref::<std::io::Error>().map(std::io::Error::kind),
            Some(std::io::ErrorKind::ConnectionRefused)
        );
        let e = ClusterError::NotDeleted { kind: "Job".into(), name: "j".into() };
        assert_eq!(e.to_string(), "timed out waiting for Job/j to be deleted");
        assert!(e.source().is_none());
    }
}
