//! End to end under network faults: the real Helm 4 with the plugin installed by `helm
//! plugin install` talks to the bed's real API server through Toxiproxy (built by
//! testbed/build.sh, one server per test on its own loopback port), which adds latency,
//! throttles bandwidth or cuts connections in the middle of the work. What must hold
//! (issue 13): a run or deploy either finishes correctly or stops with a message, the
//! stored release is never corrupted or lost, and the documented recovery works.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! make dist/hooks
//! HOOKS_PLUGIN_DIR=$PWD/dist/hooks HELM_BIN=$HOOKS_CACHE/bin/helm \
//!   cargo test --features e2e --test e2e faults::
//! ```
//!
//! Only the plugin goes through the proxy: stock Helm (install, status, history) and
//! kubectl talk to the bed directly, so they see what is really stored.

use crate::common::*;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const RELEASE: &str = "r";

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One toxiproxy-server with one proxy in front of the bed's API server.
struct Toxiproxy {
    server: Child,
    api: String,
    /// `https://127.0.0.1:PORT`: the API server through the proxy.
    pub url: String,
}

impl Toxiproxy {
    fn start() -> Toxiproxy {
        let bin = PathBuf::from(std::env::var("HOOKS_CACHE").expect("HOOKS_CACHE is set by the bed's env"))
            .join("bin/toxiproxy-server");
        assert!(bin.is_file(), "{} is missing: run testbed/build.sh toxiproxy", bin.display());
        let port = free_port();
        let server = Command::new(bin)
            .args(["-host", "127.0.0.1", "-port", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let api = format!("http://127.0.0.1:{port}");
        let t0 = Instant::now();
        while run(curl(&["-sf", &format!("{api}/version")]), None).code != 0 {
            assert!(t0.elapsed() < Duration::from_secs(20), "toxiproxy-server did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let upstream = bed().server.trim_start_matches("https://").to_string();
        let listen = format!("127.0.0.1:{}", free_port());
        let mut t = Toxiproxy { server, api, url: format!("https://{listen}") };
        t.post("/proxies", &json!({"name": "api", "listen": listen, "upstream": upstream, "enabled": true}));
        t
    }

    fn post(&mut self, path: &str, body: &Value) -> Value {
        let out = run(
            curl(&[
                "-sf",
                "-X",
                "POST",
                "-H",
                "Content-Type: application/json",
                "-d",
                &body.to_string(),
                &format!("{}{path}", self.api),
            ]),
            None,
        );
        assert_eq!(out.code, 0, "toxiproxy POST {path}: {}", out.shown);
        serde_json::from_str(&out.stdout).unwrap_or(Value::Null)
    }

    /// Adds a toxic to the proxy (`stream`: upstream or downstream).
    fn toxic(&mut self, name: &str, kind: &str, stream: &str, attributes: Value) {
        self.post(
            "/proxies/api/toxics",
            &json!({"name": name, "type": kind, "stream": stream, "toxicity": 1.0, "attributes": attributes}),
        );
    }

    fn remove(&mut self, name: &str) {
        let out = run(curl(&["-sf", "-X", "DELETE", &format!("{}/proxies/api/toxics/{name}", self.api)]), None);
        assert_eq!(out.code, 0, "{}", out.shown);
    }
}

impl Drop for Toxiproxy {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

fn curl(args: &[&str]) -> Command {
    let mut c = Command::new("curl");
    c.args(args);
    c
}

/// The tests that restart the bed's API server take this exclusively; the others hold it
/// shared, so none of them sees that restart (test binaries run one at a time).
static BED_LOCK: RwLock<()> = RwLock::new(());

enum Hold {
    Shared(#[allow(dead_code)] RwLockReadGuard<'static, ()>),
    Exclusive(#[allow(dead_code)] RwLockWriteGuard<'static, ()>),
}

/// A namespace of its own; the first case of a test holds the test's share of the bed.
struct Case(Space, #[allow(dead_code)] Option<Hold>);

impl std::ops::Deref for Case {
    type Target = Space;
    fn deref(&self) -> &Space {
        &self.0
    }
}

impl Case {
    fn new(label: &str) -> Case {
        let hold = Hold::Shared(BED_LOCK.read().unwrap_or_else(|e| e.into_inner()));
        Case(Space::new("faults", label), Some(hold))
    }

    /// A case no other test of this file runs beside.
    fn exclusive(label: &str) -> Case {
        let hold = Hold::Exclusive(BED_LOCK.write().unwrap_or_else(|e| e.into_inner()));
        Case(Space::new("faults", label), Some(hold))
    }

    /// A second case of the same test, under the first's hold (taking the lock again
    /// while a restart test waits for it would deadlock).
    fn also(&self, label: &str) -> Case {
        Case(Space::new("faults", label), None)
    }

    fn values_file(&self, name: &str, values: &Value) -> String {
        let f = self.tmp.0.join(name);
        std::fs::write(&f, values.to_string()).unwrap();
        f.to_str().unwrap().to_string()
    }

    /// `helm hooks ARGS -n NS` through `url` (the proxy), with the bed's token.
    fn plugin_via(&self, url: &str, args: &[&str], stdin: Option<&str>) -> Out {
        let mut c = self.helm_cmd();
        c.args(["--kube-apiserver", url, "--kube-token", &bed().token, "hooks"]).args(args).args(["-n", &self.ns]);
        run(c, stdin)
    }

    /// Stock `helm install` of the run-hooks chart with `n` parallel test Jobs of `secs`.
    fn install_hooks(&self, n: usize, secs: &str) {
        self.install_values(&hooks_values(n, secs));
    }

    fn install_values(&self, values: &Value) {
        let file = self.values_file("hooks.json", values);
        let chart = repo().join("testdata/charts/run-hooks");
        let out = self.helm(&["install", RELEASE, chart.to_str().unwrap(), "-f", &file]);
        assert_eq!(out.code, 0, "{}", out.shown);
    }

    /// Waits (at most a minute) until `kind/name` exists.
    fn wait_for(&self, what: &str) {
        let t0 = Instant::now();
        while run(self.kubectl(&["get", what, "-o", "name"]), None).code != 0 {
            assert!(t0.elapsed() < Duration::from_secs(60), "{what} never appeared");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn render(&self, chart: &str, values: &Value) -> String {
        let file = self.values_file("values.json", values);
        let chart = repo().join(chart);
        let out = self.helm(&[
            "upgrade",
            "--install",
            RELEASE,
            chart.to_str().unwrap(),
            "-f",
            &file,
            "--dry-run=server",
            "-o",
            "json",
        ]);
        assert_eq!(out.code, 0, "{}", out.shown);
        out.stdout
    }

    /// How an upgrade (revision 2) that lost its API server for seconds must end: the
    /// host-functions build gets the refused connections as values and repeats them until
    /// the server is back, so the upgrade finishes; the stock build is stopped, the
    /// release stays `pending-upgrade` (as Helm's upgrade leaves the revision replaced
    /// `deployed` until the new one is), `helm hooks rollback` recovers it, and a deploy
    /// of `rendered` works again.
    fn upgrade_survived_or_recovers(&self, url: &str, out: &Out, what: &str, rendered: &str) {
        let s = |v: &[(u64, &str)]| v.iter().map(|(r, s)| (*r, s.to_string())).collect::<Vec<_>>();
        if host_functions() {
            assert_eq!(out.code, 0, "{}", out.shown);
            assert!(out.stdout.contains("repeated after"), "{}", out.shown);
            assert_eq!(self.history(), s(&[(1, "superseded"), (2, "deployed")]));
            return;
        }
        assert_ne!(out.code, 0, "the upgrade went through {what}: {}", out.shown);
        eprintln!("what {what} mid-upgrade prints:\n{}", out.stderr);
        assert_eq!(self.history(), s(&[(1, "deployed"), (2, "pending-upgrade")]));
        let back = self.plugin_via(url, &["rollback", RELEASE], None);
        assert_eq!(back.code, 0, "{}", back.shown);
        assert_eq!(self.history(), s(&[(1, "superseded"), (2, "pending-upgrade"), (3, "deployed")]));
        let again = self.plugin_via(url, &["deploy", "-"], Some(rendered));
        assert_eq!(again.code, 0, "{}", again.shown);
    }

    /// (revision, status) of every stored revision, read by stock Helm directly.
    fn history(&self) -> Vec<(u64, String)> {
        let out = self.helm(&["history", RELEASE, "-o", "json"]);
        assert_eq!(out.code, 0, "{}", out.shown);
        parse_json(&out.stdout, "helm history")
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h["revision"].as_u64().unwrap(), h["status"].as_str().unwrap().to_string()))
            .collect()
    }
}

fn hooks_values(n: usize, secs: &str) -> Value {
    let hooks: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("t{i}"), "duration": secs, "annotations": {"helm.sh/hook-parallel": "true"}}))
        .collect();
    json!({ "hooks": hooks })
}

/// 200 ms on every response and 64 KB/s: `run` and `deploy` finish correctly, only slower.
#[test]
fn latency_and_low_bandwidth_only_slow_things_down() {
    let case = Case::new("slow");
    case.install_hooks(4, "1s");
    let mut proxy = Toxiproxy::start();
    proxy.toxic("latency", "latency", "downstream", json!({"latency": 200, "jitter": 0}));
    proxy.toxic("bandwidth", "bandwidth", "downstream", json!({"rate": 64}));
    let out = case.plugin_via(&proxy.url, &["run", RELEASE, "--parallel", "4", "-o", "json"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    let report = parse_json(&out.stdout, "run -o json");
    assert!(report["hooks"].as_array().unwrap().iter().all(|h| h["phase"] == "Succeeded"), "{report:#}");
    let requests = report["api_requests"].as_f64().unwrap();
    assert!(
        out.wall >= Duration::from_millis((requests * 200.0) as u64),
        "{requests} requests at 200 ms each took only {:.1?}: the latency was not applied",
        out.wall
    );

    let deploy = case.also("slow-deploy");
    let values = json!({"objects": [
        {"name": "a", "group": "first"},
        {"kind": "Deployment", "name": "web", "group": "second", "after": ["first"]},
    ]});
    let rendered = deploy.render("testdata/charts/sequenced", &values);
    let out = deploy.plugin_via(&proxy.url, &["deploy", "-", "-o", "json"], Some(&rendered));
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(parse_json(&out.stdout, "deploy -o json")["status"], "deployed");
    assert_eq!(deploy.history(), [(1, "deployed".to_string())]);
}

/// Connections reset in the middle of a run (while it watches its hooks): the run stops
/// with a message, the stored release stays readable with the revision it had, and a
/// second run (connections healthy again) succeeds. The host-functions build, which sees
/// the resets, repeats through 3 s of them and finishes the run.
#[test]
fn a_reset_mid_watch_stops_the_run_and_a_rerun_recovers() {
    let case = Case::new("reset-run");
    case.install_hooks(2, "5s");
    let mut proxy = Toxiproxy::start();
    let url = proxy.url.clone();
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| case.plugin_via(&url, &["run", RELEASE, "--parallel", "2"], None));
        case.wait_for("job/t0");
        proxy.toxic("reset", "reset_peer", "downstream", json!({"timeout": 0}));
        if host_functions() {
            // Resets for 3 s, which the host-functions build sees and repeats through.
            std::thread::sleep(Duration::from_secs(3));
            proxy.remove("reset");
            return t.join().unwrap();
        }
        let out = t.join().unwrap();
        proxy.remove("reset");
        out
    });
    if host_functions() {
        assert_eq!(out.code, 0, "{}", out.shown);
        assert!(out.stdout.contains("2 succeeded") && out.stdout.contains("repeated after"), "{}", out.shown);
        return;
    }
    assert_ne!(out.code, 0, "the run succeeded although every connection was reset: {}", out.shown);
    assert!(!out.stderr.trim().is_empty(), "no message: {}", out.shown);
    eprintln!("what a reset mid-run prints:\n{}", out.stderr);
    assert_eq!(case.history(), [(1, "deployed".to_string())]);
    let out = case.plugin_via(&proxy.url, &["run", RELEASE, "--parallel", "2"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
}

/// Connections cut while the deploy writes the release record (its body is ~100 KB: the
/// chart's values carry a large string, and the proxy closes any connection that has
/// sent 20 KB upstream): the deploy stops with a message and nothing half-written is
/// stored — Kubernetes writes a Secret whole or not at all; the next deploy succeeds.
#[test]
fn a_cut_storage_write_stores_nothing_half_and_a_redeploy_recovers() {
    let case = Case::new("cut-storage");
    // Letters from a xorshift generator: gzip cannot shrink them much.
    let mut x: u32 = 2_463_534_242;
    let padding: String = (0..100_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            char::from(b'a' + (x % 26) as u8)
        })
        .collect();
    let values = json!({"padding": padding, "objects": [{"name": "settings"}]});
    let rendered = case.render("testdata/charts/sequenced", &values);
    let mut proxy = Toxiproxy::start();
    proxy.toxic("cut", "limit_data", "upstream", json!({"bytes": 20_000}));
    let out = case.plugin_via(&proxy.url, &["deploy", "-"], Some(&rendered));
    assert_ne!(out.code, 0, "the deploy succeeded through a cut connection: {}", out.shown);
    eprintln!("what a cut storage write prints:\n{}", out.stderr);
    let secrets = ok(case.kubectl(&["get", "secrets", "-l", "owner=helm", "-o", "name"]));
    assert_eq!(secrets.trim(), "", "a release record was stored through the cut connection");
    assert!(run(case.kubectl(&["get", "configmap", "settings"]), None).code != 0, "applied without a record");
    proxy.remove("cut");
    let out = case.plugin_via(&proxy.url, &["deploy", "-"], Some(&rendered));
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(case.history(), [(1, "deployed".to_string())]);
}

/// An API server outage in the middle of an upgrade (the proxy refuses and drops every
/// connection for 3 s, as a restarting API server does, without touching the shared
/// bed): the deploy stops with a message, the release stays `pending-upgrade` and
/// readable, and the documented recovery — `helm hooks rollback` — brings it back to
/// `deployed`, after which a deploy works again. The host-functions build rides the
/// outage out.
#[test]
fn an_outage_mid_upgrade_leaves_it_pending_and_rollback_recovers() {
    let case = Case::new("outage");
    let mut proxy = Toxiproxy::start();
    let url = proxy.url.clone();
    let good = json!({"objects": [{"name": "settings"}]});
    let rendered = case.render("testdata/charts/sequenced", &good);
    let out = case.plugin_via(&url, &["deploy", "-"], Some(&rendered));
    assert_eq!(out.code, 0, "{}", out.shown);
    let slow =
        json!({"objects": [{"name": "settings", "value": "v2"}, {"kind": "Job", "name": "slow", "duration": "20s"}]});
    let slow_rendered = case.render("testdata/charts/sequenced", &slow);
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| case.plugin_via(&url, &["deploy", "-", "--wait-for-jobs"], Some(&slow_rendered)));
        case.wait_for("job/slow");
        proxy.post("/proxies/api", &json!({"enabled": false}));
        std::thread::sleep(Duration::from_secs(3));
        proxy.post("/proxies/api", &json!({"enabled": true}));
        t.join().unwrap()
    });
    case.upgrade_survived_or_recovers(&url, &out, "an outage", &rendered);
}

/// A watch resumed from a resourceVersion the API server has compacted away is answered
/// `410 Gone` (the bed watches PodTemplates from etcd, compacted every 5 s:
/// testbed/testdata/kwokctl.yaml). The deploy waits for an external PodTemplate; the proxy
/// holds the plugin's next watch request while the PodTemplate is created and compacted
/// past, so the event is lost to that watch and only a fresh list can find it. Passing
/// means the plugin relisted: a resumed watch would wait out the time limit, and a 410
/// taken as an error would fail the deploy.
#[test]
fn an_expired_watch_is_resumed_by_a_fresh_list_and_misses_nothing() {
    let case = Case::new("gone");
    let values = json!({"objects": [{"name": "after-gate", "external": ["PodTemplate/gate:exists"]}]});
    let rendered = case.render("testdata/charts/sequenced", &values);
    let mut proxy = Toxiproxy::start();
    let url = proxy.url.clone();
    let gate = json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "gate"},
        "template": {"spec": {"containers": [{"name": "c", "image": "registry.invalid/c:1"}]}}});
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| case.plugin_via(&url, &["deploy", "-", "--readiness-timeout", "90s"], Some(&rendered)));
        // The deploy stores its pending record, then waits for the gate in 1 s watch rounds.
        case.wait_for("secret/sh.helm.release.v1.r.v1");
        std::thread::sleep(Duration::from_secs(2));
        proxy.toxic("hold", "latency", "upstream", json!({"latency": 60_000, "jitter": 0}));
        // The round in flight ends within a second; the next watch request is held.
        std::thread::sleep(Duration::from_millis(1500));
        let created = run(case.kubectl(&["create", "-f", "-", "-o", "json"]), Some(&gate.to_string()));
        assert_eq!(created.code, 0, "{}", created.shown);
        let rv: u64 = parse_json(&created.stdout, "kubectl create")["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        // Until a watch from just before the gate is refused, other writes move etcd on.
        let since =
            format!("/api/v1/namespaces/{}/podtemplates?watch=1&timeoutSeconds=1&resourceVersion={}", case.ns, rv - 1);
        let t0 = Instant::now();
        let mut churn = 0;
        loop {
            churn += 1;
            ok(case.kubectl(&["create", "configmap", &format!("churn-{churn}")]));
            let watched = ok(case.kubectl(&["get", "--raw", &since]));
            if watched.contains("\"code\":410") {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(45), "etcd was never compacted past the gate: {watched}");
            std::thread::sleep(Duration::from_millis(500));
        }
        proxy.remove("hold");
        t.join().unwrap()
    });
    assert_eq!(out.code, 0, "{}", out.shown);
    assert!(out.stdout.contains("found     PodTemplate/gate"), "{}", out.shown);
    assert_eq!(case.history(), [(1, "deployed".to_string())]);
}

