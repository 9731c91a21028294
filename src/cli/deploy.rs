//! `helm hooks deploy -`, `helm hooks rollback RELEASE [REVISION]` and
//! `helm hooks uninstall RELEASE`: the sequenced operations.
//!
//! The plugin cannot render charts (no files, no Go templates in the Wasm
//! sandbox), so `deploy` takes Helm's own rendering from stdin:
//! `helm upgrade --install NAME CHART --dry-run=server -o json`. That one
//! command serves install and upgrade alike, renders `.Release.IsUpgrade`
//! and `lookup` against the live cluster, and has already checked that no
//! object it would create belongs to someone else; its JSON is exactly the
//! record Helm would store.

use std::io::Write;

use serde_json::Value;

use super::args::{ArgError, Args as CliArgs, DEFAULT_TIMEOUT};
use super::{Exit, Io};
use crate::base::time::{parse_duration, Millis};
use crate::deploy::{self, Checked, Ended, Options, Report};
use crate::kube::{self, Client};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::status::Status;
use crate::release::storage::{self, Driver, StoredRelease};
use crate::render;

/// What deploy, rollback and uninstall read from their flags; a flag a
/// command does not have is refused by the parser, so here it is false.
/// `-o`: the closing report. Progress goes to stderr for all but text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    /// A report for CI job summaries (`render::markdown`).
    Markdown,
}

#[derive(Debug)]
struct Args {
    positional: Vec<String>,
    options: Options,
    output: Output,
    keep_history: bool,
    create_namespace: bool,
    rollback_on_failure: bool,
    skip_crds: bool,
    dry_run: bool,
}

fn parse_args(args: &CliArgs) -> Result<Args, ArgError> {
    let has = |long: &str| args.command.flag(long).is_some();
    let flag = |long: &str| has(long) && args.bool(long);
    let timeout_ms = args.timeout("timeout", DEFAULT_TIMEOUT)?.as_millis() as Millis;
    let readiness_timeout_ms =
        match args.command.flag("readiness-timeout").and_then(|_| args.value("readiness-timeout")) {
            None => 0,
            Some(v) => parse_duration(v).ok_or_else(|| {
                ArgError::Invalid(format!("--readiness-timeout takes a duration such as 5m, 90s or 1m30s, not {v:?}"))
            })?,
        };
    let mut a = Args {
        positional: args.operands.clone(),
        options: Options {
            parallel: args.parallel()?,
            parallel_all: flag("parallel-all"),
            parallel_resources: if has("parallel-resources") { args.parallel_resources()? } else { None },
            timeout_ms,
            readiness_timeout_ms,
            ignore_fail_fast: flag("ignore-fail-fast"),
            wait_for_jobs: flag("wait-for-jobs"),
        },
        output: match args.output(&["text", "json", "markdown"])? {
            "json" => Output::Json,
            "markdown" => Output::Markdown,
            _ => Output::Text,
        },
        keep_history: flag("keep-history"),
        create_namespace: flag("create-namespace"),
        rollback_on_failure: flag("rollback-on-failure"),
        skip_crds: flag("skip-crds"),
        dry_run: has("dry-run") && args.dry_run()?,
    };
    // HIP-0025: 0 means one minute, and it may not exceed --timeout.
    let o = &mut a.options;
    if o.readiness_timeout_ms == 0 {
        o.readiness_timeout_ms = 60_000.min(o.timeout_ms);
    } else if o.readiness_timeout_ms > o.timeout_ms {
        return Err(ArgError::Invalid(format!(
            "--readiness-timeout ({}) must not exceed --timeout ({})",
            crate::base::time::format_duration(o.readiness_timeout_ms),
            crate::base::time::format_duration(o.timeout_ms)
        )));
    }
    Ok(a)
}

pub(super) fn fail(io: &mut Io, e: &dyn std::fmt::Display, code: Exit) -> Exit {
    let _ = writeln!(io.stderr, "Error: {e}");
    code
}

pub(super) fn connect(io: &mut Io, namespace: Option<&str>) -> Result<(Client, Driver), Exit> {
    connect_with(io, None, namespace)
}

