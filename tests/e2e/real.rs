//! End to end on public charts nobody on this project wrote (testdata/charts/real, whose
//! README names each chart's source, version and licence): the plugin must leave the
//! cluster and Helm's storage exactly as stock Helm 4 does where no new annotation is
//! used.
//!
//! For each chart the bed can run, in one namespace and with one release name, one after
//! the other (cluster-scoped objects such as ClusterRoles, webhooks, CRDs and
//! IngressClasses have fixed names, so the two cannot live side by side):
//!
//! 1. stock `helm install --wait` (and `helm test` where the chart has tests), then a
//!    snapshot: every object the release names (manifest and hooks) — whether it exists,
//!    its labels and annotations — and the stored release (`helm get manifest|hooks|values`,
//!    `helm status -o json`: status, description, revision, each hook's events and
//!    last phase); then stock `helm uninstall` and what it leaves behind;
//! 2. `helm upgrade --install --dry-run=server --disable-openapi-validation -o json | helm hooks deploy -` (and
//!    `helm hooks run --event test`), the same snapshot, which must be equal;
//! 3. stock `helm upgrade` of the release the plugin deployed, `helm hooks rollback`
//!    (revision 3, "Rollback to 1"), `helm hooks uninstall`, which must leave behind
//!    exactly what stock uninstall left.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)" && make dist/hooks
//! HOOKS_PLUGIN_DIR=$PWD/dist/hooks HELM_BIN=$HOOKS_CACHE/bin/helm \
//!   cargo test --features e2e --test e2e real::
//! ```

use crate::common::*;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};

const RELEASE: &str = "r";

/// Labels and annotations that controllers and the API server add on their own: not
/// Helm's or the chart's, so not compared.
const NOT_HELMS: &[&str] = &[
    "deployment.kubernetes.io/revision",
    "kubectl.kubernetes.io/last-applied-configuration",
    "batch.kubernetes.io/controller-uid",
    "batch.kubernetes.io/job-name",
    "controller-uid",
    "job-name",
    "pod-template-hash",
    // A claim's, by the volume controller and the scheduler: which node, which
    // provisioner, and whether it bound a volume it provisioned or one that was there.
    "pv.kubernetes.io/bind-completed",
    "pv.kubernetes.io/bound-by-controller",
    "volume.beta.kubernetes.io/storage-provisioner",
    "volume.kubernetes.io/storage-provisioner",
    "volume.kubernetes.io/selected-node",
    // A pod's, by the API server when it binds it: its node's zone and region (the bed's
    // three kwok nodes are in three zones).
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
];

pub(crate) struct Chart {
    /// Folder under testdata/charts/real; `helm-create` is the chart `helm create`
    /// writes (Helm's own, with its test-connection Pod), made by the pinned Helm.
    pub(crate) dir: &'static str,
    /// More arguments for install, upgrade and the dry-run render (values).
    pub(crate) args: &'static [&'static str],
    /// The chart has test hooks to compare with `helm test`.
    pub(crate) tests: bool,
    /// How many PersistentVolumeClaims the release makes, each to be Bound (by the bed's
    /// provisioner) and every StatefulSet ready, after either install; None: not checked.
    pub(crate) claims: Option<usize>,
    /// The order in which the install creates and deletes its hooks (in the API server's
    /// order) must be stock Helm's, and not empty.
    pub(crate) hook_order: bool,
}

struct Case {
    space: Space,
    chart: Chart,
    /// What the release named, for the clean-up of what outlives it.
    refs: std::cell::RefCell<Vec<Ref>>,
}

impl std::ops::Deref for Case {
    type Target = Space;
    fn deref(&self) -> &Space {
        &self.space
    }
}

impl Case {
    fn new(chart: Chart) -> Case {
        // (A subchart's folder names the namespace by its last part.)
        let label = chart.dir.rsplit('/').next().unwrap_or(chart.dir);
        Case { space: Space::new("real", label), chart, refs: Default::default() }
    }

    fn path(&self) -> PathBuf {
        if self.chart.dir == "helm-create" {
            let path = self.tmp.0.join("demo");
            if !path.is_dir() {
                self.must(self.helm(&["create", path.to_str().unwrap()]), "helm create");
            }
            return path;
        }
        repo().join("testdata/charts/real").join(self.chart.dir)
    }

