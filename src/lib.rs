//! helm-hooks: run a Helm release's hooks and resources in the order chart
//! authors declare — in parallel where they allow it, in dependency order
//! where they need it.
//!
//! The layers, from the bottom up (docs/design.md §6), each importing only
//! its own and those below: [`base`] is what every layer uses (time, text,
//! graphs; [`trace`] beside it); [`model`] parses what Helm renders into typed
//! hooks, resources and annotations; [`plan`] builds the graph per event and
//! the install batches; [`exec`] runs a plan as sans-IO state machines. Then
//! the I/O: [`kube`] speaks to the API server and [`release`] keeps Helm's
//! record; [`seam`] is what the commands need of the world (cluster, store,
//! clock) with its one real adapter; [`deploy`] drives install, upgrade,
//! rollback and uninstall over it. [`action`] has a file per command
//! (prepare, then perform), [`render`] shows every outcome in every format it
//! offers, and [`cli`] parses a command line and calls them; `plugin` (Wasm
//! only) is the entry point Helm 4 calls.

pub mod action;
pub mod base;
pub mod cli;
pub mod deploy;
pub mod exec;
pub mod kube;
pub mod model;
pub mod plan;
pub mod release;
pub mod render;
pub mod seam;
pub(crate) mod trace;

#[cfg(target_arch = "wasm32")]
mod plugin;