/// [`connect`], taking the client [`ask_while_helm_renders`] opened when there is one.
fn connect_with(io: &mut Io, early: Option<Client>, namespace: Option<&str>) -> Result<(Client, Driver), Exit> {
    let driver =
        Driver::from_env(std::env::var("HELM_DRIVER").ok().as_deref()).map_err(|e| fail(io, &e, Exit::Invalid))?;
    let mut client = match early {
        Some(c) => c,
        None => kube::connect_from_env().map_err(|e| fail(io, &e, Exit::Cluster))?,
    };
    if let Some(ns) = namespace.filter(|n| !n.is_empty()) {
        client.set_namespace(ns);
    }
    Ok((client, driver))
}

/// What every deploy asks the cluster whatever the release says — the
/// connection itself, discovery, the permission rules of Helm's namespace
/// and of cluster scope — asked while Helm is still rendering the dry-run
/// that stdin will bring (0.15–0.4 s on public charts, docs/benchmarks.md),
/// so that the deploy does not wait for them after. Reads only, and any
/// failure is set aside: the input is still checked first, and the same
/// question asked again later fails in its usual place.
fn ask_while_helm_renders() -> Option<Client> {
    let _span = crate::trace::span(|| "ask while Helm renders".into());
    let mut client = kube::connect_from_env().ok()?;
    if client.discover_all().is_err() {
        return Some(client);
    }
    let namespace = client.namespace().to_string();
    if client.rules(&namespace).is_ok() {
        let _ = client.cluster_rules();
    }
    Some(client)
}

fn print_diagnostics(io: &mut Io, diags: &Diagnostics) {
    let _ = io.stderr.write_all(render::text::diagnostics(diags, false).as_bytes());
}

fn finish(io: &mut Io, report: &Report, output: Output, command: render::report::Command) -> Exit {
    let text = match output {
        Output::Text => deploy::summary_text(report),
        Output::Json => deploy::summary_json(report),
        Output::Markdown => render::markdown::render(&render::report::from_deploy(command, report)),
    };
    let _ = io.stdout.write_all(text.as_bytes());
    match report.ended {
        Ended::Done => Exit::Ok,
        Ended::Failed(_) => Exit::Failed,
        Ended::Cluster(_) => Exit::Cluster,
    }
}

/// Helm's pessimistic lock: a release whose latest revision is `pending-*`
/// is being changed by someone — or was, by a command that was interrupted
/// (Helm 4 does not catch signals for plugins: Ctrl-C ends the plugin where it
/// stands). Helm's message, then the way out when nobody else is at work.
fn refuse_pending(io: &mut Io, latest: Option<&StoredRelease>) -> Result<(), Exit> {
    match latest {
        Some(l) if l.status().is_pending() => {
            let recovery = if !matches!(l.status(), Status::PendingInstall | Status::Uninstalling) {
                format!("helm hooks rollback {0} (or helm rollback {0})", l.name)
            } else {
                format!("helm hooks uninstall {0} (or helm uninstall {0})", l.name)
            };
            Err(fail(
                io,
                &format!(
                    "another operation (install/upgrade/rollback) is in progress: revision {} of {:?} is {}\n\
                     If no other helm or helm hooks command is working on it (an interrupted one left it so), \
                     recover with: {recovery}",
                    l.revision,
                    l.name,
                    l.status()
                ),
                Exit::Failed,
            ))
        }
        _ => Ok(()),
    }
}

