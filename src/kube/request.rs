//! Requests built without I/O: the paths of collections, objects and
//! watches, percent-encoded query strings, and the HTTP request with the
//! connection's credentials. [`super::client`] and its siblings send them.

use super::key::{ApiResource, Selector};
use super::{Client, Method, Request};

/// Field manager of server-side apply and updates: Helm's own.
pub const FIELD_MANAGER: &str = "helm";

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
pub(super) struct Call {
    pub(super) method: Method,
    pub(super) path: String,
    pub(super) content_type: Option<&'static str>,
    pub(super) body: Option<Vec<u8>>,
}

impl Client {
    pub(super) fn request(
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

    /// The namespace a key's object lives in: `None` for cluster-scoped
    /// kinds, else the key's or the client's.
    pub fn effective_namespace(&self, res: &ApiResource, ns: Option<&str>) -> Option<String> {
        res.namespaced.then(|| ns.filter(|n| !n.is_empty()).unwrap_or(&self.conn.namespace).to_string())
    }

    pub(super) fn collection_path(res: &ApiResource, ns: Option<&str>) -> String {
        match ns {
            Some(ns) => format!("{}/namespaces/{}/{}", res.prefix(), encode(ns, false), res.plural),
            None => format!("{}/{}", res.prefix(), res.plural),
        }
    }

    pub(super) fn object_path(res: &ApiResource, ns: Option<&str>, name: &str) -> String {
        format!("{}/{}", Self::collection_path(res, ns), encode(name, false))
    }

    pub(super) fn watch_path(
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
}
