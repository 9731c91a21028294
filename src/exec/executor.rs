//! Running one event's hooks, as a state machine without I/O.
//!
//! The driver asks [`Executor::poll`] for the next [`HookAction`] — a whole
//! batch (delete these, create these, wait on these) so that the I/O layer
//! can turn it into the fewest requests — performs it, and feeds what it
//! observed back through [`Executor::handle`]. Time is the wall clock in
//! milliseconds, passed in by the driver: the Wasm sandbox has no usable
//! monotonic clock, and tests drive a virtual one.
//!
//! Semantics (docs/design.md §4, Helm's `execHookWithDelayedShutdown`):
//! - a hook starts when its predecessors in the plan are complete and fewer
//!   than N hooks run; starting is: delete by `before-hook-creation` and wait
//!   until gone, record the release with the hook `Running`, create it;
//! - Jobs and Pods are awaited until they succeed or fail, each with the full
//!   timeout; other kinds are done once created;
//! - a failure stops new starts; running hooks are awaited and every failure
//!   reported — unless the failed hook is fail-fast, which ends the run at
//!   once (`--ignore-fail-fast` makes that a warning);
//! - clean-up is Helm's: on success, in reverse order, output logs by the
//!   `hook-succeeded` output-log policy and delete by `hook-succeeded`; on
//!   failure, failed hooks are deleted by `hook-failed` and the hooks that
//!   succeeded before by `hook-succeeded`, in start order.
//!
//! With N = 1 and no new annotations the sequence of deletes, records and
//! creates is exactly Helm's.

use std::collections::VecDeque;

use crate::model::hook::{DeletePolicy, Hook, OutputLogPolicy};
use crate::plan::frontier::Frontier;
use crate::plan::{EventPlan, ItemId};

use crate::base::time::format_duration;
pub(crate) use crate::base::time::Millis;

#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    pub parallel: usize,
    /// Each hook's wait gets the whole timeout, as in Helm.
    pub timeout_ms: Millis,
    pub ignore_fail_fast: bool,
    /// `--logs`: fetch the logs of every Pod hook that ran, before the
    /// delete policies clean up (as `helm test --logs` does).
    pub pod_logs: bool,
    /// Store the release before the clean-up deletes rather than after:
    /// `helm test` updates the release and defers the deletes, while install,
    /// upgrade, rollback and delete hooks clean up first.
    pub record_before_cleanup: bool,
}

/// A hook's phase as Helm records it in `last_run`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Phase {
    Pending,
    Running,
    Succeeded,
    Failed,
    /// Never started: an earlier failure stopped the run.
    Skipped,
    /// `status` only, never the executor's: the record says `Running` (or
    /// Helm's `Unknown`) but the run that started the hook stopped before it
    /// ended (fail-fast, Ctrl-C), and the cluster no longer shows how it
    /// went. Saying `Running` would not be so.
    Abandoned,
}

impl Phase {
    /// The spelling of Helm's `HookPhase`.
    pub(crate) fn helm(self) -> &'static str {
        match self {
            Phase::Pending | Phase::Skipped => "",
            Phase::Running | Phase::Abandoned => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
        }
    }
}

/// What the driver must do next. Hooks are named by their plan items.
/// Every action is answered before the next `poll`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookAction {
    /// Delete these hooks' objects (with propagation) and wait until they
    /// are gone; answer with [`HookInput::Deleted`] (or `Failed`).
    Delete { hooks: Vec<ItemId>, policy: DeletePolicy },
    /// Write the release's hook records (`last_run`) to Helm's storage;
    /// answer with [`HookInput::Recorded`].
    Record,
    /// Create (server-side apply) these hooks; answer each with
    /// [`HookInput::Created`] or [`HookInput::Failed`].
    Create { hooks: Vec<ItemId> },
    /// Wait until one of these hooks finishes or `deadline` passes; answer
    /// with [`HookInput::Finished`] for those that did (none when the deadline
    /// passed). The next `poll` carries the time.
    Await { hooks: Vec<ItemId>, deadline: Millis },
    /// Fetch the logs of every container of the hook's pods; answer with
    /// [`HookInput::Logs`].
    Logs { hook: ItemId, purpose: LogPurpose },
    /// The run is over.
    Done,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookInput {
    Now(Millis),
    Deleted {
        hooks: Vec<ItemId>,
    },
    Recorded,
    Created {
        hook: ItemId,
    },
    Finished {
        hook: ItemId,
        succeeded: bool,
        message: String,
    },
    /// Creating, deleting or watching a hook failed for a reason that is the
    /// hook's own (a rejected manifest); cluster-wide errors end the run in
    /// the driver instead.
    Failed {
        hook: ItemId,
        message: String,
    },
    Logs {
        hook: ItemId,
        purpose: LogPurpose,
        logs: Vec<ContainerLog>,
    },
    /// What a running hook is stuck on, as the cluster shows it (a pod not
    /// scheduled, an image that cannot be pulled): said when its time runs out.
    Stuck {
        hook: ItemId,
        why: String,
    },
    /// What a running hook waits on, looked at while it runs (`run`'s
    /// progress): reported, and kept for the report of a hook that fails.
    Waiting {
        hook: ItemId,
        why: String,
        /// Something keeps it from running ([`crate::ready::pod_state::HookState`]).
        stuck: bool,
    },
}

