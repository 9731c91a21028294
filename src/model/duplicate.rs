//! Two objects of a release that are one object in the cluster: the same
//! API group, kind, namespace and name. The second would overwrite the
//! first (server-side apply by the same manager succeeds), so whichever
//! document is applied last wins silently; and two such hooks of one event
//! started together would delete and replace each other. Both places are
//! named, as a user must choose between them.

use std::collections::hash_map::Entry;

use crate::base::hash::{word_map, WordMap};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::event::Event;
use crate::model::release::Release;

fn duplicate(diags: &mut Diagnostics, first: &Location, second: Location, what: &str) {
    // Helm prints documents sorted by kind, so a position in the template would mislead.
    let object = second.object.clone().unwrap_or_default();
    diags.push(
        Diagnostic::error(
            second.clone(),
            match first.source == second.source {
                true => format!("{what} {object} is defined twice in this template"),
                false => format!("{what} {object} is defined twice: here and in {}", first.source),
            },
        )
        .help(
            "rename or remove one: both would be applied to one object (stock Helm 4 keeps one of them \
                 under server-side apply, and fails with `already exists` under --server-side=false)",
        ),
    );
}

/// Adds an error for every resource that repeats an earlier one, and every
/// hook that repeats an earlier hook of one of its events. A hook may share
/// its name with a hook of other events (one Job template rendered for
/// pre-install and for pre-upgrade): Helm runs them at different times.
pub(super) fn check(release: &Release, diags: &mut Diagnostics) {
    let ns = release.namespace.as_deref();
    // The first of each identity by position: a location is made only for
    // a duplicate.
    // Sized once: growing by doubling hashed every identity again each time.
    let mut seen: WordMap<_, usize> = word_map(release.resources.len());
    for (i, r) in release.resources.iter().enumerate() {
        match seen.entry(r.head.identity_in(ns)) {
            Entry::Occupied(first) => {
                duplicate(diags, &release.resources[*first.get()].location(), r.location(), "resource")
            }
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    let mut seen: WordMap<_, usize> = word_map(release.hooks.len());
    for (i, h) in release.hooks.iter().enumerate() {
        for &event in &h.events {
            let key: (Event, _) = (event, h.head.identity_in(ns));
            if let Some(&first) = seen.get(&key) {
                duplicate(diags, &release.hooks[first].location(), h.location(), &format!("{event} hook"));
                break;
            }
            seen.insert(key, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::diagnostic::Diagnostics;
    use crate::model::input;

    fn errors(text: &str) -> Vec<String> {
        let mut d = Diagnostics::default();
        input::parse(text.as_bytes(), &mut d).unwrap();
        d.0.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.location, d.message)).collect()
    }

    fn doc(source: &str, kind: &str, name: &str, extra: &str) -> String {
        format!("---\n# Source: c/templates/{source}\napiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name}\n{extra}")
    }

    #[test]
    fn two_objects_of_one_identity_are_refused_with_both_places() {
        let test = "  annotations:\n    helm.sh/hook: test\n";
        let text = [doc("a.yaml", "ConfigMap", "cm", ""), doc("b.yaml", "ConfigMap", "cm", "")].concat();
        assert_eq!(
            errors(&text),
            ["c/templates/b.yaml ConfigMap/cm: resource ConfigMap/cm is defined twice: here and in c/templates/a.yaml"]
        );
        let text = [doc("t1.yaml", "Pod", "dup", test), doc("t2.yaml", "Pod", "dup", test)].concat();
        assert_eq!(
            errors(&text),
            ["c/templates/t2.yaml Pod/dup: test hook Pod/dup is defined twice: here and in c/templates/t1.yaml"]
        );
    }

    #[test]
    fn the_same_name_elsewhere_is_fine() {
        let pre = |e: &str| format!("  annotations:\n    helm.sh/hook: {e}\n");
        let text = [
            // Other kinds, other namespaces, other groups.
            doc("a.yaml", "ConfigMap", "x", ""),
            doc("b.yaml", "Secret", "x", ""),
            doc("c.yaml", "ConfigMap", "x", "  namespace: other\n"),
            "---\n# Source: c/templates/d.yaml\napiVersion: example.com/v1\nkind: ConfigMap\nmetadata:\n  name: x\n"
                .to_string(),
            // One Job for pre-install, another for pre-upgrade.
            doc("j1.yaml", "Job", "migrate", &pre("pre-install")),
            doc("j2.yaml", "Job", "migrate", &pre("pre-upgrade")),
        ]
        .concat();
        assert_eq!(errors(&text), Vec::<String>::new());
        // The release's namespace spelled out is the same object.
        let manifest =
            [doc("a.yaml", "ConfigMap", "x", ""), doc("b.yaml", "ConfigMap", "x", "  namespace: ns\n")].concat();
        let json = serde_json::json!({"name": "r", "namespace": "ns", "chart": {"metadata": {"name": "c"}}, "manifest": manifest});
        assert_eq!(errors(&json.to_string()).len(), 1);
    }
}
