//! A chart's `crds/` folder on install, as `helm install` handles it
//! (`pkg/action/install.go`, `installCRDs`; docs/design.md §4):
//!
//! - only on a first install (never on upgrade or rollback), and not with
//!   `--skip-crds`;
//! - each file in `crds/` with a `.yaml`, `.yml` or `.json` name, of the
//!   chart then its subcharts, in Helm's order, every document in it —
//!   applied server-side by the field manager `helm` without the release's
//!   ownership metadata (the CRDs are not part of the release and `helm
//!   uninstall` leaves them); one that exists is applied again, as Helm 4's
//!   server-side apply does;
//! - then every CRD applied is awaited until Established (kstatus), for at
//!   most a minute, and then until discovery serves each of its kinds
//!   (`Cluster::served`, within the same minute: Helm's install
//!   refreshes its discovery), before anything of the release is stored or
//!   applied.
//!
//! Which CRDs those are — the release's `crds/`, or `helm show crds` piped
//! before it, subcharts' too — is [`super::crd`]'s.

use serde_json::Value;

use super::crd::Crd;
use super::error::Error;
use super::progress::{DeployEvent, Progress};
use crate::exec::executor::Millis;
use crate::kube::ObjectKey;
use crate::ready::{crd_established, Condition, Health};
use crate::seam::{apply_one, release_apply, Api, Awaiting, Clock, Cluster, Served};

/// Helm waits a fixed minute for new CRDs to be established.
const ESTABLISH_TIMEOUT_MS: Millis = 60_000;

/// Applies `crds` and waits until each is established. The error is
/// Helm's message (`failed to install CRD crds/x.yaml: …`): a refused apply
/// or a CRD not established in time fails the deploy (exit 1); the cluster
/// failing us is [`Error::Kube`].
pub(crate) fn install<E: Cluster + Clock + ?Sized>(
    env: &mut E,
    crds: &[Crd],
    progress: &mut dyn Progress,
) -> Result<(), Error> {
    if crds.is_empty() {
        return Ok(());
    }
    let mut awaiting = Awaiting::new(None);
    // What is awaited until Established, by the index the driver names it by, and
    // whether it is.
    let mut followed: Vec<(ObjectKey, bool)> = Vec::new();
    let span = crate::trace::span(|| format!("apply {} CRDs of crds/", crds.len()));
    for crd in crds {
        let live = match apply_one(env, &crd.object, &release_apply(&[], false)) {
            Ok(live) => live,
            Err(e) if e.is_object_fault() => {
                return Err(Error::CrdRejected { origin: crd.origin.clone(), source: Box::new(e) })
            }
            Err(e) => return Err(e.into()),
        };
        progress.event(&DeployEvent::CrdApplied { name: crd.name(), origin: &crd.origin });
        if crd_established().judge(&live) != Health::Ready {
            let key = ObjectKey::of(&live).map_err(crate::kube::KubeError::from)?;
            // The same CRD twice (two subcharts ship it) is awaited once.
            if !followed.iter().any(|(k, _)| *k == key) {
                awaiting.follow((followed.len(), key.clone()), &live, Box::new(crd_established()));
                followed.push((key, false));
            }
        }
    }
    drop(span);
    let mut pending = followed.len();
    let _span = crate::trace::span(|| format!("wait for {pending} CRDs to be Established"));
    let deadline = env.now_ms() + ESTABLISH_TIMEOUT_MS;
    while pending > 0 && env.now_ms() < deadline {
        for (i, _) in awaiting.wait(env, deadline)? {
            followed[i].1 = true;
            pending -= 1;
        }
    }
    // Of those not established, the first in the order of their keys is named.
    if let Some((key, _)) = followed.into_iter().filter(|(_, established)| !established).min() {
        return Err(Error::CrdNotEstablished(key.name));
    }
    // Established is not yet served: the next object of a new kind would find no mapping.
    for crd in crds {
        for (api_version, kind) in served_kinds(&crd.object) {
            let served = env.served(Api::Version(&api_version), &kind, Some(deadline))?;
            if !matches!(served, Served::Yes(_)) {
                return Err(Error::CrdNotServed { name: crd.name().to_string(), api_version, kind });
            }
        }
    }
    Ok(())
}

/// The group-versions a CRD serves, each with its kind.
fn served_kinds(crd: &Value) -> Vec<(String, String)> {
    let spec = crd.get("spec");
    let text = |p: &str| spec.and_then(|s| s.pointer(p)).and_then(Value::as_str).unwrap_or_default();
    let (group, kind) = (text("/group"), text("/names/kind"));
    let versions =
        spec.and_then(|s| s.get("versions")).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    versions
        .iter()
        .filter(|v| v.get("served").and_then(Value::as_bool) != Some(false))
        .filter_map(|v| v.get("name").and_then(Value::as_str))
        .map(|v| (format!("{group}/{v}"), kind.to_string()))
        .collect()
}
