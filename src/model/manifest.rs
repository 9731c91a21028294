//! Splitting a rendered manifest stream into documents and reading the head
//! of each one (apiVersion, kind, metadata) — the only part the plan needs.
//!
//! The raw text of every document is kept: apply sends it to the API server
//! as `application/apply-patch+yaml`, so no YAML is ever re-serialised.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::base::bytes;
use crate::model::diagnostic::{Diagnostic, Location};
use crate::model::object::{Identity, ObjectKey};
use crate::model::reference::ObjectRef;
use crate::model::scope;
use crate::model::yaml;

/// One YAML document of a rendered chart.
#[derive(Debug, Clone)]
pub struct Document {
    /// Template path from the `# Source:` comment, e.g. `app/charts/db/templates/job.yaml`.
    pub source: String,
    /// 1-based position among the documents of the same source.
    pub index: usize,
    /// The document without its `# Source:` line.
    pub text: String,
}

impl Document {
    pub(super) fn location(&self) -> Location {
        Location { source: self.source.clone(), document: self.index, object: None }
    }
}

const SOURCE_PREFIX: &str = "# Source: ";

/// Splits a multi-document stream the way Helm's `SplitManifests` does: on
/// lines that begin with `---`. Documents that are empty or hold only
/// comments are dropped, as Helm skips whitespace-only templates.
///
/// A document without a `# Source:` line belongs to the last source named
/// before it: `helm template --include-crds` prints a `crds/` file whole
/// after one `# Source:` line, and such files often begin with a comment and
/// `---` of their own (kube-prometheus-stack's), so the objects come in
/// documents after the one that names the file. `fallback` names the source
/// of documents before any `# Source:` line (hand-written input).
pub fn split(stream: &str, fallback: &str) -> Vec<Document> {
    let mut docs = Vec::new();
    split_each(stream, fallback, |doc| docs.push(doc));
    docs
}

/// [`split`], handing each document on as soon as it is cut: whoever reads
/// a release keeps what it needs of each and drops the rest, and the
/// release is not held twice over, as read and cut into documents.
pub(super) fn split_each(stream: &str, fallback: &str, mut each: impl FnMut(Document)) {
    // Hashed, not ordered: an ordered map of 10,000 paths that share their
    // first dozen bytes compared those bytes one loop iteration at a time,
    // each an exit to Go under Helm's Wasm runtime (docs/benchmarks.md).
    let mut counts: crate::base::hash::WordMap<String, usize> = Default::default();
    let mut last_source: Option<String> = None;
    let mut push = |source: Option<String>, text: String| {
        if source.is_some() {
            last_source.clone_from(&source);
        }
        // A document that starts with a printable character other than `#`
        // has a line of content: told without a walk over its first line.
        let content = text.as_bytes().first().is_some_and(|&b| b.is_ascii_graphic() && b != b'#');
        if !content && text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
            return;
        }
        let source = source.or_else(|| last_source.clone()).unwrap_or_else(|| fallback.to_string());
        let n = counts.entry(source.clone()).or_insert(0);
        *n += 1;
        each(Document { source, index: *n, text });
    };
    // Each document's text is cut from the stream in one piece (two when a
    // `# Source:` line follows blank lines), not grown line by line: under
    // Helm's Wasm runtime every allocation and copy loop is dear.
    let cut = |start: usize, end: usize, source_line: Option<(usize, usize)>| match source_line {
        Some((from, to)) => [&stream[start..from], &stream[to..end]].concat(),
        None => stream[start..end].to_string(),
    };
    let mut source = None;
    let (mut start, mut source_line, mut blank) = (0, None, true);
    let mut offset = 0;
    for line in bytes::lines(stream) {
        let at = offset;
        offset += line.len();
        if is_separator(line) {
            push(source.take(), cut(start, at, source_line.take()));
            (start, blank) = (offset, true);
            continue;
        }
        if source.is_none() && blank {
            if let Some(path) = line.strip_prefix(SOURCE_PREFIX) {
                source = Some(path.trim().to_string());
                source_line = Some((at, offset));
                continue;
            }
        }
        blank = blank && line.trim().is_empty();
    }
    push(source, cut(start, stream.len(), source_line));
}

/// How many documents [`split`] makes of `stream` at most, counted without
/// cutting it: a bound on the work is checked before the work.
pub(super) fn count_documents(stream: &str) -> usize {
    // Only lines that start with `-` are looked at, found a word at a time:
    // a walk over every line of a large release took a twentieth of `plan`.
    let line = |p: usize| bytes::lines(&stream[p..]).next().unwrap_or_default();
    let first = usize::from(is_separator(line(0)));
    first + bytes::line_starts(stream.as_bytes(), b'-').filter(|&p| is_separator(line(p))).count() + 1
}

