//! Requests built without I/O: the paths of collections, objects and
//! watches, and the HTTP request with the
//! connection's credentials. [`super::client`] and its siblings send them.

use super::key::{ApiResource, Selector};
use super::query::{encode, Query};
use super::{Client, Method, Request};

/// Field manager of server-side apply and updates: Helm's own.
pub const FIELD_MANAGER: &str = "helm";

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
