//! `-o markdown` (src/render/markdown.rs) on fixed timings: three goldens —
//! a passing run, a fail-fast stop, a deploy in several batches — made by
//! the real `run` command in the one simulated world (`seam::sim`), its
//! hooks through the real hook code, on a virtual clock (and, for the
//! deploy, its report as `deploy` returns it), so the Markdown is the same
//! on every machine. The same Markdown is what `scripts/check-mermaid.sh`
//! renders with the real Mermaid library.
//!
//! ```text
//! cargo test --test report_markdown                    # compare
//! UPDATE_GOLDEN=1 cargo test --test report_markdown    # rewrite tests/golden/report/
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use helm_hooks::action::run::RunRequest;
use helm_hooks::action::Action;
use helm_hooks::deploy::report::ResourceRow;
use helm_hooks::deploy::{Deletion, Diagnosis, Ended, Error, Report};
use helm_hooks::exec::rollout::ResourceState;
use helm_hooks::exec::runner::Summary;
use helm_hooks::model::event::Event;
use helm_hooks::release::record::Operation;
use helm_hooks::render::markdown;
use helm_hooks::render::timeline::{self, ReportedCommand};
use helm_hooks::seam::sim::{Script, Sim};
use serde_json::{json, Value};

/// 2026-01-02 03:04:05 UTC: every case starts here.
const T0: u64 = 1_767_323_045_000;

/// A hook: kind, name, annotations (beyond `helm.sh/hook`).
fn hook(event: &str, kind: &str, name: &str, extra: &[(&str, &str)]) -> String {
    let mut s = format!("kind: {kind}\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/hook: {event}\n");
    for (k, v) in extra {
        s.push_str(&format!("    {k}: {}\n", serde_json::to_string(v).unwrap()));
    }
    s
}

/// What every hook's container writes (ms after its start, line).
fn lines(name: &str) -> Vec<(u64, String)> {
    vec![
        (100, format!("checking {name}")),
        (200, "connecting to db:5432 | user=app <ok>".into()),
        (300, "ERROR: schema version 41 is older than 42 (run `migrate up`)".into()),
    ]
}

/// Runs `event`'s hooks of `docs` through the real `run` driver in the one
/// simulated world (`seam::sim`), from `start`: each hook's Job or Pod ends
/// as `behaviour` says (ms after its apply, succeeded), deleting a hook's
/// previous object takes 200 ms and storing the record 100 ms, as on a
/// cluster.
fn simulate(event: Event, docs: &[String], behaviour: &[(&str, u64, bool)], parallel: usize, start: u64) -> Summary {
    let mut sim = Sim::new("shop", start);
    (sim.delete_ms, sim.write_ms) = (200, 100);
    let ends: BTreeMap<&str, (u64, bool)> = behaviour.iter().map(|(n, ms, ok)| (*n, (*ms, *ok))).collect();
    let hooks: Vec<Value> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let field = |key: &str| d.lines().find_map(|l| l.trim().strip_prefix(key)).unwrap_or_default().to_string();
            let (kind, name) = (field("kind: "), field("name: "));
            let (ms, ok) = ends[name.as_str()];
            let script = Script { ends_after_ms: Some(ms), fails: !ok, lines: lines(&name), ..Script::default() };
            sim.scripts.insert(format!("{kind}/{name}"), script);
            json!({"name": name, "kind": kind, "path": format!("shop/templates/h{i:02}.yaml"), "manifest": d,
                "events": [event.as_str()], "last_run": {}})
        })
        .collect();
    sim.records.insert(
        1,
        json!({"name": "shop", "namespace": "shop", "version": 1,
            "info": {"status": "deployed", "description": "Install complete", "last_deployed": "2026-01-02T03:00:00Z"},
            "chart": {"metadata": {"name": "shop", "version": "1.0.0"}}, "manifest": "", "hooks": hooks}),
    );
    let request = RunRequest {
        release: "shop".into(),
        event,
        parallel,
        parallel_all: false,
        timeout_ms: 300_000,
        ignore_fail_fast: false,
        logs: false,
        include: Vec::new(),
        exclude: Vec::new(),
    };
    let mut summary = request.run(&mut sim, &mut ()).unwrap_or_else(|e| panic!("{e:?}")).summary;
    summary.api_requests = Some((57, 0));
    summary
}

const PAR: (&str, &str) = ("helm.sh/hook-parallel", "true");

