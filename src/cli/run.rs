//! `helm hooks run RELEASE`: read the release from Helm's storage, plan its
//! hooks for one event, check everything, then run them on the cluster.

use std::io::Write;

use super::args::{ArgError, Args, DEFAULT_TIMEOUT};
use super::deploy::fail;
use super::{spec, Exit, Io};
use crate::deploy::access::{self, Want};
use crate::exec::executor::{self, Millis};
use crate::exec::run::{self as runner, Outcome};
use crate::kube;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input;
use crate::plan::{self, Target};
use crate::release::storage;
use crate::render;
use crate::render::format::Format;
use crate::run::cluster::KubeCluster;

/// `--event` of `run` and `status`: default `test`, as `helm test` and `helm status`.
pub(super) fn event_arg(args: &Args) -> Result<Event, ArgError> {
    match args.value("event") {
        None => Ok(Event::Test),
        Some(v) => v.parse().map_err(|_| unknown_event(v, false)),
    }
}

/// An `--event` value that is none of Helm's events, naming the one a typo
/// meant (`pre-instal`: `pre-install`); `install` only where `plan` takes it.
pub(super) fn unknown_event(value: &str, install: bool) -> ArgError {
    let names = Event::ALL.iter().map(|e| e.as_str()).chain(install.then_some("install"));
    let meant =
        crate::base::spelling::nearest(value, names).map(|m| format!(" (did you mean {m}?)")).unwrap_or_default();
    let install = if install { ", install" } else { "" };
    ArgError::Invalid(format!("unknown event {value:?}{meant}; use one of {}{install}", spec::events()))
}

/// The RELEASE operand, or the message that names the command's usage.
pub(super) fn release_arg(args: &Args, usage: &str) -> Result<String, ArgError> {
    args.operands.first().cloned().ok_or_else(|| ArgError::Invalid(format!("the release name is missing: {usage}")))
}

#[derive(Debug)]
struct RunArgs {
    release: String,
    event: Event,
    parallel: usize,
    parallel_all: bool,
    timeout_ms: Millis,
    ignore_fail_fast: bool,
    logs: bool,
    include: Vec<String>,
    exclude: Vec<String>,
    output: Format,
}

fn run_args(args: &Args) -> Result<RunArgs, ArgError> {
    let event = event_arg(args)?;
    let (mut include, mut exclude) = (Vec::new(), Vec::new());
    for v in args.values("filter") {
        match v.split_once('=') {
            Some(("name", n)) => include.push(n.to_string()),
            Some(("!name", n)) => exclude.push(n.to_string()),
            _ => return Err(ArgError::Invalid(format!("--filter takes name=NAME or !name=NAME, not {v:?}"))),
        }
    }
    let output = args.format();
    let release = release_arg(args, "helm hooks run RELEASE")?;
    Ok(RunArgs {
        release,
        event,
        parallel: args.parallel()?,
        parallel_all: args.bool("parallel-all"),
        timeout_ms: args.timeout("timeout", DEFAULT_TIMEOUT)?.as_millis() as Millis,
        ignore_fail_fast: args.bool("ignore-fail-fast"),
        logs: args.bool("logs"),
        include,
        exclude,
        output,
    })
}

pub fn main(args: &Args, io: &mut Io) -> Exit {
    let args = match run_args(args) {
        Ok(a) => a,
        Err(e) => return super::usage_error(io, "run", &e),
    };
    let (mut client, driver) = match super::deploy::connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut stored = match storage::read_latest(&mut client, driver, &args.release) {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };

    // Validate, then act: every problem is listed before anything is created.
    let mut diags = Diagnostics::default();
    let mut release = match input::parse_as(&stored.json(), crate::model::manifest::Syntax::HeadOnly, &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    release.hooks.retain(|h| {
        let name = &h.head.name;
        !args.exclude.contains(name) && (args.include.is_empty() || args.include.contains(name))
    });
    let options = plan::Options { parallel: args.parallel, parallel_all: args.parallel_all, parallel_resources: None };
    let plan = plan::build(&release, &[Target::Hooks(args.event)], options, &mut diags);
    let planned = plan.events[0].items.iter().map(|i| &release.hooks[i.index]);
    diags.extend(crate::model::hook::timeouts_over(planned, args.timeout_ms, "--timeout"));
    let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
    if diags.has_errors() {
        let _ = writeln!(io.stderr, "Error: the release's hooks have errors; nothing was run.");
        return Exit::Invalid;
    }
    let event_plan = &plan.events[0];
    let revision = release.revision.map(|r| format!(", revision {r}")).unwrap_or_default();
    let header = format!(
        "Running {} {} hook{} of release {}{revision}, --parallel {}\n",
        event_plan.items.len(),
        args.event,
        if event_plan.items.len() == 1 { "" } else { "s" },
        args.release,
        args.parallel
    );
    let exec_options = executor::Options {
        parallel: args.parallel,
        timeout_ms: args.timeout_ms,
        ignore_fail_fast: args.ignore_fail_fast,
        pod_logs: args.logs,
        record_before_cleanup: args.event == Event::Test,
    };
    let hooks: Vec<&crate::model::hook::Hook> = event_plan.items.iter().map(|i| &release.hooks[i.index]).collect();
    if let Err(e) = check_permissions(&mut client, &stored, &hooks, args.logs) {
        return fail(io, &e, Exit::Cluster);
    }
    let mut cluster =
        KubeCluster::new(&mut client, event_plan, &release.hooks, &mut stored, &args.release, args.parallel);
    let progress: &mut dyn Write = if args.output.progress_on_stderr() { io.stderr } else { io.stdout };
    let _ = progress.write_all(header.as_bytes());
    let before = (cluster.client.requests(), cluster.client.repeated());
    let mut summary = runner::execute(event_plan, &release.hooks, exec_options, &mut cluster, Some(progress));
    summary.api_requests = Some((cluster.client.requests() - before.0, cluster.client.repeated() - before.1));
    let whose =
        render::Whose { release: &args.release, namespace: Some(&stored.namespace), revision: release.revision };
    let report = render::run(args.output, whose, &summary);
    let _ = io.stdout.write_all(report.as_bytes());
    match summary.outcome {
        Outcome::Succeeded => Exit::Ok,
        Outcome::Failed => Exit::Failed,
        Outcome::ClusterError => Exit::Cluster,
    }
}

/// Every permission the run needs, asked before anything is created, so that a missing one
/// stops it with nothing done (docs/design.md §4; the Role: README, "Permissions"): the release
/// record's update; for each hook's resource create and patch (server-side apply), delete
/// (delete policies: Helm's default is before-hook-creation), list and watch (waiting); pods
/// list and pods/log get where logs may be read (`--logs` for Pod hooks, an output log
/// policy, `helm.sh/show-output`, a fail-fast hook). The first one missing is named.
fn check_permissions(
    client: &mut kube::Client,
    stored: &storage::StoredRelease,
    hooks: &[&crate::model::hook::Hook],
    logs: bool,
) -> Result<(), kube::KubeError> {
    // (get: a record changed meanwhile is read again before it is written.)
    let mut wants: Vec<Want> =
        Want::records(&["get", "update"], stored.driver.resource(), &stored.namespace).into_iter().collect();
    wants.extend(access::hook_wants(hooks, logs));
    access::check(client, &wants, "the run needs it (checked before acting; nothing was created)")
}
