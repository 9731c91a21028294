//! Documents Helm drops before anyone sees them: a template whose
//! `helm.sh/hook` names an event Helm does not know (Helm 2's
//! `crd-install`, a typo) renders into nothing — Helm 4 logs "skipping
//! unknown hooks" and leaves the document out of `helm template` output and
//! of the release. Release JSON still carries the top chart's templates,
//! unrendered (`chart.templates`, base64), so there the loss can be named.
//! Subcharts' templates are not in a release, and `helm template` output
//! has no templates at all.

use crate::model::annotation::HOOK;
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::event::parse_events;
use crate::model::release::Release;

/// One chart template, unrendered: its path in the chart
/// (`templates/crds.yaml`) and its text.
pub(super) struct Template {
    pub(super) name: String,
    pub(super) text: String,
}

/// Warns about every document of a template of the top chart `chart` that
/// declares, as a literal, a hook event Helm does not know and did not reach
/// the release: by its literal name, or, where the name is built by the
/// template, when nothing of the template reached the release.
pub(super) fn check(chart: &str, templates: &[Template], release: &Release, diags: &mut Diagnostics) {
    for t in templates {
        let source = format!("{chart}/{}", t.name);
        let rendered: Vec<&str> = release
            .hooks
            .iter()
            .map(|h| (&h.source, &h.head.name))
            .chain(release.resources.iter().map(|r| (&r.source, &r.head.name)))
            .filter(|(s, _)| **s == source)
            .map(|(_, n)| n.as_str())
            .collect();
        for doc in unknown_hook_events(&t.text) {
            let gone = match &doc.name {
                Some(name) => !rendered.contains(&name.as_str()),
                None => rendered.is_empty(),
            };
            if !gone {
                continue;
            }
            let crd = doc.value.contains("crd-install");
            let object = match (&doc.kind, &doc.name) {
                (Some(k), Some(n)) => Some(format!("{k}/{n}")),
                _ => None,
            };
            let what = match (&doc.kind, &object) {
                (Some(k), None) => format!(" (on a {k})"),
                _ => String::new(),
            };
            diags.push(
                Diagnostic::warning(
                    Location { object, ..Location::chart(source.clone()) },
                    format!(
                        "{:?}{what} names an event Helm 4 does not know: Helm drops the whole document, so it is not in this release{}",
                        doc.value,
                        if crd { "; crd-install is Helm 2's, Helm 3 and 4 install CRDs from the chart's crds/ folder" } else { "" }
                    ),
                )
                .on(HOOK)
                .help(if crd {
                    "move the CRDs to the chart's crds/ folder, or drop the helm.sh/hook annotation to deploy them as resources"
                } else {
                    "use pre-install, post-install, pre-delete, post-delete, pre-upgrade, post-upgrade, pre-rollback, post-rollback or test"
                }),
            );
        }
    }
}

/// A document of a template whose `helm.sh/hook` names an unknown event.
#[derive(Debug, PartialEq, Eq)]
struct Dropped {
    /// `kind` and `metadata.name`, where the template writes them literally.
    kind: Option<String>,
    name: Option<String>,
    value: String,
}

/// The documents of a template whose literal `helm.sh/hook` names an unknown
/// event. Values built by template actions (`{{ … }}`) are not guessed at.
fn unknown_hook_events(text: &str) -> Vec<Dropped> {
    let mut out = Vec::new();
    let literal = |v: &str| (!v.is_empty() && !v.contains("{{")).then(|| v.to_string());
    let mut doc = Dropped { kind: None, name: None, value: String::new() };
    let mut values: Vec<String> = Vec::new();
    // The indentation of metadata's own keys, while inside `metadata:`.
    let mut meta: Option<Option<usize>> = None;
    let mut flush = |doc: &mut Dropped, values: &mut Vec<String>| {
        for value in values.drain(..) {
            out.push(Dropped { kind: doc.kind.clone(), name: doc.name.clone(), value });
        }
        *doc = Dropped { kind: None, name: None, value: String::new() };
    };
    for line in text.lines() {
        if line.starts_with("---") {
            flush(&mut doc, &mut values);
            meta = None;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        if indent == 0 && !trimmed.is_empty() && !trimmed.starts_with('#') {
            meta = (trimmed == "metadata:").then_some(None);
            if let Some(k) = trimmed.strip_prefix("kind:") {
                doc.kind = literal(unquote(k));
            }
            continue;
        }
        if let Some(own) = meta.as_mut() {
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                let own = *own.get_or_insert(indent);
                if indent == own {
                    if let Some(n) = trimmed.strip_prefix("name:") {
                        doc.name = literal(unquote(n));
                    }
                }
            }
        }
        let Some(rest) = [HOOK, "\"helm.sh/hook\"", "'helm.sh/hook'"]
            .iter()
            .find_map(|key| trimmed.strip_prefix(key).and_then(|r| r.strip_prefix(':')))
        else {
            continue;
        };
        let value = unquote(rest);
        if literal(value).is_some() && parse_events(value).is_err() {
            values.push(value.to_string());
        }
    }
    flush(&mut doc, &mut values);
    out
}

