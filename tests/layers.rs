//! The crate's layers import one way (docs/design.md §6): each top-level
//! module of `src/` may name (`crate::…`) only modules of its own layer or
//! of the layers below it, and no two modules may import each other, even
//! through others; nor may two files of `src/`, in one folder or in two. No
//! function is longer than 80 lines. `make lint` runs this test; it reads the
//! sources as text (comments left out, so a doc link to a higher layer is no
//! import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom first. Modules on one line share a layer.
const LAYERS: &[&[&str]] = &[
    // `trace`: the HELM_HOOKS_TRACE timeline any layer may write to.
    &["base", "trace"],
    // Whether an object is ready, done or failed: the conditions every wait awaits.
    &["ready"],
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
            // Whatever its visibility: `pub`, `pub(crate)`, `pub(super)`, `pub(in …)`.
            let item = match t.strip_prefix("pub") {
                Some(rest) if rest.starts_with('(') => rest.split_once(')').map_or(rest, |(_, r)| r).trim_start(),
                Some(rest) => rest.trim_start(),
                None => t,
            };
            let declares = item.starts_with("mod ");
            let uses = item.starts_with("use ");
            if uses && !t.ends_with(';') {
                in_use = true;
            }
            // An attribute (`#[cfg(…)]`, a lint's level) holds no logic.
            let attribute = t.starts_with("#[") || t.starts_with("#![");
            if !(t.is_empty() || t.starts_with("//") || attribute || declares || uses) {
                logic.push(format!("{}:{}: {t}", f.strip_prefix(&src).unwrap().display(), n + 1));
            }
        }
    }
    assert!(logic.is_empty(), "fronts holding more than declarations and re-exports:\n{}", logic.join("\n"));
}

// -- Files ------------------------------------------------------------------------------
//
// Issue 49: no circle between the files of `src/`, within a folder or across folders
// (issue 30's check looked within a folder only, and missed `render/progress_lines.rs`
// -> `render/text/deploy.rs` -> back). Each file is a module; a file depends on the file
// that defines what it names, by `use` or by a path in its code. A path through a front
// (`crate::deploy::Report`, `super::Y`) is followed through the front's re-export to the
// file that defines the item, so a front is no hub that every loop passes through; a
// path to a module alone (`use super::text;`) is followed where the file uses it
// (`text::run::summary`). A file's `#[cfg(test)]` items are left out: its tests may use
// any file, they are no part of its design.

/// `source` with its comments and its string and character literals blanked (newlines
/// kept, so that line numbers hold): what is left is code.
fn code_of(source: &str) -> String {
    let s = source.as_bytes();
    let mut out = Vec::with_capacity(s.len());
    let blank =
        |out: &mut Vec<u8>, bytes: &[u8]| out.extend(bytes.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let after_ident = i > 0 && (s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_');
        let len = if rest.starts_with(b"//") {
            rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (0, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j.min(rest.len())
        } else if let Some(len) = raw_string(rest).filter(|_| !after_ident) {
            len
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{e9}', 'é'), or else a lifetime ('a).
            if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&b| b == b'\'').map_or(1, |p| p + 3)
            } else {
                let width = std::str::from_utf8(&rest[1..rest.len().min(5)])
                    .or_else(|e| std::str::from_utf8(&rest[1..1 + e.valid_up_to()]))
                    .ok()
                    .and_then(|t| t.chars().next())
                    .map_or(1, char::len_utf8);
                if rest.get(1 + width) == Some(&b'\'') {
                    width + 2
                } else {
                    out.push(b'\'');
                    i += 1;
                    continue;
                }
            }
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &rest[..len]);
        i += len;
    }
    String::from_utf8(out).unwrap()
}

