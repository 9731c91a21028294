//! `helm hooks deploy - --dry-run` and `rollback --dry-run`: the plan
//! against the live cluster; `uninstall --dry-run`: what would be deleted.
//!
//! Batch by batch, what the deploy would do to each resource — create it,
//! update it (with the fields that change, from a server-side apply with
//! `dryRun=All`, so defaults, admission webhooks and other managers' fields
//! are the API server's own), leave it unchanged, or fail (the API server
//! refuses it) — then what it would delete and which hooks would run.
//! Nothing is applied or stored, and no hook runs (docs/design.md §4).

use serde::Serialize;
use serde_json::Value;

use super::apply::{prepare, MANAGED_BY};
use super::checked::Checked;
use super::crd::Crd;
use crate::kube::{KubeError, ObjectKey};
use crate::model::event::Event;
use crate::plan::{EventPlan, Target};
use crate::seam::Cluster;

/// Longest value shown in a change before it is cut.
const MAX_VALUE: usize = 96;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PreviewAction {
    Create,
    Update,
    Unchanged,
    Delete,
    /// The API server refused the dry-run apply: the deploy would fail here.
    Fail,
    /// `helm.sh/resource-policy: keep`: an uninstall leaves it.
    Keep,
}

/// One field that an update changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Change {
    pub(crate) path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) to: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct PreviewRow {
    #[serde(rename = "ref")]
    pub(crate) reference: String,
    pub(crate) action: PreviewAction,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) changes: Vec<Change>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) message: String,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct BatchRows {
    pub(crate) batch: usize,
    pub(crate) description: String,
    pub(crate) resources: Vec<PreviewRow>,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct HookRows {
    pub(crate) event: String,
    pub(crate) hooks: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Preview {
    pub(crate) release: String,
    pub(crate) namespace: String,
    /// `install`, `upgrade`, or `rollback to revision N`.
    pub(crate) operation: String,
    pub(crate) revision: u64,
    /// `--create-namespace` would create the release namespace first.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) create_namespace: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) crds: Vec<PreviewRow>,
    pub(crate) hooks_before: HookRows,
    pub(crate) batches: Vec<BatchRows>,
    pub(crate) deleted: Vec<PreviewRow>,
    pub(crate) hooks_after: HookRows,
}

impl Preview {
    /// Every resource row: the CRDs, the batches', the deleted.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &PreviewRow> {
        self.crds.iter().chain(self.batches.iter().flat_map(|b| b.resources.iter())).chain(self.deleted.iter())
    }

    /// The API server refused something: the deploy would fail.
    pub(crate) fn would_fail(&self) -> bool {
        self.rows().any(|r| r.action == PreviewAction::Fail)
    }
}

/// What the deploy of `checked` would do. `namespace_exists`: false for a
/// first install whose namespace `--create-namespace` would create (objects
/// in it cannot be dry-run and are shown as created). `removed`: the
/// references of what the replaced revision had and this one has not.
#[allow(clippy::too_many_arguments)]
pub(super) fn preview(
    cluster: &mut (impl Cluster + ?Sized),
    checked: &Checked,
    (operation, pre, post): (String, Event, Event),
    revision: u64,
    crds: &[Crd],
    namespace_exists: bool,
    removed: Vec<String>,
) -> Result<Preview, KubeError> {
    let release = checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
    let namespace = cluster.about().namespace.to_string();
    let mut crd_rows = Vec::new();
    for crd in crds {
        let mut row = dry_run(cluster, &crd.object, &[], &format!("CustomResourceDefinition/{}", crd.name()), true)?;
        row.message = crd.origin.to_string();
        crd_rows.push(row);
    }
    let plan = event_plan(checked, Target::Install);
    let mut batches: Vec<BatchRows> = Vec::new();
    for (b, batch) in plan.batches.iter().enumerate() {
        let _ = batch;
        let mut rows = Vec::new();
        for item in plan.items.iter().filter(|it| it.level as usize == b) {
            let r = &checked.release.resources[item.index];
            let reference = item.reference.to_string();
            let object = match prepare(r, &release, &namespace) {
                Ok(o) => o,
                Err(message) => {
                    rows.push(PreviewRow { reference, action: PreviewAction::Fail, changes: Vec::new(), message });
                    continue;
                }
            };
            let in_new_namespace = !namespace_exists && r.head.namespace.as_deref().is_none_or(|n| n == namespace);
            if in_new_namespace {
                let message = format!("namespace {namespace:?} is created first (--create-namespace)");
                rows.push(PreviewRow { reference, action: PreviewAction::Create, changes: Vec::new(), message });
                continue;
            }
            rows.push(dry_run(cluster, &object, &[MANAGED_BY], &reference, false)?);
        }
        batches.push(BatchRows {
            batch: b + 1,
            description: crate::plan::batch::describe(&plan.batches, b),
            resources: rows,
        });
    }
    let deleted = removed
        .into_iter()
        .map(|reference| PreviewRow {
            reference,
            action: PreviewAction::Delete,
            changes: Vec::new(),
            message: String::new(),
        })
        .collect();
    let hooks = |event: Event| HookRows {
        event: event.to_string(),
        hooks: event_plan(checked, Target::Hooks(event)).items.iter().map(|i| i.reference.to_string()).collect(),
    };
    Ok(Preview {
        release,
        namespace,
        operation,
        revision,
        create_namespace: !namespace_exists,
        crds: crd_rows,
        hooks_before: hooks(pre),
        batches,
        deleted,
        hooks_after: hooks(post),
    })
}

fn event_plan(checked: &Checked, phase: Target) -> &EventPlan {
    super::checked::event_plan(&checked.plan, phase)
}

/// The live object against a dry-run apply of `object`. A kind the cluster
/// does not serve yet (its CRD comes earlier in this deploy) is a create.
fn dry_run(
    cluster: &mut (impl Cluster + ?Sized),
    object: &Value,
    labels: &[(&str, &str)],
    reference: &str,
    crd: bool,
) -> Result<PreviewRow, KubeError> {
    let row =
        |action, changes, message: String| PreviewRow { reference: reference.to_string(), action, changes, message };
    let key = match ObjectKey::of(object) {
        Ok(k) => k,
        Err(e) => return Ok(row(PreviewAction::Fail, Vec::new(), e.to_string())),
    };
    let live = match crate::seam::get(cluster, &key) {
        Ok(live) => live,
        Err(KubeError::NoMapping { .. }) => {
            return Ok(row(PreviewAction::Create, Vec::new(), "its kind comes with a CRD applied before it".into()))
        }
        Err(e) => return Err(e),
    };
    let dry_run = crate::seam::Apply { dry_run: true, ..crate::seam::release_apply(labels, false) };
    let after = match crate::seam::apply_one(cluster, object, &dry_run) {
        Ok(after) => after,
        Err(e) if e.is_object_fault() => return Ok(row(PreviewAction::Fail, Vec::new(), e.to_string())),
        Err(e) => return Err(e),
    };
    let Some(live) = live else { return Ok(row(PreviewAction::Create, Vec::new(), String::new())) };
    let secret = !crd && key.kind == "Secret";
    let changes = diff(&comparable(&live), &comparable(&after), secret);
    let action = if changes.is_empty() { PreviewAction::Unchanged } else { PreviewAction::Update };
    Ok(row(action, changes, String::new()))
}

/// The object without what the API server changes on every write or owns
/// outright: status, resource version, generation, managed fields, times.
fn comparable(object: &Value) -> Value {
    let mut o = object.clone();
    if let Some(map) = o.as_object_mut() {
        map.remove("status");
        if let Some(meta) = map.get_mut("metadata").and_then(Value::as_object_mut) {
            for k in ["managedFields", "resourceVersion", "generation", "creationTimestamp", "uid", "selfLink"] {
                meta.remove(k);
            }
        }
    }
    o
}

/// The fields that differ between `before` and `after`, in document order.
/// Values of a Secret's `data` and `stringData` are never shown.
fn diff(before: &Value, after: &Value, secret: bool) -> Vec<Change> {
    let mut changes = Vec::new();
    walk(String::new(), Some(before), Some(after), secret, &mut changes);
    changes
}

fn walk(path: String, before: Option<&Value>, after: Option<&Value>, secret: bool, out: &mut Vec<Change>) {
    if before == after {
        return;
    }
    match (before, after) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().collect();
            keys.extend(b.keys().filter(|k| !a.contains_key(*k)));
            for k in keys {
                walk(child(&path, k), a.get(k), b.get(k), secret, out);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                walk(format!("{path}[{i}]"), Some(x), Some(y), secret, out);
            }
        }
        _ => {
            let hidden = secret
                && ["data", "stringData"].iter().any(|top| {
                    path.strip_prefix(top).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
                });
            let show = |v: Option<&Value>| v.map(|v| if hidden { "(hidden)".to_string() } else { short(v) });
            out.push(Change { path, from: show(before), to: show(after) });
        }
    }
}

