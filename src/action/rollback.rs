//! `helm hooks rollback RELEASE [REVISION]`, as Helm's
//! `pkg/action/rollback.go`: [`prepare`] finds the revision to go back to,
//! checks it and asks for every permission (Helm's `prepareRollback`);
//! [`perform`] stores and deploys it as a new revision (`performRollback`).
//! As `helm rollback --dry-run`, a dry run stores no revision, applies
//! nothing and runs no hook; it says what the rollback would do, against
//! the live objects, as deploy's dry run.

use crate::deploy::command::{dry_run, Done, Refused};
use crate::deploy::options::Flags;
use crate::deploy::progress::Progress;
use crate::deploy::wants::DeployNeeds;
use crate::deploy::{deploy, Checked};
use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;
use crate::seam::Env;

use super::stop::OperationStop;
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
    /// What the checks warn of.
    pub warnings: crate::model::diagnostic::Diagnostics,
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
    let history = env.history(name).map_err(Refused::History)?;
    // Helm's rollback does not refuse a pending release: it is the way out
    // of one left by an interrupted upgrade (pkg/action/rollback.go).
    let Some(current) = history.last().cloned() else { return Err(Refused::NotFound(env.not_found(name))) };
    let to = wanted.filter(|&r| r > 0).unwrap_or(current.revision.saturating_sub(1));
    match history.into_iter().find(|h| h.revision == to) {
        Some(target) => Ok((current, target)),
        None => Err(Refused::NoRevision(to)),
    }
}

pub fn prepare(env: &mut (impl Env + ?Sized), r: &RollbackRequest) -> Result<RollbackPrepared, OperationStop> {
    let (current, target) = target(env, &r.release, r.revision)?;
    let (checked, warnings) = stored_checked(&target, &[Event::PreRollback, Event::PostRollback], &r.flags)?;
    let to = target.revision;
    let needs = DeployNeeds { crds: &[], create_namespace: false, dry_run: r.flags.dry_run, uninstall: false };
    let wants = needs.wants(env.records(), env.namespace(), &checked, Operation::Rollback { to }, Some(&current));
    if let Err(e) = env.check_access(&wants, needs.why()) {
        return Err(OperationStop::refused(Refused::Access(e), warnings));
    }
    Ok(RollbackPrepared { current, to, checked, warnings })
}

pub fn perform(
    env: &mut (impl Env + ?Sized),
    r: &RollbackRequest,
    prepared: RollbackPrepared,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    let RollbackPrepared { current, to, checked, .. } = prepared;
    let (operation, revision) = (Operation::Rollback { to }, current.revision + 1);
    if r.flags.dry_run {
        return dry_run(env, &checked, &r.flags, operation, Some(&current), revision, &[]).map(Done::Preview);
    }
    let report = deploy(env, checked, operation, Some(current), revision, &r.flags.options, progress);
    Ok(Done::Report(report))
}
