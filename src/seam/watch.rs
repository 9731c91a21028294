//! [`Watch`]: objects awaited together, the seam's own value. The drivers
//! follow and unfollow objects and read what is known of them here, with
//! no request; one [`super::Cluster::wait`] takes the changes in (the
//! adapter keeps its own state for the set, such as `kube::Tracker`, in
//! [`Watch::adapter`]) and brings what is known up to date.

use std::any::Any;

use serde_json::Value;

use crate::kube::{ObjectKey, Observed};

/// What is known of one followed object.
enum Seen {
    Live(Value),
    Gone(Option<Value>),
}

/// Objects awaited together, followed from one wait to the next.
// Vecs, not maps: a map of its own would be another copy of the map code in
// plugin.wasm (some 7 kB). `seen` is kept sorted by key, so that a lookup
// is a binary search: a batch of a thousand objects is looked up a
// thousand times a round.
#[derive(Default)]
pub struct Watch {
    selector: Option<String>,
    seen: Vec<(ObjectKey, Seen)>,
    /// Keys followed (`true`) and unfollowed since the adapter last took
    /// them in, in order.
    changes: Vec<(ObjectKey, bool)>,
    /// The adapter's own state for the set.
    adapter: Option<Box<dyn Any>>,
}

impl Watch {
    /// A new, empty set; `label_selector` is a label every object it will
    /// hold carries (it may be listed by it).
    pub(crate) fn new(label_selector: Option<&str>) -> Self {
        Watch { selector: label_selector.map(str::to_string), ..Watch::default() }
    }

    /// Awaits the object behind `key`, whose state `known` is (the answer to
    /// its apply), or is not known yet (it may not exist): read by the next wait.
    #[inline(never)]
    pub(crate) fn follow(&mut self, key: &ObjectKey, known: Option<&Value>) {
        let seen = match known {
            Some(o) => Seen::Live(o.clone()),
            None => Seen::Gone(None),
        };
        match self.at(key) {
            Ok(at) => self.seen[at].1 = seen,
            Err(at) => self.seen.insert(at, (key.clone(), seen)),
        }
        self.changes.push((key.clone(), true));
    }

    /// Stops awaiting `key`.
    #[inline(never)]
    pub(crate) fn unfollow(&mut self, key: &ObjectKey) {
        if let Ok(at) = self.at(key) {
            self.seen.remove(at);
        }
        self.changes.push((key.clone(), false));
    }

