//! Reading collections: lists page by page, lists as of a resourceVersion
//! (a long poll, [`Fresh`]), and watch rounds, alone or in one batch.

use serde_json::Value;

use super::client::Client;
use super::error::{from_status, Doing, KubeError};
use super::key::{ApiResource, Selector};
use super::request::{self, Call, Page};
use super::transport::{Response, ReturnOn, TransportError};
use super::watch_event::{parse_watch_body, WatchRound};

/// Page size of lists (`limit`); larger lists are read page by page.
const PAGE: usize = 500;

/// What [`Client::list_fresh`] got.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Fresh {
    /// The list, as of the API server's resourceVersion (at least the one
    /// asked for).
    Listed(ObjectList),
    /// The API server could not answer as of that resourceVersion: its
    /// watch cache waited 3 s for it, or the time the request allowed
    /// (`cached`), or the resource has no watch cache and its storage does
    /// not wait.
    NotYet { cached: bool },
}

/// A "Too large resource version" sooner than this, and without a
/// `Retry-After`, came from storage without a watch cache.
const UNCACHED_MS: u64 = 1_500;

/// Whether a 504's body is the API server's "Too large resource version"
/// (reason `Timeout`, cause `ResourceVersionTooLarge`).
fn too_large_resource_version(body: &[u8]) -> bool {
    let Ok(status) = serde_json::from_slice::<Value>(body) else { return false };
    let causes = status.pointer("/details/causes").and_then(Value::as_array);
    causes.is_some_and(|c| c.iter().any(|c| c.get("reason").and_then(Value::as_str) == Some("ResourceVersionTooLarge")))
        || status.get("message").and_then(Value::as_str).is_some_and(|m| m.contains("Too large resource version"))
}

/// Whether a 504's body is the API server's timeout filter's: the request's
/// own `timeout` passed.
fn timed_out(body: &[u8]) -> bool {
    let Ok(status) = serde_json::from_slice::<Value>(body) else { return false };
    status.get("reason").and_then(Value::as_str) == Some("Timeout") && status.pointer("/details/causes").is_none()
}

/// A list's items and the resourceVersion to watch from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectList {
    pub items: Vec<Value>,
    pub resource_version: String,
    /// How large the API server's answers were, every page together: what
    /// listing it again costs both sides.
    pub(super) bytes: usize,
}

/// Takes one page of a list into `out`: its items (each given the
/// apiVersion and kind lists leave out) and resourceVersion; the token of
/// the next page, if there is one.
fn take_page(page: &Value, res: &ApiResource, out: &mut ObjectList) -> Option<String> {
    let meta = page.get("metadata");
    out.resource_version =
        meta.and_then(|m| m.get("resourceVersion")).and_then(Value::as_str).unwrap_or_default().to_string();
    if let Some(Value::Array(items)) = page.get("items") {
        out.items.extend(items.iter().cloned().map(|mut item| {
            if let Some(o) = item.as_object_mut() {
                o.entry("apiVersion").or_insert_with(|| Value::String(res.api_version.clone()));
                o.entry("kind").or_insert_with(|| Value::String(res.kind.clone()));
            }
            item
        }));
    }
    meta.and_then(|m| m.get("continue")).and_then(Value::as_str).filter(|c| !c.is_empty()).map(str::to_string)
}

impl Client {
    /// Lists a resource in a namespace (`None`: cluster-scoped, or all
    /// namespaces), page by page.
    pub fn list(&mut self, res: &ApiResource, ns: Option<&str>, selector: &Selector) -> Result<ObjectList, KubeError> {
        match self.list_pages(res, ns, selector, None)? {
            Fresh::Listed(list) => Ok(list),
            Fresh::NotYet { .. } => unreachable!("only a list from a resourceVersion waits for it"),
        }
    }

    /// Whether any object of a resource in a namespace (`None`: all of them)
    /// matches `selector`: one page of one object, however many there are.
    pub(crate) fn any(&mut self, res: &ApiResource, ns: Option<&str>, selector: &Selector) -> Result<bool, KubeError> {
        let doing = Doing { verb: "list", resource: res.display_name(), namespace: ns, name: None };
        let call = request::list_page(res, ns, selector, 1, Page::First);
        let page = self.call(&call, &doing).and_then(|bytes| Self::decode(&call, &bytes))?;
        Ok(page.get("items").and_then(Value::as_array).is_some_and(|items| !items.is_empty()))
    }

