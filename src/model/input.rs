//! Reading what the user pipes in: the multi-document YAML of `helm
//! template`, or a Helm release as JSON (`helm install --dry-run -o json`,
//! or a release read from Helm's storage). The format is detected from the
//! first non-blank byte.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::annotation::HOOK;
use crate::model::chart::{ChartMeta, Dependency};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::dropped::{self, Template};
use crate::model::hook::Hook;
use crate::model::manifest::{self, Document};
use crate::model::resource::Resource;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Template,
    ReleaseJson,
}

/// A release as the plan sees it: its hooks and resources, parsed.
#[derive(Debug, Default)]
pub struct Release {
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub revision: Option<u64>,
    pub chart: ChartMeta,
    pub hooks: Vec<Hook>,
    pub resources: Vec<Resource>,
}

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("the input is empty: pipe `helm template CHART` or `helm install NAME CHART --dry-run -o json` into it")]
    Empty,
    #[error("the input is not UTF-8 text")]
    NotUtf8,
    #[error("the input looks like JSON but is not a Helm release: {0}")]
    BadJson(String),
    #[error("the input is a Helm release as YAML (`-o yaml`); pipe it as JSON instead: `helm install NAME CHART --dry-run=client -o json`, or `helm template NAME CHART`")]
    YamlRelease,
}

#[derive(Deserialize)]
struct ReleaseJson {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    manifest: String,
    #[serde(default)]
    hooks: Vec<HookJson>,
    #[serde(default)]
    chart: Option<ChartJson>,
}

#[derive(Deserialize)]
struct HookJson {
    #[serde(default)]
    path: String,
    #[serde(default)]
    manifest: String,
    #[serde(default)]
    last_run: Option<LastRunJson>,
}

#[derive(Deserialize)]
struct LastRunJson {
    #[serde(default)]
    started_at: Option<String>,
    #[serde(default)]
    completed_at: Option<String>,
}

impl LastRunJson {
    /// How long the run took, when both ends are known.
    fn duration_ms(&self) -> Option<u64> {
        let start = crate::base::time::parse_time(self.started_at.as_deref()?)?;
        let end = crate::base::time::parse_time(self.completed_at.as_deref()?)?;
        end.checked_sub(start)
    }
}

#[derive(Deserialize)]
struct ChartJson {
    #[serde(default)]
    metadata: Option<MetadataJson>,
    /// The top chart's templates, unrendered (base64 `data`).
    #[serde(default)]
    templates: Option<Vec<TemplateJson>>,
}

#[derive(Deserialize)]
struct TemplateJson {
    #[serde(default)]
    name: String,
    #[serde(default)]
    data: String,
}

#[derive(Deserialize)]
struct MetadataJson {
    #[serde(default)]
    name: String,
    #[serde(default)]
    annotations: Option<BTreeMap<String, String>>,
    #[serde(default)]
    dependencies: Option<Vec<Dependency>>,
}

/// Parses the input. Problems inside documents become diagnostics; only an
/// input that is not a release at all is an error.
pub fn parse(bytes: &[u8], diags: &mut Diagnostics) -> Result<(Format, Release), InputError> {
    let text = std::str::from_utf8(bytes).map_err(|_| InputError::NotUtf8)?;
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(InputError::Empty);
    }
    if trimmed.starts_with('{') {
        let json: ReleaseJson = serde_json::from_str(trimmed).map_err(|e| InputError::BadJson(e.to_string()))?;
        return Ok((Format::ReleaseJson, from_release_json(json, diags)));
    }
    if is_yaml_release(text) {
        return Err(InputError::YamlRelease);
    }
    let docs = manifest::split(text, "<stdin>");
    let mut release = Release::default();
    classify(docs, &mut release, diags);
    // Hooks and resources in the order Helm reads templates: by path, then
    // position in the file (helm template prints resources sorted by kind).
    release.hooks.sort_by(|a, b| (&a.source, a.document).cmp(&(&b.source, b.document)));
    release.resources.sort_by(|a, b| (&a.source, a.document).cmp(&(&b.source, b.document)));
    release.chart.name = release
        .hooks
        .iter()
        .map(|h| &h.source)
        .chain(release.resources.iter().map(|r| &r.source))
        .next()
        .and_then(|s| s.split('/').next())
        .unwrap_or_default()
        .to_string();
    Ok((Format::Template, release))
}

/// A release as stored by Helm (decoded from its Secret or ConfigMap).
pub fn from_release_value(value: &serde_json::Value, diags: &mut Diagnostics) -> Result<Release, InputError> {
    let json = ReleaseJson::deserialize(value).map_err(|e| InputError::BadJson(e.to_string()))?;
    Ok(from_release_json(json, diags))
}

