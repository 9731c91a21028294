//! End-to-end tests of the Kubernetes client (`helm_hooks::kube`) and of Helm's release
//! storage (`helm_hooks::release::storage`) against the REAL API server of the test bed, through
//! the native transport (`kube::tcp`) and `kubectl proxy`, and against the real Helm 4
//! binary (`HELM_BIN`, tests/e2e/common; a release it installed is read, changed and written
//! back; `helm status` and `helm history` must still read it).
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! cargo test --features e2e --test e2e kube::
//! ```
//!
//! The proxy is started (or reused) with `testbed/cluster.sh proxy`. Every test works in
//! its own namespace, so they run in parallel. Without the bed's environment they fail.
//! (Built only with the `e2e` feature, so that a plain `cargo test` never runs them.)

use crate::common::{
    bed, fresh_namespace, keep, kubectl_in, ok, parse_json, repo, stock_helm_reads_the_records, HelmHome,
};

use std::process::Command;
use std::sync::OnceLock;
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use helm_hooks::kube::tcp::TcpTransport;
use helm_hooks::kube::{Client, Conflicts, Connection, KubeError, ObjectKey, Selector, Tracker};
use helm_hooks::ready::completion::{self, Completion};
use helm_hooks::release::last_run::{HookPhase, LastRun};
use helm_hooks::release::storage::{self, Driver};

// ---------------------------------------------------------------------------------------
// The bed (tests/e2e/common), reached by the native client through `kubectl proxy`.

/// `kubectl proxy`'s http URL, started (or reused) by `testbed/cluster.sh proxy`.
fn proxy() -> &'static str {
    static PROXY: OnceLock<String> = OnceLock::new();
    PROXY.get_or_init(|| {
        bed();
        let mut cmd = Command::new(repo().join("testbed/cluster.sh"));
        cmd.arg("proxy");
        let proxy = ok(cmd).trim().to_string();
        assert!(proxy.starts_with("http://127.0.0.1:"), "unexpected proxy URL {proxy:?}");
        proxy
    })
}

/// A client through kubectl proxy, configured the way the plugin is: from Helm's
/// environment variables.
fn client_in(ns: &str) -> Client {
    client_with(ns, &[])
}

fn client_with(ns: &str, extra: &[(&str, &str)]) -> Client {
    let mut vars: Vec<(String, String)> = vec![
        ("HELM_KUBEAPISERVER".into(), proxy().to_string()),
        ("HELM_NAMESPACE".into(), ns.into()),
        ("HELM_KUBEINSECURE_SKIP_TLS_VERIFY".into(), "false".into()),
    ];
    vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let conn = Connection::from_env(&|k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
        .expect("the proxy URL is a valid connection");
    assert_eq!(conn.token, None);
    Client::new(conn, Box::new(TcpTransport::default()))
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

/// A namespace of one test, created through the client (a cluster-scoped apply) and
/// deleted (in the background) when the test ends. Unlike tests/e2e/common's Namespace,
/// which kubectl makes, it is made and deleted by the client under test.
struct Ns(String);

impl Ns {
    fn new(name: &str) -> Ns {
        let ns = fresh_namespace("kube", name);
        let mut c = client_in("default");
        // A namespace given to a cluster-scoped object is dropped, not an error.
        let created = c
            .apply(
                &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "namespace": "ignored"}}),
                &[],
                Conflicts::Fail,
            )
            .unwrap_or_else(|e| panic!("cannot create namespace {ns}: {e}"));
        assert_eq!(created["metadata"]["name"], ns.as_str());
        // Pods can be created only once the namespace has its default ServiceAccount.
        let start = Instant::now();
        let sa = ObjectKey::new("v1", "ServiceAccount", Some(&ns), "default");
        while c.get_opt(&sa).unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(30), "no default ServiceAccount in {ns}");
            sleep(Duration::from_millis(100));
        }
        Ns(ns)
    }
}

impl Drop for Ns {
    fn drop(&mut self) {
        if !keep() {
            let _ = client_in("default").delete(&ObjectKey::new("v1", "Namespace", None, &self.0));
        }
    }
}

