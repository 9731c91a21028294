//! Every release record on the bed stays readable by Helm (issue 46, item 4;
//! docs/testing.md, "Helm as the oracle").
//!
//! - After each deploy, rollback, uninstall and run through [`super::Space::plugin`],
//!   [`helm_reads_the_records`]: Helm's own code, in `testbed/oracle`, reads every record
//!   of the namespace (its decoder, and the History and Get actions behind `helm history`
//!   and `helm get manifest`; `helm status` reads a record as Get does), in one question.
//! - When a test's namespace ends ([`super::Namespace`]), [`stock_helm_reads_the_records`]:
//!   the same, then the stock `helm` binary's own `history` for each release, so that the
//!   records of commands a test builds by hand are read too, and by the CLI users run.

#[path = "../../helm_oracle/mod.rs"]
mod helm_oracle;

use super::{bed, parse_json, run, tool, HelmHome, Out};
use helm_hooks::release::payload::decode_payload;
use helm_oracle::Oracle;
use serde_json::{json, Value};
use std::sync::{Mutex, OnceLock};

/// One oracle for the whole test binary: it keeps no state between questions.
fn oracle() -> &'static Mutex<Oracle> {
    static ORACLE: OnceLock<Mutex<Oracle>> = OnceLock::new();
    ORACLE.get_or_init(|| Mutex::new(Oracle::start()))
}

fn ask(question: &Value) -> Value {
    oracle().lock().unwrap_or_else(|e| e.into_inner()).ask(question)
}

/// Helm's code reads every record of `ns` as the plugin meant it:
/// - each record's payload decodes with Helm's decoder as with the plugin's (name,
///   version, status, manifest, chart), and its labels say the same name, version and
///   status (what `helm list` selects by);
/// - for each release, Helm's History lists every stored revision with its status, and
///   Get reads the last revision's status and manifest.
///
/// Panics with the record and what differs; answers what Helm read, per release.
pub fn helm_reads_the_records(ns: &str) -> Vec<Value> {
    let answer = ask(&json!({"op": "records", "kubeconfig": bed().kubeconfig, "namespace": ns}));
    if answer["ok"] != true && answer["error"].as_str().is_some_and(|e| e.contains("not found")) {
        return vec![];
    }
    assert_eq!(answer["ok"], true, "Helm cannot read the records of {ns}: {}", answer["error"]);
    let mut stored: Vec<(String, String, u64, String, String)> = Vec::new();
    for record in answer["records"].as_array().unwrap() {
        let object = record["object"].as_str().unwrap();
        let payload = record["payload"].as_str().unwrap();
        let ours = decode_payload(payload.as_bytes())
            .unwrap_or_else(|e| panic!("{ns}/{object}: the plugin cannot read the record: {e}"));
        let ours: Value = serde_json::from_slice(&ours).unwrap_or_else(|e| panic!("{ns}/{object}: {e}"));
        let verdict = oracle().lock().unwrap_or_else(|e| e.into_inner()).reads_as(payload, &ours);
        if let Err(e) = verdict {
            panic!("{ns}/{object}: {e}");
        }
        let (name, version, status) = (
            ours["name"].as_str().unwrap_or_default().to_string(),
            ours["version"].as_u64().unwrap_or_default(),
            ours["info"]["status"].as_str().unwrap_or_default().to_string(),
        );
        let labels = &record["labels"];
        assert!(
            labels["name"] == name.as_str()
                && labels["version"] == version.to_string().as_str()
                && labels["status"] == status.as_str(),
            "{ns}/{object}: its labels {labels} do not say release {name} v{version} {status}"
        );
        let driver = record["driver"].as_str().unwrap().to_string();
        stored.push((driver, name, version, status, ours["manifest"].as_str().unwrap_or_default().to_string()));
    }
    let reads = answer["reads"].as_array().cloned().unwrap_or_default();
    for read in &reads {
        let (driver, name) = (read["driver"].as_str().unwrap(), read["name"].as_str().unwrap());
        let mut mine: Vec<&(String, String, u64, String, String)> =
            stored.iter().filter(|s| s.0 == driver && s.1 == name).collect();
        mine.sort_by_key(|s| s.2);
        let expected: Vec<Value> = mine.iter().map(|s| json!({"version": s.2, "status": s.3})).collect();
        assert_eq!(read["history"], json!(expected), "{ns}: Helm's History of {name} against its records");
        let last = mine.last().unwrap();
        assert_eq!(read["status"], last.3.as_str(), "{ns}: Helm's Get of {name}: the status");
        assert_eq!(read["manifest"], last.4.as_str(), "{ns}: Helm's Get of {name}: the manifest");
    }
    reads
}

/// One Helm home for the stock CLI's reads: `helm history` needs no plugin and writes
/// nothing.
fn reader() -> &'static HelmHome {
    static HOME: OnceLock<HelmHome> = OnceLock::new();
    HOME.get_or_init(|| HelmHome::new("records"))
}

/// Stock Helm (`$HOOKS_CACHE/bin/helm`, whichever Helm the suite runs) on the `driver`
/// store of `ns`.
fn stock_helm(ns: &str, driver: &str, args: &[&str]) -> Out {
    let mut c = reader().command_of(&tool("helm"));
    c.env("KUBECONFIG", &bed().kubeconfig).env("HELM_DRIVER", driver).args(args).args(["-n", ns]);
    run(c, None)
}

/// [`helm_reads_the_records`], then the stock `helm` binary's `helm history -o json` of
/// each release lists what Helm's History read: the CLI decodes every revision. (Its
/// `status` and `get manifest` read the last record through the Get action the oracle ran;
/// a helm process each per release per test cost the two lanes about a minute of CI.)
pub fn stock_helm_reads_the_records(ns: &str) {
    for read in helm_reads_the_records(ns) {
        let (driver, name) = (read["driver"].as_str().unwrap(), read["name"].as_str().unwrap());
        let history = stock_helm(ns, driver, &["history", name, "-o", "json", "--max", "1000"]);
        assert_eq!(history.code, 0, "stock helm history {ns}/{name}:\n{}", history.shown);
        let listed: Vec<Value> = parse_json(&history.stdout, "helm history")
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!({"version": r["revision"], "status": r["status"]}))
            .collect();
        assert_eq!(json!(listed), read["history"], "stock helm history of {ns}/{name}");
    }
}
