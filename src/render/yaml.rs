//! `-o yaml`: the very document `-o json` writes, as YAML, where Helm users
//! reach for it (`helm status -o yaml`, `helm install -o yaml`). Keys come
//! sorted, as `serde_json`'s values keep them; the data is the same.
//!
//! A small writer rather than a crate: the project's YAML crate only reads.
//! It writes block style, and a string plain only when no YAML 1.1 reader
//! (which Kubernetes and `model::yaml` are) could take it for anything but
//! that string; any other string is double-quoted, every character a
//! reader would not keep escaped.

use serde::Serialize;
use serde_json::{Map, Number, Value};

use super::json;
use crate::deploy::Report;
use crate::exec::runner::Summary;
use crate::model::diagnostic::Diagnostics;
use crate::model::input::{InputFormat, Release};
use crate::plan::Plan;

pub(super) fn plan(release: &Release, input: InputFormat, plan: &Plan, diags: &Diagnostics) -> String {
    from_json(&json::plan(release, input, plan, diags))
}

pub(super) fn lint(diags: &Diagnostics, strict: bool) -> String {
    from_json(&json::lint(diags, strict))
}

/// `run` and `status`.
pub(super) fn summary(s: &Summary) -> String {
    from_json(&json::summary(s))
}

/// `deploy`, `rollback` and `uninstall`.
pub(super) fn report(r: &Report) -> String {
    from_json(&json::report(r))
}

/// A `--dry-run` preview.
pub(super) fn preview<P: Serialize>(p: &P) -> String {
    from_json(&json::preview(p))
}

/// The `-o json` document read back as a value, rather than each report
/// turned into a value directly: serde writes a copy of every field's
/// serialiser per target, and one more target cost plugin.wasm 20 KB.
fn from_json(text: &str) -> String {
    document(&serde_json::from_slice(text.as_bytes()).expect("-o json reads back as JSON"))
}

