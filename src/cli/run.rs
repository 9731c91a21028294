//! `helm hooks run RELEASE`: the flags read into the action's request, the
//! action (`action::run`) prepared and performed, its outcome rendered.

use std::io::Write;

use super::io::{connect, fail, problems, show, Io};
use super::typed::RunArgs;
use crate::action::connect::Early;
use crate::action::run::{self, RunRequest, RunStop};
use crate::action::Exit;
use crate::exec::executor;
use crate::exec::runner::RunEnd;
use crate::model::event::Event;
use crate::plan;
use crate::render::{self, RunShown};

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
    problems(io, &prepared.diags.acting());
    let header = render::run_header(
        prepared.event_plan().items.len(),
        args.event,
        &args.release,
        prepared.revision(),
        args.parallel,
    );
    let progress: &mut dyn Write = if args.output.progress_on_stderr() { io.stderr } else { io.stdout };
    let _ = progress.write_all(header.as_bytes());
    let mut progress = render::progress_lines(progress, prepared.namespace());
    let outcome = run::perform(&mut env, prepared, &mut progress);
    if let Err(code) = show(io, &RunShown { release: &args.release, outcome: &outcome }, args.output) {
        return code;
    }
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
            problems(io, &diags.acting());
            let _ = writeln!(io.stderr, "Error: the release's hooks have errors; nothing was run.");
            Exit::Invalid
        }
        RunStop::Access(e, diags) => {
            problems(io, &diags.acting());
            fail(io, &e, Exit::Cluster)
        }
    }
}
