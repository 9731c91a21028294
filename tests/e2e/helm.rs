//! End to end through the real Helm 4: `helm template` and `helm install
//! --dry-run=client -o json` of the charts in testdata/charts, piped into
//! `helm hooks plan|lint -` of the plugin installed with `helm plugin
//! install`, compared with the golden files in tests/golden/<chart>/.
//!
//! No cluster is needed. Run with
//!
//! ```text
//! cargo build --release --target wasm32-wasip1 --lib
//! cargo test --features e2e --test e2e helm::
//! UPDATE_GOLDEN=1 cargo test --features e2e --test e2e helm::   # rewrite the goldens
//! ```
//!
//! Environment:
//! - `HELM_BIN`: the Helm 4 binary (default `$HOOKS_CACHE/bin/helm`, tests/e2e/common).
//!   A missing binary fails the tests; they never skip.
//! - `HOOKS_PLUGIN_DIR`: a ready plugin directory (plugin.yaml + plugin.wasm).
//!   Default: assembled from plugin.yaml and
//!   `$CARGO_TARGET_DIR` (else target)/wasm32-wasip1/release/helm_hooks.wasm,
//!   which must exist and be newer than every file in src/ (set
//!   `HOOKS_ALLOW_STALE_WASM=1` to skip that check).
//! - `UPDATE_GOLDEN=1`: write the outputs as the new golden files.
//! - `E2E_KEEP=1`: keep the temporary directories.
//!
//! Every test has its own Helm home (data, config, cache), kubeconfig and
//! plugin directory under a fresh temporary directory (tests/e2e/common), so the
//! tests run in parallel without sharing state; only Helm's compiled module of
//! plugin.wasm, keyed by its content, is shared between them.
//!
//! Through Helm's Wasm runtime a failing plugin always exits 1; the plugin's
//! own exit code appears in Helm's message `Error: plugin error: … [exit
//! code N]`, which is what the tests check.

use crate::common::{diff, golden_dir, repo, Golden, HelmHome, Out};

use std::path::PathBuf;
use std::time::SystemTime;

const RELEASE: &str = "r";
const NAMESPACE: &str = "demo";

fn chart_dir(chart: &str) -> PathBuf {
    repo().join("testdata/charts").join(chart)
}

// ---------------------------------------------------------------------------
// Helm with the plugin installed into a home of its own. Unlike the suites on the
// bed, it names no cluster: KUBECONFIG points at a file that does not exist.

struct Helm(HelmHome);

impl Helm {
    /// A fresh Helm home with the plugin installed.
    fn new(label: &str) -> Helm {
        Helm(HelmHome::with_plugin(label))
    }

    /// Runs helm with a clean environment: only this test's homes, a
    /// kubeconfig that does not exist (no cluster is used) and PATH.
    fn run(&self, args: &[&str], stdin: Option<&str>) -> Out {
        let mut cmd = self.0.command();
        cmd.env("KUBECONFIG", self.0.tmp.0.join("no-kubeconfig")).args(args);
        crate::common::run(cmd, stdin)
    }

    fn template(&self, chart: &str) -> String {
        let path = chart_dir(chart);
        let out = self.run(&["template", RELEASE, path.to_str().unwrap(), "--namespace", NAMESPACE], None);
        assert_eq!(out.code, 0, "helm template {chart} failed:\n{}", out.stderr);
        out.stdout
    }

    fn release_json(&self, chart: &str) -> String {
        let path = chart_dir(chart);
        let out = self.run(
            &["install", RELEASE, path.to_str().unwrap(), "--namespace", NAMESPACE, "--dry-run=client", "-o", "json"],
            None,
        );
        assert_eq!(out.code, 0, "helm install --dry-run=client {chart} failed:\n{}", out.stderr);
        assert!(out.stdout.trim_start().starts_with('{'), "not JSON:\n{}", out.stdout);
        out.stdout
    }

    fn hooks(&self, args: &[&str], input: &str) -> Out {
        let mut all = vec!["hooks"];
        all.extend_from_slice(args);
        self.run(&all, Some(input))
    }
}

// ---------------------------------------------------------------------------
// What the tests share.

/// Which input was piped into the plugin; prefixes the golden file names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Template,
    Release,
}

impl Input {
    fn prefix(self) -> &'static str {
        match self {
            Input::Template => "template",
            Input::Release => "release",
        }
    }
}

/// The checks for a chart whose plan must succeed.
fn good_chart(chart: &str, graphs_from: Input) {
    let helm = Helm::new(chart);
    let mut g = Golden::default();
    for (input, text) in [(Input::Template, helm.template(chart)), (Input::Release, helm.release_json(chart))] {
        let p = input.prefix();
        let mut cases: Vec<(String, Vec<&str>)> = vec![
            (format!("{p}.plan.txt"), vec!["plan", "-"]),
            (format!("{p}.plan.json"), vec!["plan", "-", "-o", "json"]),
            (format!("{p}.plan-parallel8.txt"), vec!["plan", "-", "--parallel", "8"]),
            (format!("{p}.lint.txt"), vec!["lint", "-"]),
        ];
        if input == graphs_from {
            cases.push((format!("{p}.plan.dot"), vec!["plan", "-", "-o", "dot"]));
            cases.push((format!("{p}.plan.mermaid"), vec!["plan", "-", "-o", "mermaid"]));
        }
        let mut plan_stderr: Option<String> = None;
        for (golden, args) in cases {
            let out = helm.hooks(&args, &text);
            if out.code != 0 {
                g.fail(format!(
                    "helm hooks {} ({p} input of {chart}) exited {}:\n{}{}",
                    args.join(" "),
                    out.code,
                    out.stdout,
                    out.stderr
                ));
            }
            if args[0] == "plan" && args.contains(&"json") {
                check_plan_json(&mut g, chart, &golden, &out.stdout);
            }
            g.check(chart, &golden, &out.stdout);
            if args[0] == "lint" {
                if !out.stderr.is_empty() {
                    g.fail(format!("helm hooks lint ({p} input of {chart}) wrote to stderr:\n{}", out.stderr));
                }
                continue;
            }
            // plan prints warnings on stderr: the same for every output format.
            match &plan_stderr {
                None => {
                    if !out.stderr.is_empty() || golden_dir(chart).join(format!("{p}.plan.stderr")).exists() {
                        g.check(chart, &format!("{p}.plan.stderr"), &out.stderr);
                    }
                    plan_stderr = Some(out.stderr);
                }
                Some(first) if *first != out.stderr => g.fail(format!(
                    "helm hooks {} ({p} input of {chart}): stderr differs from plain plan's:\n{}",
                    args.join(" "),
                    diff(first, &out.stderr)
                )),
                Some(_) => {}
            }
        }
    }
    g.finish();
}

