//! `helm hooks deploy -`, `helm hooks rollback RELEASE [REVISION]` and
//! `helm hooks uninstall RELEASE`: the sequenced operations.
//!
//! The plugin cannot render charts (no files, no Go templates in the Wasm
//! sandbox), so `deploy` takes Helm's own rendering from stdin:
//! `helm upgrade --install NAME CHART --dry-run=server -o json`. That one
//! command serves install and upgrade alike, renders `.Release.IsUpgrade`
//! and `lookup` against the live cluster, and has already checked that no
//! object it would create belongs to someone else; its JSON is exactly the
//! record Helm would store. What `helm show crds CHART` prints may come
//! before it: the CRDs of the chart's and its subcharts' `crds/` folders,
//! which a first install applies (`cli::pipe::split`, `deploy::crd`).

use serde_json::Value;

use super::typed::OperationArgs as Args;
use super::{fail, Exit, Io};
use crate::deploy::command::{Done, Refused};
use crate::deploy::{self, Checked, Ended, Options, Report};
use crate::deploy::{install, rollback, uninstall};
use crate::kube::{self, Client};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::storage::StoredRelease;
use crate::render;
use crate::render::format::Format;

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
    let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
}

/// A command that stopped before acting: its reason, and the exit code.
fn refused(io: &mut Io, e: &Refused) -> Exit {
    let code = if e.is_not_found() {
        Exit::NotFound
    } else if e.is_cluster() {
        Exit::Cluster
    } else {
        Exit::Failed
    };
    fail(io, e, code)
}

/// Prints what the command did in the chosen output: the closing report,
/// or the dry run's plan (exit 1 when the API server refuses an object).
fn finish(io: &mut Io, done: Result<Done, Refused>, output: Format, command: render::report::Command) -> Exit {
    match done {
        Err(e) => refused(io, &e),
        Ok(Done::Report(report)) => finish_report(io, &report, output, command),
        Ok(Done::Preview(p)) => {
            let _ = io.stdout.write_all(render::preview(output, &p).as_bytes());
            if p.would_fail() {
                Exit::Failed
            } else {
                Exit::Ok
            }
        }
        Ok(Done::UninstallPreview(p)) => {
            let _ = io.stdout.write_all(render::uninstall_preview(output, &p).as_bytes());
            Exit::Ok
        }
    }
}

fn finish_report(io: &mut Io, report: &Report, output: Format, command: render::report::Command) -> Exit {
    let _ = io.stdout.write_all(render::deploy(output, command, report).as_bytes());
    match &report.ended {
        Ended::Done => Exit::Ok,
        Ended::Failed(e) if e.is_cluster() => Exit::Cluster,
        Ended::Failed(_) => Exit::Failed,
    }
}

