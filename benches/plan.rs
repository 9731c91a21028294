//! Plan time of the native core at 1k, 10k and 100k nodes (half hooks,
//! half resources) with random depends-on edges: `input::parse` +
//! `plan::build` on `helm template` text, and `plan::build` alone.
//!
//!     cargo bench --bench plan
//!     cargo bench --bench plan -- --quick      # fewer samples
//!
//! Goal (issue 3): growth close to linear, 10x input at most 12x time.
//! Figures: docs/benchmarks.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::{model::input, plan};

/// SplitMix64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const EVENTS: &[&str] = &["pre-install", "post-install", "test"];
const HOOK_KINDS: &[&str] = &["Job", "Job", "Job", "Pod", "ConfigMap", "Secret"];
const RESOURCE_KINDS: &[&str] = &["ConfigMap", "Secret", "Service", "Deployment", "ServiceAccount", "StatefulSet"];
const GROUPS: usize = 4;

/// A `helm template`-style stream with `nodes / 2` hooks and `nodes / 2`
/// resources, with the same shape as scripts/bench/gen_release.py: hooks
/// spread over three events and eleven weights, 70% parallel, 0–3
/// depends-on edges to earlier hooks of the same event and a lower or
/// equal weight; resources 20% in a chain of four resource groups, 0–2
/// depends-on edges to earlier resources of the same group.
pub fn template(nodes: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let (n_hooks, n_res) = (nodes / 2, nodes - nodes / 2);
    let mut out = String::with_capacity(nodes * 400);
    // Hooks: (event, weight, name, kind), kept to pick dependencies from.
    let mut hooks: Vec<(usize, i64, String, &str)> = Vec::with_capacity(n_hooks);
    for i in 0..n_hooks {
        let event = rng.below(EVENTS.len());
        let weight = rng.below(11) as i64 - 5;
        let kind = HOOK_KINDS[rng.below(HOOK_KINDS.len())];
        let name = format!("hook-{i:06}");
        let mut deps = Vec::new();
        for _ in 0..rng.below(4) {
            if i == 0 {
                break;
            }
            // A few tries to find an earlier hook of the same event and a
            // weight no higher: earlier names sort first, so no cycles.
            for _ in 0..4 {
                let j = rng.below(i);
                let (e, w, n, k) = &hooks[j];
                if *e == event && *w <= weight {
                    deps.push(format!("{k}/{n}"));
                    break;
                }
            }
        }
        out.push_str(&format!(
            "---\n# Source: app/templates/hooks-{}.yaml\napiVersion: batch/v1\nkind: {kind}\nmetadata:\n  name: {name}\n  labels:\n    app.kubernetes.io/name: app\n  annotations:\n    \"helm.sh/hook\": {}\n    \"helm.sh/hook-weight\": \"{weight}\"\n    \"helm.sh/hook-delete-policy\": before-hook-creation,hook-succeeded\n",
            i % 50,
            EVENTS[event]
        ));
        if rng.chance(70) {
            out.push_str("    \"helm.sh/hook-parallel\": \"true\"\n");
        } else if rng.chance(30) {
            out.push_str("    \"helm.sh/hook-parallel\": \"false\"\n");
        }
        if !deps.is_empty() {
            out.push_str(&format!("    \"helm.sh/depends-on\": '{}'\n", serde_json::to_string(&deps).unwrap()));
        }
        out.push_str("spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: main\n          image: busybox:1.36\n          command: [\"sh\", \"-c\", \"true\"]\n");
        hooks.push((event, weight, name, kind));
    }
    // Resources: group (None = unsequenced), name, kind.
    let mut res: Vec<(Option<usize>, String, &str)> = Vec::with_capacity(n_res);
    for i in 0..n_res {
        let group = rng.chance(20).then(|| rng.below(GROUPS));
        let kind = RESOURCE_KINDS[rng.below(RESOURCE_KINDS.len())];
        let name = format!("res-{i:06}");
        let mut deps = Vec::new();
        for _ in 0..rng.below(3) {
            if i == 0 {
                break;
            }
            for _ in 0..4 {
                let j = rng.below(i);
                if res[j].0 == group {
                    deps.push(format!("{}/{}", res[j].2, res[j].1));
                    break;
                }
            }
        }
        out.push_str(&format!(
            "---\n# Source: app/templates/res-{}.yaml\napiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name}\n  labels:\n    app.kubernetes.io/name: app\n  annotations:\n",
            i % 50
        ));
        if let Some(g) = group {
            out.push_str(&format!("    \"helm.sh/resource-group\": g{g}\n"));
            if g > 0 {
                out.push_str(&format!("    \"helm.sh/depends-on/resource-groups\": '[\"g{}\"]'\n", g - 1));
            }
        }
        if !deps.is_empty() {
            out.push_str(&format!("    \"helm.sh/depends-on\": {}\n", deps.join(",")));
        }
        out.push_str("data:\n  key: value\n");
        res.push((group, name, kind));
    }
    out
}

fn bench(c: &mut Criterion) {
    let options = plan::PlanOptions { parallel: 8, ..Default::default() };
    let mut g = c.benchmark_group("plan");
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    // The largest input the reader takes (issue 33's bound): the stream's count of
    // documents, said "at most", is one more than the objects here.
    for nodes in [1_000usize, 10_000, input::MAX_DOCUMENTS - 1] {
        let text = template(nodes, 42);
        // The input must be valid, or the bench measures error paths.
        let mut diags = Diagnostics::default();
        let (_, release) = input::parse(text.as_bytes(), &mut diags).expect("parses");
        let p = plan::build(&release, &[], options, &mut diags);
        assert!(!diags.has_errors(), "{:?}", diags.errors().next());
        let planned: usize = p.events.iter().map(|e| e.items.len()).sum();
        assert_eq!(planned, nodes, "every hook and resource is planned");

        g.throughput(Throughput::Elements(nodes as u64));
        g.bench_with_input(BenchmarkId::new("parse+build", nodes), &text, |b, text| {
            b.iter(|| {
                let mut diags = Diagnostics::default();
                let (_, release) = input::parse(black_box(text.as_bytes()), &mut diags).unwrap();
                black_box(plan::build(&release, &[], options, &mut diags))
            })
        });
        g.bench_with_input(BenchmarkId::new("build", nodes), &release, |b, release| {
            b.iter(|| {
                let mut diags = Diagnostics::default();
                black_box(plan::build(black_box(release), &[], options, &mut diags))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
