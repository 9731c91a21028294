//! The bed's real node (testbed/realnode.sh): charts whose pods run there, and its faults.

use super::{repo, run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What makes a pod run on the real node: its label as selector, its taint tolerated.
pub const ON_REAL_NODE: [&str; 2] = [
    "nodeSelector: {hooks-test/real-node: \"true\"}",
    "tolerations: [{key: hooks-test/real-node, operator: Equal, value: \"true\", effect: NoExecute}]",
];

/// The real node's name (it must resolve to 127.0.0.1: docs/testing.md, "Two nodes").
pub const REAL_NODE: &str = "localhost";

/// A template with each `{{ real }}` line replaced by [`ON_REAL_NODE`] at its indentation.
pub fn on_real_node(template: &str) -> String {
    let mut out = String::new();
    for line in template.lines() {
        match line.strip_suffix("{{ real }}") {
            Some(indent) if indent.trim().is_empty() => {
                for l in ON_REAL_NODE {
                    out.push_str(&format!("{indent}{l}\n"));
                }
            }
            _ => out.push_str(&format!("{line}\n")),
        }
    }
    out
}

/// A chart `name` in `parent` of these templates (file, text; [`on_real_node`] applied).
pub fn write_chart(parent: &Path, name: &str, templates: &[(&str, &str)]) -> PathBuf {
    let dir = parent.join("charts").join(name);
    std::fs::create_dir_all(dir.join("templates")).unwrap();
    // (An appVersion YAML reads as a string even unquoted, as charts' labels print it.)
    let chart = format!("apiVersion: v2\nname: {name}\nversion: 0.1.0\nappVersion: \"1.0.0\"\n");
    std::fs::write(dir.join("Chart.yaml"), chart).unwrap();
    for (file, text) in templates {
        std::fs::write(dir.join("templates").join(file), on_real_node(text)).unwrap();
    }
    dir
}

/// `testbed/realnode.sh restart kubelet|containerd SECONDS`: the daemon stopped, started
/// again after `down` (containers keep running through it, as on a real node).
pub fn restart_node_daemon(what: &str, down: Duration) {
    let mut c = Command::new(repo().join("testbed/realnode.sh"));
    c.args(["restart", what, &format!("{:.1}", down.as_secs_f64())]);
    let out = run(c, None);
    assert_eq!(out.code, 0, "{}", out.shown);
}
