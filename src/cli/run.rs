//! `helm hooks run RELEASE`: read the release from Helm's storage, plan its
//! hooks for one event, check everything, then run them on the cluster.

use std::io::Write;

use super::deploy::fail;
use super::typed::RunArgs;
use super::{Exit, Io};
use crate::deploy::access::{self, Want};
use crate::exec::executor;
use crate::exec::run::{self as runner, Outcome};
use crate::kube;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::{self, Release};
use crate::plan::{self, Plan, Target};
use crate::release::storage;
use crate::render;
use crate::run::cluster::KubeCluster;

pub fn main(args: &RunArgs, io: &mut Io) -> Exit {
    let (mut client, driver) = match super::deploy::connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut stored = match storage::read_latest(&mut client, driver, &args.release) {
        Ok(s) => s,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    let (release, plan) = match checked(args, &stored, io) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let event_plan = &plan.events[0];
    let hooks: Vec<&crate::model::hook::Hook> = event_plan.items.iter().map(|i| &release.hooks[i.index]).collect();
    if let Err(e) = check_permissions(&mut client, &stored, &hooks, args.logs) {
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
    let mut cluster =
        KubeCluster::new(&mut client, event_plan, &release.hooks, &mut stored, &args.release, args.parallel);
    let progress: &mut dyn Write = if args.output.progress_on_stderr() { io.stderr } else { io.stdout };
    let _ = progress.write_all(header.as_bytes());
    let before = (cluster.client.requests(), cluster.client.repeated());
    let mut progress = render::progress::Text::new(progress);
    let mut summary = runner::execute(event_plan, &release.hooks, exec_options, &mut cluster, &mut progress);
    summary.api_requests = Some((cluster.client.requests() - before.0, cluster.client.repeated() - before.1));
    let whose =
        render::Whose { release: &args.release, namespace: Some(&stored.namespace), revision: release.revision };
    let _ = io.stdout.write_all(render::run(args.output, whose, &summary).as_bytes());
    match summary.outcome {
        Outcome::Succeeded => Exit::Ok,
        Outcome::Failed => Exit::Failed,
        Outcome::ClusterError => Exit::Cluster,
    }
}

/// Validate, then act: the stored release's hooks that `--filter` keeps,
/// planned for the event, every problem listed before anything is created.
fn checked(args: &RunArgs, stored: &storage::StoredRelease, io: &mut Io) -> Result<(Release, Plan), Exit> {
    let mut diags = Diagnostics::default();
    let mut release = match input::parse_as(&stored.json(), crate::model::manifest::Syntax::HeadOnly, &mut diags) {
        Ok((_, r)) => r,
        Err(e) => return Err(fail(io, &e, Exit::Invalid)),
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
        return Err(Exit::Invalid);
    }
    Ok((release, plan))
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
