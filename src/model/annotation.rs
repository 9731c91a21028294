//! Annotation keys and the parsers of their values.
//!
//! Helm's own keys keep Helm's tolerance (a bad weight counts as 0); the new
//! keys are strict, since a typo there would silently change the order.

use std::collections::BTreeMap;

use crate::base::bytes;
use crate::base::cause::Cause;
use crate::model::reference::{ObjectRef, RefError};

pub(super) const HOOK: &str = "helm.sh/hook";
pub(super) const HOOK_WEIGHT: &str = "helm.sh/hook-weight";
pub(super) const HOOK_DELETE_POLICY: &str = "helm.sh/hook-delete-policy";
pub(super) const HOOK_OUTPUT_LOG_POLICY: &str = "helm.sh/hook-output-log-policy";
/// `keep`: uninstall and upgrade leave the object in place (Helm's).
pub(crate) const RESOURCE_POLICY: &str = "helm.sh/resource-policy";

pub(super) const HOOK_PARALLEL: &str = "helm.sh/hook-parallel";
pub(crate) const DEPENDS_ON: &str = "helm.sh/depends-on";
pub(super) const HOOK_FAIL_FAST: &str = "helm.sh/hook-fail-fast";
pub(super) const SHOW_OUTPUT: &str = "helm.sh/show-output";
/// A hook's own wait: a Go duration, at most `--timeout` (docs/annotations.md).
pub(crate) const HOOK_TIMEOUT: &str = "helm.sh/hook-timeout";
/// Objects outside the release a resource waits for (`model::external`).
pub(crate) const DEPENDS_ON_EXTERNAL: &str = "helm.sh/depends-on-external";

pub const RESOURCE_GROUP: &str = "helm.sh/resource-group";
/// HIP-0025's key, with two slashes: the API server refuses it, so stock
/// Helm 4 and `kubectl apply` fail on an object that carries it
/// (docs/annotations.md, "Portable charts").
pub const DEPENDS_ON_RESOURCE_GROUPS: &str = "helm.sh/depends-on/resource-groups";
/// The same dependency under a key the API server accepts (one slash),
/// read exactly as [`DEPENDS_ON_RESOURCE_GROUPS`]: a chart that declares
/// its groups' order with it still installs with stock Helm, in Helm's
/// kind order. helm-hooks' key until Helm has one of its own.
pub const PORTABLE_DEPENDS_ON_RESOURCE_GROUPS: &str = "helm.sh/depends-on-resource-groups";
pub const READINESS_SUCCESS: &str = "helm.sh/readiness-success";
pub const READINESS_FAILURE: &str = "helm.sh/readiness-failure";

/// Chart.yaml annotation of HIP-0025: subcharts the parent depends on.
pub const DEPENDS_ON_SUBCHARTS: &str = "helm.sh/depends-on/subcharts";
/// Chart.yaml annotation of helm-hooks: the subchart graph, which survives
/// stock Helm 4 (it drops `dependencies[].depends-on` when loading a chart).
pub const SUBCHART_DEPENDS_ON: &str = "helm.sh/subchart-depends-on";

/// Helm's ownership annotations, which it writes on every resource of a
/// release and checks before it adopts an object (`pkg/action/validate.go`).
pub(crate) const RELEASE_NAME: &str = "meta.helm.sh/release-name";
pub(crate) const RELEASE_NAMESPACE: &str = "meta.helm.sh/release-namespace";
/// The label Helm writes on every resource of a release, and its value.
pub(crate) const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "Helm");

/// The label every hook object of a parallel `run` carries, valued with the
/// release name, so that one list or watch request covers all running hooks
/// of a kind and namespace (`seam::hook_cluster`).
pub const RUN_LABEL: &str = "helm-hooks.sh/release";

/// The `helm.sh/` namespace of every key above.
const NAMESPACE: &str = "helm.sh/";

