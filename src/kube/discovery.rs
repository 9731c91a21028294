//! Discovery: which resource serves a kind, and which version of a group
//! the API server prefers, one request per group-version, cached by the
//! [`Client`].

use serde_json::Value;

use super::client::Client;
use super::error::{from_status, Doing, KubeError};
use super::key::{gv_path, ApiResource};
use super::query::encode;
use super::request::Call;

impl Client {
    /// The resource serving `kind` in `api_version`, by discovery (one
    /// request per group-version, cached). A kind missing from a cached
    /// group-version is looked up once more: a CRD may have just been
    /// installed.
    pub fn resource(&mut self, api_version: &str, kind: &str) -> Result<ApiResource, KubeError> {
        let find =
            |list: &Option<Vec<ApiResource>>| list.as_ref().and_then(|l| l.iter().find(|r| r.kind == kind).cloned());
        if let Some(cached) = self.discovery.get(api_version) {
            if let Some(r) = find(cached) {
                return Ok(r);
            }
        }
        let fresh = self.discover(api_version)?;
        let found = find(&fresh);
        self.discovery.insert(api_version.to_string(), fresh);
        found.ok_or_else(|| KubeError::NoMapping { api_version: api_version.to_string(), kind: kind.to_string() })
    }

    /// Waits until discovery serves `kind` in `api_version` or the wall
    /// clock reaches `deadline` (ms); whether it does. A CRD is Established
    /// a moment before the API server's discovery lists its kinds, and an
    /// object of such a kind applied in between is refused for want of a
    /// mapping; Helm's install likewise refreshes its discovery after its
    /// CRDs are established, before anything else.
    pub(crate) fn await_kind(&mut self, api_version: &str, kind: &str, deadline: u64) -> Result<bool, KubeError> {
        loop {
            match self.resource(api_version, kind) {
                Ok(_) => return Ok(true),
                Err(KubeError::NoMapping { .. }) if crate::base::time::wall_ms() < deadline => {
                    super::retry::pause(DISCOVERY_POLL_MS)
                }
                Err(KubeError::NoMapping { .. }) => return Ok(false),
                Err(e) => return Err(e),
            }
        }
    }

    /// The group-version the API server prefers for `group` (`v1` for the
    /// core group); `None` when no such group is served.
    pub(crate) fn preferred_version(&mut self, group: &str) -> Result<Option<String>, KubeError> {
        if group.is_empty() {
            return Ok(Some("v1".into()));
        }
        let path = format!("/apis/{}", encode(group, false));
        let (resp, _) = self.send_retrying(&Call::get(path.clone()))?;
        if resp.status == 404 {
            return Ok(None);
        }
        let doing =
            Doing { verb: "get", resource: format!("the API group document {path}"), namespace: None, name: None };
        if !(200..300).contains(&resp.status) {
            return Err(from_status(resp.status, &resp.body, &doing));
        }
        let doc: Value = serde_json::from_slice(&resp.body)
            .map_err(|e| KubeError::Decode { what: format!("GET {path}"), source: e.into() })?;
        Ok(doc.pointer("/preferredVersion/groupVersion").and_then(Value::as_str).map(str::to_string))
    }

    /// Every group-version the API server serves, in two requests (`/api`
    /// and `/apis` as aggregated discovery, `apidiscovery.k8s.io/v2`, as
    /// kubectl and Helm read it), into the cache [`Client::resource`] reads.
    /// A group-version the server marks stale (an aggregated API that is
    /// down) is left out, and so is everything when the server answers
    /// with the plain group lists instead: [`Client::resource`] then asks
    /// per group-version as before. Returns how many group-versions it
    /// cached.
    pub(crate) fn discover_all(&mut self) -> Result<usize, KubeError> {
        let mut cached = 0;
        for path in ["/api", "/apis"] {
            // Sent once: what it is for is also had without it.
            let resp = self.send(&Call::get(path.into()).accepting(AGGREGATED))?;
            if !(200..300).contains(&resp.status) {
                continue;
            }
            let Ok(doc) = serde_json::from_slice::<Value>(&resp.body) else { continue };
            for (api_version, resources) in aggregated(&doc) {
                self.discovery.insert(api_version, Some(resources));
                cached += 1;
            }
        }
        Ok(cached)
    }

