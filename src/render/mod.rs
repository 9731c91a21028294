//! Printing a plan or a lint report: text for people, JSON for tools, DOT
//! and Mermaid for pictures; and what a run or deploy did as a timeline
//! ([`report`]), in Markdown with a Mermaid chart ([`markdown`]).

pub mod dot;
pub mod json;
pub mod markdown;
pub mod mermaid;
pub mod picture;
pub mod report;
pub mod text;

use crate::model::input::Release;
use crate::model::reference::ObjectRef;
use crate::plan::{EventPlan, Phase};

/// Facts about an item that every renderer shows, read from the release.
pub(crate) struct ItemFacts<'a> {
    pub source: &'a str,
    pub fail_fast: bool,
    pub show_output: bool,
    pub delete_policies: &'a [String],
    pub output_log_policies: &'a [String],
    pub readiness: Option<&'a crate::model::readiness::Readiness>,
    pub external: &'a [crate::model::external::External],
}

pub(crate) fn facts<'a>(release: &'a Release, plan: &EventPlan, i: usize) -> ItemFacts<'a> {
    let index = plan.items[i].index;
    match plan.phase {
        Phase::Hooks(_) => {
            let h = &release.hooks[index];
            ItemFacts {
                source: &h.source,
                fail_fast: h.fail_fast,
                show_output: h.show_output,
                delete_policies: &h.delete_policies,
                output_log_policies: &h.output_log_policies,
                readiness: None,
                external: &[],
            }
        }
        Phase::Install => {
            let r = &release.resources[index];
            ItemFacts {
                source: &r.source,
                fail_fast: false,
                show_output: false,
                delete_policies: &[],
                output_log_policies: &[],
                readiness: r.readiness.as_ref(),
                external: &r.external,
            }
        }
    }
}

pub(crate) fn refs(plan: &EventPlan, items: &[usize]) -> Vec<String> {
    items.iter().map(|&i| plan.items[i].reference.to_string()).collect()
}

/// Aligns rows into columns two spaces apart (the last column unpadded),
/// each line prefixed with `indent` and without trailing blanks.
pub fn table(rows: &[Vec<String>], indent: &str) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(indent);
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < row.len() {
                line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `1 hook`, `2 hooks`, `1 batch`, `3 batches`.
pub fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ if noun.ends_with("ch") || noun.ends_with('s') => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

/// `41 API requests`, or `41 API requests, 3 repeated after 429/5xx or a
/// lost connection` when the API server throttled or failed some of them.
pub fn api_requests(sent: u64, repeated: u64) -> String {
    match repeated {
        0 => format!("{sent} API requests"),
        _ => format!("{sent} API requests, {repeated} repeated after 429/5xx or a lost connection"),
    }
}

/// Lines of text no wider than [`WIDTH`] (a long word stays whole): the
/// first prefixed with `first`, the rest with `rest`. Lists of hundreds of
/// resources stay readable in a terminal.
pub fn wrap(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(first);
    let mut empty = true;
    for word in text.split(' ') {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(rest);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The width text output wraps at.
pub const WIDTH: usize = 100;

/// A stable identifier for graph formats: letters, digits and underscores.
pub(crate) fn node_id(phase: &str, r: &ObjectRef) -> String {
    let raw = format!("{phase}_{r}");
    raw.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>()
        + &format!("_{:x}", fnv(&raw))
}

fn fnv(s: &str) -> u32 {
    s.bytes().fold(0x811c9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x01000193))
}
