//! Requests as values, built with no client and no I/O: a [`Call`] says
//! what to ask the API server (method, path and query, body), and
//! [`http`] makes it the HTTP request with a connection's credentials.
//! [`super::client`] sends them, [`super::retry`] repeats them; what to
//! send is decided here and in the operations, and tested as values.

use super::config::Connection;
use super::key::{ApiResource, Selector};
use super::query::{encode, Query};
use super::transport::{Method, Request};

/// Field manager of server-side apply and updates: Helm's own.
const FIELD_MANAGER: &str = "helm";

/// The representation every request asks for unless it names another.
const JSON: &str = "application/json";

/// One request to the API server, before the connection's credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Call {
    pub(super) method: Method,
    /// The path and query, starting with `/`.
    path: String,
    content_type: Option<&'static str>,
    /// The representation asked for (`Accept`).
    accept: &'static str,
    body: Option<Vec<u8>>,
}

impl Call {
    fn new(method: Method, path: String, content_type: Option<&'static str>, body: Option<Vec<u8>>) -> Self {
        Call { method, path, content_type, accept: JSON, body }
    }

    /// A GET of `path` (with its query).
    pub(super) fn get(path: String) -> Self {
        Call::new(Method::Get, path, None, None)
    }

    /// A POST of a JSON body.
    pub(super) fn post_json(path: String, body: Vec<u8>) -> Self {
        Call::new(Method::Post, path, Some(JSON), Some(body))
    }

    /// The same request, asking for the representation `accept` names.
    pub(super) fn accepting(mut self, accept: &'static str) -> Self {
        self.accept = accept;
        self
    }

    /// `METHOD path`, as errors and traces name the request.
    pub(super) fn what(&self) -> String {
        format!("{} {}", self.method.as_str(), self.path)
    }
}

/// The HTTP request of `call` to `conn`'s server, with its credentials.
pub(super) fn http(conn: &Connection, call: &Call) -> Request {
    let mut headers = vec![("Accept".to_string(), call.accept.to_string())];
    if let Some(token) = &conn.token {
        headers.push(("Authorization".to_string(), format!("Bearer {token}")));
    }
    if let Some(user) = &conn.impersonate_user {
        headers.push(("Impersonate-User".to_string(), user.clone()));
    }
    if let Some(group) = &conn.impersonate_group {
        headers.push(("Impersonate-Group".to_string(), group.clone()));
    }
    if let Some(ct) = call.content_type {
        headers.push(("Content-Type".to_string(), ct.to_string()));
    }
    Request { method: call.method, url: format!("{}{}", conn.server, call.path), headers, body: call.body.clone() }
}

/// The namespace an object of `res` lives in: `None` for cluster-scoped
/// kinds, else `ns`, or `default` when it names none.
pub(super) fn effective_namespace(res: &ApiResource, ns: Option<&str>, default: &str) -> Option<String> {
    res.namespaced.then(|| ns.filter(|n| !n.is_empty()).unwrap_or(default).to_string())
}

fn collection_path(res: &ApiResource, ns: Option<&str>) -> String {
    match ns {
        Some(ns) => format!("{}/namespaces/{}/{}", res.prefix(), encode(ns, false), res.plural),
        None => format!("{}/{}", res.prefix(), res.plural),
    }
}

pub(super) fn object_path(res: &ApiResource, ns: Option<&str>, name: &str) -> String {
    format!("{}/{}", collection_path(res, ns), encode(name, false))
}

/// One watch round of a collection from `resource_version` (empty: from
/// now), ended by the API server after `timeout_secs`.
pub(super) fn watch(
    res: &ApiResource,
    ns: Option<&str>,
    selector: &Selector,
    resource_version: &str,
    timeout_secs: u32,
) -> Call {
    let mut q = Query::default();
    q.push("watch", "1");
    selector.query(&mut q);
    if !resource_version.is_empty() {
        q.push("resourceVersion", resource_version);
    }
    q.push("allowWatchBookmarks", "true").push("timeoutSeconds", &timeout_secs.max(1).to_string());
    Call::get(format!("{}{}", collection_path(res, ns), q.0))
}

