//! The CRDs a first install applies, as Helm's install takes them from the
//! chart and its subcharts (`Chart.CRDObjects`): read and checked before
//! anything is touched; installing them is [`super::crds`].
//!
//! Two places carry them. The release JSON has the top chart's files
//! (`chart.files`), so its `crds/` folder; a subchart's files it does not
//! carry. `helm show crds CHART`, piped before the release (`{ helm show
//! crds CHART; helm upgrade --install … -o json; } | helm hooks deploy -`),
//! prints every `crds/` file of the chart and its subcharts, in Helm's
//! order, without their names. When both are there, the shown ones are the
//! list, and each of the release's must be among them as it is in the
//! release: a `helm show crds` of another chart or version is refused
//! rather than installed (docs/design.md §4).

use std::fmt;

use serde_json::Value;

/// Where a CRD came from, for what deploy prints and Helm's error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `crds/<file>` of the top chart, as the release JSON names it.
    File(String),
    /// The `document`-th document that `helm show crds` printed and the
    /// release has no file for: a subchart's `crds/`.
    Shown { document: usize },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::File(name) => f.write_str(name),
            Origin::Shown { document } => write!(f, "helm show crds (document {document})"),
        }
    }
}

/// One CRD document of the chart's (or a subchart's) `crds/` folder.
#[derive(Debug, Clone)]
pub struct Crd {
    pub origin: Origin,
    pub object: Value,
}

impl Crd {
    pub fn name(&self) -> &str {
        self.object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default()
    }
}

/// The CRDs to install: those of `helm show crds` (`shown`, the text piped
/// before the release) when there is one, each named by the release's file
/// where it has one; otherwise the release's own `crds/` files. `Err`
/// names each problem (exit 2, nothing touched).
pub(crate) fn from_input(release: &Value, shown: Option<&str>) -> Result<Vec<Crd>, Vec<String>> {
    let files = from_release(release)?;
    let Some(shown) = shown else { return Ok(files) };
    let mut crds = from_shown(shown)?;
    let mut problems = Vec::new();
    for file in files {
        let Origin::File(name) = &file.origin else { continue };
        let same = crds.iter_mut().find(|c| matches!(c.origin, Origin::Shown { .. }) && c.name() == file.name());
        match same {
            Some(c) if c.object == file.object => c.origin = file.origin,
            Some(_) => problems.push(format!(
                "{name}: CustomResourceDefinition {} differs from the one helm show crds printed: the CRDs piped \
                 before the release are not this chart's (another chart or version?)",
                file.name()
            )),
            None => problems.push(format!(
                "{name}: CustomResourceDefinition {} is not among the CRDs piped before the release: they are not \
                 this chart's (another chart or version?)",
                file.name()
            )),
        }
    }
    if problems.is_empty() {
        Ok(crds)
    } else {
        Err(problems)
    }
}