/// 503s served by the API server whose group this test registers as an aggregated API
/// with no backend, and removed on drop (with the CRD that later serves the group).
struct Unavailable<'a> {
    case: &'a Case,
    group: String,
}

impl<'a> Unavailable<'a> {
    fn register(case: &'a Case) -> Unavailable<'a> {
        let group = format!("{}.hooks-5xx.example", case.ns);
        let api_service = json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
            "metadata": {"name": format!("v1.{group}")},
            "spec": {"group": group, "version": "v1", "groupPriorityMinimum": 100, "versionPriority": 10,
                "insecureSkipTLSVerify": true, "service": {"namespace": case.ns, "name": "absent"}}});
        let out = run(case.kubectl(&["create", "-f", "-"]), Some(&api_service.to_string()));
        assert_eq!(out.code, 0, "{}", out.shown);
        Unavailable { case, group }
    }

    /// 503s the API server has answered for this group so far (its own count).
    fn answered_503(&self) -> u64 {
        let mut c = self.case.kubectl_cmd();
        c.args(["get", "--raw", "/metrics"]);
        ok(c)
            .lines()
            .filter(|l| l.starts_with("apiserver_request_terminations_total{") && l.contains("code=\"503\""))
            .filter(|l| l.contains(&format!("\"{}\"", self.group)) || l.contains(&format!("/apis/{}", self.group)))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64
    }

    /// The group served for real from now on: a CRD for it, and the APIService made
    /// local, which switches every request from 503 to the CRD in one step.
    fn serve(&self) {
        let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("widgets.{}", self.group)},
            "spec": {"group": self.group, "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}});
        let out = run(self.case.kubectl(&["create", "-f", "-"]), Some(&crd.to_string()));
        assert_eq!(out.code, 0, "{}", out.shown);
        ok(self.case.kubectl(&[
            "wait",
            "--for=condition=Established",
            &format!("crd/widgets.{}", self.group),
            "--timeout=20s",
        ]));
        let local = r#"[{"op":"remove","path":"/spec/service"},{"op":"remove","path":"/spec/insecureSkipTLSVerify"}]"#;
        ok(self.case.kubectl(&["patch", "apiservice", &format!("v1.{}", self.group), "--type=json", "-p", local]));
    }
}

