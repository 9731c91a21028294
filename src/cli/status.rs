//! `helm hooks status RELEASE [--event E] [--revision N] [-o FORMAT]`: the
//! action (`action::status`) called, its outcome rendered — the same
//! outputs as `run`, headed by the release, namespace, revision, event and
//! when the run was.

use super::io::{connect, fail, show, Io};
use super::typed::StatusArgs;
use crate::action::connect::Early;
use crate::action::status::{self, StatusRequest, StatusStop};
use crate::action::Exit;

pub fn main(args: &StatusArgs, io: &mut Io) -> Exit {
    let mut env = match connect(io, Early::default(), None) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let request = StatusRequest { release: args.release.clone(), event: args.event, revision: args.revision };
    let prepared = match status::prepare(&mut env, &request) {
        Ok(p) => p,
        Err(StatusStop::Storage(e)) => return fail(io, &e, Exit::of_storage(&e)),
        Err(e @ StatusStop::Input(_)) => return fail(io, &e, Exit::Invalid),
    };
    let outcome = status::perform(&mut env, &request, prepared);
    // As `helm status`: the record was read; how the hooks went is in the report.
    match show(io, &outcome, args.output) {
        Ok(()) => Exit::Ok,
        Err(code) => code,
    }
}
