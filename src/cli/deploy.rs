//! What is `deploy`'s own before the driver: its request is stdin, read and
//! checked whole before the cluster is connected to (bad input is exit 2
//! whether a cluster answers or not), and its warnings said then; the
//! connection is opened early, while Helm still renders what stdin brings.

use super::connect::{ask_while_helm_renders, connect, pending};
use super::driver::{drive, problems, stopped};
use super::io::{read_stdin, Io};
use super::typed::DeployArgs;
use crate::action::deploy::DeployRequest;
use crate::action::{Exit, Stop};
use crate::kube::Client;
use crate::render::Format;

pub(super) fn main(args: DeployArgs, output: Format, io: &mut Io) -> Exit {
    crate::trace::begin("deploy");
    let mut early = if io.stdin_terminal { None } else { ask_while_helm_renders() };
    let request = match request(&args, io, &mut early) {
        Ok(r) => r,
        Err(stop) => return stopped(io, &stop),
    };
    problems(io, &request.warnings.acting());
    let conflicts = args.conflicts;
    drive(request, output, io, |_, request| Ok(connect(early, request.namespace())?.with_conflicts(conflicts)))
}

/// Stdin, read and checked against the namespace Helm was given after the
/// pipe; when it holds no release, the cluster is asked which releases are
/// pending (why Helm refuses, often).
fn request(args: &DeployArgs, io: &mut Io, early: &mut Option<Client>) -> Result<DeployRequest, Stop> {
    let span = crate::trace::span(|| "read stdin".into());
    let bytes = read_stdin(io)?;
    drop(span);
    let named = std::env::var("HELM_NAMESPACE").ok();
    DeployRequest::read(&bytes, args.flags, args.skip_crds, named.as_deref(), || pending(early.take()))
}
