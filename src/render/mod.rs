//! Every report a command prints, in every format it offers: a plan, a lint
//! report, a run's summary, what a deploy, rollback or uninstall did, a
//! dry run's preview, a status. One file per format ([`format::Format`]),
//! each rendering the report kinds it supports; the functions here pick
//! the file for the format asked, so that a command's CLI file hands over
//! what its action returned and never names a format's renderer.
//! What a run or deploy did is also a timeline ([`report`]), which
//! Markdown draws as a Mermaid chart.

pub mod dot;
pub mod format;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod mermaid;
pub mod picture;
pub mod progress;
pub mod report;
pub mod text;
pub mod yaml;

use format::Format;

use crate::action::status::StatusOutcome;
use crate::deploy::preview::{Preview, UninstallPreview};
use crate::deploy::Report;
use crate::exec::run::Summary;
use crate::model::diagnostic::Diagnostics;
use crate::model::input::{self, Release};
use crate::model::reference::ObjectRef;
use crate::plan::{EventPlan, ItemId, Plan, Target};

// Each command's parser refuses the formats the command does not offer
// (`cli::spec`): those never reach the functions below, which give them
// the text.

/// `plan`: `input` is what the release was read as.
pub fn plan(output: Format, release: &Release, input: input::InputFormat, plan: &Plan, diags: &Diagnostics) -> String {
    match output {
        Format::Json => json::plan(release, input, plan, diags),
        Format::Yaml => yaml::plan(release, input, plan, diags),
        Format::Dot => dot::plan(plan),
        Format::Mermaid => mermaid::plan(plan),
        Format::Text | Format::Junit | Format::Markdown => text::plan(release, plan),
    }
}

/// `lint`: every problem, as every command gives it; `strict` (`lint
/// --strict`): warnings shown as the errors they then are.
pub fn lint(output: Format, release: &Release, diags: &Diagnostics, strict: bool) -> String {
    match output {
        Format::Json => json::lint(diags, strict),
        Format::Yaml => yaml::lint(diags, strict),
        _ => text::lint(release, diags, strict),
    }
}

/// Whose hooks or resources a report is about, as its heading names them.
#[derive(Debug, Clone, Copy)]
pub struct Whose<'a> {
    pub release: &'a str,
    pub namespace: Option<&'a str>,
    pub revision: Option<u64>,
}

/// `run`: what the run of one event's hooks did.
pub fn run(output: Format, whose: Whose, summary: &Summary) -> String {
    match output {
        Format::Json => json::summary(summary),
        Format::Yaml => yaml::summary(summary),
        Format::Junit => junit::summary(summary, whose.release),
        Format::Markdown => {
            let t =
                report::from_run(report::ReportedCommand::Run, summary, whose.release, whose.namespace, whose.revision);
            markdown::render(&t)
        }
        Format::Text | Format::Dot | Format::Mermaid => text::run::summary_in(summary, whose.namespace),
    }
}

/// `status`: the last run of an event's hooks as the release record keeps it.
pub fn status(output: Format, s: &StatusOutcome) -> String {
    match output {
        Format::Json => json::summary(&s.summary),
        Format::Yaml => yaml::summary(&s.summary),
        Format::Junit => junit::summary(&s.summary, &s.release),
        Format::Markdown => markdown::render(&report::from_run(
            report::ReportedCommand::Status,
            &s.summary,
            &s.release,
            Some(&s.namespace),
            Some(s.revision),
        )),
        Format::Text | Format::Dot | Format::Mermaid => text::run::status(s),
    }
}

/// `deploy`, `rollback` and `uninstall`: what the operation did.
pub fn deploy(output: Format, command: report::ReportedCommand, r: &Report) -> String {
    match output {
        Format::Json => json::report(r),
        Format::Yaml => yaml::report(r),
        Format::Markdown => markdown::render(&report::from_deploy(command, r)),
        Format::Text | Format::Junit | Format::Dot | Format::Mermaid => text::deploy::report(r),
    }
}

/// `deploy --dry-run` and `rollback --dry-run`: what would be done.
pub fn preview(output: Format, p: &Preview) -> String {
    match output {
        Format::Json => json::preview(p),
        Format::Yaml => yaml::preview(p),
        _ => text::preview::preview(p),
    }
}

/// `uninstall --dry-run`: what would be deleted and run.
pub fn uninstall_preview(output: Format, p: &UninstallPreview) -> String {
    match output {
        Format::Json => json::preview(p),
        Format::Yaml => yaml::preview(p),
        _ => text::preview::uninstall_preview(p),
    }
}

/// Facts about an item that every renderer shows, read from the release.
pub(crate) struct ItemFacts<'a> {
    pub source: &'a str,
    pub fail_fast: bool,
    pub show_output: bool,
    /// `helm.sh/hook-timeout`.
    pub timeout_ms: Option<crate::base::time::Millis>,
    pub delete_policies: &'a [crate::model::hook::DeletePolicy],
    pub output_log_policies: &'a [crate::model::hook::OutputLogPolicy],
    pub readiness: Option<&'a crate::model::readiness::Readiness>,
    pub external: &'a [crate::model::external::External],
}

pub(crate) fn facts<'a>(release: &'a Release, plan: &EventPlan, i: ItemId) -> ItemFacts<'a> {
    let index = plan.items[i].index;
    match plan.target {
        Target::Hooks(_) => {
            let h = &release.hooks[index];
            ItemFacts {
                source: &h.source,
                fail_fast: h.fail_fast,
                show_output: h.show_output,
                timeout_ms: h.timeout_ms,
                delete_policies: &h.delete_policies,
                output_log_policies: &h.output_log_policies,
                readiness: None,
                external: &[],
            }
        }
        Target::Install => {
            let r = &release.resources[index];
            ItemFacts {
                source: &r.source,
                fail_fast: false,
                show_output: false,
                timeout_ms: None,
                delete_policies: &[],
                output_log_policies: &[],
                readiness: r.readiness.as_ref(),
                external: &r.external,
            }
        }
    }
}

pub(crate) fn refs(plan: &EventPlan, items: &[ItemId]) -> Vec<String> {
    items.iter().map(|&i| plan.items[i].reference.to_string()).collect()
}

pub use crate::base::text::WIDTH;

/// A stable identifier for graph formats: letters, digits and underscores.
pub(crate) fn node_id(target: &str, r: &ObjectRef) -> String {
    let raw = format!("{target}_{r}");
    raw.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>()
        + &format!("_{:x}", fnv(&raw))
}

fn fnv(s: &str) -> u32 {
    s.bytes().fold(0x811c9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x01000193))
}

/// `s` with every control character but the line break shown as its
/// Unicode control picture (NUL as ␀): Graphviz reads its input as C
/// strings, so a NUL in a name cut the graph short, and Mermaid takes
/// other control characters as the end of a label (issue 33).
pub(crate) fn visible_controls(s: &str) -> std::borrow::Cow<'_, str> {
    let picture = |c: char| match c {
        '\n' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if c.is_control() => '\u{fffd}',
        c => c,
    };
    if s.chars().any(|c| c != '\n' && c.is_control()) {
        s.chars().map(picture).collect::<String>().into()
    } else {
        s.into()
    }
}
