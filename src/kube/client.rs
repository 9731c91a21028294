//! The operations the run needs, over a [`Transport`]: discovery, server-side
//! apply, get, list, watch rounds, delete (and wait until gone), pods and
//! their logs, and raw requests for Helm's storage.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::config::Connection;
use super::error::{from_status, Doing, KubeError};
use super::watch::{parse_watch_body, WatchRound};
use super::{Batch, Method, Request, Response, Transport, TransportError};

/// Field manager of server-side apply and updates: Helm's own.
pub const FIELD_MANAGER: &str = "helm";

/// Pod logs are read up to this many bytes per container (`limitBytes`):
/// a larger response would exceed plugin.yaml's `maxHttpResponseBytes`
/// (64 MiB), which aborts the plugin call.
pub const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;

/// Page size of lists (`limit`); larger lists are read page by page.
const PAGE: usize = 500;

/// A kind as the API server serves it, from discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResource {
    /// `v1`, `batch/v1`.
    pub api_version: String,
    pub kind: String,
    /// `jobs`.
    pub plural: String,
    pub namespaced: bool,
}

impl ApiResource {
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }

    /// `jobs.batch`, `pods`: how Kubernetes names the resource in messages.
    pub fn display_name(&self) -> String {
        match self.group() {
            "" => self.plural.clone(),
            g => format!("{}.{g}", self.plural),
        }
    }

    /// `/api/v1` or `/apis/batch/v1`.
    fn prefix(&self) -> String {
        gv_path(&self.api_version)
    }
}

fn gv_path(api_version: &str) -> String {
    if api_version.contains('/') {
        format!("/apis/{api_version}")
    } else {
        format!("/api/{api_version}")
    }
}