/// Every `helm.sh/` key Helm, HIP-0025 or helm-hooks reads. Each is ignored
/// when misspelt, so a key of the namespace near one of these is taken for a
/// typo of it ([`misspelled`]).
pub(super) const KNOWN: &[&str] = &[
    HOOK,
    HOOK_WEIGHT,
    HOOK_DELETE_POLICY,
    HOOK_OUTPUT_LOG_POLICY,
    RESOURCE_POLICY,
    HOOK_PARALLEL,
    DEPENDS_ON,
    HOOK_FAIL_FAST,
    SHOW_OUTPUT,
    HOOK_TIMEOUT,
    DEPENDS_ON_EXTERNAL,
    RESOURCE_GROUP,
    DEPENDS_ON_RESOURCE_GROUPS,
    PORTABLE_DEPENDS_ON_RESOURCE_GROUPS,
    READINESS_SUCCESS,
    READINESS_FAILURE,
    DEPENDS_ON_SUBCHARTS,
    SUBCHART_DEPENDS_ON,
];

/// `ann.get(key)`, made for the dozen lookups each object's annotations
/// get: a map's search compares keys byte by byte, and all of these share
/// their first eight bytes (`helm.sh/`), each byte a loop iteration and
/// under Helm's Wasm runtime a call into Go (docs/benchmarks.md). Most
/// objects have a few annotations: each is looked at, its length first.
pub(super) fn get<'a>(ann: &'a BTreeMap<String, String>, key: &str) -> Option<&'a String> {
    if ann.len() > 16 {
        return ann.get(key);
    }
    ann.iter().find(|(k, _)| bytes::eq(k.as_bytes(), key.as_bytes())).map(|(_, v)| v)
}

/// `ann.contains_key(key)`, as [`get`] looks.
pub(crate) fn has(ann: &BTreeMap<String, String>, key: &str) -> bool {
    get(ann, key).is_some()
}

/// The known key `key` is a typo of: a `helm.sh/` key no one reads, a few
/// edits from a known one (`helm.sh/hook-paralel`). A key far from all of
/// them is a chart's own and left alone. The edits are counted after the
/// namespace, so that a short key gets the short words' reach
/// (`helm.sh/foo` is no `helm.sh/hook`).
pub(super) fn misspelled(key: &str) -> Option<&'static str> {
    let rest = key.strip_prefix(NAMESPACE).filter(|_| !KNOWN.contains(&key))?;
    let near = crate::base::spelling::nearest(rest, KNOWN.iter().map(|k| &k[NAMESPACE.len()..]))?;
    KNOWN.iter().copied().find(|k| k[NAMESPACE.len()..] == *near && *k != key)
}

