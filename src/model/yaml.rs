//! A manifest as the Kubernetes API machinery reads it.
//!
//! Helm turns each rendered document into JSON with `sigs.k8s.io/yaml`,
//! which decodes with goyaml v2: YAML 1.1 rules for plain (unquoted)
//! scalars. So `defaultMode: 0644` is the number 420 and `enabled: yes` is
//! `true` on every cluster Helm installs to (Sentry's relay Deployment
//! relies on the first). A YAML 1.2 reader (serde_yaml and its forks) gives
//! both as strings, which the API server then rejects — and once parsed,
//! whether a scalar was quoted is lost. This module reads the events instead
//! (saphyr-parser: pure Rust, scalar styles and tags) and resolves plain
//! scalars as goyaml v2's `resolve` does:
//! - `~`, `null`, `Null`, `NULL` and the empty scalar are null;
//! - `y Y yes Yes YES true True TRUE on On ON` are true, and
//!   `n N no No NO false False FALSE off Off OFF` false;
//! - integers as Go's `strconv.ParseInt(s, 0, 64)` reads them after removing
//!   `_`: a sign, `0x`/`0o`/`0b` prefixes, and a leading `0` for octal;
//!   then unsigned 64-bit; `-0b…` too;
//! - floats matching `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
//!   and `.5`-style ones;
//! - anything else, quoted scalars and `!!str`, are strings.
//!
//! Mapping keys that resolve to booleans or numbers become their decimal
//! spelling, as `sigs.k8s.io/yaml` makes them; `<<` merges mappings. An
//! unquoted date (`2024-01-01`) stays a string, as it does on the way to the
//! API server. Checked against stock Helm 4.2.4 on the test bed: a custom
//! resource with `0644`, `"0644"`, `yes`, `y`, `on`, `0o17`, `1_000`,
//! `2024-01-01`, `0x1F`, `.5`, `08`, `~`, `Off` and a key `n` was stored as
//! 420, "0644", true, true, true, 15, 1000, "2024-01-01", 31, 0.5, 8, null,
//! false and a key "false" — what this module makes of them. `.inf` and
//! `.nan` have no JSON form; they stay strings here (Helm fails on them).

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use serde_json::{Map, Number, Value};

/// How deep a document may nest. The YAML scanner here (saphyr-parser's,
/// as libyaml's) looks at every open flow level for
/// each token, so time grows with the square of the depth: 100,000 levels
/// of `[` took minutes. And [`to_json`] recurses once per level, on Wasm's
/// one-megabyte stack. No Kubernetes object nests this deep.
const MAX_DEPTH: usize = 256;

/// goyaml's bound on alias expansion (decode.go, `allowedAliasRatio`), which
/// Helm meets through `sigs.k8s.io/yaml`: once a document has decoded more
/// than 1,000 nodes, more than 100 of them through aliases, the share that
/// came through aliases may be at most 99% up to 400,000 nodes, falling
/// linearly to 10% at 4,000,000 and staying there. Nine levels of nine
/// aliases (a "billion laughs") is refused within a few thousand nodes,
/// where expanding it would take gigabytes.
fn allowed_alias_ratio(decoded: u64) -> f64 {
    const LOW: u64 = 400_000;
    const HIGH: u64 = 4_000_000;
    match decoded {
        d if d <= LOW => 0.99,
        d if d >= HIGH => 0.10,
        d => 0.99 - 0.89 * ((d - LOW) as f64 / (HIGH - LOW) as f64),
    }
}

/// goyaml's check, made after every node it decodes: `aliased` of the
/// `decoded` nodes so far came through an alias.
fn check_aliasing(aliased: u64, decoded: u64) -> Result<(), YamlError> {
    if aliased > 100 && decoded > 1000 && aliased as f64 / decoded as f64 > allowed_alias_ratio(decoded) {
        return Err(YamlError::ExcessiveAliasing { aliased, decoded });
    }
    Ok(())
}