    /// Stock `helm VERB r CHART ARGS... EXTRA...`.
    fn helm_chart(&self, verb: &[&str], extra: &[&str]) -> Out {
        let path = self.path();
        let mut args = verb.to_vec();
        args.extend([RELEASE, path.to_str().unwrap()]);
        args.extend_from_slice(self.chart.args);
        args.extend_from_slice(extra);
        self.helm(&args)
    }

    fn must(&self, out: Out, what: &str) -> Out {
        assert_eq!(out.code, 0, "{what} failed:\n{}", out.shown);
        out
    }

    /// Every object the stored release names: its manifest and its hooks.
    fn release_objects(&self) -> Vec<Ref> {
        let mut refs = Vec::new();
        for part in ["manifest", "hooks"] {
            let out = self.must(self.helm(&["get", part, RELEASE]), "helm get");
            refs.extend(refs_in(&out.stdout));
        }
        refs.sort();
        refs.dedup();
        self.refs.borrow_mut().clone_from(&refs);
        refs
    }

    /// Each object: present or not, and its labels and annotations less [`NOT_HELMS`].
    fn objects(&self, refs: &[Ref]) -> BTreeMap<String, Value> {
        let mut args: Vec<String> = vec!["get".into(), "--ignore-not-found".into(), "-o".into(), "json".into()];
        args.extend(refs.iter().map(Ref::kubectl));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = ok(self.kubectl(&args));
        let live: Vec<Value> = if text.trim().is_empty() {
            Vec::new()
        } else {
            let doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("kubectl get: {e}\n{text}"));
            match doc["items"].as_array() {
                Some(items) => items.clone(),
                None => vec![doc],
            }
        };
        let mut out = BTreeMap::new();
        for r in refs {
            let found = live.iter().find(|o| o["kind"] == r.kind.as_str() && o["metadata"]["name"] == r.name.as_str());
            let entry = match found {
                None => json!("absent"),
                Some(o) => json!({
                    "labels": helms(&o["metadata"]["labels"]),
                    "annotations": helms(&o["metadata"]["annotations"]),
                }),
            };
            out.insert(r.to_string(), entry);
        }
        out
    }

    /// The stored release, less what differs from run to run (times, the plugin's
    /// `apply_method`).
    fn stored(&self) -> Value {
        let get = |part: &str, extra: &[&str]| {
            let mut args = vec!["get", part, RELEASE];
            args.extend_from_slice(extra);
            self.must(self.helm(&args), "helm get").stdout
        };
        let status = self.must(self.helm(&["status", RELEASE, "-o", "json"]), "helm status").stdout;
        let status: Value = serde_json::from_str(&status).unwrap();
        let mut hooks: Vec<Value> = status["hooks"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|h| {
                json!({
                    "name": h["name"], "kind": h["kind"], "path": h["path"], "events": h["events"],
                    "weight": h["weight"], "delete_policies": h["delete_policies"],
                    "phase": h["last_run"]["phase"],
                })
            })
            .collect();
        hooks.sort_by_key(|h| h.to_string());
        json!({
            "manifest": get("manifest", &[]),
            "hooks": get("hooks", &[]),
            "values": get("values", &["--all", "-o", "json"]),
            "notes": get("notes", &[]),
            "status": status["info"]["status"],
            "description": status["info"]["description"],
            "revision": status["version"],
            "chart": status["chart"]["metadata"]["version"],
            "hook_runs": hooks,
        })
    }

    fn snapshot(&self) -> (Vec<Ref>, BTreeMap<String, Value>, Value) {
        let refs = self.release_objects();
        let objects = self.objects(&refs);
        (refs, objects, self.stored())
    }

    /// `helm test` or `helm hooks run --event test --parallel 1`: the exit code and the
    /// test hooks' phases and objects afterwards.
    fn tests(&self, plugin: bool, refs: &[Ref]) -> Value {
        let watch = Watch::start(&self.ns, &[("/api/v1", "pods"), ("/apis/batch/v1", "jobs")]);
        let out = if plugin {
            self.plugin(&["run", RELEASE, "--event", "test", "--timeout", "2m"], None)
        } else {
            self.helm(&["test", RELEASE, "--timeout", "2m"])
        };
        // Creations and deletions of the test hooks, in the API server's order (a
        // Job's own Pods are the Job controller's, not Helm's).
        let sequence: Vec<String> = watch
            .stop()
            .iter()
            .filter(|e| e.ty != "MODIFIED" && e.object["metadata"]["ownerReferences"].is_null())
            .map(|e| format!("{} {}", e.ty, e.what()))
            .collect();
        json!({
            "code": out.code, "sequence": sequence, "objects": self.objects(refs),
            "stored": self.stored()["hook_runs"],
        })
    }
}

