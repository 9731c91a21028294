//! Helm's own code as the oracle (issue 46; docs/testing.md, "Helm as the oracle"):
//! `testbed/oracle`, built by `make tools` against the pinned Helm module, answers with
//! Helm's Secrets driver (the record decoder `helm status` uses) and with the core of
//! its kube client's Build (sigs.k8s.io/yaml, apimachinery's unstructured reading, a
//! List flattened into its items). The tests fail, not skip, when the oracle is not
//! built. Every disagreement fails with the input that caused it.
//!
//! Compared, for records: each record the plugin writes (`encode_payload`, and an
//! `Encoder`'s first write and its rewrite after a status change) is decoded by Helm,
//! which must read the same name and status (its Accessor) and the same name, version,
//! status, manifest and chart name (the release it decoded); and each release written by
//! Helm's Secrets driver (encodeRelease) reads back through the plugin's decoder alike.
//!
//! Compared, for documents ([`compare`]): accept or refuse, and per object (a List's
//! items each) apiVersion, kind, name, namespace and annotations. Labels are not
//! compared: the plugin's `Head` does not hold them.
//!
//! `ORACLE_LONG=1` runs the long sweep (1,000 sizes by 10 seeds of records, every
//! alphabet about 253,000 bytes, and a million mutated documents; run it with
//! `--release`).

use std::path::PathBuf;

use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::model::event::Event;
use helm_hooks::model::input;
use helm_hooks::model::list;
use helm_hooks::model::manifest::{self, Document, Head, Reading, Syntax};
use helm_hooks::model::yaml;
use helm_hooks::plan::{self, PlanOptions, Target};
use helm_hooks::release::payload::{decode_payload, encode_payload, Encoder};
use serde_json::{json, Value};

mod helm_oracle;
mod rendered;

use helm_oracle::Oracle;

fn long() -> bool {
    std::env::var_os("ORACLE_LONG").is_some()
}

/// `n` characters of `alphabet`, drawn by xorshift64 from `seed`.
fn text(alphabet: &[u8], n: usize, seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            alphabet[((x >> 32) % alphabet.len() as u64) as usize] as char
        })
        .collect()
}

const ALPHABETS: [&[u8]; 5] = [
    b"a",
    b"ab",
    b"acgt",
    b"abcdefghijklmnopqrstuvwxyz",
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
];

/// Every way the plugin writes a record of `release` reads back through Helm's
/// decoder as `release`: the one-stream encoder, a segmented encoder's first write,
/// and its rewrite after the status changed (its large fields' segments reused).
/// Compared: the name and status Helm's Accessor reads, and the name, version,
/// status, manifest and chart name of the release Helm decoded.
fn check_record(oracle: &mut Oracle, release: &Value, what: &str) {
    let mut encoder = Encoder::default();
    let mut rewritten = release.clone();
    rewritten["info"]["status"] = json!("superseded");
    let writes = [
        ("encode_payload", release, encode_payload(&serde_json::to_vec(release).unwrap())),
        ("Encoder, first write", release, encoder.encode(release)),
        ("Encoder, rewrite", &rewritten, encoder.encode(&rewritten)),
    ];
    for (how, expected, payload) in writes {
        if let Err(e) = oracle.reads_as(&payload, expected) {
            panic!("{what}, {how}: {e}");
        }
    }
    // And the other way: Helm's Secrets driver writes it (encodeRelease), the plugin reads it.
    // Every release in the long run; every 16th otherwise: the plugin's decoder, unoptimised
    // in `cargo test`, took the test from 18 to 94 s on every release.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    if !long() && CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 16 != 0 {
        return;
    }
    let answer = oracle.ask(&json!({"op": "encode", "text": release.to_string()}));
    assert_eq!(answer["ok"], true, "{what}: Helm cannot write the record: {}", answer["error"]);
    let read = decode_payload(answer["payload"].as_str().unwrap().as_bytes())
        .unwrap_or_else(|e| panic!("{what}: the plugin cannot read Helm's record: {e}"));
    let read: Value = serde_json::from_slice(&read).unwrap();
    for field in ["/name", "/version", "/info/status", "/manifest", "/chart/metadata/name"] {
        assert!(read.pointer(field) == release.pointer(field), "{what}: the plugin reads Helm's {field} otherwise");
    }
}

