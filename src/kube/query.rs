//! Query strings, percent-encoded as RFC 3986 asks: below every request
//! path and key, so both build on it.

/// A query string, percent-encoded.
#[derive(Debug, Default)]
pub(super) struct Query(pub(super) String);

impl Query {
    pub(super) fn push(&mut self, key: &str, value: &str) -> &mut Self {
        self.0.push(if self.0.is_empty() { '?' } else { '&' });
        self.0.push_str(key);
        self.0.push('=');
        self.0.push_str(&encode(value, false));
        self
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters (and `/` when
/// `keep_slash`).
pub(super) fn encode(s: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(b as char),
            b'/' if keep_slash => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
