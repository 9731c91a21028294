//! Each command's request, made once from the flags' typed values
//! (ripgrep's high-level arguments, from `cli::low_args`; Helm's flags bound
//! to an action's fields): defaults filled in, values checked against each
//! other, and the operands — the release, the revision, stdin — typed here.
//! The request is the action's own struct (`action::*`), which the driver
//! prepares and performs. A mistake is an [`ArgError`], shown as every
//! usage error is (exit 2).

use super::arg_error::ArgError;
use super::low_args::LowArgs;
use super::spec::{Command, CommandId, Takes, DEFAULT_TIMEOUT};
use crate::action::lint::LintRequest;
use crate::action::pipe;
use crate::action::plan::PlanRequest;
use crate::action::rollback::RollbackRequest;
use crate::action::run::RunRequest;
use crate::action::status::StatusRequest;
use crate::action::uninstall::UninstallRequest;
use crate::base::time::{format_duration, Millis};
use crate::deploy::options::{DeployOptions, Flags};
use crate::model::event::Event;
use crate::plan::PlanOptions;
use crate::render::format::Format;
use crate::seam::Conflicts;

/// A command line, read into its command's request, with what the request
/// does not hold: where `plan`'s and `lint`'s input comes from (the
/// installed release named; `None`: stdin), and what a deploy or rollback
/// does with fields another manager owns (how the cluster is written to).
#[derive(Debug)]
pub(super) enum Parsed {
    Plan(Option<String>, PlanRequest),
    Lint(Option<String>, LintRequest),
    Run(RunRequest),
    Deploy(DeployArgs),
    Rollback(RollbackRequest, Conflicts),
    Uninstall(UninstallRequest),
    Status(StatusRequest),
    Version,
}

/// The command line read, and `-o`'s format.
pub(super) fn read(command: &Command, low: LowArgs) -> Result<(Parsed, Format), ArgError> {
    let output = low.output.unwrap_or_else(|| default_format(command));
    let parsed = match command.id {
        CommandId::Plan => Parsed::Plan(source(&low), plan(low)),
        CommandId::Lint => {
            Parsed::Lint(source(&low), LintRequest { strict: low.strict, default_timeout_ms: default_timeout_ms() })
        }
        CommandId::Run => Parsed::Run(run(low)?),
        CommandId::Deploy => Parsed::Deploy(deploy(low)?),
        CommandId::Rollback => {
            let conflicts = conflicts(&low);
            Parsed::Rollback(rollback(low)?, conflicts)
        }
        CommandId::Uninstall => Parsed::Uninstall(uninstall(low)?),
        CommandId::Status => Parsed::Status(status(low)?),
        CommandId::Version => Parsed::Version,
    };
    Ok((parsed, output))
}

/// `-o`'s default: the first format the command offers.
fn default_format(command: &Command) -> Format {
    command
        .flags
        .iter()
        .find_map(|f| match f.takes {
            Takes::Format(formats) => formats.first().copied(),
            _ => None,
        })
        .unwrap_or(Format::Text)
}

/// The installed release `plan` and `lint` read; `None`: stdin (`-`, the default).
fn source(low: &LowArgs) -> Option<String> {
    low.operands.first().filter(|s| *s != "-").cloned()
}

fn plan(low: LowArgs) -> PlanRequest {
    let options = PlanOptions {
        parallel: low.parallel.unwrap_or(1),
        parallel_all: low.parallel_all,
        parallel_resources: low.parallel_resources,
    };
    PlanRequest { targets: low.targets, options, default_timeout_ms: default_timeout_ms() }
}

/// `--timeout`'s default, against which `plan` and `lint` hold hook timeouts.
fn default_timeout_ms() -> Millis {
    DEFAULT_TIMEOUT.as_millis() as Millis
}

/// The RELEASE operand, or the message that names the command's usage.
fn release_arg(low: &LowArgs, usage: &str) -> Result<String, ArgError> {
    low.operands.first().cloned().ok_or_else(|| ArgError::Invalid(format!("the release name is missing: {usage}")))
}

fn timeout_ms(low: &LowArgs) -> Millis {
    low.timeout.unwrap_or(DEFAULT_TIMEOUT).as_millis() as Millis
}

fn run(low: LowArgs) -> Result<RunRequest, ArgError> {
    let release = release_arg(&low, "helm hooks run RELEASE")?;
    Ok(RunRequest {
        release,
        // Default test, as `helm test`.
        event: low.event.unwrap_or(Event::Test),
        parallel: low.parallel.unwrap_or(1),
        parallel_all: low.parallel_all,
        timeout_ms: timeout_ms(&low),
        ignore_fail_fast: low.ignore_fail_fast,
        logs: low.logs,
        include: low.include,
        exclude: low.exclude,
    })
}

fn status(low: LowArgs) -> Result<StatusRequest, ArgError> {
    Ok(StatusRequest {
        release: release_arg(&low, "helm hooks status RELEASE")?,
        // Default test, as `helm status` shows the last test suite run.
        event: low.event.unwrap_or(Event::Test),
        revision: low.revision,
    })
}

/// `deploy -`'s flags: its request is the release on stdin, read and
/// checked with them before the cluster is connected to (`cli::deploy`).
#[derive(Debug)]
pub(super) struct DeployArgs {
    pub(super) flags: Flags,
    pub(super) skip_crds: bool,
    pub(super) conflicts: Conflicts,
}

