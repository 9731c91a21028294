//! Every flag's value once its conversion ran (ripgrep's low-level
//! arguments): the parser (`cli::args`) calls each flag's setter from the
//! table (`cli::spec`) as the flag is read, so that values are typed the
//! moment they are read and nothing looks a flag up by its name after.
//! Each command's own struct is then made from this (`cli::typed`).

use std::time::Duration;

use crate::base::time::Millis;
use crate::model::event::Event;
use crate::plan::Target;
use crate::render::format::Format;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct LowArgs {
    /// What follows the command that is no flag, in order.
    pub(super) operands: Vec<String>,
    /// `--help` or `-h`.
    pub(super) help: bool,
    /// `-o`, one of the command's formats (checked by the parser).
    pub(super) output: Option<Format>,
    /// `plan --event`, in order, each once; `--all-events` forgets those before it.
    pub(super) targets: Vec<Target>,
    /// `--event` of `run` and `status`.
    pub(super) event: Option<Event>,
    pub(super) parallel: Option<usize>,
    pub(super) parallel_all: bool,
    pub(super) parallel_resources: Option<usize>,
    pub(super) timeout: Option<Duration>,
    /// `--readiness-timeout`; 0 asks for its default.
    pub(super) readiness_timeout_ms: Option<Millis>,
    pub(super) ignore_fail_fast: bool,
    pub(super) logs: bool,
    /// `--filter name=X`.
    pub(super) include: Vec<String>,
    /// `--filter !name=X`.
    pub(super) exclude: Vec<String>,
    pub(super) strict: bool,
    pub(super) revision: Option<u64>,
    pub(super) create_namespace: bool,
    pub(super) skip_crds: bool,
    pub(super) wait_for_jobs: bool,
    pub(super) rollback_on_failure: bool,
    pub(super) force_conflicts: bool,
    pub(super) keep_history: bool,
    pub(super) dry_run: bool,
}
