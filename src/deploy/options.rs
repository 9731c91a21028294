//! What a deploy, rollback or uninstall is asked beyond its operands: the
//! flags, typed.

use crate::exec::executor::Millis;

#[derive(Debug, Clone, Copy)]
pub struct DeployOptions {
    /// Most hooks running at once (`--parallel`).
    pub parallel: usize,
    pub parallel_all: bool,
    /// Most resources applied and not yet ready at once
    /// (`--parallel-resources`); `None`: a whole batch, as Helm.
    pub parallel_resources: Option<usize>,
    /// The whole operation's time, and each hook's wait (as Helm's --timeout).
    pub timeout_ms: Millis,
    pub readiness_timeout_ms: Millis,
    pub ignore_fail_fast: bool,
    /// `--wait-for-jobs`: every Job resource awaited until complete.
    pub wait_for_jobs: bool,
}

/// What a command asks for beyond its operands.
#[derive(Debug, Clone, Copy)]
pub struct Flags {
    pub options: DeployOptions,
    /// `--create-namespace` (a first install).
    pub create_namespace: bool,
    /// `--rollback-on-failure`: undo a failed install or upgrade.
    pub rollback_on_failure: bool,
    /// `--dry-run`: say what would be done, do nothing.
    pub dry_run: bool,
    /// `--keep-history` (uninstall).
    pub keep_history: bool,
    /// A first install checks that none of the release's objects belongs
    /// to someone else, as Helm's server-side dry-run does: set when the
    /// input came in the form rendered client-side (`helm show crds`
    /// before the release; docs/design.md §4).
    pub check_ownership: bool,
}
