//! `helm hooks deploy -`, `helm hooks rollback RELEASE [REVISION]` and
//! `helm hooks uninstall RELEASE`: the flags read into the action's
//! request, the action (`action::deploy`, `rollback`, `uninstall`) prepared
//! and performed, its outcome rendered.

use super::io::{connect, fail, problems, show, Io};
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
use crate::render::timeline::ReportedCommand;
use crate::render::{self, DeployShown, Format, ProgressLines};
use crate::seam::Cluster;

fn print_diagnostics(io: &mut Io, diags: &Diagnostics) {
    problems(io, &diags.acting());
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
fn finish(io: &mut Io, done: Result<Done, Refused>, output: Format, command: ReportedCommand) -> Exit {
    let done = match done {
        Err(e) => return stopped(io, &OperationStop::from(e)),
        Ok(d) => d,
    };
    let (shown, code) = match &done {
        Done::Report(report) => (show(io, &DeployShown { command, report }, output), report_exit(report)),
        Done::Preview(p) => (show(io, p, output), if p.would_fail() { Exit::Failed } else { Exit::Ok }),
        Done::UninstallPreview(p) => (show(io, p, output), Exit::Ok),
    };
    match shown {
        Ok(()) => code,
        Err(code) => code,
    }
}

fn report_exit(report: &Report) -> Exit {
    match &report.ended {
        Ended::Done => Exit::Ok,
        Ended::Failed(e) if e.is_cluster() => Exit::Cluster,
        Ended::Failed(_) => Exit::Failed,
    }
}

/// Where progress goes: stderr when stdout carries a machine format.
fn progress<'a>(io: &'a mut Io, output: Format, namespace: &str) -> ProgressLines<'a> {
    render::progress_lines(if output.progress_on_stderr() { io.stderr } else { io.stdout }, namespace)
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
    let namespace = env.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = deploy::run(&mut env, request, &mut progress);
    finish(io, done, args.output, ReportedCommand::Deploy)
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
    let namespace = env.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = rollback::perform(&mut env, &request, prepared, &mut progress);
    finish(io, done, args.output, ReportedCommand::Rollback)
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
    let namespace = env.namespace().to_string();
    let mut progress = progress(io, args.output, &namespace);
    let done = uninstall::perform(&mut env, &request, prepared, &mut progress);
    finish(io, Ok(done), args.output, ReportedCommand::Uninstall)
}
