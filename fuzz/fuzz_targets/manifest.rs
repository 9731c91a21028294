//! Splitting a manifest stream and reading each document's head.
#![no_main]

use helm_hooks::manifest;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for doc in manifest::split(text, "<fuzz>") {
        let _ = manifest::parse_head(&doc);
    }
});
