//! When a request is sent again: after a 429 or a gateway error (502, 503,
//! 504, for a request safe to repeat), and while a lost connection comes
//! back (docs/design.md §5; docs/limits.md). Apart from the operations, so
//! that every one of them repeats alike.

use super::client::Client;
use super::error::KubeError;
use super::request::{self, Call};
use super::transport::{Method, Request, Response, ReturnOn, TransportError};

impl Client {
    /// Sends several requests as one batch ([`Transport::send_batch`]);
    /// every request is answered, in order, and repeated as
    /// [`Client::send_retrying`] repeats it.
    pub(super) fn send_batch_retrying(
        &mut self,
        calls: &[Call],
        how: ReturnOn,
    ) -> Vec<Result<(Response, u32), KubeError>> {
        if calls.is_empty() {
            return Vec::new();
        }
        let reqs: Vec<Request> = calls.iter().map(|c| request::http(&self.conn, c)).collect();
        self.requests += reqs.len() as u64;
        self.throttle.spend(reqs.len() as u64, crate::base::time::wall_ms());
        let span = crate::trace::span(|| format!("batch of {} ({how:?}): {}", reqs.len(), calls[0].what()));
        let mut answers = self.transport.send_batch(&reqs, how).into_iter();
        drop(span);
        let mut out = Vec::with_capacity(calls.len());
        // A lost connection is repeated request by request; once one of them
        // gives up (the server stayed away), the others are not waited for again.
        let mut gone = false;
        for (c, req) in calls.iter().zip(&reqs) {
            let answer = answers.next().unwrap_or_else(|| {
                Err(TransportError::Protocol { url: req.url.clone(), message: "the batch was not answered".into() })
            });
            out.push(match answer {
                Ok(resp) => self.retry_after(c, resp, 1),
                Err(TransportError::Io { message, .. }) if !gone && may_reconnect(&message, c.method) => {
                    self.repeated += 1;
                    let again = self.send_reconnecting(c, 2).and_then(|(resp, tries)| self.retry_after(c, resp, tries));
                    gone = again.is_err();
                    again
                }
                Err(e) => Err(e.into()),
            });
        }
        out
    }

    /// [`Client::send`], repeated while the API server answers 429 (API
    /// Priority and Fairness or the in-flight limit refused the request
    /// before doing anything, so any method may be repeated) or, for a
    /// request that is safe to repeat (not a POST: a create may have been
    /// done before a gateway's 502/503/504), 502, 503 or 504. Waits
    /// `Retry-After` seconds (Helm 4.2.4's host passes response headers;
    /// at most [`MAX_RETRY_WAIT_MS`]), else 250 ms doubling; at most
    /// [`RETRIES`] repeats. Returns the last response and how many were sent.
    ///
    /// A lost connection (only a transport that returns it as a value sees
    /// one: Helm's `kube_request`, the native build) is repeated for up to
    /// [`RECONNECT_MS`], long enough for an API server to restart: a
    /// refused connection whatever the method (nothing was sent), any other
    /// only when safe to repeat, as above.
    pub(super) fn send_retrying(&mut self, call: &Call) -> Result<(Response, u32), KubeError> {
        let (resp, tries) = self.send_reconnecting(call, 1)?;
        self.retry_after(call, resp, tries)
    }

