//! `helm hooks deploy -`: an install or an upgrade of what Helm rendered,
//! as Helm's `upgrade --install` decides (`pkg/action/install.go`,
//! `upgrade.go`). The request is stdin read and checked whole, before the
//! cluster is touched ([`DeployRequest::read`]: the release, and the CRDs
//! `helm show crds` printed before it). Prepared, it has read the history,
//! refused a release being changed, chosen the operation and asked for
//! every permission; performed, it creates the namespace and the chart's
//! CRDs of a first install, deploys, and undoes a failure with
//! `--rollback-on-failure` — or, for a dry run, says what it would do.
//!
//! The plugin cannot render charts (no files, no Go templates in the Wasm
//! sandbox), so it takes Helm's own rendering from stdin: `helm upgrade
//! --install NAME CHART --dry-run=server -o json`. That one command serves
//! install and upgrade alike, renders `.Release.IsUpgrade` and `lookup`
//! against the live cluster, and has already checked that no object it
//! would create belongs to someone else; its JSON is exactly the record
//! Helm would store.

use serde_json::Value;

use crate::deploy::command::{dry_run, namespace_exists, refuse_pending, Refused};
use crate::deploy::crd::{self, Crd};
use crate::deploy::options::Flags;
use crate::deploy::policy::{choose, recover};
use crate::deploy::preview::Preview;
use crate::deploy::progress::Progress;
use crate::deploy::wants::DeployNeeds;
use crate::deploy::{check, deploy, Checked, Report};
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::release::record::Operation;
use crate::release::storage::{Pending, StoredRelease};
use crate::seam::{Cluster, Env};

use super::contract::{Action, NO_WARNINGS};
use super::pipe::{self, PipeError};
use super::stop::Stop;

/// What Helm rendered, checked, and how to deploy it.
pub struct DeployRequest {
    checked: Checked,
    crds: Vec<Crd>,
    flags: Flags,
    /// The release's namespace, as Helm rendered it.
    namespace: Option<String>,
    /// What the checks warn of (errors stop [`DeployRequest::read`]), said
    /// before the cluster is connected to.
    pub(crate) warnings: Diagnostics,
}

/// What `deploy` did: the operation's report, or what a dry run would do.
#[derive(Debug)]
pub enum DeployOutcome {
    Report(Report),
    Preview(Preview),
}

impl DeployRequest {
    /// Stdin read and checked whole: the release JSON (after the CRDs `helm
    /// show crds` printed, if any), its namespace against the one `named`
    /// after the pipe (`HELM_NAMESPACE`), its hooks and resources planned,
    /// the chart's CRDs read (none with `skip_crds`). `pending` names the
    /// releases Helm refuses to change, asked only when the pipe brought no
    /// release (the cause, often).
    pub(crate) fn read(
        bytes: &[u8],
        flags: Flags,
        skip_crds: bool,
        named: Option<&str>,
        pending: impl FnOnce() -> Vec<Pending>,
    ) -> Result<Self, Stop> {
        let span = crate::trace::span(|| format!("parse the release JSON ({} bytes)", bytes.len()));
        let (shown, release) = pipe::split(bytes);
        if let Some(e) = PipeError::of(release) {
            return Err(Stop::invalid(pipe::message(&e, &pending())));
        }
        let shown = shown.map(std::str::from_utf8).transpose().map_err(|_| {
            Stop::invalid("what came before the release JSON is not UTF-8 text (helm show crds prints YAML)")
        })?;
        let value: Value = match serde_json::from_slice(release) {
            Ok(v @ Value::Object(_)) => v,
            _ => return Err(Stop::invalid(pipe::USAGE)),
        };
        let name = value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        if name.is_empty() {
            return Err(Stop::invalid(
                "the release JSON has no name; pipe `helm upgrade --install NAME CHART --dry-run=server \
                 --disable-openapi-validation -o json`",
            ));
        }
        drop(span);
        let namespace = value.get("namespace").and_then(Value::as_str).map(str::to_string);
        pipe::check_namespace(&name, namespace.as_deref(), named).map_err(|e| Stop::invalid(e.to_string()))?;
        let _span = crate::trace::span(|| "check and plan".into());
        // Validate, then act: install and upgrade hooks and every resource
        // are planned before the cluster is touched.
        let events = [Event::PreInstall, Event::PostInstall, Event::PreUpgrade, Event::PostUpgrade];
        let (checked, warnings) = check(value, &events, &flags.options).map_err(|diags| Stop::Invalid {
            diags,
            problems: Vec::new(),
            message: "the release has errors; nothing was applied or stored.".into(),
        })?;
        // `--skip-crds`: `crds/` is not read at all, as Helm's install skips it.
        let crds = match crd::from_input(&checked.value, shown) {
            _ if skip_crds => Vec::new(),
            Ok(c) => c,
            Err(problems) => {
                return Err(Stop::Invalid {
                    diags: warnings,
                    problems,
                    message: "the chart's CRDs (crds/ folders) have errors; nothing was applied or stored.".into(),
                })
            }
        };
        // A first install rendered client-side (after `helm show crds`) has
        // not had Helm's ownership check: the plugin makes it.
        let flags = Flags { check_ownership: shown.is_some(), ..flags };
        Ok(DeployRequest { checked, crds, flags, namespace, warnings })
    }

