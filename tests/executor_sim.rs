//! The executor, in two ways, on a virtual clock, instantly in real time.
//!
//! `simulate` drives the sans-IO [`Executor`] directly, below the seam: no
//! cluster, each action it asks answered by hand as the hooks' durations and
//! outcomes say. Checks Helm's clean-up vector, parallel speed, fail-fast,
//! draining, timeouts, and (as a property) the concurrency limit and the
//! plan's edges.
//!
//! The runs (`run_in`) are `helm hooks run` in the one simulated world
//! (`seam::sim`), as `run_sim.rs` drives it: the real `run` driver, its hooks
//! through the real hook code (`seam::run_hooks`), reading the Jobs, Pods and
//! logs the simulation scripts (a container waiting on its image, a Job
//! failed as the Job controller says, a watch answering late, records
//! refused, logs cut at `limitBytes`). Checks what `run` prints as hooks
//! run: heartbeats, what a hook waits on, streamed lines, timeouts, the
//! output blocks and the hooks left running.

use std::collections::BTreeMap;

use helm_hooks::action::run::RunRequest;
use helm_hooks::action::Action;
use helm_hooks::deploy::progress::Progress;
use helm_hooks::exec::executor::{Executor, HookAction, HookInput, HookReport, Phase, RunOptions};
use helm_hooks::exec::runner::Summary;
use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::event::Event;
use helm_hooks::model::input::{self, Release};
use helm_hooks::plan::{self, ItemId, Target};
use helm_hooks::render::progress_lines::ProgressLines;
use helm_hooks::seam::sim::{job_pod, Script, Sim};
use proptest::prelude::*;

/// How a hook behaves: run time and outcome.
#[derive(Clone, Copy, Debug)]
struct Behaviour {
    ms: u64,
    ok: bool,
}

struct Trace {
    /// ("delete:<policy>" | "create" | "record" | "logs", hook name) in order.
    calls: Vec<(String, String)>,
    reports: Vec<HookReport>,
    end: u64,
    max_running: usize,
    phases: Vec<(String, Phase)>,
    starts: BTreeMap<String, u64>,
    ends: BTreeMap<String, u64>,
}

fn release(docs: &[String]) -> Release {
    let text: String =
        docs.iter().enumerate().map(|(i, d)| format!("---\n# Source: c/templates/h{i:03}.yaml\n{d}\n")).collect();
    let mut d = Diagnostics::default();
    let (_, r) = input::parse(text.as_bytes(), &mut d).unwrap();
    assert!(!d.has_errors(), "{:?}", d.0);
    r
}

fn hook(kind: &str, name: &str, extra: &[(&str, &str)]) -> String {
    let mut s = format!("kind: {kind}\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/hook: test\n");
    for (k, v) in extra {
        s.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
    }
    s
}

fn simulate(r: &Release, behaviour: &dyn Fn(&str) -> Behaviour, opts: RunOptions) -> Trace {
    let mut d = Diagnostics::default();
    let p = plan::build(
        r,
        &[Target::Hooks(Event::Test)],
        plan::PlanOptions { parallel: opts.parallel, ..Default::default() },
        &mut d,
    );
    assert!(!d.has_errors(), "{:?}", d.0);
    let plan = &p.events[0];
    let name = |h: ItemId| plan.items[h].reference.name.clone();
    let mut exec = Executor::new(plan, &r.hooks, opts, 0);
    let mut now = 0u64;
    let mut running: BTreeMap<ItemId, u64> = BTreeMap::new(); // hook -> finish time
    let mut t = Trace {
        calls: vec![],
        reports: vec![],
        end: 0,
        max_running: 0,
        phases: vec![],
        starts: BTreeMap::new(),
        ends: BTreeMap::new(),
    };
    for _ in 0..100_000 {
        let action = exec.poll(now);
        match action {
            HookAction::Done => break,
            HookAction::Delete { hooks, policy } => {
                for h in &hooks {
                    t.calls.push((format!("delete:{policy}"), name(*h)));
                }
                exec.handle(HookInput::Deleted { hooks });
            }
            HookAction::Record => {
                t.calls.push(("record".into(), String::new()));
                exec.handle(HookInput::Recorded);
            }
            HookAction::Create { hooks } => {
                for h in hooks {
                    t.calls.push(("create".into(), name(h)));
                    t.starts.insert(name(h), now);
                    running.insert(h, now + behaviour(&name(h)).ms);
                    t.max_running = t.max_running.max(running.len());
                    exec.handle(HookInput::Created { hook: h });
                }
            }
            HookAction::Await { hooks, deadline } => {
                let next = hooks.iter().filter_map(|h| running.get(h)).copied().min().unwrap_or(u64::MAX);
                now = next.min(deadline).max(now);
                for h in hooks {
                    if running.get(&h) == Some(&now) || running.get(&h).is_some_and(|f| *f <= now) {
                        running.remove(&h);
                        t.ends.insert(name(h), now);
                        let b = behaviour(&name(h));
                        exec.handle(HookInput::Finished {
                            hook: h,
                            succeeded: b.ok,
                            message: if b.ok { String::new() } else { "BackoffLimitExceeded".into() },
                        });
                    }
                }
            }
            HookAction::Logs { hook, purpose } => {
                t.calls.push(("logs".into(), name(hook)));
                let logs = vec![helm_hooks::exec::executor::ContainerLog {
                    pod: name(hook),
                    container: "c".into(),
                    text: format!("output of {}", name(hook)),
                }];
                exec.handle(HookInput::Logs { hook, purpose, logs });
            }
        }
        // Non-Job kinds finish at creation: they leave the simulated set.
        running.retain(|h, _| exec.phase(*h) == Phase::Running);
        t.reports.extend(exec.drain_reports());
    }
    t.end = now;
    t.phases = plan.ids().map(|h| (name(h), exec.phase(h))).collect();
    t
}