impl Drop for Unavailable<'_> {
    fn drop(&mut self) {
        let mut c = self.case.kubectl_cmd();
        c.args(["delete", "--ignore-not-found", "--wait=false"])
            .arg(format!("crd/widgets.{}", self.group))
            .arg(format!("apiservice/v1.{}", self.group));
        let _ = c.output();
    }
}

/// The API server answering 503 for real: requests to an aggregated API whose backend
/// is gone. The deploy waits for an object of that group; its discovery requests (safe to
/// repeat) are answered 503 and repeated with backoff, and once the group is served (a CRD,
/// the APIService made local) the deploy finds the object and succeeds. A plugin that took
/// the first 503 as final fails at once. The report counts the repeats.
#[test]
fn a_503_on_a_safe_request_is_repeated_until_the_group_is_served() {
    let case = Case::new("unavailable");
    let api = Unavailable::register(&case);
    let values = json!({"objects": [{"name": "after-widget", "external": [format!("Widget.{}/w:exists", api.group)]}]});
    let rendered = case.render("testdata/charts/sequenced", &values);
    let url = bed().server.clone();
    let widget = json!({"apiVersion": format!("{}/v1", api.group), "kind": "Widget", "metadata": {"name": "w"}});
    let before = api.answered_503();
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| {
            case.plugin_via(&url, &["deploy", "-", "-o", "json", "--readiness-timeout", "60s"], Some(&rendered))
        });
        // Two 503s within moments: the deploy's discovery, answered and repeated (a deploy
        // that gives up at the first 503 ends instead, and fails below).
        let t0 = Instant::now();
        while api.answered_503() < before + 2 && !t.is_finished() {
            assert!(t0.elapsed() < Duration::from_secs(30), "no request of the deploy was answered 503");
            std::thread::sleep(Duration::from_millis(100));
        }
        if t.is_finished() {
            return t.join().unwrap();
        }
        api.serve();
        // By path: kubectl's aggregated discovery keeps the group's unavailable entry a
        // while after the switch; the group's own discovery (the plugin's) does not.
        let path = format!("/apis/{}/v1/namespaces/{}/widgets", api.group, case.ns);
        let created = run(case.kubectl(&["create", "--raw", &path, "-f", "-"]), Some(&widget.to_string()));
        assert_eq!(created.code, 0, "{}", created.shown);
        t.join().unwrap()
    });
    assert_eq!(out.code, 0, "{}", out.shown);
    let report = parse_json(&out.stdout, "deploy -o json");
    assert_eq!(report["status"], "deployed", "{report:#}");
    let repeated = report["api_requests_repeated"].as_u64().unwrap();
    assert!(repeated >= 1, "the deploy repeated no request: {report:#}");
    eprintln!("{}: {repeated} requests repeated after 503; took {:.1?}", case.ns, out.wall);
}