/// Why a hook's logs are fetched, which decides how they are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogPurpose {
    /// `helm.sh/show-output`: one block when the hook finishes.
    ShowOutput,
    /// Helm's `helm.sh/hook-output-log-policy`.
    OutputLogPolicy,
    /// `--logs`, as `helm test --logs` prints them.
    TestLogs,
}

/// Why a hook is left running when the run ends ([`Executor::left_running`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeftRunning {
    /// Its time ran out and no `hook-failed` policy deleted it.
    TimedOut,
    /// A fail-fast hook stopped the run while it ran.
    NotAwaited,
}

/// The log of one container of one of a hook's pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerLog {
    pub pod: String,
    pub container: String,
    pub text: String,
}

/// What happened, for the renderer, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookReport {
    Started {
        hook: ItemId,
        at: Millis,
    },
    Finished {
        hook: ItemId,
        phase: Phase,
        at: Millis,
        message: String,
    },
    /// A hook's logs, to print as one block.
    Output {
        hook: ItemId,
        purpose: LogPurpose,
        logs: Vec<ContainerLog>,
    },
    /// A fail-fast hook failed and the run stops (or, ignored, goes on).
    FailFast {
        hook: ItemId,
        ignored: bool,
    },
    /// What a running hook waits on ([`HookInput::Waiting`]).
    Waiting {
        hook: ItemId,
        at: Millis,
        why: String,
        stuck: bool,
    },
}

#[derive(Debug, Clone)]
struct HookState {
    phase: Phase,
    started_at: Option<Millis>,
    completed_at: Option<Millis>,
    message: String,
    kind_awaited: bool,
    fail_fast: bool,
    show_output: bool,
    delete_policies: Vec<DeletePolicy>,
    log_on_success: bool,
    log_on_failure: bool,
    /// [`HookInput::Stuck`]'s word, for the timeout's message.
    stuck: Option<String>,
    /// The last [`HookInput::Waiting`] while it ran; dropped when it succeeds.
    waiting: Option<String>,
    /// Its wait: `helm.sh/hook-timeout` or `--timeout`, the shorter ([`Hook::wait_ms`]).
    wait_ms: Millis,
    /// The wait is the hook's own `helm.sh/hook-timeout`, so its message names that.
    own_timeout: bool,
    /// Its time ran out: it failed then, and was still running.
    timed_out: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Running,
    /// A failure stopped new starts; waiting for running hooks.
    Draining,
    /// Clean-up is queued; `Done` follows it.
    Over,
}

/// Queued work: actions for the driver, and the bookkeeping that must
/// happen between them (a hook starts after its old copy is gone).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Work {
    Do(HookAction),
    MarkStarted(Vec<ItemId>),
}

#[derive(Debug)]
pub struct Executor<'p> {
    plan: &'p EventPlan,
    options: RunOptions,
    hooks: Vec<HookState>,
    frontier: Frontier,
    /// Started (recorded) and not finished.
    running: Vec<ItemId>,
    /// Chosen to start, not yet created.
    starting: usize,
    start_order: Vec<ItemId>,
    stage: Stage,
    work: VecDeque<Work>,
    reports: Vec<HookReport>,
    now: Millis,
    failed_fast: Option<ItemId>,
}

