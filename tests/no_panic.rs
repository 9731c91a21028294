//! "No panic, ever" on stable Rust, in every `cargo test`: the short
//! version of the fuzz targets in fuzz/ (which need nightly and time).
//!
//! Arbitrary bytes and strings go to every parser; valid releases are
//! mutated structurally (lines dropped, duplicated, swapped, truncated,
//! snippets of YAML and annotations spliced in) and go through the whole
//! input → plan → render path and the CLI.

use std::collections::BTreeMap;

use helm_hooks::model::annotation as a;
use helm_hooks::model::diagnostic::{Diagnostics, Location};
use helm_hooks::model::event::parse_events;
use helm_hooks::model::reference::ObjectRef;
use helm_hooks::ready::{Expr, Readiness};
use helm_hooks::{cli, model::input, model::manifest, plan, render};
use proptest::prelude::*;

const TEMPLATE: &str = r#"---
# Source: app/templates/job.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "-5"
    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded
    "helm.sh/hook-fail-fast": "true"
    "helm.sh/show-output": "true"
---
# Source: app/templates/tests.yaml
apiVersion: v1
kind: Pod
metadata:
  name: test-a
  namespace: ns1
  annotations:
    helm.sh/hook: test
    helm.sh/hook-parallel: "true"
    helm.sh/depends-on: '["Job/seed"]'
---
# Source: app/templates/tests.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: seed
  annotations:
    helm.sh/hook: test
    helm.sh/hook-parallel: "false"
    helm.sh/hook-output-log-policy: hook-failed
---
# Source: app/templates/tests.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: after
  annotations:
    helm.sh/hook: test
    helm.sh/hook-weight: "3"
    helm.sh/depends-on: Job/seed, Pod/ns1/test-a
---
# Source: app/charts/db/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: db-config
  annotations:
    helm.sh/resource-group: databases
---
# Source: app/charts/cache/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: cache-config
---
# Source: app/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    helm.sh/resource-group: apps
    helm.sh/depends-on/resource-groups: '["databases"]'
    helm.sh/readiness-success: '["{.readyReplicas} >= 1"]'
    helm.sh/readiness-failure: '["{.conditions[?(@.type==\"Available\")].status} == False"]'
    helm.sh/depends-on: Service/web
---
# Source: app/templates/svc.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
"#;

/// Pieces spliced into valid input by the structured mutations.
const SNIPPETS: &[&str] = &[
    "---\n",
    "--- # c\n",
    "# Source: app/charts/x/templates/y.yaml\n",
    "kind: Job\n",
    "kind: [1, 2]\n",
    "metadata:\n",
    "metadata: {name: z, annotations: {helm.sh/hook: test}}\n",
    "  name: \"\"\n",
    "  name: 5\n",
    "  namespace: ns1\n",
    "  annotations:\n",
    "  annotations: null\n",
    "    helm.sh/hook: test\n",
    "    helm.sh/hook: bogus\n",
    "    helm.sh/hook: \"test,\"\n",
    "    helm.sh/hook-weight: \"9223372036854775807\"\n",
    "    helm.sh/hook-weight: \"-9223372036854775808\"\n",
    "    helm.sh/hook-weight: abc\n",
    "    helm.sh/hook-weight: 3\n",
    "    helm.sh/hook-parallel: \"yes\"\n",
    "    helm.sh/hook-parallel: \"true\"\n",
    "    helm.sh/depends-on: Job/migrate\n",
    "    helm.sh/depends-on: Job/test-a, Job/seed\n",
    "    helm.sh/depends-on: '[\"Job/after\"]'\n",
    "    helm.sh/depends-on: '[\"Job/x/y/z\"]'\n",
    "    helm.sh/depends-on: '[1]'\n",
    "    helm.sh/depends-on: Deployment/web\n",
    "    helm.sh/resource-group: apps\n",
    "    helm.sh/resource-group: databases\n",
    "    helm.sh/depends-on/resource-groups: '[\"apps\"]'\n",
    "    helm.sh/depends-on/resource-groups: '[\"nope\"]'\n",
    "    helm.sh/depends-on/resource-groups: '[\"databases\"'\n",
    "    helm.sh/readiness-success: '[\"{.a} == 1\"]'\n",
    "    helm.sh/readiness-failure: '[\"{.a} > x\"]'\n",
    "    helm.sh/readiness-failure: '[\"{.[?(@.==\"]'\n",
    "    x: &a [*a]\n",
    "    y: !!binary aGk=\n",
    "<<: {kind: Pod}\n",
    "\t\t\n",
    "\u{feff}",
    "é",
    "\r\n",
    "{",
    "[",
];

