//! Long polls, watch rounds and a tracker of objects across them.
//!
//! Helm's Wasm host reads a response whole, so a watch request returns only
//! when its `timeoutSeconds` expires, and sleep returns at once in the
//! sandbox. A [`Tracker`] keeps the latest state of a set of objects: it
//! lists them once per (resource, namespace), then follows them — in the
//! stock build by looks ([`Client::look`]: a list the API server holds until
//! the cluster has written past what was seen, then lists of the others as
//! of then); under Helm's `kube_request` by watch rounds of all of them in
//! one batch that returns on the first change; where no watch cache serves
//! a resource, by watch rounds of a second, one (resource, namespace)
//! watched and the others listed — relisting when the resourceVersion is
//! too old (410 Gone).
//!
//! An object that goes away keeps its final state: a Job with
//! `ttlSecondsAfterFinished: 0` is deleted by the TTL controller the moment
//! it completes, so its completion and its deletion often arrive in one
//! round. The DELETED event carries the object as it was; when a list
//! rather than a watch notices the disappearance, the stream since the
//! previous resourceVersion is replayed to find it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::collections::{Fresh, ObjectList};
use super::error::KubeError;
use super::key::{ApiResource, ObjectKey, Selector};
use super::pace::Pace;
use super::watch_event::{EventType, WatchEvent, WatchRound};
use super::Client;

/// Length of one watch round, in seconds.
pub const ROUND_SECS: u32 = 1;

/// What a tracker knows of one object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Observed<'a> {
    /// It exists; its latest state.
    Live(&'a Value),
    /// It does not exist (any more). `last` is its final state when it was
    /// seen before it went away.
    Gone { last: Option<&'a Value> },
}

impl<'a> Observed<'a> {
    /// The latest state seen, live or final.
    pub fn last(self) -> Option<&'a Value> {
        match self {
            Observed::Live(o) => Some(o),
            Observed::Gone { last } => last,
        }
    }
}

/// An object that went away, as it ended: the TTL controller deletes a
/// finished Job in the foreground, so its last states carry a
/// `deletionTimestamp`, which readiness rules rightly read as "being
/// deleted" — of an object that is gone, what counts is how it ended.
fn final_state(mut object: Value) -> Value {
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
    }
    object
}

#[derive(Debug, Clone)]
struct Group {
    resource: ApiResource,
    namespace: Option<String>,
    names: BTreeSet<String>,
    /// `None`: list before watching.
    resource_version: Option<String>,
    objects: BTreeMap<String, Value>,
    /// Final states of tracked objects that went away.
    gone: BTreeMap<String, Value>,
    /// The API server answered a list "not older than" a future
    /// resourceVersion at once: no watch cache serves this resource, so it
    /// cannot be long-polled ([`Client::look`]).
    uncached: bool,
    /// Its last list held many more objects than it tracks (a label many
    /// releases' objects carry, cluster-scoped CRDs of every Helm release):
    /// too large to list at each look ([`Client::look`]).
    wide: bool,
}

/// A list of more than this many objects beyond [`WIDE_FACTOR`] times those a
/// group tracks, and of more than [`WIDE_BYTES`], is too wide to repeat at
/// each look: CRDs carry megabytes of schema each, and a label such as
/// `app.kubernetes.io/managed-by=Helm` selects every release's. A run's own
/// hooks are not: 32 finished Jobs listed beside the last one running are
/// 80 KB, and watching them in rounds instead saw that last Job end up to a
/// second late (docs/benchmarks.md, session 9).
const WIDE_EXTRA: usize = 16;
const WIDE_FACTOR: usize = 4;
const WIDE_BYTES: usize = 256 * 1024;

impl Group {
    fn apply(&mut self, ev: WatchEvent) -> Option<String> {
        let name = ev.name().to_string();
        if !self.names.contains(&name) {
            return None;
        }
        match ev.kind {
            EventType::Deleted => {
                self.objects.remove(&name);
                self.gone.insert(name.clone(), final_state(ev.object));
            }
            EventType::Added | EventType::Modified => {
                self.gone.remove(&name);
                self.objects.insert(name.clone(), ev.object);
            }
        }
        Some(name)
    }
}

/// The older of a group's resourceVersion and an object's, read as numbers
/// (every API server in use numbers them by etcd revision); `rv` as it was
/// when either cannot be read so.
fn older(rv: String, object_rv: Option<String>) -> String {
    match (rv.parse::<u64>(), object_rv.as_deref().map(str::parse::<u64>)) {
        (Ok(a), Some(Ok(b))) if b < a => object_rv.unwrap_or(rv),
        _ => rv,
    }
}

