//! Each command's flags read once, right after parsing, into the command's
//! own struct (ripgrep's low-level arguments, one step from the table):
//! the values checked and converted here — durations, counts, events,
//! filters — and no command reads a flag by its name afterwards. A mistake
//! is an [`ArgError`], shown as every usage error is (exit 2).

use super::args::{ArgError, Args, DEFAULT_TIMEOUT};
use super::spec;
use crate::base::time::{format_duration, parse_duration, Millis};
use crate::deploy::options::Flags;
use crate::deploy::Options as DeployOptions;
use crate::kube::Conflicts;
use crate::model::event::Event;
use crate::plan::{Options, Target};
use crate::render::format::Format;

/// A command line, read into the struct of its command.
#[derive(Debug)]
pub enum Parsed {
    Plan(PlanArgs),
    Lint(PlanArgs),
    Run(RunArgs),
    Deploy(OperationArgs),
    Rollback(OperationArgs),
    Uninstall(OperationArgs),
    Status(StatusArgs),
    Version(Format),
}

pub fn read(args: &Args) -> Result<Parsed, ArgError> {
    Ok(match args.command.name {
        "plan" => Parsed::Plan(plan(args)?),
        "lint" => Parsed::Lint(PlanArgs {
            source: source(args),
            targets: Vec::new(),
            options: Options::default(),
            output: args.format(),
            strict: args.bool("strict"),
        }),
        "run" => Parsed::Run(run(args)?),
        "deploy" => Parsed::Deploy(operation(args)?),
        "rollback" => Parsed::Rollback(operation(args)?),
        "uninstall" => Parsed::Uninstall(operation(args)?),
        "status" => Parsed::Status(status(args)?),
        _ => Parsed::Version(args.format()),
    })
}

/// `plan` and `lint`.
#[derive(Debug)]
pub struct PlanArgs {
    /// The installed release to read; `None`: stdin (`-`, the default).
    pub source: Option<String>,
    /// The events asked for, in order; empty: every event and the install.
    pub targets: Vec<Target>,
    pub options: Options,
    pub output: Format,
    /// `lint --strict`: warnings fail too.
    pub strict: bool,
}

fn source(args: &Args) -> Option<String> {
    args.operands.first().filter(|s| *s != "-").cloned()
}

fn plan(args: &Args) -> Result<PlanArgs, ArgError> {
    let mut targets = Vec::new();
    // In the order given: `--all-events` forgets the events before it.
    for (flag, v) in args.given() {
        match *flag {
            "event" => {
                let target = if v == "install" {
                    Target::Install
                } else {
                    Target::Hooks(v.parse().map_err(|_| unknown_event(v, true))?)
                };
                if !targets.contains(&target) {
                    targets.push(target);
                }
            }
            // Every event again, as before the first --event.
            "all-events" if v == "true" => targets.clear(),
            _ => {}
        }
    }
    let options = Options {
        parallel: args.parallel()?,
        parallel_all: args.bool("parallel-all"),
        parallel_resources: args.parallel_resources()?,
    };
    Ok(PlanArgs { source: source(args), targets, options, output: args.format(), strict: false })
}

/// `--event` of `run` and `status`: default `test`, as `helm test` and `helm status`.
fn event_arg(args: &Args) -> Result<Event, ArgError> {
    match args.value("event") {
        None => Ok(Event::Test),
        Some(v) => v.parse().map_err(|_| unknown_event(v, false)),
    }
}

/// An `--event` value that is none of Helm's events, naming the one a typo
/// meant (`pre-instal`: `pre-install`); `install` only where `plan` takes it.
fn unknown_event(value: &str, install: bool) -> ArgError {
    let names = Event::ALL.iter().map(|e| e.as_str()).chain(install.then_some("install"));
    let meant =
        crate::base::spelling::nearest(value, names).map(|m| format!(" (did you mean {m}?)")).unwrap_or_default();
    let install = if install { ", install" } else { "" };
    ArgError::Invalid(format!("unknown event {value:?}{meant}; use one of {}{install}", spec::events()))
}

