//! Printing a plan or a lint report: text for people, JSON for tools, DOT
//! and Mermaid for pictures; and what a run or deploy did as a timeline
//! ([`report`]), in Markdown with a Mermaid chart ([`markdown`]).

pub mod dot;
pub mod format;
pub mod json;
pub mod markdown;
pub mod mermaid;
pub mod picture;
pub mod progress;
pub mod report;
pub mod stored;
pub mod text;

use crate::model::input::Release;
use crate::model::reference::ObjectRef;
use crate::plan::{EventPlan, ItemId, Target};

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
