//! helm-hooks: run a Helm release's hooks and resources in the order chart
//! authors declare — in parallel where they allow it, in dependency order
//! where they need it.
//!
//! The crate is a pure core (no I/O): [`input`] parses what Helm renders,
//! [`hook`] and [`resource`] hold the typed annotations, [`plan`] builds the
//! graph per event, [`render`] prints it. The CLI in [`cli`] ties them
//! together; `plugin` (Wasm only) is the entry point Helm 4 calls.

pub mod annotation;
pub mod batch;
pub mod cli;
pub mod cluster;
pub mod dag;
pub mod deploy;
pub mod diagnostic;
pub mod dropped;
pub mod estimate;
pub mod event;
pub mod executor;
pub mod external;
pub mod frontier;
pub mod hook;
pub mod input;
pub mod kind_order;
pub mod kstatus;
pub mod kube;
pub mod manifest;
pub mod plan;
pub mod readiness;
pub mod record;
pub mod reference;
pub mod render;
pub mod resource;
pub mod resource_group;
pub mod rollout;
pub mod run;
pub mod scope;
pub mod status;
pub mod storage;
pub mod subchart;
pub mod yaml;

#[cfg(target_arch = "wasm32")]
mod plugin;