/// A YAML scalar as written on one line: without a trailing comment and
/// one pair of quotes.
fn unquote(raw: &str) -> &str {
    let v = raw.trim();
    let v = match v.find(" #") {
        Some(i) if !v.starts_with('"') && !v.starts_with('\'') => v[..i].trim_end(),
        _ => v,
    };
    v.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
        .unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    // ark 4.2.2's templates/backups.yaml, as release JSON carries it.
    const ARK: &str = "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: backups.ark.heptio.com\n  labels:\n    chart: {{ template \"ark.chart\" . }}\n  annotations:\n    \"helm.sh/hook\": crd-install\n    \"helm.sh/hook-delete-policy\": \"before-hook-creation\"\nspec:\n  group: ark.heptio.com\n";

    #[test]
    fn finds_literal_unknown_events_only() {
        assert_eq!(
            unknown_hook_events(ARK),
            [Dropped {
                kind: Some("CustomResourceDefinition".into()),
                name: Some("backups.ark.heptio.com".into()),
                value: "crd-install".into()
            }]
        );
        for fine in [
            "kind: Job\nmetadata:\n  annotations:\n    helm.sh/hook: pre-install, post-upgrade # both\n",
            "kind: Job\nmetadata:\n  annotations:\n    helm.sh/hook: {{ .Values.hook }}\n",
            "kind: Job\nmetadata:\n  annotations:\n    helm.sh/hook-weight: \"5\"\n",
        ] {
            assert!(unknown_hook_events(fine).is_empty(), "{fine}");
        }
        let two = "kind: A\nmetadata:\n  name: {{ .Release.Name }}-a\n  annotations:\n    'helm.sh/hook': pre-instal\n---\nkind: B\nmetadata:\n  labels:\n    name: not-this\n  name: b\n  annotations:\n    helm.sh/hook: crd-install\n";
        let found: Vec<(Option<String>, Option<String>)> =
            unknown_hook_events(two).into_iter().map(|d| (d.kind, d.name)).collect();
        assert_eq!(found, [(Some("A".into()), None), (Some("B".into()), Some("b".into()))]);
    }

    fn rendered(stream: &str) -> Release {
        crate::model::input::parse(stream.as_bytes(), &mut Diagnostics::default()).unwrap().1
    }

    #[test]
    fn warns_for_documents_that_did_not_reach_the_release() {
        let templates = [Template { name: "templates/backups.yaml".into(), text: ARK.into() }];
        let mut d = Diagnostics::default();
        check("ark", &templates, &Release::default(), &mut d);
        assert_eq!(d.0.len(), 1);
        let w = &d.0[0];
        assert!(!w.is_error());
        assert_eq!(w.location.source, "ark/templates/backups.yaml");
        assert_eq!(w.location.object.as_deref(), Some("CustomResourceDefinition/backups.ark.heptio.com"));
        assert!(w.message.contains("crd-install"), "{w}");

        // Another document of the same template was rendered: still named.
        let mut d = Diagnostics::default();
        let other = rendered("---\n# Source: ark/templates/backups.yaml\nkind: ConfigMap\nmetadata:\n  name: x\n");
        check("ark", &templates, &other, &mut d);
        assert_eq!(d.0.len(), 1, "{:?}", d.0);

        // The object itself is there (the template changed since): nothing to say.
        let mut d = Diagnostics::default();
        let same = rendered(
            "---\n# Source: ark/templates/backups.yaml\nkind: CustomResourceDefinition\nmetadata:\n  name: backups.ark.heptio.com\n",
        );
        check("ark", &templates, &same, &mut d);
        assert!(d.0.is_empty(), "{:?}", d.0);
    }
}
