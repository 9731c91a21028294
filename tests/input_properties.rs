//! What the input is, decided honestly and quickly (issue 20):
//! - JSON that is not a release is never read as an empty one: `lint` never
//!   says "no problems in 0 hooks and 0 resources" about input it did not
//!   understand, and `plan` never says there is nothing to run;
//! - nesting of any depth, anywhere in a document, is answered (an error is
//!   fine) in well under a second: YAML scanners are quadratic in flow depth.

use std::time::{Duration, Instant};

use helm_hooks::cli::{self, Exit};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Keys a release or an object has, and some neither has.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "name",
            "namespace",
            "version",
            "manifest",
            "hooks",
            "chart",
            "info",
            "config",
            "kind",
            "apiVersion",
            "metadata",
            "items",
            "spec",
            "data",
        ])
        .prop_map(str::to_string),
        "[a-z]{1,6}",
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        prop::sample::select(vec!["", "r", "Job", "v1", "---\nkind: ConfigMap\nmetadata:\n  name: a\n", "test"])
            .prop_map(|s| json!(s)),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(key(), value(), 0..6).prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>()))
}

/// What every release Helm prints has: its name and its chart's.
fn is_release(v: &Value) -> bool {
    let text = |p: &str| v.pointer(p).and_then(Value::as_str).is_some_and(|s| !s.is_empty());
    text("/name") && text("/chart/metadata/name")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn json_that_is_not_a_release_is_never_clean(v in object()) {
        let input = v.to_string();
        let (code, out, err) = cli::run_captured(&["lint", "-"], input.as_bytes());
        if code == Exit::Ok && out.contains("0 hooks and 0 resources") {
            prop_assert!(is_release(&v), "{input} linted clean as an empty release: {out}{err}");
        }
        let (code, out, _) = cli::run_captured(&["plan", "-"], input.as_bytes());
        if code == Exit::Ok && out.contains("Nothing to run") {
            prop_assert!(is_release(&v), "{input} planned as nothing: {out}");
        }
        if code == Exit::Invalid && !is_release(&v) && v.get("kind").is_none() {
            prop_assert!(!err.is_empty());
        }
    }

    /// Deep `[`/`{` nesting under labels, annotations, data or spec, in
    /// `helm template` output or inside release JSON: answered at once.
    #[test]
    fn deep_nesting_is_answered_in_under_a_second(
        depth in prop_oneof![1usize..300, 300usize..5_000, Just(100_000usize)],
        opens in prop::collection::vec(prop::sample::select(vec!["[", "{a: ", "{"]), 1..4),
        at in prop::sample::select(vec!["  labels: ", "  annotations:\n    x: ", "data:\n  x: ", "spec: "]),
        as_json in any::<bool>(),
    ) {
        let mut open = String::new();
        let mut close = String::new();
        for i in 0..depth {
            let o = opens[i % opens.len()];
            open.push_str(o);
            close.insert(0, if o == "[" { ']' } else { '}' });
        }
        // `{` alone needs a key inside: `{{` is not YAML, so its value is a key.
        let middle = if open.ends_with('{') { "k: 1" } else { "1" };
        let doc = format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\n{at}{open}{middle}{close}\n");
        let input = if as_json {
            json!({"name": "r", "chart": {"metadata": {"name": "c"}}, "manifest": format!("---\n# Source: c/templates/a.yaml\n{doc}")}).to_string()
        } else {
            format!("---\n# Source: c/templates/a.yaml\n{doc}")
        };
        for command in ["lint", "plan"] {
            let start = Instant::now();
            let (code, _, _) = cli::run_captured(&[command, "-"], input.as_bytes());
            let took = start.elapsed();
            prop_assert!(took < Duration::from_secs(1), "{command}: depth {depth} took {took:?}");
            if depth > 256 {
                prop_assert_eq!(code, Exit::Invalid, "{} of depth {}", command, depth);
            }
        }
    }
}

/// The issue's case: 100,000 levels (200 KB) in `metadata.labels`.
#[test]
fn a_hundred_thousand_levels_in_labels() {
    let depth = 100_000;
    let doc = format!(
        "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let start = Instant::now();
    let (code, out, err) = cli::run_captured(&["lint", "-"], doc.as_bytes());
    assert!(start.elapsed() < Duration::from_secs(1), "{:?}", start.elapsed());
    assert_eq!(code, Exit::Invalid, "{out}{err}");
    assert!(out.contains("nests [ and { more than 256 levels deep (line 5)"), "{out}");
}
