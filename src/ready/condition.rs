//! What an awaited object is awaited for, as conditions judged on its latest
//! state, in the spirit of kube-runtime's `wait::Condition` (a condition
//! is a value; `conditions::is_job_completed` is one; they compose): here a
//! condition says more than yes or no — ready (done), failed, or not yet,
//! each with why ([`Health`]) — and says too what an object that went away
//! means. The rules every command waits by are made here: a resource's
//! ([`resource`]: its HIP-0025 expressions, else its kind's kstatus, a Job
//! ready once started unless it must complete, [`jobs_complete`]), a hook's
//! ([`HookDone`]: Helm's Job and Pod completion), an external dependency's
//! ([`External`]) and a CRD's ([`crd_established`]).

use serde_json::Value;

use super::completion::{hook_completion, Completion};
use super::expr::{Readiness, ReadinessStatus};
use super::kstatus::{self, Health};

/// What is known of an awaited object: live, or gone with its final state.
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

fn in_progress(reason: impl Into<String>) -> Health {
    Health::InProgress { reason: reason.into() }
}

/// Whether a verdict ends the wait for its object: ready or failed.
pub(crate) fn settled(h: &Health) -> bool {
    !matches!(h, Health::InProgress { .. })
}

/// What an object is awaited for.
pub(crate) trait Condition {
    /// What the condition says of the object's latest state.
    fn judge(&self, object: &Value) -> Health;

    /// What it says of an object that went away, `last` its verdict on the
    /// object's final state (`None`: never seen). By default one counts by
    /// its final state (a Job the TTL controller deletes once complete is
    /// done), and is awaited until it comes back (or the deadline passes)
    /// when that state was still in progress.
    fn gone(&self, last: Option<Health>) -> Health {
        awaited_when_gone(last)
    }

    /// This condition, but never failed: what it says fails is in progress.
    fn patient(self) -> Patient<Self>
    where
        Self: Sized,
    {
        Patient(self)
    }

    /// This condition, and where it is in progress, ready once `other` is.
    fn or<C: Condition>(self, other: C) -> Or<Self, C>
    where
        Self: Sized,
    {
        Or(self, other)
    }
}

/// [`Condition::gone`] by default.
fn awaited_when_gone(last: Option<Health>) -> Health {
    match last {
        Some(Health::InProgress { .. }) => in_progress("deleted while not ready"),
        Some(done) => done,
        None => in_progress("not found yet"),
    }
}

/// What `condition` says of an awaited object as observed.
pub(crate) fn verdict<C: Condition + ?Sized>(condition: &C, seen: Observed<'_>) -> Health {
    match seen {
        Observed::Live(o) => condition.judge(o),
        Observed::Gone { last } => condition.gone(last.map(|o| condition.judge(o))),
    }
}

/// [`Condition::or`]: the first condition's verdict, unless it is in
/// progress and the second's is ready.
pub(crate) struct Or<A, B>(A, B);

impl<A: Condition, B: Condition> Condition for Or<A, B> {
    fn judge(&self, object: &Value) -> Health {
        match self.0.judge(object) {
            Health::InProgress { .. } if self.1.judge(object) == Health::Ready => Health::Ready,
            first => first,
        }
    }
}

/// [`Condition::patient`]: ready as the condition is, in progress however
/// else it is — a failure is waited past, until the deadline.
pub(crate) struct Patient<C>(C);

impl<C: Condition> Condition for Patient<C> {
    fn judge(&self, object: &Value) -> Health {
        match self.0.judge(object) {
            Health::Failed { reason } => Health::InProgress { reason },
            v => v,
        }
    }
}

/// A CRD of `crds/` is awaited until Established, kstatus's reading of a
/// CRD, as Helm awaits it: one whose names are refused is waited for until
/// its minute runs out, as Helm's waiter does.
pub(crate) fn crd_established() -> Patient<Kstatus<'static>> {
    Kstatus("CustomResourceDefinition").patient()
}

/// kstatus's rules for the object's kind, as Helm 4's waiter reads them
/// ([`kstatus::health`]): the kind's own readiness.
pub(crate) struct Kstatus<'a>(&'a str);

impl Condition for Kstatus<'_> {
    fn judge(&self, object: &Value) -> Health {
        kstatus::health(self.0, object)
    }
}

/// A Job that has started, as kstatus calls a Job current: it has a start
/// time. Helm's `--wait` (without `--wait-for-jobs`) waits for no more.
pub(crate) struct JobStarted;

impl Condition for JobStarted {
    fn judge(&self, object: &Value) -> Health {
        if kstatus::job_started(object) {
            Health::Ready
        } else {
            in_progress("")
        }
    }
}

/// A chart's HIP-0025 expressions ([`Readiness`]): failure wins, then any
/// success; pending says what the object has now against each success
/// expression.
pub(crate) struct Declared<'a>(&'a Readiness);

impl Condition for Declared<'_> {
    fn judge(&self, object: &Value) -> Health {
        match self.0.evaluate(object) {
            ReadinessStatus::Ready => Health::Ready,
            ReadinessStatus::Failed => Health::Failed { reason: "a helm.sh/readiness-failure expression holds".into() },
            ReadinessStatus::Pending => in_progress(self.0.waiting_for(object)),
        }
    }
}