fn is_separator(line: &str) -> bool {
    match line.strip_prefix("---") {
        Some(rest) => {
            let rest = rest.trim();
            rest.is_empty() || rest.starts_with('#')
        }
        None => false,
    }
}

/// The identifying part of a Kubernetes object, parsed once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub namespace: Option<String>,
    pub annotations: BTreeMap<String, String>,
}

impl Head {
    /// The object's key, its namespace as the manifest writes it.
    pub(crate) fn key(&self) -> ObjectKey {
        ObjectKey::new(&self.api_version, &self.kind, self.namespace.as_deref(), &self.name)
    }

    /// The object in the cluster the head names, as far as the input can
    /// tell: a namespaced object that names no namespace is in
    /// `release_namespace`; a cluster-scoped kind has none, whatever it says.
    pub(crate) fn identity_in<'h>(&'h self, release_namespace: Option<&'h str>) -> Identity<'h> {
        let namespace = match scope::cluster_scoped(&self.kind) {
            true => None,
            false => self.namespace.as_deref().or(release_namespace),
        };
        Identity {
            group: crate::model::object::group_of(&self.api_version),
            kind: &self.kind,
            namespace,
            name: &self.name,
        }
    }

    /// The object as the plan and every message name it: `Kind/name`, or
    /// `Kind/namespace/name` when the manifest sets a namespace on a kind
    /// that has one (a cluster-scoped kind has none, whatever it says).
    pub(super) fn reference(&self) -> ObjectRef {
        let namespace = self.namespace.as_deref().filter(|_| !scope::cluster_scoped(&self.kind));
        ObjectRef::new(&self.kind, namespace, &self.name)
    }

    /// [`Head::reference`] as text, written at once: every message's
    /// location has one, and an [`ObjectRef`] made to be printed is three
    /// allocations more.
    pub(crate) fn display(&self) -> String {
        let namespace = self.namespace.as_deref().filter(|_| !scope::cluster_scoped(&self.kind));
        let mut out =
            String::with_capacity(self.kind.len() + self.name.len() + namespace.map_or(0, |n| n.len() + 1) + 1);
        out.push_str(&self.kind);
        out.push('/');
        if let Some(namespace) = namespace {
            out.push_str(namespace);
            out.push('/');
        }
        out.push_str(&self.name);
        out
    }
}

/// The top-level `apiVersion`, `kind` and `metadata` entries of a block
/// mapping, as lines of the document. `None` when the document starts in a
/// way this cut could misread (flow style, a list, a tag, an anchor, a
/// quoted key): the caller then parses the whole document.
struct HeadLines<'t> {
    lines: Vec<&'t str>,
    /// A top-level `items` key: the document may be a list (model/list.rs),
    /// seen on the walk the head needs anyway (a pass of its own over every
    /// document cost `plan` of 20,000 objects a tenth of its time under Helm).
    items: bool,
    /// Nothing was cut: the head is the whole document, so parsing it
    /// checked the whole document's syntax too (a second parse of the same
    /// text took a fifth of `lint`'s time on releases of small objects).
    whole: bool,
}

impl HeadLines<'_> {
    fn text(&self) -> String {
        self.lines.concat()
    }
}

fn head_lines(text: &str) -> Option<HeadLines<'_>> {
    let mut lines = Vec::with_capacity(16);
    let mut keep = false;
    let mut whole = true;
    let mut items = false;
    for line in bytes::lines(text) {
        match line.as_bytes().first() {
            None | Some(b' ' | b'\t' | b'\n' | b'\r') => {
                if keep {
                    lines.push(line);
                } else {
                    whole = false;
                }
            }
            Some(b'#') => whole = false,
            Some(b'-' | b'{' | b'[' | b'&' | b'*' | b'!' | b'%' | b'?' | b'|' | b'>' | b'"' | b'\'' | b'@' | b'`') => {
                return None
            }
            Some(_) => {
                let key = top_level_key(line);
                items |= key == Some("items");
                keep = key.is_some_and(|k| matches!(k, "apiVersion" | "kind" | "metadata"));
                if keep {
                    lines.push(line);
                } else {
                    whole = false;
                }
            }
        }
    }
    Some(HeadLines { lines, whole, items })
}

