//! What the end-to-end suites share: running commands, the test bed, Helm homes with
//! the plugin installed, watches and golden files. Every suite takes what it needs
//! from here and keeps only what is its own; where a suite deliberately differs (e2e_helm
//! names no cluster, e2e_kube makes its namespaces with the client under test,
//! e2e_testbed installs no plugin) it says so where it differs.

mod bed;
mod golden;
mod helm;
mod node;
mod records;
mod watch;

pub use {bed::*, golden::*, helm::*, node::*, records::*, watch::*};

use serde_json::Value;
use std::env;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A variable `make -s cluster-env` sets; the test fails (never skips)
/// without it.
pub fn required(var: &str) -> String {
    env::var(var).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| {
        panic!("{var} is not set: start the bed with `make cluster-up` and run `eval \"$(make -s cluster-env)\"` first")
    })
}

/// The test bed's cache folder: `$HOOKS_CACHE`, else the per-user default that
/// testbed/versions.sh and the Makefile use (`~/.cache/helm-hooks`).
pub fn hooks_cache() -> PathBuf {
    if let Some(c) = env::var_os("HOOKS_CACHE").filter(|c| !c.is_empty()) {
        return PathBuf::from(c);
    }
    let base = env::var_os("XDG_CACHE_HOME")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env::var_os("HOME").expect("HOME is set")).join(".cache"));
    base.join("helm-hooks")
}

/// A tool the test bed built (`$HOOKS_CACHE/bin`), else the one on PATH.
pub fn tool(name: &str) -> PathBuf {
    let p = hooks_cache().join("bin").join(name);
    if p.is_file() {
        p
    } else {
        PathBuf::from(name)
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `E2E_KEEP=1`: namespaces and temporary folders outlive the test, to look at.
pub fn keep() -> bool {
    env::var_os("E2E_KEEP").is_some_and(|v| !v.is_empty() && v != "0")
}

pub fn nanos() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------
// Commands and what they printed.

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
    pub shown: String,
}

impl Out {
    /// The plugin's exit code as Helm reports it: 0, or N from `[exit code N]` at the end
    /// of stderr; None when helm failed otherwise (e.g. the host aborted the plugin).
    /// Under a Helm with testbed/helm-patches, also checks that helm itself exited with
    /// that code.
    pub fn plugin_code(&self) -> Option<i32> {
        if self.code == 0 {
            return Some(0);
        }
        let tail = self.stderr.trim_end();
        let rest = tail.strip_suffix(']')?;
        let at = rest.rfind("[exit code ")?;
        let code = rest[at + "[exit code ".len()..].parse().ok()?;
        if host_functions() {
            assert_eq!(self.code, code, "helm should exit with the plugin's code: {}", self.shown);
        }
        Some(code)
    }

    pub fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `cmd` to its end with `stdin` (else nothing) as its input. The input is written
/// from a thread of its own: a release's JSON is larger than a pipe holds, and a command
/// that answers before reading all of it (or never reads it) must neither block the
/// writer nor fail the test.
pub fn run(mut cmd: Command, stdin: Option<&str>) -> Out {
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let t0 = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let writer = stdin.map(|text| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let text = text.to_string();
        std::thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        })
    });
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("cannot wait for {cmd:?}: {e}"));
    if let Some(w) = writer {
        let _ = w.join();
    }
    let wall = t0.elapsed();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    let shown = format!("{cmd:?} exited {} after {wall:.1?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}", out.status);
    Out { code: out.status.code().unwrap_or(-1), stdout, stderr, wall, shown }
}

/// Runs `cmd` to its end (no stdin) and says when each line of its stdout arrived, after
/// the start: for output that must come while the command runs, not at its end.
pub fn run_timed(mut cmd: Command) -> (Out, Vec<(Duration, String)>) {
    use std::io::BufRead;
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let t0 = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let mut err = child.stderr.take().expect("stderr is piped");
    let errs = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(child.stdout.take().expect("stdout is piped")).lines() {
        let Ok(line) = line else { break };
        lines.push((t0.elapsed(), line));
    }
    let status = child.wait().unwrap_or_else(|e| panic!("cannot wait for {cmd:?}: {e}"));
    let (wall, stderr) = (t0.elapsed(), errs.join().unwrap_or_default());
    let stdout: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
    let stamped: String = lines.iter().map(|(t, l)| format!("{:>6.1?} {l}\n", t)).collect();
    let shown =
        format!("{cmd:?} exited {status} after {wall:.1?}\n--- stdout, as it came\n{stamped}\n--- stderr\n{stderr}");
    (Out { code: status.code().unwrap_or(-1), stdout, stderr, wall, shown }, lines)
}

/// Runs the command, which must succeed; its stdout.
pub fn ok(cmd: Command) -> String {
    let out = run(cmd, None);
    assert_eq!(out.code, 0, "{}", out.shown);
    out.stdout
}

/// `text` as JSON, or a panic naming `what` and showing the text.
pub fn parse_json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what} is not JSON ({e}):\n{text}"))
}

// ---------------------------------------------------------------------------------------
// Temporary folders and reports kept.

pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let path = env::temp_dir().join(format!("helm-hooks-e2e-{label}-{}-{n}-{}", std::process::id(), nanos()));
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !keep() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// With `HOOKS_REPORT_DIR` set, the Markdown a test got is kept there as NAME.md, for
/// `scripts/check-mermaid.sh` to render (docs/report.md's pictures come from real runs).
pub fn keep_report(name: &str, markdown: &str) {
    if let Some(dir) = env::var_os("HOOKS_REPORT_DIR").filter(|d| !d.is_empty()) {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(PathBuf::from(&dir).join(format!("{name}.md")), markdown).unwrap();
    }
}

/// Where `run`'s text prints a line `line` of a hook's container `container` of pod `pod`
/// (issue 41: each line once): (streamed as `[… pod/container] line`, in the `POD LOGS:
/// pod (container)` block, how many lines that block says were shown above); `None` for the
/// block when there is none. A block's lines run to the next block or blank line.
pub fn printed(stdout: &str, pod: &str, container: &str, line: &str) -> (usize, Option<(usize, usize)>) {
    let streamed = stdout
        .lines()
        .filter(|l| {
            l.starts_with('[')
                && (l.ends_with(&format!(" {pod}/{container}] {line}"))
                    || *l == format!("[Pod/{pod}/{container}] {line}"))
        })
        .count();
    let header = format!("POD LOGS: {pod} ({container})\n");
    let block = stdout.find(&header).map(|at| {
        let body = &stdout[at + header.len()..];
        let body = &body[..body.find("POD LOGS: ").unwrap_or(body.len())];
        let body = body.split("\n\n").next().unwrap_or_default();
        let above = body
            .lines()
            .find_map(|l| l.strip_prefix('(').and_then(|l| l.strip_suffix(" shown above)")))
            .map(|n| n.split(' ').next().unwrap_or_default().parse().unwrap_or(0))
            .unwrap_or(0);
        (body.lines().filter(|l| *l == line).count(), above)
    });
    (streamed, block)
}
