//! `-o`: every output format, one type for every command, as Helm's
//! `pkg/cli/output` has one `Format`. Each outcome states the formats it
//! offers once (`render::shown`); the flag table (`cli::spec`) takes `-o`'s
//! choices from there, the parser reads `-o` into this type, and the help,
//! the synopsis, the completion and the error for a format a command lacks
//! are made from that list.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// For people; progress on stdout with the report.
    Text,
    Json,
    /// The data of `json`, as YAML (`render::yaml`).
    Yaml,
    /// JUnit XML, a test case per hook, for CI systems.
    Junit,
    /// A report for CI job summaries, with a Mermaid timeline (`render::markdown`).
    Markdown,
    /// Graphviz (`render::dot`).
    Dot,
    Mermaid,
}

impl Format {
    #[cfg(test)]
    const ALL: [Format; 7] =
        [Format::Text, Format::Json, Format::Yaml, Format::Junit, Format::Markdown, Format::Dot, Format::Mermaid];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Dot => "dot",
            Format::Mermaid => "mermaid",
        }
    }

    #[cfg(test)]
    fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Where progress lines go while a command works: stdout beside a text
    /// report, stderr when stdout carries a document to be read by a tool.
    pub(crate) fn progress_on_stderr(self) -> bool {
        self != Format::Text
    }

    /// `text, json or markdown`, as help lists a command's formats.
    pub(crate) fn list(formats: &[Format]) -> String {
        let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_reads_back_from_its_name() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.name()), Some(f));
        }
        assert_eq!(Format::parse("xml"), None);
        assert_eq!(Format::list(&[Format::Text, Format::Json, Format::Markdown]), "text, json or markdown");
        assert_eq!(Format::list(&[Format::Text]), "text");
    }
}