/// The key a top-level line of a block mapping starts with, as YAML reads
/// it: the text before the first `:` that ends the line or is followed by a
/// space or tab, without the blanks before that `:` (`kind : Job` is the key
/// `kind`). `None` when the line is no `key: value` (`kind:Job` is one
/// plain scalar).
fn top_level_key(line: &str) -> Option<&str> {
    let line = line.trim_end_matches(['\n', '\r']);
    let bytes = line.as_bytes();
    let colon = bytes::positions(bytes, b':').find(|&i| matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')))?;
    Some(line[..colon].trim_end_matches([' ', '\t']))
}

/// Reads a document's head. Everything Kubernetes would refuse — a
/// non-string annotation value, a missing kind or name — is an error here,
/// since Helm itself fails to install such a document. Scalars are read as
/// Kubernetes reads them (YAML 1.1, [`crate::model::yaml`]): a plain `yes`
/// is a boolean, so `helm.sh/hook-delete-policy: yes` is refused as Helm
/// refuses it.
pub fn parse_head(doc: &Document) -> Result<Head, Box<Diagnostic>> {
    read_head(doc, Syntax::Whole)
}

/// How much of a document [`read_head`] reads besides its head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// The whole document, for syntax errors: Helm converts all of it to
    /// JSON before it installs anything, so `lint` and `deploy` must too.
    Whole,
    /// The head alone: for `plan`, which orders objects and does not judge
    /// their bodies, and for releases Helm has stored. Scanning the rest
    /// took half as long again as planning a release of 20,000 objects.
    HeadOnly,
    /// [`Syntax::Whole`], each resource's document kept as the JSON it
    /// reads as ([`read_body`]): for `deploy`, which applies that JSON, so
    /// that the YAML is read once rather than scanned here and parsed again
    /// at apply (a fifth of the check before rook-ceph's 83 objects went
    /// out, docs/benchmarks.md). [`read`] and [`read_head`] take it as
    /// `HeadOnly`; the caller reads the body.
    Kept,
}

/// A document's body read whole, as [`Syntax::Whole`] checks it: its JSON,
/// or `None` when it scans as YAML but does not convert (the apply then
/// says why, as before), or the diagnostic [`read`] would have given.
pub(super) fn read_body(doc: &Document) -> Result<Option<Value>, Box<Diagnostic>> {
    match yaml::to_json_whole(&doc.text) {
        Ok(value) => Ok(Some(value)),
        Err(_) => yaml::check_syntax(&doc.text).map(|()| None).map_err(|e| invalid(doc, e)),
    }
}

/// A document's body scanned as [`Syntax::Whole`] scans it.
pub(super) fn check_body(doc: &Document) -> Result<(), Box<Diagnostic>> {
    yaml::check_syntax(&doc.text).map_err(|e| invalid(doc, e))
}

/// An error about `doc`, with its help.
fn failure(doc: &Document, msg: String, help: Option<&str>) -> Box<Diagnostic> {
    let d = Diagnostic::error(doc.location(), msg);
    Box::new(match help {
        Some(h) => d.help(h),
        None => d,
    })
}

/// The document's head as JSON, and the text it was read from: the head
/// cut from the document when that cut reads as a mapping, else the whole
/// document.
fn read_value<'d>(
    doc: &'d Document,
    cut: Option<HeadLines<'_>>,
    syntax: Syntax,
) -> Result<(Value, Cow<'d, str>), Box<Diagnostic>> {
    // A head that is the whole document is read to its end, as a whole
    // document is checked.
    let read = |h: &HeadLines, text: &str| match crate::model::block::read_lines(h.lines.iter().copied()) {
        Some(node) => Ok(node.to_json()),
        None if h.whole => yaml::to_json_whole(text),
        None => yaml::to_json(text),
    };
    if let Some(head) = cut {
        let text = head.text();
        if let Ok(v @ Value::Object(_)) = read(&head, &text) {
            // The rest unread, `data: {key: [unclosed` passed as no problem.
            if syntax == Syntax::Whole && !head.whole {
                yaml::check_syntax(&doc.text).map_err(|e| invalid(doc, e))?;
            }
            return Ok((v, Cow::Owned(text)));
        }
    }
    Ok((yaml::to_json_whole(&doc.text).map_err(|e| invalid(doc, e))?, Cow::Borrowed(doc.text.as_str())))
}

