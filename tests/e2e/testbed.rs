//! End-to-end tests of the test bed itself: the kwok-driven control plane, the pod-annotation
//! contract (docs/testing.md) and the real Helm 4 binary against it.
//!
//! Run against a running bed:
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! cargo test --features e2e --test e2e testbed::
//! ```
//!
//! The tests shell out to `kubectl`, `helm` (`HELM_BIN`, else `$HOOKS_CACHE/bin`, else the
//! per-user cache's `bin`, else `PATH`) and `curl`, through tests/e2e/common; unlike the
//! plugin's suites they install no plugin: they test the bed, not the plugin. Every test
//! works in its own namespace, so they run in parallel.

use crate::common::{bed, kubectl_in, ok, parse_json, repo, run, HelmHome, Namespace};

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------
// The bed (tests/e2e/common): tools and credentials from the environment `make -s
// cluster-env` prints. Each test's namespace is `tb-…`.

/// `kubectl apply -f -` of a manifest in the namespace.
fn apply(ns: &str, yaml: &str) {
    let out = run(kubectl_in(ns, &["apply", "-f", "-"]), Some(yaml));
    assert!(out.code == 0, "{}", out.shown);
}

/// `kubectl wait` for a condition (e.g. `condition=Complete`, `jsonpath={.status.phase}=Failed`).
fn wait_for(ns: &str, what: &str, cond: &str) {
    // `kubectl wait` on a name answers NotFound at once when a controller
    // has not made the object yet (a StatefulSet's pod just after apply).
    eventually(&format!("{what} exists"), || run(kubectl_in(ns, &["get", what, "-o", "name"]), None).code == 0);
    ok(kubectl_in(ns, &["wait", what, &format!("--for={cond}"), "--timeout=90s"]));
}

/// Polls `check` until it holds, for at most 60 s.
fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(60), "timed out waiting until {what}");
        sleep(Duration::from_millis(200));
    }
}

fn jsonpath(ns: &str, what: &str, path: &str) -> String {
    ok(kubectl_in(ns, &["get", what, "-o", &format!("jsonpath={path}")]))
}

/// A request to the API server with the bearer token and SSL_CERT_FILE, as the plugin makes
/// it. Returns the HTTP status and body.
fn api(method: &str, path: &str, content_type: Option<&str>, body: Option<&str>) -> (u16, String) {
    let b = bed();
    let mut c = b.curl(&b.token);
    c.args(["-sS", "--max-time", "60", "-X", method]).args(["-w", "\n%{http_code}"]);
    if let Some(ct) = content_type {
        c.args(["-H", &format!("Content-Type: {ct}")]);
    }
    if body.is_some() {
        c.args(["--data-binary", "@-"]);
    }
    c.arg(format!("{}{}", b.server, path));
    let out = run(c, body);
    assert!(out.code == 0, "{}", out.shown);
    let (body, code) = out.stdout.rsplit_once('\n').unwrap_or(("", &out.stdout));
    (code.trim().parse().unwrap_or_else(|_| panic!("no status code: {}", out.shown)), body.to_string())
}

/// A Job with one container; `annotations` go on its pod template.
fn job(name: &str, annotations: &str) -> String {
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\nspec:\n  backoffLimit: 0\n  template:\n    metadata:\n      annotations: {{{annotations}}}\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: registry.invalid/job:1\n"
    )
}

/// A bare Pod (no owner) with restartPolicy Never, as Helm hook Pods are.
fn bare_pod(name: &str, annotations: &str, containers: &[&str]) -> String {
    let mut s = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{{annotations}}}\nspec:\n  restartPolicy: Never\n  containers:\n"
    );
    for c in containers {
        s.push_str(&format!("  - name: {c}\n    image: registry.invalid/pod:1\n"));
    }
    s
}

// ---------------------------------------------------------------------------------------
// Reaching the API server: token + SSL_CERT_FILE, and kubectl proxy.