    /// A request of a release already checked (`deploy::check`), and its
    /// CRDs: what [`DeployRequest::read`] makes of stdin.
    pub fn new(checked: Checked, crds: Vec<Crd>, flags: Flags) -> Self {
        let namespace = checked.value.get("namespace").and_then(Value::as_str).map(str::to_string);
        DeployRequest { checked, crds, flags, namespace, warnings: Diagnostics::default() }
    }

    /// The namespace the release was rendered for, where it is deployed.
    pub(crate) fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }
}

/// What deploy's prepare decided: the operation, the revision it replaces
/// (an upgrade's), and the revision to store.
#[derive(Debug)]
pub struct DeployPrepared {
    operation: Operation,
    current: Option<StoredRelease>,
    revision: u64,
}

impl DeployPrepared {
    fn install(&self) -> bool {
        matches!(self.operation, Operation::Install)
    }
}

impl<E: Env + ?Sized> Action<E> for DeployRequest {
    type Prepared = DeployPrepared;
    type Outcome = DeployOutcome;

    /// The history read, a pending release refused (Helm's lock), the
    /// operation chosen, and every permission it needs asked for.
    fn prepare(&self, env: &mut E) -> Result<DeployPrepared, Stop> {
        let (checked, crds, flags) = (&self.checked, self.crds.as_slice(), &self.flags);
        let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let span = crate::trace::span(|| "read the history".into());
        let history = crate::seam::history(env, &name).map_err(Refused::History)?;
        drop(span);
        refuse_pending(history.last())?;
        let (operation, current, revision) = choose(&history);
        let prepared = DeployPrepared { operation, current, revision };
        let install = prepared.install();
        let needs = DeployNeeds {
            crds: if install { crds } else { &[] },
            create_namespace: install && flags.create_namespace,
            dry_run: flags.dry_run,
            // --rollback-on-failure of an install uninstalls: it may not stop half way either.
            uninstall: install && flags.rollback_on_failure && !flags.dry_run,
        };
        let span = crate::trace::span(|| "check permissions".into());
        let wants =
            needs.wants(env.about().records, env.about().namespace, checked, operation, prepared.current.as_ref());
        env.check_access(&wants, needs.why()).map_err(Refused::Access)?;
        drop(span);
        Ok(prepared)
    }

    /// None here: a deploy's come with its request, said before the cluster
    /// is connected to.
    fn warnings(_: &DeployPrepared) -> &Diagnostics {
        &NO_WARNINGS
    }

