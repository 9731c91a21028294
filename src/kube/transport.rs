//! What the client sends and gets back, and the seam to the wire: a
//! [`Transport`] sends one request, or a batch of them, and gives each whole
//! response back (module docs of `kube`).

use std::collections::BTreeMap;

use crate::base::cause::Cause;

/// One HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub(crate) method: Method,
    /// Absolute URL: scheme, host, path and query.
    pub(crate) url: String,
    /// Header names as written; one value each.
    pub(super) headers: Vec<(String, String)>,
    pub(crate) body: Option<Vec<u8>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Put,
    Patch,
    Delete,
    Post,
}

impl Method {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Post => "POST",
        }
    }
}

/// One HTTP response, read whole.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Response {
    pub(super) status: u16,
    /// Lower-cased names. (Helm 4.2.4 configures its host to pass them:
    /// `EnableHttpResponseHeaders` in `runtime_extismv1.go`; `Retry-After`
    /// is read from them.)
    pub(super) headers: BTreeMap<String, String>,
    pub(crate) body: Vec<u8>,
}

/// A request that got no HTTP response. Under Helm's Wasm host most such
/// failures (connection refused, TLS) abort the plugin call before the guest
/// sees them; the native transport returns them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    #[error("{0}")]
    Unsupported(String),
    #[error("{url}: {message}")]
    Io { url: String, message: String },
    /// The host function that sends requests returned an error instead of
    /// an answer: Extism's `http_request`, or Helm's `kube_request` (which
    /// answers a request that failed as [`TransportError::Io`]). One cause
    /// for every request of the batch it was called with.
    #[error("{url}: {source}")]
    Call {
        url: String,
        #[source]
        source: Cause,
    },
    /// Asking Helm's `kube_request` which API server it is configured for
    /// returned an error instead of an answer.
    #[error("{0}")]
    Connect(#[source] Cause),
    #[error("{url}: malformed HTTP response: {message}")]
    Protocol { url: String, message: String },
    /// A watch of a [`ReturnOn::AnyEvent`] batch that the host stopped before
    /// the server answered it, because another watch had events: nothing
    /// was seen, send it again unchanged.
    #[error("{url}: stopped before it was answered")]
    Stopped { url: String },
}

/// When a batch of requests ([`Transport::send_batch`]) comes back, as
/// `kube_request` spells it (`returnOnAnyEvent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnOn {
    /// Once every request is answered in full.
    All,
    /// The requests are watches, answered as soon as any of them has
    /// events; the host stops the others, which come back with the whole
    /// events they had so far, or as [`TransportError::Stopped`]. Each is
    /// resumed from the last resourceVersion it saw, so nothing is lost.
    AnyEvent,
}

/// Sends requests and returns whole responses.
pub trait Transport {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError>;

    /// Sends several requests and answers each, in order. By default one
    /// after another (so a watch of a [`ReturnOn::AnyEvent`] batch lasts its
    /// `timeoutSeconds`); a transport that can runs them at once.
    fn send_batch(&mut self, reqs: &[Request], _how: ReturnOn) -> Vec<Result<Response, TransportError>> {
        reqs.iter().map(|r| self.send(r)).collect()
    }

    /// Whether [`Transport::send_batch`] sends a batch at once, and answers
    /// a [`ReturnOn::AnyEvent`] batch on the first event of any watch (so
    /// several collections are watched at once). When it does not, the
    /// client sends one request at a time, as it always has.
    fn at_once(&self) -> bool {
        false
    }

    /// Whether a stream the API server resets comes back as an error the client can
    /// repeat. Extism's `http_request` ends the plugin call instead, so over it no request
    /// may invite a reset: kube-apiserver's timeout filter resets the stream of a request
    /// whose `timeout` passes just as its handler begins to answer (`pace::LOOK_WITHIN_MS`).
    fn survives_reset(&self) -> bool {
        true
    }
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        (**self).send(req)
    }

    fn send_batch(&mut self, reqs: &[Request], how: ReturnOn) -> Vec<Result<Response, TransportError>> {
        (**self).send_batch(reqs, how)
    }

    fn at_once(&self) -> bool {
        (**self).at_once()
    }

    fn survives_reset(&self) -> bool {
        (**self).survives_reset()
    }
}