/// How many times its own size a document's aliases may add in text. goyaml
/// counts nodes, and a Go string shares its bytes when aliased; a Rust
/// string is copied, so one megabyte-long scalar aliased a thousand times
/// (which goyaml's node count allows) would take a gigabyte here.
const MAX_ALIAS_GROWTH: usize = 8;

/// The text aliases may add to any document, however short, so that
/// goyaml's node count, not this, is what refuses a bomb of short scalars
/// (the message then says what Helm would say).
const MIN_ALIAS_TEXT: usize = 1 << 20;

/// Why a document cannot be read as Kubernetes reads it.
#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    /// Found by [`check_depth`], before any YAML scanner runs.
    #[error(
        "nests [ and {{ more than {} levels deep (line {line}); no Kubernetes object does, and reading it would take minutes",
        MAX_DEPTH
    )]
    BracketsTooDeep { line: usize },
    /// Block nesting (indentation), which [`check_depth`] does not bound.
    #[error("nests more than {} levels deep", MAX_DEPTH)]
    TooDeep,
    #[error("invalid YAML: {0}")]
    Scan(#[source] saphyr_parser::ScanError),
    /// An event where a node belongs (its debug spelling).
    #[error("invalid YAML: unexpected {0}")]
    Unexpected(String),
    #[error("an alias names an unknown anchor")]
    UnknownAnchor,
    /// goyaml's rule ([`allowed_alias_ratio`]), as Helm fails on it.
    #[error(
        "document contains excessive aliasing: {aliased} of its {decoded} nodes come from aliases, more than \
         {:.0}% (the bound of goyaml, Helm's YAML reader, which refuses it too)",
        allowed_alias_ratio(*.decoded) * 100.0
    )]
    ExcessiveAliasing { aliased: u64, decoded: u64 },
    /// [`MAX_ALIAS_GROWTH`]: memory, where goyaml's node count does not bound it.
    #[error(
        "its aliases expand to more than {limit} bytes of text ({MAX_ALIAS_GROWTH} times the document's \
         {size} bytes, at least {MIN_ALIAS_TEXT}); write the repeated text out or anchor less of it"
    )]
    AliasTextTooLarge { limit: usize, size: usize },
    #[error("a merge key (<<) takes mappings")]
    MergeItem,
    #[error("a merge key (<<) takes a mapping or a list of mappings")]
    Merge,
    #[error("a mapping key must be a string, a number or a boolean, not {0}")]
    Key(Value),
}

/// Refuses a document whose `[`/`{` nest deeper than [`MAX_DEPTH`],
/// in one pass before any YAML scanner sees it. Brackets are counted
/// everywhere, quoted or not: real text that leaves a thousand of them
/// open does not exist, and a count that never undercounts needs no YAML.
pub(super) fn check_depth(text: &str) -> Result<(), YamlError> {
    if text.len() <= MAX_DEPTH {
        // Too short to open more brackets than the bound.
        return Ok(());
    }
    let mut depth = 0usize;
    let mut line = 1;
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(YamlError::BracketsTooDeep { line });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => line += 1,
            _ => {}
        }
    }
    Ok(())
}

/// Scans all of `text` for YAML syntax errors, building nothing: for a
/// document whose head alone was read, the rest must still be YAML, as Helm
/// converts all of it to JSON before anything is installed.
///
/// Its aliases are counted as goyaml counts them ([`allowed_alias_ratio`]),
/// without expanding any: Helm refuses an alias bomb anywhere in a document
/// (`yaml: document contains excessive aliasing`), under a pod template as
/// well as in the head.
pub fn check_syntax(text: &str) -> Result<(), YamlError> {
    check_depth(text)?;
    let mut parser = Parser::new_from_str(text);
    let mut count = AliasCount::default();
    while let Some(event) = parser.next_event() {
        count.event(&event.map_err(YamlError::Scan)?.0)?;
    }
    Ok(())
}

