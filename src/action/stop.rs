//! Why `deploy`, `rollback` or `uninstall` stopped before changing
//! anything: its input is not what it acts on (exit 2, every problem
//! named), or the cluster or the history refused it ([`Refused`]).

use crate::deploy::command::Refused;
use crate::model::diagnostic::Diagnostics;

use super::exit::Exit;

#[derive(Debug, thiserror::Error)]
pub enum OperationStop {
    /// The input has errors: each one in `diags` or `problems`, then `message`.
    #[error("{message}")]
    Invalid { diags: Diagnostics, problems: Vec<String>, message: String },
    /// Refused, with the warnings the checks found before (shown first).
    #[error("{0}")]
    Refused(#[source] Box<Refused>, Diagnostics),
}

impl From<Refused> for OperationStop {
    fn from(e: Refused) -> Self {
        OperationStop::refused(e, Diagnostics::default())
    }
}

impl OperationStop {
    /// Input that is wrong as a whole, with nothing more to list.
    pub fn invalid(message: impl Into<String>) -> OperationStop {
        OperationStop::Invalid { diags: Diagnostics::default(), problems: Vec::new(), message: message.into() }
    }

    /// `e`, with the warnings found before it.
    pub fn refused(e: Refused, warnings: Diagnostics) -> OperationStop {
        OperationStop::Refused(Box::new(e), warnings)
    }

    /// What to show before the message.
    pub fn diagnostics(&self) -> &Diagnostics {
        match self {
            OperationStop::Invalid { diags, .. } | OperationStop::Refused(_, diags) => diags,
        }
    }

    pub fn exit(&self) -> Exit {
        match self {
            OperationStop::Invalid { .. } => Exit::Invalid,
            OperationStop::Refused(e, _) if e.is_not_found() => Exit::NotFound,
            OperationStop::Refused(e, _) if e.is_cluster() => Exit::Cluster,
            OperationStop::Refused(..) => Exit::Failed,
        }
    }
}