fn deploy(low: LowArgs) -> Result<DeployArgs, ArgError> {
    if !low.operands.iter().all(|p| p == "-") {
        return Err(ArgError::Operands(pipe::USAGE.to_string()));
    }
    Ok(DeployArgs { flags: flags(&low)?, skip_crds: low.skip_crds, conflicts: conflicts(&low) })
}

fn rollback(low: LowArgs) -> Result<RollbackRequest, ArgError> {
    const USAGE: &str = "helm hooks rollback RELEASE [REVISION]";
    let release = low.operands.first().cloned().ok_or_else(|| ArgError::Operands(format!("usage: {USAGE}")))?;
    let revision = match low.operands.get(1).map(|r| r.parse::<u64>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => return Err(ArgError::Operands(format!("the revision must be a whole number; usage: {USAGE}"))),
    };
    Ok(RollbackRequest { release, revision, flags: flags(&low)? })
}

fn uninstall(low: LowArgs) -> Result<UninstallRequest, ArgError> {
    let usage = "usage: helm hooks uninstall RELEASE [--keep-history]";
    let release = low.operands.first().cloned().ok_or_else(|| ArgError::Operands(usage.to_string()))?;
    Ok(UninstallRequest { release, flags: flags(&low)? })
}

fn conflicts(low: &LowArgs) -> Conflicts {
    if low.force_conflicts {
        Conflicts::Force
    } else {
        Conflicts::Fail
    }
}

/// What `deploy`, `rollback` and `uninstall` share (a flag the command
/// does not take was refused by the parser, so it is at its default).
fn flags(low: &LowArgs) -> Result<Flags, ArgError> {
    let timeout_ms = timeout_ms(low);
    // HIP-0025: 0 means one minute, and it may not exceed --timeout.
    let readiness_timeout_ms = match low.readiness_timeout_ms.unwrap_or(0) {
        0 => 60_000.min(timeout_ms),
        ms if ms > timeout_ms => {
            return Err(ArgError::Invalid(format!(
                "--readiness-timeout ({}) must not exceed --timeout ({})",
                format_duration(ms),
                format_duration(timeout_ms)
            )))
        }
        ms => ms,
    };
    Ok(Flags {
        options: DeployOptions {
            parallel: low.parallel.unwrap_or(1),
            parallel_all: low.parallel_all,
            parallel_resources: low.parallel_resources,
            timeout_ms,
            readiness_timeout_ms,
            ignore_fail_fast: low.ignore_fail_fast,
            wait_for_jobs: low.wait_for_jobs,
        },
        keep_history: low.keep_history,
        create_namespace: low.create_namespace,
        rollback_on_failure: low.rollback_on_failure,
        dry_run: low.dry_run,
        check_ownership: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::parse;
    use crate::cli::spec::command;
    use crate::plan::Target;

    fn read_for(cmd: &str, args: &[&str]) -> Result<Parsed, ArgError> {
        Ok(read_with_output(cmd, args)?.0)
    }

    fn read_with_output(cmd: &str, args: &[&str]) -> Result<(Parsed, Format), ArgError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let command = command(cmd).unwrap();
        read(command, parse(command, &args)?)
    }

    /// Each command's flags, read once into its struct, with the defaults
    /// the table's help promises.
    #[test]
    fn each_command_reads_into_its_struct() {
        let Ok((Parsed::Plan(source, p), output)) =
            read_with_output("plan", &["-", "--event", "test", "--all-events", "--event=install"])
        else {
            panic!("plan")
        };
        assert_eq!((source, p.targets, output), (None, vec![Target::Install], Format::Text));
        let Ok((Parsed::Lint(source, l), output)) = read_with_output("lint", &["r", "-o", "yaml", "--strict"]) else {
            panic!("lint")
        };
        assert_eq!((source.as_deref(), output, l.strict), (Some("r"), Format::Yaml, true));
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
        assert!(matches!(read_with_output("version", &["-o", "json"]), Ok((Parsed::Version, Format::Json))));
        // -o's default is the command's first format.
        let Ok((Parsed::Deploy(_), output)) = read_with_output("deploy", &[]) else { panic!("deploy") };
        assert_eq!(output, Format::Text);
        let Ok(Parsed::Rollback(r, conflicts)) = read_for("rollback", &["r", "3", "--force-conflicts"]) else {
            panic!("rollback")
        };
        assert_eq!((r.release.as_str(), r.revision, conflicts), ("r", Some(3), Conflicts::Force));
    }

    /// A value that is no value of its flag is a usage error, said once here.
    #[test]
    fn values_are_checked_when_read() {
        let e = |cmd: &str, args: &[&str]| read_for(cmd, args).unwrap_err().to_string();
        assert_eq!(e("run", &["r", "--filter", "x"]), "--filter takes name=NAME or !name=NAME, not \"x\"");
        assert_eq!(e("status", &["r", "--revision", "last"]), "--revision takes a revision number, not \"last\"");
        assert_eq!(e("run", &[]), "the release name is missing: helm hooks run RELEASE");
        assert_eq!(
            e("rollback", &["r", "last"]),
            "the revision must be a whole number; usage: helm hooks rollback RELEASE [REVISION]"
        );
        assert_eq!(e("uninstall", &[]), "usage: helm hooks uninstall RELEASE [--keep-history]");
        assert!(e("deploy", &["r"]).starts_with("deploy reads the release Helm renders, as JSON"));
        assert_eq!(
            e("deploy", &["-", "--timeout", "1m", "--readiness-timeout", "2m"]),
            "--readiness-timeout (2m0s) must not exceed --timeout (1m0s)"
        );
    }
}
