//! One definition of every command and flag (issue 22, item 4): parsing
//! (`cli::args`), each command's `--help`, the root help and the synopsis
//! all come from this table, and `tests/distribution.rs` holds the README,
//! docs/design.md, plugin.yaml and completion.yaml to it.
//!
//! A hand-written table rather than a parsing crate: it is all plugin.wasm
//! needs, and every byte of it runs under Helm's wazero.

use std::time::Duration;

use super::arg_error::ArgError;
use super::low_args::LowArgs;
use crate::action::deploy::DeployOutcome;
use crate::action::lint::LintOutcome;
use crate::action::plan::PlanOutcome;
use crate::action::rollback::RollbackOutcome;
use crate::action::run::RunOutcome;
use crate::action::status::StatusOutcome;
use crate::action::uninstall::UninstallOutcome;
use crate::base::time::{parse_duration, Millis};
use crate::model::event::Event;
use crate::plan::Target;
use crate::render::format::Format;
use crate::render::{Shown, VersionShown};

/// What a flag takes after its name, and how its value is kept: each
/// flag's conversion sits beside its definition (ripgrep's flag table).
#[derive(Debug, Clone, Copy)]
pub(super) enum Takes {
    /// A boolean, as pflag's: `--x` is true, `--x=false` false; never the
    /// next argument.
    Bool(fn(&mut LowArgs, bool)),
    /// A value, `--x V` or `--x=V`; the name is what the help shows.
    Value(&'static str, fn(&mut LowArgs, &str) -> Result<(), ArgError>),
    /// Helm's `--dry-run`: alone it means yes; a value only after `=`.
    DryRun(fn(&mut LowArgs, &str) -> Result<(), ArgError>),
    /// `-o`: one of these formats, the first the default.
    Format(&'static [Format]),
}

impl Takes {
    pub(super) fn is_bool(self) -> bool {
        matches!(self, Takes::Bool(_))
    }
}

/// Which command a table entry is: what the CLI dispatches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CommandId {
    Plan,
    Lint,
    Run,
    Deploy,
    Rollback,
    Uninstall,
    Status,
    Version,
}

#[derive(Debug, Clone, Copy)]
pub struct Flag {
    pub long: &'static str,
    pub short: Option<char>,
    pub(super) takes: Takes,
    /// May be given more than once, each time adding a value.
    repeats: bool,
    /// Another name of `alias_of` (Helm 3's `--atomic`).
    alias_of: Option<&'static str>,
    help: &'static str,
}

#[derive(Debug)]
pub struct Command {
    pub(super) id: CommandId,
    pub name: &'static str,
    /// What follows the command before its flags, as the synopsis shows it.
    operands: &'static str,
    /// Most operands the command takes.
    pub(super) max_operands: usize,
    /// One line, for the root help and `helm help hooks`.
    pub summary: &'static str,
    /// The paragraph `helm hooks COMMAND --help` opens with.
    about: &'static str,
    pub flags: &'static [Flag],
}

const fn flag(long: &'static str, takes: Takes, help: &'static str) -> Flag {
    Flag { long, short: None, takes, repeats: false, alias_of: None, help }
}

/// `-o` of a command: the formats its outcome offers (`render::Shown`),
/// the first the default, and what more its help says (`note`, may be empty).
const fn output(formats: &'static [Format], note: &'static str) -> Flag {
    Flag { long: "output", short: Some('o'), takes: Takes::Format(formats), repeats: false, alias_of: None, help: note }
}

const EVENTS: &str = "pre-install, post-install, pre-delete, post-delete, pre-upgrade, post-upgrade, \
                      pre-rollback, post-rollback, test";

/// `--parallel N`: a whole number; below 1 means 1 (Helm's serial order).
fn set_parallel(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    let n: i64 = v.parse().map_err(|_| ArgError::Invalid(format!("--parallel takes a whole number, not {v:?}")))?;
    a.parallel = Some(n.clamp(1, 1 << 20) as usize);
    Ok(())
}

const PARALLEL: Flag = flag(
    "parallel",
    Takes::Value("N", set_parallel),
    "hooks: at most N at once; N <= 1 is Helm's serial order (default 1). Governs hooks only, never resources",
);
const PARALLEL_ALL: Flag = flag(
    "parallel-all",
    Takes::Bool(|a, on| a.parallel_all = on),
    "hooks: treat hooks without helm.sh/hook-parallel as parallel",
);

/// `--parallel-resources N`: a whole number of at least 1.
fn set_parallel_resources(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    match v.parse::<i64>() {
        Ok(n) if n >= 1 => a.parallel_resources = Some(n.min(1 << 20) as usize),
        _ => {
            return Err(ArgError::Invalid(format!(
                "--parallel-resources takes a whole number of at least 1, not {v:?}"
            )))
        }
    }
    Ok(())
}

const PARALLEL_RESOURCES: Flag = flag(
    "parallel-resources",
    Takes::Value("N", set_parallel_resources),
    "resources: at most N applied and not yet ready at once (default: no limit; each batch is applied \
     at once, as Helm applies a release)",
);
/// What `--timeout 0` means: Helm 4's status waiter's
/// `DefaultStatusWatcherTimeout` (pkg/kube/statuswait.go), which every wait
/// of a Helm command given `--timeout 0` gets.
const ZERO_TIMEOUT: Duration = Duration::from_secs(30);

/// Helm's `--timeout` default.
pub(super) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// A Go duration. Zero is Helm 4's zero: its waiter's 30 s.
fn set_timeout(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    a.timeout = Some(match parse_duration(v) {
        Some(0) => ZERO_TIMEOUT,
        Some(ms) => Duration::from_millis(ms),
        None => {
            return Err(ArgError::Invalid(format!("--timeout takes a duration such as 5m, 90s or 1m30s, not {v:?}")))
        }
    });
    Ok(())
}

const TIMEOUT_HOOKS: Flag = flag(
    "timeout",
    Takes::Value("D", set_timeout),
    "each hook's wait, Go duration syntax (default 5m, as Helm; 0 means 30s, as Helm's waiter); a \
     helm.sh/hook-timeout shorter than it wins for its hook",
);
const TIMEOUT_DEPLOY: Flag = flag(
    "timeout",
    Takes::Value("D", set_timeout),
    "the whole operation after the pre-hooks, and each hook's wait, Go duration syntax (default 5m, \
     as Helm; 0 means 30s, as Helm's waiter); a helm.sh/hook-timeout shorter than it wins for its hook",
);
/// A Go duration; 0 asks for the default (one minute, at most `--timeout`).
fn set_readiness_timeout(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    let ms: Millis = parse_duration(v).ok_or_else(|| {
        ArgError::Invalid(format!("--readiness-timeout takes a duration such as 5m, 90s or 1m30s, not {v:?}"))
    })?;
    a.readiness_timeout_ms = Some(ms);
    Ok(())
}

const READINESS_TIMEOUT: Flag = flag(
    "readiness-timeout",
    Takes::Value("D", set_readiness_timeout),
    "each batch's wait for readiness (default 1m, at most --timeout)",
);
const IGNORE_FAIL_FAST: Flag = flag(
    "ignore-fail-fast",
    Takes::Bool(|a, on| a.ignore_fail_fast = on),
    "a failing helm.sh/hook-fail-fast hook warns instead of stopping the run",
);
const WAIT_FOR_JOBS: Flag = flag(
    "wait-for-jobs",
    Takes::Bool(|a, on| a.wait_for_jobs = on),
    "wait for every Job resource to complete (default: a Job that something is ordered after completes, \
     any other has started, as helm --wait)",
);

/// An `--event` value that is none of Helm's events, naming the one a typo
/// meant (`pre-instal`: `pre-install`); `install` only where `plan` takes it.
fn unknown_event(value: &str, install: bool) -> ArgError {
    let names = Event::ALL.iter().map(|e| e.as_str()).chain(install.then_some("install"));
    let meant =
        crate::base::spelling::nearest(value, names).map(|m| format!(" (did you mean {m}?)")).unwrap_or_default();
    let install = if install { ", install" } else { "" };
    ArgError::Invalid(format!("unknown event {value:?}{meant}; use one of {EVENTS}{install}"))
}

/// `plan --event E`: one more event (or `install`) to plan, each once, in order.
fn add_target(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    let target =
        if v == "install" { Target::Install } else { Target::Hooks(v.parse().map_err(|_| unknown_event(v, true))?) };
    if !a.targets.contains(&target) {
        a.targets.push(target);
    }
    Ok(())
}

/// `--event E` of `run` and `status`.
fn set_event(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    a.event = Some(v.parse().map_err(|_| unknown_event(v, false))?);
    Ok(())
}

const PLAN_FLAGS: &[Flag] = &[
    output(<PlanOutcome as Shown>::FORMATS, ""),
    Flag {
        long: "event",
        short: None,
        takes: Takes::Value("E", add_target),
        repeats: true,
        alias_of: None,
        help: "plan only event E (pre-install, post-install, pre-delete, post-delete, pre-upgrade, \
               post-upgrade, pre-rollback, post-rollback, test; or install for the resources). \
               Repeatable. Default: every event the release has",
    },
    flag(
        "all-events",
        // Every event again, as before the first --event.
        Takes::Bool(|a, on| {
            if on {
                a.targets.clear()
            }
        }),
        "plan every event that has hooks, and the resources (the default)",
    ),
    PARALLEL,
    PARALLEL_ALL,
    PARALLEL_RESOURCES,
];

const LINT_FLAGS: &[Flag] = &[
    output(<LintOutcome as Shown>::FORMATS, ""),
    flag("strict", Takes::Bool(|a, on| a.strict = on), "fail (exit 2) on warnings too, as helm lint --strict: for CI"),
];

const RUN_FLAGS: &[Flag] = &[
    output(
        <RunOutcome as Shown>::FORMATS,
        "all but text write progress to stderr. markdown: a report with a timeline chart for CI job \
         summaries (docs/report.md)",
    ),
    flag("event", Takes::Value("E", set_event), "the event whose hooks to run (default test)"),
    PARALLEL,
    PARALLEL_ALL,
    TIMEOUT_HOOKS,
    IGNORE_FAIL_FAST,
    flag(
        "logs",
        Takes::Bool(|a, on| a.logs = on),
        "print every Job and Pod hook's lines as they come, prefixed [hook pod/container], and every Pod \
         hook's logs at the end, as helm test --logs",
    ),
    Flag {
        long: "filter",
        short: None,
        takes: Takes::Value("name=X|!name=X", add_filter),
        repeats: true,
        alias_of: None,
        help: "run only hooks named X; !name=X skips X (repeatable, as helm test)",
    },
];

/// `--filter name=X` or `!name=X`, as `helm test`'s.
fn add_filter(a: &mut LowArgs, v: &str) -> Result<(), ArgError> {
    match v.split_once('=') {
        Some(("name", n)) => a.include.push(n.to_string()),
        Some(("!name", n)) => a.exclude.push(n.to_string()),
        _ => return Err(ArgError::Invalid(format!("--filter takes name=NAME or !name=NAME, not {v:?}"))),
    }
    Ok(())
}

/// Helm 4's flag of the same name (`helm install`, `upgrade`, `rollback`).
const FORCE_CONFLICTS: Flag = flag(
    "force-conflicts",
    Takes::Bool(|a, on| a.force_conflicts = on),
    "take over fields another field manager owns (server-side apply's force), as Helm's; without it such \
     a field fails the apply, as in Helm. Hooks never force",
);

const DEPLOY_FLAGS: &[Flag] = &[
    output(<DeployOutcome as Shown>::FORMATS, "json, yaml and markdown write progress to stderr"),
    PARALLEL,
    PARALLEL_ALL,
    PARALLEL_RESOURCES,
    TIMEOUT_DEPLOY,
    READINESS_TIMEOUT,
    IGNORE_FAIL_FAST,
    flag(
        "create-namespace",
        Takes::Bool(|a, on| a.create_namespace = on),
        "create the release namespace if it does not exist (as helm install)",
    ),
    flag(
        "skip-crds",
        Takes::Bool(|a, on| a.skip_crds = on),
        "do not install the chart's crds/ folder (installed on a first install only)",
    ),
    WAIT_FOR_JOBS,
    flag(
        "rollback-on-failure",
        Takes::Bool(|a, on| a.rollback_on_failure = on),
        "on failure, uninstall a first install or roll an upgrade back to the last successful revision, as Helm",
    ),
    Flag {
        long: "atomic",
        short: None,
        takes: Takes::Bool(|a, on| a.rollback_on_failure = on),
        repeats: false,
        alias_of: Some("rollback-on-failure"),
        help: "the same as --rollback-on-failure (Helm 3's name)",
    },
    FORCE_CONFLICTS,
    flag(
        "dry-run",
        Takes::DryRun(|a, v| server_dry_run(a, v, "deploy")),
        "print what would be created, updated (the fields, from a server-side dry-run apply), left unchanged \
         or deleted, batch by batch, and the hooks; apply and store nothing",
    ),
];

/// strconv.ParseBool, which pflag's boolean flags use.
pub(super) fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

/// `--dry-run` as Helm 4 reads it: alone, `=true`, `=server` mean yes;
/// `=false` and `=none` no.
fn dry_run_yes(v: &str) -> Result<bool, ArgError> {
    match v {
        "" | "server" => Ok(true),
        "none" => Ok(false),
        other => parse_bool(other).ok_or_else(|| {
            ArgError::Invalid(format!(
                "invalid dry-run value ({other:?}). Must be \"none\", \"server\", \"client\", true or false"
            ))
        }),
    }
}

/// A dry run that asks the API server is the only kind deploy and rollback
/// have: `=client` there is `helm hooks plan`.
fn server_dry_run(a: &mut LowArgs, v: &str, command: &str) -> Result<(), ArgError> {
    if v == "client" {
        return Err(ArgError::Invalid(format!(
            "--dry-run=client is not offered by helm hooks {command}: its dry run asks the API server \
             (--dry-run or --dry-run=server); a plan without a cluster is `helm hooks plan`"
        )));
    }
    a.dry_run = dry_run_yes(v)?;
    Ok(())
}

const ROLLBACK_FLAGS: &[Flag] = &[
    output(<RollbackOutcome as Shown>::FORMATS, "json, yaml and markdown write progress to stderr"),
    PARALLEL,
    PARALLEL_ALL,
    PARALLEL_RESOURCES,
    TIMEOUT_DEPLOY,
    READINESS_TIMEOUT,
    IGNORE_FAIL_FAST,
    WAIT_FOR_JOBS,
    FORCE_CONFLICTS,
    flag(
        "dry-run",
        Takes::DryRun(|a, v| server_dry_run(a, v, "rollback")),
        "print what the rollback would create, update, leave unchanged or delete, and the hooks it would run; \
         change nothing (no revision stored, nothing applied, no hook run)",
    ),
];

const UNINSTALL_FLAGS: &[Flag] = &[
    output(<UninstallOutcome as Shown>::FORMATS, "json, yaml and markdown write progress to stderr"),
    flag(
        "keep-history",
        Takes::Bool(|a, on| a.keep_history = on),
        "keep every revision, the latest marked uninstalled (as helm uninstall)",
    ),
    PARALLEL,
    PARALLEL_ALL,
    TIMEOUT_HOOKS,
    IGNORE_FAIL_FAST,
    flag(
        "dry-run",
        Takes::DryRun(|a, v| {
            // Helm's uninstall --dry-run is a boolean: =client is a yes too.
            a.dry_run = v == "client" || dry_run_yes(v)?;
            Ok(())
        }),
        "print the hooks that would run and what would be deleted, batch by batch; change nothing",
    ),
];

const STATUS_FLAGS: &[Flag] = &[
    output(<StatusOutcome as Shown>::FORMATS, ""),
    flag(
        "event",
        Takes::Value("E", set_event),
        "the event whose last run to show (default test, as helm status shows the last test suite run)",
    ),
    flag(
        "revision",
        Takes::Value("N", |a, v| {
            let n =
                v.parse().map_err(|_| ArgError::Invalid(format!("--revision takes a revision number, not {v:?}")))?;
            a.revision = Some(n);
            Ok(())
        }),
        "that revision's record instead of the latest",
    ),
];

const VERSION_FLAGS: &[Flag] = &[output(<VersionShown as Shown>::FORMATS, "")];

pub const COMMANDS: &[Command] = &[
    Command {
        id: CommandId::Plan,
        name: "plan",
        operands: "[- | RELEASE]",
        max_operands: 1,
        summary: "show what runs when, and why, without touching the cluster",
        about: "Plan a release's hooks and resources: per event, the hooks in waves with what each waits for \
                and why, and the resources in batches. The input is `helm template CHART` output or a release \
                as JSON (`helm install NAME CHART --dry-run=client -o json`) on stdin (-, the default), or an \
                installed release's latest revision read from the cluster (RELEASE; -n for its namespace).",
        flags: PLAN_FLAGS,
    },
    Command {
        id: CommandId::Lint,
        name: "lint",
        operands: "[- | RELEASE]",
        max_operands: 1,
        summary: "list every problem in the annotations; exit 2 on errors (--strict: on warnings too)",
        about: "Lint a release's annotations: every problem, errors first, each with its template path, \
                object, annotation and how to fix it, as plan and deploy give them; exit 2 when there are \
                errors, or with --strict any warning. Also warns of order bugs: \
                a workload whose pods name (envFrom, env valueFrom, volumes, serviceAccountName, \
                imagePullSecrets) a ConfigMap, Secret, ServiceAccount or PVC of the release that is created \
                after it starts (a post-install hook, a later weight, group or subchart) or deleted before \
                (hook-succeeded, uninstall before post-delete hooks). Input as for plan.",
        flags: LINT_FLAGS,
    },
    Command {
        id: CommandId::Run,
        name: "run",
        operands: "RELEASE",
        max_operands: 1,
        summary: "run an installed release's hooks for one event (default test), in parallel where allowed",
        about: "Run one event's hooks of an installed release (its latest revision, read from Helm's storage \
                in the cluster; -n for its namespace), in the plan's order, at most --parallel at once, as \
                `helm test` runs the test hooks. While hooks run, each says what keeps it waiting \
                (a pod not scheduled, an image that cannot be pulled, a Job's failed pods) when that changes, \
                looked at every 5 s, and that it still runs every 30 s.",
        flags: RUN_FLAGS,
    },
    Command {
        id: CommandId::Deploy,
        name: "deploy",
        operands: "-",
        max_operands: 1,
        summary: "install or upgrade the release Helm rendered, batch by batch in the plan's order",
        about: "Install or upgrade in the plan's order: the release Helm rendered, on stdin:\n\
                \x20 helm upgrade --install NAME CHART --dry-run=server --disable-openapi-validation -o json | helm hooks deploy -",
        flags: DEPLOY_FLAGS,
    },
    Command {
        id: CommandId::Rollback,
        name: "rollback",
        operands: "RELEASE [REVISION]",
        max_operands: 2,
        summary: "roll back to a stored revision (default: the previous one) in the plan's order",
        about: "Roll a release back to a stored revision (default, or 0: the one before the latest), applied \
                as deploy applies a release, as a new revision.",
        flags: ROLLBACK_FLAGS,
    },
    Command {
        id: CommandId::Uninstall,
        name: "uninstall",
        operands: "RELEASE",
        max_operands: 1,
        summary: "uninstall in reverse order, each batch gone before the next",
        about: "Uninstall a release: its pre-delete hooks, its resources in reverse plan order (each batch \
                gone before the next; helm.sh/resource-policy: keep honoured), its post-delete hooks, then \
                its stored revisions.",
        flags: UNINSTALL_FLAGS,
    },
    Command {
        id: CommandId::Status,
        name: "status",
        operands: "RELEASE",
        max_operands: 1,
        summary: "report the last run of an event's hooks from the release record, running nothing",
        about: "Report the last run of an event's hooks (default test) as the release record keeps it, \
                without running anything, as `helm status` shows the last test suite run: the same \
                outputs as run (-o markdown for CI job summaries, junit for test reports).",
        flags: STATUS_FLAGS,
    },
    Command {
        id: CommandId::Version,
        name: "version",
        operands: "",
        max_operands: 0,
        summary: "print the plugin's version",
        about: "Print the plugin's version.",
        flags: VERSION_FLAGS,
    },
];

/// A flag of Helm's own command that a `helm hooks` command does not take,
/// and where it belongs instead: refused with that (issue 41), as a flag
/// given to the wrong side of a pipe would otherwise cost a user a failed
/// guess at what went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HelmSide {
    /// `helm upgrade --install`'s: it changes what Helm renders, so it goes
    /// to the `helm` before `deploy`'s pipe.
    BeforeThePipe,
    /// Helm's `--wait`: the plugin's commands always wait, batch by batch.
    AlwaysWaits,
}

