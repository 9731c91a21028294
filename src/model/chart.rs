//! What the release says of its chart, where the input carries it (release
//! JSON does, `helm template` output does not): the top chart's name,
//! Chart.yaml annotations and dependencies. [`crate::plan::subchart`] orders
//! the subcharts from it.

use std::collections::BTreeMap;

/// Chart metadata, where the input has it (release JSON does; `helm
/// template` output does not).
#[derive(Debug, Clone, Default)]
pub struct ChartMeta {
    pub name: String,
    pub annotations: BTreeMap<String, String>,
    pub dependencies: Vec<Dependency>,
    /// False for `helm template` input: there is no Chart.yaml to read.
    pub known: bool,
}

#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Dependency {
    pub name: String,
    #[serde(default)]
    pub alias: Option<String>,
    #[serde(default, rename = "depends-on")]
    pub depends_on: Vec<String>,
    /// Set by Helm's `ProcessDependencies` on every dependency that its
    /// condition and tags left enabled; it drops the others from the
    /// metadata it stores, and replaces `name` by the alias. A stored
    /// release's metadata therefore lists exactly the subcharts the release
    /// was rendered with, whether or not they rendered anything.
    #[serde(default)]
    pub enabled: bool,
}

impl Dependency {
    /// The name the parent chart knows it by: its alias, else its name.
    pub fn effective_name(&self) -> &str {
        self.alias.as_deref().filter(|a| !a.is_empty()).unwrap_or(&self.name)
    }
}