/// The nodes goyaml would decode from a stream of events, aliases counted
/// by the size of what they name, as [`Reader`] counts them while it
/// builds: a pass that builds nothing.
#[derive(Default)]
struct AliasCount {
    decoded: u64,
    aliased: u64,
    /// Collections open around the current event.
    depth: usize,
    /// The anchored collections among them: depth, anchor, `decoded` at their start.
    open: Vec<(usize, usize, u64)>,
    /// Nodes each anchor's node decodes to, aliases in it expanded, by the
    /// anchor's id: the parser numbers anchors from 1 as they come.
    anchors: Vec<u64>,
}

impl AliasCount {
    fn event(&mut self, event: &Event) -> Result<(), YamlError> {
        match *event {
            Event::DocumentStart(_) => {
                // goyaml decodes each document afresh, the document node counted.
                *self = AliasCount { decoded: 1, ..AliasCount::default() };
            }
            Event::Scalar(_, _, anchor, _) => {
                self.node()?;
                if anchor > 0 {
                    self.anchor(anchor, 1);
                }
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.node()?;
                self.depth += 1;
                if anchor > 0 {
                    self.open.push((self.depth, anchor, self.decoded));
                }
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(&(depth, anchor, start)) = self.open.last().filter(|o| o.0 == self.depth) {
                    self.open.pop();
                    debug_assert_eq!(depth, self.depth);
                    self.anchor(anchor, self.decoded - start + 1);
                }
                self.depth = self.depth.saturating_sub(1);
            }
            Event::Alias(id) => {
                self.node()?;
                let nodes = self.anchors.get(id).copied().filter(|&n| n > 0).ok_or(YamlError::UnknownAnchor)?;
                self.decoded += nodes;
                self.aliased += nodes;
                self.check()?;
            }
            _ => {}
        }
        Ok(())
    }

    fn node(&mut self) -> Result<(), YamlError> {
        self.decoded += 1;
        self.check()
    }

    fn anchor(&mut self, id: usize, nodes: u64) {
        if self.anchors.len() <= id {
            self.anchors.resize(id + 1, 0);
        }
        self.anchors[id] = nodes;
    }

    fn check(&self) -> Result<(), YamlError> {
        check_aliasing(self.aliased, self.decoded)
    }
}

/// The first document of `text` as JSON, with Kubernetes' YAML rules.
pub fn to_json(text: &str) -> Result<Value, YamlError> {
    first_document(text, Scalars::Resolved, Rest::Unread)
}

/// [`to_json`], and an error anywhere after the first document's end is an
/// error too, as it is when `lint` or `plan` reads a document whole.
pub fn to_json_whole(text: &str) -> Result<Value, YamlError> {
    first_document(text, Scalars::Resolved, Rest::Scanned)
}

/// The first document with every scalar the text it is written as (`0644`
/// stays `"0644"`): for messages that quote what the chart wrote.
pub(super) fn to_json_as_written(text: &str) -> Result<Value, YamlError> {
    first_document(text, Scalars::AsWritten, Rest::Unread)
}

#[derive(Clone, Copy, PartialEq)]
enum Scalars {
    /// Plain scalars as goyaml v2 resolves them.
    Resolved,
    AsWritten,
}

#[derive(Clone, Copy, PartialEq)]
enum Rest {
    Unread,
    /// Scanned to the end of the text for syntax errors.
    Scanned,
}

fn first_document(text: &str, scalars: Scalars, rest: Rest) -> Result<Value, YamlError> {
    check_depth(text)?;
    let mut reader = Reader {
        parser: Parser::new_from_str(text),
        anchors: HashMap::new(),
        depth: 0,
        scalars,
        // goyaml counts the document node too.
        decoded: 1,
        aliased: 0,
        text_bytes: 0,
        alias_text_budget: text.len().saturating_mul(MAX_ALIAS_GROWTH).max(MIN_ALIAS_TEXT),
        size: text.len(),
    };
    loop {
        match reader.next()? {
            Event::StreamEnd => return Ok(Value::Null),
            Event::DocumentStart(_) => break,
            _ => {}
        }
    }
    let value = match reader.next()? {
        Event::DocumentEnd => Value::Null,
        event => reader.node(event)?,
    };
    if rest == Rest::Scanned {
        while !matches!(reader.next()?, Event::StreamEnd) {}
    }
    Ok(value)
}

