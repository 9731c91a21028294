//! Problems found in a chart's manifests, each tied to the document it came
//! from, so a user can fix every one of them in a single pass.
//!
//! Parsing and planning never stop at the first problem: they collect
//! [`Diagnostic`]s and the CLI prints all of them before exiting with code 2.

use std::fmt;

/// How bad a problem is. Errors stop `plan` and `run` before the cluster is
/// touched; warnings mirror values Helm itself tolerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Severity {
    Error,
    Warning,
}

/// Where a problem lives: the template path from the `# Source:` line (or
/// the hook's `path` in release JSON), the document's position in that file,
/// and the object it declares when that much could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    pub(crate) source: String,
    /// 1-based position among the documents of `source` in the input (used
    /// to keep Helm's document order, not shown to users).
    #[serde(skip)]
    pub(crate) document: usize,
    /// `Kind/name` when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) object: Option<String>,
}

impl Location {
    pub(crate) fn chart(chart: impl Into<String>) -> Self {
        Location { source: chart.into(), document: 0, object: None }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The document's position is not shown: Helm prints documents sorted
        // by kind, so it rarely matches the template file; Kind/name does.
        f.write_str(&self.source)?;
        match &self.object {
            Some(object) => write!(f, " {object}")?,
            // A document that could not be read as an object has only its
            // position to go by (within its template, or among the
            // documents of a stream without `# Source:` lines).
            None if self.document > 0 => write!(f, " (document {})", self.document)?,
            None => {}
        }
        Ok(())
    }
}

/// One problem: where, which annotation, what is wrong and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub(crate) severity: Severity,
    pub(crate) location: Location,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotation: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// About the chart's design, not about what a command is doing (an
    /// isolated resource group): `lint` and `plan` print it, the commands
    /// that act do not repeat it each time.
    #[serde(skip)]
    advice: bool,
}

impl Diagnostic {
    pub(crate) fn error(location: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            location,
            annotation: None,
            message: message.into(),
            help: None,
            advice: false,
        }
    }

    pub(crate) fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Self::error(location, message) }
    }

    pub(crate) fn on(mut self, annotation: &str) -> Self {
        self.annotation = Some(annotation.to_string());
        self
    }

    /// Marks it [`Diagnostic::advice`].
    pub(crate) fn advice(mut self) -> Self {
        self.advice = true;
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{level}: {}: ", self.location)?;
        if let Some(annotation) = &self.annotation {
            write!(f, "{annotation}: ")?;
        }
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

/// Collected problems, errors and warnings in the order they were found.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }
    pub(crate) fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| !d.is_error())
    }
    /// What a command that acts (`run`, `deploy`, `rollback`, `uninstall`)
    /// prints: all but advice, which `lint` and `plan` give.
    pub(crate) fn acting(&self) -> Diagnostics {
        Diagnostics(self.0.iter().filter(|d| !d.advice).cloned().collect())
    }
    pub(crate) fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }
}
