//! Long polls and watch rounds that keep a [`Tracker`] up to date: the
//! I/O around its pure steps (`super::tracker`).
//!
//! Helm's Wasm host reads a response whole, so a watch request returns only
//! when its `timeoutSeconds` expires, and sleep returns at once in the
//! sandbox. A tracker lists its objects once per (resource, namespace),
//! then follows them — in the stock build by looks ([`Client::look`]: a
//! list the API server holds until the cluster has written past what was
//! seen, then lists of the others as of then); under Helm's `kube_request`
//! by watch rounds of all of them in one batch that returns on the first
//! change; where no watch cache serves a resource, by watch rounds of a
//! second, one (resource, namespace) watched and the others listed —
//! relisting when the resourceVersion is too old (410 Gone).

use std::collections::{BTreeSet, VecDeque};

use super::client::Client;
use super::collections::Fresh;
use super::error::KubeError;
use super::key::{ApiResource, ObjectKey, Selector};
use super::tracker::{Step, Tracker};
use crate::ready::Observed;

/// Length of one watch round, in seconds.
const ROUND_SECS: u32 = 1;

impl Client {
    /// Adds an object to a tracker; the next [`Client::refresh`] lists it.
    pub fn track(&mut self, t: &mut Tracker, key: &ObjectKey) -> Result<(), KubeError> {
        if !t.contains(key) {
            let (res, ns) = self.resolve(key)?;
            t.add(key, res, ns);
        }
        Ok(())
    }

    /// Adds an object whose current state is known — the API server's answer
    /// to an apply — so that no list is needed before it is watched: a group
    /// being watched keeps its place in the stream (its next round replays
    /// anything newer), a new or idle one starts from the object's
    /// resourceVersion (the oldest, of several applied at once).
    pub(crate) fn track_known(
        &mut self,
        t: &mut Tracker,
        key: &ObjectKey,
        object: &serde_json::Value,
    ) -> Result<(), KubeError> {
        if !t.contains(key) {
            let (res, ns) = self.resolve(key)?;
            t.add_known(key, res, ns, object);
        }
        Ok(())
    }

    /// The resource of a key's kind and the namespace its object lives in.
    fn resolve(&mut self, key: &ObjectKey) -> Result<(ApiResource, Option<String>), KubeError> {
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        Ok((res, ns))
    }

    /// Brings a tracker up to date. Groups not listed yet are listed, at
    /// once. Otherwise, when the transport [sends batches at
    /// once](Client::at_once) (Helm's `kube_request`), every group
    /// gets a watch round of [`ROUND_SECS`] in one batch, which ends as soon
    /// as any group has events: a change of any tracked object is seen when
    /// it happens. Else one group gets a watch round and the others, listed
    /// right after it, are as fresh: a response comes back only whole, so
    /// watching each group in turn would cost a second per group; the
    /// watched group rotates from call to call. Returns the keys whose
    /// object changed (appeared, changed or went away).
    pub(crate) fn refresh(&mut self, t: &mut Tracker) -> Result<Vec<ObjectKey>, KubeError> {
        let steps = t.refresh_steps(self.at_once());
        self.perform(t, steps)
    }

