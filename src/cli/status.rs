//! `helm hooks status RELEASE [--event E] [--revision N] [-o FORMAT]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`render::stored::stored_summary`), headed
//! by the release, namespace, revision, event and when the run was; a hook
//! the record leaves `Running` after its run stopped is read from the
//! cluster (one GET each) or said to be abandoned.

use super::deploy::fail;
use super::typed::StatusArgs;
use super::{Exit, Io};
use crate::exec::executor::Phase;
use crate::exec::run::Summary;
use crate::kube::{Client, ObjectKey};
use crate::model::diagnostic::Diagnostics;
use crate::model::input;
use crate::model::input::Release;
use crate::plan::EventPlan;
use crate::plan::{self, Target};
use crate::release::storage;
use crate::render;
use crate::render::stored::{self, SeenNow};

pub fn main(args: &StatusArgs, io: &mut Io) -> Exit {
    let (mut client, driver) = match super::deploy::connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let stored = match args.revision {
        None => storage::read_latest(&mut client, driver, &args.release),
        Some(r) => storage::read_revision(&mut client, driver, &args.release, r),
    };
    let stored = match stored {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    let mut diags = Diagnostics::default();
    let release = match input::parse_as(&stored.json(), crate::model::manifest::Syntax::HeadOnly, &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    // The plan only orders the hooks as they ran; problems in the chart are `lint`'s to report.
    let plan = plan::build(&release, &[Target::Hooks(args.event)], plan::Options::default(), &mut diags);
    let mut summary = stored::stored_summary(&stored.release, &release, &plan.events[0]);
    read_abandoned(&mut client, &release, &plan.events[0], &mut summary);
    let whose =
        render::Whose { release: &args.release, namespace: Some(&stored.namespace), revision: Some(stored.revision) };
    let status = render::Status { whose, event: args.event, release_json: &stored.release, summary: &summary };
    let out = render::status(args.output, &status);
    let _ = io.stdout.write_all(out.as_bytes());
    // As `helm status`: the record was read; how the hooks went is in the report.
    Exit::Ok
}

/// Asks the cluster how each abandoned hook is now: one GET of its object.
fn read_abandoned(client: &mut Client, release: &Release, plan: &EventPlan, s: &mut Summary) {
    for (row, item) in s.rows.iter_mut().zip(&plan.items) {
        if row.phase != Phase::Abandoned {
            continue;
        }
        let head = &release.hooks[item.index].head;
        let key = ObjectKey::new(&head.api_version, &head.kind, head.namespace.as_deref(), &head.name);
        let seen = match client.get_opt(&key) {
            Ok(Some(o)) => SeenNow::Object(o),
            Ok(None) => SeenNow::Gone,
            Err(e) => SeenNow::Unreadable(e.to_string()),
        };
        stored::as_seen_now(row, &head.kind, &seen);
    }
    s.ended_at = s.rows.iter().filter_map(|r| r.completed_at.or(r.started_at)).max().unwrap_or(s.started_at);
}
