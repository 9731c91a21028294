//! Helm's release storage and the clock, as the drivers see them: reading
//! and writing records; what a command asks of them ([`latest`],
//! [`history`], [`revision`], …) is built above the trait.

use crate::base::time::Millis;
use crate::release::storage::{StorageError, StoredRelease};

/// Which revisions one [`Store::history`] reads.
#[derive(Clone, Copy)]
pub enum Pick<'a> {
    /// The latest (Helm's `Storage.Last`); none stored is the adapter's
    /// [`Store::not_found`] error, or nothing.
    Latest,
    /// Revision `n`; the adapter says why not when it is missing, or gives nothing.
    Revision(u64),
    /// Those `wanted` picks by revision and status label (`None`: a record
    /// without Helm's `status` label), oldest first, the others not decoded.
    Where(&'a dyn Fn(u64, Option<&str>) -> bool),
}

/// One write of Helm's records.
pub enum Write<'a> {
    /// Stores a new revision (Helm's `Storage.Create`). A revision stored
    /// already is refused ([`StorageError::is_exists`]): that create is the
    /// lock two commands at once race for.
    Create { namespace: &'a str, release: serde_json::Value },
    /// Writes a record back (Helm's `Storage.Update`).
    Update(&'a mut StoredRelease),
    /// Removes one revision (Helm's `Storage.Delete`).
    Delete(&'a StoredRelease),
}

/// Helm's release storage for one release's namespace.
pub trait Store {
    /// The revisions of `release` that `pick` picks, oldest first.
    fn history(&mut self, release: &str, pick: Pick<'_>) -> Result<Vec<StoredRelease>, StorageError>;
    /// Writes records ([`Write`]) at `now_unix`; what [`Write::Create`] stored.
    fn write(&mut self, write: Write<'_>, now_unix: u64) -> Result<Option<StoredRelease>, StorageError>;
    /// Why a command that needs `release` stored cannot go on when its
    /// history is empty: where the store looked, and where else a release of
    /// that name is (`release::storage::not_found`).
    fn not_found(&mut self, release: &str) -> StorageError;
}

/// The time the drivers read: only drivers read a clock (docs/design.md §6).
pub trait Clock {
    fn now_ms(&mut self) -> Millis;
}

/// Every revision of `release`, oldest first.
pub fn history<S: Store + ?Sized>(store: &mut S, release: &str) -> Result<Vec<StoredRelease>, StorageError> {
    store.history(release, Pick::Where(&|_, _| true))
}

/// The latest revision of `release`; none stored is [`Store::not_found`]'s error.
pub(crate) fn latest<S: Store + ?Sized>(store: &mut S, release: &str) -> Result<StoredRelease, StorageError> {
    match store.history(release, Pick::Latest)?.pop() {
        Some(latest) => Ok(latest),
        None => Err(store.not_found(release)),
    }
}

/// Revision `revision` of `release`; one the history lacks names the
/// revisions it has.
pub(crate) fn revision<S: Store + ?Sized>(
    store: &mut S,
    release: &str,
    revision: u64,
) -> Result<StoredRelease, StorageError> {
    if let Some(found) = store.history(release, Pick::Revision(revision))?.pop() {
        return Ok(found);
    }
    let all = history(store, release)?;
    let Some(first) = all.first() else { return Err(store.not_found(release)) };
    let namespace = first.namespace.clone();
    let stored: Vec<u64> = all.iter().map(|s| s.revision).collect();
    Err(StorageError::NoRevision {
        release: release.to_string(),
        namespace,
        revision,
        looked_for: format!("revision {revision}"),
        stored,
    })
}

/// Stores a new revision ([`Write::Create`]).
pub(crate) fn create<S: Store + ?Sized>(
    store: &mut S,
    namespace: &str,
    release: serde_json::Value,
    now_unix: u64,
) -> Result<StoredRelease, StorageError> {
    let stored = store.write(Write::Create { namespace, release }, now_unix)?;
    stored.ok_or_else(|| StorageError::Kube(crate::kube::KubeError::Incomplete("the stored record")))
}

/// Writes `stored` back ([`Write::Update`]).
pub(crate) fn save<S: Store + ?Sized>(
    store: &mut S,
    stored: &mut StoredRelease,
    now_unix: u64,
) -> Result<(), StorageError> {
    store.write(Write::Update(stored), now_unix).map(|_| ())
}

/// Removes one revision ([`Write::Delete`]).
pub(crate) fn forget<S: Store + ?Sized>(store: &mut S, stored: &StoredRelease) -> Result<(), StorageError> {
    store.write(Write::Delete(stored), 0).map(|_| ())
}
