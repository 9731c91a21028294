//! Reading a command line against the table in `cli::spec`, with pflag's
//! rules (what Helm's own commands use, so `helm hooks` reads as `helm`
//! does): `--x=V` and `--x V`, `-oV`, `-o=V` and `-o V`; a boolean is true
//! alone and takes only `=value` (strconv.ParseBool's words); `--` ends the
//! flags; a flag the command does not have is refused, never ignored.

use std::time::Duration;

use super::spec::{Command, Flag, HelmSide, Takes};
use crate::render::format::Format;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ArgError {
    #[error("flag needs an argument: --{0}")]
    Missing(&'static str),
    #[error("unknown flag {flag} for helm hooks {command}{}{}", elsewhere(.others), did_you_mean(.meant))]
    Unknown {
        flag: String,
        command: &'static str,
        others: Vec<&'static str>,
        /// The flag of this command a typo away (`--paralel`), by its long name.
        meant: Option<&'static str>,
    },
    #[error(
        "invalid argument {value:?} for --{flag}: a boolean flag takes true or false \
         (also 1, 0, t, f, T, F, TRUE, FALSE, True, False)"
    )]
    NotBool { flag: &'static str, value: String },
    #[error("{0}")]
    Invalid(String),
    #[error("unexpected argument {0:?}")]
    Extra(String),
    /// One of `helm upgrade --install`'s flags, given after `deploy`'s pipe.
    #[error(
        "{flag} changes what Helm renders: it belongs to the helm before the pipe, which renders the release, \
         not to helm hooks deploy after it:\n  helm upgrade --install NAME CHART {flag} … --dry-run=server \
         --disable-openapi-validation -o json | helm hooks deploy -"
    )]
    BeforeThePipe { flag: String },
    /// Helm's `--wait`, which the plugin's commands always do.
    #[error(
        "{flag} is not needed: helm hooks {command} always waits, each batch ready (or gone) before the next \
         (Jobs complete with --wait-for-jobs, where the command takes it)"
    )]
    AlwaysWaits { flag: String, command: &'static str },
}

fn did_you_mean(meant: &Option<&str>) -> String {
    meant.map(|m| format!("; did you mean --{m}?")).unwrap_or_default()
}