/// The documents `helm show crds` printed: each must be a
/// CustomResourceDefinition with a name, since nothing names the files
/// they came from and anything else piped there by mistake would be
/// applied outside the release.
pub fn from_shown(text: &str) -> Result<Vec<Crd>, Vec<String>> {
    let mut crds = Vec::new();
    let mut problems = Vec::new();
    // No `# Source:` lines: every document is counted under one name.
    for doc in crate::model::manifest::split(text, "helm show crds") {
        let origin = Origin::Shown { document: doc.index };
        match crate::model::yaml::to_json(&doc.text) {
            Ok(object) if object.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") => {
                problems.push(format!("{origin}: {}", not_a_crd(&object)))
            }
            Ok(object) if object.pointer("/metadata/name").and_then(Value::as_str).is_some() => {
                crds.push(Crd { origin, object })
            }
            Ok(_) => problems.push(format!("{origin}: no metadata.name")),
            Err(e) => problems.push(format!("{origin}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(crds)
    } else {
        Err(problems)
    }
}

/// The CRDs in the release's `chart.files`, parsed and checked; `Err` names
/// each problem (exit 2, nothing touched).
fn from_release(release: &Value) -> Result<Vec<Crd>, Vec<String>> {
    let mut crds = Vec::new();
    let mut problems = Vec::new();
    let files = release.pointer("/chart/files").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for file in files {
        let name = file.get("name").and_then(Value::as_str).unwrap_or_default();
        if !is_crd_file(name) {
            continue;
        }
        let text = file
            .get("data")
            .and_then(Value::as_str)
            .and_then(|d| crate::base::base64::decode(d.as_bytes()).ok())
            .and_then(|b| String::from_utf8(b).ok());
        let Some(text) = text else {
            problems.push(format!("{name}: chart.files data is not base64 of UTF-8 text"));
            continue;
        };
        for doc in crate::model::manifest::split(&text, name) {
            match crate::model::yaml::to_json(&doc.text) {
                Ok(object) if object.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") => {
                    problems.push(format!("{name} (document {}): {}", doc.index, not_a_crd(&object)))
                }
                Ok(object) if object.pointer("/metadata/name").and_then(Value::as_str).is_some() => {
                    crds.push(Crd { origin: Origin::File(name.to_string()), object })
                }
                Ok(_) => problems.push(format!("{name} (document {}): no metadata.name", doc.index)),
                Err(e) => problems.push(format!("{name} (document {}): {e}", doc.index)),
            }
        }
    }
    if problems.is_empty() {
        Ok(crds)
    } else {
        Err(problems)
    }
}

/// Why a document of `crds/` or of `helm show crds` that is no CRD is
/// refused: only CRDs are applied outside the release (Helm's install would
/// apply whatever is there, and wait for it as for a CRD).
fn not_a_crd(object: &Value) -> String {
    format!(
        "a {} where only CustomResourceDefinitions may come before the release",
        object.get("kind").and_then(Value::as_str).map_or("document without a kind".into(), |k| format!("{k:?}"))
    )
}

/// Helm's `CRDObjects`: files directly under `crds/` (or deeper) whose
/// extension is a manifest's, case-insensitively.
fn is_crd_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.starts_with("crds/") && [".yaml", ".yml", ".json"].iter().any(|e| lower.ends_with(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn file(name: &str, text: &str) -> Value {
        json!({"name": name, "data": crate::base::base64::encode(text.as_bytes())})
    }

    #[test]
    fn only_manifest_files_under_crds_every_document() {
        let release = json!({"chart": {"files": [
            file("crds/a.yaml", "# c\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.x.io}\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: b.x.io}\n"),
            file("crds/README.md", "not yaml: ["),
            file("README.md", "x"),
            file("crds/c.JSON", "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"c.x.io\"}}"),
        ]}});
        let crds = from_release(&release).unwrap();
        let names: Vec<_> = crds.iter().map(|c| (c.origin.to_string(), c.name())).collect();
        assert_eq!(
            names,
            [("crds/a.yaml".into(), "a.x.io"), ("crds/a.yaml".into(), "b.x.io"), ("crds/c.JSON".into(), "c.x.io")]
        );
        assert!(from_release(&json!({})).unwrap().is_empty());
    }

    #[test]
    fn problems_are_named_per_file() {
        let release = json!({"chart": {"files": [
            file("crds/bad.yaml", "metadata: [\n"),
            file("crds/anon.yaml", "kind: CustomResourceDefinition\n"),
            {"name": "crds/raw.yaml", "data": "%%%"},
        ]}});
        let problems = from_release(&release).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with("crds/bad.yaml (document 1)"), "{problems:?}");
        assert!(problems[1].contains("no metadata.name"), "{problems:?}");
        assert!(problems[2].starts_with("crds/raw.yaml: "), "{problems:?}");
    }

    fn crd(name: &str) -> String {
        format!("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\n")
    }

    /// What `helm show crds` prints of a chart whose top chart has `crds/a.yaml` and a
    /// subchart `crds/b.json`: the release names the top chart's file; the subchart's
    /// is known by its place in the stream, and comes after, in Helm's order.
    #[test]
    fn shown_crds_are_the_list_and_the_release_names_its_own() {
        let release = json!({"chart": {"files": [file("crds/a.yaml", &crd("a.x.io"))]}});
        let shown = format!(
            "---\n{}\n---\n{{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{{\"name\":\"b.y.io\"}}}}\n",
            crd("a.x.io")
        );
        let crds = from_input(&release, Some(&shown)).unwrap();
        let names: Vec<_> = crds.iter().map(|c| (c.origin.to_string(), c.name())).collect();
        assert_eq!(names, [("crds/a.yaml".into(), "a.x.io"), ("helm show crds (document 2)".into(), "b.y.io")]);
        // Without the stream, the release's files alone, as before.
        assert_eq!(from_input(&release, None).unwrap().len(), 1);
        // A chart without CRDs prints nothing: nothing to install.
        assert!(from_input(&json!({}), Some("")).unwrap().is_empty());
    }

    /// `helm show crds` of another chart, or another version of this one, is refused:
    /// the release's own CRD missing from it, or different in it.
    #[test]
    fn shown_crds_of_another_chart_are_refused() {
        let release = json!({"chart": {"files": [file("crds/a.yaml", &crd("a.x.io"))]}});
        let problems = from_input(&release, Some(&crd("z.x.io"))).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("crds/a.yaml: CustomResourceDefinition a.x.io is not among"), "{problems:?}");
        let other = format!("{}  labels: {{v: \"2\"}}\n", crd("a.x.io"));
        let problems = from_input(&release, Some(&other)).unwrap_err();
        assert!(problems[0].contains("a.x.io differs from the one helm show crds printed"), "{problems:?}");
    }

    /// Only CRDs may come before the release: `helm template` output piped there by
    /// mistake is not applied outside the release.
    #[test]
    fn only_crds_before_the_release() {
        let shown = format!("{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\n---\nkind: CustomResourceDefinition\n---\n[\n", crd("a.x.io"));
        let problems = from_shown(&shown).unwrap_err();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with("helm show crds (document 2): a \"ConfigMap\" where only"), "{problems:?}");
        assert!(problems[1].contains("(document 3): no metadata.name"), "{problems:?}");
        assert!(problems[2].starts_with("helm show crds (document 4): "), "{problems:?}");
        // The same for the chart's own crds/ files, read from the release alone: a ConfigMap
        // there was applied, then awaited a minute as a CRD that never became Established.
        let text = format!("{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\n", crd("a.x.io"));
        let release = json!({"chart": {"files": [file("crds/a.yaml", &text)]}});
        let problems = from_input(&release, None).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("crds/a.yaml (document 2): a \"ConfigMap\" where only"), "{problems:?}");
    }
}
