//! Every exit code, mapped here and nowhere else (docs/design.md §2): how
//! each command's outcome ends ([`Exits`]), each reason to stop
//! ([`Stop::exit`]), and what Helm's error says of each code.

use crate::deploy::preview::Preview;
use crate::deploy::{Ended, Report};
use crate::exec::runner::RunEnd;

use super::contract::{Exit, Exits};
use super::deploy::DeployOutcome;
use super::lint::LintOutcome;
use super::plan::PlanOutcome;
use super::rollback::RollbackOutcome;
use super::run::RunOutcome;
use super::status::StatusOutcome;
use super::stop::Stop;
use super::uninstall::UninstallOutcome;

impl Exit {
    /// What the plugin's error says for a code other than 0: stock Helm
    /// exits 1 whatever the code, so the message names it (`plugin.rs`).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn said(self) -> &'static str {
        match self {
            Exit::Ok => "done",
            Exit::Failed => "a hook or resource failed",
            Exit::Invalid => "invalid input or arguments (see above)",
            Exit::Cluster => "cluster or permission error (see above)",
            Exit::NotFound => "release not found (see above)",
        }
    }
}

impl Stop {
    pub(crate) fn exit(&self) -> Exit {
        match self {
            Stop::Invalid { .. } | Stop::Input(_) | Stop::Driver(_) => Exit::Invalid,
            Stop::Storage(e) if e.is_not_found() => Exit::NotFound,
            Stop::Storage(_) | Stop::NoCluster(_) => Exit::Cluster,
            Stop::Refused(e, _) if e.is_not_found() => Exit::NotFound,
            Stop::Refused(e, _) if e.is_cluster() => Exit::Cluster,
            Stop::Refused(..) => Exit::Failed,
        }
    }
}

/// A plan with errors stops instead.
impl Exits for PlanOutcome {
    fn exit(&self) -> Exit {
        Exit::Ok
    }
}

impl Exits for LintOutcome {
    fn exit(&self) -> Exit {
        if self.planned.lint_failed(self.strict) {
            Exit::Invalid
        } else {
            Exit::Ok
        }
    }
}

impl Exits for RunOutcome {
    fn exit(&self) -> Exit {
        match self.summary.outcome {
            RunEnd::Succeeded => Exit::Ok,
            RunEnd::Failed => Exit::Failed,
            RunEnd::ClusterError => Exit::Cluster,
        }
    }
}

/// As `helm status`: the record was read; how the hooks went is in the report.
impl Exits for StatusOutcome {
    fn exit(&self) -> Exit {
        Exit::Ok
    }
}

impl Exits for DeployOutcome {
    fn exit(&self) -> Exit {
        match self {
            DeployOutcome::Report(r) => report(r),
            DeployOutcome::Preview(p) => preview(p),
        }
    }
}

impl Exits for RollbackOutcome {
    fn exit(&self) -> Exit {
        match self {
            RollbackOutcome::Report(r) => report(r),
            RollbackOutcome::Preview(p) => preview(p),
        }
    }
}

impl Exits for UninstallOutcome {
    fn exit(&self) -> Exit {
        match self {
            UninstallOutcome::Report(r) => report(r),
            UninstallOutcome::Preview(_) => Exit::Ok,
        }
    }
}

/// How an operation that ran ended: a cluster that failed it is not the
/// release's failure.
fn report(report: &Report) -> Exit {
    match &report.ended {
        Ended::Done => Exit::Ok,
        Ended::Failed(e) if e.is_cluster() => Exit::Cluster,
        Ended::Failed(_) => Exit::Failed,
    }
}

/// A dry run fails when the API server refused an object it would apply.
fn preview(preview: &Preview) -> Exit {
    if preview.would_fail() {
        Exit::Failed
    } else {
        Exit::Ok
    }
}
