//! HIP-0025's reference implementation (helm/helm PR #32314, head 807b75315)
//! has its own tests. Each case about planning, batching and validation is
//! written here as data (the rendered objects, their source paths, the
//! chart's metadata) with the reference's expectation (batches, an error, a
//! warning), and run through helm-hooks' reader, planner and lint, so that
//! where helm-hooks agrees and where it differs shows test by test.
//!
//! Each test names the upstream test it mirrors. Messages are matched on
//! meaning (a group's name, "cycle", "isolated"), not on Go's wording.
//!
//! How the reference's results map onto a plan: the reference's builder
//! deploys each subchart of a subchart-DAG batch whole, one after another
//! (names sorted within a DAG batch), then the chart's own resource-group
//! batches, then its unsequenced batch; helm-hooks' install plan lists
//! the same batches. Where a case hits one of helm-hooks' deliberate
//! differences (docs/annotations.md, docs/design.md §4), its comment says
//! "differs on purpose" and the test asserts what helm-hooks does:
//! - a release that declares no order (no resource group, no group
//!   dependency, no subchart order) deploys in one batch, as stock Helm
//!   does; the reference walks its subcharts one after another when
//!   `--wait=ordered` is asked for;
//! - a release carries only the top chart's Chart.yaml, so a nested
//!   chart's order is written in the top chart's
//!   `helm.sh/subchart-depends-on` (keys by path: `child/worker`).

use std::collections::{BTreeMap, BTreeSet};

use helm_hooks::action::lint::LintRequest;
use helm_hooks::action::plan::PlanInput;
use helm_hooks::action::Action;
use helm_hooks::base::dag::{self, DagError};
use helm_hooks::model::annotation::{
    DEPENDS_ON_RESOURCE_GROUPS as GROUP_DEPS, DEPENDS_ON_SUBCHARTS as SUBCHARTS,
    PORTABLE_DEPENDS_ON_RESOURCE_GROUPS as PORTABLE, READINESS_FAILURE as READY_FAIL, READINESS_SUCCESS as READY_OK,
    RESOURCE_GROUP as GROUP, SUBCHART_DEPENDS_ON,
};
use helm_hooks::model::diagnostic::{Diagnostic, Diagnostics};
use helm_hooks::model::event::Event;
use helm_hooks::model::input::{self, Release};
use helm_hooks::plan::{self, PlanOptions, Target};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Inputs

/// One rendered document: its `# Source:` path and its YAML.
type Doc = (String, String);

/// The source path of template `file` in `chart`, a chart path written as
/// the plan displays it: `parent`, `parent/db`, `parent/db/redis` (that is
/// `parent/charts/db/charts/redis`).
fn source(chart: &str, file: &str) -> String {
    let mut levels = chart.split('/');
    let mut s = levels.next().unwrap_or_default().to_string();
    for sub in levels {
        s.push_str("/charts/");
        s.push_str(sub);
    }
    format!("{s}/templates/{file}.yaml")
}

/// An object of `kind` named `name` (in `namespace`, if any) rendered by
/// `chart`'s template `<name>.yaml`. Names are quoted: they are Go strings
/// in the reference's tests.
fn object(chart: &str, kind: &str, name: &str, namespace: Option<&str>, ann: &[(&str, &str)]) -> Doc {
    let api = if kind == "Job" { "batch/v1" } else { "v1" };
    let mut s = format!("apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name:?}\n");
    if let Some(ns) = namespace {
        s.push_str(&format!("  namespace: {ns:?}\n"));
    }
    if !ann.is_empty() {
        s.push_str("  annotations:\n");
        for (k, v) in ann {
            s.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
        }
    }
    (source(chart, name), s)
}

/// `doc` rendered from `chart`'s template `<file>.yaml` instead.
fn from(chart: &str, file: &str, doc: Doc) -> Doc {
    (source(chart, file), doc.1)
}

/// A ConfigMap of `chart`.
fn cm(chart: &str, name: &str, ann: &[(&str, &str)]) -> Doc {
    object(chart, "ConfigMap", name, None, ann)
}

/// A ConfigMap of `chart` in resource group `group`, depending on the
/// groups `deps` (the reference's `groupAnnotations`).
fn g(chart: &str, name: &str, group: &str, deps: &[&str]) -> Doc {
    let deps_json = serde_json::to_string(deps).unwrap();
    let mut ann = vec![(GROUP, group)];
    if !deps.is_empty() {
        ann.push((GROUP_DEPS, deps_json.as_str()));
    }
    cm(chart, name, &ann)
}

/// One ConfigMap per chart path, named after its last segment: what the
/// reference's subchart fixtures render.
fn each(charts: &[&str]) -> Vec<Doc> {
    charts.iter().map(|c| cm(c, c.rsplit('/').next().unwrap(), &[])).collect()
}

/// A `helm template`-style stream.
fn stream(docs: &[Doc]) -> String {
    docs.iter().map(|(src, doc)| format!("---\n# Source: {src}\n{doc}")).collect()
}

/// A Chart.yaml dependency after Helm's ProcessDependencies: enabled.
fn dep(name: &str, depends_on: &[&str]) -> Value {
    json!({"name": name, "enabled": true, "depends-on": depends_on})
}

/// An aliased dependency, enabled.
fn aliased(name: &str, alias: &str, depends_on: &[&str]) -> Value {
    json!({"name": name, "alias": alias, "enabled": true, "depends-on": depends_on})
}

/// A dependency Helm disabled, written as if Helm had kept it.
fn disabled(name: &str) -> Value {
    json!({"name": name, "enabled": false})
}

/// Release JSON as `helm install --dry-run -o json` prints it.
fn release_json(top: &str, annotations: &[(&str, &str)], dependencies: Vec<Value>, docs: &[Doc]) -> String {
    let annotations: BTreeMap<&str, &str> = annotations.iter().copied().collect();
    json!({
        "name": "r", "namespace": "default", "version": 1, "manifest": stream(docs), "hooks": [],
        "chart": {"metadata": {"name": top, "annotations": annotations, "dependencies": dependencies}}
    })
    .to_string()
}

// ---------------------------------------------------------------------------
// Running helm-hooks

/// What helm-hooks made of a release: the install batches and every
/// diagnostic (reading and planning).
struct Outcome {
    /// Resource names per batch, in plan order.
    names: Vec<Vec<String>>,
    /// `Kind/name` per batch, in plan order.
    refs: Vec<Vec<String>>,
    /// Each batch's chart, as the plan displays it.
    charts: Vec<String>,
    /// Each batch's resource groups.
    groups: Vec<Vec<String>>,
    diags: Diagnostics,
}

fn read(text: &str) -> (Release, Diagnostics) {
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(text.as_bytes(), &mut d).expect("the input reads");
    (r, d)
}

/// Is `d` helm-hooks' warning that HIP-0025's two-slash key breaks stock
/// Helm? Differs on purpose (docs/annotations.md, "Portable charts"): the
/// reference strips the key in silence, helm-hooks says that every Helm
/// without HIP-0025 fails on it and names the portable key. The cases here
/// keep the reference's key, so [`outcome`] sets that warning aside;
/// `the_two_slash_key_is_warned_and_the_portable_key_reads_alike` checks it.
fn is_portability_warning(d: &Diagnostic) -> bool {
    d.annotation.as_deref() == Some(GROUP_DEPS) && d.message.contains("is not a valid Kubernetes annotation key")
}

fn outcome(r: &Release, batches: &[plan::batch::Batch], mut diags: Diagnostics) -> Outcome {
    diags.0.retain(|d| !is_portability_warning(d));
    let per = |f: &dyn Fn(usize) -> String| -> Vec<Vec<String>> {
        batches.iter().map(|b| b.resources.iter().map(|&i| f(i)).collect()).collect()
    };
    let names = per(&|i| r.resources[i].head.name.clone());
    let refs = per(&|i| format!("{}/{}", r.resources[i].head.kind, r.resources[i].head.name));
    let charts = batches.iter().map(|b| b.chart.clone()).collect();
    let groups = batches.iter().map(|b| b.groups.clone()).collect();
    if !diags.has_errors() {
        // Every resource in exactly one batch (the reference's assertPlanComplete).
        let mut placed: Vec<usize> = batches.iter().flat_map(|b| b.resources.iter().copied()).collect();
        placed.sort_unstable();
        assert_eq!(placed, (0..r.resources.len()).collect::<Vec<_>>(), "every resource in one batch");
    }
    Outcome { names, refs, charts, groups, diags }
}

/// The install plan of a release read from `text`.
fn install(text: &str) -> Outcome {
    let (r, mut diags) = read(text);
    let p = plan::build(&r, &[Target::Install], PlanOptions::default(), &mut diags);
    outcome(&r, &p.events[0].batches, diags)
}

/// The install plan of a `helm template`-style stream (no Chart.yaml).
fn install_stream(docs: &[Doc]) -> Outcome {
    install(&stream(docs))
}

/// The install plan of release JSON.
fn install_chart(top: &str, annotations: &[(&str, &str)], deps: Vec<Value>, docs: &[Doc]) -> Outcome {
    install(&release_json(top, annotations, deps, docs))
}

/// What `helm hooks lint` reports for `text`, with its install batches.
fn lint(text: &str) -> Outcome {
    let request = LintRequest { strict: false, default_timeout_ms: 300_000 };
    let input = &mut PlanInput(text.as_bytes().to_vec());
    let planned = request.run(input, &mut ()).expect("the input reads").planned;
    let batches = planned.plan.events.iter().find(|e| e.target == Target::Install).map(|e| e.batches.clone());
    outcome(&planned.release, &batches.unwrap_or_default(), planned.diags)
}

/// The reference's subchart-DAG batches as a plan deploys them: each
/// subchart whole, one after another.
fn one_by_one(dag: &[&[&str]]) -> Vec<Vec<String>> {
    dag.iter().flat_map(|b| b.iter().map(|s| vec![s.to_string()])).collect()
}

fn owned(want: &[&[&str]]) -> Vec<Vec<String>> {
    want.iter().map(|b| b.iter().map(|s| s.to_string()).collect()).collect()
}

fn sorted(batches: &[Vec<String>]) -> Vec<Vec<String>> {
    batches
        .iter()
        .map(|b| {
            let mut b = b.clone();
            b.sort();
            b
        })
        .collect()
}