    /// [`Client::list`] as of `resource_version` or later
    /// (`resourceVersionMatch=NotOlderThan`): a long poll, not a watch. An
    /// API server answers it from its watch cache once the cache has seen
    /// that revision of the cluster — any write, of any resource: while a
    /// request waits, the cache asks etcd for its revision every 100 ms —
    /// and after 3 s without one answers 504 "Too large resource version"
    /// (kube-apiserver v1.37.2, `storage/cacher/watch_cache.go`
    /// `waitUntilFreshAndBlock`, `blockTimeout`). A resource served without
    /// a watch cache answers that 504 at once. `within_ms` asks for an
    /// answer sooner (the request's `timeout`, which the API server's
    /// timeout filter keeps: 504 "Timeout" when it passes, though the watch
    /// cache still holds its seat until its own 3 s end). Any of these:
    /// [`Fresh::NotYet`], with how long it took; it is not repeated (a 504
    /// otherwise is, after its `Retry-After`).
    pub(super) fn list_fresh(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        resource_version: &str,
        within_ms: Option<u64>,
    ) -> Result<Fresh, KubeError> {
        self.list_pages(res, ns, selector, Some((resource_version, within_ms)))
    }

    fn list_pages(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        not_older_than: Option<(&str, Option<u64>)>,
    ) -> Result<Fresh, KubeError> {
        let doing = Doing { verb: "list", resource: res.display_name(), namespace: ns, name: None };
        let first = match not_older_than {
            Some((resource_version, within_ms)) => Page::NotOlderThan { resource_version, within_ms },
            None => Page::First,
        };
        let mut out = ObjectList::default();
        let mut cont: Option<String> = None;
        let mut restarted = false;
        loop {
            let call = request::list_page(res, ns, selector, PAGE, cont.as_deref().map_or(first, Page::Continue));
            let answer = match (&cont, not_older_than) {
                (None, Some((_, within_ms))) => match self.long_poll(&call, within_ms.is_some())? {
                    Ok((resp, tries)) => Self::accept(resp, tries, &doing),
                    Err(not_yet) => return Ok(not_yet),
                },
                _ => self.call(&call, &doing),
            }
            .and_then(|bytes| {
                out.bytes += bytes.len();
                Self::decode(&call, &bytes)
            });
            let page = match answer {
                // The continue token expired: start over, once.
                Err(KubeError::Status { code: 410, .. }) if cont.is_some() && !restarted => {
                    restarted = true;
                    cont = None;
                    out = ObjectList::default();
                    continue;
                }
                r => r?,
            };
            cont = take_page(&page, res, &mut out);
            if cont.is_none() {
                return Ok(Fresh::Listed(out));
            }
        }
    }

    /// The first page of a list as of a resourceVersion (`call`): the
    /// answer and its tries, or, when the API server could not answer as of
    /// it (`bounded`: within the request's own `timeout`), what
    /// [`Fresh::NotYet`] says.
    fn long_poll(&mut self, call: &Call, bounded: bool) -> Result<Result<(Response, u32), Fresh>, KubeError> {
        let sent = crate::base::time::wall_ms();
        let (resp, tries) = self.send_reconnecting(call, 1)?;
        if resp.status == 504 && bounded && timed_out(&resp.body) {
            return Ok(Err(Fresh::NotYet { cached: true }));
        }
        if resp.status == 504 && too_large_resource_version(&resp.body) {
            // A watch cache waited 3 s and asks to be tried again in 1 s; storage
            // without one answers at once and asks for nothing.
            let waited_ms = crate::base::time::wall_ms().saturating_sub(sent);
            let retry = resp.headers.contains_key("retry-after")
                || serde_json::from_slice::<Value>(&resp.body)
                    .is_ok_and(|s| s.pointer("/details/retryAfterSeconds").is_some());
            return Ok(Err(Fresh::NotYet { cached: retry || waited_ms >= UNCACHED_MS }));
        }
        self.retry_after(call, resp, tries).map(Ok)
    }

