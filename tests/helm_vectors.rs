//! Helm's own test vectors (research/helm_spec.md §E) and HIP-0025's, run
//! against helm-hooks' parser and planner. Each test names the upstream test
//! it mirrors.

use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::event::Event;
use helm_hooks::model::hook::DeletePolicy;
use helm_hooks::model::input::{self, Release};
use helm_hooks::plan::{self, PlanOptions, Target};

/// A `helm template`-style stream from (source path, document) pairs.
fn stream(docs: &[(&str, &str)]) -> String {
    docs.iter().map(|(src, doc)| format!("---\n# Source: {src}\n{doc}\n")).collect()
}

fn parse(docs: &[(&str, &str)]) -> (Release, Diagnostics) {
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(stream(docs).as_bytes(), &mut d).expect("parses");
    (r, d)
}

/// A manifest of one object. Names are quoted: the vectors are Go structs in Helm's tests,
/// and a plain `y` would be YAML 1.1's true, which Kubernetes (and the plugin) refuse.
fn obj(kind: &str, name: &str, annotations: &[(&str, &str)]) -> String {
    let mut s = format!("apiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name:?}\n");
    if !annotations.is_empty() {
        s.push_str("  annotations:\n");
        for (k, v) in annotations {
            s.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
        }
    }
    s
}

fn install_batches(r: &Release) -> (Vec<Vec<String>>, Diagnostics) {
    let mut d = Diagnostics::default();
    let p = plan::build(r, &[Target::Install], PlanOptions::default(), &mut d);
    let e = &p.events[0];
    let batches = e
        .batches
        .iter()
        .map(|b| {
            let mut names: Vec<String> = b.resources.iter().map(|&i| r.resources[i].head.name.clone()).collect();
            names.sort();
            names
        })
        .collect();
    (batches, d)
}

fn order(r: &Release, event: Event) -> Vec<String> {
    let mut d = Diagnostics::default();
    let p = plan::build(r, &[Target::Hooks(event)], PlanOptions::default(), &mut d);
    assert!(!d.has_errors(), "{:?}", d.0);
    p.events[0].waves.iter().flatten().map(|&i| p.events[0].items[i].reference.to_string()).collect()
}

// 1. manifest_sorter_test.go TestSortManifests.
#[test]
fn sort_manifests() {
    let (r, d) = parse(&[
        ("c/templates/one.yaml", &obj("Job", "first", &[("helm.sh/hook", "pre-install")])),
        ("c/templates/two.yaml", &obj("ReplicaSet", "second", &[("helm.sh/hook", "post-install")])),
        ("c/templates/three.yaml", &obj("ReplicaSet", "third", &[("helm.sh/hook", "no-such-hook")])),
        ("c/templates/four.yaml", &obj("Pod", "fourth", &[])),
        ("c/templates/five.yaml", &obj("ReplicaSet", "fifth", &[("helm.sh/hook", "post-delete, post-install")])),
        ("c/templates/seven.yaml", &obj("ConfigMap", "seven-cm", &[])),
        ("c/templates/seven.yaml", &obj("Pod", "seven-test", &[("helm.sh/hook", "test")])),
    ]);
    assert_eq!(r.hooks.len(), 4);
    assert_eq!(r.resources.len(), 2);
    let fifth = r.hooks.iter().find(|h| h.head.name == "fifth").unwrap();
    assert_eq!(fifth.events, vec![Event::PostDelete, Event::PostInstall]);
    assert!(r.hooks.iter().all(|h| h.head.name != "third"), "an unknown event drops the document");
    assert!(d.0.iter().any(|x| x.message.contains("no-such-hook")), "and lint warns");
}

// 6. hookSetDeletePolicy: nothing → before-hook-creation; a non-empty list is kept.
#[test]
fn default_delete_policy() {
    let (r, _) = parse(&[
        ("c/templates/a.yaml", &obj("Job", "a", &[("helm.sh/hook", "test")])),
        ("c/templates/b.yaml", &obj("Job", "b", &[("helm.sh/hook", "test"), ("helm.sh/hook-delete-policy", "never")])),
    ]);
    assert_eq!(r.hooks[0].delete_policies, vec![DeletePolicy::BeforeHookCreation]);
    assert_eq!(r.hooks[1].delete_policies, vec![DeletePolicy::Unknown("never".into())], "kept: no default added");
}

