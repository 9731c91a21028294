//! The transport of plugin.wasm built with the `host-functions` feature:
//! Helm's `kube_request` host function (docs/hip-host-functions.md), which
//! only a Helm with testbed/helm-patches offers.
//!
//! Helm sends each request through the REST config of the cluster it is
//! configured for — kubeconfig, `--kube-context`, client certificates, exec
//! credential plugins, impersonation — so this transport sets no
//! credentials; it sends an API path and query, never a host. A transport
//! failure comes back as a value (no trap), and a watch comes back as soon
//! as events arrive (`returnOnEvent`), so a watch round of
//! `watch::ROUND_SECS` is a ceiling rather than a floor (docs/design.md §5).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Request, Response, TransportError};

/// One request as `kube_request` takes it (docs/hip-host-functions.md).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub(crate) struct HostRequest {
    method: &'static str,
    path: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    query: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    headers: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    #[serde(rename = "returnOnEvent", skip_serializing_if = "std::ops::Not::not")]
    return_on_event: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct Batch<'a> {
    requests: &'a [HostRequest],
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct HostResponse {
    #[serde(default)]
    status: u16,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    body: String,
    #[serde(default)]
    error: String,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Answer {
    #[serde(default)]
    pub(crate) server: String,
    #[serde(default)]
    responses: Vec<HostResponse>,
    #[serde(default)]
    error: String,
}

/// The request for Helm: the URL's path and query relative to `server`,
/// and only the headers Helm lets a plugin set (the credentials are Helm's).
pub(crate) fn to_host(server: &str, req: &Request) -> Result<HostRequest, TransportError> {
    let rest = req
        .url
        .strip_prefix(server)
        .filter(|r| r.starts_with('/'))
        .ok_or_else(|| TransportError::Unsupported(format!("{} is not on the API server {server}", req.url)))?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let body =
        match &req.body {
            None => None,
            // Every body the client sends is JSON or YAML it wrote itself.
            Some(b) => Some(String::from_utf8(b.clone()).map_err(|_| TransportError::Io {
                url: req.url.clone(),
                message: "request body is not UTF-8".into(),
            })?),
        };
    let headers = req
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-type") || k.eq_ignore_ascii_case("accept"))
        .cloned()
        .collect();
    let watch = query.split('&').any(|kv| kv == "watch=1" || kv == "watch=true");
    Ok(HostRequest {
        method: req.method.as_str(),
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body,
        return_on_event: watch,
    })
}

/// One response from Helm's answer, or why there was none.
pub(crate) fn from_host(url: &str, answer: Answer) -> Result<Response, TransportError> {
    let io = |message: String| TransportError::Io { url: url.to_string(), message };
    if !answer.error.is_empty() {
        return Err(io(answer.error));
    }
    let Some(r) = answer.responses.into_iter().next() else {
        return Err(io("Helm's kube_request returned no response".into()));
    };
    if !r.error.is_empty() || r.status == 0 {
        return Err(io(r.error));
    }
    Ok(Response { status: r.status, headers: r.headers, body: r.body.into_bytes() })
}

#[cfg(target_arch = "wasm32")]
mod ffi {
    use extism_pdk::host_fn;

    #[host_fn]
    extern "ExtismHost" {
        pub fn kube_request(input: String) -> String;
    }
}

#[cfg(target_arch = "wasm32")]
fn call(batch: &Batch<'_>) -> Result<Answer, String> {
    let input = serde_json::to_string(batch).map_err(|e| e.to_string())?;
    // SAFETY: an import Helm provides when plugin.yaml names it; Helm
    // refuses to load the plugin otherwise.
    let output = unsafe { ffi::kube_request(input) }.map_err(|e| e.to_string())?;
    serde_json::from_str(&output).map_err(|e| format!("Helm's kube_request answer: {e}"))
}

/// `kube_request` as a [`super::Transport`]: one request a call.
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Clone)]
pub struct HostTransport {
    server: String,
}

#[cfg(target_arch = "wasm32")]
impl HostTransport {
    /// Asks Helm which API server it is configured for (an empty batch
    /// reaches no server), for URLs and messages.
    pub fn connect() -> Result<Self, TransportError> {
        let answer = call(&Batch { requests: &[] }).map_err(TransportError::Unsupported)?;
        if !answer.error.is_empty() {
            return Err(TransportError::Unsupported(answer.error));
        }
        Ok(HostTransport { server: answer.server.trim_end_matches('/').to_string() })
    }

    pub fn server(&self) -> &str {
        &self.server
    }
}

#[cfg(target_arch = "wasm32")]
impl super::Transport for HostTransport {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        let one = [to_host(&self.server, req)?];
        let answer =
            call(&Batch { requests: &one }).map_err(|message| TransportError::Io { url: req.url.clone(), message })?;
        from_host(&req.url, answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::Method;

    fn req(url: &str, body: Option<&str>) -> Request {
        Request {
            method: Method::Patch,
            url: url.into(),
            headers: vec![
                ("Accept".into(), "application/json".into()),
                ("Content-Type".into(), "application/apply-patch+yaml".into()),
                ("Authorization".into(), "Bearer never-sent".into()),
            ],
            body: body.map(|b| b.as_bytes().to_vec()),
        }
    }

    #[test]
    fn requests_are_paths_with_helms_credentials() {
        let h = to_host(
            "https://k:6443",
            &req("https://k:6443/api/v1/namespaces/a/pods/p?fieldManager=helm", Some("x: 1")),
        )
        .unwrap();
        let json = serde_json::to_value(&h).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "method": "PATCH",
                "path": "/api/v1/namespaces/a/pods/p",
                "query": "fieldManager=helm",
                "headers": {"Accept": "application/json", "Content-Type": "application/apply-patch+yaml"},
                "body": "x: 1"
            })
        );
        assert!(to_host("https://k:6443", &req("https://other:6443/api", None)).is_err());
        assert!(to_host("https://k:6443", &req("https://k:64430/api", None)).is_err());
    }

    #[test]
    fn watches_return_on_events() {
        let h = to_host("https://k", &req("https://k/apis/batch/v1/jobs?watch=1&timeoutSeconds=1", None)).unwrap();
        assert!(h.return_on_event);
        let h = to_host("https://k", &req("https://k/apis/batch/v1/jobs?labelSelector=watch%3D1", None)).unwrap();
        assert!(!h.return_on_event);
    }

    #[test]
    fn errors_are_transport_errors_naming_the_url() {
        let answer: Answer = serde_json::from_str(
            r#"{"server":"https://k","responses":[{"error":"dial tcp 127.0.0.1:1: connect: connection refused"}]}"#,
        )
        .unwrap();
        let e = from_host("https://k/api", answer).unwrap_err();
        assert_eq!(e.to_string(), "https://k/api: dial tcp 127.0.0.1:1: connect: connection refused");
        let answer: Answer = serde_json::from_str(r#"{"responses":[],"error":"no cluster"}"#).unwrap();
        assert!(from_host("https://k/api", answer).unwrap_err().to_string().contains("no cluster"));
        let answer: Answer = serde_json::from_str(
            r#"{"responses":[{"status":404,"headers":{"content-type":"application/json"},"body":"{}"}]}"#,
        )
        .unwrap();
        let r = from_host("https://k/api", answer).unwrap();
        assert_eq!(
            (r.status, r.body.as_slice(), r.headers["content-type"].as_str()),
            (404, &b"{}"[..], "application/json")
        );
    }
}