/// What hooks are made of, watched for [`Chart::hook_order`].
const HOOK_KINDS: &[(&str, &str)] = &[
    ("/api/v1", "secrets"),
    ("/api/v1", "configmaps"),
    ("/api/v1", "serviceaccounts"),
    ("/api/v1", "pods"),
    ("/apis/batch/v1", "jobs"),
    ("/apis/rbac.authorization.k8s.io/v1", "roles"),
    ("/apis/rbac.authorization.k8s.io/v1", "rolebindings"),
];

impl Case {
    /// The creations and deletions of the stored release's hooks among `events`, in the
    /// API server's order (resourceVersion).
    fn hook_sequence(&self, events: Vec<Ev>) -> Vec<String> {
        let hooks = self.must(self.helm(&["get", "hooks", RELEASE]), "helm get hooks").stdout;
        let hooks: Vec<String> = refs_in(&hooks).iter().map(Ref::to_string).collect();
        events
            .iter()
            .filter(|e| e.ty != "MODIFIED" && hooks.contains(&e.what()))
            .map(|e| format!("{} {}", e.ty, e.what()))
            .collect()
    }
}

impl Drop for Case {
    /// Whatever happened, the release's cluster-scoped objects go (the namespace goes
    /// with the space), so that a failed run does not block the next one.
    fn drop(&mut self) {
        if !keep() {
            let _ = self.helm(&["uninstall", RELEASE, "--timeout", "1m"]);
            // CRDs the chart keeps (`helm.sh/resource-policy: keep`) outlive it.
            let crds: Vec<String> = self
                .refs
                .borrow()
                .iter()
                .filter(|r| r.kind == "CustomResourceDefinition")
                .map(|r| format!("crd/{}", r.name))
                .collect();
            if !crds.is_empty() {
                let mut args = vec!["delete", "--ignore-not-found", "--wait=false"];
                args.extend(crds.iter().map(String::as_str));
                let _ = self.kubectl(&args).output();
            }
        }
    }
}

/// `Kind/name` of a rendered object.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Ref {
    api_version: String,
    kind: String,
    name: String,
}

impl Ref {
    /// kubectl's `kind.version.group/name`, unambiguous across API groups.
    fn kubectl(&self) -> String {
        match self.api_version.split_once('/') {
            Some((group, version)) => format!("{}.{version}.{group}/{}", self.kind, self.name),
            None => format!("{}/{}", self.kind, self.name),
        }
    }
}

impl std::fmt::Display for Ref {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.kind, self.name)
    }
}

fn refs_in(yaml: &str) -> Vec<Ref> {
    let mut refs = Vec::new();
    for doc in helm_hooks::model::manifest::split(yaml, "") {
        let Ok(v) = helm_hooks::model::yaml::to_json(&doc.text) else { continue };
        let (Some(api_version), Some(kind), Some(name)) =
            (v["apiVersion"].as_str(), v["kind"].as_str(), v["metadata"]["name"].as_str())
        else {
            continue;
        };
        refs.push(Ref { api_version: api_version.into(), kind: kind.into(), name: name.into() });
    }
    refs
}

