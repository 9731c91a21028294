//! The command line: `helm hooks plan|lint|version`. Parsing is by hand to
//! keep plugin.wasm small; every mistake gets one message and exit code 2.
//!
//! The same function serves the Wasm plugin (arguments from Helm's
//! `extraArgs`) and the native binary used by tests and benchmarks.

use std::io::{Read, Write};

use crate::model::diagnostic::Diagnostics;
use crate::model::input;
use crate::plan::{self, Options, Phase};
use crate::render;

mod deploy;
mod run;
mod status;

/// Exit codes (docs/design.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    /// A hook or resource failed.
    Failed = 1,
    /// Invalid input, annotations or arguments; nothing was applied.
    Invalid = 2,
    /// The cluster refused or could not be reached.
    Cluster = 3,
}

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

const USAGE: &str = "\
Run a release's hooks and resources in the order chart authors declare.

Usage:
  helm hooks plan [- | RELEASE] [--event E | --all-events] [--parallel N] [--parallel-all]
                  [--parallel-resources N] [-o text|json|dot|mermaid]
  helm hooks lint [- | RELEASE] [-o text|json]
  helm hooks run RELEASE [--event E] [--parallel N] [--parallel-all] [--timeout D]
                 [--ignore-fail-fast] [--logs] [--filter name=X|!name=X]...
                 [-o text|json|junit|markdown]
  helm hooks deploy - [--parallel N] [--parallel-all] [--parallel-resources N] [--timeout D]
                 [--readiness-timeout D] [--ignore-fail-fast] [-o text|json|markdown]
  helm hooks rollback RELEASE [REVISION] [same flags as deploy]
  helm hooks uninstall RELEASE [--keep-history] [--parallel N] [--timeout D]
                 [-o text|json|markdown]
  helm hooks status RELEASE [--event E] [--revision N] [-o text|json|junit|markdown]
  helm hooks version [-o text|json]

Input of plan and lint (-, the default): `helm template CHART` output, or a release
as JSON (`helm install NAME CHART --dry-run=client -o json`), piped on stdin. A
RELEASE name reads the installed release's latest revision from the cluster instead,
as run does (-n for its namespace).

Flags:
  --event E        plan only event E (pre-install, post-install, pre-delete, post-delete,
                   pre-upgrade, post-upgrade, pre-rollback, post-rollback, test; or install
                   for the resources). Repeatable. Default: every event the release has.
  --all-events     plan every event that has hooks, and the resources (the default)
  --parallel N     hooks: at most N at once; N <= 1 is Helm's serial order (default 1).
                   Governs hooks only, never resources.
  --parallel-all   hooks: treat hooks without helm.sh/hook-parallel as parallel
  --parallel-resources N
                   resources: at most N applied and not yet ready at once (default: no
                   limit; each batch is applied at once, as Helm applies a release)
  -o, --output F   output format
  -h, --help       this help

run flags (the release's latest revision is read from Helm's storage in the
cluster: Secrets, or ConfigMaps with HELM_DRIVER=configmap; namespace from -n):
  --event E          the event whose hooks to run (default test)
  --timeout D        each hook's wait, Go duration syntax (default 5m, as Helm)
  --ignore-fail-fast a failing helm.sh/hook-fail-fast hook warns instead of stopping the run
  --logs             print every Pod hook's logs, as `helm test --logs`
  --filter name=X    run only hooks named X; !name=X skips X (repeatable, as `helm test`)
  -o text|json|junit|markdown
                     the report; all but text write progress to stderr. markdown: a
                     report with a timeline chart for CI job summaries (docs/report.md)

