//! `helm hooks lint`: every document read whole and every event and the
//! install planned ([`Action::prepare`]), then the order bugs between them
//! found — where each object is made against where it is used
//! ([`Action::perform`]) — as `helm lint` checks a chart without a cluster.

use crate::base::time::Millis;
use crate::deploy::progress::Progress;
use crate::model::diagnostic::Diagnostics;
use crate::model::manifest::Syntax;
use crate::plan::{order_check, PlanOptions};

use super::contract::{Action, NO_WARNINGS};
use super::plan::{read_and_plan, PlanInput, Planned};
use super::stop::Stop;

/// What `lint` asks for.
#[derive(Debug, Clone, Copy)]
pub struct LintRequest {
    /// `--strict`: warnings fail too.
    pub strict: bool,
    /// As [`PlanRequest`](super::plan::PlanRequest)'s.
    pub default_timeout_ms: Millis,
}

/// `lint`'s outcome: the release planned with every problem; `strict`:
/// warnings count as the errors they then are.
#[derive(Debug)]
pub struct LintOutcome {
    pub planned: Planned,
    pub strict: bool,
}

impl Action<PlanInput> for LintRequest {
    type Prepared = Planned;
    type Outcome = LintOutcome;

    fn prepare(&self, input: &mut PlanInput) -> Result<Planned, Stop> {
        let planned = read_and_plan(&input.0, Syntax::Whole, &[], PlanOptions::default(), self.default_timeout_ms)?;
        Ok(planned)
    }

    /// None before: every problem is what `lint` shows.
    fn warnings(_: &Planned) -> &Diagnostics {
        &NO_WARNINGS
    }

    fn perform(self, _: &mut PlanInput, mut planned: Planned, _: &mut dyn Progress) -> Result<LintOutcome, Stop> {
        planned.diags.0.extend(order_check::check(&planned.release, &planned.plan));
        Ok(LintOutcome { planned, strict: self.strict })
    }
}
