//! What an upgrade or rollback deletes: the resources the stored revision
//! has and the next one has not, matched by identity as Helm matches them,
//! in reverse order of the stored revision's plan; and what stays anyway
//! (`helm.sh/resource-policy: keep`).

use crate::exec::rollout::deletion_batches;
use crate::model::annotation::RESOURCE_POLICY;
use crate::model::diagnostic::Diagnostics;
use crate::model::input::{self, Release};
use crate::model::object::Identity;
use crate::model::resource::Resource;
use crate::plan::{self, EventPlan, Target};
use crate::release::storage::StoredRelease;

/// The object a release's manifest names, by API group, kind, namespace
/// and name (how Helm matches resources between revisions).
pub(crate) fn identity<'r>(r: &'r crate::model::resource::Resource, namespace: &'r str) -> Identity<'r> {
    r.head.identity_in(Some(namespace))
}

/// Whether Helm leaves `r` in place on uninstall and upgrade
/// (`helm.sh/resource-policy: keep`).
pub(crate) fn kept(r: &crate::model::resource::Resource) -> bool {
    r.head.annotations.get(RESOURCE_POLICY).is_some_and(|p| p.trim() == "keep")
}

/// `current`'s resources and their install plan: what an upgrade or a
/// rollback deletes from, in reverse order of that plan.
pub(super) fn stored_plan(current: &StoredRelease) -> Option<(Release, EventPlan)> {
    let mut diags = Diagnostics::default();
    let old = input::from_release_value(&current.release, &mut diags).ok()?;
    let plan = plan::build(&old, &[Target::Install], plan::PlanOptions::default(), &mut diags);
    let install = plan.events.into_iter().next()?;
    Some((old, install))
}

/// Whether a resource of the stored revision is gone from `next` (matched
/// by identity, as the duplicate check matches).
pub(super) fn dropped_by<'a>(next: &'a Release, namespace: &'a str) -> impl Fn(&Resource) -> bool + 'a {
    let keep: std::collections::BTreeSet<_> = next.resources.iter().map(|r| identity(r, namespace)).collect();
    move |r| !keep.contains(&identity(r, namespace))
}

/// What `current` had and `next` has not, in deletion order, with their plan
/// references: what an upgrade or rollback deletes.
pub(super) fn removed(current: &StoredRelease, next: &Release, namespace: &str) -> Vec<(String, Resource)> {
    let Some((old, old_plan)) = stored_plan(current) else { return Vec::new() };
    let dropped = dropped_by(next, namespace);
    deletion_batches(&old_plan)
        .into_iter()
        .flatten()
        .map(|i| (old_plan.items[i].reference.to_string(), &old.resources[old_plan.items[i].index]))
        .filter(|(_, r)| dropped(r))
        .map(|(reference, r)| (reference, r.clone()))
        .collect()
}

/// The references of [`removed`] (for `deploy --dry-run`).
pub(super) fn removed_refs(current: &StoredRelease, next: &Release, namespace: &str) -> Vec<String> {
    removed(current, next, namespace).into_iter().map(|(reference, _)| reference).collect()
}