fn opts(parallel: usize) -> RunOptions {
    RunOptions { parallel, timeout_ms: 300_000, ignore_fail_fast: false, pod_logs: false, record_before_cleanup: false }
}

fn ok(ms: u64) -> Behaviour {
    Behaviour { ms, ok: true }
}

// hooks_test.go TestHooksCleanUp: with every policy on both hooks and the
// second failing, Helm deletes cfg-1 and cfg-2 before creation, then cfg-2
// (failed), then cfg-1 (succeeded).
#[test]
fn helm_cleanup_vector() {
    let all = ("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded,hook-failed");
    let r = release(&[hook("Job", "cfg-1", &[all, ("helm.sh/hook-weight", "-5")]), hook("Job", "cfg-2", &[all])]);
    let t = simulate(&r, &|n| Behaviour { ms: 1000, ok: n != "cfg-2" }, opts(1));
    let deletes: Vec<String> =
        t.calls.iter().filter(|(c, _)| c.starts_with("delete")).map(|(c, n)| format!("{n} {c}")).collect();
    assert_eq!(
        deletes,
        [
            "cfg-1 delete:before-hook-creation",
            "cfg-2 delete:before-hook-creation",
            "cfg-2 delete:hook-failed",
            "cfg-1 delete:hook-succeeded"
        ]
    );
}

// Helm's serial sequence at --parallel 1: delete, record, create per hook;
// on success, hook-succeeded deletes in reverse order.
#[test]
fn serial_sequence_matches_helm() {
    let pol = ("helm.sh/hook-delete-policy", "before-hook-creation,hook-succeeded");
    let r = release(&[
        hook("Pod", "b", &[pol]),
        hook("Pod", "a", &[pol]),
        hook("Job", "c", &[pol, ("helm.sh/hook-weight", "1")]),
    ]);
    let t = simulate(&r, &|_| ok(1000), opts(1));
    let calls: Vec<String> = t.calls.iter().map(|(c, n)| format!("{c} {n}").trim().to_string()).collect();
    assert_eq!(
        calls,
        [
            "delete:before-hook-creation a",
            "record",
            "create a",
            "delete:before-hook-creation b",
            "record",
            "create b",
            "delete:before-hook-creation c",
            "record",
            "create c",
            "delete:hook-succeeded c",
            "delete:hook-succeeded b",
            "delete:hook-succeeded a",
            "record"
        ]
    );
    assert_eq!(t.end, 3000);
}

// The seed's complaint: 8 tests of 3 s take 24 s serially; in parallel, 3 s.
#[test]
fn eight_parallel_hooks_take_one_duration() {
    let docs: Vec<String> =
        (0..8).map(|i| hook("Job", &format!("t{i}"), &[("helm.sh/hook-parallel", "true")])).collect();
    let r = release(&docs);
    let t = simulate(&r, &|_| ok(3000), opts(8));
    assert_eq!((t.end, t.max_running), (3000, 8));
    let serial = simulate(&r, &|_| ok(3000), opts(1));
    assert_eq!((serial.end, serial.max_running), (24_000, 1));
}