/// An anchored node and what expanding it once more costs.
struct Anchored {
    value: Value,
    /// Nodes goyaml decodes for it, aliases within it expanded.
    nodes: u64,
    /// Bytes of scalar text in it, likewise.
    text_bytes: usize,
}

struct Reader<'a> {
    parser: Parser<'a, saphyr_parser::StrInput<'a>>,
    anchors: HashMap<usize, Anchored>,
    /// Nodes open around the current one: `node` recurses, and block
    /// nesting (indentation) is not bounded by [`check_depth`].
    depth: usize,
    scalars: Scalars,
    /// Nodes decoded so far, aliases expanded: goyaml's `decodeCount`.
    decoded: u64,
    /// Those of them that came through an alias: goyaml's `aliasCount`.
    aliased: u64,
    /// Scalar text read so far, aliases expanded.
    text_bytes: usize,
    /// What of `text_bytes` aliases may still add.
    alias_text_budget: usize,
    /// The document's length, for messages.
    size: usize,
}

impl<'a> Reader<'a> {
    /// goyaml's check, made after every node and every alias's expansion:
    /// within one expansion the share of aliased nodes only grows and the
    /// allowed share only falls, so checking at its end refuses exactly the
    /// documents goyaml refuses somewhere inside it.
    fn check_aliasing(&self) -> Result<(), YamlError> {
        check_aliasing(self.aliased, self.decoded)
    }

    fn next(&mut self) -> Result<Event<'a>, YamlError> {
        match self.parser.next_event() {
            Some(Ok((event, _))) => Ok(event),
            Some(Err(e)) => Err(YamlError::Scan(e)),
            None => Ok(Event::StreamEnd),
        }
    }

    /// The node that `event` starts.
    fn node(&mut self, event: Event<'a>) -> Result<Value, YamlError> {
        if self.depth >= MAX_DEPTH {
            return Err(YamlError::TooDeep);
        }
        self.decoded += 1;
        self.check_aliasing()?;
        let (decoded, text_bytes) = (self.decoded, self.text_bytes);
        self.depth += 1;
        let read = self.node_within(event);
        self.depth -= 1;
        let (value, anchor) = read?;
        if anchor > 0 {
            // The node itself was counted before it was read.
            let nodes = self.decoded - decoded + 1;
            let text_bytes = self.text_bytes - text_bytes;
            self.anchors.insert(anchor, Anchored { value: value.clone(), nodes, text_bytes });
        }
        Ok(value)
    }

    /// A copy of the node `id` anchors, counted as goyaml counts it and
    /// refused before it is copied when it would exceed either bound.
    fn alias(&mut self, id: usize) -> Result<Value, YamlError> {
        let anchored = self.anchors.get(&id).ok_or(YamlError::UnknownAnchor)?;
        self.decoded += anchored.nodes;
        self.aliased += anchored.nodes;
        self.check_aliasing()?;
        if anchored.text_bytes > self.alias_text_budget {
            let limit = self.size.saturating_mul(MAX_ALIAS_GROWTH).max(MIN_ALIAS_TEXT);
            return Err(YamlError::AliasTextTooLarge { limit, size: self.size });
        }
        self.alias_text_budget -= anchored.text_bytes;
        self.text_bytes += anchored.text_bytes;
        Ok(anchored.value.clone())
    }

    /// The node `event` starts, and its anchor (0: none).
    fn node_within(&mut self, event: Event<'a>) -> Result<(Value, usize), YamlError> {
        Ok(match event {
            Event::Scalar(text, _, anchor, _) if self.scalars == Scalars::AsWritten => {
                self.text_bytes += text.len();
                (Value::String(text.into_owned()), anchor)
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.text_bytes += text.len();
                (scalar(&text, style, tag.as_deref())?, anchor)
            }
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    match self.next()? {
                        Event::SequenceEnd => break,
                        e => items.push(self.node(e)?),
                    }
                }
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, _) => (Value::Object(self.mapping()?), anchor),
            Event::Alias(id) => (self.alias(id)?, 0),
            e => return Err(YamlError::Unexpected(format!("{e:?}"))),
        })
    }

    fn mapping(&mut self) -> Result<Map<String, Value>, YamlError> {
        let mut map = Map::new();
        let mut merged: Vec<Map<String, Value>> = Vec::new();
        loop {
            let key_event = self.next()?;
            if matches!(key_event, Event::MappingEnd) {
                break;
            }
            let merge = matches!(&key_event, Event::Scalar(k, ScalarStyle::Plain, _, None) if k == "<<");
            let key = self.node(key_event)?;
            let value_event = self.next()?;
            let value = self.node(value_event)?;
            if merge {
                match value {
                    Value::Object(m) => merged.push(m),
                    Value::Array(items) => {
                        for item in items {
                            match item {
                                Value::Object(m) => merged.push(m),
                                _ => return Err(YamlError::MergeItem),
                            }
                        }
                    }
                    _ => return Err(YamlError::Merge),
                }
                continue;
            }
            map.insert(key_string(key)?, value);
        }
        // Keys written in the mapping win over merged ones; earlier merges over later.
        for m in merged {
            for (k, v) in m {
                map.entry(k).or_insert(v);
            }
        }
        Ok(map)
    }
}