impl<'p> Executor<'p> {
    /// `hooks` is the release's hook list the plan's items index into.
    pub fn new(plan: &'p EventPlan, hooks: &[Hook], options: RunOptions, now: Millis) -> Self {
        let states = plan
            .items
            .iter()
            .map(|it| {
                let h = &hooks[it.index];
                HookState {
                    phase: Phase::Pending,
                    started_at: None,
                    completed_at: None,
                    message: String::new(),
                    kind_awaited: crate::ready::hook_awaited(&h.head.kind),
                    fail_fast: h.fail_fast,
                    show_output: h.show_output,
                    delete_policies: h.delete_policies.clone(),
                    log_on_success: h.has_output_log_policy(&OutputLogPolicy::HookSucceeded),
                    log_on_failure: h.has_output_log_policy(&OutputLogPolicy::HookFailed),
                    stuck: None,
                    waiting: None,
                    wait_ms: h.wait_ms(options.timeout_ms),
                    own_timeout: h.timeout_ms.is_some_and(|t| t <= options.timeout_ms),
                    timed_out: false,
                }
            })
            .collect();
        Executor {
            plan,
            options: RunOptions { parallel: options.parallel.max(1), ..options },
            hooks: states,
            frontier: Frontier::new(plan),
            running: Vec::new(),
            starting: 0,
            start_order: Vec::new(),
            stage: Stage::Running,
            work: VecDeque::new(),
            reports: Vec::new(),
            now,
            failed_fast: None,
        }
    }

    pub fn phase(&self, hook: ItemId) -> Phase {
        self.hooks[hook.0].phase
    }

    /// `last_run` as Helm stores it: (started_at, completed_at, phase).
    pub(crate) fn last_run(&self, hook: ItemId) -> (Option<Millis>, Option<Millis>, Phase) {
        let h = &self.hooks[hook.0];
        (h.started_at, h.completed_at, h.phase)
    }

    pub(super) fn message(&self, hook: ItemId) -> &str {
        &self.hooks[hook.0].message
    }

    /// What the hook was last seen waiting on, unless it succeeded.
    pub(super) fn waiting(&self, hook: ItemId) -> Option<&str> {
        self.hooks[hook.0].waiting.as_deref()
    }

    /// Reports since the last call, oldest first.
    /// Whether the run has ended: what is left to do is its clean-up and
    /// last record.
    pub(crate) fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    pub fn drain_reports(&mut self) -> Vec<HookReport> {
        std::mem::take(&mut self.reports)
    }

    /// True when every hook ran and succeeded.
    pub(super) fn succeeded(&self) -> bool {
        // A fail-fast failure under --ignore-fail-fast is a warning.
        let ignored = |h: &HookState| h.phase == Phase::Failed && h.fail_fast && self.options.ignore_fail_fast;
        self.hooks.iter().all(|h| h.phase == Phase::Succeeded || ignored(h))
    }

    /// The fail-fast hook that ended the run, if one did.
    pub(super) fn failed_fast(&self) -> Option<ItemId> {
        self.failed_fast
    }

    /// The next thing to do, given the wall clock. The driver performs it
    /// and answers through [`Executor::handle`] before polling again.
    pub fn poll(&mut self, now: Millis) -> HookAction {
        self.now = self.now.max(now);
        self.expire();
        loop {
            match self.work.pop_front() {
                Some(Work::Do(action)) => return action,
                Some(Work::MarkStarted(hooks)) => self.mark_started(hooks),
                None => break,
            }
        }
        if self.stage == Stage::Over {
            return HookAction::Done;
        }
        if self.stage == Stage::Running && self.starting == 0 {
            self.start_batch();
            if !self.work.is_empty() {
                return self.poll(now);
            }
        }
        if self.running.is_empty() {
            self.finish();
            return self.poll(now);
        }
        let deadline = self
            .running
            .iter()
            .map(|&h| self.hooks[h.0].started_at.unwrap_or(self.now) + self.hooks[h.0].wait_ms)
            .min()
            .unwrap_or(self.now);
        HookAction::Await { hooks: self.running.clone(), deadline }
    }

    /// Chooses hooks to start, up to N running, in Helm order, and queues
    /// their start: delete by before-hook-creation and wait, record the
    /// release with them running, create them.
    fn start_batch(&mut self) {
        let room = self.options.parallel.saturating_sub(self.running.len());
        let mut batch = Vec::new();
        while batch.len() < room {
            match self.frontier.pop() {
                Some(i) => batch.push(i),
                None => break,
            }
        }
        if batch.is_empty() {
            return;
        }
        let deletes: Vec<ItemId> =
            batch.iter().copied().filter(|&h| self.has_policy(h, &DeletePolicy::BeforeHookCreation)).collect();
        if !deletes.is_empty() {
            self.work
                .push_back(Work::Do(HookAction::Delete { hooks: deletes, policy: DeletePolicy::BeforeHookCreation }));
        }
        self.starting = batch.len();
        self.work.push_back(Work::MarkStarted(batch.clone()));
        self.work.push_back(Work::Do(HookAction::Record));
        self.work.push_back(Work::Do(HookAction::Create { hooks: batch }));
    }