// Fail-fast: the run ends when the preflight fails, while a slower sibling
// still runs; its output is fetched and nothing new starts.
#[test]
fn fail_fast_ends_the_run_at_once() {
    let par = ("helm.sh/hook-parallel", "true");
    let r = release(&[
        hook("Job", "preflight", &[par, ("helm.sh/hook-fail-fast", "true"), ("helm.sh/show-output", "true")]),
        hook("Job", "slow", &[par]),
        hook("Job", "later", &[("helm.sh/hook-weight", "1")]),
    ]);
    let t = simulate(
        &r,
        &|n| match n {
            "preflight" => Behaviour { ms: 1000, ok: false },
            "slow" => ok(60_000),
            _ => ok(1000),
        },
        opts(8),
    );
    assert_eq!(t.end, 1000, "not waiting for the slow sibling");
    assert!(t.reports.contains(&HookReport::FailFast { hook: ItemId(0), ignored: false }));
    assert!(t.calls.contains(&("logs".into(), "preflight".into())));
    assert!(!t.calls.contains(&("create".into(), "later".into())));
    let phases: BTreeMap<_, _> = t.phases.into_iter().collect();
    assert_eq!((phases["preflight"], phases["slow"], phases["later"]), (Phase::Failed, Phase::Running, Phase::Skipped));
}

#[test]
fn ignored_fail_fast_goes_on() {
    let r = release(&[
        hook("Job", "preflight", &[("helm.sh/hook-fail-fast", "true")]),
        hook("Job", "next", &[("helm.sh/hook-weight", "1")]),
    ]);
    let t = simulate(
        &r,
        &|n| Behaviour { ms: 1000, ok: n != "preflight" },
        RunOptions { ignore_fail_fast: true, ..opts(1) },
    );
    assert!(t.reports.contains(&HookReport::FailFast { hook: ItemId(0), ignored: true }));
    assert!(t.calls.contains(&("create".into(), "next".into())));
    assert_eq!(t.end, 2000);
}

// A plain failure stops new starts but waits for running siblings and
// reports every failure.
#[test]
fn plain_failure_drains_running_hooks() {
    let par = ("helm.sh/hook-parallel", "true");
    let r = release(&[
        hook("Job", "a", &[par]),
        hook("Job", "b", &[par]),
        hook("Job", "c", &[par]),
        hook("Job", "d", &[("helm.sh/hook-weight", "1")]),
    ]);
    let t = simulate(
        &r,
        &|n| match n {
            "a" => Behaviour { ms: 1000, ok: false },
            "b" => Behaviour { ms: 5000, ok: false },
            _ => ok(3000),
        },
        opts(8),
    );
    assert_eq!(t.end, 5000);
    let phases: BTreeMap<_, _> = t.phases.into_iter().collect();
    assert_eq!(
        (phases["a"], phases["b"], phases["c"], phases["d"]),
        (Phase::Failed, Phase::Failed, Phase::Succeeded, Phase::Skipped)
    );
}

#[test]
fn timeout_fails_the_hook() {
    let r = release(&[hook("Job", "stuck", &[])]);
    let t = simulate(&r, &|_| ok(10_000_000), RunOptions { timeout_ms: 2000, ..opts(1) });
    assert_eq!(t.end, 2000);
    assert!(t.reports.iter().any(
        |r| matches!(r, HookReport::Finished { message, phase: Phase::Failed, .. } if message == "timed out after 2s")
    ));
}

