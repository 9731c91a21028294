//! What the end-to-end suites share: the test bed's environment and tools.
// Each suite compiles this module on its own and uses part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::env;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// A command and everything it printed, for a failure message.
pub fn show(cmd: &Command, out: &Output) -> String {
    format!(
        "{:?} exited {}\n--- stdout\n{}\n--- stderr\n{}",
        cmd,
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

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

// ---------------------------------------------------------------------------------------
// The bed and the tools.

pub struct Bed {
    pub helm: PathBuf,
    pub kubectl: PathBuf,
    pub kubeconfig: String,
    /// HELM_KUBEAPISERVER: https://127.0.0.1:PORT
    pub server: String,
    /// HELM_KUBETOKEN: cluster-admin.
    pub token: String,
    /// SSL_CERT_FILE: the bed's CA and the system roots.
    pub cacert: String,
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bed() -> &'static Bed {
    static BED: OnceLock<Bed> = OnceLock::new();
    BED.get_or_init(|| {
        let helm = env::var_os("HELM_BIN").map(PathBuf::from).unwrap_or_else(|| tool("helm"));
        Bed {
            helm,
            kubectl: tool("kubectl"),
            kubeconfig: required("KUBECONFIG"),
            server: required("HELM_KUBEAPISERVER"),
            token: required("HELM_KUBETOKEN"),
            cacert: required("SSL_CERT_FILE"),
        }
    })
}

/// Whether the plugin under test is the host-functions build (its plugin.yaml names
/// Helm's `kube_request`; docs/hip-host-functions.md), run by a Helm with
/// testbed/helm-patches. Then Helm reaches the cluster from the kubeconfig alone and
/// passes the plugin's exit code through.
pub fn host_functions() -> bool {
    static HOST: OnceLock<bool> = OnceLock::new();
    *HOST.get_or_init(|| {
        env::var_os("HOOKS_PLUGIN_DIR")
            .and_then(|d| std::fs::read_to_string(PathBuf::from(d).join("plugin.yaml")).ok())
            .is_some_and(|y| y.contains("kube_request"))
    })
}

/// The flags that name the cluster to `helm hooks`: the bed's API server and token for
/// the stock build (its sandbox cannot read a kubeconfig). For the host-functions build
/// only kubeconfigs: for the bed's own server and token, `--kube-context` of the bed's
/// client-certificate kubeconfig (no token, no proxy); for another server or token (a
/// forwarder, a read-only ServiceAccount), a kubeconfig of its own with that server, the
/// bed's CA and the token — a `--kube-token` beside the bed's kubeconfig would be
/// shadowed by its admin client certificate, which the API server checks first.
pub fn kube_args(server: &str, token: &str) -> Vec<String> {
    let b = bed();
    if !host_functions() {
        return vec!["--kube-apiserver".into(), server.into(), "--kube-token".into(), token.into()];
    }
    let config = std::fs::read_to_string(&b.kubeconfig).expect("the bed's kubeconfig");
    let field = |name: &str| {
        config
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(name))
            .map(|c| c.trim().trim_matches('"').to_string())
            .unwrap_or_else(|| panic!("the bed's kubeconfig has no {name}"))
    };
    let context = field("current-context:");
    if server == b.server && token == b.token {
        return vec!["--kube-context".into(), context];
    }
    let ca = field("certificate-authority:");
    let path = env::temp_dir().join(format!("helm-hooks-e2e-{}-{}.kubeconfig", std::process::id(), nanos()));
    let yaml = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"{server}\", certificate-authority: \"{ca}\"}}\n\
         users:\n- name: u\n  user: {{token: \"{token}\"}}\ncontexts:\n- name: {context}\n  context: {{cluster: c, user: u}}\n\
         current-context: {context}\n"
    );
    std::fs::write(&path, yaml).expect("writing a kubeconfig");
    vec!["--kubeconfig".into(), path.to_string_lossy().into_owned(), "--kube-context".into(), context]
}

/// Whether `text` names a missing permission: as the plugin's own check does (`named`,
/// "cannot list secrets"), or, for the release records that the host-functions build
/// reads and writes through Helm's storage driver, in the API server's words as Helm
/// passes them on ("cannot list resource \"secrets\"").
pub fn names_denied(text: &str, named: &str, verb: &str, resource: &str) -> bool {
    text.contains(named)
        || (host_functions()
            && matches!(resource, "secrets" | "configmaps")
            && text.contains(&format!("cannot {verb} resource \"{resource}\"")))
}

pub fn keep() -> bool {
    env::var_os("E2E_KEEP").is_some_and(|v| !v.is_empty() && v != "0")
}

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

pub fn run(mut cmd: Command, stdin: Option<&str>) -> Out {
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let t0 = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let wall = t0.elapsed();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    let shown = format!("{cmd:?} exited {} after {wall:.1?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}", out.status);
    Out { code: out.status.code().unwrap_or(-1), stdout, stderr, wall, shown }
}

