//! Splitting a manifest stream, reading each document's head, and the
//! object as the API server would get it (YAML read as Kubernetes does).
#![no_main]

use helm_hooks::model::manifest;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for doc in manifest::split(text, "<fuzz>") {
        let _ = manifest::parse_head(&doc);
        let _ = helm_hooks::model::yaml::to_json(&doc.text);
    }
});