    fn mark_started(&mut self, hooks: Vec<ItemId>) {
        let now = self.now;
        for &h in &hooks {
            let s = &mut self.hooks[h.0];
            s.phase = Phase::Running;
            s.started_at = Some(now);
        }
        self.start_order.extend(hooks.iter().copied());
        self.running.extend(hooks);
    }

    fn has_policy(&self, hook: ItemId, policy: &DeletePolicy) -> bool {
        // CRDs are never deleted by Helm's hook policies.
        self.hooks[hook.0].delete_policies.contains(policy)
            && self.plan.items[hook].reference.kind != "CustomResourceDefinition"
    }

    /// Moves the clock forward without acting on it (deadlines are checked
    /// in `poll`): the driver calls this after an action that took time, so
    /// that what it reports next is stamped with the right time.
    pub(super) fn advance(&mut self, now: Millis) {
        self.now = self.now.max(now);
    }

    pub fn handle(&mut self, input: HookInput) {
        match input {
            HookInput::Now(t) => {
                self.now = self.now.max(t);
                self.expire();
            }
            HookInput::Deleted { .. } | HookInput::Recorded => {}
            HookInput::Created { hook } => {
                self.starting = self.starting.saturating_sub(1);
                // Reported once it exists: a start that failed to record or
                // create never shows as started.
                if let Some(at) = self.hooks[hook.0].started_at {
                    self.reports.push(HookReport::Started { hook, at });
                }
                if !self.hooks[hook.0].kind_awaited && self.hooks[hook.0].phase == Phase::Running {
                    self.finish_hook(hook, true, String::new());
                }
            }
            HookInput::Finished { hook, succeeded, message } => {
                if self.hooks[hook.0].phase == Phase::Running {
                    self.finish_hook(hook, succeeded, message);
                }
            }
            HookInput::Failed { hook, message } => {
                if self.starting > 0 && self.running.contains(&hook) {
                    self.starting -= 1;
                }
                if self.hooks[hook.0].phase == Phase::Running {
                    self.finish_hook(hook, false, message);
                }
            }
            HookInput::Logs { hook, purpose, logs } => self.reports.push(HookReport::Output { hook, purpose, logs }),
            HookInput::Stuck { hook, why } => self.hooks[hook.0].stuck = Some(why),
            HookInput::Waiting { hook, why, stuck } => {
                if self.hooks[hook.0].phase == Phase::Running {
                    self.reports.push(HookReport::Waiting { hook, at: self.now, why: why.clone(), stuck });
                    self.hooks[hook.0].waiting = Some(why);
                }
            }
        }
    }

    /// The running hooks whose time is up at `now`: the next [`HookInput::Now`] fails them.
    /// The driver may ask the cluster why first ([`HookInput::Stuck`]).
    pub(super) fn expiring(&self, now: Millis) -> Vec<ItemId> {
        self.running
            .iter()
            .copied()
            .filter(|&h| {
                let s = &self.hooks[h.0];
                s.kind_awaited && s.started_at.is_some_and(|t| now >= t + s.wait_ms)
            })
            .collect()
    }

    /// Hooks past their deadline fail as timed out, exactly as a hook that
    /// failed (fail-fast, delete and output-log policies, the stored phase).
    /// Each ends when its time ran out, not when the driver next looked
    /// (a look may hold for seconds on a quiet cluster): its duration is the
    /// time it was given, as its message says (issue 41).
    fn expire(&mut self) {
        for h in self.expiring(self.now) {
            let s = &mut self.hooks[h.0];
            let why = s.stuck.take().map(|w| format!(": {w}")).unwrap_or_default();
            let whose =
                if s.own_timeout { format!(" ({})", crate::model::annotation::HOOK_TIMEOUT) } else { String::new() };
            let message = format!("timed out after {}{whose}{why}", format_duration(s.wait_ms));
            s.timed_out = true;
            let at = s.started_at.map_or(self.now, |t| (t + s.wait_ms).min(self.now));
            self.finish_hook_at(h, false, message, at);
        }
    }

    /// The hooks the run leaves running in the cluster: those its time ran
    /// out on that no `hook-failed` policy deletes, and those a fail-fast
    /// stop did not await. In start order.
    pub(super) fn left_running(&self) -> Vec<(ItemId, LeftRunning)> {
        self.start_order
            .iter()
            .filter_map(|&h| {
                let s = &self.hooks[h.0];
                if s.phase == Phase::Running {
                    Some((h, LeftRunning::NotAwaited))
                } else if s.timed_out && !self.has_policy(h, &DeletePolicy::HookFailed) {
                    Some((h, LeftRunning::TimedOut))
                } else {
                    None
                }
            })
            .collect()
    }