    /// Sends a tracker's steps, and the steps its answers call for, each
    /// right after the step that called for it; returns the keys whose
    /// object changed.
    fn perform(&mut self, t: &mut Tracker, steps: Vec<Step>) -> Result<Vec<ObjectKey>, KubeError> {
        let mut changed = BTreeSet::new();
        let mut todo = VecDeque::from(steps);
        while let Some(step) = todo.pop_front() {
            let then = match step {
                Step::List(g) => {
                    let (res, ns, selector) = t.target(g);
                    let list = self.list(res, ns, &selector)?;
                    t.take_list(g, list, &mut changed)
                }
                Step::ListAsOf { group, at } => {
                    let (res, ns, selector) = t.target(group);
                    let list = match self.list_fresh(res, ns, &selector, &at, None)? {
                        Fresh::Listed(list) => list,
                        // Its storage is behind the lead's cache (an aggregated API, or etcd
                        // after a compaction): as it is now.
                        Fresh::NotYet { .. } => self.list(res, ns, &selector)?,
                    };
                    t.take_list(group, list, &mut changed)
                }
                Step::Watch(g, rv) => {
                    let round = self.watch_group(t, g, &rv)?;
                    t.take_round(g, round, &mut changed)
                }
                Step::Replay { group, since, vanished } => {
                    let replay = self.watch_group(t, group, &since)?;
                    t.take_replay(group, &vanished, replay);
                    Vec::new()
                }
                Step::WatchAll(watched) => {
                    let watches: Vec<(ApiResource, Option<String>, Selector, String)> = watched
                        .iter()
                        .map(|(g, rv)| {
                            let (res, ns, selector) = t.target(*g);
                            (res.clone(), ns.map(str::to_string), selector, rv.clone())
                        })
                        .collect();
                    let rounds = self.watch_all(&watches, ROUND_SECS)?;
                    let mut then = Vec::new();
                    for ((g, _), round) in watched.iter().zip(rounds) {
                        then.extend(t.take_round(*g, round, &mut changed));
                    }
                    then
                }
                Step::Look { lead, wanted, within_ms } => {
                    let (res, ns, selector) = t.target(lead);
                    let fresh = self.list_fresh(res, ns, &selector, &wanted.to_string(), within_ms)?;
                    t.take_look(lead, fresh, crate::base::time::wall_ms(), &mut changed)
                }
                Step::Refresh => t.refresh_steps(self.at_once()),
                Step::Looked => {
                    t.looked(!changed.is_empty(), crate::base::time::wall_ms());
                    Vec::new()
                }
            };
            for step in then.into_iter().rev() {
                todo.push_front(step);
            }
        }
        Ok(changed.into_iter().collect())
    }

    /// One watch round of a tracker's group from `rv`.
    fn watch_group(&mut self, t: &Tracker, g: usize, rv: &str) -> Result<super::watch_event::WatchRound, KubeError> {
        let (res, ns, selector) = t.target(g);
        self.watch(res, ns, &selector, rv, ROUND_SECS)
    }

    /// Waits until `done` holds for at least one tracked object (it is
    /// given what is known of the object) or `now()` (wall clock, ms)
    /// reaches `deadline`. Returns the keys for which `done`
    /// holds; empty when the deadline passed first.
    pub fn wait_any(
        &mut self,
        t: &mut Tracker,
        deadline: u64,
        now: &mut dyn FnMut() -> u64,
        done: &mut dyn FnMut(&ObjectKey, Observed<'_>) -> bool,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        loop {
            if t.needs_list() {
                self.refresh(t)?;
            }
            let finished: Vec<ObjectKey> = t.keys().filter(|k| done(k, t.observed(k))).cloned().collect();
            if !finished.is_empty() || t.is_empty() || now() >= deadline {
                return Ok(finished);
            }
            if self.at_once() {
                self.refresh(t)?;
            } else {
                self.look(t)?;
            }
        }
    }

