//! What is wrong with a command line: one message each, exit 2.

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(super) enum ArgError {
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
    /// The operands are not what the command takes: said with its usage,
    /// without pointing at `--help`.
    #[error("{0}")]
    Operands(String),
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
