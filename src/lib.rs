//! helm-hooks: run a Helm release's hooks and resources in the order chart
//! authors declare — in parallel where they allow it, in dependency order
//! where they need it.
//!
//! The layers, from the bottom up (docs/design.md §6), each importing only
//! its own and those below: [`base`] is what every layer uses (time, text,
//! graphs; [`trace`] beside it); [`ready`] decides whether a live object is
//! ready, done or failed, as conditions; [`model`] parses what Helm renders into typed
//! hooks, resources and annotations; [`plan`] builds the graph per event and
//! the install batches; [`exec`] runs a plan as sans-IO state machines. Then
//! the I/O: [`kube`] speaks to the API server and [`release`] keeps Helm's
//! record; [`seam`] is what the commands need of the world (cluster, store,
//! clock) with its one real adapter; [`deploy`] drives install, upgrade,
//! rollback and uninstall over it. [`action`] has a file per command
//! (prepare, then perform), [`render`] shows every outcome in every format it
//! offers, and [`cli`] parses a command line and calls them; `plugin` (Wasm
//! only) is the entry point Helm 4 calls.
//!
//! Each room keeps its inside (issue 49): what another room uses is
//! `pub(crate)`, what only the files of its own room use is `pub(super)`
//! or private, and bare `pub` is left on what the tests, benches, fuzz
//! targets and `main.rs` name from outside the crate. `unreachable_pub`
//! makes the compiler refuse a `pub` that nothing outside can reach.

#![deny(unreachable_pub)]

pub mod action;
pub mod base;
pub mod cli;
pub mod deploy;
pub mod exec;
pub mod kube;
pub mod model;
pub mod plan;
pub mod ready;
pub mod release;
pub mod render;
pub mod seam;
pub(crate) mod trace;

#[cfg(target_arch = "wasm32")]
mod plugin;
