//! The verbs on one object: server-side apply (alone or in batches), get,
//! create, replace, delete (alone, in batches, and until gone), and the
//! order in which Helm creates kinds ([`runs_of_kind`]).

use serde_json::{Map, Value};

use super::client::Client;
use super::error::{Doing, KubeError};
use super::key::ObjectKey;
use super::request::{self, Call, Conflicts};
use super::transport::{Response, ReturnOn};

/// A request on one object, and what to name in its error.
#[derive(Debug)]
struct ObjectOp {
    call: Call,
    verb: &'static str,
    resource: String,
    namespace: Option<String>,
    name: String,
}

impl ObjectOp {
    fn accept(&self, resp: Response, tries: u32) -> Result<Vec<u8>, KubeError> {
        let doing = Doing {
            verb: self.verb,
            resource: self.resource.clone(),
            namespace: self.namespace.as_deref(),
            name: Some(&self.name),
        };
        Client::accept(resp, tries, &doing)
    }

    /// The object the API server answered with.
    fn finish(&self, resp: Response, tries: u32) -> Result<Value, KubeError> {
        let bytes = self.accept(resp, tries)?;
        Client::decode(&self.call, &bytes)
    }
}

impl Client {
    /// Server-side apply (`fieldManager=helm`, `fieldValidation=Strict`,
    /// `force` as `conflicts` says) of `object`, with `labels` added to its
    /// metadata. The object's namespace, or the client's, is used for
    /// namespaced kinds; cluster-scoped objects lose theirs. Returns the
    /// object as the API server now has it.
    pub fn apply(&mut self, object: &Value, labels: &[(&str, &str)], conflicts: Conflicts) -> Result<Value, KubeError> {
        self.apply_as(object, labels, conflicts, false)
    }

    /// [`Client::apply`] with `dryRun=All`: the object as the API server
    /// would have it after the apply (defaults, admission, merged fields),
    /// nothing persisted.
    pub(crate) fn apply_dry_run(
        &mut self,
        object: &Value,
        labels: &[(&str, &str)],
        conflicts: Conflicts,
    ) -> Result<Value, KubeError> {
        self.apply_as(object, labels, conflicts, true)
    }

    fn apply_as(
        &mut self,
        object: &Value,
        labels: &[(&str, &str)],
        conflicts: Conflicts,
        dry_run: bool,
    ) -> Result<Value, KubeError> {
        let op = self.apply_op(object, labels, conflicts, dry_run)?;
        let (resp, tries) = self.send_retrying(&op.call)?;
        op.finish(resp, tries)
    }

    /// [`Client::apply`] of several objects in one batch of requests
    /// ([`Transport::send_batch`](super::transport::Transport::send_batch): at once
    /// under Helm's `kube_request`, one after another otherwise). Each
    /// object's outcome, in order: an object's error does not stop the
    /// others. Objects that depend on one another (a Namespace and what it
    /// holds) belong in separate batches, as Helm applies kinds in turn.
    ///
    /// The answers end with the first that is not the object's fault (a
    /// cluster or permission error): with a transport that does not send
    /// [at once](Client::at_once), objects are applied one by one and
    /// none after it is sent.
    pub(crate) fn apply_many(
        &mut self,
        objects: &[Value],
        labels: &[(&str, &str)],
        conflicts: Conflicts,
    ) -> Vec<Result<Value, KubeError>> {
        let cluster_error = |r: &Result<Value, KubeError>| r.as_ref().is_err_and(|e| !e.is_object_fault());
        if !self.at_once() {
            let mut out = Vec::with_capacity(objects.len());
            for o in objects {
                let r = self.apply(o, labels, conflicts);
                let stop = cluster_error(&r);
                out.push(r);
                if stop {
                    break;
                }
            }
            return out;
        }
        let ops: Vec<Result<ObjectOp, KubeError>> =
            objects.iter().map(|o| self.apply_op(o, labels, conflicts, false)).collect();
        let calls: Vec<Call> = ops.iter().filter_map(|op| op.as_ref().ok().map(|op| op.call.clone())).collect();
        let mut answers = self.send_batch_retrying(&calls, ReturnOn::All).into_iter();
        let mut out = Vec::with_capacity(objects.len());
        for op in ops {
            let r = op.and_then(|op| {
                let (resp, tries) = answers.next().expect("one answer per call")?;
                op.finish(resp, tries)
            });
            let stop = cluster_error(&r);
            out.push(r);
            if stop {
                break;
            }
        }
        out
    }

