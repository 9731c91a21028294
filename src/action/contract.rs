//! The one shape every command has, after Helm's `pkg/action`, where an
//! action's fields are its flags and `Run` is its flow. A command's request
//! is the struct its flags are read into, once (`cli::typed`); it is an
//! [`Action`]: [`Action::prepare`]d in the world it acts in, then
//! [`Action::perform`]ed, telling its progress to one sink, to an outcome
//! that says its exit code ([`Exits`]) and that `render` shows. Any step may
//! [`Stop`] instead. One driver (`cli::driver`) runs every command the same
//! way: connect, prepare, warnings, perform, show, exit.

use crate::deploy::progress::Progress;
use crate::model::diagnostic::Diagnostics;

use super::stop::Stop;

/// How a command ends, as its exit code (docs/design.md §2). Every outcome
/// and every stop says which, all of them in `exit.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    /// A hook or resource failed.
    Failed = 1,
    /// Invalid input, annotations or arguments; nothing was applied.
    Invalid = 2,
    /// The cluster refused or could not be reached.
    Cluster = 3,
    /// The release, or the revision asked for, is not stored in the
    /// namespace: no fault of the cluster's, a name or namespace to fix.
    NotFound = 4,
}

/// What a command did, saying how it ended.
pub trait Exits {
    fn exit(&self) -> Exit;
}

/// A command's request, acting in `W`: the cluster and the release store
/// (any [`Env`](crate::seam::Env), the real one or a simulation), or, for
/// `plan` and `lint`, their input alone
/// ([`PlanInput`](super::plan::PlanInput)). The driver makes the world;
/// the command only acts in it.
pub trait Action<W: ?Sized>: Sized {
    /// What [`Action::prepare`] found to act on.
    type Prepared;
    /// What the command did.
    type Outcome: Exits;

    /// Reads, checks, plans and asks for every permission the command
    /// needs. Nothing in the cluster changes, and the only I/O is the
    /// world's: what else a command needs (stdin, the environment's
    /// variables) the CLI reads and puts in its request.
    fn prepare(&self, world: &mut W) -> Result<Self::Prepared, Stop>;

    /// What [`Action::prepare`] found to warn of, said before the command acts.
    fn warnings(prepared: &Self::Prepared) -> &Diagnostics;

    /// Acts on what [`Action::prepare`] found, telling `progress` as it goes.
    fn perform(
        self,
        world: &mut W,
        prepared: Self::Prepared,
        progress: &mut dyn Progress,
    ) -> Result<Self::Outcome, Stop>;

    /// Prepared, then performed: the command whole, its warnings unsaid.
    fn run(self, world: &mut W, progress: &mut dyn Progress) -> Result<Self::Outcome, Stop> {
        let prepared = self.prepare(world)?;
        self.perform(world, prepared, progress)
    }
}

/// The warnings of a command that finds none, or says them elsewhere.
pub(super) static NO_WARNINGS: Diagnostics = Diagnostics(Vec::new());