/// The length of the raw string literal `rest` starts with (`r"…"`, `br#"…"#`), if it does.
fn raw_string(rest: &[u8]) -> Option<usize> {
    let start = match rest {
        [b'r', ..] => 1,
        [b'b', b'r', ..] => 2,
        _ => return None,
    };
    let hashes = rest[start..].iter().take_while(|&&b| b == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None; // `r#type`, a raw identifier, or no literal at all
    }
    let open = start + hashes + 1;
    let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
    let end = rest[open..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(open + end + close.len())
}

/// `code` without its `#[cfg(test)]` items: a file's tests may use any file, they are no
/// part of its design.
fn without_tests(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mark = "#[cfg(test)]";
    let mut from = 0;
    while let Some(at) = code[from..].find(mark).map(|i| i + from) {
        // The item runs to its `;` or to the brace that closes its first `{`.
        let (mut j, mut depth) = (at + mark.len(), 0);
        while j < b.len() {
            match b[j] {
                b'{' => depth += 1,
                b'}' if depth == 1 => break,
                b'}' => depth -= 1,
                b';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = (j + 1).min(b.len());
        for byte in &mut out[at..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).unwrap()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The `use` statements of `code`, each as (its tree, whether it is public: a
/// re-export), and `code` with them blanked.
fn use_statements(code: &str) -> (Vec<(String, bool)>, String) {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ").map(|i| i + from) {
        from = at + 4;
        if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
            continue; // `reuse `, not a statement
        }
        let Some(end) = code[at..].find(';').map(|i| i + at) else { break };
        // `pub use`, `pub(crate) use`, `pub(in crate::x) use`: what the line has before it.
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let public = code[line_start..at].trim_start().starts_with("pub");
        found.push((code[at + 4..end].split_whitespace().collect::<Vec<_>>().join(" "), public));
        for byte in &mut out[at..end] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        from = end;
    }
    (found, String::from_utf8(out).unwrap())
}

fn segments(path: &str) -> Vec<String> {
    path.split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The paths a `use` tree names, each with the name it binds (`None`: a glob, `*`).
fn use_tree(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, Option<String>)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        let mut path = prefix.to_vec();
        if let (Some(open), Some(close)) = (tree.find('{'), tree.rfind('}')) {
            path.extend(segments(&tree[..open]));
            let inner = &tree[open + 1..close];
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&path, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&path, &inner[start..], out);
            return;
        }
        let (named, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p, Some(a.trim().to_string())),
            None => (tree, None),
        };
        path.extend(segments(named));
        match path.last().map(String::as_str) {
            Some("*") => {
                path.pop();
                out.push((path, None));
            }
            Some("self") => {
                path.pop();
                let name = alias.or_else(|| path.last().cloned());
                out.push((path, name));
            }
            Some(last) => {
                let name = alias.unwrap_or_else(|| last.to_string());
                out.push((path, Some(name)));
            }
            None => {}
        }
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// The paths `code` names outside its `use` statements (`a::b::c`, two segments or more),
/// each with the line it is on.
fn code_paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let b = code.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        if b[i] == b'\n' {
            line += 1;
        }
        let starts = is_ident(b[i]) && !b[i].is_ascii_digit() && (i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':'));
        if !starts {
            i += 1;
            continue;
        }
        let mut path = Vec::new();
        loop {
            let end = i + b[i..].iter().take_while(|&&c| is_ident(c)).count();
            path.push(code[i..end].to_string());
            i = end;
            if b[i..].starts_with(b"::") && b.get(i + 2).is_some_and(|&c| is_ident(c)) {
                i += 2;
            } else {
                break;
            }
        }
        if path.len() > 1 {
            found.push((path, line));
        }
    }
    found
}

/// The crate's files as modules: their code and what they re-export.
struct Crate {
    /// module (`render::text::deploy`; `` the crate) -> its file, relative to `src/`.
    files: BTreeMap<String, String>,
    /// module -> its code without comments, literals and tests.
    code: BTreeMap<String, String>,
    /// module -> name it re-exports -> the path it stands for, from the crate.
    reexports: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

fn key(module: &[String]) -> String {
    module.join("::")
}

impl Crate {
    /// `files`: (path relative to `src/`, source). `main.rs` is another crate.
    fn new(files: &[(String, String)]) -> Crate {
        let mut c = Crate { files: BTreeMap::new(), code: BTreeMap::new(), reexports: BTreeMap::new() };
        for (rel, source) in files.iter().filter(|(rel, _)| rel != "main.rs") {
            let stem = rel.trim_end_matches(".rs");
            let module = if stem == "lib" { "" } else { stem.trim_end_matches("/mod") };
            let module = module.replace('/', "::");
            c.files.insert(module.clone(), rel.clone());
            c.code.insert(module, without_tests(&code_of(source)));
        }
        // Re-exports second: a path in one may start from a child module.
        for (module, code) in &c.code {
            let here = segments(module);
            let mut map = BTreeMap::new();
            for (tree, public) in use_statements(code).0 {
                for (path, name) in use_tree(&tree).into_iter().filter(|_| public) {
                    if let (Some(name), Some(to)) = (name, c.absolute(&here, &path, &BTreeMap::new())) {
                        map.insert(name, to);
                    }
                }
            }
            c.reexports.insert(module.clone(), map);
        }
        c
    }