pub fn deploy(cli: &CliArgs, io: &mut Io) -> Exit {
    let args = match parse_args(cli) {
        Ok(a) if a.positional.iter().all(|p| p == "-") => a,
        Ok(_) => {
            return fail(
                io,
                &"deploy reads the release from stdin: helm upgrade --install NAME CHART --dry-run=server -o json | helm hooks deploy -",
                Exit::Invalid,
            )
        }
        Err(e) => return super::usage_error(io, "deploy", &e),
    };
    crate::trace::begin("deploy");
    let mut early = if io.stdin_terminal { None } else { ask_while_helm_renders() };
    let mut bytes = Vec::new();
    let span = crate::trace::span(|| "read stdin".into());
    if let Err(e) = io.stdin.read_to_end(&mut bytes) {
        return fail(io, &format!("cannot read stdin: {e}"), Exit::Invalid);
    }
    drop(span);
    let span = crate::trace::span(|| format!("parse the release JSON ({} bytes)", bytes.len()));
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v @ Value::Object(_)) => v,
        _ => {
            return fail(
                io,
                &"deploy needs the release Helm rendered, as JSON: helm upgrade --install NAME CHART --dry-run=server -o json | helm hooks deploy -",
                Exit::Invalid,
            )
        }
    };
    let name = value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    if name.is_empty() {
        return fail(
            io,
            &"the release JSON has no name; pipe `helm upgrade --install NAME CHART --dry-run=server -o json`",
            Exit::Invalid,
        );
    }
    drop(span);
    let namespace = value.get("namespace").and_then(Value::as_str).map(str::to_string);
    let span = crate::trace::span(|| "check and plan".into());
    // Validate, then act: install and upgrade hooks and every resource are
    // planned before the cluster is touched.
    let events = [Event::PreInstall, Event::PostInstall, Event::PreUpgrade, Event::PostUpgrade];
    let checked = match deploy::check(value, &events, &args.options) {
        Ok((c, diags)) => {
            print_diagnostics(io, &diags);
            c
        }
        Err(diags) => {
            print_diagnostics(io, &diags);
            return fail(io, &"the release has errors; nothing was applied or stored.", Exit::Invalid);
        }
    };
    let crds = match deploy::crds::from_release(&checked.value) {
        Ok(_) if args.skip_crds => Vec::new(),
        Ok(c) => c,
        Err(problems) => {
            for p in problems {
                let _ = writeln!(io.stderr, "error: {p}");
            }
            return fail(io, &"the chart's crds/ folder has errors; nothing was applied or stored.", Exit::Invalid);
        }
    };
    drop(span);
    let (mut client, driver) = match connect_with(io, early.take(), namespace.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let span = crate::trace::span(|| "read the history".into());
    let history = match storage::history(&mut client, driver, &name) {
        Ok(h) => h,
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    drop(span);
    if let Err(code) = refuse_pending(io, history.last()) {
        return code;
    }
    let (operation, current, revision) = deploy::choose(&history);
    let install = matches!(operation, Operation::Install);
    let needs = Needs {
        crds: if install { &crds } else { &[] },
        create_namespace: install && args.create_namespace,
        dry_run: args.dry_run,
        // --rollback-on-failure of an install uninstalls: it may not stop half way either.
        uninstall: install && args.rollback_on_failure && !args.dry_run,
    };
    let span = crate::trace::span(|| "check permissions".into());
    if let Err(e) = needs.check(&mut client, driver, &checked, operation, current.as_ref()) {
        return fail(io, &e, Exit::Cluster);
    }
    drop(span);
    if args.dry_run {
        return dry_run(io, &mut client, &checked, &args, operation, current.as_ref(), revision, &crds);
    }
    if matches!(operation, Operation::Install) {
        if let Err(e) = ensure_namespace(&mut client, args.create_namespace) {
            return fail(io, &e, Exit::Cluster);
        }
    }
    let progress: &mut dyn Write = if args.output == Output::Text { io.stdout } else { io.stderr };
    // Helm installs crds/ on a first install only, before the release exists.
    if matches!(operation, Operation::Install) {
        match deploy::crds::install(&mut client, &crds, &mut crate::base::time::wall_ms, progress) {
            Ok(()) | Err(Ended::Done) => {}
            Err(Ended::Cluster(e)) => return fail(io, &format!("{e}; nothing was stored"), Exit::Cluster),
            Err(Ended::Failed(e)) => return fail(io, &format!("{e}; nothing was stored"), Exit::Failed),
        }
    }
    let mut env = deploy::Kube::new(&mut client, driver);
    let mut report = deploy::deploy(&mut env, checked, operation, current, revision, &args.options, progress);
    if args.rollback_on_failure {
        deploy::recover(&mut env, &mut report, operation, &args.options, progress);
    }
    finish(io, &report, args.output, render::report::Command::Deploy)
}

/// What a deploy or rollback will ask of the API server beyond reading,
/// checked before anything is applied or stored (docs/design.md §4; the Role:
/// README, "Permissions").
struct Needs<'a> {
    crds: &'a [deploy::crds::Crd],
    create_namespace: bool,
    dry_run: bool,
    /// Also what uninstalling the release would need.
    uninstall: bool,
}