impl std::ops::Deref for Ns {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A Job with one container; `annotations` (bed contract: hooks-test/duration, exit-code,
/// log) go on its pod template.
fn job(name: &str, annotations: Value) -> Value {
    json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name},
        "spec": {"backoffLimit": 0, "template": {
            "metadata": {"annotations": annotations},
            "spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "registry.invalid/job:1"}]}
        }}
    })
}

fn pod(name: &str, annotations: Value, containers: &[&str]) -> Value {
    let containers: Vec<Value> =
        containers.iter().map(|c| json!({"name": c, "image": "registry.invalid/pod:1"})).collect();
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "annotations": annotations},
        "spec": {"restartPolicy": "Never", "containers": containers}
    })
}

/// Waits (watch rounds) until the object's completion is final; its last state.
fn wait_done(c: &mut Client, key: &ObjectKey, secs: u64) -> (Completion, Value) {
    let mut t = Tracker::new(None);
    c.track(&mut t, key).unwrap();
    let deadline = now_ms() + secs * 1000;
    let done = c
        .wait_any(&mut t, deadline, &mut now_ms, &mut |k, obj| {
            obj.last().and_then(|o| completion::hook_completion(&k.kind, o)).is_some_and(|s| s.is_done())
        })
        .unwrap();
    assert_eq!(done, vec![key.clone()], "{key} did not finish within {secs}s");
    let obj = t.get(key).unwrap().clone();
    (completion::hook_completion(&key.kind, &obj).unwrap(), obj)
}

// ---------------------------------------------------------------------------------------
// The client.

#[test]
fn discovery_maps_kinds_to_resources_and_caches_per_group_version() {
    let mut c = client_in("default");
    let cm = c.resource("v1", "ConfigMap").unwrap();
    assert_eq!((cm.plural.as_str(), cm.namespaced), ("configmaps", true));
    assert_eq!(cm.display_name(), "configmaps");
    let ns = c.resource("v1", "Namespace").unwrap();
    assert_eq!((ns.plural.as_str(), ns.namespaced), ("namespaces", false));
    let after_core = c.requests();
    assert_eq!(after_core, 1, "one discovery request for v1");
    let job = c.resource("batch/v1", "Job").unwrap();
    assert_eq!((job.plural.as_str(), job.namespaced, job.display_name().as_str()), ("jobs", true, "jobs.batch"));
    let cr = c.resource("rbac.authorization.k8s.io/v1", "ClusterRole").unwrap();
    assert_eq!((cr.plural.as_str(), cr.namespaced), ("clusterroles", false));
    let dep = c.resource("apps/v1", "Deployment").unwrap();
    assert_eq!(dep.plural, "deployments");
    assert_eq!(c.requests(), after_core + 3);
    // Cached: no request.
    c.resource("batch/v1", "CronJob").unwrap();
    assert_eq!(c.requests(), after_core + 3);
    // Subresources are not kinds of their own; unknown kinds and groups are named.
    assert_eq!(c.resource("v1", "Pod").unwrap().plural, "pods");
    for (gv, kind) in [("v1", "Widget"), ("widgets.example.com/v1", "Widget"), ("batch/v9", "Job")] {
        let e = c.resource(gv, kind).unwrap_err();
        assert!(matches!(&e, KubeError::NoMapping { .. }), "{gv} {kind}: {e:?}");
        assert!(e.to_string().contains(kind) && e.is_object_fault(), "{e}");
    }
}

