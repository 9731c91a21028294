//! `helm hooks status RELEASE [--event E] [--revision N] [-o text|json|junit|markdown]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`render::report::stored_summary`).

use super::args::{ArgError, Args};
use super::{spec, Exit, Io};
use crate::exec::run as runner;
use crate::kube;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input;
use crate::plan::{self, Phase};
use crate::release::storage::{self, Driver};
use crate::render;
use crate::render::report::{self, Command};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    /// For CI: the JUnit file of a run whose own output was the Markdown report.
    Junit,
    Markdown,
}

#[derive(Debug)]
struct StatusArgs {
    release: String,
    event: Event,
    revision: Option<u64>,
    output: Output,
}

fn status_args(args: &Args) -> Result<StatusArgs, ArgError> {
    let event = match args.value("event") {
        None => Event::Test,
        Some(v) => {
            v.parse().map_err(|_| ArgError::Invalid(format!("unknown event {v:?}; use one of {}", spec::events())))?
        }
    };
    let revision = match args.value("revision") {
        None => None,
        Some(v) => {
            Some(v.parse().map_err(|_| ArgError::Invalid(format!("--revision takes a revision number, not {v:?}")))?)
        }
    };
    let output = match args.output(&["text", "json", "junit", "markdown"])? {
        "json" => Output::Json,
        "junit" => Output::Junit,
        "markdown" => Output::Markdown,
        _ => Output::Text,
    };
    let release = args
        .operands
        .first()
        .cloned()
        .ok_or_else(|| ArgError::Invalid("the release name is missing: helm hooks status RELEASE".into()))?;
    Ok(StatusArgs { release, event, revision, output })
}

pub fn main(parsed: &Args, io: &mut Io) -> Exit {
    let args = match status_args(parsed) {
        Ok(a) => a,
        Err(e) => return super::usage_error(io, "status", &e),
    };
    let fail = |io: &mut Io, e: &dyn std::fmt::Display, code: Exit| {
        let _ = writeln!(io.stderr, "Error: {e}");
        code
    };
    let driver = match Driver::from_env(std::env::var("HELM_DRIVER").ok().as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    let mut client = match kube::connect_from_env() {
        Ok(c) => c,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    let stored = match args.revision {
        None => storage::read_latest(&mut client, driver, &args.release),
        Some(r) => match storage::history(&mut client, driver, &args.release) {
            Ok(h) => match h.into_iter().find(|s| s.revision == r) {
                Some(s) => Ok(s),
                None => return fail(io, &format!("release: not found: {:?} revision {r}", args.release), Exit::Failed),
            },
            Err(e) => Err(e),
        },
    };
    let stored = match stored {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    let mut diags = Diagnostics::default();
    let release = match input::parse(&stored.json(), &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    // The plan only orders the hooks as they ran; problems in the chart are `lint`'s to report.
    let plan = plan::build(&release, &[Phase::Hooks(args.event)], plan::Options::default(), &mut diags);
    let summary = report::stored_summary(&stored.release, &release, &plan.events[0]);
    let out = match args.output {
        Output::Text if summary.rows.is_empty() => format!("release {} has no {} hooks\n", args.release, args.event),
        Output::Text if summary.rows.iter().all(|r| r.started_at.is_none()) => {
            format!("no {} hook of release {} has run yet\n", args.event, args.release)
        }
        Output::Text => runner::summary_text(&summary),
        Output::Json => runner::summary_json(&summary),
        Output::Junit => runner::summary_junit(&summary, &args.release),
        Output::Markdown => {
            let t = report::from_run(
                Command::Status,
                &summary,
                &args.release,
                Some(&stored.namespace),
                Some(stored.revision),
            );
            render::markdown::render(&t)
        }
    };
    let _ = io.stdout.write_all(out.as_bytes());
    // As `helm status`: the record was read; how the hooks went is in the report.
    Exit::Ok
}