/// An object by identity. `namespace: None` means the client's namespace
/// for namespaced kinds; it is ignored for cluster-scoped ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    pub api_version: String,
    pub kind: String,
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectKey {
    pub fn new(api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> Self {
        ObjectKey {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            namespace: namespace.filter(|n| !n.is_empty()).map(str::to_string),
            name: name.to_string(),
        }
    }

    /// The key of an object (`apiVersion`, `kind`, `metadata`).
    pub fn of(object: &Value) -> Result<Self, KubeError> {
        fn s<'a>(v: Option<&'a Value>, what: &'static str) -> Result<&'a str, KubeError> {
            match v {
                Some(Value::String(s)) if !s.is_empty() => Ok(s),
                // YAML as Kubernetes reads it makes a plain `y`, `no` or `0644` a boolean
                // or a number (crate::model::yaml); Helm refuses such an object too.
                Some(v @ (Value::Bool(_) | Value::Number(_))) => {
                    Err(KubeError::NotAString { what, value: v.to_string() })
                }
                _ => Err(KubeError::Incomplete(what)),
            }
        }
        let meta = object.get("metadata");
        Ok(ObjectKey::new(
            s(object.get("apiVersion"), "apiVersion")?,
            s(object.get("kind"), "kind")?,
            meta.and_then(|m| m.get("namespace")).and_then(Value::as_str),
            s(meta.and_then(|m| m.get("name")), "metadata.name")?,
        ))
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// `labelSelector` and `fieldSelector` of a list or watch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector {
    pub labels: Option<String>,
    pub fields: Option<String>,
}

impl Selector {
    pub fn labels(s: &str) -> Self {
        Selector { labels: Some(s.to_string()), fields: None }
    }

    pub fn fields(s: &str) -> Self {
        Selector { labels: None, fields: Some(s.to_string()) }
    }

    /// One object by name.
    pub fn name(name: &str) -> Self {
        Selector::fields(&format!("metadata.name={name}"))
    }

    fn query(&self, q: &mut Query) {
        if let Some(l) = &self.labels {
            q.push("labelSelector", l);
        }
        if let Some(f) = &self.fields {
            q.push("fieldSelector", f);
        }
    }
}

/// What [`Client::list_fresh`] got.
#[derive(Debug, Clone, PartialEq)]
pub enum Fresh {
    /// The list, as of the API server's resourceVersion (at least the one
    /// asked for).
    Listed(ObjectList),
    /// The API server could not answer as of that resourceVersion: its
    /// watch cache waited 3 s for it (`cached`), or the resource has no
    /// watch cache and its storage does not wait.
    NotYet { cached: bool },
}

/// A "Too large resource version" sooner than this, and without a
/// `Retry-After`, came from storage without a watch cache.
const UNCACHED_MS: u64 = 1_500;

/// Whether a 504's body is the API server's "Too large resource version"
/// (reason `Timeout`, cause `ResourceVersionTooLarge`).
fn too_large_resource_version(body: &[u8]) -> bool {
    let Ok(status) = serde_json::from_slice::<Value>(body) else { return false };
    let causes = status.pointer("/details/causes").and_then(Value::as_array);
    causes.is_some_and(|c| c.iter().any(|c| c.get("reason").and_then(Value::as_str) == Some("ResourceVersionTooLarge")))
        || status.get("message").and_then(Value::as_str).is_some_and(|m| m.contains("Too large resource version"))
}

/// A list's items and the resourceVersion to watch from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectList {
    pub items: Vec<Value>,
    pub resource_version: String,
}

/// A query string, percent-encoded.
#[derive(Debug, Default)]
struct Query(String);

impl Query {
    fn push(&mut self, key: &str, value: &str) -> &mut Self {
        self.0.push(if self.0.is_empty() { '?' } else { '&' });
        self.0.push_str(key);
        self.0.push('=');
        self.0.push_str(&encode(value, false));
        self
    }
}

/// Percent-encodes all but RFC 3986's unreserved characters (and `/` when
/// `keep_slash`).
pub(crate) fn encode(s: &str, keep_slash: bool) -> String {
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

/// One request of a batch, before the connection's credentials are added.
#[derive(Debug, Clone)]
struct Call {
    method: Method,
    path: String,
    content_type: Option<&'static str>,
    body: Option<Vec<u8>>,
}

/// A request on one object, and what to name in its error.
#[derive(Debug)]
struct ObjectOp {
    call: Call,
    verb: &'static str,
    resource: String,
    namespace: Option<String>,
    name: String,
}

impl ObjectOp {
    fn accept(&self, resp: Response, tries: u32) -> Result<Vec<u8>, KubeError> {
        let doing = Doing {
            verb: self.verb,
            resource: self.resource.clone(),
            namespace: self.namespace.as_deref(),
            name: Some(&self.name),
        };
        Client::accept(resp, tries, &doing)
    }

    /// The object the API server answered with.
    fn finish(&self, resp: Response, tries: u32) -> Result<Value, KubeError> {
        let bytes = self.accept(resp, tries)?;
        Client::decode(self.call.method, &self.call.path, &bytes)
    }
}

/// The Kubernetes client: a connection, a transport, the discovery cache
/// and the request counter.
pub struct Client {
    conn: Connection,
    transport: Box<dyn Transport>,
    /// Per group-version: its resources, `None` when it is not served.
    discovery: BTreeMap<String, Option<Vec<ApiResource>>>,
    requests: u64,
    /// Of those, sent again after a 429 or a gateway error.
    repeated: u64,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("server", &self.conn.server)
            .field("namespace", &self.conn.namespace)
            .field("requests", &self.requests)
            .finish()
    }
}

impl Client {
    pub fn new(conn: Connection, transport: Box<dyn Transport>) -> Self {
        Client { conn, transport, discovery: BTreeMap::new(), requests: 0, repeated: 0 }
    }

    /// The namespace of objects that name none (`HELM_NAMESPACE`).
    pub fn namespace(&self) -> &str {
        &self.conn.namespace
    }

    /// Objects that name no namespace go to `namespace` from now on (the
    /// release's, when it differs from `-n`).
    pub fn set_namespace(&mut self, namespace: &str) {
        self.conn.namespace = namespace.to_string();
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// HTTP requests sent so far (for the benchmark: requests per hook).
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// Of [`Client::requests`], those sent again because the API server
    /// (or a gateway before it) answered 429, 502, 503 or 504: a throttled
    /// or flaky cluster shows in the reports rather than only as slowness.
    pub fn repeated(&self) -> u64 {
        self.repeated
    }

    // -- requests --------------------------------------------------------

    /// Sends one request to `path_and_query` (starting with `/`) with the
    /// connection's credentials.
    pub fn send(
        &mut self,
        method: Method,
        path_and_query: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<Response, KubeError> {
        let req = self.request(method, path_and_query, content_type, body);
        self.requests += 1;
        let mut span = crate::trace::span(|| format!("{} {path_and_query}", method.as_str()));
        let resp = self.transport.send(&req);
        span.note(|| match &resp {
            Ok(r) => format!("-> {} ({} bytes)", r.status, r.body.len()),
            Err(e) => format!("-> {e}"),
        });
        Ok(resp?)
    }

    /// Whether the transport sends a batch of requests at once, and
    /// watches several collections at once ([`Transport::at_once`]).
    pub fn at_once(&self) -> bool {
        self.transport.at_once()
    }

    /// Sends several requests as one batch ([`Transport::send_batch`]);
    /// every request is answered, in order, and repeated as
    /// [`Client::send_retrying`] repeats it.
    fn send_batch_retrying(&mut self, calls: &[Call], how: Batch) -> Vec<Result<(Response, u32), KubeError>> {
        if calls.is_empty() {
            return Vec::new();
        }
        let reqs: Vec<Request> =
            calls.iter().map(|c| self.request(c.method, &c.path, c.content_type, c.body.clone())).collect();
        self.requests += reqs.len() as u64;
        let span = crate::trace::span(|| {
            format!("batch of {} ({how:?}): {} {}", reqs.len(), calls[0].method.as_str(), calls[0].path)
        });
        let mut answers = self.transport.send_batch(&reqs, how).into_iter();
        drop(span);
        let mut out = Vec::with_capacity(calls.len());
        // A lost connection is repeated request by request; once one of them
        // gives up (the server stayed away), the others are not waited for again.
        let mut gone = false;
        for (c, req) in calls.iter().zip(&reqs) {
            let answer = answers.next().unwrap_or_else(|| {
                Err(TransportError::Protocol { url: req.url.clone(), message: "the batch was not answered".into() })
            });
            out.push(match answer {
                Ok(resp) => self.retry_after(c.method, &c.path, c.content_type, c.body.clone(), resp, 1),
                Err(TransportError::Io { message, .. }) if !gone && may_reconnect(&message, c.method) => {
                    self.repeated += 1;
                    let again = self.send_reconnecting(c.method, &c.path, c.content_type, c.body.clone(), 2).and_then(
                        |(resp, tries)| {
                            self.retry_after(c.method, &c.path, c.content_type, c.body.clone(), resp, tries)
                        },
                    );
                    gone = again.is_err();
                    again
                }
                Err(e) => Err(e.into()),
            });
        }
        out
    }

    fn request(
        &self,
        method: Method,
        path_and_query: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Request {
        let mut headers = vec![("Accept".to_string(), "application/json".to_string())];
        if let Some(token) = &self.conn.token {
            headers.push(("Authorization".to_string(), format!("Bearer {token}")));
        }
        if let Some(user) = &self.conn.impersonate_user {
            headers.push(("Impersonate-User".to_string(), user.clone()));
        }
        if let Some(group) = &self.conn.impersonate_group {
            headers.push(("Impersonate-Group".to_string(), group.clone()));
        }
        if let Some(ct) = content_type {
            headers.push(("Content-Type".to_string(), ct.to_string()));
        }
        Request { method, url: format!("{}{path_and_query}", self.conn.server), headers, body }
    }

    /// Sends and maps an unsuccessful status to an error.
    fn call(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
        doing: &Doing<'_>,
    ) -> Result<Vec<u8>, KubeError> {
        let (resp, tries) = self.send_retrying(method, path, content_type, body)?;
        Self::accept(resp, tries, doing)
    }

    // -- retries (docs/design.md §5; docs/limits.md) ------------------------

    /// [`Client::send`], repeated while the API server answers 429 (API
    /// Priority and Fairness or the in-flight limit refused the request
    /// before doing anything, so any method may be repeated) or, for a
    /// request that is safe to repeat (not a POST: a create may have been
    /// done before a gateway's 502/503/504), 502, 503 or 504. Waits
    /// `Retry-After` seconds (Helm 4.2.4's host passes response headers;
    /// at most [`MAX_RETRY_WAIT_MS`]), else 250 ms doubling; at most
    /// [`RETRIES`] repeats. Returns the last response and how many were sent.
    ///
    /// A lost connection (only a transport that returns it as a value sees
    /// one: Helm's `kube_request`, the native build) is repeated for up to
    /// [`RECONNECT_MS`], long enough for an API server to restart: a
    /// refused connection whatever the method (nothing was sent), any other
    /// only when safe to repeat, as above.
    fn send_retrying(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<(Response, u32), KubeError> {
        let (resp, tries) = self.send_reconnecting(method, path, content_type, body.clone(), 1)?;
        self.retry_after(method, path, content_type, body, resp, tries)
    }

    /// [`Client::send`], repeated while the connection is lost (see
    /// [`Client::send_retrying`]); try number `tries` first.
    fn send_reconnecting(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
        tries: u32,
    ) -> Result<(Response, u32), KubeError> {
        let mut lost = Reconnect::after(tries);
        loop {
            match self.send(method, path, content_type, body.clone()) {
                Ok(resp) => return Ok((resp, lost.tries)),
                Err(KubeError::Transport(TransportError::Io { url, message })) if may_reconnect(&message, method) => {
                    lost.wait(message).map_err(|message| TransportError::Io { url, message })?;
                    self.repeated += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The repeats of [`Client::send_retrying`] after the answer `resp` to
    /// try number `tries`.
    fn retry_after(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
        mut resp: Response,
        mut tries: u32,
    ) -> Result<(Response, u32), KubeError> {
        loop {
            let again = match resp.status {
                429 => true,
                502..=504 => method != Method::Post,
                _ => false,
            };
            if !again || tries > RETRIES {
                return Ok((resp, tries));
            }
            let asked = resp.headers.get("retry-after").and_then(|v| v.trim().parse::<u64>().ok());
            pause(asked.map_or(250 << (tries - 1), |s| s.saturating_mul(1000)).min(MAX_RETRY_WAIT_MS));
            tries += 1;
            self.repeated += 1;
            (resp, tries) = self.send_reconnecting(method, path, content_type, body.clone(), tries)?;
        }
    }

    /// A response's body, or the error its status means (naming the tries).
    fn accept(resp: Response, tries: u32, doing: &Doing<'_>) -> Result<Vec<u8>, KubeError> {
        if (200..300).contains(&resp.status) {
            Ok(resp.body)
        } else {
            let mut e = from_status(resp.status, &resp.body, doing);
            if let (KubeError::Status { message, .. }, true) = (&mut e, tries > 1) {
                message.push_str(&format!(" (after {tries} tries)"));
            }
            Err(e)
        }
    }

    fn decode(method: Method, path: &str, bytes: &[u8]) -> Result<Value, KubeError> {
        serde_json::from_slice(bytes)
            .map_err(|e| KubeError::Decode { what: format!("{} {}", method.as_str(), path), message: e.to_string() })
    }

    fn call_json(
        &mut self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        body: Option<Vec<u8>>,
        doing: &Doing<'_>,
    ) -> Result<Value, KubeError> {
        let bytes = self.call(method, path, content_type, body, doing)?;
        Self::decode(method, path, &bytes)
    }

    // -- discovery -------------------------------------------------------

    /// The resource serving `kind` in `api_version`, by discovery (one
    /// request per group-version, cached). A kind missing from a cached
    /// group-version is looked up once more: a CRD may have just been
    /// installed.
    pub fn resource(&mut self, api_version: &str, kind: &str) -> Result<ApiResource, KubeError> {
        let find =
            |list: &Option<Vec<ApiResource>>| list.as_ref().and_then(|l| l.iter().find(|r| r.kind == kind).cloned());
        if let Some(cached) = self.discovery.get(api_version) {
            if let Some(r) = find(cached) {
                return Ok(r);
            }
        }
        let fresh = self.discover(api_version)?;
        let found = find(&fresh);
        self.discovery.insert(api_version.to_string(), fresh);
        found.ok_or_else(|| KubeError::NoMapping { api_version: api_version.to_string(), kind: kind.to_string() })
    }

    /// The group-version the API server prefers for `group` (`v1` for the
    /// core group); `None` when no such group is served.
    pub fn preferred_version(&mut self, group: &str) -> Result<Option<String>, KubeError> {
        if group.is_empty() {
            return Ok(Some("v1".into()));
        }
        let path = format!("/apis/{}", encode(group, false));
        let (resp, _) = self.send_retrying(Method::Get, &path, None, None)?;
        if resp.status == 404 {
            return Ok(None);
        }
        let doing =
            Doing { verb: "get", resource: format!("the API group document {path}"), namespace: None, name: None };
        if !(200..300).contains(&resp.status) {
            return Err(from_status(resp.status, &resp.body, &doing));
        }
        let doc: Value = serde_json::from_slice(&resp.body)
            .map_err(|e| KubeError::Decode { what: format!("GET {path}"), message: e.to_string() })?;
        Ok(doc.pointer("/preferredVersion/groupVersion").and_then(Value::as_str).map(str::to_string))
    }

    /// GET /api/v1 or /apis/<group>/<version>: the resources of one
    /// group-version (`None` when it is not served). Subresources are left out.
    pub fn discover(&mut self, api_version: &str) -> Result<Option<Vec<ApiResource>>, KubeError> {
        if api_version.is_empty() || api_version.split('/').count() > 2 {
            return Ok(None);
        }
        let path = gv_path(api_version);
        let doing =
            Doing { verb: "get", resource: format!("the API discovery document {path}"), namespace: None, name: None };
        let (resp, _) = self.send_retrying(Method::Get, &path, None, None)?;
        if resp.status == 404 {
            return Ok(None);
        }
        if !(200..300).contains(&resp.status) {
            return Err(from_status(resp.status, &resp.body, &doing));
        }
        let doc: Value = serde_json::from_slice(&resp.body)
            .map_err(|e| KubeError::Decode { what: format!("GET {path}"), message: e.to_string() })?;
        let resources = doc
            .get("resources")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|r| {
                        let name = r.get("name")?.as_str()?;
                        if name.contains('/') {
                            return None;
                        }
                        Some(ApiResource {
                            api_version: api_version.to_string(),
                            kind: r.get("kind")?.as_str()?.to_string(),
                            plural: name.to_string(),
                            namespaced: r.get("namespaced").and_then(Value::as_bool)?,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Some(resources))
    }

    // -- paths -----------------------------------------------------------

    /// The namespace a key's object lives in: `None` for cluster-scoped
    /// kinds, else the key's or the client's.
    pub fn effective_namespace(&self, res: &ApiResource, ns: Option<&str>) -> Option<String> {
        res.namespaced.then(|| ns.filter(|n| !n.is_empty()).unwrap_or(&self.conn.namespace).to_string())
    }

    fn collection_path(res: &ApiResource, ns: Option<&str>) -> String {
        match ns {
            Some(ns) => format!("{}/namespaces/{}/{}", res.prefix(), encode(ns, false), res.plural),
            None => format!("{}/{}", res.prefix(), res.plural),
        }
    }

    fn object_path(res: &ApiResource, ns: Option<&str>, name: &str) -> String {
        format!("{}/{}", Self::collection_path(res, ns), encode(name, false))
    }

    // -- objects ---------------------------------------------------------

    /// Server-side apply (`fieldManager=helm`, `force=true`) of `object`,
    /// with `labels` added to its metadata. The object's namespace, or the
    /// client's, is used for namespaced kinds; cluster-scoped objects lose
    /// theirs. Returns the object as the API server now has it.
    pub fn apply(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        self.apply_as(object, labels, false)
    }

    /// [`Client::apply`] with `dryRun=All`: the object as the API server
    /// would have it after the apply (defaults, admission, merged fields),
    /// nothing persisted.
    pub fn apply_dry_run(&mut self, object: &Value, labels: &[(&str, &str)]) -> Result<Value, KubeError> {
        self.apply_as(object, labels, true)
    }

    fn apply_as(&mut self, object: &Value, labels: &[(&str, &str)], dry_run: bool) -> Result<Value, KubeError> {
        let op = self.apply_op(object, labels, dry_run)?;
        let (resp, tries) =
            self.send_retrying(op.call.method, &op.call.path, op.call.content_type, op.call.body.clone())?;
        op.finish(resp, tries)
    }

    /// [`Client::apply`] of several objects in one batch of requests
    /// ([`Transport::send_batch`]: at once under Helm's `kube_request`, one
    /// after another otherwise). Each object's outcome, in order: an
    /// object's error does not stop the others. Objects that depend on one
    /// another (a Namespace and what it holds) belong in separate batches,
    /// as Helm applies kinds in turn.
    ///
    /// The answers end with the first that is not the object's fault (a
    /// cluster or permission error): with a transport that does not send
    /// [at once](Client::at_once), objects are applied one by one and
    /// none after it is sent.
    pub fn apply_many(&mut self, objects: &[Value], labels: &[(&str, &str)]) -> Vec<Result<Value, KubeError>> {
        let cluster_error = |r: &Result<Value, KubeError>| r.as_ref().is_err_and(|e| !e.is_object_fault());
        if !self.at_once() {
            let mut out = Vec::with_capacity(objects.len());
            for o in objects {
                let r = self.apply(o, labels);
                let stop = cluster_error(&r);
                out.push(r);
                if stop {
                    break;
                }
            }
            return out;
        }
        let ops: Vec<Result<ObjectOp, KubeError>> = objects.iter().map(|o| self.apply_op(o, labels, false)).collect();
        let calls: Vec<Call> = ops.iter().filter_map(|op| op.as_ref().ok().map(|op| op.call.clone())).collect();
        let mut answers = self.send_batch_retrying(&calls, Batch::All).into_iter();
        let mut out = Vec::with_capacity(objects.len());
        for op in ops {
            let r = op.and_then(|op| {
                let (resp, tries) = answers.next().expect("one answer per call")?;
                op.finish(resp, tries)
            });
            let stop = cluster_error(&r);
            out.push(r);
            if stop {
                break;
            }
        }
        out
    }

    /// The request of a server-side apply, and how to read its answer.
    fn apply_op(&mut self, object: &Value, labels: &[(&str, &str)], dry_run: bool) -> Result<ObjectOp, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let mut body = object.clone();
        let meta = body
            .as_object_mut()
            .ok_or(KubeError::Incomplete("object body"))?
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
            .ok_or(KubeError::Incomplete("metadata object"))?;
        match &ns {
            Some(ns) => {
                meta.insert("namespace".into(), Value::String(ns.clone()));
            }
            None => {
                meta.remove("namespace");
            }
        }
        if !labels.is_empty() {
            let l = meta.entry("labels").or_insert_with(|| Value::Object(Map::new()));
            if !l.is_object() {
                *l = Value::Object(Map::new());
            }
            let l = l.as_object_mut().expect("labels is an object");
            for (k, v) in labels {
                l.insert((*k).to_string(), Value::String((*v).to_string()));
            }
        }
        let mut q = Query::default();
        q.push("fieldManager", FIELD_MANAGER).push("force", "true");
        if dry_run {
            q.push("dryRun", "All");
        }
        let path = format!("{}{}", Self::object_path(&res, ns.as_deref(), &key.name), q.0);
        let bytes = serde_json::to_vec(&body)
            .map_err(|e| KubeError::Decode { what: "the object to patch".into(), message: e.to_string() })?;
        Ok(ObjectOp {
            call: Call {
                method: Method::Patch,
                path,
                content_type: Some("application/apply-patch+yaml"),
                body: Some(bytes),
            },
            verb: "patch",
            resource: res.display_name(),
            namespace: ns,
            name: key.name,
        })
    }

    /// Sends `body` to the object's path with the query, and names the
    /// operation (`verb`) in any error.
    fn send_object(
        &mut self,
        key: &ObjectKey,
        res: &ApiResource,
        ns: Option<&str>,
        q: &Query,
        (method, verb, content_type): (Method, &'static str, &str),
        body: &Value,
    ) -> Result<Value, KubeError> {
        let path = format!("{}{}", Self::object_path(res, ns, &key.name), q.0);
        let bytes = serde_json::to_vec(body)
            .map_err(|e| KubeError::Decode { what: format!("the object to {verb}"), message: e.to_string() })?;
        self.call_json(
            method,
            &path,
            Some(content_type),
            Some(bytes),
            &Doing { verb, resource: res.display_name(), namespace: ns, name: Some(&key.name) },
        )
    }

    /// GET one object; [`KubeError::NotFound`] when it does not exist.
    pub fn get(&mut self, key: &ObjectKey) -> Result<Value, KubeError> {
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let path = Self::object_path(&res, ns.as_deref(), &key.name);
        self.call_json(
            Method::Get,
            &path,
            None,
            None,
            &Doing { verb: "get", resource: res.display_name(), namespace: ns.as_deref(), name: Some(&key.name) },
        )
    }

    /// GET one object; `None` when it does not exist.
    pub fn get_opt(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError> {
        match self.get(key) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// POST a new object; [`KubeError::Conflict`]-like errors (409
    /// AlreadyExists) come back as the API server words them.
    pub fn create(&mut self, object: &Value) -> Result<Value, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let mut q = Query::default();
        q.push("fieldManager", FIELD_MANAGER);
        let path = format!("{}{}", Self::collection_path(&res, ns.as_deref()), q.0);
        let bytes = serde_json::to_vec(object)
            .map_err(|e| KubeError::Decode { what: "the object to create".into(), message: e.to_string() })?;
        self.call_json(
            Method::Post,
            &path,
            Some("application/json"),
            Some(bytes),
            &Doing { verb: "create", resource: res.display_name(), namespace: ns.as_deref(), name: Some(&key.name) },
        )
    }

    /// PUT an object back (an update with optimistic concurrency when it
    /// carries `metadata.resourceVersion`). Returns the stored object.
    pub fn replace(&mut self, object: &Value) -> Result<Value, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let mut q = Query::default();
        q.push("fieldManager", FIELD_MANAGER);
        self.send_object(&key, &res, ns.as_deref(), &q, (Method::Put, "update", "application/json"), object)
    }

    /// DELETE with `propagationPolicy=Background`, as Helm deletes hooks.
    /// Returns false when the object was already gone.
    pub fn delete(&mut self, key: &ObjectKey) -> Result<bool, KubeError> {
        self.delete_uid(key).map(|uid| uid.is_some())
    }

    /// [`Client::delete`], with what was deleted: `None` when nothing was
    /// there, else the deleted object's UID (empty when the answer did not
    /// say), so that a wait follows that object and not a later one of the
    /// same name.
    fn delete_uid(&mut self, key: &ObjectKey) -> Result<Option<String>, KubeError> {
        let op = self.delete_op(key)?;
        let (resp, tries) =
            self.send_retrying(op.call.method, &op.call.path, op.call.content_type, op.call.body.clone())?;
        Self::deleted(op.accept(resp, tries))
    }

    /// [`Client::delete_uid`] of several objects in one batch of requests;
    /// the first error, if any (in the order of `keys`), else per key what
    /// was deleted.
    pub fn delete_many(&mut self, keys: &[ObjectKey]) -> Result<Vec<Option<String>>, KubeError> {
        if !self.at_once() {
            return keys.iter().map(|k| self.delete_uid(k)).collect();
        }
        let ops = keys.iter().map(|k| self.delete_op(k)).collect::<Result<Vec<_>, _>>()?;
        let calls: Vec<Call> = ops.iter().map(|op| op.call.clone()).collect();
        let answers = self.send_batch_retrying(&calls, Batch::All);
        ops.into_iter()
            .zip(answers)
            .map(|(op, answer)| {
                let (resp, tries) = answer?;
                Self::deleted(op.accept(resp, tries))
            })
            .collect()
    }

    /// A delete's answer is the object (still finalizing, `metadata.uid`) or
    /// a Status of success (`details.uid`).
    fn deleted(r: Result<Vec<u8>, KubeError>) -> Result<Option<String>, KubeError> {
        match r {
            Ok(body) => {
                let answer: Value = serde_json::from_slice(&body).unwrap_or_default();
                let uid = answer.pointer("/metadata/uid").or_else(|| answer.pointer("/details/uid"));
                Ok(Some(uid.and_then(Value::as_str).unwrap_or_default().to_string()))
            }
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn delete_op(&mut self, key: &ObjectKey) -> Result<ObjectOp, KubeError> {
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let path = Self::object_path(&res, ns.as_deref(), &key.name);
        let body = br#"{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}"#;
        Ok(ObjectOp {
            call: Call {
                method: Method::Delete,
                path,
                content_type: Some("application/json"),
                body: Some(body.to_vec()),
            },
            verb: "delete",
            resource: res.display_name(),
            namespace: ns,
            name: key.name.clone(),
        })
    }

    /// Deletes the objects (Background propagation) and waits until every
    /// one is gone or the wall clock (`now`, in ms) reaches `deadline`.
    /// Returns the keys still present at the deadline (empty: all gone).
    pub fn delete_and_wait(
        &mut self,
        keys: &[ObjectKey],
        deadline: u64,
        now: &mut dyn FnMut() -> u64,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        let deleted = self.delete_many(keys)?;
        let present: Vec<(ObjectKey, String)> =
            keys.iter().zip(deleted).filter_map(|(k, uid)| Some((k.clone(), uid?))).collect();
        self.wait_deleted(&present, deadline, now)
    }

    /// Waits until none of the objects exists, in watch rounds of one
    /// second, or until `now()` reaches `deadline`. Returns the keys still
    /// present then (empty: all gone).
    ///
    /// Each key comes with the UID of the object deleted under it: an object
    /// of the same name with another UID is a new one, not the one awaited
    /// (the ClusterRole aggregation controller re-creates a deleted
    /// aggregated ClusterRole at once, bare); an empty UID awaits any.
    pub fn wait_deleted(
        &mut self,
        keys: &[(ObjectKey, String)],
        deadline: u64,
        now: &mut dyn FnMut() -> u64,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        let mut tracker = super::Tracker::new(None);
        for (key, _) in keys {
            self.track(&mut tracker, key)?;
        }
        loop {
            self.refresh(&mut tracker)?;
            let left: Vec<ObjectKey> = keys
                .iter()
                .filter(|(k, uid)| {
                    tracker.get(k).is_some_and(|o| {
                        uid.is_empty() || o.pointer("/metadata/uid").and_then(Value::as_str) == Some(uid)
                    })
                })
                .map(|(k, _)| k.clone())
                .collect();
            if left.is_empty() || now() >= deadline {
                return Ok(left);
            }
        }
    }

    // -- collections -----------------------------------------------------

    /// Lists a resource in a namespace (`None`: cluster-scoped, or all
    /// namespaces), page by page.
    pub fn list(&mut self, res: &ApiResource, ns: Option<&str>, selector: &Selector) -> Result<ObjectList, KubeError> {
        match self.list_pages(res, ns, selector, None)? {
            Fresh::Listed(list) => Ok(list),
            Fresh::NotYet { .. } => unreachable!("only a list from a resourceVersion waits for it"),
        }
    }

    /// [`Client::list`] as of `resource_version` or later
    /// (`resourceVersionMatch=NotOlderThan`): a long poll, not a watch. An
    /// API server answers it from its watch cache once the cache has seen
    /// that revision of the cluster — any write, of any resource: while a
    /// request waits, the cache asks etcd for its revision every 100 ms —
    /// and after 3 s without one answers 504 "Too large resource version"
    /// (kube-apiserver v1.37.2, `storage/cacher/watch_cache.go`
    /// `waitUntilFreshAndBlock`, `blockTimeout`). A resource served without
    /// a watch cache answers that 504 at once. Either way: [`Fresh::NotYet`],
    /// with how long it took; it is not repeated (a 504 otherwise is, after
    /// its `Retry-After`).
    pub fn list_fresh(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        resource_version: &str,
    ) -> Result<Fresh, KubeError> {
        self.list_pages(res, ns, selector, Some(resource_version))
    }

    fn list_pages(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        not_older_than: Option<&str>,
    ) -> Result<Fresh, KubeError> {
        let base = Self::collection_path(res, ns);
        let doing = Doing { verb: "list", resource: res.display_name(), namespace: ns, name: None };
        let mut out = ObjectList::default();
        let mut cont: Option<String> = None;
        let mut restarted = false;
        loop {
            let mut q = Query::default();
            selector.query(&mut q);
            q.push("limit", &PAGE.to_string());
            match (&cont, not_older_than) {
                (Some(c), _) => {
                    q.push("continue", c);
                }
                (None, Some(rv)) => {
                    q.push("resourceVersion", rv).push("resourceVersionMatch", "NotOlderThan");
                }
                (None, None) => {}
            }
            let path = format!("{base}{}", q.0);
            let answer = if cont.is_none() && not_older_than.is_some() {
                let sent = crate::base::time::wall_ms();
                let (resp, tries) = self.send_reconnecting(Method::Get, &path, None, None, 1)?;
                if resp.status == 504 && too_large_resource_version(&resp.body) {
                    // A watch cache waited 3 s and asks to be tried again in 1 s; storage
                    // without one answers at once and asks for nothing.
                    let waited_ms = crate::base::time::wall_ms().saturating_sub(sent);
                    let retry = resp.headers.contains_key("retry-after")
                        || serde_json::from_slice::<Value>(&resp.body)
                            .is_ok_and(|s| s.pointer("/details/retryAfterSeconds").is_some());
                    return Ok(Fresh::NotYet { cached: retry || waited_ms >= UNCACHED_MS });
                }
                let (resp, tries) = self.retry_after(Method::Get, &path, None, None, resp, tries)?;
                Self::accept(resp, tries, &doing).and_then(|bytes| Self::decode(Method::Get, &path, &bytes))
            } else {
                self.call_json(Method::Get, &path, None, None, &doing)
            };
            let page = match answer {
                // The continue token expired: start over, once.
                Err(KubeError::Status { code: 410, .. }) if cont.is_some() && !restarted => {
                    restarted = true;
                    cont = None;
                    out = ObjectList::default();
                    continue;
                }
                r => r?,
            };
            let meta = page.get("metadata");
            out.resource_version =
                meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or_default().to_string();
            if let Some(Value::Array(items)) = page.get("items") {
                out.items.extend(items.iter().cloned().map(|mut item| {
                    // Lists omit each item's apiVersion and kind.
                    if let Some(o) = item.as_object_mut() {
                        o.entry("apiVersion").or_insert_with(|| Value::String(res.api_version.clone()));
                        o.entry("kind").or_insert_with(|| Value::String(res.kind.clone()));
                    }
                    item
                }));
            }
            cont = meta
                .and_then(|m| m.get("continue"))
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
                .map(str::to_string);
            if cont.is_none() {
                return Ok(Fresh::Listed(out));
            }
        }
    }

    /// One watch round: the events after `resource_version` that the API
    /// server sends within `timeout_secs` (the response ends then). A
    /// resourceVersion too old to watch from (410 Gone, as a status or as an
    /// ERROR event) comes back as `expired`: list again and watch from the
    /// list's resourceVersion.
    pub fn watch(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        resource_version: &str,
        timeout_secs: u32,
    ) -> Result<WatchRound, KubeError> {
        let path = Self::watch_path(res, ns, selector, resource_version, timeout_secs);
        let (resp, _) = self.send_retrying(Method::Get, &path, None, None)?;
        Self::watch_round(resp, res, ns, resource_version, &path)
    }

    /// One watch round of each `(resource, namespace, selector,
    /// resourceVersion)` in one batch ([`Batch::AnyEvent`]): under a
    /// transport that [sends batches at once](Client::at_once), all end
    /// as soon as any has events, each with the events it had (a watch
    /// stopped before it was answered: none, from where it was).
    pub fn watch_all(
        &mut self,
        watches: &[(ApiResource, Option<String>, Selector, String)],
        timeout_secs: u32,
    ) -> Result<Vec<WatchRound>, KubeError> {
        let calls: Vec<Call> = watches
            .iter()
            .map(|(res, ns, selector, rv)| Call {
                method: Method::Get,
                path: Self::watch_path(res, ns.as_deref(), selector, rv, timeout_secs),
                content_type: None,
                body: None,
            })
            .collect();
        let answers = self.send_batch_retrying(&calls, Batch::AnyEvent);
        let mut rounds = Vec::with_capacity(watches.len());
        for ((call, (res, ns, _, rv)), answer) in calls.iter().zip(watches).zip(answers) {
            rounds.push(match answer {
                Ok((resp, _)) => Self::watch_round(resp, res, ns.as_deref(), rv, &call.path)?,
                Err(KubeError::Transport(TransportError::Stopped { .. })) => {
                    WatchRound { events: Vec::new(), resource_version: rv.clone(), expired: false }
                }
                Err(e) => return Err(e),
            });
        }
        Ok(rounds)
    }

    fn watch_path(
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        resource_version: &str,
        timeout_secs: u32,
    ) -> String {
        let mut q = Query::default();
        q.push("watch", "1");
        selector.query(&mut q);
        if !resource_version.is_empty() {
            q.push("resourceVersion", resource_version);
        }
        q.push("allowWatchBookmarks", "true").push("timeoutSeconds", &timeout_secs.max(1).to_string());
        format!("{}{}", Self::collection_path(res, ns), q.0)
    }

    /// The round a watch response holds.
    fn watch_round(
        resp: Response,
        res: &ApiResource,
        ns: Option<&str>,
        resource_version: &str,
        path: &str,
    ) -> Result<WatchRound, KubeError> {
        if resp.status == 410 {
            return Ok(WatchRound {
                events: Vec::new(),
                resource_version: resource_version.to_string(),
                expired: true,
            });
        }
        if !(200..300).contains(&resp.status) {
            return Err(from_status(
                resp.status,
                &resp.body,
                &Doing { verb: "watch", resource: res.display_name(), namespace: ns, name: None },
            ));
        }
        parse_watch_body(&resp.body, resource_version, res)
            .map_err(|message| KubeError::Decode { what: format!("GET {path}"), message })
    }

    // -- pods ------------------------------------------------------------

    /// The pods of a hook, as Helm finds them for logs: a Job's by the label
    /// `job-name=<name>`, a Pod by its name. Other kinds have none.
    pub fn hook_pods(&mut self, kind: &str, namespace: Option<&str>, name: &str) -> Result<Vec<Value>, KubeError> {
        let selector = match kind {
            "Job" => Selector::labels(&format!("job-name={name}")),
            "Pod" => Selector::name(name),
            _ => return Ok(Vec::new()),
        };
        let pods = self.resource("v1", "Pod")?;
        let ns = self.effective_namespace(&pods, namespace);
        Ok(self.list(&pods, ns.as_deref(), &selector)?.items)
    }

    /// The log of one container of a pod (at most [`MAX_LOG_BYTES`]).
    pub fn pod_log(&mut self, namespace: Option<&str>, pod: &str, container: &str) -> Result<String, KubeError> {
        let ns = namespace.filter(|n| !n.is_empty()).unwrap_or(&self.conn.namespace).to_string();
        let mut q = Query::default();
        q.push("container", container).push("limitBytes", &MAX_LOG_BYTES.to_string());
        let path = format!("/api/v1/namespaces/{}/pods/{}/log{}", encode(&ns, false), encode(pod, false), q.0);
        let bytes = self.call(
            Method::Get,
            &path,
            None,
            None,
            &Doing { verb: "get", resource: "pods/log".into(), namespace: Some(&ns), name: Some(pod) },
        )?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    // -- permissions (docs/design.md §4) -----------------------------------

    /// The RBAC rules of this token in `namespace` (a SelfSubjectRulesReview,
    /// which every authenticated user may create): `resourceRules`, or
    /// `None` when the API server says they are incomplete (an authorizer
    /// that cannot list rules, such as a webhook, is configured) or does not
    /// answer the review. They are what RBAC grants; only an access review
    /// says what is refused.
    pub fn rules(&mut self, namespace: &str) -> Result<Option<Vec<Value>>, KubeError> {
        let review = serde_json::json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectRulesReview",
            "spec": {"namespace": namespace},
        });
        let path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
        let (resp, _) =
            self.send_retrying(Method::Post, path, Some("application/json"), Some(review.to_string().into_bytes()))?;
        if !(200..300).contains(&resp.status) {
            return Ok(None);
        }
        let answer = Self::decode(Method::Post, path, &resp.body)?;
        if answer.pointer("/status/incomplete").and_then(Value::as_bool).unwrap_or(false) {
            return Ok(None);
        }
        Ok(Some(answer.pointer("/status/resourceRules").and_then(Value::as_array).cloned().unwrap_or_default()))
    }

    /// Whether this token may `verb` `resource` (`jobs`, `pods/log`) of
    /// `group` in `namespace`: a SelfSubjectAccessReview, which every
    /// authenticated user may create. Commands ask before acting, so that a
    /// missing permission stops them with nothing done (docs/design.md §4).
    pub fn may(&mut self, verb: &str, group: &str, resource: &str, namespace: Option<&str>) -> Result<bool, KubeError> {
        let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
        let review = serde_json::json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {
                "verb": verb, "group": group, "resource": resource, "subresource": subresource,
                "namespace": namespace.unwrap_or_default(),
            }},
        });
        let answer = self.call_json(
            Method::Post,
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            Some("application/json"),
            Some(review.to_string().into_bytes()),
            &Doing {
                verb: "create",
                resource: "selfsubjectaccessreviews.authorization.k8s.io".into(),
                namespace: None,
                name: None,
            },
        )?;
        Ok(answer.pointer("/status/allowed").and_then(Value::as_bool).unwrap_or(false))
    }
}

/// `items` cut into runs of consecutive items of one kind (`kind_of`), in
/// order: what Helm creates at once (`batchPerform` in pkg/kube/client.go),
/// kinds in turn, so that a Namespace or a ServiceAccount exists before
/// what the next kind's objects need of it.
pub fn runs_of_kind<T>(items: &[T], kind_of: impl Fn(&T) -> String) -> Vec<&[T]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || kind_of(&items[i]) != kind_of(&items[start]) {
            if i > start {
                runs.push(&items[start..i]);
            }
            start = i;
        }
    }
    runs
}

/// Repeats after a 429 or a gateway error (see [`Client::send_retrying`]).
pub const RETRIES: u32 = 5;
/// How long a lost connection is repeated: an API server restarts in
/// seconds (2.3 s on the bed, from a kill to ready).
pub const RECONNECT_MS: u64 = 30_000;

/// Repeats of a request whose connection was lost, for up to
/// [`RECONNECT_MS`] from the first loss: 250 ms doubling, at most 4 s.
pub(crate) struct Reconnect {
    since: Option<u64>,
    /// Tries made so far.
    pub(crate) tries: u32,
}

impl Reconnect {
    /// After `tries` tries (the last of which lost its connection).
    pub(crate) fn after(tries: u32) -> Reconnect {
        Reconnect { since: None, tries }
    }

    /// Waits before the next try; or, once the time is up, `message` saying
    /// how long it was tried.
    pub(crate) fn wait(&mut self, message: String) -> Result<(), String> {
        let since = *self.since.get_or_insert_with(crate::base::time::wall_ms);
        let waited = crate::base::time::wall_ms().saturating_sub(since);
        if waited >= RECONNECT_MS {
            return Err(format!("{message} (tried {} times over {} s)", self.tries, waited / 1000));
        }
        pause((250u64 << (self.tries - 1).min(4)).min(RECONNECT_MS - waited));
        self.tries += 1;
        Ok(())
    }
}

/// Whether a request that got no response may be sent again: only when the
/// connection was lost (Go's and the OS's words for it, as client-go's
/// `IsProbableEOF` reads them; not a refused path or an over-long body), and
/// then always when it was refused (the request never left), else only when
/// it is safe to repeat (not a POST, which may have been done).
fn may_reconnect(message: &str, method: Method) -> bool {
    const LOST: &[&str] = &[
        "connection reset",
        "broken pipe",
        "eof",
        "unexpected end of file",
        "connection lost",
        "server closed idle connection",
        "use of closed network connection",
        "no route to host",
        "i/o timeout",
        "tls handshake timeout",
    ];
    let m = message.to_ascii_lowercase();
    m.contains("connection refused") || (method != Method::Post && LOST.iter().any(|l| m.contains(l)))
}
/// The longest wait before a repeat, whatever `Retry-After` asks.
pub const MAX_RETRY_WAIT_MS: u64 = 10_000;

/// Waits `ms` milliseconds. In the sandbox sleep returns at once and a long
/// poll would be refused too, so the wall clock is watched (docs/design.md
/// §5); only a throttled or failing API server makes the plugin wait so.
pub(crate) fn pause(ms: u64) {
    #[cfg(target_arch = "wasm32")]
    {
        let until = crate::base::time::wall_ms() + ms;
        while crate::base::time::wall_ms() < until {
            std::hint::spin_loop();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(ms));
}

/// The names of a pod's containers (`spec.containers`), in order: the ones
/// Helm prints logs of.
/// Init containers first, then containers, as `helm test --logs` reads them.
pub fn container_names(pod: &Value) -> Vec<String> {
    ["/spec/initContainers", "/spec/containers"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten()
        .filter_map(|c| c.get("name")?.as_str().map(str::to_string))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_name_yaml_reads_as_a_boolean_is_named_as_such() {
        let o = crate::model::yaml::to_json("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: y\n").unwrap();
        let e = ObjectKey::of(&o).unwrap_err();
        assert!(e.is_object_fault());
        assert!(e.to_string().contains("metadata.name is true, not a string"), "{e}");
    }
    use crate::kube::TransportError;
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::rc::Rc;

    /// Replays canned responses and records the requests. A canned status 0
    /// is a request that got no response: in an [`Batch::AnyEvent`] batch a
    /// watch stopped before it was answered, else a lost connection (its
    /// body the error). With `at_once` it stands for Helm's `kube_request`:
    /// batches are recorded (their size and kind).
    #[derive(Clone, Default)]
    pub(crate) struct Script {
        pub responses: Rc<RefCell<VecDeque<Response>>>,
        pub seen: Rc<RefCell<Vec<Request>>>,
        pub at_once: bool,
        pub batches: Rc<RefCell<Vec<(usize, Batch)>>>,
    }

    impl Script {
        fn next(&mut self, req: &Request) -> Result<Response, TransportError> {
            self.seen.borrow_mut().push(req.clone());
            self.responses.borrow_mut().pop_front().ok_or_else(|| TransportError::Protocol {
                url: req.url.clone(),
                message: "no scripted response left".into(),
            })
        }
    }

    impl Transport for Script {
        fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
            let r = self.next(req)?;
            if r.status == 0 {
                let message = String::from_utf8_lossy(&r.body).into_owned();
                return Err(TransportError::Io { url: req.url.clone(), message });
            }
            Ok(r)
        }

        fn send_batch(&mut self, reqs: &[Request], how: Batch) -> Vec<Result<Response, TransportError>> {
            if !self.at_once {
                return reqs.iter().map(|r| self.send(r)).collect();
            }
            self.batches.borrow_mut().push((reqs.len(), how));
            reqs.iter()
                .map(|r| match how {
                    Batch::AnyEvent => match self.next(r) {
                        Ok(resp) if resp.status == 0 => Err(TransportError::Stopped { url: r.url.clone() }),
                        other => other,
                    },
                    Batch::All => self.send(r),
                })
                .collect()
        }

        fn at_once(&self) -> bool {
            self.at_once
        }
    }

    pub(crate) fn respond(status: u16, body: &str) -> Response {
        Response { status, headers: BTreeMap::new(), body: body.as_bytes().to_vec() }
    }

    pub(crate) fn client(token: Option<&str>, responses: Vec<Response>) -> (Client, Script) {
        client_with(Script::default(), token, responses)
    }

    /// A client over Helm's `kube_request`, as [`Script`] stands for it.
    pub(crate) fn host_client(responses: Vec<Response>) -> (Client, Script) {
        client_with(Script { at_once: true, ..Script::default() }, None, responses)
    }

    fn client_with(script: Script, token: Option<&str>, responses: Vec<Response>) -> (Client, Script) {
        script.responses.borrow_mut().extend(responses);
        let conn = Connection {
            server: "https://k:6443".into(),
            token: token.map(str::to_string),
            namespace: "rel".into(),
            impersonate_user: None,
            impersonate_group: None,
        };
        (Client::new(conn, Box::new(script.clone())), script)
    }

    pub(crate) const BATCH_V1: &str = r#"{"kind":"APIResourceList","groupVersion":"batch/v1","resources":[{"name":"cronjobs","namespaced":true,"kind":"CronJob"},{"name":"jobs","singularName":"job","namespaced":true,"kind":"Job","verbs":["get"]},{"name":"jobs/status","namespaced":true,"kind":"Job"}]}"#;

    #[test]
    fn apply_discovers_once_and_patches_with_labels() {
        let (mut c, script) = client(
            Some("tok"),
            vec![
                respond(200, BATCH_V1),
                respond(200, r#"{"kind":"Job","metadata":{"name":"j"}}"#),
                respond(200, r#"{"kind":"Job","metadata":{"name":"k"}}"#),
            ],
        );
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        c.apply(&job, &[("hooks.helm.sh/run", "r1")]).unwrap();
        let job2 = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"k","namespace":"other","labels":{"a":"b"}}});
        c.apply(&job2, &[]).unwrap();
        assert_eq!(c.requests(), 3);
        let seen = script.seen.borrow();
        assert_eq!(seen[0].url, "https://k:6443/apis/batch/v1");
        assert_eq!(seen[1].method, Method::Patch);
        assert_eq!(seen[1].url, "https://k:6443/apis/batch/v1/namespaces/rel/jobs/j?fieldManager=helm&force=true");
        assert!(seen[1].headers.contains(&("Content-Type".into(), "application/apply-patch+yaml".into())));
        assert!(seen[1].headers.contains(&("Authorization".into(), "Bearer tok".into())));
        let body: Value = serde_json::from_slice(seen[1].body.as_ref().unwrap()).unwrap();
        assert_eq!(body["metadata"]["labels"]["hooks.helm.sh/run"], "r1");
        assert_eq!(body["metadata"]["namespace"], "rel");
        assert_eq!(seen[2].url, "https://k:6443/apis/batch/v1/namespaces/other/jobs/k?fieldManager=helm&force=true");
    }

    fn job(name: &str) -> Value {
        serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":name}})
    }

    #[test]
    fn apply_many_is_one_batch_at_once_and_keeps_each_objects_outcome() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            respond(200, r#"{"kind":"Job","metadata":{"name":"a"}}"#),
            respond(422, r#"{"kind":"Status","message":"spec.template: Required value"}"#),
            respond(200, r#"{"kind":"Job","metadata":{"name":"c"}}"#),
        ]);
        let objects = [job("a"), job("b"), serde_json::json!({"kind":"Job"}), job("c")];
        let got = c.apply_many(&objects, &[("l", "v")]);
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].as_ref().unwrap()["metadata"]["name"], "a");
        let e = got[1].as_ref().unwrap_err();
        assert!(e.is_object_fault() && e.to_string().contains("Required value"), "{e}");
        assert!(matches!(got[2], Err(KubeError::Incomplete(_))), "never sent: {:?}", got[2]);
        assert_eq!(got[3].as_ref().unwrap()["metadata"]["name"], "c");
        assert_eq!(*script.batches.borrow(), vec![(3, Batch::All)], "discovery alone, then one batch");
        let seen = script.seen.borrow();
        assert!(seen[1..].iter().all(|r| r.method == Method::Patch && r.url.contains("fieldManager=helm&force=true")));
        assert!(seen[3].url.ends_with("/namespaces/rel/jobs/c?fieldManager=helm&force=true"), "{}", seen[3].url);
        assert_eq!(c.requests(), 4);
    }

    #[test]
    fn apply_many_ends_at_a_cluster_error() {
        // At once: all were sent; the answers end with the 403.
        let forbidden = || respond(403, r#"{"kind":"Status","message":"no"}"#);
        let (mut c, _) = host_client(vec![respond(200, BATCH_V1), respond(200, "{}"), forbidden(), respond(200, "{}")]);
        let got = c.apply_many(&[job("a"), job("b"), job("c")], &[]);
        assert_eq!(got.len(), 2);
        assert!(matches!(got[1], Err(KubeError::Forbidden { .. })));
        // One at a time (Extism's http_request): nothing after it is sent.
        let (mut c, script) = client(None, vec![respond(200, BATCH_V1), forbidden(), respond(200, "{}")]);
        let got = c.apply_many(&[job("a"), job("b")], &[]);
        assert_eq!(got.len(), 1);
        assert_eq!(script.seen.borrow().len(), 2);
        assert!(script.batches.borrow().is_empty());
    }

    #[test]
    fn a_429_in_a_batch_is_repeated_alone() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            after(429, Some("0")),
            respond(200, r#"{"metadata":{"name":"b"}}"#),
            respond(200, r#"{"metadata":{"name":"a"}}"#),
        ]);
        let got = c.apply_many(&[job("a"), job("b")], &[]);
        assert_eq!(got[0].as_ref().unwrap()["metadata"]["name"], "a");
        assert_eq!(got[1].as_ref().unwrap()["metadata"]["name"], "b");
        assert_eq!(script.batches.borrow().len(), 1);
        assert!(script.seen.borrow()[3].url.contains("/jobs/a?"));
    }

    #[test]
    fn delete_many_is_one_batch_at_once() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            respond(200, r#"{"kind":"Status","status":"Success","details":{"name":"a","uid":"u-a"}}"#),
            respond(404, r#"{"message":"gone"}"#),
            respond(200, r#"{"kind":"Job","metadata":{"name":"c","uid":"u-c","finalizers":["f"]}}"#),
        ]);
        let job = |n: &str| ObjectKey::new("batch/v1", "Job", None, n);
        let keys = [job("a"), job("b"), job("c")];
        // What was deleted, by UID: a Status names it, a finalizing object is it.
        assert_eq!(c.delete_many(&keys).unwrap(), vec![Some("u-a".into()), None, Some("u-c".into())]);
        assert_eq!(*script.batches.borrow(), vec![(3, Batch::All)]);
        assert!(script.seen.borrow()[1..].iter().all(|r| r.method == Method::Delete));
    }

    #[test]
    fn runs_of_kind_keep_order() {
        let items = ["Namespace", "ServiceAccount", "ServiceAccount", "Deployment", "ServiceAccount"];
        let runs = runs_of_kind(&items, |k| k.to_string());
        assert_eq!(runs, vec![&items[0..1], &items[1..3], &items[3..4], &items[4..5]]);
        assert!(runs_of_kind(&[] as &[&str], |k| k.to_string()).is_empty());
    }

    #[test]
    fn unknown_kind_is_no_mapping_and_group_404_too() {
        let (mut c, _) =
            client(None, vec![respond(200, BATCH_V1), respond(200, BATCH_V1), respond(404, "404 page not found")]);
        let e = c.resource("batch/v1", "Widget").unwrap_err();
        assert!(matches!(e, KubeError::NoMapping { .. }), "{e}");
        // A cached group-version is asked again for a missing kind (a new CRD).
        assert!(c.resource("batch/v1", "Widget").is_err());
        let e = c.resource("example.com/v1", "Widget").unwrap_err();
        assert!(e.is_object_fault(), "{e}");
        assert_eq!(c.requests(), 3);
    }

    #[test]
    fn list_follows_continue_and_fills_kind() {
        let (mut c, script) = client(
            None,
            vec![
                respond(
                    200,
                    r#"{"metadata":{"resourceVersion":"5","continue":"abc"},"items":[{"metadata":{"name":"a"}}]}"#,
                ),
                respond(200, r#"{"metadata":{"resourceVersion":"6"},"items":[{"metadata":{"name":"b"}}]}"#),
            ],
        );
        let pods =
            ApiResource { api_version: "v1".into(), kind: "Pod".into(), plural: "pods".into(), namespaced: true };
        let list = c.list(&pods, Some("ns"), &Selector::labels("job-name=x,a!=b")).unwrap();
        assert_eq!(list.items.len(), 2);
        assert_eq!(list.items[1]["kind"], "Pod");
        assert_eq!(list.resource_version, "6");
        let seen = script.seen.borrow();
        assert_eq!(
            seen[0].url,
            "https://k:6443/api/v1/namespaces/ns/pods?labelSelector=job-name%3Dx%2Ca%21%3Db&limit=500"
        );
        assert!(seen[1].url.ends_with("&continue=abc"));
    }

    #[test]
    fn delete_is_background_and_tolerates_not_found() {
        let (mut c, script) = client(
            None,
            vec![
                respond(200, BATCH_V1),
                respond(200, "{}"),
                respond(404, r#"{"message":"not found"}"#),
                respond(403, r#"{"message":"no"}"#),
            ],
        );
        let key = ObjectKey::new("batch/v1", "Job", None, "j");
        assert!(c.delete(&key).unwrap());
        assert!(!c.delete(&key).unwrap());
        let e = c.delete(&key).unwrap_err();
        assert!(
            matches!(&e, KubeError::Forbidden { verb, resource, .. } if verb == "delete" && resource == "jobs.batch"),
            "{e:?}"
        );
        let seen = script.seen.borrow();
        assert_eq!(seen[1].method, Method::Delete);
        assert!(String::from_utf8_lossy(seen[1].body.as_ref().unwrap()).contains(r#""propagationPolicy":"Background""#));
    }

    #[test]
    fn containers_in_order() {
        let pod =
            serde_json::json!({"spec":{"initContainers":[{"name":"init"}],"containers":[{"name":"a"},{"name":"b"}]}});
        assert_eq!(container_names(&pod), vec!["init", "a", "b"], "init containers first, as helm test --logs");
    }

    fn after(status: u16, retry_after: Option<&str>) -> Response {
        let mut r = respond(status, r#"{"kind":"Status","message":"slow down"}"#);
        if let Some(s) = retry_after {
            r.headers.insert("retry-after".into(), s.into());
        }
        r
    }

    #[test]
    fn a_429_is_repeated_for_every_method_as_retry_after_asks() {
        let (mut c, script) = client(
            None,
            vec![
                respond(200, BATCH_V1),
                after(429, Some("0")),
                after(429, Some("0")),
                respond(201, r#"{"kind":"Job","metadata":{"name":"j"}}"#),
            ],
        );
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        c.create(&job).unwrap();
        assert_eq!((c.requests(), c.repeated()), (4, 2));
        assert!(script.seen.borrow()[1..].iter().all(|r| r.method == Method::Post));
    }

    #[test]
    fn a_lost_connection_is_repeated_only_when_safe() {
        let refused = || respond(0, "dial tcp 127.0.0.1:6443: connect: connection refused");
        let reset = || respond(0, "read tcp 127.0.0.1:1->127.0.0.1:6443: read: connection reset by peer");
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        let created = || respond(201, r#"{"kind":"Job","metadata":{"name":"j"}}"#);
        // Refused: the request never left, so even a create is sent again.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), refused(), refused(), created()]);
        c.create(&job).unwrap();
        assert_eq!((c.requests(), c.repeated()), (4, 2));
        // Reset: a create may have been done; a read is safe to repeat.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), reset()]);
        assert!(c.create(&job).unwrap_err().to_string().contains("connection reset"));
        assert_eq!(c.repeated(), 0);
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), reset(), created()]);
        c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).unwrap();
        assert_eq!(c.repeated(), 1);
        // Not a lost connection: not repeated.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), respond(0, "the path is not allowed")]);
        assert!(c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).is_err());
        assert_eq!(c.repeated(), 0);
    }

    #[test]
    fn a_gateway_error_is_repeated_only_when_safe() {
        // A create (POST) may have happened before a 503: not repeated.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), after(503, Some("0"))]);
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        let e = c.create(&job).unwrap_err();
        assert_eq!((c.requests(), c.repeated()), (2, 0));
        assert!(!e.to_string().contains("tries"), "{e}");
        // A read is, RETRIES times; then the error says how often it was tried.
        let mut answers = vec![respond(200, BATCH_V1)];
        answers.extend((0..=RETRIES).map(|_| after(503, Some("0"))));
        let (mut c, _) = client(None, answers);
        let e = c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).unwrap_err();
        assert_eq!((c.requests(), c.repeated()), (2 + u64::from(RETRIES), u64::from(RETRIES)));
        assert!(e.to_string().contains(&format!("after {} tries", RETRIES + 1)), "{e}");
    }
}
