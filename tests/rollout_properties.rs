//! Property tests of the resource rollout (src/exec/rollout.rs) against a
//! simulated cluster with a virtual clock.
//!
//! Random charts of resource groups (each group depending on earlier ones)
//! and `helm.sh/depends-on` edges inside a group are planned by the real
//! planner; a simulated cluster then answers every `Await` by making a
//! random subset of the awaited resources ready (rarely failing one, or
//! letting time pass). Whatever the cluster does:
//! - at most N resources are applied and not yet ready at any moment;
//! - a resource is applied only when every resource of earlier batches and
//!   every resource it depends on is ready;
//! - after the first failure nothing more is applied, and the rollout ends;
//! - without failures every resource ends ready, batch after batch;
//! - a resource still waiting at its batch's deadline fails, naming it.

use helm_hooks::exec::rollout::{ResourceState, Rollout, RolloutAction, RolloutInput, RolloutOptions};
use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::input;
use helm_hooks::plan::{self, EventPlan, ItemId, Target};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct GenResource {
    group: Option<usize>,
    kind: &'static str,
    /// Indices of earlier resources of the same group it depends on.
    depends_on: Vec<usize>,
}

#[derive(Debug, Clone)]
struct Gen {
    /// Per group: the earlier groups it depends on.
    group_deps: Vec<Vec<usize>>,
    resources: Vec<GenResource>,
}

impl Gen {
    fn yaml(&self) -> String {
        let mut out = String::new();
        for (i, r) in self.resources.iter().enumerate() {
            out.push_str(&format!(
                "---\n# Source: c/templates/r{i}.yaml\napiVersion: v1\nkind: {}\nmetadata:\n  name: r{i}\n  annotations:\n",
                r.kind
            ));
            if let Some(g) = r.group {
                out.push_str(&format!("    helm.sh/resource-group: g{g}\n"));
                let deps: Vec<String> = self.group_deps[g].iter().map(|d| format!("\"g{d}\"")).collect();
                if !deps.is_empty() {
                    out.push_str(&format!("    helm.sh/depends-on/resource-groups: '[{}]'\n", deps.join(",")));
                }
            }
            if !r.depends_on.is_empty() {
                let refs: Vec<String> =
                    r.depends_on.iter().map(|&d| format!("{}/r{d}", self.resources[d].kind)).collect();
                out.push_str(&format!("    helm.sh/depends-on: \"{}\"\n", refs.join(",")));
            }
        }
        out
    }
}

fn gen_strategy() -> impl Strategy<Value = Gen> {
    (1usize..=5, 1usize..=24).prop_flat_map(|(groups, n)| {
        let group_deps = (0..groups)
            .map(|g| {
                if g == 0 {
                    Just(Vec::new()).boxed()
                } else {
                    proptest::sample::subsequence((0..g).collect::<Vec<_>>(), 1..=g).boxed()
                }
            })
            .collect::<Vec<_>>();
        let resources = proptest::collection::vec(
            (
                proptest::option::weighted(0.8, 0..groups),
                prop_oneof![Just("ConfigMap"), Just("Service"), Just("Secret")],
                proptest::collection::vec(any::<prop::sample::Index>(), 0..3),
            ),
            n,
        );
        (group_deps, resources).prop_map(|(group_deps, raw)| {
            let mut resources: Vec<GenResource> = Vec::new();
            for (group, kind, picks) in raw {
                let same: Vec<usize> =
                    (0..resources.len()).filter(|&j| group.is_some() && resources[j].group == group).collect();
                let mut depends_on: Vec<usize> =
                    picks.iter().filter(|_| !same.is_empty()).map(|p| same[p.index(same.len())]).collect();
                depends_on.sort_unstable();
                depends_on.dedup();
                resources.push(GenResource { group, kind, depends_on });
            }
            Gen { group_deps, resources }
        })
    })
}

fn plan_of(g: &Gen, parallel: usize) -> EventPlan {
    let mut d = Diagnostics::default();
    let (_, release) = input::parse(g.yaml().as_bytes(), &mut d).expect("parses");
    let p = plan::build(
        &release,
        &[Target::Install],
        plan::PlanOptions { parallel_resources: Some(parallel), ..Default::default() },
        &mut d,
    );
    assert!(!d.has_errors(), "{:?}\n{}", d, g.yaml());
    p.events.into_iter().next().expect("the install plan")
}

/// Every item that must be ready before `i` is applied: earlier batches and
/// same-batch predecessors.
fn must_precede(p: &EventPlan, i: ItemId) -> Vec<ItemId> {
    let it = &p.items[i];
    let mut out: Vec<ItemId> = p.ids().filter(|&j| p.items[j].level < it.level).collect();
    out.extend(it.after.iter().map(|(j, _)| *j));
    out
}

#[derive(Debug, Clone)]
enum Step {
    /// Make these of the awaited ready (indices into the awaited list).
    Ready(Vec<prop::sample::Index>),
    Fail(prop::sample::Index),
    /// Nothing happens; the clock moves on by this many ms.
    Idle(u64),
}

fn step_strategy() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => proptest::collection::vec(any::<prop::sample::Index>(), 1..4).prop_map(Step::Ready),
        1 => any::<prop::sample::Index>().prop_map(Step::Fail),
        2 => (100u64..30_000).prop_map(Step::Idle),
    ]
}