/// A Role's `rules:` in YAML from (apiGroup, resource, verbs), without the one
/// (resource, verb) `without` names: the least-privilege tests' Roles.
pub fn role_rules(role: &[(&str, &str, &[&str])], without: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    for (group, resource, verbs) in role {
        let verbs: Vec<&str> = verbs.iter().copied().filter(|v| without != Some((resource, v))).collect();
        if !verbs.is_empty() {
            out.push_str(&format!(
                "- apiGroups: [\"{group}\"]\n  resources: [\"{resource}\"]\n  verbs: [{}]\n",
                verbs.join(", ")
            ));
        }
    }
    out
}

/// With each verb of `role` less in turn (a ServiceAccount token per Role), `act` is
/// refused before acting: exit 3 naming the verb and the resource; then `nothing_done`
/// checks (verb, resource) that nothing was done.
pub fn each_verb_less_is_exit_3(
    case: &Space,
    role: &[(&str, &str, &[&str])],
    act: &dyn Fn(&str) -> Out,
    nothing_done: &mut dyn FnMut(&str, &str),
) {
    let mut n = 0;
    for (group, resource, verbs) in role {
        for verb in *verbs {
            n += 1;
            let token = case.token_with_rules(&format!("less-{n}"), &role_rules(role, Some((resource, verb))));
            let out = act(&token);
            assert_eq!(out.plugin_code(), Some(3), "without {verb} {resource}: {}", out.shown);
            let named = if group.is_empty() {
                format!("cannot {verb} {resource}")
            } else {
                format!("cannot {verb} {resource}.{group}")
            };
            assert!(
                names_denied(&out.all(), &named, verb, resource),
                "without {verb} {resource}, {named:?} expected: {}",
                out.shown
            );
            nothing_done(verb, resource);
        }
    }
}

/// What `helm history … -o json` printed (it must have succeeded): (revision, status,
/// description) of each revision.
pub fn history_rows(out: &Out) -> Vec<(u64, String, String)> {
    assert_eq!(out.code, 0, "{}", out.shown);
    parse_json(&out.stdout, "helm history -o json")
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let s = |k: &str| h[k].as_str().unwrap_or_default().to_string();
            (h["revision"].as_u64().unwrap(), s("status"), s("description"))
        })
        .collect()
}

/// `text` as JSON, or a panic naming `what` and showing the text.
pub fn parse_json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what} is not JSON ({e}):\n{text}"))
}

pub fn ok(cmd: Command) -> String {
    let out = run(cmd, None);
    assert_eq!(out.code, 0, "{}", out.shown);
    out.stdout
}

// ---------------------------------------------------------------------------------------
// The plugin directory (as tests/e2e_helm.rs finds it) and temporary folders.

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

pub fn nanos() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

pub fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p).and_then(|m| m.modified()).unwrap_or(UNIX_EPOCH)
}

pub fn newer_sources(dir: &Path, than: SystemTime, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            newer_sources(&p, than, out);
        } else if mtime(&p) > than {
            out.push(p);
        }
    }
}

