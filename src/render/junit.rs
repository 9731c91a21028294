//! `-o junit` of `run` and `status`: JUnit XML, one test case per hook, for
//! CI systems' test reports.

use crate::exec::executor::{Millis, Phase};
use crate::exec::runner::Summary;

/// JUnit XML: one test case per hook, for CI systems.
pub fn summary(s: &Summary, release: &str) -> String {
    let esc = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let count = |p: Phase| s.rows.iter().filter(|r| r.phase == p).count();
    let secs = |ms: Millis| format!("{:.3}", ms as f64 / 1000.0);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{}\">\n",
        esc(&format!("{release} {}", s.event)),
        s.rows.len(),
        count(Phase::Failed),
        count(Phase::Skipped) + count(Phase::Pending) + count(Phase::Running) + count(Phase::Abandoned),
        secs(s.ended_at.saturating_sub(s.started_at))
    ));
    for r in &s.rows {
        let time = match (r.started_at, r.completed_at) {
            (Some(a), Some(b)) => secs(b - a),
            _ => "0.000".into(),
        };
        out.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\" time=\"{time}\">",
            esc(release),
            esc(&r.reference)
        ));
        match r.phase {
            Phase::Failed => out.push_str(&format!("<failure message=\"{}\"/>", esc(&r.message))),
            Phase::Skipped | Phase::Pending if r.message.is_empty() => {
                out.push_str("<skipped message=\"not run: an earlier hook failed\"/>")
            }
            Phase::Running if r.message.is_empty() => {
                out.push_str("<skipped message=\"still running when the run stopped (fail-fast)\"/>")
            }
            Phase::Skipped | Phase::Pending | Phase::Running | Phase::Abandoned => {
                out.push_str(&format!("<skipped message=\"{}\"/>", esc(&r.message)))
            }
            Phase::Succeeded => {}
        }
        if let Some(o) = &r.output {
            out.push_str(&format!("<system-out>{}</system-out>", esc(o)));
        }
        out.push_str("</testcase>\n");
    }
    out.push_str("</testsuite>\n");
    out
}
