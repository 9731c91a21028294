//! `helm hooks deploy`: an install or an upgrade, as Helm's `upgrade
//! --install` decides (`pkg/action/install.go`, `upgrade.go`). [`prepare`]
//! reads the history, refuses a release being changed, chooses the
//! operation and asks for every permission; [`perform`] creates the
//! namespace and the chart's CRDs of a first install, deploys, and undoes a
//! failure with `--rollback-on-failure`. Nothing is changed before
//! [`perform`], so a dry run stops after [`prepare`].

use serde_json::Value;

use super::access::Needs;
use super::command::{dry_run, namespace_exists, refuse_pending, Done, Flags, Refused};
use super::crd::Crd;
use super::operation::deploy;
use super::policy::{choose, recover};
use super::progress::Progress;
use super::seam::{Cluster, Env};
use super::{Checked, Report};
use crate::release::record::Operation;
use crate::release::storage::StoredRelease;

/// What [`prepare`] decided: the operation, the revision it replaces (an
/// upgrade's), and the revision to store.
#[derive(Debug)]
pub struct Prepared {
    pub operation: Operation,
    pub current: Option<StoredRelease>,
    pub revision: u64,
}

impl Prepared {
    fn install(&self) -> bool {
        matches!(self.operation, Operation::Install)
    }
}

/// `helm hooks deploy`: `checked` (what Helm rendered) installed, or
/// upgraded over what the history holds ([`choose`]); on a first install
/// the namespace and `crds` first. Progress to `progress`.
pub fn run(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    crds: &[Crd],
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Done, Refused> {
    let prepared = prepare(env, &checked, crds, flags)?;
    if flags.dry_run {
        let crds = if prepared.install() { crds } else { &[] };
        let p = &prepared;
        return dry_run(env, &checked, flags, p.operation, p.current.as_ref(), p.revision, crds).map(Done::Preview);
    }
    perform(env, checked, crds, prepared, flags, progress).map(Done::Report)
}

/// The history read, a pending release refused (Helm's lock), the
/// operation chosen, and every permission it needs asked for.
pub fn prepare(
    env: &mut (impl Env + ?Sized),
    checked: &Checked,
    crds: &[Crd],
    flags: &Flags,
) -> Result<Prepared, Refused> {
    let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let span = crate::trace::span(|| "read the history".into());
    let history = env.history(&name).map_err(Refused::History)?;
    drop(span);
    refuse_pending(history.last())?;
    let (operation, current, revision) = choose(&history);
    let prepared = Prepared { operation, current, revision };
    let install = prepared.install();
    let needs = Needs {
        crds: if install { crds } else { &[] },
        create_namespace: install && flags.create_namespace,
        dry_run: flags.dry_run,
        // --rollback-on-failure of an install uninstalls: it may not stop half way either.
        uninstall: install && flags.rollback_on_failure && !flags.dry_run,
    };
    let span = crate::trace::span(|| "check permissions".into());
    let wants = needs.wants(env.records(), env.namespace(), checked, operation, prepared.current.as_ref());
    env.check_access(&wants, needs.why()).map_err(Refused::Access)?;
    drop(span);
    Ok(prepared)
}

/// The operation [`prepare`] chose, done; its report says how it ended.
pub fn perform(
    env: &mut (impl Env + ?Sized),
    checked: Checked,
    crds: &[Crd],
    prepared: Prepared,
    flags: &Flags,
    progress: &mut dyn Progress,
) -> Result<Report, Refused> {
    if prepared.install() {
        ensure_namespace(env, flags.create_namespace)?;
        // Helm installs crds/ on a first install only, before the release exists.
        super::crds::install(env, crds, progress).map_err(|e| Refused::Crds(Box::new(e)))?;
        // After the CRDs, as Helm: custom resources can be read only then.
        if flags.check_ownership {
            let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            let namespace = env.namespace().to_string();
            let keys = checked.release.resources.iter().map(|r| r.head.key());
            super::ownership::refuse_taken(env, keys, &name, &namespace).map_err(Refused::Taken)?;
        }
    }
    let Prepared { operation, current, revision } = prepared;
    let mut report = deploy(env, checked, operation, current, revision, &flags.options, progress);
    if flags.rollback_on_failure {
        recover(env, &mut report, operation, &flags.options, progress);
    }
    Ok(report)
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
