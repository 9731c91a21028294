//! The crate's layers import one way (docs/design.md §6): each top-level
//! module of `src/` may name (`crate::…`) only modules of its own layer or
//! of the layers below it, and no two modules may import each other, even
//! through others. `make lint` runs this test; it reads the sources as text
//! (comments left out, so a doc link to a higher layer is no import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom first. Modules on one line share a layer.
const LAYERS: &[&[&str]] = &[
    // `trace`: the HELM_HOOKS_TRACE timeline any layer may write to.
    &["base", "trace"],
    &["model"],
    &["plan"],
    &["exec"],
    &["kube", "release"],
    // The cluster, the store and the clock as traits, and the real adapter.
    &["seam"],
    &["deploy"],
    // One file per command.
    &["action"],
    &["render"],
    &["cli"],
    // The two entry points: the Wasm export Helm calls, the native binary.
    &["plugin", "main"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a file names as `crate::<module>`, outside comments.
fn imports(source: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in source.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let before = rest[..i].chars().last();
            rest = &rest[i + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `helm_hooks_crate::`, not ours
            }
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// module -> (module it imports -> files that do).
fn graph() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().to_string_lossy().to_string();
        let module = rel.split('/').next().unwrap().trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let source = std::fs::read_to_string(&file).unwrap();
        let entry = g.entry(module.clone()).or_default();
        for target in imports(&source) {
            if target != module {
                entry.entry(target).or_default().insert(rel.clone());
            }
        }
    }
    g
}

#[test]
fn every_module_has_a_layer() {
    let unknown: Vec<String> = graph().keys().filter(|m| layer_of(m).is_none()).cloned().collect();
    assert!(unknown.is_empty(), "modules missing from LAYERS in tests/layers.rs: {unknown:?}");
}

#[test]
fn imports_run_down_the_layers() {
    let mut wrong = Vec::new();
    for (from, targets) in graph() {
        for (to, files) in targets {
            if let (Some(a), Some(b)) = (layer_of(&from), layer_of(&to)) {
                if b > a {
                    wrong.push(format!("{from} imports {to}, a higher layer: {files:?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layer order (docs/design.md §6):\n{}", wrong.join("\n"));
}

#[test]
fn no_module_imports_itself_through_others() {
    let g = graph();
    let mut circles = Vec::new();
    for start in g.keys() {
        // Depth-first from each module: a path back to it is a circle.
        let mut stack: Vec<Vec<&str>> = vec![vec![start.as_str()]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = *path.last().unwrap();
            for next in g.get(last).map(|t| t.keys()).into_iter().flatten() {
                if next == start {
                    let mut c = path.clone();
                    c.push(next);
                    circles.push(c.join(" -> "));
                } else if seen.insert(next.as_str()) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push(p);
                }
            }
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

/// The sibling files (of `siblings`) a file names: `super::x`, `super::{x, y::Z}` and
/// `crate::<folder>::x`, outside comments; a name that is no sibling is an item of the
/// folder's front, `mod` (what it declares or re-exports). A front names the files it
/// re-exports from (`pub use x::Y`). A loop through the front is a loop like any other.
fn sibling_imports(source: &str, folder: &str, siblings: &BTreeSet<String>, front: bool) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let long = format!("crate::{}::", folder.replace('/', "::"));
    let mut prefixes = vec!["super::".to_string(), long];
    if front {
        prefixes.extend(["pub use ".to_string(), "pub(crate) use ".to_string(), "use self::".to_string()]);
    }
    // A file's tests may use any sibling: they are no part of its design. (A front
    // has no tests; its `#[cfg(test)]` marks a declaration.)
    for line in source.lines().take_while(|l| front || l.trim() != "#[cfg(test)]") {
        let code = line.find("//").map_or(line, |i| &line[..i]);
        for prefix in &prefixes {
            let mut rest = code;
            while let Some(i) = rest.find(prefix.as_str()) {
                rest = &rest[i + prefix.len()..];
                let names: Vec<String> = if let Some(list) = rest.strip_prefix('{') {
                    let list = &list[..list.find('}').unwrap_or(list.len())];
                    list.split(',').map(|n| n.trim().split("::").next().unwrap_or_default().to_string()).collect()
                } else {
                    vec![rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()]
                };
                for name in names.into_iter().filter(|n| !n.is_empty()) {
                    if siblings.contains(&name) {
                        found.insert(name);
                    } else if !front && !matches!(name.as_str(), "super" | "self" | "crate") {
                        found.insert("mod".to_string());
                    }
                }
            }
        }
    }
    found
}

/// folder -> file -> sibling files it imports (`mod`: the folder's front).
fn file_graphs() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut folders: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        if let Some(parent) = rel.parent().filter(|p| !p.as_os_str().is_empty()) {
            folders.entry(parent.to_string_lossy().to_string()).or_default().push(file.clone());
        }
    }
    let stem = |f: &Path| f.file_stem().unwrap().to_string_lossy().to_string();
    let mut out = BTreeMap::new();
    for (folder, files) in folders {
        // A subfolder is a sibling too (`render/text/`, through its own front).
        let dir = src.join(&folder);
        let subfolders = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir());
        let mut siblings: BTreeSet<String> = files.iter().map(|f| stem(f)).filter(|s| s != "mod").collect();
        siblings.extend(subfolders.map(|p| p.file_name().unwrap().to_string_lossy().to_string()));
        let mut g = BTreeMap::new();
        for f in &files {
            let source = std::fs::read_to_string(f).unwrap();
            let mut targets = sibling_imports(&source, &folder, &siblings, stem(f) == "mod");
            targets.remove(&stem(f));
            g.insert(stem(f), targets);
        }
        out.insert(folder, g);
    }
    out
}

/// Issue 40: a folder's `mod.rs` (and `lib.rs`, the crate's) only declares its files and
/// re-exports from them; what it would hold lives in a named file.
#[test]
fn fronts_only_declare_and_re_export() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut logic = Vec::new();
    for f in files.iter().filter(|f| f.ends_with("mod.rs") || f.ends_with("lib.rs")) {
        let source = std::fs::read_to_string(f).unwrap();
        let mut in_use = false;
        for (n, line) in source.lines().enumerate() {
            let t = line.trim();
            if in_use {
                in_use = !t.ends_with(';');
                continue;
            }
            let declares = ["mod ", "pub mod ", "pub(crate) mod "].iter().any(|p| t.starts_with(p));
            let uses = ["use ", "pub use ", "pub(crate) use "].iter().any(|p| t.starts_with(p));
            if uses && !t.ends_with(';') {
                in_use = true;
            }
            if !(t.is_empty() || t.starts_with("//") || t.starts_with("#[cfg") || declares || uses) {
                logic.push(format!("{}:{}: {t}", f.strip_prefix(&src).unwrap().display(), n + 1));
            }
        }
    }
    assert!(logic.is_empty(), "fronts holding more than declarations and re-exports:\n{}", logic.join("\n"));
}

/// Issue 30: no circle between the files of one folder either.
#[test]
fn no_file_imports_itself_through_its_siblings() {
    let mut circles = Vec::new();
    for (folder, g) in file_graphs() {
        for start in g.keys() {
            let mut stack: Vec<Vec<&str>> = vec![vec![start.as_str()]];
            let mut seen = BTreeSet::new();
            while let Some(path) = stack.pop() {
                for next in g.get(*path.last().unwrap()).into_iter().flatten() {
                    if next == start {
                        circles.push(format!("{folder}: {} -> {next}", path.join(" -> ")));
                    } else if seen.insert(next.as_str()) {
                        let mut p = path.clone();
                        p.push(next);
                        stack.push(p);
                    }
                }
            }
        }
    }
    assert!(circles.is_empty(), "import circles between the files of a folder:\n{}", circles.join("\n"));
}

#[test]
fn the_check_sees_what_it_should() {
    let found =
        imports("use crate::plan::x; // crate::cli\n/// [`crate::render`]\nlet a = crate::kube::f(); my_crate::exec");
    assert_eq!(found, BTreeSet::from(["kube".to_string(), "plan".to_string()]));
    assert!(layer_of("base") < layer_of("model") && layer_of("kube") == layer_of("release"));
    let siblings = BTreeSet::from(["watch".to_string(), "key".to_string(), "pace".to_string()]);
    let found = sibling_imports(
        "use super::{watch::Tracker, Client};\nuse crate::kube::key::Selector; // super::pace\nsuper::error::E",
        "kube",
        &siblings,
        false,
    );
    // `Client` and `error` are no siblings here: items of the front.
    assert_eq!(found, BTreeSet::from(["key".to_string(), "mod".to_string(), "watch".to_string()]));
    let front = sibling_imports(
        "pub mod watch;\npub use watch::{Tracker, Observed};\npub use key::Key;",
        "kube",
        &siblings,
        true,
    );
    assert_eq!(front, BTreeSet::from(["key".to_string(), "watch".to_string()]));
}
