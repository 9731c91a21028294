//! `helm hooks run` and `helm hooks status` (`action::run`, `action::status`)
//! in the one simulated world (`seam::sim`), as `deploy_sim.rs` drives the
//! deploys: the simulation answers the seam's steps — a hook applied, its
//! Job's state as time passes, its pods and their logs, the record stored —
//! on a virtual clock, and the hooks run through the same executor and the
//! same `seam::HookCluster` as on a real cluster. Checks a fail-fast hook
//! stopping the run with another left running, that run read back by
//! `status` (the record's `Running`, then what the cluster shows now), a
//! hook's own timeout, and a followed log printed line by line as it is
//! written, each line once.

use helm_hooks::action::run::{RunOutcome, RunRequest};
use helm_hooks::action::status::StatusRequest;
use helm_hooks::action::Action;
use helm_hooks::base::time::{go_time, Millis};
use helm_hooks::deploy::progress::{DeployEvent, Progress};
use helm_hooks::exec::executor::{LeftRunning, Phase};
use helm_hooks::exec::progress::{HookEvent, HookProgress};
use helm_hooks::exec::runner::RunEnd;
use helm_hooks::model::event::Event;
use helm_hooks::seam::sim::{Script, Sim};
use helm_hooks::seam::RUN_LABEL;
use serde_json::{json, Value};

const NS: &str = "ns";
const T0: Millis = 1_700_000_000_000;

/// A hook of the stored release: its name, its annotations, how its Job behaves.
type HookSpec<'a> = (&'a str, &'a [(&'a str, &'a str)], Script);

/// A Job that ends `after_ms` after its apply, failed when `fails`, its
/// container writing `lines` (ms after the start, line).
fn job(after_ms: Millis, fails: bool, lines: &[(Millis, &str)]) -> Script {
    let lines = lines.iter().map(|(at, l)| (*at, l.to_string())).collect();
    Script { ends_after_ms: Some(after_ms), fails, lines, ..Script::default() }
}

/// The one simulation, holding revision 1 of release `app`, deployed, whose
/// `test` hooks are `hooks`: Jobs that behave as their scripts say.
fn world(hooks: &[HookSpec]) -> Sim {
    let mut sim = Sim::new(NS, T0);
    let docs: Vec<Value> = hooks
        .iter()
        .map(|(name, annotations, script)| {
            sim.scripts.insert(format!("Job/{name}"), script.clone());
            let mut manifest = format!(
                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {name}\n  annotations:\n    \
                 helm.sh/hook: test\n"
            );
            for (k, v) in *annotations {
                manifest.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
            }
            json!({"name": name, "kind": "Job", "path": format!("app/templates/{name}.yaml"),
                "manifest": manifest, "events": ["test"], "last_run": {}})
        })
        .collect();
    let release = json!({
        "name": "app", "namespace": NS, "version": 1,
        "info": {"status": "deployed", "description": "Install complete",
            "last_deployed": go_time(T0 - 60_000)},
        "chart": {"metadata": {"name": "app", "version": "1.0.0"}},
        "manifest": "", "hooks": docs,
    });
    sim.records.insert(1, release);
    sim
}

/// The phase of `hook`'s last run, as the record keeps it.
fn last_run_phase(sim: &Sim, hook: &str) -> String {
    let hooks = sim.records[&1]["hooks"].as_array().unwrap();
    let h = hooks.iter().find(|h| h["name"] == hook).unwrap();
    h["last_run"]["phase"].as_str().unwrap_or_default().to_string()
}

/// What the run said, as lines with their times from its start.
#[derive(Default)]
struct Said(Vec<String>);

impl HookProgress for Said {
    fn hook(&mut self, e: &HookEvent<'_>) {
        let line = match *e {
            HookEvent::Started { hook, at } => format!("{at:?} started {hook}"),
            HookEvent::Finished { hook, at, phase, .. } => format!("{at:?} {phase:?} {hook}"),
            HookEvent::FailFast { hook, ignored } => format!("fail-fast {hook} ignored={ignored}"),
            HookEvent::LogLines { hook, log } => format!("log {hook}: {}", log.text),
            HookEvent::Output { hook, .. } => format!("output {hook}"),
            HookEvent::Waiting { .. } => return,
        };
        self.0.push(line);
    }
}

