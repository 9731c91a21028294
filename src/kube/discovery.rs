//! Discovery: which resource serves a kind, and which version of a group
//! the API server prefers, one request per group-version, cached by the
//! [`Client`].

use serde_json::Value;

use super::error::{from_status, Doing, KubeError};
use super::key::{gv_path, ApiResource};
use super::request::encode;
use super::{Client, Method};

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

    /// The group-version the API server prefers for `group` (`v1` for the
    /// core group); `None` when no such group is served.
    pub fn preferred_version(&mut self, group: &str) -> Result<Option<String>, KubeError> {
        if group.is_empty() {
            return Ok(Some("v1".into()));
        }
        let path = format!("/apis/{}", encode(group, false));
        let (resp, _) = self.send_retrying(Method::Get, &path, None, None)?;
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

    /// GET /api/v1 or /apis/<group>/<version>: the resources of one
    /// group-version (`None` when it is not served). Subresources are left out.
    pub fn discover(&mut self, api_version: &str) -> Result<Option<Vec<ApiResource>>, KubeError> {
        if api_version.is_empty() || api_version.split('/').count() > 2 {
            return Ok(None);
        }
        let path = gv_path(api_version);
        let doing =
            Doing { verb: "get", resource: format!("the API discovery document {path}"), namespace: None, name: None };
        let (resp, _) = self.send_retrying(Method::Get, &path, None, None)?;
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
}