/// The flags of `helm upgrade --install` that shape the release Helm
/// renders (chart, values, naming, rendering checks): long names, and `-f`.
const RENDER_FLAGS: &[&str] = &[
    "set",
    "set-string",
    "set-file",
    "set-json",
    "set-literal",
    "values",
    "version",
    "devel",
    "repo",
    "username",
    "password",
    "keyring",
    "verify",
    "ca-file",
    "cert-file",
    "key-file",
    "insecure-skip-tls-verify",
    "plain-http",
    "pass-credentials",
    "dependency-update",
    "description",
    "labels",
    "post-renderer",
    "post-renderer-args",
    "reuse-values",
    "reset-values",
    "reset-then-reuse-values",
    "render-subchart-notes",
    "skip-schema-validation",
    "enable-dns",
    "disable-openapi-validation",
    "install",
    "take-ownership",
];

/// Where `name` (a long name, or one letter), a flag `command` does not
/// take, belongs when it is one of Helm's.
pub(super) fn helm_side(command: &Command, name: &str) -> Option<HelmSide> {
    use CommandId::*;
    match command.id {
        Deploy if RENDER_FLAGS.contains(&name) || name == "f" => Some(HelmSide::BeforeThePipe),
        Deploy | Rollback | Uninstall if name == "wait" => Some(HelmSide::AlwaysWaits),
        _ => None,
    }
}