/// Issue 31: a hook's own timeout fails it as any failed hook (here fail-fast: the run ends
/// at once, its output shown, nothing after it started), while a sibling without one keeps
/// `--timeout`.
#[test]
fn a_hook_timeout_fails_that_hook_only_and_can_fail_fast() {
    let par = ("helm.sh/hook-parallel", "true");
    let (short, ff) = (("helm.sh/hook-timeout", "3s"), ("helm.sh/hook-fail-fast", "true"));
    let sleeper = |n: &str| if n == "sleeper" { ok(60_000) } else { ok(10_000) };
    // Without fail-fast: the sleeper fails at 3 s, the sibling completes at 10 s.
    let r = release(&[hook("Job", "sleeper", &[par, short]), hook("Job", "sibling", &[par])]);
    let t = simulate(&r, &sleeper, opts(8));
    assert_eq!((t.ends.get("sleeper"), t.ends["sibling"], t.end), (None, 10_000, 10_000));
    let phases: BTreeMap<_, _> = t.phases.iter().cloned().collect();
    assert_eq!((phases["sleeper"], phases["sibling"]), (Phase::Failed, Phase::Succeeded));
    let failed = |t: &Trace| {
        t.reports.iter().find_map(|r| match r {
            HookReport::Finished { message, phase: Phase::Failed, at, .. } => Some((message.clone(), *at)),
            _ => None,
        })
    };
    assert_eq!(failed(&t), Some(("timed out after 3s (helm.sh/hook-timeout)".into(), 3000)));
    // With fail-fast: the run ends at 3 s, the sibling is left running.
    let r = release(&[hook("Job", "sleeper", &[par, short, ff]), hook("Job", "sibling", &[par])]);
    let t = simulate(&r, &sleeper, opts(8));
    assert_eq!(t.end, 3000);
    assert!(t.reports.contains(&HookReport::FailFast { hook: ItemId(1), ignored: false }), "{:?}", t.reports);
    assert!(t.calls.contains(&("logs".into(), "sleeper".into())));
    // --timeout shorter than the hook's own wins, and the message names --timeout's value.
    let r = release(&[hook("Job", "sleeper", &[short])]);
    let t = simulate(&r, &sleeper, RunOptions { timeout_ms: 2000, ..opts(1) });
    assert_eq!(failed(&t), Some(("timed out after 2s".into(), 2000)));
}

#[test]
fn other_kinds_are_done_once_created() {
    let r = release(&[hook("ConfigMap", "cm", &[]), hook("Job", "j", &[("helm.sh/hook-weight", "1")])]);
    let t = simulate(&r, &|_| ok(1000), opts(1));
    assert_eq!(t.end, 1000);
    assert!(t.phases.iter().all(|(_, p)| *p == Phase::Succeeded));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Never more than N at once; every depends-on and weight edge holds in
    /// time; everything succeeds when every hook does.
    #[test]
    fn limits_and_edges_hold(
        specs in prop::collection::vec((0i64..3, any::<bool>(), 1u64..5, prop::option::of(0usize..40)), 1..40),
        n in 1usize..6,
    ) {
        let docs: Vec<String> = specs.iter().enumerate().map(|(i, (w, par, _, dep))| {
            let w = w.to_string();
            let mut extra = vec![("helm.sh/hook-weight", w.as_str()), ("helm.sh/hook-parallel", if *par { "true" } else { "false" })];
            let target;
            if let Some(d) = dep.filter(|d| *d < i && specs[*d].0 <= specs[i].0) {
                target = format!("Job/h{d:02}");
                extra.push(("helm.sh/depends-on", target.as_str()));
            }
            hook("Job", &format!("h{i:02}"), &extra)
        }).collect();
        let r = release(&docs);
        let durations: BTreeMap<String, u64> = specs.iter().enumerate().map(|(i, s)| (format!("h{i:02}"), s.2 * 1000)).collect();
        let t = simulate(&r, &|name| ok(durations[name]), opts(n));
        prop_assert!(t.max_running <= n);
        prop_assert!(t.phases.iter().all(|(_, p)| *p == Phase::Succeeded));
        for (i, (w, _, _, dep)) in specs.iter().enumerate() {
            let me = format!("h{i:02}");
            for (j, (w2, ..)) in specs.iter().enumerate() {
                if w2 < w {
                    let other = format!("h{j:02}");
                    prop_assert!(t.ends[&other] <= t.starts[&me]);
                }
            }
            if let Some(d) = dep.filter(|d| *d < i && specs[*d].0 <= specs[i].0) {
                let other = format!("h{d:02}");
                prop_assert!(t.ends[&other] <= t.starts[&me]);
            }
        }
    }
}

const NS: &str = "demo";

/// How a hook behaves in the one simulated world: its Job or Pod ends
/// `ms` after its apply, failed unless `ok` (a Job's `Failed` condition, a
/// Pod's container exiting with code 1).
fn script(b: Behaviour) -> Script {
    Script { ends_after_ms: Some(b.ms), fails: !b.ok, ..Script::default() }
}