/// Where a page of a list starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Page<'a> {
    /// The first page, as the API server has the collection now.
    First,
    /// The first page, as of `resource_version` or later
    /// (`resourceVersionMatch=NotOlderThan`), answered within `within_ms`
    /// if given (the request's `timeout`).
    NotOlderThan { resource_version: &'a str, within_ms: Option<u64> },
    /// The page after the one whose `continue` token this is.
    Continue(&'a str),
}

/// One page of at most `limit` objects of a collection.
pub(super) fn list_page(
    res: &ApiResource,
    ns: Option<&str>,
    selector: &Selector,
    limit: usize,
    page: Page<'_>,
) -> Call {
    let mut q = Query::default();
    selector.query(&mut q);
    q.push("limit", &limit.to_string());
    match page {
        Page::First => {}
        Page::Continue(token) => {
            q.push("continue", token);
        }
        Page::NotOlderThan { resource_version, within_ms } => {
            q.push("resourceVersion", resource_version).push("resourceVersionMatch", "NotOlderThan");
            if let Some(ms) = within_ms {
                q.push("timeout", &format!("{ms}ms"));
            }
        }
    }
    Call::get(format!("{}{}", collection_path(res, ns), q.0))
}

/// What a server-side apply does with a field that another field manager
/// owns and the object sets to another value. Helm 4 applies with
/// `force=false` unless given `--force-conflicts` (its hooks always so), and
/// asks for strict field validation either way (`pkg/kube/client.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Conflicts {
    /// The apply fails with 409, naming each field and its manager.
    #[default]
    Fail,
    /// The fields are taken over (`force=true`): `--force-conflicts`.
    Force,
}

/// A server-side apply of `body` (YAML or JSON, its namespace already
/// set) to the object `name`: as Helm's field manager, with strict field
/// validation, `force` as `conflicts` says, and `dryRun=All` if asked.
pub(super) fn apply(
    (res, ns, name): (&ApiResource, Option<&str>, &str),
    body: Vec<u8>,
    conflicts: Conflicts,
    dry_run: bool,
) -> Call {
    let mut q = Query::default();
    q.push("fieldManager", FIELD_MANAGER).push("fieldValidation", "Strict");
    if conflicts == Conflicts::Force {
        q.push("force", "true");
    }
    if dry_run {
        q.push("dryRun", "All");
    }
    let path = format!("{}{}", object_path(res, ns, name), q.0);
    Call::new(Method::Patch, path, Some("application/apply-patch+yaml"), Some(body))
}

/// A create (POST) of the JSON object `body` into its collection.
pub(super) fn create(res: &ApiResource, ns: Option<&str>, body: Vec<u8>) -> Call {
    let mut q = Query::default();
    q.push("fieldManager", FIELD_MANAGER);
    Call::post_json(format!("{}{}", collection_path(res, ns), q.0), body)
}

/// An update (PUT) of the object `name` to the JSON object `body`.
pub(super) fn replace((res, ns, name): (&ApiResource, Option<&str>, &str), body: Vec<u8>) -> Call {
    let mut q = Query::default();
    q.push("fieldManager", FIELD_MANAGER);
    Call::new(Method::Put, format!("{}{}", object_path(res, ns, name), q.0), Some(JSON), Some(body))
}

/// A delete of the object `name` with `propagationPolicy=Background`, as
/// Helm deletes hooks.
pub(super) fn delete((res, ns, name): (&ApiResource, Option<&str>, &str)) -> Call {
    let body = br#"{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}"#;
    Call::new(Method::Delete, object_path(res, ns, name), Some(JSON), Some(body.to_vec()))
}

