//! Property tests of the plan (docs/design.md §4), against an independent oracle.
//!
//! Random releases are written as `helm template` text, fed through
//! `input::parse` and `plan::build`, and compared with a model built here
//! from the contract alone:
//! - every wave holds at most N items, every item is in exactly one wave;
//! - every edge (weight barrier, serial barrier, kind order among parallel
//!   hooks, depends-on, install batch) is respected: a predecessor's wave
//!   comes before its successor's;
//! - the waves are exactly the lockstep simulation (start every admissible
//!   item in Helm order, up to N, let all finish, repeat);
//! - a serial hook runs alone among the hooks of its weight: all earlier
//!   ones in earlier waves, all later ones in later waves;
//! - with N = 1 and no new annotations the order is exactly Helm's (weight,
//!   name bytewise, kind install order, source path, document position);
//! - the critical path is a chain of real edges, as long as the longest
//!   chain of the model, and no longer than the number of waves;
//! - a cycle gives an error diagnostic that names it, never a panic.
//!
//! Case counts are kept small so the file runs in a few seconds.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::event::Event;
use helm_hooks::model::input::{self, Release};
use helm_hooks::model::kind_order::{install_rank, KindRank};
use helm_hooks::plan::{self, EventPlan, ItemId, Plan, PlanOptions, Target};
use proptest::prelude::*;
use proptest::sample::Index;

/// An annotation every generated document carries, so a plan item can be
/// traced back to the document that produced it.
const ID: &str = "test.invalid/id";

const KINDS: &[&str] = &[
    "Job",
    "Pod",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "Service",
    "Deployment",
    "Namespace",
    "Role",
    "CronTab",
    "Alpha",
    "zeta",
];
const RESOURCE_KINDS: &[&str] = &["ConfigMap", "Service", "Deployment", "Job", "Widget", "Namespace"];
const EVENTS: &[&str] = &["pre-install", "post-install", "test"];
const SOURCES: &[&str] = &["templates/a.yaml", "templates/b.yaml", "templates/B.yaml", "templates/z/hooks.yaml"];
/// Names that sort differently bytewise than by locale or case-folding.
const NAME_STEMS: &[&str] = &["a", "B", "b", "a-b", "a.b", "aa", "Z", "0", "_x"];

fn event(name: &str) -> Event {
    name.parse().expect("known event")
}

// ---------------------------------------------------------------------------
// The generated release.

#[derive(Debug, Clone)]
struct GenHook {
    kind: &'static str,
    name: String,
    namespace: Option<&'static str>,
    /// The text of `helm.sh/hook-weight`, if any, and the weight Helm reads.
    weight_text: Option<String>,
    weight: i64,
    parallel: Option<bool>,
    events: Vec<&'static str>,
    /// Indices of hooks this one depends on.
    deps: Vec<usize>,
    /// How `helm.sh/depends-on` is written: JSON array or comma list, and
    /// whether the target's namespace is spelt out.
    json_deps: bool,
    qualify: bool,
}

#[derive(Debug, Clone)]
struct GenResource {
    kind: &'static str,
    name: String,
    /// None, "db", or "app" (which always depends on "db").
    group: Option<&'static str>,
    deps: Vec<usize>,
}

#[derive(Debug, Clone)]
enum Doc {
    Hook(usize),
    Resource(usize),
}

