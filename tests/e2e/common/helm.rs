//! Helm: the binary under test, the plugin directory, and a throw-away Helm home per test.

use super::{bed, parse_json, repo, run, tool, Out, TempDir};
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::SystemTime;

/// The Helm 4 binary: `HELM_BIN`, else the bed's (`$HOOKS_CACHE/bin/helm`), else PATH's.
/// A missing binary fails the test; it never skips.
pub fn helm_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let bin = env::var_os("HELM_BIN").map(PathBuf::from).unwrap_or_else(|| tool("helm"));
        assert!(
            bin.is_file(),
            "Helm 4 not found at {}: set HELM_BIN to a Helm 4 binary, or build the test bed's Helm (see testbed/ and research/cluster.md); \
             these tests fail rather than skip",
            bin.display()
        );
        bin
    })
    .clone()
}

/// The plugin directory to install: `HOOKS_PLUGIN_DIR`, or one assembled in `into` from
/// plugin.yaml and the release Wasm build under `CARGO_TARGET_DIR` (the Makefile's, or
/// `target/`), which must be newer than every source unless `HOOKS_ALLOW_STALE_WASM` is
/// set.
pub fn plugin_dir(into: &Path) -> PathBuf {
    if let Some(dir) = env::var_os("HOOKS_PLUGIN_DIR") {
        let dir = PathBuf::from(dir);
        for f in ["plugin.yaml", "plugin.wasm"] {
            assert!(dir.join(f).is_file(), "HOOKS_PLUGIN_DIR={} has no {f}", dir.display());
        }
        return dir;
    }
    let target = env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"));
    let wasm = target.join("wasm32-wasip1/release/helm_hooks.wasm");
    assert!(
        wasm.is_file(),
        "plugin Wasm not found at {}.\nBuild it first:  cargo build --release --target wasm32-wasip1 --lib\n\
         (or point HOOKS_PLUGIN_DIR at a directory holding plugin.yaml and plugin.wasm)",
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
            "{} is older than {} (and maybe more): rebuild it with\n  cargo build --release --target wasm32-wasip1 --lib\n\
             or set HOOKS_ALLOW_STALE_WASM=1 to test the old build",
            wasm.display(),
            newer[0].display()
        );
    }
    let dir = into.join("plugin/hooks");
    std::fs::create_dir_all(&dir).expect("plugin dir");
    std::fs::copy(repo().join("plugin.yaml"), dir.join("plugin.yaml")).expect("copy plugin.yaml");
    std::fs::copy(&wasm, dir.join("plugin.wasm")).expect("copy plugin.wasm");
    dir
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH)
}

fn newer_sources(dir: &Path, than: SystemTime, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            newer_sources(&p, than, out);
        } else if mtime(&p) > than {
            out.push(p);
        }
    }
}

/// A test's own Helm home (data, config and cache under a temporary folder, removed
/// with it), so that tests run in parallel without sharing Helm's state.
pub struct HelmHome {
    pub tmp: TempDir,
}

impl HelmHome {
    /// An empty home, no plugin installed.
    pub fn new(label: &str) -> HelmHome {
        let home = HelmHome { tmp: TempDir::new(label) };
        // Helm compiles plugin.wasm once per cache (0.6 s, then 0.05 s a call): every
        // home shares the compiled module, keyed by its content, as one user's Helm does.
        let shared = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wazero-build");
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::create_dir_all(home.tmp.0.join("cache")).unwrap();
        std::os::unix::fs::symlink(&shared, home.tmp.0.join("cache/wazero-build")).unwrap();
        home
    }

    /// A home with the plugin under test installed by `helm plugin install`, and listed.
    pub fn with_plugin(label: &str) -> HelmHome {
        let home = HelmHome::new(label);
        let dir = plugin_dir(&home.tmp.0);
        let mut c = home.command();
        c.args(["plugin", "install", dir.to_str().expect("a UTF-8 path")]);
        let out = run(c, None);
        assert_eq!(out.code, 0, "helm plugin install {} failed:\n{}", dir.display(), out.shown);
        let mut c = home.command();
        c.args(["plugin", "list"]);
        let list = run(c, None);
        assert!(list.stdout.contains("hooks"), "plugin not listed after install:\n{}", list.shown);
        home
    }

    /// Helm with a clean environment: PATH and this home only, in the repository. It
    /// names no cluster; the caller adds how to reach one.
    pub fn command(&self) -> Command {
        self.command_of(&helm_bin())
    }

    /// [`HelmHome::command`] of another Helm binary (stock Helm in the host-functions lane).
    pub fn command_of(&self, bin: &Path) -> Command {
        let t = &self.tmp.0;
        let mut c = Command::new(bin);
        c.env_clear()
            .env("PATH", env::var_os("PATH").unwrap_or_default())
            .env("HOME", t)
            .env("HELM_DATA_HOME", t.join("data"))
            .env("HELM_CONFIG_HOME", t.join("config"))
            .env("HELM_CACHE_HOME", t.join("cache"))
            .current_dir(repo());
        c
    }

    /// `helm --kube-apiserver S --kube-token T -n NS ARGS`: Helm reaching the bed the way
    /// the stock plugin does, with no kubeconfig (the CA through SSL_CERT_FILE).
    pub fn by_token(&self, ns: &str, args: &[&str]) -> Command {
        let b = bed();
        let mut c = self.command();
        c.env("SSL_CERT_FILE", &b.cacert)
            .args(["--kube-apiserver", &b.server, "--kube-token", &b.token, "-n", ns])
            .args(args);
        c
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

/// The (revision, status, description) rows a `helm history` is expected to show.
pub fn history(rows: &[(u64, &str, &str)]) -> Vec<(u64, String, String)> {
    rows.iter().map(|(r, s, d)| (*r, s.to_string(), d.to_string())).collect()
}