/// `helm hooks run shop --event test --parallel 4`: a serial check, four
/// parallel suites (one of them the straggler), a smoke test last.
fn passing_run() -> Summary {
    let docs = [
        hook("test", "Job", "db-ready", &[("helm.sh/hook-weight", "-5")]),
        hook("test", "Job", "api-suite", &[PAR]),
        hook("test", "Job", "ui-suite", &[PAR]),
        hook("test", "Job", "search-suite", &[PAR]),
        hook("test", "Pod", "cache-check", &[PAR]),
        hook("test", "Job", "smoke", &[("helm.sh/hook-weight", "5")]),
    ];
    let behaviour = [
        ("db-ready", 3_400, true),
        ("api-suite", 12_300, true),
        ("ui-suite", 41_800, true),
        ("search-suite", 17_900, true),
        ("cache-check", 2_100, true),
        ("smoke", 5_600, true),
    ];
    simulate(Event::Test, &docs, &behaviour, 4, T0)
}

/// A fail-fast preflight fails while its siblings run: the run stops at
/// once, the siblings are cut short, the next weight never starts.
fn fail_fast_run() -> Summary {
    let ff = ("helm.sh/hook-fail-fast", "true");
    let show = ("helm.sh/show-output", "true");
    let docs = [
        hook("test", "Job", "preflight", &[PAR, ff, show]),
        hook("test", "Job", "api-suite", &[PAR]),
        hook("test", "Job", "ui-suite", &[PAR]),
        hook("test", "Job", "smoke", &[("helm.sh/hook-weight", "5")]),
        hook("test", "Job", "report", &[("helm.sh/hook-weight", "5")]),
    ];
    let behaviour = [
        ("preflight", 4_200, false),
        ("api-suite", 12_300, true),
        ("ui-suite", 41_800, true),
        ("smoke", 5_600, true),
        ("report", 1_000, true),
    ];
    simulate(Event::Test, &docs, &behaviour, 4, T0)
}

fn resource(batch: usize, reference: &str, applied: u64, ready: u64) -> ResourceRow {
    ResourceRow {
        reference: reference.into(),
        batch,
        state: ResourceState::Ready,
        applied_at: Some(T0 + applied),
        ready_at: Some(T0 + ready),
        failed_at: None,
        message: String::new(),
    }
}

/// `helm hooks deploy` of an upgrade: a pre-upgrade migration, three
/// batches (CRDs and Namespaces, the database group, the applications), a
/// removed ConfigMap deleted, a post-upgrade notification.
fn deploy_report() -> Report {
    let pre =
        simulate(Event::PreUpgrade, &[hook("pre-upgrade", "Job", "migrate", &[])], &[("migrate", 8_200, true)], 1, T0);
    let after_pre = pre.ended_at - T0;
    let at = |ms: u64| after_pre + ms;
    let resources = vec![
        resource(1, "CustomResourceDefinition/backups.shop.example.com", at(100), at(1_300)),
        resource(1, "Namespace/shop-data", at(100), at(400)),
        resource(2, "ConfigMap/db-config", at(1_500), at(1_600)),
        resource(2, "Secret/db-credentials", at(1_500), at(1_600)),
        resource(2, "Service/db", at(1_500), at(1_700)),
        resource(2, "StatefulSet/db", at(1_500), at(21_400)),
        resource(3, "ConfigMap/api-config", at(21_600), at(21_700)),
        resource(3, "Service/api", at(21_600), at(21_800)),
        resource(3, "Deployment/api", at(21_600), at(34_900)),
        resource(3, "Deployment/worker", at(21_600), at(29_300)),
        resource(3, "Ingress/shop", at(21_600), at(22_100)),
    ];
    let deletions = vec![Deletion {
        resources: vec!["ConfigMap/legacy-flags".into()],
        started_at: T0 + at(35_000),
        ended_at: T0 + at(36_100),
    }];
    let post = simulate(
        Event::PostUpgrade,
        &[hook("post-upgrade", "Job", "notify", &[])],
        &[("notify", 2_300, true)],
        1,
        T0 + at(36_200),
    );
    Report {
        operation: Operation::Upgrade,
        release: "shop".into(),
        namespace: "shop".into(),
        revision: 7,
        status: "deployed".into(),
        resources,
        deleted: vec!["ConfigMap/legacy-flags".into()],
        deletions,
        started_at: T0 - 300,
        ended_at: post.ended_at + 200,
        hooks: vec![pre, post],
        api_requests: 143,
        api_requests_repeated: 2,
        ended: Ended::Done,
        notes: String::new(),
        not_deleted: String::new(),
        recovery: None,
    }
}