impl Needs<'_> {
    /// Helm's storage (read; create and update the record); per resource
    /// kind get, list and watch (waiting) and create and patch (server-side
    /// apply, also for a dry run); per kind of what the replaced revision
    /// had and this one has not, delete; the hooks of `operation` as `run`
    /// needs them; the chart's CRDs and a namespace to create, cluster-wide.
    fn check(
        &self,
        client: &mut Client,
        driver: Driver,
        checked: &Checked,
        operation: Operation,
        current: Option<&StoredRelease>,
    ) -> Result<(), kube::KubeError> {
        let mut needs = kube::access::Needs::default();
        let ns = client.namespace().to_string();
        let write: &[&'static str] = if self.dry_run { &[] } else { &["create", "update"] };
        if let Some(records) = driver.resource() {
            needs.add(&["get", "list"], "", records, Some(&ns));
            needs.add(write, "", records, Some(&ns));
        }
        for r in &checked.release.resources {
            let h = &r.head;
            let verbs = ["get", "list", "watch", "create", "patch"];
            needs.kind(client, &verbs, &h.api_version, &h.kind, h.namespace.as_deref())?;
        }
        if !self.dry_run {
            for (_, r) in current.map(|c| deploy::removed(c, &checked.release, &ns)).unwrap_or_default() {
                let h = &r.head;
                // get: ownership is read before deleting, as Helm 4.3 reads it (deploy::ownership).
                needs.kind(
                    client,
                    &["get", "delete", "list", "watch"],
                    &h.api_version,
                    &h.kind,
                    h.namespace.as_deref(),
                )?;
            }
            let hooks: Vec<&crate::model::hook::Hook> = checked
                .release
                .hooks
                .iter()
                .filter(|h| h.events.contains(&operation.pre_event()) || h.events.contains(&operation.post_event()))
                .collect();
            super::run::hook_needs(&mut needs, client, &hooks, false)?;
        }
        if !self.crds.is_empty() {
            let verbs = ["get", "list", "watch", "create", "patch"];
            needs.add(&verbs, "apiextensions.k8s.io", "customresourcedefinitions", None);
        }
        if self.create_namespace && !self.dry_run {
            needs.add(&["get", "create", "patch"], "", "namespaces", None);
        }
        if self.uninstall {
            uninstall_needs(&mut needs, client, driver, &checked.release, false)?;
        }
        let why = if self.dry_run { "the plan needs it" } else { "the deploy needs it" };
        needs.check(client, &format!("{why} (checked before acting; nothing was applied or stored)"))
    }
}

/// `deploy --dry-run`: what the deploy would do, against the live cluster
/// (`deploy::preview`); exit 0, or 1 when the API server refuses an object.
#[allow(clippy::too_many_arguments)]
fn dry_run(
    io: &mut Io,
    client: &mut Client,
    checked: &Checked,
    args: &Args,
    operation: Operation,
    current: Option<&StoredRelease>,
    revision: u64,
    crds: &[deploy::crds::Crd],
) -> Exit {
    let install = matches!(operation, Operation::Install);
    let namespace_exists = if install {
        match namespace_exists(client) {
            Ok(true) => true,
            Ok(false) if args.create_namespace => false,
            Ok(false) => return fail(io, &missing_namespace(client.namespace()), Exit::Cluster),
            Err(e) => return fail(io, &e, Exit::Cluster),
        }
    } else {
        true
    };
    let removed = current.map(|c| deploy::removed_refs(c, &checked.release, client.namespace())).unwrap_or_default();
    let label = match operation {
        Operation::Install => "install".to_string(),
        Operation::Upgrade => "upgrade".to_string(),
        Operation::Rollback { to } => format!("rollback to revision {to}"),
    };
    let events = (label, operation.pre_event(), operation.post_event());
    let crds = if install { crds } else { &[] };
    match deploy::preview::preview(client, checked, events, revision, crds, namespace_exists, removed) {
        Ok(p) => {
            let text = if args.output == Output::Json {
                serde_json::to_string_pretty(&p).expect("preview serialises") + "\n"
            } else {
                deploy::preview::text(&p)
            };
            let _ = io.stdout.write_all(text.as_bytes());
            if p.would_fail() {
                Exit::Failed
            } else {
                Exit::Ok
            }
        }
        Err(e) => fail(io, &e, Exit::Cluster),
    }
}

