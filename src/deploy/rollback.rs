//! `helm hooks rollback`, as Helm's `pkg/action/rollback.go`: the revision
//! to go back to found first ([`target`]), then [`prepare`] (the
//! permissions) and [`perform`] apart, as Helm's `prepareRollback` and
//! `performRollback`.

use super::access::Needs;
use super::command::{dry_run, Done, Flags, Refused};
use super::operation::deploy;
use super::progress::Progress;
use super::seam::Env;
use super::{Checked, Report};
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;

/// The revision `helm hooks rollback RELEASE [REVISION]` goes back to, and
/// the release's latest: `wanted`, or (none, or 0) the one before the latest,
/// as Helm picks it.
pub fn target(
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

/// `helm hooks rollback`: back to `checked` (revision `to`) over `current`.
/// As `helm rollback --dry-run`, a dry run stores no revision, applies
/// nothing and runs no hook; it says what the rollback would do, against the
/// live objects, as deploy's dry run.
pub fn run(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    current: StoredRelease,
    to: u64,
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    prepare(env, &checked, &current, to, flags)?;
    if flags.dry_run {
        let (operation, revision) = (Operation::Rollback { to }, current.revision + 1);
        return dry_run(env, &checked, flags, operation, Some(&current), revision, &[]).map(Done::Preview);
    }
    Ok(Done::Report(perform(env, checked, current, to, flags, progress)))
}

/// Every permission the rollback needs, asked for.
pub fn prepare(
    env: &mut (impl Env + ?Sized),
    checked: &Checked,
    current: &StoredRelease,
    to: u64,
    flags: &Flags,
) -> Result<(), Refused> {
    let needs = Needs { crds: &[], create_namespace: false, dry_run: flags.dry_run, uninstall: false };
    let wants = needs.wants(env.records(), env.namespace(), checked, Operation::Rollback { to }, Some(current));
    env.check_access(&wants, needs.why()).map_err(Refused::Access)
}

/// The rollback, as a new revision on top of `current`.
pub fn perform(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    current: StoredRelease,
    to: u64,
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Report {
    let revision = current.revision + 1;
    deploy(env, checked, Operation::Rollback { to }, Some(current), revision, &flags.options, progress)
}