/// The bed's control plane (kube-apiserver, kube-controller-manager, kube-scheduler), killed
/// and started again with the same command lines, as when a control-plane node restarts.
/// The controllers restart with it: a scheduler that lived through its API server's crash
/// can find its cache corrupted and exit minutes later (seen on the bed), and a real
/// node's supervisor would restart it. kwok (the node's kubelet) stays up.
struct ControlPlane {
    dir: PathBuf,
}

/// A component's process as kwokctl started it.
struct Component {
    pidfile: PathBuf,
    args: Vec<String>,
    cwd: PathBuf,
    log: PathBuf,
}

const RESTARTED: [&str; 3] = ["kube-apiserver", "kube-controller-manager", "kube-scheduler"];

impl ControlPlane {
    fn of_bed() -> ControlPlane {
        // kwokctl's cluster folder holds the kubeconfig, pids/ and logs/.
        let dir = PathBuf::from(&bed().kubeconfig).parent().unwrap().to_path_buf();
        ControlPlane { dir }
    }

    /// Kills each (SIGKILL: a crash), leaves the cluster without an API server for
    /// `down`, starts the API server and waits until it is ready, then the controllers.
    fn restart(&self, down: Duration) {
        let components: Vec<Component> = RESTARTED.iter().map(|name| self.kill(name)).collect();
        std::thread::sleep(down);
        let t0 = Instant::now();
        start(&components[0]);
        loop {
            let mut c = Command::new(&bed().kubectl);
            c.env("KUBECONFIG", &bed().kubeconfig).args(["--request-timeout=2s", "get", "--raw", "/readyz"]);
            if run(c, None).stdout.trim() == "ok" {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(60), "kube-apiserver did not come back");
            std::thread::sleep(Duration::from_millis(100));
        }
        components[1..].iter().for_each(start);
        eprintln!("control plane restarted: API server down {:.1?} in all", t0.elapsed() + down);
    }

