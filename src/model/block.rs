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

use serde_json::{Map, Value};

use crate::base::bytes;
use crate::model::yaml;

/// One `key: value` or `key:` line.
struct Line<'t> {
    indent: usize,
    key: &'t str,
    /// `None` for `key:` alone: a nested mapping follows, or null.
    value: Option<&'t str>,
}

/// `text` as JSON, or `None` when it is not of the simple shape above.
pub fn read(text: &str) -> Option<Value> {
    let mut lines = Vec::with_capacity(16);
    // Most heads have no `#` at all: then no line is searched for one.
    let hash = bytes::find(text.as_bytes(), b'#').is_some();
    for raw in bytes::lines(text) {
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
        if hash && bytes::find(content.as_bytes(), b'#').is_some() {
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
    (at == lines.len()).then_some(Value::Object(map))
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
    let key = content[..colon].trim_end_matches(' ');
    // A key YAML resolves to a boolean, number or null is left to the parser.
    if key.is_empty() || yaml::plain_non_string(key).is_some() {
        return None;
    }
    let value = content[colon + 1..].trim_matches(' ');
    Some(Line { indent, key, value: (!value.is_empty()).then_some(value) })
}

fn mapping(lines: &[Line], at: &mut usize, indent: usize) -> Option<Map<String, Value>> {
    let mut map = Map::new();
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
            Some(v) => scalar(v)?,
            None => match lines.get(*at) {
                Some(next) if next.indent > indent => Value::Object(mapping(lines, at, next.indent)?),
                _ => Value::Null,
            },
        };
        if map.insert(l.key.to_string(), value).is_some() {
            return None;
        }
    }
    Some(map)
}

fn scalar(v: &str) -> Option<Value> {
    let quoted = |q: char| {
        let inner = v.strip_prefix(q)?.strip_suffix(q)?;
        // `''` and `\` escapes are left to the parser.
        let escape = |b| bytes::find(inner.as_bytes(), b).is_some();
        let escaped = escape(q as u8) || (q == '"' && escape(b'\\'));
        (!escaped).then(|| Value::String(inner.to_string()))
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
        _ => Some(yaml::plain(v)),
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
