//! `HELM_HOOKS_TRACE=1`: a timeline of the plugin's own work on stderr, for
//! the profiles of docs/benchmarks.md ("Where the time goes on stock Helm").
//!
//! Each line is `[trace <unix ms> +<ms since the plugin started>] <what>`:
//! the absolute time lets a benchmark put the plugin's start beside the
//! moment it launched `helm` (Helm's own start and its load of plugin.wasm),
//! the relative one reads at a glance. Every API request is a line (method,
//! path, status, bytes, how long it took), and so is each step of the
//! commands that `span` wraps. Off (one environment lookup) unless asked for:
//! Helm passes its whole environment to the plugin.

use std::sync::OnceLock;

use crate::base::time::wall_ms;

struct State {
    start: u64,
}

fn state() -> Option<&'static State> {
    static STATE: OnceLock<Option<State>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            let on = std::env::var("HELM_HOOKS_TRACE").is_ok_and(|v| !v.is_empty() && v != "0");
            on.then(|| State { start: wall_ms() })
        })
        .as_ref()
}

/// Starts the clock (the first call of a command), so that `+0` is the
/// plugin's entry rather than its first trace line.
pub(crate) fn begin(what: &str) {
    event(|| what.to_string());
}

/// One line, built only when tracing is on.
fn event(what: impl FnOnce() -> String) {
    if let Some(s) = state() {
        let now = wall_ms();
        eprintln!("[trace {now} +{}] {}", now.saturating_sub(s.start), what());
    }
}

/// A step: its line, with how long it took, is written when it ends.
pub(crate) struct Span {
    what: Option<(String, u64)>,
}

pub(crate) fn span(what: impl FnOnce() -> String) -> Span {
    Span { what: state().map(|_| (what(), wall_ms())) }
}

impl Span {
    /// Adds to what the line says (a count known only at the end).
    pub(crate) fn note(&mut self, more: impl FnOnce() -> String) {
        if let Some((w, _)) = &mut self.what {
            w.push(' ');
            w.push_str(&more());
        }
    }
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some((what, started)) = self.what.take() {
            let took = wall_ms().saturating_sub(started);
            event(|| format!("{what} ({took} ms)"));
        }
    }
}