status (the last run of an event's hooks, from the release record; runs nothing):
  --event E          the event (default test, as helm status shows the last test suite run)
  --revision N       that revision's record instead of the latest

deploy (install or upgrade in the plan's order; the release Helm rendered, on stdin):
  helm upgrade --install NAME CHART --dry-run=server -o json | helm hooks deploy -
  --timeout D            the whole operation, and each hook's wait (default 5m)
  --readiness-timeout D  each batch's wait for readiness (default 1m; at most --timeout)
  --parallel N           the hooks, as for run and plan
  --parallel-resources N the resources, as for plan
  --create-namespace     create the release namespace if it does not exist (as helm install)
  --skip-crds            do not install the chart's crds/ folder (installed on first install)
  --wait-for-jobs        wait for every Job resource to complete (default: a Job that something
                         is ordered after completes, any other has started, as helm --wait)
  --rollback-on-failure  on failure, uninstall a first install or roll an upgrade back to the
                         last successful revision, as Helm (--atomic is the same)
  --dry-run              print what would be created, updated (the fields, from a server-side
                         dry-run apply), left unchanged or deleted, batch by batch; apply nothing
rollback applies a stored revision (default: the one before the latest) the same way;
uninstall deletes in reverse order, each batch gone before the next.

The plugin reaches the API server with a bearer token (helm --kube-apiserver URL
--kube-token TOKEN, CA in SSL_CERT_FILE) or through `kubectl proxy`
(--kube-apiserver http://127.0.0.1:8001).

Exit codes: 0 success, 1 a hook or resource failed, 2 invalid input or annotations,
3 cluster or permission error. Under Helm 4's Wasm runtime every failure exits 1
(see docs/commands.md); the message names the code.
";

/// Streams the CLI reads and writes.
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

#[derive(Debug, PartialEq, Eq)]
enum Output {
    Text,
    Json,
    Dot,
    Mermaid,
}

#[derive(Debug)]
struct Args {
    source: Option<String>,
    phases: Vec<Phase>,
    options: Options,
    output: Output,
}

#[derive(Debug, thiserror::Error)]
enum ArgError {
    #[error("{0} needs a value")]
    Missing(String),
    #[error("unknown flag {0}")]
    UnknownFlag(String),
    #[error("{0}")]
    BadParallel(String),
    #[error("unknown event {0:?}; use one of pre-install, post-install, pre-delete, post-delete, pre-upgrade, post-upgrade, pre-rollback, post-rollback, test, install")]
    BadEvent(String),
    #[error("-o {0} is not available here; use {1}")]
    BadOutput(String, &'static str),
    #[error("unexpected argument {0:?}")]
    Extra(String),
}

fn parse_args(args: &[String], outputs: &'static str) -> Result<Args, ArgError> {
    let mut parsed = Args { source: None, phases: Vec::new(), options: Options::default(), output: Output::Text };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(arg);
        let mut value = |name: &str| -> Result<String, ArgError> {
            inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| ArgError::Missing(name.to_string()))
        };
        match flag {
            "--event" => {
                let v = value("--event")?;
                let phase = if v == "install" {
                    Phase::Install
                } else {
                    Phase::Hooks(v.parse().map_err(|_| ArgError::BadEvent(v.clone()))?)
                };
                if !parsed.phases.contains(&phase) {
                    parsed.phases.push(phase);
                }
            }
            "--all-events" => parsed.phases.clear(),
            "--parallel" => {
                let v = value("--parallel")?;
                parsed.options.parallel = parallel_value(&v).map_err(ArgError::BadParallel)?;
            }
            "--parallel-all" => parsed.options.parallel_all = true,
            "--parallel-resources" => {
                let v = value("--parallel-resources")?;
                parsed.options.parallel_resources = Some(parallel_resources_value(&v).map_err(ArgError::BadParallel)?);
            }
            "-o" | "--output" => {
                let v = value("--output")?;
                parsed.output = match v.as_str() {
                    "text" => Output::Text,
                    "json" => Output::Json,
                    "dot" if outputs.contains("dot") => Output::Dot,
                    "mermaid" if outputs.contains("mermaid") => Output::Mermaid,
                    _ => return Err(ArgError::BadOutput(v, outputs)),
                };
            }
            "-" => parsed.source = Some("-".into()),
            f if f.starts_with('-') => return Err(ArgError::UnknownFlag(arg.clone())),
            _ if parsed.source.is_none() => parsed.source = Some(arg.clone()),
            _ => return Err(ArgError::Extra(arg.clone())),
        }
    }
    Ok(parsed)
}

/// `--flag=value` as the flag and its value; any other argument whole.
fn split_flag(arg: &str) -> (&str, Option<String>) {
    match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
        _ => (arg, None),
    }
}

/// `--parallel N`: a whole number; below 1 means 1 (Helm's serial order).
fn parallel_value(v: &str) -> Result<usize, String> {
    let n: i64 = v.parse().map_err(|_| format!("--parallel takes a whole number, not {v:?}"))?;
    Ok(n.clamp(1, 1 << 20) as usize)
}

/// `--parallel-resources N`: a whole number of at least 1.
fn parallel_resources_value(v: &str) -> Result<usize, String> {
    match v.parse::<i64>() {
        Ok(n) if n >= 1 => Ok(n.min(1 << 20) as usize),
        _ => Err(format!("--parallel-resources takes a whole number of at least 1, not {v:?}")),
    }
}

/// Runs one command and returns its exit code.
pub fn main(args: &[String], io: &mut Io) -> Exit {
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest),
        None => ("help", &[][..]),
    };
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        let _ = io.stdout.write_all(USAGE.as_bytes());
        return Exit::Ok;
    }
    match command {
        "plan" => plan_or_lint(rest, io, false),
        "lint" => plan_or_lint(rest, io, true),
        "run" => run::main(rest, io),
        "deploy" => deploy::deploy(rest, io),
        "rollback" => deploy::rollback(rest, io),
        "uninstall" => deploy::uninstall(rest, io),
        "status" => status::main(rest, io),
        "version" => {
            let format = match rest {
                [] => Some("text"),
                [o, f] if o == "-o" || o == "--output" => Some(f.as_str()),
                _ => None,
            };
            match format {
                Some("text") => {
                    let _ = writeln!(io.stdout, "helm-hooks {VERSION}");
                    Exit::Ok
                }
                // For scripts that roll the plugin out and check which version is installed.
                Some("json") => {
                    let _ = writeln!(io.stdout, "{}", serde_json::json!({"name": "hooks", "version": VERSION}));
                    Exit::Ok
                }
                _ => {
                    let _ = writeln!(io.stderr, "Error: version takes only -o text|json\n\n{USAGE}");
                    Exit::Invalid
                }
            }
        }
        "help" | "-h" | "--help" => {
            let _ = io.stdout.write_all(USAGE.as_bytes());
            Exit::Ok
        }
        other => {
            let _ = writeln!(io.stderr, "Error: unknown command {other:?}\n\n{USAGE}");
            Exit::Invalid
        }
    }
}

