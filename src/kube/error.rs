//! What failed, named: the verb, the resource, the namespace and the API
//! server's own message.

use serde_json::Value;

use crate::base::cause::Cause;

use super::config::ConfigError;
use super::transport::TransportError;
use crate::model::object::KeyError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KubeError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot reach the API server: {0}")]
    Transport(#[from] TransportError),
    /// 401: the token is missing, wrong or expired.
    #[error("the API server did not accept the credentials (401 Unauthorized) when trying to {verb} {resource}: {message}. Check --kube-token (a fresh one: kubectl create token SERVICEACCOUNT -n NAMESPACE)")]
    Unauthorized { verb: String, resource: String, message: String },
    /// 403: the credentials lack a permission.
    #[error("forbidden: cannot {verb} {resource}{}: {message}", in_namespace(namespace))]
    Forbidden { verb: String, resource: String, namespace: Option<String>, message: String },
    /// 404 of an object (a 404 of a group-version is [`KubeError::NoMapping`]).
    #[error("{resource} {name:?}{} not found", in_namespace(namespace))]
    NotFound { resource: String, namespace: Option<String>, name: String },
    /// 409: a conflict (an object changed since it was read, or a field
    /// owned by another manager).
    #[error(
        "conflict: cannot {verb} {resource} {name:?}{}: {message}{}",
        in_namespace(namespace),
        force_hint(message)
    )]
    Conflict { verb: String, resource: String, namespace: Option<String>, name: String, message: String },
    /// 422 or 400: the object itself was rejected.
    #[error("{resource} {name:?}{} is invalid: {message}", in_namespace(namespace))]
    Invalid { resource: String, namespace: Option<String>, name: String, message: String },
    /// The API server serves no resource of this kind.
    #[error(
        "the API server has no resource of kind {kind} in {api_version} (is its CustomResourceDefinition installed?)"
    )]
    NoMapping { api_version: String, kind: String },
    /// An object without apiVersion, kind or name.
    #[error("the object has no {0}")]
    Incomplete(&'static str),
    /// apiVersion, kind or name written so that YAML reads it as no string.
    #[error("the object's {what} is {value}, not a string: Kubernetes reads YAML 1.1, where a plain y, yes, on, no, off or a number is not text; quote it in the template")]
    NotAString { what: &'static str, value: String },
    /// Any other status.
    #[error("cannot {verb} {resource}{}: {code} {message}", in_namespace(namespace))]
    Status { code: u16, verb: String, resource: String, namespace: Option<String>, message: String },
    /// A response that is not what the API promises.
    #[error("cannot read the API server's answer to {what}: {source}")]
    Decode {
        what: String,
        #[source]
        source: DecodeError,
    },
}

/// An object without a key is the object's fault, as the API server's
/// own refusals are ([`KubeError::is_object_fault`]).
impl From<KeyError> for KubeError {
    fn from(e: KeyError) -> Self {
        match e {
            KeyError::Incomplete(what) => KubeError::Incomplete(what),
            KeyError::NotAString { what, value } => KubeError::NotAString { what, value },
        }
    }
}

/// Why an answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("{0}")]
    Json(#[source] Cause<serde_json::Error>),
    /// A line of a watch's answer is not JSON.
    #[error("a watch event is not JSON: {0}")]
    WatchEvent(#[source] Cause<serde_json::Error>),
    /// An `ERROR` event other than 410 Gone (which is no error: the watch
    /// starts again from a list).
    #[error("the watch ended with an error ({code}): {message}")]
    WatchFailed { code: u64, message: String },
    #[error("unknown watch event type {0:?}")]
    UnknownEvent(String),
}

impl From<serde_json::Error> for DecodeError {
    fn from(e: serde_json::Error) -> Self {
        DecodeError::Json(e.into())
    }
}

/// After a server-side apply's conflict ("Apply failed with 1 conflict:
/// conflict with \"kubectl-edit\" using v1: .data.x"), what to do about it.
fn force_hint(message: &str) -> &'static str {
    if message.starts_with("Apply failed with") {
        ". Another field manager owns these fields: change them back, or deploy (or roll back) with \
         --force-conflicts to take them over, as Helm's --force-conflicts does"
    } else {
        ""
    }
}

fn in_namespace(ns: &Option<String>) -> String {
    match ns {
        Some(ns) => format!(" in namespace {ns:?}"),
        None => String::new(),
    }
}

impl KubeError {
    /// The object's own fault (rejected manifest, unknown kind): the hook
    /// fails, the run goes on. Everything else is a cluster or permission
    /// error (exit code 3).
    pub fn is_object_fault(&self) -> bool {
        matches!(
            self,
            KubeError::Invalid { .. }
                | KubeError::NoMapping { .. }
                | KubeError::Incomplete(_)
                | KubeError::NotAString { .. }
                | KubeError::Conflict { .. }
        )
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, KubeError::NotFound { .. })
    }
}