/// Why the API server refuses `key` as an annotation key, as Kubernetes'
/// `ValidateAnnotations` judges it (`IsQualifiedName` of the lowercased
/// key): an optional DNS-subdomain prefix and `/`, then a name of at most
/// 63 letters, digits, `-`, `_` and `.`, starting and ending with a letter
/// or digit. `None`: the key is accepted.
pub fn key_problem(key: &str) -> Option<&'static str> {
    // No copy and one pass over the bytes: every key of every object comes
    // here, and under Helm's Wasm runtime each byte looked at is dear.
    let key = key.as_bytes();
    let (prefix, name) = match bytes::find(key, b'/') {
        None => (None, key),
        Some(i) if bytes::find(&key[i + 1..], b'/').is_some() => return Some("it holds more than one '/'"),
        Some(i) => (Some(&key[..i]), &key[i + 1..]),
    };
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            return Some("the part before '/' is empty");
        }
        let label_ok = |l: &[u8]| {
            matches!((l.first(), l.last()), (Some(f), Some(e)) if f.is_ascii_alphanumeric() && e.is_ascii_alphanumeric())
                && l.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-')
        };
        if prefix.len() > 253 || !prefix.split(|&b| b == b'.').all(label_ok) {
            return Some("the part before '/' is not a DNS subdomain");
        }
    }
    let edge_ok = matches!((name.first(), name.last()), (Some(f), Some(e)) if f.is_ascii_alphanumeric() && e.is_ascii_alphanumeric());
    if name.is_empty() {
        Some("the name part is empty")
    } else if name.len() > 63 {
        Some("the name part is longer than 63 characters")
    } else if !edge_ok {
        Some("the name part does not start and end with a letter or digit")
    } else if !name.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) {
        Some("the name part holds a character other than letters, digits, '-', '_' and '.'")
    } else {
        None
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("{0:?} is not a boolean")]
    NotBool(String),
    #[error("{0}")]
    Reference(#[from] RefError),
    #[error("is not a JSON array of strings: {0}")]
    NotStringArray(#[source] Cause<serde_json::Error>),
    #[error("is not a JSON array of references: {0}")]
    NotRefArray(#[source] Cause<serde_json::Error>),
    #[error("{0:?} is not a duration above zero")]
    NotDuration(String),
}

impl ValueError {
    pub(crate) fn help(&self) -> &'static str {
        match self {
            ValueError::NotBool(_) => "use \"true\" or \"false\"",
            ValueError::Reference(_) => {
                "write Kind/name or Kind/namespace/name, as a JSON array '[\"Job/migrate\"]' or a comma list"
            }
            ValueError::NotStringArray(_) => "write a JSON array of strings, e.g. '[\"databases\"]'",
            ValueError::NotRefArray(_) => {
                "write a JSON array of Kind/name references, e.g. '[\"Job/migrate\"]', or a comma list"
            }
            ValueError::NotDuration(_) => {
                "write a Go duration such as \"30s\", \"5m\" or \"1h30m\", as --timeout takes"
            }
        }
    }
}

/// A strict boolean: `true` or `false` in any letter case. `"yes"`, `"1"`
/// and the empty string are refused so that a typo is never read as false.
pub fn parse_bool(value: &str) -> Result<bool, ValueError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ValueError::NotBool(value.to_string())),
    }
}

/// `helm.sh/hook-timeout`: a Go duration (`time.ParseDuration`, as Helm's
/// `--timeout`) above zero; `0` would mean "no time at all", never the intent.
pub(super) fn parse_hook_timeout(value: &str) -> Result<crate::base::time::Millis, ValueError> {
    match crate::base::time::parse_duration(value) {
        Some(ms) if ms > 0 => Ok(ms),
        _ => Err(ValueError::NotDuration(value.to_string())),
    }
}

/// Helm's `strconv.Atoi`: an optional sign and decimal digits that fit in
/// 64 bits; anything else is `None` and Helm treats it as weight 0.
pub fn parse_weight(value: &str) -> Option<i64> {
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// A comma list as Helm reads delete and output-log policies: split,
/// trimmed, lowercased; empty items dropped.
pub fn parse_policy_list(value: &str) -> Vec<String> {
    value.split(',').map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty()).collect()
}

/// `helm.sh/depends-on`: a JSON array of references, or a comma list.
pub fn parse_depends_on(value: &str) -> Result<Vec<ObjectRef>, ValueError> {
    let trimmed = value.trim();
    // Most values name one object: read without a list of copies first.
    if !trimmed.starts_with('[') && bytes::find(trimmed.as_bytes(), b',').is_none() {
        return match trimmed.is_empty() {
            true => Ok(Vec::new()),
            false => Ok(vec![trimmed.parse()?]),
        };
    }
    let items: Vec<String> = if trimmed.starts_with('[') {
        serde_json::from_slice(trimmed.as_bytes()).map_err(|e| ValueError::NotRefArray(e.into()))?
    } else {
        trimmed.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    };
    Ok(items.iter().map(|s| s.parse()).collect::<Result<_, RefError>>()?)
}

