//! A tracker's state, with no I/O: per (resource, namespace) a group of
//! tracked objects, where its stream stands ([`Stream`]) and how it is
//! followed ([`Follow`]); and the pure steps that say what to ask the
//! cluster next ([`Tracker::refresh_steps`], [`Tracker::look_step`]) and
//! take what it answered in, each returning the [`Step`]s that answer calls
//! for (a list after an expired watch, a replay after a list that missed an
//! object's end). [`super::watch`] sends the steps; the tests here need no
//! transport.
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
use super::key::{ApiResource, ObjectKey, Selector};
use super::pace::Pace;
use super::watch_event::{EventType, WatchEvent, WatchRound};
use crate::ready::Observed;

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

/// Where a group's stream stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stream {
    /// Never listed, or a name was added, or its resourceVersion expired:
    /// listed before it is followed.
    Unlisted,
    /// Seen up to this resourceVersion: followed from it.
    At(String),
}

impl Stream {
    fn revision(&self) -> Option<u64> {
        match self {
            Stream::At(rv) => rv.parse().ok(),
            Stream::Unlisted => None,
        }
    }
}

/// How a group is followed in the stock build, where requests go one at a
/// time ([`super::client::Client::look`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follow {
    /// By long polls: lists the API server holds until the cluster has
    /// written past what was seen.
    Look,
    /// In watch rounds: its last list held many more objects than it
    /// tracks (a label many releases' objects carry, cluster-scoped CRDs of
    /// every Helm release), too large to list at each look. Judged again
    /// at each list.
    Wide,
    /// In watch rounds, from now on: the API server answered a list "not
    /// older than" a future resourceVersion at once, so no watch cache
    /// serves the resource and it cannot be long-polled. Listed at each
    /// look of the others unless it is `wide` too.
    Uncached { wide: bool },
}

impl Follow {
    fn wide(self) -> bool {
        matches!(self, Follow::Wide | Follow::Uncached { wide: true })
    }
}

#[derive(Debug, Clone)]
struct Group {
    resource: ApiResource,
    namespace: Option<String>,
    names: BTreeSet<String>,
    stream: Stream,
    objects: BTreeMap<String, Value>,
    /// Final states of tracked objects that went away.
    gone: BTreeMap<String, Value>,
    follow: Follow,
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

    fn live(&self) -> bool {
        !self.names.is_empty()
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

/// One request a tracker asks for, of a group (an index), or a marker for
/// the loop that sends them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    /// A list of the group as it is now.
    List(usize),
    /// A list of the group as of `at` (the lead's answer of a look), or as
    /// it is now when its storage is behind.
    ListAsOf { group: usize, at: String },
    /// A watch round of the group from a resourceVersion.
    Watch(usize, String),
    /// A watch round of each group from its resourceVersion, in one batch
    /// that ends on the first event of any.
    WatchAll(Vec<(usize, String)>),
    /// The stream of the group since `since`, for how `vanished` ended.
    Replay { group: usize, since: String, vanished: Vec<String> },
    /// A long poll of the group: a list not older than `wanted`, answered
    /// within `within_ms` if given.
    Look { lead: usize, wanted: u64, within_ms: Option<u64> },
    /// Not a request: plan a refresh now ([`Tracker::refresh_steps`]).
    Refresh,
    /// Not a request: a look is over, its changes are counted
    /// ([`Tracker::looked`]).
    Looked,
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
    /// How far ahead of the cluster the long polls of
    /// [`super::client::Client::look`] ask.
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
    pub(crate) fn observed(&self, key: &ObjectKey) -> Observed<'_> {
        let Some((g, name)) = self.keys.get(key) else { return Observed::Gone { last: None } };
        let g = &self.groups[*g];
        match g.objects.get(name) {
            Some(o) => Observed::Live(o),
            None => Observed::Gone { last: g.gone.get(name) },
        }
    }