    /// The request of a server-side apply, and how to read its answer.
    fn apply_op(
        &mut self,
        object: &Value,
        labels: &[(&str, &str)],
        conflicts: Conflicts,
        dry_run: bool,
    ) -> Result<ObjectOp, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let mut body = object.clone();
        let meta = body
            .as_object_mut()
            .ok_or(KubeError::Incomplete("object body"))?
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
            .ok_or(KubeError::Incomplete("metadata object"))?;
        match &ns {
            Some(ns) => {
                meta.insert("namespace".into(), Value::String(ns.clone()));
            }
            None => {
                meta.remove("namespace");
            }
        }
        if !labels.is_empty() {
            let l = meta.entry("labels").or_insert_with(|| Value::Object(Map::new()));
            if !l.is_object() {
                *l = Value::Object(Map::new());
            }
            let l = l.as_object_mut().expect("labels is an object");
            for (k, v) in labels {
                l.insert((*k).to_string(), Value::String((*v).to_string()));
            }
        }
        let bytes = serde_json::to_vec(&body)
            .map_err(|e| KubeError::Decode { what: "the object to patch".into(), source: e.into() })?;
        Ok(ObjectOp {
            call: request::apply((&res, ns.as_deref(), &key.name), bytes, conflicts, dry_run),
            verb: "patch",
            resource: res.display_name(),
            namespace: ns,
            name: key.name,
        })
    }

    /// GET one object; [`KubeError::NotFound`] when it does not exist.
    pub fn get(&mut self, key: &ObjectKey) -> Result<Value, KubeError> {
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let call = Call::get(request::object_path(&res, ns.as_deref(), &key.name));
        self.call_json(
            &call,
            &Doing { verb: "get", resource: res.display_name(), namespace: ns.as_deref(), name: Some(&key.name) },
        )
    }

    /// GET one object; `None` when it does not exist.
    pub fn get_opt(&mut self, key: &ObjectKey) -> Result<Option<Value>, KubeError> {
        match self.get(key) {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// POST a new object; [`KubeError::Conflict`]-like errors (409
    /// AlreadyExists) come back as the API server words them.
    pub(crate) fn create(&mut self, object: &Value) -> Result<Value, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let bytes = serde_json::to_vec(object)
            .map_err(|e| KubeError::Decode { what: "the object to create".into(), source: e.into() })?;
        self.call_json(
            &request::create(&res, ns.as_deref(), bytes),
            &Doing { verb: "create", resource: res.display_name(), namespace: ns.as_deref(), name: Some(&key.name) },
        )
    }

    /// PUT an object back (an update with optimistic concurrency when it
    /// carries `metadata.resourceVersion`). Returns the stored object.
    pub(crate) fn replace(&mut self, object: &Value) -> Result<Value, KubeError> {
        let key = ObjectKey::of(object)?;
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        let bytes = serde_json::to_vec(object)
            .map_err(|e| KubeError::Decode { what: "the object to update".into(), source: e.into() })?;
        let ns = ns.as_deref();
        self.call_json(
            &request::replace((&res, ns, &key.name), bytes),
            &Doing { verb: "update", resource: res.display_name(), namespace: ns, name: Some(&key.name) },
        )
    }

    /// DELETE with `propagationPolicy=Background`, as Helm deletes hooks.
    /// Returns false when the object was already gone.
    pub fn delete(&mut self, key: &ObjectKey) -> Result<bool, KubeError> {
        self.delete_uid(key).map(|uid| uid.is_some())
    }

    /// [`Client::delete`], with what was deleted: `None` when nothing was
    /// there, else the deleted object's UID (empty when the answer did not
    /// say), so that a wait follows that object and not a later one of the
    /// same name.
    fn delete_uid(&mut self, key: &ObjectKey) -> Result<Option<String>, KubeError> {
        let op = self.delete_op(key)?;
        let (resp, tries) = self.send_retrying(&op.call)?;
        Self::deleted(op.accept(resp, tries))
    }

    /// [`Client::delete_uid`] of several objects in one batch of requests;
    /// the first error, if any (in the order of `keys`), else per key what
    /// was deleted.
    pub fn delete_many(&mut self, keys: &[ObjectKey]) -> Result<Vec<Option<String>>, KubeError> {
        if !self.at_once() {
            return keys.iter().map(|k| self.delete_uid(k)).collect();
        }
        let ops = keys.iter().map(|k| self.delete_op(k)).collect::<Result<Vec<_>, _>>()?;
        let calls: Vec<Call> = ops.iter().map(|op| op.call.clone()).collect();
        let answers = self.send_batch_retrying(&calls, ReturnOn::All);
        ops.into_iter()
            .zip(answers)
            .map(|(op, answer)| {
                let (resp, tries) = answer?;
                Self::deleted(op.accept(resp, tries))
            })
            .collect()
    }

    /// A delete's answer is the object (still finalizing, `metadata.uid`) or
    /// a Status of success (`details.uid`).
    fn deleted(r: Result<Vec<u8>, KubeError>) -> Result<Option<String>, KubeError> {
        match r {
            Ok(body) => {
                let answer: Value = serde_json::from_slice(&body).unwrap_or_default();
                let uid = answer.pointer("/metadata/uid").or_else(|| answer.pointer("/details/uid"));
                Ok(Some(uid.and_then(Value::as_str).unwrap_or_default().to_string()))
            }
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn delete_op(&mut self, key: &ObjectKey) -> Result<ObjectOp, KubeError> {
        let res = self.resource(&key.api_version, &key.kind)?;
        let ns = self.effective_namespace(&res, key.namespace.as_deref());
        Ok(ObjectOp {
            call: request::delete((&res, ns.as_deref(), &key.name)),
            verb: "delete",
            resource: res.display_name(),
            namespace: ns,
            name: key.name.clone(),
        })
    }

    /// Deletes the objects (Background propagation) and waits until every
    /// one is gone or the wall clock (`now`, in ms) reaches `deadline`.
    /// Returns the keys still present at the deadline (empty: all gone).
    pub fn delete_and_wait(
        &mut self,
        keys: &[ObjectKey],
        deadline: u64,
        now: &mut dyn FnMut() -> u64,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        let deleted = self.delete_many(keys)?;
        let present: Vec<(ObjectKey, String)> =
            keys.iter().zip(deleted).filter_map(|(k, uid)| Some((k.clone(), uid?))).collect();
        self.wait_deleted(&present, deadline, now)
    }

    /// Waits until none of the objects exists, in watch rounds of one
    /// second, or until `now()` reaches `deadline`. Returns the keys still
    /// present then (empty: all gone).
    ///
    /// Each key comes with the UID of the object deleted under it: an object
    /// of the same name with another UID is a new one, not the one awaited
    /// (the ClusterRole aggregation controller re-creates a deleted
    /// aggregated ClusterRole at once, bare); an empty UID awaits any.
    pub fn wait_deleted(
        &mut self,
        keys: &[(ObjectKey, String)],
        deadline: u64,
        now: &mut dyn FnMut() -> u64,
    ) -> Result<Vec<ObjectKey>, KubeError> {
        let mut tracker = super::tracker::Tracker::new(None);
        for (key, _) in keys {
            self.track(&mut tracker, key)?;
        }
        let mut left: Vec<&(ObjectKey, String)> = keys.iter().collect();
        loop {
            self.refresh(&mut tracker)?;
            left.retain(|(k, uid)| {
                let here = tracker
                    .get(k)
                    .is_some_and(|o| uid.is_empty() || o.pointer("/metadata/uid").and_then(Value::as_str) == Some(uid));
                // What is gone is followed no more: each round's watch then
                // falls on a kind with something left to go (one object
                // held by a finalizer among fourteen kinds was seen gone a
                // round of each kind late).
                if !here {
                    tracker.untrack(k);
                }
                here
            });
            if left.is_empty() || now() >= deadline {
                return Ok(left.into_iter().map(|(k, _)| k.clone()).collect());
            }
        }
    }
}

/// `items` cut into runs of consecutive items of one kind (`kind_of`), in
/// order: what Helm creates at once (`batchPerform` in pkg/kube/client.go),
/// kinds in turn, so that a Namespace or a ServiceAccount exists before
/// what the next kind's objects need of it.
pub(crate) fn runs_of_kind<T>(items: &[T], kind_of: impl Fn(&T) -> String) -> Vec<&[T]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=items.len() {
        if i == items.len() || kind_of(&items[i]) != kind_of(&items[start]) {
            if i > start {
                runs.push(&items[start..i]);
            }
            start = i;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{after, client, host_client, respond, BATCH_V1};
    use crate::kube::transport::Method;

    #[test]
    fn apply_discovers_once_and_patches_with_labels() {
        let (mut c, script) = client(
            Some("tok"),
            vec![
                respond(200, BATCH_V1),
                respond(200, r#"{"kind":"Job","metadata":{"name":"j"}}"#),
                respond(200, r#"{"kind":"Job","metadata":{"name":"k"}}"#),
            ],
        );
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        c.apply(&job, &[("hooks.helm.sh/run", "r1")], Conflicts::Fail).unwrap();
        let job2 = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"k","namespace":"other","labels":{"a":"b"}}});
        c.apply(&job2, &[], Conflicts::Force).unwrap();
        assert_eq!(c.requests(), 3);
        let seen = script.seen.borrow();
        assert_eq!(seen[0].url, "https://k:6443/apis/batch/v1");
        assert_eq!(seen[1].method, Method::Patch);
        // Helm 4's query: strict field validation, no force unless --force-conflicts.
        assert_eq!(
            seen[1].url,
            "https://k:6443/apis/batch/v1/namespaces/rel/jobs/j?fieldManager=helm&fieldValidation=Strict"
        );
        assert!(seen[1].headers.contains(&("Content-Type".into(), "application/apply-patch+yaml".into())));
        assert!(seen[1].headers.contains(&("Authorization".into(), "Bearer tok".into())));
        let body: Value = serde_json::from_slice(seen[1].body.as_ref().unwrap()).unwrap();
        assert_eq!(body["metadata"]["labels"]["hooks.helm.sh/run"], "r1");
        assert_eq!(body["metadata"]["namespace"], "rel");
        assert_eq!(
            seen[2].url,
            "https://k:6443/apis/batch/v1/namespaces/other/jobs/k?fieldManager=helm&fieldValidation=Strict&force=true"
        );
    }

    fn job(name: &str) -> Value {
        serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":name}})
    }

    #[test]
    fn apply_many_is_one_batch_at_once_and_keeps_each_objects_outcome() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            respond(200, r#"{"kind":"Job","metadata":{"name":"a"}}"#),
            respond(422, r#"{"kind":"Status","message":"spec.template: Required value"}"#),
            respond(200, r#"{"kind":"Job","metadata":{"name":"c"}}"#),
        ]);
        let objects = [job("a"), job("b"), serde_json::json!({"kind":"Job"}), job("c")];
        let got = c.apply_many(&objects, &[("l", "v")], Conflicts::Force);
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].as_ref().unwrap()["metadata"]["name"], "a");
        let e = got[1].as_ref().unwrap_err();
        assert!(e.is_object_fault() && e.to_string().contains("Required value"), "{e}");
        assert!(matches!(got[2], Err(KubeError::Incomplete(_))), "never sent: {:?}", got[2]);
        assert_eq!(got[3].as_ref().unwrap()["metadata"]["name"], "c");
        assert_eq!(*script.batches.borrow(), vec![(3, ReturnOn::All)], "discovery alone, then one batch");
        let seen = script.seen.borrow();
        assert!(seen[1..].iter().all(
            |r| r.method == Method::Patch && r.url.contains("fieldManager=helm&fieldValidation=Strict&force=true")
        ));
        assert!(
            seen[3].url.ends_with("/namespaces/rel/jobs/c?fieldManager=helm&fieldValidation=Strict&force=true"),
            "{}",
            seen[3].url
        );
        assert_eq!(c.requests(), 4);
    }

    #[test]
    fn apply_many_ends_at_a_cluster_error() {
        // At once: all were sent; the answers end with the 403.
        let forbidden = || respond(403, r#"{"kind":"Status","message":"no"}"#);
        let (mut c, _) = host_client(vec![respond(200, BATCH_V1), respond(200, "{}"), forbidden(), respond(200, "{}")]);
        let got = c.apply_many(&[job("a"), job("b"), job("c")], &[], Conflicts::Fail);
        assert_eq!(got.len(), 2);
        assert!(matches!(got[1], Err(KubeError::Forbidden { .. })));
        // One at a time (Extism's http_request): nothing after it is sent.
        let (mut c, script) = client(None, vec![respond(200, BATCH_V1), forbidden(), respond(200, "{}")]);
        let got = c.apply_many(&[job("a"), job("b")], &[], Conflicts::Fail);
        assert_eq!(got.len(), 1);
        assert_eq!(script.seen.borrow().len(), 2);
        assert!(script.batches.borrow().is_empty());
    }

    #[test]
    fn a_429_in_a_batch_is_repeated_alone() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            after(429, Some("0")),
            respond(200, r#"{"metadata":{"name":"b"}}"#),
            respond(200, r#"{"metadata":{"name":"a"}}"#),
        ]);
        let got = c.apply_many(&[job("a"), job("b")], &[], Conflicts::Fail);
        assert_eq!(got[0].as_ref().unwrap()["metadata"]["name"], "a");
        assert_eq!(got[1].as_ref().unwrap()["metadata"]["name"], "b");
        assert_eq!(script.batches.borrow().len(), 1);
        assert!(script.seen.borrow()[3].url.contains("/jobs/a?"));
    }

    #[test]
    fn delete_many_is_one_batch_at_once() {
        let (mut c, script) = host_client(vec![
            respond(200, BATCH_V1),
            respond(200, r#"{"kind":"Status","status":"Success","details":{"name":"a","uid":"u-a"}}"#),
            respond(404, r#"{"message":"gone"}"#),
            respond(200, r#"{"kind":"Job","metadata":{"name":"c","uid":"u-c","finalizers":["f"]}}"#),
        ]);
        let job = |n: &str| ObjectKey::new("batch/v1", "Job", None, n);
        let keys = [job("a"), job("b"), job("c")];
        // What was deleted, by UID: a Status names it, a finalizing object is it.
        assert_eq!(c.delete_many(&keys).unwrap(), vec![Some("u-a".into()), None, Some("u-c".into())]);
        assert_eq!(*script.batches.borrow(), vec![(3, ReturnOn::All)]);
        assert!(script.seen.borrow()[1..].iter().all(|r| r.method == Method::Delete));
    }

    #[test]
    fn runs_of_kind_keep_order() {
        let items = ["Namespace", "ServiceAccount", "ServiceAccount", "Deployment", "ServiceAccount"];
        let runs = runs_of_kind(&items, |k| k.to_string());
        assert_eq!(runs, vec![&items[0..1], &items[1..3], &items[3..4], &items[4..5]]);
        assert!(runs_of_kind(&[] as &[&str], |k| k.to_string()).is_empty());
    }

    #[test]
    fn delete_is_background_and_tolerates_not_found() {
        let (mut c, script) = client(
            None,
            vec![
                respond(200, BATCH_V1),
                respond(200, "{}"),
                respond(404, r#"{"message":"not found"}"#),
                respond(403, r#"{"message":"no"}"#),
            ],
        );
        let key = ObjectKey::new("batch/v1", "Job", None, "j");
        assert!(c.delete(&key).unwrap());
        assert!(!c.delete(&key).unwrap());
        let e = c.delete(&key).unwrap_err();
        assert!(
            matches!(&e, KubeError::Forbidden { verb, resource, .. } if verb == "delete" && resource == "jobs.batch"),
            "{e:?}"
        );
        let seen = script.seen.borrow();
        assert_eq!(seen[1].method, Method::Delete);
        assert!(String::from_utf8_lossy(seen[1].body.as_ref().unwrap()).contains(r#""propagationPolicy":"Background""#));
    }
}