#[derive(Debug, Clone)]
enum Mutation {
    DropLine(prop::sample::Index),
    DuplicateLine(prop::sample::Index),
    SwapLines(prop::sample::Index, prop::sample::Index),
    Insert(prop::sample::Index, &'static str),
    ReplaceByte(prop::sample::Index, u8),
    Truncate(prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    use prop::sample::{select, Index};
    prop_oneof![
        1 => any::<Index>().prop_map(Mutation::DropLine),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        3 => (any::<Index>(), select(SNIPPETS)).prop_map(|(a, s)| Mutation::Insert(a, s)),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(a, b)| Mutation::ReplaceByte(a, b)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(base: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = base.split_inclusive('\n').map(|l| l.as_bytes().to_vec()).collect();
    for m in mutations {
        if lines.is_empty() {
            lines.push(Vec::new());
        }
        let n = lines.len();
        match m {
            Mutation::DropLine(i) => {
                lines.remove(i.index(n));
            }
            Mutation::DuplicateLine(i) => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            Mutation::SwapLines(i, j) => lines.swap(i.index(n), j.index(n)),
            Mutation::Insert(i, s) => lines.insert(i.index(n + 1), s.as_bytes().to_vec()),
            Mutation::ReplaceByte(i, b) => {
                let l = &mut lines[i.index(n)];
                if !l.is_empty() {
                    let k = i.index(l.len());
                    l[k] = *b;
                }
            }
            Mutation::Truncate(i) => {
                let l = &mut lines[i.index(n)];
                let k = i.index(l.len() + 1);
                l.truncate(k);
            }
        }
    }
    lines.concat()
}

/// The release JSON form of the template: the non-hook documents in the
/// manifest, the hooks in the hook list.
fn release_json(template: &str) -> String {
    let docs: Vec<&str> = template.split("---\n").filter(|d| !d.trim().is_empty()).collect();
    let mut manifest = String::new();
    let mut hooks = Vec::new();
    for d in docs {
        let (path, body) = d.split_once('\n').unwrap_or(("", d));
        let path = path.trim_start_matches("# Source: ");
        if body.contains("helm.sh/hook:") {
            hooks.push(serde_json::json!({"path": path, "manifest": body}));
        } else {
            manifest.push_str(&format!("---\n# Source: {path}\n{body}"));
        }
    }
    serde_json::json!({
        "name": "r", "namespace": "ns1", "version": 2, "manifest": manifest, "hooks": hooks,
        "chart": {"metadata": {"name": "app",
            "annotations": {"helm.sh/subchart-depends-on": "{\"cache\": [\"db\"]}", "helm.sh/depends-on/subcharts": "[\"db\"]"},
            "dependencies": [{"name": "db"}, {"name": "cache", "alias": "c2", "depends-on": ["db"]}]}}
    })
    .to_string()
}

/// The whole path the CLI takes, with every renderer, at a few settings.
fn exercise(bytes: &[u8]) {
    for options in [
        plan::PlanOptions::default(),
        plan::PlanOptions { parallel: 3, parallel_all: true, parallel_resources: Some(2) },
    ] {
        let mut diags = Diagnostics::default();
        let Ok((format, release)) = input::parse(bytes, &mut diags) else { return };
        // What deploy and run send to the API server.
        for manifest in release.resources.iter().map(|r| &r.manifest).chain(release.hooks.iter().map(|h| &h.manifest)) {
            let _ = helm_hooks::model::yaml::to_json(manifest);
        }
        let p = plan::build(&release, &[], options, &mut diags);
        let _ = render::json::lint(&diags, true);
        let _ = render::text::diagnostics(&diags, true);
        // The renderers must cope with whatever the plan holds, errors or not.
        let _ = render::text::plan(&release, &p);
        let _ = render::json::plan(&release, format, &p, &diags);
        let _ = render::dot::plan(&p);
        let _ = render::mermaid::plan(&p);
    }
}

/// Characters that matter to the annotation and readiness parsers.
const VALUE_CHARS: &str = "[{(\"'@?.,/ =!<>)}]\\-+0123456789aJjobs\u{e9}\t";

fn value_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(prop::sample::select(VALUE_CHARS.chars().collect::<Vec<_>>()), 0..40)
            .prop_map(|v| v.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = helm_hooks::model::yaml::to_json(&String::from_utf8_lossy(&bytes));
        exercise(&bytes);
        let mut wrapped = b"{\"manifest\": ".to_vec();
        wrapped.extend_from_slice(&bytes);
        exercise(&wrapped);
    }

    #[test]
    fn mutated_templates_never_panic(ms in prop::collection::vec(mutation(), 1..8)) {
        let bytes = mutate(TEMPLATE, &ms);
        exercise(&bytes);
        if let Ok(text) = std::str::from_utf8(&bytes) {
            for doc in manifest::split(text, "<t>") {
                let _ = manifest::parse_head(&doc);
            }
            // The same documents as release JSON take the other input path.
            exercise(release_json(text).as_bytes());
        }
    }

    #[test]
    fn mutated_release_json_never_panics(ms in prop::collection::vec(mutation(), 1..6)) {
        let json = release_json(TEMPLATE);
        // One JSON object per line so that line mutations hit fields.
        let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap();
        exercise(&mutate(&pretty, &ms));
    }

    #[test]
    fn annotation_values_never_panic(v in value_string()) {
        if let Ok(refs) = a::parse_depends_on(&v) {
            for r in refs {
                prop_assert_eq!(r.to_string().parse::<ObjectRef>().unwrap(), r);
            }
        }
        let _ = a::parse_string_array(&v);
        let _ = a::parse_weight(&v);
        let _ = a::parse_bool(&v);
        let _ = a::parse_policy_list(&v);
        let _ = parse_events(&v);
        // External references print back to what parses the same.
        if let Ok(list) = helm_hooks::model::external::parse_list(&v) {
            for e in list {
                assert_eq!(e.to_string().parse::<helm_hooks::model::external::External>().ok(), Some(e));
            }
        }
        let _ = v.parse::<ObjectRef>();
    }

    #[test]
    fn readiness_never_panics(e in value_string(), s in value_string(), path in "[{]?[.]?(status|\\[|\\]|\\?\\(@|\\.|type|==|\"|'|0|\\))*[}]? ?(==|!=|<=|>=|<|>)? ?[a-z0-9\"']*") {
        let object = serde_json::json!({"status": {"phase": "Bound", "n": [3, "x", null], "conditions": [{"type": "Ready", "status": "True"}]}});
        for text in [&e, &path] {
            if let Ok(x) = Expr::parse(text) {
                let _ = x.holds(&object);
                let _ = x.holds(&serde_json::json!([1, {"status": 2}]));
            }
        }
        let mut ann = BTreeMap::new();
        ann.insert(a::READINESS_SUCCESS.to_string(), serde_json::to_string(&vec![&path, &e]).unwrap());
        ann.insert(a::READINESS_FAILURE.to_string(), s.clone());
        let mut diags = Diagnostics::default();
        if let Some(r) = Readiness::from_annotations(&ann, &Location::default(), &mut diags) {
            let _ = r.evaluate(&object);
        }
    }

    #[test]
    fn kind_readiness_never_panics(kind in prop::sample::select(helm_hooks::ready::kstatus::KINDS.iter().copied().chain(["Widget"]).collect::<Vec<_>>()), object in json_value()) {
        let _ = helm_hooks::ready::kstatus::health(kind, &object);
        let _ = helm_hooks::ready::kstatus::health(kind, &serde_json::json!({"status": object.clone(), "spec": object}));
    }

    #[test]
    fn cli_arguments_never_panic(
        args in prop::collection::vec(prop_oneof![
            prop::sample::select(vec!["plan", "lint", "run", "deploy", "rollback", "uninstall", "--readiness-timeout", "--keep-history", "version", "help", "-", "--event", "--event=install", "test", "--all-events",
                "--parallel", "--parallel=0", "-5", "99999999999999999999", "--parallel-all", "-o", "--output=dot", "json",
                "text", "mermaid", "junit", "-h", "--", "=", "--=", "rel", "--timeout", "1m30s", "--logs", "--filter",
                "name=x", "--ignore-fail-fast"]).prop_map(str::to_string),
            any::<String>(),
        ], 0..6),
        ms in prop::collection::vec(mutation(), 0..3),
    ) {
        // `run` talks to the API server in HELM_KUBEAPISERVER (set during
        // the end-to-end tests); without one it stops after parsing.
        let talks = ["run", "deploy", "rollback", "uninstall"];
        if args.first().is_some_and(|a| talks.contains(&a.as_str())) && std::env::var_os("HELM_KUBEAPISERVER").is_some() {
            return Ok(());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = cli::run_captured(&refs, &mutate(TEMPLATE, &ms));
    }
}

/// Any JSON, biased towards the fields readiness rules read.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let key = prop::sample::select(vec![
        "status",
        "spec",
        "metadata",
        "conditions",
        "type",
        "reason",
        "message",
        "replicas",
        "readyReplicas",
        "updatedReplicas",
        "availableReplicas",
        "observedGeneration",
        "generation",
        "phase",
        "Ready",
        "True",
        "containerStatuses",
        "state",
        "waiting",
        "updateStrategy",
        "rollingUpdate",
        "partition",
        "loadBalancer",
        "ingress",
        "desiredNumberScheduled",
        "numberReady",
        "deletionTimestamp",
        "currentRevision",
        "updateRevision",
    ])
    .prop_map(str::to_string);
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number)),
        prop::sample::select(vec![
            "True",
            "False",
            "Unknown",
            "Bound",
            "Failed",
            "Succeeded",
            "ProgressDeadlineExceeded",
            "OnDelete",
            ""
        ])
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The unmutated inputs are valid: the mutations start from a real plan.
#[test]
fn the_seeds_are_valid() {
    for (name, bytes) in [("template", TEMPLATE.to_string()), ("release json", release_json(TEMPLATE))] {
        let (code, out, err) = cli::run_captured(&["plan", "-", "-o", "json", "--parallel", "4"], bytes.as_bytes());
        assert_eq!(code, cli::Exit::Ok, "{name}: {err}");
        assert!(out.contains("\"waves\""), "{name}: {out}");
    }
}
