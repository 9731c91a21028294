//! What the release says of its chart, where the input carries it (release
//! JSON does, `helm template` output does not): the top chart's name,
//! Chart.yaml annotations and dependencies. [`crate::plan::subchart`] orders
//! the subcharts from it.

use std::collections::BTreeMap;

/// Chart metadata, where the input has it (release JSON does; `helm
/// template` output does not).
#[derive(Debug, Clone, Default)]
pub(crate) struct ChartMeta {
    pub(crate) name: String,
    pub(crate) annotations: BTreeMap<String, String>,
    pub(crate) dependencies: Vec<Dependency>,
    /// False for `helm template` input: there is no Chart.yaml to read.
    pub(crate) known: bool,
}

#[derive(Debug, Clone, Default, serde::Deserialize)]
pub(crate) struct Dependency {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) alias: Option<String>,
    #[serde(default, rename = "depends-on")]
    pub(crate) depends_on: Vec<String>,
    /// Set by Helm's `ProcessDependencies` on every dependency that its
    /// condition and tags left enabled; it drops the others from the
    /// metadata it stores, and replaces `name` by the alias. A stored
    /// release's metadata therefore lists exactly the subcharts the release
    /// was rendered with, whether or not they rendered anything.
    #[serde(default)]
    pub(crate) enabled: bool,
}

impl Dependency {
    /// The name the parent chart knows it by: its alias, else its name.
    pub(crate) fn effective_name(&self) -> &str {
        self.alias.as_deref().filter(|a| !a.is_empty()).unwrap_or(&self.name)
    }
}
