//! `-o json` of every command: the stable schema documented in
//! docs/commands.md. Fields are only ever added, never renamed or removed.
//! `-o yaml` reads these documents back and writes them as YAML.

use serde::Serialize;
use serde_json::Value;

use super::item_facts::{facts, refs};
use crate::deploy::report::ResourceRow;
use crate::deploy::{Deletion, Ended, Report};
use crate::exec::executor::Millis;
use crate::exec::runner::{HookRow, RunEnd, Summary};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location, Severity};
use crate::model::input::{InputFormat, Release};
use crate::plan::{EventPlan, Plan, Reason, Target};

#[derive(Serialize)]
struct PlanJson<'a> {
    release: ReleaseJson<'a>,
    parallel: usize,
    parallel_all: bool,
    /// `--parallel-resources`; null: a whole batch at once.
    parallel_resources: Option<usize>,
    events: Vec<EventJson<'a>>,
    warnings: Vec<DiagJson<'a>>,
}

#[derive(Serialize)]
struct ReleaseJson<'a> {
    name: Option<&'a str>,
    namespace: Option<&'a str>,
    revision: Option<u64>,
    chart: &'a str,
    input: InputFormat,
}

#[derive(Serialize)]
struct EventJson<'a> {
    event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    hooks: Option<Vec<ItemJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resources: Option<Vec<ItemJson>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    batches: Option<Vec<BatchJson>>,
    waves: Vec<Vec<String>>,
    critical_path: Vec<String>,
    /// Why the items are ordered as they are (install: the batches).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    notes: &'a [String],
    /// Hooks that could run in parallel and do not.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    hints: &'a [String],
    /// Run time if each hook took as long as its last run (release JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<crate::plan::event_plan::Estimate>,
}

#[derive(Serialize)]
struct ItemJson {
    #[serde(rename = "ref")]
    reference: String,
    kind: String,
    name: String,
    namespace: Option<String>,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    batch: Option<i64>,
    parallel: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    fail_fast: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    show_output: bool,
    /// `helm.sh/hook-timeout`, in Go's duration syntax (`3s`, `1m30s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    delete_policies: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    output_log_policies: Vec<String>,
    /// HIP-0025 readiness expressions (resources).
    #[serde(skip_serializing_if = "Option::is_none")]
    readiness: Option<ReadinessJson>,
    /// Direct predecessors in the same weight (or batch).
    after: Vec<String>,
    depends_on: Vec<String>,
    /// `helm.sh/depends-on-external` (resources): objects outside the release.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    external: Vec<ExternalJson>,
    /// The weight (or batch) all of whose items finish before this one starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    after_weight: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    after_batch: Option<i64>,
}

#[derive(Serialize)]
struct ExternalJson {
    #[serde(rename = "ref")]
    reference: String,
    wait: crate::model::external::Wait,
}

#[derive(Serialize)]
struct ReadinessJson {
    success: Vec<String>,
    failure: Vec<String>,
}

#[derive(Serialize)]
struct BatchJson {
    chart: String,
    /// Why the batch exists: `crds-and-namespaces`, `all-at-once`,
    /// `groups` or `unsequenced` (HIP-0025 chart levels).
    role: crate::plan::batch::Role,
    groups: Vec<String>,
    resources: Vec<String>,
}

pub fn plan(release: &Release, format: InputFormat, plan: &Plan, diags: &Diagnostics) -> String {
    serde_json::to_string_pretty(&plan_doc(release, format, plan, diags)).expect("plan serialises") + "\n"
}

fn plan_doc<'a>(release: &'a Release, format: InputFormat, plan: &'a Plan, diags: &'a Diagnostics) -> PlanJson<'a> {
    PlanJson {
        release: ReleaseJson {
            name: release.name.as_deref(),
            namespace: release.namespace.as_deref(),
            revision: release.revision,
            chart: &release.chart.name,
            input: format,
        },
        parallel: plan.options.parallel.max(1),
        parallel_all: plan.options.parallel_all,
        parallel_resources: plan.options.parallel_resources,
        events: plan.events.iter().map(|e| event(release, e)).collect(),
        warnings: diags.warnings().map(|d| DiagJson::new(d, false)).collect(),
    }
}