fn missing_namespace(ns: &str) -> String {
    format!(
        "namespace {ns:?} does not exist: create it, or pass --create-namespace to `helm hooks deploy` \
         (as to helm install); nothing was applied or stored"
    )
}

/// Whether the client's namespace exists; credentials that may not read
/// namespaces are taken at their word that it does.
fn namespace_exists(client: &mut Client) -> Result<bool, String> {
    let ns = client.namespace().to_string();
    match client.get_opt(&kube::ObjectKey::new("v1", "Namespace", None, &ns)) {
        Ok(found) => Ok(found.is_some()),
        Err(kube::KubeError::Forbidden { .. }) => Ok(true),
        Err(e) => Err(e.to_string()),
    }
}

/// The release namespace of a first install: `helm install --create-namespace`
/// renders without creating it, so the plugin creates it as Helm does
/// (server-side apply by `helm`, label `name`). Without the flag a missing
/// namespace is named before anything is stored. Credentials that may not
/// read namespaces skip the check: the install then says what it can.
fn ensure_namespace(client: &mut Client, create: bool) -> Result<(), String> {
    let ns = client.namespace().to_string();
    match namespace_exists(client)? {
        true => Ok(()),
        false if create => {
            let object = serde_json::json!({
                "apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": ns, "labels": {"name": ns}},
            });
            client.apply(&object, &[]).map(|_| ()).map_err(|e| format!("cannot create namespace {ns:?}: {e}"))
        }
        false => Err(missing_namespace(&ns)),
    }
}

/// Reads a stored revision and checks it for the given events.
fn stored_checked(io: &mut Io, stored: &StoredRelease, events: &[Event], options: &Options) -> Result<Checked, Exit> {
    match deploy::check(stored.release.clone(), events, options) {
        Ok((c, diags)) => {
            print_diagnostics(io, &diags);
            Ok(c)
        }
        Err(diags) => {
            print_diagnostics(io, &diags);
            Err(fail(io, &format!("revision {} has errors; nothing was changed.", stored.revision), Exit::Invalid))
        }
    }
}

fn release_arg(io: &mut Io, args: &Args, usage: &str, max: usize) -> Result<String, Exit> {
    match args.positional.first() {
        Some(r) if args.positional.len() <= max => Ok(r.clone()),
        _ => Err(fail(io, &format!("usage: {usage}"), Exit::Invalid)),
    }
}