/// The one sink of every command: a run tells its hooks' events through it.
impl Progress for Said {
    fn event(&mut self, e: &DeployEvent<'_>) {
        if let DeployEvent::Hook(h) = e {
            self.hook(h);
        }
    }
}

fn request(parallel: usize, timeout_ms: Millis, logs: bool) -> RunRequest {
    RunRequest {
        release: "app".into(),
        event: Event::Test,
        parallel,
        parallel_all: false,
        timeout_ms,
        ignore_fail_fast: false,
        logs,
        include: Vec::new(),
        exclude: Vec::new(),
    }
}

fn run(sim: &mut Sim, request: RunRequest) -> (RunOutcome, Vec<String>) {
    let mut said = Said::default();
    let outcome = request.run(sim, &mut said).unwrap_or_else(|e| panic!("{e}"));
    (outcome, said.0)
}

fn phases(outcome: &RunOutcome) -> Vec<(String, Phase)> {
    outcome.summary.rows.iter().map(|r| (r.reference.clone(), r.phase)).collect()
}

/// A fail-fast hook that fails after 2 s stops the run at once: the hook
/// beside it, which would take a minute, is neither awaited nor deleted, and
/// is named as left running. The record keeps it `Running`, as Helm leaves
/// a hook whose end it never saw.
#[test]
fn a_fail_fast_hook_stops_the_run_and_leaves_the_other_running() {
    let (slow, broken) = (job(60_000, false, &[]), job(2_000, true, &[]));
    let parallel = ("helm.sh/hook-parallel", "true");
    let mut sim =
        world(&[("migrate", &[("helm.sh/hook-fail-fast", "true"), parallel], broken), ("warm", &[parallel], slow)]);
    let (outcome, said) = run(&mut sim, request(2, 300_000, false));
    let label = |name: &str| sim.live[name]["metadata"]["labels"][RUN_LABEL].clone();
    assert_eq!(
        (label("Job/migrate"), label("Job/warm")),
        (json!("app"), json!("app")),
        "the run's label names the release"
    );
    assert_eq!(outcome.summary.outcome, RunEnd::Failed);
    assert_eq!(outcome.summary.failed_fast.as_deref(), Some("Job/migrate"), "{said:?}");
    assert_eq!(sim.now - T0, 2_000, "stopped when the fail-fast hook failed: {said:?} {:?}", sim.log);
    let left: Vec<(String, LeftRunning)> =
        outcome.summary.left_running.iter().map(|(r, why)| (r.to_string(), *why)).collect();
    assert_eq!(left, [("Job/warm".to_string(), LeftRunning::NotAwaited)]);
    assert!(!sim.log.contains(&"delete Job/warm".to_string()), "{:?}", sim.log);
    assert_eq!((last_run_phase(&sim, "migrate"), last_run_phase(&sim, "warm")), ("Failed".into(), "Running".into()));
    assert!(said.contains(&"fail-fast Job/migrate ignored=false".to_string()), "{said:?}");
}

