//! The policy around one operation that is not argument parsing: which
//! operation a deploy is ([`choose`]), and `--rollback-on-failure`
//! ([`recover`]), over the same seam as the driver (`crate::seam`).

use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::release_status::ReleaseStatus;
use crate::release::storage::StoredRelease;

use super::error::Error;
use super::options::DeployOptions;
use super::progress::{DeployEvent, Progress};
use super::report::{Ended, Report};
use crate::seam::Env;

/// What `deploy` does on top of `history` (oldest first), as `helm upgrade
/// --install` decides: an install when there is no release or it was
/// uninstalled with its history kept; otherwise an upgrade of the newest
/// deployed revision, or of the latest when none is deployed (a failed first
/// install). With the revision to store.
pub fn choose(history: &[StoredRelease]) -> (Operation, Option<StoredRelease>, u64) {
    let revision = history.last().map_or(1, |l| l.revision + 1);
    let (operation, current) = match history.last() {
        None => (Operation::Install, None),
        Some(l) if l.status() == ReleaseStatus::Uninstalled => (Operation::Install, None),
        Some(_) => {
            let deployed = history.iter().rev().find(|h| h.status() == ReleaseStatus::Deployed).cloned();
            (Operation::Upgrade, deployed.or_else(|| history.last().cloned()))
        }
    };
    (operation, current, revision)
}

/// `--rollback-on-failure` (Helm 4; `--atomic` in Helm 3): a failed install
/// is uninstalled, hooks included; a failed upgrade is rolled back to the
/// newest revision that was deployed or superseded — as Helm's `failRelease`
/// does (`pkg/action/install.go`, `upgrade.go`), with its messages. Nothing
/// to do when `report` ended well or stored nothing (another command won the
/// revision, or the create failed: nothing of this command's to roll back,
/// and the latest revision is someone else's).
pub fn recover(
    env: &mut (impl Env + ?Sized),
    report: &mut Report,
    operation: Operation,
    options: &DeployOptions,
    progress: &mut dyn Progress,
) {
    if report.status.is_empty() {
        return;
    }
    let original = match &report.ended {
        Ended::Done => return,
        Ended::Failed(e) => Box::new(e.clone()),
    };
    let name = report.release.clone();
    let history = match crate::seam::history(env, &name) {
        Ok(h) => h,
        Err(e) => {
            report.ended = Ended::Failed(Error::HistoryUnread { operation, original, source: Box::new(e) });
            return;
        }
    };
    progress.event(&DeployEvent::Failed { report, error: &original });
    let recovery = if matches!(operation, Operation::Install) {
        let Some(latest) = history.last().cloned() else { return };
        progress.event(&DeployEvent::Uninstalling { release: &name });
        let checked =
            match super::checked::check(latest.release.clone(), &[Event::PreDelete, Event::PostDelete], options) {
                Ok((c, _)) => c,
                Err(_) => return,
            };
        super::teardown::perform(env, latest, history, &checked, options, false, progress)
    } else {
        let good = history
            .iter()
            .rev()
            .find(|h| matches!(h.status(), ReleaseStatus::Deployed | ReleaseStatus::Superseded))
            .cloned();
        let (Some(target), Some(current)) = (good, history.last().cloned()) else {
            report.ended = Ended::Failed(Error::NoRollbackTarget(original));
            return;
        };
        progress.event(&DeployEvent::RollingBack { release: &name, to: target.revision });
        let events = [Event::PreRollback, Event::PostRollback];
        let checked = match super::checked::check(target.release.clone(), &events, options) {
            Ok((c, _)) => c,
            Err(_) => return,
        };
        let to = target.revision;
        let revision = current.revision + 1;
        super::operation::deploy(env, checked, Operation::Rollback { to }, Some(current), revision, options, progress)
    };
    // Helm's message after the recovery (`failRelease`): what was done, or
    // what failed while doing it, and the original error.
    report.ended = Ended::Failed(match &recovery.ended {
        Ended::Done => Error::Recovered { release: name, recovery: recovery.operation, original },
        Ended::Failed(e) => {
            Error::RecoveryFailed { recovery: recovery.operation, original, source: Box::new(e.clone()) }
        }
    });
    report.recovery = Some(Box::new(recovery));
}
