//! `plan`, `run` and `status` read each document's head alone, and most
//! heads without the YAML parser (`model/block.rs`); `lint` and `deploy`
//! read every document whole. Both must see the same object: on every
//! document of the rendered public charts in testdata/rendered, and on
//! mutations of them, whatever both readings accept agrees on apiVersion,
//! kind, name, namespace and annotations (issue 33).

use helm_hooks::model::manifest::{self, Document, Head, Syntax};
use helm_hooks::model::{block, yaml};
use proptest::prelude::*;
use serde_json::Value;

mod rendered;

/// Every document of every rendered chart.
fn corpus() -> Vec<Document> {
    let docs: Vec<Document> = rendered::charts().iter().flat_map(|text| manifest::split(text, "<stdin>")).collect();
    assert!(docs.len() > 250, "{} documents", docs.len());
    docs
}

/// The head as the whole document, parsed whole, says it.
fn whole_reading(text: &str) -> Option<Head> {
    let Ok(Value::Object(top)) = yaml::to_json_whole(text) else { return None };
    let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let meta = top.get("metadata").and_then(Value::as_object);
    let annotations = meta.and_then(|m| m.get("annotations")).and_then(Value::as_object);
    Some(Head {
        api_version: string(top.get("apiVersion")).unwrap_or_default(),
        kind: string(top.get("kind"))?,
        name: string(meta?.get("name"))?,
        namespace: string(meta?.get("namespace")).filter(|n| !n.is_empty()),
        annotations: annotations
            .into_iter()
            .flatten()
            .map(|(k, v)| Some((k.clone(), if v.is_null() { String::new() } else { v.as_str()?.to_string() })))
            .collect::<Option<_>>()?,
    })
}

/// Both readings of `doc`, where both accept it, are the same.
fn agree(doc: &Document) -> Result<(), TestCaseError> {
    let Some(whole) = whole_reading(&doc.text) else { return Ok(()) };
    for syntax in [Syntax::HeadOnly, Syntax::Whole] {
        if let Ok(head) = manifest::read_head(doc, syntax) {
            prop_assert_eq!(&head, &whole, "{:?} of\n{}", syntax, doc.text);
        }
    }
    Ok(())
}

#[test]
fn every_rendered_document_reads_the_same_head_first_or_whole() {
    let docs = corpus();
    let mut fast = 0;
    for doc in &docs {
        agree(doc).unwrap();
        let head = manifest::read_head(doc, Syntax::HeadOnly);
        assert!(head.is_ok(), "{}: {:?}", doc.source, head.err());
        if let Some(v) = block::read(&doc.text) {
            assert_eq!(Some(v), yaml::to_json(&doc.text).ok(), "{}", doc.text);
            fast += 1;
        }
    }
    // The reader without the parser is no dead path: some documents are
    // plain block mappings whole, and heads far more often.
    assert!(fast > 20, "{fast} of {} documents", docs.len());
}

/// A change to one line of a document, of the kinds that could make the
/// head reader and the parser part ways.
#[derive(Debug, Clone)]
enum Mutation {
    /// Text put at the start or end of a line.
    Prefix(usize, &'static str),
    Suffix(usize, &'static str),
    /// A line repeated, or removed.
    Repeat(usize),
    Drop(usize),
    /// `: ` of a line written as ` : `, `:\t`, `:  `.
    Colon(usize, &'static str),
}

const PREFIXES: &[&str] = &[" ", "  ", "\t", "# ", "- ", "? ", "&a ", "!!str ", "\"", "'", "{", "[", "---\n", "...\n"];
const SUFFIXES: &[&str] = &[
    " ",
    " # c",
    "#c",
    ":",
    "\r",
    "\u{0}",
    " \u{feff}",
    "é",
    "\"",
    "'",
    " |",
    " >-",
    " &x",
    " *x",
    ": b",
    ",",
    "]",
    "}",
    "\n  x: y",
    "\n    a: b",
    "\n   c",
    "\nkind: Other",
    "\nmetadata: {}",
    "\n# only\n",
];
const COLONS: &[&str] = &[" : ", ":\t", ":  ", ":", " :"];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), prop::sample::select(PREFIXES)).prop_map(|(l, s)| Mutation::Prefix(l, s)),
        (any::<usize>(), prop::sample::select(SUFFIXES)).prop_map(|(l, s)| Mutation::Suffix(l, s)),
        any::<usize>().prop_map(Mutation::Repeat),
        any::<usize>().prop_map(Mutation::Drop),
        (any::<usize>(), prop::sample::select(COLONS)).prop_map(|(l, s)| Mutation::Colon(l, s)),
    ]
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let n = lines.len();
    match m {
        Mutation::Prefix(l, s) => lines[l % n].insert_str(0, s),
        Mutation::Suffix(l, s) => lines[l % n].push_str(s),
        Mutation::Repeat(l) => {
            let line = lines[l % n].clone();
            lines.insert(l % n, line);
        }
        Mutation::Drop(l) => {
            lines.remove(l % n);
        }
        Mutation::Colon(l, s) => lines[l % n] = lines[l % n].replacen(": ", s, 1),
    }
    lines.join("\n") + "\n"
}

