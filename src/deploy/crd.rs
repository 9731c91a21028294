//! A chart's `crds/` folder as the release JSON carries it (`chart.files`),
//! read and checked before anything is touched; installing them is
//! [`super::crds`].

use serde_json::Value;

/// One CRD document of the chart's `crds/` folder.
#[derive(Debug, Clone)]
pub struct Crd {
    /// `crds/<file>` as the chart names it.
    pub file: String,
    pub object: Value,
}

impl Crd {
    pub fn name(&self) -> &str {
        self.object.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default()
    }
}

/// The CRDs in the release's `chart.files`, parsed and checked; `Err` names
/// each problem (exit 2, nothing touched).
pub fn from_release(release: &Value) -> Result<Vec<Crd>, Vec<String>> {
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
                Ok(object) if object.pointer("/metadata/name").and_then(Value::as_str).is_some() => {
                    crds.push(Crd { file: name.to_string(), object })
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
        let names: Vec<_> = crds.iter().map(|c| (c.file.as_str(), c.name())).collect();
        assert_eq!(names, [("crds/a.yaml", "a.x.io"), ("crds/a.yaml", "b.x.io"), ("crds/c.JSON", "c.x.io")]);
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
}
