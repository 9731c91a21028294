//! `helm hooks deploy -`, `helm hooks rollback RELEASE [REVISION]` and
//! `helm hooks uninstall RELEASE`: the flags read into the action's
//! request, the action (`action::deploy`, `rollback`, `uninstall`) prepared
//! and performed, its outcome rendered.

use super::io::{connect, fail, Io};
use super::typed::{DeployArgs, RollbackArgs, UninstallArgs};
use crate::action::connect::Early;
use crate::action::deploy::{self, DeployRequest};
use crate::action::rollback::{self, RollbackRequest};
use crate::action::uninstall::{self, UninstallRequest};
use crate::action::Exit;
use crate::action::OperationStop;
use crate::deploy::command::{Done, Refused};
use crate::deploy::{Ended, Report};
use crate::model::diagnostic::Diagnostics;
use crate::render;
use crate::render::format::Format;

fn print_diagnostics(io: &mut Io, diags: &Diagnostics) {
    let _ = io.stderr.write_all(render::text::diagnostics(&diags.acting(), false).as_bytes());
}

/// A command that stopped before acting: what it found, why, and the exit code.
fn stopped(io: &mut Io, stop: &OperationStop) -> Exit {
    print_diagnostics(io, stop.diagnostics());
    if let OperationStop::Invalid { problems, .. } = stop {
        for p in problems {
            let _ = writeln!(io.stderr, "error: {p}");
        }
    }
    fail(io, stop, stop.exit())
}

/// Prints what the command did in the chosen output: the closing report,
/// or the dry run's plan (exit 1 when the API server refuses an object).
fn finish(io: &mut Io, done: Result<Done, Refused>, output: Format, command: render::report::ReportedCommand) -> Exit {
    match done {
        Err(e) => stopped(io, &OperationStop::from(e)),
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

fn finish_report(io: &mut Io, report: &Report, output: Format, command: render::report::ReportedCommand) -> Exit {
    let _ = io.stdout.write_all(render::deploy(output, command, report).as_bytes());
    match &report.ended {
        Ended::Done => Exit::Ok,
        Ended::Failed(e) if e.is_cluster() => Exit::Cluster,
        Ended::Failed(_) => Exit::Failed,
    }
}

/// Where progress goes: stderr when stdout carries a machine format.
fn progress<'a>(io: &'a mut Io, output: Format, namespace: &str) -> render::progress::Text<'a> {
    render::progress::Text::new(if output.progress_on_stderr() { io.stderr } else { io.stdout }).within(namespace)
}

pub fn deploy(args: &DeployArgs, io: &mut Io) -> Exit {
    crate::trace::begin("deploy");
    let mut early = if io.stdin_terminal { Early::default() } else { deploy::ask_while_helm_renders() };
    let span = crate::trace::span(|| "read stdin".into());
    let bytes = match super::io::read_stdin(io) {
        Ok(b) => b,
        Err(e) => return fail(io, &e, Exit::Invalid),
    };
    drop(span);
    let request = match DeployRequest::read(&bytes, args.flags, args.skip_crds, &mut early) {
        Ok(r) => r,
        Err(stop) => return stopped(io, &stop),
    };
    print_diagnostics(io, &request.warnings);
    let mut env = match connect(io, early, request.namespace()) {
        Ok(e) => e.with_conflicts(args.conflicts),
        Err(code) => return code,
    };
    let namespace = env.client.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = deploy::run(&mut env, request, &mut progress);
    finish(io, done, args.output, render::report::ReportedCommand::Deploy)
}

pub fn rollback(args: &RollbackArgs, io: &mut Io) -> Exit {
    let mut env = match connect(io, Early::default(), None) {
        Ok(e) => e.with_conflicts(args.conflicts),
        Err(code) => return code,
    };
    let request = RollbackRequest { release: args.release.clone(), revision: args.revision, flags: args.flags };
    let prepared = match rollback::prepare(&mut env, &request) {
        Ok(p) => p,
        Err(stop) => return stopped(io, &stop),
    };
    print_diagnostics(io, &prepared.warnings);
    let namespace = env.client.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = rollback::perform(&mut env, &request, prepared, &mut progress);
    finish(io, done, args.output, render::report::ReportedCommand::Rollback)
}

pub fn uninstall(args: &UninstallArgs, io: &mut Io) -> Exit {
    let mut env = match connect(io, Early::default(), None) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let request = UninstallRequest { release: args.release.clone(), flags: args.flags };
    let prepared = match uninstall::prepare(&mut env, &request) {
        Ok(p) => p,
        Err(stop) => return stopped(io, &stop),
    };
    print_diagnostics(io, &prepared.warnings);
    let namespace = env.client.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = uninstall::perform(&mut env, &request, prepared, &mut progress);
    finish(io, Ok(done), args.output, render::report::ReportedCommand::Uninstall)
}
