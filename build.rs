//! Link plugin.wasm with 128 MiB of initial memory. Helm 4.2.4's wazero
//! grows a module's memory by copying it into a larger buffer each time, and
//! the old copies stay until Go collects them: starting large measured 311
//! -> 112 MiB peak for a 10,000-hook release, and costs small runs nothing
//! (pages are only touched when used). See docs/benchmarks.md.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-cdylib-link-arg=--initial-memory=134217728");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