/// A HIP-0025 JSON string array (`helm.sh/depends-on/resource-groups`,
/// `helm.sh/depends-on/subcharts`).
pub fn parse_string_array(value: &str) -> Result<Vec<String>, ValueError> {
    serde_json::from_slice(value.trim().as_bytes()).map_err(|e| ValueError::NotStringArray(e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_atoi() {
        assert_eq!(parse_weight("-5"), Some(-5));
        assert_eq!(parse_weight("+3"), Some(3));
        assert_eq!(parse_weight("abc"), None);
        assert_eq!(parse_weight(" 1"), None);
        assert_eq!(parse_weight("99999999999999999999"), None);
        assert_eq!(parse_weight(""), None);
    }

    #[test]
    fn hook_timeouts_are_go_durations_above_zero() {
        assert_eq!(parse_hook_timeout("3s"), Ok(3_000));
        assert_eq!(parse_hook_timeout("1m30s"), Ok(90_000));
        assert_eq!(parse_hook_timeout("1.5h"), Ok(5_400_000));
        for bad in ["0", "0s", "-5s", "5", " 5m", "five minutes", ""] {
            assert!(parse_hook_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn booleans_are_strict() {
        assert_eq!(parse_bool("TRUE"), Ok(true));
        assert_eq!(parse_bool("false"), Ok(false));
        assert!(parse_bool("yes").is_err());
        assert!(parse_bool("").is_err());
    }

    /// Issue 32: a misspelt key is ignored by Helm and helm-hooks alike.
    #[test]
    fn a_key_near_a_known_one_is_a_typo_of_it() {
        assert_eq!(misspelled("helm.sh/hook-paralel"), Some(HOOK_PARALLEL));
        assert_eq!(misspelled("helm.sh/hook-wieght"), Some(HOOK_WEIGHT));
        assert_eq!(misspelled("helm.sh/hok"), Some(HOOK));
        assert_eq!(misspelled("helm.sh/depend-on"), Some(DEPENDS_ON));
        assert_eq!(misspelled("helm.sh/resource-polcy"), Some(RESOURCE_POLICY));
        assert_eq!(misspelled("helm.sh/readiness-sucess"), Some(READINESS_SUCCESS));
        assert_eq!(misspelled("helm.sh/depends-on/resource-group"), Some(DEPENDS_ON_RESOURCE_GROUPS));
        // Known keys, keys far from all, and other namespaces are no typos.
        for key in KNOWN {
            assert_eq!(misspelled(key), None, "{key}");
        }
        for key in ["helm.sh/foo", "helm.sh/chart", "helm.sh/owner-team", "meta.helm.sh/release-name", "hook-paralel"] {
            assert_eq!(misspelled(key), None, "{key}");
        }
    }

    /// Kubernetes' qualified names, as the API server checks annotation keys.
    #[test]
    fn keys_the_api_server_refuses() {
        for ok in [
            "helm.sh/hook",
            PORTABLE_DEPENDS_ON_RESOURCE_GROUPS,
            "a",
            "Example.COM/My_Key.v1",
            "kubectl.kubernetes.io/last-applied-configuration",
        ] {
            assert_eq!(key_problem(ok), None, "{ok}");
        }
        assert_eq!(key_problem(DEPENDS_ON_RESOURCE_GROUPS), Some("it holds more than one '/'"));
        for bad in ["/a", "a/", "-a", "a-", "a b", "ex_ample.com/a", "a..b/c", &"k".repeat(64)] {
            assert!(key_problem(bad).is_some(), "{bad}");
        }
        assert_eq!(key_problem(&format!("{}/k", "a".repeat(254))), Some("the part before '/' is not a DNS subdomain"));
    }

    #[test]
    fn depends_on_takes_json_or_commas() {
        let a = parse_depends_on(r#"["Job/a", "ConfigMap/ns/b"]"#).unwrap();
        let b = parse_depends_on("Job/a, ConfigMap/ns/b").unwrap();
        assert_eq!(a, b);
        assert_eq!(b[1].namespace.as_deref(), Some("ns"));
        assert!(parse_depends_on("[Job/a").is_err());
        assert!(parse_depends_on("a").is_err());
    }
}
