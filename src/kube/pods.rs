//! Pods and their logs, as Helm finds them for a hook (`helm test --logs`).

use serde_json::Value;

use super::client::Client;
use super::error::{Doing, KubeError};
use super::key::Selector;
use super::request::{self, Log};

/// Pod logs are read up to this many bytes per container (`limitBytes`):
/// a larger response would exceed plugin.yaml's `maxHttpResponseBytes`
/// (64 MiB), which aborts the plugin call.
const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;

impl Client {
    /// The pods of a hook, as Helm finds them for logs: a Job's by the label
    /// `job-name=<name>`, a Pod by its name. Other kinds have none.
    pub fn hook_pods(&mut self, kind: &str, namespace: Option<&str>, name: &str) -> Result<Vec<Value>, KubeError> {
        let selector = match kind {
            "Job" => Selector::labels(&format!("job-name={name}")),
            "Pod" => Selector::name(name),
            _ => return Ok(Vec::new()),
        };
        let pods = self.resource("v1", "Pod")?;
        let ns = self.effective_namespace(&pods, namespace);
        Ok(self.list(&pods, ns.as_deref(), &selector)?.items)
    }

    /// The log of one container of a pod (at most [`MAX_LOG_BYTES`]).
    pub fn pod_log(&mut self, namespace: Option<&str>, pod: &str, container: &str) -> Result<String, KubeError> {
        let ns = namespace.filter(|n| !n.is_empty()).unwrap_or(&self.conn.namespace).to_string();
        let call = request::pod_log(&ns, pod, container, MAX_LOG_BYTES, Log::Whole);
        let bytes = self
            .call(&call, &Doing { verb: "get", resource: "pods/log".into(), namespace: Some(&ns), name: Some(pod) })?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

impl Client {
    /// A container's log from `since` (RFC 3339, whole seconds; the whole log
    /// when none), each line stamped (`timestamps=true`), and whether the
    /// body is whole (not cut at [`MAX_LOG_BYTES`]). For following a log by
    /// polling: the stock build reads each response whole (`exec::follow`).
    pub(crate) fn pod_log_since(
        &mut self,
        namespace: Option<&str>,
        pod: &str,
        container: &str,
        since: Option<&str>,
    ) -> Result<(String, bool), KubeError> {
        let ns = namespace.filter(|n| !n.is_empty()).unwrap_or(&self.conn.namespace).to_string();
        let call = request::pod_log(&ns, pod, container, MAX_LOG_BYTES, Log::Stamped { since });
        let doing = Doing { verb: "get", resource: "pods/log".into(), namespace: Some(&ns), name: Some(pod) };
        let bytes = self.call(&call, &doing)?;
        let complete = (bytes.len() as u64) < MAX_LOG_BYTES;
        Ok((String::from_utf8_lossy(&bytes).into_owned(), complete))
    }
}

/// The containers of a pod that have started (running or terminated), init
/// containers first: the ones whose log can be read.
pub(crate) fn started_containers(pod: &Value) -> Vec<String> {
    ["/status/initContainerStatuses", "/status/containerStatuses"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten()
        .filter(|cs| cs.pointer("/state/running").is_some() || cs.pointer("/state/terminated").is_some())
        .filter_map(|cs| cs.get("name")?.as_str().map(str::to_string))
        .collect()
}

/// The names of a pod's containers (`spec.containers`), in order: the ones
/// Helm prints logs of.
/// Init containers first, then containers, as `helm test --logs` reads them.
pub fn container_names(pod: &Value) -> Vec<String> {
    ["/spec/initContainers", "/spec/containers"]
        .iter()
        .filter_map(|p| pod.pointer(p).and_then(Value::as_array))
        .flatten()
        .filter_map(|c| c.get("name")?.as_str().map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_in_order() {
        let pod =
            serde_json::json!({"spec":{"initContainers":[{"name":"init"}],"containers":[{"name":"a"},{"name":"b"}]}});
        assert_eq!(container_names(&pod), vec!["init", "a", "b"], "init containers first, as helm test --logs");
    }
}
