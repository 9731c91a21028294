//! A Kubernetes REST client for the plugin's I/O layer.
//!
//! Everything goes through a [`Transport`] ([`transport`]): one HTTP request
//! in, one whole response out, or a batch of them ([`Transport::send_batch`]). In
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
//! environment, [`platform`] picks the platform's transport for it; [`key`] names kinds, objects and selectors; `request`
//! builds requests as values, with no client and no I/O; [`client`] holds
//! the connection and sends them, [`retry`] repeats them; [`discovery`]
//! maps kinds to resources; [`objects`] applies, gets, creates and deletes;
//! [`collections`] lists and watches; [`pods`] reads pods and logs;
//! [`access`] asks for permissions; `tracker` holds what a [`Tracker`]
//! knows and the pure steps that say what to ask next, which [`watch`]
//! sends; [`error`] names what failed.

pub(crate) mod access;
mod client;
mod collections;
mod config;
mod discovery;
mod error;
#[cfg(test)]
pub(crate) mod fixture;
mod key;
pub(crate) mod objects;
mod pace;
mod platform;
pub mod pods;
mod query;
mod request;
pub(crate) mod retry;
mod throttle;
mod tracker;
pub(crate) mod transport;
mod watch;
mod watch_event;

#[cfg(all(target_arch = "wasm32", not(feature = "host-functions")))]
mod extism;
// Helm's kube_request host function (docs/hip-host-functions.md); natively
// only its encoding is built, for the unit tests.
#[cfg(feature = "host-functions")]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod host;
#[cfg(not(target_arch = "wasm32"))]
pub mod tcp;

/// What a tracker knows of one object (the conditions judge it).
pub use crate::ready::Observed;
pub use client::Client;
pub use config::{ConfigError, Connection};
pub use error::{DecodeError, KubeError};
pub use key::{ApiResource, ObjectKey, Selector};
pub(crate) use platform::connect_from_env;
pub use request::Conflicts;
pub use tracker::Tracker;
pub(crate) use transport::TransportError;
pub use watch_event::{EventType, WatchEvent, WatchRound};