pub fn deploy(args: &Args, io: &mut Io) -> Exit {
    if !args.operands.iter().all(|p| p == "-") {
        return fail(io, &super::pipe::USAGE, Exit::Invalid);
    }
    crate::trace::begin("deploy");
    let mut early = if io.stdin_terminal { None } else { ask_while_helm_renders() };
    let span = crate::trace::span(|| "read stdin".into());
    let bytes = match super::read_stdin(io) {
        Ok(b) => b,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    drop(span);
    let span = crate::trace::span(|| format!("parse the release JSON ({} bytes)", bytes.len()));
    let (shown, release) = super::pipe::split(&bytes);
    if let Some(e) = super::pipe::PipeError::of(release) {
        let pending = super::pipe::pending(early.take());
        return fail(io, &super::pipe::message(&e, &pending), Exit::Invalid);
    }
    let shown = match shown.map(std::str::from_utf8).transpose() {
        Ok(s) => s,
        Err(_) => {
            return fail(
                io,
                &"what came before the release JSON is not UTF-8 text (helm show crds prints YAML)",
                Exit::Invalid,
            )
        }
    };
    let value: Value = match serde_json::from_slice(release) {
        Ok(v @ Value::Object(_)) => v,
        _ => return fail(io, &super::pipe::USAGE, Exit::Invalid),
    };
    let name = value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    if name.is_empty() {
        return fail(
            io,
            &"the release JSON has no name; pipe `helm upgrade --install NAME CHART --dry-run=server --disable-openapi-validation -o json`",
            Exit::Invalid,
        );
    }
    drop(span);
    let namespace = value.get("namespace").and_then(Value::as_str).map(str::to_string);
    let named = std::env::var("HELM_NAMESPACE").ok();
    if let Err(e) = super::pipe::check_namespace(&name, namespace.as_deref(), named.as_deref()) {
        return fail(io, &e, Exit::Invalid);
    }
    let span = crate::trace::span(|| "check and plan".into());
    // Validate, then act: install and upgrade hooks and every resource are
    // planned before the cluster is touched.
    let events = [Event::PreInstall, Event::PostInstall, Event::PreUpgrade, Event::PostUpgrade];
    let checked = match deploy::check(value, &events, &args.flags.options) {
        Ok((c, diags)) => {
            print_diagnostics(io, &diags);
            c
        }
        Err(diags) => {
            print_diagnostics(io, &diags);
            return fail(io, &"the release has errors; nothing was applied or stored.", Exit::Invalid);
        }
    };
    let crds = match deploy::crd::from_input(&checked.value, shown) {
        Ok(_) if args.skip_crds => Vec::new(),
        Ok(c) => c,
        Err(problems) => {
            for p in problems {
                let _ = writeln!(io.stderr, "error: {p}");
            }
            return fail(
                io,
                &"the chart's CRDs (crds/ folders) have errors; nothing was applied or stored.",
                Exit::Invalid,
            );
        }
    };
    drop(span);
    let (mut client, driver) = match super::connect(io, early.take(), namespace.as_deref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let namespace = client.namespace().to_string();
    let mut env = deploy::Kube::new(&mut client, driver).with_conflicts(args.conflicts);
    let mut progress =
        render::progress::Text::new(if args.output.progress_on_stderr() { io.stderr } else { io.stdout })
            .within(&namespace);
    let flags = deploy::command::Flags { check_ownership: shown.is_some(), ..args.flags };
    let done = install::run(&mut env, checked, &crds, &flags, &mut progress);
    finish(io, done, args.output, render::report::Command::Deploy)
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
    match args.operands.first() {
        Some(r) if args.operands.len() <= max => Ok(r.clone()),
        _ => Err(fail(io, &format!("usage: {usage}"), Exit::Invalid)),
    }
}

pub fn rollback(args: &Args, io: &mut Io) -> Exit {
    const USAGE: &str = "helm hooks rollback RELEASE [REVISION]";
    let name = match release_arg(io, args, USAGE, 2) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let wanted = match args.operands.get(1).map(|r| r.parse::<u64>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => {
            return fail(io, &format!("the revision must be a whole number; usage: {USAGE}"), Exit::Invalid)
        }
    };
    let (mut client, driver) = match super::connect(io, None, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let namespace = client.namespace().to_string();
    let mut env = deploy::Kube::new(&mut client, driver).with_conflicts(args.conflicts);
    let (current, target) = match rollback::target(&mut env, &name, wanted) {
        Ok(t) => t,
        Err(e) => return refused(io, &e),
    };
    let checked = match stored_checked(io, &target, &[Event::PreRollback, Event::PostRollback], &args.flags.options) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut progress =
        render::progress::Text::new(if args.output.progress_on_stderr() { io.stderr } else { io.stdout })
            .within(&namespace);
    let done = rollback::run(&mut env, checked, current, target.revision, &args.flags, &mut progress);
    finish(io, done, args.output, render::report::Command::Rollback)
}

pub fn uninstall(args: &Args, io: &mut Io) -> Exit {
    let name = match release_arg(io, args, "helm hooks uninstall RELEASE [--keep-history]", 1) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let (mut client, driver) = match super::connect(io, None, None) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let namespace = client.namespace().to_string();
    let mut env = deploy::Kube::new(&mut client, driver);
    let (latest, history) = match uninstall::target(&mut env, &name) {
        Ok(t) => t,
        Err(e) => return refused(io, &e),
    };
    let checked = match stored_checked(io, &latest, &[Event::PreDelete, Event::PostDelete], &args.flags.options) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut progress =
        render::progress::Text::new(if args.output.progress_on_stderr() { io.stderr } else { io.stdout })
            .within(&namespace);
    let done = uninstall::run(&mut env, latest, history, &checked, &args.flags, &mut progress);
    finish(io, done, args.output, render::report::Command::Uninstall)
}
