//! Sequenced install, upgrade, rollback and uninstall on stock Helm 4.
//!
//! Helm renders (`--dry-run=server -o json`); the plugin deploys what Helm
//! rendered, in the plan's order, and keeps the release record in Helm's
//! storage exactly as Helm's own actions would (`pkg/action`), so that
//! stock `helm list`, `status`, `history`, `get manifest`, `upgrade`,
//! `rollback` and `uninstall` treat the result as their own:
//!
//! 1. the new revision is stored `pending-*`;
//! 2. the pre-hooks run (the `run` executor);
//! 3. the resources roll out batch by batch ([`apply`]), each batch ready
//!    before the next;
//! 4. resources the previous revision had and this one has not are deleted
//!    in reverse plan order (upgrade, rollback);
//! 5. the post-hooks run;
//! 6. the revision becomes `deployed` and the one it replaces `superseded`
//!    — or, on any failure, it becomes `failed` and nothing later happens.
//!
//! One room per command, as Helm's `pkg/action` has one file per action:
//! [`install`] (install or upgrade), [`rollback`] and [`uninstall`], each
//! finding what it acts on and asking for its permissions (prepare) apart
//! from acting (perform); [`operation`] is the one operation above that
//! install, upgrade and rollback are, [`steps`] what it shares with
//! uninstall. They act over the seam ([`seam`]) and say what happens as
//! typed events ([`progress`]).

pub mod access;
pub mod apply;
pub mod command;
pub mod crd;
pub mod crds;
pub mod error;
pub mod external;
pub mod install;
pub mod operation;
pub mod ownership;
pub mod policy;
pub mod preview;
pub mod progress;
pub mod rollback;
pub mod seam;
pub mod steps;
pub mod stuck;
pub mod uninstall;

use serde_json::Value;

use crate::exec::executor::Millis;
use crate::exec::rollout::deletion_batches;
use crate::exec::run as runner;
use crate::model::annotation::RESOURCE_POLICY;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::{self, Release};
use crate::model::object::Identity;
use crate::model::resource::Resource;
use crate::plan::{self, EventPlan, Plan, Target};
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;

pub use error::{Diagnosis, Error, HookFailure};
pub use operation::deploy;
pub use policy::{choose, recover};
pub use progress::{DeployEvent, Progress};
pub use seam::{Clock, Cluster, Env, Kube, Store};

#[derive(Debug, Clone, Copy)]
pub struct Options {
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

/// How an operation ended.
#[derive(Debug)]
pub enum Ended {
    Done,
    /// It failed, and why: a hook or resource (exit 1), or the cluster
    /// failing us (exit 3, [`Error::is_cluster`]).
    Failed(Error),
}

#[derive(Debug)]
pub struct Report {
    pub operation: Operation,
    pub release: String,
    pub namespace: String,
    pub revision: u64,
    pub status: String,
    pub resources: Vec<apply::ResourceRow>,
    pub deleted: Vec<String>,
    /// The deletions batch by batch, with their times (for a timeline:
    /// uninstall, and what an upgrade or rollback removes).
    pub deletions: Vec<Deletion>,
    /// Each event's hooks as they ran, in the order the events ran.
    pub hooks: Vec<runner::Summary>,
    pub started_at: Millis,
    pub ended_at: Millis,
    pub api_requests: u64,
    /// Of those, repeated after a 429 or a gateway error.
    pub api_requests_repeated: u64,
    pub ended: Ended,
    /// The chart's rendered NOTES.txt, printed after an install or upgrade as
    /// `helm install` and `helm upgrade` print it.
    pub notes: String,
    /// What an uninstall did not delete because the release does not own it
    /// or its ownership could not be verified, in Helm 4.3's words
    /// (`ownership::kept_text`), printed before the outcome as `helm uninstall` does.
    pub not_deleted: String,
    /// What `--rollback-on-failure` did after this operation failed: the
    /// uninstall or rollback, with its own outcome.
    pub recovery: Option<Box<Report>>,
}

impl Report {
    fn new(operation: Operation, release: &str, namespace: &str, revision: u64, started_at: Millis) -> Report {
        Report {
            operation,
            release: release.to_string(),
            namespace: namespace.to_string(),
            revision,
            status: String::new(),
            resources: Vec::new(),
            deleted: Vec::new(),
            deletions: Vec::new(),
            hooks: Vec::new(),
            started_at,
            ended_at: started_at,
            api_requests: 0,
            api_requests_repeated: 0,
            ended: Ended::Done,
            notes: String::new(),
            not_deleted: String::new(),
            recovery: None,
        }
    }
}

/// One batch of deletions: what was deleted, from the delete request until
/// every object was gone.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Deletion {
    pub resources: Vec<String>,
    pub started_at: Millis,
    pub ended_at: Millis,
}

