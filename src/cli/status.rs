//! `helm hooks status RELEASE [--event E] [--revision N] [-o FORMAT]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`run::status::summary`), headed
//! by the release, namespace, revision, event and when the run was; a hook
//! the record leaves `Running` after its run stopped is read from the
//! cluster (one GET each) or said to be abandoned.

use super::fail;
use super::typed::StatusArgs;
use super::{Exit, Io};
use crate::model::diagnostic::Diagnostics;
use crate::model::input;
use crate::plan::{self, Target};
use crate::release::storage;
use crate::render;

pub fn main(args: &StatusArgs, io: &mut Io) -> Exit {
    let (mut client, driver) = match super::connect(io, None, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let stored = match args.revision {
        None => storage::read_latest(&mut client, driver, &args.release),
        Some(r) => storage::read_revision(&mut client, driver, &args.release, r),
    };
    let stored = match stored {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::of_storage(&e)),
    };
    let mut diags = Diagnostics::default();
    let release = match input::parse_as(&stored.json(), crate::model::manifest::Syntax::HeadOnly, &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    // The plan only orders the hooks as they ran; problems in the chart are `lint`'s to report.
    let plan = plan::build(&release, &[Target::Hooks(args.event)], plan::Options::default(), &mut diags);
    let summary = crate::run::status::summary(&mut client, &stored.release, &release, &plan.events[0]);
    let whose =
        render::Whose { release: &args.release, namespace: Some(&stored.namespace), revision: Some(stored.revision) };
    let status = render::Status { whose, event: args.event, release_json: &stored.release, summary: &summary };
    let out = render::status(args.output, &status);
    let _ = io.stdout.write_all(out.as_bytes());
    // As `helm status`: the record was read; how the hooks went is in the report.
    Exit::Ok
}