/// The one simulated world (`seam::sim`) at `now`, holding revision 1 of
/// release `demo`, deployed, whose `test` hooks are `docs`, each behaving
/// as `behaviour` says of its name.
fn world(docs: &[String], now: u64, behaviour: impl Fn(&str) -> Script) -> Sim {
    let mut sim = Sim::new(NS, now);
    let hooks: Vec<serde_json::Value> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let field = |key: &str| d.lines().find_map(|l| l.trim().strip_prefix(key)).unwrap_or_default().to_string();
            let (kind, name) = (field("kind: "), field("name: "));
            sim.scripts.insert(format!("{kind}/{name}"), behaviour(&name));
            serde_json::json!({"name": name, "kind": kind, "path": format!("c/templates/h{i:03}.yaml"),
                "manifest": d, "events": ["test"], "last_run": {}})
        })
        .collect();
    let release = serde_json::json!({
        "name": "demo", "namespace": NS, "version": 1,
        "info": {"status": "deployed", "description": "Install complete", "last_deployed": "2023-11-14T22:00:00Z"},
        "chart": {"metadata": {"name": "c", "version": "1.0.0"}},
        "manifest": "", "hooks": hooks,
    });
    sim.records.insert(1, release);
    sim
}

/// `helm hooks run demo --event test` in `sim`, with `opts`' flags, saying
/// what happens to `progress`: the real `run` driver, its hooks through
/// the real hook code (`seam::run_hooks`).
fn run_in(sim: &mut Sim, opts: RunOptions, progress: &mut dyn Progress) -> Summary {
    let request = RunRequest {
        release: "demo".into(),
        event: Event::Test,
        parallel: opts.parallel,
        parallel_all: false,
        timeout_ms: opts.timeout_ms,
        ignore_fail_fast: opts.ignore_fail_fast,
        logs: opts.pod_logs,
        include: Vec::new(),
        exclude: Vec::new(),
    };
    request.run(sim, progress).unwrap_or_else(|e| panic!("{e:?}")).summary
}

/// [`run_in`], its progress lines as `run` prints them.
fn run_printed(sim: &mut Sim, opts: RunOptions) -> (Summary, String) {
    let mut out = Vec::new();
    let s = run_in(sim, opts, &mut ProgressLines::new(&mut out));
    (s, String::from_utf8(out).unwrap())
}

/// A hook that simply runs (its Job's pod `Running`) is said to run every
/// 30 s, not at every look.
#[test]
fn a_hook_that_simply_runs_gets_a_heartbeat_only() {
    let mut sim = world(&[hook("Job", "healthy", &[])], 0, |_| script(ok(65_000)));
    let (_, out) = run_printed(&mut sim, opts(1));
    let beats: Vec<&str> = out.lines().filter(|l| l.contains("waiting   Job/healthy")).collect();
    assert_eq!(beats.len(), 2, "{out}");
    assert!(beats[0].starts_with("[    30s]") && beats[1].starts_with("[   1m0s]"), "{out}");
}

/// Issue 31: while hooks run, `run` says every 5 s what each waits on, and prints a followed
/// hook's lines as they come (each second), prefixed with hook, pod and container, before the
/// hook's end; the failed hook's report keeps what it waited on. Here `pull`'s container
/// waits on its image (`ImagePullBackOff`), as the real code reads its Job and pod.
#[test]
fn run_says_what_running_hooks_wait_on_and_streams_their_lines() {
    let par = ("helm.sh/hook-parallel", "true");
    let docs = [hook("Job", "pull", &[par]), hook("Job", "talk", &[par, ("helm.sh/show-output", "true")])];
    let mut sim = world(&docs, 1_000_000, |n| match n {
        "pull" => Script { waiting: Some("ImagePullBackOff".into()), ..script(ok(60_000)) },
        _ => Script { lines: talk_lines(&[1000, 2000, 3000]), ..script(ok(3_500)) },
    });
    let (s, out) = run_printed(&mut sim, RunOptions { timeout_ms: 12_000, ..opts(8) });
    let lines: Vec<&str> = out.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle}\n{out}"));
    let talk = format!("[Job/talk {}/main]", job_pod("talk"));
    assert!(at(&format!("{talk} talk says 1000")) < at(&format!("{talk} talk says 3000")), "{out}");
    assert!(at(&format!("{talk} talk says 3000")) < at("succeeded Job/talk"), "{out}");
    let pull = format!("Job: 1 active; Pod/{} (Pending): container main waiting: ImagePullBackOff", job_pod("pull"));
    let waiting: Vec<&&str> = lines.iter().filter(|l| l.contains("waiting   Job/pull")).collect();
    assert_eq!(waiting.len(), 1, "at 5 s, and not again at 10 s, unchanged: {out}");
    assert!(waiting[0].starts_with(&format!("[     5s] waiting   Job/pull: {pull}")), "{out}");
    assert!(!out.contains("waiting   Job/talk"), "talk ended before the first look: {out}");
    let row = s.rows.iter().find(|r| r.reference == "Job/pull").unwrap();
    assert_eq!(row.waiting.as_deref(), Some(pull.as_str()));
    assert!(s.rows.iter().find(|r| r.reference == "Job/talk").unwrap().waiting.is_none());
    let json: serde_json::Value = serde_json::from_str(&helm_hooks::render::json::summary(&s)).unwrap();
    let rows = json["hooks"].as_array().or(json["rows"].as_array()).expect("rows");
    assert!(rows.iter().any(|r| r["waiting"].as_str().is_some_and(|w| w.contains("ImagePullBackOff"))), "{json}");
}