fn from_release_json(json: ReleaseJson, diags: &mut Diagnostics) -> Release {
    let mut release =
        Release { name: json.name, namespace: json.namespace, revision: json.version, ..Default::default() };
    let (meta, templates) = match json.chart {
        Some(c) => (c.metadata, c.templates.unwrap_or_default()),
        None => (None, Vec::new()),
    };
    if let Some(meta) = meta {
        release.chart = ChartMeta {
            name: meta.name,
            annotations: meta.annotations.unwrap_or_default(),
            dependencies: meta.dependencies.unwrap_or_default(),
            known: true,
        };
    }
    let docs = manifest::split(&json.manifest, "<manifest>");
    classify(docs, &mut release, diags);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (position, h) in json.hooks.into_iter().enumerate() {
        let last_run_ms = h.last_run.as_ref().and_then(LastRunJson::duration_ms);
        let n = counts.entry(h.path.clone()).or_insert(0);
        *n += 1;
        let doc = Document { source: h.path, index: *n, text: h.manifest };
        match manifest::parse_head(&doc) {
            Ok(head) if head.annotations.contains_key(HOOK) => {
                release.hooks.extend(Hook::from_document(&doc, head, diags).map(|h| Hook {
                    position: Some(position),
                    last_run_ms,
                    ..h
                }));
            }
            Ok(head) => diags.push(Diagnostic::error(
                Location { object: Some(head.display()), ..doc.location() },
                "is listed among the release's hooks but has no helm.sh/hook annotation",
            )),
            Err(d) => diags.push(*d),
        }
    }
    // Only a template's text can show what Helm dropped; an undecodable one
    // shows nothing.
    let templates: Vec<Template> = templates
        .into_iter()
        .filter_map(|t| {
            let bytes = crate::base::base64::decode(t.data.as_bytes()).ok()?;
            Some(Template { name: t.name, text: String::from_utf8(bytes).ok()? })
        })
        .collect();
    dropped::check(&release.chart.name, &templates, &release, diags);
    release
}

/// Is this `helm install … -o yaml` (or `helm get`-style) output: one YAML
/// mapping with a release's top-level keys and no `kind`? Its objects are
/// inside the `manifest` string, which only the JSON form is read for.
fn is_yaml_release(text: &str) -> bool {
    // The first document only: `helm template` output starts with `---`.
    let keys = text
        .lines()
        .take_while(|l| !l.starts_with("---"))
        .filter(|l| !l.starts_with([' ', '\t', '#', '-']) && !l.trim().is_empty())
        .filter_map(|l| l.split_once(':').map(|(k, _)| k));
    let (mut manifest, mut release_key, mut kind) = (false, false, false);
    for k in keys {
        match k {
            "manifest" => manifest = true,
            "info" | "chart" | "hooks" => release_key = true,
            "kind" => kind = true,
            _ => {}
        }
    }
    manifest && release_key && !kind
}

fn classify(docs: Vec<Document>, release: &mut Release, diags: &mut Diagnostics) {
    for doc in docs {
        match manifest::parse_head(&doc) {
            Ok(head) if head.annotations.contains_key(HOOK) => {
                release.hooks.extend(Hook::from_document(&doc, head, diags));
            }
            Ok(head) => release.resources.push(Resource::from_document(&doc, head, diags)),
            Err(d) => diags.push(*d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_both_formats() {
        let mut d = Diagnostics::default();
        let (f, r) =
            parse(b"---\n# Source: c/templates/a.yaml\nkind: ConfigMap\nmetadata:\n  name: a\n", &mut d).unwrap();
        assert_eq!((f, r.resources.len(), r.chart.name.as_str()), (Format::Template, 1, "c"));
        let json = br#"{"name":"r","namespace":"ns","version":2,"manifest":"---\n# Source: c/templates/a.yaml\nkind: ConfigMap\nmetadata:\n  name: a\n","hooks":[{"name":"t","kind":"Pod","path":"c/templates/t.yaml","manifest":"kind: Pod\nmetadata:\n  name: t\n  annotations:\n    helm.sh/hook: test\n","events":["test"]}],"chart":{"metadata":{"name":"c","annotations":{"x":"y"}}}}"#;
        let (f, r) = parse(json, &mut d).unwrap();
        assert_eq!((f, r.hooks.len(), r.resources.len(), r.revision), (Format::ReleaseJson, 1, 1, Some(2)));
        assert!(r.chart.known);
        assert!(d.0.is_empty(), "{:?}", d.0);
    }

    #[test]
    fn rejects_non_input() {
        let mut d = Diagnostics::default();
        assert!(matches!(parse(b"  \n", &mut d), Err(InputError::Empty)));
        assert!(matches!(parse(b"{nope", &mut d), Err(InputError::BadJson(_))));
        assert!(matches!(parse(&[0xff, 0xfe], &mut d), Err(InputError::NotUtf8)));
        // `helm install --dry-run -o yaml`: say to pipe JSON, not "has no kind".
        let yaml = b"apply_method: ssa\nchart:\n  metadata:\n    name: c\nhooks:\n- kind: Job\ninfo:\n  status: pending-install\nmanifest: |+\n  ---\n  kind: ConfigMap\nname: r\nversion: 1\n";
        let e = parse(yaml, &mut d).unwrap_err();
        assert!(matches!(e, InputError::YamlRelease) && e.to_string().contains("-o json"), "{e}");
    }
}
