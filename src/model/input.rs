//! Reading what the user pipes in: the multi-document YAML of `helm
//! template`, or a Helm release as JSON (`helm install --dry-run -o json`,
//! or a release read from Helm's storage). The format is detected from the
//! first non-blank byte.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::annotation::{self, HOOK};
use crate::model::chart::{ChartMeta, Dependency};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::dropped::{self, Template};
use crate::model::hook::Hook;
use crate::model::manifest::{self, Document, Head, Reading, Syntax};
use crate::model::resource::Resource;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputFormat {
    Template,
    ReleaseJson,
}

pub use crate::model::release::Release;

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("the input is empty: pipe `helm template CHART` or `helm install NAME CHART --dry-run -o json` into it")]
    Empty,
    #[error("the input is not UTF-8 text")]
    NotUtf8,
    #[error("the input looks like JSON but is not a Helm release: {0}")]
    BadJson(#[source] serde_json::Error),
    #[error("the input is a Helm release as YAML (`-o yaml`); pipe it as JSON instead: `helm install NAME CHART --dry-run=client -o json`, or `helm template NAME CHART`")]
    YamlRelease,
    #[error("the input is Helm's text output (NAME:, STATUS:, MANIFEST:); add -o json: `helm install NAME CHART --dry-run=client -o json | helm hooks …`, or pipe `helm template NAME CHART`")]
    HelmText,
    #[error("the JSON input is not a Helm release:\n{}\nA release as JSON is what `helm install NAME CHART --dry-run=client -o json` (or `helm upgrade --install NAME CHART --dry-run=server -o json`) prints; for an installed release name it instead: `helm hooks plan RELEASE`", missing_lines(.0))]
    NotARelease(Vec<&'static str>),
    #[error("the JSON input is a {0} of Kubernetes objects; pipe the chart instead: `helm template NAME CHART`, or `helm install NAME CHART --dry-run=client -o json`")]
    KubeList(String),
    #[error("the input is larger than {limit_mib} MiB, the bound on what helm-hooks reads (no release Helm can store is this large: a release Secret holds 1 MiB, compressed); raise it with {MAX_INPUT_ENV}=<MiB> if you must (the plugin's 512 MiB of memory holds about {WASM_INPUT_MIB} MiB of input)")]
    TooLarge { limit_mib: usize },
    #[error("the input has {count} documents, more than the {MAX_DOCUMENTS} helm-hooks reads; split the release into several")]
    TooManyDocuments { count: usize },
    /// Helm splits documents on `\n` only, so such a stream is one document
    /// to it, and to the splitter here one separator line swallowing all.
    #[error("the input ends its lines with CR alone (classic Mac OS); Helm splits documents at LF only: convert it, e.g. `tr '\\r' '\\n'`")]
    CrLineEnds,
    #[error("{MAX_INPUT_ENV}={0:?} is not a whole number of MiB above 0")]
    BadLimit(String),
}

/// The input read at most, in MiB, unless [`MAX_INPUT_ENV`] says otherwise.
/// Helm's plugin memory is 512 MiB (plugin.yaml's `maxPages`) and reading
/// takes several times the input: 160 MB of input ended in a Wasm
/// allocation failure and a stack trace. A release Helm can store in a
/// Secret is at most 1 MiB compressed, a few tens of MiB as text.
pub(crate) const MAX_INPUT_MIB: usize = 64;

/// The environment variable that raises [`MAX_INPUT_MIB`] (the native
/// binary has no 512 MiB bound of its own).
pub(crate) const MAX_INPUT_ENV: &str = "HELM_HOOKS_MAX_INPUT_MIB";

/// About the most input the plugin's 512 MiB hold (docs/benchmarks.md).
const WASM_INPUT_MIB: usize = 100;

/// The documents (hooks and resources) one input may have: ten times the
/// largest release benchmarked. Each costs some memory and plan work beyond
/// its text, so many tiny documents are bounded apart from the input's size.
pub const MAX_DOCUMENTS: usize = 100_000;

/// The input bound in bytes, from [`MAX_INPUT_ENV`]'s value if it is set.
pub(crate) fn max_input_bytes(env: Option<&str>) -> Result<usize, InputError> {
    let mib = match env.map(str::trim).filter(|v| !v.is_empty()) {
        None => MAX_INPUT_MIB,
        Some(v) => v.parse::<usize>().ok().filter(|&m| m > 0).ok_or_else(|| InputError::BadLimit(v.to_string()))?,
    };
    Ok(mib.saturating_mul(1 << 20))
}

fn missing_lines(missing: &[&str]) -> String {
    missing.iter().map(|m| format!("  {m}")).collect::<Vec<_>>().join("\n")
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

impl ReleaseJson {
    /// The release's name and its chart's, which [`check_release_fields`]
    /// asks of every release.
    fn has_names(&self) -> bool {
        let chart = self.chart.as_ref().and_then(|c| c.metadata.as_ref()).map_or("", |m| m.name.as_str());
        self.name.as_deref().is_some_and(|n| !n.is_empty()) && !chart.is_empty()
    }
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
pub fn parse(bytes: &[u8], diags: &mut Diagnostics) -> Result<(InputFormat, Release), InputError> {
    parse_as(bytes, Syntax::Whole, diags)
}

/// [`parse`], reading each document's body as `syntax` says.
pub fn parse_as(bytes: &[u8], syntax: Syntax, diags: &mut Diagnostics) -> Result<(InputFormat, Release), InputError> {
    if let Some(release) = plain_release_json(bytes, syntax, diags) {
        return release;
    }
    let text = std::str::from_utf8(bytes).map_err(|_| InputError::NotUtf8)?;
    // A byte-order mark, as editors on Windows write: Kubernetes' YAML
    // reader skips it, and it is no character of the release.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if cr_line_ends(text.as_bytes()) {
        return Err(InputError::CrLineEnds);
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(InputError::Empty);
    }
    if trimmed.starts_with('{') && !flow_yaml(trimmed) {
        let value: serde_json::Value = serde_json::from_slice(trimmed.as_bytes()).map_err(InputError::BadJson)?;
        // One object as JSON (`kubectl get … -o json`) is a manifest of one
        // document: YAML reads JSON.
        if !is_kube_object(&value)? {
            return Ok((InputFormat::ReleaseJson, from_release_value_as(&value, syntax, diags)?));
        }
    } else if is_yaml_release(text) {
        return Err(InputError::YamlRelease);
    } else if is_helm_text(text) {
        return Err(InputError::HelmText);
    }
    check_documents(manifest::count_documents(text))?;
    let mut release = Release::default();
    manifest::split_each(text, "<stdin>", |doc| classify(doc, syntax, &mut release, diags));
    let hooks = template_order(release.hooks.iter().map(|h| (h.source.as_str(), h.document)).collect());
    let resources = template_order(release.resources.iter().map(|r| (r.source.as_str(), r.document)).collect());
    crate::base::order::permute(&mut release.hooks, &hooks);
    crate::base::order::permute(&mut release.resources, &resources);
    crate::model::duplicate::check(&release, diags);
    release.chart.name = release
        .hooks
        .iter()
        .map(|h| &h.source)
        .chain(release.resources.iter().map(|r| &r.source))
        .next()
        .and_then(|s| s.split('/').next())
        .unwrap_or_default()
        .to_string();
    Ok((InputFormat::Template, release))
}

/// A release as JSON (`helm install --dry-run -o json`), read straight
/// into its fields from the bytes: `None` for anything else and for a
/// release that lacks its names, which [`parse_as`] then reads through a
/// JSON value that tells what it is and what it lacks, as ever. Checking
/// the whole text's UTF-8 first, building a JSON value and copying the
/// release out of it took a third of `plan`'s time on a release of 20,000
/// objects through Helm (docs/benchmarks.md); the JSON reader checks each
/// string it takes.
fn plain_release_json(
    bytes: &[u8],
    syntax: Syntax,
    diags: &mut Diagnostics,
) -> Option<Result<(InputFormat, Release), InputError>> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let start = bytes.trim_ascii_start();
    // JSON's first key is quoted (a flow mapping's need not be): what
    // [`flow_yaml`] tells, for the text the reader below would take.
    let quoted = start.strip_prefix(b"{").is_some_and(|rest| rest.trim_ascii_start().starts_with(b"\""));
    if !quoted || cr_line_ends(bytes) {
        return None;
    }
    let json = serde_json::from_slice::<ReleaseJson>(start).ok().filter(ReleaseJson::has_names)?;
    Some(bounded_release(json, syntax, diags).map(|release| (InputFormat::ReleaseJson, release)))
}

/// Lines that end in `\r` alone: a `\r` and no `\n` (one pass a word at a
/// time: release JSON is one line of 5 MB for 20,000 objects).
fn cr_line_ends(bytes: &[u8]) -> bool {
    match crate::base::bytes::find_either(bytes, b'\n', b'\r') {
        Some(i) if bytes[i] == b'\r' => crate::base::bytes::find(&bytes[i..], b'\n').is_none(),
        _ => false,
    }
}

/// The order in which Helm reads templates, as indices into `places` (each
/// a template's path and the position in its file): by path, then position
/// (`helm template` prints resources sorted by kind). Paths are compared a
/// word at a time, as they share long beginnings; hooks and resources are
/// sorted by this one function, as each sort a closure is given is its own
/// copy in plugin.wasm (about 10 KB).
fn template_order(places: Vec<(&str, usize)>) -> Vec<usize> {
    crate::base::order::sorted(places.len(), &|x, y| {
        let ((a, i), (b, j)) = (places[x], places[y]);
        crate::base::bytes::cmp(a.as_bytes(), b.as_bytes()).then(i.cmp(&j))
    })
}

/// Whether text that starts with `{` is a YAML flow mapping (`{kind:
/// ConfigMap, metadata: {name: a}}`, a manifest Helm applies) rather than
/// JSON: JSON's first key is quoted, and `{}` is JSON. A flow mapping that
/// quotes its keys reads as JSON, and JSON that is not a release is then
/// told apart as ever.
fn flow_yaml(trimmed: &str) -> bool {
    let after = trimmed[1..].trim_start();
    !(after.starts_with('"') || after.starts_with('}'))
}

fn check_documents(count: usize) -> Result<(), InputError> {
    match count > MAX_DOCUMENTS {
        true => Err(InputError::TooManyDocuments { count }),
        false => Ok(()),
    }
}

/// A release as Helm prints or stores it (`-o json`, or decoded from its
/// Secret or ConfigMap).
pub fn from_release_value(value: &serde_json::Value, diags: &mut Diagnostics) -> Result<Release, InputError> {
    from_release_value_as(value, Syntax::Whole, diags)
}

/// [`from_release_value`], reading each document's body as `syntax` says.
pub(crate) fn from_release_value_as(
    value: &serde_json::Value,
    syntax: Syntax,
    diags: &mut Diagnostics,
) -> Result<Release, InputError> {
    check_release_fields(value)?;
    let json = ReleaseJson::deserialize(value).map_err(InputError::BadJson)?;
    bounded_release(json, syntax, diags)
}

/// `json` as a release, once its documents are counted within the bound.
fn bounded_release(json: ReleaseJson, syntax: Syntax, diags: &mut Diagnostics) -> Result<Release, InputError> {
    check_documents(manifest::count_documents(&json.manifest) + json.hooks.len())?;
    Ok(from_release_json(json, syntax, diags))
}

/// What every release Helm prints or stores has and a JSON object that is
/// something else lacks: its name and its chart's. Without them `{}` would
/// be an empty release, planned as nothing and linted clean.
fn check_release_fields(value: &serde_json::Value) -> Result<(), InputError> {
    let text =
        |pointer: &str| value.pointer(pointer).and_then(serde_json::Value::as_str).is_some_and(|s| !s.is_empty());
    let mut missing = Vec::new();
    if !value.is_object() {
        return Err(InputError::NotARelease(vec!["it is not a JSON object"]));
    }
    if !text("/name") {
        missing.push("it has no \"name\" (the release's name)");
    }
    if !value.get("chart").is_some_and(serde_json::Value::is_object) {
        missing.push("it has no \"chart\" (the chart the release was made from)");
    } else if !text("/chart/metadata/name") {
        missing.push("it has no \"chart.metadata.name\" (the chart's name)");
    }
    for (field, kind) in [("manifest", "a string"), ("hooks", "a list")] {
        let ok = match value.get(field) {
            None | Some(serde_json::Value::Null) => true,
            Some(v) if field == "manifest" => v.is_string(),
            Some(v) => v.is_array(),
        };
        if !ok {
            missing.push(if kind == "a string" {
                "its \"manifest\" is not a string (the rendered resources)"
            } else {
                "its \"hooks\" is not a list (the rendered hooks)"
            });
        }
    }
    match missing.is_empty() {
        true => Ok(()),
        false => Err(InputError::NotARelease(missing)),
    }
}

/// A Kubernetes object rather than a release: a `kind` and an `apiVersion`
/// or `metadata`, and none of a release's own fields. A list of objects is
/// refused: its items have no template paths to report problems against.
fn is_kube_object(value: &serde_json::Value) -> Result<bool, InputError> {
    let Some(kind) = value.get("kind").and_then(serde_json::Value::as_str) else { return Ok(false) };
    let release_field = ["manifest", "chart", "info", "hooks"].iter().any(|f| value.get(f).is_some());
    if release_field || !(value.get("apiVersion").is_some() || value.get("metadata").is_some()) {
        return Ok(false);
    }
    if kind.ends_with("List") && value.get("items").is_some() {
        return Err(InputError::KubeList(kind.to_string()));
    }
    Ok(true)
}

/// `helm install`'s, `upgrade`'s or `status`' text output (no `-o json`):
/// its first lines are `NAME:`, `LAST DEPLOYED:`, `NAMESPACE:`, `STATUS:`.
pub(crate) fn is_helm_text(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    lines.next().is_some_and(|l| l.starts_with("NAME: "))
        && lines.take(5).any(|l| l.starts_with("STATUS: ") || l.starts_with("LAST DEPLOYED: "))
}

fn from_release_json(json: ReleaseJson, syntax: Syntax, diags: &mut Diagnostics) -> Release {
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
    manifest::split_each(&json.manifest, "<manifest>", |doc| classify(doc, syntax, &mut release, diags));
    // Hashed, as `manifest::split_each` counts: an ordered map compared the
    // shared beginnings of 10,000 paths a byte per loop iteration.
    let mut counts: crate::base::hash::WordMap<String, usize> = Default::default();
    for (position, h) in json.hooks.into_iter().enumerate() {
        let last_run_ms = h.last_run.as_ref().and_then(LastRunJson::duration_ms);
        let n = counts.entry(h.path.clone()).or_insert(0);
        *n += 1;
        let doc = Document { source: h.path, index: *n, text: h.manifest };
        // Hooks are created from their text: read whole, nothing kept.
        let syntax = if syntax == Syntax::Kept { Syntax::Whole } else { syntax };
        match manifest::read_head(&doc, syntax) {
            Ok(head) if annotation::has(&head.annotations, HOOK) => {
                release.hooks.extend(Hook::from_document(doc, head, diags).map(|h| Hook {
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
    // shows nothing, and one that cannot name a hook is not decoded (rook-ceph's
    // 1.2 MB of templates took 0.12 s under Helm's Wasm runtime).
    let templates: Vec<Template> = templates
        .into_iter()
        .filter(|t| crate::base::base64::may_contain(t.data.as_bytes(), HOOK.as_bytes()))
        .filter_map(|t| {
            let bytes = crate::base::base64::decode(t.data.as_bytes()).ok()?;
            Some(Template { name: t.name, text: String::from_utf8(bytes).ok()? })
        })
        .collect();
    dropped::check(&release.chart.name, &templates, &release, diags);
    crate::model::duplicate::check(&release, diags);
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

fn classify(doc: Document, syntax: Syntax, release: &mut Release, diags: &mut Diagnostics) {
    let head = match manifest::read(&doc, syntax) {
        Ok(Reading::Object(head)) => Ok(head),
        // A list's items are resources, whatever they say (model/list.rs).
        Ok(Reading::List) => match crate::model::list::items(&doc) {
            Some(Ok(items)) => {
                for item in items {
                    match manifest::read_head(&item, syntax) {
                        Ok(head) => resource(item, head, syntax, release, diags),
                        Err(d) => diags.push(*whole_error(&item, syntax, d)),
                    }
                }
                return;
            }
            Some(Err(d)) => return diags.push(*d),
            None => manifest::read_head(&doc, syntax),
        },
        Err(d) => Err(d),
    };
    match head {
        Ok(head) if annotation::has(&head.annotations, HOOK) => {
            if syntax == Syntax::Kept {
                if let Err(d) = manifest::check_body(&doc) {
                    return diags.push(*d);
                }
            }
            release.hooks.extend(Hook::from_document(doc, head, diags));
        }
        Ok(head) => resource(doc, head, syntax, release, diags),
        Err(d) => diags.push(*whole_error(&doc, syntax, d)),
    }
}

/// A resource read, its body kept as JSON when `syntax` says so.
fn resource(doc: Document, head: Head, syntax: Syntax, release: &mut Release, diags: &mut Diagnostics) {
    let object = match syntax {
        Syntax::Kept => match manifest::read_body(&doc) {
            Ok(object) => object,
            Err(d) => return diags.push(*d),
        },
        Syntax::Whole | Syntax::HeadOnly => None,
    };
    release.resources.push(Resource { object, ..Resource::from_document(doc, head, diags) });
}

/// The diagnostic of a head that did not read: under [`Syntax::Kept`], the
/// one [`Syntax::Whole`] gives (a body's syntax error comes before the
/// head's problems), so that both read a bad document alike.
fn whole_error(doc: &Document, syntax: Syntax, d: Box<Diagnostic>) -> Box<Diagnostic> {
    match syntax {
        Syntax::Kept => manifest::read_head(doc, Syntax::Whole).err().unwrap_or(d),
        Syntax::Whole | Syntax::HeadOnly => d,
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
        assert_eq!((f, r.resources.len(), r.chart.name.as_str()), (InputFormat::Template, 1, "c"));
        let json = br#"{"name":"r","namespace":"ns","version":2,"manifest":"---\n# Source: c/templates/a.yaml\nkind: ConfigMap\nmetadata:\n  name: a\n","hooks":[{"name":"t","kind":"Pod","path":"c/templates/t.yaml","manifest":"kind: Pod\nmetadata:\n  name: t\n  annotations:\n    helm.sh/hook: test\n","events":["test"]}],"chart":{"metadata":{"name":"c","annotations":{"x":"y"}}}}"#;
        let (f, r) = parse(json, &mut d).unwrap();
        assert_eq!((f, r.hooks.len(), r.resources.len(), r.revision), (InputFormat::ReleaseJson, 1, 1, Some(2)));
        assert!(r.chart.known);
        assert!(d.0.is_empty(), "{:?}", d.0);
    }

    #[test]
    fn rejects_non_input() {
        let mut d = Diagnostics::default();
        assert!(matches!(parse(b"  \n", &mut d), Err(InputError::Empty)));
        assert!(matches!(parse(b"{\"nope", &mut d), Err(InputError::BadJson(_))));
        assert!(matches!(parse(&[0xff, 0xfe], &mut d), Err(InputError::NotUtf8)));
        // `helm install --dry-run -o yaml`: say to pipe JSON, not "has no kind".
        let yaml = b"apply_method: ssa\nchart:\n  metadata:\n    name: c\nhooks:\n- kind: Job\ninfo:\n  status: pending-install\nmanifest: |+\n  ---\n  kind: ConfigMap\nname: r\nversion: 1\n";
        let e = parse(yaml, &mut d).unwrap_err();
        assert!(matches!(e, InputError::YamlRelease) && e.to_string().contains("-o json"), "{e}");
    }

    /// JSON that is not a release is never an empty release (issue 20).
    #[test]
    fn json_that_is_not_a_release_says_what_it_lacks() {
        let mut d = Diagnostics::default();
        let e = parse(b"{}", &mut d).unwrap_err().to_string();
        assert!(
            e.contains("no \"name\"") && e.contains("no \"chart\"") && e.contains("--dry-run=client -o json"),
            "{e}"
        );
        let e = parse(br#"{"name": "r", "chart": {}, "manifest": 5}"#, &mut d).unwrap_err().to_string();
        assert_eq!(
            e.lines().skip(1).take(2).collect::<Vec<_>>(),
            [
                "  it has no \"chart.metadata.name\" (the chart's name)",
                "  its \"manifest\" is not a string (the rendered resources)"
            ]
        );
        assert!(matches!(parse(br#"{"foo": 1}"#, &mut d), Err(InputError::NotARelease(_))));
        assert!(matches!(
            parse(b"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": []}", &mut d),
            Err(InputError::KubeList(_))
        ));
        assert!(d.0.is_empty());
    }

    /// One object as JSON is read as a manifest of one document, and checked.
    #[test]
    fn one_object_as_json_is_planned() {
        let mut d = Diagnostics::default();
        let json = br#"{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "t", "annotations": {"helm.sh/hook": "test", "helm.sh/hook-parallel": "maybe"}}}"#;
        let (f, r) = parse(json, &mut d).unwrap();
        assert_eq!((f, r.hooks.len()), (InputFormat::Template, 1));
        assert!(d.0.iter().any(|d| d.is_error() && d.message.contains("maybe")), "{:?}", d.0);
    }

    #[test]
    fn helm_text_output_asks_for_json() {
        let mut d = Diagnostics::default();
        let text = b"NAME: r\nLAST DEPLOYED: Tue Nov 24 09:59:14 2026\nNAMESPACE: default\nSTATUS: pending-install\nREVISION: 1\nHOOKS:\n---\n# Source: demo/templates/t.yaml\nkind: Pod\nmetadata:\n  name: t\n";
        let e = parse(text, &mut d).unwrap_err();
        assert!(matches!(e, InputError::HelmText) && e.to_string().contains("add -o json"), "{e}");
    }
}