#[derive(Debug, Clone)]
struct Gen {
    hooks: Vec<GenHook>,
    resources: Vec<GenResource>,
    /// Documents in stream order, with their source file.
    docs: Vec<(Doc, &'static str)>,
}

impl Gen {
    fn yaml(&self) -> String {
        let mut out = String::new();
        for (id, (doc, source)) in self.docs.iter().enumerate() {
            out.push_str("---\n");
            out.push_str(&format!("# Source: chart/{source}\n"));
            match doc {
                Doc::Hook(i) => {
                    let h = &self.hooks[*i];
                    out.push_str(&format!("apiVersion: v1\nkind: {}\nmetadata:\n  name: {:?}\n", h.kind, h.name));
                    if let Some(ns) = h.namespace {
                        out.push_str(&format!("  namespace: {ns}\n"));
                    }
                    out.push_str("  annotations:\n");
                    out.push_str(&format!("    {ID}: \"{id}\"\n"));
                    out.push_str(&format!("    helm.sh/hook: {:?}\n", h.events.join(",")));
                    if let Some(w) = &h.weight_text {
                        out.push_str(&format!("    helm.sh/hook-weight: {w:?}\n"));
                    }
                    if let Some(p) = h.parallel {
                        out.push_str(&format!("    helm.sh/hook-parallel: \"{p}\"\n"));
                    }
                    if !h.deps.is_empty() {
                        let refs: Vec<String> = h
                            .deps
                            .iter()
                            .map(|&j| {
                                let t = &self.hooks[j];
                                match (h.qualify, t.namespace) {
                                    (true, Some(ns)) => format!("{}/{ns}/{}", t.kind, t.name),
                                    _ => format!("{}/{}", t.kind, t.name),
                                }
                            })
                            .collect();
                        let value = if h.json_deps { serde_json::to_string(&refs).unwrap() } else { refs.join(", ") };
                        out.push_str(&format!("    helm.sh/depends-on: {}\n", serde_json::to_string(&value).unwrap()));
                    }
                }
                Doc::Resource(i) => {
                    let r = &self.resources[*i];
                    out.push_str(&format!(
                        "apiVersion: v1\nkind: {}\nmetadata:\n  name: {}\n  annotations:\n",
                        r.kind, r.name
                    ));
                    out.push_str(&format!("    {ID}: \"{id}\"\n"));
                    if let Some(g) = r.group {
                        out.push_str(&format!("    helm.sh/resource-group: {g}\n"));
                        if g == "app" {
                            out.push_str("    helm.sh/depends-on/resource-groups: '[\"db\"]'\n");
                        }
                    }
                    if !r.deps.is_empty() {
                        let refs: Vec<String> = r
                            .deps
                            .iter()
                            .map(|&j| format!("{}/{}", self.resources[j].kind, self.resources[j].name))
                            .collect();
                        out.push_str(&format!(
                            "    helm.sh/depends-on: {}\n",
                            serde_json::to_string(&refs.join(",")).unwrap()
                        ));
                    }
                }
            }
        }
        out
    }

    /// (source, 1-based position among the documents of that source) per
    /// document id, as `helm template` numbers them.
    fn positions(&self) -> Vec<(String, usize)> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        self.docs
            .iter()
            .map(|(_, s)| {
                let n = counts.entry(s).or_insert(0);
                *n += 1;
                (format!("chart/{s}"), *n)
            })
            .collect()
    }

    fn doc_of_hook(&self, i: usize) -> usize {
        self.docs.iter().position(|(d, _)| matches!(d, Doc::Hook(j) if *j == i)).unwrap()
    }
}

fn hook_strategy(new_annotations: bool) -> impl Strategy<Value = GenHook> {
    let weight = prop_oneof![
        3 => (-2i64..=2).prop_map(|w| (Some(w.to_string()), w)),
        1 => Just((None, 0)),
        1 => Just((Some("+1".to_string()), 1)),
        // Helm's strconv.Atoi refuses these: weight 0.
        1 => prop::sample::select(vec!["abc", " 1", "1.0", ""]).prop_map(|s| (Some(s.to_string()), 0)),
    ];
    let parallel = if new_annotations {
        prop_oneof![Just(None), Just(Some(true)), Just(Some(true)), Just(Some(false))].boxed()
    } else {
        Just(None).boxed()
    };
    (
        prop::sample::select(KINDS),
        prop::sample::select(NAME_STEMS),
        prop::option::weighted(0.3, prop::sample::select(vec!["ns1", "ns2"])),
        weight,
        parallel,
        prop::sample::subsequence(EVENTS, 1..=2),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(kind, stem, namespace, (weight_text, weight), parallel, events, json_deps, qualify)| GenHook {
            kind,
            name: stem.to_string(),
            namespace,
            weight_text,
            weight,
            parallel,
            events,
            deps: Vec::new(),
            json_deps,
            qualify,
        })
}

