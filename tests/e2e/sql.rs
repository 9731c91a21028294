//! End to end: `HELM_DRIVER=sql` (PostgreSQL) with the host-functions build, which reads
//! and writes release records through Helm's `release_storage` host function
//! (docs/hip-host-functions.md) and so through whatever driver Helm is configured for.
//!
//! One release of testbed/charts/hooks-demo lives its whole life in PostgreSQL: stock
//! `helm install`, then `helm hooks run`, `deploy` (an upgrade), `rollback` and
//! `uninstall`, each checked against Helm's own reading of the database (`helm status`,
//! `helm history`, `helm list`), against the `releases_v1` table itself, and against the
//! namespace, which must never hold a release Secret.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)"
//! make dist/hooks-host
//! HELM_BIN=$HOOKS_CACHE/bin/helm-host HOOKS_PLUGIN_DIR=$PWD/dist/hooks-host \
//!   cargo test --features e2e --test e2e sql::
//! ```
//!
//! The database: `HELM_DRIVER_SQL_CONNECTION_STRING` when set, else the bed's
//! (`testbed/postgres.sh up`, idempotent; `.ci/run` stops it). Under the stock build the
//! test is skipped: its plugin cannot reach Helm's storage drivers (docs/limits.md).

use crate::common::*;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const RELEASE: &str = "r";
const CHART: &str = "testbed/charts/hooks-demo";

/// The connection string of the bed's PostgreSQL.
fn connection_string() -> String {
    if let Some(s) = std::env::var("HELM_DRIVER_SQL_CONNECTION_STRING").ok().filter(|s| !s.is_empty()) {
        return s;
    }
    let mut c = Command::new(repo().join("testbed/postgres.sh"));
    c.arg("up");
    let out = ok(c);
    out.lines()
        .find_map(|l| l.strip_prefix("export HELM_DRIVER_SQL_CONNECTION_STRING="))
        .map(|v| v.trim_matches('\'').to_string())
        .unwrap_or_else(|| panic!("testbed/postgres.sh up printed no connection string:\n{out}"))
}

fn psql() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL's binaries in /usr/lib/postgresql (apt-get install postgresql)")
        .filter_map(|e| Some(e.ok()?.path().join("bin/psql")))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop().expect("a psql in /usr/lib/postgresql/*/bin")
}

struct Case {
    space: Space,
    sql: String,
}

impl Case {
    fn new(label: &str) -> Case {
        Case { space: Space::new("sql", label), sql: connection_string() }
    }

    /// `helm ARGS -n NS` with Helm's sql driver.
    fn helm_cmd(&self, args: &[&str]) -> Command {
        let mut c = self.space.helm_cmd();
        c.env("HELM_DRIVER", "sql").env("HELM_DRIVER_SQL_CONNECTION_STRING", &self.sql);
        c.args(args).args(["-n", &self.space.ns]);
        c
    }

    fn helm(&self, args: &[&str]) -> Out {
        run(self.helm_cmd(args), None)
    }

    /// `helm --kube-context … hooks ARGS -n NS` with Helm's sql driver.
    fn plugin(&self, args: &[&str], stdin: Option<&str>) -> Out {
        let mut c = self.space.plugin_cmd(args);
        c.env("HELM_DRIVER", "sql").env("HELM_DRIVER_SQL_CONNECTION_STRING", &self.sql);
        run(c, stdin)
    }