/// The latest state of a set of objects, kept by lists and watch rounds.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    label_selector: Option<String>,
    groups: Vec<Group>,
    /// The caller's key → (group, name).
    keys: BTreeMap<ObjectKey, (usize, String)>,
    /// Refresh count, to rotate the watched group.
    round: usize,
    /// How far ahead of the cluster the long polls of [`Client::look`] ask.
    pace: Pace,
}

impl Tracker {
    /// `label_selector`: a selector every tracked object carries (the label
    /// the run puts on what it applies); groups of several objects are then
    /// listed and watched by it rather than whole. A group of one object is
    /// always selected by name.
    pub fn new(label_selector: Option<&str>) -> Self {
        Tracker { label_selector: label_selector.map(str::to_string), ..Default::default() }
    }

    /// The object as last seen; `None` when it does not exist (or is not
    /// tracked, or not listed yet).
    pub fn get(&self, key: &ObjectKey) -> Option<&Value> {
        let (g, name) = self.keys.get(key)?;
        self.groups[*g].objects.get(name)
    }

    /// The object as last seen, or its final state when it went away.
    pub fn observed(&self, key: &ObjectKey) -> Observed<'_> {
        let Some((g, name)) = self.keys.get(key) else { return Observed::Gone { last: None } };
        let g = &self.groups[*g];
        match g.objects.get(name) {
            Some(o) => Observed::Live(o),
            None => Observed::Gone { last: g.gone.get(name) },
        }
    }

    pub fn contains(&self, key: &ObjectKey) -> bool {
        self.keys.contains_key(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &ObjectKey> {
        self.keys.keys()
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// True when some objects are not listed yet: the next
    /// [`Client::refresh`] lists them without waiting.
    pub fn needs_list(&self) -> bool {
        self.groups.iter().any(|g| !g.names.is_empty() && g.resource_version.is_none())
    }

    pub fn untrack(&mut self, key: &ObjectKey) {
        if let Some((g, name)) = self.keys.remove(key) {
            let still = self.keys.values().any(|(g2, n2)| *g2 == g && *n2 == name);
            if !still {
                self.groups[g].names.remove(&name);
                self.groups[g].objects.remove(&name);
                self.groups[g].gone.remove(&name);
            }
        }
    }

    fn selector(&self, g: &Group) -> Selector {
        match (g.names.len(), &self.label_selector) {
            (1, _) => Selector::name(g.names.iter().next().expect("one name")),
            (_, Some(l)) => Selector::labels(l),
            (_, None) => Selector::default(),
        }
    }

    /// The caller's keys for a name in a group.
    fn keys_of(&self, g: usize, name: &str) -> Vec<ObjectKey> {
        self.keys.iter().filter(|(_, (g2, n2))| *g2 == g && n2 == name).map(|(k, _)| k.clone()).collect()
    }
}

impl Client {
    /// Adds an object to a tracker; the next [`Client::refresh`] lists it.
    pub fn track(&mut self, t: &mut Tracker, key: &ObjectKey) -> Result<(), KubeError> {
        if t.keys.contains_key(key) {
            return Ok(());
        }
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let g = match t.groups.iter().position(|g| g.resource == res && g.namespace == ns) {
            Some(g) => g,
            None => {
                t.groups.push(Group {
                    resource: res,
                    namespace: ns,
                    names: BTreeSet::new(),
                    resource_version: None,
                    objects: BTreeMap::new(),
                    gone: BTreeMap::new(),
                    uncached: false,
                    wide: false,
                });
                t.groups.len() - 1
            }
        };
        if t.groups[g].names.insert(key.name.clone()) {
            t.groups[g].resource_version = None;
        }
        t.keys.insert(key.clone(), (g, key.name.clone()));
        t.pace.expect();
        Ok(())
    }

    /// Adds an object whose current state is known — the API server's answer
    /// to an apply — so that no list is needed before it is watched: a group
    /// being watched keeps its place in the stream (its next round replays
    /// anything newer), a new or idle one starts from the object's
    /// resourceVersion.
    pub fn track_known(&mut self, t: &mut Tracker, key: &ObjectKey, object: &Value) -> Result<(), KubeError> {
        if t.keys.contains_key(key) {
            return Ok(());
        }
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let before = t
            .groups
            .iter()
            .find(|g| g.resource == res && g.namespace == ns)
            .map(|g| (g.resource_version.clone(), g.names.is_empty()));
        self.track(t, key)?;
        let (g, name) = t.keys[key].clone();
        let group = &mut t.groups[g];
        group.objects.insert(name, object.clone());
        let rv = object.pointer("/metadata/resourceVersion").and_then(Value::as_str).map(str::to_string);
        group.resource_version = match before {
            // Not newer than this object: the answers to a batch of applies, sent at once, come
            // in the batch's order, not the cluster's, so an earlier answer may be the newer
            // object, and a stream started from it would never show this one's changes in
            // between (a kwok Pod that ended before the batch's first answer was written: the
            // host build's missed ends, docs/limits.md). Replaying from the older is harmless.
            Some((Some(old), false)) => Some(older(old, rv)),
            // Other names of the group wait for a list: it covers this one.
            Some((None, false)) => None,
            _ => rv,
        };
        Ok(())
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
    pub fn refresh(&mut self, t: &mut Tracker) -> Result<Vec<ObjectKey>, KubeError> {
        let listing = t.needs_list();
        let mut changed: BTreeSet<ObjectKey> = BTreeSet::new();
        let n = t.groups.len();
        t.round = t.round.wrapping_add(1);
        if !listing && self.at_once() {
            let watched: Vec<usize> = (0..n).filter(|&g| !t.groups[g].names.is_empty()).collect();
            let watches: Vec<(ApiResource, Option<String>, Selector, String)> = watched
                .iter()
                .map(|&g| {
                    let group = &t.groups[g];
                    let rv = group.resource_version.clone().unwrap_or_default();
                    (group.resource.clone(), group.namespace.clone(), t.selector(group), rv)
                })
                .collect();
            let rounds = self.watch_all(&watches, ROUND_SECS)?;
            for ((&g, (_, _, selector, _)), round) in watched.iter().zip(&watches).zip(rounds) {
                self.follow(t, g, selector, round, &mut changed)?;
            }
            return Ok(changed.into_iter().collect());
        }
        let first = if n == 0 { 0 } else { t.round % n };
        let mut watched = false;
        for g in (first..n).chain(0..first) {
            if t.groups[g].names.is_empty() || (listing && t.groups[g].resource_version.is_some()) {
                continue;
            }
            let selector = t.selector(&t.groups[g]);
            let group = &t.groups[g];
            let (res, ns) = (group.resource.clone(), group.namespace.clone());
            match group.resource_version.clone().filter(|_| !watched) {
                Some(rv) => {
                    watched = true;
                    let round = self.watch(&res, ns.as_deref(), &selector, &rv, ROUND_SECS)?;
                    self.follow(t, g, &selector, round, &mut changed)?;
                }
                None => self.relist(t, g, &selector, &mut changed)?,
            }
        }
        Ok(changed.into_iter().collect())
    }

    /// Takes a group's watch round in: its events, and where the next
    /// round starts; a group whose resourceVersion expired is listed afresh.
    fn follow(
        &mut self,
        t: &mut Tracker,
        g: usize,
        selector: &Selector,
        round: WatchRound,
        changed: &mut BTreeSet<ObjectKey>,
    ) -> Result<(), KubeError> {
        let group = &mut t.groups[g];
        let names: Vec<String> = round.events.into_iter().filter_map(|ev| group.apply(ev)).collect();
        // Expired: the stream since then is lost; list afresh.
        group.resource_version = (!round.expired).then_some(round.resource_version);
        for name in names {
            changed.extend(t.keys_of(g, &name));
        }
        if round.expired {
            self.relist(t, g, selector, changed)?;
        }
        Ok(())
    }

    /// Lists a group: its objects as they are now, and the resourceVersion
    /// to watch from.
    fn relist(
        &mut self,
        t: &mut Tracker,
        g: usize,
        selector: &Selector,
        changed: &mut BTreeSet<ObjectKey>,
    ) -> Result<(), KubeError> {
        let (res, ns) = (t.groups[g].resource.clone(), t.groups[g].namespace.clone());
        let list = self.list(&res, ns.as_deref(), selector)?;
        self.take_list(t, g, selector, list, changed)
    }

    /// Takes a list of a group in: its objects as they are now (one that is
    /// gone keeps its final state), and the resourceVersion to go on from.
    fn take_list(
        &mut self,
        t: &mut Tracker,
        g: usize,
        selector: &Selector,
        list: ObjectList,
        changed: &mut BTreeSet<ObjectKey>,
    ) -> Result<(), KubeError> {
        let (res, ns) = (t.groups[g].resource.clone(), t.groups[g].namespace.clone());
        let since = t.groups[g].resource_version.clone();
        let group = &mut t.groups[g];
        group.wide = list.items.len() > WIDE_FACTOR * group.names.len() + WIDE_EXTRA && list.bytes > WIDE_BYTES;
        let before = std::mem::take(&mut group.objects);
        for item in list.items {
            let name = item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
            if group.names.contains(&name) {
                group.gone.remove(&name);
                group.objects.insert(name, item);
            }
        }
        group.resource_version = Some(list.resource_version.clone());
        let vanished: Vec<String> = before.keys().filter(|n| !group.objects.contains_key(*n)).cloned().collect();
        for name in &vanished {
            group.gone.insert(name.clone(), final_state(before[name].clone()));
        }
        // The list shows only that they went away; the stream since
        // the previous round has how they ended.
        if let (false, Some(since)) = (vanished.is_empty(), since) {
            let replay = self.watch(&res, ns.as_deref(), selector, &since, ROUND_SECS)?;
            let group = &mut t.groups[g];
            for ev in replay.events {
                let name = ev.name().to_string();
                if vanished.contains(&name) && !group.objects.contains_key(&name) {
                    group.gone.insert(name, final_state(ev.object));
                }
            }
        }
        let names: Vec<String> = t.groups[g].names.iter().cloned().collect();
        for name in names {
            let (old, new) = (before.get(&name), t.groups[g].objects.get(&name));
            if old.is_none() || old != new {
                changed.extend(t.keys_of(g, &name));
            }
        }
        Ok(())
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
            let finished: Vec<ObjectKey> = t.keys.keys().filter(|k| done(k, t.observed(k))).cloned().collect();
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
    /// tracks (`WIDE_EXTRA`) too, as a list at each look would be heavy.
    pub fn look(&mut self, t: &mut Tracker) -> Result<Vec<ObjectKey>, KubeError> {
        let live: Vec<usize> = (0..t.groups.len()).filter(|&g| !t.groups[g].names.is_empty()).collect();
        let revision = |g: &Group| g.resource_version.as_deref().and_then(|rv| rv.parse::<u64>().ok());
        let pollable: Vec<usize> =
            live.iter().copied().filter(|&g| !t.groups[g].uncached && revision(&t.groups[g]).is_some()).collect();
        let wide = live.iter().any(|&g| t.groups[g].wide);
        if pollable.is_empty() || wide || live.iter().any(|&g| revision(&t.groups[g]).is_none()) {
            return self.refresh(t);
        }
        let lead = pollable[t.round % pollable.len()];
        t.round = t.round.wrapping_add(1);
        let seen = live.iter().filter_map(|&g| revision(&t.groups[g])).max().unwrap_or_default();
        // A list of a revision older than an object it tracks does not show that object, which
        // would read as deleted: one created into a group already followed is newer than the
        // group's last list (two releases' hooks in one namespace showed it), so never ask for
        // less than the newest object known.
        let newest = live
            .iter()
            .flat_map(|&g| t.groups[g].objects.values())
            .filter_map(|o| o.pointer("/metadata/resourceVersion")?.as_str()?.parse::<u64>().ok())
            .max()
            .unwrap_or_default();
        let wanted = seen.saturating_add(t.pace.ahead(crate::base::time::wall_ms())).max(newest);
        let selector = t.selector(&t.groups[lead]);
        let (res, ns) = (t.groups[lead].resource.clone(), t.groups[lead].namespace.clone());
        // Bounded by the request's own `timeout` only where a reset stream is an error to
        // repeat (Transport::survives_reset); else by the watch cache's 3 s.
        let within = if self.transport.survives_reset() { t.pace.within(crate::base::time::wall_ms()) } else { None };
        let list = match self.list_fresh(&res, ns.as_deref(), &selector, &wanted.to_string(), within)? {
            Fresh::Listed(list) => list,
            // At once: no watch cache serves this resource; watched in rounds from now on.
            Fresh::NotYet { cached: false } => {
                t.groups[lead].uncached = true;
                return self.refresh(t);
            }
            // The cluster wrote less than asked for within the look's time (3 s, or
            // `within`): what it wrote, if anything, the next look gets at once.
            Fresh::NotYet { cached: true } => {
                t.pace.quiet();
                return Ok(Vec::new());
            }
        };
        let at = list.resource_version.clone();
        if let Ok(rv) = at.parse::<u64>() {
            t.pace.answered(rv, crate::base::time::wall_ms());
        }
        let mut changed = BTreeSet::new();
        self.take_list(t, lead, &selector, list, &mut changed)?;
        // The others as of the same revision: their caches have it, or will within 0.1 s.
        for g in live.into_iter().filter(|&g| g != lead) {
            let selector = t.selector(&t.groups[g]);
            let (res, ns) = (t.groups[g].resource.clone(), t.groups[g].namespace.clone());
            let list = match self.list_fresh(&res, ns.as_deref(), &selector, &at, None)? {
                Fresh::Listed(list) => list,
                // Its storage is behind the lead's cache (an aggregated API, or etcd
                // after a compaction): as it is now.
                Fresh::NotYet { .. } => self.list(&res, ns.as_deref(), &selector)?,
            };
            self.take_list(t, g, &selector, list, &mut changed)?;
        }
        t.pace.looked(!changed.is_empty(), crate::base::time::wall_ms());
        Ok(changed.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{client, respond};

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
        use crate::kube::ReturnOn;
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
        assert_eq!(t.groups[1].resource_version.as_deref(), Some("9"));
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

    fn too_large(retry: bool) -> crate::kube::Response {
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
    fn three_looks(not_yet: crate::kube::Response) -> Vec<String> {
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