fn release(manifest: String) -> Value {
    json!({"name": "r", "version": 1, "namespace": "default", "info": {"status": "deployed"},
           "chart": {"metadata": {"name": "c", "version": "0.1.0"}}, "manifest": manifest})
}

/// `count` sizes from 1 byte to `max`, evenly spread on a log scale.
fn log_sizes(count: usize, max: usize) -> Vec<usize> {
    (0..count).map(|i| ((max as f64).powf(i as f64 / (count - 1) as f64)).round() as usize).collect()
}

/// The records of the spread, as (seed, alphabet, size). The short run (debug
/// `cargo test`: unoptimised deflate costs about 0.15 s a 250 KB record, so the large
/// sizes are few): 300 log-spaced sizes of 1 byte to 4 MiB, up to 16 KiB in every
/// alphabet at 3 seeds, up to 256 KiB one alphabet and seed each by turns, above that
/// every 16th size; and the segment and level boundaries (64 KiB, 1 MiB) and 4 MiB.
/// The long run (`ORACLE_LONG=1`, with `--release`): 1,000 log-spaced sizes by 10
/// seeds, an alphabet each by turns.
fn spread_plan() -> Vec<(u64, usize, usize)> {
    let max = 4usize << 20;
    let mut plan = Vec::new();
    if long() {
        for seed in 1..=10u64 {
            for (i, &n) in log_sizes(1_000, max).iter().enumerate() {
                plan.push((seed, (i + seed as usize) % ALPHABETS.len(), n));
            }
        }
    } else {
        for (i, &n) in log_sizes(300, max).iter().enumerate() {
            if n <= 16 * 1024 {
                for seed in 1..=3 {
                    plan.extend((0..ALPHABETS.len()).map(|a| (seed, a, n)));
                }
            } else if n <= 256 * 1024 || i % 16 == 0 {
                plan.push((1 + (i % 3) as u64, i % ALPHABETS.len(), n));
            }
        }
        let edges = [64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, (1 << 20) - 200, 1 << 20, max];
        plan.extend(edges.into_iter().enumerate().map(|(i, n)| (7, i % ALPHABETS.len(), n)));
    }
    plan.sort_unstable();
    plan.dedup();
    plan
}

fn check_plan(plan: &[(u64, usize, usize)], name: &str) {
    let mut oracle = Oracle::start();
    for &(seed, alphabet, n) in plan {
        let what = format!("seed {seed}, {} letters, {n} bytes", ALPHABETS[alphabet].len());
        check_record(&mut oracle, &release(text(ALPHABETS[alphabet], n, seed)), &what);
    }
    eprintln!("records ({name}): {} releases, {} payloads decoded by Helm, no disagreement", plan.len(), oracle.asked);
}

/// Records from 1 byte to 4 MiB of manifest, of five alphabets (see [`spread_plan`]).
#[test]
fn every_record_the_plugin_writes_reads_back_through_helms_decoder() {
    check_plan(&spread_plan(), "spread");
}

/// Every manifest size of 252,900..253,000 bytes in the 2-letter alphabet, where a
/// record once went out corrupt (its own test, so that it runs beside the others);
/// the long run adds every other alphabet at 10 seeds.
#[test]
fn every_record_about_the_size_that_once_went_out_corrupt_reads_back() {
    let mut plan: Vec<(u64, usize, usize)> = (252_900..253_000).map(|n| (1, 1, n)).collect();
    if long() {
        for seed in 1..=10u64 {
            plan.extend((252_900..253_000).flat_map(|n| (0..ALPHABETS.len()).map(move |a| (seed, a, n))));
        }
        plan.sort_unstable();
        plan.dedup();
    }
    check_plan(&plan, "252,900..253,000 bytes");
}

/// What the plugin reads of one document: each object's head, a List's items
/// each; `Err` when it refuses the document.
fn plugin_reading(doc: &Document) -> Result<Vec<Head>, String> {
    let read = |d: &Document| manifest::read_head(d, Syntax::Whole).map_err(|e| e.to_string());
    match manifest::read(doc, Syntax::Whole).map_err(|e| e.to_string())? {
        Reading::Object(head) => Ok(vec![head]),
        Reading::List => match list::items(doc) {
            Some(Ok(items)) => items.iter().map(read).collect(),
            Some(Err(d)) => Err(d.to_string()),
            None => read(doc).map(|h| vec![h]),
        },
    }
}