/// A document that is no YAML, as its error says.
fn invalid(doc: &Document, e: yaml::YamlError) -> Box<Diagnostic> {
    failure(doc, format!("is not a valid Kubernetes object: {}", short(&e.to_string())), None)
}

/// The head of the plain shape almost every document has, read from its
/// lines with no JSON value between: every field a string as YAML reads
/// it, annotations a flat mapping. `None` for anything else, which
/// [`read_value`] reads (and judges) as ever. Building each head as JSON
/// first took a third of `plan`'s time through Helm on releases of small
/// objects (docs/benchmarks.md).
fn plain_head<'t>(cut: &HeadLines<'t>) -> Option<Head> {
    use crate::model::block::BlockValue;
    let top = crate::model::block::read_lines(cut.lines.iter().copied())?;
    let meta = top.get("metadata").filter(|m| matches!(m, BlockValue::Map(_)))?;
    let text = |node: Option<&BlockValue<'t>>| node.map_or(Some(""), BlockValue::as_str);
    let kind = top.get("kind")?.as_str().filter(|k| !k.is_empty())?;
    let name = meta.get("name")?.as_str().filter(|n| !n.is_empty())?;
    let api_version = text(top.get("apiVersion"))?;
    let namespace = text(meta.get("namespace"))?;
    let annotations = match meta.get("annotations") {
        None => BTreeMap::new(),
        Some(BlockValue::Map(entries)) => {
            entries.iter().map(|(k, v)| Some((k.to_string(), v.as_str()?.to_string()))).collect::<Option<_>>()?
        }
        Some(_) => return None,
    };
    Some(Head {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        name: name.to_string(),
        namespace: (!namespace.is_empty()).then(|| namespace.to_string()),
        annotations,
    })
}

/// What a document stands for: one object, or a list (any object with
/// `items`, as apimachinery reads it), which stands for its items
/// (model/list.rs reads them).
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    Object(Head),
    List,
}

/// [`read_head`], or [`Reading::List`] for a document with a top-level
/// `items`: a list, unless its items are null, which model/list.rs tells
/// when it reads them (a block document's is not read here).
pub fn read(doc: &Document, syntax: Syntax) -> Result<Reading, Box<Diagnostic>> {
    read_as(doc, syntax, true)
}

/// [`parse_head`], reading the rest of the document as `syntax` says. A list
/// is read as the object it is written as.
pub fn read_head(doc: &Document, syntax: Syntax) -> Result<Head, Box<Diagnostic>> {
    match read_as(doc, syntax, false)? {
        Reading::Object(head) => Ok(head),
        Reading::List => unreachable!("lists are looked for only when asked"),
    }
}

fn read_as(doc: &Document, syntax: Syntax, lists: bool) -> Result<Reading, Box<Diagnostic>> {
    let fail = |msg: String, help: Option<&str>| failure(doc, msg, help);
    yaml::check_depth(&doc.text).map_err(|e| fail(e.to_string(), None))?;
    // Most of a manifest is `spec`; reading only the head is several times
    // faster on large releases. Anything unusual is parsed whole.
    let cut = head_lines(&doc.text);
    if lists && cut.as_ref().is_some_and(|c| c.items) {
        return Ok(Reading::List);
    }
    if let Some((head, whole)) = cut.as_ref().and_then(|c| Some((plain_head(c)?, c.whole))) {
        if syntax == Syntax::Whole && !whole {
            yaml::check_syntax(&doc.text).map_err(|e| invalid(doc, e))?;
        }
        return Ok(Reading::Object(head));
    }
    judged_head(doc, cut, syntax, lists)
}

