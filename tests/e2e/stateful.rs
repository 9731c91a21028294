//! End to end on public stateful charts (issue 42): a queue and a database chart whose
//! claims the bed's provisioner binds (docs/testing.md, "Volumes"), each compared with
//! stock Helm as `real.rs` compares every public chart (`real::fidelity`: stock `helm
//! install --wait`, then the README's pipe on the same namespace and release name; the
//! same objects, stored release, claims Bound and StatefulSets ready; then a stock
//! upgrade, `helm hooks rollback` and `helm hooks uninstall`). A suite of its own so that
//! `scripts/e2e.sh` can run it in the lane with time to spare (real.rs's is the critical
//! one). Neither chart has cluster-scoped objects: the two run side by side.
//!
//! ```sh
//! make cluster-up && eval "$(make -s cluster-env)" && make dist/hooks
//! HOOKS_PLUGIN_DIR=$PWD/dist/hooks HELM_BIN=$HOOKS_CACHE/bin/helm \
//!   cargo test --features e2e --test e2e stateful::
//! ```

use crate::real::{fidelity, Chart};

/// NATS 2.14.2 (nats-io/k8s) with JetStream's file store: a StatefulSet whose
/// `volumeClaimTemplate` holds the streams, and the chart's own test hook (a nats-box Pod
/// doing a request and a reply), run by `helm test` and by `helm hooks run --event test`.
#[test]
fn nats_with_jetstream_on_a_volume() {
    fidelity(Chart {
        dir: "nats",
        args: &["--set", "config.jetstream.enabled=true"],
        tests: true,
        claims: Some(1),
        hook_order: false,
    });
}

/// Apache Airflow's chart 1.19.0 with its database, bitnami's PostgreSQL 13.2.24 (a
/// subchart), on a volume as by default: four StatefulSets with claims (PostgreSQL,
/// Redis, the Celery worker, the triggerer), and its hooks — three pre-install Secrets
/// (weight 0) and the post-install Jobs that migrate the database (weight 1) and create
/// the admin user (weight 2), each deleted when it succeeds — created and deleted in stock
/// Helm's order.
#[test]
fn airflow_database_hooks_in_order() {
    fidelity(Chart {
        dir: "airflow",
        // Otherwise each render makes random keys and passwords (`randAlphaNum`) and no
        // two releases store the same Secrets.
        args: &[
            "--set",
            "fernetKey=aG9va3MtdGVzdC1mZXJuZXQta2V5LTMyLWJ5dGVzISE=",
            "--set",
            "webserverSecretKey=hooks-test",
            "--set",
            "jwtSecret=hooks-test",
            "--set",
            "apiSecretKey=hooks-test",
            "--set",
            "redis.password=hooks-test",
        ],
        tests: false,
        claims: Some(4),
        hook_order: true,
    });
}
