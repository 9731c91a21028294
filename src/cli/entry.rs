//! The CLI's entry: the command named, its flags read into its request,
//! and the request handed to the driver with how to connect its world. The
//! same function serves the Wasm plugin (arguments from Helm's
//! `extraArgs`) and the native binary used by tests and benchmarks.

use super::arg_error::ArgError;
use super::connect::connect;
use super::driver::{drive, show, stopped};
use super::io::{read_input, Io};
use super::typed::{self, Parsed};
use super::{args, deploy, spec};
use crate::action::{Exit, Stop};
use crate::render::{Format, VersionShown};

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs one command and returns its exit code.
pub fn main(args: &[String], io: &mut Io) -> Exit {
    let Some((name, rest)) = args.split_first() else {
        let _ = io.stdout.write_all(spec::root_help().as_bytes());
        return Exit::Ok;
    };
    if matches!(name.as_str(), "help" | "-h" | "--help") {
        // `helm hooks help run`, as `helm help install`.
        let help = match rest.first().and_then(|c| spec::command(c)) {
            Some(c) => c.help(),
            None => spec::root_help(),
        };
        let _ = io.stdout.write_all(help.as_bytes());
        return Exit::Ok;
    }
    let Some(command) = spec::command(name) else {
        let unknown = format!("unknown command {name:?} for helm hooks\nRun 'helm hooks --help' for usage.");
        return stopped(io, &Stop::invalid(unknown));
    };
    let low = match args::parse(command, rest) {
        Ok(p) => p,
        Err(e) => return stopped(io, &usage_error(name, &e)),
    };
    if low.help {
        let _ = io.stdout.write_all(command.help().as_bytes());
        return Exit::Ok;
    }
    let (parsed, output) = match typed::read(command, low) {
        Ok(t) => t,
        Err(ArgError::Operands(usage)) => return stopped(io, &Stop::invalid(usage)),
        Err(e) => return stopped(io, &usage_error(name, &e)),
    };
    dispatch(parsed, output, io)
}

/// Each command to the driver, with how its world is connected: what is
/// particular to it.
fn dispatch(parsed: Parsed, output: Format, io: &mut Io) -> Exit {
    match parsed {
        Parsed::Plan(source, r) => drive(r, output, io, |io, _| read_input(io, source.as_deref(), "plan")),
        Parsed::Lint(source, r) => drive(r, output, io, |io, _| read_input(io, source.as_deref(), "lint")),
        Parsed::Run(r) => drive(r, output, io, |_, _| connect(None, None)),
        Parsed::Status(r) => drive(r, output, io, |_, _| connect(None, None)),
        Parsed::Deploy(a) => deploy::main(a, output, io),
        Parsed::Rollback(r, conflicts) => {
            drive(r, output, io, |_, _| Ok(connect(None, None)?.with_conflicts(conflicts)))
        }
        Parsed::Uninstall(r) => drive(r, output, io, |_, _| connect(None, None)),
        Parsed::Version => match show(io, &VersionShown(VERSION), output) {
            Ok(()) => Exit::Ok,
            Err(stop) => stopped(io, &stop),
        },
    }
}

/// A command line the command does not take, and where its usage is.
fn usage_error(command: &str, e: &ArgError) -> Stop {
    Stop::invalid(format!("{e}\nRun 'helm hooks {command} --help' for usage."))
}

