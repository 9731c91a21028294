//! A scripted transport for the unit tests of `kube` and of the modules
//! above it: canned responses in, the requests seen out, and clients over
//! it (one request at a time, or at once as Helm's `kube_request`).

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use super::client::Client;
use super::config::Connection;
use super::transport::{Request, Response, ReturnOn, Transport, TransportError};

/// Replays canned responses and records the requests. A canned status 0
/// is a request that got no response: in a [`ReturnOn::AnyEvent`] batch a
/// watch stopped before it was answered, else a lost connection (its
/// body the error). With `at_once` it stands for Helm's `kube_request`:
/// batches are recorded (their size and kind).
#[derive(Clone, Default)]
pub(crate) struct Script {
    responses: Rc<RefCell<VecDeque<Response>>>,
    pub(crate) seen: Rc<RefCell<Vec<Request>>>,
    at_once: bool,
    pub(crate) batches: Rc<RefCell<Vec<(usize, ReturnOn)>>>,
}

impl Script {
    fn next(&mut self, req: &Request) -> Result<Response, TransportError> {
        self.seen.borrow_mut().push(req.clone());
        self.responses.borrow_mut().pop_front().ok_or_else(|| TransportError::Protocol {
            url: req.url.clone(),
            message: "no scripted response left".into(),
        })
    }
}

impl Transport for Script {
    fn send(&mut self, req: &Request) -> Result<Response, TransportError> {
        let r = self.next(req)?;
        if r.status == 0 {
            let message = String::from_utf8_lossy(&r.body).into_owned();
            return Err(TransportError::Io { url: req.url.clone(), message });
        }
        Ok(r)
    }

    fn send_batch(&mut self, reqs: &[Request], how: ReturnOn) -> Vec<Result<Response, TransportError>> {
        if !self.at_once {
            return reqs.iter().map(|r| self.send(r)).collect();
        }
        self.batches.borrow_mut().push((reqs.len(), how));
        reqs.iter()
            .map(|r| match how {
                ReturnOn::AnyEvent => match self.next(r) {
                    Ok(resp) if resp.status == 0 => Err(TransportError::Stopped { url: r.url.clone() }),
                    other => other,
                },
                ReturnOn::All => self.send(r),
            })
            .collect()
    }

    fn at_once(&self) -> bool {
        self.at_once
    }
}

pub(crate) fn respond(status: u16, body: &str) -> Response {
    Response { status, headers: BTreeMap::new(), body: body.as_bytes().to_vec() }
}

pub(crate) fn client(token: Option<&str>, responses: Vec<Response>) -> (Client, Script) {
    client_with(Script::default(), token, responses)
}

/// A client over Helm's `kube_request`, as [`Script`] stands for it.
pub(crate) fn host_client(responses: Vec<Response>) -> (Client, Script) {
    client_with(Script { at_once: true, ..Script::default() }, None, responses)
}

fn client_with(script: Script, token: Option<&str>, responses: Vec<Response>) -> (Client, Script) {
    script.responses.borrow_mut().extend(responses);
    let conn = Connection {
        server: "https://k:6443".into(),
        token: token.map(str::to_string),
        namespace: "rel".into(),
        impersonate_user: None,
        impersonate_group: None,
    };
    (Client::new(conn, Box::new(script.clone())), script)
}

pub(super) const BATCH_V1: &str = r#"{"kind":"APIResourceList","groupVersion":"batch/v1","resources":[{"name":"cronjobs","namespaced":true,"kind":"CronJob"},{"name":"jobs","singularName":"job","namespaced":true,"kind":"Job","verbs":["get"]},{"name":"jobs/status","namespaced":true,"kind":"Job"}]}"#;

/// A Status answer with `status` and, if given, a `Retry-After` header.
pub(super) fn after(status: u16, retry_after: Option<&str>) -> Response {
    let mut r = respond(status, r#"{"kind":"Status","message":"slow down"}"#);
    if let Some(s) = retry_after {
        r.headers.insert("retry-after".into(), s.into());
    }
    r
}
