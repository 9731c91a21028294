//! What the end-to-end suites share: the test bed's environment and tools.
// Each suite compiles this module on its own and uses part of it.
#![allow(dead_code)]

use std::env;
use std::path::PathBuf;
use std::process::{Command, Output};

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

/// A tool the test bed built (`$HOOKS_CACHE/bin`), else the one on PATH.
pub fn tool(name: &str) -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cache = env::var_os("HOOKS_CACHE").map(PathBuf::from).unwrap_or_else(|| manifest.join(".cache"));
    let p = cache.join("bin").join(name);
    if p.is_file() {
        p
    } else {
        PathBuf::from(name)
    }
}
