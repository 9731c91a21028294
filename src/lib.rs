//! helm-hooks: run a Helm release's hooks and resources in the order chart
//! authors declare — in parallel where they allow it, in dependency order
//! where they need it.
//!
//! The layers, from the inside out (docs/design.md §6): [`model`] parses what
//! Helm renders into typed hooks, resources and annotations; [`plan`] builds
//! the graph per event and the install batches; [`exec`] runs a plan as
//! sans-IO state machines; [`render`] prints plans. Around that core, the I/O:
//! [`kube`] speaks to the API server, [`release`] keeps Helm's record, and
//! [`deploy`] sequences install, upgrade, rollback and uninstall. The CLI in
//! [`cli`] ties them together; `plugin` (Wasm only) is the entry point Helm 4
//! calls.

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
pub mod trace;

#[cfg(target_arch = "wasm32")]
mod plugin;