/// `talk says N`, written N ms after the start, for each N.
fn talk_lines(at: &[u64]) -> Vec<(u64, String)> {
    at.iter().map(|t| (*t, format!("talk says {t}"))).collect()
}

/// A hook whose time runs out fails saying what the cluster shows it stuck on, asked at
/// that moment (its Job and pod read); a sibling that ends in time is not asked about.
#[test]
fn run_says_what_a_timed_out_hook_was_stuck_on() {
    let par = ("helm.sh/hook-parallel", "true");
    let mut sim = world(&[hook("Job", "pull", &[par]), hook("Job", "quick", &[par])], 1_000_000, |n| match n {
        "pull" => Script { waiting: Some("ImagePullBackOff".into()), ..script(ok(60_000)) },
        _ => script(ok(1000)),
    });
    let s = run_in(&mut sim, RunOptions { timeout_ms: 20_000, ..opts(8) }, &mut ());
    assert_eq!(s.outcome, helm_hooks::exec::runner::RunEnd::Failed);
    let message = |name: &str| s.rows.iter().find(|r| r.reference.ends_with(name)).unwrap().message.clone();
    let pod = job_pod("pull");
    assert_eq!(
        message("pull"),
        format!("timed out after 20s: Job: 1 active; Pod/{pod} (Pending): container main waiting: ImagePullBackOff")
    );
    assert_eq!(message("quick"), "");
}

/// A fail-fast hook's failure is said before its output block; the slow sibling is not
/// awaited, and is named as still running. The failure's words are the real code's reading
/// of the Job's `Failed` condition (`BackoffLimitExceeded`), in the text and in JUnit.
#[test]
fn run_prints_fail_fast_and_the_output_block() {
    let par = ("helm.sh/hook-parallel", "true");
    let show = ("helm.sh/show-output", "true");
    let docs =
        [hook("Job", "preflight", &[par, ("helm.sh/hook-fail-fast", "true"), show]), hook("Job", "slow", &[par, show])];
    let mut sim = world(&docs, 1_000_000, |n| match n {
        "preflight" => Script {
            lines: vec![(200, "checking preflight".into()), (1_500, "line two".into())],
            ..script(Behaviour { ms: 2000, ok: false })
        },
        _ => script(ok(30_000)),
    });
    let (s, out) = run_printed(&mut sim, opts(8));
    assert_eq!(s.outcome, helm_hooks::exec::runner::RunEnd::Failed);
    assert_eq!(s.failed_fast.as_deref(), Some("Job/preflight"));
    assert_eq!(s.ended_at - s.started_at, 2000);
    let ff = out.find("Fail-fast job failed: preflight\n").expect(&out);
    // Followed (`helm.sh/show-output`), its lines were printed as they came: the block counts them.
    let block = out.find("Job preflight output:\n  (2 lines shown above)\n").expect(&out);
    assert!(ff < block, "{out}");
    let streamed = out.find(&format!("[Job/preflight {}/main] line two", job_pod("preflight"))).expect(&out);
    assert!(streamed < block, "{out}");
    assert!(!out.contains("slow output"), "the slow sibling is not awaited: {out}");
    let table = helm_hooks::render::text::run::summary(&s);
    assert!(table.contains("Job/slow") && table.contains("still running"), "{table}");
    let junit = helm_hooks::render::junit::summary(&s, "demo");
    let failed = "BackoffLimitExceeded: Job Failed. failed: 1/1 (BackoffLimitExceeded: Job has reached the \
                  specified backoff limit)";
    assert!(junit.contains("failures=\"1\"") && junit.contains(&format!("<failure message=\"{failed}\"/>")), "{junit}");
    assert_eq!(sim.only(&["save"]).len(), 2, "one record at the start, one at the end: {:?}", sim.log);
}