pub fn rollback(cli: &CliArgs, io: &mut Io) -> Exit {
    const USAGE: &str = "helm hooks rollback RELEASE [REVISION]";
    let args = match parse_args(cli) {
        Ok(a) => a,
        Err(e) => return super::usage_error(io, "rollback", &e),
    };
    let name = match release_arg(io, &args, USAGE, 2) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let wanted = match args.positional.get(1).map(|r| r.parse::<u64>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => {
            return fail(io, &format!("the revision must be a whole number; usage: {USAGE}"), Exit::Invalid)
        }
    };
    let (mut client, driver) = match connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let history = match storage::history(&mut client, driver, &name) {
        Ok(h) if !h.is_empty() => h,
        Ok(_) => return fail(io, &format!("release: not found: {name:?}"), Exit::Failed),
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    // Helm's rollback does not refuse a pending release: it is the way out
    // of one left by an interrupted upgrade (pkg/action/rollback.go).
    let current = history.last().cloned().expect("history is not empty");
    // Helm: no revision (or 0) means the one before the current.
    let to = wanted.filter(|&r| r > 0).unwrap_or(current.revision.saturating_sub(1));
    let Some(target) = history.iter().find(|h| h.revision == to) else {
        return fail(io, &format!("release has no {to} version"), Exit::Failed);
    };
    let checked = match stored_checked(io, target, &[Event::PreRollback, Event::PostRollback], &args.options) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let needs = Needs { crds: &[], create_namespace: false, dry_run: args.dry_run, uninstall: false };
    let operation = Operation::Rollback { to };
    if let Err(e) = needs.check(&mut client, driver, &checked, operation, Some(&current)) {
        return fail(io, &e, Exit::Cluster);
    }
    let revision = current.revision + 1;
    // As `helm rollback --dry-run`: no revision stored, nothing applied, no hook run;
    // and what the rollback would do, against the live objects, as deploy's dry run.
    if args.dry_run {
        return dry_run(io, &mut client, &checked, &args, operation, Some(&current), revision, &[]);
    }
    let progress: &mut dyn Write = if args.output == Output::Text { io.stdout } else { io.stderr };
    let report = deploy::deploy(
        &mut deploy::Kube::new(&mut client, driver),
        checked,
        Operation::Rollback { to },
        Some(current),
        revision,
        &args.options,
        progress,
    );
    finish(io, &report, args.output, render::report::Command::Rollback)
}

/// What an uninstall asks of the API server beyond reading: storage
/// (update the record; delete every revision unless `keep_history`), per
/// resource kind delete and the list and watch of waiting until gone (not
/// for kinds whose every resource Helm keeps), and the delete hooks as `run`
/// needs them.
fn uninstall_needs(
    needs: &mut kube::access::Needs,
    client: &mut Client,
    driver: Driver,
    release: &crate::model::input::Release,
    keep_history: bool,
) -> Result<(), kube::KubeError> {
    let ns = client.namespace().to_string();
    if let Some(records) = driver.resource() {
        needs.add(&["get", "list", "update"], "", records, Some(&ns));
        if !keep_history {
            needs.add(&["delete"], "", records, Some(&ns));
        }
    }
    for r in release.resources.iter().filter(|r| !deploy::kept(r)) {
        let h = &r.head;
        // get: ownership is read before deleting, as Helm 4.3 reads it (deploy::ownership).
        needs.kind(client, &["get", "delete", "list", "watch"], &h.api_version, &h.kind, h.namespace.as_deref())?;
    }
    let hooks: Vec<&crate::model::hook::Hook> = release
        .hooks
        .iter()
        .filter(|h| h.events.contains(&Event::PreDelete) || h.events.contains(&Event::PostDelete))
        .collect();
    super::run::hook_needs(needs, client, &hooks, false)
}

pub fn uninstall(cli: &CliArgs, io: &mut Io) -> Exit {
    let args = match parse_args(cli) {
        Ok(a) => a,
        Err(e) => return super::usage_error(io, "uninstall", &e),
    };
    let name = match release_arg(io, &args, "helm hooks uninstall RELEASE [--keep-history]", 1) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let (mut client, driver) = match connect(io, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let history = match storage::history(&mut client, driver, &name) {
        Ok(h) if !h.is_empty() => h,
        Ok(_) => return fail(io, &format!("uninstall: Release not loaded: {name}: release: not found"), Exit::Failed),
        Err(e) => return fail(io, &e, Exit::Cluster),
    };
    let latest = history.last().cloned().expect("history is not empty");
    if latest.status() == Status::Uninstalled {
        return fail(io, &format!("the release named {name:?} is already deleted"), Exit::Failed);
    }
    let checked = match stored_checked(io, &latest, &[Event::PreDelete, Event::PostDelete], &args.options) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // As `helm uninstall --dry-run`: nothing deleted, no hook run, the history kept.
    if args.dry_run {
        let revisions: Vec<u64> = history.iter().map(|h| h.revision).collect();
        let p = deploy::preview::uninstall(&checked, client.namespace(), &revisions, args.keep_history);
        let text = if args.output == Output::Json {
            serde_json::to_string_pretty(&p).expect("preview serialises") + "\n"
        } else {
            deploy::preview::uninstall_text(&p)
        };
        let _ = io.stdout.write_all(text.as_bytes());
        return Exit::Ok;
    }
    let mut needs = kube::access::Needs::default();
    let checked_needs = uninstall_needs(&mut needs, &mut client, driver, &checked.release, args.keep_history)
        .and_then(|()| needs.check(&mut client, "the uninstall needs it (checked before acting; nothing was deleted)"));
    if let Err(e) = checked_needs {
        return fail(io, &e, Exit::Cluster);
    }
    let progress: &mut dyn Write = if args.output == Output::Text { io.stdout } else { io.stderr };
    let mut env = deploy::Kube::new(&mut client, driver);
    let report = deploy::uninstall(&mut env, latest, history, &checked, &args.options, args.keep_history, progress);
    finish(io, &report, args.output, render::report::Command::Uninstall)
}
