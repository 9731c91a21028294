//! References from one object to another: `Kind/name` or
//! `Kind/namespace/name`, as written in `helm.sh/depends-on` and as the
//! plan prints its nodes.

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    pub fn new(kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectRef { kind: kind.to_string(), namespace: namespace.map(str::to_string), name: name.to_string() }
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a reference of the form Kind/name or Kind/namespace/name")]
pub struct RefError(pub String);

impl FromStr for ObjectRef {
    type Err = RefError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.trim().split('/').collect();
        let ok = |p: &&str| !p.is_empty() && !p.chars().any(char::is_whitespace);
        match parts.as_slice() {
            [kind, name] if ok(kind) && ok(name) => Ok(ObjectRef::new(kind, None, name)),
            [kind, ns, name] if ok(kind) && ok(ns) && ok(name) => Ok(ObjectRef::new(kind, Some(ns), name)),
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
        for bad in ["", "Job", "Job/", "/a", "a/b/c/d", "Job/a b"] {
            assert!(bad.parse::<ObjectRef>().is_err(), "{bad}");
        }
    }
}
