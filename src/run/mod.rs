//! The `run` driver's adapter: [`cluster::KubeCluster`] is the
//! [`crate::exec::run::Cluster`] that `helm hooks run` (and deploy's hooks)
//! drive over the Kubernetes API and Helm's release record. It sits above
//! the adapters it joins (`kube`, `release`) and below `deploy`, which runs
//! hooks through it (docs/design.md §6).

pub mod access;
pub mod cluster;
pub mod hooks;
pub mod status;