impl Outcome {
    fn said(&self) -> String {
        self.diags.0.iter().map(|d| format!("  {d}\n")).collect()
    }

    fn matching<'a>(&'a self, parts: &'a [&str]) -> impl Iterator<Item = &'a Diagnostic> + 'a {
        self.diags.0.iter().filter(move |d| {
            let text = d.to_string();
            parts.iter().all(|p| text.contains(p))
        })
    }

    /// The batches, names sorted within each.
    #[track_caller]
    fn batches(&self, want: &[&[&str]]) -> &Self {
        self.batches_are(owned(want))
    }

    #[track_caller]
    fn batches_are(&self, want: Vec<Vec<String>>) -> &Self {
        assert_eq!(sorted(&self.names), sorted(&want), "batches; diagnostics:\n{}", self.said());
        self
    }

    /// The batches, in plan order within each.
    #[track_caller]
    fn in_order(&self, want: &[&[&str]]) -> &Self {
        assert_eq!(self.names, owned(want), "batches in order; diagnostics:\n{}", self.said());
        self
    }

    #[track_caller]
    fn charts(&self, want: &[&str]) -> &Self {
        assert_eq!(self.charts, want, "the batches' charts");
        self
    }

    #[track_caller]
    fn groups(&self, want: &[&[&str]]) -> &Self {
        assert_eq!(self.groups, owned(want), "the batches' groups");
        self
    }

    #[track_caller]
    fn no_errors(&self) -> &Self {
        assert!(!self.diags.has_errors(), "no error expected:\n{}", self.said());
        self
    }

    /// Nothing said at all (the reference: no warnings).
    #[track_caller]
    fn quiet(&self) -> &Self {
        assert!(self.diags.0.is_empty(), "nothing expected:\n{}", self.said());
        self
    }

    /// An error that contains every part.
    #[track_caller]
    fn error(&self, parts: &[&str]) -> &Self {
        assert!(self.matching(parts).any(|d| d.is_error()), "an error with {parts:?} expected:\n{}", self.said());
        self
    }

    /// An error whose text `meets` a condition described by `what`.
    #[track_caller]
    fn error_that(&self, what: &str, meets: impl Fn(&str) -> bool) -> &Self {
        let found = self.diags.errors().any(|d| meets(&d.to_string()));
        assert!(found, "an error that {what} expected:\n{}", self.said());
        self
    }

    /// A warning (whatever lint makes of it) that contains every part.
    #[track_caller]
    fn warning(&self, parts: &[&str]) -> &Self {
        assert!(self.matching(parts).any(|d| !d.is_error()), "a warning with {parts:?} expected:\n{}", self.said());
        self
    }

    /// Exactly `n` diagnostics contain `part`.
    #[track_caller]
    fn count(&self, part: &str, n: usize) -> &Self {
        assert_eq!(self.matching(&[part]).count(), n, "diagnostics with {part:?}:\n{}", self.said());
        self
    }

    /// No diagnostic contains `part`.
    #[track_caller]
    fn never(&self, part: &str) -> &Self {
        self.count(part, 0)
    }

    /// What `lint` fails on (an error, or a warning lint holds as one) and
    /// contains every part: HIP-0025's lint ErrorSev.
    #[track_caller]
    fn lint_error(&self, parts: &[&str]) -> &Self {
        let found = self.matching(parts).any(|d| d.is_error());
        assert!(found, "a lint error with {parts:?} expected:\n{}", self.said());
        self
    }

    /// A warning that `lint` does not fail on: HIP-0025's lint WarningSev.
    #[track_caller]
    fn lint_warning(&self, parts: &[&str]) -> &Self {
        let found = self.matching(parts).any(|d| !d.is_error());
        assert!(found, "a lint warning with {parts:?} expected:\n{}", self.said());
        self
    }

    /// Nothing that makes `lint` fail.
    #[track_caller]
    fn lint_passes(&self) -> &Self {
        assert!(!self.diags.has_errors(), "lint should pass:\n{}", self.said());
        self
    }
}

/// An error names `name` as no subchart it can be: the reference says
/// "unknown or disabled subchart"; helm-hooks may say "not a dependency".
fn unknown_subchart(name: &str) -> impl Fn(&str) -> bool + '_ {
    move |m: &str| {
        m.contains(&format!("{name:?}")) && (m.contains("unknown or disabled") || m.contains("not a dependency"))
    }
}

// ===========================================================================
// pkg/release/v1/util/resource_group_test.go

// resource_group_test.go TestParseResourceGroups_NoAnnotations
#[test]
fn rg_no_annotations() {
    install_stream(&[cm("chart", "plain-a", &[]), cm("chart", "plain-b", &[])])
        .batches(&[&["plain-a", "plain-b"]])
        .quiet();
}

// resource_group_test.go TestParseResourceGroups_GroupWithDependency
#[test]
fn rg_group_with_dependency() {
    install_stream(&[g("chart", "database", "database", &[]), g("chart", "app", "app", &["database"])])
        .batches(&[&["database"], &["app"]])
        .quiet();
}

// resource_group_test.go TestParseResourceGroups_MultipleResourcesPerGroup
#[test]
fn rg_multiple_resources_per_group() {
    install_stream(&[
        g("chart", "database-config", "database", &[]),
        g("chart", "database-secret", "database", &[]),
        g("chart", "app", "app", &["database"]),
    ])
    .in_order(&[&["database-config", "database-secret"], &["app"]])
    .quiet();
}

// resource_group_test.go TestParseResourceGroups_ResourceAssignedToMultipleGroups
#[test]
fn rg_resource_assigned_to_multiple_groups() {
    let database = from("chart", "database", cm("chart", "shared", &[(GROUP, "database")]));
    let cache = from("chart", "cache", cm("chart", "shared", &[(GROUP, "cache")]));
    install_stream(&[database, cache]).error(&["multiple resource groups", "database", "cache"]);
}

// resource_group_test.go TestParseResourceGroups_SameNameDifferentNamespaces. The reference's
// parser says nothing; its builder then demotes the two groups as isolated (no edges), which
// is what a plan shows: no error about multiple groups, both resources planned.
#[test]
fn rg_same_name_different_namespaces() {
    let a = from("chart", "a", object("chart", "ConfigMap", "shared", Some("ns-a"), &[(GROUP, "groupA")]));
    let b = from("chart", "b", object("chart", "ConfigMap", "shared", Some("ns-b"), &[(GROUP, "groupB")]));
    install_stream(&[a, b]).no_errors().never("multiple").batches(&[&["shared", "shared"]]);
}

// resource_group_test.go TestParseResourceGroups_NonExistentGroupReferenceWarning
#[test]
fn rg_non_existent_group_reference() {
    install_stream(&[g("chart", "app", "app", &["missing"])])
        .batches(&[&["app"]])
        .warning(&["non-existent group", "\"missing\""])
        .count("non-existent group", 1)
        .no_errors();
}

// resource_group_test.go TestParseResourceGroups_EmptyStringDependencyDemoted
#[test]
fn rg_empty_string_dependency_demoted() {
    install_stream(&[g("chart", "app", "app", &[""])])
        .batches(&[&["app"]])
        .warning(&["depends-on non-existent group \"\""])
        .no_errors();
}

// resource_group_test.go TestParseResourceGroups_CascadingMissingDeps: both demoted, database first.
#[test]
fn rg_cascading_missing_deps() {
    let o =
        install_stream(&[g("chart", "app", "app", &["database"]), g("chart", "database", "database", &["missing"])]);
    o.batches(&[&["app", "database"]]).count("non-existent group", 2).no_errors();
    let said: Vec<String> = o.matching(&["non-existent group"]).map(|d| d.message.clone()).collect();
    assert!(said[0].contains("group \"database\" depends-on non-existent group \"missing\""), "{said:?}");
    assert!(said[1].contains("group \"app\" depends-on non-existent group \"database\""), "{said:?}");
}

// resource_group_test.go TestParseResourceGroups_InvalidDependsOnJSON
#[test]
fn rg_invalid_depends_on_json() {
    let bad = cm("chart", "app", &[(GROUP, "app"), (GROUP_DEPS, "not-valid-json")]);
    install_stream(&[bad]).batches(&[&["app"]]).warning(&["invalid JSON"]).count("invalid JSON", 1).no_errors();
}

// resource_group_test.go TestParseResourceGroups_MixedSequencedAndUnsequenced
#[test]
fn rg_mixed_sequenced_and_unsequenced() {
    install_stream(&[g("chart", "database", "database", &[]), cm("chart", "plain", &[])])
        .batches(&[&["database"], &["plain"]])
        .groups(&[&["database"], &[]])
        .quiet();
}

// resource_group_test.go TestResourceGroupDAG_CycleDetection
#[test]
fn rg_cycle_detection() {
    install_stream(&[g("chart", "a", "a", &["c"]), g("chart", "b", "b", &["a"]), g("chart", "c", "c", &["b"])])
        .error(&["cycle"]);
}

// resource_group_test.go TestParseResourceGroups_DeduplicatesDependencies
#[test]
fn rg_deduplicates_dependencies() {
    install_stream(&[
        g("chart", "database", "database", &[]),
        g("chart", "app-config", "app", &["database"]),
        g("chart", "app-secret", "app", &["database"]),
    ])
    .batches(&[&["database"], &["app-config", "app-secret"]])
    .groups(&[&["database"], &["app"]])
    .quiet();
}

// resource_group_test.go TestParseResourceGroups_IsolatedGroupsRemainInBatch0. The reference's
// parser keeps metrics in batch 0 ([[database, metrics], [app]]); its builder then demotes an
// isolated group among two or more (builder_test.go TestBuild_IsolatedGroupDemoted), so a
// deployed release has metrics last, with a warning. The plan is the builder's.
#[test]
fn rg_isolated_groups_remain_in_batch0() {
    install_stream(&[
        g("chart", "database", "database", &[]),
        g("chart", "metrics", "metrics", &[]),
        g("chart", "app", "app", &["database"]),
    ])
    .batches(&[&["database"], &["app"], &["metrics"]])
    .warning(&["isolated", "metrics"])
    .no_errors();
}

