//! [`Watch`]: objects awaited together, the seam's own value. The drivers
//! follow and unfollow objects and read what is known of them here, with
//! no request; one [`super::Cluster::wait`] takes the changes in (the
//! adapter keeps its own state for the set, such as `kube::Tracker`, in
//! [`Watch::adapter`]) and brings what is known up to date.

use std::any::Any;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::kube::{ObjectKey, Observed};

/// A change to the set not yet taken in by the adapter, in order.
pub(crate) enum Change {
    /// Followed, with its state when known (the answer to its apply).
    Joined(ObjectKey, Option<Value>),
    Left(ObjectKey),
}

/// What is known of one followed object.
enum Seen {
    Live(Value),
    Gone(Option<Value>),
}

/// Objects awaited together, followed from one wait to the next.
#[derive(Default)]
pub struct Watch {
    selector: Option<String>,
    seen: BTreeMap<ObjectKey, Seen>,
    changes: Vec<Change>,
    /// The adapter's own state for this set.
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
    pub(crate) fn follow(&mut self, key: &ObjectKey, known: Option<&Value>) {
        let seen = match known {
            Some(o) => Seen::Live(o.clone()),
            None => Seen::Gone(None),
        };
        self.seen.insert(key.clone(), seen);
        self.changes.push(Change::Joined(key.clone(), known.cloned()));
    }

    /// Stops awaiting `key`.
    pub(crate) fn unfollow(&mut self, key: &ObjectKey) {
        self.seen.remove(key);
        self.changes.push(Change::Left(key.clone()));
    }

    /// What is known of an awaited object: live, or gone with its final state.
    pub(crate) fn observed(&self, key: &ObjectKey) -> Observed<'_> {
        match self.seen.get(key) {
            Some(Seen::Live(o)) => Observed::Live(o),
            Some(Seen::Gone(last)) => Observed::Gone { last: last.as_ref() },
            None => Observed::Gone { last: None },
        }
    }

    // What the adapters use.

    /// The label every object of the set carries.
    pub(crate) fn selector(&self) -> Option<&str> {
        self.selector.as_deref()
    }

    /// The changes since the adapter last took them, in order.
    pub(crate) fn take_changes(&mut self) -> Vec<Change> {
        std::mem::take(&mut self.changes)
    }

    /// The keys followed.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &ObjectKey> {
        self.seen.keys()
    }

    /// Sets what is known of a followed object (one not followed is left alone).
    pub(crate) fn saw(&mut self, key: &ObjectKey, now: Observed<'_>) {
        if let Some(seen) = self.seen.get_mut(key) {
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
