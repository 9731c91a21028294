//! `helm hooks status RELEASE [--event E] [--revision N] [-o text|json|junit|markdown]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`render::report::stored_summary`).

use super::args::{ArgError, Args};
use super::deploy::fail;
use super::run::{event_arg, release_arg, Output};
use super::{Exit, Io};
use crate::exec::run as runner;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input;
use crate::plan::{self, Target};
use crate::release::storage;
use crate::render;
use crate::render::report::{self, Command};

#[derive(Debug)]
struct StatusArgs {
    release: String,
    event: Event,
    revision: Option<u64>,
    output: Output,
}

fn status_args(args: &Args) -> Result<StatusArgs, ArgError> {
    let revision = match args.value("revision") {
        None => None,
        Some(v) => {
            Some(v.parse().map_err(|_| ArgError::Invalid(format!("--revision takes a revision number, not {v:?}")))?)
        }
    };
    Ok(StatusArgs {
        release: release_arg(args, "helm hooks status RELEASE")?,
        event: event_arg(args)?,
        revision,
        output: Output::of(args)?,
    })
}

pub fn main(parsed: &Args, io: &mut Io) -> Exit {
    let args = match status_args(parsed) {
        Ok(a) => a,
        Err(e) => return super::usage_error(io, "status", &e),
    };
    let (mut client, driver) = match super::deploy::connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
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
    let release = match input::parse_as(&stored.json(), crate::model::manifest::Syntax::HeadOnly, &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    // The plan only orders the hooks as they ran; problems in the chart are `lint`'s to report.
    let plan = plan::build(&release, &[Target::Hooks(args.event)], plan::Options::default(), &mut diags);
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