pub(super) fn command(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

impl Command {
    /// The flag a name given on the command line means (a long name, or a
    /// short one as one character), aliases resolved to their own entry.
    pub(super) fn flag(&self, name: &str) -> Option<&'static Flag> {
        let flags: &'static [Flag] = self.flags;
        flags.iter().find(|f| f.long == name || (name.chars().count() == 1 && f.short == name.chars().next()))
    }

    /// The long flag (or `help`) that `name`, which none is, was probably
    /// meant to be (`paralel`: `parallel`).
    pub(super) fn meant(&self, name: &str) -> Option<&'static str> {
        let longs = self.flags.iter().map(|f| f.long).chain(["help"]);
        crate::base::spelling::nearest(name, longs)
    }

    /// The other commands that take a flag of this name: for the message
    /// that refuses it here.
    pub(super) fn others_with(&self, name: &str) -> Vec<&'static str> {
        COMMANDS.iter().filter(|c| c.name != self.name && c.flag(name).is_some()).map(|c| c.name).collect()
    }

    /// `helm hooks plan [- | RELEASE] [--event E]... [-o text|json|yaml|dot|mermaid]`,
    /// wrapped at `width` with continuation lines indented under the operands.
    fn synopsis(&self, width: usize) -> String {
        let head = format!("helm hooks {}", self.name);
        let mut words: Vec<String> = Vec::new();
        if !self.operands.is_empty() {
            words.push(self.operands.to_string());
        }
        let mut i = 0;
        while i < self.flags.len() {
            let f = &self.flags[i];
            if f.alias_of.is_some() {
                i += 1;
                continue;
            }
            // An alias shows beside its flag: [--rollback-on-failure|--atomic].
            let aliases: Vec<&str> = self.flags.iter().filter(|a| a.alias_of == Some(f.long)).map(|a| a.long).collect();
            let mut w = String::from("[");
            match (f.short, f.takes) {
                (Some(s), Takes::Format(formats)) => {
                    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
                    w.push_str(&format!("-{s} {}", names.join("|")))
                }
                (_, Takes::Value(v, _)) => w.push_str(&format!("--{} {v}", f.long)),
                _ => w.push_str(&format!("--{}", f.long)),
            }
            for a in aliases {
                w.push_str(&format!("|--{a}"));
            }
            w.push(']');
            if f.repeats {
                w.push_str("...");
            }
            words.push(w);
            i += 1;
        }
        // The output flag comes last in the synopsis, as readers look for it there.
        if let Some(pos) = words.iter().position(|w| w.starts_with("[-o ")) {
            let o = words.remove(pos);
            words.push(o);
        }
        let indent = " ".repeat(head.len() + 1);
        let mut out = head.clone();
        let mut line_len = head.len();
        for w in words {
            if line_len + 1 + w.len() > width && line_len > indent.len() {
                out.push('\n');
                out.push_str(&indent);
                out.push_str(&w);
                line_len = indent.len() + w.len();
            } else {
                out.push(' ');
                out.push_str(&w);
                line_len += 1 + w.len();
            }
        }
        out
    }

    /// `helm hooks COMMAND --help`.
    pub fn help(&self) -> String {
        let mut s = String::new();
        s.push_str(&wrap(self.about, 90));
        s.push_str("\n\nUsage:\n  helm hooks ");
        s.push_str(self.name);
        if !self.operands.is_empty() {
            s.push(' ');
            s.push_str(self.operands);
        }
        s.push_str(" [flags]\n\nFlags:\n");
        let mut rows: Vec<(String, String)> = self
            .flags
            .iter()
            .map(|f| {
                let short = f.short.map_or("    ".to_string(), |c| format!("-{c}, "));
                let (takes, help) = match f.takes {
                    Takes::Value(v, _) => (format!(" {v}"), f.help.to_string()),
                    Takes::Bool(_) | Takes::DryRun(_) => (String::new(), f.help.to_string()),
                    Takes::Format(formats) => {
                        let default = formats.first().map_or("text", |f| f.name());
                        let list = format!("{} (default {default})", Format::list(formats));
                        (" FORMAT".to_string(), if f.help.is_empty() { list } else { format!("{list}; {}", f.help) })
                    }
                };
                (format!("  {short}--{}{takes}", f.long), help)
            })
            .collect();
        rows.push(("  -h, --help".to_string(), "this help".to_string()));
        let col = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0) + 3;
        for (left, help) in rows {
            s.push_str(&left);
            s.push_str(&" ".repeat(col - left.len()));
            s.push_str(&wrap(&help, 100 - col).replace('\n', &format!("\n{}", " ".repeat(col))));
            s.push('\n');
        }
        if self.flags.iter().any(|f| f.takes.is_bool()) {
            s.push_str("\nA boolean flag takes =true or =false (also 1, 0, t, f), as Helm's flags do.\n");
        }
        s.push_str(
            "\nHelm's own flags (-n, --kube-apiserver, --kube-token, --kube-context, --debug) go to helm\n\
             itself; run 'helm hooks --help' for how the plugin reaches the cluster and its exit codes.\n",
        );
        s
    }
}

