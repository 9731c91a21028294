//! The one waiting driver: hooks (`HookCluster`) and resources
//! (`deploy::apply`) are awaited through it alike. Each object followed on
//! the cluster carries the condition it is awaited for ([`crate::ready`]);
//! a wait is one [`Cluster::wait`] — the watch and its looks, paced by the
//! adapter (docs/design.md §5, "waiting") — that ends once some followed
//! object's condition settles (ready, done or failed) or the deadline
//! passes, and returns each settled object with its verdict, no longer
//! followed. What is still pending is asked with [`Awaiting::verdict`]:
//! the why of the progress lines.

use serde_json::Value;

use crate::base::time::Millis;
use crate::kube::{KubeError, ObjectKey, Observed};
use crate::ready::{settled, verdict, Condition, Health};

use super::cluster::Cluster;

/// Objects awaited together, each for its condition and named by the
/// caller's index of what it awaits (a plan item's, a CRD's).
pub(crate) struct Awaiting<'c, W> {
    watch: W,
    followed: Vec<(ObjectKey, usize, Box<dyn Condition + 'c>)>,
}

impl<'c, W> Awaiting<'c, W> {
    /// Nothing awaited yet; `label_selector` is a label every object it
    /// will follow carries ([`Cluster::watch`]).
    pub(crate) fn new<E: Cluster<Watch = W> + ?Sized>(env: &mut E, label_selector: Option<&str>) -> Self {
        Awaiting { watch: env.watch(label_selector), followed: Vec::new() }
    }

    /// Awaits `key`, `id`'s object, whose state `known` is (the answer to
    /// its apply), until `condition` settles.
    pub(crate) fn follow<E: Cluster<Watch = W> + ?Sized>(
        &mut self,
        env: &mut E,
        (id, key): (usize, ObjectKey),
        known: &Value,
        condition: Box<dyn Condition + 'c>,
    ) -> Result<(), KubeError> {
        env.follow(&mut self.watch, &key, known)?;
        self.followed.push((key, id, condition));
        Ok(())
    }

    /// Stops awaiting `key`; what it was followed for, if it was.
    // Out of line, as `verdict`: inlined at each caller, plugin.wasm grows by 1.3 kB.
    #[inline(never)]
    pub(crate) fn unfollow<E: Cluster<Watch = W> + ?Sized>(&mut self, env: &mut E, key: &ObjectKey) -> Option<usize> {
        env.unfollow(&mut self.watch, key);
        let at = self.followed.iter().position(|(k, ..)| k == key)?;
        Some(self.followed.swap_remove(at).1)
    }

    /// Waits until the condition of at least one followed object settles,
    /// or the clock reaches `deadline`: the settled ones, in the order the
    /// cluster gave them, each with its verdict, no longer followed.
    pub(crate) fn wait<E: Cluster<Watch = W> + ?Sized>(
        &mut self,
        env: &mut E,
        deadline: Millis,
    ) -> Result<Vec<(usize, Health)>, KubeError> {
        let followed = &self.followed;
        let mut done = |key: &ObjectKey, seen: Observed<'_>| {
            followed.iter().any(|(k, _, condition)| k == key && settled(&verdict(&**condition, seen)))
        };
        let keys = env.wait(&mut self.watch, deadline, &mut done)?;
        let mut out = Vec::new();
        for key in keys {
            let verdict = self.verdict(env, &key);
            if let (Some(verdict), Some(id)) = (verdict, self.unfollow(env, &key)) {
                out.push((id, verdict));
            }
        }
        Ok(out)
    }

    /// The verdict of `key`'s condition on what is known of it now; `None`
    /// when it is not followed.
    #[inline(never)]
    pub(crate) fn verdict<E: Cluster<Watch = W> + ?Sized>(&self, env: &E, key: &ObjectKey) -> Option<Health> {
        let (.., condition) = self.followed.iter().find(|(k, ..)| k == key)?;
        Some(verdict(&**condition, env.observed(&self.watch, key)))
    }

    /// The latest state seen of a followed object, live or final.
    pub(crate) fn last<'a, E: Cluster<Watch = W> + ?Sized>(&'a self, env: &'a E, key: &ObjectKey) -> Option<&'a Value> {
        env.observed(&self.watch, key).last()
    }
}