/// The parsed and checked release with its plans: everything is validated
/// before anything touches the cluster.
pub struct Checked {
    pub value: Value,
    pub release: Release,
    pub plan: Plan,
}

/// Parses a release JSON and plans `events` and the resources. `Err`
/// carries the diagnostics (exit 2).
pub fn check(value: Value, events: &[Event], options: &Options) -> Result<(Checked, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::default();
    let release = match input::from_release_value(&value, &mut diags) {
        Ok(r) => r,
        Err(e) => {
            diags.push(crate::model::diagnostic::Diagnostic::error(Default::default(), e.to_string()));
            return Err(diags);
        }
    };
    let mut phases: Vec<Target> = events.iter().map(|&e| Target::Hooks(e)).collect();
    phases.push(Target::Install);
    let plan = plan::build(
        &release,
        &phases,
        plan::Options {
            parallel: options.parallel,
            parallel_all: options.parallel_all,
            parallel_resources: options.parallel_resources,
        },
        &mut diags,
    );
    if diags.has_errors() {
        return Err(diags);
    }
    let planned = plan.events.iter().filter(|e| matches!(e.target, Target::Hooks(_)));
    let hooks = planned.flat_map(|e| e.items.iter().map(|i| &release.hooks[i.index]));
    let mut seen = std::collections::BTreeSet::new();
    let hooks = hooks.filter(|h| seen.insert((h.source.as_str(), h.document)));
    diags.extend(crate::model::hook::timeouts_over(hooks, options.timeout_ms, "--timeout"));
    Ok((Checked { value, release, plan }, diags))
}

pub(crate) fn event_plan(plan: &Plan, phase: Target) -> &EventPlan {
    plan.events.iter().find(|e| e.target == phase).expect("every requested phase is planned")
}

/// The object a release's manifest names, by API group, kind, namespace
/// and name (how Helm matches resources between revisions).
pub(crate) fn identity<'r>(r: &'r crate::model::resource::Resource, namespace: &'r str) -> Identity<'r> {
    r.head.identity_in(Some(namespace))
}

/// Whether Helm leaves `r` in place on uninstall and upgrade
/// (`helm.sh/resource-policy: keep`).
pub fn kept(r: &crate::model::resource::Resource) -> bool {
    r.head.annotations.get(RESOURCE_POLICY).is_some_and(|p| p.trim() == "keep")
}

/// `current`'s resources and their install plan: what an upgrade or a
/// rollback deletes from, in reverse order of that plan.
pub(crate) fn stored_plan(current: &StoredRelease) -> Option<(Release, EventPlan)> {
    let mut diags = Diagnostics::default();
    let old = input::from_release_value(&current.release, &mut diags).ok()?;
    let plan = plan::build(&old, &[Target::Install], plan::Options::default(), &mut diags);
    let install = plan.events.into_iter().next()?;
    Some((old, install))
}

/// Whether a resource of the stored revision is gone from `next` (matched
/// by identity, as the duplicate check matches).
pub(crate) fn dropped_by<'a>(next: &'a Release, namespace: &'a str) -> impl Fn(&Resource) -> bool + 'a {
    let keep: std::collections::BTreeSet<_> = next.resources.iter().map(|r| identity(r, namespace)).collect();
    move |r| !keep.contains(&identity(r, namespace))
}

/// What `current` had and `next` has not, in deletion order, with their plan
/// references: what an upgrade or rollback deletes.
pub fn removed(current: &StoredRelease, next: &Release, namespace: &str) -> Vec<(String, Resource)> {
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
pub fn removed_refs(current: &StoredRelease, next: &Release, namespace: &str) -> Vec<String> {
    removed(current, next, namespace).into_iter().map(|(reference, _)| reference).collect()
}