// docs/design.md §3: a failing fail-fast hook's output is printed even without
// helm.sh/show-output; and under --ignore-fail-fast that failure is a warning.
#[test]
fn fail_fast_output_without_show_output_and_ignored_is_success() {
    let docs = [
        hook("Job", "pre", &[("helm.sh/hook-fail-fast", "true")]),
        hook("Job", "next", &[("helm.sh/hook-weight", "1")]),
    ];
    let behaviour = |n: &str| Behaviour { ms: 1000, ok: n != "pre" };
    let t = simulate(&release(&docs), &behaviour, opts(1));
    assert!(t.calls.contains(&("logs".into(), "pre".into())), "{:?}", t.calls);
    let mut sim = world(&docs, 0, |n| script(behaviour(n)));
    let s = run_in(&mut sim, RunOptions { ignore_fail_fast: true, ..opts(1) }, &mut ());
    assert_eq!(s.outcome, helm_hooks::exec::runner::RunEnd::Succeeded);
}

// `helm test` stores the release before its deferred clean-up deletes;
// hooks of the other events clean up first.
#[test]
fn test_event_records_before_cleanup() {
    let pol = ("helm.sh/hook-delete-policy", "hook-succeeded");
    let r = release(&[hook("Pod", "a", &[pol])]);
    let last_two = |t: &Trace| t.calls.iter().rev().take(2).map(|(c, _)| c.clone()).collect::<Vec<_>>();
    let t = simulate(&r, &|_| ok(1000), RunOptions { record_before_cleanup: true, ..opts(1) });
    assert_eq!(last_two(&t), ["delete:hook-succeeded", "record"]);
    let t = simulate(&r, &|_| ok(1000), opts(1));
    assert_eq!(last_two(&t), ["record", "delete:hook-succeeded"]);
}

// A start whose record is refused never created the hook: it must not be
// reported as started (issue 4's closing note). The credentials may not
// write Helm's records: the first write, before the hook's start, fails.
#[test]
fn a_refused_record_reports_no_start() {
    let mut sim = world(&[hook("Job", "check", &[])], 0, |_| script(ok(1000)));
    sim.refuses_writes = true;
    let (s, out) = run_printed(&mut sim, opts(1));
    assert_eq!(s.outcome, helm_hooks::exec::runner::RunEnd::ClusterError);
    assert!(sim.only(&["apply"]).is_empty() && sim.live.is_empty(), "nothing was created: {:?}", sim.log);
    assert!(!out.contains("started"), "{out}");
}

/// Issue 41: a hook whose time runs out ends when its time ran out, though the run noticed
/// it later (here 1.7 s, a watch held on a quiet cluster): the table's duration is the time
/// its message names. It is then a failed hook for its delete policy: `hook-failed` deletes
/// it; without that policy it is left running, and the summary names it with the command
/// that removes it.
#[test]
fn a_timed_out_hook_ends_at_its_time_and_is_named_when_left_running() {
    let run = |policy: &[(&str, &str)]| {
        let mut annotations = vec![("helm.sh/hook-timeout", "4s")];
        annotations.extend_from_slice(policy);
        let pulling = |_: &str| Script { waiting: Some("ImagePullBackOff".into()), ..script(ok(60_000)) };
        let mut sim = world(&[hook("Pod", "slow", &annotations)], 1_000_000, pulling);
        sim.late_ms = 1_700;
        let (s, out) = run_printed(&mut sim, opts(1));
        (s, out, sim.deleted)
    };
    let (s, progress, deleted) = run(&[]);
    let row = &s.rows[0];
    let said =
        "timed out after 4s (helm.sh/hook-timeout): Pod/slow (Pending): container main waiting: ImagePullBackOff";
    assert_eq!(row.message, said);
    assert_eq!(row.completed_at.unwrap() - row.started_at.unwrap(), 4_000);
    assert!(s.ended_at - s.started_at >= 5_700, "noticed late: {}", s.ended_at - s.started_at);
    assert!(progress.contains(&format!("[     4s] failed    Pod/slow: {said}\n")), "{progress}");
    // Helm's default policy, before-hook-creation, deletes an old copy at the start only:
    // there was none, and the one that timed out is left.
    assert!(deleted.is_empty(), "{deleted:?}");
    let table = helm_hooks::render::text::run::summary_in(&s, Some("demo"));
    let slow = table.lines().find(|l| l.starts_with("Pod/slow")).unwrap();
    assert!(slow.ends_with(" 4s"), "{table}");
    assert!(
        table.ends_with(
            "Left running: Pod/slow (timed out, no hook-failed delete policy); remove with:\n  \
             kubectl delete -n demo pod/slow\n"
        ),
        "{table}"
    );

    let (s, _, deleted) = run(&[("helm.sh/hook-delete-policy", "hook-failed")]);
    assert_eq!(deleted, [("Pod/slow".to_string(), 1_005_700)], "deleted once noticed failed");
    assert!(s.left_running.is_empty(), "{:?}", s.left_running);
    assert!(!helm_hooks::render::text::run::summary(&s).contains("Left running"));
}