fn elsewhere(others: &[&str]) -> String {
    match others {
        [] => String::new(),
        [one] => format!(" (only helm hooks {one} takes it)"),
        many => {
            format!(" (only {} take it)", many.iter().map(|c| format!("helm hooks {c}")).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A command line read against its command's flags.
#[derive(Debug)]
pub struct Args {
    pub command: &'static Command,
    pub operands: Vec<String>,
    /// Each flag given, by its own long name (an alias under its target's),
    /// with its value; a boolean's is "true" or "false".
    given: Vec<(&'static str, String)>,
    pub help: bool,
}

/// strconv.ParseBool, which pflag's boolean flags use.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

pub fn parse(command: &'static Command, args: &[String]) -> Result<Args, ArgError> {
    let mut parsed = Args { command, operands: Vec::new(), given: Vec::new(), help: false };
    let mut it = args.iter();
    let mut flags_done = false;
    while let Some(arg) = it.next() {
        if flags_done || arg == "-" || !arg.starts_with('-') {
            parsed.operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            flags_done = true;
            continue;
        }
        let (name, inline) = match arg.strip_prefix("--") {
            Some(long) => match long.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (long.to_string(), None),
            },
            // -oVALUE, -o=VALUE, -o VALUE
            None => {
                let mut chars = arg[1..].chars();
                let short = chars.next().map(String::from).unwrap_or_default();
                let rest = chars.as_str();
                let value = (!rest.is_empty()).then(|| rest.strip_prefix('=').unwrap_or(rest).to_string());
                (short, value)
            }
        };
        if name == "help" || name == "h" {
            parsed.help = true;
            continue;
        }
        let Some(flag) = command.flag(&name) else {
            let given = if arg.starts_with("--") { format!("--{name}") } else { format!("-{name}") };
            match super::spec::helm_side(command, &name) {
                Some(HelmSide::BeforeThePipe) => return Err(ArgError::BeforeThePipe { flag: given }),
                Some(HelmSide::AlwaysWaits) => {
                    return Err(ArgError::AlwaysWaits { flag: given, command: command.name });
                }
                None => {}
            }
            let others = command.others_with(&name);
            // Another command's flag is no typo; a short flag is one letter, as far from every other.
            let meant = (others.is_empty() && arg.starts_with("--")).then(|| command.meant(&name)).flatten();
            return Err(ArgError::Unknown { flag: arg.clone(), command: command.name, others, meant });
        };
        let key = flag.alias_of.unwrap_or(flag.long);
        let value = match flag.takes {
            Takes::Bool => match inline {
                None => "true".to_string(),
                Some(v) => match parse_bool(&v) {
                    Some(b) => b.to_string(),
                    None => return Err(ArgError::NotBool { flag: flag.long, value: v }),
                },
            },
            Takes::Value(_) => match inline.or_else(|| it.next().cloned()) {
                Some(v) => v,
                None => return Err(ArgError::Missing(flag.long)),
            },
            Takes::Format(formats) => match inline.or_else(|| it.next().cloned()) {
                Some(v) if formats.iter().any(|f| f.name() == v) => v,
                Some(v) => return Err(unavailable(&v, formats)),
                None => return Err(ArgError::Missing(flag.long)),
            },
            Takes::DryRun => inline.unwrap_or_default(),
        };
        parsed.given.push((key, value));
    }
    if !parsed.help && parsed.operands.len() > command.max_operands {
        return Err(ArgError::Extra(parsed.operands[command.max_operands].clone()));
    }
    Ok(parsed)
}

impl Args {
    fn check(&self, long: &str) -> &'static Flag {
        self.command.flag(long).unwrap_or_else(|| panic!("helm hooks {} has no --{long}", self.command.name))
    }

    /// The last value given for a flag.
    pub(super) fn value(&self, long: &str) -> Option<&str> {
        self.check(long);
        self.given.iter().rev().find(|(k, _)| *k == long).map(|(_, v)| v.as_str())
    }

    /// Every value given for a repeatable flag, in order.
    pub(super) fn values(&self, long: &str) -> Vec<&str> {
        self.check(long);
        self.given.iter().filter(|(k, _)| *k == long).map(|(_, v)| v.as_str()).collect()
    }

    /// Every flag given, in order, by its own long name with its value.
    pub(super) fn given(&self) -> &[(&'static str, String)] {
        &self.given
    }

    /// A boolean flag: its last `=value`, false when absent.
    pub(super) fn bool(&self, long: &str) -> bool {
        debug_assert_eq!(self.check(long).takes, Takes::Bool);
        self.value(long) == Some("true")
    }

    /// `--dry-run` as Helm 4 reads it: alone, `=true`, `=server` (and
    /// `=client` for uninstall, whose dry run is Helm's boolean) mean yes;
    /// `=false` and `=none` no. A dry run that asks the API server is the
    /// only kind deploy and rollback have: `=client` there is `helm hooks plan`.
    pub(super) fn dry_run(&self) -> Result<bool, ArgError> {
        let Some(v) = self.value("dry-run") else { return Ok(false) };
        match v {
            "" | "server" => Ok(true),
            "none" => Ok(false),
            "client" if self.command.name == "uninstall" => Ok(true),
            "client" => Err(ArgError::Invalid(format!(
                "--dry-run=client is not offered by helm hooks {}: its dry run asks the API server \
                 (--dry-run or --dry-run=server); a plan without a cluster is `helm hooks plan`",
                self.command.name
            ))),
            other => parse_bool(other).ok_or_else(|| {
                ArgError::Invalid(format!(
                    "invalid dry-run value ({other:?}). Must be \"none\", \"server\", \"client\", true or false"
                ))
            }),
        }
    }

    /// A Go duration flag. Zero is Helm 4's zero: its waiter's 30 s.
    pub(super) fn timeout(&self, long: &str, default: Duration) -> Result<Duration, ArgError> {
        let Some(v) = self.value(long) else { return Ok(default) };
        match crate::base::time::parse_duration(v) {
            Some(0) => Ok(ZERO_TIMEOUT),
            Some(ms) => Ok(Duration::from_millis(ms)),
            None => Err(ArgError::Invalid(format!("--{long} takes a duration such as 5m, 90s or 1m30s, not {v:?}"))),
        }
    }

    /// `-o`, checked by the parser against the command's formats; the
    /// first of them when not given.
    pub(super) fn format(&self) -> Format {
        let offered = match self.command.flag("output").map(|f| f.takes) {
            Some(Takes::Format(formats)) => formats,
            _ => &[Format::Text],
        };
        self.value("output").and_then(Format::parse).unwrap_or(offered[0])
    }

    /// `--parallel N`: a whole number; below 1 means 1 (Helm's serial order).
    pub(super) fn parallel(&self) -> Result<usize, ArgError> {
        let Some(v) = self.value("parallel") else { return Ok(1) };
        let n: i64 = v.parse().map_err(|_| ArgError::Invalid(format!("--parallel takes a whole number, not {v:?}")))?;
        Ok(n.clamp(1, 1 << 20) as usize)
    }

    /// `--parallel-resources N`: a whole number of at least 1.
    pub(super) fn parallel_resources(&self) -> Result<Option<usize>, ArgError> {
        let Some(v) = self.value("parallel-resources") else { return Ok(None) };
        match v.parse::<i64>() {
            Ok(n) if n >= 1 => Ok(Some(n.min(1 << 20) as usize)),
            _ => Err(ArgError::Invalid(format!("--parallel-resources takes a whole number of at least 1, not {v:?}"))),
        }
    }
}

/// What `--timeout 0` means: Helm 4's status waiter's
/// `DefaultStatusWatcherTimeout` (pkg/kube/statuswait.go), which every wait
/// of a Helm command given `--timeout 0` gets.
pub const ZERO_TIMEOUT: Duration = Duration::from_secs(30);

/// Helm's `--timeout` default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// `-o V` of a format the command does not offer, with the one meant.
fn unavailable(v: &str, formats: &[Format]) -> ArgError {
    let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
    let meant = crate::base::spelling::nearest(v, names.iter().copied());
    let meant = meant.map(|m| format!(" (did you mean -o {m}?)")).unwrap_or_default();
    ArgError::Invalid(format!("-o {v} is not available here{meant}; use -o {}", names.join("|")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::spec::{command, COMMANDS};

    fn parse_for(cmd: &str, args: &[&str]) -> Result<Args, ArgError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(command(cmd).unwrap(), &args)
    }

    /// Every boolean flag of every command reads `=true`, `=false` and
    /// strconv.ParseBool's other words as pflag does, and refuses others.
    #[test]
    fn every_boolean_flag_reads_true_and_false() {
        for c in COMMANDS {
            for f in c.flags.iter().filter(|f| f.takes == Takes::Bool) {
                let key = f.alias_of.unwrap_or(f.long);
                let flag = format!("--{}", f.long);
                let got = |args: &[&str]| parse_for(c.name, args).map(|a| a.bool(key));
                assert_eq!(got(&[]), Ok(false), "{} {flag}", c.name);
                assert_eq!(got(&[&flag]), Ok(true), "{} {flag}", c.name);
                for t in ["1", "t", "T", "true", "TRUE", "True"] {
                    assert_eq!(got(&[&format!("{flag}={t}")]), Ok(true), "{} {flag}={t}", c.name);
                }
                for f in ["0", "f", "F", "false", "FALSE", "False"] {
                    assert_eq!(got(&[&format!("{flag}={f}")]), Ok(false), "{} {flag}={f}", c.name);
                }
                // The last one given wins, as pflag.
                assert_eq!(got(&[&flag, &format!("{flag}=false")]), Ok(false));
                for bad in ["yes", "", "maybe", "2"] {
                    let e = got(&[&format!("{flag}={bad}")]).unwrap_err();
                    assert!(matches!(e, ArgError::NotBool { .. }), "{} {flag}={bad}: {e}", c.name);
                }
                // Never the next argument: `--logs false` is a flag and an operand.
                if c.max_operands > 0 {
                    let a = parse_for(c.name, &[&flag, "false"]).unwrap();
                    assert!(a.bool(key) && a.operands == ["false"], "{} {flag}", c.name);
                }
            }
        }
    }

    #[test]
    fn values_inline_after_or_short() {
        let a = parse_for("plan", &["--event=test", "--event", "install", "-ojson", "-"]).unwrap();
        assert_eq!(
            (a.values("event"), a.value("output"), a.operands.as_slice()),
            (vec!["test", "install"], Some("json"), &["-".to_string()][..])
        );
        assert_eq!(parse_for("plan", &["-o=dot"]).unwrap().value("output"), Some("dot"));
        assert_eq!(parse_for("plan", &["-o", "mermaid"]).unwrap().value("output"), Some("mermaid"));
        assert_eq!(parse_for("plan", &["--event"]).unwrap_err(), ArgError::Missing("event"));
        assert_eq!(parse_for("plan", &["--", "--event"]).unwrap().operands, ["--event"]);
        assert!(matches!(parse_for("plan", &["a", "b"]).unwrap_err(), ArgError::Extra(b) if b == "b"));
    }

    #[test]
    fn a_flag_of_another_command_is_refused_with_where_it_belongs() {
        let e = parse_for("rollback", &["r", "--create-namespace"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown flag --create-namespace for helm hooks rollback (only helm hooks deploy takes it)"
        );
        let e = parse_for("uninstall", &["r", "--rollback-on-failure=false"]).unwrap_err();
        assert!(e.to_string().contains("only helm hooks deploy takes it"), "{e}");
        let e = parse_for("lint", &["--parallel", "2"]).unwrap_err();
        assert!(e.to_string().starts_with("unknown flag --parallel for helm hooks lint (only "), "{e}");
        let e = parse_for("plan", &["--nope"]).unwrap_err();
        assert_eq!(e.to_string(), "unknown flag --nope for helm hooks plan");
    }

    /// Issue 41: a flag of `helm upgrade --install` given to `deploy`, after the pipe, is
    /// refused with where it goes; Helm's `--wait` with why it is not needed. Other
    /// commands' unknown flags are refused as before.
    #[test]
    fn helms_flags_on_the_plugins_side_are_refused_with_the_fix() {
        for args in
            [&["-", "--set", "a=b"][..], &["-", "--set=a=b"], &["-", "-f", "v.yaml"], &["-", "--values", "v.yaml"]]
        {
            let e = parse_for("deploy", args).unwrap_err();
            assert!(matches!(&e, ArgError::BeforeThePipe { .. }), "{args:?}: {e:?}");
            let m = e.to_string();
            assert!(m.contains("it belongs to the helm before the pipe"), "{m}");
            assert!(m.contains("helm upgrade --install NAME CHART"), "{m}");
        }
        assert!(parse_for("deploy", &["-", "--version", "1.2.3"])
            .unwrap_err()
            .to_string()
            .starts_with("--version changes what Helm renders"));
        let e = parse_for("rollback", &["r", "--wait"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--wait is not needed: helm hooks rollback always waits, each batch ready (or gone) before the next \
             (Jobs complete with --wait-for-jobs, where the command takes it)"
        );
        // Not Helm's render flags elsewhere: run has no pipe.
        assert!(matches!(parse_for("run", &["r", "--set", "x"]).unwrap_err(), ArgError::Unknown { .. }));
    }

    /// Issue 32: a typo of a flag or an output names the one meant.
    #[test]
    fn a_typo_names_the_flag_or_output_meant() {
        let e = parse_for("plan", &["-", "--paralel", "8"]).unwrap_err();
        assert_eq!(e.to_string(), "unknown flag --paralel for helm hooks plan; did you mean --parallel?");
        let e = parse_for("deploy", &["--parallel-resource=4"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown flag --parallel-resource=4 for helm hooks deploy; did you mean --parallel-resources?"
        );
        let e = parse_for("run", &["r", "--hlep"]).unwrap_err();
        assert_eq!(e.to_string(), "unknown flag --hlep for helm hooks run; did you mean --help?");
        // Far from every flag, or one letter: no guess.
        assert_eq!(
            parse_for("plan", &["--verbose"]).unwrap_err().to_string(),
            "unknown flag --verbose for helm hooks plan"
        );
        assert_eq!(parse_for("plan", &["-x"]).unwrap_err().to_string(), "unknown flag -x for helm hooks plan");
        let e = parse_for("plan", &["-o", "jsno"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "-o jsno is not available here (did you mean -o json?); use -o text|json|yaml|dot|mermaid"
        );
        let e = parse_for("plan", &["-o", "xml"]).unwrap_err();
        assert_eq!(e.to_string(), "-o xml is not available here; use -o text|json|yaml|dot|mermaid");
        // Parsed straight into the one type, the command's first format by default.
        assert_eq!(parse_for("plan", &["-o", "mermaid"]).unwrap().format(), Format::Mermaid);
        assert_eq!(parse_for("deploy", &[]).unwrap().format(), Format::Text);
        assert!(parse_for("deploy", &["-o", "junit"]).is_err(), "deploy offers no junit");
    }

    #[test]
    fn atomic_is_rollback_on_failure() {
        assert!(parse_for("deploy", &["--atomic"]).unwrap().bool("rollback-on-failure"));
        assert!(!parse_for("deploy", &["--atomic", "--rollback-on-failure=false"])
            .unwrap()
            .bool("rollback-on-failure"));
    }

    #[test]
    fn dry_run_reads_as_helm() {
        for (args, want) in [
            (&[][..], Some(false)),
            (&["--dry-run"][..], Some(true)),
            (&["--dry-run=server"][..], Some(true)),
            (&["--dry-run=true"][..], Some(true)),
            (&["--dry-run=false"][..], Some(false)),
            (&["--dry-run=none"][..], Some(false)),
            (&["--dry-run=client"][..], None),
            (&["--dry-run=maybe"][..], None),
        ] {
            for cmd in ["deploy", "rollback"] {
                assert_eq!(parse_for(cmd, args).unwrap().dry_run().ok(), want, "{cmd} {args:?}");
            }
        }
        assert_eq!(parse_for("uninstall", &["--dry-run=client"]).unwrap().dry_run(), Ok(true));
        // `--dry-run server` is the flag and an operand, as in Helm.
        assert_eq!(parse_for("uninstall", &["--dry-run", "r"]).unwrap().operands, ["r"]);
    }

    #[test]
    fn timeout_zero_is_helms_thirty_seconds() {
        let t = |args: &[&str]| parse_for("run", args).unwrap().timeout("timeout", DEFAULT_TIMEOUT);
        assert_eq!(t(&[]), Ok(DEFAULT_TIMEOUT));
        assert_eq!(t(&["--timeout", "0"]), Ok(Duration::from_secs(30)));
        assert_eq!(t(&["--timeout=0s"]), Ok(Duration::from_secs(30)));
        assert_eq!(t(&["--timeout", "90s"]), Ok(Duration::from_secs(90)));
        assert!(t(&["--timeout", "soon"]).is_err());
    }
}
