//! The plan on structured input: arbitrary hooks and resources with the
//! annotations that shape the graph (weights, parallel flags, depends-on,
//! resource groups, subchart paths), written as `helm template` text so
//! the fuzzer spends its time in the plan rather than in YAML syntax.
#![no_main]

use arbitrary::Arbitrary;
use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::{model::input, plan, render};
use libfuzzer_sys::fuzz_target;

const KINDS: &[&str] = &["Job", "Pod", "ConfigMap", "Secret", "Service", "Deployment", "Namespace", "CronTab"];
const EVENTS: &[&str] =
    &["pre-install", "post-install", "test", "pre-delete", "pre-upgrade,post-upgrade", "test-success", "bogus"];
const SOURCES: &[&str] = &[
    "c/templates/a.yaml",
    "c/templates/b.yaml",
    "c/charts/db/templates/x.yaml",
    "c/charts/app/templates/y.yaml",
    "c/charts/app/charts/cache/templates/z.yaml",
];
const GROUPS: &[&str] = &["", "db", "app", "web"];
const WEIGHTS: &[&str] = &["0", "-1", "1", "2", "x", "9223372036854775807", "-9223372036854775808"];

#[derive(Arbitrary, Debug)]
struct Obj {
    hook: Option<u8>,
    kind: u8,
    name: u8,
    namespace: Option<bool>,
    weight: Option<u8>,
    parallel: Option<bool>,
    deps: Vec<(u8, u8, bool)>,
    group: Option<u8>,
    group_deps: Vec<u8>,
    source: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    parallel: u8,
    parallel_all: bool,
    json: bool,
    objects: Vec<Obj>,
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[usize::from(i) % list.len()]
}

fuzz_target!(|input: Input| {
    let mut docs = Vec::new();
    for o in input.objects.iter().take(64) {
        let mut d = format!("kind: {}\nmetadata:\n  name: n{}\n", pick(KINDS, o.kind), o.name % 16);
        match o.namespace {
            Some(true) => d.push_str("  namespace: a\n"),
            Some(false) => d.push_str("  namespace: b\n"),
            None => {}
        }
        d.push_str("  annotations:\n");
        if let Some(h) = o.hook {
            d.push_str(&format!("    helm.sh/hook: {:?}\n", pick(EVENTS, h)));
        }
        if let Some(w) = o.weight {
            d.push_str(&format!("    helm.sh/hook-weight: {:?}\n", pick(WEIGHTS, w)));
        }
        if let Some(p) = o.parallel {
            d.push_str(&format!("    helm.sh/hook-parallel: \"{p}\"\n"));
        }
        if !o.deps.is_empty() {
            let refs: Vec<String> = o
                .deps
                .iter()
                .map(|(k, n, ns)| {
                    if *ns {
                        format!("{}/a/n{}", pick(KINDS, *k), n % 16)
                    } else {
                        format!("{}/n{}", pick(KINDS, *k), n % 16)
                    }
                })
                .collect();
            d.push_str(&format!("    helm.sh/depends-on: {:?}\n", refs.join(",")));
        }
        if let Some(g) = o.group {
            d.push_str(&format!("    helm.sh/resource-group: {:?}\n", pick(GROUPS, g)));
        }
        if !o.group_deps.is_empty() {
            let gs: Vec<&str> = o.group_deps.iter().map(|g| pick(GROUPS, *g)).collect();
            d.push_str(&format!("    helm.sh/depends-on/resource-groups: {:?}\n", serde_json::to_string(&gs).unwrap()));
        }
        docs.push((pick(SOURCES, o.source), d));
    }
    let text = if input.json {
        let manifest: String = docs
            .iter()
            .filter(|(_, d)| !d.contains("helm.sh/hook:"))
            .map(|(s, d)| format!("---\n# Source: {s}\n{d}"))
            .collect();
        let hooks: Vec<serde_json::Value> = docs
            .iter()
            .filter(|(_, d)| d.contains("helm.sh/hook:"))
            .map(|(s, d)| serde_json::json!({"path": s, "manifest": d}))
            .collect();
        serde_json::json!({
            "name": "r", "namespace": "a", "version": 1, "manifest": manifest, "hooks": hooks,
            "chart": {"metadata": {"name": "c", "annotations": {"helm.sh/subchart-depends-on": "{\"app\": [\"db\"]}"},
                "dependencies": [{"name": "db"}, {"name": "app", "depends-on": ["db"]}]}}
        })
        .to_string()
    } else {
        docs.iter().map(|(s, d)| format!("---\n# Source: {s}\n{d}")).collect()
    };
    let mut diags = Diagnostics::default();
    let Ok((format, release)) = input::parse(text.as_bytes(), &mut diags) else { return };
    let options = plan::PlanOptions {
        parallel: usize::from(input.parallel % 8),
        parallel_all: input.parallel_all,
        parallel_resources: None,
    };
    let p = plan::build(&release, &[], options, &mut diags);
    let _ = render::json::lint(&diags, true);
    let _ = render::text::plan(&release, &p);
    let _ = render::json::plan(&release, format, &p, &diags);
    let _ = render::dot::plan(&p);
    let _ = render::mermaid::plan(&p);
});