/// Sanity of `plan -o json` beyond the golden file: it parses, and names the
/// fields docs/design.md §2 promises. (std only: a light structural check.)
fn check_plan_json(g: &mut Golden, chart: &str, golden: &str, json: &str) {
    for field in ["\"events\"", "\"event\"", "\"waves\"", "\"ref\"", "\"weight\"", "\"parallel\"", "\"after\""] {
        if !json.contains(field) {
            g.fail(format!("{chart} {golden}: plan JSON lacks {field}"));
        }
    }
    if !json.trim_end().ends_with('}') {
        g.fail(format!("{chart} {golden}: plan JSON is not one object"));
    }
}

// ---------------------------------------------------------------------------
// The charts.

#[test]
fn umbrella() {
    good_chart("umbrella", Input::Release);
}

#[test]
fn tests30() {
    good_chart("tests30", Input::Template);
}

#[test]
fn preflight() {
    good_chart("preflight", Input::Template);
}

#[test]
fn resource_groups() {
    good_chart("resource-groups", Input::Template);
}

/// The umbrella's subchart order comes from the Chart.yaml annotation, which
/// only release JSON carries: database and queue before backend, cache
/// before worker (nested), backend before frontend, the parent last.
#[test]
fn umbrella_subchart_order_from_release_json() {
    let helm = Helm::new("umbrella-order");
    let json = helm.release_json("umbrella");
    // Stock Helm 4 keeps Chart.yaml annotations but drops dependencies[].depends-on.
    assert!(json.contains("helm.sh/subchart-depends-on"), "release JSON lost the Chart.yaml annotation");
    assert!(
        !json.contains("\"depends-on\""),
        "stock Helm 4 now keeps dependencies[].depends-on: update the docs and tests"
    );
    let out = helm.hooks(&["plan", "-", "--event", "install"], &json);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let pos =
        |needle: &str| out.stdout.find(needle).unwrap_or_else(|| panic!("{needle:?} not in plan:\n{}", out.stdout));
    let database = pos(" umbrella/database: ");
    let queue = pos(" umbrella/queue: ");
    let cache = pos(" umbrella/backend/cache: ");
    let worker = pos(" umbrella/backend/worker: ");
    let config = pos(" umbrella/backend group config");
    let app = pos(" umbrella/backend group app");
    let frontend = pos(" umbrella/frontend: ");
    let routing = pos(" umbrella group routing");
    let parent = pos(" umbrella unsequenced");
    let order = [
        ("database", database.max(queue)),
        ("backend/cache", cache),
        ("backend/worker", worker),
        ("backend config", config),
        ("backend app", app),
        ("frontend", frontend),
        ("umbrella routing", routing),
        ("umbrella unsequenced", parent),
    ];
    for pair in order.windows(2) {
        assert!(pair[0].1 < pair[1].1, "{} must deploy before {}:\n{}", pair[0].0, pair[1].0, out.stdout);
    }
}

/// Issue 39: kube-prometheus-stack's subchart layout, ordered as HIP-0025's reference orders
/// it. Its `crds` subchart renders only hooks (the CRD upgrade Job) or nothing, and its
/// Windows exporter is disabled by a condition; a copy of the chart declares an order between
/// them, as an adopter would, in `helm.sh/subchart-depends-on`. The subchart that renders only
/// hooks is a node with an empty batch that orders its dependents (it was refused as
/// "unknown or disabled"); a dependency on the disabled one is refused as the reference
/// refuses it, whatever renders.
#[test]
fn kube_prometheus_stack_subchart_layout_as_the_reference_orders_it() {
    let helm = Helm::new("kps-layout");
    let order = |extra: &str| {
        format!(
            "{{\"kube-state-metrics\": [\"crds\"], \"prometheus-node-exporter\": [\"crds\"], \
             \"grafana\": [\"kube-state-metrics\", \"prometheus-node-exporter\"{extra}]}}"
        )
    };
    let release = |order: &str| {
        let dir = helm.0.tmp.0.join(format!("kps-{}", order.len()));
        let copy = std::process::Command::new("cp")
            .arg("-r")
            .arg(chart_dir("real/kube-prometheus-stack"))
            .arg(&dir)
            .status()
            .expect("cp");
        assert!(copy.success());
        let chart_yaml = dir.join("Chart.yaml");
        let text = std::fs::read_to_string(&chart_yaml).unwrap();
        let with =
            text.replacen("annotations:\n", &format!("annotations:\n  helm.sh/subchart-depends-on: '{order}'\n"), 1);
        std::fs::write(&chart_yaml, with).unwrap();
        let args = [
            "install",
            RELEASE,
            dir.to_str().unwrap(),
            "--namespace",
            NAMESPACE,
            "--dry-run=client",
            "-o",
            "json",
            "--set",
            "crds.upgradeJob.enabled=true",
        ];
        let out = helm.run(&args, None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };

    let json = release(&order(""));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let deps: Vec<String> = doc["chart"]["metadata"]["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}:{}", d["name"].as_str().unwrap(), d["enabled"]))
        .collect();
    // What the plugin relies on: Helm stores the enabled dependencies, marked so, and drops the rest.
    assert_eq!(deps, ["crds:true", "kube-state-metrics:true", "prometheus-node-exporter:true", "grafana:true"]);
    let hooks_of_crds = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["path"].as_str().unwrap().starts_with("kube-prometheus-stack/charts/crds/"));
    assert!(hooks_of_crds.count() >= 1, "the crds subchart renders its upgrade Job as hooks");

    let out = helm.hooks(&["plan", "-", "--event", "install", "-o", "json"], &json);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, resources) = install_of(&out.stdout);
    let batch_of = |sub: &str| -> Vec<u64> {
        let mut b: Vec<u64> = resources
            .iter()
            .filter(|(_, source, _)| source.starts_with(&format!("kube-prometheus-stack/charts/{sub}/")))
            .map(|r| r.2)
            .collect();
        b.sort_unstable();
        b.dedup();
        b
    };
    assert_eq!(batch_of("crds"), Vec::<u64>::new(), "the crds subchart renders no resource");
    assert_eq!(batch_of("prometheus-windows-exporter"), Vec::<u64>::new());
    let (ksm, exporter, grafana) =
        (batch_of("kube-state-metrics"), batch_of("prometheus-node-exporter"), batch_of("grafana"));
    assert!(!ksm.is_empty() && !exporter.is_empty() && !grafana.is_empty(), "{}", out.stdout);
    assert!(ksm.iter().max() < grafana.iter().min() && exporter.iter().max() < grafana.iter().min(), "{}", out.stdout);
    let own = resources.iter().filter(|(_, s, _)| !s.contains("/charts/")).map(|r| r.2).min().unwrap();
    assert!(grafana.iter().max() < Some(&own), "the parent's own resources come after its subcharts");

    // A dependency on the subchart its condition disabled: refused, with the enabled ones named.
    let json = release(&order(", \"prometheus-windows-exporter\""));
    for args in [&["plan", "-"][..], &["lint", "-"]] {
        let out = helm.hooks(args, &json);
        assert_ne!(out.code, 0, "{}", out.stdout);
        let said = out.all();
        assert!(
            said.contains(
                "subchart \"grafana\" depends-on unknown or disabled subchart \"prometheus-windows-exporter\""
            ),
            "{said}"
        );
        assert!(said.contains("crds, grafana, kube-state-metrics, prometheus-node-exporter"), "{said}");
    }
}

