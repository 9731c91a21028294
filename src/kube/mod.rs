//! A Kubernetes REST client for the plugin's I/O layer.
//!
//! Everything goes through a [`Transport`]: one HTTP request in, one whole
//! response out, or a batch of them ([`Transport::send_batch`]). In
//! plugin.wasm that is Extism's `http_request` (Helm 4's Wasm host: Go's
//! default HTTP client, system CA roots, bearer tokens only), one request at
//! a time; natively it is a minimal HTTP/1.1 client for `kubectl proxy` on
//! loopback, used by the native binary and the end-to-end tests. The
//! `host-functions` build's transport, Helm's `kube_request` ([`host`]),
//! sends a batch at once.
//!
//! The host reads each response whole, so a watch returns only when its
//! `timeoutSeconds` runs out: waiting is done by server-side long polls (a
//! list not older than a revision the cluster has yet to reach, or a watch
//! round of a second), never with sleep — sleep returns at once in the
//! sandbox. See [`Tracker`] and [`Client::look`].
//!
//! Layout, a file per concept: [`config`] reads the connection from Helm's
//! environment; [`key`] names kinds, objects and selectors; `request`
//! builds requests as values, with no client and no I/O; [`client`] holds
//! the connection and sends them, [`retry`] repeats them; [`discovery`]
//! maps kinds to resources; [`objects`] applies, gets, creates and deletes;
//! [`collections`] lists and watches; [`pods`] reads pods and logs;
//! [`access`] asks for permissions; `tracker` holds what a [`Tracker`]
//! knows and the pure steps that say what to ask next, which [`watch`]
//! sends; [`error`] names what failed.

pub mod access;
pub mod client;
pub mod collections;
pub mod config;
pub mod discovery;
pub mod error;
#[cfg(test)]
pub(crate) mod fixture;
pub mod key;
pub mod objects;
mod pace;
pub mod pods;
mod query;
mod request;
pub mod retry;
mod tracker;
pub mod watch;
pub mod watch_event;

#[cfg(target_arch = "wasm32")]
pub mod extism;
// Helm's kube_request host function (docs/hip-host-functions.md); natively
// only its encoding is built, for the unit tests.
#[cfg(feature = "host-functions")]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod tcp;

use std::collections::BTreeMap;

use crate::base::cause::Cause;

pub use client::Client;
pub use collections::{Fresh, ObjectList};
pub use config::{ConfigError, Connection};
pub use error::{DecodeError, KubeError};
pub use key::{ApiResource, ObjectKey, Selector};
pub use pods::MAX_LOG_BYTES;
pub use request::Conflicts;
pub use tracker::{Observed, Tracker};
pub use watch_event::{EventType, WatchEvent, WatchRound};

/// One HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    /// Absolute URL: scheme, host, path and query.
    pub url: String,
    /// Header names as written; one value each.
    pub headers: Vec<(String, String)>,
    pub body: Option<Vec<u8>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Put,
    Patch,
    Delete,
    Post,
}

impl Method {
    pub fn as_str(self) -> &'static str {
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
    pub status: u16,
    /// Lower-cased names. (Helm 4.2.4 configures its host to pass them:
    /// `EnableHttpResponseHeaders` in `runtime_extismv1.go`; `Retry-After`
    /// is read from them.)
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
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

/// The transport of the platform: Extism's `http_request` in plugin.wasm,
/// the loopback HTTP client natively.
pub fn platform_transport() -> Box<dyn Transport> {
    #[cfg(target_arch = "wasm32")]
    {
        Box::new(extism::ExtismTransport)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Box::new(tcp::TcpTransport::default())
    }
}

/// A client for the cluster Helm's environment names (see
/// [`Connection::from_env`]), over the platform's transport.
#[cfg(not(all(target_arch = "wasm32", feature = "host-functions")))]
pub fn connect_from_env() -> Result<Client, KubeError> {
    let conn = Connection::from_env(&|k| std::env::var(k).ok())?;
    Ok(Client::new(conn, platform_transport()))
}

/// A client for the cluster Helm is configured for (kubeconfig, context and
/// `--kube-*` flags), through Helm's `kube_request` host function: Helm
/// holds the credentials, the plugin only names API paths.
#[cfg(all(target_arch = "wasm32", feature = "host-functions"))]
pub fn connect_from_env() -> Result<Client, KubeError> {
    let transport = host::HostTransport::connect()?;
    let conn = Connection::through_helm(transport.server(), &|k| std::env::var(k).ok());
    Ok(Client::new(conn, Box::new(transport)))
}