#[test]
fn token_and_ssl_cert_file_reach_the_api_server_without_kubeconfig() {
    let b = bed();
    let home = HelmHome::new("tb-tls");
    let helm_list = |cert_file: &str| {
        // The home's clean environment has no KUBECONFIG and no HELM_KUBECAFILE: only the
        // flags and SSL_CERT_FILE reach the API server.
        let mut c = home.command();
        c.args(["list", "--all-namespaces", "--kube-apiserver", &b.server, "--kube-token", &b.token])
            .env("SSL_CERT_FILE", cert_file);
        run(c, None)
    };
    let out = helm_list(&b.cacert);
    assert!(out.code == 0, "Go's TLS with SSL_CERT_FILE must accept the API server: {}", out.shown);
    // Control: without the bed's CA the same call must fail on the certificate.
    let out = helm_list("/dev/null");
    assert!(out.code != 0, "expected a TLS failure: {}", out.shown);
    assert!(out.shown.contains("certificate"), "{}", out.shown);
    // The token is a ServiceAccount's, bound to cluster-admin.
    let (code, body) = api(
        "POST",
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        Some("application/json"),
        Some(r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#),
    );
    assert_eq!(code, 201, "{body}");
    assert!(body.contains("system:serviceaccount:kube-system:hooks-admin"), "{body}");
    let (code, body) = api(
        "POST",
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        Some("application/json"),
        Some(
            r#"{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"*","group":"*","resource":"*"}}}"#,
        ),
    );
    assert_eq!(code, 201, "{body}");
    assert!(body.contains(r#""allowed":true"#), "{body}");
}

#[test]
fn kubectl_proxy_is_a_way_in() {
    let ns = Namespace::new("tb", "proxy");
    let script = repo().join("testbed/cluster.sh");
    let proxy = || {
        let mut c = Command::new(&script);
        c.arg("proxy");
        ok(c).trim().to_string()
    };
    let url = proxy();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    // Asking again reuses the running proxy.
    assert_eq!(proxy(), url);
    let curl = |args: &[&str]| {
        let mut c = Command::new("curl");
        c.args(["-sS", "--fail-with-body", "--max-time", "30", "-A", "helm-hooks-e2e"]).args(args);
        ok(c)
    };
    let created = curl(&[
        "-X",
        "POST",
        "-H",
        "Content-Type: application/json",
        "--data-binary",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"via-proxy"},"data":{"k":"v"}}"#,
        &format!("{url}/api/v1/namespaces/{}/configmaps", &*ns),
    ]);
    assert!(created.contains(r#""name":"via-proxy""#), "{created}");
    assert_eq!(jsonpath(&ns, "configmap/via-proxy", "{.data.k}"), "v");
}

// ---------------------------------------------------------------------------------------
// The pod-annotation contract.

#[test]
fn job_runs_for_the_duration_asked() {
    let ns = Namespace::new("tb", "duration");
    let t0 = Instant::now();
    apply(&ns, &job("slow", r#"hooks-test/duration: "4s""#));
    wait_for(&ns, "job/slow", "condition=Complete");
    let took = t0.elapsed();
    assert!(took >= Duration::from_secs(4), "a 4s Job completed after {took:?}");
    assert!(took < Duration::from_secs(30), "a 4s Job took {took:?}");
    let pod_phase = jsonpath(&ns, "pods", "{.items[*].status.phase}");
    assert_eq!(pod_phase, "Succeeded");
    let exit = jsonpath(&ns, "pods", "{.items[0].status.containerStatuses[0].state.terminated.exitCode}");
    assert_eq!(exit, "0");
}

#[test]
fn job_without_duration_runs_about_a_second() {
    let ns = Namespace::new("tb", "default-duration");
    let t0 = Instant::now();
    apply(&ns, &job("quick", ""));
    wait_for(&ns, "job/quick", "condition=Complete");
    let took = t0.elapsed();
    assert!(took >= Duration::from_secs(1), "the default 1s Job completed after {took:?}");
    assert!(took < Duration::from_secs(15), "the default 1s Job took {took:?}");
}

#[test]
fn job_marked_to_fail_ends_failed() {
    let ns = Namespace::new("tb", "job-fail");
    apply(&ns, &job("broken", r#"hooks-test/exit-code: "3""#));
    wait_for(&ns, "job/broken", "condition=Failed");
    assert_eq!(jsonpath(&ns, "job/broken", "{.status.succeeded}"), "");
    assert_eq!(jsonpath(&ns, "pods", "{.items[*].status.phase}"), "Failed");
    let exit = jsonpath(&ns, "pods", "{.items[0].status.containerStatuses[0].state.terminated.exitCode}");
    assert_eq!(exit, "3");
}

#[test]
fn bare_pods_succeed_and_fail() {
    let ns = Namespace::new("tb", "bare");
    apply(&ns, &bare_pod("good", "", &["main"]));
    apply(&ns, &bare_pod("bad", r#"hooks-test/exit-code: "1", hooks-test/duration: "2s""#, &["main", "sidecar"]));
    wait_for(&ns, "pod/good", "jsonpath={.status.phase}=Succeeded");
    wait_for(&ns, "pod/bad", "jsonpath={.status.phase}=Failed");
    let codes = jsonpath(&ns, "pod/bad", "{.status.containerStatuses[*].state.terminated.exitCode}");
    assert_eq!(codes, "1 1");
    let reason = jsonpath(&ns, "pod/good", "{.status.containerStatuses[0].state.terminated.reason}");
    assert_eq!(reason, "Completed");
}

#[test]
fn long_running_pods_stay_running_and_ready() {
    let ns = Namespace::new("tb", "running");
    apply(
        &ns,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: registry.invalid/web:1\n",
    );
    // restartPolicy Always (the default) on a bare Pod: it runs until deleted, like on a kubelet.
    apply(
        &ns,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: server\nspec:\n  containers:\n  - name: main\n    image: registry.invalid/server:1\n",
    );
    wait_for(&ns, "deployment/web", "condition=Available");
    wait_for(&ns, "pod/server", "condition=Ready");
    // Longer than the default run time of a pod that ends.
    sleep(Duration::from_secs(3));
    assert_eq!(jsonpath(&ns, "deployment/web", "{.status.readyReplicas}"), "2");
    assert_eq!(jsonpath(&ns, "pods", "{.items[*].status.phase}"), "Running Running Running");
}

#[test]
fn pod_log_returns_the_given_lines_for_every_container() {
    let ns = Namespace::new("tb", "logs");
    apply(&ns, &bare_pod("talker", r#"hooks-test/log: "first line\nsecond line""#, &["app", "helper"]));
    apply(&ns, &bare_pod("silent", "", &["app"]));
    apply(&ns, &job("job-talker", r#"hooks-test/log: "from a job""#));
    wait_for(&ns, "pod/talker", "jsonpath={.status.phase}=Succeeded");
    wait_for(&ns, "pod/silent", "jsonpath={.status.phase}=Succeeded");
    wait_for(&ns, "job/job-talker", "condition=Complete");
    for container in ["app", "helper"] {
        let (code, body) =
            api("GET", &format!("/api/v1/namespaces/{}/pods/talker/log?container={container}", &*ns), None, None);
        assert_eq!(code, 200, "{body}");
        assert_eq!(body, "first line\nsecond line\n", "container {container}");
    }
    // Without the annotation the log is empty, not an error.
    let (code, body) = api("GET", &format!("/api/v1/namespaces/{}/pods/silent/log", &*ns), None, None);
    assert_eq!((code, body.as_str()), (200, ""));
    let logs = ok(kubectl_in(&ns, &["logs", "job/job-talker"]));
    assert_eq!(logs, "from a job\n");
}

/// `kubectl logs -f`, cut after `limit`: its stdout, and how long it took if it ended itself.
fn follow(ns: &str, pod: &str, limit: Duration) -> (String, Option<Duration>) {
    let start = Instant::now();
    let mut child = kubectl_in(ns, &["logs", "-f", pod]).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let ended = loop {
        if child.try_wait().unwrap().is_some() {
            break Some(start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break None;
        }
        sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), ended)
}

// A kubelet ends a follow stream once the container has exited; trackers such as Nelm's
// kubedog count a container done only then. kwok needs testbed/kwok-patches/0001 for this.
#[test]
fn pod_log_follow_ends_when_the_container_ends() {
    let ns = Namespace::new("tb", "follow");
    apply(&ns, &bare_pod("done", r#"hooks-test/log: "one\ntwo""#, &["app"]));
    apply(&ns, &bare_pod("slow", r#"hooks-test/log: "slow one", hooks-test/duration: "6s""#, &["app"]));
    wait_for(&ns, "pod/done", "jsonpath={.status.phase}=Succeeded");
    // (Up to a second more: kwok's pod cache is listed on the first log request.)
    let (text, ended) = follow(&ns, "done", Duration::from_secs(10));
    assert_eq!(text, "one\ntwo\n");
    assert!(ended.is_some_and(|d| d < Duration::from_secs(3)), "follow of a finished pod ended after {ended:?}");
    wait_for(&ns, "pod/slow", "jsonpath={.status.phase}=Running");
    let (text, ended) = follow(&ns, "slow", Duration::from_secs(30));
    assert_eq!(text, "slow one\n");
    assert!(ended.is_some(), "follow of a pod that ended never ended");
    // It followed until the container ended, not just to the end of the file.
    assert_eq!(jsonpath(&ns, "pod/slow", "{.status.containerStatuses[0].state.terminated.reason}"), "Completed");
}

// ---------------------------------------------------------------------------------------
// API semantics the plugin relies on.

#[test]
fn server_side_apply_and_foreground_deletion() {
    let ns = Namespace::new("tb", "ssa");
    let cm = format!("/api/v1/namespaces/{}/configmaps/applied?fieldManager=helm&force=true", &*ns);
    let yaml = |v: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  key: {v}\n");
    let (code, body) = api("PATCH", &cm, Some("application/apply-patch+yaml"), Some(&yaml("one")));
    assert_eq!(code, 201, "{body}");
    let (code, body) = api("PATCH", &cm, Some("application/apply-patch+yaml"), Some(&yaml("two")));
    assert_eq!(code, 200, "{body}");
    assert!(body.contains(r#""manager":"helm","operation":"Apply""#), "{body}");
    assert_eq!(jsonpath(&ns, "configmap/applied", "{.data.key}"), "two");

    // A Job whose pod runs long, applied the same way, then deleted with Foreground propagation.
    let job_path = format!("/apis/batch/v1/namespaces/{}/jobs/lasting", &*ns);
    let (code, body) = api(
        "PATCH",
        &format!("{job_path}?fieldManager=helm"),
        Some("application/apply-patch+yaml"),
        Some(&job("lasting", r#"hooks-test/duration: "10m""#)),
    );
    assert_eq!(code, 201, "{body}");
    eventually("the Job's pod runs", || jsonpath(&ns, "pods", "{.items[*].status.phase}") == "Running");
    let (code, body) = api(
        "DELETE",
        &job_path,
        Some("application/json"),
        Some(r#"{"apiVersion":"v1","kind":"DeleteOptions","propagationPolicy":"Foreground"}"#),
    );
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("foregroundDeletion"), "foreground deletion keeps the Job until its pods are gone: {body}");
    eventually("the Job is gone", || api("GET", &job_path, None, None).0 == 404);
    assert_eq!(ok(kubectl_in(&ns, &["get", "pods", "-o", "name"])), "", "pods outlived their Job");
}

#[test]
fn watch_with_timeout_seconds_returns() {
    let ns = Namespace::new("tb", "watch");
    apply(&ns, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n");
    let t0 = Instant::now();
    let (code, body) =
        api("GET", &format!("/api/v1/namespaces/{}/configmaps?watch=1&timeoutSeconds=2", &*ns), None, None);
    let took = t0.elapsed();
    assert_eq!(code, 200, "{body}");
    assert!(took >= Duration::from_millis(1900) && took < Duration::from_secs(20), "the watch returned after {took:?}");
    assert!(body.contains(r#""type":"ADDED""#) && body.contains(r#""name":"watched""#), "{body}");
}

// ---------------------------------------------------------------------------------------
// The real Helm 4 binary with the test chart (testbed/charts/hooks-demo).

fn chart() -> String {
    repo().join("testbed/charts/hooks-demo").display().to_string()
}

// Helm reaches the bed the way the plugin does (token + CA, no kubeconfig), from a Helm
// home of its own: `HelmHome::by_token` (tests/e2e/common).

#[test]
fn helm_install_waits_for_the_pre_install_hook() {
    assert!(std::path::Path::new(&chart()).is_dir(), "the test chart is missing");
    let ns = Namespace::new("tb", "helm-install");
    let home = HelmHome::new("tb-helm-install");
    let t0 = Instant::now();
    ok(home
        .by_token(&ns, &["install", "demo", &chart(), "--wait", "--timeout", "2m", "--set", "preInstall.duration=4s"]));
    let took = t0.elapsed();
    assert!(took >= Duration::from_secs(4), "helm install returned after {took:?}, before its 4s hook could end");
    assert_eq!(jsonpath(&ns, "job/demo-pre-install", "{.status.conditions[?(@.type==\"Complete\")].status}"), "True");
    // The release's resources came after the hook.
    let hook_done = jsonpath(&ns, "job/demo-pre-install", "{.status.completionTime}");
    let deployed = jsonpath(&ns, "deployment/demo-web", "{.metadata.creationTimestamp}");
    assert!(deployed >= hook_done, "Deployment created at {deployed}, hook completed at {hook_done}");
    // --wait waited for the Deployment too: its kwok pod is Ready.
    assert_eq!(jsonpath(&ns, "deployment/demo-web", "{.status.readyReplicas}"), "1");
    let status = ok(home.by_token(&ns, &["status", "demo"]));
    assert!(status.contains("STATUS: deployed"), "{status}");
}

#[test]
fn helm_install_fails_when_the_pre_install_hook_fails() {
    let ns = Namespace::new("tb", "helm-hook-fail");
    let home = HelmHome::new("tb-helm-hook-fail");
    let out = run(
        home.by_token(
            &ns,
            &["install", "demo", &chart(), "--wait", "--timeout", "2m", "--set", "preInstall.exitCode=2"],
        ),
        None,
    );
    assert!(out.code != 0, "{}", out.shown);
    assert!(out.shown.contains("pre-install"), "{}", out.shown);
    assert_eq!(ok(kubectl_in(&ns, &["get", "deployments", "-o", "name"])), "", "no resources after a failed hook");
}

#[test]
fn helm_test_passes_and_fails_as_marked() {
    let ns = Namespace::new("tb", "helm-test");
    let home = HelmHome::new("tb-helm-test");
    // Release "mixed": test-ok passes, test-fail fails (exit code 1).
    ok(home.by_token(
        &ns,
        &["install", "mixed", &chart(), "--wait", "--timeout", "2m", "--set", "preInstall.duration=1s"],
    ));
    let passed =
        ok(home.by_token(&ns, &["test", "mixed", "--filter", "name=mixed-test-ok", "--logs", "--timeout", "2m"]));
    assert!(passed.contains("mixed-test-ok") && passed.contains("Succeeded"), "{passed}");
    assert!(passed.contains("test-ok says hello\nsecond line"), "helm test --logs shows the pod's log: {passed}");
    let out = run(home.by_token(&ns, &["test", "mixed", "--timeout", "2m"]), None);
    assert!(out.code != 0, "helm test must fail when a test hook fails: {}", out.shown);
    assert!(out.shown.contains("mixed-test-fail"), "{}", out.shown);
    assert_eq!(jsonpath(&ns, "job/mixed-test-fail", "{.status.conditions[?(@.type==\"Failed\")].status}"), "True");

    // Release "green": the same chart with the failing test marked to pass.
    ok(home.by_token(
        &ns,
        &[
            "install",
            "green",
            &chart(),
            "--wait",
            "--timeout",
            "2m",
            "--set",
            "preInstall.duration=1s",
            "--set",
            "tests.failExitCode=0",
        ],
    ));
    let passed = ok(home.by_token(&ns, &["test", "green", "--timeout", "2m"]));
    assert_eq!(passed.matches("Phase:          Succeeded").count(), 2, "{passed}");
}

// ---------------------------------------------------------------------------------------
// The real node (testbed/realnode.sh): a kubelet with containerd beside the kwok node.

/// A Pod manifest for the real node: its selector and toleration, busybox, `command`.
fn real_pod(name: &str, image: &str, command: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  restartPolicy: Never\n  \
         nodeSelector: {{hooks-test/real-node: \"true\"}}\n  \
         tolerations: [{{key: hooks-test/real-node, operator: Equal, value: \"true\", effect: NoExecute}}]\n  \
         containers:\n  - {{name: main, image: \"{image}\", command: [sh, -c, {command:?}]}}\n"
    )
}

/// The three kwok nodes and the real one are Ready; the real one carries the label and the
/// NoExecute taint that keep every pod that does not ask for it on kwok. The kwok nodes
/// report what a cloud node reports (testbed/testdata/node.yaml): ephemeral-storage,
/// hugepages and pods allocatable, and a zone each.
#[test]
fn the_kwok_nodes_and_the_real_node_are_ready() {
    let nodes = ok(kubectl_in("default", &["get", "nodes", "-o", "name"]));
    let mut zones = std::collections::BTreeSet::new();
    for node in KWOK_NODES.iter().chain(&["localhost"]) {
        assert!(nodes.contains(&format!("node/{node}")), "{node} is missing: {nodes}");
        let ready = ok(kubectl_in(
            "default",
            &["get", "node", node, "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}"],
        ));
        assert_eq!(ready, "True", "node {node} is not Ready");
    }
    for node in KWOK_NODES {
        let status = parse_json(&ok(kubectl_in("default", &["get", "node", node, "-o", "json"])), node);
        let allocatable = &status["status"]["allocatable"];
        for resource in ["cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "hugepages-1Gi", "pods"] {
            assert!(allocatable[resource].is_string(), "{node} reports no allocatable {resource}: {allocatable}");
        }
        assert_eq!(allocatable["pods"], "250", "{node}");
        let labels = &status["metadata"]["labels"];
        for label in ["kubernetes.io/os", "kubernetes.io/arch", "kubernetes.io/hostname", "topology.kubernetes.io/zone"]
        {
            assert!(labels[label].is_string(), "{node} has no label {label}: {labels}");
        }
        zones.insert(labels["topology.kubernetes.io/zone"].as_str().unwrap().to_string());
    }
    assert_eq!(zones.len(), 3, "the kwok nodes share zones: {zones:?}");
    let taints = ok(kubectl_in("default", &["get", "node", "localhost", "-o", "jsonpath={.spec.taints}"]));
    assert!(taints.contains("hooks-test/real-node") && taints.contains("NoExecute"), "{taints}");
    let labels = ok(kubectl_in("default", &["get", "node", "localhost", "-o", "jsonpath={.metadata.labels}"]));
    assert!(labels.contains(r#""hooks-test/real-node":"true""#), "{labels}");
    // kwok manages its own node only: the real node's kubelet port is its own.
    let port = ok(kubectl_in(
        "default",
        &["get", "node", "localhost", "-o", "jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}"],
    ));
    let kwok = ok(kubectl_in(
        "default",
        &["get", "node", KWOK_NODES[0], "-o", "jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}"],
    ));
    assert!(!port.is_empty() && !kwok.is_empty(), "ports: real {port:?}, kwok {kwok:?}");
    assert_ne!(port, kwok, "kwok took the real node over");
}

/// A pod on the real node runs for real: its log is what the container printed, its exit
/// code is the container's, and `busybox` (no tag) is pulled from the bed's registry.
#[test]
fn a_real_pod_prints_and_exits_for_real() {
    let ns = Namespace::new("tb", "real");
    apply(&ns, &real_pod("ok", "busybox", "echo hello from $(hostname); uname -s"));
    apply(&ns, &real_pod("bad", "busybox:1.36", "echo failing; exit 7"));
    wait_for(&ns, "pod/ok", "jsonpath={.status.phase}=Succeeded");
    wait_for(&ns, "pod/bad", "jsonpath={.status.phase}=Failed");
    assert_eq!(jsonpath(&ns, "pod/ok", "{.spec.nodeName}"), "localhost");
    assert_eq!(ok(kubectl_in(&ns, &["logs", "ok"])), "hello from ok\nLinux\n");
    assert_eq!(ok(kubectl_in(&ns, &["logs", "bad"])), "failing\n");
    assert_eq!(jsonpath(&ns, "pod/bad", "{.status.containerStatuses[0].state.terminated.exitCode}"), "7");
    // A pod that does not ask for the real node goes to kwok.
    apply(&ns, &bare_pod("kwoked", "", &["main"]));
    eventually("kwoked scheduled", || !jsonpath(&ns, "pod/kwoked", "{.spec.nodeName}").is_empty());
    let node = jsonpath(&ns, "pod/kwoked", "{.spec.nodeName}");
    assert!(KWOK_NODES.contains(&node.as_str()), "kwoked is on {node}");
}

/// A tag the registry lacks, and an image of another registry host, are real pull errors
/// answered by the bed's registry: nothing is fetched from outside.
#[test]
fn images_the_registry_lacks_are_real_pull_errors() {
    let ns = Namespace::new("tb", "pull");
    apply(&ns, &real_pod("nosuch", "busybox:no-such-tag", "true"));
    apply(&ns, &real_pod("elsewhere", "quay.io/prometheus/node-exporter:v1.0.0", "true"));
    let log = repo_cache().join("realnode/registry/registry.log");
    for (pod, path) in [
        ("nosuch", "/v2/library/busybox/manifests/no-such-tag"),
        ("elsewhere", "/v2/prometheus/node-exporter/manifests/v1.0.0"),
    ] {
        eventually(&format!("a pull error of {pod}"), || {
            let reason = jsonpath(&ns, &format!("pod/{pod}"), "{.status.containerStatuses[0].state.waiting.reason}");
            reason == "ErrImagePull" || reason == "ImagePullBackOff"
        });
        let asked = std::fs::read_to_string(&log).unwrap_or_default();
        assert!(asked.contains(path), "the bed's registry was not asked for {path}:\n{asked}");
    }
}

// ---------------------------------------------------------------------------------------
// Volumes (testbed/provisioner, the default StorageClass `standard`): claims bind on both
// nodes, to a folder of the bed that the real node's kubelet mounts for real.

/// Where the provisioner keeps one folder per volume: the bed's own folder, which
/// `cluster.sh down` removes.
fn volumes_dir() -> std::path::PathBuf {
    repo_cache().join("kwok/clusters/hooks/bed/volumes")
}

/// The PersistentVolume bound to claim `claim`: its name, and (node, host path) from its
/// node affinity and hostPath, after checking that the bed's provisioner made it.
fn bound_volume(ns: &str, claim: &str) -> (String, String, std::path::PathBuf) {
    wait_for(ns, &format!("pvc/{claim}"), "jsonpath={.status.phase}=Bound");
    assert_eq!(jsonpath(ns, &format!("pvc/{claim}"), "{.spec.storageClassName}"), "standard", "not the default class");
    let pv = jsonpath(ns, &format!("pvc/{claim}"), "{.spec.volumeName}");
    let get = |path: &str| ok(kubectl_in(ns, &["get", "pv", &pv, "-o", &format!("jsonpath={path}")]));
    assert_eq!(get("{.metadata.annotations.pv\\.kubernetes\\.io/provisioned-by}"), "hooks-test/local-volume");
    assert_eq!(get("{.spec.persistentVolumeReclaimPolicy}"), "Delete");
    let node = get("{.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]}");
    let path = std::path::PathBuf::from(get("{.spec.hostPath.path}"));
    assert_eq!(path, volumes_dir().join(&pv), "the volume's folder is not the bed's");
    assert!(path.is_dir(), "{} is not a folder", path.display());
    (pv, node, path)
}

/// A StatefulSet of one busybox on the real node whose container keeps a first word in its
/// volume (`word` when the file is new) and prints the file.
fn keeper(word: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: keeper}}\nspec:\n  serviceName: keeper\n  replicas: 1\n  \
         selector: {{matchLabels: {{app: keeper}}}}\n  template:\n    metadata: {{labels: {{app: keeper}}}}\n    spec:\n      \
         terminationGracePeriodSeconds: 0\n      nodeSelector: {{hooks-test/real-node: \"true\"}}\n      \
         tolerations: [{{key: hooks-test/real-node, operator: Equal, value: \"true\", effect: NoExecute}}]\n      \
         containers:\n      - name: main\n        image: busybox:1.36\n        \
         command: [sh, -c, '[ -f /data/word ] || echo \"$0\" >/data/word; cat /data/word; exec sleep 3600', {word}]\n        \
         volumeMounts: [{{name: data, mountPath: /data}}]\n  \
         volumeClaimTemplates:\n  - metadata: {{name: data}}\n    spec:\n      accessModes: [ReadWriteOnce]\n      \
         resources: {{requests: {{storage: 10Mi}}}}\n"
    )
}

/// A StatefulSet's claim on the real node is a real folder of the machine: what its pod
/// wrote is there after the StatefulSet is deleted and made again (the claim outlives it,
/// as on a cloud cluster), and the folder and the volume go with the claim.
#[test]
fn a_statefulset_on_the_real_node_reads_back_what_it_wrote_after_re_creation() {
    let ns = Namespace::new("tb", "volume");
    let start = Instant::now();
    apply(&ns, &keeper("first"));
    wait_for(&ns, "pod/keeper-0", "condition=Ready");
    let (pv, node, path) = bound_volume(&ns, "data-keeper-0");
    eprintln!("claim bound and pod ready on the real node in {:.1?}", start.elapsed());
    assert_eq!(node, "localhost", "the volume is not pinned to the node of its pod");
    assert_eq!(jsonpath(&ns, "pod/keeper-0", "{.spec.nodeName}"), "localhost");
    assert_eq!(ok(kubectl_in(&ns, &["logs", "keeper-0"])), "first\n");
    // Written by the container, on the machine's disk: the kubelet mounted the folder.
    assert_eq!(std::fs::read_to_string(path.join("word")).unwrap_or_default(), "first\n");

    ok(kubectl_in(&ns, &["delete", "statefulset", "keeper", "--wait=true"]));
    eventually("keeper-0 gone", || jsonpath(&ns, "pods", "{.items[*].metadata.name}").is_empty());
    apply(&ns, &keeper("second"));
    wait_for(&ns, "pod/keeper-0", "condition=Ready");
    assert_eq!(ok(kubectl_in(&ns, &["logs", "keeper-0"])), "first\n", "the new pod did not find the old file");
    assert_eq!(bound_volume(&ns, "data-keeper-0").0, pv, "the claim was bound anew");

    // The claim deleted: the volume is Released, and the provisioner deletes its folder and it.
    ok(kubectl_in(&ns, &["delete", "statefulset", "keeper", "--wait=true"]));
    ok(kubectl_in(&ns, &["delete", "pvc", "data-keeper-0", "--wait=true", "--timeout=60s"]));
    eventually("the released volume and its folder gone", || {
        !path.exists() && ok(kubectl_in(&ns, &["get", "pv", &pv, "--ignore-not-found", "-o", "name"])).is_empty()
    });
}

/// A claim that names no class gets the default one and binds on a kwok node, where
/// nothing is mounted: the Deployment that uses it becomes Available.
#[test]
fn a_claim_on_the_kwok_node_binds_and_its_deployment_becomes_ready() {
    let ns = Namespace::new("tb", "claim");
    let start = Instant::now();
    apply(
        &ns,
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  accessModes: [ReadWriteOnce]\n  \
         resources: {requests: {storage: 1Gi}}\n---\n\
         apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  replicas: 1\n  \
         selector: {matchLabels: {app: app}}\n  template:\n    metadata: {labels: {app: app}}\n    spec:\n      \
         containers:\n      - name: main\n        image: registry.invalid/app:1\n        \
         volumeMounts: [{name: data, mountPath: /data}]\n      \
         volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n",
    );
    wait_for(&ns, "deployment/app", "condition=Available");
    let (_, node, _) = bound_volume(&ns, "data");
    eprintln!("claim bound and deployment available on kwok in {:.1?}", start.elapsed());
    assert!(KWOK_NODES.contains(&node.as_str()), "the volume is pinned to {node}");
    assert_eq!(jsonpath(&ns, "pods", "{.items[*].spec.nodeName}"), node);
    assert_eq!(jsonpath(&ns, "pvc/data", "{.status.capacity.storage}"), "1Gi");
}

/// The bed's kwok nodes (testbed/testdata/node.yaml).
const KWOK_NODES: [&str; 3] = ["kwok-node-0", "kwok-node-1", "kwok-node-2"];

/// The test bed's cache folder (`HOOKS_CACHE`, else `~/.cache/helm-hooks`).
fn repo_cache() -> std::path::PathBuf {
    crate::common::hooks_cache()
}
