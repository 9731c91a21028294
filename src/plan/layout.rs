//! Laying the release's resources out in batches ([`super::batch`]).
//!
//! Two rules, in this order:
//! 1. CustomResourceDefinitions and Namespaces come first, in a batch of
//!    their own, wherever they were rendered from: Helm installs a chart's
//!    CRDs before anything else and its kind order puts Namespaces first,
//!    and nothing that lives in them or is one of their kinds can be
//!    created before they exist.
//! 2. The rest is laid out as HIP-0025 does ([`crate::plan::subchart`]) when the
//!    release declares an order; otherwise it is one batch, applied at once
//!    and sorted by kind, exactly as stock Helm applies a release. HIP-0025
//!    sequencing is opt-in (`helm install --wait=ordered`): a chart that
//!    declares no order would only be slowed down, subchart after
//!    subchart, by an order its author never asked for.

use crate::base::bytes;
use crate::model::chart::ChartMeta;
use crate::model::diagnostic::Diagnostics;
use crate::model::resource::Resource;
use crate::plan::batch::{comes_first, Batch, Layout, Role};
use crate::plan::subchart;

/// The API groups of the release's resources.
fn used_groups(resources: &[Resource]) -> std::collections::BTreeSet<&str> {
    resources.iter().filter_map(|r| r.head.api_version.rsplit_once('/').map(|(group, _)| group)).collect()
}

/// Whether the CRD named `name` (`<plural>.<group>`, as the API server
/// requires) may define the kind of one of the release's resources: one is
/// of its group. Such a CRD must be established before that resource is
/// applied, so it comes first; a CRD none is of can be applied with the
/// rest, as stock Helm applies a chart's templated CRDs, and its wait is
/// the batch's (cert-manager's six, argo-cd's three). By group, not kind
/// (the kind is in the CRD's body, the group in its name): a CRD beside
/// one that is used comes first too. A name without a group is taken as
/// used.
fn defines_one_of(name: &str, used: &std::collections::BTreeSet<&str>) -> bool {
    name.split_once('.').is_none_or(|(_, group)| used.contains(group))
}