    fn kill(&self, name: &str) -> Component {
        let pidfile = self.dir.join(format!("pids/{name}.pid"));
        let pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_string();
        let proc = PathBuf::from(format!("/proc/{pid}"));
        let args: Vec<String> = std::fs::read(proc.join("cmdline"))
            .unwrap_or_else(|e| panic!("{name} ({pid}) is not running: {e}"))
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        assert!(args[0].ends_with(name), "{pidfile:?} names {args:?}");
        let cwd = std::fs::read_link(proc.join("cwd")).unwrap();
        let mut kill = Command::new("kill");
        kill.args(["-KILL", &pid]);
        let killed = run(kill, None);
        assert_eq!(killed.code, 0, "{}", killed.shown);
        let t0 = Instant::now();
        while proc.exists() && !std::fs::read_to_string(proc.join("stat")).unwrap_or_default().contains(") Z ") {
            assert!(t0.elapsed() < Duration::from_secs(10), "{name} {pid} did not die");
            std::thread::sleep(Duration::from_millis(50));
        }
        Component { pidfile, args, cwd, log: self.dir.join(format!("logs/{name}.log")) }
    }
}

/// Starts `c` by a shell that exits at once, with setsid, as kwokctl starts it: its own
/// session, and init's child rather than this test's.
fn start(c: &Component) {
    let mut sh = Command::new("sh");
    sh.current_dir(&c.cwd)
        .arg("-c")
        .arg(format!("setsid \"$@\" </dev/null >>'{}' 2>&1 & echo $!", c.log.display()))
        .arg("sh")
        .args(&c.args);
    let started = ok(sh);
    std::fs::write(&c.pidfile, started.trim()).unwrap();
}