    /// Brings a tracker up to date as [`Client::refresh`] does, sooner,
    /// where requests go one at a time and a watch answers only when its
    /// round of a second ends (Helm's `http_request`, docs/design.md §5): a
    /// long poll — a list "not older than" a revision the cluster has not
    /// reached yet ([`Client::list_fresh`]) — of one group, which the API
    /// server answers once the cluster has written that far, then a list of
    /// each other group as of its answer. The revision asked for is the
    /// latest seen plus what the cluster writes in a quarter of a second
    /// (`super::pace::Pace`), so a change is seen within about that, at most one look per write on
    /// a quiet cluster and about four a second on a busy one; the server
    /// holds the request, the plugin spends no CPU. A group whose resource
    /// has no watch cache (answered at once) falls back to watch rounds;
    /// one that cannot be read as numbers too (resourceVersions are opaque
    /// to clients; every API server in use numbers them by etcd revision);
    /// and a tracker with a group whose list is much wider than what it
    /// tracks too, as a list at each look would be heavy.
    fn look(&mut self, t: &mut Tracker) -> Result<Vec<ObjectKey>, KubeError> {
        let now = crate::base::time::wall_ms();
        let throttle = &mut self.throttle;
        let step = t.look_step(now, self.transport.survives_reset(), &mut |n| throttle.affords(n, now));
        self.perform(t, vec![step])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{client, respond};
    use crate::kube::Observed;

    #[test]
    fn tracker_lists_then_watches_and_relists_on_410() {
        let batch = crate::kube::fixture::BATCH_V1;
        let (mut c, script) = client(
            None,
            vec![
                respond(200, batch),
                respond(
                    200,
                    r#"{"metadata":{"resourceVersion":"3"},"items":[{"metadata":{"name":"a","resourceVersion":"2"}}]}"#,
                ),
                respond(
                    200,
                    r#"{"type":"MODIFIED","object":{"metadata":{"name":"a","resourceVersion":"4"},"status":{"x":1}}}"#,
                ),
                respond(410, r#"{"code":410}"#),
                respond(200, r#"{"metadata":{"resourceVersion":"9"},"items":[]}"#),
            ],
        );
        let mut t = Tracker::new(Some("run=1"));
        let a = ObjectKey::new("batch/v1", "Job", None, "a");
        c.track(&mut t, &a).unwrap();
        assert!(t.needs_list());
        assert_eq!(c.refresh(&mut t).unwrap(), vec![a.clone()]);
        assert_eq!(t.get(&a).unwrap()["kind"], "Job");
        assert_eq!(c.refresh(&mut t).unwrap(), vec![a.clone()]);
        assert_eq!(t.get(&a).unwrap()["status"]["x"], 1);
        // 410: relisted in the same call; the object is gone.
        assert_eq!(c.refresh(&mut t).unwrap(), vec![a.clone()]);
        assert!(t.get(&a).is_none());
        let seen = script.seen.borrow();
        assert!(seen[1].url.contains("/namespaces/rel/jobs?fieldSelector=metadata.name%3Da&limit=500"));
        assert!(seen[2].url.contains(
            "jobs?watch=1&fieldSelector=metadata.name%3Da&resourceVersion=3&allowWatchBookmarks=true&timeoutSeconds=1"
        ), "{}", seen[2].url);
        assert!(seen[3].url.contains("resourceVersion=4"), "{}", seen[3].url);
    }

    #[test]
    fn one_watch_round_per_refresh_whatever_the_number_of_groups() {
        let batch = crate::kube::fixture::BATCH_V1;
        let empty = r#"{"metadata":{"resourceVersion":"3"},"items":[]}"#;
        let quiet = r#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"4"}}}"#;
        // Two namespaces: two groups. First refresh lists both; then each
        // refresh watches one group (rotating) and lists the other.
        let (mut c, script) = client(
            None,
            vec![
                respond(200, batch),
                respond(200, empty),
                respond(200, empty),
                respond(200, quiet),
                respond(200, empty),
                respond(200, quiet),
                respond(200, empty),
            ],
        );
        let mut t = Tracker::new(Some("run=1"));
        for ns in ["x", "y"] {
            c.track(&mut t, &ObjectKey::new("batch/v1", "Job", Some(ns), "a")).unwrap();
        }
        for _ in 0..3 {
            c.refresh(&mut t).unwrap();
        }
        let seen = script.seen.borrow();
        let kinds: Vec<(bool, &str)> = seen[1..]
            .iter()
            .map(|r| (r.url.contains("watch=1"), if r.url.contains("/namespaces/x/") { "x" } else { "y" }))
            .collect();
        assert_eq!(kinds, vec![(false, "y"), (false, "x"), (true, "x"), (false, "y"), (true, "y"), (false, "x")]);
    }

    #[test]
    fn at_once_every_group_is_watched_in_one_batch_that_ends_on_any_event() {
        use crate::kube::fixture::host_client;
        use crate::kube::transport::ReturnOn;
        let batch = crate::kube::fixture::BATCH_V1;
        let listed = |rv: &str| format!(r#"{{"metadata":{{"resourceVersion":"{rv}"}},"items":[]}}"#);
        let added = r#"{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"8"}}}"#;
        let stopped = respond(0, "");
        let (mut c, script) = host_client(vec![
            respond(200, batch),
            respond(200, &listed("3")),
            respond(200, &listed("5")),
            // Round 1: x's watch has the event; y's was stopped before
            // the server answered it.
            respond(200, added),
            stopped.clone(),
            // Round 2: y's watch expired (410): y is listed afresh.
            respond(200, ""),
            respond(410, r#"{"code":410}"#),
            respond(200, &listed("9")),
        ]);
        let mut t = Tracker::new(Some("run=1"));
        let (x, y) =
            (ObjectKey::new("batch/v1", "Job", Some("x"), "a"), ObjectKey::new("batch/v1", "Job", Some("y"), "a"));
        c.track(&mut t, &x).unwrap();
        c.track(&mut t, &y).unwrap();
        c.refresh(&mut t).unwrap();
        assert_eq!(c.refresh(&mut t).unwrap(), vec![x.clone()]);
        assert_eq!(t.get(&x).unwrap()["metadata"]["resourceVersion"], "8");
        c.refresh(&mut t).unwrap();
        let seen = script.seen.borrow();
        let urls: Vec<&str> = seen.iter().map(|r| r.url.as_str()).collect();
        // Each watch resumes where it was: x after its event, y unchanged.
        // (The first refresh listed y, then x: the rotation of the lists.)
        for (i, ns, rv) in [(3, "x", "5"), (4, "y", "3"), (5, "x", "8"), (6, "y", "3")] {
            assert!(urls[i].contains(&format!("/namespaces/{ns}/jobs?watch=1")), "{}", urls[i]);
            assert!(urls[i].contains(&format!("&resourceVersion={rv}&")), "{}", urls[i]);
        }
        assert!(urls[7].contains("/namespaces/y/jobs?") && !urls[7].contains("watch=1"), "{}", urls[7]);
        assert_eq!(urls.len(), 8);
        // Lists one at a time; each round's watches in one batch.
        assert_eq!(*script.batches.borrow(), vec![(2, ReturnOn::AnyEvent), (2, ReturnOn::AnyEvent)]);
        assert_eq!(t.refresh_steps(true), vec![Step::WatchAll(vec![(0, "8".into()), (1, "9".into())])]);
    }

    #[test]
    fn an_applied_object_is_watched_without_a_list() {
        let batch = crate::kube::fixture::BATCH_V1;
        let done = r#"{"type":"MODIFIED","object":{"metadata":{"name":"a","resourceVersion":"8"},"status":{"x":1}}}"#;
        let (mut c, script) = client(None, vec![respond(200, batch), respond(200, done)]);
        let mut t = Tracker::new(Some("run=1"));
        let a = ObjectKey::new("batch/v1", "Job", None, "a");
        let applied = serde_json::json!({"metadata": {"name": "a", "resourceVersion": "7"}});
        c.track_known(&mut t, &a, &applied).unwrap();
        assert!(!t.needs_list());
        assert_eq!(t.get(&a), Some(&applied));
        assert_eq!(c.refresh(&mut t).unwrap(), vec![a.clone()]);
        assert_eq!(t.get(&a).unwrap()["status"]["x"], 1);
        let seen = script.seen.borrow();
        assert_eq!(seen.len(), 2, "discovery and one watch, no list");
        assert!(seen[1].url.contains("watch=1") && seen[1].url.contains("resourceVersion=7"), "{}", seen[1].url);
    }

    #[test]
    fn objects_applied_at_once_are_watched_from_the_oldest_of_them() {
        // A batch of applies answered in its own order: b was written (5) before a (7),
        // and ended (6) before a's answer was written. A watch from 7 would never show it.
        use crate::kube::fixture::host_client;
        let batch = crate::kube::fixture::BATCH_V1;
        let ended = r#"{"type":"MODIFIED","object":{"metadata":{"name":"b","resourceVersion":"6"},"status":{"phase":"Succeeded"}}}"#;
        let (mut c, script) = host_client(vec![respond(200, batch), respond(200, ended)]);
        let mut t = Tracker::new(Some("run=1"));
        let (a, b) = (ObjectKey::new("batch/v1", "Job", None, "a"), ObjectKey::new("batch/v1", "Job", None, "b"));
        c.track_known(&mut t, &a, &serde_json::json!({"metadata": {"name": "a", "resourceVersion": "7"}})).unwrap();
        c.track_known(&mut t, &b, &serde_json::json!({"metadata": {"name": "b", "resourceVersion": "5"}})).unwrap();
        assert_eq!(c.refresh(&mut t).unwrap(), vec![b.clone()]);
        assert_eq!(t.get(&b).unwrap()["status"]["phase"], "Succeeded");
        let seen = script.seen.borrow();
        assert!(seen[1].url.contains("&resourceVersion=5&"), "{}", seen[1].url);
    }

    #[test]
    fn an_object_deleted_right_after_it_completed_keeps_its_final_state() {
        // ttlSecondsAfterFinished: 0 — completion and deletion in one round.
        let batch = crate::kube::fixture::BATCH_V1;
        let round = concat!(
            r#"{"type":"MODIFIED","object":{"metadata":{"name":"a","resourceVersion":"8"},"status":{"succeeded":1}}}"#,
            "\n",
            r#"{"type":"DELETED","object":{"metadata":{"name":"a","resourceVersion":"9","deletionTimestamp":"t"},"status":{"succeeded":1}}}"#,
        );
        let (mut c, _) = client(None, vec![respond(200, batch), respond(200, round)]);
        let mut t = Tracker::new(Some("run=1"));
        let a = ObjectKey::new("batch/v1", "Job", None, "a");
        c.track_known(&mut t, &a, &serde_json::json!({"metadata": {"name": "a", "resourceVersion": "7"}})).unwrap();
        c.refresh(&mut t).unwrap();
        assert!(t.get(&a).is_none());
        match t.observed(&a) {
            Observed::Gone { last: Some(o) } => {
                assert_eq!(o["status"]["succeeded"], 1);
                assert!(o.pointer("/metadata/deletionTimestamp").is_none(), "{o}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_list_that_misses_an_object_replays_the_stream_for_its_final_state() {
        // Two namespaces: one is watched, the other listed. The listed one's
        // Job completed and was deleted between rounds: the list only shows
        // it gone, a replay from the previous resourceVersion shows how.
        let batch = crate::kube::fixture::BATCH_V1;
        let running =
            r#"{"metadata":{"resourceVersion":"3"},"items":[{"metadata":{"name":"a","resourceVersion":"2"}}]}"#;
        let quiet = r#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"4"}}}"#;
        let empty = r#"{"metadata":{"resourceVersion":"6"},"items":[]}"#;
        let replay = concat!(
            r#"{"type":"MODIFIED","object":{"metadata":{"name":"a","resourceVersion":"4"},"status":{"failed":1}}}"#,
            "\n",
            r#"{"type":"DELETED","object":{"metadata":{"name":"a","resourceVersion":"5"},"status":{"failed":1}}}"#,
        );
        let (mut c, script) = client(
            None,
            vec![
                respond(200, batch),
                respond(200, running),
                respond(200, running),
                respond(200, quiet),
                respond(200, empty),
                respond(200, replay),
            ],
        );
        let mut t = Tracker::new(Some("run=1"));
        let (x, y) =
            (ObjectKey::new("batch/v1", "Job", Some("x"), "a"), ObjectKey::new("batch/v1", "Job", Some("y"), "a"));
        c.track(&mut t, &x).unwrap();
        c.track(&mut t, &y).unwrap();
        c.refresh(&mut t).unwrap();
        let changed = c.refresh(&mut t).unwrap();
        let seen = script.seen.borrow();
        let gone = if seen[4].url.contains("/namespaces/x/") { &x } else { &y };
        assert!(changed.contains(gone));
        assert!(seen[5].url.contains("watch=1") && seen[5].url.contains("resourceVersion=3"), "{}", seen[5].url);
        match t.observed(gone) {
            Observed::Gone { last: Some(o) } => assert_eq!(o["status"]["failed"], 1),
            other => panic!("{other:?}"),
        }
    }

    fn too_large(retry: bool) -> crate::kube::transport::Response {
        let body = format!(
            r#"{{"kind":"Status","status":"Failure","message":"Timeout: Too large resource version: 9, current: 8","reason":"Timeout","details":{{"causes":[{{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}}]{}}},"code":504}}"#,
            if retry { r#","retryAfterSeconds":1"# } else { "" }
        );
        let mut r = respond(504, &body);
        if retry {
            r.headers.insert("retry-after".into(), "1".into());
        }
        r
    }

    /// Three looks at a running Job `a`: answered once the cluster passed its
    /// revision, unchanged; then `not_yet`; then `a` done. Each look's URL.
    fn three_looks(not_yet: crate::kube::transport::Response) -> Vec<String> {
        let batch = crate::kube::fixture::BATCH_V1;
        let running =
            r#"{"metadata":{"resourceVersion":"12"},"items":[{"metadata":{"name":"a","resourceVersion":"11"}}]}"#;
        let done = r#"{"metadata":{"resourceVersion":"15"},"items":[{"metadata":{"name":"a","resourceVersion":"14"},"status":{"succeeded":1}}]}"#;
        let (mut c, script) =
            client(None, vec![respond(200, batch), respond(200, running), not_yet, respond(200, done)]);
        let mut t = Tracker::new(None);
        let a = ObjectKey::new("batch/v1", "Job", None, "a");
        let applied = serde_json::json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "a", "resourceVersion": "11"}});
        c.track_known(&mut t, &a, &applied).unwrap();
        assert!(c.look(&mut t).unwrap().is_empty());
        // Not yet: nothing changed, nothing repeated; the next look asks for the next write.
        assert!(c.look(&mut t).unwrap().is_empty());
        assert_eq!(c.look(&mut t).unwrap(), vec![a.clone()]);
        assert_eq!(t.get(&a).unwrap()["status"]["succeeded"], 1);
        let seen = script.seen.borrow();
        assert_eq!(seen.len(), 4, "one request a look");
        seen[1..].iter().map(|r| r.url.clone()).collect()
    }

    #[test]
    fn a_look_is_a_list_not_older_than_the_next_revision() {
        // 3 s of a quiet cluster: the watch cache's 504.
        let urls = three_looks(too_large(true));
        assert!(
            urls[0].ends_with("/namespaces/rel/jobs?fieldSelector=metadata.name%3Da&limit=500&resourceVersion=12&resourceVersionMatch=NotOlderThan&timeout=1000ms"),
            "{}",
            urls[0]
        );
        assert!(urls[1].contains("&resourceVersion=13&"), "the list's own revision, plus one: {}", urls[1]);
        assert!(urls[2].contains("&resourceVersion=13&"), "{}", urls[2]);
    }

    #[test]
    fn a_look_the_cluster_does_not_answer_within_a_second_ends_then() {
        // The API server's timeout filter, when the request's own `timeout` passed.
        let timed_out = respond(
            504,
            r#"{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}"#,
        );
        let urls = three_looks(timed_out);
        assert!(urls[1].contains("&resourceVersion=13&") && urls[1].ends_with("&timeout=1000ms"), "{}", urls[1]);
        assert!(urls[2].contains("&resourceVersion=13&"), "{}", urls[2]);
    }

    #[test]
    fn a_look_is_never_older_than_an_object_it_tracks() {
        let batch = crate::kube::fixture::BATCH_V1;
        let both = r#"{"metadata":{"resourceVersion":"30"},"items":[{"metadata":{"name":"a","resourceVersion":"11"}},{"metadata":{"name":"b","resourceVersion":"25"}}]}"#;
        let first =
            r#"{"metadata":{"resourceVersion":"12"},"items":[{"metadata":{"name":"a","resourceVersion":"11"}}]}"#;
        let (mut c, script) = client(None, vec![respond(200, batch), respond(200, first), respond(200, both)]);
        let mut t = Tracker::new(None);
        let (a, b) = (ObjectKey::new("batch/v1", "Job", None, "a"), ObjectKey::new("batch/v1", "Job", None, "b"));
        c.track_known(&mut t, &a, &serde_json::json!({"metadata": {"name": "a", "resourceVersion": "11"}})).unwrap();
        c.look(&mut t).unwrap();
        // b is created at 25 while the group's last list was at 12.
        c.track_known(&mut t, &b, &serde_json::json!({"metadata": {"name": "b", "resourceVersion": "25"}})).unwrap();
        c.look(&mut t).unwrap();
        let seen = script.seen.borrow();
        assert!(seen[2].url.contains("&resourceVersion=25&"), "{}", seen[2].url);
        assert!(t.get(&b).is_some());
    }

    #[test]
    fn a_resource_without_a_watch_cache_is_watched_in_rounds() {
        // The bed serves PodTemplates from etcd: "Too large resource version" at once,
        // no Retry-After.
        let batch = crate::kube::fixture::BATCH_V1;
        let quiet = r#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"12"}}}"#;
        let (mut c, script) =
            client(None, vec![respond(200, batch), too_large(false), respond(200, quiet), respond(200, quiet)]);
        let mut t = Tracker::new(None);
        let a = ObjectKey::new("batch/v1", "Job", None, "a");
        c.track_known(&mut t, &a, &serde_json::json!({"metadata": {"name": "a", "resourceVersion": "10"}})).unwrap();
        c.look(&mut t).unwrap();
        c.look(&mut t).unwrap();
        let seen = script.seen.borrow();
        assert!(seen[1].url.contains("resourceVersionMatch=NotOlderThan"));
        assert!(seen[2].url.contains("watch=1") && seen[2].url.contains("resourceVersion=10"), "{}", seen[2].url);
        assert!(seen[3].url.contains("watch=1") && seen[3].url.contains("resourceVersion=12"), "{}", seen[3].url);
    }

    #[test]
    fn a_look_long_polls_one_group_and_lists_the_others_as_of_its_answer() {
        let batch = crate::kube::fixture::BATCH_V1;
        let listed = |rv: &str| {
            format!(r#"{{"metadata":{{"resourceVersion":"{rv}"}},"items":[{{"metadata":{{"name":"a"}}}}]}}"#)
        };
        let (mut c, script) = client(
            None,
            vec![
                respond(200, batch),
                respond(200, &listed("20")),
                respond(200, &listed("20")),
                respond(200, &listed("25")),
                respond(200, &listed("25")),
            ],
        );
        let mut t = Tracker::new(Some("run=1"));
        for ns in ["x", "y"] {
            let key = ObjectKey::new("batch/v1", "Job", Some(ns), "a");
            let rv = if ns == "x" { "7" } else { "9" };
            c.track_known(&mut t, &key, &serde_json::json!({"metadata": {"name": "a", "resourceVersion": rv}}))
                .unwrap();
        }
        c.look(&mut t).unwrap();
        c.look(&mut t).unwrap();
        let seen = script.seen.borrow();
        let urls: Vec<&str> = seen[1..].iter().map(|r| r.url.as_str()).collect();
        // The newest revision seen in any group, plus one; the other group as of the answer.
        assert!(urls[0].contains("/namespaces/x/jobs?") && urls[0].contains("resourceVersion=10&"), "{}", urls[0]);
        assert!(urls[1].contains("/namespaces/y/jobs?") && urls[1].contains("resourceVersion=20&"), "{}", urls[1]);
        // The lead rotates.
        assert!(urls[2].contains("/namespaces/y/jobs?") && urls[2].contains("resourceVersion=21&"), "{}", urls[2]);
        assert!(urls[3].contains("/namespaces/x/jobs?") && urls[3].contains("resourceVersion=25&"), "{}", urls[3]);
    }

    /// A list of 40 Jobs of `pad` bytes of schema each, at `rv`.
    fn forty(pad: usize, rv: u32) -> String {
        let schema = "x".repeat(pad);
        let items: Vec<String> =
            (0..40).map(|i| format!(r#"{{"metadata":{{"name":"c{i}"}},"schema":"{schema}"}}"#)).collect();
        format!(r#"{{"metadata":{{"resourceVersion":"{rv}"}},"items":[{}]}}"#, items.join(","))
    }

    /// The first request of a look after `list`, with two of its objects tracked
    /// by a label; `next` answers it.
    fn first_look_after(list: &str, next: &str) -> String {
        let batch = crate::kube::fixture::BATCH_V1;
        let (mut c, script) = client(None, vec![respond(200, batch), respond(200, list), respond(200, next)]);
        let mut t = Tracker::new(Some("managed=yes"));
        for n in ["c1", "c2"] {
            c.track(&mut t, &ObjectKey::new("batch/v1", "Job", None, n)).unwrap();
        }
        c.refresh(&mut t).unwrap();
        c.look(&mut t).unwrap();
        let seen = script.seen.borrow();
        seen[2].url.clone()
    }

    #[test]
    fn a_list_much_wider_than_what_is_tracked_is_watched_in_rounds() {
        // Two CRDs tracked by a label every Helm release's CRDs carry: the list has
        // forty, 320 KB of schema; looking would list them all at each look.
        let quiet = r#"{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"13"}}}"#;
        let url = first_look_after(&forty(8 * 1024, 12), quiet);
        assert!(url.contains("watch=1") && url.contains("resourceVersion=12"), "{url}");
    }

    #[test]
    fn a_list_of_many_small_objects_is_still_looked_at() {
        // The last two of a run's forty Jobs, listed beside the finished ones: 40 KB.
        let url = first_look_after(&forty(1024, 12), &forty(1024, 13));
        assert!(!url.contains("watch=1") && url.contains("resourceVersionMatch=NotOlderThan"), "{url}");
    }

    #[test]
    fn several_objects_are_watched_by_label() {
        let batch = crate::kube::fixture::BATCH_V1;
        let (mut c, script) =
            client(None, vec![respond(200, batch), respond(200, r#"{"metadata":{"resourceVersion":"3"},"items":[]}"#)]);
        let mut t = Tracker::new(Some("run=1"));
        for n in ["a", "b"] {
            c.track(&mut t, &ObjectKey::new("batch/v1", "Job", Some("x"), n)).unwrap();
        }
        let mut clock = 0;
        let got = c
            .wait_any(
                &mut t,
                0,
                &mut || {
                    clock += 1;
                    clock
                },
                &mut |_, obj| matches!(obj, Observed::Gone { .. }),
            )
            .unwrap();
        assert_eq!(got.len(), 2);
        assert!(script.seen.borrow()[1].url.ends_with("/namespaces/x/jobs?labelSelector=run%3D1&limit=500"));
    }
}