fn helms(map: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for (k, v) in map.as_object().into_iter().flatten() {
        if !NOT_HELMS.contains(&k.as_str()) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// Where two snapshots differ, one line per key; empty when equal.
fn diff(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> String {
    let mut lines = Vec::new();
    for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            lines.push(format!("{key}:\n  stock:   {}\n  plugin:  {}", show_v(x), show_v(y)));
        }
    }
    lines.join("\n")
}

/// The paths at which two JSON values differ, with both sides.
fn json_diff(path: &str, a: &Value, b: &Value) -> Vec<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter()
                .flat_map(|k| {
                    json_diff(
                        &format!("{path}/{k}"),
                        &x.get(k).cloned().unwrap_or(Value::Null),
                        &y.get(k).cloned().unwrap_or(Value::Null),
                    )
                })
                .collect()
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().flat_map(|(i, (p, q))| json_diff(&format!("{path}/{i}"), p, q)).collect()
        }
        _ if a == b => Vec::new(),
        (Value::String(x), Value::String(y)) if x.contains('\n') => {
            let (xs, ys): (Vec<&str>, Vec<&str>) = (x.lines().collect(), y.lines().collect());
            let at = xs.iter().zip(&ys).position(|(p, q)| p != q).unwrap_or(xs.len().min(ys.len()));
            let line = |v: &[&str]| v.get(at).copied().unwrap_or("(end)").to_string();
            vec![format!(
                "{path}, line {} of {}/{}:\n  stock:   {}\n  plugin:  {}",
                at + 1,
                xs.len(),
                ys.len(),
                line(&xs),
                line(&ys)
            )]
        }
        _ => vec![format!("{path}:\n  stock:   {a}\n  plugin:  {b}")],
    }
}

fn show_v(v: Option<&Value>) -> String {
    v.map_or("(none)".into(), Value::to_string)
}