#[test]
fn configmap_apply_get_list_watch_delete() {
    let ns = Ns::new("cm");
    let mut c = client_in(&ns);
    let cm =
        |v: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "applied"}, "data": {"k": v}});
    let applied = c.apply(&cm("one"), &[("hooks.helm.sh/test", "yes")], Conflicts::Fail).unwrap();
    assert_eq!(applied["metadata"]["namespace"], &*ns);
    assert_eq!(applied["metadata"]["labels"]["hooks.helm.sh/test"], "yes");
    let managers: Vec<&str> = applied["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["manager"].as_str().unwrap())
        .collect();
    assert_eq!(managers, vec!["helm"], "{applied}");
    assert_eq!(applied["metadata"]["managedFields"][0]["operation"], "Apply");

    let key = ObjectKey::new("v1", "ConfigMap", None, "applied");
    assert_eq!(c.get(&key).unwrap()["data"]["k"], "one");
    // Applying again updates in place.
    c.apply(&cm("two"), &[("hooks.helm.sh/test", "yes")], Conflicts::Fail).unwrap();
    assert_eq!(c.get(&key).unwrap()["data"]["k"], "two");

    let res = c.resource("v1", "ConfigMap").unwrap();
    let list = c.list(&res, Some(&ns), &Selector::labels("hooks.helm.sh/test=yes")).unwrap();
    assert_eq!(list.items.len(), 1);
    assert_eq!((list.items[0]["kind"].as_str(), list.items[0]["apiVersion"].as_str()), (Some("ConfigMap"), Some("v1")));
    assert!(!list.resource_version.is_empty());
    assert!(c.list(&res, Some(&ns), &Selector::labels("hooks.helm.sh/test=no")).unwrap().items.is_empty());
    assert_eq!(c.list(&res, Some(&ns), &Selector::name("applied")).unwrap().items.len(), 1);

    // A change after the list shows in the next watch round, which ends by itself.
    c.apply(&cm("three"), &[], Conflicts::Fail).unwrap();
    let start = Instant::now();
    let round = c.watch(&res, Some(&ns), &Selector::name("applied"), &list.resource_version, 1).unwrap();
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(10), "the round took {took:?}");
    assert!(!round.expired);
    assert_eq!(round.events.len(), 1, "{:?}", round.events);
    assert_eq!(round.events[0].kind, helm_hooks::kube::EventType::Modified);
    assert_eq!(round.events[0].object["data"]["k"], "three");
    assert_ne!(round.resource_version, list.resource_version);

    // Deleted, then gone; deleting again is not an error.
    let start = now_ms();
    let left = c.delete_and_wait(std::slice::from_ref(&key), start + 30_000, &mut now_ms).unwrap();
    assert!(left.is_empty(), "{left:?}");
    let e = c.get(&key).unwrap_err();
    assert!(e.is_not_found(), "{e:?}");
    assert!(e.to_string().contains(&format!("configmaps \"applied\" in namespace \"{}\" not found", &*ns)), "{e}");
    assert!(!c.delete(&key).unwrap());
}

#[test]
fn watch_round_without_events_returns_after_its_timeout() {
    let ns = Ns::new("watch");
    let mut c = client_in(&ns);
    let res = c.resource("v1", "ConfigMap").unwrap();
    let list = c.list(&res, Some(&ns), &Selector::default()).unwrap();
    for secs in [1, 2] {
        let start = Instant::now();
        let round = c.watch(&res, Some(&ns), &Selector::labels("nothing=here"), &list.resource_version, secs).unwrap();
        let took = start.elapsed();
        assert!(round.events.is_empty() && !round.expired, "{round:?}");
        assert_eq!(round.resource_version, list.resource_version);
        let want = Duration::from_secs(secs.into());
        assert!(
            took >= want - Duration::from_millis(100) && took < want + Duration::from_secs(5),
            "a round of {secs}s took {took:?}"
        );
    }
}

#[test]
fn job_runs_to_completion_and_its_pod_log_is_read() {
    let ns = Ns::new("job");
    let mut c = client_in(&ns);
    c.apply(
        &job("talker", json!({"hooks-test/log": "hello from the job\nline two"})),
        &[("run", "1")],
        Conflicts::Fail,
    )
    .unwrap();
    let key = ObjectKey::new("batch/v1", "Job", Some(&ns), "talker");
    let (done, _) = wait_done(&mut c, &key, 60);
    assert_eq!(done, Completion::Succeeded { message: "Job Completed. succeeded: 1/1".into() });

    let pods = c.hook_pods("Job", Some(&ns), "talker").unwrap();
    assert_eq!(pods.len(), 1, "{pods:?}");
    let pod_name = pods[0]["metadata"]["name"].as_str().unwrap();
    assert_eq!(helm_hooks::kube::pods::container_names(&pods[0]), vec!["main"]);
    let log = c.pod_log(Some(&ns), pod_name, "main").unwrap();
    assert_eq!(log, "hello from the job\nline two\n");
    // A Pod hook's pods: itself.
    assert!(c.hook_pods("Pod", Some(&ns), "no-such-pod").unwrap().is_empty());
    assert!(c.hook_pods("ConfigMap", Some(&ns), "x").unwrap().is_empty());
}