fn cases() -> Vec<(&'static str, String)> {
    let run =
        |s: &Summary| markdown::render(&timeline::from_run(ReportedCommand::Run, s, "shop", Some("shop"), Some(6)));
    vec![
        ("run-passed", run(&passing_run())),
        ("run-fail-fast", run(&fail_fast_run())),
        ("deploy-batches", markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &deploy_report()))),
    ]
}

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/report").join(format!("{name}.md"))
}

#[test]
fn markdown_matches_the_goldens() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0");
    let mut failures = Vec::new();
    for (name, actual) in cases() {
        let path = golden(name);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(_) => failures.push(format!("{} differs (UPDATE_GOLDEN=1 rewrites it):\n{actual}", path.display())),
            Err(e) => failures.push(format!("{}: {e}; UPDATE_GOLDEN=1 creates it:\n{actual}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Every bar of the chart: (label, tags, start, end) from `name :tags, id, start, end`.
pub fn bars(markdown: &str) -> Vec<(String, String, u64, u64)> {
    let chart = markdown.split("```mermaid\n").nth(1).expect("a chart").split("```").next().unwrap();
    chart
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| {
            let (label, rest) = l.trim().rsplit_once(" :").expect(l);
            let parts: Vec<&str> = rest.split(", ").collect();
            let n = parts.len();
            (label.to_string(), parts[..n - 3].join(", "), parts[n - 2].parse().unwrap(), parts[n - 1].parse().unwrap())
        })
        .collect()
}

/// The bar of `reference` (labels start with it).
fn bar_of<'a>(bars: &'a [(String, String, u64, u64)], reference: &str) -> &'a (String, String, u64, u64) {
    bars.iter()
        .find(|b| b.0.split(' ').next() == Some(reference))
        .unwrap_or_else(|| panic!("no bar for {reference}: {bars:?}"))
}

/// The chart's bars carry the very times `-o json` reports for the same
/// run: each hook's and resource's start and end, to the millisecond.
#[test]
fn chart_times_are_the_json_times() {
    for summary in [passing_run(), fail_fast_run()] {
        let md = markdown::render(&timeline::from_run(ReportedCommand::Run, &summary, "shop", None, None));
        let json: Value = serde_json::from_str(&helm_hooks::render::json::summary(&summary)).unwrap();
        let bars = bars(&md);
        for h in json["hooks"].as_array().unwrap() {
            let b = bar_of(&bars, h["ref"].as_str().unwrap());
            match (h["started_at"].as_u64(), h["completed_at"].as_u64()) {
                (Some(s), Some(e)) => assert_eq!((b.2, b.3), (s, e), "{b:?} against {h}"),
                // Cut short: from its start to the run's end.
                (Some(s), None) => assert_eq!((b.2, b.3), (s, json["ended_at"].as_u64().unwrap()), "{b:?}"),
                // Not run: a milestone where the run stopped.
                _ => assert_eq!((b.2, b.3), (json["ended_at"].as_u64().unwrap(), json["ended_at"].as_u64().unwrap())),
            }
        }
    }
    let report = deploy_report();
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &report));
    let json: Value = serde_json::from_str(&helm_hooks::render::json::report(&report)).unwrap();
    let bars = bars(&md);
    for r in json["resources"].as_array().unwrap() {
        let b = bar_of(&bars, r["ref"].as_str().unwrap());
        assert_eq!(
            (b.2, b.3),
            (r["applied_at"].as_u64().unwrap(), r["ready_at"].as_u64().unwrap()),
            "{b:?} against {r}"
        );
    }
    for event in json["hooks"].as_array().unwrap() {
        for h in event["hooks"].as_array().unwrap() {
            let b = bar_of(&bars, h["ref"].as_str().unwrap());
            assert_eq!((b.2, b.3), (h["started_at"].as_u64().unwrap(), h["completed_at"].as_u64().unwrap()));
        }
    }
    let d = &json["deletions"][0];
    let b = bar_of(&bars, "ConfigMap/legacy-flags");
    assert_eq!((b.2, b.3), (d["started_at"].as_u64().unwrap(), d["ended_at"].as_u64().unwrap()));
}