// hooks.go: weight, then name, then kind order, then document order.
#[test]
fn helm_execution_order() {
    let (r, _) = parse(&[
        ("c/templates/a.yaml", &obj("Job", "same", &[("helm.sh/hook", "test")])),
        ("c/templates/b.yaml", &obj("Pod", "same", &[("helm.sh/hook", "test")])),
        ("c/templates/c.yaml", &obj("Pod", "a-late", &[("helm.sh/hook", "test"), ("helm.sh/hook-weight", "5")])),
        ("c/templates/d.yaml", &obj("Pod", "z-first", &[("helm.sh/hook", "test"), ("helm.sh/hook-weight", "-5")])),
        ("c/templates/e.yaml", &obj("ConfigMap", "B", &[("helm.sh/hook", "test"), ("helm.sh/hook-weight", "abc")])),
    ]);
    assert_eq!(order(&r, Event::Test), ["Pod/z-first", "ConfigMap/B", "Pod/same", "Job/same", "Pod/a-late"]);
}

// 10. dag_test.go diamond, through resource groups.
#[test]
fn diamond_groups() {
    let g = |name: &str, group: &str, deps: &str| {
        obj("ConfigMap", name, &[("helm.sh/resource-group", group), ("helm.sh/depends-on/resource-groups", deps)])
    };
    let (r, _) = parse(&[
        ("c/templates/a.yaml", &g("a", "a", "[]")),
        ("c/templates/b.yaml", &g("b", "b", r#"["a"]"#)),
        ("c/templates/c.yaml", &g("c", "c", r#"["a"]"#)),
        ("c/templates/d.yaml", &g("d", "d", r#"["b","c"]"#)),
    ]);
    let (b, d) = install_batches(&r);
    assert!(!d.has_errors());
    assert_eq!(b, vec![vec!["a"], vec!["b", "c"], vec!["d"]]);
}

// 12. resource_group_test.go ComplexDAG.
#[test]
fn complex_dag() {
    let g = |group: &str, deps: &str| {
        obj("ConfigMap", group, &[("helm.sh/resource-group", group), ("helm.sh/depends-on/resource-groups", deps)])
    };
    let (r, _) = parse(&[
        ("c/templates/1.yaml", &g("database", "[]")),
        ("c/templates/2.yaml", &g("cache", "[]")),
        ("c/templates/3.yaml", &g("queue", "[]")),
        ("c/templates/4.yaml", &g("api", r#"["database","cache"]"#)),
        ("c/templates/5.yaml", &g("worker", r#"["queue","database"]"#)),
        ("c/templates/6.yaml", &g("frontend", r#"["api"]"#)),
    ]);
    let (b, _) = install_batches(&r);
    assert_eq!(b, vec![vec!["cache", "database", "queue"], vec!["api", "worker"], vec!["frontend"]]);
}

// 13. CascadingMissingDeps: app → database → missing demotes both, database first.
#[test]
fn cascading_missing_dependencies() {
    let g = |group: &str, deps: &str| {
        obj("ConfigMap", group, &[("helm.sh/resource-group", group), ("helm.sh/depends-on/resource-groups", deps)])
    };
    let (r, _) = parse(&[
        ("c/templates/1.yaml", &g("app", r#"["database"]"#)),
        ("c/templates/2.yaml", &g("database", r#"["missing"]"#)),
    ]);
    let (b, d) = install_batches(&r);
    assert_eq!(b, vec![vec!["app", "database"]], "one unsequenced batch");
    let demoted: Vec<&str> =
        d.0.iter().filter(|x| x.message.contains("non-existent")).map(|x| x.message.as_str()).collect();
    assert_eq!(demoted.len(), 2);
    assert!(demoted[0].starts_with("group \"database\""), "{demoted:?}");
    assert!(d.0.iter().all(|x| !x.is_error()), "demotions are warnings, in lint too (lint --strict fails on them)");
}

// 14. EmptyStringDependencyDemoted and InvalidDependsOnJSON.
#[test]
fn empty_and_invalid_dependencies_demote() {
    let (r, _) = parse(&[
        (
            "c/templates/1.yaml",
            &obj(
                "ConfigMap",
                "x",
                &[("helm.sh/resource-group", "x"), ("helm.sh/depends-on/resource-groups", r#"[""]"#)],
            ),
        ),
        (
            "c/templates/2.yaml",
            &obj(
                "ConfigMap",
                "y",
                &[("helm.sh/resource-group", "y"), ("helm.sh/depends-on/resource-groups", "not-valid-json")],
            ),
        ),
    ]);
    let (b, d) = install_batches(&r);
    assert_eq!(b, vec![vec!["x", "y"]]);
    assert!(d.0.iter().any(|x| x.message.contains("invalid JSON")));
    assert!(d.0.iter().any(|x| x.message.contains("non-existent group \"\"")));
}

// 15. ResourceAssignedToMultipleGroups is fatal; SameNameDifferentNamespaces is not.
#[test]
fn multiple_groups() {
    let two = |ns: &str, group: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\n  namespace: {ns}\n  annotations:\n    helm.sh/resource-group: {group}\n")
    };
    let (r, _) = parse(&[("c/templates/1.yaml", &two("a", "g1")), ("c/templates/2.yaml", &two("a", "g2"))]);
    assert!(install_batches(&r).1.has_errors());
    let (r, _) = parse(&[("c/templates/1.yaml", &two("a", "g1")), ("c/templates/2.yaml", &two("b", "g2"))]);
    assert!(!install_batches(&r).1.has_errors());
}

// 16. builder_test.go IsolatedGroupDemoted; SingleGroup_NotDemoted.
#[test]
fn isolated_groups() {
    let g = |name: &str, group: &str, deps: &str| {
        obj("ConfigMap", name, &[("helm.sh/resource-group", group), ("helm.sh/depends-on/resource-groups", deps)])
    };
    let (r, _) = parse(&[
        ("c/templates/1.yaml", &g("db", "db", "[]")),
        ("c/templates/2.yaml", &g("app", "app", r#"["db"]"#)),
        ("c/templates/3.yaml", &obj("ConfigMap", "plain", &[])),
        ("c/templates/4.yaml", &g("metrics", "metrics", "[]")),
    ]);
    let (b, d) = install_batches(&r);
    assert_eq!(b, vec![vec!["db"], vec!["app"], vec!["metrics", "plain"]]);
    assert!(d.0.iter().any(|x| x.message.contains("\"metrics\" is isolated") && !x.is_error()));
    let (r, _) = parse(&[("c/templates/1.yaml", &g("db", "db", "[]"))]);
    assert_eq!(install_batches(&r).0, vec![vec!["db"]]);
}

// 17. AllGroupsIsolated: one unsequenced batch, two warnings.
#[test]
fn all_groups_isolated() {
    let g = |group: &str| obj("ConfigMap", group, &[("helm.sh/resource-group", group)]);
    let (r, _) = parse(&[("c/templates/1.yaml", &g("beta")), ("c/templates/2.yaml", &g("alpha"))]);
    let (b, d) = install_batches(&r);
    assert_eq!(b, vec![vec!["alpha", "beta"]]);
    assert_eq!(d.0.iter().filter(|x| x.message.contains("isolated")).count(), 2);
}

// 11 and cycles: a resource-group cycle is fatal and names the groups.
#[test]
fn group_cycle_is_fatal() {
    let g = |group: &str, deps: &str| {
        obj("ConfigMap", group, &[("helm.sh/resource-group", group), ("helm.sh/depends-on/resource-groups", deps)])
    };
    let (r, _) = parse(&[
        ("c/templates/1.yaml", &g("a", r#"["c"]"#)),
        ("c/templates/2.yaml", &g("b", r#"["a"]"#)),
        ("c/templates/3.yaml", &g("c", r#"["b"]"#)),
    ]);
    let (_, d) = install_batches(&r);
    let e = d.errors().next().expect("an error");
    assert!(
        e.message.contains("resource-group circular dependency detected in c: cycle detected among nodes: a, b, c"),
        "{}",
        e.message
    );
}

// 18. NestedSubcharts_ThreeLevels and 19. UndeclaredSubchartIncluded: subcharts first, deepest first,
// in a chart that opts in to HIP-0025 sequencing (here with a resource group).
#[test]
fn nested_subcharts_deploy_before_parents() {
    let (r, _) = parse(&[
        ("parent/templates/p.yaml", &obj("ConfigMap", "parent", &[("helm.sh/resource-group", "app")])),
        ("parent/charts/child/templates/c.yaml", &obj("ConfigMap", "child", &[])),
        ("parent/charts/child/charts/grand/templates/g.yaml", &obj("ConfigMap", "grand", &[])),
    ]);
    assert_eq!(install_batches(&r).0, vec![vec!["grand"], vec!["child"], vec!["parent"]]);
}

// HIP-0025 sequencing is opt-in (`--wait=ordered`); without it Helm applies a
// release at once. A chart that declares no order deploys in one batch, as
// stock Helm, whatever its subcharts; CRDs and Namespaces first.
#[test]
fn subcharts_without_declared_order_deploy_at_once() {
    let (r, _) = parse(&[
        ("parent/templates/p.yaml", &obj("ConfigMap", "parent", &[])),
        ("parent/charts/child/templates/c.yaml", &obj("ConfigMap", "child", &[])),
        ("parent/charts/child/charts/grand/templates/g.yaml", &obj("ConfigMap", "grand", &[])),
        ("parent/charts/child/templates/ns.yaml", &obj("Namespace", "ns", &[])),
        ("parent/charts/crds/crds/crd.yaml", &obj("CustomResourceDefinition", "crd", &[])),
    ]);
    assert_eq!(install_batches(&r).0, vec![vec!["crd", "ns"], vec!["child", "grand", "parent"]]);
}

// 18. SubchartDependencyOrder: postgres → rabbitmq → app, declared with
// helm-hooks' stock-Helm annotation in release JSON.
#[test]
fn subchart_order_from_chart_annotation() {
    let manifest = stream(&[
        ("top/charts/app/templates/a.yaml", &obj("ConfigMap", "app", &[])),
        ("top/charts/postgres/templates/p.yaml", &obj("ConfigMap", "postgres", &[])),
        ("top/charts/rabbitmq/templates/r.yaml", &obj("ConfigMap", "rabbitmq", &[])),
    ]);
    let json = serde_json::json!({
        "name": "r", "namespace": "default", "version": 1, "manifest": manifest, "hooks": [],
        "chart": {"metadata": {"name": "top",
            "annotations": {"helm.sh/subchart-depends-on": r#"{"app": ["rabbitmq"], "rabbitmq": ["postgres"]}"#},
            "dependencies": [{"name": "app"}, {"name": "postgres"}, {"name": "rabbitmq"}]}}
    });
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(json.to_string().as_bytes(), &mut d).unwrap();
    let (b, d) = install_batches(&r);
    assert!(!d.has_errors(), "{:?}", d.0);
    assert_eq!(b, vec![vec!["postgres"], vec!["rabbitmq"], vec!["app"]]);
}

// 20. subchart_dag_test.go HIPExample, from HIP-0025's dependencies[].depends-on.
#[test]
fn hip_subchart_example() {
    let manifest = stream(&[
        ("foo/charts/nginx/templates/a.yaml", &obj("ConfigMap", "nginx", &[])),
        ("foo/charts/rabbitmq/templates/a.yaml", &obj("ConfigMap", "rabbitmq", &[])),
        ("foo/charts/bar/templates/a.yaml", &obj("ConfigMap", "bar", &[])),
    ]);
    let json = serde_json::json!({
        "name": "r", "manifest": manifest,
        "chart": {"metadata": {"name": "foo", "annotations": {"helm.sh/depends-on/subcharts": r#"["bar","rabbitmq"]"#},
            "dependencies": [{"name": "nginx"}, {"name": "rabbitmq"}, {"name": "bar", "depends-on": ["nginx", "rabbitmq"]}]}}
    });
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(json.to_string().as_bytes(), &mut d).unwrap();
    let (b, d) = install_batches(&r);
    assert!(!d.has_errors(), "{:?}", d.0);
    assert_eq!(b, vec![vec!["nginx"], vec!["rabbitmq"], vec!["bar"]]);

    let bad = json.to_string().replace(r#"[\"bar\",\"rabbitmq\"]"#, r#"{\"bar\":1}"#);
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(bad.as_bytes(), &mut d).unwrap();
    let (_, d2) = install_batches(&r);
    assert!(d2.errors().any(|e| e.message.contains("JSON array")), "{:?}", d2.0);
}

// docs/design.md §4: a serial hook waits for every hook before it in its weight;
// parallel hooks between two serial ones run together.
#[test]
fn serial_barriers_inside_a_weight() {
    let p = |name: &str| obj("Pod", name, &[("helm.sh/hook", "test"), ("helm.sh/hook-parallel", "true")]);
    let s = |name: &str| obj("Pod", name, &[("helm.sh/hook", "test")]);
    let (r, _) = parse(&[
        ("c/templates/a.yaml", &p("a")),
        ("c/templates/b.yaml", &p("b")),
        ("c/templates/c.yaml", &s("c")),
        ("c/templates/d.yaml", &p("d")),
        ("c/templates/e.yaml", &p("e")),
    ]);
    let mut d = Diagnostics::default();
    let plan =
        plan::build(&r, &[Target::Hooks(Event::Test)], PlanOptions { parallel: 8, ..Default::default() }, &mut d);
    let waves: Vec<Vec<String>> = plan.events[0]
        .waves
        .iter()
        .map(|w| w.iter().map(|&i| plan.events[0].items[i].reference.name.clone()).collect())
        .collect();
    assert_eq!(waves, vec![vec!["a", "b"], vec!["c"], vec!["d", "e"]]);
}

#[test]
fn depends_on_errors_are_precise() {
    let (r, _) = parse(&[
        ("c/templates/a.yaml", &obj("Job", "a", &[("helm.sh/hook", "test"), ("helm.sh/depends-on", "Job/b")])),
        ("c/templates/b.yaml", &obj("Job", "b", &[("helm.sh/hook", "test"), ("helm.sh/hook-weight", "1")])),
        ("c/templates/c.yaml", &obj("Job", "c", &[("helm.sh/hook", "test"), ("helm.sh/depends-on", "Job/pre")])),
        ("c/templates/d.yaml", &obj("Job", "pre", &[("helm.sh/hook", "pre-install")])),
        ("c/templates/e.yaml", &obj("Job", "x", &[("helm.sh/hook", "test"), ("helm.sh/depends-on", "Job/y")])),
        ("c/templates/f.yaml", &obj("Job", "y", &[("helm.sh/hook", "test"), ("helm.sh/depends-on", "Job/x")])),
    ]);
    let mut d = Diagnostics::default();
    plan::build(&r, &[Target::Hooks(Event::Test)], PlanOptions::default(), &mut d);
    let msgs: Vec<String> = d.errors().map(|e| format!("{}", e)).collect();
    assert!(msgs.iter().any(|m| m.contains("c/templates/a.yaml") && m.contains("higher weight")), "{msgs:#?}");
    assert!(
        msgs.iter().any(|m| m.contains("c/templates/c.yaml") && m.contains("hook of pre-install only")),
        "{msgs:#?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("test cycle: Job/x waits for Job/y (depends-on)")
            || m.contains("test cycle: Job/x waits for Job/y")),
        "{msgs:#?}"
    );
    assert_eq!(msgs.len(), 3, "{msgs:#?}");
}
