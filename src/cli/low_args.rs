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
pub struct LowArgs {
    /// What follows the command that is no flag, in order.
    pub operands: Vec<String>,
    /// `--help` or `-h`.
    pub help: bool,
    /// `-o`, one of the command's formats (checked by the parser).
    pub output: Option<Format>,
    /// `plan --event`, in order, each once; `--all-events` forgets those before it.
    pub targets: Vec<Target>,
    /// `--event` of `run` and `status`.
    pub event: Option<Event>,
    pub parallel: Option<usize>,
    pub parallel_all: bool,
    pub parallel_resources: Option<usize>,
    pub timeout: Option<Duration>,
    /// `--readiness-timeout`; 0 asks for its default.
    pub readiness_timeout_ms: Option<Millis>,
    pub ignore_fail_fast: bool,
    pub logs: bool,
    /// `--filter name=X`.
    pub include: Vec<String>,
    /// `--filter !name=X`.
    pub exclude: Vec<String>,
    pub strict: bool,
    pub revision: Option<u64>,
    pub create_namespace: bool,
    pub skip_crds: bool,
    pub wait_for_jobs: bool,
    pub rollback_on_failure: bool,
    pub force_conflicts: bool,
    pub keep_history: bool,
    pub dry_run: bool,
}