/// With `want` claims: the namespace has that many PersistentVolumeClaims, all Bound, and
/// every StatefulSet has all its replicas ready (`who` installed them).
fn volumes_bound(case: &Case, want: Option<usize>, who: &str) {
    let Some(want) = want else { return };
    let text = ok(case.kubectl(&["get", "pvc,statefulsets", "-o", "json"]));
    let items = parse_json(&text, "kubectl get pvc,statefulsets")["items"].as_array().cloned().unwrap_or_default();
    let claims: Vec<String> = items
        .iter()
        .filter(|o| o["kind"] == "PersistentVolumeClaim")
        .map(|o| {
            format!(
                "{} {}",
                o["metadata"]["name"].as_str().unwrap_or("?"),
                o["status"]["phase"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(claims.len(), want, "after {who}: claims {claims:?}");
    assert!(claims.iter().all(|c| c.ends_with(" Bound")), "after {who}: claims not all Bound: {claims:?}");
    for s in items.iter().filter(|o| o["kind"] == "StatefulSet") {
        assert_eq!(
            s["status"]["readyReplicas"].as_u64().unwrap_or(0),
            s["spec"]["replicas"].as_u64().unwrap_or(1),
            "after {who}: StatefulSet {} not ready: {}",
            s["metadata"]["name"],
            s["status"]
        );
    }
}

pub(crate) fn fidelity(chart: Chart) {
    let case = Case::new(chart);
    let hook_watch = || case.chart.hook_order.then(|| Watch::start(&case.ns, HOOK_KINDS));

    // 1. Stock Helm.
    let mut watch = hook_watch();
    let t = Instant::now();
    let mut stock = case.helm_chart(&["install"], &["--wait", "--timeout", "3m"]);
    // Stock Helm 4.3.1's waiter can lose a hook Job that its own `hook-succeeded` policy
    // deleted as it completed: `status: NotFound` until the timeout (ingress-nginx's
    // admission-patch, once in five full runs beside the real node's pods). The reference
    // is installed again once, in the same namespace, after a stock uninstall.
    if stock.code != 0 && stock.stderr.contains("status: NotFound, message: Resource not found") {
        eprintln!("stock helm install lost a hook it deleted; installing again:\n{}", stock.stderr);
        case.must(case.helm(&["uninstall", RELEASE, "--wait", "--timeout", "3m"]), "stock helm uninstall");
        drop(watch.take());
        watch = hook_watch();
        stock = case.helm_chart(&["install"], &["--wait", "--timeout", "3m"]);
    }
    let stock_time = t.elapsed();
    case.must(stock, "stock helm install");
    volumes_bound(&case, case.chart.claims, "stock helm install");
    let (refs, stock_objects, stock_release) = case.snapshot();
    let stock_order = watch.map(|w| case.hook_sequence(w.stop()));
    let live = stock_objects.values().filter(|v| *v != "absent").count();
    assert!(live * 2 >= refs.len() && live > 0, "the snapshot saw {live} of {} objects", refs.len());
    let stock_tests = case.chart.tests.then(|| case.tests(false, &refs));
    if let Some(t) = &stock_tests {
        assert!(t["sequence"].as_array().is_some_and(|s| !s.is_empty()), "helm test created nothing: {t}");
    }
    case.must(case.helm(&["uninstall", RELEASE, "--wait", "--timeout", "2m"]), "stock helm uninstall");
    let stock_left = case.objects(&refs);
    // Both start from nothing: what stock uninstall left (test Pods, kept CRDs) goes.
    let left: Vec<String> = refs.iter().filter(|r| stock_left[&r.to_string()] != "absent").map(Ref::kubectl).collect();
    if !left.is_empty() {
        let mut args = vec!["delete", "--wait=true"];
        args.extend(left.iter().map(String::as_str));
        ok(case.kubectl(&args));
    }
    // A StatefulSet's claims outlive its release (Helm never deletes them): they go too, so
    // that the plugin's release binds volumes of its own.
    ok(case.kubectl(&["delete", "pvc", "--all", "--wait=true", "--timeout=60s"]));

    // 2. The plugin, on the same chart, namespace and release name.
    let watch = hook_watch();
    let t = Instant::now();
    let render = case.must(
        case.helm_chart(&["upgrade", "--install"], &["--dry-run=server", "--disable-openapi-validation", "-o", "json"]),
        "helm upgrade --install --dry-run=server --disable-openapi-validation",
    );
    let deploy = case.plugin(&["deploy", "-", "--timeout", "3m"], Some(&render.stdout));
    let deploy = case.must(deploy, "helm hooks deploy");
    let plugin_time = t.elapsed();
    eprintln!(
        "{}: stock helm install --wait {:.2} s, the pipe (render and deploy) {:.2} s",
        case.chart.dir,
        stock_time.as_secs_f64(),
        plugin_time.as_secs_f64()
    );
    volumes_bound(&case, case.chart.claims, "helm hooks deploy");
    let (plugin_refs, plugin_objects, plugin_release) = case.snapshot();
    if let Some(stock_order) = stock_order {
        let plugin_order = case.hook_sequence(watch.expect("watched").stop());
        eprintln!("{}: hooks in the API server's order: {stock_order:#?}", case.chart.dir);
        assert!(!stock_order.is_empty(), "stock helm install created no hook");
        assert_eq!(
            plugin_order, stock_order,
            "helm hooks deploy ran the hooks in another order than stock helm install"
        );
    }
    // The chart's NOTES, as `helm install` prints them.
    if let Some(first) = stock_release["notes"].as_str().and_then(|n| n.lines().find(|l| !l.trim().is_empty())) {
        assert!(deploy.stdout.contains("NOTES:\n") && deploy.stdout.contains(first), "no NOTES:\n{}", deploy.stdout);
    }
    assert_eq!(plugin_refs, refs, "the releases name different objects");
    let d = diff(&stock_objects, &plugin_objects);
    assert!(d.is_empty(), "live objects differ from stock helm install:\n{d}");
    let d = json_diff("", &stock_release, &plugin_release);
    assert!(d.is_empty(), "the stored release differs from stock helm install:\n{}", d.join("\n"));
    if let Some(stock_tests) = stock_tests {
        let plugin_tests = case.tests(true, &refs);
        assert_eq!(plugin_tests, stock_tests, "helm hooks run --event test differs from helm test");
    }

    // 3. Stock upgrade of what the plugin deployed, the plugin's rollback and uninstall.
    case.must(case.helm_chart(&["upgrade"], &["--wait", "--timeout", "3m"]), "stock helm upgrade");
    let rollback = case.must(case.plugin(&["rollback", RELEASE, "--timeout", "3m"], None), "helm hooks rollback");
    let status: Value =
        serde_json::from_str(&case.must(case.helm(&["status", RELEASE, "-o", "json"]), "helm status").stdout).unwrap();
    assert_eq!(
        (status["version"].as_u64(), status["info"]["status"].as_str(), status["info"]["description"].as_str()),
        (Some(3), Some("deployed"), Some("Rollback to 1")),
        "{}",
        rollback.shown
    );
    // Helm 4.3 records the revision rolled back to (`helm history --show-rollback-revision`);
    // Helm 4.2 has no such field and drops it.
    let version = case.must(case.helm(&["version", "--template", "{{.Version}}"]), "helm version").stdout;
    let want = if version.starts_with("v4.2.") { None } else { Some(1) };
    assert_eq!(status["info"]["rollback_revision"].as_u64(), want, "helm {version}: {}", status["info"]);
    case.must(case.plugin(&["uninstall", RELEASE, "--timeout", "2m"], None), "helm hooks uninstall");
    let plugin_left = case.objects(&refs);
    let d = diff(&stock_left, &plugin_left);
    assert!(d.is_empty(), "helm hooks uninstall left behind something else than stock helm uninstall:\n{d}");
    let records = ok(case.kubectl(&["get", "secrets", "-l", "owner=helm", "-o", "name"]));
    assert!(records.trim().is_empty(), "release records left: {records}");
}

#[test]
fn ingress_nginx() {
    fidelity(Chart { dir: "ingress-nginx", args: &[], tests: false, claims: None, hook_order: false });
}

#[test]
fn cert_manager() {
    fidelity(Chart {
        dir: "cert-manager",
        args: &["--set", "crds.enabled=true"],
        tests: false,
        claims: None,
        hook_order: false,
    });
}

#[test]
fn helm_create() {
    fidelity(Chart { dir: "helm-create", args: &[], tests: true, claims: None, hook_order: false });
}

#[test]
fn vault() {
    fidelity(Chart { dir: "vault", args: &[], tests: true, claims: None, hook_order: false });
}

#[test]
fn argo_cd() {
    fidelity(Chart { dir: "argo-cd", args: &[], tests: false, claims: None, hook_order: false });
}

/// An umbrella of four subcharts (alertmanager, kube-state-metrics, node-exporter,
/// pushgateway), its volumes on as by default: the server's PersistentVolumeClaim (a
/// Deployment's) and alertmanager's StatefulSet's `volumeClaimTemplate`, both bound by the
/// bed's provisioner. The chart has no hooks and no tests.
#[test]
fn prometheus() {
    fidelity(Chart { dir: "prometheus", args: &[], tests: false, claims: Some(2), hook_order: false });
}

/// bitnami's PostgreSQL 13.2.24, the subchart airflow vendors, as a chart of its own: a
/// StatefulSet whose volumeClaimTemplate is bound by the bed's default StorageClass, so both
/// installs wait for a claim as on a cloud cluster (on the kwok node: nothing runs, nothing
/// is mounted).
#[test]
fn postgresql() {
    fidelity(Chart {
        dir: "airflow/charts/postgresql",
        // Otherwise each render makes a random password (`randAlphaNum`) and no two
        // releases store the same Secret.
        args: &["--set", "auth.postgresPassword=hooks-test"],
        tests: false,
        claims: Some(1),
        hook_order: false,
    });
}

/// 39 hooks, 38 of them post-install Jobs in 11 weights: two full serial runs of each
/// kind take minutes on the bed, so this one is opt-in (`cargo test -- --ignored`).
/// Sentry's databases (bitnami subcharts) are values-only stand-ins here (see
/// testdata/charts/real/README.md): the bed's pods run nothing anyway. Nothing asks
/// for a volume (switched off, as when the bed had no provisioner).
#[test]
#[ignore]
fn sentry() {
    fidelity(Chart {
        dir: "sentry",
        args: &[
            "--set",
            "filestore.filesystem.persistence.enabled=false",
            "--set",
            "clickhouse.clickhouse.persistentVolumeClaim.enabled=false",
            "--set",
            "clickhouse.clickhouse.persistentVolumeClaim.dataPersistentVolume.enabled=false",
            // ingress-nginx's test, running beside it, validates every Ingress of the bed
            // through a webhook no server answers.
            "--set",
            "ingress.enabled=false",
            // Otherwise a pre-install hook carries a key made by `randAlphaNum` at each
            // render, and no two releases store the same hooks.
            "--set",
            "sentry.existingSecret=sentry-key",
        ],
        tests: false,
        claims: None,
        hook_order: false,
    });
}

/// The CRDs of a chart's `crds/` folders (`helm show crds`) as the cluster has them: by
/// name, its labels, annotations and field managers, and its resourceVersion apart.
type CrdsSeen = BTreeMap<String, (Value, String)>;

fn crds_seen(case: &Case, names: &[String]) -> CrdsSeen {
    let mut args = vec!["get", "crd", "--ignore-not-found", "--show-managed-fields", "-o", "json"];
    args.extend(names.iter().map(String::as_str));
    let text = ok(case.kubectl(&args));
    if text.trim().is_empty() {
        return CrdsSeen::new();
    }
    let doc: Value = serde_json::from_str(&text).unwrap();
    let items = doc["items"].as_array().cloned().unwrap_or_else(|| vec![doc.clone()]);
    items
        .iter()
        .map(|o| {
            let managers: Vec<String> = o["metadata"]["managedFields"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|m| m["subresource"].is_null())
                .map(|m| format!("{} {}", m["manager"].as_str().unwrap_or_default(), m["operation"]))
                .collect();
            let seen = json!({
                "labels": o["metadata"]["labels"], "annotations": o["metadata"]["annotations"], "managers": managers,
            });
            let version = o["metadata"]["resourceVersion"].as_str().unwrap_or_default().to_string();
            (o["metadata"]["name"].as_str().unwrap().to_string(), (seen, version))
        })
        .collect()
}

fn without_versions(seen: &CrdsSeen) -> BTreeMap<&String, &Value> {
    seen.iter().map(|(name, (s, _))| (name, s)).collect()
}

/// Deletes the CRDs named, and waits for them to go, when dropped.
struct DeleteCrds<'a>(&'a Case, &'a [String]);

impl DeleteCrds<'_> {
    fn now(&self, wait: bool) {
        let mut args = vec!["delete", "crd", "--ignore-not-found"];
        args.push(if wait { "--wait=true" } else { "--wait=false" });
        args.extend(self.1.iter().map(String::as_str));
        ok(self.0.kubectl(&args));
    }
}

impl Drop for DeleteCrds<'_> {
    fn drop(&mut self) {
        if !keep() {
            let mut args = vec!["delete", "crd", "--ignore-not-found", "--wait=false"];
            args.extend(self.1.iter().map(String::as_str));
            let _ = self.0.kubectl(&args).output();
        }
    }
}

/// Issue 42: an operator chart whose templates create a custom resource of a kind from
/// its own `crds/` (traefik's dashboard `IngressRoute`) deploys on a cluster without its
/// CRDs through the README's commands alone — `{ helm show crds CHART; helm upgrade
/// --install … --dry-run=client -o json; } | helm hooks deploy -` for the first install,
/// the same with `--dry-run=server` for an upgrade — and leaves what stock `helm install
/// --wait` leaves: the same objects (the custom resource among them), the same stored
/// release, the same CRDs (labels, annotations, field managers). The upgrade leaves the
/// CRDs as `helm upgrade` does: none applied again, none re-created; uninstall leaves
/// them, as stock uninstall does. One namespace, one after the other (the IngressClass
/// and the CRDs are cluster-scoped; no other test uses traefik's CRDs).
#[test]
fn traefik_operator_chart() {
    let case = Case::new(Chart { dir: "traefik", args: &[], tests: false, claims: None, hook_order: false });
    let path = case.path();
    let chart = path.to_str().unwrap();
    let shown = case.must(case.helm(&["show", "crds", chart]), "helm show crds").stdout;
    let names: Vec<String> =
        helm_hooks::deploy::crd::from_shown(&shown).unwrap().iter().map(|c| c.name().to_string()).collect();
    assert_eq!(names.len(), 16, "traefik 28.3.0 has 16 CRDs in crds/: {names:?}");
    let crds = DeleteCrds(&case, &names);
    crds.now(true);

    // 1. Stock Helm.
    let t = Instant::now();
    case.must(case.helm_chart(&["install"], &["--wait", "--timeout", "3m"]), "stock helm install");
    let stock_time = t.elapsed();
    let (refs, stock_objects, stock_release) = case.snapshot();
    assert!(refs.iter().any(|r| r.kind == "IngressRoute"), "no custom resource in the release: {refs:?}");
    let stock_crds = crds_seen(&case, &names);
    assert_eq!(stock_crds.len(), names.len(), "stock helm install left {stock_crds:?}");
    case.must(case.helm(&["uninstall", RELEASE, "--wait", "--timeout", "2m"]), "stock helm uninstall");
    let stock_left = case.objects(&refs);
    assert_eq!(crds_seen(&case, &names).len(), names.len(), "stock helm uninstall deleted CRDs");
    crds.now(true);
    assert!(crds_seen(&case, &names).is_empty());

    // 2. The README's first install: the CRDs, then the release rendered client-side.
    let t = Instant::now();
    let render = case.must(
        case.helm_chart(&["upgrade", "--install"], &["--dry-run=client", "-o", "json"]),
        "helm upgrade --install --dry-run=client",
    );
    let deploy = case.plugin(&["deploy", "-", "--timeout", "3m"], Some(&format!("{shown}{}", render.stdout)));
    let deploy = case.must(deploy, "helm hooks deploy");
    let ours_time = t.elapsed();
    eprintln!("traefik first install: stock helm install --wait {stock_time:?}, the README's commands {ours_time:?}");
    assert!(
        deploy.stdout.contains("CRD ingressroutes.traefik.io applied from crds/traefik.io_ingressroutes.yaml"),
        "{}",
        deploy.shown
    );
    let (plugin_refs, plugin_objects, plugin_release) = case.snapshot();
    assert_eq!(plugin_refs, refs, "the releases name different objects");
    let d = diff(&stock_objects, &plugin_objects);
    assert!(d.is_empty(), "live objects differ from stock helm install:\n{d}");
    assert_ne!(plugin_objects["IngressRoute/r-traefik-dashboard"], "absent");
    let d = json_diff("", &stock_release, &plugin_release);
    assert!(d.is_empty(), "the stored release differs from stock helm install:\n{}", d.join("\n"));
    let ours_crds = crds_seen(&case, &names);
    assert_eq!(without_versions(&ours_crds), without_versions(&stock_crds), "the CRDs differ from stock helm's");

    // 3. The README's upgrade: --dry-run=server renders now; no CRD is applied again, and
    // one deleted meanwhile is not re-created (as helm upgrade).
    let gone = "tlsstores.traefik.io";
    ok(case.kubectl(&["delete", "crd", gone, "--wait=true"]));
    let render = case.must(
        case.helm_chart(&["upgrade", "--install"], &["--dry-run=server", "--disable-openapi-validation", "-o", "json"]),
        "helm upgrade --install --dry-run=server",
    );
    let upgrade = case.plugin(&["deploy", "-", "--timeout", "3m"], Some(&format!("{shown}{}", render.stdout)));
    let upgrade = case.must(upgrade, "helm hooks deploy (upgrade)");
    assert!(!upgrade.stdout.contains("CRD "), "{}", upgrade.shown);
    let mut want = ours_crds.clone();
    want.remove(gone);
    assert_eq!(crds_seen(&case, &names), want, "the upgrade changed the CRDs");
    let status: Value =
        serde_json::from_str(&case.must(case.helm(&["status", RELEASE, "-o", "json"]), "helm status").stdout).unwrap();
    assert_eq!((status["version"].as_u64(), status["info"]["status"].as_str()), (Some(2), Some("deployed")));

    // 4. Uninstall leaves the CRDs and what stock uninstall left.
    case.must(case.plugin(&["uninstall", RELEASE, "--timeout", "2m"], None), "helm hooks uninstall");
    let d = diff(&stock_left, &case.objects(&refs));
    assert!(d.is_empty(), "helm hooks uninstall left behind something else than stock helm uninstall:\n{d}");
    assert_eq!(crds_seen(&case, &names), want, "uninstall touched the CRDs");
}
