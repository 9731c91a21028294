//! Why a command stopped, whichever it is and at whichever step: what it
//! was given is wrong, its release cannot be read, there is no world to act
//! in, or the cluster or the history refused it. Each reason's exit code is
//! in `exit.rs`.

use crate::deploy::command::Refused;
use crate::kube::KubeError;
use crate::model::diagnostic::Diagnostics;
use crate::model::input::InputError;
use crate::release::storage::StorageError;

#[derive(Debug, thiserror::Error)]
pub enum Stop {
    /// What the command was given is wrong (its command line, its input):
    /// each problem in `diags` or `problems`, then `message`.
    #[error("{message}")]
    Invalid { diags: Diagnostics, problems: Vec<String>, message: String },
    /// The input is not a release the plugin can read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The release could not be read from Helm's storage.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// `HELM_DRIVER` names no storage the plugin can use.
    #[error(transparent)]
    Driver(StorageError),
    /// No cluster to talk to.
    #[error(transparent)]
    NoCluster(Box<KubeError>),
    /// Refused, with the warnings the checks found before (shown first).
    #[error("{0}")]
    Refused(#[source] Box<Refused>, Diagnostics),
}

impl From<Refused> for Stop {
    fn from(e: Refused) -> Self {
        Stop::refused(e, Diagnostics::default())
    }
}

impl Stop {
    /// What was given is wrong as a whole, with nothing more to list.
    pub(crate) fn invalid(message: impl Into<String>) -> Stop {
        Stop::Invalid { diags: Diagnostics::default(), problems: Vec::new(), message: message.into() }
    }

    /// `e`, with the warnings found before it.
    pub(super) fn refused(e: Refused, warnings: Diagnostics) -> Stop {
        Stop::Refused(Box::new(e), warnings)
    }

    /// What to show before the message.
    pub(crate) fn diagnostics(&self) -> Option<&Diagnostics> {
        match self {
            Stop::Invalid { diags, .. } | Stop::Refused(_, diags) => Some(diags),
            Stop::Input(_) | Stop::Storage(_) | Stop::Driver(_) | Stop::NoCluster(_) => None,
        }
    }
}
