//! Golden files under tests/golden/, compared line by line; `UPDATE_GOLDEN=1` rewrites them.

use super::repo;
use std::fmt::Write as _;
use std::path::PathBuf;

/// `tests/golden/<dir>`: one chart's (or one suite's) golden files.
pub fn golden_dir(dir: &str) -> PathBuf {
    repo().join("tests/golden").join(dir)
}

/// `UPDATE_GOLDEN=1`: write the outputs as the new golden files.
pub fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Collects golden mismatches (and other failures) so one test reports all of them at
/// once.
#[derive(Default)]
pub struct Golden {
    failures: Vec<String>,
}

impl Golden {
    /// `actual` against `tests/golden/<dir>/<name>`, or written there when updating.
    pub fn check(&mut self, dir: &str, name: &str, actual: &str) {
        let path = golden_dir(dir).join(name);
        if updating() {
            std::fs::create_dir_all(path.parent().unwrap()).expect("golden dir");
            std::fs::write(&path, actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            return;
        }
        match std::fs::read_to_string(&path) {
            Err(e) => self.failures.push(format!(
                "{}: cannot read golden file ({e}); run with UPDATE_GOLDEN=1 to create it. Actual output:\n{actual}",
                path.display()
            )),
            Ok(expected) if expected != actual => self.failures.push(format!(
                "{} differs (UPDATE_GOLDEN=1 rewrites it):\n{}",
                path.display(),
                diff(&expected, actual)
            )),
            Ok(_) => {}
        }
    }

    pub fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    pub fn finish(self) {
        assert!(self.failures.is_empty(), "{} problem(s):\n\n{}", self.failures.len(), self.failures.join("\n\n"));
    }
}

/// A small line diff: the lines that differ, with two lines of context.
pub fn diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    // Longest common subsequence, line by line (the files are small).
    let (n, m) = (e.len(), a.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if e[i] == a[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && e[i] == a[j] {
            ops.push((' ', e[i]));
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            ops.push(('+', a[j]));
            j += 1;
        } else {
            ops.push(('-', e[i]));
            i += 1;
        }
    }
    let near = |k: usize| ops[k.saturating_sub(2)..(k + 3).min(ops.len())].iter().any(|(c, _)| *c != ' ');
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut skipped = false;
    for (k, (c, line)) in ops.iter().enumerate() {
        if near(k) {
            let _ = writeln!(out, "{c}{line}");
            skipped = false;
        } else if !skipped {
            out.push_str(" …\n");
            skipped = true;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the final newline differs)\n");
    }
    out
}