/// The install plan of one `plan -o json` output: (role of each batch, each resource's
/// kind, source and batch).
fn install_of(json: &str) -> (Vec<String>, Vec<(String, String, u64)>) {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}:\n{json}"));
    let install = doc["events"].as_array().unwrap().iter().find(|e| e["event"] == "install").expect("install");
    let roles =
        install["batches"].as_array().unwrap().iter().map(|b| b["role"].as_str().unwrap().to_string()).collect();
    let resources = install["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap().to_string(),
                r["source"].as_str().unwrap().to_string(),
                r["batch"].as_u64().unwrap(),
            )
        })
        .collect();
    (roles, resources)
}

/// The waves of one event of a `plan -o json` output, as kinds.
fn wave_kinds(json: &str, event: &str) -> Vec<Vec<String>> {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    let e = doc["events"].as_array().unwrap().iter().find(|e| e["event"] == event).expect("event");
    let items = e["hooks"].as_array().or(e["resources"].as_array()).unwrap();
    let kind =
        |r: &serde_json::Value| items.iter().find(|i| i["ref"] == *r).unwrap()["kind"].as_str().unwrap().to_string();
    e["waves"].as_array().unwrap().iter().map(|w| w.as_array().unwrap().iter().map(kind).collect()).collect()
}

/// A chart that declares no order (testdata/charts/plain-umbrella, shaped like the
/// public charts of issue 9): it lints clean in both input forms; its subchart's CRD
/// (a crds/ file that begins with a comment and `---`) keeps its source and, with the
/// Namespace, deploys first; everything else deploys at once, as stock Helm, whatever
/// `--parallel` says; with `--parallel-all`, the admission hooks keep Helm's kind order.
#[test]
fn plain_umbrella() {
    let chart = "plain-umbrella";
    let helm = Helm::new(chart);
    let mut g = Golden::default();
    let template = {
        let path = chart_dir(chart);
        let out =
            helm.run(&["template", RELEASE, path.to_str().unwrap(), "--namespace", NAMESPACE, "--include-crds"], None);
        assert_eq!(out.code, 0, "helm template failed:\n{}", out.stderr);
        out.stdout
    };
    let release = helm.release_json(chart);
    for (input, text) in [(Input::Template, &template), (Input::Release, &release)] {
        let p = input.prefix();
        let cases: [(&str, &[&str]); 6] = [
            ("lint.txt", &["lint", "-"]),
            ("plan.txt", &["plan", "-"]),
            ("plan-parallel-all.txt", &["plan", "-", "--parallel", "8", "--parallel-all"]),
            ("plan.json", &["plan", "-", "-o", "json"]),
            ("plan-parallel-all.dot", &["plan", "-", "-o", "dot", "--parallel", "8", "--parallel-all"]),
            ("plan.mermaid", &["plan", "-", "-o", "mermaid"]),
        ];
        for (golden, args) in cases {
            let out = helm.hooks(args, text);
            if out.code != 0 || !out.stderr.is_empty() {
                g.fail(format!("helm hooks {} ({p}): exit {}, stderr:\n{}", args.join(" "), out.code, out.stderr));
            }
            g.check(chart, &format!("{p}.{golden}"), &out.stdout);
        }
        let lint = helm.hooks(&["lint", "-"], text);
        if !lint.stdout.starts_with("no problems in 4 hooks and ") {
            g.fail(format!("lint ({p}) of a chart without new annotations is not clean:\n{}", lint.stdout));
        }

        let plan = helm.hooks(&["plan", "-", "-o", "json"], text).stdout;
        let (roles, resources) = install_of(&plan);
        if roles != ["crds-and-namespaces", "all-at-once"] {
            g.fail(format!("{p}: batches {roles:?}, want CRDs and Namespaces, then all at once"));
        }
        for (kind, source, batch) in &resources {
            let first = kind == "CustomResourceDefinition" || kind == "Namespace";
            if (*batch == 1) != first {
                g.fail(format!("{p}: {kind} from {source} is in batch {batch}"));
            }
        }
        let crds: Vec<&String> = resources.iter().filter(|r| r.0 == "CustomResourceDefinition").map(|r| &r.1).collect();
        // Release JSON carries no subchart's crds/ (Helm installs them apart).
        let want: &[&str] =
            if input == Input::Template { &["plain-umbrella/charts/alpha/crds/widgets.yaml"] } else { &[] };
        if crds != want {
            g.fail(format!("{p}: CRD sources {crds:?}, want {want:?}"));
        }
        let parallel = helm.hooks(&["plan", "-", "-o", "json", "--parallel", "8"], text).stdout;
        if wave_kinds(&parallel, "install") != wave_kinds(&plan, "install") {
            g.fail(format!("{p}: --parallel 8 changed the resources' waves"));
        }
        // The picture: events top to bottom in the order a release lives through them,
        // pre-install and pre-upgrade (the same hooks) drawn once, the five resources
        // of the second batch folded into one node with their count.
        let dot = helm.hooks(&["plan", "-", "-o", "dot"], text).stdout;
        let at = |needle: &str| dot.find(needle).unwrap_or(usize::MAX);
        let (hooks, install) =
            (at("subgraph \"cluster_pre-install, pre-upgrade\""), at("subgraph \"cluster_install\""));
        if hooks >= install || install == usize::MAX {
            g.fail(format!("{p}: events not in lifecycle order in the picture:\n{dot}"));
        }
        if dot.matches("label=\"then\"").count() != 1 || !dot.contains("label=\"5 resources, together\\n") {
            g.fail(format!("{p}: want one `then` between the two events and the batch folded:\n{dot}"));
        }
        let all = helm.hooks(&["plan", "-", "-o", "json", "--parallel", "8", "--parallel-all"], text).stdout;
        let waves = wave_kinds(&all, "pre-install");
        if waves != [vec!["ServiceAccount"], vec!["ClusterRole", "ClusterRoleBinding"], vec!["Job"]] {
            g.fail(format!("{p}: --parallel-all pre-install waves {waves:?}, want Helm's kind order"));
        }
    }
    g.finish();
}