fn key_string(key: Value) -> Result<String, YamlError> {
    match key {
        Value::String(s) => Ok(s),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(YamlError::Key(other)),
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, YamlError> {
    let core = tag.filter(|t| t.is_yaml_core_schema()).map(|t| t.suffix.as_str());
    match (style, core, tag) {
        (_, Some("str" | "binary"), _) => return Ok(Value::String(text.to_string())),
        // A local or unknown tag: goyaml keeps the text.
        (_, None, Some(_)) => return Ok(Value::String(text.to_string())),
        (ScalarStyle::Plain, _, _) | (_, Some(_), _) => {}
        _ => return Ok(Value::String(text.to_string())),
    }
    Ok(resolve(text).unwrap_or_else(|| Value::String(text.to_string())))
}

/// A plain scalar as Kubernetes reads it (`yes` is true, `a` the string).
pub(super) fn plain(s: &str) -> Value {
    resolve(s).unwrap_or_else(|| Value::String(s.to_string()))
}

/// What Kubernetes reads `s` as when it is written unquoted, if that is not
/// the string itself (`yes` is true, `0644` is 420, `~` null).
pub(super) fn plain_non_string(s: &str) -> Option<Value> {
    resolve(s).filter(|v| !v.is_string())
}

/// goyaml v2's resolution of a plain scalar; `None`: a string.
fn resolve(s: &str) -> Option<Value> {
    // Most scalars (keys, names) are neither a word below nor a number: told
    // by their first byte and length, without comparing them to each word.
    if let Some(&c) = s.as_bytes().first() {
        let word =
            s.len() <= 5 && matches!(c, b'~' | b'n' | b'N' | b'y' | b'Y' | b't' | b'T' | b'o' | b'O' | b'f' | b'F');
        if !word && !c.is_ascii_digit() && !matches!(c, b'.' | b'+' | b'-') {
            return None;
        }
    }
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Some(Value::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Some(Value::Bool(false))
        }
        _ => {}
    }
    let first = s.as_bytes()[0];
    if first == b'.' {
        return float(s);
    }
    if !(first.is_ascii_digit() || first == b'+' || first == b'-') {
        return None;
    }
    let plain = s.replace('_', "");
    if let Some(i) = go_int(&plain) {
        return Some(Value::Number(i));
    }
    if float_shape(&plain) {
        return float(&plain);
    }
    None
}

/// `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`.
fn go_int(s: &str) -> Option<Number> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = digits.to_ascii_lowercase();
    let (radix, body) = if let Some(b) = lower.strip_prefix("0x") {
        (16, b)
    } else if let Some(b) = lower.strip_prefix("0o") {
        (8, b)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (2, b)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if negative {
        // i64::MIN's magnitude is one more than i64::MAX.
        let v = 0i64.checked_sub_unsigned(magnitude)?;
        Some(Number::from(v))
    } else {
        Some(Number::from(magnitude))
    }
}

/// goyaml's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn float_shape(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn float(s: &str) -> Option<Value> {
    match s {
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf"
        | "-.INF" => {
            // JSON has no such number; Helm fails to convert it too.
            Some(Value::String(s.to_string()))
        }
        _ => s.parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn j(text: &str) -> Value {
        to_json(text).unwrap()
    }

    #[test]
    fn plain_scalars_resolve_as_kubernetes_reads_them() {
        let doc = j("a: 0644\nb: \"0644\"\nc: yes\nd: 'on'\ne: off\nf: ~\ng:\nh: 0x1F\ni: 1_000\nj: -0b101\nk: 1.5e3\nl: .5\nm: 12abc\nnn: 08\no: 0o17\np: 18446744073709551615\nq: -9223372036854775808\nr: +7\ns: !!str 10\nt: !!int \"10\"\nu: 1e\nv: v1.2\n");
        assert_eq!(
            doc,
            json!({"a": 420, "b": "0644", "c": true, "d": "on", "e": false, "f": null, "g": null, "h": 31,
                   "i": 1000, "j": -5, "k": 1500.0, "l": 0.5, "m": "12abc", "nn": 8.0, "o": 15,
                   "p": 18446744073709551615u64, "q": i64::MIN, "r": 7, "s": "10", "t": 10, "u": "1e", "v": "v1.2"})
        );
    }

    /// What stock Helm 4.2.4 stored for these fields of a custom resource on the bed
    /// (an untyped spec, read back with kubectl): the module's vector.
    #[test]
    fn as_stock_helm_stored_them() {
        let doc = j("a: 0644\nb: \"0644\"\nc: yes\nd: y\ne: on\nf: 0o17\ng: 1_000\nh: 2024-01-01\ni: 0x1F\nj: .5\nk: 08\nl: ~\nm: Off\nn: 1e3\n");
        assert_eq!(
            doc,
            json!({"a": 420, "b": "0644", "c": true, "d": true, "e": true, "f": 15, "g": 1000, "h": "2024-01-01",
                   "i": 31, "j": 0.5, "k": 8.0, "l": null, "m": false, "false": 1000.0})
        );
    }

    #[test]
    fn sentry_relay_volume_mode_is_a_number() {
        let doc = j(
            "spec:\n  volumes:\n    - name: config\n      configMap:\n        name: relay\n        defaultMode: 0644\n",
        );
        assert_eq!(doc["spec"]["volumes"][0]["configMap"]["defaultMode"], 420);
    }

    #[test]
    fn block_scalars_keys_anchors_and_merges() {
        let doc = j(
            "base: &b\n  x: 1\n  w: 2\nkid:\n  <<: *b\n  w: 3\nlist: [*b, 'z']\n1: one\ny: t\ntext: |\n  0644\n  yes\n",
        );
        assert_eq!(
            doc,
            json!({"base": {"x": 1, "w": 2}, "kid": {"x": 1, "w": 3}, "list": [{"x": 1, "w": 2}, "z"],
                   // goyaml v2 reads the key `y` as true, as Kubernetes does.
                   "1": "one", "true": "t", "text": "0644\nyes\n"})
        );
    }

    /// Issue 46: an object-store chart closes a flow sequence at its key's
    /// column; go-yaml (Helm, Kubernetes) reads it, so the plugin does too
    /// (third_party/saphyr-parser/PATCHED.md). Block context keeps its rule.
    #[test]
    fn flow_collections_are_not_bound_by_block_indentation() {
        let doc = j("spec:\n  containers:\n    - name: c\n      command: [\n        \"/bin/sh\",\n        \"-c\"\n      ]\n      args: {\n    a: 1,\n  b: \"two\n words\"\n  }\n");
        assert_eq!(doc["spec"]["containers"][0]["command"], json!(["/bin/sh", "-c"]));
        assert_eq!(doc["spec"]["containers"][0]["args"], json!({"a": 1, "b": "two words"}));
        assert!(to_json("a:\n  b: 1\n c: 2\n").is_err());
    }

    #[test]
    fn documents_and_errors() {
        assert_eq!(j(""), Value::Null);
        assert_eq!(j("---\n# only a comment\n"), Value::Null);
        assert_eq!(j("---\nkind: A\n---\nkind: B\n"), json!({"kind": "A"}));
        assert!(to_json("a: [1, 2").unwrap_err().to_string().starts_with("invalid YAML: "));
        assert!(matches!(to_json("a: *nothing\n"), Err(YamlError::Scan(_))));
        assert_eq!(
            to_json("? [1]\n: x\n").unwrap_err().to_string(),
            "a mapping key must be a string, a number or a boolean, not [1]"
        );
    }

    #[test]
    fn deep_nesting_is_refused_at_once() {
        let depth = 100_000;
        let flow = format!("kind: A\nmetadata:\n  labels: {}{}\n", "[".repeat(depth), "]".repeat(depth));
        let start = std::time::Instant::now();
        let e = to_json(&flow).unwrap_err();
        assert_eq!(
            e.to_string(),
            "nests [ and { more than 256 levels deep (line 3); no Kubernetes object does, and reading it would take minutes"
        );
        // Block nesting, which indentation spells out, meets the reader's own bound.
        let block: String = (0..300).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
        assert_eq!(to_json(&block).unwrap_err().to_string(), "nests more than 256 levels deep");
        assert!(start.elapsed() < std::time::Duration::from_secs(1), "{:?}", start.elapsed());
        // 250 levels still read.
        let ok = format!("a: {}1{}\n", "[".repeat(250), "]".repeat(250));
        assert!(to_json(&ok).is_ok());
    }

    /// Nine levels of nine aliases: 9^9 strings if expanded.
    fn alias_bomb(indent: &str) -> String {
        let mut out = format!("{indent}a: &a [{}]\n", ["\"lol\""; 9].join(","));
        for (prev, name) in
            ["a", "b", "c", "d", "e", "f", "g", "h"].iter().zip(["b", "c", "d", "e", "f", "g", "h", "i"])
        {
            out.push_str(&format!("{indent}{name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(",")));
        }
        out
    }

    #[test]
    fn an_alias_bomb_is_refused_as_goyaml_refuses_it() {
        let start = std::time::Instant::now();
        let e = to_json(&alias_bomb("")).unwrap_err();
        assert!(matches!(e, YamlError::ExcessiveAliasing { .. }), "{e}");
        assert!(e.to_string().starts_with("document contains excessive aliasing: "), "{e}");
        assert!(e.to_string().contains("more than 99%"), "{e}");
        assert!(start.elapsed() < std::time::Duration::from_secs(1), "{:?}", start.elapsed());
        // Three levels (819 nodes) are under goyaml's 1,000 and read.
        let small: String = alias_bomb("").lines().take(3).map(|l| format!("{l}\n")).collect();
        assert_eq!(j(&small)["c"][8][8][8], "lol");
    }

    /// goyaml's numbers: past 1,000 nodes and 100 aliased ones, 99% may be aliased.
    #[test]
    fn the_alias_ratio_is_goyamls() {
        assert_eq!(allowed_alias_ratio(1_000), 0.99);
        assert_eq!(allowed_alias_ratio(4_000_000), 0.10);
        assert!((allowed_alias_ratio(2_200_000) - 0.545).abs() < 1e-9);
        // One anchored item aliased 2,000 times: 2,000 of about 4,000 nodes.
        let many = format!("x: &x 1\nl: [{}]\n", vec!["*x"; 2_000].join(","));
        assert_eq!(j(&many)["l"].as_array().unwrap().len(), 2_000);
        // A list of 1,000 anchored once (1,001 nodes) and aliased 20 times:
        // 20,020 of 21,047 nodes (95%); 200 times: 200,200 of 201,407 (99.4%).
        let list = |n| format!("x: &x [{}]\nl: [{}]\n", vec!["1"; 1_000].join(","), vec!["*x"; n].join(","));
        assert!(to_json(&list(20)).is_ok());
        let e = to_json(&list(200)).unwrap_err();
        assert!(matches!(e, YamlError::ExcessiveAliasing { .. }), "{e}");
    }

    /// Issue 39: the pass that builds nothing counts aliases as the reader
    /// that builds does, so a bomb in a body is refused where Helm refuses
    /// it, and a document Helm reads is not.
    #[test]
    fn the_syntax_pass_counts_aliases_as_the_reader_does() {
        let list = |n| format!("x: &x [{}]\nl: [{}]\n", vec!["1"; 1_000].join(","), vec!["*x"; n].join(","));
        let nested =
            "spec:\n  template:\n    metadata:\n      annotations:\n        a: &a {k: [1, 2, &b [3, *x]], m: *x}\n";
        for (text, refused) in [
            (alias_bomb(""), true),
            (alias_bomb("  "), true),
            (format!("spec:\n  nodeSelector:\n{}", alias_bomb("    ")), true),
            (list(20), false),
            (list(200), true),
            (format!("x: &x 1\nl: [{}]\n", vec!["*x"; 2_000].join(",")), false),
            (format!("x: &x 1\n{nested}        c: [*a, *b, *a]\n"), false),
        ] {
            let built = matches!(to_json_whole(&text), Err(YamlError::ExcessiveAliasing { .. }));
            let counted = matches!(check_syntax(&text), Err(YamlError::ExcessiveAliasing { .. }));
            assert_eq!((built, counted), (refused, refused), "{}", &text[..text.len().min(120)]);
        }
        let start = std::time::Instant::now();
        assert!(check_syntax(&format!("spec:\n  nodeSelector:\n{}", alias_bomb("    "))).is_err());
        assert!(start.elapsed() < std::time::Duration::from_secs(1), "{:?}", start.elapsed());
    }

    /// goyaml counts nodes; a long scalar aliased often is bounded by size.
    #[test]
    fn aliases_may_not_multiply_the_text() {
        let long = "x".repeat(200_000);
        let ok = format!("s: &s {long}\nl: [{}]\n", ["*s"; 7].join(","));
        assert!(to_json(&ok).is_ok());
        let bad = format!("s: &s {long}\nl: [{}]\n", ["*s"; 9].join(","));
        let e = to_json(&bad).unwrap_err();
        let size = bad.len();
        assert!(matches!(e, YamlError::AliasTextTooLarge { limit, size: s } if limit == 8 * size && s == size), "{e}");
        assert!(e.to_string().starts_with(&format!("its aliases expand to more than {} bytes", 8 * size)), "{e}");
    }

    #[test]
    fn never_panics_on_odd_scalars() {
        for s in [
            "-",
            "+",
            "0x",
            "-0x",
            "0b",
            "0o",
            "00",
            "-",
            ".",
            "..",
            "+.",
            "1..2",
            "0x-1",
            "_",
            "--1",
            "1e+",
            "9".repeat(40).as_str(),
        ] {
            let _ = to_json(&format!("a: {s}\n"));
        }
    }
}
