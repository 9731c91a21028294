//! `deploy`, `rollback` and `uninstall -o text`: what closes the command's
//! progress — the resources table and one line of outcome.

use crate::base::time::format_duration;
use crate::deploy::{Ended, Report};
use crate::release::record::Operation;

/// The closing text: the resources table and one line of outcome. After a
/// `--rollback-on-failure` recovery the failed operation's table has been
/// shown already: the recovery's summary and Helm's message close.
pub fn report(r: &Report) -> String {
    if let Some(recovery) = &r.recovery {
        let mut out = resources_table(recovery);
        if matches!(recovery.ended, Ended::Done) {
            out.push_str(&outcome_line(recovery));
        }
        if let Ended::Failed(e) = &r.ended {
            out.push_str(&format!("Error: {e}\n"));
        }
        return out;
    }
    let mut out = resources_table(r);
    out.push_str(&r.not_deleted);
    let left: Vec<_> = r.hooks.iter().flat_map(|h| h.left_running.iter().cloned()).collect();
    out.push_str(&super::run::left_running(&left, Some(&r.namespace)));
    if matches!(r.ended, Ended::Failed(_)) && r.resources.is_empty() && r.operation != Operation::Uninstall {
        // A failure before the first batch (a pre-hook, the record): said, as no table shows it.
        out.push_str("No resource was applied: the operation stopped before its resources.\n");
    }
    out.push_str(&outcome_line(r));
    if matches!(r.ended, Ended::Done) && !r.notes.is_empty() {
        out.push_str(&format!("NOTES:\n{}\n", r.notes));
    }
    out
}

fn outcome_line(r: &Report) -> String {
    let took = format_duration((r.ended_at - r.started_at) / 100 * 100);
    match &r.ended {
        Ended::Done => format!(
            "Release {:?} {} (namespace {}, revision {}, status {}) in {took} ({})\n",
            r.release,
            r.operation.past_tense(),
            r.namespace,
            r.revision,
            r.status,
            crate::base::text::api_requests(r.api_requests, r.api_requests_repeated)
        ),
        Ended::Failed(e) => format!(
            "Error: release {:?} revision {} is {}: {e}\n",
            r.release,
            r.revision,
            if r.status.is_empty() { "not stored" } else { &r.status }
        ),
    }
}

/// The resources, their batches, states and times.
pub(in crate::render) fn resources_table(r: &Report) -> String {
    let mut rows: Vec<Vec<String>> =
        vec![vec!["BATCH".into(), "RESOURCE".into(), "STATE".into(), "APPLIED".into(), "READY AFTER".into()]];
    for row in &r.resources {
        rows.push(vec![
            row.batch.to_string(),
            crate::render::object_names::local_name(&row.reference, Some(&r.namespace)),
            format!("{:?}", row.state),
            row.applied_at.map_or("-".into(), |t| format!("+{}", format_duration((t - r.started_at) / 100 * 100))),
            match (row.applied_at, row.ready_at) {
                (Some(a), Some(b)) => format_duration((b - a) / 100 * 100),
                _ => "-".into(),
            },
        ]);
    }
    if r.resources.is_empty() {
        String::new()
    } else {
        crate::base::text::table(&rows, "")
    }
}
