//! Where the cluster is, from the environment Helm gives its plugins.
//!
//! Helm passes its flags as environment variables: `--kube-apiserver` as
//! `HELM_KUBEAPISERVER`, `--kube-token` as `HELM_KUBETOKEN`, `-n` as
//! `HELM_NAMESPACE` (already resolved from the kubeconfig), and so on. The
//! plugin runs in Helm's Wasm sandbox: it cannot read files, so it cannot use
//! a kubeconfig (client certificates and exec plugins could not work there
//! anyway), and its HTTP client is Go's default one (system CA roots, which
//! `SSL_CERT_FILE` replaces; no client certificates). That leaves two ways
//! in, and every refusal here names both.

/// How to reach the API server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// Base URL without a trailing slash, e.g. `https://10.0.0.1:6443` or
    /// `http://127.0.0.1:8001`; a path prefix (a proxy's) is kept.
    pub(crate) server: String,
    /// Bearer token; `None` through `kubectl proxy`.
    pub token: Option<String>,
    /// `HELM_NAMESPACE`, `default` when unset: the release's namespace and
    /// that of objects that name none.
    pub(super) namespace: String,
    /// `HELM_KUBEASUSER`: sent as `Impersonate-User`.
    pub(super) impersonate_user: Option<String>,
    /// `HELM_KUBEASGROUPS` (one group): sent as `Impersonate-Group`.
    pub(super) impersonate_group: Option<String>,
}

/// Both ways in, as every configuration error ends.
const HOW_TO_CONNECT: &str = "\
The plugin runs in Helm's Wasm sandbox: it cannot read kubeconfig files, and \
client certificates or exec credential plugins cannot work there. Connect one of two ways:
  1. an API server URL and a bearer token (with SSL_CERT_FILE naming the API server's CA \
bundle when it is not signed by a system root):
       SSL_CERT_FILE=/path/to/ca.crt helm hooks run RELEASE --kube-apiserver https://HOST:6443 --kube-token TOKEN
     (a token: kubectl create token SERVICEACCOUNT -n NAMESPACE)
  2. kubectl proxy, which uses your kubeconfig as it is:
       kubectl proxy --port 8001 &
       helm hooks run RELEASE --kube-apiserver http://127.0.0.1:8001";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("no API server is configured (--kube-apiserver is not set).\n{HOW_TO_CONNECT}")]
    NotConfigured,
    #[error("KUBECONFIG is set ({0}), but the plugin cannot read kubeconfig files.\n{HOW_TO_CONNECT}")]
    KubeconfigOnly(String),
    #[error("--kube-context {0:?} cannot be used: the plugin cannot read kubeconfig contexts.\n{HOW_TO_CONNECT}")]
    KubeContext(String),
    #[error("--kube-apiserver {url} is https, but no --kube-token is set.\n{HOW_TO_CONNECT}")]
    NoToken { url: String },
    #[error("--kube-ca-file {ca} cannot be passed on to the sandbox's HTTP client; set SSL_CERT_FILE={ca} instead (Helm's host reads it).\n{HOW_TO_CONNECT}")]
    CaFileNeedsSslCertFile { ca: String },
    #[error("--kube-insecure-skip-tls-verify cannot be honoured: the sandbox's HTTP client always verifies the API server's certificate. Set SSL_CERT_FILE to the API server's CA bundle instead.\n{HOW_TO_CONNECT}")]
    InsecureSkipTlsVerify,
    #[error("--kube-tls-server-name {0:?} cannot be honoured: the sandbox's HTTP client checks the certificate against the URL's host name.\n{HOW_TO_CONNECT}")]
    TlsServerName(String),
    #[error("--kube-apiserver {0:?} is not an http:// or https:// URL.\n{HOW_TO_CONNECT}")]
    BadUrl(String),
    #[error("--kube-as-group can be given once only through the plugin (got {0:?})")]
    ManyGroups(String),
}

