//! A reader for the one shape almost every document head has: a block
//! mapping of `key: value` lines, plain or simply quoted scalars, nested by
//! indentation. Anything else (flow collections, anchors, tags, block
//! scalars, escapes, comments after a value, multi-line scalars, non-ASCII
//! text, repeated keys) is `None`, and the caller reads the text with the
//! full YAML parser ([`crate::model::yaml`]).
//!
//! Why: under Helm's Wasm runtime every loop iteration of the plugin exits
//! to Go (docs/benchmarks.md), and the YAML scanner loops several times per
//! character; reading 10,000 small heads took most of a second there. This
//! reader looks at each byte once. It must read every text it accepts
//! exactly as [`crate::model::yaml::to_json`] does: `tests/input_properties.rs`
//! checks that on the public charts of testdata/ and mutations of them.

use serde_json::Value;

use crate::base::bytes;
use crate::model::yaml;

/// One `key: value` or `key:` line.
struct Line<'t> {
    indent: usize,
    key: &'t str,
    /// `None` for `key:` alone: a nested mapping follows, or null.
    value: Option<&'t str>,
}

/// A scalar as written: what YAML makes of it is decided where it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scalar<'t> {
    /// The text between the quotes (no escapes inside).
    Quoted(&'t str),
    /// A plain scalar: a string, or a boolean, number or null by YAML 1.1.
    Plain(&'t str),
}

/// A head read by this reader, borrowing its text: the plan takes the few
/// strings it needs from it without building a JSON value first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum BlockValue<'t> {
    Scalar(Scalar<'t>),
    /// `key:` with nothing nested below it.
    Null,
    /// Entries in their order; no key twice.
    Map(Vec<(&'t str, BlockValue<'t>)>),
}

impl<'t> BlockValue<'t> {
    /// The node as the JSON the parser makes of it.
    pub(super) fn to_json(&self) -> Value {
        match self {
            BlockValue::Scalar(Scalar::Quoted(s)) => Value::String(s.to_string()),
            BlockValue::Scalar(Scalar::Plain(s)) => yaml::plain(s),
            BlockValue::Null => Value::Null,
            BlockValue::Map(entries) => {
                Value::Object(entries.iter().map(|(k, v)| (k.to_string(), v.to_json())).collect())
            }
        }
    }

    /// The text, when YAML reads the node as a string.
    pub(super) fn as_str(&self) -> Option<&'t str> {
        match *self {
            BlockValue::Scalar(Scalar::Quoted(s)) => Some(s),
            BlockValue::Scalar(Scalar::Plain(s)) if yaml::plain_non_string(s).is_none() => Some(s),
            _ => None,
        }
    }

    /// The value under `key`, when the node is a mapping that has it.
    pub(super) fn get(&self, key: &str) -> Option<&BlockValue<'t>> {
        match self {
            BlockValue::Map(entries) => entries.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// `text` as JSON, or `None` when it is not of the simple shape above.
pub fn read(text: &str) -> Option<Value> {
    read_lines(bytes::lines(text)).map(|node| node.to_json())
}

/// The lines (each with or without its `\n`) as one mapping, or `None`
/// when they are not of the simple shape above.
pub(super) fn read_lines<'t>(raw_lines: impl IntoIterator<Item = &'t str>) -> Option<BlockValue<'t>> {
    let mut lines = Vec::with_capacity(16);
    for raw in raw_lines {
        let raw = raw.strip_suffix('\n').unwrap_or(raw);
        // Control characters (CR and tab included), `#` anywhere but at the
        // start of a comment line, and non-ASCII text are left to the parser.
        if !bytes::printable_ascii(raw.as_bytes()) {
            return None;
        }
        let content = &raw[bytes::leading(raw.as_bytes(), b' ')..];
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if bytes::find(content.as_bytes(), b'#').is_some() {
            return None;
        }
        lines.push(line(raw.len() - content.len(), content)?);
    }
    if lines.is_empty() {
        // No head at all: the parser reads what the document is instead.
        return None;
    }
    let mut at = 0;
    let map = mapping(&lines, &mut at, 0)?;
    (at == lines.len()).then_some(map)
}