    /// `path`, as written in `module` with its `aliases` (`use`d names), from the
    /// crate's root; `None` when it leads out of the crate.
    fn absolute(
        &self,
        module: &[String],
        path: &[String],
        aliases: &BTreeMap<String, Vec<String>>,
    ) -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let mut out = match first.as_str() {
            "crate" => vec![],
            "self" => module.to_vec(),
            "super" => module.split_last()?.1.to_vec(),
            _ if self.files.contains_key(&key(&[module, &path[..1]].concat())) => [module, &path[..1]].concat(),
            _ => aliases.get(first)?.clone(),
        };
        for seg in rest {
            match seg.as_str() {
                "super" => {
                    out.pop()?;
                }
                "self" => {}
                _ => out.push(seg.clone()),
            }
        }
        Some(out)
    }

    /// The module whose file defines what `path` (from the root) names, through
    /// re-exports; `true` when `path` names that module itself.
    fn resolve(&self, path: &[String], hops: usize) -> (String, bool) {
        let mut module: Vec<String> = Vec::new();
        for (i, seg) in path.iter().enumerate() {
            let child = [&module[..], std::slice::from_ref(seg)].concat();
            let more = i + 1 < path.len();
            let reexport = self.reexports.get(&key(&module)).and_then(|r| r.get(seg));
            if self.files.contains_key(&key(&child)) && (more || reexport.is_none()) {
                module = child;
            } else if let Some(to) = reexport.filter(|_| hops < 16) {
                return self.resolve(&[&to[..], &path[i + 1..]].concat(), hops + 1);
            } else {
                return (key(&module), false);
            }
        }
        (key(&module), true)
    }

    /// file -> file it names -> how (the path as written, and its line).
    fn edges(&self) -> BTreeMap<String, BTreeMap<String, String>> {
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (module, code) in &self.code {
            let here = segments(module);
            let (uses, rest) = use_statements(code);
            let mut aliases = BTreeMap::new();
            let mut named: Vec<(Vec<String>, bool, String)> = Vec::new();
            for (tree, _) in &uses {
                for (path, name) in use_tree(tree) {
                    let Some(to) = self.absolute(&here, &path, &BTreeMap::new()) else { continue };
                    // A module alone is no dependency yet: the paths through it are.
                    named.push((to.clone(), name.is_none(), format!("use {}", path.join("::"))));
                    if let Some(name) = name {
                        aliases.insert(name, to);
                    }
                }
            }
            for (path, line) in code_paths(&rest) {
                if let Some(to) = self.absolute(&here, &path, &aliases) {
                    named.push((to, false, format!("line {line}: {}", path.join("::"))));
                }
            }
            let from = &self.files[module];
            let out = edges.entry(from.clone()).or_default();
            for (to, glob, how) in named {
                let (target, whole) = self.resolve(&to, 0);
                if target != *module && (glob || !whole) {
                    out.entry(self.files[&target].clone()).or_insert(how);
                }
            }
        }
        edges
    }
}

/// Every circle of `edges`, one per group of files that reach each other: the files
/// and one way round.
fn circles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(f) = todo.pop() {
            for to in edges.get(&f).into_iter().flat_map(|t| t.keys()) {
                if seen.insert(to.clone()) {
                    todo.push(to.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|f| (f, reach(f))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for (start, from_start) in &reaches {
        if done.contains(*start) || !from_start.contains(*start) {
            continue;
        }
        let group: BTreeSet<&String> =
            from_start.iter().filter(|f| reaches.get(f).is_some_and(|r| r.contains(*start))).collect();
        done.extend(group.iter().map(|f| f.to_string()));
        // The shortest way round from `start`, breadth first inside the group.
        let mut back: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([*start]);
        let mut last = None;
        while let Some(f) = queue.pop_front() {
            for to in edges[f].keys().filter(|t| group.contains(t)) {
                if to == *start {
                    last = Some(f);
                    queue.clear();
                    break;
                }
                if !back.contains_key(to) {
                    back.insert(to, f);
                    queue.push_back(to);
                }
            }
        }
        let mut way = vec![*start];
        let mut f = last.unwrap();
        while f != *start {
            way.push(f);
            f = back[f];
        }
        way.push(*start);
        way.reverse();
        let steps: Vec<String> =
            way.windows(2).map(|w| format!("  {} -> {} ({})", w[0], w[1], edges[w[0]][w[1]])).collect();
        let files: Vec<&str> = group.iter().map(|f| f.as_str()).collect();
        found.push(format!("{}:\n{}", files.join(", "), steps.join("\n")));
    }
    found
}

fn src_files() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
            (rel, std::fs::read_to_string(&f).unwrap())
        })
        .collect()
}