/// A Helm 2-era chart (testdata/charts/helm2-crds): Helm drops its `crd-install` CRD
/// before the plugin sees anything. `helm template` output cannot show it (Helm's own
/// stderr does); release JSON carries the template, and lint names it, as a warning.
#[test]
fn helm2_crd_install_hooks_are_named() {
    let chart = "helm2-crds";
    let helm = Helm::new(chart);
    let mut g = Golden::default();
    let path = chart_dir(chart);
    let template = helm.run(&["template", RELEASE, path.to_str().unwrap(), "--namespace", NAMESPACE], None);
    assert!(template.stderr.contains("skipping unknown hooks"), "{}", template.stderr);
    let lint = helm.hooks(&["lint", "-"], &template.stdout);
    assert_eq!((lint.code, lint.stdout.as_str()), (0, "no problems in 0 hooks and 1 resource\n"), "{}", lint.stderr);

    let release = helm.release_json(chart);
    let lint = helm.hooks(&["lint", "-"], &release);
    assert_eq!(lint.code, 0, "a dropped hook is a warning:\n{}{}", lint.stdout, lint.stderr);
    g.check(chart, "release.lint.txt", &lint.stdout);
    if !lint.stdout.lines().any(|l| {
        l.starts_with(
            "warning: helm2-crds/templates/crd.yaml CustomResourceDefinition/backups.example.com: helm.sh/hook: ",
        ) && l.contains("crd-install")
            && l.contains("CustomResourceDefinition")
    }) {
        g.fail(format!("no warning for the dropped crd-install hook:\n{}", lint.stdout));
    }
    let plan = helm.hooks(&["plan", "-"], &release);
    if plan.code != 0 || !plan.stderr.contains("crd-install") {
        g.fail(format!("plan must run and warn on stderr:\n{}{}", plan.stdout, plan.stderr));
    }
    g.finish();
}

/// Release JSON carries timestamps (info.first_deployed, last_deployed,
/// chart.templates[].modtime, …); the plan must not depend on them.
#[test]
fn release_json_timestamps_do_not_change_the_plan() {
    let helm = Helm::new("timestamps");
    let json = helm.release_json("umbrella");
    let (moved, n) = replace_timestamps(&json);
    assert!(n >= 3, "expected info.first_deployed, info.last_deployed and modtimes in the release JSON, found {n}");
    assert_ne!(moved, json);
    for args in [&["plan", "-", "-o", "json"][..], &["plan", "-"][..], &["lint", "-"][..]] {
        let a = helm.hooks(args, &json);
        let b = helm.hooks(args, &moved);
        assert_eq!(a.code, 0, "{}", a.stderr);
        assert_eq!(a.stdout, b.stdout, "helm hooks {} changed with the timestamps", args.join(" "));
        assert_eq!(a.stderr, b.stderr);
        assert!(
            !a.stdout.contains("2000-01-01") && !a.stdout.contains(&this_year()),
            "the plan prints a timestamp:\n{}",
            a.stdout
        );
    }
    // And two dry runs (different timestamps) give the golden plan.
    let again = helm.release_json("umbrella");
    assert_eq!(
        helm.hooks(&["plan", "-", "-o", "json"], &again).stdout,
        helm.hooks(&["plan", "-", "-o", "json"], &json).stdout
    );
}

fn this_year() -> String {
    let secs = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    format!("{}-", 1970 + secs / 31_556_952)
}

/// Sets every `"…deployed"`, `"…modtime"` and `"…_at"` string value to 2000-01-01.
fn replace_timestamps(json: &str) -> (String, usize) {
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    let mut n = 0;
    while let Some(start) = rest.find("\":\"") {
        let key_start = rest[..start].rfind('"').map_or(0, |k| k + 1);
        let key = &rest[key_start..start];
        let value_start = start + 3;
        out.push_str(&rest[..value_start]);
        rest = &rest[value_start..];
        if key.ends_with("deployed") || key.ends_with("modtime") || key.ends_with("_at") {
            let end = rest.find('"').expect("closed string");
            if rest[..end].len() >= 20 && rest.as_bytes()[4] == b'-' {
                out.push_str("2000-01-01T00:00:00Z");
                rest = &rest[end..];
                n += 1;
            }
        }
    }
    out.push_str(rest);
    (out, n)
}

// ---------------------------------------------------------------------------
// The errors chart.

/// Every problem lint must name, with the document, the annotation and what
/// is wrong. Each entry is checked as a substring of one line of the lint
/// output, so a lost diagnostic fails the test.
const EXPECTED_ERRORS: &[(&str, &[&str])] = &[
    ("bad JSON in depends-on", &["Job/bad-json", "helm.sh/depends-on", "is not a JSON array"]),
    ("not a Kind/name reference", &["Job/not-a-reference", "helm.sh/depends-on", "\"migrate\" is not a reference"]),
    ("reference to nothing", &["Job/dangling", "helm.sh/depends-on", "Job/does-not-exist"]),
    ("hook of another event", &["Pod/other-event", "helm.sh/depends-on", "Job/migrate", "pre-install"]),
    ("dependency on a higher weight", &["Job/early", "helm.sh/depends-on", "Job/late", "higher weight"]),
    ("depends on itself", &["Job/self", "helm.sh/depends-on", "itself"]),
    ("depends-on cycle", &["cycle", "Pod/cycle-a", "Pod/cycle-b", "Pod/cycle-c"]),
    ("cycle through serial order", &["cycle", "Pod/serial-a", "Pod/serial-z", "Pod/serial-m", "serial order"]),
    ("yes for hook-parallel", &["Job/yes-parallel", "helm.sh/hook-parallel", "\"yes\" is not a boolean"]),
    ("yes for hook-fail-fast", &["Job/yes-fail-fast", "helm.sh/hook-fail-fast", "\"yes\" is not a boolean"]),
    ("yes for show-output", &["Job/yes-show-output", "helm.sh/show-output", "\"yes\" is not a boolean"]),
    ("resource depending on a hook", &["Deployment/waits-for-hook", "helm.sh/depends-on", "Job/migrate", "hook"]),
    ("resource-group cycle", &["helm.sh/depends-on/resource-groups", "circular dependency", "ring-x", "ring-y"]),
    (
        "resource in two groups",
        &["Secret/twice", "helm.sh/resource-group", "multiple resource groups", "ring-x", "ring-y"],
    ),
    (
        "malformed readiness expression",
        &["StatefulSet/bad-readiness", "helm.sh/readiness-success", ".readyReplicas >= 1"],
    ),
    ("ordering operator on text", &["Pod/text-ordering", "helm.sh/readiness-success", "non-number"]),
];

