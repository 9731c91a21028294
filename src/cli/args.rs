//! Reading a command line against the table in `cli::spec`, with pflag's
//! rules (what Helm's own commands use, so `helm hooks` reads as `helm`
//! does): `--x=V` and `--x V`, `-oV`, `-o=V` and `-o V`; a boolean is true
//! alone and takes only `=value` (strconv.ParseBool's words); `--` ends the
//! flags; a flag the command does not have is refused, never ignored.

use super::arg_error::ArgError;
use super::low_args::LowArgs;
use super::spec::{parse_bool, Command, HelmSide, Takes};
use crate::render::format::Format;

/// `args` read against `command`'s flags, each value converted by its
/// flag's own setter as it is read.
pub(super) fn parse(command: &'static Command, args: &[String]) -> Result<LowArgs, ArgError> {
    let mut parsed = LowArgs::default();
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
        match flag.takes {
            Takes::Bool(set) => match inline {
                None => set(&mut parsed, true),
                Some(v) => match parse_bool(&v) {
                    Some(b) => set(&mut parsed, b),
                    None => return Err(ArgError::NotBool { flag: flag.long, value: v }),
                },
            },
            Takes::Value(_, set) => match inline.or_else(|| it.next().cloned()) {
                Some(v) => set(&mut parsed, &v)?,
                None => return Err(ArgError::Missing(flag.long)),
            },
            Takes::Format(formats) => match inline.or_else(|| it.next().cloned()) {
                Some(v) => match formats.iter().find(|f| f.name() == v) {
                    Some(f) => parsed.output = Some(*f),
                    None => return Err(unavailable(&v, formats)),
                },
                None => return Err(ArgError::Missing(flag.long)),
            },
            Takes::DryRun(set) => set(&mut parsed, &inline.unwrap_or_default())?,
        }
    }
    if !parsed.help && parsed.operands.len() > command.max_operands {
        return Err(ArgError::Extra(parsed.operands[command.max_operands].clone()));
    }
    Ok(parsed)
}

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

    fn parse_for(cmd: &str, args: &[&str]) -> Result<LowArgs, ArgError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(command(cmd).unwrap(), &args)
    }

    /// Every boolean flag of every command reads `=true`, `=false` and
    /// strconv.ParseBool's other words as pflag does, and refuses others:
    /// `--x=T` sets what `--x` sets, `--x=F` what leaving it out does.
    #[test]
    fn every_boolean_flag_reads_true_and_false() {
        for c in COMMANDS {
            for f in c.flags.iter().filter(|f| f.takes.is_bool()) {
                let flag = format!("--{}", f.long);
                // --all-events forgets the events before it: one is given first.
                let before: &[&str] = if f.long == "all-events" { &["--event", "test"] } else { &[] };
                let with = |more: &[&str]| {
                    let args: Vec<&str> = before.iter().chain(more).copied().collect();
                    parse_for(c.name, &args)
                };
                let (off, on) = (with(&[]).unwrap(), with(&[&flag]).unwrap());
                assert_ne!(off, on, "{} {flag} sets something", c.name);
                for t in ["1", "t", "T", "true", "TRUE", "True"] {
                    assert_eq!(with(&[&format!("{flag}={t}")]), Ok(on.clone()), "{} {flag}={t}", c.name);
                }
                for f in ["0", "f", "F", "false", "FALSE", "False"] {
                    assert_eq!(with(&[&format!("{flag}={f}")]), Ok(off.clone()), "{} {flag}={f}", c.name);
                }
                for bad in ["yes", "", "maybe", "2"] {
                    let e = with(&[&format!("{flag}={bad}")]).unwrap_err();
                    assert!(matches!(e, ArgError::NotBool { .. }), "{} {flag}={bad}: {e}", c.name);
                }
                // Never the next argument: `--logs false` is a flag and an operand.
                if c.max_operands > 0 {
                    let a = with(&[&flag, "false"]).unwrap();
                    assert_eq!(a.operands, ["false"], "{} {flag}", c.name);
                    assert_eq!(LowArgs { operands: Vec::new(), ..a }, on, "{} {flag}", c.name);
                }
            }
            // The last one given wins, as pflag.
            if let Some(f) = c.flags.iter().find(|f| f.takes.is_bool() && f.long != "all-events") {
                let flag = format!("--{}", f.long);
                assert_eq!(parse_for(c.name, &[&flag, &format!("{flag}=false")]), parse_for(c.name, &[]));
            }
        }
    }

    #[test]
    fn values_inline_after_or_short() {
        use crate::model::event::Event;
        use crate::plan::Target;
        let a = parse_for("plan", &["--event=test", "--event", "install", "-ojson", "-"]).unwrap();
        assert_eq!(
            (a.targets, a.output, a.operands.as_slice()),
            (vec![Target::Hooks(Event::Test), Target::Install], Some(Format::Json), &["-".to_string()][..])
        );
        assert_eq!(parse_for("plan", &["-o=dot"]).unwrap().output, Some(Format::Dot));
        assert_eq!(parse_for("plan", &["-o", "mermaid"]).unwrap().output, Some(Format::Mermaid));
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
        // Parsed straight into the one type.
        assert_eq!(parse_for("plan", &["-o", "mermaid"]).unwrap().output, Some(Format::Mermaid));
        assert!(parse_for("deploy", &["-o", "junit"]).is_err(), "deploy offers no junit");
    }

    #[test]
    fn atomic_is_rollback_on_failure() {
        assert!(parse_for("deploy", &["--atomic"]).unwrap().rollback_on_failure);
        assert!(!parse_for("deploy", &["--atomic", "--rollback-on-failure=false"]).unwrap().rollback_on_failure);
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
                assert_eq!(parse_for(cmd, args).map(|a| a.dry_run).ok(), want, "{cmd} {args:?}");
            }
        }
        assert!(parse_for("uninstall", &["--dry-run=client"]).unwrap().dry_run);
        // `--dry-run server` is the flag and an operand, as in Helm.
        assert_eq!(parse_for("uninstall", &["--dry-run", "r"]).unwrap().operands, ["r"]);
    }

    #[test]
    fn timeout_zero_is_helms_thirty_seconds() {
        use std::time::Duration;
        let t = |args: &[&str]| parse_for("run", args).map(|a| a.timeout);
        assert_eq!(t(&[]), Ok(None));
        assert_eq!(t(&["--timeout", "0"]), Ok(Some(Duration::from_secs(30))));
        assert_eq!(t(&["--timeout=0s"]), Ok(Some(Duration::from_secs(30))));
        assert_eq!(t(&["--timeout", "90s"]), Ok(Some(Duration::from_secs(90))));
        assert!(t(&["--timeout", "soon"]).is_err());
    }
}
