//! `helm hooks status RELEASE [--event E] [--revision N] [-o text|json|junit|markdown]`:
//! the report of the last run of an event's hooks, from the release record,
//! without running anything — as `helm status` shows the last test suite
//! run. The same outputs as `run` (`render::stored::stored_summary`), headed
//! by the release, namespace, revision, event and when the run was; a hook
//! the record leaves `Running` after its run stopped is read from the
//! cluster (one GET each) or said to be abandoned.

use super::args::{ArgError, Args};
use super::deploy::fail;
use super::run::{event_arg, release_arg};
use super::{Exit, Io};
use crate::base::time::go_time;
use crate::exec::executor::Phase;
use crate::exec::run::{self as runner, Summary};
use crate::kube::{Client, ObjectKey};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input;
use crate::model::input::Release;
use crate::plan::EventPlan;
use crate::plan::{self, Target};
use crate::release::storage;
use crate::render;
use crate::render::format::Format;
use crate::render::report::{self, Command};
use crate::render::stored::{self, SeenNow};

#[derive(Debug)]
struct StatusArgs {
    release: String,
    event: Event,
    revision: Option<u64>,
    output: Format,
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
        output: args.format(),
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
    let header = header(&args, &stored.namespace, &stored.release, &summary);
    let out = match args.output {
        Format::Text if summary.rows.is_empty() => format!("{header}: it has no {} hooks\n", args.event),
        Format::Text if summary.rows.iter().all(|r| r.started_at.is_none()) => {
            format!("{header}: no {} hook ran on this revision\n{}", args.event, runner::summary_text(&summary))
        }
        // The formats this command does not offer never get here (the parser refuses them).
        Format::Text | Format::Dot | Format::Mermaid => format!("{header}\n{}", runner::summary_text(&summary)),
        Format::Json => runner::summary_json(&summary),
        Format::Junit => runner::summary_junit(&summary, &args.release),
        Format::Markdown => {
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

/// `Release r in namespace ns, revision 3, an upgrade: the last run of its
/// pre-upgrade hooks, 2026-01-02T03:04:05Z to 2026-01-02T03:04:09Z`.
fn header(args: &StatusArgs, namespace: &str, release_json: &serde_json::Value, s: &Summary) -> String {
    let what = format!("Release {} in namespace {namespace}, {}", args.release, stored::revision_words(release_json));
    if s.rows.iter().all(|r| r.started_at.is_none()) {
        return what;
    }
    format!("{what}: the last run of its {} hooks, {} to {}", args.event, go_time(s.started_at), go_time(s.ended_at))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::{Outcome, Row};

    /// The header names the release, namespace, revision, what made it, the
    /// event and when its run was (issue 32).
    #[test]
    fn the_header_says_whose_run_and_when() {
        let args = StatusArgs { release: "r".into(), event: Event::PreUpgrade, revision: None, output: Format::Text };
        let json = serde_json::json!({"version": 2, "info": {"description": "Upgrade complete"}});
        let row = |started_at: Option<u64>| Row {
            reference: "Job/m".into(),
            weight: 0,
            phase: Phase::Succeeded,
            started_at,
            completed_at: started_at.map(|t| t + 2_000),
            message: String::new(),
            output: None,
            waiting: None,
        };
        let mut s = Summary {
            event: "pre-upgrade".into(),
            rows: vec![row(Some(1_767_323_045_000))],
            started_at: 1_767_323_045_000,
            ended_at: 1_767_323_047_000,
            outcome: Outcome::Succeeded,
            error: None,
            failed_fast: None,
            api_requests: None,
            annotate: true,
        };
        assert_eq!(
            header(&args, "demo", &json, &s),
            "Release r in namespace demo, revision 2, an upgrade: the last run of its pre-upgrade hooks, \
             2026-01-02T03:04:05Z to 2026-01-02T03:04:07Z"
        );
        s.rows = vec![row(None)];
        assert_eq!(header(&args, "demo", &json, &s), "Release r in namespace demo, revision 2, an upgrade");
    }
}
