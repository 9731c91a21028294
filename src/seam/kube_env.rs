//! The real [`Env`]: the Kubernetes API through one [`Client`], Helm's
//! records in its storage driver, the wall clock. A thin adapter: each step
//! is a call of `kube` or `release`, or two; a [`Watch`]'s `kube::Tracker`
//! rides in the Watch, and each wait tells the Watch what the tracker saw.

use serde_json::Value;

use crate::base::time::{wall_ms, Millis};
use crate::kube::{Client, Conflicts, KubeError, ObjectKey, Tracker};
use crate::release::storage::{self, Driver, StorageError, StoredRelease};

use super::cluster::{About, Api, Apply, Cluster, LogFrom, Read, Served, Until};
use super::store::{Clock, Pick, Store, Write};
use super::wants::Want;
use super::watch::Watch;

/// The real world: the Kubernetes API through `client`, records in Helm's
/// storage `driver`, the wall clock.
pub(crate) struct KubeEnv {
    client: Client,
    driver: Driver,
    conflicts: Conflicts,
}

impl KubeEnv {
    pub(crate) fn new(client: Client, driver: Driver) -> Self {
        KubeEnv { client, driver, conflicts: Conflicts::Fail }
    }

    /// What the release's applies (not its hooks') do with fields another
    /// manager owns: `--force-conflicts`.
    pub(crate) fn with_conflicts(self, conflicts: Conflicts) -> Self {
        KubeEnv { conflicts, ..self }
    }
}

impl Clock for KubeEnv {
    fn now_ms(&mut self) -> Millis {
        wall_ms()
    }
}

impl Cluster for KubeEnv {
    fn about(&self) -> About<'_> {
        About {
            namespace: self.client.namespace(),
            requests: (self.client.requests(), self.client.repeated()),
            at_once: self.client.at_once(),
            records: self.driver.resource(),
        }
    }

    fn apply(&mut self, objects: &[Value], how: &Apply<'_>) -> Vec<Result<Value, KubeError>> {
        let conflicts = how.conflicts.unwrap_or(self.conflicts);
        if how.together && !how.dry_run {
            return self.client.apply_many(objects, how.labels, conflicts);
        }
        let mut out = Vec::with_capacity(objects.len());
        for object in objects {
            let answer = match how.dry_run {
                true => self.client.apply_dry_run(object, how.labels, conflicts),
                false => self.client.apply(object, how.labels, conflicts),
            };
            let stop = matches!(&answer, Err(e) if !e.is_object_fault());
            out.push(answer);
            if stop {
                break;
            }
        }
        out
    }

    fn read(&mut self, what: Read<'_>) -> Result<Vec<Value>, KubeError> {
        match what {
            Read::One(key) => Ok(self.client.get_opt(key)?.into_iter().collect()),
            Read::Many { api_version, kind, namespace, selector } => {
                let res = self.client.resource(api_version, kind)?;
                let ns = self.client.effective_namespace(&res, namespace);
                Ok(self.client.list(&res, ns.as_deref(), selector)?.items)
            }
        }
    }

    fn delete_and_wait(&mut self, keys: &[ObjectKey], deadline: Millis) -> Result<Vec<ObjectKey>, KubeError> {
        self.client.delete_and_wait(keys, deadline, &mut wall_ms)
    }

    fn wait(&mut self, watch: &mut Watch, until: Until<'_>) -> Result<Vec<ObjectKey>, KubeError> {
        let mut tracker = watch.take_adapter::<Tracker>().unwrap_or_else(|| Tracker::new(watch.selector()));
        let answer = self.track(&mut tracker, watch).and_then(|()| match until {
            Until::Changed => self.client.refresh(&mut tracker),
            Until::Settled { deadline, done } => self.client.wait_any(&mut tracker, deadline, &mut wall_ms, done),
        });
        watch.saw(|key| tracker.observed(key));
        watch.keep_adapter(tracker);
        answer
    }

    fn served(&mut self, api: Api<'_>, kind: &str, deadline: Option<Millis>) -> Result<Served, KubeError> {
        let api_version = match api {
            Api::Version(v) => v.to_string(),
            Api::Group(group) => match self.client.preferred_version(group)? {
                Some(v) => v,
                None => return Ok(Served::NoGroup),
            },
        };
        let served = match deadline {
            Some(deadline) => self.client.await_kind(&api_version, kind, deadline)?,
            None => match self.client.resource(&api_version, kind) {
                Ok(_) => true,
                Err(KubeError::NoMapping { .. }) => false,
                Err(e) => return Err(e),
            },
        };
        Ok(if served { Served::Yes(api_version) } else { Served::NoKind(api_version) })
    }

    fn logs(
        &mut self,
        namespace: Option<&str>,
        pod: &str,
        container: &str,
        from: LogFrom<'_>,
    ) -> Result<(String, bool), KubeError> {
        match from {
            LogFrom::Whole => Ok((self.client.pod_log(namespace, pod, container)?, true)),
            LogFrom::Stamped(since) => self.client.pod_log_since(namespace, pod, container, since),
        }
    }

    fn check_access(&mut self, wants: &[Want], why: &str) -> Result<(), KubeError> {
        super::wants::check(&mut self.client, wants, why)
    }
}

impl KubeEnv {
    /// Takes a watch's changes into its tracker, in order: an object
    /// followed with its state known is watched from it, one not known is
    /// listed first.
    fn track(&mut self, tracker: &mut Tracker, watch: &mut Watch) -> Result<(), KubeError> {
        for (key, followed) in watch.take_changes() {
            match (followed, watch.observed(&key).last()) {
                (true, Some(known)) => self.client.track_known(tracker, &key, known)?,
                (true, None) => self.client.track(tracker, &key)?,
                (false, _) => tracker.untrack(&key),
            }
        }
        Ok(())
    }
}

impl Store for KubeEnv {
    fn history(&mut self, release: &str, pick: Pick<'_>) -> Result<Vec<StoredRelease>, StorageError> {
        match pick {
            Pick::Latest => storage::read_latest(&mut self.client, self.driver, release).map(|s| vec![s]),
            Pick::Revision(n) => storage::read_revision(&mut self.client, self.driver, release, n).map(|s| vec![s]),
            Pick::Where(wanted) => storage::history_where(&mut self.client, self.driver, release, wanted),
        }
    }

    fn write(&mut self, write: Write<'_>, now_unix: u64) -> Result<Option<StoredRelease>, StorageError> {
        match write {
            Write::Create { namespace, release } => {
                StoredRelease::create(&mut self.client, self.driver, namespace, release, now_unix).map(Some)
            }
            Write::Update(stored) => stored.save(&mut self.client, now_unix).map(|()| None),
            Write::Delete(stored) => stored.delete(&mut self.client).map(|()| None),
        }
    }

    fn not_found(&mut self, release: &str) -> StorageError {
        let namespace = self.client.namespace().to_string();
        storage::not_found(&mut self.client, self.driver, &namespace, release)
    }
}