/// Helm's reading of one document against the plugin's: Helm refusing, the
/// plugin must refuse; both reading it, the same objects (apiVersion, kind,
/// name, namespace, annotations). The plugin may refuse what Helm's reading
/// takes only where Helm fails later, at apply: no kind or no name, or
/// annotations that are not all strings (Helm's reader drops them; the API server
/// refuses them).
fn compare(oracle: &mut Oracle, doc: &Document) -> Result<(), String> {
    let helm = oracle.ask(&json!({"op": "manifest", "text": doc.text}));
    let ours = plugin_reading(doc);
    let show = || format!("{} (document {}):\n{}", doc.source, doc.index, doc.text);
    match (helm["ok"].as_bool() == Some(true), ours) {
        (false, Ok(heads)) => Err(format!("Helm refuses ({}), the plugin reads {heads:?}: {}", helm["error"], show())),
        (false, Err(_)) => Ok(()),
        (true, Err(e)) => {
            let objects = helm["objects"].as_array().cloned().unwrap_or_default();
            let later = objects.iter().any(|o| {
                o["kind"] == "" || o["name"] == "" || (o["annotations"].is_null() && doc.text.contains("annotations"))
            });
            if later {
                Ok(())
            } else {
                Err(format!("the plugin refuses ({e}), Helm reads {objects:?}: {}", show()))
            }
        }
        (true, Ok(heads)) => {
            let objects = helm["objects"].as_array().cloned().unwrap_or_default();
            let theirs: Vec<Value> = objects
                .iter()
                .map(|o| {
                    json!([
                        o["apiVersion"],
                        o["kind"],
                        o["name"],
                        o["namespace"],
                        if o["annotations"].is_null() { json!({}) } else { o["annotations"].clone() }
                    ])
                })
                .collect();
            let mine: Vec<Value> = heads
                .iter()
                .map(|h| json!([h.api_version, h.kind, h.name, h.namespace.clone().unwrap_or_default(), h.annotations]))
                .collect();
            if theirs == mine {
                Ok(())
            } else {
                Err(format!("Helm reads {theirs:?}, the plugin {mine:?}: {}", show()))
            }
        }
    }
}

fn doc(text: String) -> Document {
    Document { source: "generated".into(), index: 1, text }
}

/// Every document of the rendered public charts, and each again with CRLF line
/// ends, a comment after its first line, and a byte-order mark.
#[test]
fn helm_and_the_plugin_read_every_public_chart_document_alike() {
    let mut oracle = Oracle::start();
    let docs: Vec<Document> = rendered::charts().iter().flat_map(|text| manifest::split(text, "<stdin>")).collect();
    assert!(docs.len() > 250, "{} documents", docs.len());
    let mut disagreements = Vec::new();
    for d in &docs {
        let mut variants = vec![d.clone()];
        let (first, rest) = d.text.split_once('\n').unwrap_or((&d.text, ""));
        variants.push(Document { text: format!("{first}\n# a comment\n{rest}"), ..d.clone() });
        variants.push(Document { text: d.text.replace('\n', "\r\n"), ..d.clone() });
        for v in &variants {
            if let Err(e) = compare(&mut oracle, v) {
                disagreements.push(e);
            }
        }
    }
    eprintln!("manifests: {} documents of public charts, {} readings compared", docs.len(), oracle.asked);
    assert!(disagreements.is_empty(), "{} disagreements; the first:\n{}", disagreements.len(), disagreements[0]);
}

