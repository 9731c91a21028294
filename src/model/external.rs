//! `helm.sh/depends-on-external`: objects a resource waits for that the
//! release does not own — a Secret an operator writes, a CRD another release
//! installs, a Service of another team (docs/design.md §3).
//!
//! A reference names the kind with its API group the way kubectl does
//! (`Deployment.apps`, `Certificate.cert-manager.io`; the core group has
//! none: `Secret`), an optional namespace (default: the release's, ignored
//! for cluster-scoped kinds) and the name, then what to wait for: `:exists`
//! (the default) or `:ready` (the kind's readiness rules, as for the
//! release's own resources):
//!
//! ```yaml
//! helm.sh/depends-on-external: '["Secret/db-credentials", "Deployment.apps/platform/auth:ready"]'
//! ```
//!
//! A comma list works as for `helm.sh/depends-on`.

use std::fmt;
use std::str::FromStr;

pub(super) use crate::model::annotation::DEPENDS_ON_EXTERNAL;
use crate::model::annotation::{parse_string_array, ValueError};

/// What a dependency must be before the dependent is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Wait {
    Exists,
    Ready,
}

/// One object outside the release.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct External {
    pub kind: String,
    /// The API group; empty for the core group.
    pub group: String,
    pub namespace: Option<String>,
    pub name: String,
    pub(crate) wait: Wait,
}

impl fmt::Display for External {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if !self.group.is_empty() {
            write!(f, ".{}", self.group)?;
        }
        if let Some(ns) = &self.namespace {
            write!(f, "/{ns}")?;
        }
        write!(f, "/{}", self.name)?;
        if self.wait == Wait::Ready {
            write!(f, ":ready")?;
        }
        Ok(())
    }
}

impl External {
    /// The reference without the wait: `Kind[.group]/[namespace/]name`.
    pub(crate) fn object(&self) -> String {
        External { wait: Wait::Exists, ..self.clone() }.to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExternalError {
    #[error("{0:?} is not Kind[.group]/[namespace/]name[:exists|:ready]")]
    Shape(String),
    #[error("{0:?} waits for {1:?}; write :exists or :ready")]
    Wait(String, String),
}

impl FromStr for External {
    type Err = ExternalError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        let (path, wait) = match t.rsplit_once(':') {
            None => (t, Wait::Exists),
            Some((p, "exists")) => (p, Wait::Exists),
            Some((p, "ready")) => (p, Wait::Ready),
            Some((_, w)) => return Err(ExternalError::Wait(text.into(), w.into())),
        };
        let parts: Vec<&str> = path.split('/').collect();
        let ok = |p: &&str| !p.is_empty() && !p.chars().any(|c| c.is_whitespace() || c == ':');
        let (kind_group, namespace, name) = match parts.as_slice() {
            [k, n] if ok(k) && ok(n) => (*k, None, *n),
            [k, ns, n] if ok(k) && ok(ns) && ok(n) => (*k, Some(ns.to_string()), *n),
            _ => return Err(ExternalError::Shape(text.into())),
        };
        let (kind, group) = kind_group.split_once('.').unwrap_or((kind_group, ""));
        if kind.is_empty() || !kind.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(ExternalError::Shape(text.into()));
        }
        Ok(External { kind: kind.into(), group: group.into(), namespace, name: name.into(), wait })
    }
}

/// The annotation's value: a JSON array of strings, or a comma list.
pub fn parse_list(value: &str) -> Result<Vec<External>, Vec<String>> {
    let items: Vec<String> = if value.trim_start().starts_with('[') {
        parse_string_array(value).map_err(|e: ValueError| vec![e.to_string()])?
    } else {
        value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        match item.parse::<External>() {
            Ok(e) => out.push(e),
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kind_group_namespace_name_and_wait() {
        let e: External = "Deployment.apps/platform/auth:ready".parse().unwrap();
        assert_eq!(
            (e.kind.as_str(), e.group.as_str(), e.namespace.as_deref(), e.name.as_str(), e.wait),
            ("Deployment", "apps", Some("platform"), "auth", Wait::Ready)
        );
        let e: External = "CustomResourceDefinition.apiextensions.k8s.io/certificates.cert-manager.io".parse().unwrap();
        assert_eq!(
            (e.group.as_str(), e.name.as_str(), e.wait),
            ("apiextensions.k8s.io", "certificates.cert-manager.io", Wait::Exists)
        );
        for s in ["Secret/db", "Secret/ns/db:ready", "Certificate.cert-manager.io/tls", "Secret/db:exists"] {
            let e: External = s.parse().unwrap();
            assert_eq!(e.to_string(), s.trim_end_matches(":exists"), "{s}");
        }
        assert_eq!("Secret/ns/db:ready".parse::<External>().unwrap().object(), "Secret/ns/db");
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for bad in ["", "Secret", "Secret/", "/db", "a/b/c/d", "Secret/a b", ".apps/x", "1Secret/x"] {
            assert!(matches!(bad.parse::<External>(), Err(ExternalError::Shape(_))), "{bad:?}");
        }
        assert!(matches!("Secret/db:healthy".parse::<External>(), Err(ExternalError::Wait(..))));
    }

    #[test]
    fn lists_in_both_forms_with_every_error() {
        let l = parse_list(r#"["Secret/a", "Service/b:ready"]"#).unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(parse_list("Secret/a, Service/b:ready").unwrap(), l);
        assert_eq!(parse_list("Secret, x:y/z:ready, Secret/ok").unwrap_err().len(), 2);
        assert_eq!(parse_list("[oops").unwrap_err().len(), 1);
        assert!(parse_list("").unwrap().is_empty());
    }
}