/// The bed's control plane crashes and is restarted while hooks run. The host-functions
/// build repeats its requests until the server is back and finishes the run; the stock
/// build cannot see a lost connection (Helm's Wasm host aborts the plugin) and stops with
/// a message. Either way the stored release stays readable, and after a stop a second run
/// succeeds.
#[test]
fn the_api_server_restarted_mid_run() {
    let case = Case::exclusive("restart-run");
    let hooks: Vec<Value> = (0..2)
        .map(|i| {
            json!({"name": format!("t{i}"), "kind": "Pod", "duration": "6s",
            "annotations": {"helm.sh/hook-parallel": "true"}})
        })
        .collect();
    case.install_values(&json!({ "hooks": hooks }));
    let url = bed().server.clone();
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| case.plugin_via(&url, &["run", RELEASE, "--parallel", "2"], None));
        case.wait_for("pod/t0");
        ControlPlane::of_bed().restart(Duration::from_secs(1));
        t.join().unwrap()
    });
    assert_eq!(case.history(), [(1, "deployed".to_string())]);
    if host_functions() {
        assert_eq!(out.code, 0, "{}", out.shown);
        assert!(out.stdout.contains("2 succeeded") && out.stdout.contains("repeated after"), "{}", out.shown);
        eprintln!("a run through a restart:\n{}", out.stdout);
    } else {
        assert_ne!(out.code, 0, "{}", out.shown);
        eprintln!("what a restart mid-run prints:\n{}", out.stderr);
        let again = case.plugin_via(&url, &["run", RELEASE, "--parallel", "2"], None);
        assert_eq!(again.code, 0, "{}", again.shown);
    }
}