fn event<'a>(release: &Release, plan: &'a EventPlan) -> EventJson<'a> {
    let install = plan.target == Target::Install;
    let items: Vec<ItemJson> = plan
        .ids()
        .zip(&plan.items)
        .map(|(i, it)| {
            let f = facts(release, plan, i);
            let pick = |reason: Reason| -> Vec<String> {
                it.after
                    .iter()
                    .filter(|(_, r)| *r == reason)
                    .map(|(p, _)| plan.items[*p].reference.to_string())
                    .collect()
            };
            ItemJson {
                reference: it.reference.to_string(),
                kind: it.reference.kind.clone(),
                name: it.reference.name.clone(),
                namespace: it.reference.namespace.clone(),
                source: f.source.to_string(),
                weight: (!install).then_some(it.level),
                batch: install.then(|| it.level + 1),
                parallel: it.parallel,
                fail_fast: f.fail_fast,
                show_output: f.show_output,
                timeout: f.timeout_ms.map(crate::base::time::format_duration),
                delete_policies: f.delete_policies.iter().map(ToString::to_string).collect(),
                output_log_policies: f.output_log_policies.iter().map(ToString::to_string).collect(),
                readiness: f.readiness.map(|r| ReadinessJson {
                    success: r.success.iter().map(|e| e.text.clone()).collect(),
                    failure: r.failure.iter().map(|e| e.text.clone()).collect(),
                }),
                after: it.after.iter().map(|(p, _)| plan.items[*p].reference.to_string()).collect(),
                depends_on: pick(Reason::DependsOn),
                external: f.external.iter().map(|e| ExternalJson { reference: e.object(), wait: e.wait }).collect(),
                after_weight: if install { None } else { it.after_level },
                after_batch: if install { it.after_level.map(|l| l + 1) } else { None },
            }
        })
        .collect();
    let (hooks, resources) = if install { (None, Some(items)) } else { (Some(items), None) };
    EventJson {
        event: plan.target.name(),
        hooks,
        resources,
        batches: install.then(|| {
            plan.batches
                .iter()
                .map(|b| BatchJson {
                    chart: b.chart.clone(),
                    role: b.role,
                    groups: b.groups.clone(),
                    resources: b.resources.iter().map(|&i| release.resources[i].reference().to_string()).collect(),
                })
                .collect()
        }),
        waves: plan.waves.iter().map(|w| refs(plan, w)).collect(),
        critical_path: refs(plan, &plan.critical_path),
        notes: &plan.notes,
        hints: &plan.hints,
        estimate: plan.estimate,
    }
}

#[derive(Serialize)]
struct LintJson<'a> {
    errors: Vec<DiagJson<'a>>,
    warnings: Vec<DiagJson<'a>>,
}

/// One problem, in both `plan` warnings and `lint` output: its severity,
/// where it is (template path and object), the annotation, what is wrong
/// and how to fix it.
#[derive(Serialize)]
struct DiagJson<'a> {
    severity: Severity,
    location: &'a Location,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotation: Option<&'a str>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
}

impl<'a> DiagJson<'a> {
    /// `strict` (`lint --strict`): a warning is an error.
    fn new(d: &'a Diagnostic, strict: bool) -> Self {
        DiagJson {
            severity: if d.is_error() || strict { Severity::Error } else { d.severity },
            location: &d.location,
            annotation: d.annotation.as_deref(),
            message: &d.message,
            help: d.help.as_deref(),
        }
    }
}

/// `lint -o json`: every problem; with `strict`, every warning an error.
pub fn lint(diags: &Diagnostics, strict: bool) -> String {
    serde_json::to_string_pretty(&lint_doc(diags, strict)).expect("lint serialises") + "\n"
}

