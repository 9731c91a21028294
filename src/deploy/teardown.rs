//! The uninstall operation, as Helm's `pkg/action/uninstall.go` performs
//! it (the command, which finds what it removes and asks for the
//! permissions first, is `action::uninstall`): the pre-delete hooks, the
//! resources the release owns in reverse plan order (each batch gone before
//! the next), the post-delete hooks, then the record removed — or kept as
//! `uninstalled`.

use std::collections::BTreeSet;

use crate::exec::executor::Millis;
use crate::exec::progress::Elapsed;
use crate::model::event::Event;
use crate::model::input::Release;
use crate::plan::{EventPlan, Target};
use crate::release::record::{self, Operation};
use crate::release::storage::StoredRelease;

use super::checked::{event_plan, Checked};
use super::error::Error;
use super::options::DeployOptions;
use super::ownership::{self, Ownership};
use super::progress::{DeployEvent, Keep, Progress};
use super::removed::kept;
use super::report::{Ended, Report};
use super::steps::{delete_in_order, run_hooks};
use crate::seam::{Clock, Cluster, Env};

/// The uninstall itself, once allowed; `keep_history` keeps the record as
/// `uninstalled` rather than deleting every revision (`history`).
pub fn perform(
    env: &mut (impl Env + ?Sized),
    mut latest: StoredRelease,
    history: Vec<StoredRelease>,
    checked: &Checked,
    options: &DeployOptions,
    keep_history: bool,
    progress: &mut dyn Progress,
) -> Report {
    let started_at = env.now_ms();
    let requests_before = env.about().requests;
    let operation = Operation::Uninstall;
    let mut report = Report::new(operation, &latest.name, &latest.namespace, latest.revision, started_at);
    record::set_status(&mut latest.release, operation.pending_status(), &operation.pending_description());
    let removal = Removal { checked, options, keep_history, history: &history };
    let acted = act(env, &removal, &mut latest, progress, &mut report);
    report.status = match &acted {
        Ok(()) | Err(Error::Incomplete(_)) if keep_history => "uninstalled".into(),
        Ok(()) | Err(Error::Incomplete(_)) => "deleted".into(),
        Err(_) => {
            // Helm's uninstall stops here and writes nothing more: the record
            // stays `uninstalling`, with what its hooks did.
            let now_unix = env.now_ms() / 1000;
            let _ = crate::seam::save(env, &mut latest, now_unix);
            latest.status().to_string()
        }
    };
    if let Err(e) = acted {
        report.ended = Ended::Failed(e);
    }
    report.ended_at = env.now_ms();
    let requests = env.about().requests;
    report.api_requests = requests.0 - requests_before.0;
    report.api_requests_repeated = requests.1 - requests_before.1;
    report
}

/// What one uninstall removes, and how.
struct Removal<'a> {
    checked: &'a Checked,
    options: &'a DeployOptions,
    keep_history: bool,
    history: &'a [StoredRelease],
}

/// The pre-delete hooks, the record stored `uninstalling`, the deletions,
/// the post-delete hooks, the record last, as Helm's `Uninstall.Run` goes: a failed pre-delete hook or
/// a refused deletion stops it; a wait for deletions that runs out and
/// failed post-delete hooks do not — the release is removed all the same,
/// and they are counted in the error ([`Error::Incomplete`]).
fn act(
    env: &mut (impl Env + ?Sized),
    r: &Removal<'_>,
    latest: &mut StoredRelease,
    progress: &mut dyn Progress,
    report: &mut Report,
) -> Result<(), Error> {
    let (checked, options) = (r.checked, r.options);
    let plan = event_plan(&checked.plan, Target::Install);
    // Each pre-delete hook stores the record `uninstalling` as it starts
    // (Helm's `recordRelease`); it is stored again once they are done.
    run_hooks(env, latest, checked, Event::PreDelete, options, progress, report)?;
    let now_unix = env.now_ms() / 1000;
    crate::seam::save(env, latest, now_unix)?;
    let release = (latest.name.as_str(), latest.namespace.as_str());
    let (owned, not_deleted) = owned_resources(env, &checked.release, plan, release, progress, report.started_at);
    report.not_deleted = not_deleted;
    let deadline = env.now_ms() + options.timeout_ms;
    let deleted = delete_in_order(env, &checked.release, plan, &|i| owned.contains(&i), deadline, progress, report)?;
    report.deleted = deleted.names;
    let mut errors: Vec<Error> = deleted.left.map(Error::NotDeleted).into_iter().collect();
    if let Err(e) = run_hooks(env, latest, checked, Event::PostDelete, options, progress, report) {
        errors.push(e);
    }
    let now = env.now_ms();
    record::uninstalled(&mut latest.release, now);
    if r.keep_history {
        let now_unix = env.now_ms() / 1000;
        if let Err(e) = crate::seam::save(env, latest, now_unix) {
            errors.push(e.into());
        }
    } else if let Some(e) = r.history.iter().find_map(|h| crate::seam::forget(env, h).err()) {
        errors.push(e.into());
    }
    Error::incomplete(errors)
}

/// The resources (by index) an uninstall may delete: those the release
/// owns, read one by one as Helm 4.3 reads them before deleting
/// (`ownership`), and Helm's words for the rest. Resources kept by
/// `helm.sh/resource-policy: keep` are not read: they stay anyway.
fn owned_resources(
    cluster: &mut (impl Cluster + Clock + ?Sized),
    release: &Release,
    plan: &EventPlan,
    (name, namespace): (&str, &str),
    progress: &mut dyn Progress,
    since: Millis,
) -> (BTreeSet<usize>, String) {
    let mut owned = BTreeSet::new();
    let mut not_deleted = Vec::new();
    for item in &plan.items {
        let r = &release.resources[item.index];
        if kept(r) {
            continue;
        }
        match ownership::check(cluster, &r.head.key(), name, namespace) {
            Ownership::Owned => {
                owned.insert(item.index);
            }
            Ownership::Gone => {}
            other => {
                let why = match &other {
                    Ownership::Unverifiable(e) => Keep::Unverifiable(e),
                    _ => Keep::NotOwned,
                };
                let at = Elapsed::since(since, cluster.now_ms());
                progress.event(&DeployEvent::Kept { resource: &item.reference, why, at });
                not_deleted.push((r.head.kind.clone(), r.head.name.clone(), other));
            }
        }
    }
    (owned, ownership::kept_text(&not_deleted))
}
