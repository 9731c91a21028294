//! References from one object to another: `Kind/name` or
//! `Kind/namespace/name`, as written in `helm.sh/depends-on` and as the
//! plan prints its nodes.

use std::fmt;
use std::str::FromStr;

use crate::base::bytes;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    pub kind: String,
    pub(crate) namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    pub(crate) fn new(kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectRef { kind: kind.to_string(), namespace: namespace.map(str::to_string), name: name.to_string() }
    }
}

impl fmt::Display for ObjectRef {
    /// Piece by piece, not through `write!`'s arguments: a plan prints one
    /// per row and per wave, and under Helm's Wasm runtime each step of the
    /// formatter's loop over its arguments is dear (docs/benchmarks.md).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        f.write_str("/")?;
        if let Some(ns) = &self.namespace {
            f.write_str(ns)?;
            f.write_str("/")?;
        }
        f.write_str(&self.name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a reference of the form Kind/name or Kind/namespace/name")]
pub struct RefError(String);

impl FromStr for ObjectRef {
    type Err = RefError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        // Printable ASCII has one blank, told a word at a time; other text
        // is asked character by character (every reference of a release
        // comes here, and under Helm's Wasm runtime each loop step is dear).
        let blank = match bytes::printable_ascii(trimmed.as_bytes()) {
            true => bytes::find(trimmed.as_bytes(), b' ').is_some(),
            false => trimmed.chars().any(char::is_whitespace),
        };
        let mut parts = trimmed.splitn(4, '/');
        let parts = [parts.next(), parts.next(), parts.next(), parts.next()];
        let ok = |p: &str| !p.is_empty();
        match parts {
            _ if blank => Err(RefError(s.to_string())),
            [Some(kind), Some(name), None, None] if ok(kind) && ok(name) => Ok(ObjectRef::new(kind, None, name)),
            [Some(kind), Some(ns), Some(name), None] if ok(kind) && ok(ns) && ok(name) => {
                Ok(ObjectRef::new(kind, Some(ns), name))
            }
            _ => Err(RefError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in ["Job/a", "ConfigMap/ns/b"] {
            assert_eq!(s.parse::<ObjectRef>().unwrap().to_string(), s);
        }
        for bad in ["", "Job", "Job/", "/a", "a/b/c/d", "Job/a b", "Job/a\tb", "Job/a\u{a0}b", "Job/ns/"] {
            assert!(bad.parse::<ObjectRef>().is_err(), "{bad}");
        }
    }
}