/// The same during an upgrade, while it waits for an outside object that the test
/// creates after the restart: the host-functions build finishes it; the stock build
/// stops, the release stays `pending-upgrade`, `helm hooks rollback` recovers, and a
/// deploy then works.
#[test]
fn the_api_server_restarted_mid_deploy() {
    let case = Case::exclusive("restart-deploy");
    let url = bed().server.clone();
    let good = case.render("testdata/charts/sequenced", &json!({"objects": [{"name": "settings"}]}));
    let out = case.plugin_via(&url, &["deploy", "-"], Some(&good));
    assert_eq!(out.code, 0, "{}", out.shown);
    let gated = json!({"objects": [{"name": "settings", "value": "v2", "external": ["PodTemplate/gate:exists"]}]});
    let gated = case.render("testdata/charts/sequenced", &gated);
    let gate = json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "gate"},
        "template": {"spec": {"containers": [{"name": "c", "image": "registry.invalid/c:1"}]}}});
    let out = std::thread::scope(|s| {
        let t = s.spawn(|| case.plugin_via(&url, &["deploy", "-", "--readiness-timeout", "90s"], Some(&gated)));
        case.wait_for("secret/sh.helm.release.v1.r.v2");
        std::thread::sleep(Duration::from_secs(1));
        ControlPlane::of_bed().restart(Duration::from_secs(1));
        let created = run(case.kubectl(&["create", "-f", "-"]), Some(&gate.to_string()));
        assert_eq!(created.code, 0, "{}", created.shown);
        t.join().unwrap()
    });
    case.upgrade_survived_or_recovers(&url, &out, "a restart", &good);
}

