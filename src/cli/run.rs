//! `helm hooks run RELEASE`: the flags read into the action's request, the
//! action (`action::run`) prepared and performed, its outcome rendered.

use std::io::Write;

use super::io::{connect, fail, Io};
use super::typed::RunArgs;
use crate::action::connect::Early;
use crate::action::run::{self, RunRequest, RunStop};
use crate::action::Exit;
use crate::exec::executor;
use crate::exec::run::RunEnd;
use crate::model::event::Event;
use crate::plan;
use crate::render;

pub fn main(args: &RunArgs, io: &mut Io) -> Exit {
    let mut env = match connect(io, Early::default(), None) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let request = RunRequest {
        release: args.release.clone(),
        event: args.event,
        plan: plan::PlanOptions { parallel: args.parallel, parallel_all: args.parallel_all, parallel_resources: None },
        executor: executor::RunOptions {
            parallel: args.parallel,
            timeout_ms: args.timeout_ms,
            ignore_fail_fast: args.ignore_fail_fast,
            pod_logs: args.logs,
            record_before_cleanup: args.event == Event::Test,
        },
        include: args.include.clone(),
        exclude: args.exclude.clone(),
    };
    let prepared = match run::prepare(&mut env, &request) {
        Ok(p) => p,
        Err(stop) => return stopped(io, stop),
    };
    let _ = io.stderr.write_all(render::text::diagnostics(&prepared.diags.acting(), false).as_bytes());
    let header = render::text::run::run_header(
        prepared.event_plan().items.len(),
        args.event,
        &args.release,
        prepared.revision(),
        args.parallel,
    );
    let progress: &mut dyn Write = if args.output.progress_on_stderr() { io.stderr } else { io.stdout };
    let _ = progress.write_all(header.as_bytes());
    let mut progress = render::progress::Text::new(progress).within(prepared.namespace());
    let outcome = run::perform(&mut env, prepared, &mut progress);
    let whose =
        render::Whose { release: &args.release, namespace: Some(&outcome.namespace), revision: outcome.revision };
    let _ = io.stdout.write_all(render::run(args.output, whose, &outcome.summary).as_bytes());
    match outcome.summary.outcome {
        RunEnd::Succeeded => Exit::Ok,
        RunEnd::Failed => Exit::Failed,
        RunEnd::ClusterError => Exit::Cluster,
    }
}

/// Why the run did not start, said, and its exit code.
fn stopped(io: &mut Io, stop: RunStop) -> Exit {
    match stop {
        RunStop::Storage(e) => fail(io, &e, Exit::of_storage(&e)),
        RunStop::Input(e) => fail(io, &e, Exit::Invalid),
        RunStop::Invalid(diags) => {
            let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
            let _ = writeln!(io.stderr, "Error: the release's hooks have errors; nothing was run.");
            Exit::Invalid
        }
        RunStop::Access(e, diags) => {
            let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
            fail(io, &e, Exit::Cluster)
        }
    }
}