/// What a request was about, to name it in errors.
#[derive(Debug, Clone)]
pub(super) struct Doing<'a> {
    pub(super) verb: &'a str,
    /// `jobs.batch`, `pods/log`, or a discovery path.
    pub(super) resource: String,
    pub(super) namespace: Option<&'a str>,
    pub(super) name: Option<&'a str>,
}

/// The `message` of a Kubernetes `Status` body, or the body itself.
fn status_message(body: &[u8]) -> String {
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        if let Some(m) = v.get("message").and_then(Value::as_str) {
            return m.to_string();
        }
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        return "(no message)".to_string();
    }
    let mut cut: String = text.chars().take(500).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

/// Maps an unsuccessful status to an error naming what failed.
pub(super) fn from_status(code: u16, body: &[u8], doing: &Doing<'_>) -> KubeError {
    let message = status_message(body);
    let resource = doing.resource.clone();
    let namespace = doing.namespace.map(str::to_string);
    let name = doing.name.unwrap_or_default().to_string();
    let verb = doing.verb.to_string();
    match code {
        401 => KubeError::Unauthorized { verb, resource, message },
        403 => KubeError::Forbidden { verb, resource, namespace, message },
        404 if doing.name.is_some() => KubeError::NotFound { resource, namespace, name },
        409 => KubeError::Conflict { verb, resource, namespace, name, message },
        400 | 422 if doing.name.is_some() => KubeError::Invalid { resource, namespace, name, message },
        _ => KubeError::Status { code, verb, resource, namespace, message },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doing(name: Option<&'static str>) -> Doing<'static> {
        Doing { verb: "patch", resource: "jobs.batch".into(), namespace: Some("ns1"), name }
    }

    #[test]
    fn forbidden_names_verb_resource_namespace() {
        let body = br#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"jobs.batch \"x\" is forbidden: User \"u\" cannot patch resource \"jobs\" in API group \"batch\" in the namespace \"ns1\"","reason":"Forbidden","code":403}"#;
        let e = from_status(403, body, &doing(Some("x")));
        assert!(matches!(&e, KubeError::Forbidden { verb, resource, namespace: Some(ns), .. }
            if verb == "patch" && resource == "jobs.batch" && ns == "ns1"));
        let text = e.to_string();
        assert!(
            text.starts_with("forbidden: cannot patch jobs.batch in namespace \"ns1\": jobs.batch \"x\" is forbidden"),
            "{text}"
        );
        assert!(!e.is_object_fault());
    }

    #[test]
    fn statuses_map_to_kinds() {
        let body = br#"{"message":"m"}"#;
        assert!(from_status(404, body, &doing(Some("x"))).is_not_found());
        assert!(matches!(from_status(404, body, &doing(None)), KubeError::Status { code: 404, .. }));
        assert!(from_status(422, body, &doing(Some("x"))).is_object_fault());
        assert!(from_status(409, body, &doing(Some("x"))).is_object_fault());
        assert!(matches!(from_status(401, body, &doing(None)), KubeError::Unauthorized { .. }));
        let e = from_status(500, b"boom\n", &doing(None));
        assert_eq!(e.to_string(), "cannot patch jobs.batch in namespace \"ns1\": 500 boom");
    }
}
