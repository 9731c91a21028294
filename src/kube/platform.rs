//! The platform's transport, and a client for the cluster Helm's
//! environment names over it.

use super::client::Client;
use super::config::Connection;
use super::error::KubeError;
#[cfg(all(target_arch = "wasm32", not(feature = "host-functions")))]
use super::extism;
#[cfg(all(target_arch = "wasm32", feature = "host-functions"))]
use super::host;
#[cfg(not(target_arch = "wasm32"))]
use super::tcp;
use super::throttle::Throttle;
#[cfg(not(all(target_arch = "wasm32", feature = "host-functions")))]
use super::transport::Transport;

/// The transport of the platform: Extism's `http_request` in plugin.wasm,
/// the loopback HTTP client natively.
#[cfg(not(all(target_arch = "wasm32", feature = "host-functions")))]
fn platform_transport() -> Box<dyn Transport> {
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
pub(crate) fn connect_from_env() -> Result<Client, KubeError> {
    let conn = Connection::from_env(&|k| std::env::var(k).ok())?;
    Ok(Client::new(conn, platform_transport()).with_throttle(Throttle::from_env(&|k| std::env::var(k).ok())))
}

/// A client for the cluster Helm is configured for (kubeconfig, context and
/// `--kube-*` flags), through Helm's `kube_request` host function: Helm
/// holds the credentials, the plugin only names API paths.
#[cfg(all(target_arch = "wasm32", feature = "host-functions"))]
pub(crate) fn connect_from_env() -> Result<Client, KubeError> {
    let transport = host::HostTransport::connect()?;
    let conn = Connection::through_helm(transport.server(), &|k| std::env::var(k).ok());
    Ok(Client::new(conn, Box::new(transport)).with_throttle(Throttle::from_env(&|k| std::env::var(k).ok())))
}