fn plan_or_lint(rest: &[String], io: &mut Io, lint: bool) -> Exit {
    let outputs = if lint { "text or json" } else { "text, json, dot or mermaid" };
    let args = match parse_args(rest, outputs) {
        Ok(a) => a,
        Err(e) => {
            let _ = writeln!(
                io.stderr,
                "Error: {e}\nRun 'helm hooks {} --help' for usage.",
                if lint { "lint" } else { "plan" }
            );
            return Exit::Invalid;
        }
    };
    let mut bytes = Vec::new();
    if let Some(name) = args.source.as_deref().filter(|s| *s != "-") {
        match read_release(name) {
            Ok(b) => bytes = b,
            Err((code, e)) => {
                let _ = writeln!(io.stderr, "Error: {e}");
                return code;
            }
        }
    } else if let Err(e) = io.stdin.read_to_end(&mut bytes) {
        let _ = writeln!(io.stderr, "Error: cannot read stdin: {e}");
        return Exit::Invalid;
    }
    let mut diags = Diagnostics::default();
    let (format, release) = match input::parse(&bytes, &mut diags) {
        Ok(x) => x,
        Err(e) => {
            let _ = writeln!(io.stderr, "Error: {e}");
            return Exit::Invalid;
        }
    };
    let mut plan = plan::build(&release, &args.phases, args.options, &mut diags);
    if !lint && !diags.has_errors() {
        for e in &mut plan.events {
            if let Phase::Hooks(event) = e.phase {
                e.estimate = crate::plan::estimate::estimate(&release, e, args.options.parallel);
                let (n, all) = (args.options.parallel, args.options.parallel_all);
                e.hints.extend(crate::plan::estimate::hint(&release, event, e, n, all));
            }
        }
    }
    if lint {
        let report = match args.output {
            Output::Json => render::json::lint(&diags),
            _ => {
                let text = render::text::diagnostics(&diags, true);
                if text.is_empty() {
                    format!(
                        "no problems in {} and {}\n",
                        crate::base::text::count(release.hooks.len(), "hook"),
                        crate::base::text::count(release.resources.len(), "resource")
                    )
                } else {
                    text
                }
            }
        };
        let _ = io.stdout.write_all(report.as_bytes());
        let failed = diags.0.iter().any(|d| d.is_error() || d.lint_error);
        return if failed { Exit::Invalid } else { Exit::Ok };
    }
    let _ = io.stderr.write_all(render::text::diagnostics(&diags, false).as_bytes());
    if diags.has_errors() {
        let _ = writeln!(io.stderr, "Error: the plan has errors; nothing would run. Fix them and try again.");
        return Exit::Invalid;
    }
    let out = match args.output {
        Output::Text => render::text::plan(&release, &plan),
        Output::Json => render::json::plan(&release, format, &plan, &diags),
        Output::Dot => render::dot::plan(&plan),
        Output::Mermaid => render::mermaid::plan(&plan),
    };
    let _ = io.stdout.write_all(out.as_bytes());
    Exit::Ok
}

