//! The client of `testbed/oracle` (Helm's own code as the oracle, issue 46;
//! docs/testing.md, "Helm as the oracle"), shared by tests/oracle.rs and the end-to-end
//! suites: one process, one JSON question a line, one answer a line.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

pub struct Oracle {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    pub asked: usize,
}

impl Oracle {
    pub fn start() -> Oracle {
        let cache = std::env::var_os("HOOKS_CACHE").map(PathBuf::from).unwrap_or_else(|| {
            let base = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
            base.join("helm-hooks")
        });
        let bin = cache.join("bin/oracle");
        // Never skipped: `make tools` runs before the tests, in CI too.
        assert!(bin.exists(), "{} is missing: run `make tools` (or testbed/build.sh oracle)", bin.display());
        let mut child =
            Command::new(&bin).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("the oracle starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Oracle { child, input, output, asked: 0 }
    }

    pub fn ask(&mut self, request: &Value) -> Value {
        let mut line = serde_json::to_vec(request).unwrap();
        line.push(b'\n');
        self.input.write_all(&line).expect("the oracle reads");
        let mut answer = String::new();
        self.output.read_line(&mut answer).expect("the oracle answers");
        self.asked += 1;
        serde_json::from_str(&answer).unwrap_or_else(|e| panic!("the oracle's answer {answer:?}: {e}"))
    }

    /// Helm's Secrets driver reads `payload` (a record's `data.release`, Helm's base64
    /// text) as `expected`, the release the plugin meant to write: the name and status
    /// through Helm's Accessor, and the name, version, status, manifest and chart name of
    /// the release it decoded. The first difference, or why Helm cannot read it at all.
    pub fn reads_as(&mut self, payload: &str, expected: &Value) -> Result<(), String> {
        let answer = self.ask(&json!({"op": "decode", "payload": payload}));
        if answer["ok"] != true {
            return Err(format!("Helm cannot read the record: {}", answer["error"]));
        }
        if answer["name"] != expected["name"] || answer["status"] != expected["info"]["status"] {
            return Err(format!("Helm's Accessor reads name {} and status {}", answer["name"], answer["status"]));
        }
        let got = &answer["release"];
        for field in ["/name", "/version", "/info/status", "/manifest", "/chart/metadata/name"] {
            if got.pointer(field) != expected.pointer(field) {
                return Err(format!(
                    "Helm reads {field} otherwise ({} bytes of manifest)",
                    expected["manifest"].as_str().map_or(0, str::len)
                ));
            }
        }
        Ok(())
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
