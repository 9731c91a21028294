//! Problems for a terminal: every command's diagnostics, and `lint -o text`.

use std::fmt::Write;

use super::plan::plural;
use crate::model::diagnostic::Diagnostics;
use crate::model::input::Release;

/// Diagnostics for a terminal, one block per problem, errors first, then a
/// count. `strict` (`lint --strict`): every warning is an error.
pub fn diagnostics(diags: &Diagnostics, strict: bool) -> String {
    let mut out = String::new();
    let is_error = |d: &crate::model::diagnostic::Diagnostic| d.is_error() || strict;
    let (errors, warnings): (Vec<_>, Vec<_>) = diags.0.iter().partition(|d| is_error(d));
    for d in errors.iter().chain(&warnings) {
        let mut d = (*d).clone();
        if is_error(&d) {
            d.severity = crate::model::diagnostic::Severity::Error;
        }
        let _ = writeln!(out, "{d}");
    }
    if !errors.is_empty() || !warnings.is_empty() {
        let _ = writeln!(
            out,
            "{} error{}, {} warning{}",
            errors.len(),
            plural(errors.len()),
            warnings.len(),
            plural(warnings.len())
        );
    }
    out
}

/// `lint -o text`: every problem, or that there is none.
pub fn lint(release: &Release, diags: &Diagnostics, strict: bool) -> String {
    let text = diagnostics(diags, strict);
    if !text.is_empty() {
        return text;
    }
    format!(
        "no problems in {} and {}\n",
        crate::base::text::count(release.hooks.len(), "hook"),
        crate::base::text::count(release.resources.len(), "resource")
    )
}
