//! End to end: `helm hooks run` through the real Helm 4 with the plugin installed by
//! `helm plugin install`, on the test bed (docs/testing.md).
//!
//! Every test installs the chart testdata/charts/run-hooks (hooks from its values: Jobs
//! and bare Pods played by kwok, which end after `hooks-test/duration`, fail with
//! `hooks-test/exit-code` and log `hooks-test/log`) with the real `helm install` into its
//! own namespace, runs `helm hooks run` through the real Helm, and checks what happened
//! through the API: a watch on the namespace's Jobs and Pods (curl, started before the
//! run) gives the order of creations, completions and deletions by resourceVersion (one
//! etcd, so one global order), and `kubectl get` what is left.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! cargo build --release --target wasm32-wasip1 --lib
//! cargo test --features e2e --test e2e run::
//! ```
//!
//! Environment: the bed's (`make -s cluster-env`: KUBECONFIG, HELM_KUBEAPISERVER,
//! HELM_KUBETOKEN, SSL_CERT_FILE); `HELM_BIN` (default `$HOOKS_CACHE/bin/helm`, else
//! `~/.cache/helm-hooks/bin/helm`); `HOOKS_PLUGIN_DIR` or the release Wasm build, as in helm.rs
//! (`HOOKS_ALLOW_STALE_WASM=1` skips the staleness check); `E2E_KEEP=1` keeps namespaces
//! and temporary folders. Without the bed the tests fail rather than skip.
//!
//! Through Helm 4's Wasm runtime a failing plugin always makes `helm` exit 1; the
//! plugin's own code ends Helm's message: `Error: plugin error: … [exit code N]`.
//!
//! helm, kubectl and curl are run as processes; their JSON is read with serde_json.

use crate::common::*;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{sleep, JoinHandle};
use std::time::{Duration, Instant};

const RELEASE: &str = "r";

// ---------------------------------------------------------------------------------------
// The chart's values: one entry per hook.

#[derive(Clone)]
struct H {
    name: String,
    kind: &'static str,
    duration: String,
    exit_code: i32,
    log: Option<String>,
    containers: Vec<String>,
    annotations: Vec<(String, String)>,
    event: Option<String>,
    /// A Job's ttlSecondsAfterFinished.
    ttl: Option<u32>,
}

fn job(name: &str) -> H {
    H {
        name: name.into(),
        kind: "Job",
        duration: "1s".into(),
        exit_code: 0,
        log: None,
        containers: vec![],
        annotations: vec![],
        event: None,
        ttl: None,
    }
}

fn pod(name: &str) -> H {
    H { kind: "Pod", ..job(name) }
}

impl H {
    fn secs(mut self, d: &str) -> H {
        self.duration = d.into();
        self
    }
    fn fails(mut self, code: i32) -> H {
        self.exit_code = code;
        self
    }
    fn log(mut self, text: &str) -> H {
        self.log = Some(text.into());
        self
    }
    fn ann(mut self, k: &str, v: &str) -> H {
        self.annotations.push((k.into(), v.into()));
        self
    }
    fn weight(self, w: i32) -> H {
        self.ann("helm.sh/hook-weight", &w.to_string())
    }
    fn parallel(self) -> H {
        self.ann("helm.sh/hook-parallel", "true")
    }
    fn policy(self, p: &str) -> H {
        self.ann("helm.sh/hook-delete-policy", p)
    }
    fn after(self, refs: &str) -> H {
        self.ann("helm.sh/depends-on", refs)
    }
    /// helm.sh/hook (default test).
    fn on(mut self, events: &str) -> H {
        self.event = Some(events.into());
        self
    }
    fn ttl(mut self, secs: u32) -> H {
        self.ttl = Some(secs);
        self
    }
    fn containers(mut self, names: &[&str]) -> H {
        self.containers = names.iter().map(|s| s.to_string()).collect();
        self
    }
}

