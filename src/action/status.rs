//! `helm hooks status RELEASE [--event E] [--revision N]`: the last run of
//! an event's hooks as the release record keeps it, without running
//! anything — as `helm status` shows the last test suite run. Prepared, it
//! has read the revision and ordered its hooks as they ran; performed, it
//! reads what the record leaves running from the cluster (one GET each)
//! and changes nothing. What the record says is `release::hook_runs`'.

use serde_json::Value;

use crate::deploy::progress::Progress;
use crate::exec::executor::Phase;
use crate::exec::runner::Summary;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::{self, Release};
use crate::model::manifest::Syntax;
use crate::plan::{self, EventPlan, Plan, Target};
use crate::release::hook_runs::{as_seen_now, stored_summary, SeenNow};
use crate::release::storage::StoredRelease;
use crate::seam::Env;

use super::contract::{Action, NO_WARNINGS};
use super::stop::Stop;

/// Which run is asked about.
#[derive(Debug, Clone)]
pub struct StatusRequest {
    pub release: String,
    pub event: Event,
    /// `--revision`; the latest when `None`.
    pub revision: Option<u64>,
}

/// The revision read and its hooks ordered as they ran.
#[derive(Debug)]
pub struct StatusPrepared {
    stored: StoredRelease,
    release: Release,
    plan: Plan,
}

/// The last run of the event's hooks, as the record and the cluster show it.
#[derive(Debug)]
pub struct StatusOutcome {
    pub release: String,
    pub namespace: String,
    pub revision: u64,
    pub event: Event,
    /// The record read, for what made the revision.
    pub(crate) release_json: Value,
    pub summary: Summary,
}

impl<E: Env + ?Sized> Action<E> for StatusRequest {
    type Prepared = StatusPrepared;
    type Outcome = StatusOutcome;

    fn prepare(&self, env: &mut E) -> Result<StatusPrepared, Stop> {
        let stored = match self.revision {
            None => crate::seam::latest(env, &self.release)?,
            Some(n) => crate::seam::revision(env, &self.release, n)?,
        };
        let mut diags = Diagnostics::default();
        let (_, release) = input::parse_as(&stored.json(), Syntax::HeadOnly, &mut diags)?;
        // The plan only orders the hooks as they ran; problems in the chart are `lint`'s to report.
        let plan = plan::build(&release, &[Target::Hooks(self.event)], plan::PlanOptions::default(), &mut diags);
        Ok(StatusPrepared { stored, release, plan })
    }

    /// None: problems in the chart are `lint`'s to report.
    fn warnings(_: &StatusPrepared) -> &Diagnostics {
        &NO_WARNINGS
    }

    /// Tells no progress: it only reads.
    fn perform(self, env: &mut E, prepared: StatusPrepared, _: &mut dyn Progress) -> Result<StatusOutcome, Stop> {
        let StatusPrepared { stored, release, plan } = prepared;
        let event_plan = &plan.events[0];
        let mut summary = stored_summary(&stored.release, &release, event_plan);
        read_now(env, &release, event_plan, &mut summary);
        Ok(StatusOutcome {
            release: self.release,
            namespace: stored.namespace,
            revision: stored.revision,
            event: self.event,
            release_json: stored.release,
            summary,
        })
    }
}

/// Asks the cluster how each abandoned hook is now: one GET of its object.
fn read_now(env: &mut (impl Env + ?Sized), release: &Release, plan: &EventPlan, s: &mut Summary) {
    for (row, item) in s.rows.iter_mut().zip(&plan.items) {
        if row.phase != Phase::Abandoned {
            continue;
        }
        let head = &release.hooks[item.index].head;
        let seen = match crate::seam::get(env, &head.key()) {
            Ok(Some(o)) => SeenNow::Object(o),
            Ok(None) => SeenNow::Gone,
            Err(e) => SeenNow::Unreadable(e.to_string()),
        };
        as_seen_now(row, &head.kind, &seen);
    }
    s.ended_at = s.rows.iter().filter_map(|r| r.completed_at.or(r.started_at)).max().unwrap_or(s.started_at);
}
