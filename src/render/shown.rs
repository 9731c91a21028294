//! Every command's outcome as it is shown, as Helm's `pkg/cli/output` has a
//! `Writer` per result: each says once which formats it offers ([`Shown`]'s
//! `FORMATS`, the first the default) — the flag table takes `-o`'s choices,
//! its help and its completion from them (`cli::spec`) — and renders itself
//! through the file of the format asked. A format it does not offer is
//! refused ([`NotOffered`]), never shown as another.
//!
//! Besides outcomes, what a command says on the way: its problems on stderr
//! ([`problems`]), and its progress as lines ([`progress_lines`]).

use std::io::Write;

use super::format::Format;
use super::progress_lines::ProgressLines;
use super::timeline::{self, ReportedCommand};
use super::{dot, mermaid};
use super::{json, junit, markdown, text, yaml};
use crate::action::deploy::DeployOutcome;
use crate::action::lint::LintOutcome;
use crate::action::plan::{PlanOutcome, Planned};
use crate::action::rollback::RollbackOutcome;
use crate::action::run::RunOutcome;
use crate::action::status::StatusOutcome;
use crate::action::uninstall::UninstallOutcome;
use crate::deploy::preview::{Preview, UninstallPreview};
use crate::deploy::Report;
use crate::model::diagnostic::Diagnostics;

/// A format asked of an outcome that does not offer it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("-o {} is not offered here; use -o {}", .format.name(), names(.offered))]
pub(crate) struct NotOffered {
    format: Format,
    offered: &'static [Format],
}

fn names(formats: &[Format]) -> String {
    formats.iter().map(|f| f.name()).collect::<Vec<_>>().join("|")
}

/// An outcome that can be shown.
pub(crate) trait Shown {
    /// The formats it offers, the first the default.
    const FORMATS: &'static [Format];

    /// Shown in `format`, one of [`Shown::FORMATS`] (any other is refused).
    /// Each impl names every format, those it lacks in its refusing arm, so
    /// that a new format fails to compile until every outcome says what it
    /// does with it.
    fn render(&self, format: Format) -> Result<String, NotOffered>;

    /// The refusal of `format`.
    fn not_offered(format: Format) -> NotOffered {
        NotOffered { format, offered: Self::FORMATS }
    }
}

/// `plan`'s outcome: the release planned.
impl Shown for PlanOutcome {
    const FORMATS: &'static [Format] = &[Format::Text, Format::Json, Format::Yaml, Format::Dot, Format::Mermaid];

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        let Planned { release, format: input, plan, diags } = &self.0;
        Ok(match format {
            Format::Text => text::plan(release, plan),
            Format::Json => json::plan(release, *input, plan, diags),
            Format::Yaml => yaml::plan(release, *input, plan, diags),
            Format::Dot => dot::plan(plan),
            Format::Mermaid => mermaid::plan(plan),
            Format::Junit | Format::Markdown => return Err(Self::not_offered(format)),
        })
    }
}

/// `lint`'s outcome: every problem, as every command gives it; `strict`
/// (`lint --strict`): warnings shown as the errors they then are.
impl Shown for LintOutcome {
    const FORMATS: &'static [Format] = &[Format::Text, Format::Json, Format::Yaml];

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        let (diags, strict) = (&self.planned.diags, self.strict);
        Ok(match format {
            Format::Text => text::lint(&self.planned.release, diags, strict),
            Format::Json => json::lint(diags, strict),
            Format::Yaml => yaml::lint(diags, strict),
            Format::Junit | Format::Markdown | Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `run`'s outcome: what the run of one event's hooks of a release did.
impl Shown for RunOutcome {
    const FORMATS: &'static [Format] = &[Format::Text, Format::Json, Format::Yaml, Format::Junit, Format::Markdown];

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        let (summary, namespace) = (&self.summary, Some(self.namespace.as_str()));
        Ok(match format {
            Format::Text => text::run::summary_in(summary, namespace),
            Format::Json => json::summary(summary),
            Format::Yaml => yaml::summary(summary),
            Format::Junit => junit::summary(summary, &self.release),
            Format::Markdown => markdown::render(&timeline::from_run(
                ReportedCommand::Run,
                summary,
                &self.release,
                namespace,
                self.revision,
            )),
            Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `status`'s outcome: the last run of an event's hooks as the release
/// record keeps it, with the outputs of `run`.
impl Shown for StatusOutcome {
    const FORMATS: &'static [Format] = RunOutcome::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        Ok(match format {
            Format::Text => text::run::status(self),
            Format::Json => json::summary(&self.summary),
            Format::Yaml => yaml::summary(&self.summary),
            Format::Junit => junit::summary(&self.summary, &self.release),
            Format::Markdown => markdown::render(&timeline::from_run(
                ReportedCommand::Status,
                &self.summary,
                &self.release,
                Some(&self.namespace),
                Some(self.revision),
            )),
            Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `deploy`'s: the operation's report, or its dry run.
impl Shown for DeployOutcome {
    const FORMATS: &'static [Format] = ReportShown::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        match self {
            DeployOutcome::Report(report) => ReportShown { command: ReportedCommand::Deploy, report }.render(format),
            DeployOutcome::Preview(preview) => preview.render(format),
        }
    }
}

/// `rollback`'s: the operation's report, or its dry run.
impl Shown for RollbackOutcome {
    const FORMATS: &'static [Format] = ReportShown::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        match self {
            RollbackOutcome::Report(report) => {
                ReportShown { command: ReportedCommand::Rollback, report }.render(format)
            }
            RollbackOutcome::Preview(preview) => preview.render(format),
        }
    }
}

/// `uninstall`'s: the operation's report, or its dry run.
impl Shown for UninstallOutcome {
    const FORMATS: &'static [Format] = ReportShown::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        match self {
            UninstallOutcome::Report(report) => {
                ReportShown { command: ReportedCommand::Uninstall, report }.render(format)
            }
            UninstallOutcome::Preview(preview) => preview.render(format),
        }
    }
}

/// What an operation did, as the command that ran it reports it.
struct ReportShown<'a> {
    command: ReportedCommand,
    report: &'a Report,
}