/// What HIP-0025's reference demotes with a warning when it installs: a warning from
/// `lint` as from `plan` and `deploy` (one input, one verdict), an error under
/// `lint --strict`.
const EXPECTED_STRICT: &[(&str, &[&str])] = &[
    ("group depends on a missing group", &["ConfigMap/orphan", "non-existent group \"nonexistent\""]),
    (
        "invalid JSON in resource-group dependencies",
        &["ConfigMap/group-bad-json", "helm.sh/depends-on/resource-groups", "invalid JSON"],
    ),
    (
        "missing readiness side",
        &["Deployment/half-readiness", "helm.sh/readiness-success", "without helm.sh/readiness-failure"],
    ),
];

const EXPECTED_WARNINGS: &[(&str, &[&str])] = &[
    ("hook-weight abc", &["Job/weight-abc", "helm.sh/hook-weight", "\"abc\"", "0"]),
    ("unknown delete policy", &["Job/weight-abc", "helm.sh/hook-delete-policy", "hook-succeded"]),
    ("fail-fast on a ConfigMap", &["ConfigMap/fail-fast-configmap", "helm.sh/hook-fail-fast"]),
    ("resource-group on a hook", &["ConfigMap/fail-fast-configmap", "helm.sh/resource-group"]),
    ("hook annotation on a resource", &["Deployment/waits-for-hook", "helm.sh/hook-weight", "ignored"]),
];

/// Only release JSON carries Chart.yaml, so only it shows these.
const EXPECTED_CHART_ERRORS: &[(&str, &[&str])] = &[
    ("subchart-depends-on not an object of arrays", &["errors/Chart.yaml", "helm.sh/subchart-depends-on"]),
    ("depends-on/subcharts not an array", &["errors/Chart.yaml", "helm.sh/depends-on/subcharts", "JSON array"]),
];

/// Helm drops the document with an unknown event before the plugin sees it; only
/// release JSON, which carries the chart's templates, can still name it.
const EXPECTED_RELEASE_WARNINGS: &[(&str, &[&str])] =
    &[("unknown event dropped by Helm", &["ConfigMap/typo-event", "helm.sh/hook", "\"pre-instal\"", "drops"])];

fn expect_lines(g: &mut Golden, what: &str, output: &str, level: &str, expected: &[(&str, &[&str])]) {
    for (name, parts) in expected {
        let found = output.lines().any(|l| l.starts_with(level) && parts.iter().all(|p| l.contains(p)));
        if !found {
            g.fail(format!(
                "{what}: no {} line for {name:?} containing all of {parts:?}; output:\n{output}",
                level.trim_end_matches(": ")
            ));
        }
    }
}

#[test]
fn errors() {
    let chart = "errors";
    let helm = Helm::new(chart);
    let mut g = Golden::default();

    // The chart renders with stock Helm, which drops the unknown event itself.
    let template = {
        let out = helm.run(&["template", RELEASE, chart_dir(chart).to_str().unwrap(), "--namespace", NAMESPACE], None);
        assert_eq!(out.code, 0, "helm template errors failed:\n{}", out.stderr);
        assert!(out.stderr.contains("skipping unknown hooks") && out.stderr.contains("pre-instal"), "{}", out.stderr);
        assert!(!out.stdout.contains("typo-event"), "stock Helm kept a document with an unknown hook event");
        out.stdout
    };
    let release = helm.release_json(chart);

    for (input, text) in [(Input::Template, template), (Input::Release, release)] {
        let p = input.prefix();
        let lint = helm.hooks(&["lint", "-"], &text);
        g.check(chart, &format!("{p}.lint.txt"), &lint.stdout);
        g.check(chart, &format!("{p}.lint.stderr"), &lint.stderr);
        g.check(chart, &format!("{p}.lint.exit"), &format!("{}\n", lint.code));
        if lint.code != 1 || !lint.stderr.contains("[exit code 2]") {
            g.fail(format!(
                "lint of errors ({p}): want exit 1 with Helm's \"[exit code 2]\", got {}:\n{}",
                lint.code, lint.stderr
            ));
        }
        expect_lines(&mut g, &format!("lint ({p})"), &lint.stdout, "error: ", EXPECTED_ERRORS);
        expect_lines(&mut g, &format!("lint ({p})"), &lint.stdout, "warning: ", EXPECTED_WARNINGS);
        expect_lines(&mut g, &format!("lint ({p})"), &lint.stdout, "warning: ", EXPECTED_STRICT);
        let strict = helm.hooks(&["lint", "-", "--strict"], &text);
        expect_lines(&mut g, &format!("lint --strict ({p})"), &strict.stdout, "error: ", EXPECTED_STRICT);
        expect_lines(&mut g, &format!("lint --strict ({p})"), &strict.stdout, "error: ", EXPECTED_WARNINGS);
        if strict.stdout.lines().any(|l| l.starts_with("warning: ")) || !strict.stderr.contains("[exit code 2]") {
            g.fail(format!("lint --strict ({p}) left a warning or passed:\n{}", strict.shown));
        }
        if let Input::Release = input {
            expect_lines(&mut g, &format!("lint ({p})"), &lint.stdout, "error: ", EXPECTED_CHART_ERRORS);
            expect_lines(&mut g, &format!("lint ({p})"), &lint.stdout, "warning: ", EXPECTED_RELEASE_WARNINGS);
        }
        for line in lint.stdout.lines().filter(|l| l.starts_with("error: ") || l.starts_with("warning: ")) {
            if !line.contains("errors/") {
                g.fail(format!("lint ({p}): a problem without its source path: {line}"));
            }
        }

        let json = helm.hooks(&["lint", "-", "-o", "json"], &text);
        g.check(chart, &format!("{p}.lint.json"), &json.stdout);
        if json.code != 1 || !json.stderr.contains("[exit code 2]") {
            g.fail(format!(
                "lint -o json of errors ({p}): want exit 1 with \"[exit code 2]\", got {}:\n{}",
                json.code, json.stderr
            ));
        }

        // plan refuses, prints every error on stderr and nothing on stdout.
        let plan = helm.hooks(&["plan", "-"], &text);
        g.check(chart, &format!("{p}.plan.stderr"), &plan.stderr);
        if plan.code != 1 || !plan.stderr.contains("[exit code 2]") || !plan.stdout.is_empty() {
            g.fail(format!(
                "plan of errors ({p}): want exit 1, \"[exit code 2]\" and no plan, got {}:\n{}{}",
                plan.code, plan.stdout, plan.stderr
            ));
        }
        let plan_errors: Vec<_> = EXPECTED_ERRORS
            .iter()
            .filter(|(n, _)| {
                !matches!(
                    *n,
                    "group depends on a missing group"
                        | "invalid JSON in resource-group dependencies"
                        | "ordering operator on text"
                        | "missing readiness side"
                )
            })
            .copied()
            .collect();
        expect_lines(&mut g, &format!("plan ({p})"), &plan.stderr, "error: ", &plan_errors);
    }
    g.finish();
}

