//! `helm hooks run RELEASE`: read the flags and the release from Helm's
//! storage, call the action (`run::hooks`: prepare, the permissions, perform)
//! and hand its summary to the renderer.

use std::io::Write;

use super::fail;
use super::typed::RunArgs;
use super::{Exit, Io};
use crate::exec::executor;
use crate::exec::run::Outcome;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::Release;
use crate::plan::{self, Plan};
use crate::release::storage;
use crate::render;
use crate::run::hooks;

pub fn main(args: &RunArgs, io: &mut Io) -> Exit {
    let (mut client, driver) = match super::connect(io, None, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut stored = match storage::read_latest(&mut client, driver, &args.release) {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::of_storage(&e)),
    };
    let (release, plan) = match checked(args, &stored, io) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let event_plan = &plan.events[0];
    if let Err(e) = hooks::check_access(&mut client, &stored, &release, event_plan, args.logs) {
        return fail(io, &e, Exit::Cluster);
    }
    let header = render::text::run::run_header(
        event_plan.items.len(),
        args.event,
        &args.release,
        release.revision,
        args.parallel,
    );
    let exec_options = executor::Options {
        parallel: args.parallel,
        timeout_ms: args.timeout_ms,
        ignore_fail_fast: args.ignore_fail_fast,
        pod_logs: args.logs,
        record_before_cleanup: args.event == Event::Test,
    };
    let progress: &mut dyn Write = if args.output.progress_on_stderr() { io.stderr } else { io.stdout };
    let _ = progress.write_all(header.as_bytes());
    let mut progress = render::progress::Text::new(progress).within(&stored.namespace);
    let summary = hooks::perform(&mut client, &mut stored, (&release, event_plan), exec_options, &mut progress);
    let whose =
        render::Whose { release: &args.release, namespace: Some(&stored.namespace), revision: release.revision };
    let _ = io.stdout.write_all(render::run(args.output, whose, &summary).as_bytes());
    match summary.outcome {
        Outcome::Succeeded => Exit::Ok,
        Outcome::Failed => Exit::Failed,
        Outcome::ClusterError => Exit::Cluster,
    }
}

/// The action's prepare step, its problems printed: `Err` is the exit code
/// when the stored release cannot be read or its hooks have errors.
fn checked(args: &RunArgs, stored: &storage::StoredRelease, io: &mut Io) -> Result<(Release, Plan), Exit> {
    let mut diags = Diagnostics::default();
    let request = hooks::Request {
        event: args.event,
        plan: plan::Options { parallel: args.parallel, parallel_all: args.parallel_all, parallel_resources: None },
        timeout_ms: args.timeout_ms,
        include: &args.include,
        exclude: &args.exclude,
    };
    let prepared = hooks::prepare(stored, &request, &mut diags).map_err(|e| fail(io, &e, Exit::Invalid))?;
    let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
    if diags.has_errors() {
        let _ = writeln!(io.stderr, "Error: the release's hooks have errors; nothing was run.");
        return Err(Exit::Invalid);
    }
    Ok(prepared)
}