/// By plan item, whether a Job resource is awaited until complete rather
/// than started: all with `--wait-for-jobs`, otherwise one something is
/// ordered after (`ordered_after`: a `helm.sh/depends-on` names it, or a
/// later batch follows its batch). Being ordered after a Job means after its
/// work (a migration), not its start; a Job nothing waits for is judged as
/// `helm --wait` judges it (docs/design.md §4).
pub(crate) fn jobs_complete(wait_for_jobs: bool, mut ordered_after: Vec<bool>) -> Vec<bool> {
    if wait_for_jobs {
        ordered_after.fill(true);
    }
    ordered_after
}

/// A resource's readiness: its HIP-0025 expressions when it has both
/// (`declared`), otherwise its kind's rules; a Job counts as ready once
/// started, as `helm install --wait` counts it, unless `complete_job`
/// ([`jobs_complete`]): then only once complete, as with `--wait-for-jobs`.
pub(crate) fn resource<'a>(
    kind: &'a str,
    declared: Option<&'a Readiness>,
    complete_job: bool,
) -> Box<dyn Condition + 'a> {
    match declared {
        Some(r) => Box::new(Declared(r)),
        None if kind == "Job" && !complete_job => Box::new(Kstatus(kind).or(JobStarted)),
        None => Box::new(Kstatus(kind)),
    }
}

/// A hook's Job or Pod has ended, by Helm's rules ([`hook_completion`]):
/// ready once it succeeded, failed with its reason and message. One that
/// went away while it ran — deleted by someone else — failed: Helm's legacy
/// waiter counts that as done; we report it.
pub(crate) struct HookDone<'a> {
    pub(crate) kind: &'a str,
    pub(crate) name: &'a str,
}

impl Condition for HookDone<'_> {
    fn judge(&self, object: &Value) -> Health {
        match hook_completion(self.kind, object) {
            Some(Completion::Succeeded { .. }) => Health::Ready,
            Some(Completion::Failed { reason, message }) => Health::Failed {
                reason: match (reason.is_empty(), message.is_empty()) {
                    (false, false) => format!("{reason}: {message}"),
                    (true, _) => message,
                    (false, true) => reason,
                },
            },
            Some(Completion::InProgress) | None => in_progress(""),
        }
    }
    fn gone(&self, last: Option<Health>) -> Health {
        match last {
            Some(Health::InProgress { .. }) | None => {
                Health::Failed { reason: format!("{}/{} disappeared while it ran", self.kind, self.name) }
            }
            Some(done) => done,
        }
    }
}

/// An object outside the release that a resource waits for
/// (`helm.sh/depends-on-external`): that it exists, or (`ready`) that it
/// is ready by its kind's rules. One that went away is not there, however it
/// ended.
pub(crate) struct External<'a> {
    pub(crate) kind: &'a str,
    pub(crate) ready: bool,
}

impl Condition for External<'_> {
    fn judge(&self, object: &Value) -> Health {
        if self.ready {
            kstatus::health(self.kind, object)
        } else {
            Health::Ready
        }
    }
    fn gone(&self, last: Option<Health>) -> Health {
        in_progress(if last.is_some() { "deleted" } else { "not found yet" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_job_resource_is_ready_once_started_unless_it_must_complete() {
        let started = json!({"kind": "Job", "status": {"startTime": "2026-01-01T00:00:00Z", "active": 1}});
        assert_eq!(resource("Job", None, false).judge(&started), Health::Ready);
        assert!(!settled(&resource("Job", None, true).judge(&started)));
        assert!(!settled(&resource("Job", None, false).judge(&json!({"kind": "Job", "status": {}}))));
        assert_eq!(jobs_complete(true, vec![false, true]), [true, true]);
        assert_eq!(jobs_complete(false, vec![false, true]), [false, true]);
    }

    #[test]
    fn a_crd_is_awaited_until_established_even_past_a_failure() {
        let crd = |t: &str, status: &str| json!({"status": {"conditions": [{"type": t, "status": status}]}});
        assert_eq!(crd_established().judge(&crd("Established", "True")), Health::Ready);
        let refused = crd("NamesAccepted", "False");
        assert!(matches!(Kstatus("CustomResourceDefinition").judge(&refused), Health::Failed { .. }));
        assert!(matches!(crd_established().judge(&refused), Health::InProgress { .. }));
    }

    #[test]
    fn what_an_object_gone_or_never_seen_means() {
        let running = json!({"kind": "Job", "status": {"active": 1}});
        let complete = json!({"kind": "Job", "status": {"conditions": [{"type": "Complete", "status": "True"}]}});
        let hook = HookDone { kind: "Job", name: "j" };
        assert_eq!(verdict(&hook, Observed::Gone { last: Some(&complete) }), Health::Ready);
        let disappeared = Health::Failed { reason: "Job/j disappeared while it ran".into() };
        assert_eq!(verdict(&hook, Observed::Gone { last: Some(&running) }), disappeared);
        assert_eq!(verdict(&hook, Observed::Gone { last: None }), disappeared);
        let job = resource("Job", None, true);
        assert_eq!(verdict(&*job, Observed::Gone { last: Some(&complete) }), Health::Ready);
        assert_eq!(verdict(&*job, Observed::Gone { last: Some(&running) }), in_progress("deleted while not ready"));
        assert_eq!(verdict(&*job, Observed::Gone { last: None }), in_progress("not found yet"));
        let secret = External { kind: "Secret", ready: false };
        assert_eq!(verdict(&secret, Observed::Live(&json!({}))), Health::Ready);
        assert_eq!(verdict(&secret, Observed::Gone { last: Some(&complete) }), in_progress("deleted"));
    }
}