/// A document with an unknown hook event never reaches the plugin through
/// Helm (Helm drops it); a hand-written stream can still carry one, and lint
/// warns that Helm would skip it.
#[test]
fn unknown_event_in_handwritten_input_is_a_warning() {
    let helm = Helm::new("unknown-event");
    let input = "---\n# Source: app/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo-event\n  annotations:\n    helm.sh/hook: pre-instal\n---\n# Source: app/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n";
    let out = helm.hooks(&["lint", "-"], input);
    assert_eq!(out.code, 0, "a warning must not fail lint:\n{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.lines().any(|l| l.starts_with("warning: ")
            && l.contains("app/templates/a.yaml")
            && l.contains("ConfigMap/typo-event")
            && l.contains("helm.sh/hook")
            && l.contains("pre-instal")),
        "no warning for the unknown event:\n{}",
        out.stdout
    );
    let plan = helm.hooks(&["plan", "-", "-o", "json"], input);
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    assert!(
        !plan.stdout.contains("\"ref\": \"ConfigMap/typo-event\""),
        "the dropped document is in the plan:\n{}",
        plan.stdout
    );
    assert!(plan.stdout.contains("\"ref\": \"ConfigMap/fine\""), "the plan lost the good document:\n{}", plan.stdout);
}

/// Exit codes through Helm: success is 0; a usage error is the plugin's 2,
/// which Helm reports as 1 with the code in its message.
#[test]
fn exit_codes_through_helm() {
    let helm = Helm::new("exit-codes");
    let v = helm.hooks(&["version"], "");
    assert_eq!(
        (v.code, v.stdout.trim()),
        (0, format!("helm-hooks {}", env!("CARGO_PKG_VERSION")).as_str()),
        "{}",
        v.stderr
    );
    let bad = helm.hooks(&["plan", "-", "--parallel", "many"], "");
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(bad.stderr.contains("--parallel") && bad.stderr.contains("[exit code 2]"), "{}", bad.stderr);
    let empty = helm.hooks(&["plan", "-"], "");
    assert_eq!(empty.code, 1);
    assert!(empty.stderr.contains("empty") && empty.stderr.contains("[exit code 2]"), "{}", empty.stderr);
    // A release name is read from the cluster: without one, exit 3 naming both ways in.
    let no_cluster = helm.hooks(&["plan", "r"], "");
    assert_eq!(no_cluster.code, 1);
    assert!(
        no_cluster.stderr.contains("[exit code 3]") && no_cluster.stderr.contains("kubectl proxy"),
        "{}",
        no_cluster.stderr
    );
    // A release as YAML: pipe JSON, not "has no kind".
    let yaml = helm
        .run(&["install", RELEASE, chart_dir("preflight").to_str().unwrap(), "--dry-run=client", "-o", "yaml"], None);
    let out = helm.hooks(&["plan", "-"], &yaml.stdout);
    assert!(out.stderr.contains("-o json") && !out.stderr.contains("has no kind"), "{}", out.stderr);
}

/// Issue 39: an alias bomb under a pod template's annotations, past the head the planner
/// reads, is refused as Helm refuses it (goyaml's alias rule: `document contains excessive
/// aliasing`), exit code 2, counted without expanding it: in about the time of a harmless
/// input of the same shape.
#[test]
fn an_alias_bomb_in_a_body_is_refused_as_helm_refuses_it() {
    let helm = Helm::new("alias-bomb");
    let mut bomb = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().zip(["b", "c", "d", "e", "f", "g", "h", "i"]) {
        bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(", ")));
    }
    let deployment = |annotations: &str| {
        let indented: String = annotations.lines().map(|l| format!("        {l}\n")).collect();
        format!(
            "---\n# Source: c/templates/web.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n\
             spec:\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n\
             \x20     annotations:\n{indented}    spec:\n      containers: [{{name: main, image: nginx}}]\n"
        )
    };
    let harmless = helm.hooks(&["lint", "-"], &deployment("a: [lol]\nb: [lol]\n"));
    assert_eq!(harmless.code, 0, "{}", harmless.shown);
    let out = helm.hooks(&["lint", "-"], &deployment(&bomb));
    assert_eq!(out.code, 1, "{}", out.shown);
    let said = out.all();
    assert!(said.contains("[exit code 2]"), "{said}");
    assert!(said.contains("c/templates/web.yaml") && said.contains("document contains excessive aliasing"), "{said}");
    eprintln!("harmless {:?}, bomb {:?}", harmless.wall, out.wall);
    assert!(out.wall < harmless.wall + std::time::Duration::from_secs(1), "{:?} vs {:?}", out.wall, harmless.wall);
}