/// Runs the CLI with an explicit stdin, capturing stdout and stderr; for tests.
pub fn run_captured(args: &[&str], stdin: &[u8]) -> (Exit, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = stdin;
    let code = main(&args, &mut Io { stdin: &mut input, stdin_terminal: false, stdout: &mut out, stderr: &mut err });
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::io::read_bounded;
    use crate::model::input;

    /// Input past the bound is an error once one byte past it is read,
    /// naming the bound and how to raise it.
    #[test]
    fn input_past_the_bound_is_refused() {
        let text = vec![b'#'; 3 << 20];
        assert_eq!(read_bounded(&mut &text[..], 3 << 20).unwrap().len(), 3 << 20);
        let e = read_bounded(&mut &text[..], 2 << 20).unwrap_err().to_string();
        assert!(e.starts_with("the input is larger than 2 MiB, the bound on what helm-hooks reads"), "{e}");
        assert!(e.contains("raise it with HELM_HOOKS_MAX_INPUT_MIB=<MiB>"), "{e}");
        assert_eq!(input::max_input_bytes(None).unwrap(), 64 << 20);
        assert_eq!(input::max_input_bytes(Some("200")).unwrap(), 200 << 20);
        assert_eq!(
            input::max_input_bytes(Some("lots")).unwrap_err().to_string(),
            "HELM_HOOKS_MAX_INPUT_MIB=\"lots\" is not a whole number of MiB above 0"
        );
        assert!(input::max_input_bytes(Some("0")).is_err());
    }

    /// Issue 31: `plan` shows a hook's own timeout; `lint` warns when it is longer than
    /// `--timeout`'s default, which would win.
    #[test]
    fn plan_shows_a_hook_timeout_and_lint_warns_when_timeout_wins() {
        let chart = |t: &str| {
            format!("---\n# Source: c/templates/j.yaml\nkind: Job\nmetadata:\n  name: j\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-timeout: {t}\n")
        };
        let (code, out, err) = run_captured(&["plan", "-"], chart("90s").as_bytes());
        assert_eq!(code, Exit::Ok, "{err}");
        assert!(out.contains("timeout=1m30s"), "{out}");
        let (_, out, _) = run_captured(&["plan", "-", "-o", "json"], chart("90s").as_bytes());
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["events"][0]["hooks"][0]["timeout"], "1m30s", "{out}");
        let (code, out, _) = run_captured(&["lint", "-"], chart("90s").as_bytes());
        assert_eq!(code, Exit::Ok, "{out}");
        let (code, out, _) = run_captured(&["lint", "-"], chart("20m").as_bytes());
        assert_eq!(code, Exit::Ok, "a warning: {out}");
        assert!(
            out.contains("helm.sh/hook-timeout: 20m0s is longer than --timeout's default 5m0s, which wins"),
            "{out}"
        );
        let (code, out, _) = run_captured(&["lint", "-"], chart("0s").as_bytes());
        assert_eq!(code, Exit::Invalid, "{out}");
    }

    /// An unknown `--event` names the event a typo meant, in every command
    /// that takes one (issue 32).
    #[test]
    fn an_unknown_event_names_the_one_meant() {
        let (code, _, err) = run_captured(&["plan", "-", "--event", "pre-instal"], release().as_bytes());
        assert_eq!(code, Exit::Invalid, "{err}");
        assert!(err.contains("unknown event \"pre-instal\" (did you mean pre-install?); use one of"), "{err}");
        let (_, _, err) = run_captured(&["plan", "-", "--event", "instal"], release().as_bytes());
        assert!(err.contains("(did you mean install?)"), "{err}");
        let (code, _, err) = run_captured(&["status", "r", "--event", "tset"], b"");
        assert_eq!(code, Exit::Invalid, "{err}");
        assert!(err.contains("unknown event \"tset\" (did you mean test?)"), "{err}");
        let (_, _, err) = run_captured(&["run", "r", "--event", "everything"], b"");
        assert!(err.contains("unknown event \"everything\"; use one of"), "{err}");
    }

    /// `deploy` after the `helm` before its pipe failed: the pipe's failure,
    /// not the input's (issue 32); exit 2 as for any input that is no release.
    #[test]
    fn deploy_says_the_command_before_the_pipe_failed() {
        let (code, _, err) = run_captured(&["deploy", "-"], b"");
        assert_eq!(code, Exit::Invalid, "{err}");
        assert!(err.starts_with("Error: nothing came through the pipe: the command before it failed"), "{err}");
        let (code, _, err) = run_captured(&["deploy", "-"], b"Error: UPGRADE FAILED\n");
        assert_eq!(code, Exit::Invalid, "{err}");
        assert!(err.contains("not the release as JSON (it begins \"Error: UPGRADE FAILED\")"), "{err}");
    }

    /// Without --parallel, the count over a table of `parallel` hooks says why
    /// they run one at a time, so that the two agree (issue 32).
    #[test]
    fn one_at_a_time_agrees_with_parallel_rows() {
        let (code, out, err) = run_captured(&["plan", "-", "--event", "test"], release().as_bytes());
        assert_eq!(code, Exit::Ok, "{err}");
        assert!(
            out.contains(
                "test: 4 hooks, one at a time by --parallel 1 (4 marked parallel run together with --parallel 2)\n"
            ),
            "{out}"
        );
        let (_, out, _) = run_captured(&["plan", "-", "--event", "test", "--parallel", "2"], release().as_bytes());
        assert!(out.contains("test: 4 hooks in 2 waves"), "{out}");
    }

    /// The isolated-group warning is advice about the chart: `plan` and
    /// `lint` give it, `deploy` does not repeat it on every command (issue 32).
    #[test]
    fn the_isolated_group_warning_is_plans_and_lints() {
        let cm = |name: &str, group: &str, deps: &str| {
            let deps = if deps.is_empty() {
                String::new()
            } else {
                format!("\n    helm.sh/depends-on/resource-groups: '[\"{deps}\"]'")
            };
            format!("---\n# Source: c/templates/{name}.yaml\nkind: ConfigMap\nmetadata:\n  name: {name}\n  annotations:\n    helm.sh/resource-group: {group}{deps}\n")
        };
        let manifest = [cm("a", "app", "db"), cm("b", "db", ""), cm("c", "monitoring", "")].concat();
        let (_, _, err) = run_captured(&["plan", "-"], manifest.as_bytes());
        assert!(err.contains("group \"monitoring\" is isolated"), "{err}");
        let (_, out, err) = run_captured(&["lint", "-"], manifest.as_bytes());
        assert!((out + &err).contains("group \"monitoring\" is isolated"), "{err}");
        let release = serde_json::json!({"name": "r", "namespace": "ns", "version": 1, "manifest": manifest,
            "chart": {"metadata": {"name": "c"}}, "info": {"status": "pending-install"}});
        let (_, _, err) = run_captured(&["deploy", "-"], release.to_string().as_bytes());
        assert!(!err.contains("isolated"), "{err}");
    }

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
        // lint -o json: each problem with its severity and location (README).
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
        let (_, help, _) = run_captured(&["plan", "--help"], b"");
        assert!(help.contains("Governs hooks only") && help.contains("resources: at most N applied"), "{help}");
    }

    /// `--parallel-all=false` is false (issue 20): unannotated hooks stay serial.
    #[test]
    fn boolean_flags_read_false() {
        let serial = "---\n# Source: c/templates/a.yaml\nkind: Job\nmetadata:\n  name: a\n  annotations:\n    helm.sh/hook: test\n---\n# Source: c/templates/b.yaml\nkind: Job\nmetadata:\n  name: b\n  annotations:\n    helm.sh/hook: test\n";
        let waves = |flags: &[&str]| {
            let (code, out, err) =
                run_captured(&[&["plan", "-", "-o", "json", "--parallel", "2"], flags].concat(), serial.as_bytes());
            assert_eq!(code, Exit::Ok, "{err}");
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
            doc["events"][0]["waves"].as_array().unwrap().len()
        };
        assert_eq!(waves(&[]), 2);
        assert_eq!(waves(&["--parallel-all"]), 1);
        assert_eq!(waves(&["--parallel-all=true"]), 1);
        assert_eq!(waves(&["--parallel-all=false"]), 2);
        assert_eq!(waves(&["--parallel-all=0"]), 2);
        let (code, _, err) = run_captured(&["plan", "-", "--parallel-all=yes"], serial.as_bytes());
        assert_eq!(code, Exit::Invalid);
        assert!(err.contains("invalid argument \"yes\" for --parallel-all"), "{err}");
    }

    /// `plan` and `lint` on a terminal say what to pipe instead of waiting.
    #[test]
    fn a_terminal_on_stdin_is_named() {
        for command in ["plan", "lint"] {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let mut stdin: &[u8] = b"";
            let args = [command.to_string()];
            let code =
                main(&args, &mut Io { stdin: &mut stdin, stdin_terminal: true, stdout: &mut out, stderr: &mut err });
            let err = String::from_utf8(err).unwrap();
            assert_eq!(code, Exit::Invalid);
            assert!(err.contains("stdin is a terminal") && err.contains(&format!("| helm hooks {command} -")), "{err}");
        }
    }

    /// A typo of a flag or an output is still invalid arguments, exit 2,
    /// naming the one meant (issue 32).
    #[test]
    fn a_typo_in_the_arguments_is_exit_2_with_the_word_meant() {
        let (code, out, err) = run_captured(&["plan", "-", "--paralel", "8"], release().as_bytes());
        assert_eq!((code, out.as_str()), (Exit::Invalid, ""));
        assert!(
            err.starts_with("Error: unknown flag --paralel for helm hooks plan; did you mean --parallel?\n"),
            "{err}"
        );
        let (code, _, err) = run_captured(&["lint", "-", "-o", "jsno"], release().as_bytes());
        assert_eq!(code, Exit::Invalid);
        assert!(err.contains("(did you mean -o json?); use -o text|json"), "{err}");
    }

    /// "1 wave", not "1 waves" (issue 20).
    #[test]
    fn counts_are_singular_when_one() {
        let (code, out, err) = run_captured(&["plan", "-", "--event", "test", "--parallel", "8"], release().as_bytes());
        assert_eq!(code, Exit::Ok, "{err}");
        assert!(out.contains("test: 4 hooks in 1 wave\n"), "{out}");
    }
}
