//! The chart author's contract, parsed once into typed values: documents, annotations, hooks, resources, readiness rules, references, the chart and its dependencies, and the diagnostics that name where each problem came from.

pub mod annotation;
pub mod block;
pub(crate) mod chart;
pub mod diagnostic;
mod dropped;
mod duplicate;
pub mod event;
pub mod external;
pub mod hook;
pub mod input;
pub mod kind_order;
pub mod list;
pub mod manifest;
pub(crate) mod object;
pub mod pod_spec;
mod readiness;
pub mod reference;
mod release;
pub(crate) mod resource;
pub(crate) mod resource_group;
pub mod scope;
pub mod yaml;
