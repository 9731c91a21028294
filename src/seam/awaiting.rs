//! The one waiting driver: hooks (`HookCluster`) and resources
//! (`deploy::apply`) are awaited through it alike. Each object followed on
//! the cluster carries the condition it is awaited for ([`crate::ready`]);
//! a wait is one [`Cluster::wait`] over a [`Watch`] — the watch and its looks, paced by the
//! adapter (docs/design.md §5, "waiting") — that ends once some followed
//! object's condition settles (ready, done or failed) or the deadline
//! passes, and returns each settled object with its verdict, no longer
//! followed. What is still pending is asked with [`Awaiting::verdict`]:
//! the why of the progress lines.

use serde_json::Value;

use crate::base::time::Millis;
use crate::kube::{KubeError, ObjectKey, Observed};
use crate::ready::{settled, verdict, Condition, Health};

use super::cluster::{Cluster, Until};
use super::watch::Watch;

/// Objects awaited together, each for its condition and named by the
/// caller's index of what it awaits (a plan item's, a CRD's).
pub(crate) struct Awaiting<'c> {
    watch: Watch,
    followed: Vec<(ObjectKey, usize, Box<dyn Condition + 'c>)>,
}

impl<'c> Awaiting<'c> {
    /// Nothing awaited yet; `label_selector` is a label every object it
    /// will follow carries ([`Watch::new`]).
    pub(crate) fn new(label_selector: Option<&str>) -> Self {
        Awaiting { watch: Watch::new(label_selector), followed: Vec::new() }
    }

    /// Awaits `key`, `id`'s object, whose state `known` is (the answer to
    /// its apply), until `condition` settles.
    pub(crate) fn follow(&mut self, (id, key): (usize, ObjectKey), known: &Value, condition: Box<dyn Condition + 'c>) {
        self.watch.follow(&key, Some(known));
        self.followed.push((key, id, condition));
    }

    /// Stops awaiting `key`; what it was followed for, if it was.
    // Out of line, as `verdict`: inlined at each caller, plugin.wasm grows by 1.3 kB.
    #[inline(never)]
    pub(crate) fn unfollow(&mut self, key: &ObjectKey) -> Option<usize> {
        self.watch.unfollow(key);
        let at = self.followed.iter().position(|(k, ..)| k == key)?;
        Some(self.followed.swap_remove(at).1)
    }

    /// Waits until the condition of at least one followed object settles,
    /// or the clock reaches `deadline`: the settled ones, in the order the
    /// cluster gave them, each with its verdict, no longer followed.
    pub(crate) fn wait<E: Cluster + ?Sized>(
        &mut self,
        env: &mut E,
        deadline: Millis,
    ) -> Result<Vec<(usize, Health)>, KubeError> {
        let followed = &self.followed;
        let mut done = |key: &ObjectKey, seen: Observed<'_>| {
            followed.iter().any(|(k, _, condition)| k == key && settled(&verdict(&**condition, seen)))
        };
        let keys = env.wait(&mut self.watch, Until::Settled { deadline, done: &mut done })?;
        let mut out = Vec::new();
        for key in keys {
            let verdict = self.verdict(&key);
            if let (Some(verdict), Some(id)) = (verdict, self.unfollow(&key)) {
                out.push((id, verdict));
            }
        }
        Ok(out)
    }

    /// The verdict of `key`'s condition on what is known of it now; `None`
    /// when it is not followed.
    #[inline(never)]
    pub(crate) fn verdict(&self, key: &ObjectKey) -> Option<Health> {
        let (.., condition) = self.followed.iter().find(|(k, ..)| k == key)?;
        Some(verdict(&**condition, self.watch.observed(key)))
    }

    /// The latest state seen of a followed object, live or final.
    pub(crate) fn last(&self, key: &ObjectKey) -> Option<&Value> {
        self.watch.observed(key).last()
    }
}
