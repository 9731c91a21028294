//! Deploying a release's resources in plan order, as a state machine
//! without I/O — the resource counterpart of [`crate::exec::executor`].
//!
//! A resource starts when its predecessors in the plan (its HIP-0025 batch
//! barrier and its `helm.sh/depends-on` targets) are ready and fewer than N
//! resources are applied but not ready yet. Starting is one server-side
//! apply; the resource is then awaited until its readiness gate (HIP-0025
//! expressions, or the kind's own rules) says ready or failed.
//!
//! Every batch gets the readiness timeout from the moment its first
//! resource is applied, capped by the overall deadline (HIP-0025: per-batch
//! wait = min(readiness timeout, time left)). The first failure — rejected
//! apply, failed readiness, timeout — ends the rollout at once: nothing new
//! is applied and nothing already applied is awaited, so a failing batch
//! never lets a later one reach the cluster.

use crate::base::time::{format_duration, Millis};
use crate::plan::frontier::Frontier;
use crate::plan::{EventPlan, ItemId};

#[derive(Debug, Clone, Copy)]
pub struct RolloutOptions {
    /// Most resources applied and not yet ready at once.
    pub parallel: usize,
    pub readiness_timeout_ms: Millis,
    /// The whole rollout's deadline (wall clock).
    pub deadline: Millis,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ResourceState {
    Pending,
    /// Applied, readiness awaited.
    Applied,
    Ready,
    Failed,
    /// Never applied: an earlier failure ended the rollout.
    Skipped,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RolloutAction {
    /// Server-side apply these resources (their plan items); answer each
    /// with [`RolloutInput::Applied`] or [`RolloutInput::Failed`].
    Apply {
        items: Vec<ItemId>,
    },
    /// Watch these resources until one is ready or failed, or `deadline`
    /// passes; answer with [`RolloutInput::Ready`], [`RolloutInput::Failed`], and
    /// [`RolloutInput::Waiting`] for the reasons of those still not ready.
    Await {
        items: Vec<ItemId>,
        deadline: Millis,
    },
    Done,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RolloutInput {
    /// Applied; `ready` when the object the API server returned is ready
    /// already (a ConfigMap, a Service), which saves a watch.
    Applied {
        item: ItemId,
        ready: bool,
    },
    Ready {
        item: ItemId,
    },
    /// Still not ready, and why (shown in progress and in the failure).
    Waiting {
        item: ItemId,
        reason: String,
    },
    Failed {
        item: ItemId,
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RolloutReport {
    BatchStarted { batch: usize, at: Millis },
    Applied { item: ItemId, at: Millis },
    Ready { item: ItemId, at: Millis },
    BatchReady { batch: usize, at: Millis },
    Failed { item: ItemId, at: Millis, message: String },
}

#[derive(Debug, Clone)]
struct Resource {
    state: ResourceState,
    applied_at: Option<Millis>,
    ready_at: Option<Millis>,
    /// When it failed: the end of its bar in a timeline report.
    failed_at: Option<Millis>,
    /// Why it is not ready yet, or why it failed.
    reason: String,
}

#[derive(Debug)]
pub struct Rollout<'p> {
    plan: &'p EventPlan,
    options: RolloutOptions,
    resources: Vec<Resource>,
    frontier: Frontier,
    applied: Vec<ItemId>,
    /// Per batch: when its first resource was applied, and how many of its
    /// resources are not ready yet.
    batch_started: Vec<Option<Millis>>,
    batch_left: Vec<usize>,
    /// An apply is out; nothing else is chosen until it is answered.
    applying: usize,
    failed: Option<ItemId>,
    reports: Vec<RolloutReport>,
    now: Millis,
}

impl<'p> Rollout<'p> {
    pub fn new(plan: &'p EventPlan, options: RolloutOptions, now: Millis) -> Self {
        let batches = plan.items.iter().map(|it| it.level as usize + 1).max().unwrap_or(0);
        let mut batch_left = vec![0; batches];
        for it in &plan.items {
            batch_left[it.level as usize] += 1;
        }
        Rollout {
            plan,
            options: RolloutOptions { parallel: options.parallel.max(1), ..options },
            resources: vec![
                Resource {
                    state: ResourceState::Pending,
                    applied_at: None,
                    ready_at: None,
                    failed_at: None,
                    reason: String::new()
                };
                plan.items.len()
            ],
            frontier: Frontier::new(plan),
            applied: Vec::new(),
            batch_started: vec![None; batches],
            batch_left,
            applying: 0,
            failed: None,
            reports: Vec::new(),
            now,
        }
    }

    pub fn state(&self, item: ItemId) -> ResourceState {
        self.resources[item.0].state
    }

    pub fn reason(&self, item: ItemId) -> &str {
        &self.resources[item.0].reason
    }

    pub(crate) fn times(&self, item: ItemId) -> (Option<Millis>, Option<Millis>) {
        (self.resources[item.0].applied_at, self.resources[item.0].ready_at)
    }

    /// When the resource failed, if it did.
    pub(crate) fn failed_at(&self, item: ItemId) -> Option<Millis> {
        self.resources[item.0].failed_at
    }

    /// The resource whose failure ended the rollout.
    pub fn failed(&self) -> Option<ItemId> {
        self.failed
    }

    #[cfg(test)]
    fn succeeded(&self) -> bool {
        self.resources.iter().all(|r| r.state == ResourceState::Ready)
    }

    /// Applied and not ready yet, in Helm order.
    pub(crate) fn waiting(&self) -> Vec<ItemId> {
        let mut w = self.applied.clone();
        crate::base::order::by(&mut w, |a, b| a.cmp(b));
        w
    }

    pub(crate) fn drain_reports(&mut self) -> Vec<RolloutReport> {
        std::mem::take(&mut self.reports)
    }

    fn batch(&self, item: ItemId) -> usize {
        self.plan.items[item].level as usize
    }

    fn batch_deadline(&self, batch: usize) -> Millis {
        let started = self.batch_started[batch].unwrap_or(self.now);
        (started + self.options.readiness_timeout_ms).min(self.options.deadline)
    }

    pub fn poll(&mut self, now: Millis) -> RolloutAction {
        self.now = self.now.max(now);
        self.expire();
        if self.failed.is_some() {
            return RolloutAction::Done;
        }
        if self.applying == 0 {
            let room = self.options.parallel.saturating_sub(self.applied.len());
            let mut items = Vec::new();
            while items.len() < room {
                match self.frontier.pop() {
                    Some(i) => items.push(i),
                    None => break,
                }
            }
            if !items.is_empty() {
                for &i in &items {
                    let b = self.batch(i);
                    if self.batch_started[b].is_none() {
                        self.batch_started[b] = Some(self.now);
                        self.reports.push(RolloutReport::BatchStarted { batch: b, at: self.now });
                    }
                }
                self.applying = items.len();
                return RolloutAction::Apply { items };
            }
        }
        if self.applied.is_empty() {
            return RolloutAction::Done;
        }
        let deadline = self.applied.iter().map(|&i| self.batch_deadline(self.batch(i))).min().unwrap_or(self.now);
        RolloutAction::Await { items: self.waiting(), deadline }
    }

    pub fn handle(&mut self, input: RolloutInput) {
        match input {
            RolloutInput::Applied { item, ready } => {
                self.applying = self.applying.saturating_sub(1);
                if self.resources[item.0].state != ResourceState::Pending {
                    return;
                }
                let r = &mut self.resources[item.0];
                r.state = ResourceState::Applied;
                r.applied_at = Some(self.now);
                self.applied.push(item);
                self.reports.push(RolloutReport::Applied { item, at: self.now });
                if ready {
                    self.make_ready(item);
                }
            }
            RolloutInput::Ready { item } => {
                if self.resources[item.0].state == ResourceState::Applied {
                    self.make_ready(item);
                }
            }
            RolloutInput::Waiting { item, reason } => {
                if self.resources[item.0].state == ResourceState::Applied {
                    self.resources[item.0].reason = reason;
                }
            }
            RolloutInput::Failed { item, message } => {
                if self.resources[item.0].state == ResourceState::Pending {
                    self.applying = self.applying.saturating_sub(1);
                }
                if matches!(self.resources[item.0].state, ResourceState::Pending | ResourceState::Applied) {
                    self.fail(item, message);
                }
            }
        }
    }

    /// Moves the clock forward (after an action that took time).
    pub(crate) fn advance(&mut self, now: Millis) {
        self.now = self.now.max(now);
    }

    fn make_ready(&mut self, item: ItemId) {
        self.applied.retain(|&i| i != item);
        let r = &mut self.resources[item.0];
        r.state = ResourceState::Ready;
        r.ready_at = Some(self.now);
        r.reason.clear();
        self.reports.push(RolloutReport::Ready { item, at: self.now });
        let b = self.batch(item);
        self.batch_left[b] -= 1;
        if self.batch_left[b] == 0 {
            self.reports.push(RolloutReport::BatchReady { batch: b, at: self.now });
        }
        self.frontier.complete(self.plan, item);
    }

    fn fail(&mut self, item: ItemId, message: String) {
        self.applied.retain(|&i| i != item);
        let r = &mut self.resources[item.0];
        r.state = ResourceState::Failed;
        r.failed_at = Some(self.now);
        r.reason = message.clone();
        self.reports.push(RolloutReport::Failed { item, at: self.now, message });
        if self.failed.is_none() {
            self.failed = Some(item);
        }
        for r in &mut self.resources {
            if r.state == ResourceState::Pending {
                r.state = ResourceState::Skipped;
            }
        }
    }

    /// Resources past their batch's deadline fail, the first in Helm order
    /// named as the cause, with the last reason it was not ready.
    fn expire(&mut self) {
        let late: Vec<ItemId> = self
            .waiting()
            .into_iter()
            .filter(|&i| self.failed.is_none() && self.now >= self.batch_deadline(self.batch(i)))
            .collect();
        for i in late {
            let b = self.batch(i);
            let waited = self.now - self.batch_started[b].unwrap_or(self.now);
            let why = match self.resources[i.0].reason.as_str() {
                "" => String::new(),
                r => format!(": {r}"),
            };
            let limit =
                if self.batch_deadline(b) == self.options.deadline { "--timeout" } else { "--readiness-timeout" };
            self.fail(i, format!("not ready after {} ({limit}){why}", format_duration(waited / 100 * 100)));
        }
    }
}

/// The order in which resources are deleted when a release is uninstalled
/// or an upgrade drops them: batches in reverse, and within a batch the
/// reverse of Helm order (dependents before what they depend on). Each
/// inner list is deleted, and awaited gone, before the next.
pub(crate) fn deletion_batches(plan: &EventPlan) -> Vec<Vec<ItemId>> {
    let batches = plan.items.iter().map(|it| it.level as usize + 1).max().unwrap_or(0);
    let mut members = vec![Vec::new(); batches];
    for (i, it) in plan.ids().zip(&plan.items) {
        members[it.level as usize].push(i);
    }
    let mut out: Vec<Vec<ItemId>> = members.into_iter().rev().map(|m| install_order(plan, m)).collect();
    for batch in &mut out {
        batch.reverse();
    }
    out.retain(|b| !b.is_empty());
    out
}

/// A batch's items in the order a one-at-a-time install applies them:
/// Helm order, except that an item comes after what it depends on.
fn install_order(plan: &EventPlan, members: Vec<ItemId>) -> Vec<ItemId> {
    let mut waiting: Vec<(ItemId, usize)> =
        members.iter().map(|&i| (i, plan.items[i].after.iter().filter(|(p, _)| members.contains(p)).count())).collect();
    let mut out = Vec::with_capacity(members.len());
    while !waiting.is_empty() {
        // The plan has no cycles; the fallback only guards against panics.
        let next = waiting.iter().position(|&(_, n)| n == 0).unwrap_or(0);
        let (i, _) = waiting.remove(next);
        for (j, n) in &mut waiting {
            if plan.items[*j].after.iter().any(|(p, _)| *p == i) {
                *n = n.saturating_sub(1);
            }
        }
        out.push(i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::diagnostic::Diagnostics;
    use crate::model::input;
    use crate::plan::{self, Target};

    const CHART: &str = r#"---
# Source: app/templates/db.yaml
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  annotations:
    helm.sh/resource-group: db
---
# Source: app/templates/migrate.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/resource-group: app
    helm.sh/depends-on/resource-groups: '["db"]'
---
# Source: app/templates/api.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  annotations:
    helm.sh/resource-group: app
    helm.sh/depends-on/resource-groups: '["db"]'
    helm.sh/depends-on: Job/migrate
---
# Source: app/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
"#;

    fn plan_of(text: &str, parallel: usize) -> EventPlan {
        let mut d = Diagnostics::default();
        let (_, r) = input::parse(text.as_bytes(), &mut d).unwrap();
        let p = plan::build(
            &r,
            &[Target::Install],
            plan::PlanOptions { parallel_resources: Some(parallel), ..Default::default() },
            &mut d,
        );
        assert!(!d.has_errors(), "{d:?}");
        p.events.into_iter().next().unwrap()
    }

    fn item(p: &EventPlan, name: &str) -> ItemId {
        ItemId(p.items.iter().position(|it| it.reference.name == name).unwrap())
    }

    fn opts() -> RolloutOptions {
        RolloutOptions { parallel: 8, readiness_timeout_ms: 60_000, deadline: 300_000 }
    }

    #[test]
    fn batches_in_order_and_depends_on_within_a_batch() {
        let p = plan_of(CHART, 8);
        let (db, migrate, api, cm) = (item(&p, "db"), item(&p, "migrate"), item(&p, "api"), item(&p, "settings"));
        let mut r = Rollout::new(&p, opts(), 0);
        assert_eq!(r.poll(0), RolloutAction::Apply { items: vec![db] });
        r.handle(RolloutInput::Applied { item: db, ready: false });
        assert_eq!(r.poll(0), RolloutAction::Await { items: vec![db], deadline: 60_000 });
        r.handle(RolloutInput::Waiting { item: db, reason: "0/1 ready".into() });
        r.handle(RolloutInput::Ready { item: db });
        // The API waits for the migration even though both are in `app`.
        assert_eq!(r.poll(1000), RolloutAction::Apply { items: vec![migrate] });
        r.handle(RolloutInput::Applied { item: migrate, ready: false });
        assert_eq!(r.poll(1000), RolloutAction::Await { items: vec![migrate], deadline: 61_000 });
        r.handle(RolloutInput::Ready { item: migrate });
        assert_eq!(r.poll(2000), RolloutAction::Apply { items: vec![api] });
        r.handle(RolloutInput::Applied { item: api, ready: false });
        r.poll(2000);
        r.handle(RolloutInput::Ready { item: api });
        assert_eq!(r.poll(3000), RolloutAction::Apply { items: vec![cm] });
        r.handle(RolloutInput::Applied { item: cm, ready: true });
        assert_eq!(r.poll(3000), RolloutAction::Done);
        assert!(r.succeeded());
        let batches: Vec<_> =
            r.drain_reports().into_iter().filter(|x| matches!(x, RolloutReport::BatchReady { .. })).collect();
        assert_eq!(batches.len(), 3);
    }

    #[test]
    fn a_failure_stops_later_batches_at_once() {
        let p = plan_of(CHART, 8);
        let db = item(&p, "db");
        let mut r = Rollout::new(&p, opts(), 0);
        r.poll(0);
        r.handle(RolloutInput::Applied { item: db, ready: false });
        r.poll(0);
        r.handle(RolloutInput::Failed { item: db, message: "Failed: CrashLoopBackOff".into() });
        assert_eq!(r.poll(10), RolloutAction::Done);
        assert_eq!(r.failed(), Some(db));
        assert!(p.ids().filter(|&i| i != db).all(|i| r.state(i) == ResourceState::Skipped));
    }

    #[test]
    fn a_batch_times_out_with_the_last_reason() {
        let p = plan_of(CHART, 8);
        let db = item(&p, "db");
        let mut r = Rollout::new(&p, RolloutOptions { readiness_timeout_ms: 5_000, ..opts() }, 0);
        r.poll(0);
        r.handle(RolloutInput::Applied { item: db, ready: false });
        assert_eq!(r.poll(0), RolloutAction::Await { items: vec![db], deadline: 5_000 });
        r.handle(RolloutInput::Waiting { item: db, reason: "0/1 replicas ready".into() });
        assert_eq!(r.poll(5_000), RolloutAction::Done);
        assert_eq!(r.reason(db), "not ready after 5s (--readiness-timeout): 0/1 replicas ready");
        // The overall deadline caps the batch's.
        let mut r = Rollout::new(&p, RolloutOptions { deadline: 2_000, ..opts() }, 0);
        r.poll(0);
        r.handle(RolloutInput::Applied { item: db, ready: false });
        assert_eq!(r.poll(0), RolloutAction::Await { items: vec![db], deadline: 2_000 });
        r.poll(2_500);
        assert!(r.reason(db).contains("--timeout"), "{}", r.reason(db));
    }

    #[test]
    fn at_most_n_wait_at_once() {
        let mut text = String::new();
        for i in 0..5 {
            text.push_str(&format!(
                "---\n# Source: c/templates/d{i}.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d{i}\n"
            ));
        }
        let p = plan_of(&text, 2);
        let mut r = Rollout::new(&p, RolloutOptions { parallel: 2, ..opts() }, 0);
        assert_eq!(r.poll(0), RolloutAction::Apply { items: vec![ItemId(0), ItemId(1)] });
        r.handle(RolloutInput::Applied { item: ItemId(0), ready: false });
        r.handle(RolloutInput::Applied { item: ItemId(1), ready: false });
        assert_eq!(r.poll(0), RolloutAction::Await { items: vec![ItemId(0), ItemId(1)], deadline: 60_000 });
        r.handle(RolloutInput::Ready { item: ItemId(1) });
        assert_eq!(r.poll(0), RolloutAction::Apply { items: vec![ItemId(2)] });
    }

    #[test]
    fn deletion_is_reverse_plan_order() {
        let p = plan_of(CHART, 1);
        let names: Vec<Vec<&str>> = deletion_batches(&p)
            .iter()
            .map(|b| b.iter().map(|&i| p.items[i].reference.name.as_str()).collect())
            .collect();
        assert_eq!(names, vec![vec!["settings"], vec!["api", "migrate"], vec!["db"]]);
    }
}