/// Characters that start something other than a plain scalar, or that this
/// reader leaves to the parser (`-5`, `<<`).
fn indicator(c: u8) -> bool {
    matches!(c, b'-' | b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>')
        || matches!(c, b'\'' | b'"' | b'%' | b'@' | b'`' | b'<')
}

fn line(indent: usize, content: &str) -> Option<Line<'_>> {
    if indicator(content.as_bytes()[0]) {
        return None;
    }
    let bytes = content.as_bytes();
    let colon = bytes::positions(bytes, b':').find(|&i| matches!(bytes.get(i + 1), None | Some(b' ')))?;
    let key = spaces_cut(&content[..colon]);
    // A key YAML resolves to a boolean, number or null is left to the parser.
    if key.is_empty() || yaml::plain_non_string(key).is_some() {
        return None;
    }
    let value = &content[colon + 1..];
    let value = spaces_cut(&value[bytes::leading(value.as_bytes(), b' ')..]);
    Some(Line { indent, key, value: (!value.is_empty()).then_some(value) })
}

/// `text` without the spaces it ends with: most texts end with none, told
/// without a loop (`trim_end_matches` looks at characters one at a time).
fn spaces_cut(text: &str) -> &str {
    match text.ends_with(' ') {
        false => text,
        true => text.trim_end_matches(' '),
    }
}

fn mapping<'t>(lines: &[Line<'t>], at: &mut usize, indent: usize) -> Option<BlockValue<'t>> {
    let mut entries: Vec<(&'t str, BlockValue<'t>)> = Vec::new();
    while let Some(l) = lines.get(*at) {
        if l.indent < indent {
            break;
        }
        if l.indent > indent {
            // A continuation line or an indentation this reader does not follow.
            return None;
        }
        *at += 1;
        let value = match l.value {
            Some(v) => BlockValue::Scalar(scalar(v)?),
            None => match lines.get(*at) {
                Some(next) if next.indent > indent => mapping(lines, at, next.indent)?,
                _ => BlockValue::Null,
            },
        };
        // Heads have a few keys a mapping: a look at each is cheaper than
        // an ordered map's allocations.
        if entries.iter().any(|(k, _)| *k == l.key) {
            return None;
        }
        entries.push((l.key, value));
    }
    Some(BlockValue::Map(entries))
}

fn scalar(v: &str) -> Option<Scalar<'_>> {
    let quoted = |q: char| {
        let inner = v.strip_prefix(q)?.strip_suffix(q)?;
        // `''` and `\` escapes are left to the parser.
        let escape = |b| bytes::find(inner.as_bytes(), b).is_some();
        let escaped = escape(q as u8) || (q == '"' && escape(b'\\'));
        (!escaped).then_some(Scalar::Quoted(inner))
    };
    match v.as_bytes()[0] {
        b'\'' => quoted('\''),
        b'"' => quoted('"'),
        c if indicator(c) => None,
        // `a: b` in a value is an error, `a:` a key: the parser says which.
        _ if v.ends_with(':')
            || bytes::positions(v.as_bytes(), b':').any(|i| v.as_bytes().get(i + 1) == Some(&b' ')) =>
        {
            None
        }
        _ => Some(Scalar::Plain(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_parser_reads() {
        for text in [
            "kind: ConfigMap\nmetadata:\n  name: a\n",
            "apiVersion: v1\nkind : Job\nmetadata:\n  name: 'x'\n  annotations:\n    helm.sh/hook: pre-install,post-install\n    w: \"5\"\n    j: '[\"a\", \"b\"]'\n    k: \"['a']\"\n    num: 5\n    b: yes\n    e:\n",
            "metadata:\n\n  # c\n  labels:\n      a: b\n  name: c\nkind: Pod\n",
            "kind: ~\n",
        ] {
            assert_eq!(read(text), Some(yaml::to_json(text).unwrap()), "{text}");
        }
    }

    #[test]
    fn leaves_the_rest_to_the_parser() {
        for text in [
            "kind: a\n  b\n",
            "kind: {a: b}\n",
            "kind: &a x\n",
            "kind: a # c\n",
            "kind: 'it''s'\n",
            "kind: \"a\\tb\"\n",
            "kind: a\nkind: b\n",
            "kind:\n- a\n",
            "kind: |\n  a\n",
            "kind: é\n",
            "kind: a\r\n",
            "yes: a\n",
            "kind: a: b\n",
            "metadata:\n    name: a\n  labels: b\n",
            "kind:a\n",
            "",
            "# only a comment\n",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