    /// One watch round: the events after `resource_version` that the API
    /// server sends within `timeout_secs` (the response ends then). A
    /// resourceVersion too old to watch from (410 Gone, as a status or as an
    /// ERROR event) comes back as `expired`: list again and watch from the
    /// list's resourceVersion.
    pub fn watch(
        &mut self,
        res: &ApiResource,
        ns: Option<&str>,
        selector: &Selector,
        resource_version: &str,
        timeout_secs: u32,
    ) -> Result<WatchRound, KubeError> {
        let call = request::watch(res, ns, selector, resource_version, timeout_secs);
        let (resp, _) = self.send_retrying(&call)?;
        Self::watch_round(resp, res, ns, resource_version, &call)
    }

    /// One watch round of each `(resource, namespace, selector,
    /// resourceVersion)` in one batch ([`ReturnOn::AnyEvent`]): under a
    /// transport that [sends batches at once](Client::at_once), all end
    /// as soon as any has events, each with the events it had (a watch
    /// stopped before it was answered: none, from where it was).
    pub(super) fn watch_all(
        &mut self,
        watches: &[(ApiResource, Option<String>, Selector, String)],
        timeout_secs: u32,
    ) -> Result<Vec<WatchRound>, KubeError> {
        let calls: Vec<Call> = watches
            .iter()
            .map(|(res, ns, selector, rv)| request::watch(res, ns.as_deref(), selector, rv, timeout_secs))
            .collect();
        let answers = self.send_batch_retrying(&calls, ReturnOn::AnyEvent);
        let mut rounds = Vec::with_capacity(watches.len());
        for ((call, (res, ns, _, rv)), answer) in calls.iter().zip(watches).zip(answers) {
            rounds.push(match answer {
                Ok((resp, _)) => Self::watch_round(resp, res, ns.as_deref(), rv, call)?,
                Err(KubeError::Transport(TransportError::Stopped { .. })) => {
                    WatchRound { events: Vec::new(), resource_version: rv.clone(), expired: false }
                }
                Err(e) => return Err(e),
            });
        }
        Ok(rounds)
    }

    /// The round a watch response holds.
    fn watch_round(
        resp: Response,
        res: &ApiResource,
        ns: Option<&str>,
        resource_version: &str,
        call: &Call,
    ) -> Result<WatchRound, KubeError> {
        if resp.status == 410 {
            return Ok(WatchRound {
                events: Vec::new(),
                resource_version: resource_version.to_string(),
                expired: true,
            });
        }
        if !(200..300).contains(&resp.status) {
            return Err(from_status(
                resp.status,
                &resp.body,
                &Doing { verb: "watch", resource: res.display_name(), namespace: ns, name: None },
            ));
        }
        parse_watch_body(&resp.body, resource_version, res)
            .map_err(|source| KubeError::Decode { what: call.what(), source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{client, respond};

    #[test]
    fn list_follows_continue_and_fills_kind() {
        let (mut c, script) = client(
            None,
            vec![
                respond(
                    200,
                    r#"{"metadata":{"resourceVersion":"5","continue":"abc"},"items":[{"metadata":{"name":"a"}}]}"#,
                ),
                respond(200, r#"{"metadata":{"resourceVersion":"6"},"items":[{"metadata":{"name":"b"}}]}"#),
            ],
        );
        let pods =
            ApiResource { api_version: "v1".into(), kind: "Pod".into(), plural: "pods".into(), namespaced: true };
        let list = c.list(&pods, Some("ns"), &Selector::labels("job-name=x,a!=b")).unwrap();
        assert_eq!(list.items.len(), 2);
        assert_eq!(list.items[1]["kind"], "Pod");
        assert_eq!(list.resource_version, "6");
        let seen = script.seen.borrow();
        assert_eq!(
            seen[0].url,
            "https://k:6443/api/v1/namespaces/ns/pods?labelSelector=job-name%3Dx%2Ca%21%3Db&limit=500"
        );
        assert!(seen[1].url.ends_with("&continue=abc"));
    }
}