struct Observed {
    failed: Option<ItemId>,
    applied_order: Vec<ItemId>,
}

fn drive(p: &EventPlan, n: usize, steps: &[Step], apply_ready: &[bool]) -> Result<Observed, TestCaseError> {
    let options = RolloutOptions { parallel: n, readiness_timeout_ms: 20_000, deadline: 60_000 };
    let mut r = Rollout::new(p, options, 0);
    let mut now = 0u64;
    let mut ready = vec![false; p.items.len()];
    let mut in_flight: Vec<ItemId> = Vec::new();
    let mut failed_at: Option<ItemId> = None;
    let mut applied_order = Vec::new();
    let mut steps = steps.iter().cycle();
    for _ in 0..10_000 {
        match r.poll(now) {
            RolloutAction::Done => {
                let failed = r.failed();
                if failed.is_none() {
                    prop_assert!(p.ids().all(|i| r.state(i) == ResourceState::Ready));
                }
                return Ok(Observed { failed, applied_order });
            }
            RolloutAction::Apply { items } => {
                prop_assert!(failed_at.is_none(), "applied {items:?} after a failure");
                for &i in &items {
                    for j in must_precede(p, i) {
                        prop_assert!(ready[j.0], "item {i:?} applied before its predecessor {j:?} was ready");
                    }
                    let instant = apply_ready[i.0 % apply_ready.len()];
                    r.handle(RolloutInput::Applied { item: i, ready: instant });
                    applied_order.push(i);
                    if instant {
                        ready[i.0] = true;
                    } else {
                        in_flight.push(i);
                    }
                }
                prop_assert!(in_flight.len() <= n, "{} waiting > {n}", in_flight.len());
            }
            RolloutAction::Await { items, deadline } => {
                let mut sorted = in_flight.clone();
                sorted.sort_unstable();
                prop_assert_eq!(&items, &sorted);
                match steps.next().expect("cycled") {
                    Step::Ready(picks) => {
                        for pick in picks {
                            if in_flight.is_empty() {
                                break;
                            }
                            let i = in_flight.remove(pick.index(in_flight.len()));
                            ready[i.0] = true;
                            r.handle(RolloutInput::Ready { item: i });
                        }
                        now += 10;
                    }
                    Step::Fail(pick) => {
                        let i = in_flight[pick.index(in_flight.len())];
                        r.handle(RolloutInput::Failed { item: i, message: "CrashLoopBackOff".into() });
                        failed_at = Some(i);
                    }
                    Step::Idle(ms) => {
                        for &i in &in_flight {
                            r.handle(RolloutInput::Waiting { item: i, reason: "0/1 ready".into() });
                        }
                        let before = now;
                        now = (now + ms).min(deadline.max(now + 1));
                        if now >= deadline && deadline > before {
                            // Whatever waited past its batch deadline fails at the next poll.
                            failed_at = failed_at.or(Some(ItemId(usize::MAX)));
                        }
                    }
                }
            }
        }
    }
    Err(TestCaseError::fail("the rollout did not end within 10,000 actions"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rollouts_keep_order_limits_and_stop_on_failure(
        g in gen_strategy(),
        n in prop_oneof![Just(1usize), 2usize..=4, Just(usize::MAX)],
        steps in proptest::collection::vec(step_strategy(), 1..12),
        apply_ready in proptest::collection::vec(any::<bool>(), 1..5),
    ) {
        let p = plan_of(&g, if n == usize::MAX { 1000 } else { n });
        let seen = drive(&p, n, &steps, &apply_ready)?;
        if let Some(f) = seen.failed {
            // Nothing after the failing batch was applied.
            let level = p.items[f].level;
            for &i in &seen.applied_order {
                prop_assert!(p.items[i].level <= level, "item {i:?} of a later batch was applied");
            }
        } else {
            prop_assert_eq!(seen.applied_order.len(), p.items.len());
            // Batches in order.
            let levels: Vec<i64> = seen.applied_order.iter().map(|&i| p.items[i].level).collect();
            prop_assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
        }
    }
}

#[test]
fn a_batch_past_its_readiness_timeout_fails_naming_the_resource() {
    let g = Gen {
        group_deps: vec![vec![], vec![0]],
        resources: vec![
            GenResource { group: Some(0), kind: "ConfigMap", depends_on: vec![] },
            GenResource { group: Some(1), kind: "ConfigMap", depends_on: vec![] },
        ],
    };
    let p = plan_of(&g, 1);
    let mut r = Rollout::new(&p, RolloutOptions { parallel: 8, readiness_timeout_ms: 1_000, deadline: 60_000 }, 0);
    let first = match r.poll(0) {
        RolloutAction::Apply { items } => items[0],
        a => panic!("{a:?}"),
    };
    r.handle(RolloutInput::Applied { item: first, ready: false });
    r.handle(RolloutInput::Waiting { item: first, reason: "condition Ready=False: Pending".into() });
    assert!(matches!(r.poll(999), RolloutAction::Await { .. }));
    assert_eq!(r.poll(1_000), RolloutAction::Done);
    assert_eq!(r.failed(), Some(first));
    assert_eq!(r.reason(first), "not ready after 1s (--readiness-timeout): condition Ready=False: Pending");
    assert_eq!(r.state(ItemId(1 - first.0)), ResourceState::Skipped);
}