// resource_group_test.go TestParseResourceGroups_ComplexDAG
#[test]
fn rg_complex_dag() {
    install_stream(&[
        g("chart", "cache", "cache", &[]),
        g("chart", "database", "database", &[]),
        g("chart", "queue", "queue", &[]),
        g("chart", "api", "api", &["database", "queue"]),
        g("chart", "worker", "worker", &["cache", "queue"]),
        g("chart", "frontend", "frontend", &["api"]),
    ])
    .batches(&[&["cache", "database", "queue"], &["api", "worker"], &["frontend"]])
    .groups(&[&["cache", "database", "queue"], &["api", "worker"], &["frontend"]])
    .quiet();
}

// ===========================================================================
// pkg/chart/v2/util/dag_test.go: the DAG both resource groups and subcharts are ordered by
// (helm_hooks::base::dag). An edge (a, b) is the reference's AddEdge(a, b): b after a.

fn dag_batches(nodes: &[&str], edges: &[(&str, &str)]) -> Result<Vec<Vec<String>>, DagError> {
    let nodes: BTreeSet<String> = nodes.iter().map(|n| n.to_string()).collect();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in edges {
        deps.entry(to.to_string()).or_default().insert(from.to_string());
    }
    dag::batches(&nodes, &deps)
}

struct DagCase {
    name: &'static str,
    nodes: &'static [&'static str],
    edges: &'static [(&'static str, &'static str)],
    batches: &'static [&'static [&'static str]],
}