/// The head of any other document, read as JSON, and everything in it
/// Kubernetes would refuse told.
fn judged_head(
    doc: &Document,
    cut: Option<HeadLines>,
    syntax: Syntax,
    lists: bool,
) -> Result<Reading, Box<Diagnostic>> {
    let fail = |msg: String, help: Option<&str>| failure(doc, msg, help);
    let (value, read) = read_value(doc, cut, syntax)?;
    let read = read.as_ref();
    let Value::Object(mut top) = value else {
        return Err(fail(
            format!("is not a Kubernetes object: it is {}, not a mapping with kind and metadata", what(&value)),
            Some("every rendered document must be a Kubernetes object"),
        ));
    };
    if lists && top.get("items").is_some_and(|items| !items.is_null()) {
        return Ok(Reading::List);
    }
    let mut meta = match top.remove("metadata") {
        Some(Value::Object(m)) => m,
        None | Some(Value::Null) => Map::new(),
        Some(_) => return Err(fail("metadata must be a mapping".into(), None)),
    };
    let text = |v: Option<Value>, what: &str| match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(fail(format!("{what} must be a string"), None)),
    };
    let kind = text(top.remove("kind"), "kind")?
        .filter(|k| !k.is_empty())
        .ok_or_else(|| fail("has no kind".into(), Some("every rendered document must be a Kubernetes object")))?;
    let api_version = text(top.remove("apiVersion"), "apiVersion")?.unwrap_or_default();
    // Kubernetes reads manifests as YAML 1.1, where a plain `yes` is true, and
    // Helm then fails with "cannot unmarshal bool into Go struct field
    // ObjectMeta.metadata.name of type string". Only a plain scalar resolves
    // so: `"yes"` stays a name. The message quotes what the chart wrote.
    for field in ["name", "namespace"] {
        let Some(value) = meta.get(field).filter(|v| !v.is_string() && !v.is_null()) else { continue };
        let pointer = format!("/metadata/{field}");
        let as_written = yaml::to_json_as_written(read).ok();
        let Some(written) = as_written.as_ref().and_then(|v| v.pointer(&pointer)).and_then(Value::as_str) else {
            return Err(fail(format!("metadata.{field} must be a string"), None));
        };
        return Err(fail(
            format!(
                "metadata.{field} {written} is not a string as Kubernetes reads YAML: unquoted, it is {value} \
                 (YAML 1.1), and Helm refuses the object (cannot unmarshal {} into ObjectMeta.metadata.{field})",
                if value.is_boolean() { "bool" } else { "number" }
            ),
            Some(&format!("quote it: {field}: \"{written}\"")),
        ));
    }
    let name = text(meta.remove("name"), "metadata.name")?.filter(|n| !n.is_empty()).ok_or_else(|| {
        fail(
            format!("{kind} has no metadata.name"),
            Some("set metadata.name; hooks and resources are referred to by Kind/name"),
        )
    })?;
    let namespace = text(meta.remove("namespace"), "metadata.namespace")?;
    // From here on the object has a name: errors name it.
    let fail = |msg: String, help: Option<&str>| {
        let mut d = fail(msg, help);
        let head = Head { kind: kind.clone(), name: name.clone(), namespace: namespace.clone(), ..Head::default() };
        d.location.object = Some(head.display());
        d
    };
    let raw_annotations = match meta.remove("annotations") {
        Some(Value::Object(m)) => m,
        None | Some(Value::Null) => Map::new(),
        Some(_) => return Err(fail("metadata.annotations must be a mapping".into(), None)),
    };
    let annotations = string_annotations(raw_annotations).map_err(|key| {
        fail(
            format!("annotation {key} must be a string"),
            Some("quote the value, e.g. \"5\" or \"true\": Kubernetes annotations are strings"),
        )
    })?;
    Ok(Reading::Object(Head { api_version, kind, name, namespace: namespace.filter(|n| !n.is_empty()), annotations }))
}

/// Annotations as Kubernetes reads them: text, or empty for null; `Err`
/// names the first key whose value is anything else.
fn string_annotations(raw: Map<String, Value>) -> Result<BTreeMap<String, String>, String> {
    let mut annotations = BTreeMap::new();
    for (key, value) in raw {
        match value {
            Value::String(s) => annotations.insert(key, s),
            Value::Null => annotations.insert(key, String::new()),
            _ => return Err(key),
        };
    }
    Ok(annotations)
}

/// A YAML error as a user can act on it: short.
fn short(msg: &str) -> String {
    let mut msg = msg.to_string();
    if msg.len() > 300 {
        let cut = (0..=300).rev().find(|&i| msg.is_char_boundary(i)).unwrap_or(0);
        msg.truncate(cut);
        msg.push('…');
    }
    msg
}