fn lint_doc(diags: &Diagnostics, strict: bool) -> LintJson<'_> {
    let fails = |d: &Diagnostic| d.is_error() || strict;
    LintJson {
        errors: diags.0.iter().filter(|d| fails(d)).map(|d| DiagJson::new(d, strict)).collect(),
        warnings: diags.0.iter().filter(|d| !fails(d)).map(|d| DiagJson::new(d, strict)).collect(),
    }
}

#[derive(serde::Serialize)]
struct SummaryJson<'a> {
    event: &'a str,
    outcome: &'static str,
    started_at: Millis,
    ended_at: Millis,
    #[serde(skip_serializing_if = "Option::is_none")]
    failed_fast: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    api_requests: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    api_requests_repeated: Option<u64>,
    hooks: &'a [HookRow],
}

/// `run -o json` and `status -o json`.
pub fn summary(s: &Summary) -> String {
    serde_json::to_string_pretty(&summary_value(s)).expect("summary serialises") + "\n"
}

/// The document of [`summary`] (also each event's entry in `deploy -o json`'s `hooks`).
pub(super) fn summary_value(s: &Summary) -> serde_json::Value {
    let doc = SummaryJson {
        event: &s.event,
        outcome: match s.outcome {
            RunEnd::Succeeded => "succeeded",
            RunEnd::Failed => "failed",
            RunEnd::ClusterError => "cluster-error",
        },
        started_at: s.started_at,
        ended_at: s.ended_at,
        failed_fast: s.failed_fast.as_deref(),
        error: s.error.as_ref().map(ToString::to_string),
        api_requests: s.api_requests.map(|(n, _)| n),
        api_requests_repeated: s.api_requests.map(|(_, again)| again),
        hooks: &s.rows,
    };
    serde_json::to_value(&doc).expect("summary serialises")
}

#[derive(serde::Serialize)]
struct ReportJson<'a> {
    operation: &'a str,
    release: &'a str,
    namespace: &'a str,
    revision: u64,
    status: &'a str,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    started_at: Millis,
    ended_at: Millis,
    api_requests: u64,
    api_requests_repeated: u64,
    resources: &'a [ResourceRow],
    deleted: &'a [String],
    /// The deletions batch by batch, with their times.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    deletions: &'a [Deletion],
    /// Each event's hooks as `run -o json` reports them, in the order they ran.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hooks: Vec<Value>,
    /// `--rollback-on-failure`: the uninstall or rollback that followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    recovery: Option<Value>,
}

/// `deploy`, `rollback` and `uninstall -o json`.
pub fn report(r: &Report) -> String {
    serde_json::to_string_pretty(&report_value(r)).expect("report serialises") + "\n"
}

/// The document of [`report`].
fn report_value(r: &Report) -> Value {
    let (outcome, error) = match &r.ended {
        Ended::Done => ("succeeded", None),
        Ended::Failed(e) if e.is_cluster() => ("cluster-error", Some(e.to_string())),
        Ended::Failed(e) => ("failed", Some(e.to_string())),
    };
    let doc = ReportJson {
        operation: r.operation.past_tense(),
        release: &r.release,
        namespace: &r.namespace,
        revision: r.revision,
        status: &r.status,
        outcome,
        error,
        started_at: r.started_at,
        ended_at: r.ended_at,
        api_requests: r.api_requests,
        api_requests_repeated: r.api_requests_repeated,
        resources: &r.resources,
        deleted: &r.deleted,
        deletions: &r.deletions,
        hooks: r.hooks.iter().map(summary_value).collect(),
        recovery: r.recovery.as_deref().map(report_value),
    };
    serde_json::to_value(&doc).expect("report serialises")
}

/// A `--dry-run` preview of `deploy`, `rollback` or `uninstall`, as its
/// fields are.
pub(super) fn preview<P: Serialize>(preview: &P) -> String {
    serde_json::to_string_pretty(preview).expect("preview serialises") + "\n"
}