/// A fail-fast stop leaves its running siblings unawaited: named, with the command that
/// removes them, each in its own namespace.
#[test]
fn hooks_a_fail_fast_stop_leaves_running_are_named() {
    let par = ("helm.sh/hook-parallel", "true");
    let docs = [
        hook("Job", "preflight", &[par, ("helm.sh/hook-fail-fast", "true")]),
        hook("Job", "slow", &[par]),
        "kind: Pod\nmetadata:\n  name: elsewhere\n  namespace: other\n  annotations:\n    helm.sh/hook: test\n    \
         helm.sh/hook-parallel: \"true\"\n"
            .to_string(),
    ];
    let mut sim = world(&docs, 0, |n| {
        script(Behaviour { ms: if n == "preflight" { 1_000 } else { 30_000 }, ok: n != "preflight" })
    });
    let s = run_in(&mut sim, opts(8), &mut ());
    let table = helm_hooks::render::text::run::summary_in(&s, Some("demo"));
    assert!(
        table.ends_with(
            "Left running: Pod/other/elsewhere (not awaited after the fail-fast stop), Job/slow (not awaited after \
             the fail-fast stop); remove with:\n  kubectl delete -n other pod/elsewhere\n  kubectl delete -n demo job/slow\n"
        ),
        "{table}"
    );
}

/// Issue 41: `run --logs` of a `helm.sh/show-output` Pod hook prints each of its container's
/// lines once: as they come, then in the proposal's `Pod <name> output:` block only the lines
/// the stream had not given yet, and `helm test --logs`'
/// `POD LOGS:` block only its header and how many lines were shown above.
#[test]
fn run_logs_of_a_show_output_hook_prints_each_line_once() {
    let lines: Vec<String> = (1..=5).map(|i| format!("check {i} ok")).collect();
    let written: Vec<(u64, String)> = [500, 2_100, 2_500, 3_200, 3_400].into_iter().zip(lines.clone()).collect();
    let mut sim = world(&[hook("Pod", "smoke", &[("helm.sh/show-output", "true")])], 0, |_| Script {
        lines: written.clone(),
        ..script(ok(3_500))
    });
    // Each read is cut at `limitBytes` (100: two stamped lines and a bit), and each
    // repeats the lines of the last second read: the stream falls behind, and the
    // read at the end gives only line 3; lines 4 and 5 are left for the block.
    sim.log_limit_bytes = Some(100);
    let (s, out) = run_printed(&mut sim, RunOptions { pod_logs: true, ..opts(1) });
    for line in &lines {
        assert_eq!(out.matches(line.as_str()).count(), 1, "{line:?}:\n{out}");
    }
    assert!(out.contains("[Pod/smoke/main] check 1 ok\n"), "{out}");
    assert!(out.contains("Pod smoke output:\n  (3 lines shown above)\n  check 4 ok\n  check 5 ok\n"), "{out}");
    assert!(out.contains("POD LOGS: smoke (main)\n(5 lines shown above)\n"), "{out}");
    // The report keeps the whole output: it is no progress line.
    assert_eq!(s.rows[0].output.as_deref(), Some(lines.join("\n").as_str()));
}