/// A release; with `unique`, hook names are made unique (so that
/// depends-on references are unambiguous) and depends-on edges are drawn
/// from `dep_seeds`: a hook may depend only on hooks of equal or lower
/// weight that belong to every one of its events.
fn release_strategy(max_hooks: usize, new_annotations: bool) -> impl Strategy<Value = Gen> {
    (1..=max_hooks, 0..=if new_annotations { 6usize } else { 3 })
        .prop_flat_map(move |(n, m)| {
            (
                prop::collection::vec(hook_strategy(new_annotations), n),
                prop::collection::vec(
                    prop::collection::vec(
                        (any::<Index>(), prop::bool::weighted(0.1)),
                        0..=if new_annotations { 3 } else { 0 },
                    ),
                    n,
                ),
                prop::collection::vec(
                    (
                        prop::sample::select(RESOURCE_KINDS),
                        prop::option::of(prop::sample::select(vec!["db", "app"])),
                        prop::collection::vec(any::<Index>(), 0..=2),
                    ),
                    m,
                ),
                prop::collection::vec((any::<u32>(), prop::sample::select(SOURCES)), n + m),
            )
        })
        .prop_map(move |(mut hooks, dep_seeds, res, order)| {
            // Two hooks of one event that are one object in the cluster are refused
            // (model/duplicate.rs): a repeated name gets a suffix, which keeps names
            // that tie with another kind or namespace, Helm's tie-breaks.
            for i in 0..hooks.len() {
                let same = |a: &GenHook, b: &GenHook| {
                    a.kind == b.kind
                        && a.name == b.name
                        && (helm_hooks::model::scope::cluster_scoped(a.kind) || a.namespace == b.namespace)
                        && a.events.iter().any(|e| b.events.contains(e))
                };
                while (0..i).any(|j| same(&hooks[j], &hooks[i])) {
                    hooks[i].name.push('x');
                }
            }
            if new_annotations {
                for (i, h) in hooks.iter_mut().enumerate() {
                    h.name = format!("{}-{i}", h.name);
                }
                for i in 0..hooks.len() {
                    // Mostly hooks earlier in Helm order (names are unique, so
                    // weight and name decide it): acyclic. Sometimes any hook
                    // of equal or lower weight, which may close a cycle.
                    let eligible = |backward: bool| -> Vec<usize> {
                        (0..hooks.len())
                            .filter(|&j| {
                                j != i
                                    && hooks[j].weight <= hooks[i].weight
                                    && (backward
                                        || (hooks[j].weight, hooks[j].name.as_bytes())
                                            < (hooks[i].weight, hooks[i].name.as_bytes()))
                                    && hooks[i].events.iter().all(|e| hooks[j].events.contains(e))
                            })
                            .collect()
                    };
                    let mut deps: Vec<usize> = dep_seeds[i]
                        .iter()
                        .filter_map(|(s, backward)| {
                            let e = eligible(*backward);
                            (!e.is_empty()).then(|| e[s.index(e.len())])
                        })
                        .collect();
                    deps.sort_unstable();
                    deps.dedup();
                    hooks[i].deps = deps;
                }
            }
            let m = res.len();
            let resources: Vec<GenResource> = res
                .into_iter()
                .enumerate()
                .map(|(i, (kind, group, seeds))| GenResource {
                    kind,
                    name: format!("r{i}"),
                    group,
                    deps: {
                        let mut d: Vec<usize> =
                            seeds.iter().map(|s| s.index(m)).filter(|&j| j != i && new_annotations).collect();
                        d.sort_unstable();
                        d.dedup();
                        d
                    },
                })
                .collect();
            let mut docs: Vec<(u32, Doc, &'static str)> = Vec::new();
            for (i, (key, source)) in order.into_iter().enumerate() {
                let doc = if i < hooks.len() { Doc::Hook(i) } else { Doc::Resource(i - hooks.len()) };
                docs.push((key, doc, source));
            }
            docs.sort_by_key(|(k, _, _)| *k);
            Gen { hooks, resources, docs: docs.into_iter().map(|(_, d, s)| (d, s)).collect() }
        })
}

// ---------------------------------------------------------------------------
// The oracle: a model of docs/design.md §4 that shares no code with src/plan/.

struct Model {
    /// Plan item index → "must finish before" predecessors (plan item indices).
    preds: Vec<BTreeSet<usize>>,
    /// Expected plan item order (document ids).
    order: Vec<usize>,
}

impl Model {
    fn has_cycle(&self) -> bool {
        self.topo().is_none()
    }

    fn topo(&self) -> Option<Vec<usize>> {
        let n = self.preds.len();
        let mut indeg: Vec<usize> = self.preds.iter().map(BTreeSet::len).collect();
        let mut succ = vec![Vec::new(); n];
        for (i, ps) in self.preds.iter().enumerate() {
            for &p in ps {
                succ[p].push(i);
            }
        }
        let mut stack: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
        let mut out = Vec::new();
        while let Some(v) = stack.pop() {
            out.push(v);
            for &w in &succ[v] {
                indeg[w] -= 1;
                if indeg[w] == 0 {
                    stack.push(w);
                }
            }
        }
        (out.len() == n).then_some(out)
    }

    /// The number of items on the longest chain.
    fn longest_chain(&self) -> usize {
        let topo = self.topo().expect("acyclic");
        let mut len = vec![1usize; self.preds.len()];
        for v in topo {
            for &p in &self.preds[v] {
                len[v] = len[v].max(len[p] + 1);
            }
        }
        len.into_iter().max().unwrap_or(0)
    }

    /// Lockstep: start every admissible item in plan order, up to n.
    fn waves(&self, n: usize) -> Vec<Vec<usize>> {
        let mut done = vec![false; self.preds.len()];
        let mut waves = Vec::new();
        loop {
            let wave: Vec<usize> =
                (0..self.preds.len()).filter(|&i| !done[i] && self.preds[i].iter().all(|&p| done[p])).take(n).collect();
            if wave.is_empty() {
                break;
            }
            for &i in &wave {
                done[i] = true;
            }
            waves.push(wave);
        }
        waves
    }
}

fn kind_rank(kind: &str) -> KindRank {
    install_rank(kind)
}

/// The tiers of Helm's kind order among parallel hooks (docs/annotations.md: a later
/// tier may use an earlier one), written out for the generated kinds.
fn kind_tier(kind: &str) -> usize {
    match kind {
        "Namespace" => 0,
        "ConfigMap" | "Secret" | "ServiceAccount" => 1,
        "Role" | "Service" => 2,
        "Job" | "Pod" | "Deployment" => 3,
        _ => 5,
    }
}

/// The hooks of one event in Helm order, as document ids, and the model's
/// edges over them.
fn hook_model(g: &Gen, ev: &str, parallel_all: bool) -> Model {
    let pos = g.positions();
    let mut ids: Vec<usize> = (0..g.hooks.len()).filter(|&i| g.hooks[i].events.contains(&ev)).collect();
    ids.sort_by(|&a, &b| {
        let (ha, hb) = (&g.hooks[a], &g.hooks[b]);
        let (pa, pb) = (&pos[g.doc_of_hook(a)], &pos[g.doc_of_hook(b)]);
        (ha.weight, ha.name.as_bytes(), kind_rank(ha.kind), &pa.0, pa.1).cmp(&(
            hb.weight,
            hb.name.as_bytes(),
            kind_rank(hb.kind),
            &pb.0,
            pb.1,
        ))
    });
    let at: HashMap<usize, usize> = ids.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let parallel = |i: usize| g.hooks[i].parallel.unwrap_or(parallel_all);
    let together = |a: usize, b: usize| {
        let (lo, hi) = (a.min(b), a.max(b));
        g.hooks[ids[a]].weight == g.hooks[ids[b]].weight && ids[lo..=hi].iter().all(|&h| parallel(h))
    };
    // Effective tiers: a hook that depends on a hook of a later tier among
    // those that run with it joins that tier (depends-on outranks kind order).
    let mut tiers: Vec<usize> = ids.iter().map(|&h| kind_tier(g.hooks[h].kind)).collect();
    loop {
        let mut changed = false;
        for b in 0..ids.len() {
            for &d in &g.hooks[ids[b]].deps {
                let a = at[&d];
                if together(a, b) && tiers[a] > tiers[b] {
                    tiers[b] = tiers[a];
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut preds = vec![BTreeSet::new(); ids.len()];
    for (b, &hb) in ids.iter().enumerate() {
        for (a, &ha) in ids.iter().enumerate().take(b) {
            let (wa, wb) = (g.hooks[ha].weight, g.hooks[hb].weight);
            // Weight barrier; serial barrier within a weight.
            if wa < wb || (wa == wb && (!parallel(ha) || !parallel(hb))) {
                preds[b].insert(a);
            }
        }
        // Kind order among parallel hooks that may run together (same weight,
        // no serial hook between them in Helm order), by effective tier.
        for a in 0..ids.len() {
            if together(a, b) && tiers[a] < tiers[b] {
                preds[b].insert(a);
            }
        }
        for &d in &g.hooks[hb].deps {
            preds[b].insert(at[&d]);
        }
    }
    Model { preds, order: ids.iter().map(|&i| g.doc_of_hook(i)).collect() }
}

/// The resources in the plan's item order, with batch and depends-on edges;
/// `later` collects depends-on edges that point into a later batch.
fn resource_model(g: &Gen, ep: &EventPlan, release: &Release, later: &mut Vec<(usize, usize)>) -> Model {
    let doc_of_item: Vec<usize> =
        ep.items.iter().map(|it| doc_id(&release.resources[it.index].head.annotations)).collect();
    let at: HashMap<usize, usize> = doc_of_item.iter().enumerate().map(|(k, &d)| (d, k)).collect();
    let res_doc: Vec<usize> = (0..g.resources.len())
        .map(|i| g.docs.iter().position(|(d, _)| matches!(d, Doc::Resource(j) if *j == i)).unwrap())
        .collect();
    // HIP-0025 batches for this generator: db, then app (when db exists),
    // then the unsequenced batch (ungrouped, and app when there is no db).
    let has = |g_: &str| g.resources.iter().any(|r| r.group == Some(g_));
    // Namespaces come before every batch.
    let batch_of = |r: &GenResource| -> usize {
        match r.group {
            _ if r.kind == "Namespace" => 0,
            Some("db") => 1,
            Some("app") if has("db") => 2,
            _ => 3,
        }
    };
    let mut preds = vec![BTreeSet::new(); ep.items.len()];
    for (i, r) in g.resources.iter().enumerate() {
        let b = at[&res_doc[i]];
        for (j, q) in g.resources.iter().enumerate() {
            if batch_of(q) < batch_of(r) {
                preds[b].insert(at[&res_doc[j]]);
            }
        }
        for &d in &r.deps {
            if batch_of(&g.resources[d]) > batch_of(r) {
                later.push((i, d));
            } else {
                preds[b].insert(at[&res_doc[d]]);
            }
        }
    }
    Model { preds, order: doc_of_item }
}

fn doc_id(ann: &BTreeMap<String, String>) -> usize {
    ann[ID].parse().unwrap()
}

// ---------------------------------------------------------------------------
// Checks shared by the properties.

fn plan_of(yaml: &str, options: PlanOptions) -> (Release, Plan, Diagnostics) {
    let mut diags = Diagnostics::default();
    let (_, release) = input::parse(yaml.as_bytes(), &mut diags).expect("generated input parses");
    let plan = plan::build(&release, &[], options, &mut diags);
    (release, plan, diags)
}

fn item_docs(ep: &EventPlan, release: &Release) -> Vec<usize> {
    ep.items
        .iter()
        .map(|it| match ep.target {
            Target::Hooks(_) => doc_id(&release.hooks[it.index].head.annotations),
            Target::Install => doc_id(&release.resources[it.index].head.annotations),
        })
        .collect()
}

/// Everything an error-free event plan must satisfy, given the model.
fn check_event(ep: &EventPlan, model: &Model, n: usize, what: &str) -> Result<(), TestCaseError> {
    let count = ep.items.len();
    // Exactly once, at most n per wave.
    let mut wave_of = vec![usize::MAX; count];
    for (w, wave) in ep.waves.iter().enumerate() {
        prop_assert!(!wave.is_empty(), "{what}: empty wave {w}");
        prop_assert!(wave.len() <= n, "{what}: wave {w} has {} items, limit {n}", wave.len());
        for &ItemId(i) in wave {
            prop_assert!(i < count, "{what}: wave {w} names item {i} of {count}");
            prop_assert_eq!(wave_of[i], usize::MAX, "{}: item {} in two waves", what, i);
            wave_of[i] = w;
        }
    }
    prop_assert!(wave_of.iter().all(|&w| w != usize::MAX), "{what}: items in no wave: {wave_of:?}");
    // Every model edge is respected.
    for (i, ps) in model.preds.iter().enumerate() {
        for &p in ps {
            prop_assert!(
                wave_of[p] < wave_of[i],
                "{what}: item {p} must finish before item {i}, waves {} and {}",
                wave_of[p],
                wave_of[i]
            );
        }
    }
    // Every graph edge is respected too, and `after` names graph edges only.
    for it in &ep.items {
        for &(p, _) in &it.after {
            prop_assert!(
                ep.graph.find_edge(ep.items[p].node, it.node).is_some(),
                "{what}: `after` lists {p:?}, no such edge"
            );
        }
    }
    // The waves are the lockstep simulation of the model.
    let waves: Vec<Vec<usize>> = ep.waves.iter().map(|w| w.iter().map(|i| i.0).collect()).collect();
    prop_assert_eq!(&waves, &model.waves(n), "{}: waves differ from the lockstep model", what);
    // The critical path: a chain of real edges, as long as the longest chain.
    let path = &ep.critical_path;
    if count > 0 {
        prop_assert_eq!(path.len(), model.longest_chain(), "{}: critical path {:?}", what, path);
    }
    prop_assert!(path.len() <= ep.waves.len(), "{what}: critical path longer than the waves");
    for pair in path.windows(2) {
        let (a, b) = (ep.items[pair[0]].node, ep.items[pair[1]].node);
        let direct = ep.graph.find_edge(a, b).is_some();
        let via_barrier = ep
            .graph
            .neighbors_directed(a, petgraph::Direction::Outgoing)
            .any(|x| ep.graph[x].is_barrier() && ep.graph.find_edge(x, b).is_some());
        prop_assert!(direct || via_barrier, "{what}: critical path step {:?} is not an edge", pair);
        prop_assert!(wave_of[pair[0].0] < wave_of[pair[1].0]);
    }
    Ok(())
}

fn options(n: usize, parallel_all: bool) -> PlanOptions {
    PlanOptions { parallel: n, parallel_all, parallel_resources: None }
}

// ---------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// Random weights, kinds, names, parallel flags and depends-on edges:
    /// the plan is the model's, or a cycle is reported.
    #[test]
    fn plans_match_the_model(g in release_strategy(24, true), n in prop_oneof![Just(1usize), 2usize..=4, Just(1000)], parallel_all in any::<bool>()) {
        let yaml = g.yaml();
        let (release, plan, diags) = plan_of(&yaml, options(n, parallel_all));
        let errors: Vec<String> = diags.errors().map(|d| d.to_string()).collect();
        let mut expect_errors = false;
        for ep in &plan.events {
            match ep.target {
                Target::Hooks(e) => {
                    let model = hook_model(&g, e.as_str(), parallel_all);
                    prop_assert_eq!(item_docs(ep, &release), model.order.clone(), "{} order", e);
                    if model.has_cycle() {
                        expect_errors = true;
                        prop_assert!(
                            errors.iter().any(|m| m.contains(&format!("{e} cycle:"))),
                            "{} has a cycle but no cycle error: {:?}\n{}", e, errors, yaml
                        );
                    } else {
                        check_event(ep, &model, n, e.as_str())?;
                    }
                }
                Target::Install => {
                    let mut later = Vec::new();
                    let model = resource_model(&g, ep, &release, &mut later);
                    for &(i, d) in &later {
                        expect_errors = true;
                        let r = &g.resources[d];
                        prop_assert!(
                            errors.iter().any(|m| m.contains(&format!("{}/{} is deployed in a later batch", r.kind, r.name))),
                            "r{} depends on {}/{} of a later batch: {:?}", i, r.kind, r.name, errors
                        );
                    }
                    // Within a batch, Helm's install order of kinds (stable).
                    for pair in ep.items.windows(2).filter(|p| p[0].level == p[1].level) {
                        let (a, b) = (&release.resources[pair[0].index], &release.resources[pair[1].index]);
                        prop_assert!(kind_rank(&a.head.kind) <= kind_rank(&b.head.kind), "{} before {}", a.head.kind, b.head.kind);
                    }
                    if model.has_cycle() {
                        expect_errors = true;
                        prop_assert!(errors.iter().any(|m| m.contains("install cycle:")), "resource cycle not reported: {:?}", errors);
                    } else {
                        // Resources: a whole batch at once, whatever --parallel says.
                        check_event(ep, &model, usize::MAX, "install")?;
                        let (_, serial, _) = plan_of(&yaml, options(1, false));
                        let serial = serial.events.iter().find(|e| e.target == Target::Install).unwrap();
                        prop_assert_eq!(&ep.waves, &serial.waves, "install waves change with --parallel {}", n);
                    }
                }
            }
        }
        // Exactly the events that have hooks, and install when there are resources.
        let targets: Vec<&str> = plan.events.iter().map(|e| e.target.name()).collect();
        let mut want: Vec<&str> = Event::ALL.iter().map(|e| e.as_str()).filter(|e| g.hooks.iter().any(|h| h.events.contains(e))).collect();
        if !g.resources.is_empty() {
            want.push("install");
        }
        prop_assert_eq!(targets, want);
        if !expect_errors {
            prop_assert!(errors.is_empty(), "unexpected errors {:?}\n{}", errors, yaml);
        }
    }

    /// No new annotations: Helm's order exactly, one hook at a time, at any N.
    #[test]
    fn without_new_annotations_the_order_is_helms(g in release_strategy(20, false), n in prop_oneof![Just(1usize), 2usize..=8]) {
        let yaml = g.yaml();
        let (release, plan, diags) = plan_of(&yaml, options(n, false));
        prop_assert!(!diags.has_errors(), "{:?}", diags.0);
        for ev in EVENTS {
            let ep = plan.events.iter().find(|e| e.target == Target::Hooks(event(ev)));
            let model = hook_model(&g, ev, false);
            let Some(ep) = ep else {
                prop_assert!(model.order.is_empty());
                continue;
            };
            let docs = item_docs(ep, &release);
            let run: Vec<usize> = ep.waves.iter().flatten().map(|&i| docs[i.0]).collect();
            prop_assert_eq!(&run, &model.order, "{} run order, yaml:\n{}", ev, yaml);
            prop_assert!(ep.waves.iter().all(|w| w.len() == 1), "{}: serial hooks shared a wave", ev);
            prop_assert_eq!(ep.critical_path.len(), model.order.len());
        }
    }

    /// A serial hook runs alone among the hooks of its weight.
    #[test]
    fn serial_hooks_run_alone_in_their_weight(g in release_strategy(24, true), n in prop_oneof![Just(2usize), Just(1000)]) {
        let (release, plan, diags) = plan_of(&g.yaml(), options(n, false));
        for ep in plan.events.iter().filter(|e| matches!(e.target, Target::Hooks(_))) {
            if ep.waves.iter().map(Vec::len).sum::<usize>() != ep.items.len() {
                prop_assert!(diags.has_errors());
                continue;
            }
            let mut wave_of = vec![0; ep.items.len()];
            for (w, wave) in ep.waves.iter().enumerate() {
                for &ItemId(i) in wave {
                    wave_of[i] = w;
                }
            }
            let _ = &release;
            for (s, it) in ep.items.iter().enumerate().filter(|(_, it)| !it.parallel) {
                for (o, other) in ep.items.iter().enumerate().filter(|(o, x)| *o != s && x.level == it.level) {
                    if o < s {
                        prop_assert!(wave_of[o] < wave_of[s], "{} must run before serial {}", other.reference, it.reference);
                    } else {
                        prop_assert!(wave_of[o] > wave_of[s], "{} must run after serial {}", other.reference, it.reference);
                    }
                }
            }
        }
    }

    /// Injected cycles among hooks of one weight: an error naming the
    /// cycle, never a panic, and the CLI exits 2.
    #[test]
    fn injected_cycles_are_errors(g in release_strategy(12, true), len in 1usize..=4, serial in any::<bool>(), start in any::<Index>()) {
        let mut g = g;
        // Put `len` hooks of the test event, weight 7, into a ring.
        let base = g.hooks.len();
        for k in 0..len {
            g.hooks.push(GenHook {
                kind: "Job",
                name: format!("ring-{k}"),
                namespace: None,
                weight_text: Some("7".into()),
                weight: 7,
                parallel: Some(!serial),
                events: vec!["test"],
                deps: vec![base + (k + 1) % len],
                json_deps: k % 2 == 0,
                qualify: false,
            });
            let at = start.index(g.docs.len() + 1);
            g.docs.insert(at, (Doc::Hook(base + k), SOURCES[k % SOURCES.len()]));
        }
        let yaml = g.yaml();
        let (_, plan, diags) = plan_of(&yaml, options(4, false));
        let errors: Vec<String> = diags.errors().map(|d| d.to_string()).collect();
        if len == 1 {
            prop_assert!(errors.iter().any(|m| m.contains("Job/ring-0 is this hook itself")), "{:?}", errors);
        } else {
            prop_assert!(errors.iter().any(|m| m.contains("test cycle:") && m.contains("ring-")), "{:?}", errors);
        }
        let test = plan.events.iter().find(|e| e.target == Target::Hooks(Event::Test)).unwrap();
        if len > 1 {
            prop_assert!(test.waves.is_empty(), "a plan with a cycle has no waves");
        }
        let (code, _, err) = helm_hooks::cli::run_captured(&["plan", "-"], yaml.as_bytes());
        prop_assert_eq!(code, helm_hooks::cli::Exit::Invalid, "{}", err);
    }
}

/// A dependency on a hook of a higher weight is an error, not a hang.
#[test]
fn depending_on_a_higher_weight_is_an_error() {
    let yaml = "---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: low\n  annotations:\n    helm.sh/hook: test\n    helm.sh/depends-on: Job/high\n---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: high\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-weight: \"1\"\n";
    let (_, _, diags) = plan_of(yaml, options(4, false));
    assert!(diags.errors().any(|d| d.message.contains("higher weight")), "{:?}", diags.0);
}

/// A serial hook that depends on a later hook of its weight closes a
/// cycle through Helm's order; the message says so.
#[test]
fn a_cycle_through_the_serial_order_is_named() {
    let yaml = "---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: a\n  annotations:\n    helm.sh/hook: test\n    helm.sh/depends-on: Job/b\n---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: b\n  annotations:\n    helm.sh/hook: test\n";
    let (_, _, diags) = plan_of(yaml, options(4, false));
    let msgs: Vec<String> = diags.errors().map(|d| d.message.clone()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("test cycle:") && m.contains("serial order") && m.contains("depends-on")),
        "{msgs:?}"
    );
}

/// ingress-nginx's admission hooks, all of weight 0: with `--parallel-all`
/// (or `helm.sh/hook-parallel: "true"`) the ServiceAccount starts first, the
/// RBAC next, the Job that runs as them last, each for the reason "kind
/// order"; at `--parallel 1` Helm's order is unchanged.
#[test]
fn parallel_hooks_keep_helms_kind_order() {
    let doc = |kind: &str, parallel: &str| {
        format!(
            "---\n# Source: c/templates/{kind}.yaml\nkind: {kind}\nmetadata:\n  name: r-admission\n  annotations:\n    helm.sh/hook: pre-install{parallel}\n"
        )
    };
    for (parallel, parallel_all) in [("", true), ("\n    helm.sh/hook-parallel: \"true\"", false)] {
        let yaml: String =
            ["Job", "RoleBinding", "ClusterRole", "ServiceAccount", "Role"].iter().map(|k| doc(k, parallel)).collect();
        let (_, plan, diags) = plan_of(&yaml, options(8, parallel_all));
        assert!(!diags.has_errors(), "{:?}", diags.0);
        let ep = &plan.events[0];
        let waves: Vec<Vec<String>> =
            ep.waves.iter().map(|w| w.iter().map(|&i| ep.items[i].reference.kind.clone()).collect()).collect();
        assert_eq!(waves, [vec!["ServiceAccount"], vec!["ClusterRole", "Role", "RoleBinding"], vec!["Job"]]);
        let job = ep.items.iter().find(|it| it.reference.kind == "Job").unwrap();
        assert_eq!(job.after_kinds, ["ClusterRole", "Role", "RoleBinding"]);
        let text = helm_hooks::render::text::plan(
            &input::parse(yaml.as_bytes(), &mut Diagnostics::default()).unwrap().1,
            &plan,
        );
        assert!(text.contains("weight 0's ClusterRole, Role, RoleBinding (kind order)"), "{text}");
        // Serial, as Helm: name order, then kind order, one at a time.
        let (_, serial, _) = plan_of(&yaml.replace(parallel, ""), options(1, false));
        let order: Vec<String> = serial.events[0]
            .waves
            .iter()
            .flatten()
            .map(|&i| serial.events[0].items[i].reference.kind.clone())
            .collect();
        assert_eq!(order, ["ServiceAccount", "ClusterRole", "Role", "RoleBinding", "Job"]);
    }
}

/// An explicit depends-on against Helm's kind order wins: a ServiceAccount
/// that depends on a Job of its weight runs after it, with no cycle.
#[test]
fn depends_on_outranks_the_kind_order() {
    let yaml = "---\n# Source: c/templates/a.yaml\nkind: ServiceAccount\nmetadata:\n  name: sa\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-parallel: \"true\"\n    helm.sh/depends-on: Job/job\n---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: job\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-parallel: \"true\"\n---\n# Source: c/templates/a.yaml\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-parallel: \"true\"\n";
    let (_, plan, diags) = plan_of(yaml, options(4, false));
    assert!(!diags.has_errors(), "{:?}", diags.0);
    let ep = &plan.events[0];
    let waves: Vec<Vec<String>> =
        ep.waves.iter().map(|w| w.iter().map(|&i| ep.items[i].reference.name.clone()).collect()).collect();
    // The ConfigMap before the Job (kind order), the ServiceAccount after it (depends-on).
    assert_eq!(waves, [vec!["cm"], vec!["job"], vec!["sa"]]);
}