/// The synopsis of every command, as the README's "Commands" section shows it.
pub fn synopsis() -> String {
    COMMANDS.iter().map(|c| c.synopsis(100) + "\n").collect()
}

/// `helm hooks --help`.
pub(super) fn root_help() -> String {
    let mut s = String::from(
        "Run a release's hooks and resources in the order chart authors declare.\n\nUsage:\n  helm hooks COMMAND [flags]\n\nCommands:\n",
    );
    let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0) + 3;
    for c in COMMANDS {
        s.push_str(&format!("  {:width$}{}\n", c.name, c.summary));
    }
    s.push_str(&format!("\nSynopsis:\n{}", indent_lines(&synopsis(), "  ")));
    s.push_str(
        "\n\
Input of plan and lint (-, the default): `helm template CHART` output, or a release
as JSON (`helm install NAME CHART --dry-run=client -o json`), piped on stdin. A
RELEASE name reads the installed release's latest revision from the cluster instead,
as run does (-n for its namespace).

The plugin reaches the API server with a bearer token (helm --kube-apiserver URL
--kube-token TOKEN, CA in SSL_CERT_FILE) or through `kubectl proxy`
(--kube-apiserver http://127.0.0.1:8001).

Exit codes:
  0   success
  1   a hook or resource failed
  2   invalid input, annotations or arguments (nothing was applied); nothing on the
      pipe from a `helm` that failed before it
  3   cluster or permission error
  4   the release, or the revision asked for, is not stored in the namespace (the
      message names the namespaces that hold one: -n)
Stock Helm 4 exits 1 on any plugin failure: the code is the last words of the
message, `[exit code N]` (docs/commands.md, section Exit codes).

Run 'helm hooks COMMAND --help' for a command's flags.
",
    );
    s
}

