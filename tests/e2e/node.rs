//! End to end on the bed's real node: hooks and resources that run in real containers
//! (a kubelet with containerd, images pulled from the bed's loopback registry; docs/testing.md,
//! "Two nodes"), through the real Helm 4 with the plugin installed by `helm plugin install`.
//!
//! Each test writes a small chart of its own whose pods select and tolerate the real node
//! (`hooks-test/real-node`); nothing here is scripted: a container that prints, prints; one
//! that exits 1 fails; an image the registry lacks is a real pull error.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! make dist/hooks && HOOKS_PLUGIN_DIR=dist/hooks cargo test --features e2e --test e2e node::
//! ```

use crate::common::*;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const RELEASE: &str = "r";

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
        Case { space: Space::new("node", label) }
    }

    /// A chart of these templates (name, text; [`on_real_node`] applied) in the case's
    /// folder.
    fn chart(&self, name: &str, templates: &[(&str, &str)]) -> PathBuf {
        write_chart(&self.tmp.0, name, templates)
    }

    /// The README's pipe: `helm upgrade --install r CHART --dry-run=server
    /// --disable-openapi-validation -o json | helm hooks deploy - ARGS`.
    fn deploy(&self, chart: &Path, args: &[&str]) -> Out {
        let out = self.helm(&[
            "upgrade",
            "--install",
            RELEASE,
            chart.to_str().unwrap(),
            "--dry-run=server",
            "--disable-openapi-validation",
            "-o",
            "json",
        ]);
        assert_eq!(out.code, 0, "rendering failed: {}", out.shown);
        let mut all = vec!["deploy", "-"];
        all.extend_from_slice(args);
        self.plugin(&all, Some(&out.stdout))
    }

    fn install(&self, chart: &Path) {
        let out = self.helm(&["install", RELEASE, chart.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.shown);
    }

    /// `helm hooks run r ARGS`.
    fn hooks(&self, args: &[&str]) -> Out {
        let mut all = vec!["run", RELEASE];
        all.extend_from_slice(args);
        self.plugin(&all, None)
    }

    fn get(&self, what: &str) -> Option<Value> {
        let text = ok(self.kubectl(&["get", what, "-o", "json", "--ignore-not-found"]));
        (!text.trim().is_empty()).then(|| parse_json(&text, &format!("kubectl get {what}")))
    }

    /// The stored release's hooks (`helm status -o json`): name → last_run phase.
    fn status_phases(&self) -> Vec<(String, String)> {
        let out = self.helm(&["status", RELEASE, "-o", "json"]);
        assert_eq!(out.code, 0, "{}", out.shown);
        let doc = parse_json(&out.stdout, "helm status -o json");
        let mut rows: Vec<(String, String)> = doc["hooks"]
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|h| {
                (
                    h["name"].as_str().unwrap_or_default().to_string(),
                    h["last_run"]["phase"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        rows.sort();
        rows
    }

    /// Names of the Pods of this namespace that ran on the real node.
    fn pods_on_real_node(&self) -> Vec<String> {
        let list = self.get("pods").expect("a pod list");
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["spec"]["nodeName"] == REAL_NODE)
            .map(|p| p["metadata"]["name"].as_str().unwrap().to_string())
            .collect()
    }
}

/// A one-replica Deployment `name` on the real node (`annotations` a flow map): `image`
/// running `command`, Ready when the exec `probe` (a flow list) passes.
fn deployment(name: &str, annotations: &str, image: &str, command: &str, probe: &str) -> String {
    format!(
        r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  annotations: {annotations}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      {{{{ real }}}}
      terminationGracePeriodSeconds: 1
      containers:
      - name: main
        image: "{image}"
        command: {command}
        readinessProbe: {{exec: {{command: {probe}}}, periodSeconds: 1}}
"#
    )
}

/// A test hook Pod `name` on the real node (`annotations` more of its flow map), with
/// `containers`: the YAML of the spec's lists, indented by two spaces.
fn test_pod(name: &str, annotations: &str, containers: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{\"helm.sh/hook\": test{annotations}}}\n\
         spec:\n  {{{{ real }}}}\n  restartPolicy: Never\n{containers}"
    )
}

/// `helm history r -o json`'s statuses.
fn statuses(case: &Case) -> Vec<String> {
    case.helm_history(RELEASE).into_iter().map(|(_, s, _)| s).collect()
}

// ---------------------------------------------------------------------------------------
// Fail-fast preflights (the proposal's examples, with the bed's busybox for their images).

/// The proposal's example using `false`, as written (its image replaced by the bed's
/// busybox): `deploy` stops at once with `Fail-fast job failed: <name>` and the Job's
/// output block, nothing of the release is applied, the release is recorded failed.
#[test]
fn the_proposals_false_preflight_fails_fast() {
    let case = Case::new("false");
    let chart = case.chart(
        "preflight",
        &[
            (
                "false-job.yaml",
                r#"apiVersion: batch/v1
kind: Job
metadata:
  name: "{{ .Release.Name }}-false-job"
  labels:
    app.kubernetes.io/managed-by: {{ .Release.Service | quote }}
    app.kubernetes.io/instance: {{ .Release.Name | quote }}
    app.kubernetes.io/version: {{ .Chart.AppVersion }}
    helm.sh/chart: "{{ .Chart.Name }}-{{ .Chart.Version }}"
  annotations:
    "helm.sh/hook": pre-install, pre-upgrade
    "helm.sh/hook-fail-fast": "true"
    "helm.sh/show-output": "true"
    "helm.sh/hook-weight": "-5"
    "helm.sh/hook-delete-policy": hook-succeeded, hook-failed
spec:
  backoffLimit: 0
  template:
    metadata:
      name: "{{ .Release.Name }}"
    spec:
      {{ real }}
      restartPolicy: Never
      containers:
      - name: post-install-job
        image: "busybox:1.36"
        command: ["false"]
"#,
            ),
            ("app.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {a: b}\n"),
        ],
    );
    let t0 = Instant::now();
    let out = case.deploy(&chart, &["--timeout", "2m"]);
    eprintln!("{}", out.shown);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let text = out.all();
    let ff =
        text.find("Fail-fast job failed: r-false-job\n").unwrap_or_else(|| panic!("no fail-fast line\n{}", out.shown));
    let block = text.find("Job r-false-job output:").unwrap_or_else(|| panic!("no output block\n{}", out.shown));
    assert!(ff < block, "{}", out.shown);
    // A real Job whose only pod exits 1 (backoffLimit 0) is failed in seconds, not at the
    // timeout.
    assert!(t0.elapsed() < Duration::from_secs(60), "took {:.1?}\n{}", t0.elapsed(), out.shown);
    assert!(case.get("configmap/app").is_none(), "nothing of the release may be applied");
    assert_eq!(statuses(&case), ["failed"], "{}", out.shown);
    // hook-failed: the Job is gone, as stock Helm deletes it.
    assert!(case.get("job/r-false-job").is_none(), "hook-failed deletes the Job");
}

/// A preflight that prints a report (JSON, as the proposal's Troubleshoot example) and
/// exits 1: its output shown whole and in order, each line once, from the real container's
/// log (streamed as it came, the rest in its block).
#[test]
fn a_preflights_report_is_shown_whole_in_order() {
    let case = Case::new("report");
    let chart = case.chart(
        "preflight",
        &[(
            "preflight.yaml",
            r#"apiVersion: batch/v1
kind: Job
metadata:
  name: preflight-job
  annotations:
    "helm.sh/hook": pre-install, pre-upgrade
    "helm.sh/hook-fail-fast": "true"
    "helm.sh/show-output": "true"
spec:
  backoffLimit: 0
  template:
    spec:
      {{ real }}
      restartPolicy: Never
      containers:
      - name: preflight
        image: busybox
        command:
        - sh
        - -c
        - |
          for c in cluster-resources mysql/mysql cluster-info; do
            echo "name: $c    status: running"
            echo "name: $c    status: completed"
          done
          echo '{'
          echo '  "fail": ['
          i=1
          while [ $i -le 40 ]; do echo "    {\"title\": \"check $i\", \"message\": \"failed $i\"},"; i=$((i+1)); done
          echo '  ]'
          echo '}'
          exit 1
"#,
        )],
    );
    let out = case.deploy(&chart, &["--timeout", "2m"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let text = out.all();
    assert!(text.contains("Job preflight-job output:"), "no block\n{}", out.shown);
    // Streamed as the container wrote it, the rest in the block after (issue 41: each line
    // once), from the hook's start on.
    let block = &text[text.find("started   Job/preflight-job").unwrap_or_else(|| panic!("no start\n{}", out.shown))..];
    for i in 1..=40 {
        let check = format!("\"title\": \"check {i}\"");
        assert_eq!(block.matches(&check).count(), 1, "{check} printed once\n{}", out.shown);
    }
    let mut at = 0;
    let mut want = vec![];
    for c in ["cluster-resources", "mysql/mysql", "cluster-info"] {
        want.push(format!("name: {c}    status: running"));
        want.push(format!("name: {c}    status: completed"));
    }
    want.push("{".into());
    want.push("  \"fail\": [".into());
    for i in 1..=40 {
        want.push(format!("    {{\"title\": \"check {i}\", \"message\": \"failed {i}\"}},"));
    }
    want.push("  ]".into());
    want.push("}".into());
    for line in &want {
        let found = block[at..]
            .find(line.as_str())
            .unwrap_or_else(|| panic!("{line:?} missing or out of order\n{}", out.shown));
        at += found + line.len();
    }
}

// ---------------------------------------------------------------------------------------
// helm hooks run against helm test, on real test Pods and Jobs.

fn test_suite_chart(case: &Case, secs: u32, pods: usize, jobs: usize) -> PathBuf {
    let mut templates = vec![];
    for i in 0..pods {
        templates.push((
            format!("pod-{i}.yaml"),
            format!(
                r#"apiVersion: v1
kind: Pod
metadata:
  name: t-pod-{i}
  annotations: {{"helm.sh/hook": test, "helm.sh/hook-parallel": "true"}}
spec:
  {{{{ real }}}}
  restartPolicy: Never
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo pod {i} starts; sleep {secs}; echo pod {i} done"]
"#
            ),
        ));
    }
    for i in 0..jobs {
        templates.push((
            format!("job-{i}.yaml"),
            format!(
                r#"apiVersion: batch/v1
kind: Job
metadata:
  name: t-job-{i}
  annotations: {{"helm.sh/hook": test, "helm.sh/hook-parallel": "true"}}
spec:
  backoffLimit: 0
  template:
    spec:
      {{{{ real }}}}
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
        command: [sh, -c, "echo job {i}; sleep {secs}"]
"#
            ),
        ));
    }
    let refs: Vec<(&str, &str)> = templates.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
    case.chart("suite", &refs)
}

/// `helm hooks run r --parallel 8` against stock `helm test r` on identical releases of
/// real test Pods and Jobs: the same phases stored, the same exit code, every pod on the
/// real node, and the plugin faster.
#[test]
fn run_parallel_matches_helm_test_on_real_pods() {
    let plugin = Case::new("suite");
    let stock = Case::new("suite-helm");
    plugin.install(&test_suite_chart(&plugin, 3, 3, 2));
    stock.install(&test_suite_chart(&stock, 3, 3, 2));
    let ours = plugin.hooks(&["--parallel", "8", "--timeout", "2m"]);
    assert_eq!(ours.code, 0, "{}", ours.shown);
    let theirs = stock.helm(&["test", RELEASE, "--timeout", "2m"]);
    assert_eq!(theirs.code, 0, "{}", theirs.shown);
    eprintln!("helm hooks run --parallel 8: {:.1?}; helm test: {:.1?}", ours.wall, theirs.wall);
    assert_eq!(plugin.status_phases(), stock.status_phases());
    assert!(plugin.status_phases().iter().all(|(_, p)| p == "Succeeded"), "{:?}", plugin.status_phases());
    assert_eq!(plugin.pods_on_real_node().len(), 5, "every hook's pod ran on the real node");
    // What each leaves behind (no delete policy: the hooks stay until the next run).
    let left = |case: &Case| {
        let jobs = ok(case.kubectl(&["get", "jobs", "-o", "name"]));
        let pods = ok(case.kubectl(&["get", "pods", "-o", "name", "-l", "!batch.kubernetes.io/job-name"]));
        (jobs, pods)
    };
    assert_eq!(left(&plugin), left(&stock), "the same hook objects are left");
    // Five 3-s hooks: serially at least 15 s; together a few seconds over one.
    assert!(theirs.wall >= Duration::from_secs(15), "helm test runs them one at a time: {:.1?}", theirs.wall);
    assert!(ours.wall < theirs.wall, "parallel {:.1?} against serial {:.1?}", ours.wall, theirs.wall);
}

// ---------------------------------------------------------------------------------------
// Every container's real log, attributed.

/// `--logs` of a test Pod with an init container and two containers: each container's own
/// lines under its own heading, as `helm test --logs` prints them, each line once.
#[test]
fn logs_of_every_container_are_attributed() {
    let case = Case::new("logs");
    let chart = case.chart(
        "logs",
        &[(
            "pod.yaml",
            &test_pod(
                "multi",
                r#", "helm.sh/show-output": "true""#,
                r#"  initContainers:
  - {name: init, image: busybox, command: [sh, -c, "echo init was here"]}
  containers:
  - {name: first, image: busybox, command: [sh, -c, "echo first line one; echo first line two"]}
  - {name: second, image: busybox, command: [sh, -c, "echo second says hi"]}
"#,
            ),
        )],
    );
    case.install(&chart);
    let out = case.hooks(&["--logs", "--timeout", "2m"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    // Each container's lines once (issue 41): streamed under its own prefix, or in the first
    // block that closes the hook (helm.sh/show-output's, which names every container, the
    // init container included); the `POD LOGS:` blocks keep their headings.
    for (container, line) in [
        ("init", "init was here"),
        ("first", "first line one"),
        ("first", "first line two"),
        ("second", "second says hi"),
    ] {
        assert_eq!(out.stdout.matches(line).count(), 1, "{line:?}\n{}", out.shown);
        let (streamed, _) = printed(&out.stdout, "multi", container, line);
        assert!(streamed == 1 || out.stdout.contains(&format!("  {line}\n")), "{line:?}\n{}", out.shown);
    }
    assert!(out.stdout.contains("  --- multi/init\n") && out.stdout.contains("Pod multi output:\n"), "{}", out.shown);
    for header in ["POD LOGS: multi (init)\n", "POD LOGS: multi (first)\n", "POD LOGS: multi (second)\n"] {
        assert!(out.stdout.contains(header), "missing {header:?}\n{}", out.shown);
    }
}

/// A Job whose first pod fails and is retried (backoffLimit: 1): show-output prints the
/// logs of its pods, the failed one's too.
#[test]
fn a_retried_jobs_output_names_both_pods() {
    let case = Case::new("retry");
    // The first pod leaves a mark in an emptyDir-less place both pods see: a hostPath
    // folder of this test (the real node is this machine).
    let mark = case.tmp.0.join("mark");
    std::fs::create_dir_all(&mark).unwrap();
    let chart = case.chart(
        "retry",
        &[(
            "job.yaml",
            &format!(
                r#"apiVersion: batch/v1
kind: Job
metadata:
  name: flaky
  annotations: {{"helm.sh/hook": test, "helm.sh/show-output": "true"}}
spec:
  backoffLimit: 1
  template:
    spec:
      {{{{ real }}}}
      restartPolicy: Never
      volumes: [{{name: mark, hostPath: {{path: "{}", type: Directory}}}}]
      containers:
      - name: main
        image: busybox
        volumeMounts: [{{name: mark, mountPath: /mark}}]
        command: [sh, -c, "if [ -e /mark/once ]; then echo second try works; else touch /mark/once; echo first try fails; exit 3; fi"]
"#,
                mark.display()
            ),
        )],
    );
    case.install(&chart);
    let out = case.hooks(&["--timeout", "2m"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let text = out.all();
    assert!(text.contains("second try works"), "the succeeding pod's log\n{}", out.shown);
    assert!(text.contains("first try fails"), "the failed pod's log too\n{}", out.shown);
}

// ---------------------------------------------------------------------------------------
// Failures only a kubelet makes.

/// An image tag the registry lacks: a real `ErrImagePull`/`ImagePullBackOff`, named with
/// the image while the hook waits (progress, within the 5-s interval, long before its
/// time is up) and when its time is up (issue 31).
#[test]
fn an_image_the_registry_lacks_is_named() {
    let case = Case::new("pull");
    let chart = case.chart(
        "pull",
        &[(
            "pod.yaml",
            &test_pod(
                "nosuch",
                "",
                "  containers:\n  - {name: main, image: \"busybox:no-such-tag\", command: [\"true\"]}\n",
            ),
        )],
    );
    case.install(&chart);
    let (out, lines) = run_timed(case.plugin_cmd(&["run", RELEASE, "--timeout", "20s"]));
    eprintln!("a tag the registry lacks:\n{}", out.shown);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let pull_error = |l: &str| l.contains("ImagePullBackOff") || l.contains("ErrImagePull");
    let waiting = lines.iter().find(|(_, l)| l.contains("waiting   Pod/nosuch") && pull_error(l));
    let (at, line) = waiting.unwrap_or_else(|| panic!("no progress line names the pull error\n{}", out.shown));
    assert!(line.contains("busybox:no-such-tag"), "the image is named while it waits\n{}", out.shown);
    assert!(*at < Duration::from_secs(13), "said within the interval, not at the timeout: {at:.1?}\n{}", out.shown);
    let text = out.all();
    assert!(text.contains("timed out after 20s: Pod/nosuch (Pending)"), "and when its time is up\n{}", out.shown);
    assert!(out.wall < Duration::from_secs(45), "{:.1?}", out.wall);
}

/// Issue 31: `helm.sh/hook-timeout` fails its own hook after that long, as a failed hook,
/// while a sibling without one keeps `--timeout` and completes; made fail-fast, the run
/// ends there.
#[test]
fn a_hook_timeout_fails_its_hook_only_or_the_run_when_fail_fast() {
    let case = Case::new("hook-timeout");
    let job = |name: &str, annotations: &str, secs: u32| {
        format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\n  annotations: {{\"helm.sh/hook\": test, \
             \"helm.sh/hook-parallel\": \"true\"{annotations}}}\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      \
             {{{{ real }}}}\n      restartPolicy: Never\n      terminationGracePeriodSeconds: 1\n      containers:\n      \
             - {{name: main, image: busybox, command: [sleep, \"{secs}\"]}}\n"
        )
    };
    let sleeper = |more: &str| job("sleeper", &format!(", \"helm.sh/hook-timeout\": 3s{more}"), 60);
    let sibling = job("sibling", "", 8);
    let chart = case.chart("timeouts", &[("sleeper.yaml", &sleeper("")), ("sibling.yaml", &sibling)]);
    case.install(&chart);
    let out = case.hooks(&["--parallel", "2", "--timeout", "2m", "-o", "json"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let doc = parse_json(&out.stdout, "run -o json");
    let rows = doc["hooks"].as_array().expect("hooks");
    let row = |name: &str| rows.iter().find(|r| r["ref"] == format!("Job/{name}")).expect(name).clone();
    let took = |r: &Value| r["completed_at"].as_u64().unwrap() - r["started_at"].as_u64().unwrap();
    let (s, sib) = (row("sleeper"), row("sibling"));
    assert_eq!((s["phase"].as_str(), sib["phase"].as_str()), (Some("Failed"), Some("Succeeded")), "{}", out.shown);
    assert!(s["message"].as_str().unwrap().starts_with("timed out after 3s (helm.sh/hook-timeout)"), "{}", out.shown);
    assert!((3_000..6_000).contains(&took(&s)), "failed after about 3 s: {} ms", took(&s));
    assert!(took(&sib) >= 8_000, "the sibling ran its 8 s: {} ms", took(&sib));
    assert!(case.status_phases().contains(&("sleeper".into(), "Failed".into())), "stored as failed");

    // Fail-fast: the run ends when the sleeper's time is up, the sibling not awaited.
    let chart = case.chart(
        "timeouts",
        &[("sleeper.yaml", &sleeper(", \"helm.sh/hook-fail-fast\": \"true\"")), ("sibling.yaml", &sibling)],
    );
    let up = case.helm(&["upgrade", RELEASE, chart.to_str().unwrap()]);
    assert_eq!(up.code, 0, "{}", up.shown);
    let out = case.hooks(&["--parallel", "2", "--timeout", "2m"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    assert!(out.stdout.contains("Fail-fast job failed: sleeper"), "{}", out.shown);
    assert!(
        out.wall < Duration::from_secs(8),
        "ended at the timeout, not after the sibling: {:.1?}\n{}",
        out.wall,
        out.shown
    );
}

/// Issue 31: with `--logs`, a Job hook's lines are printed as its container writes them,
/// each once, prefixed with hook, pod and container, before the hook's end.
#[test]
fn lines_are_printed_as_the_container_writes_them() {
    let case = Case::new("follow");
    let talker = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: talker\n  annotations: {\"helm.sh/hook\": test}\n\
                  spec:\n  backoffLimit: 0\n  template:\n    spec:\n      {{ real }}\n      restartPolicy: Never\n      \
                  containers:\n      - name: main\n        image: busybox\n        \
                  command: [sh, -c, 'for i in 1 2 3 4 5 6 7 8 9 10; do echo line $i; sleep 1; done']\n";
    let chart = case.chart("talker", &[("talker.yaml", talker)]);
    case.install(&chart);
    let (out, lines) = run_timed(case.plugin_cmd(&["run", RELEASE, "--logs", "--timeout", "2m"]));
    eprintln!("{}", out.shown.split("--- stdout").last().unwrap_or_default());
    assert_eq!(out.plugin_code(), Some(0), "{}", out.shown);
    let arrived = |n: u32| {
        let ends = format!("/main] line {n}");
        let hits: Vec<&(Duration, String)> = lines.iter().filter(|(_, l)| l.ends_with(&ends)).collect();
        assert_eq!(hits.len(), 1, "line {n} printed once\n{}", out.shown);
        assert!(hits[0].1.starts_with("[Job/talker talker-"), "prefixed with hook, pod, container\n{}", out.shown);
        hits[0].0
    };
    let (first, last) = (arrived(1), arrived(10));
    for n in 2..10 {
        arrived(n);
    }
    assert!(last - first >= Duration::from_secs(6), "lines came as written, not at the end\n{}", out.shown);
    let end = lines.iter().find(|(_, l)| l.contains("succeeded Job/talker")).expect("the end").0;
    assert!(last <= end, "every line before the hook's end\n{}", out.shown);
}

/// A container over its memory limit is OOMKilled by the kernel; the hook fails saying so,
/// and names the signal behind exit code 137.
///
/// The container sleeps a second before it allocates. Killed within its first moments,
/// before containerd's `StartContainer` returns, its OOM event is dropped and the kubelet
/// reports `Error`, exit code 137 (containerd/containerd#8180; Kubernetes' own OOM test
/// sleeps first for the same reason, kubernetes/kubernetes#116082). CI saw that once here.
#[test]
fn a_container_over_its_memory_limit_is_oomkilled() {
    let case = Case::new("oom");
    let chart = case.chart(
        "oom",
        &[(
            "pod.yaml",
            &test_pod(
                "hungry",
                "",
                "  containers:\n  - name: main\n    image: busybox\n    resources: {limits: {memory: 16Mi}}\n    \
                 command: [sh, -c, \"sleep 1; exec dd if=/dev/zero of=/dev/null bs=128M count=1\"]\n",
            ),
        )],
    );
    case.install(&chart);
    let out = case.hooks(&["--timeout", "1m"]);
    eprintln!("over its memory limit:\n{}", out.stdout);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    assert!(out.all().contains("OOMKilled"), "the reason is named\n{}", out.shown);
    assert!(out.all().contains("exit code 137 (SIGKILL)"), "and the signal\n{}", out.shown);
}

/// A Deployment whose container keeps exiting: `deploy` fails with `CrashLoopBackOff` and
/// the container's last lines, within the readiness timeout. (It has a readiness probe, as
/// a service's Deployment does: without one a container is Ready the moment it starts, and
/// a Deployment whose pod started once is available to stock Helm's kstatus too.)
#[test]
fn a_crashing_deployment_fails_deploy_with_its_log() {
    let case = Case::new("crash");
    let chart = case.chart(
        "crash",
        &[(
            "deploy.yaml",
            &deployment(
                "crasher",
                "{}",
                "busybox",
                r#"[sh, -c, "echo cannot open /config/app.yaml; exit 1"]"#,
                r#"["true"]"#,
            ),
        )],
    );
    let out = case.deploy(&chart, &["--timeout", "2m", "--readiness-timeout", "40s"]);
    eprintln!("a crashing Deployment:\n{}", out.all());
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    let text = out.all();
    // Between two restarts the container is `terminated … restarted 3x` rather than
    // waiting in `CrashLoopBackOff`; the kubelet's BackOff event says it either way.
    assert!(
        text.contains("CrashLoopBackOff") || text.contains("Back-off restarting failed container main"),
        "{}",
        out.shown
    );
    assert!(text.contains("restarted "), "{}", out.shown);
    assert!(text.contains("cannot open /config/app.yaml"), "its last lines\n{}", out.shown);
}

/// A readiness probe that never passes: `deploy` fails at the readiness timeout, naming
/// what is not ready.
#[test]
fn a_readiness_probe_that_never_passes_fails_deploy() {
    let case = Case::new("never-ready");
    let chart = case.chart(
        "never",
        &[("deploy.yaml", &deployment("never", "{}", "busybox", r#"[sleep, "3600"]"#, r#"["false"]"#))],
    );
    let out = case.deploy(&chart, &["--timeout", "1m", "--readiness-timeout", "15s"]);
    assert_eq!(out.plugin_code(), Some(1), "{}", out.shown);
    assert!(out.all().contains("Deployment/never"), "{}", out.shown);
    assert!(out.wall < Duration::from_secs(50), "{:.1?}", out.wall);
}

// ---------------------------------------------------------------------------------------
// Real readiness in deploy.

/// A Deployment with an exec readiness probe that passes after a few seconds, then a
/// two-replica StatefulSet in a later resource group: deploy waits for the real probe.
#[test]
fn deploy_waits_for_real_readiness() {
    let case = Case::new("ready");
    let chart = case.chart(
        "ready",
        &[
            (
                "deploy.yaml",
                &deployment(
                    "web",
                    r#"{"helm.sh/resource-group": "web"}"#,
                    "busybox",
                    r#"[sh, -c, "sleep 4; touch /tmp/ready; sleep 3600"]"#,
                    "[test, -e, /tmp/ready]",
                ),
            ),
            (
                "sts.yaml",
                r#"apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  annotations: {"helm.sh/resource-group": "db", "helm.sh/depends-on/resource-groups": "[\"web\"]"}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      {{ real }}
      terminationGracePeriodSeconds: 1
      containers:
      - {name: main, image: busybox, command: [sleep, "3600"]}
"#,
            ),
        ],
    );
    let out = case.deploy(&chart, &["--timeout", "2m", "--readiness-timeout", "90s", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    assert!(out.wall >= Duration::from_secs(4), "the probe passes after 4 s: {:.1?}", out.wall);
    let web = case.get("deployment/web").unwrap();
    assert_eq!(web["status"]["readyReplicas"], 1, "{web:#}");
    let db = case.get("statefulset/db").unwrap();
    assert_eq!(db["status"]["readyReplicas"], 2, "{db:#}");
    // The StatefulSet's pods were created after web was ready (its group depends on web's).
    let pods = case.get("pods").unwrap();
    let created = |prefix: &str| -> Vec<String> {
        pods["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["metadata"]["name"].as_str().unwrap().starts_with(prefix))
            .map(|p| p["metadata"]["creationTimestamp"].as_str().unwrap().to_string())
            .collect()
    };
    let web_ready = web["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Available")
        .map(|c| c["lastTransitionTime"].as_str().unwrap().to_string())
        .unwrap();
    for t in created("db-") {
        assert!(t >= web_ready, "db's pod created {t}, before web was available at {web_ready}");
    }
    assert_eq!(case.pods_on_real_node().len(), 3);
}

// ---------------------------------------------------------------------------------------
// Real termination.

/// A test Pod that ignores SIGTERM, with a 5-s grace period: the first run leaves it
/// running (its time is up after 5 s); the second run's `before-hook-creation` deletes it,
/// which takes the grace period for real, and only then creates the new one. Stock
/// `helm test` on an identical release does the same: both second runs succeed.
#[test]
fn before_hook_creation_waits_for_a_pod_that_ignores_sigterm() {
    let run_twice = |case: &Case, stock: bool| -> (Out, Out) {
        let mark = case.tmp.0.join("mark");
        std::fs::create_dir_all(&mark).unwrap();
        let pod = format!(
            r#"apiVersion: v1
kind: Pod
metadata:
  name: stubborn
  annotations: {{"helm.sh/hook": test, "helm.sh/hook-delete-policy": before-hook-creation}}
spec:
  {{{{ real }}}}
  restartPolicy: Never
  terminationGracePeriodSeconds: 5
  volumes: [{{name: mark, hostPath: {{path: "{}", type: Directory}}}}]
  containers:
  - name: main
    image: busybox
    volumeMounts: [{{name: mark, mountPath: /mark}}]
    command: [sh, -c, "trap '' TERM; if [ -e /mark/first ]; then echo second run; else touch /mark/first; echo first run; sleep 60; fi"]
"#,
            mark.display()
        );
        let chart = case.chart("stubborn", &[("pod.yaml", &pod)]);
        case.install(&chart);
        if stock {
            (case.helm(&["test", RELEASE, "--timeout", "5s"]), case.helm(&["test", RELEASE, "--timeout", "1m"]))
        } else {
            (case.hooks(&["--timeout", "5s"]), case.hooks(&["--timeout", "1m"]))
        }
    };
    let plugin = Case::new("sigterm");
    let stock = Case::new("sigterm-helm");
    let (p1, p2) = run_twice(&plugin, false);
    let (s1, s2) = run_twice(&stock, true);
    assert_ne!(p1.code, 0, "the first run times out: {}", p1.shown);
    assert_ne!(s1.code, 0, "stock's first run times out: {}", s1.shown);
    assert_eq!(s2.code, 0, "stock's second run: {}", s2.shown);
    assert_eq!(p2.code, 0, "the second run: {}", p2.shown);
    eprintln!("second run: helm hooks run {:.1?}, helm test {:.1?}", p2.wall, s2.wall);
    // The old pod ignored SIGTERM: deleting it took its grace period.
    assert!(p2.wall >= Duration::from_secs(4), "the old pod was not awaited: {:.1?}", p2.wall);
    assert_eq!(plugin.status_phases(), stock.status_phases());
    let logs = ok(plugin.kubectl(&["logs", "stubborn"]));
    assert_eq!(logs, "second run\n");
}

/// Uninstall in reverse order waits for real deletion: a Pod that ignores SIGTERM (grace
/// 3 s) in the first group, a ConfigMap in the second that depends on it; `uninstall`
/// deletes the ConfigMap's group first and returns only once the Pod is gone, which takes
/// its grace period on a real node (kwok deletes at once).
#[test]
fn uninstall_waits_for_real_termination() {
    let case = Case::new("uninstall");
    let chart = case.chart(
        "uninstall",
        &[
            (
                "pod.yaml",
                r#"apiVersion: v1
kind: Pod
metadata:
  name: slow-stop
  annotations: {"helm.sh/resource-group": "base"}
spec:
  {{ real }}
  terminationGracePeriodSeconds: 3
  containers:
  - {name: main, image: busybox, command: [sh, -c, "trap '' TERM; sleep 3600"]}
"#,
            ),
            (
                "cm.yaml",
                r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: top
  annotations: {"helm.sh/resource-group": "top", "helm.sh/depends-on/resource-groups": "[\"base\"]"}
data: {a: b}
"#,
            ),
        ],
    );
    let out = case.deploy(&chart, &["--timeout", "2m"]);
    assert_eq!(out.code, 0, "{}", out.shown);
    let out = case.plugin(&["uninstall", RELEASE, "--timeout", "1m", "-o", "json"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    eprintln!("uninstall took {:.1?}", out.wall);
    assert!(case.get("pod/slow-stop").is_none() && case.get("configmap/top").is_none(), "{}", out.shown);
    assert!(out.wall >= Duration::from_secs(2), "the Pod's grace period was not awaited: {:.1?}", out.wall);
    let report = parse_json(&out.stdout, "uninstall -o json");
    let order: Vec<String> = report["deletions"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .flat_map(|d| d["resources"].as_array().cloned().unwrap_or_default())
        .map(|r| r.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(order, ["ConfigMap/top", "Pod/slow-stop"], "reverse order\n{}", out.shown);
}

/// `hook-succeeded` deletes a real test Job and its pods after it succeeded, as stock
/// `helm test` does on an identical release.
#[test]
fn hook_succeeded_deletes_the_job_and_its_pods_as_helm_test() {
    let chart = |case: &Case| {
        case.chart(
            "done",
            &[(
                "job.yaml",
                r#"apiVersion: batch/v1
kind: Job
metadata:
  name: once
  annotations: {"helm.sh/hook": test, "helm.sh/hook-delete-policy": hook-succeeded}
spec:
  backoffLimit: 0
  template:
    spec:
      {{ real }}
      restartPolicy: Never
      containers:
      - {name: main, image: busybox, command: [sh, -c, "echo done"]}
"#,
            )],
        )
    };
    let plugin = Case::new("succeeded");
    let stock = Case::new("succeeded-helm");
    plugin.install(&chart(&plugin));
    stock.install(&chart(&stock));
    let ours = plugin.hooks(&["--timeout", "1m"]);
    let theirs = stock.helm(&["test", RELEASE, "--timeout", "1m"]);
    assert_eq!(ours.code, 0, "{}", ours.shown);
    assert_eq!(theirs.code, 0, "{}", theirs.shown);
    for case in [&plugin, &stock] {
        assert!(case.get("job/once").is_none(), "hook-succeeded deletes the Job in {}", case.ns);
    }
    assert_eq!(plugin.status_phases(), stock.status_phases());
}

/// A rollback to the previous revision's pods: revision 1 runs busybox:1.36, revision 2
/// busybox:1.36.1; `helm hooks rollback r` returns once the Deployment's pods of revision
/// 1's template are ready on the real node.
#[test]
fn rollback_brings_the_previous_revisions_pods_back() {
    let case = Case::new("rollback");
    let chart = |tag: &str| {
        case.chart(
            &format!("app-{}", tag.replace('.', "-")),
            &[(
                "deploy.yaml",
                &deployment(
                    "app",
                    "{}",
                    &format!("busybox:{tag}"),
                    r#"[sh, -c, "sleep 2; touch /tmp/ready; sleep 3600"]"#,
                    "[test, -e, /tmp/ready]",
                ),
            )],
        )
    };
    for tag in ["1.36", "1.36.1"] {
        let out = case.deploy(&chart(tag), &["--timeout", "2m"]);
        assert_eq!(out.code, 0, "{}", out.shown);
    }
    let out = case.plugin(&["rollback", RELEASE, "--timeout", "2m"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    let app = case.get("deployment/app").unwrap();
    assert_eq!(app["spec"]["template"]["spec"]["containers"][0]["image"], "busybox:1.36");
    assert_eq!(app["status"]["readyReplicas"], 1, "{app:#}");
    assert_eq!(app["status"]["updatedReplicas"], 1, "{app:#}");
    assert_eq!(statuses(&case), ["superseded", "superseded", "deployed"]);
}