/// The command line through Helm (issue 20): each command's own help, `helm help hooks`
/// with every command's summary, `--flag=false` read as false, flags a command does not
/// have refused, input that is not a release (or is Helm's text output) named.
#[test]
fn command_line_through_helm() {
    let helm = Helm::new("command-line");
    let root = helm.hooks(&["--help"], "");
    for c in helm_hooks::cli::spec::COMMANDS {
        let out = helm.hooks(&[c.name, "--help"], "");
        assert_eq!((out.code, out.stdout.as_str()), (0, c.help().as_str()), "{}", out.stderr);
        assert_ne!(out.stdout, root.stdout);
    }
    let help = helm.run(&["help", "hooks"], None);
    for c in helm_hooks::cli::spec::COMMANDS {
        assert!(help.stdout.contains(&format!("  {:<12}{}\n", c.name, c.summary)), "{}", help.stdout);
    }
    // --parallel-all=false leaves unannotated hooks serial: 2 waves, not 1.
    let two = "---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: a\n  annotations:\n    helm.sh/hook: test\n---\n# Source: c/templates/b.yaml\nkind: Job\nmetadata:\n  name: b\n  annotations:\n    helm.sh/hook: test\n";
    for (flag, waves) in [
        ("--parallel-all", " in 1 wave"),
        ("--parallel-all=true", " in 1 wave"),
        ("--parallel-all=false", ", one at a time"),
    ] {
        let out = helm.hooks(&["plan", "-", "--parallel", "2", flag], two);
        assert!(
            out.code == 0 && out.stdout.contains(&format!("test: 2 hooks{waves}\n")),
            "{flag}: {}{}",
            out.stdout,
            out.stderr
        );
    }
    let out = helm.hooks(&["plan", "-", "--parallel-all=maybe"], two);
    assert!(
        out.code == 1
            && out.stderr.contains("invalid argument \"maybe\" for --parallel-all")
            && out.stderr.contains("[exit code 2]"),
        "{}",
        out.stderr
    );
    let out = helm.hooks(&["lint", "-", "--parallel", "2"], two);
    assert!(
        out.stderr.contains("unknown flag --parallel for helm hooks lint")
            && out.stderr.contains("Run 'helm hooks lint --help'"),
        "{}",
        out.stderr
    );
    // Not a release: never "no problems in 0 hooks and 0 resources".
    for input in ["{}", r#"{"name": "r"}"#, r#"{"kind": "List", "apiVersion": "v1", "items": []}"#] {
        let out = helm.hooks(&["lint", "-"], input);
        assert!(
            out.code == 1 && out.stderr.contains("[exit code 2]") && !out.stdout.contains("no problems"),
            "{input}: {}{}",
            out.stdout,
            out.stderr
        );
    }
    let object = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "t", "annotations": {"helm.sh/hook": "test", "helm.sh/hook-parallel": "maybe"}}}"#;
    let out = helm.hooks(&["lint", "-"], object);
    assert!(out.code == 1 && out.stdout.contains("maybe"), "{}{}", out.stdout, out.stderr);
    // helm install --dry-run=client without -o json.
    let text = helm.run(&["install", RELEASE, chart_dir("preflight").to_str().unwrap(), "--dry-run=client"], None);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let out = helm.hooks(&["plan", "-"], &text.stdout);
    assert!(out.stderr.contains("add -o json") && !out.stderr.contains("has no kind"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------
// Public charts (testdata/charts/real, sources and licences in its README): what
// a chart author sees who uses none of the new annotations.

/// Plan and lint of a public chart, from `helm template --include-crds` and from
/// `helm install --dry-run=client -o json`, with its default values and (when
/// `<chart>.hooks-values.yaml` exists) with the values that switch its hooks on, against
/// tests/golden/real/<chart>/ (whose README says why each warning is there). Both must
/// succeed, and at `--parallel 1` every event's hooks come in Helm's order.
fn real_chart(name: &str) {
    let helm = Helm::new(name);
    let mut g = Golden::default();
    let dir = repo().join("testdata/charts/real");
    let chart = dir.join(name);
    let chart = chart.to_str().unwrap();
    let hooks_values = dir.join(format!("{name}.hooks-values.yaml"));
    let mut variants: Vec<(&str, Vec<&str>)> = vec![("default", vec![])];
    if hooks_values.is_file() {
        variants.push(("hooks", vec!["-f", hooks_values.to_str().unwrap()]));
    }
    let golden_chart = format!("real/{name}");
    for (variant, values) in variants {
        let render = |args: &[&str]| {
            let mut all = args.to_vec();
            all.extend_from_slice(&values);
            let out = helm.run(&all, None);
            assert_eq!(out.code, 0, "helm {} failed:\n{}", all.join(" "), out.stderr);
            out.stdout
        };
        let template = render(&["template", RELEASE, chart, "--namespace", NAMESPACE, "--include-crds"]);
        let release = render(&["install", RELEASE, chart, "--namespace", NAMESPACE, "--dry-run=client", "-o", "json"]);
        for (input, text) in [("template", &template), ("release", &release)] {
            for (what, args) in [("plan", vec!["plan", "-"]), ("lint", vec!["lint", "-"])] {
                let out = helm.hooks(&args, text);
                if out.code != 0 {
                    g.fail(format!(
                        "helm hooks {what} ({variant} {input} of {name}) exited {}:\n{}{}",
                        out.code, out.stdout, out.stderr
                    ));
                }
                let mut shown = out.stdout.clone();
                if !out.stderr.is_empty() {
                    shown.push_str("--- stderr\n");
                    shown.push_str(&out.stderr);
                }
                g.check(&golden_chart, &format!("{variant}.{input}.{what}.txt"), &shown);
            }
            let json = helm.hooks(&["plan", "-", "-o", "json"], text);
            check_helm_order(&mut g, &format!("{name} ({variant} {input})"), &json.stdout);
        }
    }
    g.finish();
}

/// Every hook event's waves at `--parallel 1`, flattened, are Helm's order: weight, then
/// name (the kind only breaks ties between equal names).
fn check_helm_order(g: &mut Golden, what: &str, json: &str) {
    let doc: serde_json::Value = match serde_json::from_str(json) {
        Ok(d) => d,
        Err(e) => return g.fail(format!("{what}: plan -o json is not JSON: {e}")),
    };
    for event in doc["events"].as_array().into_iter().flatten() {
        let Some(hooks) = event["hooks"].as_array() else { continue };
        let key = |r: &str| {
            let h = hooks.iter().find(|h| h["ref"] == r).expect("a wave names a hook of the event");
            (h["weight"].as_i64().unwrap_or(0), h["name"].as_str().unwrap_or_default().to_string())
        };
        let order: Vec<&str> = event["waves"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|w| w.as_array().into_iter().flatten())
            .filter_map(|r| r.as_str())
            .collect();
        let mut sorted = order.clone();
        sorted.sort_by_key(|r| key(r));
        if order != sorted || order.len() != hooks.len() {
            g.fail(format!("{what}: event {} runs {order:?}, Helm's order is {sorted:?}", event["event"]));
        }
    }
}

#[test]
fn real_ingress_nginx() {
    real_chart("ingress-nginx");
}

#[test]
fn real_cert_manager() {
    real_chart("cert-manager");
}

#[test]
fn real_vault() {
    real_chart("vault");
}

#[test]
fn real_kube_prometheus_stack() {
    real_chart("kube-prometheus-stack");
}

#[test]
fn real_prometheus() {
    real_chart("prometheus");
}

#[test]
fn real_argo_cd() {
    real_chart("argo-cd");
}

#[test]
fn real_sentry() {
    real_chart("sentry");
}

#[test]
fn real_ark() {
    real_chart("ark");
}

#[test]
fn real_airflow() {
    real_chart("airflow");
}

#[test]
fn real_traefik() {
    real_chart("traefik");
}

#[test]
fn real_nats() {
    real_chart("nats");
}

#[test]
fn real_rook_ceph() {
    real_chart("rook-ceph");
}

/// `lint`'s order check (docs/commands.md, "Order bugs") is silent on every public chart:
/// stock Helm's order works for them. Each chart, with its default values and its hooks
/// values, as `helm template --include-crds` and as `helm install --dry-run=client -o
/// json` render it (the real Helm; no plugin, no cluster), is planned as `lint` plans it
/// and checked. So that silence is not for want of anything to check, the references
/// their workloads make to objects of the same release are counted too.
#[test]
fn real_charts_have_no_order_warning() {
    use helm_hooks::model::diagnostic::Diagnostics;
    use helm_hooks::model::{input, manifest::Syntax, pod_spec};
    use helm_hooks::plan::{self, order_check};

    let home = HelmHome::new("order-check");
    let dir = repo().join("testdata/charts/real");
    let charts = [
        "airflow",
        "argo-cd",
        "ark",
        "cert-manager",
        "ingress-nginx",
        "kube-prometheus-stack",
        "nats",
        "prometheus",
        "rook-ceph",
        "sentry",
        "traefik",
        "vault",
    ];
    let (mut inputs, mut resolved, mut through_hooks) = (0, 0, 0);
    let mut noise = Vec::new();
    for name in charts {
        let chart = dir.join(name);
        let chart = chart.to_str().unwrap();
        let hooks_values = dir.join(format!("{name}.hooks-values.yaml"));
        let mut variants = vec![vec![]];
        if hooks_values.is_file() {
            variants.push(vec!["-f".to_string(), hooks_values.to_str().unwrap().to_string()]);
        }
        for values in &variants {
            for render in [
                vec!["template", RELEASE, chart, "--namespace", NAMESPACE, "--include-crds"],
                vec!["install", RELEASE, chart, "--namespace", NAMESPACE, "--dry-run=client", "-o", "json"],
            ] {
                let mut c = home.command();
                c.env("KUBECONFIG", home.tmp.0.join("no-kubeconfig")).args(&render).args(values);
                let out = crate::common::run(c, None);
                assert_eq!(out.code, 0, "helm {} failed:\n{}", render.join(" "), out.stderr);
                let mut diags = Diagnostics::default();
                let (_, release) = input::parse_as(out.stdout.as_bytes(), Syntax::Whole, &mut diags).unwrap();
                let planned = plan::build(&release, &[], plan::PlanOptions::default(), &mut diags);
                inputs += 1;
                for w in order_check::check(&release, &planned) {
                    noise.push(format!("{name} ({} {values:?}): {w}", render[0]));
                }
                // (kind, name) of each object the release makes, and whether a hook makes it.
                let made: std::collections::HashMap<(&str, &str), bool> =
                    (release.hooks.iter().map(|h| (&h.head, true)))
                        .chain(release.resources.iter().map(|r| (&r.head, false)))
                        .map(|(h, hook)| ((h.kind.as_str(), h.name.as_str()), hook))
                        .collect();
                let workloads = (release.hooks.iter().map(|h| (&h.head, &h.manifest, true)))
                    .chain(release.resources.iter().map(|r| (&r.head, &r.manifest, false)));
                for (head, manifest, hook) in workloads {
                    for r in pod_spec::references(&head.kind, manifest) {
                        if let Some(&made_by_hook) = made.get(&(r.kind, r.name.as_str())) {
                            resolved += 1;
                            through_hooks += usize::from(hook || made_by_hook);
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{} charts, {inputs} inputs, {resolved} references to objects of the same release \
         ({through_hooks} from or to a hook), {} order warnings",
        charts.len(),
        noise.len()
    );
    assert!(noise.is_empty(), "order warnings on public charts:\n{}", noise.join("\n"));
    assert!(
        resolved > 100 && through_hooks > 10,
        "only {resolved} references found ({through_hooks} of hooks): is the check reading the pod specs?"
    );
}

/// Issue 31's "must show", through the real Helm and the installed plugin: a chart whose
/// Deployment mounts a ConfigMap made by a post-install hook gets the order warning, from
/// `helm template` and from release JSON alike, naming both objects, the field and the
/// fix; warnings alone leave lint at exit 0.
#[test]
fn order_bug_is_warned_through_helm() {
    let chart = "order-bug";
    let helm = Helm::new(chart);
    for input in [helm.template(chart), helm.release_json(chart)] {
        let lint = helm.hooks(&["lint", "-"], &input);
        assert_eq!(lint.code, 0, "{}{}", lint.stdout, lint.stderr);
        assert!(
            lint.stdout.starts_with(
                "warning: order-bug/templates/deployment.yaml Deployment/r-web: \
                 spec.template.spec.volumes[0].configMap.name names ConfigMap/r-web-config \
                 (order-bug/templates/config.yaml), a post-install,post-upgrade hook, which Helm creates only \
                 after every resource is ready; its pods cannot start without it\n  \
                 help: make ConfigMap/r-web-config a pre-install,pre-upgrade hook"
            ) && lint.stdout.ends_with("0 errors, 1 warning\n"),
            "{}",
            lint.stdout
        );
        let json = helm.hooks(&["lint", "-", "-o", "json"], &input);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("lint -o json");
        assert_eq!(v["warnings"].as_array().map(Vec::len), Some(1), "{}", json.stdout);
        assert_eq!(v["warnings"][0]["location"]["object"], "Deployment/r-web");
    }
}
