//! The probe of issue 33 as a bounded fuzz run in every `cargo test`:
//! renderings of public charts (testdata/rendered), cut to a few documents
//! and mutated with what an adversarial user tried (alias bombs, huge
//! numbers, odd line endings, NULs, odd Unicode, deep nesting), go through
//! `lint` and `plan`. Each ends in exit code 0 or 2 with something said,
//! never a panic, another code or silence; `-o json` always parses. A time
//! budget keeps the run to a few seconds; the fuzz targets in fuzz/ are the
//! long, opt-in run.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use helm_hooks::cli::{run_captured, Exit};
use proptest::prelude::*;

mod rendered;

/// Each rendered chart, as documents (with their `---` lines).
fn corpus() -> &'static [Vec<String>] {
    static CORPUS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        rendered::charts().iter().map(|text| text.split("\n---").map(|d| format!("---{d}\n")).collect()).collect()
    })
}

/// Nine levels of nine aliases: 9^9 items if expanded.
fn alias_bomb() -> String {
    let mut out = format!("    a: &a [{}]\n", ["\"x\""; 9].join(","));
    for pair in ["a", "b", "c", "d", "e", "f", "g", "h", "i"].windows(2) {
        out.push_str(&format!("    {}: &{} [{}]\n", pair[1], pair[1], vec![format!("*{}", pair[0]); 9].join(",")));
    }
    out
}

/// Hostile text spliced in at a line.
fn snippet() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(alias_bomb()),
        Just("    helm.sh/hook-weight: \"99999999999999999999999\"\n".to_string()),
        Just("    helm.sh/hook: test\n    helm.sh/depends-on: Job/none,Job/none,Pod/x\n".to_string()),
        Just("    helm.sh/resource-group: g\n    helm.sh/depends-on/resource-groups: '[\"g\"]'\n".to_string()),
        Just("    helm.sh/readiness-success: '[\"{.x} === 1\", \"{.x]} > NaN\"]'\n".to_string()),
        Just("  name: \"a\\0b\"\n".to_string()),
        Just("\u{0}\u{1}\u{7f}".to_string()),
        Just("\u{feff}\u{2028}\u{202e}\u{1f600}e\u{301}".to_string()),
        Just(format!("x: {}{}\n", "[".repeat(300), "]".repeat(300))),
        Just(format!("x: {}\n", "a".repeat(100_000))),
        Just("---\n".to_string()),
        Just("\t".to_string()),
        Just("kind : Job\n".to_string()),
        Just("metadata: {name: x, annotations: {helm.sh/hook: test}}\n".to_string()),
        Just("data: {key: [unclosed\n".to_string()),
        "[ -~]{0,40}\n",
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, String),
    DropLine(usize),
    /// Every line ending as `\r\n`, or `\r` alone.
    LineEnds(&'static str),
    Bom,
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), snippet()).prop_map(|(at, s)| Mutation::Insert(at, s)),
        2 => any::<usize>().prop_map(Mutation::DropLine),
        1 => prop::sample::select(vec!["\r\n", "\r"]).prop_map(Mutation::LineEnds),
        1 => Just(Mutation::Bom),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let n = lines.len().max(1);
    match m {
        Mutation::Insert(at, s) => {
            lines.insert(at % n, s);
            lines.concat()
        }
        Mutation::DropLine(at) => {
            if !lines.is_empty() {
                lines.remove(at % n);
            }
            lines.concat()
        }
        Mutation::LineEnds(end) => text.replace('\n', end),
        Mutation::Bom => format!("\u{feff}{text}"),
        Mutation::Truncate(at) => {
            let cut = at % (text.len() + 1);
            let cut = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            text[..cut].to_string()
        }
    }
}

/// How long the whole run may take: cases after it pass without work.
const BUDGET: Duration = Duration::from_secs(4);

fn started() -> Instant {
    static START: OnceLock<Instant> = OnceLock::new();
    *START.get_or_init(Instant::now)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_public_charts_end_in_exit_0_or_2_with_words(
        chart in any::<prop::sample::Index>(),
        start in any::<prop::sample::Index>(),
        count in 1usize..12,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        if started().elapsed() > BUDGET {
            return Ok(());
        }
        let docs = chart.get(corpus());
        let first = start.index(docs.len());
        let mut text = docs[first..(first + count).min(docs.len())].concat();
        for m in &mutations {
            text = mutate(&text, m);
        }
        for args in [&["lint", "-"][..], &["lint", "-", "-o", "json"], &["plan", "-"], &["plan", "-", "-o", "json"]] {
            let (code, out, err) = run_captured(args, text.as_bytes());
            prop_assert!(matches!(code, Exit::Ok | Exit::Invalid), "{args:?}: {code:?}\n{err}");
            prop_assert!(!(out.is_empty() && err.is_empty()), "{args:?} said nothing");
            if code == Exit::Invalid {
                prop_assert!(err.contains("Error: ") || out.contains("error: ") || out.contains("\"errors\""), "{args:?}: {out}{err}");
            }
            if args.contains(&"json") && !out.is_empty() {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{args:?}: {out}");
            }
        }
    }
}