/// `status` reads that run back from the record: the stopped hook is
/// abandoned, and what the cluster shows now (one GET) says it is still
/// running; once its Job has completed, the same `status` says so.
#[test]
fn status_reads_a_stopped_run_back_and_asks_the_cluster_about_what_it_left_running() {
    let (slow, broken) = (job(60_000, false, &[]), job(2_000, true, &[]));
    let parallel = ("helm.sh/hook-parallel", "true");
    let mut sim =
        world(&[("migrate", &[("helm.sh/hook-fail-fast", "true"), parallel], broken), ("warm", &[parallel], slow)]);
    run(&mut sim, request(2, 300_000, false));
    let asked = StatusRequest { release: "app".into(), event: Event::Test, revision: None };
    let read = |sim: &mut Sim| asked.clone().run(sim, &mut ()).unwrap();
    sim.log.clear();
    sim.gets.clear();
    let s = read(&mut sim);
    assert_eq!(sim.gets, ["Job/warm"], "one GET, of the hook the record leaves running");
    assert!(sim.log.is_empty(), "nothing else done: {:?}", sim.log);
    let rows: Vec<(&str, Phase, &str)> =
        s.summary.rows.iter().map(|r| (r.reference.as_str(), r.phase, r.message.as_str())).collect();
    assert_eq!((rows[0].0, rows[0].1), ("Job/migrate", Phase::Failed));
    assert_eq!((rows[1].0, rows[1].1), ("Job/warm", Phase::Running));
    assert!(rows[1].2.starts_with("still running in the cluster"), "{}", rows[1].2);
    assert_eq!((s.revision, s.namespace.as_str()), (1, NS));

    sim.now = T0 + 61_000;
    let s = read(&mut sim);
    assert_eq!(s.summary.rows[1].phase, Phase::Succeeded);
    assert_eq!(s.summary.rows[1].completed_at, Some(T0 + 60_000), "the end as the Job says it");
    // Nothing was changed: the record still says what the run stored.
    assert_eq!(last_run_phase(&sim, "warm"), "Running");
}

/// A hook's own `helm.sh/hook-timeout` ends its wait at its start plus its
/// time, under a longer `--timeout`; it fails and, with no `hook-failed`
/// policy to delete it, is named as left running. As in Helm, the hooks
/// after a failed one do not run.
#[test]
fn a_hook_timeout_ends_its_wait_at_its_own_time() {
    let (stuck, quick) = (job(600_000, false, &[]), job(1_000, false, &[]));
    let mut sim = world(&[
        ("a-stuck", &[("helm.sh/hook-timeout", "30s"), ("helm.sh/hook-weight", "1")], stuck),
        ("b-after", &[("helm.sh/hook-weight", "2")], quick),
    ]);
    let (outcome, said) = run(&mut sim, request(1, 300_000, false));
    assert_eq!(outcome.summary.outcome, RunEnd::Failed, "{said:?}");
    let stuck_row = &outcome.summary.rows[0];
    assert_eq!(stuck_row.phase, Phase::Failed);
    assert_eq!(stuck_row.completed_at.map(|t| t - T0), Some(30_000), "{said:?}");
    assert_eq!(phases(&outcome)[1], ("Job/b-after".to_string(), Phase::Skipped));
    assert!(!sim.log.contains(&"apply Job/b-after".to_string()), "{:?}", sim.log);
    let left: Vec<String> = outcome.summary.left_running.iter().map(|(r, _)| r.to_string()).collect();
    assert_eq!(left, ["Job/a-stuck"]);
    assert_eq!(sim.now - T0, 30_000, "{said:?}");
}

/// A `helm.sh/show-output` hook's lines are printed as they are written,
/// read again at the follow pace, each line once and in order, before the
/// hook's end.
#[test]
fn a_followed_hooks_log_is_printed_as_it_is_written_each_line_once() {
    let talky =
        job(4_000, false, &[(200, "connecting"), (1_300, "migrating 1/2"), (1_300, "migrating 2/2"), (3_500, "done")]);
    let mut sim = world(&[("migrate", &[("helm.sh/show-output", "true")], talky)]);
    let (outcome, said) = run(&mut sim, request(1, 300_000, false));
    assert_eq!(outcome.summary.outcome, RunEnd::Succeeded, "{said:?}");
    let logs: Vec<&str> = said.iter().filter(|l| l.starts_with("log ")).map(String::as_str).collect();
    let lines: Vec<&str> = logs.iter().flat_map(|l| l["log Job/migrate: ".len()..].lines()).collect();
    assert_eq!(lines, ["connecting", "migrating 1/2", "migrating 2/2", "done"], "{said:?}");
    assert!(logs.len() >= 3, "read as they came, not at the end: {said:?}");
    let end = said.iter().position(|l| l.contains("Succeeded Job/migrate")).unwrap();
    let last_log = said.iter().rposition(|l| l.starts_with("log ")).unwrap();
    assert!(last_log < end, "{said:?}");
}