thread_local!(static CORPUS: Vec<Document> = corpus());

/// A document of the corpus, as proptest picks it.
fn picked(pick: prop::sample::Index) -> Document {
    CORPUS.with(|c| c[pick.index(c.len())].clone())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Mutated heads: what both readings accept, they read alike, and what
    /// the reader without the parser accepts, the parser reads the same.
    #[test]
    fn mutated_documents_read_the_same_head_first_or_whole(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let doc = picked(pick);
        // Heads are at the top: mutate the first lines most.
        let head_lines = doc.text.lines().take_while(|l| !l.starts_with("spec:") && !l.starts_with("data:")).count();
        let mut text = doc.text.clone();
        for m in &mutations {
            let m = match m.clone() {
                Mutation::Prefix(l, s) => Mutation::Prefix(l % head_lines.max(1), s),
                Mutation::Suffix(l, s) => Mutation::Suffix(l % head_lines.max(1), s),
                other => other,
            };
            text = mutate(&text, &m);
        }
        let head: String = text.lines().take(head_lines).map(|l| format!("{l}\n")).collect();
        for text in [&text, &head] {
            if let Some(v) = block::read(text) {
                prop_assert_eq!(Some(v), yaml::to_json(text).ok(), "{}", text);
            }
        }
        agree(&Document { text, ..doc })?;
    }

    /// Mutated documents, anywhere in them: `deploy`'s kept reading is
    /// `lint`'s whole reading.
    #[test]
    fn mutated_documents_are_kept_as_they_read_whole(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let doc = picked(pick);
        let mut text = doc.text.clone();
        for m in &mutations {
            text = mutate(&text, m);
        }
        kept_reads_as_whole(&text)?;
    }
}

/// `deploy` reads each resource's body once, kept as JSON (`Syntax::Kept`),
/// where `lint` scans it (`Syntax::Whole`, which the oracle holds to Helm's
/// reading): both must find the same problems and the same objects, and
/// what is kept must be the JSON the apply read from the text before.
fn kept_reads_as_whole(text: &str) -> Result<(), TestCaseError> {
    let stream = format!("---\n# Source: c/templates/x.yaml\n{text}");
    let read = |syntax| {
        let mut diags = helm_hooks::model::diagnostic::Diagnostics::default();
        let release = helm_hooks::model::input::parse_as(stream.as_bytes(), syntax, &mut diags).ok();
        (release.map(|(_, r)| r), diags)
    };
    let ((whole, whole_diags), (kept, kept_diags)) = (read(Syntax::Whole), read(Syntax::Kept));
    prop_assert_eq!(format!("{:?}", whole_diags.0), format!("{:?}", kept_diags.0), "{}", text);
    let (Some(whole), Some(kept)) = (whole, kept) else {
        return Ok(());
    };
    let heads = |r: &helm_hooks::model::input::Release| {
        let resources = r.resources.iter().map(|x| (x.head.clone(), x.manifest.clone()));
        (resources.collect::<Vec<_>>(), r.hooks.iter().map(|h| h.head.clone()).collect::<Vec<_>>())
    };
    prop_assert_eq!(heads(&whole), heads(&kept), "{}", text);
    for r in &kept.resources {
        prop_assert_eq!(&r.object, &yaml::to_json(&r.manifest).ok(), "{}", r.manifest);
    }
    prop_assert!(whole.resources.iter().all(|r| r.object.is_none()));
    Ok(())
}

#[test]
fn every_rendered_document_is_kept_as_it_reads_whole() {
    let docs = corpus();
    for doc in &docs {
        kept_reads_as_whole(&doc.text).unwrap();
    }
}