pub(super) fn plan(chart: &ChartMeta, resources: &[Resource], diags: &mut Diagnostics) -> Layout {
    let mut notes = Vec::new();
    let mut batches = if subchart::declares_order(chart, resources) {
        let batches = subchart::plan(chart, resources, diags);
        notes.push(if resources.iter().any(|r| bytes::contains(r.source.as_bytes(), b"/charts/")) {
            "ordered as HIP-0025 declares: each chart's subcharts before it (in their declared order), then its resource groups, then its other resources"
        } else {
            "ordered as HIP-0025 declares: resource groups in dependency order, then the other resources"
        }
        .to_string());
        if !chart.known && subchart::has_sibling_subcharts(resources) {
            notes.push(
                "the order between subcharts is declared in Chart.yaml, which `helm template` output does not carry: sibling subcharts are planned in name order; pipe `helm install NAME CHART --dry-run=client -o json` for the declared order"
                    .to_string(),
            );
        }
        batches
    } else {
        if !resources.is_empty() {
            notes.push(
                "the chart declares no order (no resource groups, no subchart order): its resources are applied at once, sorted by kind, as Helm does"
                    .to_string(),
            );
        }
        vec![Batch {
            chart: subchart::top_chart(chart, resources),
            role: Role::AllAtOnce,
            groups: Vec::new(),
            resources: (0..resources.len()).collect(),
        }]
    };
    let used = used_groups(resources);
    let first_here = |i: &usize| {
        let head = &resources[*i].head;
        comes_first(&head.kind) && (head.kind != "CustomResourceDefinition" || defines_one_of(&head.name, &used))
    };
    let first: Vec<usize> = batches.iter().flat_map(|b| &b.resources).copied().filter(first_here).collect();
    let unused_crds = resources
        .iter()
        .enumerate()
        .filter(|(i, r)| r.head.kind == "CustomResourceDefinition" && !first_here(i))
        .count();
    if unused_crds > 0 {
        notes.push(format!(
            "{} that no resource of the release is an instance of: applied with the rest in Helm's kind order, as Helm applies them",
            crate::base::text::count(unused_crds, "CRD")
        ));
    }
    if !first.is_empty() {
        for b in &mut batches {
            b.resources.retain(|i| !first.contains(i));
        }
        batches.insert(
            0,
            Batch {
                chart: subchart::top_chart(chart, resources),
                role: Role::CrdsAndNamespaces,
                groups: Vec::new(),
                resources: first,
            },
        );
        notes.push(
            "CRDs the release uses and Namespaces come first, ready before anything else: no instance of a kind can be created before its CRD is established, and Helm's kind order puts Namespaces first"
                .to_string(),
        );
    }
    batches.retain(|b| !b.resources.is_empty());
    Layout { batches, notes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::input;

    /// Each batch's role and resource names, and the notes.
    fn layout(stream: &str) -> (Vec<(Role, String)>, Vec<String>) {
        let mut d = Diagnostics::default();
        let (_, r) = input::parse(stream.as_bytes(), &mut d).unwrap();
        let l = plan(&r.chart, &r.resources, &mut d);
        assert!(!d.has_errors(), "{:?}", d.0);
        let batches = l
            .batches
            .iter()
            .map(|b| {
                let names: Vec<&str> = b.resources.iter().map(|&i| r.resources[i].head.name.as_str()).collect();
                (b.role, names.join(","))
            })
            .collect();
        (batches, l.notes)
    }

    fn doc(source: &str, kind: &str, name: &str, annotations: &str) -> String {
        format!("---\n# Source: {source}\nkind: {kind}\nmetadata:\n  name: {name}\n{annotations}")
    }

    #[test]
    fn a_chart_without_order_is_one_batch_after_its_crds_and_namespaces() {
        let stream = [
            doc("top/templates/cm.yaml", "ConfigMap", "cm", ""),
            doc("top/charts/a/templates/d.yaml", "Deployment", "a", ""),
            doc("top/charts/b/templates/m.yaml", "ServiceMonitor", "b", ""),
            doc("top/charts/b/crds/crd.yaml", "CustomResourceDefinition", "crd", ""),
            doc("top/templates/ns.yaml", "Namespace", "ns", ""),
        ]
        .concat();
        let (batches, notes) = layout(&stream);
        assert_eq!(batches, [(Role::CrdsAndNamespaces, "crd,ns".into()), (Role::AllAtOnce, "a,b,cm".into())]);
        assert!(notes.iter().any(|n| n.contains("declares no order")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("Namespaces come first")), "{notes:?}");
    }

    #[test]
    fn a_chart_that_declares_order_keeps_hip_0025_batches_after_its_crds() {
        let group = "  annotations:\n    helm.sh/resource-group: app\n";
        let stream = [
            doc("top/templates/cm.yaml", "ConfigMap", "cm", group),
            doc("top/templates/plain.yaml", "ConfigMap", "plain", ""),
            doc("top/charts/a/templates/d.yaml", "Deployment", "a", ""),
            doc("top/charts/a/templates/crd.yaml", "CustomResourceDefinition", "crd", ""),
        ]
        .concat();
        let (batches, notes) = layout(&stream);
        assert_eq!(
            batches,
            [
                (Role::CrdsAndNamespaces, "crd".into()),
                (Role::Unsequenced, "a".into()),
                (Role::Groups, "cm".into()),
                (Role::Unsequenced, "plain".into())
            ]
        );
        assert!(notes.iter().any(|n| n.contains("HIP-0025")), "{notes:?}");
    }

    #[test]
    fn a_crd_no_resource_uses_is_applied_with_the_rest() {
        let ns = "  namespace: x\n";
        let stream = [
            doc("top/templates/crds.yaml", "CustomResourceDefinition", "widgets.example.com", ""),
            doc("top/templates/crds.yaml", "CustomResourceDefinition", "gadgets.other.io", ""),
            doc("top/templates/cm.yaml", "ConfigMap", "cm", ns),
            "---\n# Source: top/templates/w.yaml\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
                .into(),
        ]
        .concat();
        let (batches, notes) = layout(&stream);
        assert_eq!(
            batches,
            [
                (Role::CrdsAndNamespaces, "widgets.example.com".into()),
                (Role::AllAtOnce, "cm,gadgets.other.io,w".into())
            ]
        );
        assert!(notes.iter().any(|n| n.starts_with("1 CRD that no resource")), "{notes:?}");
        // Nothing uses any: one batch, as Helm.
        let stream = doc("top/templates/crds.yaml", "CustomResourceDefinition", "gadgets.other.io", "")
            + &doc("top/templates/cm.yaml", "ConfigMap", "cm", "");
        assert_eq!(layout(&stream).0, [(Role::AllAtOnce, "cm,gadgets.other.io".into())]);
    }

    #[test]
    fn a_batch_left_empty_by_its_crds_is_dropped() {
        let stream = [
            doc("top/charts/crds/crds/a.yaml", "CustomResourceDefinition", "a", ""),
            doc("top/templates/x.yaml", "ConfigMap", "x", "  annotations:\n    helm.sh/resource-group: g\n"),
        ]
        .concat();
        let roles: Vec<Role> = layout(&stream).0.into_iter().map(|(role, _)| role).collect();
        assert_eq!(roles, [Role::CrdsAndNamespaces, Role::Groups]);
    }
}
