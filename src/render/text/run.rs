//! `run -o text` and `status -o text`: the table of the hooks a run ran, and
//! how many ended each way.

use crate::action::status::StatusOutcome;
use crate::base::time::{format_duration, go_time};
use crate::exec::executor::{LeftRunning, Phase};
use crate::exec::runner::{Summary, Totals};
use crate::model::event::Event;
use crate::model::reference::ObjectRef;
use crate::render::object_names::local_name;

/// The final table: hook, weight, phase, started, duration.
pub fn summary(s: &Summary) -> String {
    summary_in(s, None)
}

/// [`summary`] of a run of a release in `namespace`, which its hooks are
/// named without and the command to remove a hook left running names.
pub fn summary_in(s: &Summary, namespace: Option<&str>) -> String {
    let mut rows: Vec<Vec<String>> =
        vec![vec!["HOOK".into(), "WEIGHT".into(), "PHASE".into(), "STARTED".into(), "DURATION".into()]];
    for r in &s.rows {
        let phase = match r.phase {
            Phase::Skipped => "Skipped",
            Phase::Pending => "Pending",
            Phase::Abandoned => "Abandoned",
            p => p.helm(),
        };
        rows.push(vec![
            local_name(&r.reference, namespace),
            r.weight.to_string(),
            phase.to_string(),
            r.started_at
                .map(|t| format!("+{}", format_duration(t.saturating_sub(s.started_at) / 100 * 100)))
                .unwrap_or_else(|| "-".into()),
            match (r.started_at, r.completed_at) {
                (Some(a), Some(b)) => format_duration(b.saturating_sub(a) / 100 * 100),
                (Some(_), None) if r.phase == Phase::Running => "still running".into(),
                _ => "-".into(),
            },
        ]);
    }
    let mut out = crate::base::text::table(&rows, "");
    let requests = s
        .api_requests
        .map(|(n, again)| format!(" ({})", crate::base::text::api_requests(n, again)))
        .unwrap_or_default();
    out.push_str(&format!(
        "{} of {}: {}, in {}{requests}\n",
        crate::base::text::count(s.rows.len(), "hook"),
        s.event,
        Totals::of(&s.rows).text(),
        format_duration(s.ended_at.saturating_sub(s.started_at) / 100 * 100)
    ));
    // Why a hook is not what the table's phase alone says (status: read from the
    // cluster, abandoned, run for another event).
    if s.annotate {
        for r in s.rows.iter().filter(|r| !r.message.is_empty()) {
            out.push_str(&format!("  {}: {}\n", r.reference, r.message));
        }
    }
    out.push_str(&left_running(&s.left_running, namespace));
    if let Some(e) = &s.error {
        out.push_str(&format!("Error: {e}\n"));
    }
    out
}

/// The hooks a run leaves running, and the command that removes them (one
/// per namespace): `Left running: Job/slow (timed out); remove with:` and
/// `  kubectl delete -n demo job/slow`. Empty when none is.
pub(in crate::render) fn left_running(left: &[(ObjectRef, LeftRunning)], namespace: Option<&str>) -> String {
    if left.is_empty() {
        return String::new();
    }
    let named: Vec<String> = left
        .iter()
        .map(|(r, why)| {
            let why = match why {
                LeftRunning::TimedOut => "timed out, no hook-failed delete policy",
                LeftRunning::NotAwaited => "not awaited after the fail-fast stop",
            };
            format!("{} ({why})", local_name(&r.to_string(), namespace))
        })
        .collect();
    let mut out = format!("Left running: {}; remove with:\n", named.join(", "));
    let mut by_namespace: Vec<(Option<&str>, Vec<String>)> = Vec::new();
    for (r, _) in left {
        let ns = r.namespace.as_deref().or(namespace);
        let object = format!("{}/{}", r.kind.to_ascii_lowercase(), r.name);
        match by_namespace.iter_mut().find(|(n, _)| *n == ns) {
            Some((_, objects)) => objects.push(object),
            None => by_namespace.push((ns, vec![object])),
        }
    }
    for (ns, objects) in by_namespace {
        let ns = ns.map(|n| format!(" -n {n}")).unwrap_or_default();
        out.push_str(&format!("  kubectl delete{ns} {}\n", objects.join(" ")));
    }
    out
}

/// The line a run opens with: `Running 2 test hooks of release r, revision
/// 3, --parallel 1`.
pub(in crate::render) fn run_header(
    hooks: usize,
    event: Event,
    release: &str,
    revision: Option<u64>,
    parallel: usize,
) -> String {
    let revision = revision.map(|r| format!(", revision {r}")).unwrap_or_default();
    format!(
        "Running {} {} hook{} of release {}{revision}, --parallel {}\n",
        hooks,
        event,
        if hooks == 1 { "" } else { "s" },
        release,
        parallel
    )
}

/// `status -o text`: the summary headed by whose run it was and when, or
/// why there is none.
pub(in crate::render) fn status(s: &StatusOutcome) -> String {
    let header = header(s);
    let rows = &s.summary.rows;
    if rows.is_empty() {
        format!("{header}: it has no {} hooks\n", s.event)
    } else if rows.iter().all(|r| r.started_at.is_none()) {
        format!("{header}: no {} hook ran on this revision\n{}", s.event, summary_in(&s.summary, Some(&s.namespace)))
    } else {
        format!("{header}\n{}", summary_in(&s.summary, Some(&s.namespace)))
    }
}

/// `Release r in namespace ns, revision 3, an upgrade: the last run of its
/// pre-upgrade hooks, 2026-01-02T03:04:05Z to 2026-01-02T03:04:09Z`.
fn header(s: &StatusOutcome) -> String {
    let what = format!(
        "Release {} in namespace {}, {}",
        s.release,
        s.namespace,
        crate::release::hook_runs::revision_words(&s.release_json)
    );
    let summary = &s.summary;
    if summary.rows.iter().all(|r| r.started_at.is_none()) {
        return what;
    }
    format!(
        "{what}: the last run of its {} hooks, {} to {}",
        s.event,
        go_time(summary.started_at),
        go_time(summary.ended_at)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::runner::{HookRow, RunEnd};

    /// The header names the release, namespace, revision, what made it, the
    /// event and when its run was (issue 32).
    #[test]
    fn the_header_says_whose_run_and_when() {
        let json = serde_json::json!({"version": 2, "info": {"description": "Upgrade complete"}});
        let row = |started_at: Option<u64>| HookRow {
            reference: "Job/m".into(),
            weight: 0,
            phase: Phase::Succeeded,
            started_at,
            completed_at: started_at.map(|t| t + 2_000),
            message: String::new(),
            output: None,
            waiting: None,
        };
        let s = Summary {
            event: "pre-upgrade".into(),
            rows: vec![row(Some(1_767_323_045_000))],
            started_at: 1_767_323_045_000,
            ended_at: 1_767_323_047_000,
            outcome: RunEnd::Succeeded,
            error: None,
            failed_fast: None,
            api_requests: None,
            annotate: true,
            left_running: Vec::new(),
        };
        let mut outcome = StatusOutcome {
            release: "r".into(),
            namespace: "demo".into(),
            revision: 2,
            event: Event::PreUpgrade,
            release_json: json,
            summary: s,
        };
        assert_eq!(
            header(&outcome),
            "Release r in namespace demo, revision 2, an upgrade: the last run of its pre-upgrade hooks, \
             2026-01-02T03:04:05Z to 2026-01-02T03:04:07Z"
        );
        outcome.summary.rows = vec![row(None)];
        assert_eq!(header(&outcome), "Release r in namespace demo, revision 2, an upgrade");
    }
}
