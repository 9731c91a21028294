//! Splitting a manifest stream, reading each document's head, and the
//! object as the API server would get it (YAML read as Kubernetes does).
#![no_main]

use helm_hooks::model::manifest;
use helm_hooks::model::yaml::{self, YamlError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for doc in manifest::split(text, "<fuzz>") {
        let _ = manifest::parse_head(&doc);
        let _ = yaml::to_json(&doc.text);
        // The pass that only counts refuses a bomb wherever the reader that builds does.
        let aliasing = |r: Result<(), YamlError>| matches!(r, Err(YamlError::ExcessiveAliasing { .. }));
        if aliasing(yaml::to_json_whole(&doc.text).map(drop)) {
            assert!(aliasing(yaml::check_syntax(&doc.text)), "counted apart from the reader");
        }
    }
});
