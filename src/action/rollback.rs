//! `helm hooks rollback RELEASE [REVISION]`, as Helm's
//! `pkg/action/rollback.go`: prepared, it has found the revision to go back
//! to, checked it and asked for every permission (Helm's `prepareRollback`);
//! performed, it stores and deploys it as a new revision (`performRollback`).
//! As `helm rollback --dry-run`, a dry run stores no revision, applies
//! nothing and runs no hook; it says what the rollback would do, against
//! the live objects, as deploy's dry run.

use crate::deploy::command::{dry_run, Refused};
use crate::deploy::options::Flags;
use crate::deploy::preview::Preview;
use crate::deploy::progress::Progress;
use crate::deploy::wants::DeployNeeds;
use crate::deploy::{deploy, Checked, Report};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;
use crate::seam::Env;

use super::contract::Action;
use super::stop::Stop;
use super::uninstall::stored_checked;

#[derive(Debug, Clone)]
pub struct RollbackRequest {
    pub release: String,
    /// The revision to go back to; `None` (or 0): the one before the latest.
    pub revision: Option<u64>,
    pub flags: Flags,
}

/// The release's latest revision, and the one to go back to, checked.
pub struct RollbackPrepared {
    current: StoredRelease,
    to: u64,
    checked: Checked,
    /// What the checks warn of, advice left out.
    warnings: Diagnostics,
}

/// What `rollback` did: the operation's report, or what a dry run would do.
#[derive(Debug)]
pub enum RollbackOutcome {
    Report(Report),
    Preview(Preview),
}

impl RollbackPrepared {
    /// The latest revision, which the rollback replaces.
    pub fn current(&self) -> u64 {
        self.current.revision
    }

    /// The revision it goes back to.
    pub fn to(&self) -> u64 {
        self.to
    }
}

/// The latest revision and `wanted` (or, none or 0, the one before the
/// latest, as Helm picks it).
fn target(
    env: &mut (impl Env + ?Sized),
    name: &str,
    wanted: Option<u64>,
) -> Result<(StoredRelease, StoredRelease), Refused> {
    let history = crate::seam::history(env, name).map_err(Refused::History)?;
    // Helm's rollback does not refuse a pending release: it is the way out
    // of one left by an interrupted upgrade (pkg/action/rollback.go).
    let Some(current) = history.last().cloned() else { return Err(Refused::NotFound(env.not_found(name))) };
    let to = wanted.filter(|&r| r > 0).unwrap_or(current.revision.saturating_sub(1));
    match history.into_iter().find(|h| h.revision == to) {
        Some(target) => Ok((current, target)),
        None => Err(Refused::NoRevision(to)),
    }
}

impl<E: Env + ?Sized> Action<E> for RollbackRequest {
    type Prepared = RollbackPrepared;
    type Outcome = RollbackOutcome;

    fn prepare(&self, env: &mut E) -> Result<RollbackPrepared, Stop> {
        let (current, target) = target(env, &self.release, self.revision)?;
        let (checked, warnings) = stored_checked(&target, &[Event::PreRollback, Event::PostRollback], &self.flags)?;
        let to = target.revision;
        let needs = DeployNeeds { crds: &[], create_namespace: false, dry_run: self.flags.dry_run, uninstall: false };
        let wants = needs.wants(
            env.about().records,
            env.about().namespace,
            &checked,
            Operation::Rollback { to },
            Some(&current),
        );
        if let Err(e) = env.check_access(&wants, needs.why()) {
            return Err(Stop::refused(Refused::Access(e), warnings));
        }
        Ok(RollbackPrepared { current, to, checked, warnings: warnings.acting() })
    }

    fn warnings(prepared: &RollbackPrepared) -> &Diagnostics {
        &prepared.warnings
    }

    fn perform(
        self,
        env: &mut E,
        prepared: RollbackPrepared,
        progress: &mut dyn Progress,
    ) -> Result<RollbackOutcome, Stop> {
        let RollbackPrepared { current, to, checked, .. } = prepared;
        let (operation, revision) = (Operation::Rollback { to }, current.revision + 1);
        if self.flags.dry_run {
            let preview = dry_run(env, &checked, &self.flags, operation, Some(&current), revision, &[])?;
            return Ok(RollbackOutcome::Preview(preview));
        }
        let report = deploy(env, checked, operation, Some(current), revision, &self.flags.options, progress);
        Ok(RollbackOutcome::Report(report))
    }
}