pub fn plugin_dir(into: &Path) -> PathBuf {
    if let Some(dir) = env::var_os("HOOKS_PLUGIN_DIR") {
        let dir = PathBuf::from(dir);
        for f in ["plugin.yaml", "plugin.wasm"] {
            assert!(dir.join(f).is_file(), "HOOKS_PLUGIN_DIR={} has no {f}", dir.display());
        }
        return dir;
    }
    let wasm = repo().join("target/wasm32-wasip1/release/helm_hooks.wasm");
    assert!(
        wasm.is_file(),
        "plugin Wasm not found at {}.\nBuild it first:  cargo build --release --target wasm32-wasip1 --lib",
        wasm.display()
    );
    if env::var_os("HOOKS_ALLOW_STALE_WASM").is_none() {
        let built = mtime(&wasm);
        let mut newer = Vec::new();
        newer_sources(&repo().join("src"), built, &mut newer);
        for f in ["Cargo.toml", "Cargo.lock"] {
            if mtime(&repo().join(f)) > built {
                newer.push(repo().join(f));
            }
        }
        assert!(
            newer.is_empty(),
            "{} is older than {}: rebuild it (cargo build --release --target wasm32-wasip1 --lib) \
             or set HOOKS_ALLOW_STALE_WASM=1",
            wasm.display(),
            newer[0].display()
        );
    }
    let dir = into.join("plugin/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(repo().join("plugin.yaml"), dir.join("plugin.yaml")).unwrap();
    std::fs::copy(&wasm, dir.join("plugin.wasm")).unwrap();
    dir
}

// ---------------------------------------------------------------------------------------
// A test's own namespace and Helm home, with the plugin installed.

pub struct Space {
    pub ns: String,
    pub tmp: TempDir,
}

impl Space {
    /// A fresh namespace `{prefix}-{label}-N-…` (with its default ServiceAccount, which
    /// pods need) and a Helm home with the plugin installed by `helm plugin install`.
    pub fn new(prefix: &str, label: &str) -> Space {
        let b = bed();
        assert!(b.helm.is_file(), "Helm 4 not found at {}: set HELM_BIN or build the bed", b.helm.display());
        static N: AtomicUsize = AtomicUsize::new(0);
        let ns = format!("{prefix}-{label}-{}-{}", N.fetch_add(1, Ordering::SeqCst), nanos() % 100_000);
        let space = Space { ns, tmp: TempDir::new(label) };
        // Helm compiles plugin.wasm once per cache (0.6 s, then 0.05 s a call): every
        // space shares the compiled module, keyed by its content, as one user's Helm does.
        let shared = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wazero-build");
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::create_dir_all(space.tmp.0.join("cache")).unwrap();
        std::os::unix::fs::symlink(&shared, space.tmp.0.join("cache/wazero-build")).unwrap();
        let dir = plugin_dir(&space.tmp.0);
        let mut c = space.helm_cmd();
        c.args(["plugin", "install", dir.to_str().unwrap()]);
        ok(c);
        let mut c = space.kubectl_cmd();
        c.args(["create", "namespace", &space.ns]);
        ok(c);
        let start = Instant::now();
        while run(space.kubectl(&["get", "serviceaccount", "default"]), None).code != 0 {
            assert!(start.elapsed() < Duration::from_secs(30), "no default ServiceAccount in {}", space.ns);
            std::thread::sleep(Duration::from_millis(100));
        }
        space
    }

    /// Helm with this space's homes and the bed's admin kubeconfig (the plugin gets the
    /// API server and token by flags).
    pub fn helm_cmd(&self) -> Command {
        let b = bed();
        let t = &self.tmp.0;
        let mut c = Command::new(&b.helm);
        c.env_clear()
            .env("PATH", env::var_os("PATH").unwrap_or_default())
            .env("HOME", t)
            .env("HELM_DATA_HOME", t.join("data"))
            .env("HELM_CONFIG_HOME", t.join("config"))
            .env("HELM_CACHE_HOME", t.join("cache"))
            .env("KUBECONFIG", &b.kubeconfig)
            .env("SSL_CERT_FILE", &b.cacert)
            .current_dir(repo());
        c
    }

    /// Stock `helm ARGS -n NS`.
    pub fn helm(&self, args: &[&str]) -> Out {
        let mut c = self.helm_cmd();
        c.args(args).args(["-n", &self.ns]);
        run(c, None)
    }

    /// `helm history RELEASE -o json`: (revision, status, description).
    pub fn helm_history(&self, release: &str) -> Vec<(u64, String, String)> {
        history_rows(&self.helm(&["history", release, "-o", "json"]))
    }

    pub fn kubectl_cmd(&self) -> Command {
        let b = bed();
        let mut c = Command::new(&b.kubectl);
        c.env("KUBECONFIG", &b.kubeconfig).arg("--request-timeout=30s");
        c
    }

    pub fn kubectl(&self, args: &[&str]) -> Command {
        let mut c = self.kubectl_cmd();
        c.args(["-n", &self.ns]).args(args);
        c
    }
}

impl Space {
    /// A bearer token of a new ServiceAccount that may read Secrets in this
    /// namespace (Helm's storage) and do nothing else.
    pub fn read_only_token(&self) -> String {
        let rbac = format!(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: reader, namespace: {ns}}}\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: read-secrets, namespace: {ns}}}\n\
             rules:\n- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get, list, watch]\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: reader, namespace: {ns}}}\n\
             roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: read-secrets}}\n\
             subjects:\n- {{kind: ServiceAccount, name: reader, namespace: {ns}}}\n",
            ns = self.ns
        );
        let out = run(self.kubectl(&["apply", "-f", "-"]), Some(&rbac));
        assert_eq!(out.code, 0, "{}", out.shown);
        ok(self.kubectl(&["create", "token", "reader", "--duration=10m"])).trim().to_string()
    }
}

impl Space {
    /// A bearer token of a new ServiceAccount `name` bound to a new Role `name` in this
    /// namespace with these `rules` (YAML list items, indented by two spaces).
    pub fn token_with_rules(&self, name: &str, rules: &str) -> String {
        let rbac = format!(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: {name}, namespace: {ns}}}\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: {name}, namespace: {ns}}}\n\
             rules:\n{rules}---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: {name}, namespace: {ns}}}\n\
             roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: {name}}}\n\
             subjects:\n- {{kind: ServiceAccount, name: {name}, namespace: {ns}}}\n",
            ns = self.ns
        );
        let out = run(self.kubectl(&["apply", "-f", "-"]), Some(&rbac));
        assert_eq!(out.code, 0, "{}", out.shown);
        ok(self.kubectl(&["create", "token", name, "--duration=10m"])).trim().to_string()
    }
}

impl Drop for Space {
    fn drop(&mut self) {
        if !keep() {
            let mut c = self.kubectl_cmd();
            c.args(["delete", "namespace", &self.ns, "--wait=false", "--ignore-not-found"]);
            let _ = c.output();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Watching a namespace through the API: what happened, in one global order.

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
            let mut child = Command::new("curl")
                .args(["-sSN", "-A", "helm-hooks-e2e", "--cacert", &b.cacert])
                .args(["-H", &format!("Authorization: Bearer {}", b.token), &url])
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