    /// GET /api/v1 or /apis/<group>/<version>: the resources of one
    /// group-version (`None` when it is not served). Subresources are left out.
    fn discover(&mut self, api_version: &str) -> Result<Option<Vec<ApiResource>>, KubeError> {
        if api_version.is_empty() || api_version.split('/').count() > 2 {
            return Ok(None);
        }
        let path = gv_path(api_version);
        let doing =
            Doing { verb: "get", resource: format!("the API discovery document {path}"), namespace: None, name: None };
        let (resp, _) = self.send_retrying(&Call::get(path.clone()))?;
        if resp.status == 404 {
            return Ok(None);
        }
        if !(200..300).contains(&resp.status) {
            return Err(from_status(resp.status, &resp.body, &doing));
        }
        let doc: Value = serde_json::from_slice(&resp.body)
            .map_err(|e| KubeError::Decode { what: format!("GET {path}"), source: e.into() })?;
        let resources = doc
            .get("resources")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|r| {
                        let name = r.get("name")?.as_str()?;
                        if name.contains('/') {
                            return None;
                        }
                        Some(ApiResource {
                            api_version: api_version.to_string(),
                            kind: r.get("kind")?.as_str()?.to_string(),
                            plural: name.to_string(),
                            namespaced: r.get("namespaced").and_then(Value::as_bool)?,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Some(resources))
    }
}

/// How often [`Client::await_kind`] asks again: the API server lists a new
/// CRD's kinds within a few hundred milliseconds.
const DISCOVERY_POLL_MS: u64 = 50;

/// Aggregated discovery, then the plain document for a server without it.
const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";

/// An `APIGroupDiscoveryList`'s group-versions and their resources
/// (subresources left out; stale group-versions skipped); nothing for any
/// other document.
fn aggregated(doc: &Value) -> Vec<(String, Vec<ApiResource>)> {
    if doc.get("kind").and_then(Value::as_str) != Some("APIGroupDiscoveryList") {
        return Vec::new();
    }
    let groups = doc.get("items").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut out = Vec::new();
    for g in groups {
        let group = g.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
        for v in g.get("versions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
            let (Some(version), fresh) = (
                v.get("version").and_then(Value::as_str),
                v.get("freshness").and_then(Value::as_str).is_none_or(|f| f == "Current"),
            ) else {
                continue;
            };
            if !fresh {
                continue;
            }
            let api_version = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
            let resources = v
                .get("resources")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter_map(|r| {
                    Some(ApiResource {
                        api_version: api_version.clone(),
                        kind: r.pointer("/responseKind/kind")?.as_str()?.to_string(),
                        plural: r.get("resource")?.as_str()?.to_string(),
                        namespaced: match r.get("scope")?.as_str()? {
                            "Namespaced" => true,
                            "Cluster" => false,
                            _ => return None,
                        },
                    })
                })
                .collect();
            out.push((api_version, resources));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::kube::fixture::{client, respond, BATCH_V1};
    use crate::kube::KubeError;

    #[test]
    fn unknown_kind_is_no_mapping_and_group_404_too() {
        let (mut c, _) =
            client(None, vec![respond(200, BATCH_V1), respond(200, BATCH_V1), respond(404, "404 page not found")]);
        let e = c.resource("batch/v1", "Widget").unwrap_err();
        assert!(matches!(e, KubeError::NoMapping { .. }), "{e}");
        // A cached group-version is asked again for a missing kind (a new CRD).
        assert!(c.resource("batch/v1", "Widget").is_err());
        let e = c.resource("example.com/v1", "Widget").unwrap_err();
        assert!(e.is_object_fault(), "{e}");
        assert_eq!(c.requests(), 3);
    }

    /// `/apis` as kube-apiserver v1.37 answers it (trimmed): one stale
    /// group-version, one current.
    const APIS_AGGREGATED: &str = r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
        {"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[
            {"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},"scope":"Namespaced","verbs":["get"],
             "subresources":[{"subresource":"status","responseKind":{"group":"","version":"","kind":"Deployment"}}]}],"freshness":"Current"}]},
        {"metadata":{"name":"rbac.authorization.k8s.io"},"versions":[{"version":"v1","resources":[
            {"resource":"clusterroles","responseKind":{"group":"","version":"","kind":"ClusterRole"},"scope":"Cluster","verbs":["get"]}]}]},
        {"metadata":{"name":"metrics.example.com"},"versions":[{"version":"v1","resources":[
            {"resource":"widgets","responseKind":{"group":"","version":"","kind":"Widget"},"scope":"Namespaced"}],"freshness":"Stale"}]}]}"#;

    const API_AGGREGATED: &str = r#"{"kind":"APIGroupDiscoveryList","items":[{"metadata":{},"versions":[{"version":"v1","resources":[
        {"resource":"configmaps","responseKind":{"group":"","version":"","kind":"ConfigMap"},"scope":"Namespaced"}],"freshness":"Current"}]}]}"#;

    #[test]
    fn aggregated_discovery_answers_every_current_group_version_at_once() {
        let (mut c, script) = client(None, vec![respond(200, API_AGGREGATED), respond(200, APIS_AGGREGATED)]);
        assert_eq!(c.discover_all().unwrap(), 3);
        let accept = &script.seen.borrow()[0].headers.iter().find(|(k, _)| k == "Accept").unwrap().1.clone();
        assert!(accept.starts_with("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"), "{accept}");
        let deploy = c.resource("apps/v1", "Deployment").unwrap();
        assert_eq!((deploy.plural.as_str(), deploy.namespaced), ("deployments", true));
        let role = c.resource("rbac.authorization.k8s.io/v1", "ClusterRole").unwrap();
        assert_eq!((role.plural.as_str(), role.namespaced), ("clusterroles", false));
        assert_eq!(c.resource("v1", "ConfigMap").unwrap().plural, "configmaps");
        assert_eq!(c.requests(), 2, "answered from what was discovered");
        // A stale group-version is asked for on its own when needed.
        assert!(c.resource("metrics.example.com/v1", "Widget").is_err());
        assert_eq!(c.requests(), 3);
    }

    #[test]
    fn a_server_without_aggregated_discovery_leaves_the_cache_empty() {
        let plain = r#"{"kind":"APIGroupList","groups":[]}"#;
        let (mut c, _) = client(
            None,
            vec![
                respond(200, r#"{"kind":"APIVersions","versions":["v1"]}"#),
                respond(200, plain),
                respond(200, BATCH_V1),
            ],
        );
        assert_eq!(c.discover_all().unwrap(), 0);
        assert_eq!(c.resource("batch/v1", "Job").unwrap().plural, "jobs");
        assert_eq!(c.requests(), 3);
    }
}