// ---------------------------------------------------------------------------------------
// Faults of the real node (testbed/realnode.sh): its kubelet or containerd restarted while
// real hook pods run, and Helm itself stopped mid-run.

/// Two real test Pods that print, sleep `secs` and print again.
fn real_suite(case: &Case, secs: u32) -> PathBuf {
    let pod = |i: u32| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: real-{i}\n  annotations: {{\"helm.sh/hook\": test, \"helm.sh/hook-parallel\": \"true\"}}\n\
             spec:\n  {{{{ real }}}}\n  restartPolicy: Never\n  terminationGracePeriodSeconds: 2\n  containers:\n  \
             - {{name: main, image: busybox, command: [sh, -c, \"echo start {i}; sleep {secs}; echo end {i}\"]}}\n"
        )
    };
    let (a, b) = (pod(0), pod(1));
    write_chart(&case.tmp.0, "real-suite", &[("p0.yaml", &a), ("p1.yaml", &b)])
}

/// Waits (at most a minute) until the pod's container runs.
fn wait_running(case: &Case, pod: &str) {
    let t0 = Instant::now();
    loop {
        let phase = run(case.kubectl(&["get", "pod", pod, "-o", "jsonpath={.status.phase}"]), None).stdout;
        if phase == "Running" {
            return;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "{pod} never ran ({phase})");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The real node's kubelet or containerd stopped for two seconds while two real hooks
/// run: their containers go on (their shims outlive both daemons), the run succeeds with
/// both hooks and their logs, as on a real node whose kubelet restarts.
fn a_node_daemon_restarted_mid_run(what: &str) {
    let case = Case::exclusive(&format!("node-{what}"));
    let chart = real_suite(&case, 8);
    let out = case.helm(&["install", RELEASE, chart.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let url = bed().server.clone();
    let out = std::thread::scope(|s| {
        let t =
            s.spawn(|| case.plugin_via(&url, &["run", RELEASE, "--parallel", "2", "--logs", "--timeout", "2m"], None));
        case.wait_for("pod/real-0");
        wait_running(&case, "real-0");
        restart_node_daemon(what, Duration::from_secs(2));
        t.join().unwrap()
    });
    eprintln!("a run through a {what} restart:\n{}", out.stdout);
    assert_eq!(out.code, 0, "{}", out.shown);
    for line in ["start 0", "end 0", "start 1", "end 1"] {
        assert!(out.stdout.contains(line), "{line:?} lost\n{}", out.shown);
    }
}

#[test]
fn the_real_nodes_kubelet_restarted_mid_run() {
    a_node_daemon_restarted_mid_run("kubelet");
}

#[test]
fn the_real_nodes_containerd_restarted_mid_run() {
    a_node_daemon_restarted_mid_run("containerd");
}

/// SIGTERM to Helm while real hooks run: Helm ends, the stored release stays readable,
/// and the next run succeeds (the hooks' old pods are replaced, as Helm replaces them).
#[test]
fn sigterm_to_helm_mid_run_loses_nothing() {
    let case = Case::exclusive("sigterm");
    let chart = real_suite(&case, 6);
    let out = case.helm(&["install", RELEASE, chart.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let mut c = case.helm_cmd();
    c.args(kube_args(&bed().server, &bed().token))
        .args(["hooks", "run", RELEASE, "--parallel", "2", "-n", &case.ns])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    case.wait_for("pod/real-0");
    wait_running(&case, "real-0");
    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let t0 = Instant::now();
    let stopped = child.wait_with_output().unwrap();
    assert!(!stopped.status.success(), "Helm ended by SIGTERM must not say success");
    assert!(t0.elapsed() < Duration::from_secs(10), "Helm took {:.1?} to end after SIGTERM", t0.elapsed());
    eprintln!(
        "what SIGTERM mid-run prints:\n{}{}",
        String::from_utf8_lossy(&stopped.stdout),
        String::from_utf8_lossy(&stopped.stderr)
    );
    assert_eq!(case.history(), [(1, "deployed".to_string())]);
    let again = case.plugin_via(&bed().server, &["run", RELEASE, "--parallel", "2", "--timeout", "2m"], None);
    assert_eq!(again.code, 0, "{}", again.shown);
}
