//! HIP-0025 readiness expressions: parsing, and evaluation against an
//! arbitrary JSON object; also the annotation pair as a whole, and every
//! kind's own readiness rules (kstatus) on the same object.
#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use helm_hooks::model::diagnostic::{Diagnostics, Location};
use helm_hooks::ready::{Expr, Readiness};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    expr: &'a str,
    success: &'a str,
    failure: &'a str,
    object: &'a [u8],
}

fuzz_target!(|input: Input| {
    let object: serde_json::Value = serde_json::from_slice(input.object).unwrap_or_else(|_| {
        serde_json::json!({"status": {"phase": input.object.len(), "conditions": [{"type": "Ready", "status": "True"}]}})
    });
    if let Ok(e) = Expr::parse(input.expr) {
        let _ = e.holds(&object);
    }
    let mut ann = BTreeMap::new();
    ann.insert("helm.sh/readiness-success".to_string(), input.success.to_string());
    ann.insert("helm.sh/readiness-failure".to_string(), input.failure.to_string());
    let mut diags = Diagnostics::default();
    if let Some(r) = Readiness::from_annotations(&ann, &Location::default(), &mut diags) {
        let _ = r.evaluate(&object);
    }
    for kind in ["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "Pod", "PersistentVolumeClaim",
        "CustomResourceDefinition", "Service", "Namespace", "Widget", input.expr] {
        let _ = helm_hooks::ready::kstatus::health(kind, &object);
    }
});
