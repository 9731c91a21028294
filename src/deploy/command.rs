//! What the operations share: why one stops before it changes anything
//! ([`Refused`], Helm's lock among the reasons), and the dry run of a deploy
//! or rollback.

use super::checked::Checked;
use super::crd::Crd;
use super::error::Error;
use super::options::Flags;
use super::preview::{self, Preview};
use crate::kube::{KubeError, ObjectKey};
use crate::release::record::Operation;
use crate::release::release_status::ReleaseStatus;
use crate::release::storage::{StorageError, StoredRelease};
use crate::seam::{Cluster, Env};

/// Why a command stopped before it stored or applied anything.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// The release's history could not be read.
    #[error(transparent)]
    History(StorageError),
    /// Helm's pessimistic lock: the latest revision is `pending-*`.
    #[error(
        "another operation (install/upgrade/rollback) is in progress: revision {revision} of {release:?} is \
         {status}\nIf no other helm or helm hooks command is working on it (an interrupted one left it so), \
         recover with: {}",
        way_out(.release, .namespace, *.status)
    )]
    Pending { release: String, namespace: String, revision: u64, status: ReleaseStatus },
    /// A permission is missing (or could not be asked for).
    #[error(transparent)]
    Access(KubeError),
    #[error(
        "namespace {0:?} does not exist: create it, or pass --create-namespace to `helm hooks deploy` (as to \
         helm install); nothing was applied or stored"
    )]
    NoNamespace(String),
    /// Whether the namespace exists could not be read.
    #[error(transparent)]
    Namespace(KubeError),
    #[error("cannot create namespace {namespace:?}: {source}")]
    NamespaceNotCreated {
        namespace: String,
        #[source]
        source: Box<KubeError>,
    },
    /// The chart's CRDs: refused, not established, or the cluster failed us.
    #[error("{0}; nothing was stored")]
    Crds(#[source] Box<Error>),
    /// An object of a first install belongs to someone else (Helm's words).
    #[error("unable to continue with install: {0}; nothing was stored")]
    Taken(#[source] super::ownership::Taken),
    /// The dry run's reads failed.
    #[error(transparent)]
    Preview(KubeError),
    /// `rollback` or `uninstall` of a release with no history: said as
    /// `run` says it, naming where the store looked and where else one of
    /// that name is (exit 4, as `run`'s).
    #[error(transparent)]
    NotFound(StorageError),
    /// `rollback` to a revision the history lacks.
    #[error("release has no {0} version")]
    NoRevision(u64),
    #[error("the release named {0:?} is already deleted")]
    AlreadyDeleted(String),
}

impl Refused {
    /// The release, or the revision asked for, is not stored (exit 4).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Refused::NotFound(_) | Refused::NoRevision(_))
    }

    /// The cluster failed us (exit 3), rather than the request (exit 1).
    pub fn is_cluster(&self) -> bool {
        match self {
            Refused::History(_)
            | Refused::Access(_)
            | Refused::NoNamespace(_)
            | Refused::Namespace(_)
            | Refused::NamespaceNotCreated { .. }
            | Refused::Preview(_) => true,
            Refused::Crds(e) => e.is_cluster(),
            Refused::Taken(t) => matches!(t, super::ownership::Taken::Unverifiable { .. }),
            Refused::NotFound(_) | Refused::Pending { .. } | Refused::NoRevision(_) | Refused::AlreadyDeleted(_) => {
                false
            }
        }
    }
}

/// The command that gets a pending release out of its state when nobody
/// else is at work on it: said here and when the `helm` before `deploy`'s
/// pipe failed on it (`cli::pipe`).
pub(crate) fn way_out(release: &str, namespace: &str, status: ReleaseStatus) -> String {
    let verb = if matches!(status, ReleaseStatus::PendingInstall | ReleaseStatus::Uninstalling) {
        "uninstall"
    } else {
        "rollback"
    };
    format!("helm hooks {verb} {release} -n {namespace} (or helm {verb} {release} -n {namespace})")
}

/// Helm's pessimistic lock: a release whose latest revision is `pending-*`
/// is being changed by someone — or was, by a command that was interrupted
/// (Helm 4 does not catch signals for plugins: Ctrl-C ends the plugin where it
/// stands). Helm's message, then the way out when nobody else is at work.
pub(crate) fn refuse_pending(latest: Option<&StoredRelease>) -> Result<(), Refused> {
    match latest {
        Some(l) if l.status().is_pending() => Err(Refused::Pending {
            release: l.name.clone(),
            namespace: l.namespace.clone(),
            revision: l.revision,
            status: l.status(),
        }),
        _ => Ok(()),
    }
}

/// What the deploy would do (`deploy::preview`), against the live cluster;
/// a first install's namespace is looked for first.
pub(crate) fn dry_run(
    env: &mut (impl Env + ?Sized),
    checked: &Checked,
    flags: &Flags,
    operation: Operation,
    current: Option<&StoredRelease>,
    revision: u64,
    crds: &[Crd],
) -> Result<Preview, Refused> {
    let namespace_exists = if matches!(operation, Operation::Install) {
        match namespace_exists(env).map_err(Refused::Namespace)? {
            true => true,
            false if flags.create_namespace => false,
            false => return Err(Refused::NoNamespace(env.about().namespace.to_string())),
        }
    } else {
        true
    };
    let removed =
        current.map(|c| super::removed::removed_refs(c, &checked.release, env.about().namespace)).unwrap_or_default();
    let label = match operation {
        Operation::Rollback { to } => format!("rollback to revision {to}"),
        Operation::Install => "install".to_string(),
        Operation::Upgrade => "upgrade".to_string(),
        Operation::Uninstall => "uninstall".to_string(),
    };
    let events = (label, operation.pre_event(), operation.post_event());
    preview::preview(env, checked, events, revision, crds, namespace_exists, removed).map_err(Refused::Preview)
}

/// Whether the release namespace exists; credentials that may not read
/// namespaces are taken at their word that it does.
pub(crate) fn namespace_exists(cluster: &mut (impl Cluster + ?Sized)) -> Result<bool, KubeError> {
    let ns = cluster.about().namespace.to_string();
    match crate::seam::get(cluster, &ObjectKey::new("v1", "Namespace", None, &ns)) {
        Ok(found) => Ok(found.is_some()),
        Err(KubeError::Forbidden { .. }) => Ok(true),
        Err(e) => Err(e),
    }
}