// dag_test.go TestDAG_BatchOrdering (its six cases)
#[test]
fn dag_batch_ordering() {
    let cases = [
        DagCase { name: "empty DAG", nodes: &[], edges: &[], batches: &[] },
        DagCase { name: "single node", nodes: &["a"], edges: &[], batches: &[&["a"]] },
        DagCase {
            name: "linear chain",
            nodes: &["a", "b", "c"],
            edges: &[("a", "b"), ("b", "c")],
            batches: &[&["a"], &["b"], &["c"]],
        },
        DagCase {
            name: "diamond",
            nodes: &["a", "b", "c", "d"],
            edges: &[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")],
            batches: &[&["a"], &["b", "c"], &["d"]],
        },
        DagCase {
            name: "multiple roots",
            nodes: &["a", "b", "c"],
            edges: &[("a", "c"), ("b", "c")],
            batches: &[&["a", "b"], &["c"]],
        },
        DagCase {
            name: "duplicate edge is idempotent",
            nodes: &["a", "b"],
            edges: &[("a", "b"), ("a", "b")],
            batches: &[&["a"], &["b"]],
        },
    ];
    for c in cases {
        assert_eq!(dag_batches(c.nodes, c.edges), Ok(owned(c.batches)), "{}", c.name);
    }
}

// dag_test.go TestDAG_CycleDetection
#[test]
fn dag_cycle_detection() {
    let e = dag_batches(&["a", "b", "c"], &[("a", "b"), ("b", "c"), ("c", "a")]).unwrap_err().to_string();
    assert!(e.contains("cycle") && e.contains('a') && e.contains('b') && e.contains('c'), "{e}");
}

// dag_test.go TestDAG_SelfLoop
#[test]
fn dag_self_loop() {
    assert!(matches!(dag_batches(&["a"], &[("a", "a")]), Err(DagError::SelfLoop(n)) if n == "a"));
}

// dag_test.go TestDAG_DisconnectedComponents
#[test]
fn dag_disconnected_components() {
    let b = dag_batches(
        &["alpha", "beta", "gamma", "delta", "epsilon", "zeta"],
        &[("alpha", "gamma"), ("beta", "delta"), ("delta", "epsilon")],
    );
    assert_eq!(b, Ok(owned(&[&["alpha", "beta", "zeta"], &["delta", "gamma"], &["epsilon"]])));
}

// dag_test.go TestDAG_LargeGraph: a chain of 128 nodes, one per batch.
#[test]
fn dag_large_graph() {
    let names: Vec<String> = (0..128).map(|i| format!("node-{i:03}")).collect();
    let nodes: Vec<&str> = names.iter().map(String::as_str).collect();
    let edges: Vec<(&str, &str)> = nodes.windows(2).map(|w| (w[0], w[1])).collect();
    let want: Vec<Vec<String>> = names.iter().map(|n| vec![n.clone()]).collect();
    assert_eq!(dag_batches(&nodes, &edges), Ok(want));
}

// ===========================================================================
// pkg/chart/v2/util/subchart_dag_test.go. Each subchart renders one ConfigMap named after it;
// the expected batches are the reference's DAG batches, each subchart deployed whole.

// subchart_dag_test.go TestBuildSubchartDAG_Empty
#[test]
fn sub_empty() {
    install_chart("parent", &[], vec![], &[]).batches(&[]).quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_NoDependencies. Differs on purpose: nothing
// declares an order, so the release deploys at once as stock Helm does; the reference
// under --wait=ordered deploys nginx, postgres, rabbitmq one after another.
#[test]
fn sub_no_dependencies() {
    let deps = vec![dep("nginx", &[]), dep("rabbitmq", &[]), dep("postgres", &[])];
    install_chart("parent", &[], deps, &each(&["parent/nginx", "parent/rabbitmq", "parent/postgres"]))
        .batches(&[&["nginx", "postgres", "rabbitmq"]])
        .no_errors();
}

// subchart_dag_test.go TestBuildSubchartDAG_LinearOrder
#[test]
fn sub_linear_order() {
    let deps = vec![dep("postgres", &[]), dep("rabbitmq", &["postgres"]), dep("app", &["rabbitmq"])];
    install_chart("parent", &[], deps, &each(&["parent/postgres", "parent/rabbitmq", "parent/app"]))
        .batches_are(one_by_one(&[&["postgres"], &["rabbitmq"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_AliasResolution (metadata after ProcessDependencies:
// the aliased entry's name is its alias).
#[test]
fn sub_alias_resolution() {
    let deps = vec![aliased("primary-db", "primary-db", &[]), dep("app", &["primary-db"])];
    install_chart("parent", &[], deps, &each(&["parent/primary-db", "parent/app"]))
        .batches_are(one_by_one(&[&["primary-db"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_DisabledSubchart: cache kept as disabled, and cache
// absent as stock Helm's ProcessDependencies leaves it.
#[test]
fn sub_disabled_subchart() {
    for (form, deps) in
        [("kept disabled", vec![disabled("cache"), dep("app", &["cache"])]), ("absent", vec![dep("app", &["cache"])])]
    {
        eprintln!("cache {form}");
        install_chart("parent", &[], deps, &each(&["parent/app"]))
            .error(&["depends-on unknown or disabled subchart \"cache\""]);
    }
}

// subchart_dag_test.go TestBuildSubchartDAG_DisabledSubchartNotReferenced (both forms)
#[test]
fn sub_disabled_subchart_not_referenced() {
    for (form, deps) in [("kept disabled", vec![disabled("cache"), dep("app", &[])]), ("absent", vec![dep("app", &[])])]
    {
        eprintln!("cache {form}");
        install_chart("parent", &[], deps, &each(&["parent/app"])).batches(&[&["app"]]).quiet();
    }
}

// subchart_dag_test.go TestBuildSubchartDAG_CycleDetection
#[test]
fn sub_cycle_detection() {
    let deps = vec![dep("a", &["b"]), dep("b", &["c"]), dep("c", &["a"])];
    install_chart("parent", &[], deps, &each(&["parent/a", "parent/b", "parent/c"])).error(&["cycle"]);
}

// subchart_dag_test.go TestBuildSubchartDAG_AnnotationBasedParentDependencies
#[test]
fn sub_annotation_based_parent_dependencies() {
    let deps = vec![dep("postgres", &[]), dep("nginx", &[])];
    install_chart("parent", &[(SUBCHARTS, r#"["nginx"]"#)], deps, &each(&["parent/postgres", "parent/nginx"]))
        .batches_are(one_by_one(&[&["nginx", "postgres"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_HIPExample
#[test]
fn sub_hip_example() {
    let deps = vec![dep("nginx", &[]), dep("rabbitmq", &[]), dep("bar", &["nginx", "rabbitmq"])];
    let docs = each(&["foo/nginx", "foo/rabbitmq", "foo/bar"]);
    install_chart("foo", &[(SUBCHARTS, r#"["bar", "rabbitmq"]"#)], deps, &docs)
        .batches_are(one_by_one(&[&["nginx", "rabbitmq"], &["bar"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_MixedDeclarations
#[test]
fn sub_mixed_declarations() {
    let deps = vec![dep("database", &[]), dep("api", &["database"]), dep("worker", &[])];
    let docs = each(&["parent/database", "parent/api", "parent/worker"]);
    install_chart("parent", &[(SUBCHARTS, r#"["worker"]"#)], deps, &docs)
        .batches_are(one_by_one(&[&["database", "worker"], &["api"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_InvalidAnnotationJSON
#[test]
fn sub_invalid_annotation_json() {
    install_chart("parent", &[(SUBCHARTS, r#"["api","#)], vec![dep("api", &[])], &each(&["parent/api"]))
        .error(&[SUBCHARTS]);
}

// subchart_dag_test.go TestBuildSubchartDAG_ObjectAnnotationRejected
#[test]
fn sub_object_annotation_rejected() {
    let deps = vec![dep("postgres", &[]), dep("nginx", &[])];
    let docs = each(&["parent/postgres", "parent/nginx"]);
    install_chart("parent", &[(SUBCHARTS, r#"{"nginx":["postgres"]}"#)], deps, &docs)
        .error(&[SUBCHARTS, "JSON", "array"]);
}

// subchart_dag_test.go TestBuildSubchartDAG_NonExistentReference
#[test]
fn sub_non_existent_reference() {
    install_chart("parent", &[], vec![dep("app", &["missing"])], &each(&["parent/app"]))
        .error(&["depends-on unknown or disabled subchart \"missing\""]);
}

// subchart_dag_test.go TestBuildSubchartDAG_AnnotationUnknownSubchart
#[test]
fn sub_annotation_unknown_subchart() {
    install_chart("parent", &[(SUBCHARTS, r#"["app"]"#)], vec![dep("postgres", &[])], &each(&["parent/postgres"]))
        .error_that("names \"app\" as an unknown subchart", unknown_subchart("app"));
}

// subchart_dag_test.go TestBuildSubchartDAG_NestedSubcharts: the nested chart's depends-on
// (worker after cache) is not in a release, which carries the top chart's Chart.yaml only;
// helm-hooks reads it from the top chart's helm.sh/subchart-depends-on, keyed by path.
#[test]
fn sub_nested_subcharts() {
    let deps = vec![dep("database", &[]), dep("application", &["database"])];
    let nested = (SUBCHART_DEPENDS_ON, r#"{"application/worker": ["cache"]}"#);
    let docs =
        each(&["parent/database", "parent/application", "parent/application/cache", "parent/application/worker"]);
    install_chart("parent", &[nested], deps, &docs)
        .in_order(&[&["database"], &["cache"], &["worker"], &["application"]])
        .charts(&["parent/database", "parent/application/cache", "parent/application/worker", "parent/application"])
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_StorageDecodedMetadataTrusted
#[test]
fn sub_storage_decoded_metadata_trusted() {
    let deps = vec![dep("db", &[]), dep("app", &["db"])];
    install_chart("parent", &[(SUBCHARTS, r#"["app"]"#)], deps, &each(&["parent/db", "parent/app"]))
        .batches_are(one_by_one(&[&["db"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_MetadataOnlyNotEnabled_Ignored: an entry Helm never
// enabled (no "enabled") is no node.
#[test]
fn sub_metadata_only_not_enabled_ignored() {
    install_chart("parent", &[], vec![json!({"name": "ghost"})], &[cm("parent", "parent", &[])])
        .batches(&[&["parent"]])
        .quiet();
}

// subchart_dag_test.go TestBuildSubchartDAG_AnnotationReferencesUnloadedDep: pruned-dep was
// disabled, kept in the metadata as disabled; the annotation naming it is an error.
#[test]
fn sub_annotation_references_unloaded_dep_kept_disabled() {
    let deps = vec![dep("loaded-dep", &[]), disabled("pruned-dep")];
    install_chart("parent", &[(SUBCHARTS, r#"["pruned-dep"]"#)], deps, &each(&["parent/loaded-dep"]))
        .error_that("names \"pruned-dep\" as an unknown subchart", unknown_subchart("pruned-dep"));
}

// subchart_dag_test.go TestBuildSubchartDAG_AnnotationReferencesUnloadedDep: pruned-dep absent,
// as stock Helm's ProcessDependencies leaves a disabled dependency.
#[test]
fn sub_annotation_references_unloaded_dep_absent() {
    install_chart(
        "parent",
        &[(SUBCHARTS, r#"["pruned-dep"]"#)],
        vec![dep("loaded-dep", &[])],
        &each(&["parent/loaded-dep"]),
    )
    .error_that("names \"pruned-dep\" as an unknown subchart", unknown_subchart("pruned-dep"));
}

// subchart_dag_test.go TestBuildSubchartDAG_AnnotationReferencesUnloadedDep, literally: both
// entries enabled, pruned-dep renders nothing. Differs on purpose: a release's metadata cannot
// tell a subchart Helm did not load from an enabled one that rendered nothing, and helm-hooks
// trusts enabled entries as the reference trusts a chart from storage; the reference errs
// only because its in-memory chart lacks the subchart.
#[test]
fn sub_annotation_references_enabled_dep_that_renders_nothing() {
    let deps = vec![dep("loaded-dep", &[]), dep("pruned-dep", &[])];
    install_chart("parent", &[(SUBCHARTS, r#"["pruned-dep"]"#)], deps, &each(&["parent/loaded-dep"]))
        .no_errors()
        .batches(&[&["loaded-dep"]]);
}

// subchart_dag_test.go TestProcessDependencies_ResolvesDependsOnByOriginalName: metadata as
// Chart.yaml writes it (name, alias, depends-on by the original name).
#[test]
fn sub_resolves_depends_on_by_original_name() {
    let deps = vec![aliased("postgres", "primary-db", &[]), dep("app", &["postgres"])];
    install_chart("parent", &[], deps, &each(&["parent/primary-db", "parent/app"]))
        .batches_are(one_by_one(&[&["primary-db"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestProcessDependencies_ResolvesDependsOnByAlias
#[test]
fn sub_resolves_depends_on_by_alias() {
    let deps = vec![aliased("postgres", "primary-db", &[]), dep("app", &["primary-db"])];
    install_chart("parent", &[], deps, &each(&["parent/primary-db", "parent/app"]))
        .batches_are(one_by_one(&[&["primary-db"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestProcessDependencies_AmbiguousDependsOnRejected
#[test]
fn sub_ambiguous_depends_on_rejected() {
    let deps = vec![aliased("postgres", "db1", &[]), aliased("postgres", "db2", &[]), dep("app", &["postgres"])];
    install_chart("parent", &[], deps, &each(&["parent/db1", "parent/db2", "parent/app"]))
        .error(&["ambiguous", "\"postgres\""]);
}

// subchart_dag_test.go TestProcessDependencies_RewritesSubchartAnnotation: the annotation names
// the aliased chart by its original name, with the metadata as Chart.yaml writes it.
#[test]
fn sub_rewrites_subchart_annotation_chart_yaml_names() {
    let deps = vec![aliased("postgres", "primary-db", &[]), dep("app", &[])];
    install_chart(
        "parent",
        &[(SUBCHARTS, r#"["postgres", "app"]"#)],
        deps,
        &each(&["parent/primary-db", "parent/app"]),
    )
    .batches_are(one_by_one(&[&["app", "primary-db"]]))
    .quiet();
}

// subchart_dag_test.go TestProcessDependencies_RewritesSubchartAnnotation: the metadata and the
// annotation as the reference stores them (rewritten to the alias).
#[test]
fn sub_rewrites_subchart_annotation_stored() {
    let deps = vec![aliased("primary-db", "primary-db", &[]), dep("app", &[])];
    install_chart(
        "parent",
        &[(SUBCHARTS, r#"["primary-db","app"]"#)],
        deps,
        &each(&["parent/primary-db", "parent/app"]),
    )
    .batches_are(one_by_one(&[&["app", "primary-db"]]))
    .quiet();
}

// subchart_dag_test.go TestProcessDependencies_AmbiguousAnnotationRejected
#[test]
fn sub_ambiguous_annotation_rejected() {
    let deps = vec![aliased("postgres", "db1", &[]), aliased("postgres", "db2", &[])];
    install_chart("parent", &[(SUBCHARTS, r#"["postgres"]"#)], deps, &each(&["parent/db1", "parent/db2"]))
        .error(&["ambiguous", "\"postgres\""]);
}

// subchart_dag_test.go TestProcessDependencies_UnknownDependsOnReportedByDAG
#[test]
fn sub_unknown_depends_on_reported_by_dag() {
    install_chart("parent", &[], vec![dep("app", &["missing"])], &each(&["parent/app"]))
        .error(&["unknown or disabled subchart \"missing\""]);
}

// subchart_dag_test.go TestProcessDependencies_DependsOnRewriteIdempotent: the metadata as the
// reference stores it after processing (name and depends-on rewritten to the alias).
#[test]
fn sub_depends_on_rewrite_idempotent() {
    let deps = vec![aliased("primary-db", "primary-db", &[]), dep("app", &["primary-db"])];
    install_chart("parent", &[], deps, &each(&["parent/primary-db", "parent/app"]))
        .batches_are(one_by_one(&[&["primary-db"], &["app"]]))
        .quiet();
}

// subchart_dag_test.go TestProcessDependencies_PlainAndAliasedSameChart
#[test]
fn sub_plain_and_aliased_same_chart() {
    let docs = each(&["parent/svc", "parent/svc2", "parent/app"]);
    let ambiguous = vec![dep("svc", &[]), aliased("svc", "svc2", &[]), dep("app", &["svc"])];
    install_chart("parent", &[], ambiguous, &docs).error(&["ambiguous", "\"svc\""]);
    let by_alias = vec![dep("svc", &[]), aliased("svc", "svc2", &[]), dep("app", &["svc2"])];
    install_chart("parent", &[], by_alias, &docs).batches_are(one_by_one(&[&["svc", "svc2"], &["app"]])).quiet();
}

// subchart_dag_test.go TestProcessDependencies_SwappedAliasesAmbiguous
#[test]
fn sub_swapped_aliases_ambiguous() {
    let deps = vec![aliased("x", "y", &[]), aliased("y", "x", &[]), dep("app", &["x"])];
    install_chart("parent", &[], deps, &each(&["parent/x", "parent/y", "parent/app"])).error(&["ambiguous", "\"x\""]);
}

// ===========================================================================
// pkg/release/v1/sequence/builder_test.go

// builder_test.go TestBuild_NilChart_FlatPlan: no chart metadata (helm template output).
#[test]
fn build_nil_chart_flat_plan() {
    install_stream(&[g("parent", "db", "db", &[]), g("parent", "app", "app", &["db"]), cm("parent", "plain", &[])])
        .batches(&[&["db"], &["app"], &["plain"]])
        .groups(&[&["db"], &["app"], &[]])
        .quiet();
}

// builder_test.go TestBuild_EmptyChart
#[test]
fn build_empty_chart() {
    install_chart("parent", &[], vec![], &[]).batches(&[]).quiet();
}

// builder_test.go TestGroupManifestsByDirectSubchart and _Nested: a grandchild's resources belong
// to its own level inside its parent subchart. Opted in with a resource group, as helm-hooks
// walks chart levels only for a release that declares an order.
#[test]
fn build_group_manifests_by_direct_subchart() {
    let docs = [
        g("parent", "parent", "app", &[]),
        cm("parent/database", "db-own", &[]),
        cm("parent/database/cache", "cache", &[]),
    ];
    install_chart("parent", &[], vec![dep("database", &[])], &docs)
        .in_order(&[&["cache"], &["db-own"], &["parent"]])
        .charts(&["parent/database/cache", "parent/database", "parent"]);
}

// builder_test.go TestBuild_NoAnnotations_SingleFlatBatch
#[test]
fn build_no_annotations_single_flat_batch() {
    install_chart("parent", &[], vec![], &[cm("parent", "a", &[]), cm("parent", "b", &[]), cm("parent", "c", &[])])
        .in_order(&[&["a", "b", "c"]])
        .quiet();
}

// builder_test.go TestBuild_ResourceGroupOrdering
#[test]
fn build_resource_group_ordering() {
    let docs = [g("parent", "db", "db", &[]), g("parent", "app", "app", &["db"]), cm("parent", "plain", &[])];
    install_chart("parent", &[], vec![], &docs)
        .batches(&[&["db"], &["app"], &["plain"]])
        .groups(&[&["db"], &["app"], &[]])
        .charts(&["parent", "parent", "parent"])
        .quiet();
}

// builder_test.go TestBuild_LeafGroups_Diamond
#[test]
fn build_leaf_groups_diamond() {
    let docs = [
        g("parent", "base", "base", &[]),
        g("parent", "left", "left", &["base"]),
        g("parent", "right", "right", &["base"]),
        g("parent", "top", "top", &["left", "right"]),
    ];
    install_chart("parent", &[], vec![], &docs)
        .groups(&[&["base"], &["left", "right"], &["top"]])
        .batches(&[&["base"], &["left", "right"], &["top"]])
        .quiet();
}

// builder_test.go TestBuild_NestedSubcharts_ThreeLevels. Differs on purpose: no order declared,
// so one batch as stock Helm; the reference under --wait=ordered deploys grand, child, parent.
#[test]
fn build_nested_subcharts_three_levels() {
    let docs = [cm("parent", "parent", &[]), cm("parent/child", "child", &[]), cm("parent/child/grand", "grand", &[])];
    install_chart("parent", &[], vec![dep("child", &[])], &docs).batches(&[&["child", "grand", "parent"]]).quiet();
}

// builder_test.go TestBuild_SubchartDependencyOrder
#[test]
fn build_subchart_dependency_order() {
    let deps = vec![dep("postgres", &[]), dep("rabbitmq", &["postgres"]), dep("app", &["rabbitmq"])];
    install_chart("parent", &[], deps, &each(&["parent/app", "parent/rabbitmq", "parent/postgres"]))
        .charts(&["parent/postgres", "parent/rabbitmq", "parent/app"])
        .batches(&[&["postgres"], &["rabbitmq"], &["app"]])
        .quiet();
}

// builder_test.go TestBuild_Aliases_RealPipeline (the metadata Helm's processing leaves)
#[test]
fn build_aliases_real_pipeline() {
    let deps = vec![aliased("primary-db", "primary-db", &[]), dep("app", &["primary-db"])];
    let docs = [cm("parent/app", "app", &[]), cm("parent/primary-db", "primary", &[])];
    install_chart("parent", &[], deps, &docs)
        .charts(&["parent/primary-db", "parent/app"])
        .batches(&[&["primary"], &["app"]])
        .quiet();
}

// builder_test.go TestBuild_SubchartCycle_Fatal: b renders nothing and is still on the cycle.
#[test]
fn build_subchart_cycle_fatal() {
    install_chart("parent", &[], vec![dep("a", &["b"]), dep("b", &["a"])], &each(&["parent/a"])).error(&["cycle"]);
}

// builder_test.go TestBuild_UnknownDependsOnRef_Fatal: nothing rendered at all.
#[test]
fn build_unknown_depends_on_ref_fatal() {
    install_chart("parent", &[], vec![dep("app", &["missing"])], &[])
        .error(&["depends-on unknown or disabled subchart \"missing\""]);
}

// builder_test.go TestBuild_ResourceGroupCycle_Fatal_NestedLevel
#[test]
fn build_resource_group_cycle_fatal_nested_level() {
    let docs = [g("parent/child", "a", "a", &["b"]), g("parent/child", "b", "b", &["a"])];
    install_chart("parent", &[], vec![dep("child", &[])], &docs).error(&["cycle", "parent/charts/child"]);
}

// builder_test.go TestBuild_MultiGroupAssignment_Fatal
#[test]
fn build_multi_group_assignment_fatal() {
    let one = from("parent", "one", object("parent", "ConfigMap", "same", Some("default"), &[(GROUP, "one")]));
    let two = from("parent", "two", object("parent", "ConfigMap", "same", Some("default"), &[(GROUP, "two")]));
    install_chart("parent", &[], vec![], &[one, two]).error(&["assigned to multiple resource groups"]);
}

// builder_test.go TestBuild_IsolatedGroupDemoted
#[test]
fn build_isolated_group_demoted() {
    let docs = [
        g("parent", "db", "db", &[]),
        g("parent", "app", "app", &["db"]),
        cm("parent", "plain", &[]),
        g("parent", "metrics", "metrics", &[]),
    ];
    install_chart("parent", &[], vec![], &docs)
        .batches(&[&["db"], &["app"], &["metrics", "plain"]])
        .groups(&[&["db"], &["app"], &[]])
        .warning(&["isolated", "metrics"])
        .no_errors();
}

// builder_test.go TestBuild_TwoGroupChain_NotDemoted
#[test]
fn build_two_group_chain_not_demoted() {
    install_chart("parent", &[], vec![], &[g("parent", "db", "db", &[]), g("parent", "app", "app", &["db"])])
        .groups(&[&["db"], &["app"]])
        .never("isolated")
        .quiet();
}

// builder_test.go TestBuild_SingleGroup_NotDemoted
#[test]
fn build_single_group_not_demoted() {
    install_chart("parent", &[], vec![], &[g("parent", "solo", "solo", &[])])
        .groups(&[&["solo"]])
        .batches(&[&["solo"]])
        .never("isolated")
        .quiet();
}

// builder_test.go TestBuild_AllGroupsIsolated_AllDemoted: one unsequenced batch, alpha's warning first.
#[test]
fn build_all_groups_isolated_all_demoted() {
    let o =
        install_chart("parent", &[], vec![], &[g("parent", "beta", "beta", &[]), g("parent", "alpha", "alpha", &[])]);
    o.batches(&[&["alpha", "beta"]]).groups(&[&[]]).count("isolated", 2).no_errors();
    let said: Vec<String> = o.matching(&["isolated"]).map(|d| d.message.clone()).collect();
    assert!(said[0].contains("alpha") && said[1].contains("beta"), "{said:?}");
}

// builder_test.go TestBuild_MissingGroupDep_TransitiveDemotion
#[test]
fn build_missing_group_dep_transitive_demotion() {
    install_chart("parent", &[], vec![], &[g("parent", "app", "app", &["nope"])])
        .batches(&[&["app"]])
        .groups(&[&[]])
        .warning(&["depends-on non-existent group"])
        .no_errors();
}

// builder_test.go TestBuild_InvalidDependsOnJSON_Demoted
#[test]
fn build_invalid_depends_on_json_demoted() {
    install_chart("parent", &[], vec![], &[cm("parent", "app", &[(GROUP, "app"), (GROUP_DEPS, "not-json")])])
        .batches(&[&["app"]])
        .groups(&[&[]])
        .warning(&["invalid JSON"])
        .no_errors();
}

// builder_test.go TestBuild_UndeclaredSubchartIncluded. Differs on purpose: no order declared,
// so one batch (the reference: declared, vendored, parent, and a warning). With an order
// declared (a resource group in parent), helm-hooks deploys as the reference does.
#[test]
fn build_undeclared_subchart_included() {
    let docs =
        [cm("parent/declared", "declared", &[]), cm("parent/vendored", "vendored", &[]), cm("parent", "parent", &[])];
    install_chart("parent", &[], vec![dep("declared", &[])], &docs)
        .batches(&[&["declared", "parent", "vendored"]])
        .no_errors();
    let docs = [
        cm("parent/declared", "declared", &[]),
        cm("parent/vendored", "vendored", &[]),
        g("parent", "parent", "p", &[]),
    ];
    install_chart("parent", &[], vec![dep("declared", &[])], &docs)
        .charts(&["parent/declared", "parent/vendored", "parent"])
        .warning(&["not declared", "vendored"])
        .no_errors();
}

// builder_test.go TestBuild_UnresolvableSubchart_StructuralFallback
#[test]
fn build_unresolvable_subchart_structural_fallback() {
    let docs = [g("parent/ghost", "db", "db", &[]), g("parent/ghost", "app", "app", &["db"])];
    install_chart("parent", &[], vec![], &docs)
        .warning(&["not declared", "ghost"])
        .never("name order")
        .charts(&["parent/ghost", "parent/ghost"])
        .groups(&[&["db"], &["app"]])
        .no_errors();
}

// builder_test.go TestBuild_StorageDecodedChart_ThreeLevels: the stored chart keeps only the top
// chart's metadata; same batches as fresh, no warning.
#[test]
fn build_storage_decoded_chart_three_levels() {
    let docs = [cm("parent", "parent", &[]), cm("parent/child", "child", &[]), cm("parent/child/grand", "grand", &[])];
    install_chart("parent", &[(SUBCHARTS, r#"["child"]"#)], vec![dep("child", &[])], &docs)
        .charts(&["parent/child/grand", "parent/child", "parent"])
        .batches(&[&["grand"], &["child"], &["parent"]])
        .quiet();
}

// builder_test.go TestBuild_StorageDecodedChart_AliasedSiblingOrder
#[test]
fn build_storage_decoded_chart_aliased_sibling_order() {
    let deps = vec![aliased("primary-db", "primary-db", &[]), dep("app", &["primary-db"])];
    let docs = [cm("parent/app", "app", &[]), cm("parent/primary-db", "primary", &[])];
    install_chart("parent", &[], deps, &docs).charts(&["parent/primary-db", "parent/app"]).quiet();
}

// builder_test.go TestBuild_StorageDecodedChart_DisabledDepNotResurrected: cache pruned by Helm
// (absent), and kept as disabled.
#[test]
fn build_storage_decoded_chart_disabled_dep_not_resurrected() {
    let docs = [cm("parent/app", "app", &[]), cm("parent/db", "db", &[]), cm("parent", "parent", &[])];
    let forms = [
        ("absent", vec![dep("db", &[]), dep("app", &["db"])]),
        ("kept disabled", vec![disabled("cache"), dep("db", &[]), dep("app", &["db"])]),
    ];
    for (form, deps) in forms {
        eprintln!("cache {form}");
        install_chart("parent", &[], deps, &docs)
            .charts(&["parent/db", "parent/app", "parent"])
            .batches(&[&["db"], &["app"], &["parent"]])
            .never("cache")
            .no_errors();
    }
}

// builder_test.go TestBuild_StorageDecodedChart_NestedSiblingOrderWarning. As the case stands
// (no order declared at the top) it differs on purpose: one batch. With the top chart's order
// declared (as in the three-level case), the nested siblings' depends-on, in child's Chart.yaml,
// is lost as in the reference's stored chart: the reference orders them by name and warns.
#[test]
fn build_storage_decoded_chart_nested_sibling_order_warning() {
    let docs = [
        cm("parent", "parent", &[]),
        cm("parent/child", "child", &[]),
        cm("parent/child/g-a", "g-a", &[]),
        cm("parent/child/g-b", "g-b", &[]),
    ];
    install_chart("parent", &[], vec![dep("child", &[])], &docs)
        .batches(&[&["child", "g-a", "g-b", "parent"]])
        .no_errors();
    install_chart("parent", &[(SUBCHARTS, r#"["child"]"#)], vec![dep("child", &[])], &docs)
        .charts(&["parent/child/g-a", "parent/child/g-b", "parent/child", "parent"])
        .warning(&["name order", "child"])
        .no_errors();
}

// builder_test.go TestBuild_HasCustomReadiness: b has only one of the two readiness annotations.
// (The reference's fixture writes a bare expression; HIP-0025 reads a JSON array.)
#[test]
fn build_has_custom_readiness() {
    let a =
        [(GROUP, "a"), (READY_OK, r#"["{.status.ready} == true"]"#), (READY_FAIL, r#"["{.status.failed} == true"]"#)];
    let b = [(GROUP, "b"), (GROUP_DEPS, r#"["a"]"#), (READY_OK, r#"["{.status.ready} == true"]"#)];
    install_chart("parent", &[], vec![], &[cm("parent", "a", &a), cm("parent", "b", &b), cm("parent", "plain", &[])])
        .batches(&[&["a"], &["b"], &["plain"]])
        .warning(&["ConfigMap/b", READY_FAIL])
        .no_errors();
}

// builder_test.go TestBuild_WhitespaceReadinessAnnotationsAreUnset
#[test]
fn build_whitespace_readiness_annotations_are_unset() {
    let a = [(GROUP, "a"), (READY_OK, "   "), (READY_FAIL, "")];
    let b = [(GROUP, "b"), (GROUP_DEPS, r#"["a"]"#), (READY_OK, " "), (READY_FAIL, r#"["{.status.failed} == true"]"#)];
    let o = install_chart("parent", &[], vec![], &[cm("parent", "a", &a), cm("parent", "b", &b)]);
    o.batches(&[&["a"], &["b"]]).warning(&["ConfigMap/b", READY_OK]).no_errors();
    assert_eq!(o.diags.0.len(), 1, "one warning:\n{}", o.said());
}

// builder_test.go TestBuild_Deterministic and TestBuild_Completeness_KitchenSink: the kitchen
// sink's batches as the reference's builder walks it, the same twice.
#[test]
fn build_kitchen_sink() {
    let deps = vec![aliased("postgres", "primary-db", &[]), dep("app", &["primary-db"])];
    let docs = [
        cm("parent/primary-db", "primary", &[]),
        cm("parent/app/worker", "worker", &[]),
        g("parent/app", "app-sub", "app-sub", &[]),
        cm("parent/vendored", "vendored", &[]),
        g("parent", "db", "db", &[]),
        g("parent", "app", "app", &["db"]),
        g("parent", "metrics", "metrics", &[]),
        cm("parent", "plain", &[]),
    ];
    let text = release_json("parent", &[], deps, &docs);
    let o = install(&text);
    o.batches(&[&["primary"], &["worker"], &["app-sub"], &["vendored"], &["db"], &["app"], &["metrics", "plain"]])
        .warning(&["isolated", "metrics"])
        .warning(&["not declared", "vendored"])
        .no_errors();
    let again = install(&text);
    assert_eq!((&o.refs, &o.charts, &o.groups), (&again.refs, &again.charts, &again.groups));
    assert_eq!(o.said(), again.said());
}

// ===========================================================================
// pkg/release/v1/sequence/plan_test.go

// plan_test.go TestDisplayPath: a batch's chart is shown as parent/db/redis.
#[test]
fn plan_display_path() {
    let docs = [cm("parent/db/redis", "redis", &[]), cm("parent/db", "db", &[]), g("parent", "parent", "p", &[])];
    install_chart("parent", &[], vec![dep("db", &[])], &docs).charts(&["parent/db/redis", "parent/db", "parent"]);
}

// plan_test.go TestReadinessAnnotationValues
#[test]
fn plan_readiness_annotation_values() {
    assert_eq!((READY_OK, READY_FAIL), ("helm.sh/readiness-success", "helm.sh/readiness-failure"));
}

// plan_test.go TestParseStoredManifests: a document without a `# Source:` line is still planned;
// a document that is not YAML is refused; a stored stream plans as the objects do.
#[test]
fn plan_parse_stored_manifests() {
    let text = "---\n# Source: parent/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    example.com/key: value\n---\n# Source: parent/charts/db/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n";
    install(text).batches(&[&["a", "b", "c"]]).no_errors();
    let bad = "---\n# Source: bad.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [\n";
    let mut d = Diagnostics::default();
    let refused = input::parse(bad.as_bytes(), &mut d).is_err() || d.has_errors();
    assert!(refused, "not YAML: {:?}", d.0);
    install_stream(&[g("parent", "db", "db", &[]), g("parent", "app", "app", &["db"])])
        .batches(&[&["db"], &["app"]])
        .quiet();
}

// ===========================================================================
// pkg/action/sequencing_test.go (what the install creates, batch by batch)

// sequencing_test.go TestInstall_Sequenced_BasicResourceGroups
#[test]
fn act_basic_resource_groups() {
    install_chart(
        "test",
        &[],
        vec![],
        &[g("test", "database", "database", &[]), g("test", "app", "app", &["database"])],
    )
    .batches(&[&["database"], &["app"]])
    .quiet();
}

// sequencing_test.go TestInstall_Sequenced_SubchartOrdering
#[test]
fn act_subchart_ordering() {
    let deps = vec![dep("database", &[]), dep("api", &["database"])];
    let docs = [cm("parent", "parent", &[]), cm("parent/database", "database", &[]), cm("parent/api", "api", &[])];
    install_chart("parent", &[], deps, &docs).in_order(&[&["database"], &["api"], &["parent"]]).quiet();
}

// sequencing_test.go TestInstall_Sequenced_UndeclaredVendoredSubchartDeployed. Differs on
// purpose: no order declared, so one batch (the reference: database, vendored, parent). Every
// resource is still deployed, which is what the regression guards.
#[test]
fn act_undeclared_vendored_subchart_deployed() {
    let docs =
        [cm("parent", "parent", &[]), cm("parent/database", "database", &[]), cm("parent/vendored", "vendored", &[])];
    install_chart("parent", &[], vec![dep("database", &[])], &docs)
        .batches(&[&["database", "parent", "vendored"]])
        .no_errors();
}

// sequencing_test.go TestInstall_Sequenced_LeafGroupsWaited (the batches; every batch is awaited)
#[test]
fn act_leaf_groups_waited() {
    let leaf = [
        (GROUP, "leaf"),
        (GROUP_DEPS, r#"["base"]"#),
        (READY_OK, r#"["{.never} == match"]"#),
        (READY_FAIL, r#"["{.never} == fail"]"#),
    ];
    install_chart("test", &[], vec![], &[g("test", "base", "base", &[]), cm("test", "leaf", &leaf)])
        .batches(&[&["base"], &["leaf"]])
        .quiet();
}

// sequencing_test.go TestInstall_Sequenced_Combined
#[test]
fn act_combined() {
    let deps = vec![dep("database", &[]), dep("api", &["database"])];
    let docs = [
        cm("parent", "parent", &[]),
        g("parent/database", "db-setup", "setup", &[]),
        g("parent/database", "db-data", "data", &["setup"]),
        g("parent/api", "api", "api", &[]),
    ];
    install_chart("parent", &[], deps, &docs).in_order(&[&["db-setup"], &["db-data"], &["api"], &["parent"]]).quiet();
}

// sequencing_test.go TestInstall_Sequenced_NoAnnotations
#[test]
fn act_no_annotations() {
    install_chart("test", &[], vec![], &[cm("test", "first", &[]), cm("test", "second", &[])])
        .batches(&[&["first", "second"]])
        .quiet();
}

// sequencing_test.go TestInstall_Sequenced_UnsequencedLast
#[test]
fn act_unsequenced_last() {
    let docs =
        [g("test", "database", "database", &[]), g("test", "orphan", "orphan", &["missing"]), cm("test", "plain", &[])];
    install_chart("test", &[], vec![], &docs).batches(&[&["database"], &["orphan", "plain"]]).no_errors();
}

// sequencing_test.go TestInstall_Sequenced_SameNameDifferentKindWaited
#[test]
fn act_same_name_different_kind() {
    let secret =
        from("test", "app", object("test", "Secret", "shared", None, &[(GROUP, "app"), (GROUP_DEPS, r#"["base"]"#)]));
    let o = install_chart("test", &[], vec![], &[g("test", "shared", "base", &[]), secret]);
    o.no_errors();
    assert_eq!(o.refs, owned(&[&["ConfigMap/shared"], &["Secret/shared"]]), "{}", o.said());
}

// sequencing_test.go TestInstall_Sequenced_CyclicDependency
#[test]
fn act_cyclic_dependency() {
    install_chart("test", &[], vec![], &[g("test", "a", "a", &["b"]), g("test", "b", "b", &["a"])])
        .error_that("says cycle or circular", |m| m.contains("cycle") || m.contains("circular"));
}

/// The hooks of `event` and the install batches, from one plan.
fn hooks_and_batches(text: &str, events: &[Event]) -> (Vec<Vec<String>>, Vec<Vec<String>>, Diagnostics) {
    let (r, mut d) = read(text);
    let mut targets: Vec<Target> = events.iter().map(|&e| Target::Hooks(e)).collect();
    targets.push(Target::Install);
    let p = plan::build(&r, &targets, PlanOptions::default(), &mut d);
    let hooks = p.events[..events.len()]
        .iter()
        .map(|e| e.items.iter().map(|i| r.hooks[i.index].head.name.clone()).collect())
        .collect();
    let install = &p.events[events.len()];
    let batches = install
        .batches
        .iter()
        .map(|b| b.resources.iter().map(|&i| r.resources[i].head.name.clone()).collect())
        .collect();
    (hooks, batches, d)
}

// sequencing_test.go TestInstall_Sequenced_HookResourcesExcludedFromDAG: a hook's resource group
// is not the resources' group.
#[test]
fn act_hook_resources_excluded_from_dag() {
    let text = stream(&[
        cm("test", "pre-hook", &[("helm.sh/hook", "pre-install"), (GROUP, "database")]),
        cm("test", "database", &[(GROUP, "database")]),
    ]);
    let (hooks, batches, d) = hooks_and_batches(&text, &[Event::PreInstall]);
    assert!(!d.has_errors(), "{:?}", d.0);
    assert_eq!((hooks, batches), (owned(&[&["pre-hook"]]), owned(&[&["database"]])));
}

// sequencing_test.go TestInstall_Sequenced_HooksAtStandardPositions
#[test]
fn act_hooks_at_standard_positions() {
    let text = stream(&[
        cm("test", "pre-hook", &[("helm.sh/hook", "pre-install"), (GROUP, "database")]),
        cm("test", "database", &[(GROUP, "database")]),
        cm("test", "post-hook", &[("helm.sh/hook", "post-install"), (GROUP, "database")]),
    ]);
    let (hooks, batches, d) = hooks_and_batches(&text, &[Event::PreInstall, Event::PostInstall]);
    assert!(!d.has_errors(), "{:?}", d.0);
    assert_eq!((hooks, batches), (owned(&[&["pre-hook"], &["post-hook"]]), owned(&[&["database"]])));
}

// ===========================================================================
// pkg/action/backward_compat_test.go

// backward_compat_test.go TestBackwardCompat_OrderedWaitWithoutAnnotations
#[test]
fn compat_ordered_wait_without_annotations() {
    let docs =
        [cm("backward-compat-no-annotations", "first", &[]), cm("backward-compat-no-annotations", "second", &[])];
    install_chart("backward-compat-no-annotations", &[], vec![], &docs).batches(&[&["first", "second"]]).quiet();
}

// backward_compat_test.go TestBackwardCompat_RollbackWithoutSequencingInfo: the revision rolled
// back to has no annotations, so it deploys in one batch.
#[test]
fn compat_rollback_without_sequencing_info() {
    let docs = [cm("backward-compat-rollback", "database", &[]), cm("backward-compat-rollback", "app", &[])];
    install_chart("backward-compat-rollback", &[], vec![], &docs).batches(&[&["app", "database"]]).quiet();
}

// backward_compat_test.go TestBackwardCompat_MixedAnnotationsUnsequencedLast
#[test]
fn compat_mixed_annotations_unsequenced_last() {
    let c = "backward-compat-mixed";
    let docs = [
        g(c, "database", "database", &[]),
        g(c, "app", "app", &["database"]),
        cm(c, "plain-one", &[]),
        cm(c, "plain-two", &[]),
    ];
    install_chart(c, &[], vec![], &docs).batches(&[&["database"], &["app"], &["plain-one", "plain-two"]]).quiet();
}

// ===========================================================================
// pkg/action/warning_system_test.go

// warning_system_test.go TestWarning_PartialReadinessAnnotations
#[test]
fn warn_partial_readiness_annotations() {
    install_chart("test", &[], vec![], &[cm("test", "app", &[(READY_OK, r#"["{.ready} == true"]"#)])])
        .warning(&["ConfigMap/app", READY_OK, READY_FAIL])
        .no_errors();
}

// warning_system_test.go TestWarning_IsolatedResourceGroups
#[test]
fn warn_isolated_resource_groups() {
    install_chart("test", &[], vec![], &[g("test", "database", "database", &[]), g("test", "cache", "cache", &[])])
        .warning(&["\"database\" is isolated"])
        .warning(&["\"cache\" is isolated"])
        .no_errors();
}

// warning_system_test.go TestWarning_NonExistentGroupReference
#[test]
fn warn_non_existent_group_reference() {
    install_chart("test", &[], vec![], &[g("test", "app", "app", &["missing"])])
        .warning(&["group \"app\" depends-on non-existent group \"missing\""])
        .no_errors();
}

// warning_system_test.go TestWarning_WellFormedSequencing
#[test]
fn warn_well_formed_sequencing() {
    let database =
        [(GROUP, "database"), (READY_OK, r#"["{.ready} == true"]"#), (READY_FAIL, r#"["{.failed} == true"]"#)];
    install_chart("test", &[], vec![], &[cm("test", "database", &database), g("test", "app", "app", &["database"])])
        .batches(&[&["database"], &["app"]])
        .quiet();
}

// ===========================================================================
// pkg/cmd/dag_test.go and template_test.go with testdata/testcharts/sequenced-*

/// testcharts/sequenced-chart as `helm install --dry-run -o json` gives it.
fn sequenced_chart() -> String {
    let top = "sequenced-chart";
    let docs = [
        from("sequenced-chart/worker", "aa-worker-configmap", cm("x", "worker-bootstrap", &[(GROUP, "bootstrap")])),
        from(top, "aa-databases-configmap", cm("x", "database-config", &[(GROUP, "databases")])),
        from(top, "bb-app-configmap", g("x", "app-config", "app", &["databases"])),
        from(top, "cc-unsequenced-configmap", cm("x", "unsequenced-config", &[])),
    ];
    release_json(top, &[], vec![dep("worker", &[])], &docs)
}

/// testcharts/sequenced-isolated-chart.
fn sequenced_isolated_chart() -> String {
    let top = "sequenced-isolated-chart";
    let docs = [
        from(top, "aa-alpha", cm("x", "cm-alpha", &[(GROUP, "alpha")])),
        from(top, "bb-beta", g("x", "cm-beta", "beta", &["alpha"])),
        from(top, "cc-gamma", cm("x", "cm-gamma", &[(GROUP, "gamma")])),
        from(top, "dd-plain", cm("x", "cm-plain", &[])),
    ];
    release_json(top, &[], vec![], &docs)
}

// dag_test.go TestDagCmd "sequenced chart prints subchart and resource-group batches"
// (output/dag-sequenced-chart.txt)
#[test]
fn cmd_dag_sequenced_chart() {
    install(&sequenced_chart())
        .charts(&["sequenced-chart/worker", "sequenced-chart", "sequenced-chart", "sequenced-chart"])
        .groups(&[&["bootstrap"], &["databases"], &["app"], &[]])
        .in_order(&[&["worker-bootstrap"], &["database-config"], &["app-config"], &["unsequenced-config"]])
        .quiet();
}

// dag_test.go TestDagCmd "sequenced chart demotes isolated groups" (output/dag-sequenced-isolated.txt)
#[test]
fn cmd_dag_sequenced_isolated() {
    install(&sequenced_isolated_chart())
        .groups(&[&["alpha"], &["beta"], &[]])
        .batches(&[&["cm-alpha"], &["cm-beta"], &["cm-gamma", "cm-plain"]])
        .warning(&["isolated", "gamma"])
        .no_errors();
}

// template_test.go TestTemplateCmd "template with ordered wait strategy shows resource group
// delimiters" (output/template-ordered-delimiters.txt): the documents' order.
#[test]
fn cmd_template_ordered_delimiters() {
    install(&sequenced_chart()).in_order(&[
        &["worker-bootstrap"],
        &["database-config"],
        &["app-config"],
        &["unsequenced-config"],
    ]);
}

// template_test.go TestTemplateCmd "template with ordered wait strategy demotes isolated groups"
// (output/template-ordered-isolated.txt): the plain ConfigMap, then the demoted gamma.
#[test]
fn cmd_template_ordered_isolated() {
    install(&sequenced_isolated_chart()).in_order(&[&["cm-alpha"], &["cm-beta"], &["cm-plain", "cm-gamma"]]);
}

// template_test.go TestTemplateOrderedMatchesPlan: a chart with no dependencies and a vendored
// subchart; the order of the reference's plan.
#[test]
fn cmd_template_ordered_matches_plan() {
    let docs = [
        from("parent", "aa-alpha", cm("x", "cm-alpha", &[(GROUP, "alpha")])),
        from("parent", "bb-beta", g("x", "cm-beta", "beta", &["alpha"])),
        from("parent", "cc-gamma", cm("x", "cm-gamma", &[(GROUP, "gamma")])),
        from("parent", "dd-plain", cm("x", "cm-plain", &[])),
        from("parent/vendored", "aa-vendored", cm("x", "cm-vendored", &[(GROUP, "vendored")])),
    ];
    install_chart("parent", &[], vec![], &docs)
        .in_order(&[&["cm-vendored"], &["cm-alpha"], &["cm-beta"], &["cm-plain", "cm-gamma"]])
        .groups(&[&["vendored"], &["alpha"], &["beta"], &[]])
        .charts(&["parent/vendored", "parent", "parent", "parent"])
        .no_errors();
}

// ===========================================================================
// pkg/chart/v2/lint/rules/sequencing_test.go, through `helm hooks lint` on release JSON.
// The reference's ErrorSev is what makes lint fail; its WarningSev a warning lint passes.

// sequencing_test.go TestSequencing_SubchartCircularDependency: the subcharts render nothing.
#[test]
fn lint_subchart_circular_dependency() {
    let deps = vec![dep("subchart-a", &["subchart-b"]), dep("subchart-b", &["subchart-a"])];
    lint(&release_json("testchart", &[], deps, &[])).lint_error(&["circular"]);
}

// sequencing_test.go TestSequencing_AliasedSubchartDependsOnOriginalName: Chart.yaml's names.
#[test]
fn lint_aliased_subchart_depends_on_original_name() {
    let deps = vec![aliased("subchart-a", "aliased-a", &[]), dep("subchart-b", &["subchart-a"])];
    lint(&release_json("testchart", &[], deps, &[])).quiet();
}

// sequencing_test.go TestSequencing_AmbiguousDependsOnReported
#[test]
fn lint_ambiguous_depends_on_reported() {
    let deps = vec![
        aliased("subchart-a", "first", &[]),
        aliased("subchart-a", "second", &[]),
        dep("subchart-b", &["subchart-a"]),
    ];
    lint(&release_json("testchart", &[], deps, &[])).lint_error(&["ambiguous", "\"subchart-a\""]);
}

// sequencing_test.go TestSequencing_SubchartAnnotationRequiresHIPListSyntax
#[test]
fn lint_subchart_annotation_requires_hip_list_syntax() {
    let deps = vec![dep("subchart-a", &[]), dep("subchart-b", &[])];
    let object = (SUBCHARTS, r#"{"subchart-a":["subchart-b"],"subchart-b":["subchart-a"]}"#);
    lint(&release_json("testchart", &[object], deps, &[])).lint_error(&[SUBCHARTS, "JSON", "array"]);
}

// sequencing_test.go TestSequencing_SubchartAnnotationOrphanWithNoDependencies
#[test]
fn lint_subchart_annotation_orphan_with_no_dependencies() {
    lint(&release_json("testchart", &[(SUBCHARTS, r#"["does-not-exist"]"#)], vec![], &[]))
        .error_that("names \"does-not-exist\" as an unknown subchart", unknown_subchart("does-not-exist"));
}

// sequencing_test.go TestSequencing_NestedSubchartCircularDependency: child's Chart.yaml order
// written in the top chart's helm.sh/subchart-depends-on; the grandchildren render nothing.
#[test]
fn lint_nested_subchart_circular_dependency() {
    let nested =
        (SUBCHART_DEPENDS_ON, r#"{"child/grandchild-a": ["grandchild-b"], "child/grandchild-b": ["grandchild-a"]}"#);
    lint(&release_json("testchart", &[nested], vec![dep("child", &[])], &[cm("testchart/child", "child-cm", &[])]))
        .lint_error(&["circular", "testchart/charts/child"]);
}

// sequencing_test.go TestSequencing_NestedSubchartUnknownDependsOnRef (order written as above).
// Differs on purpose: the reference reads the child's own Chart.yaml and knows "missing" is no
// dependency of it; a release carries only the top chart's, so below the top a name that
// rendered nothing may be a disabled subchart, one with only hooks, or a typo: helm-hooks
// warns that the dependency orders nothing, naming it, rather than refuse a valid chart.
#[test]
fn lint_nested_subchart_unknown_depends_on_ref() {
    let nested = (SUBCHART_DEPENDS_ON, r#"{"child/grandchild-a": ["missing"]}"#);
    lint(&release_json("testchart", &[nested], vec![dep("child", &[])], &[cm("testchart/child", "child-cm", &[])]))
        .warning(&["\"missing\"", "child/grandchild-a", "orders nothing"]);
}

// sequencing_test.go TestSequencing_NestedResourceGroupCircularDependency
#[test]
fn lint_nested_resource_group_circular_dependency() {
    let docs = [g("testchart/child", "group-a", "a", &["b"]), g("testchart/child", "group-b", "b", &["a"])];
    lint(&release_json("testchart", &[], vec![dep("child", &[])], &docs))
        .lint_error(&["resource-group circular dependency", "testchart/charts/child"]);
}

// sequencing_test.go TestSequencing_IsolatedGroupWarns
#[test]
fn lint_isolated_group_warns() {
    let docs = [cm("testchart", "cm-a", &[(GROUP, "a")]), cm("testchart", "cm-b", &[(GROUP, "b")])];
    lint(&release_json("testchart", &[], vec![], &docs)).lint_warning(&["isolated"]).lint_passes();
}

// sequencing_test.go TestSequencing_UndeclaredSubchartWarns. Differs on purpose: the chart
// declares no order, so it deploys at once and where the undeclared subchart would go is moot;
// helm-hooks says nothing (build_undeclared_subchart_included has the warning with an order).
#[test]
fn lint_undeclared_subchart_warns() {
    lint(&release_json("testchart", &[], vec![], &[cm("testchart/vendored", "vendored-cm", &[])]))
        .never("not declared")
        .lint_passes();
}

struct LintCase {
    name: &'static str,
    docs: Vec<Doc>,
    /// What the lint error contains, in helm-hooks' words where they differ.
    error: &'static [&'static str],
    /// The reference's lint calls it an error but its install only warns of it (a
    /// demotion, one readiness annotation alone). Differs on purpose: one input, one
    /// verdict (issue 41) — a warning from `lint` as from `plan` and `deploy`, an error
    /// under `lint --strict`.
    strict_only: bool,
}

// sequencing_test.go TestSequencing_RenderedAnnotationRules (its seven cases)
#[test]
fn lint_rendered_annotation_rules() {
    let t = "testchart";
    let cases = [
        LintCase {
            name: "partial readiness annotations",
            docs: vec![cm(t, "partial-readiness", &[(GROUP, "bootstrap"), (READY_OK, r#"["{.phase} == \"Ready\""]"#)])],
            error: &[READY_OK, READY_FAIL],
            strict_only: true,
        },
        LintCase {
            name: "duplicate group assignment",
            docs: vec![
                from(t, "first", cm(t, "shared-resource", &[(GROUP, "bootstrap")])),
                from(t, "second", cm(t, "shared-resource", &[(GROUP, "app")])),
            ],
            error: &["assigned to multiple resource groups"],
            strict_only: false,
        },
        LintCase {
            name: "circular resource-group dependencies",
            docs: vec![g(t, "group-a", "a", &["c"]), g(t, "group-b", "b", &["a"]), g(t, "group-c", "c", &["b"])],
            error: &["resource-group circular dependency"],
            strict_only: false,
        },
        LintCase {
            name: "orphan resource-group reference",
            docs: vec![g(t, "orphaned-group", "app", &["database"])],
            error: &["depends-on non-existent group \"database\""],
            strict_only: true,
        },
        LintCase {
            name: "malformed depends-on-resource-groups annotation",
            docs: vec![cm(t, "bad-json", &[(GROUP, "app"), (GROUP_DEPS, "not-a-json-array")])],
            error: &[GROUP_DEPS],
            strict_only: true,
        },
        LintCase {
            name: "malformed readiness JSONPath with both annotations present",
            docs: vec![object(
                t,
                "Job",
                "bad-jsonpath",
                None,
                &[(READY_OK, r#"["{.status.succeeded >= 1"]"#), (READY_FAIL, r#"["{.status.failed} >= 1"]"#)],
            )],
            error: &[READY_OK],
            strict_only: false,
        },
        LintCase {
            name: "ordering operator with non-numeric readiness value",
            docs: vec![object(
                t,
                "Job",
                "string-ordering",
                None,
                &[(READY_OK, r#"["{.status.phase} > \"Running\""]"#), (READY_FAIL, r#"["{.status.failed} >= 1"]"#)],
            )],
            error: &[READY_OK, "number"],
            strict_only: false,
        },
    ];
    let mut failed = Vec::new();
    for c in cases {
        let o = lint(&release_json(t, &[], vec![], &c.docs));
        if !o.matching(c.error).any(|d| d.is_error() != c.strict_only) {
            failed.push(format!("{}: no lint error with {:?}:\n{}", c.name, c.error, o.said()));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

// sequencing_test.go TestSequencing_HookResourcesExcludedFromResourceGroupDAG
#[test]
fn lint_hook_resources_excluded_from_resource_group_dag() {
    let t = "hook-chart";
    let hook = [("helm.sh/hook", "pre-install"), (GROUP, "group-a"), (GROUP_DEPS, r#"["group-b"]"#)];
    let docs = [
        g(t, "group-a", "group-a", &[]),
        g(t, "group-b", "group-b", &["group-a"]),
        object(t, "Job", "hook-job", None, &hook),
    ];
    lint(&stream(&docs)).never("circular").never("cycle").lint_passes();
}

// sequencing_test.go TestSequencing_NoMessagesWithoutSequencingAnnotations
#[test]
fn lint_no_messages_without_sequencing_annotations() {
    lint(&release_json("plain-chart", &[], vec![], &[cm("plain-chart", "plain", &[])])).quiet();
}

// Not a reference case: helm-hooks' portable key (issue 39). Every group
// dependency of the reference's ComplexDAG written with the one-slash key
// plans the same batches, with nothing said; with the two-slash key each
// object carrying it gets one warning naming the portable key.
#[test]
fn the_two_slash_key_is_warned_and_the_portable_key_reads_alike() {
    let docs = [
        g("chart", "database", "database", &[]),
        g("chart", "cache", "cache", &[]),
        g("chart", "queue", "queue", &[]),
        g("chart", "api", "api", &["database", "cache"]),
        g("chart", "worker", "worker", &["queue"]),
        g("chart", "frontend", "frontend", &["api"]),
    ];
    let (r, diags) = read(&stream(&docs));
    let warned: Vec<&Diagnostic> = diags.0.iter().filter(|d| is_portability_warning(d)).collect();
    assert_eq!(warned.len(), 3, "{diags:?}");
    assert!(warned.iter().all(|d| !d.is_error() && d.help.as_deref().unwrap_or("").contains(PORTABLE)));
    let mut d = Diagnostics::default();
    let p = plan::build(&r, &[Target::Install], PlanOptions::default(), &mut d);
    let hip: Vec<Vec<String>> = p.events[0].batches.iter().map(|b| b.groups.clone()).collect();

    let portable: Vec<Doc> = docs.iter().map(|(src, doc)| (src.clone(), doc.replace(GROUP_DEPS, PORTABLE))).collect();
    let o = install_stream(&portable);
    o.quiet();
    assert_eq!(o.groups, hip);
    assert_eq!(o.groups, owned(&[&["cache", "database", "queue"], &["api", "worker"], &["frontend"]]));
}

// Not a reference case: what a Helm with HIP-0025 hands over (issue 39). Its `helm template`
// strips the two-slash key; a chart that writes the portable key beside it (or alone) keeps
// the same batches whichever input reaches the plugin; the two keys disagreeing is an error.
#[test]
fn the_portable_key_survives_a_hip0025_helm_template() {
    let both =
        |deps: &str, hip_deps: &str| cm("chart", "x", &[(GROUP, "app"), (PORTABLE, deps), (GROUP_DEPS, hip_deps)]);
    let db = g("chart", "db", "db", &[]);
    let written = install_stream(&[db.clone(), both(r#"["db"]"#, r#"["db"]"#)]);
    written.no_errors();
    let stripped = install_stream(&[db.clone(), cm("chart", "x", &[(GROUP, "app"), (PORTABLE, r#"["db"]"#)])]);
    stripped.quiet();
    assert_eq!(written.groups, stripped.groups);
    assert_eq!(stripped.groups, owned(&[&["db"], &["app"]]));
    let only_hip = install_stream(&[db.clone(), g("chart", "x", "app", &["db"])]);
    assert_eq!(only_hip.groups, stripped.groups, "HIP-0025's key alone, as today's Helm hands it over");
    install_stream(&[db, both(r#"["db"]"#, r#"["cache"]"#)]).error(&[PORTABLE, "two orders"]);
}