fn indent_lines(text: &str, prefix: &str) -> String {
    text.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

/// Wraps `text` at `width` columns; explicit newlines are kept.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for (n, para) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        // A line that starts with spaces is an example: kept as written.
        if para.starts_with(' ') {
            out.push_str(para);
            continue;
        }
        let mut len = 0;
        for word in para.split_whitespace() {
            if len > 0 && len + 1 + word.len() > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += word.len();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_is_named_once_per_command() {
        for c in COMMANDS {
            for (i, f) in c.flags.iter().enumerate() {
                assert!(c.flags[..i].iter().all(|g| g.long != f.long), "{} has --{} twice", c.name, f.long);
                if let Some(target) = f.alias_of {
                    assert!(c.flags.iter().any(|g| g.long == target), "{}: --{} aliases nothing", c.name, f.long);
                }
            }
            // Helm's completion pairs the first short flag with the first long one.
            assert_eq!(c.flags[0].long, "output", "{}", c.name);
        }
    }

    #[test]
    fn synopsis_lines_fit_and_name_every_flag() {
        for c in COMMANDS {
            let s = c.synopsis(100);
            assert!(s.lines().all(|l| l.len() <= 100), "{s}");
            for f in c.flags {
                assert!(s.contains(&format!("--{}", f.long)) || f.short.is_some(), "{s} lacks --{}", f.long);
            }
        }
        assert!(command("plan").unwrap().synopsis(100).ends_with("[-o text|json|yaml|dot|mermaid]"));
    }

    /// `--help` holds the exit codes as a table, not a pointer to the README (issue 32).
    #[test]
    fn help_tells_the_exit_codes() {
        let help = root_help();
        for row in [
            "  0   success\n",
            "  1   a hook or resource failed\n",
            "  3   cluster or permission error\n",
            "  4   the release, or the revision asked for, is not stored",
        ] {
            assert!(help.contains(row), "{help}");
        }
        assert!(!help.contains("README"), "{help}");
    }

    #[test]
    fn help_lists_every_flag_of_its_command_only() {
        let deploy = command("deploy").unwrap().help();
        for f in DEPLOY_FLAGS {
            assert!(deploy.contains(&format!("--{}", f.long)), "{deploy}");
        }
        let run = command("run").unwrap().help();
        assert!(!run.contains("--create-namespace") && run.contains("--filter name=X|!name=X"), "{run}");
        assert!(run.starts_with("Run one event's hooks"), "{run}");
    }
}
