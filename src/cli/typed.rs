//! Each command's own struct, made once from the flags' typed values
//! (ripgrep's high-level arguments, from `cli::low_args`): defaults filled
//! in, values checked against each other, and the operands — the release,
//! the revision, stdin — typed here. A mistake is an [`ArgError`], shown as
//! every usage error is (exit 2).

use super::arg_error::ArgError;
use super::low_args::LowArgs;
use super::spec::{Command, CommandId, Takes, DEFAULT_TIMEOUT};
use crate::action::pipe;
use crate::base::time::{format_duration, Millis};
use crate::deploy::options::{DeployOptions, Flags};
use crate::model::event::Event;
use crate::plan::{PlanOptions, Target};
use crate::render::format::Format;
use crate::seam::Conflicts;

/// A command line, read into the struct of its command.
#[derive(Debug)]
pub enum Parsed {
    Plan(PlanArgs),
    Lint(PlanArgs),
    Run(RunArgs),
    Deploy(DeployArgs),
    Rollback(RollbackArgs),
    Uninstall(UninstallArgs),
    Status(StatusArgs),
    Version(Format),
}

pub fn read(command: &Command, low: LowArgs) -> Result<Parsed, ArgError> {
    let output = low.output.unwrap_or_else(|| default_format(command));
    Ok(match command.id {
        CommandId::Plan => Parsed::Plan(plan(low, output)),
        CommandId::Lint => Parsed::Lint(PlanArgs {
            source: source(&low),
            targets: Vec::new(),
            options: PlanOptions::default(),
            output,
            strict: low.strict,
        }),
        CommandId::Run => Parsed::Run(run(low, output)?),
        CommandId::Deploy => Parsed::Deploy(deploy(low, output)?),
        CommandId::Rollback => Parsed::Rollback(rollback(low, output)?),
        CommandId::Uninstall => Parsed::Uninstall(uninstall(low, output)?),
        CommandId::Status => Parsed::Status(status(low, output)?),
        CommandId::Version => Parsed::Version(output),
    })
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

/// `plan` and `lint`.
#[derive(Debug)]
pub struct PlanArgs {
    /// The installed release to read; `None`: stdin (`-`, the default).
    pub source: Option<String>,
    /// The events asked for, in order; empty: every event and the install.
    pub targets: Vec<Target>,
    pub options: PlanOptions,
    pub output: Format,
    /// `lint --strict`: warnings fail too.
    pub strict: bool,
}

fn source(low: &LowArgs) -> Option<String> {
    low.operands.first().filter(|s| *s != "-").cloned()
}

fn plan(low: LowArgs, output: Format) -> PlanArgs {
    let options = PlanOptions {
        parallel: low.parallel.unwrap_or(1),
        parallel_all: low.parallel_all,
        parallel_resources: low.parallel_resources,
    };
    PlanArgs { source: source(&low), targets: low.targets, options, output, strict: false }
}

/// The RELEASE operand, or the message that names the command's usage.
fn release_arg(low: &LowArgs, usage: &str) -> Result<String, ArgError> {
    low.operands.first().cloned().ok_or_else(|| ArgError::Invalid(format!("the release name is missing: {usage}")))
}

fn timeout_ms(low: &LowArgs) -> Millis {
    low.timeout.unwrap_or(DEFAULT_TIMEOUT).as_millis() as Millis
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

fn run(low: LowArgs, output: Format) -> Result<RunArgs, ArgError> {
    let release = release_arg(&low, "helm hooks run RELEASE")?;
    Ok(RunArgs {
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

fn status(low: LowArgs, output: Format) -> Result<StatusArgs, ArgError> {
    Ok(StatusArgs {
        release: release_arg(&low, "helm hooks status RELEASE")?,
        // Default test, as `helm status` shows the last test suite run.
        event: low.event.unwrap_or(Event::Test),
        revision: low.revision,
        output,
    })
}

/// `deploy -`: the release comes on stdin.
#[derive(Debug)]
pub struct DeployArgs {
    pub flags: Flags,
    pub output: Format,
    pub skip_crds: bool,
    pub conflicts: Conflicts,
}

/// `rollback RELEASE [REVISION]`.
#[derive(Debug)]
pub struct RollbackArgs {
    pub release: String,
    /// `None`: the one before the latest.
    pub revision: Option<u64>,
    pub flags: Flags,
    pub output: Format,
    pub conflicts: Conflicts,
}

/// `uninstall RELEASE`.
#[derive(Debug)]
pub struct UninstallArgs {
    pub release: String,
    pub flags: Flags,
    pub output: Format,
}

fn deploy(low: LowArgs, output: Format) -> Result<DeployArgs, ArgError> {
    if !low.operands.iter().all(|p| p == "-") {
        return Err(ArgError::Operands(pipe::USAGE.to_string()));
    }
    Ok(DeployArgs { flags: flags(&low)?, output, skip_crds: low.skip_crds, conflicts: conflicts(&low) })
}

fn rollback(low: LowArgs, output: Format) -> Result<RollbackArgs, ArgError> {
    const USAGE: &str = "helm hooks rollback RELEASE [REVISION]";
    let release = low.operands.first().cloned().ok_or_else(|| ArgError::Operands(format!("usage: {USAGE}")))?;
    let revision = match low.operands.get(1).map(|r| r.parse::<u64>()) {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(_)) => return Err(ArgError::Operands(format!("the revision must be a whole number; usage: {USAGE}"))),
    };
    Ok(RollbackArgs { release, revision, flags: flags(&low)?, output, conflicts: conflicts(&low) })
}

fn uninstall(low: LowArgs, output: Format) -> Result<UninstallArgs, ArgError> {
    let usage = "usage: helm hooks uninstall RELEASE [--keep-history]";
    let release = low.operands.first().cloned().ok_or_else(|| ArgError::Operands(usage.to_string()))?;
    Ok(UninstallArgs { release, flags: flags(&low)?, output })
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

    fn read_for(cmd: &str, args: &[&str]) -> Result<Parsed, ArgError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let command = command(cmd).unwrap();
        read(command, parse(command, &args)?)
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
        // -o's default is the command's first format.
        let Ok(Parsed::Deploy(d)) = read_for("deploy", &[]) else { panic!("deploy") };
        assert_eq!(d.output, Format::Text);
        let Ok(Parsed::Rollback(r)) = read_for("rollback", &["r", "3"]) else { panic!("rollback") };
        assert_eq!((r.release.as_str(), r.revision), ("r", Some(3)));
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