#[test]
fn failed_job_and_failed_pod_say_why() {
    let ns = Ns::new("fail");
    let mut c = client_in(&ns);
    c.apply(&job("broken", json!({"hooks-test/exit-code": "1"})), &[], Conflicts::Fail).unwrap();
    c.apply(&pod("crash", json!({"hooks-test/exit-code": "3"}), &["app", "side"]), &[], Conflicts::Fail).unwrap();
    c.apply(&pod("fine", json!({"hooks-test/log": "a\nb"}), &["app", "side"]), &[], Conflicts::Fail).unwrap();

    let (done, _) = wait_done(&mut c, &ObjectKey::new("batch/v1", "Job", None, "broken"), 60);
    match done {
        Completion::Failed { reason, message } => {
            assert_eq!(reason, "BackoffLimitExceeded");
            assert!(message.starts_with("Job Failed. failed: 1/1 (BackoffLimitExceeded"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let (done, _) = wait_done(&mut c, &ObjectKey::new("v1", "Pod", None, "crash"), 60);
    assert_eq!(
        done,
        Completion::Failed {
            reason: "Error".into(),
            message: "pod crash failed (container app: Error, exit code 3; container side: Error, exit code 3)".into()
        }
    );
    let (done, obj) = wait_done(&mut c, &ObjectKey::new("v1", "Pod", None, "fine"), 60);
    assert_eq!(done, Completion::Succeeded { message: "pod fine succeeded".into() });
    let pods = c.hook_pods("Pod", None, "fine").unwrap();
    assert_eq!(pods.len(), 1);
    assert_eq!(pods[0]["metadata"]["uid"], obj["metadata"]["uid"]);
    for container in ["app", "side"] {
        assert_eq!(c.pod_log(None, "fine", container).unwrap(), "a\nb\n");
    }
}

#[test]
fn several_jobs_are_awaited_together_by_label() {
    let ns = Ns::new("many");
    let mut c = client_in(&ns);
    let mut t = Tracker::new(Some("hooks.helm.sh/batch=b1"));
    for (name, secs) in [("quick", "1s"), ("slow", "30s")] {
        c.apply(&job(name, json!({"hooks-test/duration": secs})), &[("hooks.helm.sh/batch", "b1")], Conflicts::Fail)
            .unwrap();
        c.track(&mut t, &ObjectKey::new("batch/v1", "Job", None, name)).unwrap();
    }
    let before = c.requests();
    let start = now_ms();
    let deadline = start + 60_000;
    let done = c
        .wait_any(&mut t, deadline, &mut now_ms, &mut |k, o| {
            o.last().is_some_and(|o| completion::hook_completion(&k.kind, o).is_some_and(|s| s.is_done()))
        })
        .unwrap();
    assert_eq!(done, vec![ObjectKey::new("batch/v1", "Job", None, "quick")]);
    // One list, then looks for both Jobs together, not one per Job: once per cluster write
    // in the first second (the pace is not known yet, kube::pace; two suites run beside
    // each other in make e2e), then about four a second at most. Never a busy loop.
    let used = c.requests() - before;
    let secs = (now_ms() - start).div_ceil(1_000);
    assert!(used >= 2 && used <= 10 + 10 * secs, "{used} requests in {secs} s");
    // Still tracked: the slow one is running, and goes away when deleted.
    let slow = ObjectKey::new("batch/v1", "Job", None, "slow");
    assert!(completion::job_completion(t.get(&slow).unwrap()) == Completion::InProgress);
    assert!(c.delete(&slow).unwrap());
    let done = c
        .wait_any(&mut t, now_ms() + 30_000, &mut now_ms, &mut |k, o| {
            k.name == "slow" && matches!(o, helm_hooks::kube::Observed::Gone { .. })
        })
        .unwrap();
    assert_eq!(done, vec![slow]);
}

#[test]
fn delete_waits_until_a_running_job_is_gone_and_deadlines_are_kept() {
    let ns = Ns::new("del");
    let mut c = client_in(&ns);
    c.apply(&job("long", json!({"hooks-test/duration": "5m"})), &[], Conflicts::Fail).unwrap();
    let key = ObjectKey::new("batch/v1", "Job", None, "long");
    // A deadline already passed: one look, and the Job is still there.
    assert_eq!(c.wait_deleted(&[(key.clone(), String::new())], 0, &mut now_ms).unwrap(), vec![key.clone()]);
    let left = c.delete_and_wait(std::slice::from_ref(&key), now_ms() + 60_000, &mut now_ms).unwrap();
    assert!(left.is_empty());
    assert!(c.get_opt(&key).unwrap().is_none());
}

/// A delete is awaited by the deleted object's UID: an object made again under the same
/// name (as the ClusterRole aggregation controller re-makes an aggregated ClusterRole the
/// moment it is deleted) is not the one awaited (issue 20).
#[test]
fn delete_waits_for_the_deleted_object_not_its_name() {
    let ns = Ns::new("uid");
    let mut c = client_in(&ns);
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "again"}, "data": {"a": "1"}});
    c.apply(&cm, &[], Conflicts::Fail).unwrap();
    let key = ObjectKey::new("v1", "ConfigMap", None, "again");
    let uid = c.delete_many(std::slice::from_ref(&key)).unwrap().remove(0).expect("it was there");
    assert!(!uid.is_empty(), "the delete's answer names the UID");
    c.apply(&cm, &[], Conflicts::Fail).unwrap();
    let start = now_ms();
    assert_eq!(c.wait_deleted(&[(key.clone(), uid)], start + 20_000, &mut now_ms).unwrap(), vec![]);
    assert!(now_ms() - start < 10_000, "waited {} ms for an object already gone", now_ms() - start);
    // The new one, by name only, is still there.
    assert_eq!(c.wait_deleted(&[(key.clone(), String::new())], 0, &mut now_ms).unwrap(), vec![key]);
}

/// Server-side apply as Helm 4 sends it: a field another manager set since is a conflict
/// (409, the manager named, what to do about it), nothing changed; forced, it is taken
/// over.
#[test]
fn a_field_another_manager_owns_is_a_conflict_unless_forced() {
    let ns = Ns::new("conflict");
    let mut c = client_in(&ns);
    let cm =
        |v: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shared"}, "data": {"v": v}});
    c.apply(&cm("1"), &[], Conflicts::Fail).unwrap();
    let mut edit = kubectl_in(&ns, &["patch", "configmap/shared", "--type=merge", "--field-manager=someone-else"]);
    edit.args(["-p", r#"{"data":{"v":"edited"}}"#]);
    ok(edit);
    let e = c.apply(&cm("2"), &[], Conflicts::Fail).unwrap_err();
    assert!(matches!(&e, KubeError::Conflict { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("someone-else") && text.contains("--force-conflicts"), "{text}");
    let value =
        |c: &mut Client| c.get(&ObjectKey::new("v1", "ConfigMap", None, "shared")).unwrap()["data"]["v"].clone();
    assert_eq!(value(&mut c), "edited");
    c.apply(&cm("2"), &[], Conflicts::Force).unwrap();
    assert_eq!(value(&mut c), "2");
    // A field the kind does not have: server-side apply refuses it outright.
    let unknown = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "typo"}, "dta": {"v": "1"}});
    let e = c.apply(&unknown, &[], Conflicts::Fail).unwrap_err();
    assert!(e.to_string().contains(".dta: field not declared in schema"), "{e}");
}

#[test]
fn rejected_objects_and_missing_permissions_are_named() {
    let ns = Ns::new("errors");
    let mut c = client_in(&ns);
    // 422: the object's own fault.
    let bad = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Not_A_Name"}});
    let e = c.apply(&bad, &[], Conflicts::Fail).unwrap_err();
    assert!(matches!(&e, KubeError::Invalid { resource, .. } if resource == "configmaps"), "{e:?}");
    assert!(e.is_object_fault());
    let bad = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "nojobspec"}});
    let e = c.apply(&bad, &[], Conflicts::Fail).unwrap_err();
    assert!(matches!(&e, KubeError::Invalid { .. }), "{e:?}");
    assert!(
        e.to_string().starts_with(&format!("jobs.batch \"nojobspec\" in namespace \"{}\" is invalid: ", &*ns)),
        "{e}"
    );
    // 403: an identity without rights (impersonated through the proxy's admin).
    let mut weak = client_with(&ns, &[("HELM_KUBEASUSER", &format!("system:serviceaccount:{}:default", &*ns))]);
    let res = weak.resource("v1", "Secret").unwrap();
    let e = weak.list(&res, Some(&ns), &Selector::labels("owner=helm")).unwrap_err();
    match &e {
        KubeError::Forbidden { verb, resource, namespace, message } => {
            assert_eq!((verb.as_str(), resource.as_str(), namespace.as_deref()), ("list", "secrets", Some(&*ns)));
            assert!(message.contains("cannot list resource \"secrets\""), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!e.is_object_fault());
    let e = weak.apply(&job("j", json!({})), &[], Conflicts::Fail).unwrap_err();
    assert!(
        matches!(&e, KubeError::Forbidden { verb, resource, .. } if verb == "patch" && resource == "jobs.batch"),
        "{e:?}"
    );
    let e = weak.pod_log(None, "p", "c").unwrap_err();
    assert!(matches!(&e, KubeError::Forbidden { resource, .. } if resource == "pods/log"), "{e:?}");
}

// ---------------------------------------------------------------------------------------
// Helm's storage, with the real Helm 4 binary.

fn chart() -> String {
    repo().join("testbed/charts/hooks-demo").display().to_string()
}

/// Helm reaching the bed with token + CA (no kubeconfig), its own Helm home, and the
/// storage driver asked for.
fn helm(home: &HelmHome, ns: &str, driver: Driver, args: &[&str]) -> Command {
    let mut c = home.by_token(ns, args);
    c.env("HELM_DRIVER", if driver == Driver::ConfigMap { "configmap" } else { "secret" });
    c
}

fn kubectl_json(ns: &str, what: &str) -> Value {
    parse_json(&ok(kubectl_in(ns, &["get", what, "-o", "json"])), &format!("kubectl get {what}"))
}

/// Installs hooks-demo (pre-install Job of 1 s) and upgrades it once (revision 2), reads
/// the latest revision, records a run of its test hooks, writes it back, and checks what
/// Helm makes of it.
fn storage_round_trip(driver: Driver) {
    let label = if driver == Driver::Secret { "store-secret" } else { "store-cm" };
    let ns = Ns::new(label);
    let home = HelmHome::new(label);
    let set = ["--set", "preInstall.duration=1s"];
    ok(helm(&home, &ns, driver, &[&["install", "demo", &chart()][..], &set].concat()));
    ok(helm(&home, &ns, driver, &[&["upgrade", "demo", &chart()][..], &set].concat()));

    let mut c = client_in(&ns);
    // The other driver finds nothing, and says how to switch.
    let other = if driver == Driver::Secret { Driver::ConfigMap } else { Driver::Secret };
    let e = storage::read_latest(&mut c, other, "demo").unwrap_err();
    assert!(matches!(e, storage::StorageError::NotFound { .. }), "{e}");

    let mut s = storage::read_latest(&mut c, driver, "demo").unwrap();
    assert_eq!((s.revision, s.namespace.as_str(), s.name.as_str()), (2, &*ns, "demo"));
    assert_eq!(s.release["version"], 2);
    assert_eq!(s.release["info"]["status"], "deployed");
    let before = s.release.clone();
    // What input::parse sees is the release JSON itself.
    let parsed: Value = serde_json::from_slice(&s.json()).unwrap();
    assert_eq!(parsed, before);

    // 2026-01-02T03:04:05.678Z, 4.5 s later.
    let (t0, t1) = (1_767_323_045_678u64, 1_767_323_050_178u64);
    let ok_hook = s.find_hook("Pod", "demo-test-ok", "hooks-demo/templates/tests/test-ok.yaml").unwrap();
    let fail_hook = s.find_hook("Job", "demo-test-fail", "").unwrap();
    assert!(
        s.set_last_run(ok_hook, &LastRun { started_at: Some(t0), completed_at: Some(t1), phase: HookPhase::Succeeded })
    );
    assert!(
        s.set_last_run(fail_hook, &LastRun { started_at: Some(t0), completed_at: Some(t1), phase: HookPhase::Failed })
    );
    let saved_at = now_ms() / 1000;
    s.save(&mut c, saved_at).unwrap();
    // A second save (the run records several times) goes through too.
    s.save(&mut c, saved_at).unwrap();
    // And stock Helm reads the rewritten record, in either driver.
    stock_helm_reads_the_records(&ns);

    // The object: same name, type and labels, modifiedAt now.
    let kind = if driver == Driver::Secret { "secret" } else { "configmap" };
    let obj = kubectl_json(&ns, &format!("{kind}/sh.helm.release.v1.demo.v2"));
    let labels = &obj["metadata"]["labels"];
    assert_eq!(labels["modifiedAt"], saved_at.to_string().as_str());
    assert_eq!((labels["owner"].as_str(), labels["name"].as_str()), (Some("helm"), Some("demo")));
    assert_eq!((labels["status"].as_str(), labels["version"].as_str()), (Some("deployed"), Some("2")));
    if driver == Driver::Secret {
        assert_eq!(obj["type"], storage::SECRET_TYPE);
    }

    // Read back: our hook records, everything else unchanged.
    let again = storage::read_latest(&mut c, driver, "demo").unwrap();
    let hook = &again.release["hooks"][ok_hook];
    assert_eq!(
        hook["last_run"],
        json!({"started_at": "2026-01-02T03:04:05.678Z", "completed_at": "2026-01-02T03:04:10.178Z", "phase": "Succeeded"})
    );
    assert_eq!(hook["delete_policies"], json!(["before-hook-creation"]));
    let mut expected = before.clone();
    expected["hooks"][ok_hook] = hook.clone();
    expected["hooks"][fail_hook] = again.release["hooks"][fail_hook].clone();
    assert_eq!(again.release, expected);

    // Helm reads it: status shows the test suite's runs, history both revisions.
    let status = ok(helm(&home, &ns, driver, &["status", "demo"]));
    assert!(status.contains("STATUS: deployed") && status.contains("REVISION: 2"), "{status}");
    for (name, phase) in [("demo-test-ok", "Succeeded"), ("demo-test-fail", "Failed")] {
        let block = format!(
            "TEST SUITE:     {name}\nLast Started:   Fri Jan  2 03:04:05 2026\nLast Completed: Fri Jan  2 03:04:10 2026\nPhase:          {phase}\n"
        );
        assert!(status.contains(&block), "no {block:?} in:\n{status}");
    }
    let history = ok(helm(&home, &ns, driver, &["history", "demo", "-o", "json"]));
    let history: Value = serde_json::from_str(&history).unwrap();
    let revs: Vec<(u64, &str)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["revision"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(revs, vec![(1, "superseded"), (2, "deployed")]);
    let hooks = ok(helm(&home, &ns, driver, &["get", "hooks", "demo"]));
    assert!(hooks.contains("demo-test-ok"), "{hooks}");

    // And Helm writes it again on top of ours: `helm test` runs the hooks for real.
    let out = helm(&home, &ns, driver, &["test", "demo", "--filter", "name=demo-test-ok"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after_test = storage::read_latest(&mut c, driver, "demo").unwrap();
    // (Helm moves the hooks its filter skipped to the front of the list.)
    let i = after_test.find_hook("Pod", "demo-test-ok", "").unwrap();
    let run = &after_test.release["hooks"][i]["last_run"];
    assert_eq!(run["phase"], "Succeeded");
    assert_ne!(run["started_at"], "2026-01-02T03:04:05.678Z");
    // The hook Helm skipped keeps our record.
    let i = after_test.find_hook("Job", "demo-test-fail", "").unwrap();
    assert_eq!(after_test.release["hooks"][i]["last_run"]["phase"], "Failed");
}

#[test]
fn secret_storage_round_trips_through_helm() {
    storage_round_trip(Driver::Secret);
}

#[test]
fn configmap_storage_round_trips_through_helm() {
    storage_round_trip(Driver::ConfigMap);
}
