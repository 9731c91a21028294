//! The batches of the install plan: which resources are applied together,
//! each batch ready before the next, and why.
//!
//! The layout that makes them: [`super::layout`].

/// Why a batch exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Role {
    /// CustomResourceDefinitions and Namespaces, before everything else.
    CrdsAndNamespaces,
    /// Every other resource of a release that declares no order, at once.
    AllAtOnce,
    /// HIP-0025: resource groups of one chart level.
    Groups,
    /// HIP-0025: one chart level's resources outside any sequenced group.
    Unsequenced,
}

/// One batch of the install plan: resources that deploy together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The chart's display path (`app/db` for `app/charts/db`); the top
    /// chart for the batches that span the release.
    pub chart: String,
    pub(crate) role: Role,
    /// The resource groups of this batch (`Role::Groups`).
    pub groups: Vec<String>,
    pub resources: Vec<usize>,
}

/// What batch `b` of `batches` is, as plan and deploy print it: `CRDs and
/// Namespaces`, `all at once`, or HIP-0025's chart level (`app/db`, `app
/// group cache, databases`, `app unsequenced` beside group batches).
pub(crate) fn describe(batches: &[Batch], b: usize) -> String {
    let batch = &batches[b];
    match batch.role {
        Role::CrdsAndNamespaces => "CRDs and Namespaces".to_string(),
        Role::AllAtOnce => "all at once".to_string(),
        Role::Groups => format!("{} group {}", batch.chart, batch.groups.join(", ")),
        Role::Unsequenced if batches.iter().any(|x| x.chart == batch.chart && x.role == Role::Groups) => {
            format!("{} unsequenced", batch.chart)
        }
        Role::Unsequenced => batch.chart.clone(),
    }
}

/// The batches, and sentences that say why they are what they are.
#[derive(Debug, Clone, Default)]
pub(super) struct Layout {
    pub(super) batches: Vec<Batch>,
    pub(super) notes: Vec<String>,
}

/// Is this kind applied before everything else? (A CRD only when the
/// release uses it: `defines_one_of`.)
pub(super) fn comes_first(kind: &str) -> bool {
    matches!(kind, "CustomResourceDefinition" | "Namespace")
}