/// A JSON value's kind, as a message names it.
fn what(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STREAM: &str = "---\n# Source: app/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# Source: app/templates/a.yaml\nkind: Job\nmetadata:\n  name: b\n  annotations:\n    helm.sh/hook: test\n--- # trailing\n# Source: app/templates/empty.yaml\n# only a comment\n";

    #[test]
    fn splits_on_separator_lines_and_numbers_documents_per_source() {
        let docs = split(STREAM, "<stdin>");
        assert_eq!(docs.len(), 2);
        assert_eq!((docs[0].source.as_str(), docs[0].index), ("app/templates/a.yaml", 1));
        assert_eq!((docs[1].source.as_str(), docs[1].index), ("app/templates/a.yaml", 2));
        assert!(!docs[1].text.contains("# Source"));
    }

    #[test]
    fn documents_are_counted_as_split_cuts_them() {
        for stream in [STREAM, "", "---", "--- # c\na: 1\n---\n- x\n----\n---x\n -- \n---\n", "a: 1\n---\n---\n"] {
            let walked = bytes::lines(stream).filter(|line| is_separator(line)).count() + 1;
            assert_eq!(count_documents(stream), walked, "{stream:?}");
        }
    }

    /// The plain shape's reader gives what reading the head as JSON gives,
    /// and leaves every head with a problem to it.
    #[test]
    fn a_plain_head_reads_as_the_judged_one() {
        let texts = [
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ns\ndata:\n  k: v\n",
            "kind: Job\nmetadata:\n  name: 'j'\n  annotations:\n    helm.sh/hook: \"test\"\n    a: ~\n",
            "kind: Job\nmetadata:\n  name: j\n  namespace: \"\"\n  labels:\n    x: y\n",
            "kind: Job\nmetadata:\n  name: yes\n",
            "kind: Job\nmetadata:\n  name: \"yes\"\n  namespace: 5\n",
            "kind: Job\nmetadata:\n  name: j\n  annotations:\n    w: 5\n",
            "kind: Job\nmetadata:\n  name: j\n  annotations:\n    w:\n",
            "kind: Job\nmetadata:\n  name: j\n  annotations:\n",
            "kind: Job\nmetadata:\n  name: j\n  annotations: x\n",
            "kind: Job\nmetadata:\n  annotations:\n    a: b\n",
            "kind: ''\nmetadata:\n  name: j\n",
            "apiVersion: null\nkind: Job\nmetadata:\n  name: j\n",
            "apiVersion: 1\nkind: Job\nmetadata:\n  name: j\n",
            "kind: Job\nmetadata: x\n",
            "kind: Job\nmetadata:\n  name: j\nspec: {a: [\n",
            "# c\nkind: Job\nmetadata:\n  name: j\n  # c\n  annotations:\n    a: b\n",
        ];
        let mut fired = 0;
        for text in texts {
            let doc = Document { source: "c/templates/t.yaml".into(), index: 1, text: text.into() };
            for syntax in [Syntax::HeadOnly, Syntax::Whole] {
                let judged = judged_head(&doc, head_lines(text), syntax, false);
                let plain = head_lines(text).as_ref().and_then(plain_head).filter(|_| syntax == Syntax::HeadOnly);
                if let Some(plain) = plain {
                    fired += 1;
                    assert_eq!(Ok(Reading::Object(plain)), judged.clone().map_err(|d| d.message), "{text}");
                }
                let read = read_head(&doc, syntax).map(Reading::Object);
                assert_eq!(read.map_err(|d| d.message), judged.map_err(|d| d.message), "{text}");
            }
        }
        // The plain reader is no dead path: the first, the third and the
        // last two are read by it.
        assert_eq!(fired, 4);
    }
    #[test]
    fn a_list_is_told_by_a_top_level_items_on_the_walk_for_the_head() {
        let read = |text: &str| {
            let doc = Document { source: "c/templates/t.yaml".into(), index: 1, text: text.into() };
            read(&doc, Syntax::HeadOnly).map_err(|d| d.message)
        };
        for list in [
            "apiVersion: v1\nkind: List\nitems:\n- kind: ConfigMap\n",
            "kind: List\nitems : []\n",
            "{kind: List, items: [{kind: ConfigMap}]}\n",
            "\"items\": []\nkind: List\n",
        ] {
            assert_eq!(read(list), Ok(Reading::List), "{list}");
        }
        // Not at the top level, or null where the whole document is read: one object.
        for object in [
            "kind: ConfigMap\nmetadata:\n  name: c\ndata:\n  items: x\n",
            "{kind: C, metadata: {name: c}, items: null}",
        ] {
            assert!(matches!(read(object), Ok(Reading::Object(_))), "{object}");
        }
    }

    #[test]
    fn reads_the_head() {
        let docs = split(STREAM, "<stdin>");
        let head = parse_head(&docs[1]).unwrap();
        assert_eq!(head.display(), "Job/b");
        assert_eq!(head.annotations["helm.sh/hook"], "test");
    }

    #[test]
    fn an_objects_identity_takes_the_releases_namespace_and_no_version() {
        let head = |api_version: &str, kind: &str, namespace: Option<&str>| Head {
            api_version: api_version.into(),
            kind: kind.into(),
            name: "x".into(),
            namespace: namespace.map(str::to_string),
            ..Head::default()
        };
        let (cm, cm_in_rel) = (head("v1", "ConfigMap", None), head("v1", "ConfigMap", Some("rel")));
        assert_eq!(cm.identity_in(Some("rel")), cm_in_rel.identity_in(Some("other")));
        assert_ne!(cm.identity_in(Some("rel")), cm.identity_in(Some("other")));
        let (role, role_in_ns) = (
            head("rbac.authorization.k8s.io/v1", "ClusterRole", None),
            head("rbac.authorization.k8s.io/v1beta1", "ClusterRole", Some("ns")),
        );
        assert_eq!(role.identity_in(Some("rel")), role_in_ns.identity_in(Some("rel")), "cluster-scoped, any version");
        assert_eq!(role.identity_in(None), role.key().identity());
    }

    #[test]
    fn a_cluster_scoped_object_has_no_namespace_in_its_name() {
        let doc = &split("kind: ClusterRole\nmetadata:\n  name: x\n  namespace: ns\n", "s")[0];
        assert_eq!(parse_head(doc).unwrap().display(), "ClusterRole/x");
        let doc = &split("kind: Role\nmetadata:\n  name: x\n  namespace: ns\n", "s")[0];
        assert_eq!(parse_head(doc).unwrap().display(), "Role/ns/x");
    }

    #[test]
    fn non_string_annotation_is_an_error() {
        let doc = &split("kind: Job\nmetadata:\n  name: x\n  annotations:\n    helm.sh/hook-weight: 5\n", "s")[0];
        let err = parse_head(doc).unwrap_err();
        assert!(err.message.contains("helm.sh/hook-weight must be a string"), "{err}");
    }

    #[test]
    fn the_head_alone_reads_like_the_whole_document() {
        let docs = [
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: a\n  annotations:\n    helm.sh/hook: test\n    x: |\n      kind: Pod\nspec:\n  template:\n    metadata:\n      name: inner\n",
            "spec: {a: 1}\nmetadata: {name: flow, namespace: ns}\nkind: ConfigMap\n",
            "kind: Job\nmetadata:\n  name: &n anchored\n  labels: {x: *n}\n",
            "kind: Job\nspec: &s {x: 1}\nmetadata:\n  name: b\n  labels: *s\n",
            "{\"kind\": \"Job\", \"metadata\": {\"name\": \"json\"}}\n",
            "# comment\nkind: Job # trailing\nmetadata:\n\n  name: gap\n",
        ];
        for text in docs {
            let doc = Document { source: "s".into(), index: 1, text: text.into() };
            let whole = yaml::to_json_whole(text).unwrap();
            let name = whole.pointer("/metadata/name").and_then(Value::as_str);
            assert_eq!(parse_head(&doc).ok().map(|h| h.name), name.map(str::to_string), "{text}");
        }
    }

    /// YAML allows blanks between a key and its colon; the head cut read
    /// `kind : ConfigMap` as no kind and `metadata :` as no name (issue 33).
    #[test]
    fn keys_are_read_as_yaml_reads_them() {
        for text in [
            "kind : ConfigMap\nmetadata:\n  name: a\n",
            "kind: ConfigMap\nmetadata :\n  name: a\n",
            "apiVersion\t: v1\nkind  :   ConfigMap\nmetadata :   \n  name : a\n",
            "kind: ConfigMap\r\nmetadata:\r\n  name: a\r\n",
        ] {
            let doc = Document { source: "s".into(), index: 1, text: text.into() };
            assert_eq!(
                parse_head(&doc).map(|h| h.display()).map_err(|e| e.message),
                Ok("ConfigMap/a".into()),
                "{text:?}"
            );
        }
        assert_eq!(top_level_key("kind:Job\n"), None);
        assert_eq!(top_level_key("a:b: c\n"), Some("a:b"));
        assert_eq!(top_level_key("metadata:\n"), Some("metadata"));
        assert_eq!(top_level_key("é: x"), Some("é"));
        assert_eq!(top_level_key("é"), None);
    }

    #[test]
    fn parse_errors_are_short_and_plain() {
        let long = format!("just a string {}\n", "a".repeat(10_000));
        let err = parse_head(&split(&long, "s")[0]).unwrap_err();
        assert!(err.message.len() < 400 && !err.message.contains("RawHead"), "{}", err.message);
    }

    /// Helm 4.3.2 refuses a plain `name: yes` (`cannot unmarshal bool into Go
    /// struct field ObjectMeta.metadata.name of type string`); a quoted one is a name.
    #[test]
    fn a_name_yaml_reads_as_a_boolean_is_an_error() {
        for name in ["yes", "y", "on", "Off", "1_000"] {
            let doc = &split(&format!("kind: Pod\nmetadata:\n  name: {name}\n"), "s")[0];
            let e = parse_head(doc).unwrap_err();
            assert!(e.message.starts_with(&format!("metadata.name {name} is not a string")), "{}", e.message);
        }
        let doc = &split("kind: Pod\nmetadata:\n  name: y\n  namespace: on\n", "s")[0];
        assert!(parse_head(doc).is_err());
        for quoted in ["\"yes\"", "'on'", "!!str y"] {
            let doc = &split(&format!("kind: Pod\nmetadata:\n  name: {quoted}\n"), "s")[0];
            assert!(parse_head(doc).is_ok(), "{quoted}");
        }
    }

    /// Helm reads annotations into `map[string]string` after YAML 1.1
    /// resolution: a plain `yes` or `5` fails there, a quoted one is text.
    #[test]
    fn annotations_are_read_as_kubernetes_reads_them() {
        for plain in ["yes", "on", "5", "0644"] {
            let doc = &split(&format!("kind: Job\nmetadata:\n  name: x\n  annotations:\n    a: {plain}\n"), "s")[0];
            let e = parse_head(doc).unwrap_err();
            assert!(e.message.contains("annotation a must be a string"), "{plain}: {}", e.message);
        }
        let doc =
            &split("kind: Job\nmetadata:\n  name: x\n  annotations:\n    a: \"yes\"\n    b: 2024-01-01\n    c:\n", "s")
                [0];
        let head = parse_head(doc).unwrap();
        assert_eq!((head.annotations["a"].as_str(), head.annotations["b"].as_str()), ("yes", "2024-01-01"));
        assert_eq!(head.annotations["c"], "");
    }

    /// A document read whole (the head cut cannot be trusted) reports a
    /// syntax error anywhere in it, and a document that is no mapping says so.
    #[test]
    fn a_document_read_whole_is_checked_whole() {
        let doc = &split("{kind: Job, metadata: {name: x}}\nspec: [1\n", "s")[0];
        let e = parse_head(doc).unwrap_err();
        assert!(e.message.starts_with("is not a valid Kubernetes object: invalid YAML"), "{}", e.message);
        let doc = &split("- kind: Job\n", "s")[0];
        let e = parse_head(doc).unwrap_err();
        assert_eq!(e.message, "is not a Kubernetes object: it is a list, not a mapping with kind and metadata");
        let doc = &split("kind: Job\nmetadata: [x]\n", "s")[0];
        assert_eq!(parse_head(doc).unwrap_err().message, "metadata must be a mapping");
    }

    #[test]
    fn missing_name_is_an_error() {
        let doc = &split("kind: Job\nmetadata: {}\n", "s")[0];
        assert!(parse_head(doc).is_err());
    }

    // kube-prometheus-stack's crds/ files, as `helm template --include-crds`
    // prints them: the `# Source:` line, the file's own comment and `---`,
    // then the object.
    #[test]
    fn documents_after_a_comment_only_one_keep_its_source() {
        let stream = "---\n# Source: top/charts/crds/crds/crd-a.yaml\n# https://example.invalid/crd-a.yaml\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.example.com\n---\nkind: CustomResourceDefinition\nmetadata:\n  name: b.example.com\n---\n# Source: top/templates/cm.yaml\nkind: ConfigMap\nmetadata:\n  name: c\n";
        let docs = split(stream, "<stdin>");
        let got: Vec<(&str, usize)> = docs.iter().map(|d| (d.source.as_str(), d.index)).collect();
        assert_eq!(
            got,
            [
                ("top/charts/crds/crds/crd-a.yaml", 1),
                ("top/charts/crds/crds/crd-a.yaml", 2),
                ("top/templates/cm.yaml", 1)
            ]
        );
        // Before any `# Source:` line, the fallback.
        assert_eq!(split("kind: A\nmetadata: {name: a}\n", "<stdin>")[0].source, "<stdin>");
    }

    #[test]
    fn a_separator_needs_to_start_the_line() {
        let docs = split("kind: A\nmetadata: {name: a}\ndata:\n  x: |\n    ---\n", "s");
        assert_eq!(docs.len(), 1);
    }
}
