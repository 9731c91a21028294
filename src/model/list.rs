//! `kind: List`, read as Helm applies it: Helm's kube client builds a
//! release's objects with the resource builder's `Flatten()`, so a document
//! that decodes as a list (any object with `items`, as apimachinery's
//! unstructured reading detects one) stands for its items, each an object of
//! the release; kubectl does the same. An item with neither kind nor
//! apiVersion takes the list's apiVersion and its kind less `List`, as
//! apimachinery fills them in.
//!
//! Helm decides hook or resource from the document (`SortManifests`), before
//! it builds objects, so a List's items are resources whatever their own
//! annotations say, and a List that is itself a hook is refused here
//! (README, limits).

use serde_json::Value;

use crate::model::annotation::HOOK;
use crate::model::diagnostic::Diagnostic;
use crate::model::manifest::Document;
use crate::model::yaml;

/// The items of `doc` as documents of their own (each written as JSON,
/// which is YAML), or `None` when `doc` is not a list. A document that does
/// not read is left to the reader of heads, which says why.
pub fn items(doc: &Document) -> Option<Result<Vec<Document>, Box<Diagnostic>>> {
    let Ok(Value::Object(mut top)) = yaml::to_json(&doc.text) else { return None };
    let items = match top.remove("items") {
        None | Some(Value::Null) => return None,
        Some(Value::Array(items)) => items,
        Some(_) => return Some(Err(failure(doc, "is a list whose items are not a sequence".into()))),
    };
    let annotations = top.get("metadata").and_then(|m| m.get("annotations")).and_then(Value::as_object);
    if annotations.is_some_and(|a| a.contains_key(HOOK)) {
        return Some(Err(failure(
            doc,
            "is a kind: List with a helm.sh/hook annotation; helm-hooks runs hooks one object each".into(),
        )));
    }
    let api_version = top.get("apiVersion").and_then(Value::as_str).unwrap_or_default().to_string();
    let kind = top.get("kind").and_then(Value::as_str).unwrap_or_default();
    let item_kind = kind.strip_suffix("List").unwrap_or(kind).to_string();
    let mut out = Vec::with_capacity(items.len());
    for mut item in items {
        let Value::Object(fields) = &mut item else {
            return Some(Err(failure(doc, "is a list with an item that is not a mapping".into())));
        };
        if !fields.contains_key("kind") && !fields.contains_key("apiVersion") {
            fields.insert("apiVersion".into(), api_version.clone().into());
            fields.insert("kind".into(), item_kind.clone().into());
        }
        let text = serde_json::to_string(&item).expect("a Value serialises");
        out.push(Document { source: doc.source.clone(), index: doc.index, text });
    }
    Some(Ok(out))
}

fn failure(doc: &Document, message: String) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(doc.location(), message)
            .help("write each object as a document of its own (`---` between them)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document { source: "c/templates/list.yaml".into(), index: 1, text: text.into() }
    }

    #[test]
    fn a_list_stands_for_its_items() {
        let d = doc("apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: a\n  - apiVersion: v1\n    kind: Service\n    metadata:\n      name: b\n");
        let read = items(&d).unwrap().unwrap();
        let kinds: Vec<Value> = read.iter().map(|i| yaml::to_json(&i.text).unwrap()["kind"].clone()).collect();
        assert_eq!(kinds, ["ConfigMap", "Service"]);
        // A typed list's items without kind take it from the list.
        let d = doc("apiVersion: v1\nkind: ConfigMapList\nitems:\n  - metadata:\n      name: a\n");
        let item = yaml::to_json(&items(&d).unwrap().unwrap()[0].text).unwrap();
        assert_eq!((item["apiVersion"].as_str(), item["kind"].as_str()), (Some("v1"), Some("ConfigMap")));
    }

    #[test]
    fn what_is_no_list_is_left_alone_and_bad_lists_are_told() {
        assert!(items(&doc("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  items: x\n")).is_none());
        assert!(items(&doc("kind: List\nitems:\n")).is_none());
        assert!(items(&doc("kind: List\nitems: 3\n")).unwrap().is_err());
        assert!(items(&doc("kind: List\nitems: [3]\n")).unwrap().is_err());
        let hook = "kind: List\nmetadata:\n  annotations:\n    helm.sh/hook: test\nitems: []\n";
        assert!(items(&doc(hook)).unwrap().is_err());
    }
}
