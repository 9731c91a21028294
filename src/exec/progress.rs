//! What a run of hooks and a rollout of resources say as they happen: typed
//! events, in order, given to a sink. The drivers (`run`'s loop in
//! [`super::runner`], deploy's rollout) turn the executor's and the rollout's
//! reports into these, naming hooks and resources by their references and
//! times by the command's clock, so that a sink needs neither the plan nor
//! the clock. The text lines a command prints are one sink
//! (`render::progress_lines`); a test may keep the events themselves.

use crate::base::time::Millis;
use crate::exec::executor::{ContainerLog, LogPurpose, Phase};
use crate::model::reference::ObjectRef;
use crate::plan::batch::Batch;

/// How often, at most, what is still awaited is said while it is awaited:
/// each running hook's state (`run`), the resources and external objects not
/// ready yet (`deploy`).
pub(crate) const PROGRESS_EVERY_MS: Millis = 5_000;

/// When what is still awaited is said next: [`PROGRESS_EVERY_MS`] after the
/// wait began, then that long after each time it was said.
pub(crate) struct Every {
    next: Millis,
}

impl Every {
    pub(crate) fn starting(start: Millis) -> Every {
        Every { next: start + PROGRESS_EVERY_MS }
    }

    /// When it is due next.
    pub(crate) fn next(&self) -> Millis {
        self.next
    }

    /// Whether it is due at `now`; if so, the next time is counted from now.
    pub(crate) fn due(&mut self, now: Millis) -> bool {
        let due = now >= self.next;
        if due {
            self.next = now + PROGRESS_EVERY_MS;
        }
        due
    }
}

/// When something happened, counted from the command's start: a deploy's
/// hooks, resources and deletions share one clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Elapsed(pub(crate) Millis);

impl Elapsed {
    /// The time of `at` on a clock started at `start`.
    pub fn since(start: Millis, at: Millis) -> Elapsed {
        Elapsed(at.saturating_sub(start))
    }
}

/// A hook's life as a run sees it.
#[derive(Debug, Clone, Copy)]
pub enum HookEvent<'a> {
    Started {
        hook: &'a ObjectRef,
        at: Elapsed,
    },
    /// What a running hook waits on: said when it changes, and now and then
    /// while it runs (the run loop decides which are worth saying).
    Waiting {
        hook: &'a ObjectRef,
        at: Elapsed,
        why: &'a str,
    },
    /// It succeeded or failed ([`Phase::Succeeded`], [`Phase::Failed`]).
    Finished {
        hook: &'a ObjectRef,
        at: Elapsed,
        phase: Phase,
        message: &'a str,
    },
    /// A fail-fast hook failed: the run stops, or goes on when `ignored`.
    FailFast {
        hook: &'a ObjectRef,
        ignored: bool,
    },
    /// A hook's logs, as one block.
    Output {
        hook: &'a ObjectRef,
        purpose: LogPurpose,
        logs: &'a [ContainerLog],
    },
    /// Lines a followed hook's container wrote since it was last read.
    LogLines {
        hook: &'a ObjectRef,
        log: &'a ContainerLog,
    },
}

/// A rollout of resources, batch by batch.
#[derive(Debug, Clone, Copy)]
pub enum ResourceEvent<'a> {
    /// Batch `batch` of `batches` begins.
    BatchStarted {
        batch: usize,
        batches: &'a [Batch],
        at: Elapsed,
    },
    Applied {
        resource: &'a ObjectRef,
        at: Elapsed,
    },
    Ready {
        resource: &'a ObjectRef,
        at: Elapsed,
    },
    BatchReady {
        batch: usize,
        batches: &'a [Batch],
        at: Elapsed,
    },
    /// Refused by the API server, or not ready in time.
    Failed {
        resource: &'a ObjectRef,
        at: Elapsed,
        message: &'a str,
    },
    /// What is applied and not ready yet, each with why when known (empty:
    /// nothing said yet); now and then while the rollout waits.
    Waiting {
        resources: &'a [(&'a ObjectRef, &'a str)],
        at: Elapsed,
    },
}

/// Where a run of hooks says what happens.
pub trait HookProgress {
    fn hook(&mut self, e: &HookEvent<'_>);
}

/// Nothing said (a run whose output is a report only).
impl HookProgress for () {
    fn hook(&mut self, _: &HookEvent<'_>) {}
}