impl Shown for ReportShown<'_> {
    const FORMATS: &'static [Format] = &[Format::Text, Format::Json, Format::Yaml, Format::Markdown];

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        Ok(match format {
            Format::Text => text::deploy::report(self.report),
            Format::Json => json::report(self.report),
            Format::Yaml => yaml::report(self.report),
            Format::Markdown => markdown::render(&timeline::from_deploy(self.command, self.report)),
            Format::Junit | Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `deploy --dry-run` and `rollback --dry-run`: what would be done, in the
/// formats of the operation's own report (Markdown: the text under a heading).
impl Shown for Preview {
    const FORMATS: &'static [Format] = ReportShown::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        Ok(match format {
            Format::Text => text::preview::preview(self),
            Format::Json => json::preview(self),
            Format::Yaml => yaml::preview(self),
            Format::Markdown => markdown::fenced("Dry run", &text::preview::preview(self)),
            Format::Junit | Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `uninstall --dry-run`: what would be deleted and run.
impl Shown for UninstallPreview {
    const FORMATS: &'static [Format] = ReportShown::FORMATS;

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        Ok(match format {
            Format::Text => text::preview::uninstall_preview(self),
            Format::Json => json::preview(self),
            Format::Yaml => yaml::preview(self),
            Format::Markdown => markdown::fenced("Dry run", &text::preview::uninstall_preview(self)),
            Format::Junit | Format::Dot | Format::Mermaid => return Err(Self::not_offered(format)),
        })
    }
}

/// `version`: the plugin's version, for people or for the scripts that roll
/// the plugin out and check which version is installed.
pub(crate) struct VersionShown(pub(crate) &'static str);

impl Shown for VersionShown {
    const FORMATS: &'static [Format] = &[Format::Text, Format::Json];

    fn render(&self, format: Format) -> Result<String, NotOffered> {
        Ok(match format {
            Format::Text => format!("helm-hooks {}\n", self.0),
            Format::Json => format!("{}\n", serde_json::json!({"name": "hooks", "version": self.0})),
            Format::Yaml | Format::Junit | Format::Markdown | Format::Dot | Format::Mermaid => {
                return Err(Self::not_offered(format))
            }
        })
    }
}

/// The problems a command found in its input, as it says them on stderr
/// before it acts (or refuses to).
pub(crate) fn problems(diags: &Diagnostics) -> String {
    text::diagnostics(diags, false)
}

/// Where a command's progress is said as lines, its objects in `namespace`
/// named without it.
pub(crate) fn progress_lines<'a>(out: &'a mut dyn Write, namespace: &str) -> ProgressLines<'a> {
    ProgressLines::new(out).within(namespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outcome refuses, by name, a format it does not offer.
    #[test]
    fn a_format_not_offered_is_refused_not_shown_as_another() {
        let v = VersionShown("1.2.3");
        assert_eq!(v.render(Format::Text).unwrap(), "helm-hooks 1.2.3\n");
        let e = v.render(Format::Markdown).unwrap_err();
        assert_eq!(e.to_string(), "-o markdown is not offered here; use -o text|json");
    }
}