    /// The operation prepare chose, done (its report says how it ended),
    /// or as a dry run said.
    fn perform(
        self,
        env: &mut E,
        prepared: DeployPrepared,
        progress: &mut dyn Progress,
    ) -> Result<DeployOutcome, Stop> {
        let DeployRequest { checked, crds, flags, .. } = self;
        let crds = crds.as_slice();
        let flags = &flags;
        if flags.dry_run {
            let crds = if prepared.install() { crds } else { &[] };
            let p = &prepared;
            let preview = dry_run(env, &checked, flags, p.operation, p.current.as_ref(), p.revision, crds)?;
            return Ok(DeployOutcome::Preview(preview));
        }
        if prepared.install() {
            ensure_namespace(env, flags.create_namespace)?;
            // Helm installs crds/ on a first install only, before the release exists.
            crate::deploy::crds::install(env, crds, progress).map_err(|e| Refused::Crds(Box::new(e)))?;
            // After the CRDs, as Helm: custom resources can be read only then.
            if flags.check_ownership {
                let name = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
                let namespace = env.about().namespace.to_string();
                let keys = checked.release.resources.iter().map(|r| r.head.key());
                crate::deploy::ownership::refuse_taken(env, keys, &name, &namespace).map_err(Refused::Taken)?;
            }
        }
        let DeployPrepared { operation, current, revision } = prepared;
        let mut report = deploy(env, checked, operation, current, revision, &flags.options, progress);
        if flags.rollback_on_failure {
            recover(env, &mut report, operation, &flags.options, progress);
        }
        Ok(DeployOutcome::Report(report))
    }
}

/// The release namespace of a first install: `helm install --create-namespace`
/// renders without creating it, so the plugin creates it as Helm does
/// (server-side apply by `helm`, label `name`). Without the flag a missing
/// namespace is named before anything is stored. Credentials that may not
/// read namespaces skip the check: the install then says what it can.
fn ensure_namespace(cluster: &mut (impl Cluster + ?Sized), create: bool) -> Result<(), Refused> {
    let ns = cluster.about().namespace.to_string();
    match namespace_exists(cluster).map_err(Refused::Namespace)? {
        true => Ok(()),
        false if create => {
            let object = serde_json::json!({
                "apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": ns, "labels": {"name": ns}},
            });
            match crate::seam::apply_one(cluster, &object, &crate::seam::release_apply(&[], false)) {
                Ok(_) => Ok(()),
                Err(e) => Err(Refused::NamespaceNotCreated { namespace: ns, source: Box::new(e) }),
            }
        }
        false => Err(Refused::NoNamespace(ns)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deploy::options::DeployOptions;

    fn flags() -> Flags {
        Flags {
            options: DeployOptions {
                parallel: 1,
                parallel_all: false,
                parallel_resources: None,
                timeout_ms: 300_000,
                readiness_timeout_ms: 60_000,
                ignore_fail_fast: false,
                wait_for_jobs: false,
            },
            create_namespace: false,
            rollback_on_failure: false,
            dry_run: false,
            keep_history: false,
            check_ownership: false,
        }
    }

    /// A `crds/` file that is no CRD stops a deploy before the cluster is touched; with
    /// `--skip-crds` the folder is not read at all, as Helm's install skips it.
    #[test]
    fn skip_crds_reads_no_crds_folder() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
        let data = crate::base::base64::encode(text.as_bytes());
        let release = serde_json::json!({"name": "r", "namespace": "", "manifest": "", "hooks": [],
            "chart": {"metadata": {"name": "c", "version": "1.0.0"}, "files": [{"name": "crds/a.yaml", "data": data}]}});
        let bytes = release.to_string().into_bytes();
        let Err(Stop::Invalid { problems, .. }) = DeployRequest::read(&bytes, flags(), false, None, Vec::new) else {
            panic!("a ConfigMap in crds/ was not refused")
        };
        assert!(problems[0].starts_with("crds/a.yaml (document 1): a \"ConfigMap\" where only"), "{problems:?}");
        let request = DeployRequest::read(&bytes, flags(), true, None, Vec::new).unwrap_or_else(|e| panic!("{e}"));
        assert!(request.crds.is_empty());
    }
}
