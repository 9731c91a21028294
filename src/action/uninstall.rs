//! `helm hooks uninstall RELEASE`, as Helm's `pkg/action/uninstall.go`:
//! [`prepare`] finds the latest revision and the history, checks it and
//! asks for every permission; [`perform`] runs the uninstall
//! (`deploy::teardown`). As `helm uninstall --dry-run`, a dry run deletes
//! nothing, runs no hook, keeps the history and asks for no permission.

use crate::deploy::command::{Done, Refused};
use crate::deploy::options::Flags;
use crate::deploy::progress::Progress;
use crate::deploy::{check, preview, teardown, wants, Checked};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::release_status::ReleaseStatus;
use crate::release::storage::StoredRelease;
use crate::seam::Env;

use super::stop::OperationStop;

#[derive(Debug, Clone)]
pub struct UninstallRequest {
    pub release: String,
    pub flags: Flags,
}

/// The latest revision, checked, and every revision of the history.
pub struct UninstallPrepared {
    latest: StoredRelease,
    history: Vec<StoredRelease>,
    checked: Checked,
    /// What the checks warn of.
    pub warnings: Diagnostics,
}

/// A stored revision checked for `events`, as deploy checks what Helm
/// renders; its errors stop the command (exit 2).
pub(super) fn stored_checked(
    stored: &StoredRelease,
    events: &[Event],
    flags: &Flags,
) -> Result<(Checked, Diagnostics), OperationStop> {
    check(stored.release.clone(), events, &flags.options).map_err(|diags| OperationStop::Invalid {
        diags,
        problems: Vec::new(),
        message: format!("revision {} has errors; nothing was changed.", stored.revision),
    })
}

pub fn prepare(env: &mut (impl Env + ?Sized), r: &UninstallRequest) -> Result<UninstallPrepared, OperationStop> {
    let history = env.history(&r.release).map_err(Refused::History)?;
    let Some(latest) = history.last().cloned() else {
        return Err(Refused::NotFound(env.not_found(&r.release)).into());
    };
    if latest.status() == ReleaseStatus::Uninstalled {
        return Err(Refused::AlreadyDeleted(r.release.clone()).into());
    }
    let (checked, warnings) = stored_checked(&latest, &[Event::PreDelete, Event::PostDelete], &r.flags)?;
    if !r.flags.dry_run {
        let wants = wants::uninstall_wants(env.records(), env.namespace(), &checked.release, r.flags.keep_history);
        if let Err(e) = env.check_access(&wants, wants::UNINSTALL_WHY) {
            return Err(OperationStop::refused(Refused::Access(e), warnings));
        }
    }
    Ok(UninstallPrepared { latest, history, checked, warnings })
}

pub fn perform(
    env: &mut (impl Env + ?Sized),
    r: &UninstallRequest,
    prepared: UninstallPrepared,
    progress: &mut dyn Progress,
) -> Done {
    let UninstallPrepared { latest, history, checked, .. } = prepared;
    let flags = &r.flags;
    if flags.dry_run {
        let revisions: Vec<u64> = history.iter().map(|h| h.revision).collect();
        return Done::UninstallPreview(preview::uninstall(&checked, env.namespace(), &revisions, flags.keep_history));
    }
    let report = teardown::perform(env, latest, history, &checked, &flags.options, flags.keep_history, progress);
    Done::Report(report)
}