fn q(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The chart's values as JSON (which is YAML).
fn values(prefix: &str, hooks: &[H]) -> String {
    let items: Vec<String> = hooks
        .iter()
        .map(|h| {
            let ann: Vec<String> = h.annotations.iter().map(|(k, v)| format!("{}: {}", q(k), q(v))).collect();
            let mut s = format!(
                "{{\"name\": {}, \"kind\": {}, \"duration\": {}, \"exitCode\": {}, \"annotations\": {{{}}}",
                q(&h.name),
                q(h.kind),
                q(&h.duration),
                h.exit_code,
                ann.join(", ")
            );
            if let Some(e) = &h.event {
                s.push_str(&format!(", \"event\": {}", q(e)));
            }
            if let Some(l) = &h.log {
                s.push_str(&format!(", \"log\": {}", q(l)));
            }
            if let Some(t) = h.ttl {
                s.push_str(&format!(", \"ttl\": {t}"));
            }
            if !h.containers.is_empty() {
                let cs: Vec<String> = h.containers.iter().map(|c| q(c)).collect();
                s.push_str(&format!(", \"containers\": [{}]", cs.join(", ")));
            }
            s + "}"
        })
        .collect();
    format!("{{\"prefix\": {}, \"hooks\": [\n  {}\n]}}\n", q(prefix), items.join(",\n  "))
}

// ---------------------------------------------------------------------------------------
// A test case: its namespace, its Helm home with the plugin installed.

struct Case {
    space: Space,
}

impl std::ops::Deref for Case {
    type Target = Space;
    fn deref(&self) -> &Space {
        &self.space
    }
}

impl Case {
    fn new(label: &str) -> Case {
        Case { space: Space::new("run", label) }
    }

    fn get_json(&self, what: &str) -> J {
        let text = ok(self.kubectl(&["get", what, "-o", "json"]));
        serde_json::from_str::<J>(&text).unwrap_or_else(|e| panic!("kubectl get {what}: {e}"))
    }

    /// Names of the hook objects in the namespace: Jobs and Pods no Job owns.
    fn hook_objects(&self) -> Vec<String> {
        let list = self.get_json("jobs,pods");
        let mut names: Vec<String> = list
            .key("items")
            .arr()
            .iter()
            .filter(|o| !owned_by_job(o))
            .map(|o| format!("{}/{}", o.key("kind").s(), o.at("metadata/name").s()))
            .collect();
        names.sort();
        names
    }

    fn install_as(&self, release: &str, prefix: &str, hooks: &[H]) {
        let out = self.helm_chart("install", release, prefix, hooks, &[]);
        assert_eq!(out.code, 0, "{}", out.shown);
    }

    /// `helm install|upgrade RELEASE run-hooks -f VALUES EXTRA...`.
    fn helm_chart(&self, verb: &str, release: &str, prefix: &str, hooks: &[H], extra: &[&str]) -> Out {
        let file = self.tmp.0.join(format!("values-{release}.json"));
        std::fs::write(&file, values(prefix, hooks)).unwrap();
        let chart = repo().join("testdata/charts/run-hooks");
        let mut args = vec![verb, release, chart.to_str().unwrap(), "-f", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.helm(&args)
    }

    fn install(&self, hooks: &[H]) {
        self.install_as(RELEASE, "", hooks)
    }

    /// `helm hooks run RELEASE -n NS ARGS` with the bed's token (Helm passes
    /// --kube-apiserver and --kube-token on to the plugin).
    fn hooks(&self, args: &[&str]) -> Out {
        self.hooks_at(&bed().server, &bed().token, RELEASE, args)
    }

    fn hooks_cmd(&self, server: &str, token: &str, release: &str, args: &[&str]) -> Command {
        let mut c = self.helm_cmd();
        c.args(kube_args(server, token)).args(["hooks", "run", release, "-n", &self.ns]).args(args);
        c
    }

    fn hooks_at(&self, server: &str, token: &str, release: &str, args: &[&str]) -> Out {
        run(self.hooks_cmd(server, token, release, args), None)
    }

    /// The stored release's hooks (`helm status -o json`): name → last_run phase ("" when
    /// it never ran).
    fn status_phases(&self, release: &str) -> BTreeMap<String, String> {
        let out = self.helm(&["status", release, "-o", "json"]);
        assert_eq!(out.code, 0, "{}", out.shown);
        let doc = serde_json::from_str::<J>(&out.stdout)
            .unwrap_or_else(|e| panic!("helm status -o json: {e}\n{}", out.stdout));
        doc.key("hooks")
            .arr()
            .iter()
            .map(|h| (h.key("name").s().to_string(), h.at("last_run/phase").s().to_string()))
            .collect()
    }

    fn watch(&self) -> Watch {
        Watch::start(&self.ns)
    }
}

/// A Pod of a Job (by its owner, or the Job controller's label). Only Pods: a Job created
/// without labels gets its template's labels, `job-name` included, from the API server.
fn owned_by_job(o: &J) -> bool {
    let labels = o.at("metadata/labels");
    o.key("kind").s() == "Pod"
        && (o.at("metadata/ownerReferences").arr().iter().any(|r| r.key("kind").s() == "Job")
            || !labels.key("job-name").is_null()
            || !labels.key("batch.kubernetes.io/job-name").is_null())
}

// ---------------------------------------------------------------------------------------
// The plugin's -o json summary.

struct Row {
    name: String,
    phase: String,
    started: Option<u64>,
    completed: Option<u64>,
    message: String,
    output: Option<String>,
}

fn summary(json: &str) -> (J, BTreeMap<String, Row>) {
    let doc = serde_json::from_str::<J>(json).unwrap_or_else(|e| panic!("-o json is not JSON ({e}):\n{json}"));
    let rows = doc
        .key("hooks")
        .arr()
        .iter()
        .map(|h| {
            let r = h.key("ref").s();
            let name = r.rsplit('/').next().unwrap().to_string();
            let row = Row {
                name: name.clone(),
                phase: h.key("phase").s().to_string(),
                started: h.key("started_at").num().map(|n| n as u64),
                completed: h.key("completed_at").num().map(|n| n as u64),
                message: h.key("message").s().to_string(),
                output: h.key("output").str().map(str::to_string),
            };
            (name, row)
        })
        .collect();
    (doc, rows)
}

fn phases(rows: &BTreeMap<String, Row>) -> BTreeMap<String, String> {
    rows.iter().map(|(k, r)| (k.clone(), r.phase.clone())).collect()
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

// ---------------------------------------------------------------------------------------
// Watching the namespace's Jobs and Pods through the API.

#[derive(Debug, Clone)]
struct Ev {
    rv: u64,
    /// ADDED, MODIFIED, DELETED
    ty: String,
    kind: String,
    name: String,
    uid: String,
    /// A pod of a Job (not a hook object itself).
    owned: bool,
    /// Some(succeeded) once the Job or Pod has ended.
    done: Option<bool>,
    at: Instant,
}

impl Ev {
    fn hook(&self) -> String {
        format!("{}/{}", self.kind, self.name)
    }
}

fn completion(o: &J) -> Option<bool> {
    match o.key("kind").s() {
        "Job" => {
            let conds = o.at("status/conditions").arr();
            let is = |t: &str| conds.iter().any(|c| c.key("type").s() == t && c.key("status").s() == "True");
            if is("Complete") {
                Some(true)
            } else if is("Failed") {
                Some(false)
            } else {
                None
            }
        }
        "Pod" => match o.at("status/phase").s() {
            "Succeeded" => Some(true),
            "Failed" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// The shared watch (tests/e2e/common), its events read as hook events.
struct Watch(crate::common::Watch);

impl Watch {
    fn start(ns: &str) -> Watch {
        Watch::start_on(ns, &[("/apis/batch/v1", "jobs"), ("/api/v1", "pods")])
    }

    fn start_on(ns: &str, resources: &[(&str, &str)]) -> Watch {
        Watch(crate::common::Watch::start(ns, resources))
    }

    fn stop(self) -> Vec<Ev> {
        self.0.stop().into_iter().map(Ev::from).collect()
    }
}

impl From<crate::common::Ev> for Ev {
    fn from(e: crate::common::Ev) -> Ev {
        let o = serde_json::from_str::<J>(&e.object.to_string()).unwrap_or(J::Null);
        Ev {
            rv: e.rv,
            uid: o.at("metadata/uid").s().to_string(),
            owned: owned_by_job(&o),
            done: completion(&o),
            ty: e.ty,
            kind: e.kind,
            name: e.name,
            at: e.at,
        }
    }
}

/// What the events say about hook objects (Jobs, bare Pods) by name.
struct Seen(Vec<Ev>);

impl Seen {
    fn hook_events(&self) -> impl Iterator<Item = &Ev> {
        self.0.iter().filter(|e| !e.owned)
    }
    /// resourceVersion of the first creation of the object.
    fn created(&self, name: &str) -> Option<u64> {
        self.hook_events().find(|e| e.name == name && e.ty == "ADDED").map(|e| e.rv)
    }
    fn created_all(&self, name: &str) -> Vec<u64> {
        self.hook_events().filter(|e| e.name == name && e.ty == "ADDED").map(|e| e.rv).collect()
    }
    /// resourceVersion at which it was first seen ended.
    fn ended(&self, name: &str) -> Option<u64> {
        self.hook_events().find(|e| e.name == name && e.done.is_some() && e.ty != "DELETED").map(|e| e.rv)
    }
    fn deleted(&self, name: &str) -> Option<u64> {
        self.hook_events().find(|e| e.name == name && e.ty == "DELETED").map(|e| e.rv)
    }
    /// "ADDED Job/x" / "DELETED Pod/y" of hook objects, in order.
    fn sequence(&self) -> Vec<String> {
        self.hook_events()
            .filter(|e| e.kind != "Secret" && (e.ty == "ADDED" || e.ty == "DELETED"))
            .map(|e| format!("{} {}", e.ty, e.hook()))
            .collect()
    }

    /// The same with the writes of Helm's release records (Secrets
    /// `sh.helm.release.v1.*`, when watched) in between.
    fn sequence_with_records(&self) -> Vec<String> {
        self.hook_events()
            .filter(|e| {
                if e.kind == "Secret" {
                    e.name.starts_with("sh.helm.release.v1.") && e.ty == "MODIFIED"
                } else {
                    e.ty == "ADDED" || e.ty == "DELETED"
                }
            })
            .map(|e| if e.kind == "Secret" { format!("RECORD {}", e.name) } else { format!("{} {}", e.ty, e.hook()) })
            .collect()
    }
    fn dump(&self) -> String {
        let t0 = self.0.iter().map(|e| e.at).min();
        self.0
            .iter()
            .map(|e| {
                format!(
                    "  rv {:>6} +{:>6.2}s {:<8} {}{}{}\n",
                    e.rv,
                    t0.map(|t| e.at.duration_since(t).as_secs_f64()).unwrap_or(0.0),
                    e.ty,
                    e.hook(),
                    if e.owned { " (job pod)" } else { "" },
                    match e.done {
                        Some(true) => " ended ok",
                        Some(false) => " ended failed",
                        None => "",
                    }
                )
            })
            .collect()
    }

    /// `later` was created only after `earlier` ended.
    fn assert_after(&self, later: &str, earlier: &str) {
        let c = self.created(later).unwrap_or_else(|| panic!("{later} was never created\n{}", self.dump()));
        let e = self.ended(earlier).unwrap_or_else(|| panic!("{earlier} never ended\n{}", self.dump()));
        assert!(c > e, "{later} was created (rv {c}) before {earlier} ended (rv {e})\n{}", self.dump());
    }

    /// `a` and `b` ran at the same time: each was created before the other ended.
    fn assert_overlap(&self, a: &str, b: &str) {
        let (ca, cb) = (self.created(a).unwrap(), self.created(b).unwrap());
        let (ea, eb) = (
            self.ended(a).unwrap_or_else(|| panic!("{a} never ended\n{}", self.dump())),
            self.ended(b).unwrap_or_else(|| panic!("{b} never ended\n{}", self.dump())),
        );
        assert!(ca < eb && cb < ea, "{a} and {b} did not run together\n{}", self.dump());
    }
}

// ---------------------------------------------------------------------------------------
// Parallel speed, barriers, dependencies.

/// 8 hooks of 3 s with --parallel 8 take about 3 s (plus the 1 s watch rounds and the
/// Job controller), not 24 s; all 8 run at once.
#[test]
fn parallel_hooks_run_together() {
    let case = Case::new("parallel");
    let hooks: Vec<H> = (1..=8).map(|i| job(&format!("p{i}")).secs("3s").parallel()).collect();
    case.install(&hooks);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8", "-o", "json"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    let (doc, rows) = summary(&out.stdout);
    assert_eq!(rows.len(), 8, "{}", out.stdout);
    assert!(rows.values().all(|r| r.phase == "Succeeded"), "{}", out.stdout);
    let run_ms = doc.key("ended_at").num().unwrap() - doc.key("started_at").num().unwrap();
    eprintln!("8 x 3 s, --parallel 8: helm hooks run took {:.1?} (run {:.1} s)", out.wall, run_ms / 1000.0);
    assert!(out.wall < Duration::from_secs(9), "8 hooks of 3 s with --parallel 8 took {:.1?}\n{}", out.wall, out.shown);
    // All 8 overlapped: the last start came before the first end (summary and API).
    let last_start = rows.values().filter_map(|r| r.started).max().unwrap();
    let first_end = rows.values().filter_map(|r| r.completed).min().unwrap();
    assert!(last_start < first_end, "not all 8 ran at once\n{}", out.stdout);
    let last_created = (1..=8).map(|i| seen.created(&format!("p{i}")).expect("created")).max().unwrap();
    let first_ended = (1..=8).filter_map(|i| seen.ended(&format!("p{i}"))).min().expect("ended");
    assert!(last_created < first_ended, "through the API, not all 8 ran at once\n{}", seen.dump());
}

/// Jobs with `ttlSecondsAfterFinished: 0` (ingress-nginx's admission Jobs) are deleted by
/// the TTL controller the moment they complete: they succeed, whether the completion and
/// the deletion arrive in one watch round (serial: one Job watched by name) or the Job's
/// group is listed while another is watched (a parallel Job beside a Pod).
#[test]
fn jobs_deleted_as_they_complete_succeed() {
    let case = Case::new("ttl");
    case.install(&[
        job("first").ttl(0),
        job("second").ttl(0).weight(1).parallel(),
        pod("beside").secs("3s").weight(1).parallel(),
        job("third").ttl(0).weight(2),
    ]);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "4", "-o", "json"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    let (_, rows) = summary(&out.stdout);
    assert_eq!(
        phases(&rows),
        map(&[("first", "Succeeded"), ("second", "Succeeded"), ("beside", "Succeeded"), ("third", "Succeeded")]),
        "{}",
        out.stdout
    );
    // The TTL controller, not the run, deleted them: they are gone.
    for j in ["first", "second", "third"] {
        assert!(seen.ended(j).is_some(), "{j} never completed\n{}", seen.dump());
    }
    assert_eq!(case.hook_objects(), vec!["Pod/beside".to_string()], "the TTL controller deleted the Jobs");
    seen.assert_after("third", "beside");
}

/// `helm hooks plan RELEASE` reads the installed release from Helm's storage, as `run`
/// does, and plans its hooks: b waits for a (depends-on), two waves at --parallel 2.
#[test]
fn plan_reads_the_installed_release() {
    let case = Case::new("plan-release");
    case.install(&[job("a").parallel(), job("b").parallel().after("Job/a")]);
    let mut c = case.helm_cmd();
    c.args(kube_args(&bed().server, &bed().token)).args(["hooks", "plan", RELEASE, "-n", &case.ns]).args([
        "--event",
        "test",
        "--parallel",
        "2",
        "-o",
        "json",
    ]);
    let out = run(c, None);
    assert_eq!(out.code, 0, "{}", out.shown);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.shown));
    assert_eq!(doc["release"]["name"], RELEASE, "{}", out.stdout);
    let waves: Vec<Vec<String>> = doc["events"][0]["waves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            w.as_array().unwrap().iter().map(|r| r.as_str().unwrap().rsplit('/').next().unwrap().to_string()).collect()
        })
        .collect();
    assert_eq!(waves, [vec!["a"], vec!["b"]], "{}", out.stdout);
}

/// A hook of a higher weight starts only after every hook of lower weights ended.
#[test]
fn weight_barriers() {
    let case = Case::new("weights");
    case.install(&[
        job("a1").weight(-1).secs("2s").parallel(),
        job("a2").weight(-1).secs("4s").parallel(),
        job("b1").weight(0).parallel(),
        pod("b2").weight(0).parallel(),
        job("c").weight(3).parallel(),
    ]);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    for (later, earlier) in [("b1", "a1"), ("b1", "a2"), ("b2", "a1"), ("b2", "a2"), ("c", "b1"), ("c", "b2")] {
        seen.assert_after(later, earlier);
    }
    seen.assert_overlap("a1", "a2");
    seen.assert_overlap("b1", "b2");
    // The progress lines say the same: b1 starts after a2 succeeded.
    let pos = |s: &str| out.stdout.find(s).unwrap_or_else(|| panic!("no {s:?} in\n{}", out.stdout));
    assert!(pos("succeeded Job/a2") < pos("started   Job/b1"), "{}", out.stdout);
    assert!(pos("succeeded Job/b1") < pos("started   Job/c"), "{}", out.stdout);
}

/// Within one weight, a serial hook waits for every hook before it (in Helm's order:
/// name) and every later hook waits for it; parallel hooks between serial ones run
/// together.
#[test]
fn serial_barriers_inside_a_weight() {
    let case = Case::new("serial");
    case.install(&[
        job("s1-a").secs("3s").parallel(),
        job("s2-b").parallel(),
        job("s3-serial"),
        job("s4-d").secs("2s").parallel(),
        pod("s5-e").parallel(),
        job("s6-serial"),
    ]);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    seen.assert_overlap("s1-a", "s2-b");
    seen.assert_after("s3-serial", "s1-a");
    seen.assert_after("s3-serial", "s2-b");
    seen.assert_after("s4-d", "s3-serial");
    seen.assert_after("s5-e", "s3-serial");
    seen.assert_overlap("s4-d", "s5-e");
    seen.assert_after("s6-serial", "s4-d");
    seen.assert_after("s6-serial", "s5-e");
}

/// helm.sh/depends-on: a chain x → yy → z and a diamond top → (left, right) → bottom, all
/// parallel and of one weight; the chain and the diamond run side by side. (Not `y`:
/// Kubernetes reads a plain `y` as true, and stock Helm refuses such a hook too.)
#[test]
fn depends_on_chain_and_diamond() {
    let case = Case::new("depends");
    case.install(&[
        job("x").parallel(),
        job("yy").parallel().after(r#"["Job/x"]"#),
        pod("z").parallel().after("Job/yy"),
        job("top").parallel(),
        job("left").secs("3s").parallel().after(r#"["Job/top"]"#),
        pod("right").parallel().after(r#"["Job/top"]"#),
        job("bottom").parallel().after(r#"["Job/left", "Pod/right"]"#),
    ]);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8", "-o", "json"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    let (_, rows) = summary(&out.stdout);
    assert!(rows.values().all(|r| r.phase == "Succeeded"), "{}", out.stdout);
    seen.assert_after("yy", "x");
    seen.assert_after("z", "yy");
    seen.assert_after("left", "top");
    seen.assert_after("right", "top");
    seen.assert_after("bottom", "left");
    seen.assert_after("bottom", "right");
    seen.assert_overlap("left", "right");
    seen.assert_overlap("x", "top");
    // Nothing waits for more than it must: z (chain) does not wait for the slow left.
    let z = seen.created("z").unwrap();
    let left_end = seen.ended("left").unwrap();
    assert!(z < left_end, "z waited for left, which it does not depend on\n{}", seen.dump());
}

// ---------------------------------------------------------------------------------------
// Failures.

const PREFLIGHT_LOG: &str = "preflight: database unreachable\nsecond line";

fn fail_fast_chart(slow: &str) -> Vec<H> {
    vec![
        job("pre").parallel().ann("helm.sh/hook-fail-fast", "true").fails(1).log(PREFLIGHT_LOG),
        job("slow").parallel().secs(slow),
        job("later").weight(1),
    ]
}

/// A failing fail-fast hook ends the run at once (the slower sibling still runs and is
/// not awaited), prints `Fail-fast job failed: pre` and its output block, nothing new
/// starts, exit 1 (docs/design.md §3: "its output is printed" — without helm.sh/show-output).
#[test]
fn fail_fast_ends_the_run_and_prints_the_output() {
    let case = Case::new("fail-fast");
    case.install(&fail_fast_chart("40s"));
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 1, "{}", out.shown);
    assert_eq!(out.plugin_code(), Some(1), "stderr must end with [exit code 1]\n{}", out.shown);
    // Before the 40-s sibling could end (and below, through the API, it has not): how soon
    // after that `pre` is seen failed is the Job controller's, which took 23-32 s once on a
    // bed running two suites.
    assert!(out.wall < Duration::from_secs(38), "the run waited for the slow sibling: {:.1?}\n{}", out.wall, out.shown);
    let text = &out.stdout;
    let ff = text.find("Fail-fast job failed: pre\n").unwrap_or_else(|| panic!("no fail-fast line\n{}", out.shown));
    let block = text.find("Job pre output:\n").unwrap_or_else(|| panic!("no output block of pre\n{}", out.shown));
    assert!(ff < block, "the fail-fast line comes before the output block\n{}", out.shown);
    let after = &text[block..];
    assert!(
        after.contains("preflight: database unreachable") && after.contains("second line"),
        "the block holds pre's log\n{}",
        out.shown
    );
    // Through the API: slow was created and is still running; later never existed.
    assert!(seen.created("slow").is_some(), "{}", seen.dump());
    let slow = case.get_json("job/slow");
    assert_eq!(completion(&slow), None, "slow must still be running after the run ended\n{}", seen.dump());
    assert_eq!(seen.created("later"), None, "later must never start\n{}", seen.dump());
}

/// The same with helm.sh/show-output on the fail-fast hook: one block, not two.
#[test]
fn fail_fast_with_show_output_prints_one_block() {
    let case = Case::new("fail-fast-show");
    let mut hooks = fail_fast_chart("40s");
    hooks[0] = hooks[0].clone().ann("helm.sh/show-output", "true");
    case.install(&hooks);
    let out = case.hooks(&["--parallel", "8"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    assert!(out.stdout.contains("Fail-fast job failed: pre\n"), "{}", out.shown);
    assert_eq!(out.stdout.matches("Job pre output:").count(), 1, "{}", out.shown);
    // Each line once: streamed as it came, or in the block (issue 41).
    for line in ["preflight: database unreachable", "second line"] {
        assert_eq!(out.stdout.matches(line).count(), 1, "{line:?}\n{}", out.shown);
    }
}

/// --ignore-fail-fast: the failure is a warning, the run goes on (later runs).
#[test]
fn ignore_fail_fast_goes_on() {
    let case = Case::new("ignore-ff");
    case.install(&fail_fast_chart("2s"));
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8", "--ignore-fail-fast", "-o", "json"]);
    let seen = Seen(w.stop());
    assert!(out.stderr.contains("Fail-fast job failed: pre"), "{}", out.shown);
    let (_, rows) = summary(&out.stdout);
    assert_eq!(
        phases(&rows),
        map(&[("pre", "Failed"), ("slow", "Succeeded"), ("later", "Succeeded")]),
        "{}",
        out.shown
    );
    seen.assert_after("later", "slow");
    seen.assert_after("later", "pre");
    // "turns this into a warning" (docs/design.md §3): the run succeeds.
    assert_eq!(out.plugin_code(), Some(0), "--ignore-fail-fast: a warning, not a failure\n{}", out.shown);
}

/// A failure of a hook without fail-fast: nothing new starts, the running siblings are
/// awaited, every failure is reported, exit 1.
#[test]
fn plain_failure_waits_for_siblings_and_reports_all() {
    let case = Case::new("plain-fail");
    case.install(&[
        job("f1").parallel().fails(1),
        job("f2").parallel().secs("4s").fails(2),
        job("ok").parallel().secs("6s"),
        job("later").weight(1),
    ]);
    let w = case.watch();
    let out = case.hooks(&["--parallel", "8", "-o", "json"]);
    let seen = Seen(w.stop());
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let (_, rows) = summary(&out.stdout);
    assert_eq!(
        phases(&rows),
        map(&[("f1", "Failed"), ("f2", "Failed"), ("ok", "Succeeded"), ("later", "Skipped")]),
        "{}",
        out.shown
    );
    assert!(seen.ended("ok").is_some(), "ok was awaited\n{}", seen.dump());
    assert_eq!(seen.created("later"), None, "{}", seen.dump());
    for f in ["Job/f1", "Job/f2"] {
        assert!(out.stderr.contains(&format!("failed    {f}")), "{f} reported\n{}", out.shown);
    }
    // Both failures are named in Helm's error too.
    assert!(out.stderr.contains("[exit code 1]"), "{}", out.shown);
}

/// Each hook's wait gets --timeout; a 30 s hook with --timeout 2s fails as timed out.
#[test]
fn timeout() {
    let case = Case::new("timeout");
    case.install(&[job("long").secs("30s"), job("next").weight(1)]);
    let out = case.hooks(&["--timeout", "2s", "-o", "json"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    assert!(out.wall < Duration::from_secs(12), "--timeout 2s took {:.1?}\n{}", out.wall, out.shown);
    let (_, rows) = summary(&out.stdout);
    assert_eq!(rows["long"].phase, "Failed", "{}", out.shown);
    assert!(rows["long"].message.contains("timed out"), "{}", out.shown);
    assert_eq!(rows["next"].phase, "Skipped", "{}", out.shown);
    let st = case.status_phases(RELEASE);
    assert_eq!(st["long"], "Failed", "{st:?}");
}

// ---------------------------------------------------------------------------------------
// Delete policies: what is left is what Helm leaves.

/// Run 1 (all succeed): hook-succeeded is deleted, before-hook-creation (the default) and
/// hook-failed stay. Run 2: the default's old object is deleted before the new one is
/// created (a new uid). Run 3 on a failing release (serial): the failed hook-failed hook
/// is deleted, the succeeded hook-succeeded one too, the default one stays, the hook
/// after the failure is never created. Run 4: a failed hook with the default policy
/// stays. Stock `helm test` on the same releases in another
/// namespace must leave the same objects.
#[test]
fn delete_policies_leave_what_helm_leaves() {
    let ok_hooks = vec![
        job("keep").weight(0),
        pod("gone-ok").weight(1).policy("hook-succeeded"),
        job("stays-ok").weight(2).policy("hook-failed"),
        pod("both").weight(3).policy("before-hook-creation,hook-succeeded"),
    ];
    let fail_hooks = vec![
        job("keep").weight(0),
        pod("gone-ok").weight(1).policy("hook-succeeded"),
        job("bad").weight(2).policy("hook-failed").fails(1),
        job("never").weight(3),
    ];
    let fail_default = vec![job("x").fails(1), job("y").weight(1)];
    let plugin = Case::new("policies");
    let helm = Case::new("policies-helm");
    for c in [&plugin, &helm] {
        c.install_as("ok", "ok-", &ok_hooks);
        c.install_as("bad", "bad-", &fail_hooks);
        c.install_as("bad2", "bad2-", &fail_default);
    }

    let w = plugin.watch();
    let r1 = plugin.hooks_at(&bed().server, &bed().token, "ok", &[]);
    assert_eq!(r1.code, 0, "{}", r1.shown);
    assert_eq!(plugin.hook_objects(), ["Job/ok-keep", "Job/ok-stays-ok"], "after run 1");
    let r2 = plugin.hooks_at(&bed().server, &bed().token, "ok", &[]);
    assert_eq!(r2.code, 0, "{}", r2.shown);
    let r3 = plugin.hooks_at(&bed().server, &bed().token, "bad", &[]);
    assert_eq!(r3.plugin_code(), Some(1), "{}", r3.shown);
    let r4 = plugin.hooks_at(&bed().server, &bed().token, "bad2", &[]);
    assert_eq!(r4.plugin_code(), Some(1), "{}", r4.shown);
    let seen = Seen(w.stop());
    // Run 2 deleted ok-keep before creating it again: two creations, a deletion between.
    let keep = seen.created_all("ok-keep");
    assert_eq!(keep.len(), 2, "{}", seen.dump());
    let del = seen.deleted("ok-keep").expect("ok-keep deleted before re-creation");
    assert!(keep[0] < del && del < keep[1], "{}", seen.dump());
    let uids: Vec<&str> =
        seen.0.iter().filter(|e| e.name == "ok-keep" && e.ty == "ADDED").map(|e| e.uid.as_str()).collect();
    assert_ne!(uids[0], uids[1], "a new object");
    assert_eq!(seen.created("bad-never"), None, "{}", seen.dump());
    assert_eq!(seen.created("bad2-y"), None, "{}", seen.dump());
    let left = plugin.hook_objects();
    assert_eq!(left, ["Job/bad-keep", "Job/bad2-x", "Job/ok-keep", "Job/ok-stays-ok"], "after runs 3 and 4");

    // Stock Helm, same releases, same runs.
    for (release, want_ok) in [("ok", true), ("ok", true), ("bad", false), ("bad2", false)] {
        let out = helm.helm(&["test", release, "--timeout", "2m"]);
        assert_eq!(out.code == 0, want_ok, "{}", out.shown);
    }
    assert_eq!(helm.hook_objects(), left, "stock helm test leaves other objects than helm hooks run");
}

// ---------------------------------------------------------------------------------------
// Permissions, the API server going away, invalid annotations.

/// A token that may only read Secrets in the namespace (enough to read the release):
/// exit 3 with a message that names the verb and the resource.
#[test]
fn token_without_permission_is_exit_3_naming_verb_and_resource() {
    let case = Case::new("forbidden");
    case.install(&[job("hook")]);
    let token = case.read_only_token();
    let w = case.watch();
    let out = case.hooks_at(&bed().server, &token, RELEASE, &[]);
    let seen = Seen(w.stop());
    assert_eq!(out.plugin_code(), Some(3), "{}", out.shown);
    let all = out.all();
    let named = ["delete", "create", "patch", "update"]
        .iter()
        .any(|verb| ["jobs.batch", "secrets"].iter().any(|res| all.contains(&format!("cannot {verb} {res}"))));
    assert!(named, "the message must name the verb and the resource\n{}", out.shown);
    assert!(all.contains("forbidden"), "{}", out.shown);
    assert_eq!(seen.created("hook"), None, "{}", seen.dump());
}

/// The least-privilege Role for `run` of Job and Pod hooks, as docs/commands.md gives it:
/// (apiGroup, resource, verbs).
const RUN_ROLE: &[(&str, &str, &[&str])] = &[
    ("", "secrets", &["get", "list", "update"]),
    ("batch", "jobs", &["create", "patch", "delete", "list", "watch"]),
    ("", "pods", &["create", "patch", "delete", "list", "watch"]),
    ("", "pods/log", &["get"]),
];

/// UIDs of the Jobs and Pods in the namespace: what a run created or deleted shows here.
fn job_and_pod_uids(case: &Case) -> BTreeSet<String> {
    case.get_json("jobs,pods").key("items").arr().iter().map(|o| o.at("metadata/uid").s().to_string()).collect()
}

/// With exactly docs/commands.md's Role (a ServiceAccount token, not cluster-admin), `run --logs`
/// of a Job and a Pod hook succeeds and records the run; with any one verb of it less, it
/// stops before acting: exit 3 naming the verb and the resource, no object created or
/// deleted, the stored phases unchanged.
#[test]
fn least_privilege_role_runs_and_one_verb_less_is_exit_3_before_acting() {
    let case = Case::new("least-priv");
    case.install(&[job("job-hook").on("test"), pod("pod-hook").log("from the pod").on("test")]);
    let token = case.token_with_rules("runner", &role_rules(RUN_ROLE, None));
    let out = case.hooks_at(&bed().server, &token, RELEASE, &["--event", "test", "--logs"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    assert!(out.all().contains("from the pod"), "{}", out.shown);
    let phases = case.status_phases(RELEASE);
    assert_eq!(phases.values().filter(|p| *p == "Succeeded").count(), 2, "{phases:?}");
    let before = job_and_pod_uids(&case);
    let act = |token: &str| case.hooks_at(&bed().server, token, RELEASE, &["--event", "test", "--logs"]);
    each_verb_less_is_exit_3(&case, RUN_ROLE, &act, &mut |verb, resource| {
        assert_eq!(job_and_pod_uids(&case), before, "without {verb} {resource} something was created or deleted");
        assert_eq!(case.status_phases(RELEASE), phases, "without {verb} {resource}");
    });
}

/// Someone else changes the release record while `run` runs (issue 13): the plugin's write
/// carries the resourceVersion it read, so it gets 409, reads the record again and writes
/// only its hooks' phases onto it. The other change stays; nothing is overwritten.
#[test]
fn release_record_changed_meanwhile_is_not_overwritten() {
    let case = Case::new("conflict");
    case.install(&[job("slow").secs("5s").on("test")]);
    let mut c = case.hooks_cmd(&bed().server, &bed().token, RELEASE, &["--event", "test"]);
    c.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
    let child = c.spawn().unwrap();
    let t0 = Instant::now();
    while run(case.kubectl(&["get", "job/slow"]), None).code != 0 {
        assert!(t0.elapsed() < Duration::from_secs(60), "the run never created Job/slow");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The run has read the record (and recorded the hook as started); change it now.
    ok(case.kubectl(&["label", "secret", "sh.helm.release.v1.r.v1", "changed-by=someone-else"]));
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let label =
        ok(case.kubectl(&["get", "secret", "sh.helm.release.v1.r.v1", "-o", "jsonpath={.metadata.labels.changed-by}"]));
    assert_eq!(label, "someone-else", "the run overwrote the other change");
    assert_eq!(case.status_phases(RELEASE).get("slow").map(String::as_str), Some("Succeeded"));
}

/// API Priority and Fairness objects (cluster-scoped) that put one ServiceAccount of a test,
/// and nobody else, on a priority level of zero shares that rejects rather than queues (the
/// API server still gives it one seat); deleted when the test ends.
struct Throttle<'a> {
    case: &'a Case,
    name: String,
}

impl<'a> Throttle<'a> {
    fn apply(case: &'a Case, account: &str) -> Throttle<'a> {
        let name = format!("helm-hooks-e2e-{}", case.ns);
        let yaml = format!(
            "apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: PriorityLevelConfiguration\nmetadata: {{name: {name}}}\n\
             spec:\n  type: Limited\n  limited:\n    nominalConcurrencyShares: 0\n    lendablePercent: 0\n\
             \x20   borrowingLimitPercent: 0\n    limitResponse: {{type: Reject}}\n---\n\
             apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: FlowSchema\nmetadata: {{name: {name}}}\n\
             spec:\n  priorityLevelConfiguration: {{name: {name}}}\n  matchingPrecedence: 850\n\
             \x20 distinguisherMethod: {{type: ByUser}}\n  rules:\n  - subjects:\n\
             \x20   - {{kind: ServiceAccount, serviceAccount: {{name: {account}, namespace: {ns}}}}}\n\
             \x20   resourceRules:\n    - {{verbs: [\"*\"], apiGroups: [\"*\"], resources: [\"*\"], namespaces: [\"*\"], clusterScope: true}}\n\
             \x20   nonResourceRules:\n    - {{verbs: [\"*\"], nonResourceURLs: [\"*\"]}}\n",
            ns = case.ns
        );
        let mut c = case.kubectl_cmd();
        c.args(["apply", "-f", "-"]);
        let out = run(c, Some(&yaml));
        assert_eq!(out.code, 0, "{}", out.shown);
        Throttle { case, name }
    }

    /// Requests of the level answered 429 so far (kube-apiserver's APF dump).
    fn rejected(&self) -> Option<u64> {
        let mut c = self.case.kubectl_cmd();
        c.args(["get", "--raw", "/debug/api_priority_and_fairness/dump_priority_levels"]);
        let dump = ok(c);
        let row = dump.lines().find(|l| l.split(',').next().map(str::trim) == Some(self.name.as_str()))?;
        row.split(',').nth(7)?.trim().parse().ok()
    }
}

impl Drop for Throttle<'_> {
    fn drop(&mut self) {
        let mut c = self.case.kubectl_cmd();
        c.args(["delete", "flowschema,prioritylevelconfiguration", &self.name, "--ignore-not-found"]);
        let _ = c.output();
    }
}

/// The API server answering 429 for real (issue 13). While a slow upload by the test's
/// ServiceAccount holds its priority level's only seat, every other request of that account
/// is answered 429 with `Retry-After: 1` (checked first). `run` with that account's token
/// repeats each refused request after the wait asked and succeeds once the seat is free.
#[test]
fn a_429_from_api_priority_and_fairness_is_waited_out() {
    let case = Case::new("apf");
    case.install(&[job("hook").on("test")]);
    let rules = role_rules(RUN_ROLE, None) + "- apiGroups: [\"\"]\n  resources: [\"configmaps\"]\n  verbs: [create]\n";
    let token = case.token_with_rules("throttled", &rules);
    let throttle = Throttle::apply(&case, "throttled");
    let t0 = Instant::now();
    while throttle.rejected().is_none() {
        assert!(t0.elapsed() < Duration::from_secs(30), "the priority level never showed up");
        std::thread::sleep(Duration::from_millis(200));
    }
    let b = bed();
    let curl = |extra: &[&str]| {
        let mut c = Command::new("curl");
        c.args(["-sS", "-o", "/dev/null", "-D", "-", "--cacert", &b.cacert, "-H"])
            .arg(format!("Authorization: Bearer {token}"))
            .args(extra);
        c
    };
    // About 4.5 s of upload at 2 kB/s: the seat stays taken meanwhile. Long enough to be met
    // by the plugin's first request when a loaded machine is slow to start Helm (4 s was once
    // too short), short enough for its five repeats a second apart (6 s was too long: the
    // run gave up, exit 3). When Helm started so slowly that the seat was free again before
    // its first request (no 429: nothing proved), the attempt is made again, up to three times.
    let (mut took, mut refused) = (Duration::ZERO, 0);
    for attempt in 0..3 {
        let body = case.tmp.0.join(format!("hog-{attempt}.json"));
        let hog_cm = format!(
            r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"hog-{attempt}"}},"data":{{"x":"{}"}}}}"#,
            "a".repeat(9_000)
        );
        std::fs::write(&body, hog_cm).unwrap();
        let mut hog = curl(&["--limit-rate", "2000", "-H", "Content-Type: application/json", "--data-binary"]);
        hog.arg(format!("@{}", body.display())).arg(format!("{}/api/v1/namespaces/{}/configmaps", b.server, case.ns));
        let hog = hog.stdout(std::process::Stdio::piped()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let probe = ok(curl(&[&format!("{}/api/v1/namespaces/{}/configmaps", b.server, case.ns)]));
        assert!(probe.starts_with("HTTP/2 429") && probe.to_ascii_lowercase().contains("retry-after: 1"), "{probe}");
        let before = throttle.rejected().unwrap();
        let started = Instant::now();
        let out = case.hooks_at(&b.server, &token, RELEASE, &["--event", "test"]);
        took = started.elapsed();
        refused = throttle.rejected().unwrap() - before;
        let hog = hog.wait_with_output().unwrap();
        assert!(String::from_utf8_lossy(&hog.stdout).contains(" 201"), "the upload holding the seat failed");
        assert_eq!(out.code, 0, "{}", out.shown);
        if refused >= 1 {
            break;
        }
        eprintln!("{}: attempt {attempt}: no request was answered 429; again", case.ns);
    }
    assert!(refused >= 1, "none of the run's requests was answered 429 in three attempts: the test proved nothing");
    assert_eq!(case.status_phases(RELEASE).get("hook").map(String::as_str), Some("Succeeded"));
    eprintln!("{}: run took {took:.1?}; {refused} of its requests were answered 429 and repeated", case.ns);
}

/// A TCP forwarder in front of the API server, to take "the API server" away from the
/// plugin mid-run and bring it back on the same address (TLS passes through untouched;
/// the certificate is for 127.0.0.1, so any port works). Stopping it closes the listener
/// and cuts every open connection, which is what the plugin sees when kube-apiserver
/// dies: the watch in flight breaks and new connections are refused.
struct Forwarder {
    port: u16,
    stop: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<TcpStream>>>,
    accept: Option<JoinHandle<()>>,
}

impl Forwarder {
    fn start(target: SocketAddr, port: u16) -> Forwarder {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind the forwarder");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let conns: Arc<Mutex<Vec<TcpStream>>> = Arc::new(Mutex::new(Vec::new()));
        let (s, c) = (stop.clone(), conns.clone());
        let accept = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((down, _)) => {
                        let _ = down.set_nonblocking(false);
                        let Ok(up) = TcpStream::connect(target) else { continue };
                        let mut g = c.lock().unwrap();
                        g.push(down.try_clone().unwrap());
                        g.push(up.try_clone().unwrap());
                        drop(g);
                        for (mut from, mut to) in [(down.try_clone().unwrap(), up.try_clone().unwrap()), (up, down)] {
                            std::thread::spawn(move || {
                                let _ = std::io::copy(&mut from, &mut to);
                                let _ = to.shutdown(Shutdown::Both);
                                let _ = from.shutdown(Shutdown::Both);
                            });
                        }
                    }
                    Err(_) => sleep(Duration::from_millis(10)),
                }
            }
            // The listener is dropped here: new connections are refused.
        });
        Forwarder { port, stop, conns, accept: Some(accept) }
    }

    fn url(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
        for s in self.conns.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

/// With the host-functions build, a kubeconfig whose cluster is a closed loopback port:
/// the plugin's own message names the API server, and helm exits with the plugin's 3.
/// (Under stock Helm the sandbox cannot read a kubeconfig; the plugin says so, exit 3 in
/// its message, helm 1: checked elsewhere.)
#[test]
fn unreachable_kubeconfig_cluster_is_the_plugins_exit_3() {
    if !host_functions() {
        eprintln!(
            "skipped: the stock build cannot read a kubeconfig (HOOKS_PLUGIN_DIR is not the host-functions build)"
        );
        return;
    }
    let case = Case::new("unreachable");
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dead = format!("https://127.0.0.1:{port}");
    let config = std::fs::read_to_string(&bed().kubeconfig).unwrap();
    let server_line = config.lines().find(|l| l.trim_start().starts_with("server:")).expect("a server line");
    let rewritten = config.replace(server_line, &format!("    server: {dead}"));
    let path = case.tmp.0.join("unreachable.kubeconfig");
    std::fs::write(&path, rewritten).unwrap();
    let mut c = case.helm_cmd();
    c.args(["--kubeconfig", path.to_str().unwrap()]).args(kube_args(&bed().server, &bed().token));
    c.args(["hooks", "run", RELEASE, "-n", &case.ns]);
    let out = run(c, None);
    assert_eq!(out.code, 3, "{}", out.shown);
    assert_eq!(out.plugin_code(), Some(3), "{}", out.shown);
    assert!(out.stderr.contains(&format!("cannot reach the API server: {dead}/")), "{}", out.shown);
    assert!(out.stderr.contains("connection refused"), "{}", out.shown);
    assert!(!out.all().contains("wasm"), "no Wasm stack trace: {}", out.shown);
}

fn api_addr() -> SocketAddr {
    let hostport = bed().server.trim_start_matches("https://").trim_end_matches('/').to_string();
    hostport.to_socket_addrs().unwrap().next().unwrap()
}

/// The API server goes away in mid-run: the run ends with a clear error (not a hang),
/// and a re-run once it is back recovers: every hook runs and `helm status` shows them
/// Succeeded.
#[test]
fn api_server_stopped_mid_run_then_a_rerun_recovers() {
    let case = Case::new("apiserver-gone");
    case.install(&[job("first").secs("2s"), job("second").weight(1).secs("6s"), job("third").weight(2)]);
    let fwd = Forwarder::start(api_addr(), 0);
    let url = fwd.url();
    let mut child = case.hooks_cmd(&url, &bed().token, RELEASE, &[]);
    let child = child.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Mid-run: once `second` exists (checked directly, not through the forwarder).
    let start = Instant::now();
    while run(case.kubectl(&["get", "job", "second"]), None).code != 0 {
        assert!(start.elapsed() < Duration::from_secs(60), "second never started");
        sleep(Duration::from_millis(200));
    }
    let port = fwd.port;
    fwd.stop();
    let stopped = Instant::now();
    let out = wait_child(child, Duration::from_secs(90));
    let took = stopped.elapsed();
    eprintln!("API server gone: helm ended {took:.1?} later with exit {}\n{}{}", out.code, out.stdout, out.stderr);
    // What is wrong is collected, so that the re-run below is checked in any case.
    let mut problems = Vec::new();
    if out.code == 0 {
        problems.push("helm hooks run exited 0 although the API server went away".to_string());
    }
    // The host-functions build sees the lost connection and repeats for 30 s (an API
    // server restarting comes back within that), then gives up.
    let patience = Duration::from_secs(if host_functions() { 45 } else { 30 });
    if took > patience {
        problems.push(format!("the plugin took {took:.1?} to give up"));
    }
    let all = out.all();
    if host_functions() && !all.contains("tried") {
        problems.push("the message does not say how long the plugin tried".into());
    }
    if !["connection refused", "cannot reach the API server", "connection reset", "EOF"].iter().any(|s| all.contains(s))
    {
        problems.push("no error naming the connection problem".into());
    }
    // Not checked under stock Helm, because its sandbox cannot deliver them
    // (docs/limits.md): Extism's http_request panics in the host on a transport error, so the
    // plugin never sees the error; Helm prints it (with a Wasm stack trace) and exits 1,
    // and no `[exit code 3]` can be added. Through the patched Helm's kube_request the
    // error is a value (docs/hip-host-functions.md): the plugin's own message, naming
    // the API server, and its exit code 3 from helm itself.
    if host_functions() {
        if out.code != 3 || !out.stderr.trim_end().ends_with("[exit code 3]") {
            problems.push(format!("helm exited {}, not with the plugin's code 3", out.code));
        }
        if !all.contains(&format!("cannot reach the API server: {url}")) {
            problems.push(format!("the plugin's message does not name the API server {url}"));
        }
    }

    // Back on the same address: a re-run recovers.
    let fwd = Forwarder::start(api_addr(), port);
    let again = case.hooks_at(&fwd.url(), &bed().token, RELEASE, &["-o", "json"]);
    fwd.stop();
    assert_eq!(again.code, 0, "the re-run failed\n{}", again.shown);
    let (_, rows) = summary(&again.stdout);
    let all_ok = map(&[("first", "Succeeded"), ("second", "Succeeded"), ("third", "Succeeded")]);
    assert_eq!(phases(&rows), all_ok, "{}", again.shown);
    assert_eq!(case.status_phases(RELEASE), all_ok);
    assert!(problems.is_empty(), "when the API server went away mid-run:\n- {}\n{}", problems.join("\n- "), out.shown);
}

fn wait_child(mut child: Child, limit: Duration) -> Out {
    let t0 = Instant::now();
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let ro = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let re = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let st = child.wait().unwrap();
            let (stdout, stderr) = (ro.join().unwrap(), re.join().unwrap());
            panic!("helm hooks run hangs: killed after {limit:?} ({st})\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
        }
        sleep(Duration::from_millis(100));
    };
    let (stdout, stderr) = (ro.join().unwrap(), re.join().unwrap());
    let shown = format!("helm hooks run exited {status}\n--- stdout\n{stdout}\n--- stderr\n{stderr}");
    Out { code: status.code().unwrap_or(-1), stdout, stderr, wall: t0.elapsed(), shown }
}

/// Invalid annotations (a dangling depends-on, "yes" for a boolean, a cycle): exit 2, all
/// listed, and nothing created or written (no Job or Pod; the stored release unchanged).
#[test]
fn invalid_annotations_are_exit_2_and_create_nothing() {
    let case = Case::new("invalid");
    case.install(&[
        job("a").after(r#"["Job/missing"]"#),
        job("b").ann("helm.sh/hook-parallel", "yes"),
        job("c").parallel().after("Job/d"),
        job("d").parallel().after("Job/c"),
        pod("fine"),
    ]);
    let secret_rv = || {
        let s = case.get_json("secret/sh.helm.release.v1.r.v1");
        s.at("metadata/resourceVersion").s().to_string()
    };
    let before = secret_rv();
    let w = case.watch();
    let out = case.hooks(&["--parallel", "4"]);
    let seen = Seen(w.stop());
    assert_eq!(out.plugin_code(), Some(2), "{}", out.shown);
    for what in ["Job/missing", "yes", "cycle"] {
        assert!(out.all().to_lowercase().contains(&what.to_lowercase()), "{what} reported\n{}", out.shown);
    }
    assert!(seen.sequence().is_empty(), "nothing may be created\n{}", seen.dump());
    assert_eq!(case.hook_objects(), Vec::<String>::new());
    assert_eq!(secret_rv(), before, "the stored release must not be written");
}

// ---------------------------------------------------------------------------------------
// What Helm shows: helm status, --filter, --logs; -o json and -o junit.

/// `helm status` shows the phases the run recorded, as stock `helm test` records them on
/// an identical release: Succeeded, Failed, and nothing for a hook that never ran.
#[test]
fn helm_status_shows_the_recorded_phases() {
    let hooks = vec![job("t-ok").weight(0), pod("t-bad").weight(1).fails(3), job("t-never").weight(2)];
    let plugin = Case::new("status");
    let helm = Case::new("status-helm");
    plugin.install(&hooks);
    helm.install(&hooks);
    let out = plugin.hooks(&[]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let stock = helm.helm(&["test", RELEASE]);
    assert_ne!(stock.code, 0, "{}", stock.shown);
    let want = map(&[("t-ok", "Succeeded"), ("t-bad", "Failed"), ("t-never", "")]);
    assert_eq!(plugin.status_phases(RELEASE), want);
    assert_eq!(helm.status_phases(RELEASE), want, "stock Helm records the same");
    let text = plugin.helm(&["status", RELEASE]);
    assert!(text.stdout.contains("TEST SUITE:     t-ok"), "{}", text.shown);
    assert!(text.stdout.contains("Phase:          Failed"), "{}", text.shown);
    assert!(text.stdout.contains("Phase:          Succeeded"), "{}", text.shown);
    // Times recorded too: started and completed for the hooks that ran.
    let doc = serde_json::from_str::<J>(&plugin.helm(&["status", RELEASE, "-o", "json"]).stdout).unwrap();
    for h in doc.key("hooks").arr() {
        let name = h.key("name").s();
        let (s, c) = (h.at("last_run/started_at").s(), h.at("last_run/completed_at").s());
        if name == "t-never" {
            assert!(s.is_empty() && c.is_empty(), "{name}: {s} {c}");
        } else {
            assert!(!s.is_empty() && !c.is_empty() && s <= c, "{name}: started {s:?} completed {c:?}");
        }
    }
}

/// --filter as `helm test --filter` (exclude first, then include) and --logs in
/// `helm test --logs`' format (`POD LOGS: <pod> (<container>)`, Pod hooks only), compared
/// with stock Helm on an identical release: the same blocks, in the same order, and every
/// line once, streamed or in its block (issue 41).
#[test]
fn filter_and_logs_as_helm_test() {
    let hooks = vec![
        pod("p1").log("one"),
        pod("p2").weight(1).log("two\nlines").containers(&["a", "b"]),
        job("j3").weight(2).log("job says hi"),
        pod("skipped").weight(3).log("must not run"),
    ];
    let plugin = Case::new("filter");
    let helm = Case::new("filter-helm");
    plugin.install(&hooks);
    helm.install(&hooks);
    let w = plugin.watch();
    let out = plugin.hooks(&["--filter", "!name=skipped", "--logs"]);
    let seen = Seen(w.stop());
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(seen.created("skipped"), None, "{}", seen.dump());
    assert!(seen.created("p1").is_some() && seen.created("j3").is_some(), "{}", seen.dump());
    // Each line of every container printed once (issue 41): streamed as it came or in its
    // `POD LOGS:` block, which counts the lines shown above.
    let containers = [("p1", "main", &["one"][..]), ("p2", "a", &["two", "lines"]), ("p2", "b", &["two", "lines"])];
    for (pod, container, lines) in containers {
        let (mut streamed_here, mut said_above) = (0, 0);
        for line in lines {
            let (streamed, block) = printed(&out.stdout, pod, container, line);
            let (in_block, above) =
                block.unwrap_or_else(|| panic!("no POD LOGS: {pod} ({container}) block\n{}", out.shown));
            assert_eq!(streamed + in_block, 1, "{pod} ({container}) {line:?} printed once\n{}", out.shown);
            (streamed_here, said_above) = (streamed_here + streamed, above);
        }
        assert_eq!(said_above, streamed_here, "{pod} ({container}) counts the lines shown above\n{}", out.shown);
    }
    assert!(!out.stdout.contains("POD LOGS: j3"), "--logs is for Pod hooks only\n{}", out.shown);
    // (Stock Helm 4.2.4's --logs reads a pod named after every test hook, so a Job hook
    // makes it fail with "unable to get pod j3": it runs without j3.)
    let stock = helm.helm(&["test", RELEASE, "--filter", "!name=skipped", "--filter", "!name=j3", "--logs"]);
    assert_eq!(stock.code, 0, "{}", stock.shown);
    // Stock Helm's blocks, in its order and words; their lines are the ones checked above.
    let headers = |s: &str| s.lines().filter(|l| l.starts_with("POD LOGS: ")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(
        headers(&out.stdout),
        headers(&stock.stdout),
        "--logs' blocks differ from helm test --logs'\n--- ours\n{}\n--- helm\n{}",
        out.stdout,
        stock.stdout
    );
    for (pod, container, lines) in containers {
        let block = format!("POD LOGS: {pod} ({container})\n{}\n", lines.join("\n"));
        assert!(stock.stdout.contains(&block), "helm test --logs printed no {block:?}\n{}", stock.shown);
    }

    // name=X runs only X; the others keep their old records.
    let only = plugin.hooks(&["--filter", "name=j3", "-o", "json"]);
    assert_eq!(only.code, 0, "{}", only.shown);
    let (_, rows) = summary(&only.stdout);
    assert_eq!(rows.keys().collect::<Vec<_>>(), ["j3"], "{}", only.stdout);
    let st = plugin.status_phases(RELEASE);
    assert_eq!(st["skipped"], "", "{st:?}");
    assert_eq!(st["p1"], "Succeeded", "{st:?}");
}

/// -o json (documented fields, one entry per hook) and -o junit (one test case per hook).
#[test]
fn json_and_junit_reports() {
    let case = Case::new("reports");
    case.install(&[
        job("r-ok").parallel(),
        pod("r-bad").parallel().fails(1).log("it broke"),
        job("r-show").parallel().ann("helm.sh/show-output", "true").log("shown & <escaped>"),
        job("r-skip").weight(1),
    ]);
    let out = case.hooks(&["--parallel", "4", "-o", "json"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let (doc, rows) = summary(&out.stdout);
    assert_eq!(doc.key("event").s(), "test", "{}", out.stdout);
    assert_eq!(doc.key("outcome").s(), "failed", "{}", out.stdout);
    assert_eq!(doc.key("hooks").arr().len(), 4, "{}", out.stdout);
    assert_eq!(
        phases(&rows),
        map(&[("r-ok", "Succeeded"), ("r-bad", "Failed"), ("r-show", "Succeeded"), ("r-skip", "Skipped")])
    );
    for r in rows.values() {
        if r.phase == "Skipped" {
            assert!(r.started.is_none() && r.completed.is_none(), "{}", r.name);
        } else {
            assert!(r.started.unwrap() <= r.completed.unwrap(), "{}", r.name);
        }
    }
    assert_eq!(rows["r-show"].output.as_deref().map(str::trim_end), Some("shown & <escaped>"), "{}", out.stdout);
    // Progress goes to stderr with -o json, so stdout is the JSON document alone.
    assert!(out.stderr.contains("started   Job/r-ok"), "{}", out.shown);

    let out = case.hooks(&["--parallel", "4", "-o", "junit"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let x = &out.stdout;
    assert!(x.starts_with("<?xml"), "{x}");
    assert!(x.contains("tests=\"4\"") && x.contains("failures=\"1\"") && x.contains("skipped=\"1\""), "{x}");
    assert_eq!(x.matches("<testcase ").count(), 4, "{x}");
    assert_eq!(x.matches("<failure ").count(), 1, "{x}");
    assert!(x.contains("shown &amp; &lt;escaped&gt;"), "{x}");
    assert_eq!(x.matches("<testsuite").count(), 1, "{x}");
    assert!(x.trim_end().ends_with("</testsuite>"), "{x}");
}

// ---------------------------------------------------------------------------------------
// Compatibility with stock Helm.

/// With --parallel 1 and no new annotations, `helm hooks run --event test` creates and
/// deletes the same hook objects in the same order, with the same outcome, as stock
/// `helm test` on identical releases: a passing release run twice (before-hook-creation
/// on the re-run, hook-succeeded clean-up in reverse order) and a failing one run twice
/// (hook-failed, the succeeded hooks' clean-up, hooks after the failure never created).
#[test]
fn same_creates_and_deletes_as_stock_helm_test() {
    let hooks = |fail: bool| {
        vec![
            job("setup").weight(-1).policy("before-hook-creation,hook-succeeded"),
            pod("check-a").weight(0).log("a ok"),
            job("check-b").weight(0).policy("hook-succeeded"),
            pod("check-c").weight(1).policy("hook-failed"),
            job("check-d").weight(2).policy("hook-failed").fails(if fail { 1 } else { 0 }),
            pod("teardown").weight(3).policy("hook-succeeded"),
        ]
    };
    let plugin = Case::new("compat");
    let helm = Case::new("compat-helm");
    for c in [&plugin, &helm] {
        c.install_as("pass", "p-", &hooks(false));
        c.install_as("fail", "f-", &hooks(true));
    }
    let runs = [("pass", true), ("pass", true), ("fail", false), ("fail", false)];

    let with_secrets = [("/apis/batch/v1", "jobs"), ("/api/v1", "pods"), ("/api/v1", "secrets")];
    let wp = Watch::start_on(&plugin.ns, &with_secrets);
    let wh = Watch::start_on(&helm.ns, &with_secrets);
    let t = std::thread::scope(|s| {
        let stock = s.spawn(|| {
            runs.iter()
                .map(|(release, _)| {
                    let out = helm.helm(&["test", release, "--timeout", "2m"]);
                    let phases = helm.status_phases(release);
                    (out, phases)
                })
                .collect::<Vec<_>>()
        });
        let ours = runs
            .iter()
            .map(|(release, _)| {
                let out = plugin.hooks_at(
                    &bed().server,
                    &bed().token,
                    release,
                    &["--event", "test", "--parallel", "1", "--timeout", "2m"],
                );
                let phases = plugin.status_phases(release);
                (out, phases)
            })
            .collect::<Vec<_>>();
        (ours, stock.join().unwrap())
    });
    let (ours, stock) = t;
    let (sp, sh) = (Seen(wp.stop()), Seen(wh.stop()));
    let mut diffs = Vec::new();
    for (i, ((o, op), (h, hp))) in ours.iter().zip(&stock).enumerate() {
        let (release, want_ok) = runs[i];
        assert_eq!(h.code == 0, want_ok, "stock helm test {release}: {}", h.shown);
        if (o.code == 0) != (h.code == 0) {
            diffs.push(format!(
                "run {} ({release}): exit {} vs stock {}\n{}\n{}",
                i + 1,
                o.code,
                h.code,
                o.shown,
                h.shown
            ));
        }
        if op != hp {
            diffs.push(format!("run {} ({release}): helm status phases {op:?} vs stock {hp:?}", i + 1));
        }
    }
    let (a, b) = (sp.sequence_with_records(), sh.sequence_with_records());
    if a != b {
        let n = a.len().max(b.len());
        let mut table = String::from("  #   helm hooks run                             stock helm test\n");
        for i in 0..n {
            let (x, y) = (a.get(i).map_or("", |s| s.as_str()), b.get(i).map_or("", |s| s.as_str()));
            table.push_str(&format!("{} {i:>2}  {x:<42} {y}\n", if x == y { " " } else { "!" }));
        }
        diffs.push(format!("creates/deletes differ:\n{table}"));
    }
    eprintln!("stock helm test sequence ({} events):\n  {}", b.len(), b.join("\n  "));
    // The objects themselves: the same labels and annotations (what a user's selectors see).
    let meta = |c: &Case, what: &str| {
        let o = c.get_json(what);
        let m = o.key("metadata");
        let keys = |j: &J| match j {
            J::Object(kv) => kv
                .iter()
                .map(|(k, v)| format!("{k}={}", v.s()))
                .filter(|k| !k.contains("controller-uid"))
                // The zone and region of the node the pod was bound to, which the API
                // server copies onto it: the bed's three kwok nodes are in three zones.
                .filter(|k| !k.starts_with("topology.kubernetes.io/"))
                .collect::<Vec<_>>(),
            _ => vec![],
        };
        (keys(m.key("labels")), keys(m.key("annotations")))
    };
    for what in ["job/p-check-d", "pod/p-check-a"] {
        if plugin.hook_objects().iter().any(|o| o.eq_ignore_ascii_case(what)) {
            let (ours, theirs) = (meta(&plugin, what), meta(&helm, what));
            // --parallel 1 puts no run label on hooks: the objects are Helm's.
            if ours != theirs {
                diffs.push(format!("{what}: labels/annotations {ours:?} vs stock {theirs:?}"));
            }
        }
    }
    assert!(diffs.is_empty(), "differences from stock Helm:\n{}", diffs.join("\n"));
}

/// The same for the hooks of install and upgrade: stock `helm install` / `helm upgrade`
/// against `helm install|upgrade --no-hooks` followed by `helm hooks run --event pre-…`
/// and `--event post-…` (--parallel 1): the same hook objects created and deleted in the
/// same order, the same phases recorded.
#[test]
fn install_and_upgrade_hooks_as_stock_helm() {
    let hooks = vec![
        job("pre-a").on("pre-install").weight(-1).policy("before-hook-creation,hook-succeeded"),
        pod("pre-b").on("pre-install"),
        job("pre-c").on("pre-install").policy("hook-succeeded"),
        job("post-a").on("post-install").policy("hook-succeeded"),
        pod("post-b").on("post-install").weight(1),
        job("post-c").on("post-install,post-upgrade").weight(2),
        job("upg-a").on("pre-upgrade").policy("hook-failed"),
        job("upg-b").on("pre-upgrade").weight(1).policy("before-hook-creation,hook-succeeded"),
    ];
    let plugin = Case::new("compat-install");
    let helm = Case::new("compat-install-helm");
    let wp = plugin.watch();
    let wh = helm.watch();
    let mut problems = Vec::new();
    let mut expect_ok = |out: Out| {
        if out.code != 0 {
            problems.push(out.shown);
        }
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            for verb in ["install", "upgrade"] {
                let out = helm.helm_chart(verb, RELEASE, "", &hooks, &["--timeout", "2m"]);
                assert_eq!(out.code, 0, "{}", out.shown);
            }
        });
        let hooks_run = |event: &str| plugin.hooks(&["--event", event, "--parallel", "1", "--timeout", "2m"]);
        expect_ok(plugin.helm_chart("install", RELEASE, "", &hooks, &["--no-hooks"]));
        expect_ok(hooks_run("pre-install"));
        expect_ok(hooks_run("post-install"));
        expect_ok(plugin.helm_chart("upgrade", RELEASE, "", &hooks, &["--no-hooks"]));
        expect_ok(hooks_run("pre-upgrade"));
        expect_ok(hooks_run("post-upgrade"));
    });
    let (sp, sh) = (Seen(wp.stop()), Seen(wh.stop()));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let (a, b) = (sp.sequence(), sh.sequence());
    eprintln!("stock helm install + upgrade ({} events):\n  {}", b.len(), b.join("\n  "));
    assert_eq!(
        a,
        b,
        "hook creates/deletes differ from stock helm install/upgrade\n{}\n--- stock\n{}",
        sp.dump(),
        sh.dump()
    );
    assert_eq!(plugin.status_phases(RELEASE), helm.status_phases(RELEASE), "helm status of revision 2");
}

/// SIGTERM to `helm` during `run`: Helm 4 does not catch signals for plugins, so the
/// plugin ends where it stands and the hook it started goes on in the cluster. The next
/// `run` replaces it (its `before-hook-creation` policy, as Helm's own hook runs do) and
/// succeeds; the stored release then records the new run.
#[test]
fn an_interrupted_run_is_run_again() {
    let case = Case::new("interrupted");
    case.install(&[job("slow").secs("6s")]);
    let mut c = case.hooks_cmd(&bed().server, &bed().token, RELEASE, &[]);
    c.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    let mut child = c.spawn().unwrap();
    let t0 = std::time::Instant::now();
    let uid = loop {
        let out = run(case.kubectl(&["get", "job", "slow", "-o", "jsonpath={.metadata.uid}"]), None);
        if out.code == 0 && !out.stdout.is_empty() {
            break out.stdout;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "the run never created Job/slow");
        std::thread::sleep(Duration::from_millis(300));
    };
    let mut kill = Command::new("kill");
    kill.args(["-TERM", &child.id().to_string()]);
    let killed = std::time::Instant::now();
    ok(kill);
    let status = child.wait().unwrap();
    assert!(!status.success(), "helm ended well after SIGTERM: {status:?}");
    // Timed from the signal, not from Helm's start, which a loaded machine may make slow.
    assert!(killed.elapsed() < Duration::from_secs(3), "helm did not stop on SIGTERM within 3 s");

    let out = case.hooks(&[]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let again = ok(case.kubectl(&["get", "job", "slow", "-o", "jsonpath={.metadata.uid}"]));
    assert_ne!(again, uid, "the second run did not replace the interrupted run's Job");
    assert_eq!(case.status_phases(RELEASE), map(&[("slow", "Succeeded")]));
}

/// Load, sized for CI (the 500-hook run is scripts/bench-load.sh): 100 parallel Pod hooks
/// of 0 s and 1 s at --parallel 50, every other one `hook-succeeded`. Every hook is
/// accounted for — succeeded in the report and in the stored release, the
/// `hook-succeeded` ones deleted and the others left, as Helm's policies say — and the
/// API requests stay within 4 per hook (no request storm: about 2.7 measured).
#[test]
fn a_hundred_hooks_at_parallel_50_are_all_accounted_for() {
    let case = Case::new("load");
    let hooks: Vec<H> = (0..100)
        .map(|i| {
            let h = pod(&format!("t{i:03}")).secs(if i % 2 == 0 { "1s" } else { "0s" }).parallel();
            if i % 2 == 1 {
                h.policy("hook-succeeded")
            } else {
                h
            }
        })
        .collect();
    case.install(&hooks);
    let out = case.hooks(&["--parallel", "50", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let (doc, rows) = summary(&out.stdout);
    assert_eq!(rows.len(), 100);
    assert!(rows.values().all(|r| r.phase == "Succeeded"), "{}", out.stdout);
    let stored = case.status_phases(RELEASE);
    assert_eq!(stored.values().filter(|p| *p == "Succeeded").count(), 100, "{stored:?}");
    let left = case.hook_objects();
    let want: Vec<String> = (0..100).step_by(2).map(|i| format!("Pod/t{i:03}")).collect();
    assert_eq!(left, want, "the pods left are not those without hook-succeeded");
    let requests = doc.key("api_requests").num().unwrap();
    eprintln!("100 hooks at --parallel 50: {:.1?}, {requests} API requests", out.wall);
    assert!(requests <= 400.0, "{requests} API requests for 100 hooks");
}

/// Two `run`s of different releases in one namespace at the same moment, both parallel
/// (so each watches its hooks by the label `helm-hooks.sh/release`): each reports and
/// records exactly its own hooks, and each one's delete policies touch only its own
/// objects.
#[test]
fn two_releases_in_one_namespace_run_at_once_without_touching_each_other() {
    let case = Case::new("two-releases");
    let hooks = |keep_policy: &str| -> Vec<H> {
        (0..4).map(|i| job(&format!("h{i}")).secs("2s").parallel().policy(keep_policy)).collect()
    };
    case.install_as("one", "one-", &hooks("hook-succeeded"));
    case.install_as("two", "two-", &hooks("before-hook-creation"));
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| case.hooks_at(&bed().server, &bed().token, "one", &["--parallel", "4", "-o", "json"]));
        let b = s.spawn(|| case.hooks_at(&bed().server, &bed().token, "two", &["--parallel", "4", "-o", "json"]));
        (a.join().unwrap(), b.join().unwrap())
    });
    for (out, prefix) in [(&a, "one-"), (&b, "two-")] {
        assert_eq!(out.code, 0, "{}", out.shown);
        let (_, rows) = summary(&out.stdout);
        let names: Vec<&String> = rows.keys().collect();
        assert_eq!(names.len(), 4, "{}", out.stdout);
        assert!(names.iter().all(|n| n.starts_with(prefix)), "{prefix} run reported {names:?}");
        assert!(rows.values().all(|r| r.phase == "Succeeded"), "{}", out.stdout);
    }
    let ok4 = |p: &str| -> BTreeMap<String, String> {
        (0..4).map(|i| (format!("{p}h{i}"), "Succeeded".to_string())).collect()
    };
    assert_eq!(case.status_phases("one"), ok4("one-"));
    assert_eq!(case.status_phases("two"), ok4("two-"));
    // one's hook-succeeded deleted its own Jobs only; two's are all there.
    let jobs = ok(case.kubectl(&["get", "jobs", "-o", "name"]));
    let mut left: Vec<&str> = jobs.lines().collect();
    left.sort();
    assert_eq!(left, ["job.batch/two-h0", "job.batch/two-h1", "job.batch/two-h2", "job.batch/two-h3"]);
}

// ---------------------------------------------------------------------------------------
// -o markdown and `helm hooks status` (issue 23, docs/report.md).

/// The chart's bars of a Markdown report: (label, tags, start, end), from
/// `label :tags, id, start, end`.
fn gantt_bars(markdown: &str) -> Vec<(String, String, u64, u64)> {
    let chart = markdown.split("```mermaid\n").nth(1).unwrap_or_else(|| panic!("no chart:\n{markdown}"));
    chart
        .split("```")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| {
            let (label, rest) = l.trim().rsplit_once(" :").unwrap();
            let parts: Vec<&str> = rest.split(", ").collect();
            let n = parts.len();
            (label.to_string(), parts[..n - 3].join(", "), parts[n - 2].parse().unwrap(), parts[n - 1].parse().unwrap())
        })
        .collect()
}

fn gantt_bar<'a>(bars: &'a [(String, String, u64, u64)], reference: &str) -> &'a (String, String, u64, u64) {
    bars.iter()
        .find(|b| b.0.split(' ').next() == Some(reference))
        .unwrap_or_else(|| panic!("no bar for {reference}: {bars:?}"))
}

fn report_chart() -> Vec<H> {
    vec![
        job("db-ready").weight(-5).secs("2s"),
        job("api-suite").parallel().secs("3s"),
        job("ui-suite").parallel().secs("7s"),
        pod("cache-check").parallel().secs("1s"),
        job("smoke").weight(5).secs("1s"),
    ]
}

/// A passing run's Markdown report, and the same run's report from the release record
/// (`helm hooks status`): the chart's bars carry exactly the times of `run -o json`, the
/// straggler of the parallel weight is on the critical path, its siblings grey; `status`
/// in text and JSON says the same as the run did.
#[test]
fn markdown_report_of_a_run_and_its_status() {
    let case = Case::new("report");
    case.install(&report_chart());
    let before = case.plugin(&["status", RELEASE, "-o", "markdown"], None);
    assert_eq!(before.code, 0, "{}", before.shown);
    assert!(before.stdout.contains("No test hook of this release has run yet."), "{}", before.shown);

    let out = case.hooks(&["--parallel", "4", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let (doc, rows) = summary(&out.stdout);
    let status = case.plugin(&["status", RELEASE, "-o", "markdown"], None);
    assert_eq!(status.code, 0, "{}", status.shown);
    let md = &status.stdout;
    assert!(md.starts_with("### ✅ helm hooks status: last run of the test hooks of `r` succeeded\n"), "{md}");
    let bars = gantt_bars(md);
    for (name, row) in &rows {
        let kind = if name == "cache-check" { "Pod" } else { "Job" };
        let bar = gantt_bar(&bars, &format!("{kind}/{name}"));
        assert_eq!((Some(bar.2), Some(bar.3)), (row.started, row.completed), "{name}: {bar:?}\n{md}");
    }
    assert_eq!(gantt_bar(&bars, "Job/ui-suite").1, "", "the straggler is on the critical path\n{md}");
    assert_eq!(gantt_bar(&bars, "Job/api-suite").1, "done", "{md}");
    assert_eq!(gantt_bar(&bars, "Job/smoke").1, "", "{md}");
    // status -o json: the run's rows, times to the millisecond.
    let stored = case.plugin(&["status", RELEASE, "-o", "json"], None);
    let (sdoc, srows) = summary(&stored.stdout);
    assert_eq!(sdoc.key("outcome").s(), "succeeded", "{}", stored.shown);
    assert_eq!(doc.key("outcome").s(), "succeeded");
    for (name, row) in &rows {
        assert_eq!((srows[name].started, srows[name].completed), (row.started, row.completed), "{name}");
    }
    let text = case.plugin(&["status", RELEASE], None);
    assert!(text.stdout.contains("5 hooks of test: 5 succeeded, 0 failed, 0 not run"), "{}", text.shown);
    let junit = case.plugin(&["status", RELEASE, "-o", "junit"], None);
    assert!(junit.stdout.contains("tests=\"5\" failures=\"0\""), "{}", junit.shown);

    // The run's own -o markdown: progress on stderr, the report alone on stdout.
    let out = case.hooks(&["--parallel", "4", "-o", "markdown"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    assert!(out.stdout.starts_with("### ✅ helm hooks run: test hooks of `r` succeeded\n"), "{}", out.shown);
    assert!(out.stderr.contains("started"), "{}", out.shown);
    assert!(out.stdout.contains("**5 hooks: 5 succeeded, 0 failed, 0 not run**"), "{}", out.shown);
    keep_report("bed-run-passed", &out.stdout);
}

/// A fail-fast stop as Markdown: the failed hook red with its output folded in
/// `<details>`, the sibling outlined as stopped while running, the next weight a
/// milestone; the record says the same afterwards.
#[test]
fn markdown_report_of_a_fail_fast_stop() {
    let case = Case::new("report-ff");
    let mut hooks = fail_fast_chart("40s");
    hooks[0] = hooks[0].clone().ann("helm.sh/show-output", "true");
    case.install(&hooks);
    let out = case.hooks(&["--parallel", "8", "-o", "markdown"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let md = &out.stdout;
    assert!(md.starts_with("### ❌ helm hooks run: test hooks of `r` failed fast\n"), "{md}");
    let bars = gantt_bars(md);
    assert_eq!(gantt_bar(&bars, "Job/pre").1, "crit", "{md}");
    assert_eq!(gantt_bar(&bars, "Job/slow").1, "crit, active", "{md}");
    assert_eq!(gantt_bar(&bars, "Job/later").1, "active, milestone", "{md}");
    assert!(md.contains("<details><summary>Output of Job/pre (failed)</summary>"), "{md}");
    assert!(md.contains("Job pre output:\n  preflight: database unreachable\n  second line\n"), "{md}");
    keep_report("bed-run-fail-fast", md);

    let status = case.plugin(&["status", RELEASE, "-o", "markdown"], None);
    let stored = gantt_bars(&status.stdout);
    assert_eq!(gantt_bar(&stored, "Job/pre").1, "crit", "{}", status.stdout);
    assert_eq!((gantt_bar(&stored, "Job/pre").2, gantt_bar(&stored, "Job/pre").3), {
        let b = gantt_bar(&bars, "Job/pre");
        (b.2, b.3)
    });
    assert_eq!(gantt_bar(&stored, "Job/later").1, "active, milestone", "{}", status.stdout);
}

/// Waits (at most a minute) until the hook object `what` (`job/slow`) has ended.
fn wait_ended(case: &Case, what: &str) {
    let t0 = Instant::now();
    while completion(&case.get_json(what)).is_none() {
        assert!(t0.elapsed() < Duration::from_secs(60), "{what} never ended");
        sleep(Duration::from_millis(250));
    }
}

/// After a fail-fast stop whose sibling went on to complete, `helm hooks status` shows no
/// hook `Running` (the record says so, the cluster does not): the sibling as the cluster
/// has it, said as read now; once its object is gone, abandoned. Every hook is counted
/// once, and the header names the release, namespace, revision and event (issue 32).
#[test]
fn status_after_a_fail_fast_stop_shows_no_hook_running_and_totals_add_up() {
    let case = Case::new("status-ff");
    // The sibling outlasts the stop even on a loaded machine: how soon `pre` is failed is
    // the Job controller's, 2 s on a quiet bed, 5-6 s beside another suite, 23-32 s once
    // (fail_fast_ends_the_run_and_prints_the_output); a 12-s sibling ended first in CI once.
    case.install(&fail_fast_chart("40s"));
    let out = case.hooks(&["--parallel", "8"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let stored = case.status_phases(RELEASE);
    // When the cluster said each Job ended, beside when the run saw it: a late `pre` is
    // the Job controller's or the plugin's.
    let when = ok(case.kubectl(&[
        "get",
        "jobs",
        "-o",
        "jsonpath={range .items[*]}{.metadata.name} created {.metadata.creationTimestamp}:{range .status.conditions[*]} {.type} {.lastTransitionTime}{end}\n{end}",
    ]));
    eprintln!("the Jobs as the cluster has them:\n{when}");
    // The run saw `pre` fail soon after the cluster said so: a watch that missed the end
    // (the host build's bug of session 12, docs/limits.md) fails here, a slow Job
    // controller does not.
    let (created, failed) = {
        let line = when.lines().find(|l| l.starts_with("pre created ")).unwrap_or_else(|| panic!("no Job/pre: {when}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |i: usize| words.get(i).map(|w| w.trim_end_matches(':')).and_then(helm_hooks::base::time::parse_time);
        let failed = words.iter().position(|w| *w == "Failed").and_then(|i| at(i + 1));
        at(2).zip(failed).unwrap_or_else(|| panic!("no creation or Failed time: {line}"))
    };
    let seen_ms = out
        .stdout
        .lines()
        .find(|l| l.contains("failed    Job/pre"))
        .and_then(|l| l.strip_prefix('[')?.split_once("s]")?.0.trim().parse::<f64>().ok())
        .map(|s| (s * 1000.0) as u64)
        .unwrap_or_else(|| panic!("no line for the failure of Job/pre\n{}", out.shown));
    let cluster_ms = failed.saturating_sub(created);
    eprintln!("Job/pre failed {cluster_ms} ms after its creation, seen {seen_ms} ms after the start");
    assert!(
        seen_ms <= cluster_ms + 15_000,
        "Job/pre was seen failed {seen_ms} ms after the start, {cluster_ms} ms after its creation by the cluster\n{}\n{when}",
        out.shown
    );
    assert_eq!(stored["slow"], "Running", "the record keeps what the stopped run stored\n{}\n{when}", out.shown);
    wait_ended(&case, "job/slow");

    let text = case.plugin(&["status", RELEASE], None);
    assert_eq!(text.code, 0, "{}", text.shown);
    let header =
        format!("Release {RELEASE} in namespace {}, revision 1, an install: the last run of its test hooks", case.ns);
    assert!(text.stdout.starts_with(&header), "{}", text.shown);
    assert!(!text.stdout.contains("Running") && !text.stdout.contains("still running"), "{}", text.shown);
    assert!(text.stdout.contains("3 hooks of test: 1 succeeded, 1 failed, 1 not run"), "{}", text.shown);
    assert!(
        text.stdout.contains("Job/slow: Job Completed. succeeded: 1/1 (read from the cluster now"),
        "{}",
        text.shown
    );
    let json = case.plugin(&["status", RELEASE, "-o", "json"], None);
    let (_, rows) = summary(&json.stdout);
    assert_eq!(phases(&rows), map(&[("pre", "Failed"), ("slow", "Succeeded"), ("later", "Skipped")]), "{}", json.shown);

    // Its object gone, nothing says how it ended: abandoned.
    ok(case.kubectl(&["delete", "job", "slow", "--wait"]));
    let text = case.plugin(&["status", RELEASE], None);
    assert!(!text.stdout.contains("Running") && !text.stdout.contains("still running"), "{}", text.shown);
    assert!(text.stdout.contains("3 hooks of test: 0 succeeded, 1 failed, 1 abandoned, 1 not run"), "{}", text.shown);
    let junit = case.plugin(&["status", RELEASE, "-o", "junit"], None);
    assert!(junit.stdout.contains("tests=\"3\" failures=\"1\" skipped=\"2\""), "{}", junit.shown);
}

/// What stock `helm test` recorded is read as stock records it: on the same release, after
/// `helm hooks run` and then stock `helm test` (which runs by name, not by
/// `helm.sh/depends-on`), every hook that ran shows the phase stock recorded, none
/// `Skipped` (issue 32).
#[test]
fn status_reads_what_stock_helm_test_recorded() {
    let case = Case::new("status-stock");
    case.install(&[
        job("a-conn").parallel().ann("helm.sh/depends-on", "Job/b-db"),
        job("b-db").parallel(),
        pod("c-bad").weight(1).fails(2),
    ]);
    let ours = case.hooks(&["--parallel", "4"]);
    assert_eq!(ours.plugin_code(), Some(1), "{}", ours.shown);
    let stock = case.helm(&["test", RELEASE]);
    assert_ne!(stock.code, 0, "{}", stock.shown);
    let recorded = case.status_phases(RELEASE);
    assert_eq!(recorded, map(&[("a-conn", "Succeeded"), ("b-db", "Succeeded"), ("c-bad", "Failed")]));
    let json = case.plugin(&["status", RELEASE, "-o", "json"], None);
    assert_eq!(json.code, 0, "{}", json.shown);
    let (_, rows) = summary(&json.stdout);
    assert_eq!(phases(&rows), recorded, "status says what stock Helm recorded\n{}", json.shown);
    let text = case.plugin(&["status", RELEASE], None);
    assert!(!text.stdout.contains("Skipped"), "{}", text.shown);
    assert!(text.stdout.contains("3 hooks of test: 2 succeeded, 1 failed, 0 not run"), "{}", text.shown);
}

/// A `pre-install,pre-upgrade` hook has one `last_run` and Helm keeps no event in it: after
/// stock `helm install` and `helm upgrade`, `status` credits the upgrade revision's run to
/// pre-upgrade and shows the hook not run for pre-install there, while revision 1 keeps its
/// pre-install run. A revision or release that is not stored is exit 4 (issue 41) naming
/// the namespace and what was looked for (issue 32).
#[test]
fn status_credits_a_run_to_the_event_its_revision_ran() {
    let case = Case::new("status-event");
    let hooks = [job("m").on("pre-install,pre-upgrade")];
    case.install(&hooks);
    let upgrade = case.helm_chart("upgrade", RELEASE, "", &hooks, &[]);
    assert_eq!(upgrade.code, 0, "{}", upgrade.shown);
    // The hook's (phase, message) as `status -o json ARGS` shows it.
    let phase = |args: &[&str]| {
        let out = case.plugin(&[&["status", RELEASE, "-o", "json"], args].concat(), None);
        assert_eq!(out.code, 0, "{}", out.shown);
        let m = &summary(&out.stdout).1["m"];
        (m.phase.clone(), m.message.clone())
    };
    assert_eq!(phase(&["--event", "pre-upgrade"]).0, "Succeeded");
    let (not, why) = phase(&["--event", "pre-install"]);
    assert_eq!(not, "Skipped");
    assert!(why.starts_with("not run for pre-install on revision 2 (an upgrade)"), "{why}");
    assert_eq!(phase(&["--event", "pre-install", "--revision", "1"]).0, "Succeeded");

    let out = case.plugin(&["status", RELEASE, "--revision", "7"], None);
    assert_eq!(out.plugin_code(), Some(4), "{}", out.shown);
    let want = format!("release \"{RELEASE}\" has no revision 7 in namespace \"{}\" (looked for ", case.ns);
    assert!(out.stderr.contains(&want) && out.stderr.contains("; stored revisions: 1, 2)"), "{}", out.shown);
    // The stock build reads the Secrets itself; the host-functions build asks Helm's storage.
    let looked_for = format!("looked for Secret sh.helm.release.v1.{RELEASE}.v7;");
    assert!(host_functions() || out.stderr.contains(&looked_for), "{}", out.shown);
    let out = case.plugin(&["status", "nosuch", "--revision", "1"], None);
    assert_eq!(out.plugin_code(), Some(4), "{}", out.shown);
    assert!(
        out.stderr.contains(&format!("release \"nosuch\" not found in namespace \"{}\"", case.ns)),
        "{}",
        out.shown
    );
}

/// Issue 41: `run --logs` of a `helm.sh/show-output` Pod hook prints each container line
/// once — streamed as it came, or in the first block that closes the hook — while the
/// proposal's `Pod <name> output:` block and `helm test --logs`' `POD LOGS:` block keep
/// their headers, a block counting the lines shown above it.
#[test]
fn run_logs_of_a_show_output_hook_prints_each_line_once() {
    let case = Case::new("logs-once");
    case.install(&[pod("smoke").ann("helm.sh/show-output", "true").log("smoke test ok\nall good")]);
    let out = case.hooks(&["--logs"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    for line in ["smoke test ok", "all good"] {
        assert_eq!(out.stdout.matches(line).count(), 1, "{line:?} printed once\n{}", out.shown);
    }
    assert_eq!(out.stdout.matches("Pod smoke output:\n").count(), 1, "{}", out.shown);
    assert_eq!(out.stdout.matches("POD LOGS: smoke (main)\n").count(), 1, "{}", out.shown);
    // The POD LOGS block comes last: every line was printed before it, and it says so.
    let (_, block) = printed(&out.stdout, "smoke", "main", "all good");
    assert_eq!(block, Some((0, 2)), "{}", out.shown);
    // The report keeps the whole output.
    let json = case.hooks(&["--logs", "-o", "json"]);
    assert_eq!(json.code, 0, "{}", json.shown);
    assert!(json.stdout.contains("smoke test ok\\nall good"), "{}", json.shown);
}

/// Issue 41: `helm hooks run NAME` of a release that is in another namespace is "not found"
/// (exit 4, not a cluster error), naming the namespace searched and the one that holds it,
/// with `-n`; `status`, `rollback` and `uninstall` say the same and change nothing. A name no
/// namespace holds says so, without the storage hint (Secrets hold Helm releases here).
#[test]
fn a_release_in_another_namespace_is_named_with_its_namespace() {
    let case = Case::new("nf-here");
    // Named after its namespace: no other test's release has the name.
    let name = case.ns.to_string();
    case.install_as(&name, "", &[pod("t")]);
    let before = case.helm_history(&name);
    let elsewhere = Case::new("nf-elsewhere");
    for command in ["run", "status", "rollback", "uninstall"] {
        let out = elsewhere.plugin(&[command, &name], None);
        assert_eq!(out.plugin_code(), Some(4), "{command}: {}", out.shown);
        for want in [
            format!("release \"{name}\" not found in namespace \"{}\"", elsewhere.ns),
            format!("a release \"{name}\" is in namespace \"{}\": add -n {}", case.ns, case.ns),
        ] {
            assert!(out.stderr.contains(&want), "{command}: {want:?}\n{}", out.shown);
        }
        assert!(!out.stderr.contains("HELM_DRIVER"), "{command}: {}", out.shown);
        assert!(!out.stderr.contains("cluster or permission error"), "{command}: {}", out.shown);
    }
    assert_eq!(case.helm_history(&name), before, "nothing changed");
    assert_eq!(case.hook_objects(), Vec::<String>::new(), "no hook ran");
    let nowhere = format!("{name}-x");
    let out = elsewhere.plugin(&["run", &nowhere], None);
    assert_eq!(out.plugin_code(), Some(4), "{}", out.shown);
    assert!(out.stderr.contains(&format!("no other namespace holds a release \"{nowhere}\" either")), "{}", out.shown);
    // As the message says: with -n, it runs.
    let out = case.hooks_at(&bed().server, &bed().token, &name, &[]);
    assert_eq!(out.code, 0, "{}", out.shown);
}

// ---------------------------------------------------------------------------------------
// Lenient reads of JSON, as the checks want them: a missing key or index reads as null.

type J = serde_json::Value;

static NULL: J = J::Null;

trait Lenient {
    fn key(&self, key: &str) -> &J;
    /// A path of keys and indexes separated by '/'.
    fn at(&self, path: &str) -> &J;
    fn str(&self) -> Option<&str>;
    /// The string, or "" for anything else.
    fn s(&self) -> &str;
    fn num(&self) -> Option<f64>;
    fn arr(&self) -> &[J];
}

impl Lenient for J {
    fn key(&self, key: &str) -> &J {
        self.get(key).unwrap_or(&NULL)
    }

    fn at(&self, path: &str) -> &J {
        path.split('/').fold(self, |v, k| match (v, k.parse::<usize>()) {
            (J::Array(a), Ok(i)) => a.get(i).unwrap_or(&NULL),
            _ => v.key(k),
        })
    }

    fn str(&self) -> Option<&str> {
        self.as_str()
    }

    fn s(&self) -> &str {
        self.as_str().unwrap_or("")
    }

    fn num(&self) -> Option<f64> {
        self.as_f64()
    }

    fn arr(&self) -> &[J] {
        self.as_array().map_or(&[], Vec::as_slice)
    }
}

// ---------------------------------------------------------------------------------------
// The README, as a new user runs it.

/// The shell commands of README.md's demo, in order: every line of its `sh` blocks and
/// every `$ ` line of its `console` blocks, from "A 60-second demo" up to "Commands".
fn readme_demo() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = text.find("## A 60-second demo").expect("the README has its demo");
    let end = start + text[start..].find("\n## Commands").expect("the demo ends at Commands");
    let (mut commands, mut outputs) = (Vec::new(), Vec::new());
    let mut block: Option<&str> = None;
    let mut output = String::new();
    for line in text[start..end].lines() {
        match (block, line.trim_start().strip_prefix("```")) {
            (None, Some(kind)) => block = Some(if kind.is_empty() { "text" } else { kind }),
            (Some(_), Some("")) => {
                block = None;
                outputs.push(std::mem::take(&mut output));
            }
            (Some("sh"), None) => commands.push(line.to_string()),
            (Some("console"), None) => match line.strip_prefix("$ ") {
                Some(c) => commands.push(c.to_string()),
                None => output.push_str(&format!("{line}\n")),
            },
            _ => {}
        }
    }
    (commands, outputs)
}

/// Issue 32: every command of the README's demo, verbatim, in one shell as a new user
/// types them — a Helm home with only the plugin installed, the bed's kubeconfig as their
/// own, the repository's `testdata` where the README names it — each one succeeding;
/// the plan printed as the README shows it.
#[test]
fn the_readmes_demo_runs_verbatim() {
    let (commands, outputs) = readme_demo();
    assert!(commands.len() > 10, "{commands:?}");
    let home = HelmHome::with_plugin("readme");
    let dir = home.tmp.0.join("work");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(repo().join("testdata"), dir.join("testdata")).unwrap();
    // What the README's commands create outside the namespace, gone before and after.
    let clean = "kubectl delete namespace demo --ignore-not-found --wait=true >/dev/null 2>&1 || true\n\
                 kubectl delete clusterrolebinding helm-hooks-demo --ignore-not-found >/dev/null 2>&1 || true\n\
                 kubectl delete serviceaccount helm-hooks-demo -n default --ignore-not-found >/dev/null 2>&1 || true\n";
    let mut script =
        format!("{clean}trap 'kill $(jobs -p) 2>/dev/null; {}' EXIT\nset -euo pipefail\n", clean.replace('\n', "; "));
    for c in &commands {
        script.push_str(&format!("echo \"+ $(cat <<'CMD'\n{c}\nCMD\n)\" >&2\n{c}\n"));
    }
    let (b, t) = (bed(), &home.tmp.0);
    let dirs = [b.helm.parent().unwrap(), b.kubectl.parent().unwrap()];
    let path = format!("{}:{}:{}", dirs[0].display(), dirs[1].display(), std::env::var("PATH").unwrap_or_default());
    let mut sh = Command::new("bash");
    sh.env_clear()
        .env("PATH", path)
        .env("HOME", t)
        .env("HELM_DATA_HOME", t.join("data"))
        .env("HELM_CONFIG_HOME", t.join("config"))
        .env("HELM_CACHE_HOME", t.join("cache"))
        .env("KUBECONFIG", &b.kubeconfig)
        .current_dir(&dir)
        .arg("-c")
        .arg(&script);
    let out = run(sh, None);
    assert_eq!(out.code, 0, "a README command failed (the last `+` line):\n{}", out.shown);
    let plan = outputs.iter().find(|o| o.starts_with("Plan for rendered chart")).expect("the README shows a plan");
    assert!(out.stdout.contains(plan.as_str()), "the plan as the README shows it:\n{plan}\n{}", out.shown);
    assert!(out.stdout.contains("3 hooks of test: 3 succeeded, 0 failed, 0 not run"), "{}", out.shown);
    assert!(dir.join("tests.xml").exists(), "run -o junit > tests.xml");
}