fn child(path: &str, key: &str) -> String {
    let plain = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (path.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{key:?}]"),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= MAX_VALUE {
        return text;
    }
    let cut: String = text.chars().take(MAX_VALUE - 1).collect();
    format!("{cut}…")
}

/// What `helm hooks uninstall --dry-run` would do: the delete hooks it
/// would run, what it would delete batch by batch (in deletion order) or
/// keep, and what becomes of the stored revisions. Read from the stored
/// release alone, so it needs no permission beyond reading it.
#[derive(Debug, Clone, Serialize)]
pub struct UninstallPreview {
    pub(crate) release: String,
    pub(crate) namespace: String,
    pub(crate) revision: u64,
    pub(crate) hooks_before: HookRows,
    /// Deletion order: the last batch first.
    pub(crate) batches: Vec<BatchRows>,
    pub(crate) hooks_after: HookRows,
    /// The revisions removed from Helm's storage (none with --keep-history,
    /// which marks the latest `uninstalled`).
    pub(crate) revisions_deleted: Vec<u64>,
    pub(crate) keep_history: bool,
}

pub(crate) fn uninstall(checked: &Checked, namespace: &str, revisions: &[u64], keep_history: bool) -> UninstallPreview {
    let plan = event_plan(checked, Target::Install);
    let mut batches = Vec::new();
    for batch in crate::exec::rollout::deletion_batches(plan) {
        let level = plan.items[batch[0]].level as usize;
        let resources = batch
            .iter()
            .map(|&i| {
                let keep = super::removed::kept(&checked.release.resources[plan.items[i].index]);
                PreviewRow {
                    reference: plan.items[i].reference.to_string(),
                    action: if keep { PreviewAction::Keep } else { PreviewAction::Delete },
                    changes: Vec::new(),
                    message: if keep {
                        format!("{}: keep", crate::model::annotation::RESOURCE_POLICY)
                    } else {
                        String::new()
                    },
                }
            })
            .collect();
        batches.push(BatchRows {
            batch: level + 1,
            description: crate::plan::batch::describe(&plan.batches, level),
            resources,
        });
    }
    let hooks = |event: Event| HookRows {
        event: event.to_string(),
        hooks: event_plan(checked, Target::Hooks(event)).items.iter().map(|i| i.reference.to_string()).collect(),
    };
    UninstallPreview {
        release: checked.value.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
        namespace: namespace.to_string(),
        revision: revisions.last().copied().unwrap_or_default(),
        hooks_before: hooks(Event::PreDelete),
        batches,
        hooks_after: hooks(Event::PostDelete),
        revisions_deleted: if keep_history { Vec::new() } else { revisions.to_vec() },
        keep_history,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn diff_names_each_changed_field() {
        let before = json!({"metadata": {"name": "web", "labels": {"app": "a"}, "annotations": {"x.io/y": "1"}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c", "image": "a:1"}]}}}});
        let after = json!({"metadata": {"name": "web", "labels": {"app": "a", "tier": "web"}, "annotations": {}},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c", "image": "a:2"}]}}}});
        let d = diff(&before, &after, false);
        let shown: Vec<(&str, Option<&str>, Option<&str>)> =
            d.iter().map(|c| (c.path.as_str(), c.from.as_deref(), c.to.as_deref())).collect();
        assert_eq!(
            shown,
            [
                ("metadata.annotations[\"x.io/y\"]", Some("\"1\""), None),
                ("metadata.labels.tier", None, Some("\"web\"")),
                ("spec.replicas", Some("1"), Some("3")),
                ("spec.template.spec.containers[0].image", Some("\"a:1\""), Some("\"a:2\"")),
            ]
        );
        assert!(diff(&before, &before, false).is_empty());
    }

    #[test]
    fn lists_that_change_length_are_shown_whole_and_long_values_cut() {
        let d = diff(&json!({"a": [1]}), &json!({"a": [1, 2]}), false);
        assert_eq!(d, [Change { path: "a".into(), from: Some("[1]".into()), to: Some("[1,2]".into()) }]);
        let long = "x".repeat(300);
        let d = diff(&json!({"a": 1}), &json!({"a": long}), false);
        assert_eq!(d[0].to.as_ref().unwrap().chars().count(), MAX_VALUE);
    }

    #[test]
    fn secret_values_are_never_shown() {
        let d = diff(
            &json!({"data": {"password": "aHVudGVyMg=="}, "type": "Opaque"}),
            &json!({"data": {"password": "c2VjcmV0"}, "stringData": {"k": "v"}, "type": "Opaque"}),
            true,
        );
        assert_eq!(d.len(), 2);
        assert_eq!(d[1].path, "stringData", "{d:?}");
        assert!(d.iter().all(|c| c.from.as_deref().unwrap_or("(hidden)") == "(hidden)"), "{d:?}");
        assert!(d.iter().all(|c| c.to.as_deref() == Some("(hidden)")), "{d:?}");
        let text = format!("{d:?}");
        assert!(!text.contains("c2VjcmV0") && !text.contains("aHVudGVyMg==") && !text.contains("\"v\""), "{text}");
    }

    #[test]
    fn server_owned_fields_are_not_changes() {
        let live = json!({"metadata": {"name": "a", "resourceVersion": "5", "managedFields": [1], "generation": 2},
            "status": {"x": 1}, "data": {"k": "v"}});
        let after = json!({"metadata": {"name": "a", "resourceVersion": "6", "managedFields": [2], "generation": 2},
            "status": {"x": 2}, "data": {"k": "v"}});
        assert!(diff(&comparable(&live), &comparable(&after), false).is_empty());
    }
}
