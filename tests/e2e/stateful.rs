//! End to end on public stateful charts (issues 42, 47): a queue and two databases whose
//! claims the bed's provisioner binds (docs/testing.md, "Volumes"), and an application
//! whose hooks migrate its database, each compared with
//! stock Helm as `real.rs` compares every public chart (`real::fidelity`: stock `helm
//! install --wait`, then the README's pipe on the same namespace and release name; the
//! same objects, stored release, claims Bound and StatefulSets ready; then a stock
//! upgrade, `helm hooks rollback` and `helm hooks uninstall`). A suite of its own so that
//! `scripts/e2e.sh` can run it in the lane with time to spare (real.rs's is the critical
//! one). They run side by side: only hydra has cluster-scoped objects (its
//! hydra-maester's ClusterRole and `crds/` CRD), which no other chart names.
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

/// bitnami's PostgreSQL 17.1.0 (the corpus' database, issue 47): every container asks for
/// `ephemeral-storage` (its resource presets), which a node must report to schedule it,
/// and its StatefulSet's claim is bound by the bed's provisioner.
#[test]
fn postgresql_17() {
    fidelity(Chart {
        dir: "postgresql",
        args: &["--set", "auth.postgresPassword=hooks-test"],
        tests: false,
        claims: Some(1),
        hook_order: false,
    });
}

/// ory's hydra (issue 47's corpus) with its SQL migration on: a ServiceAccount, a Secret
/// and a ConfigMap as weight-0 pre-install hooks, the migration Job at weight 1, and a test
/// Pod, each run as stock Helm runs them.
#[test]
fn hydra() {
    fidelity(Chart {
        dir: "hydra",
        args: &[
            "-f",
            "testdata/charts/real/hydra.hooks-values.yaml",
            // Otherwise the Secret (a pre-install hook) carries keys made by `randAlphaNum`.
            "--set",
            "hydra.config.secrets.system[0]=hooks-test-system-secret-32-bytes",
            "--set",
            "hydra.config.secrets.cookie[0]=hooks-test-cookie-secret-32-bytes",
        ],
        tests: true,
        claims: None,
        hook_order: true,
    });
}