    pub(super) fn contains(&self, key: &ObjectKey) -> bool {
        self.keys.contains_key(key)
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = &ObjectKey> {
        self.keys.keys()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// True when some objects are not listed yet: the next
    /// [`super::client::Client::refresh`] lists them without waiting.
    pub(super) fn needs_list(&self) -> bool {
        self.groups.iter().any(|g| g.live() && g.stream == Stream::Unlisted)
    }

    pub(crate) fn untrack(&mut self, key: &ObjectKey) {
        if let Some((g, name)) = self.keys.remove(key) {
            let still = self.keys.values().any(|(g2, n2)| *g2 == g && *n2 == name);
            if !still {
                self.groups[g].names.remove(&name);
                self.groups[g].objects.remove(&name);
                self.groups[g].gone.remove(&name);
            }
        }
    }

    /// Adds an object of `resource` in `namespace` (as the client resolves
    /// the key's); it is listed before it is followed.
    pub(super) fn add(&mut self, key: &ObjectKey, resource: ApiResource, namespace: Option<String>) {
        if self.keys.contains_key(key) {
            return;
        }
        let g = match self.groups.iter().position(|g| g.resource == resource && g.namespace == namespace) {
            Some(g) => g,
            None => {
                self.groups.push(Group {
                    resource,
                    namespace,
                    names: BTreeSet::new(),
                    stream: Stream::Unlisted,
                    objects: BTreeMap::new(),
                    gone: BTreeMap::new(),
                    follow: Follow::Look,
                });
                self.groups.len() - 1
            }
        };
        if self.groups[g].names.insert(key.name.clone()) {
            self.groups[g].stream = Stream::Unlisted;
        }
        self.keys.insert(key.clone(), (g, key.name.clone()));
        self.pace.expect();
    }

    /// Adds an object whose current state is known — the API server's answer
    /// to an apply — so that no list is needed before it is followed: a
    /// group being followed keeps its place in the stream (its next round
    /// replays anything newer), a new or idle one starts from the object's
    /// resourceVersion.
    pub(super) fn add_known(&mut self, key: &ObjectKey, resource: ApiResource, ns: Option<String>, object: &Value) {
        if self.keys.contains_key(key) {
            return;
        }
        let before = self
            .groups
            .iter()
            .find(|g| g.resource == resource && g.namespace == ns)
            .map(|g| (g.stream.clone(), g.live()));
        self.add(key, resource, ns);
        let (g, name) = self.keys[key].clone();
        let group = &mut self.groups[g];
        group.objects.insert(name, object.clone());
        let rv = object.pointer("/metadata/resourceVersion").and_then(Value::as_str).map(str::to_string);
        group.stream = match before {
            // Not newer than this object: the answers to a batch of applies, sent at once, come
            // in the batch's order, not the cluster's, so an earlier answer may be the newer
            // object, and a stream started from it would never show this one's changes in
            // between (a kwok Pod that ended before the batch's first answer was written: the
            // host build's missed ends, docs/limits.md). Replaying from the older is harmless.
            Some((Stream::At(old), true)) => Stream::At(older(old, rv)),
            // Other names of the group wait for a list: it covers this one.
            Some((Stream::Unlisted, true)) => Stream::Unlisted,
            _ => rv.map_or(Stream::Unlisted, Stream::At),
        };
    }

    /// The resource, namespace and selector a step of group `g` asks for.
    pub(super) fn target(&self, g: usize) -> (&ApiResource, Option<&str>, Selector) {
        let group = &self.groups[g];
        let selector = match (group.names.len(), &self.label_selector) {
            (1, _) => Selector::name(group.names.iter().next().expect("one name")),
            (_, Some(l)) => Selector::labels(l),
            (_, None) => Selector::default(),
        };
        (&group.resource, group.namespace.as_deref(), selector)
    }

    /// The caller's keys for a name in a group.
    fn keys_of(&self, g: usize, name: &str) -> impl Iterator<Item = ObjectKey> + '_ {
        let name = name.to_string();
        self.keys.iter().filter(move |(_, (g2, n2))| *g2 == g && *n2 == name).map(|(k, _)| k.clone())
    }

    // -- what to ask next ---------------------------------------------------

    /// The requests of a refresh ([`super::client::Client::refresh`]). Groups not
    /// listed yet are listed. Otherwise, when the transport sends batches
    /// at once (`at_once`), every group gets a watch round in one batch;
    /// else one group a watch round and the others a list right after it,
    /// the watched group rotating from refresh to refresh.
    pub(super) fn refresh_steps(&mut self, at_once: bool) -> Vec<Step> {
        let listing = self.needs_list();
        let n = self.groups.len();
        self.round = self.round.wrapping_add(1);
        let at = |g: &Group| match &g.stream {
            Stream::At(rv) => Some(rv.clone()),
            Stream::Unlisted => None,
        };
        if !listing && at_once {
            let live = (0..n).filter(|&g| self.groups[g].live());
            return vec![Step::WatchAll(live.map(|g| (g, at(&self.groups[g]).unwrap_or_default())).collect())];
        }
        let first = if n == 0 { 0 } else { self.round % n };
        let mut watched = false;
        let mut steps = Vec::new();
        for g in (first..n).chain(0..first) {
            let group = &self.groups[g];
            if !group.live() || (listing && group.stream != Stream::Unlisted) {
                continue;
            }
            match at(group).filter(|_| !watched) {
                Some(rv) => {
                    watched = true;
                    steps.push(Step::Watch(g, rv));
                }
                None => steps.push(Step::List(g)),
            }
        }
        steps
    }

    /// The long poll of a look at wall time `now` ([`super::client::Client::look`]),
    /// or [`Step::Refresh`] where a look cannot serve: a group not listed,
    /// none whose resource a watch cache serves and whose resourceVersion
    /// reads as a number, or a group too wide to list at each look.
    /// `bounded`: whether the long poll may be bounded by the request's own
    /// `timeout` (the transport survives a reset stream); `affords`: whether
    /// Helm's request budget (`super::throttle`) holds this many requests.
    pub(super) fn look_step(&mut self, now: u64, bounded: bool, affords: &mut dyn FnMut(usize) -> bool) -> Step {
        let live: Vec<&Group> = self.groups.iter().filter(|g| g.live()).collect();
        let pollable: Vec<usize> = (0..self.groups.len())
            .filter(|&g| {
                let g = &self.groups[g];
                g.live() && !matches!(g.follow, Follow::Uncached { .. }) && g.stream.revision().is_some()
            })
            .collect();
        if pollable.is_empty() || live.iter().any(|g| g.follow.wide() || g.stream.revision().is_none()) {
            return Step::Refresh;
        }
        let lead = pollable[self.round % pollable.len()];
        self.round = self.round.wrapping_add(1);
        let seen = live.iter().filter_map(|g| g.stream.revision()).max().unwrap_or_default();
        // A list of a revision older than an object it tracks does not show that object, which
        // would read as deleted: one created into a group already followed is newer than the
        // group's last list (two releases' hooks in one namespace showed it), so never ask for
        // less than the newest object known.
        let newest = live
            .iter()
            .flat_map(|g| g.objects.values())
            .filter_map(|o| o.pointer("/metadata/resourceVersion")?.as_str()?.parse::<u64>().ok())
            .max()
            .unwrap_or_default();
        // While a change is expected soon and within Helm's budget, the cluster's next write
        // answers: a readiness written right before the cluster goes quiet is seen at once, not
        // when a look that asked for more ends (3 s later, when the pace came from a deploy's own
        // burst of writes). Past the budget, or in a long wait, the pace keeps looks to about four
        // a second, fewer as the wait goes on. A look costs a list of each live group.
        let ahead = if self.pace.expected_soon(now) && affords(live.len()) { 1 } else { self.pace.ahead(now) };
        let wanted = seen.saturating_add(ahead).max(newest);
        // Bounded by the request's own `timeout` only where a reset stream is an error to
        // repeat (Transport::survives_reset); else by the watch cache's 3 s.
        let within_ms = if bounded { self.pace.within(now) } else { None };
        Step::Look { lead, wanted, within_ms }
    }

    // -- what the cluster answered ------------------------------------------

    /// Takes a group's watch round in: its events, and where the next round
    /// starts; a group whose resourceVersion expired is listed afresh.
    pub(super) fn take_round(&mut self, g: usize, round: WatchRound, changed: &mut BTreeSet<ObjectKey>) -> Vec<Step> {
        let group = &mut self.groups[g];
        let names: Vec<String> = round.events.into_iter().filter_map(|ev| group.apply(ev)).collect();
        // Expired: the stream since then is lost; list afresh.
        group.stream = if round.expired { Stream::Unlisted } else { Stream::At(round.resource_version) };
        for name in names {
            changed.extend(self.keys_of(g, &name));
        }
        if round.expired {
            vec![Step::List(g)]
        } else {
            Vec::new()
        }
    }

    /// Takes a list of a group in: its objects as they are now (one that is
    /// gone keeps its last state seen), and the resourceVersion to go on
    /// from; a replay of the stream when an object went away unseen.
    pub(super) fn take_list(&mut self, g: usize, list: ObjectList, changed: &mut BTreeSet<ObjectKey>) -> Vec<Step> {
        let group = &mut self.groups[g];
        let since = std::mem::replace(&mut group.stream, Stream::At(list.resource_version.clone()));
        let wide = list.items.len() > WIDE_FACTOR * group.names.len() + WIDE_EXTRA && list.bytes > WIDE_BYTES;
        group.follow = match group.follow {
            Follow::Uncached { .. } => Follow::Uncached { wide },
            _ if wide => Follow::Wide,
            _ => Follow::Look,
        };
        let before = std::mem::take(&mut group.objects);
        for item in list.items {
            let name = item.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
            if group.names.contains(&name) {
                group.gone.remove(&name);
                group.objects.insert(name, item);
            }
        }
        let vanished: Vec<String> = before.keys().filter(|n| !group.objects.contains_key(*n)).cloned().collect();
        for name in &vanished {
            group.gone.insert(name.clone(), final_state(before[name].clone()));
        }
        let moved: Vec<String> = group
            .names
            .iter()
            .filter(|name| !before.contains_key(*name) || before.get(*name) != group.objects.get(*name))
            .cloned()
            .collect();
        for name in moved {
            changed.extend(self.keys_of(g, &name));
        }
        // The list shows only that they went away; the stream since the
        // previous round has how they ended.
        match since {
            Stream::At(since) if !vanished.is_empty() => vec![Step::Replay { group: g, since, vanished }],
            _ => Vec::new(),
        }
    }

    /// Takes the replay of a group's stream in: the final states of the
    /// objects that `vanished` from its list.
    pub(super) fn take_replay(&mut self, g: usize, vanished: &[String], replay: WatchRound) {
        let group = &mut self.groups[g];
        for ev in replay.events {
            let name = ev.name().to_string();
            if vanished.contains(&name) && !group.objects.contains_key(&name) {
                group.gone.insert(name, final_state(ev.object));
            }
        }
    }

    /// Takes the answer to a look's long poll of `lead` in, at wall time
    /// `now`: its list, then a list of each other group as of its revision;
    /// or, when no watch cache serves the lead's resource, a refresh
    /// instead; or, when the cluster wrote less than asked for within the
    /// look's time, nothing (what it wrote, the next look gets at once).
    pub(super) fn take_look(
        &mut self,
        lead: usize,
        fresh: Fresh,
        now: u64,
        changed: &mut BTreeSet<ObjectKey>,
    ) -> Vec<Step> {
        let list = match fresh {
            Fresh::Listed(list) => list,
            Fresh::NotYet { cached: false } => {
                // The lead of a look was not wide (Tracker::look_step).
                self.groups[lead].follow = Follow::Uncached { wide: false };
                return vec![Step::Refresh];
            }
            Fresh::NotYet { cached: true } => {
                self.pace.quiet();
                return Vec::new();
            }
        };
        let at = list.resource_version.clone();
        if let Ok(rv) = at.parse::<u64>() {
            self.pace.answered(rv, now);
        }
        let mut steps = self.take_list(lead, list, changed);
        // The others as of the same revision: their caches have it, or will within 0.1 s.
        let others = (0..self.groups.len()).filter(|&g| g != lead && self.groups[g].live());
        steps.extend(others.map(|group| Step::ListAsOf { group, at: at.clone() }));
        steps.push(Step::Looked);
        steps
    }

    /// A look at wall time `now` is over; it saw a tracked object change
    /// (`changed`) or not.
    pub(super) fn looked(&mut self, changed: bool, now: u64) {
        self.pace.looked(changed, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> ApiResource {
        ApiResource { api_version: "batch/v1".into(), kind: "Job".into(), plural: "jobs".into(), namespaced: true }
    }

    fn key(ns: &str, name: &str) -> ObjectKey {
        ObjectKey::new("batch/v1", "Job", Some(ns), name)
    }

    fn job(name: &str, rv: &str) -> Value {
        serde_json::json!({"metadata": {"name": name, "resourceVersion": rv}})
    }

    fn list(rv: &str, items: Vec<Value>) -> ObjectList {
        ObjectList { items, resource_version: rv.into(), bytes: 0 }
    }

    fn round(rv: &str, events: Vec<(EventType, Value)>, expired: bool) -> WatchRound {
        let events = events.into_iter().map(|(kind, object)| WatchEvent { kind, object }).collect();
        WatchRound { events, resource_version: rv.into(), expired }
    }

    /// A tracker of Job `a` in namespaces `x` and `y`, both listed at 3.
    fn two_groups() -> (Tracker, BTreeSet<ObjectKey>) {
        let mut t = Tracker::new(Some("run=1"));
        for ns in ["x", "y"] {
            t.add(&key(ns, "a"), jobs(), Some(ns.into()));
        }
        let mut changed = BTreeSet::new();
        assert_eq!(t.refresh_steps(false), vec![Step::List(1), Step::List(0)], "listed first, rotating");
        for g in [0, 1] {
            assert!(t.take_list(g, list("3", vec![job("a", "2")]), &mut changed).is_empty());
        }
        (t, changed)
    }

    #[test]
    fn a_refresh_lists_first_then_watches_one_group_and_lists_the_others_or_all_at_once() {
        let (mut t, changed) = two_groups();
        assert_eq!(changed, BTreeSet::from([key("x", "a"), key("y", "a")]));
        assert!(!t.needs_list());
        assert_eq!(t.refresh_steps(false), vec![Step::Watch(0, "3".into()), Step::List(1)]);
        assert_eq!(t.refresh_steps(false), vec![Step::Watch(1, "3".into()), Step::List(0)]);
        assert_eq!(t.refresh_steps(true), vec![Step::WatchAll(vec![(0, "3".into()), (1, "3".into())])]);
    }

    #[test]
    fn an_expired_round_asks_for_a_list_and_a_list_that_misses_an_end_for_a_replay() {
        let (mut t, _) = two_groups();
        let mut changed = BTreeSet::new();
        let ended = job("a", "4");
        assert_eq!(
            t.take_round(0, round("4", vec![(EventType::Modified, ended)], true), &mut changed),
            [Step::List(0)]
        );
        assert_eq!(changed, BTreeSet::from([key("x", "a")]), "the events before the expiry count");
        assert!(t.needs_list());
        changed.clear();
        let steps = t.take_list(1, list("6", vec![]), &mut changed);
        assert_eq!(steps, [Step::Replay { group: 1, since: "3".into(), vanished: vec!["a".into()] }]);
        assert_eq!(changed, BTreeSet::from([key("y", "a")]));
        let mut failed = job("a", "5");
        failed["status"] = serde_json::json!({"failed": 1});
        t.take_replay(1, &["a".into()], round("6", vec![(EventType::Deleted, failed)], false));
        assert_eq!(t.observed(&key("y", "a")).last().unwrap()["status"]["failed"], 1);
    }

    #[test]
    fn objects_applied_at_once_are_followed_from_the_oldest() {
        // Answers in the batch's order: b (5) was written before a (7).
        let mut t = Tracker::new(Some("run=1"));
        t.add_known(&key("x", "a"), jobs(), Some("x".into()), &job("a", "7"));
        t.add_known(&key("x", "b"), jobs(), Some("x".into()), &job("b", "5"));
        t.add_known(&key("x", "c"), jobs(), Some("x".into()), &job("c", "6"));
        assert_eq!(t.refresh_steps(true), vec![Step::WatchAll(vec![(0, "5".into())])]);
    }

    #[test]
    fn a_look_asks_past_the_newest_revision_seen_and_gives_way_to_rounds_where_it_cannot_serve() {
        let (mut t, _) = two_groups();
        t.add_known(&key("x", "b"), jobs(), Some("x".into()), &job("b", "25"));
        match t.look_step(0, true, &mut |_| false) {
            Step::Look { wanted, within_ms, .. } => assert_eq!((wanted, within_ms), (25, Some(1_000))),
            other => panic!("{other:?}"),
        }
        let Step::Look { lead, .. } = t.look_step(0, false, &mut |_| false) else { panic!() };
        let mut changed = BTreeSet::new();
        assert_eq!(t.take_look(lead, Fresh::NotYet { cached: true }, 0, &mut changed), []);
        assert_eq!(t.take_look(lead, Fresh::NotYet { cached: false }, 0, &mut changed), [Step::Refresh]);
        let Step::Look { lead: other, .. } = t.look_step(0, false, &mut |_| false) else { panic!() };
        assert_ne!(other, lead, "an uncached group is never the lead");
        let steps = t.take_look(other, Fresh::Listed(list("30", vec![job("a", "2")])), 0, &mut changed);
        assert_eq!(steps, [Step::ListAsOf { group: lead, at: "30".into() }, Step::Looked]);
        t.add(&key("z", "a"), jobs(), Some("z".into()));
        assert_eq!(t.look_step(0, true, &mut |_| false), Step::Refresh, "a group not listed yet");
    }

    #[test]
    fn within_helms_budget_a_look_is_answered_by_the_next_write_whatever_the_pace() {
        let (mut t, mut changed) = two_groups();
        // A burst: 400 revisions in a second, so the pace asks for 100 ahead.
        for (rv, at) in [("100", 0), ("500", 1_000)] {
            let Step::Look { lead, .. } = t.look_step(at, false, &mut |_| false) else { panic!() };
            t.take_look(lead, Fresh::Listed(list(rv, vec![job("a", "2")])), at, &mut changed);
        }
        let mut asked = Vec::new();
        let Step::Look { wanted, .. } = t.look_step(1_000, false, &mut |n| {
            asked.push(n);
            true
        }) else {
            panic!()
        };
        assert_eq!((wanted, asked), (501, vec![2]), "the next write; a look lists both groups");
        let Step::Look { wanted, .. } = t.look_step(1_000, false, &mut |_| false) else { panic!() };
        assert_eq!(wanted, 600, "past the budget: the pace");
        t.looked(false, 1_000);
        let Step::Look { wanted, .. } = t.look_step(60_000, false, &mut |_| true) else { panic!() };
        assert!(wanted > 501, "still for a minute: looked at less often, budget or not ({wanted})");
    }
}