    fn finish_hook(&mut self, hook: ItemId, succeeded: bool, message: String) {
        self.finish_hook_at(hook, succeeded, message, self.now);
    }

    fn finish_hook_at(&mut self, hook: ItemId, succeeded: bool, message: String, now: Millis) {
        self.running.retain(|&h| h != hook);
        let s = &mut self.hooks[hook.0];
        s.phase = if succeeded { Phase::Succeeded } else { Phase::Failed };
        s.completed_at = Some(now);
        if succeeded {
            s.waiting = None;
        }
        s.message = message.clone();
        self.reports.push(HookReport::Finished { hook, phase: s.phase, at: now, message });
        let (fail_fast, show_output, policy_logs) = (s.fail_fast, s.show_output, !succeeded && s.log_on_failure);
        if !succeeded && fail_fast {
            self.reports.push(HookReport::FailFast { hook, ignored: self.options.ignore_fail_fast });
        }
        // A failing fail-fast hook always shows its output (docs/design.md §3);
        // Helm prints output-log-policy logs of a failure at once.
        if show_output || (!succeeded && fail_fast) {
            self.work.push_back(Work::Do(HookAction::Logs { hook, purpose: LogPurpose::ShowOutput }));
        } else if policy_logs {
            self.work.push_back(Work::Do(HookAction::Logs { hook, purpose: LogPurpose::OutputLogPolicy }));
        }
        if succeeded || (fail_fast && self.options.ignore_fail_fast) {
            // An ignored fail-fast failure lets the run go on, its
            // dependents included.
            self.frontier.complete(self.plan, hook);
        } else if fail_fast {
            self.failed_fast = Some(hook);
            self.finish();
        } else if self.stage == Stage::Running {
            self.stage = Stage::Draining;
        }
    }

    /// Hooks that ended in `phase` and have delete policy `policy`, in start order.
    fn started_with(&self, phase: Phase, policy: &DeletePolicy) -> Vec<ItemId> {
        self.start_order
            .iter()
            .copied()
            .filter(|&h| self.hooks[h.0].phase == phase && self.has_policy(h, policy))
            .collect()
    }

    /// Queues Helm's clean-up and ends the run.
    fn finish(&mut self) {
        if self.stage == Stage::Over {
            return;
        }
        self.stage = Stage::Over;
        for h in &mut self.hooks {
            if h.phase == Phase::Pending {
                h.phase = Phase::Skipped;
            }
        }
        if self.options.record_before_cleanup {
            self.work.push_back(Work::Do(HookAction::Record));
        }
        // `--logs` prints every Pod hook's logs in Helm order, before the
        // delete policies remove the pods (as `helm test --logs`).
        if self.options.pod_logs {
            for h in self.plan.ids() {
                if self.plan.items[h].reference.kind == "Pod" && self.hooks[h.0].started_at.is_some() {
                    self.work.push_back(Work::Do(HookAction::Logs { hook: h, purpose: LogPurpose::TestLogs }));
                }
            }
        }
        let any_failed = self.hooks.iter().any(|h| h.phase == Phase::Failed);
        if !any_failed {
            for &h in self.start_order.clone().iter().rev() {
                if self.hooks[h.0].log_on_success && !self.hooks[h.0].show_output {
                    self.work.push_back(Work::Do(HookAction::Logs { hook: h, purpose: LogPurpose::OutputLogPolicy }));
                }
                if self.has_policy(h, &DeletePolicy::HookSucceeded) {
                    self.work.push_back(Work::Do(HookAction::Delete {
                        hooks: vec![h],
                        policy: DeletePolicy::HookSucceeded,
                    }));
                }
            }
        } else {
            let failed = self.started_with(Phase::Failed, &DeletePolicy::HookFailed);
            if !failed.is_empty() {
                self.work.push_back(Work::Do(HookAction::Delete { hooks: failed, policy: DeletePolicy::HookFailed }));
            }
            for h in self.started_with(Phase::Succeeded, &DeletePolicy::HookSucceeded) {
                self.work
                    .push_back(Work::Do(HookAction::Delete { hooks: vec![h], policy: DeletePolicy::HookSucceeded }));
            }
        }
        if !self.options.record_before_cleanup {
            self.work.push_back(Work::Do(HookAction::Record));
        }
    }
}
