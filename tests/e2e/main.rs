//! The end-to-end suites, one test binary with a module per suite, behind the one `e2e`
//! feature (Cargo.toml). One binary links once and shares one harness (`common`),
//! where nine binaries each compiled and linked their own copy of it.
//!
//! A suite is picked by its module path, as the test harness filters names:
//!
//! ```sh
//! cargo test --features e2e --test e2e helm::          # no cluster: Helm and the plugin only
//! make cluster-up && eval "$(make -s cluster-env)"
//! cargo test --features e2e --test e2e run::           # one suite against the bed
//! scripts/e2e.sh                                       # all of them, in lanes (make e2e)
//! ```
//!
//! Each module's own comment says what it needs and covers; docs/testing.md lists them.

mod common;

mod deploy;
mod faults;
mod helm;
mod kube;
mod node;
mod real;
mod run;
mod sql;
mod stateful;
mod testbed;
