//! The [`Client`]: a connection, a transport, the discovery cache and the
//! request counters, and the one place a request is sent and its answer
//! read. What it does is in files by concept beside it: `request`
//! builds requests as values, with no client and no I/O, [`super::retry`] repeats them,
//! [`super::discovery`], [`super::objects`], [`super::collections`] and
//! [`super::pods`] are the operations, [`super::access`] asks for
//! permissions.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::config::Connection;
use super::error::{from_status, Doing, KubeError};
use super::key::ApiResource;
use super::request::{self, Call};
use super::throttle::Throttle;
use super::transport::{Response, Transport};

/// The Kubernetes client: a connection, a transport, the discovery cache
/// and the request counter.
pub struct Client {
    pub(super) conn: Connection,
    pub(super) transport: Box<dyn Transport>,
    /// Per group-version: its resources, `None` when it is not served.
    pub(super) discovery: BTreeMap<String, Option<Vec<ApiResource>>>,
    /// Per namespace: the RBAC rules a SelfSubjectRulesReview returned
    /// ([`Client::rules`]), asked once per command.
    pub(super) rules: BTreeMap<String, Option<Vec<Value>>>,
    pub(super) requests: u64,
    /// Of those, sent again after a 429 or a gateway error.
    pub(super) repeated: u64,
    /// Helm's request budget, which they are counted against.
    pub(super) throttle: Throttle,
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
        let throttle = Throttle::default();
        Client {
            conn,
            transport,
            discovery: BTreeMap::new(),
            rules: BTreeMap::new(),
            requests: 0,
            repeated: 0,
            throttle,
        }
    }

    /// The client with Helm's request budget (`--qps`, `--burst-limit`)
    /// in place of its defaults.
    pub(super) fn with_throttle(mut self, throttle: Throttle) -> Self {
        self.throttle = throttle;
        self
    }

    /// The namespace of objects that name none (`HELM_NAMESPACE`).
    pub(crate) fn namespace(&self) -> &str {
        &self.conn.namespace
    }

    /// Objects that name no namespace go to `namespace` from now on (the
    /// release's, when it differs from `-n`).
    pub(crate) fn set_namespace(&mut self, namespace: &str) {
        self.conn.namespace = namespace.to_string();
    }

    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }

    /// HTTP requests sent so far (for the benchmark: requests per hook).
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// Of [`Client::requests`], those sent again because the API server
    /// (or a gateway before it) answered 429, 502, 503 or 504: a throttled
    /// or flaky cluster shows in the reports rather than only as slowness.
    pub(crate) fn repeated(&self) -> u64 {
        self.repeated
    }

    // -- sending ---------------------------------------------------------

    /// The namespace an object of `res` lives in: `None` for cluster-scoped
    /// kinds, else `ns`, or the client's when it names none.
    pub(crate) fn effective_namespace(&self, res: &ApiResource, ns: Option<&str>) -> Option<String> {
        request::effective_namespace(res, ns, &self.conn.namespace)
    }

    /// Sends one request, once, with the connection's credentials.
    pub(super) fn send(&mut self, call: &Call) -> Result<Response, KubeError> {
        self.requests += 1;
        self.throttle.spend(1, crate::base::time::wall_ms());
        let req = request::http(&self.conn, call);
        let mut span = crate::trace::span(|| call.what());
        let resp = self.transport.send(&req);
        span.note(|| match &resp {
            Ok(r) => format!("-> {} ({} bytes)", r.status, r.body.len()),
            Err(e) => format!("-> {e}"),
        });
        Ok(resp?)
    }

    /// Whether the transport sends a batch of requests at once, and
    /// watches several collections at once ([`Transport::at_once`]).
    pub(crate) fn at_once(&self) -> bool {
        self.transport.at_once()
    }

    /// Sends (repeating as [`super::retry`] does) and maps an unsuccessful
    /// status to an error.
    pub(super) fn call(&mut self, call: &Call, doing: &Doing<'_>) -> Result<Vec<u8>, KubeError> {
        let (resp, tries) = self.send_retrying(call)?;
        Self::accept(resp, tries, doing)
    }

    /// A response's body, or the error its status means (naming the tries).
    pub(super) fn accept(resp: Response, tries: u32, doing: &Doing<'_>) -> Result<Vec<u8>, KubeError> {
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

    pub(super) fn decode(call: &Call, bytes: &[u8]) -> Result<Value, KubeError> {
        serde_json::from_slice(bytes).map_err(|e| KubeError::Decode { what: call.what(), source: e.into() })
    }

    pub(super) fn call_json(&mut self, call: &Call, doing: &Doing<'_>) -> Result<Value, KubeError> {
        let bytes = self.call(call, doing)?;
        Self::decode(call, &bytes)
    }
}
