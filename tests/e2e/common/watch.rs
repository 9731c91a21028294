//! Watching a namespace through the API: what happened, in one global order.

use super::bed;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Ev {
    pub rv: u64,
    /// ADDED, MODIFIED, DELETED
    pub ty: String,
    pub kind: String,
    pub name: String,
    pub object: Value,
    pub at: Instant,
}

impl Ev {
    pub fn what(&self) -> String {
        format!("{}/{}", self.kind, self.name)
    }
}

/// curl watches (one per resource) with `sendInitialEvents`, so that the watch is known to
/// be established (the `k8s.io/initial-events-end` bookmark) before the test acts.
pub struct Watch {
    children: Vec<Child>,
    threads: Vec<JoinHandle<()>>,
    events: Arc<Mutex<Vec<Ev>>>,
}

impl Watch {
    pub fn start(ns: &str, resources: &[(&str, &str)]) -> Watch {
        let b = bed();
        let events = Arc::new(Mutex::new(Vec::new()));
        let mut w = Watch { children: vec![], threads: vec![], events: events.clone() };
        for (prefix, plural) in resources {
            let url = format!(
                "{}{prefix}/namespaces/{ns}/{plural}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1800",
                b.server
            );
            let mut child = b
                .curl(&b.token)
                .args(["-sSN", &url])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("curl runs");
            let stdout = child.stdout.take().unwrap();
            let (tx, rx) = mpsc::channel::<()>();
            let events = events.clone();
            w.threads.push(std::thread::spawn(move || {
                let mut tx = Some(tx);
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    let Ok(mut ev) = serde_json::from_str::<Value>(&line) else { continue };
                    let ty = ev["type"].as_str().unwrap_or_default().to_string();
                    let object = ev["object"].take();
                    if ty == "BOOKMARK" {
                        if object["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true" {
                            if let Some(tx) = tx.take() {
                                let _ = tx.send(());
                            }
                        }
                        continue;
                    }
                    let e = Ev {
                        rv: object["metadata"]["resourceVersion"].as_str().and_then(|v| v.parse().ok()).unwrap_or(0),
                        ty,
                        kind: object["kind"].as_str().unwrap_or_default().to_string(),
                        name: object["metadata"]["name"].as_str().unwrap_or_default().to_string(),
                        object,
                        at: Instant::now(),
                    };
                    events.lock().unwrap().push(e);
                }
            }));
            w.children.push(child);
            rx.recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("the watch {url} did not start (no initial-events-end bookmark)"));
        }
        w
    }

    /// Every event so far, in resourceVersion order.
    pub fn events(&self) -> Vec<Ev> {
        let mut v = self.events.lock().unwrap().clone();
        v.sort_by_key(|e| e.rv);
        v
    }

    /// Ends the watches (after a short grace so that the last events arrive); the events
    /// in resourceVersion order.
    pub fn stop(mut self) -> Vec<Ev> {
        std::thread::sleep(Duration::from_millis(700));
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        self.events()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