    fn chart_args(&self, verb: &[&str], extra: &[&str]) -> Vec<String> {
        let chart = repo().join(CHART);
        let mut args: Vec<String> = verb.iter().map(|s| s.to_string()).collect();
        args.extend([RELEASE.to_string(), chart.to_string_lossy().into_owned()]);
        // Every test hook passes, so that a run succeeds.
        args.extend(["--set".to_string(), "tests.failExitCode=0".to_string()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    }

    /// `helm history r -o json`: (revision, status, description).
    fn history(&self) -> Vec<(u64, String, String)> {
        history_rows(&self.helm(&["history", RELEASE, "-o", "json"]))
    }

    fn status(&self) -> Value {
        let out = self.helm(&["status", RELEASE, "-o", "json"]);
        assert_eq!(out.code, 0, "{}", out.shown);
        parse_json(&out.stdout, "helm status -o json")
    }

    /// The release's rows in PostgreSQL: (version, status), lowest version first.
    fn rows(&self) -> Vec<(u64, String)> {
        let mut c = Command::new(psql());
        let query = format!(
            "SELECT version, status FROM releases_v1 WHERE namespace = '{}' AND name = '{RELEASE}' ORDER BY version",
            self.space.ns
        );
        c.args([&self.sql, "-tAF", " ", "-c", &query]);
        ok(c)
            .lines()
            .filter_map(|l| {
                let (v, s) = l.split_once(' ')?;
                Some((v.trim().parse().ok()?, s.trim().to_string()))
            })
            .collect()
    }

    /// Release Secrets (or ConfigMaps) in the namespace: none may appear with the sql driver.
    fn assert_no_records_in_the_cluster(&self) {
        let mut c = self.space.kubectl(&["get", "secrets,configmaps", "-l", "owner=helm", "-o", "name"]);
        c.arg("--ignore-not-found");
        let text = ok(c);
        assert!(text.trim().is_empty(), "release records in the cluster, not in SQL: {text}");
    }
}

fn rows(list: &[(u64, &str)]) -> Vec<(u64, String)> {
    list.iter().map(|(v, s)| (*v, s.to_string())).collect()
}

/// A hook's `last_run.phase` in `helm status -o json` (Helm's reading of the table).
fn phase(status: &Value, hook: &str) -> String {
    status["hooks"]
        .as_array()
        .and_then(|h| h.iter().find(|h| h["name"] == hook))
        .and_then(|h| h["last_run"]["phase"].as_str())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_release_in_postgresql_through_its_whole_life() {
    if !host_functions() {
        eprintln!(
            "skipped: HELM_DRIVER=sql needs the host-functions build (HOOKS_PLUGIN_DIR is not dist/hooks-host); \
             the stock build reads Secrets and ConfigMaps only"
        );
        return;
    }
    let case = Case::new("life");

    // Stock install, into PostgreSQL.
    let args = case.chart_args(&["install"], &["--timeout", "2m"]);
    let out = case.helm(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(case.rows(), rows(&[(1, "deployed")]));
    case.assert_no_records_in_the_cluster();
    let before = case.status();
    assert_eq!(phase(&before, "r-test-ok"), "", "Helm never ran the test hooks");

    // run: the test hooks run; their last_run is written back to the table.
    let out = case.plugin(&["run", RELEASE, "--event", "test", "--timeout", "2m"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    let after = case.status();
    for hook in ["r-test-ok", "r-test-fail"] {
        assert_eq!(phase(&after, hook), "Succeeded", "{hook} in helm status: {:#}", after["hooks"]);
    }
    assert_eq!(after["info"]["status"], "deployed");
    assert_eq!(case.rows(), rows(&[(1, "deployed")]), "a run updates its revision, it adds none");
    case.assert_no_records_in_the_cluster();

    // deploy: an upgrade, revision 2 in the table, revision 1 superseded.
    let args = case
        .chart_args(&["upgrade", "--install"], &["--set", "tests.okLog=upgraded", "--dry-run=server", "-o", "json"]);
    let rendered = case.helm(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(rendered.code, 0, "{}", rendered.shown);
    let out = case.plugin(
        &["deploy", "-", "-o", "json", "--timeout", "2m", "--readiness-timeout", "90s"],
        Some(&rendered.stdout),
    );
    assert_eq!(out.code, 0, "{}", out.shown);
    let report = parse_json(&out.stdout, "deploy -o json");
    assert_eq!((report["revision"].as_u64(), report["status"].as_str()), (Some(2), Some("deployed")), "{report:#}");
    assert_eq!(case.rows(), rows(&[(1, "superseded"), (2, "deployed")]));
    assert_eq!(case.history(), history(&[(1, "superseded", "Install complete"), (2, "deployed", "Upgrade complete")]));
    case.assert_no_records_in_the_cluster();

    // rollback to 1: revision 3.
    let out = case.plugin(&["rollback", RELEASE, "1", "-o", "json", "--timeout", "2m"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(
        case.history(),
        history(&[
            (1, "superseded", "Install complete"),
            (2, "superseded", "Upgrade complete"),
            (3, "deployed", "Rollback to 1"),
        ])
    );
    assert_eq!(case.rows(), rows(&[(1, "superseded"), (2, "superseded"), (3, "deployed")]));
    let status = case.status();
    assert_eq!((status["version"].as_u64(), status["info"]["status"].as_str()), (Some(3), Some("deployed")));
    case.assert_no_records_in_the_cluster();

    // uninstall: the rows are gone, and Helm knows the release no more.
    let out = case.plugin(&["uninstall", RELEASE, "-o", "json", "--timeout", "2m"], None);
    assert_eq!(out.code, 0, "{}", out.shown);
    assert_eq!(case.rows(), Vec::<(u64, String)>::new());
    let out = case.helm(&["history", RELEASE]);
    assert!(out.code != 0 && out.stderr.contains("not found"), "{}", out.shown);
    let out = case.helm(&["list", "-q"]);
    assert_eq!((out.code, out.stdout.trim()), (0, ""), "{}", out.shown);
    let deployments = ok(case.space.kubectl(&["get", "deployments", "-o", "name"]));
    assert_eq!(deployments.trim(), "", "uninstall left the release's Deployment");
    case.assert_no_records_in_the_cluster();
}
