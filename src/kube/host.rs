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

use super::transport::{Request, Response, TransportError};
use crate::base::cause::Cause;

/// One request as `kube_request` takes it (docs/hip-host-functions.md).
#[derive(Debug, Serialize, PartialEq, Eq)]
struct HostRequest {
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

/// At most this many requests a call (docs/hip-host-functions.md).
const MAX_BATCH: usize = 256;

#[derive(Debug, Serialize)]
struct HostBatch<'a> {
    requests: &'a [HostRequest],
    /// HostAnswer as soon as any returnOnEvent watch has its answer; the
    /// others come back stopped.
    #[serde(rename = "returnOnAnyEvent", skip_serializing_if = "std::ops::Not::not")]
    return_on_any_event: bool,
}

#[derive(Debug, Default, Deserialize)]
struct HostResponse {
    #[serde(default)]
    status: u16,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    body: String,
    #[serde(default)]
    error: String,
    #[serde(default)]
    stopped: bool,
}

#[derive(Debug, Default, Deserialize)]
struct HostAnswer {
    #[serde(default)]
    server: String,
    #[serde(default)]
    responses: Vec<HostResponse>,
    #[serde(default)]
    error: String,
}

/// Why a call of `kube_request` gave no answer to read.
#[derive(Debug, thiserror::Error)]
enum HostError {
    /// The batch could not be written as the contract's JSON.
    #[error("{0}")]
    Request(#[source] serde_json::Error),
    /// The host function could not be called.
    #[error("{0}")]
    Call(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Helm's answer is not the contract's JSON.
    #[error("Helm's kube_request answer: {0}")]
    Answer(#[source] serde_json::Error),
}

/// The request for Helm: the URL's path and query relative to `server`,
/// and only the headers Helm lets a plugin set (the credentials are Helm's).
fn to_host(server: &str, req: &Request) -> Result<HostRequest, TransportError> {
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

/// The responses to the requests at `urls` from Helm's answer, in order,
/// or why there were none.
fn from_host(urls: &[&str], answer: HostAnswer) -> Vec<Result<Response, TransportError>> {
    let io = |url: &str, message: String| TransportError::Io { url: url.to_string(), message };
    if !answer.error.is_empty() {
        return urls.iter().map(|u| Err(io(u, answer.error.clone()))).collect();
    }
    let mut responses = answer.responses.into_iter();
    urls.iter()
        .map(|&url| match responses.next() {
            None => Err(io(url, "Helm's kube_request returned no response".into())),
            Some(r) if r.stopped && r.status == 0 && r.error.is_empty() => {
                Err(TransportError::Stopped { url: url.to_string() })
            }
            Some(r) if !r.error.is_empty() || r.status == 0 => Err(io(url, r.error)),
            Some(r) => Ok(Response { status: r.status, headers: r.headers, body: r.body.into_bytes() }),
        })
        .collect()
}

/// Sends `reqs` in calls of at most [`MAX_BATCH`] through `call`: each
/// request Helm cannot take is answered by its error, the others are sent.
fn send_batch(
    server: &str,
    reqs: &[Request],
    how: super::transport::ReturnOn,
    call: &mut dyn FnMut(&HostBatch<'_>) -> Result<HostAnswer, HostError>,
) -> Vec<Result<Response, TransportError>> {
    let mut out = Vec::with_capacity(reqs.len());
    for chunk in reqs.chunks(MAX_BATCH) {
        let mut answers: Vec<Option<Result<Response, TransportError>>> = (0..chunk.len()).map(|_| None).collect();
        let mut sent = Vec::new();
        let mut host = Vec::new();
        for (i, req) in chunk.iter().enumerate() {
            match to_host(server, req) {
                Ok(h) => {
                    sent.push(i);
                    host.push(h);
                }
                Err(e) => answers[i] = Some(Err(e)),
            }
        }
        if !host.is_empty() {
            let batch = HostBatch { requests: &host, return_on_any_event: how == super::transport::ReturnOn::AnyEvent };
            let urls: Vec<&str> = sent.iter().map(|&i| chunk[i].url.as_str()).collect();
            let got = match call(&batch) {
                Ok(answer) => from_host(&urls, answer),
                Err(e) => {
                    let source = Cause::new(e);
                    urls.iter()
                        .map(|u| Err(TransportError::Call { url: u.to_string(), source: source.clone() }))
                        .collect()
                }
            };
            for (i, r) in sent.into_iter().zip(got) {
                answers[i] = Some(r);
            }
        }
        out.extend(answers.into_iter().map(|a| a.expect("every request answered")));
    }
    out
}

#[cfg(target_arch = "wasm32")]
mod ffi {
    use extism_pdk::host_fn;

    #[host_fn]
    extern "ExtismHost" {
        pub(super) fn kube_request(input: String) -> String;
    }
}

#[cfg(target_arch = "wasm32")]
fn call(batch: &HostBatch<'_>) -> Result<HostAnswer, HostError> {
    let input = serde_json::to_string(batch).map_err(HostError::Request)?;
    // SAFETY: an import Helm provides when plugin.yaml names it; Helm
    // refuses to load the plugin otherwise.
    let output = unsafe { ffi::kube_request(input) }.map_err(|e| HostError::Call(e.into()))?;
    serde_json::from_slice(output.as_bytes()).map_err(HostError::Answer)
}

/// `kube_request` as a [`super::transport::Transport`]: a request or a batch a call.
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Clone)]
pub(super) struct HostTransport {
    server: String,
}

#[cfg(target_arch = "wasm32")]
impl HostTransport {
    /// Asks Helm which API server it is configured for (an empty batch
    /// reaches no server), for URLs and messages.
    pub(super) fn connect() -> Result<Self, TransportError> {
        let answer = call(&HostBatch { requests: &[], return_on_any_event: false })
            .map_err(|e| TransportError::Connect(Cause::new(e)))?;
        if !answer.error.is_empty() {
            return Err(TransportError::Unsupported(answer.error));
        }
        Ok(HostTransport { server: answer.server.trim_end_matches('/').to_string() })
    }

    pub(super) fn server(&self) -> &str {
        &self.server
    }
}

#[cfg(target_arch = "wasm32")]
impl super::transport::Transport for HostTransport {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        let one = [to_host(&self.server, req)?];
        let answer = call(&HostBatch { requests: &one, return_on_any_event: false })
            .map_err(|e| TransportError::Call { url: req.url.clone(), source: Cause::new(e) })?;
        from_host(&[&req.url], answer).pop().expect("one answer")
    }

    fn send_batch(
        &mut self,
        reqs: &[Request],
        how: super::transport::ReturnOn,
    ) -> Vec<Result<Response, TransportError>> {
        send_batch(&self.server, reqs, how, &mut call)
    }

    fn at_once(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::transport::Method;

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
    fn a_batch_is_one_call_per_256_and_a_stopped_watch_is_no_answer() {
        let get = |path: &str| Request {
            method: Method::Get,
            url: format!("https://k{path}"),
            headers: vec![("Accept".into(), "application/json".into())],
            body: None,
        };
        let mut reqs: Vec<Request> = (0..300).map(|i| get(&format!("/api/v1/namespaces/n{i}/pods?watch=1"))).collect();
        reqs[1].url = "https://elsewhere/api".into();
        let mut calls: Vec<serde_json::Value> = Vec::new();
        let mut call = |b: &HostBatch<'_>| -> Result<HostAnswer, HostError> {
            calls.push(serde_json::to_value(b).unwrap());
            // The first watch of each call has events; the second was stopped
            // before it was answered, the others stopped with nothing.
            let mut responses = Vec::new();
            for i in 0..b.requests.len() {
                let r = match i {
                    0 => r#"{"status":200,"body":"{\"type\":\"ADDED\"}\n"}"#,
                    1 => r#"{"stopped":true}"#,
                    _ => r#"{"status":200,"stopped":true}"#,
                };
                responses.push(serde_json::from_str::<HostResponse>(r).unwrap());
            }
            Ok(HostAnswer { server: "https://k".into(), responses, error: String::new() })
        };
        let got = send_batch("https://k", &reqs, crate::kube::transport::ReturnOn::AnyEvent, &mut call);
        assert_eq!(got.len(), 300);
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0]["requests"].as_array().unwrap().len(), 255, "the request Helm cannot take is not sent");
        assert_eq!(calls[1]["requests"].as_array().unwrap().len(), 44);
        assert_eq!(calls[0]["returnOnAnyEvent"], true);
        assert_eq!(calls[0]["requests"][0]["returnOnEvent"], true);
        assert!(matches!(&got[1], Err(TransportError::Unsupported(m)) if m.contains("elsewhere")));
        assert_eq!(got[0].as_ref().unwrap().body, b"{\"type\":\"ADDED\"}\n");
        assert!(matches!(&got[2], Err(TransportError::Stopped { url }) if url.contains("/namespaces/n2/")));
        let r = got[3].as_ref().unwrap();
        assert_eq!((r.status, r.body.len()), (200, 0), "stopped with nothing: a clean end");
        assert!(matches!(&got[257], Err(TransportError::Stopped { .. })));

        // Without AnyEvent the option is not sent; a failed call fails each request.
        let mut failing = |b: &HostBatch<'_>| -> Result<HostAnswer, HostError> {
            assert!(serde_json::to_value(b).unwrap().get("returnOnAnyEvent").is_none());
            Err(HostError::Call("no host".into()))
        };
        let got = send_batch("https://k", &reqs[..3], crate::kube::transport::ReturnOn::All, &mut failing);
        let e = got[2].as_ref().unwrap_err();
        assert!(matches!(e, TransportError::Call { url, .. } if url.contains("/n2/")));
        assert!(e.to_string().ends_with("/n2/pods?watch=1: no host"), "{e}");
    }

    #[test]
    fn errors_are_transport_errors_naming_the_url() {
        let answer: HostAnswer = serde_json::from_str(
            r#"{"server":"https://k","responses":[{"error":"dial tcp 127.0.0.1:1: connect: connection refused"}]}"#,
        )
        .unwrap();
        let e = from_host(&["https://k/api"], answer).pop().unwrap().unwrap_err();
        assert_eq!(e.to_string(), "https://k/api: dial tcp 127.0.0.1:1: connect: connection refused");
        let answer: HostAnswer = serde_json::from_str(r#"{"responses":[],"error":"no cluster"}"#).unwrap();
        assert!(from_host(&["https://k/api"], answer).pop().unwrap().unwrap_err().to_string().contains("no cluster"));
        let answer: HostAnswer = serde_json::from_str(
            r#"{"responses":[{"status":404,"headers":{"content-type":"application/json"},"body":"{}"}]}"#,
        )
        .unwrap();
        let r = from_host(&["https://k/api"], answer).pop().unwrap().unwrap();
        assert_eq!(
            (r.status, r.body.as_slice(), r.headers["content-type"].as_str()),
            (404, &b"{}"[..], "application/json")
        );
    }
}
