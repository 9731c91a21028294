//! The commands once their arguments are parsed, as Helm's `pkg/action`
//! runs them: `helm hooks deploy` (the history read, a release being changed
//! refused, install or upgrade chosen, every permission asked for, then the
//! namespace, the chart's CRDs and the operation, or its dry run),
//! `rollback` and `uninstall` — over the seam ([`Env`]), so that the CLI only
//! parses, chooses the output and prints what comes back.

use serde_json::Value;

use super::access::{self, Needs};
use super::crd::Crd;
use super::error::Error;
use super::preview::{self, Preview, UninstallPreview};
use super::progress::Progress;
use super::seam::{Cluster, Env};
use super::{Checked, Options, Report};
use crate::kube::{KubeError, ObjectKey};
use crate::release::record::Operation;
use crate::release::status::Status;
use crate::release::storage::{StorageError, StoredRelease};

/// What a command asks for beyond its operands.
#[derive(Debug, Clone, Copy)]
pub struct Flags {
    pub options: Options,
    /// `--create-namespace` (a first install).
    pub create_namespace: bool,
    /// `--rollback-on-failure`: undo a failed install or upgrade.
    pub rollback_on_failure: bool,
    /// `--dry-run`: say what would be done, do nothing.
    pub dry_run: bool,
    /// `--keep-history` (uninstall).
    pub keep_history: bool,
}

/// What a command did.
#[derive(Debug)]
pub enum Done {
    /// The operation ran (it may have failed: its report says).
    Report(Report),
    /// `deploy --dry-run`, `rollback --dry-run`: what would be done.
    Preview(Preview),
    /// `uninstall --dry-run`.
    UninstallPreview(UninstallPreview),
}

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
    Pending { release: String, namespace: String, revision: u64, status: Status },
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
    /// The dry run's reads failed.
    #[error(transparent)]
    Preview(KubeError),
    /// `rollback` or `uninstall` of a release with no history: said as
    /// `run` says it, naming where the store looked (exit 3, as `run`'s).
    #[error(transparent)]
    NotFound(StorageError),
    /// `rollback` to a revision the history lacks.
    #[error("release has no {0} version")]
    NoRevision(u64),
    #[error("the release named {0:?} is already deleted")]
    AlreadyDeleted(String),
}

impl Refused {
    /// The cluster failed us (exit 3), rather than the request (exit 1).
    pub fn is_cluster(&self) -> bool {
        match self {
            Refused::History(_)
            | Refused::NotFound(_)
            | Refused::Access(_)
            | Refused::NoNamespace(_)
            | Refused::Namespace(_)
            | Refused::NamespaceNotCreated { .. }
            | Refused::Preview(_) => true,
            Refused::Crds(e) => e.is_cluster(),
            Refused::Pending { .. } | Refused::NoRevision(_) | Refused::AlreadyDeleted(_) => false,
        }
    }
}

/// The command that gets a pending release out of its state when nobody
/// else is at work on it: said here and when the `helm` before `deploy`'s
/// pipe failed on it (`cli::pipe`).
pub fn way_out(release: &str, namespace: &str, status: Status) -> String {
    let verb = if matches!(status, Status::PendingInstall | Status::Uninstalling) { "uninstall" } else { "rollback" };
    format!("helm hooks {verb} {release} -n {namespace} (or helm {verb} {release} -n {namespace})")
}