    /// [`Client::send`], repeated while the connection is lost (see
    /// [`Client::send_retrying`]); try number `tries` first.
    pub(super) fn send_reconnecting(&mut self, call: &Call, tries: u32) -> Result<(Response, u32), KubeError> {
        let mut lost = Reconnect::after(tries);
        loop {
            match self.send(call) {
                Ok(resp) => return Ok((resp, lost.tries)),
                Err(KubeError::Transport(TransportError::Io { url, message }))
                    if may_reconnect(&message, call.method) =>
                {
                    lost.wait(message).map_err(|message| TransportError::Io { url, message })?;
                    self.repeated += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The repeats of [`Client::send_retrying`] after the answer `resp` to
    /// try number `tries`.
    pub(super) fn retry_after(
        &mut self,
        call: &Call,
        mut resp: Response,
        mut tries: u32,
    ) -> Result<(Response, u32), KubeError> {
        loop {
            let Some(wait_ms) = retry_wait(&resp, call.method, tries) else { return Ok((resp, tries)) };
            pause(wait_ms);
            tries += 1;
            self.repeated += 1;
            (resp, tries) = self.send_reconnecting(call, tries)?;
        }
    }
}

/// How long to wait before sending again a request (of `method`) whose try
/// number `tries` was answered `resp`; `None`: the answer stands.
fn retry_wait(resp: &Response, method: Method, tries: u32) -> Option<u64> {
    let again = match resp.status {
        429 => true,
        502..=504 => method != Method::Post,
        _ => false,
    };
    if !again || tries > RETRIES {
        return None;
    }
    let asked = resp.headers.get("retry-after").and_then(|v| v.trim().parse::<u64>().ok());
    Some(asked.map_or(250 << (tries - 1), |s| s.saturating_mul(1000)).min(MAX_RETRY_WAIT_MS))
}

/// Repeats after a 429 or a gateway error (see [`Client::send_retrying`]).
const RETRIES: u32 = 5;
/// How long a lost connection is repeated: an API server restarts in
/// seconds (2.3 s on the bed, from a kill to ready).
const RECONNECT_MS: u64 = 30_000;

/// Repeats of a request whose connection was lost, for up to
/// [`RECONNECT_MS`] from the first loss: 250 ms doubling, at most 4 s.
pub(crate) struct Reconnect {
    since: Option<u64>,
    /// Tries made so far.
    tries: u32,
}

impl Reconnect {
    /// After `tries` tries (the last of which lost its connection).
    pub(crate) fn after(tries: u32) -> Reconnect {
        Reconnect { since: None, tries }
    }

    /// Waits before the next try; or, once the time is up, `message` saying
    /// how long it was tried.
    pub(crate) fn wait(&mut self, message: String) -> Result<(), String> {
        let since = *self.since.get_or_insert_with(crate::base::time::wall_ms);
        let waited = crate::base::time::wall_ms().saturating_sub(since);
        if waited >= RECONNECT_MS {
            return Err(format!("{message} (tried {} times over {} s)", self.tries, waited / 1000));
        }
        pause((250u64 << (self.tries - 1).min(4)).min(RECONNECT_MS - waited));
        self.tries += 1;
        Ok(())
    }
}

/// Whether a request that got no response may be sent again: only when the
/// connection was lost (Go's and the OS's words for it, as client-go's
/// `IsProbableEOF` reads them; not a refused path or an over-long body), and
/// then always when it was refused (the request never left), else only when
/// it is safe to repeat (not a POST, which may have been done).
fn may_reconnect(message: &str, method: Method) -> bool {
    const LOST: &[&str] = &[
        "connection reset",
        "broken pipe",
        "eof",
        "unexpected end of file",
        "connection lost",
        "server closed idle connection",
        "use of closed network connection",
        "no route to host",
        "i/o timeout",
        "tls handshake timeout",
    ];
    let m = message.to_ascii_lowercase();
    m.contains("connection refused") || (method != Method::Post && LOST.iter().any(|l| m.contains(l)))
}
/// The longest wait before a repeat, whatever `Retry-After` asks.
const MAX_RETRY_WAIT_MS: u64 = 10_000;

/// Waits `ms` milliseconds. In the sandbox sleep returns at once and a long
/// poll would be refused too, so the wall clock is watched (docs/design.md
/// §5); only a throttled or failing API server makes the plugin wait so.
pub(super) fn pause(ms: u64) {
    #[cfg(target_arch = "wasm32")]
    {
        let until = crate::base::time::wall_ms() + ms;
        while crate::base::time::wall_ms() < until {
            std::hint::spin_loop();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(ms));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kube::fixture::{after, client, respond, BATCH_V1};
    use crate::kube::ObjectKey;

    #[test]
    fn how_long_a_repeat_waits_is_decided_without_sending() {
        let (throttled, gateway) = (after(429, Some("3")), after(503, None));
        assert_eq!(retry_wait(&throttled, Method::Post, 1), Some(3_000), "as Retry-After asks");
        assert_eq!(retry_wait(&after(429, Some("60")), Method::Get, 1), Some(MAX_RETRY_WAIT_MS));
        assert_eq!(retry_wait(&gateway, Method::Get, 3), Some(1_000), "250 ms doubling");
        assert_eq!(retry_wait(&gateway, Method::Post, 1), None, "a create may have been done");
        assert_eq!(retry_wait(&gateway, Method::Get, RETRIES + 1), None, "tried enough");
        assert_eq!(retry_wait(&respond(500, ""), Method::Get, 1), None);
    }

    #[test]
    fn a_429_is_repeated_for_every_method_as_retry_after_asks() {
        let (mut c, script) = client(
            None,
            vec![
                respond(200, BATCH_V1),
                after(429, Some("0")),
                after(429, Some("0")),
                respond(201, r#"{"kind":"Job","metadata":{"name":"j"}}"#),
            ],
        );
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        c.create(&job).unwrap();
        assert_eq!((c.requests(), c.repeated()), (4, 2));
        assert!(script.seen.borrow()[1..].iter().all(|r| r.method == Method::Post));
    }

    #[test]
    fn a_lost_connection_is_repeated_only_when_safe() {
        let refused = || respond(0, "dial tcp 127.0.0.1:6443: connect: connection refused");
        let reset = || respond(0, "read tcp 127.0.0.1:1->127.0.0.1:6443: read: connection reset by peer");
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        let created = || respond(201, r#"{"kind":"Job","metadata":{"name":"j"}}"#);
        // Refused: the request never left, so even a create is sent again.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), refused(), refused(), created()]);
        c.create(&job).unwrap();
        assert_eq!((c.requests(), c.repeated()), (4, 2));
        // Reset: a create may have been done; a read is safe to repeat.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), reset()]);
        assert!(c.create(&job).unwrap_err().to_string().contains("connection reset"));
        assert_eq!(c.repeated(), 0);
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), reset(), created()]);
        c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).unwrap();
        assert_eq!(c.repeated(), 1);
        // Not a lost connection: not repeated.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), respond(0, "the path is not allowed")]);
        assert!(c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).is_err());
        assert_eq!(c.repeated(), 0);
    }

    #[test]
    fn a_gateway_error_is_repeated_only_when_safe() {
        // A create (POST) may have happened before a 503: not repeated.
        let (mut c, _) = client(None, vec![respond(200, BATCH_V1), after(503, Some("0"))]);
        let job = serde_json::json!({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"}});
        let e = c.create(&job).unwrap_err();
        assert_eq!((c.requests(), c.repeated()), (2, 0));
        assert!(!e.to_string().contains("tries"), "{e}");
        // A read is, RETRIES times; then the error says how often it was tried.
        let mut answers = vec![respond(200, BATCH_V1)];
        answers.extend((0..=RETRIES).map(|_| after(503, Some("0"))));
        let (mut c, _) = client(None, answers);
        let e = c.get(&ObjectKey::new("batch/v1", "Job", None, "j")).unwrap_err();
        assert_eq!((c.requests(), c.repeated()), (2 + u64::from(RETRIES), u64::from(RETRIES)));
        assert!(e.to_string().contains(&format!("after {} tries", RETRIES + 1)), "{e}");
    }
}
