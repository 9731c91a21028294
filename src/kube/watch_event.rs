//! The watch API's wire format without I/O: one JSON event per line,
//! bookmarks that move the resourceVersion, and the 410 that says it
//! expired. Lists and watches ([`super::collections`], [`super::watch`])
//! both read it.

use serde_json::Value;

use super::error::DecodeError;
use super::key::ApiResource;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WatchEvent {
    pub kind: EventType,
    pub object: Value,
}

impl WatchEvent {
    pub(super) fn name(&self) -> &str {
        self.object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default()
    }
}

/// What one watch request returned.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchRound {
    /// ADDED, MODIFIED and DELETED events, in order (bookmarks only move
    /// the resourceVersion).
    pub events: Vec<WatchEvent>,
    /// Where the next round starts.
    pub resource_version: String,
    /// The resourceVersion was too old (410 Gone): list again, then watch
    /// from the list's resourceVersion. Events before the expiry are kept.
    pub expired: bool,
}

/// Parses a watch response: one JSON event per line.
pub(super) fn parse_watch_body(body: &[u8], start_rv: &str, res: &ApiResource) -> Result<WatchRound, DecodeError> {
    let mut round = WatchRound { events: Vec::new(), resource_version: start_rv.to_string(), expired: false };
    // Events are separated by newlines; tolerate JSON values back to back.
    let stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
    for ev in stream {
        let ev = ev.map_err(|e| DecodeError::WatchEvent(e.into()))?;
        let ty = ev.get("type").and_then(Value::as_str).unwrap_or_default();
        let mut object = ev.get("object").cloned().unwrap_or(Value::Null);
        let kind = match ty {
            "ADDED" => EventType::Added,
            "MODIFIED" => EventType::Modified,
            "DELETED" => EventType::Deleted,
            "BOOKMARK" => {
                if let Some(rv) = rv_of(&object) {
                    round.resource_version = rv;
                }
                continue;
            }
            "ERROR" => {
                let code = object.get("code").and_then(Value::as_u64).unwrap_or(0);
                if code == 410 {
                    round.expired = true;
                    return Ok(round);
                }
                let message = object.get("message").and_then(Value::as_str).unwrap_or("(no message)").to_string();
                return Err(DecodeError::WatchFailed { code, message });
            }
            other => return Err(DecodeError::UnknownEvent(other.to_string())),
        };
        if let Some(rv) = rv_of(&object) {
            round.resource_version = rv;
        }
        if let Some(o) = object.as_object_mut() {
            o.entry("apiVersion").or_insert_with(|| Value::String(res.api_version.clone()));
            o.entry("kind").or_insert_with(|| Value::String(res.kind.clone()));
        }
        round.events.push(WatchEvent { kind, object });
    }
    Ok(round)
}

fn rv_of(object: &Value) -> Option<String> {
    object.pointer("/metadata/resourceVersion").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> ApiResource {
        ApiResource { api_version: "batch/v1".into(), kind: "Job".into(), plural: "jobs".into(), namespaced: true }
    }

    #[test]
    fn parses_events_bookmarks_and_expiry() {
        let body = concat!(
            r#"{"type":"ADDED","object":{"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"a","resourceVersion":"7"}}}"#,
            "\n",
            r#"{"type":"BOOKMARK","object":{"kind":"Job","apiVersion":"batch/v1","metadata":{"resourceVersion":"9"}}}"#,
            "\n",
            r#"{"type":"DELETED","object":{"kind":"Job","apiVersion":"batch/v1","metadata":{"name":"a","resourceVersion":"10"}}}"#,
            "\n"
        );
        let r = parse_watch_body(body.as_bytes(), "5", &jobs()).unwrap();
        assert_eq!(r.events.len(), 2);
        assert_eq!(r.events[1].kind, EventType::Deleted);
        assert_eq!(r.resource_version, "10");
        assert!(!r.expired);

        let gone = r#"{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 5 (20)","reason":"Expired","code":410}}"#;
        let r = parse_watch_body(gone.as_bytes(), "5", &jobs()).unwrap();
        assert!(r.expired);
        assert!(parse_watch_body(b"", "5", &jobs()).unwrap().events.is_empty());
        let err = r#"{"type":"ERROR","object":{"code":500,"message":"boom"}}"#;
        assert!(parse_watch_body(err.as_bytes(), "5", &jobs()).unwrap_err().to_string().contains("boom"));
    }
}