/// The RELEASE operand, or the message that names the command's usage.
fn release_arg(args: &Args, usage: &str) -> Result<String, ArgError> {
    args.operands.first().cloned().ok_or_else(|| ArgError::Invalid(format!("the release name is missing: {usage}")))
}

/// `run`.
#[derive(Debug)]
pub struct RunArgs {
    pub release: String,
    pub event: Event,
    pub parallel: usize,
    pub parallel_all: bool,
    pub timeout_ms: Millis,
    pub ignore_fail_fast: bool,
    pub logs: bool,
    /// `--filter name=X`: only these hooks (all when empty).
    pub include: Vec<String>,
    /// `--filter !name=X`: never these.
    pub exclude: Vec<String>,
    pub output: Format,
}

fn run(args: &Args) -> Result<RunArgs, ArgError> {
    let event = event_arg(args)?;
    let (mut include, mut exclude) = (Vec::new(), Vec::new());
    for v in args.values("filter") {
        match v.split_once('=') {
            Some(("name", n)) => include.push(n.to_string()),
            Some(("!name", n)) => exclude.push(n.to_string()),
            _ => return Err(ArgError::Invalid(format!("--filter takes name=NAME or !name=NAME, not {v:?}"))),
        }
    }
    let output = args.format();
    let release = release_arg(args, "helm hooks run RELEASE")?;
    Ok(RunArgs {
        release,
        event,
        parallel: args.parallel()?,
        parallel_all: args.bool("parallel-all"),
        timeout_ms: args.timeout("timeout", DEFAULT_TIMEOUT)?.as_millis() as Millis,
        ignore_fail_fast: args.bool("ignore-fail-fast"),
        logs: args.bool("logs"),
        include,
        exclude,
        output,
    })
}

/// `status`.
#[derive(Debug)]
pub struct StatusArgs {
    pub release: String,
    pub event: Event,
    /// `--revision`; the latest when `None`.
    pub revision: Option<u64>,
    pub output: Format,
}

fn status(args: &Args) -> Result<StatusArgs, ArgError> {
    let revision = match args.value("revision") {
        None => None,
        Some(v) => {
            Some(v.parse().map_err(|_| ArgError::Invalid(format!("--revision takes a revision number, not {v:?}")))?)
        }
    };
    Ok(StatusArgs {
        release: release_arg(args, "helm hooks status RELEASE")?,
        event: event_arg(args)?,
        revision,
        output: args.format(),
    })
}

/// `deploy`, `rollback` and `uninstall`: one struct, as their flags are
/// one set each takes a part of; a flag a command does not have is
/// refused by the parser, so here it is false.
#[derive(Debug)]
pub struct OperationArgs {
    /// What follows the command: `-`, or RELEASE [REVISION]; each command
    /// says its own usage when they are not what it takes.
    pub operands: Vec<String>,
    pub flags: Flags,
    pub output: Format,
    pub skip_crds: bool,
    pub conflicts: Conflicts,
}

