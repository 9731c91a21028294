//! The transport of plugin.wasm: Extism's `http_request`, as Helm 4's host
//! (Extism Go SDK) implements it.
//!
//! What the host does (go-sdk v1.7.1 `httpRequest`): Go's
//! `http.DefaultClient` (system CA roots, `SSL_CERT_FILE` honoured, proxies
//! from the environment, redirects followed, no client certificates, no
//! timeout); it frees the request and body memory itself; the whole response
//! is read, up to `runtimeConfig.memory.maxHttpResponseBytes`. A refused
//! connection, a TLS failure, a host outside `allowedHosts` or an
//! over-limit body panics in the host: the plugin call ends there and the
//! guest never sees an error. Hence the checks in `config` before the first
//! request.

use extism_pdk::HttpRequest;

use super::transport::{Request, Response, Transport, TransportError};

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ExtismTransport;

impl Transport for ExtismTransport {
    /// A reset stream panics in the host (above): the plugin call ends.
    fn survives_reset(&self) -> bool {
        false
    }

    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        let mut r = HttpRequest::new(req.url.as_str()).with_method(req.method.as_str());
        for (k, v) in &req.headers {
            r = r.with_header(k.as_str(), v.as_str());
        }
        let resp = match &req.body {
            Some(body) => extism_pdk::http::request(&r, Some(body.as_slice())),
            None => extism_pdk::http::request::<&[u8]>(&r, None),
        }
        // Not a lost connection (those panic in the host, above): nothing to repeat.
        .map_err(|e| TransportError::Call {
            url: req.url.clone(),
            source: Box::<dyn std::error::Error + Send + Sync>::from(e).into(),
        })?;
        let status = resp.status_code();
        let body = resp.body();
        // Inserted one by one: collect() would sort first, a sort of its own in plugin.wasm.
        let mut headers = std::collections::BTreeMap::new();
        for (k, v) in resp.headers() {
            headers.insert(k.to_ascii_lowercase(), v.clone());
        }
        // The response lives in Extism's memory until freed; a run makes
        // many requests (several looks a second while it waits).
        let memory = resp.into_memory();
        if memory.offset() != 0 {
            memory.free();
        }
        Ok(Response { status, headers, body })
    }
}