/// Every `*.yaml`/`*.yml` file under testdata/ and testbed/ that is plain YAML (chart
/// templates with `{{` are not, until rendered: their rendered forms are the public
/// charts above): CRDs, Chart.yaml and values files (which both must refuse: no kind),
/// the bed's own objects. Each document as the file holds it.
#[test]
fn helm_and_the_plugin_read_every_yaml_file_of_the_repository_alike() {
    fn walk(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                out.push(p);
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["testdata", "testbed"] {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    let mut oracle = Oracle::start();
    let (mut read, mut disagreements) = (0, Vec::new());
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        if text.contains("{{") {
            continue;
        }
        read += 1;
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        for d in manifest::split(&text, &name) {
            if let Err(e) = compare(&mut oracle, &d) {
                disagreements.push(format!("{name}: {e}"));
            }
        }
    }
    eprintln!(
        "manifests: {read} plain YAML files of {} in testdata/ and testbed/, {} documents compared",
        files.len(),
        oracle.asked
    );
    assert!(read > 100, "{read} files");
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n\n"));
}

/// Flow collections with their lines and closing bracket at every column, in a
/// Pod's container and at the top; Lists of objects, of items without kind, and of
/// what is not an object; documents that are not objects.
#[test]
fn helm_and_the_plugin_read_generated_documents_alike() {
    let mut oracle = Oracle::start();
    let mut cases = Vec::new();
    for item in 0..9 {
        for close in 0..9 {
            let (i, c) = (" ".repeat(item), " ".repeat(close));
            cases.push(format!(
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: busybox\n      command: [\n{i}\"/bin/sh\",\n{i}\"-c\"\n{c}]\n"
            ));
            cases.push(format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {{\n{i}name: a,\n{i}annotations: {{x: \"1\"}}\n{c}}}\n"
            ));
            cases.push(format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {{\n{i}a: b }}\ndata: {{k: [\n{c}]}}\n"));
        }
    }
    let item =
        |kind: &str, name: &str| format!("  - apiVersion: v1\n    kind: {kind}\n    metadata:\n      name: {name}\n");
    cases.extend([
        format!("apiVersion: v1\nkind: List\nitems:\n{}{}", item("ConfigMap", "a"), item("Service", "b")),
        "apiVersion: v1\nkind: ConfigMapList\nitems:\n  - metadata:\n      name: a\n".into(),
        "apiVersion: v1\nkind: List\nitems: []\n".into(),
        "apiVersion: v1\nkind: List\nitems:\n  - 3\n".into(),
        "apiVersion: v1\nkind: List\nitems: 3\n".into(),
        "apiVersion: v1\nkind: List\nitems:\n  - kind: ConfigMap\n".into(),
        "{apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Secret, metadata: {name: s}}]}\n".into(),
        "- a\n- b\n".into(),
        "just text\n".into(),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    a: &x one\n    b: *x\n".into(),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    a: |\n      two\n      lines\n"
            .into(),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!str 0644\n".into(),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n".into(),
    ]);
    let mut disagreements = Vec::new();
    for text in &cases {
        if let Err(e) = compare(&mut oracle, &doc(text.clone())) {
            disagreements.push(e);
        }
    }
    let mutated = if long() { 1_000_000 } else { 3_000 };
    for seed in 0..mutated {
        let text = mutation(seed);
        if let Err(e) = compare(&mut oracle, &doc(text)) {
            disagreements.push(e);
        }
        if disagreements.len() > 20 {
            break;
        }
    }
    eprintln!("manifests: {} generated documents and {mutated} mutations compared", cases.len());
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n\n"));
}

/// A document drawn from `seed`: an object in block or flow style, its lines at
/// drawn indentations, its scalars plain, single- or double-quoted, comments and
/// blank lines between lines, CRLF or LF, some wrapped in a List.
fn mutation(seed: u64) -> String {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut draw = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let scalar = |s: &str, style: u64| match style {
        0 => s.to_string(),
        1 => format!("'{s}'"),
        _ => format!("\"{s}\""),
    };
    let names = ["a", "yes", "0644", "a-b", "1e3", "null", "x: y", "~"];
    let name = names[draw(names.len() as u64) as usize];
    let kind = ["ConfigMap", "Service", "Pod", "List"][draw(4) as usize];
    let mut lines: Vec<String> = vec!["apiVersion: v1".into(), format!("kind: {kind}")];
    let annotation = scalar(names[draw(names.len() as u64) as usize], draw(3));
    if draw(2) == 0 {
        let pad = " ".repeat(draw(6) as usize);
        lines.push("metadata: {".into());
        lines.push(format!("{pad}name: {},", scalar(name, draw(3))));
        lines.push(format!("{pad}annotations: {{k: {annotation}}}"));
        lines.push(format!("{}}}", " ".repeat(draw(4) as usize)));
    } else {
        let pad = " ".repeat(1 + draw(4) as usize);
        lines.push("metadata:".into());
        lines.push(format!("{pad}name: {}", scalar(name, draw(3))));
        lines.push(format!("{pad}annotations:"));
        lines.push(format!("{pad}{pad}k: {annotation}"));
    }
    if kind == "List" {
        lines.push("items: [".into());
        lines.push(format!(
            "{}{{apiVersion: v1, kind: ConfigMap, metadata: {{name: {}}}}}",
            " ".repeat(draw(5) as usize),
            scalar(name, draw(3))
        ));
        lines.push(format!("{}]", " ".repeat(draw(3) as usize)));
    } else {
        lines.push(format!(
            "data: [\n{}{}\n{}]",
            " ".repeat(draw(5) as usize),
            scalar(name, draw(3)),
            " ".repeat(draw(3) as usize)
        ));
    }
    let mut out = String::new();
    let end = if draw(4) == 0 { "\r\n" } else { "\n" };
    for l in lines {
        for part in l.split('\n') {
            out.push_str(part);
            out.push_str(end);
        }
        match draw(8) {
            0 => out.push_str(&format!("# note{end}")),
            1 => out.push_str(end),
            _ => {}
        }
    }
    out
}

/// The charts whose hook order is compared: every chart of testdata/charts that Helm
/// renders, the public ones also with their `.hooks-values.yaml` (which switch on the
/// hooks they ship off by default).
fn hook_order_cases() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/charts"));
    let mut cases = Vec::new();
    for dir in [root.clone(), root.join("real")] {
        let mut charts: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("Chart.yaml").exists())
            .collect();
        charts.sort();
        for chart in charts {
            cases.push((chart.clone(), vec![]));
            let values = chart.with_extension("hooks-values.yaml");
            if values.exists() {
                cases.push((chart, vec![values]));
            }
        }
    }
    cases
}

/// The plugin's order of one event's hooks at `--parallel 1`, as `Kind/name`.
fn plugin_hook_order(release: &helm_hooks::model::input::Release, event: Event) -> Vec<String> {
    let mut d = Diagnostics::default();
    let p = plan::build(release, &[Target::Hooks(event)], PlanOptions::default(), &mut d);
    let e = &p.events[0];
    e.waves.iter().flatten().map(|&i| format!("{}/{}", e.items[i].reference.kind, e.items[i].reference.name)).collect()
}

/// For every chart of the repository, each event's hooks run in Helm's order: Helm's
/// own render and execHook (the oracle's `hooks`) against the plugin's plan of the
/// stream `helm template` prints. Charts that set the plugin's ordering annotations
/// (`helm.sh/hook-parallel`, `helm.sh/depends-on`) order by them on purpose; their
/// events with such hooks are left out, and counted.
#[test]
fn every_chart_runs_its_hooks_in_helms_order() {
    let mut oracle = Oracle::start();
    let (mut charts, mut empty, mut compared, mut hooks, mut annotated) = (0, 0, 0, 0, 0);
    let mut refused = Vec::new();
    let mut disagreements = Vec::new();
    for (chart, values) in hook_order_cases() {
        let what = format!(
            "{}{}",
            chart.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display(),
            values.iter().map(|v| format!(" -f {}", v.file_name().unwrap().to_string_lossy())).collect::<String>()
        );
        let answer = oracle.ask(&json!({"op": "hooks", "chart": chart, "values": values}));
        if answer["ok"] != true {
            refused.push(format!("{what}: {}", answer["error"]));
            continue;
        }
        let stream = answer["stream"].as_str().unwrap_or_default();
        if stream.trim().is_empty() {
            empty += 1;
            continue;
        }
        // Cut alike first: the hooks are the documents each cut.
        if let Err(e) = compare_split(&mut oracle, stream, &what) {
            disagreements.push(e);
        }
        // The plugin's checks of its own annotations (the `errors` chart is made of
        // mistakes in them) do not change the order of Helm's: the release they
        // leave is compared as it is.
        let mut d = Diagnostics::default();
        let release = match input::parse(stream.as_bytes(), &mut d) {
            Ok((_, r)) => r,
            Err(e) => {
                disagreements.push(format!("{what}: Helm renders it, the plugin refuses it: {e}"));
                continue;
            }
        };
        charts += 1;
        for event in Event::ALL {
            let helm: Vec<String> = serde_json::from_value(answer["order"][event.as_str()].clone()).unwrap();
            let ours = release.hooks.iter().filter(|h| h.events.contains(&event));
            if ours.clone().any(|h| h.parallel == Some(true) || !h.depends_on.is_empty()) {
                annotated += 1;
                continue;
            }
            let plugin = plugin_hook_order(&release, event);
            compared += 1;
            hooks += helm.len();
            if plugin != helm {
                disagreements.push(format!("{what}, {event}:\n  Helm:   {helm:?}\n  plugin: {plugin:?}"));
            }
        }
    }
    eprintln!(
        "hook order: {charts} chart renders ({empty} more empty), {compared} events ({hooks} hooks) compared, {annotated} events left to the plugin's annotations; Helm refused {}: {refused:?}",
        refused.len()
    );
    assert!(charts >= 20 && hooks >= 100, "too little compared: {charts} charts, {hooks} hooks");
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}

/// Helm's cut of `stream` into documents (releaseutil.SplitManifests, as it cuts a rendered
/// template and a release's manifest) against the plugin's (`manifest::split`): the same
/// documents in the same order. Compared by what each reads as, so that where each keeps
/// the `# Source:` line does not count. Helm keeps a document of nothing but comments,
/// which reads as null and holds no object (its kube client builds nothing of it); the
/// plugin drops it when cutting, so Helm's null documents are left out.
fn compare_split(oracle: &mut Oracle, stream: &str, what: &str) -> Result<usize, String> {
    let answer = oracle.ask(&json!({"op": "split", "text": stream}));
    let helm: Vec<Value> = answer["docs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| yaml::to_json(d.as_str().unwrap()).unwrap_or_else(|e| json!({"unreadable": e.to_string()})))
        .filter(|v| !v.is_null())
        .collect();
    let ours: Vec<Value> = manifest::split(stream, "<stream>")
        .iter()
        .map(|d| yaml::to_json(&d.text).unwrap_or_else(|e| json!({"unreadable": e.to_string()})))
        .filter(|v| !v.is_null())
        .collect();
    if helm != ours {
        let at = helm.iter().zip(&ours).position(|(h, o)| h != o).unwrap_or(helm.len().min(ours.len()));
        return Err(format!(
            "{what}: Helm cuts {} documents, the plugin {}; the first that differs is #{at}: Helm {:?}, plugin {:?}\nthe stream: {stream:?}",
            helm.len(),
            ours.len(),
            helm.get(at),
            ours.get(at)
        ));
    }
    Ok(helm.len())
}

/// Every rendered public chart's stream, and streams of generated documents joined by
/// every separator Helm and YAML accept (`---` with blanks, a comment or CRLF after it,
/// blank lines around it, whitespace before the first), cut alike by Helm and the plugin.
#[test]
fn helm_and_the_plugin_cut_streams_into_the_same_documents() {
    let mut oracle = Oracle::start();
    let mut disagreements = Vec::new();
    let mut docs = 0;
    for (i, stream) in rendered::charts().iter().enumerate() {
        match compare_split(&mut oracle, stream, &format!("rendered chart {i}")) {
            Ok(n) => docs += n,
            Err(e) => disagreements.push(e),
        }
    }
    let separators = [
        "---\n",
        "--- \n",
        "---\t\n",
        "---\r\n",
        "--- # a comment\n",
        "\n---\n\n",
        "---\n# Source: c/templates/x.yaml\n",
    ];
    let streams = if long() { 100_000 } else { 1_000 };
    for seed in 0..streams {
        let mut x: u64 = seed * 7 + 1;
        let mut stream = String::from(["", "\n", "  \n", "---\n"][seed as usize % 4]);
        for part in 0..(seed % 5 + 1) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if part > 0 {
                stream.push_str(separators[(x >> 33) as usize % separators.len()]);
            }
            let doc = mutation(seed * 8 + part);
            // Only documents that read: a document Helm and the plugin both refuse says
            // nothing of where a stream is cut.
            if yaml::to_json(&doc).is_ok() {
                stream.push_str(&doc);
                if !doc.ends_with('\n') {
                    stream.push('\n');
                }
            }
        }
        match compare_split(&mut oracle, &stream, &format!("generated stream {seed}")) {
            Ok(n) => docs += n,
            Err(e) => disagreements.push(e),
        }
    }
    eprintln!("streams: {} cut by Helm and the plugin, {docs} documents", oracle.asked);
    assert!(disagreements.is_empty(), "{} disagreements; the first:\n{}", disagreements.len(), disagreements[0]);
}