/// What each case must show, beyond the goldens' exact text.
#[test]
fn each_case_says_what_happened() {
    let cases = cases();
    let (_, passed) = &cases[0];
    let b = bars(passed);
    assert!(passed.starts_with("### ✅ helm hooks run: test hooks of `shop` succeeded"), "{passed}");
    // The straggler of the parallel weight is on the critical path, its siblings grey.
    assert_eq!(bar_of(&b, "Job/ui-suite").1, "");
    assert_eq!(bar_of(&b, "Job/api-suite").1, "done");
    assert_eq!(bar_of(&b, "Job/db-ready").1, "");
    assert_eq!(bar_of(&b, "Job/smoke").1, "");

    let (_, ff) = &cases[1];
    let b = bars(ff);
    assert!(ff.starts_with("### ❌ helm hooks run: test hooks of `shop` failed fast"), "{ff}");
    assert_eq!(bar_of(&b, "Job/preflight").1, "crit");
    assert_eq!(bar_of(&b, "Job/api-suite").1, "crit, active");
    assert_eq!(bar_of(&b, "Job/smoke").1, "active, milestone");
    // The failed hook's output, folded, escaped where it could break the page.
    assert!(ff.contains("<details><summary>Output of Job/preflight (failed)</summary>"), "{ff}");
    assert!(ff.contains("  connecting to db:5432 | user=app <ok>\n"), "logs are verbatim inside the fence: {ff}");

    let (_, deploy) = &cases[2];
    let b = bars(deploy);
    for section in ["pre-upgrade, weight 0", "batch 1", "batch 2", "batch 3", "deletion 1", "post-upgrade, weight 0"] {
        assert!(deploy.contains(&format!("  section {section}\n")), "{section}: {deploy}");
    }
    assert_eq!(bar_of(&b, "StatefulSet/db").1, "", "batch 2's straggler");
    assert_eq!(bar_of(&b, "Deployment/api").1, "", "batch 3's straggler");
    assert_eq!(bar_of(&b, "Deployment/worker").1, "done");
}

/// A long release stays a readable chart: a batch of 120 ConfigMaps and a
/// chain of 200 serial hooks fold, failures stay one by one, and every
/// item is still in the (folded) table.
#[test]
fn long_releases_fold() {
    let mut docs = Vec::new();
    let mut behaviour = Vec::new();
    let names: Vec<String> = (0..200).map(|i| format!("step-{i:03}")).collect();
    for (i, n) in names.iter().enumerate() {
        docs.push(hook("test", "Job", n, &[("helm.sh/hook-weight", &i.to_string())]));
        behaviour.push((n.as_str(), 1_000 + (i as u64 % 7) * 100, i != 150));
    }
    let s = simulate(Event::Test, &docs, &behaviour, 1, T0);
    let md = markdown::render(&timeline::from_run(ReportedCommand::Run, &s, "big", None, None));
    let b = bars(&md);
    assert!(b.len() <= markdown::MAX_BARS, "{} bars", b.len());
    assert_eq!(bar_of(&b, "Job/step-150").1, "crit");
    assert!(md.contains("<details><summary>All 200 items</summary>"), "{md}");
    assert!(md.contains("`Job/step-199`"), "every item is in the table");

    let mut report = deploy_report();
    report.resources = (0..120).map(|i| resource(2, &format!("ConfigMap/cm-{i:03}"), 8_700, 8_800 + i)).collect();
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &report));
    let b = bars(&md);
    assert!(b.len() < 12, "{b:?}");
    assert!(b.iter().any(|x| x.0.starts_with("119 resources more (119 ConfigMap)")), "{b:?}");
    assert_eq!(bar_of(&b, "ConfigMap/cm-119").1, "", "the straggler stays");
}

/// A deploy whose batch 2 failed, rolled back by `--rollback-on-failure`: the failed
/// resource red until it failed, batch 3 not run, the error quoted with its pod output
/// folded, and the recovery's own report below.
#[test]
fn a_failed_deploy_and_its_recovery() {
    let mut report = deploy_report();
    report.hooks.truncate(1);
    report.deletions.clear();
    for r in &mut report.resources {
        match (r.batch, r.reference.as_str()) {
            (2, "StatefulSet/db") => {
                r.state = ResourceState::Failed;
                r.failed_at = Some(T0 + 70_000);
                r.ready_at = None;
                r.message = "not ready after 1m: 0/1 replicas ready".into();
            }
            (3, _) => {
                r.state = ResourceState::Skipped;
                (r.applied_at, r.ready_at) = (None, None);
            }
            _ => {}
        }
    }
    report.ended_at = T0 + 70_500;
    report.status = "failed".into();
    report.ended = Ended::Failed(Error::NotReady {
        reference: "StatefulSet/db".into(),
        reason: "0/1 replicas ready".into(),
        diagnosis: Diagnosis { explanation: Vec::new(), output: Some("Pod db-0 output:\n  FATAL: bad config".into()) },
    });
    let mut recovery = deploy_report();
    recovery.operation = Operation::Rollback { to: 6 };
    recovery.revision = 8;
    report.recovery = Some(Box::new(recovery));
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &report));
    let b = bars(&md);
    assert!(md.starts_with("### ❌ helm hooks deploy: upgrade of `shop` failed\n"), "{md}");
    assert_eq!(bar_of(&b, "StatefulSet/db").1, "crit", "{md}");
    assert_eq!(bar_of(&b, "StatefulSet/db").3, T0 + 70_000, "{md}");
    assert_eq!(bar_of(&b, "Deployment/api").1, "active, milestone", "{md}");
    assert!(md.contains("> **Error:** StatefulSet/db is not ready: 0/1 replicas ready\n"), "{md}");
    assert!(
        md.contains(
            "<details><summary>The whole error</summary>\n\n```text\nPod db-0 output:\n  FATAL: bad config\n```"
        ),
        "{md}"
    );
    assert!(
        md.contains("**`--rollback-on-failure`:**\n\n#### ✅ helm hooks rollback: rollback of `shop` succeeded"),
        "{md}"
    );
    assert!(
        md.contains("**1 hook: 1 succeeded, 0 failed, 0 not run; 11 resources: 5 ready, 1 failed, 5 not run**"),
        "{md}"
    );
    if let Some(dir) = std::env::var_os("HOOKS_REPORT_DIR").filter(|d| !d.is_empty()) {
        std::fs::write(PathBuf::from(dir).join("deploy-failed.md"), &md).unwrap();
    }
}