/// Helm's pessimistic lock: a release whose latest revision is `pending-*`
/// is being changed by someone — or was, by a command that was interrupted
/// (Helm 4 does not catch signals for plugins: Ctrl-C ends the plugin where it
/// stands). Helm's message, then the way out when nobody else is at work.
pub fn refuse_pending(latest: Option<&StoredRelease>) -> Result<(), Refused> {
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

/// `helm hooks deploy`: `checked` (what Helm rendered) installed, or
/// upgraded over what the history holds ([`super::choose`]); on a first
/// install the namespace and `crds` first. Progress to `progress`.
pub fn upgrade_install(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    crds: &[Crd],
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let span = crate::trace::span(|| "read the history".into());
    let history = env.history(&name).map_err(Refused::History)?;
    drop(span);
    refuse_pending(history.last())?;
    let (operation, current, revision) = super::choose(&history);
    let install = matches!(operation, Operation::Install);
    let needs = Needs {
        crds: if install { crds } else { &[] },
        create_namespace: install && flags.create_namespace,
        dry_run: flags.dry_run,
        // --rollback-on-failure of an install uninstalls: it may not stop half way either.
        uninstall: install && flags.rollback_on_failure && !flags.dry_run,
    };
    let span = crate::trace::span(|| "check permissions".into());
    let wants = needs.wants(env.records(), env.namespace(), &checked, operation, current.as_ref());
    env.check_access(&wants, needs.why()).map_err(Refused::Access)?;
    drop(span);
    if flags.dry_run {
        let crds = if install { crds } else { &[] };
        return dry_run(env, &checked, flags, operation, current.as_ref(), revision, crds).map(Done::Preview);
    }
    if install {
        ensure_namespace(env, flags.create_namespace)?;
        // Helm installs crds/ on a first install only, before the release exists.
        super::crds::install(env, crds, progress).map_err(|e| Refused::Crds(Box::new(e)))?;
    }
    let mut report = super::deploy(env, checked, operation, current, revision, &flags.options, progress);
    if flags.rollback_on_failure {
        super::recover(env, &mut report, operation, &flags.options, progress);
    }
    Ok(Done::Report(report))
}

/// The revision `helm hooks rollback RELEASE [REVISION]` goes back to, and
/// the release's latest: `wanted`, or (none, or 0) the one before the latest,
/// as Helm picks it.
pub fn rollback_target(
    env: &mut (impl Env + ?Sized),
    name: &str,
    wanted: Option<u64>,
) -> Result<(StoredRelease, StoredRelease), Refused> {
    let history = env.history(name).map_err(Refused::History)?;
    // Helm's rollback does not refuse a pending release: it is the way out
    // of one left by an interrupted upgrade (pkg/action/rollback.go).
    let Some(current) = history.last().cloned() else { return Err(Refused::NotFound(env.not_found(name))) };
    let to = wanted.filter(|&r| r > 0).unwrap_or(current.revision.saturating_sub(1));
    match history.into_iter().find(|h| h.revision == to) {
        Some(target) => Ok((current, target)),
        None => Err(Refused::NoRevision(to)),
    }
}

/// `helm hooks rollback`: back to `checked` (revision `to`) over `current`.
/// As `helm rollback --dry-run`, a dry run stores no revision, applies
/// nothing and runs no hook; it says what the rollback would do, against the
/// live objects, as deploy's dry run.
pub fn rollback(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    current: StoredRelease,
    to: u64,
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    let needs = Needs { crds: &[], create_namespace: false, dry_run: flags.dry_run, uninstall: false };
    let operation = Operation::Rollback { to };
    let wants = needs.wants(env.records(), env.namespace(), &checked, operation, Some(&current));
    env.check_access(&wants, needs.why()).map_err(Refused::Access)?;
    let revision = current.revision + 1;
    if flags.dry_run {
        return dry_run(env, &checked, flags, operation, Some(&current), revision, &[]).map(Done::Preview);
    }
    let report = super::deploy(env, checked, operation, Some(current), revision, &flags.options, progress);
    Ok(Done::Report(report))
}

/// What `helm hooks uninstall RELEASE` removes: the latest revision, with
/// the whole history.
pub fn uninstall_target(
    env: &mut (impl Env + ?Sized),
    name: &str,
) -> Result<(StoredRelease, Vec<StoredRelease>), Refused> {
    let history = env.history(name).map_err(Refused::History)?;
    let Some(latest) = history.last().cloned() else { return Err(Refused::NotFound(env.not_found(name))) };
    if latest.status() == Status::Uninstalled {
        return Err(Refused::AlreadyDeleted(name.to_string()));
    }
    Ok((latest, history))
}

/// `helm hooks uninstall`; as `helm uninstall --dry-run`, a dry run deletes
/// nothing, runs no hook and keeps the history.
pub fn uninstall(
    env: &mut (impl Env + ?Sized),
    latest: StoredRelease,
    history: Vec<StoredRelease>,
    checked: &Checked,
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    if flags.dry_run {
        let revisions: Vec<u64> = history.iter().map(|h| h.revision).collect();
        let p = preview::uninstall(checked, env.namespace(), &revisions, flags.keep_history);
        return Ok(Done::UninstallPreview(p));
    }
    let wants = access::uninstall_wants(env.records(), env.namespace(), &checked.release, flags.keep_history);
    env.check_access(&wants, access::UNINSTALL_WHY).map_err(Refused::Access)?;
    let report = super::uninstall(env, latest, history, checked, &flags.options, flags.keep_history, progress);
    Ok(Done::Report(report))
}

/// What the deploy would do (`deploy::preview`), against the live cluster;
/// a first install's namespace is looked for first.
fn dry_run(
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
            false => return Err(Refused::NoNamespace(env.namespace().to_string())),
        }
    } else {
        true
    };
    let removed = current.map(|c| super::removed_refs(c, &checked.release, env.namespace())).unwrap_or_default();
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
fn namespace_exists(cluster: &mut (impl Cluster + ?Sized)) -> Result<bool, KubeError> {
    let ns = cluster.namespace().to_string();
    match cluster.get(&ObjectKey::new("v1", "Namespace", None, &ns)) {
        Ok(found) => Ok(found.is_some()),
        Err(KubeError::Forbidden { .. }) => Ok(true),
        Err(e) => Err(e),
    }
}

/// The release namespace of a first install: `helm install --create-namespace`
/// renders without creating it, so the plugin creates it as Helm does
/// (server-side apply by `helm`, label `name`). Without the flag a missing
/// namespace is named before anything is stored. Credentials that may not
/// read namespaces skip the check: the install then says what it can.
fn ensure_namespace(cluster: &mut (impl Cluster + ?Sized), create: bool) -> Result<(), Refused> {
    let ns = cluster.namespace().to_string();
    match namespace_exists(cluster).map_err(Refused::Namespace)? {
        true => Ok(()),
        false if create => {
            let object = serde_json::json!({
                "apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": ns, "labels": {"name": ns}},
            });
            match cluster.apply(&object, &[]) {
                Ok(_) => Ok(()),
                Err(e) => Err(Refused::NamespaceNotCreated { namespace: ns, source: Box::new(e) }),
            }
        }
        false => Err(Refused::NoNamespace(ns)),
    }
}