#[test]
fn no_file_imports_itself_through_others() {
    let found = circles(&Crate::new(&src_files()).edges());
    assert!(found.is_empty(), "import circles between the files of src/:\n{}", found.join("\n"));
}

// -- Functions ----------------------------------------------------------------------------

/// The longest a function may be: one that does more is split where its meaning parts.
const MAX_FUNCTION_LINES: usize = 80;

/// Every `fn` of `code` with a body: (its name, its line, its lines from the `fn` to the
/// closing brace). Nested functions count apart and within the one around them.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let line_at = |i: usize| 1 + b[..i].iter().filter(|&&c| c == b'\n').count();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|i| i + from) {
        from = at + 3;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let name: String =
            code[at + 3..].trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            continue; // `fn (u8)`, a pointer type
        }
        // Its body is the first `{` outside the signature's brackets; a `;` first: none.
        let (mut j, mut depth) = (at, 0i32);
        let open = loop {
            match b.get(j) {
                None => break None,
                Some(b'(' | b'[') => depth += 1,
                Some(b')' | b']') => depth -= 1,
                Some(b';') if depth == 0 => break None,
                Some(b'{') if depth == 0 => break Some(j),
                _ => {}
            }
            j += 1;
        };
        let Some(open) = open else { continue };
        let mut depth = 0;
        let close = (open..b.len()).find(|&k| {
            match b[k] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth == 0
        });
        if let Some(close) = close {
            found.push((name, line_at(at), line_at(close) - line_at(at) + 1));
        }
    }
    found
}

/// Issue 49: no function in `src/` longer than [`MAX_FUNCTION_LINES`], tests included.
#[test]
fn no_function_is_longer_than_80_lines() {
    let mut long = Vec::new();
    for (rel, source) in src_files() {
        for (name, line, lines) in functions(&code_of(&source)) {
            if lines > MAX_FUNCTION_LINES {
                long.push(format!("src/{rel}:{line}: {name}, {lines} lines"));
            }
        }
    }
    long.sort();
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_check_sees_what_it_should() {
    let found =
        imports("use crate::plan::x; // crate::cli\n/// [`crate::render`]\nlet a = crate::kube::f(); my_crate::exec");
    assert_eq!(found, BTreeSet::from(["kube".to_string(), "plan".to_string()]));
    assert!(layer_of("base") < layer_of("model") && layer_of("kube") == layer_of("release"));
}

/// The files of a made-up `src/`, and the circles between them.
fn circles_of(files: &[(&str, &str)]) -> Vec<String> {
    let files: Vec<(String, String)> = files.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect();
    circles(&Crate::new(&files).edges())
}

/// The circle `render/` had (issue 49), which the check by folder missed: it crosses
/// from `render/` into `render/text/` and back.
#[test]
fn the_file_check_finds_the_render_circle() {
    let render = |progress_lines: &'static str, deploy: &'static str, run: &'static str| {
        circles_of(&[
            ("lib.rs", "pub mod render;"),
            (
                "render/mod.rs",
                "pub mod object_names;\npub mod progress_lines;\npub mod text;\npub use progress_lines::Lines;",
            ),
            ("render/object_names.rs", "pub(in crate::render) fn local_name() {}"),
            ("render/progress_lines.rs", progress_lines),
            ("render/text/mod.rs", "pub mod deploy;\npub mod run;"),
            ("render/text/deploy.rs", deploy),
            ("render/text/run.rs", run),
        ])
    };
    let before = render(
        "use super::text;\npub struct Lines;\npub(in crate::render) fn local_name() {}\nfn f() { text::deploy::table(); }",
        "pub fn table() { crate::render::progress_lines::local_name(); super::run::left(); }",
        "use crate::render::progress_lines::local_name;\npub fn left() { local_name(); }",
    );
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0].starts_with("render/progress_lines.rs, render/text/deploy.rs, render/text/run.rs:\n"),
        "{before:?}"
    );
    assert!(before[0].contains("render/progress_lines.rs -> render/text/deploy.rs (line 4: text::deploy::table)"));
    let after = render(
        "use super::object_names::local_name;\npub struct Lines;\nfn f() { super::text::deploy::table(); }",
        "use crate::render::object_names::local_name;\npub fn table() { local_name(); super::run::left(); }",
        "use crate::render::object_names::local_name;\npub fn left() { local_name(); }",
    );
    assert_eq!(after, Vec::<String>::new());
}

