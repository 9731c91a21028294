//! The whole input path on arbitrary bytes: format detection, `helm
//! template` YAML or release JSON, annotations, HIP-0025 groups, subcharts,
//! the plan, and every renderer the CLI would call.
#![no_main]

use helm_hooks::model::diagnostic::Diagnostics;
use helm_hooks::{model::input, plan, render};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the options; the rest is the input.
    let (options, bytes) = match data.split_first() {
        Some((&o, rest)) => (plan::PlanOptions {
            parallel: usize::from(o & 0x0f),
            parallel_all: o & 0x10 != 0,
            parallel_resources: (o & 0x20 != 0).then_some(2),
        }, rest),
        None => (plan::PlanOptions::default(), data),
    };
    let mut diags = Diagnostics::default();
    let Ok((format, release)) = input::parse(bytes, &mut diags) else { return };
    let p = plan::build(&release, &[], options, &mut diags);
    let _ = render::json::lint(&diags, true);
    let _ = render::text::diagnostics(&diags, true);
    if !diags.has_errors() {
        let _ = render::text::plan(&release, &p);
        let _ = render::json::plan(&release, format, &p, &diags);
        let _ = render::dot::plan(&p);
        let _ = render::mermaid::plan(&p);
    }
});