fn operation(args: &Args) -> Result<OperationArgs, ArgError> {
    let has = |long: &str| args.command.flag(long).is_some();
    let flag = |long: &str| has(long) && args.bool(long);
    let timeout_ms = args.timeout("timeout", DEFAULT_TIMEOUT)?.as_millis() as Millis;
    let readiness_timeout_ms =
        match args.command.flag("readiness-timeout").and_then(|_| args.value("readiness-timeout")) {
            None => 0,
            Some(v) => parse_duration(v).ok_or_else(|| {
                ArgError::Invalid(format!("--readiness-timeout takes a duration such as 5m, 90s or 1m30s, not {v:?}"))
            })?,
        };
    let mut a = OperationArgs {
        operands: args.operands.clone(),
        flags: Flags {
            options: DeployOptions {
                parallel: args.parallel()?,
                parallel_all: flag("parallel-all"),
                parallel_resources: if has("parallel-resources") { args.parallel_resources()? } else { None },
                timeout_ms,
                readiness_timeout_ms,
                ignore_fail_fast: flag("ignore-fail-fast"),
                wait_for_jobs: flag("wait-for-jobs"),
            },
            keep_history: flag("keep-history"),
            create_namespace: flag("create-namespace"),
            rollback_on_failure: flag("rollback-on-failure"),
            dry_run: false,
            check_ownership: false,
        },
        output: args.format(),
        skip_crds: flag("skip-crds"),
        conflicts: if flag("force-conflicts") { Conflicts::Force } else { Conflicts::Fail },
    };
    a.flags.dry_run = has("dry-run") && args.dry_run()?;
    // HIP-0025: 0 means one minute, and it may not exceed --timeout.
    let o = &mut a.flags.options;
    if o.readiness_timeout_ms == 0 {
        o.readiness_timeout_ms = 60_000.min(o.timeout_ms);
    } else if o.readiness_timeout_ms > o.timeout_ms {
        return Err(ArgError::Invalid(format!(
            "--readiness-timeout ({}) must not exceed --timeout ({})",
            format_duration(o.readiness_timeout_ms),
            format_duration(o.timeout_ms)
        )));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::parse;
    use crate::cli::spec::command;

    fn read_for(cmd: &str, args: &[&str]) -> Result<Parsed, ArgError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        read(&parse(command(cmd).unwrap(), &args)?)
    }

    /// Each command's flags, read once into its struct, with the defaults
    /// the table's help promises.
    #[test]
    fn each_command_reads_into_its_struct() {
        let Ok(Parsed::Plan(p)) = read_for("plan", &["-", "--event", "test", "--all-events", "--event=install"]) else {
            panic!("plan")
        };
        assert_eq!((p.source, p.targets, p.output), (None, vec![Target::Install], Format::Text));
        let Ok(Parsed::Lint(l)) = read_for("lint", &["r", "-o", "yaml"]) else { panic!("lint") };
        assert_eq!((l.source.as_deref(), l.output), (Some("r"), Format::Yaml));
        let Ok(Parsed::Run(r)) = read_for("run", &["r", "--filter", "name=a", "--filter=!name=b", "--logs"]) else {
            panic!("run")
        };
        assert_eq!((r.event, r.include, r.exclude, r.logs), (Event::Test, vec!["a".into()], vec!["b".into()], true));
        assert_eq!(r.timeout_ms, 300_000);
        let Ok(Parsed::Status(s)) = read_for("status", &["r", "--revision", "3"]) else { panic!("status") };
        assert_eq!((s.revision, s.event), (Some(3), Event::Test));
        let Ok(Parsed::Deploy(d)) = read_for("deploy", &["-", "--atomic", "--timeout", "2m"]) else { panic!("deploy") };
        assert!(d.flags.rollback_on_failure && !d.flags.dry_run);
        assert_eq!((d.flags.options.timeout_ms, d.flags.options.readiness_timeout_ms), (120_000, 60_000));
        let Ok(Parsed::Uninstall(u)) = read_for("uninstall", &["r", "--dry-run=client"]) else { panic!("uninstall") };
        assert!(u.flags.dry_run && !u.flags.keep_history);
        assert!(matches!(read_for("version", &["-o", "json"]), Ok(Parsed::Version(Format::Json))));
    }

    /// A value that is no value of its flag is a usage error, said once here.
    #[test]
    fn values_are_checked_when_read() {
        let e = |cmd: &str, args: &[&str]| read_for(cmd, args).unwrap_err().to_string();
        assert_eq!(e("run", &["r", "--filter", "x"]), "--filter takes name=NAME or !name=NAME, not \"x\"");
        assert_eq!(e("status", &["r", "--revision", "last"]), "--revision takes a revision number, not \"last\"");
        assert_eq!(e("run", &[]), "the release name is missing: helm hooks run RELEASE");
        assert_eq!(
            e("deploy", &["-", "--timeout", "1m", "--readiness-timeout", "2m"]),
            "--readiness-timeout (2m0s) must not exceed --timeout (1m0s)"
        );
    }
}
