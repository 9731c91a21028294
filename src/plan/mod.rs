//! The execution plan: one graph per event, which hook waits for which and
//! why, the waves a lockstep run would start, and the critical path.
//!
//! Edges (docs/design.md §4): weight barriers (every hook waits for all hooks of
//! lower weight), `helm.sh/depends-on`, serial barriers (within a weight, a
//! serial hook waits for every hook before it in Helm order and every later
//! hook waits for it), and kind-order barriers (among parallel hooks of one
//! weight, a hook of a later tier of Helm's kind order waits for those of the
//! tier before: the ServiceAccount and RBAC before the Job that uses them).
//! Weight and kind-order barriers are modelled as one barrier node each, so
//! a plan of n hooks has O(n) edges even when thousands of parallel hooks
//! share a weight.
//!
//! Resources use the same machinery: their level is the HIP-0025 batch
//! instead of the weight, and every resource of a batch may run in parallel.

mod barriers;
pub mod batch;
mod build;
pub(crate) mod estimate;
pub(crate) mod event_plan;
pub(crate) mod frontier;
mod layout;
mod lifecycle;
pub mod order_check;
mod references;
mod simulate;
mod spec;
mod subchart;

pub use build::build;
pub use event_plan::{EventPlan, Item, ItemId, Node, Plan, PlanOptions, Reason, Target};
