//! How a command ends, as its exit code (docs/design.md §2): every action's
//! outcome and every reason it stops says which.

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

impl Exit {
    /// A storage error's exit code: a release not found is its own class.
    pub fn of_storage(e: &crate::release::storage::StorageError) -> Exit {
        if e.is_not_found() {
            Exit::NotFound
        } else {
            Exit::Cluster
        }
    }
}