    /// What is known of an awaited object: live, or gone with its final
    /// state. The state an object was followed with, until a wait.
    #[inline(never)]
    pub(crate) fn observed(&self, key: &ObjectKey) -> Observed<'_> {
        match self.at(key).ok().map(|at| &self.seen[at].1) {
            Some(Seen::Live(o)) => Observed::Live(o),
            Some(Seen::Gone(last)) => Observed::Gone { last: last.as_ref() },
            None => Observed::Gone { last: None },
        }
    }

    /// Where `key` is in `seen`, or where it would go.
    fn at(&self, key: &ObjectKey) -> Result<usize, usize> {
        self.seen.binary_search_by(|(k, _)| k.cmp(key))
    }

    // What the adapters use.

    /// The label every object of the set carries.
    pub(crate) fn selector(&self) -> Option<&str> {
        self.selector.as_deref()
    }

    /// The keys followed (`true`) and unfollowed since the adapter last took
    /// them, in order; one followed is known as [`Watch::observed`] says.
    pub(crate) fn take_changes(&mut self) -> Vec<(ObjectKey, bool)> {
        std::mem::take(&mut self.changes)
    }

    /// Sets what is known of each followed object to what `now` says of
    /// it. A live object whose `resourceVersion` is the one known is not
    /// copied again: a wait round of a large release would copy every
    /// object it awaits.
    #[inline(never)]
    pub(crate) fn saw<'a>(&mut self, mut now: impl FnMut(&ObjectKey) -> Observed<'a>) {
        for (key, seen) in &mut self.seen {
            let now = now(key);
            if let (Seen::Live(known), Observed::Live(new)) = (&*seen, now) {
                let version = known.pointer("/metadata/resourceVersion");
                if version.is_some() && version == new.pointer("/metadata/resourceVersion") {
                    continue;
                }
            }
            *seen = match now {
                Observed::Live(o) => Seen::Live(o.clone()),
                Observed::Gone { last } => Seen::Gone(last.cloned()),
            };
        }
    }

    /// The adapter's state for this set, taken out while it waits; `None`
    /// the first time.
    pub(crate) fn take_adapter<T: Any>(&mut self) -> Option<T> {
        let state = self.adapter.take()?.downcast::<T>().ok()?;
        Some(*state)
    }

    /// Keeps the adapter's state for the next wait.
    pub(crate) fn keep_adapter<T: Any>(&mut self, state: T) {
        self.adapter = Some(Box::new(state));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(name: &str) -> ObjectKey {
        ObjectKey::new("v1", "ConfigMap", Some("ns"), name)
    }

    #[test]
    fn follows_and_unfollows_are_known_at_once_and_handed_to_the_adapter_in_order() {
        let mut w = Watch::new(Some("app=x"));
        let known = json!({"metadata": {"name": "a", "resourceVersion": "5"}});
        w.follow(&key("a"), Some(&known));
        w.follow(&key("b"), None);
        assert!(matches!(w.observed(&key("a")), Observed::Live(o) if *o == known));
        assert!(matches!(w.observed(&key("b")), Observed::Gone { last: None }));
        w.unfollow(&key("a"));
        assert!(matches!(w.observed(&key("a")), Observed::Gone { last: None }));
        let changes: Vec<(String, bool)> = w.take_changes().into_iter().map(|(k, f)| (k.name, f)).collect();
        assert_eq!(changes, [("a".into(), true), ("b".into(), true), ("a".into(), false)]);
        assert!(w.take_changes().is_empty());
        assert_eq!((w.selector(), w.seen.len()), (Some("app=x"), 1));
    }

    #[test]
    fn what_the_adapter_saw_is_known_and_an_unchanged_version_is_not_copied_again() {
        let mut w = Watch::new(None);
        w.follow(&key("a"), Some(&json!({"metadata": {"resourceVersion": "5"}, "status": "old"})));
        // The same version: what is known stays as it was (not copied again).
        let same = json!({"metadata": {"resourceVersion": "5"}, "status": "same"});
        w.saw(|_| Observed::Live(&same));
        assert_eq!(w.observed(&key("a")).last().unwrap()["status"], "old");
        let new = json!({"metadata": {"resourceVersion": "6"}, "status": "new"});
        w.saw(|_| Observed::Live(&new));
        assert_eq!(w.observed(&key("a")).last().unwrap()["status"], "new");
        let last = json!({"metadata": {"resourceVersion": "7"}, "status": "final"});
        w.saw(|_| Observed::Gone { last: Some(&last) });
        assert!(matches!(w.observed(&key("a")), Observed::Gone { last: Some(o) } if o["status"] == "final"));
    }

    #[test]
    fn many_followed_in_any_order_are_each_found() {
        let mut w = Watch::new(None);
        let names: Vec<String> = (0..200).map(|i| format!("o{}", (i * 7919) % 200)).collect();
        for (i, n) in names.iter().enumerate() {
            w.follow(&key(n), Some(&json!({"i": i})));
        }
        for (i, n) in names.iter().enumerate() {
            assert!(matches!(w.observed(&key(n)), Observed::Live(o) if o["i"] == i), "{n}");
        }
        for n in names.iter().step_by(2) {
            w.unfollow(&key(n));
        }
        assert_eq!(w.seen.len(), 100);
        for (i, n) in names.iter().enumerate() {
            let live = matches!(w.observed(&key(n)), Observed::Live(_));
            assert_eq!(live, i % 2 == 1, "{n}");
        }
    }

    #[test]
    fn the_adapters_state_rides_in_the_watch() {
        let mut w = Watch::new(None);
        assert_eq!(w.take_adapter::<u32>(), None);
        w.keep_adapter(7u32);
        assert_eq!(w.take_adapter::<String>(), None, "another adapter's state is not taken for its own");
        w.keep_adapter(7u32);
        assert_eq!(w.take_adapter::<u32>(), Some(7));
    }
}