/// How much of a container's log to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Log<'a> {
    /// All of it, as written.
    Whole,
    /// Each line stamped with when it was written, from `since` (RFC 3339) if given.
    Stamped { since: Option<&'a str> },
}

/// A container's log, at most `limit_bytes` of it.
pub(super) fn pod_log(ns: &str, pod: &str, container: &str, limit_bytes: u64, log: Log<'_>) -> Call {
    let mut q = Query::default();
    q.push("container", container).push("limitBytes", &limit_bytes.to_string());
    if let Log::Stamped { since } = log {
        q.push("timestamps", "true");
        if let Some(since) = since {
            q.push("sinceTime", since);
        }
    }
    Call::get(format!("/api/v1/namespaces/{}/pods/{}/log{}", encode(ns, false), encode(pod, false), q.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> ApiResource {
        ApiResource { api_version: "batch/v1".into(), kind: "Job".into(), plural: "jobs".into(), namespaced: true }
    }

    #[test]
    fn a_request_is_built_without_a_client() {
        let c = watch(&jobs(), Some("a b"), &Selector::name("j"), "7", 0);
        assert_eq!(c.method, Method::Get);
        assert_eq!(
            c.path,
            "/apis/batch/v1/namespaces/a%20b/jobs?watch=1&fieldSelector=metadata.name%3Dj&resourceVersion=7&allowWatchBookmarks=true&timeoutSeconds=1"
        );
        let page = Page::NotOlderThan { resource_version: "12", within_ms: Some(1_000) };
        assert_eq!(
            list_page(&jobs(), None, &Selector::default(), 500, page).path,
            "/apis/batch/v1/jobs?limit=500&resourceVersion=12&resourceVersionMatch=NotOlderThan&timeout=1000ms"
        );
        assert!(list_page(&jobs(), None, &Selector::default(), 5, Page::Continue("x")).path.ends_with("&continue=x"));
        let at = (&jobs(), Some("n"), "j");
        assert_eq!(
            apply(at, b"{}".to_vec(), Conflicts::Force, true).path,
            "/apis/batch/v1/namespaces/n/jobs/j?fieldManager=helm&fieldValidation=Strict&force=true&dryRun=All"
        );
        assert_eq!(apply(at, Vec::new(), Conflicts::Fail, false).content_type, Some("application/apply-patch+yaml"));
        assert_eq!(create(&jobs(), Some("n"), Vec::new()).path, "/apis/batch/v1/namespaces/n/jobs?fieldManager=helm");
        assert_eq!(replace(at, Vec::new()).method, Method::Put);
        assert_eq!(
            (delete(at).method, delete(at).path.as_str()),
            (Method::Delete, "/apis/batch/v1/namespaces/n/jobs/j")
        );
        assert_eq!(
            pod_log("n", "p", "c", 10, Log::Stamped { since: Some("t") }).path,
            "/api/v1/namespaces/n/pods/p/log?container=c&limitBytes=10&timestamps=true&sinceTime=t"
        );
    }

    #[test]
    fn credentials_are_added_only_when_sent() {
        let conn = Connection {
            server: "https://k:6443".into(),
            token: Some("t".into()),
            namespace: "rel".into(),
            impersonate_user: Some("u".into()),
            impersonate_group: None,
        };
        let call = Call::post_json("/api/v1/x".into(), b"{}".to_vec()).accepting("application/yaml");
        let req = http(&conn, &call);
        assert_eq!(req.url, "https://k:6443/api/v1/x");
        let h = |k: &str| req.headers.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(
            (h("Accept"), h("Authorization"), h("Impersonate-User"), h("Content-Type")),
            (Some("application/yaml"), Some("Bearer t"), Some("u"), Some("application/json"))
        );
        assert_eq!(effective_namespace(&jobs(), None, "rel").as_deref(), Some("rel"));
        assert_eq!(effective_namespace(&jobs(), Some(""), "rel").as_deref(), Some("rel"));
    }
}
