//! `helm hooks uninstall RELEASE`, as Helm's `pkg/action/uninstall.go`:
//! prepared, it has found the latest revision and the history, checked it
//! and asked for every permission; performed, it runs the uninstall
//! (`deploy::teardown`). As `helm uninstall --dry-run`, a dry run deletes
//! nothing, runs no hook, keeps the history and asks for no permission.

use crate::deploy::command::Refused;
use crate::deploy::options::Flags;
use crate::deploy::preview::UninstallPreview;
use crate::deploy::progress::Progress;
use crate::deploy::{check, preview, teardown, wants, Checked, Report};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::release_status::ReleaseStatus;
use crate::release::storage::StoredRelease;
use crate::seam::Env;

use super::contract::Action;
use super::stop::Stop;

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
    /// What the checks warn of, advice left out.
    warnings: Diagnostics,
}

/// What `uninstall` did: the operation's report, or what a dry run would do.
#[derive(Debug)]
pub enum UninstallOutcome {
    Report(Report),
    Preview(UninstallPreview),
}

/// A stored revision checked for `events`, as deploy checks what Helm
/// renders; its errors stop the command (exit 2).
pub(super) fn stored_checked(
    stored: &StoredRelease,
    events: &[Event],
    flags: &Flags,
) -> Result<(Checked, Diagnostics), Stop> {
    check(stored.release.clone(), events, &flags.options).map_err(|diags| Stop::Invalid {
        diags,
        problems: Vec::new(),
        message: format!("revision {} has errors; nothing was changed.", stored.revision),
    })
}

impl<E: Env + ?Sized> Action<E> for UninstallRequest {
    type Prepared = UninstallPrepared;
    type Outcome = UninstallOutcome;

    fn prepare(&self, env: &mut E) -> Result<UninstallPrepared, Stop> {
        let history = crate::seam::history(env, &self.release).map_err(Refused::History)?;
        let Some(latest) = history.last().cloned() else {
            return Err(Refused::NotFound(env.not_found(&self.release)).into());
        };
        if latest.status() == ReleaseStatus::Uninstalled {
            return Err(Refused::AlreadyDeleted(self.release.clone()).into());
        }
        let (checked, warnings) = stored_checked(&latest, &[Event::PreDelete, Event::PostDelete], &self.flags)?;
        if !self.flags.dry_run {
            let wants = wants::uninstall_wants(
                env.about().records,
                env.about().namespace,
                &checked.release,
                self.flags.keep_history,
            );
            if let Err(e) = env.check_access(&wants, wants::UNINSTALL_WHY) {
                return Err(Stop::refused(Refused::Access(e), warnings));
            }
        }
        Ok(UninstallPrepared { latest, history, checked, warnings: warnings.acting() })
    }

    fn warnings(prepared: &UninstallPrepared) -> &Diagnostics {
        &prepared.warnings
    }

    fn perform(
        self,
        env: &mut E,
        prepared: UninstallPrepared,
        progress: &mut dyn Progress,
    ) -> Result<UninstallOutcome, Stop> {
        let UninstallPrepared { latest, history, checked, .. } = prepared;
        let flags = &self.flags;
        if flags.dry_run {
            let revisions: Vec<u64> = history.iter().map(|h| h.revision).collect();
            let preview = preview::uninstall(&checked, env.about().namespace, &revisions, flags.keep_history);
            return Ok(UninstallOutcome::Preview(preview));
        }
        let report = teardown::perform(env, latest, history, &checked, &flags.options, flags.keep_history, progress);
        Ok(UninstallOutcome::Report(report))
    }
}