/// The chart's title says what the report is of once, as the heading does: an
/// uninstall's read `uninstall uninstall of shop` (issue 41).
#[test]
fn the_chart_title_names_the_operation_once() {
    let title = |md: &str| md.lines().find_map(|l| l.strip_prefix("  title ")).unwrap_or_default().to_string();
    for (operation, command, want) in [
        (Operation::Upgrade, ReportedCommand::Deploy, "upgrade of shop"),
        (Operation::Install, ReportedCommand::Deploy, "install of shop"),
        (Operation::Rollback { to: 6 }, ReportedCommand::Rollback, "rollback of shop"),
        (Operation::Uninstall, ReportedCommand::Uninstall, "uninstall of shop"),
    ] {
        let mut r = deploy_report();
        r.operation = operation;
        assert_eq!(title(&markdown::render(&timeline::from_deploy(command, &r))), want);
    }
    let run =
        markdown::render(&timeline::from_run(ReportedCommand::Run, &passing_run(), "shop", Some("shop"), Some(6)));
    assert_eq!(title(&run), "test hooks of shop");
}

/// A resource ready the moment it was applied is a visible bar, a hundredth
/// of the chart long, its label keeping the observed `0s` (issue 32).
#[test]
fn resources_ready_on_apply_are_visible_bars() {
    let mut r = deploy_report();
    let applied = r.resources[0].applied_at;
    r.resources[0].ready_at = applied;
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &r));
    let b = bar_of(&bars(&md), "CustomResourceDefinition/backups.shop.example.com").clone();
    let span = r.ended_at - r.started_at;
    assert_eq!((b.2, b.3), (applied.unwrap(), applied.unwrap() + span / 100), "{md}");
    assert!(b.0.ends_with(" 0s"), "the label keeps the observed time: {b:?}");
}

/// An install that failed at its pre-install hooks says its resources were
/// never applied, in the report and in the text (issue 32).
#[test]
fn a_failed_install_says_its_resources_were_never_applied() {
    let pre =
        simulate(Event::PreInstall, &[hook("pre-install", "Job", "migrate", &[])], &[("migrate", 2_000, false)], 1, T0);
    let failed = vec![helm_hooks::deploy::HookFailure { reference: "Job/migrate".into(), message: "boom".into() }];
    let r = Report {
        operation: Operation::Install,
        revision: 1,
        status: "failed".into(),
        resources: Vec::new(),
        deleted: Vec::new(),
        deletions: Vec::new(),
        started_at: T0,
        ended_at: pre.ended_at,
        hooks: vec![pre],
        ended: Ended::Failed(Error::Hooks { event: Event::PreInstall, failed }),
        ..deploy_report()
    };
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &r));
    assert!(
        md.contains("**No resource was applied:** the install stopped before its resources, so none of them reached the cluster."),
        "{md}"
    );
    let text = helm_hooks::render::text::deploy::report(&r);
    assert!(text.contains("No resource was applied: the operation stopped before its resources.\n"), "{text}");
    // A deploy that reached its resources says nothing of the kind.
    let md = markdown::render(&timeline::from_deploy(ReportedCommand::Deploy, &deploy_report()));
    assert!(!md.contains("No resource was applied"), "{md}");
}
