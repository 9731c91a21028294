//! `helm hooks lint`: every document read whole and every event and the
//! install planned ([`prepare`]), then the order bugs between them found —
//! where each object is made against where it is used ([`perform`]) — as
//! `helm lint` checks a chart without a cluster.

use crate::model::input::InputError;
use crate::model::manifest::Syntax;
use crate::plan::order_check;

use super::plan::{read_and_plan, PlanRequest, Planned};

pub fn prepare(bytes: &[u8], request: PlanRequest) -> Result<Planned, InputError> {
    read_and_plan(bytes, Syntax::Whole, request)
}

pub fn perform(mut planned: Planned) -> Planned {
    planned.diags.0.extend(order_check::check(&planned.release, &planned.plan));
    planned
}