/// A path through a front leads to the file that defines the item; comments, literals
/// and tests name nothing.
#[test]
fn the_file_check_sees_what_it_should() {
    let folder = |y: &'static str| {
        [
            ("lib.rs", "pub mod a;"),
            ("a/mod.rs", "pub mod x;\npub mod y;\npub use x::X;\npub use y::Y;"),
            ("a/x.rs", "use super::Y;\npub struct X(Y);"),
            ("a/y.rs", y),
        ]
    };
    let quiet =
        "// use super::X;\npub struct Y;\nconst S: &str = \"super::x::X\";\nconst R: &str = r#\"crate::a::x\"#;\n\
                 #[cfg(test)]\nmod tests {\n    use super::super::x::X;\n}";
    let files: Vec<(String, String)> = folder(quiet).iter().map(|(p, s)| (p.to_string(), s.to_string())).collect();
    let edges = Crate::new(&files).edges();
    let targets = |f: &str| edges[f].keys().cloned().collect::<Vec<_>>();
    assert_eq!(targets("a/x.rs"), ["a/y.rs"]);
    assert_eq!(targets("a/y.rs"), Vec::<String>::new());
    assert_eq!(targets("a/mod.rs"), ["a/x.rs", "a/y.rs"]);
    assert_eq!(circles_of(&folder(quiet)), Vec::<String>::new());
    let back = circles_of(&folder("use crate::a::{self as here};\npub struct Y(Option<here::X>);"));
    assert_eq!(back, ["a/x.rs, a/y.rs:\n  a/x.rs -> a/y.rs (use super::Y)\n  a/y.rs -> a/x.rs (line 2: here::X)"]);

    let code = code_of("a('\"', \"}\", '\\'', r#\"\"{\"#, b'{') /* { /* } */ */ b<'a>(x: &'a str) // {");
    assert!(!code.contains('{') && !code.contains('}') && !code.contains('"'), "{code}");
    assert!(code.starts_with("a(") && code.contains(" b<'a>(x: &'a str) "), "{code}");
}

#[test]
fn functions_are_measured_from_fn_to_brace() {
    let code = "fn a() {\n}\ntrait T { fn b(&self); }\nfn c(x: [u8; 2]) -> u8 {\n    fn d() {}\n    1\n}";
    let found = functions(code);
    assert_eq!(found, [("a".to_string(), 1, 2), ("c".to_string(), 4, 4), ("d".to_string(), 5, 1)]);
}

/// A bare `pub` item (not `pub(crate)`, `pub(super)`, a field or a re-export's
/// path): what another crate could name.
fn is_pub_item(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("pub ") else { return false };
    let word = rest.split_whitespace().next().unwrap_or_default();
    ["fn", "struct", "enum", "trait", "type", "const", "static", "mod", "use", "union", "unsafe", "async", "extern"]
        .contains(&word)
}

/// Issue 49: at most half of the 974 `pub` items there were (955 by this count at
/// `b82c783`). The compiler (`unreachable_pub`) keeps each one reachable from outside;
/// this keeps their number from growing back.
#[test]
fn public_items_stay_at_most_half_of_what_there_were() {
    let items: usize = src_files().iter().map(|(_, code)| code.lines().filter(|l| is_pub_item(l)).count()).sum();
    assert!(items <= 487, "{items} bare `pub` items in src/; issue 49's bound is 487");
    assert!(is_pub_item("    pub fn f() {}") && !is_pub_item("pub(crate) fn f() {}") && !is_pub_item("pub x: u8,"));
}