/// `v` as one YAML document.
fn document(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => mapping(&mut out, m, 0, false),
        Value::Array(a) if !a.is_empty() => sequence(&mut out, a, 0),
        _ => {
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
    out
}

/// `key: value` lines at `indent`; `inline`: the first is already placed
/// (after a sequence's `- `).
fn mapping(out: &mut String, m: &Map<String, Value>, indent: usize, inline: bool) {
    for (n, (k, v)) in m.iter().enumerate() {
        if n > 0 || !inline {
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(&string(k));
        out.push(':');
        after_key(out, v, indent);
    }
}

/// What follows `key:` of a mapping at `indent`.
fn after_key(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            mapping(out, m, indent + 2, false);
        }
        // A sequence under a key at the key's own indent, as kubectl writes.
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            sequence(out, a, indent);
        }
        _ => {
            out.push(' ');
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
}

fn sequence(out: &mut String, a: &[Value], indent: usize) {
    for v in a {
        out.push_str(&" ".repeat(indent));
        out.push('-');
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push(' ');
                mapping(out, m, indent + 2, true);
            }
            Value::Array(b) if !b.is_empty() => {
                out.push('\n');
                sequence(out, b, indent + 2);
            }
            _ => {
                out.push(' ');
                out.push_str(&scalar(v));
                out.push('\n');
            }
        }
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) => string(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

/// A float in YAML 1.1's form, which wants a point and a signed exponent
/// (`1.0e+300`, where JSON writes `1e300`).
fn number(n: &Number) -> String {
    let text = n.to_string();
    if !n.is_f64() {
        return text;
    }
    let (mantissa, exponent) = match text.split_once('e') {
        Some((m, e)) if e.starts_with('-') || e.starts_with('+') => (m.to_string(), format!("e{e}")),
        Some((m, e)) => (m.to_string(), format!("e+{e}")),
        None => (text.clone(), String::new()),
    };
    let point = if mantissa.contains('.') { "" } else { ".0" };
    format!("{mantissa}{point}{exponent}")
}

/// Plain when it is letters, digits and `_./ -` after a letter, and no word
/// YAML 1.1 reads as a boolean or null; else double-quoted.
fn string(s: &str) -> String {
    const WORDS: [&str; 9] = ["y", "yes", "n", "no", "true", "false", "on", "off", "null"];
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !s.ends_with(' ')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "_./ -".contains(c))
        && !WORDS.iter().any(|w| w.eq_ignore_ascii_case(s));
    if plain {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // What YAML does not print as itself: controls, the byte-order mark, non-characters.
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{fffe}' | '\u{ffff}') => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::yaml::to_json;

    #[test]
    fn a_plan_and_a_lint_in_yaml_are_their_json() {
        let chart = "---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: a\n  annotations:\n    \
                     helm.sh/hook: test,pre-install\n    helm.sh/hook-weight: \"-2\"\n    helm.sh/hook-timeout: 90s\n\
                     ---\n# Source: c/templates/b.yaml\nkind: ConfigMap\nmetadata:\n  name: \"yes\"\n\
                     ---\n# Source: c/templates/c.yaml\nkind: Job\nmetadata:\n  name: c\n  annotations:\n    \
                     helm.sh/hook: test\n    helm.sh/hook-weight: x\n";
        let mut diags = Diagnostics::default();
        let syntax = crate::model::manifest::Syntax::HeadOnly;
        let (input, release) = crate::model::input::parse_as(chart.as_bytes(), syntax, &mut diags).unwrap();
        let planned = crate::plan::build(&release, &[], crate::plan::PlanOptions::default(), &mut diags);
        let json: Value = serde_json::from_str(&json::plan(&release, input, &planned, &diags)).unwrap();
        let yaml = plan(&release, input, &planned, &diags);
        assert_eq!(to_json(&yaml).unwrap(), json, "{yaml}");
        assert!(!diags.0.is_empty(), "a warning to write");
        let json: Value = serde_json::from_str(&json::lint(&diags, false)).unwrap();
        assert_eq!(to_json(&lint(&diags, false)).unwrap(), json, "{}", lint(&diags, false));
    }

    #[test]
    fn a_run_summary_in_yaml_is_its_json() {
        use crate::exec::executor::Phase;
        use crate::exec::runner::{HookRow, RunEnd};
        let row = |name: &str, phase, message: &str, output: Option<&str>| HookRow {
            reference: format!("Job/{name}"),
            weight: -3,
            phase,
            started_at: Some(1_767_323_045_000),
            completed_at: Some(1_767_323_047_500),
            message: message.into(),
            output: output.map(str::to_string),
            waiting: None,
        };
        let s = Summary {
            event: "test".into(),
            rows: vec![
                row("on", Phase::Succeeded, "", Some("line 1\nline: \"2\"\t#3\n\u{7f}\u{0}é")),
                row("1e3", Phase::Failed, "BackoffLimitExceeded: - [x] {y}", None),
                row("", Phase::Skipped, " ", Some("")),
            ],
            started_at: 1_767_323_045_000,
            ended_at: 1_767_323_048_000,
            outcome: RunEnd::Failed,
            error: None,
            failed_fast: Some("Job/1e3".into()),
            api_requests: Some((12, 0)),
            annotate: false,
            left_running: Vec::new(),
        };
        let yaml = summary(&s);
        assert_eq!(to_json(&yaml).unwrap(), json::summary_value(&s), "{yaml}");
        assert!(yaml.starts_with("api_requests: 12\n"), "{yaml}");
        assert!(yaml.contains("\n- completed_at: 1767323047500\n  message: \"\"\n"), "{yaml}");
    }

    #[test]
    fn floats_and_empty_collections_read_back() {
        let v = serde_json::json!({"a": 1.5, "b": 1e300, "c": -2.5e-7, "d": [], "e": {}, "f": [[1, "x"], {"g": null}]});
        assert_eq!(to_json(&document(&v)).unwrap(), v, "{}", document(&v));
    }
}