impl Connection {
    /// Reads the connection from Helm's environment; `var` looks a variable
    /// up (empty counts as unset, as Helm always sets its variables).
    pub fn from_env(var: &dyn Fn(&str) -> Option<String>) -> Result<Connection, ConfigError> {
        let get = |k: &str| var(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        if let Some(ctx) = get("HELM_KUBECONTEXT") {
            return Err(ConfigError::KubeContext(ctx));
        }
        let Some(url) = get("HELM_KUBEAPISERVER") else {
            return Err(match get("KUBECONFIG") {
                Some(path) => ConfigError::KubeconfigOnly(path),
                None => ConfigError::NotConfigured,
            });
        };
        let server = url.trim_end_matches('/').to_string();
        let lower = server.to_ascii_lowercase();
        let https = if lower.starts_with("https://") {
            true
        } else if lower.starts_with("http://") {
            false
        } else {
            return Err(ConfigError::BadUrl(url));
        };
        if server.split_once("://").is_none_or(|(_, rest)| rest.is_empty()) {
            return Err(ConfigError::BadUrl(url));
        }
        let token = if https {
            if get("HELM_KUBEINSECURE_SKIP_TLS_VERIFY").is_some_and(|v| v == "true") {
                return Err(ConfigError::InsecureSkipTlsVerify);
            }
            if let Some(name) = get("HELM_KUBETLS_SERVER_NAME") {
                return Err(ConfigError::TlsServerName(name));
            }
            if let Some(ca) = get("HELM_KUBECAFILE") {
                if get("SSL_CERT_FILE").is_none() {
                    return Err(ConfigError::CaFileNeedsSslCertFile { ca });
                }
            }
            Some(get("HELM_KUBETOKEN").ok_or(ConfigError::NoToken { url: server.clone() })?)
        } else {
            // Plain http is kubectl proxy, which adds its own credentials; a
            // token is not sent in clear text.
            None
        };
        let impersonate_group = match get("HELM_KUBEASGROUPS") {
            Some(g) if g.contains(',') => return Err(ConfigError::ManyGroups(g)),
            g => g,
        };
        Ok(Connection {
            server,
            token,
            namespace: get("HELM_NAMESPACE").unwrap_or_else(|| "default".to_string()),
            impersonate_user: get("HELM_KUBEASUSER"),
            impersonate_group,
        })
    }
}

impl Connection {
    /// The connection when Helm makes the requests (the `host-functions`
    /// build, docs/hip-host-functions.md): Helm's REST config carries the
    /// credentials and impersonation, so none are set here; the namespace
    /// is the one Helm resolved (`--namespace` or the context's).
    #[cfg(all(target_arch = "wasm32", feature = "host-functions"))]
    pub(super) fn through_helm(server: &str, var: &dyn Fn(&str) -> Option<String>) -> Connection {
        Connection {
            server: server.to_string(),
            token: None,
            namespace: var("HELM_NAMESPACE")
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "default".to_string()),
            impersonate_user: None,
            impersonate_group: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Result<Connection, ConfigError> {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Connection::from_env(&move |k| pairs.iter().find(|(name, _)| name == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn token_and_url() {
        let c = env(&[
            ("HELM_KUBEAPISERVER", "https://10.0.0.1:6443/"),
            ("HELM_KUBETOKEN", "abc"),
            ("HELM_NAMESPACE", "team"),
            ("HELM_KUBEINSECURE_SKIP_TLS_VERIFY", "false"),
            ("HELM_KUBECONTEXT", ""),
        ])
        .unwrap();
        assert_eq!(c.server, "https://10.0.0.1:6443");
        assert_eq!(c.token.as_deref(), Some("abc"));
        assert_eq!(c.namespace, "team");
    }

    #[test]
    fn proxy_needs_no_token_and_sends_none() {
        let c = env(&[("HELM_KUBEAPISERVER", "http://127.0.0.1:8001"), ("HELM_KUBETOKEN", "secret")]).unwrap();
        assert_eq!((c.token, c.namespace.as_str()), (None, "default"));
    }

    #[test]
    fn refusals_name_both_ways() {
        let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
            (vec![], "no API server"),
            (vec![("KUBECONFIG", "/home/u/.kube/config")], "KUBECONFIG is set"),
            (
                vec![("HELM_KUBECONTEXT", "prod"), ("HELM_KUBEAPISERVER", "https://x"), ("HELM_KUBETOKEN", "t")],
                "--kube-context \"prod\"",
            ),
            (vec![("HELM_KUBEAPISERVER", "https://x:6443")], "no --kube-token"),
            (
                vec![("HELM_KUBEAPISERVER", "https://x"), ("HELM_KUBETOKEN", "t"), ("HELM_KUBECAFILE", "/ca.crt")],
                "set SSL_CERT_FILE=/ca.crt",
            ),
            (
                vec![
                    ("HELM_KUBEAPISERVER", "https://x"),
                    ("HELM_KUBETOKEN", "t"),
                    ("HELM_KUBEINSECURE_SKIP_TLS_VERIFY", "true"),
                ],
                "insecure-skip-tls-verify",
            ),
            (vec![("HELM_KUBEAPISERVER", "10.0.0.1:6443")], "not an http"),
        ];
        for (vars, want) in cases {
            let msg = env(&vars).unwrap_err().to_string();
            assert!(msg.contains(want), "{msg}");
            assert!(msg.contains("--kube-token TOKEN"), "{msg}");
            assert!(msg.contains("kubectl proxy --port 8001"), "{msg}");
        }
    }

    #[test]
    fn ca_file_with_ssl_cert_file_is_fine() {
        let c = env(&[
            ("HELM_KUBEAPISERVER", "https://x"),
            ("HELM_KUBETOKEN", "t"),
            ("HELM_KUBECAFILE", "/ca.crt"),
            ("SSL_CERT_FILE", "/ca.crt"),
            ("HELM_KUBEASUSER", "alice"),
            ("HELM_KUBEASGROUPS", "devs"),
        ])
        .unwrap();
        assert_eq!(c.impersonate_user.as_deref(), Some("alice"));
        assert_eq!(c.impersonate_group.as_deref(), Some("devs"));
        assert!(matches!(
            env(&[("HELM_KUBEAPISERVER", "http://x"), ("HELM_KUBEASGROUPS", "a,b")]),
            Err(ConfigError::ManyGroups(_))
        ));
    }
}
