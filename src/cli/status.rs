//! `helm hooks status RELEASE [--event E] [--revision N] [-o text|json|junit|markdown]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`render::report::stored_summary`).

use super::{split_flag, Exit, Io};
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
struct Args {
    release: String,
    event: Event,
    revision: Option<u64>,
    output: Output,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let (mut release, mut event, mut revision, mut output) = (None, Event::Test, None, Output::Text);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        let mut value =
            |name: &str| inline.clone().or_else(|| it.next().cloned()).ok_or(format!("{name} needs a value"));
        match flag {
            "--event" => {
                let v = value("--event")?;
                event = v.parse().map_err(|_| format!("unknown event {v:?}; use pre-install, post-install, pre-delete, post-delete, pre-upgrade, post-upgrade, pre-rollback, post-rollback or test"))?;
            }
            "--revision" => {
                let v = value("--revision")?;
                revision = Some(v.parse().map_err(|_| format!("--revision takes a revision number, not {v:?}"))?);
            }
            "-o" | "--output" => {
                let v = value("--output")?;
                output = match v.as_str() {
                    "text" => Output::Text,
                    "json" => Output::Json,
                    "junit" => Output::Junit,
                    "markdown" => Output::Markdown,
                    _ => return Err(format!("-o {v} is not available here; use text, json, junit or markdown")),
                };
            }
            f if f.starts_with('-') => return Err(format!("unknown flag {arg}")),
            _ if release.is_none() => release = Some(arg.clone()),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    let release = release.ok_or("the release name is missing: helm hooks status RELEASE")?;
    Ok(Args { release, event, revision, output })
}

pub fn main(rest: &[String], io: &mut Io) -> Exit {
    let args = match parse_args(rest) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(io.stderr, "Error: {e}\nRun 'helm hooks --help' for usage.");
            return Exit::Invalid;
        }
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
