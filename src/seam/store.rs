//! Helm's release storage and the clock, as the drivers see them.

use crate::base::time::Millis;
use crate::release::storage::{StorageError, StoredRelease};

/// Helm's release storage for one release's namespace.
pub trait Store {
    /// The resource Helm's records are stored as (`secrets`, `configmaps`),
    /// for the permissions a command needs; `None` when Helm stores them
    /// itself (the `release_storage` host function).
    fn records(&self) -> Option<&'static str>;
    /// Stores a new revision (Helm's `Storage.Create`). A revision stored
    /// already is refused ([`StorageError::is_exists`]): that create is the
    /// lock two commands at once race for.
    fn create(
        &mut self,
        namespace: &str,
        release: serde_json::Value,
        now_unix: u64,
    ) -> Result<StoredRelease, StorageError>;
    /// Writes `stored` back (Helm's `Storage.Update`).
    fn save(&mut self, stored: &mut StoredRelease, now_unix: u64) -> Result<(), StorageError>;
    /// The latest revision of `release` (Helm's `Storage.Last`); none
    /// stored is [`Store::not_found`]'s error. By default the history's last.
    fn latest(&mut self, release: &str) -> Result<StoredRelease, StorageError> {
        match self.history(release)?.pop() {
            Some(latest) => Ok(latest),
            None => Err(self.not_found(release)),
        }
    }
    /// Revision `revision` of `release`; one the history lacks names the
    /// revisions it has.
    fn revision(&mut self, release: &str, revision: u64) -> Result<StoredRelease, StorageError> {
        let all = self.history(release)?;
        let Some(first) = all.first() else { return Err(self.not_found(release)) };
        let namespace = first.namespace.clone();
        let stored: Vec<u64> = all.iter().map(|s| s.revision).collect();
        all.into_iter().find(|s| s.revision == revision).ok_or_else(|| StorageError::NoRevision {
            release: release.to_string(),
            namespace,
            revision,
            looked_for: format!("revision {revision}"),
            stored,
        })
    }
    /// Every revision of `release`, oldest first.
    fn history(&mut self, release: &str) -> Result<Vec<StoredRelease>, StorageError>;
    /// Why a command that needs `release` stored cannot go on when its
    /// history is empty: where the store looked, and where else a release of
    /// that name is (`release::storage::not_found`).
    fn not_found(&mut self, release: &str) -> StorageError;
    /// The revisions `wanted` picks by revision and status label, oldest first
    /// (`release::storage::history_where`).
    fn history_where(
        &mut self,
        release: &str,
        wanted: &dyn Fn(u64, Option<&str>) -> bool,
    ) -> Result<Vec<StoredRelease>, StorageError>;
    /// Removes one revision (Helm's `Storage.Delete`).
    fn delete(&mut self, stored: &StoredRelease) -> Result<(), StorageError>;
}

/// The time the drivers read: only drivers read a clock (docs/design.md §6).
pub trait Clock {
    fn now_ms(&mut self) -> Millis;
}