/// An installed release's latest revision, as JSON, from Helm's storage in
/// the cluster (as `run` reads it): what `plan RELEASE` and `lint RELEASE`
/// plan, with its hooks' `last_run`.
fn read_release(name: &str) -> Result<Vec<u8>, (Exit, String)> {
    let driver = crate::release::storage::Driver::from_env(std::env::var("HELM_DRIVER").ok().as_deref())
        .map_err(|e| (Exit::Invalid, e.to_string()))?;
    let mut client = crate::kube::connect_from_env().map_err(|e| (Exit::Cluster, e.to_string()))?;
    let stored =
        crate::release::storage::read_latest(&mut client, driver, name).map_err(|e| (Exit::Cluster, e.to_string()))?;
    Ok(stored.json())
}

/// Runs the CLI with an explicit stdin, capturing stdout and stderr; for tests.
pub fn run_captured(args: &[&str], stdin: &[u8]) -> (Exit, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = stdin;
    let code = main(&args, &mut Io { stdin: &mut input, stdout: &mut out, stderr: &mut err });
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four hooks of one weight and six resources in one batch.
    fn release() -> String {
        let mut s = String::new();
        for i in 0..4 {
            s.push_str(&format!("---\n# Source: c/templates/h{i}.yaml\nkind: Job\nmetadata:\n  name: h{i}\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-parallel: \"true\"\n"));
        }
        for i in 0..6 {
            s.push_str(&format!("---\n# Source: c/templates/r{i}.yaml\nkind: ConfigMap\nmetadata:\n  name: r{i}\n"));
        }
        s
    }

    fn waves(args: &[&str], event: &str) -> Vec<usize> {
        let (code, out, err) = run_captured(&[&["plan", "-", "-o", "json"], args].concat(), release().as_bytes());
        assert_eq!(code, Exit::Ok, "{err}");
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let e = doc["events"].as_array().unwrap().iter().find(|e| e["event"] == event).unwrap();
        e["waves"].as_array().unwrap().iter().map(|w| w.as_array().unwrap().len()).collect()
    }

    /// `helm template` output cannot carry Chart.yaml: a chart with sibling
    /// subcharts and no declared order lints clean; one whose documents
    /// show it is ordered gets a note in the plan, not a lint warning.
    #[test]
    fn template_input_without_chart_yaml_is_no_lint_problem() {
        let doc = |source: &str, name: &str, extra: &str| {
            format!(
                "---
# Source: top/{source}
kind: ConfigMap
metadata:
  name: {name}
{extra}"
            )
        };
        let plain = [doc("charts/a/templates/a.yaml", "a", ""), doc("charts/b/templates/b.yaml", "b", "")].concat();
        let (code, out, err) = run_captured(&["lint", "-"], plain.as_bytes());
        assert_eq!((code, out.as_str(), err.as_str()), (Exit::Ok, "no problems in 0 hooks and 2 resources\n", ""));
        let (_, out, err) = run_captured(&["plan", "-"], plain.as_bytes());
        assert!(err.is_empty() && !out.contains("Chart.yaml"), "{out}{err}");

        let ordered =
            format!("{plain}{}", doc("templates/c.yaml", "c", "  annotations:\n    helm.sh/resource-group: g\n"));
        let (code, out, _) = run_captured(&["lint", "-"], ordered.as_bytes());
        assert_eq!((code, out.as_str()), (Exit::Ok, "no problems in 0 hooks and 3 resources\n"));
        let (code, out, err) = run_captured(&["plan", "-"], ordered.as_bytes());
        assert_eq!(code, Exit::Ok);
        assert!(err.is_empty(), "{err}");
        assert!(out.contains("note: the order between subcharts is declared in Chart.yaml"), "{out}");
    }

    #[test]
    fn output_says_things_once_and_plainly() {
        // An event asked for that has no hooks: one line, no empty table.
        let (_, out, _) = run_captured(&["plan", "-", "--event", "post-delete"], release().as_bytes());
        assert!(out.ends_with("\npost-delete: no hooks\n"), "{out}");
        // lint -o json: each problem with its severity and location (docs/commands.md).
        let bad = "---\n# Source: c/templates/a.yaml\nkind: ClusterRole\nmetadata:\n  name: x\n  namespace: ns\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-weight: abc\n";
        let (_, out, _) = run_captured(&["lint", "-", "-o", "json"], bad.as_bytes());
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let w = &doc["warnings"][0];
        assert_eq!(w["severity"], "warning", "{out}");
        assert_eq!(w["location"], serde_json::json!({"source": "c/templates/a.yaml", "object": "ClusterRole/x"}));
        // The same object is named the same way in warnings and in the plan.
        let (_, out, err) = run_captured(&["plan", "-"], bad.as_bytes());
        assert!(err.contains(" ClusterRole/x: ") && out.contains("  ClusterRole/x "), "{out}{err}");
        assert!(!out.contains("ClusterRole/ns/x") && !err.contains("ClusterRole/ns/x"), "{out}{err}");
    }

    /// `--parallel` governs hooks, `--parallel-resources` resources; neither
    /// touches the other.
    #[test]
    fn each_parallel_flag_governs_its_own_items() {
        assert_eq!(waves(&[], "install"), [6]);
        assert_eq!(waves(&["--parallel", "2"], "install"), [6]);
        assert_eq!(waves(&["--parallel", "2"], "test"), [2, 2]);
        assert_eq!(waves(&["--parallel-resources", "4"], "install"), [4, 2]);
        assert_eq!(waves(&["--parallel-resources", "4"], "test"), [1, 1, 1, 1]);
        let (code, _, err) = run_captured(&["plan", "-", "--parallel-resources", "0"], release().as_bytes());
        assert_eq!(code, Exit::Invalid);
        assert!(err.contains("--parallel-resources takes a whole number of at least 1"), "{err}");
        let (_, help, _) = run_captured(&["--help"], b"");
        assert!(help.contains("Governs hooks only") && help.contains("resources: at most N applied"), "{help}");
    }
}
