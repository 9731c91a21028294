//! `helm hooks lint`'s order check (issue 31, item 4; docs/commands.md,
//! "Order bugs"): a workload whose pods name an object the release creates
//! later, or deletes before, gets one warning naming both objects, the
//! field and the annotation that would fix it. Driven through the CLI as a
//! user pipes `helm template` output in, text and `-o json`.
//!
//! The public charts (testdata/charts/real) lint without one: that is
//! `real_charts_have_no_order_warning` in tests/e2e/helm.rs, which renders
//! them with the real Helm.

use helm_hooks::cli::{run_captured, Exit};

/// `lint -` of `docs`, each `(source, yaml)` a `helm template` document.
fn lint(docs: &[(&str, &str)], json: bool) -> (Exit, String) {
    let text: String = docs.iter().map(|(source, yaml)| format!("---\n# Source: {source}\n{yaml}")).collect();
    let args: &[&str] = if json { &["lint", "-", "-o", "json"] } else { &["lint", "-"] };
    let (code, out, err) = run_captured(args, text.as_bytes());
    assert!(err.is_empty(), "stderr: {err}");
    (code, out)
}

/// The warnings of `lint -o json`, as (object, message, help).
fn warnings(docs: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let (code, out) = lint(docs, true);
    let v: serde_json::Value = serde_json::from_str(&out).expect("lint -o json is JSON");
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(code, Exit::Ok, "warnings alone leave lint at exit 0: {out}");
    let s = |w: &serde_json::Value, k: &str| w[k].as_str().unwrap_or_default().to_string();
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert_eq!(w["severity"], "warning");
            (s(&w["location"], "object"), s(w, "message"), s(w, "help"))
        })
        .collect()
}

const DEPLOYMENT_MOUNTING_CONFIG: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
      volumes:
        - name: config
          configMap:
            name: web-config
";

fn config_map(name: &str, annotations: &str) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  annotations:\n{annotations}data:\n  a: b\n")
}

/// Issue 31's "must show": a Deployment mounting a ConfigMap a post-install hook makes.
#[test]
fn a_deployment_mounting_a_post_install_config_map_is_warned() {
    let cm = config_map("web-config", "    helm.sh/hook: post-install,post-upgrade\n");
    let docs =
        [("app/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG), ("app/templates/config.yaml", cm.as_str())];
    let w = warnings(&docs);
    assert_eq!(w.len(), 1, "{w:?}");
    let (object, message, help) = &w[0];
    assert_eq!(object, "Deployment/web");
    assert_eq!(
        message,
        "spec.template.spec.volumes[0].configMap.name names ConfigMap/web-config (app/templates/config.yaml), \
         a post-install,post-upgrade hook, which Helm creates only after every resource is ready; its pods \
         cannot start without it"
    );
    assert!(help.contains("make ConfigMap/web-config a pre-install,pre-upgrade hook"), "{help}");
    assert!(help.contains("helm.sh/hook: pre-install,pre-upgrade"), "{help}");

    // Text: the referrer's template and name, then the message, then the fix.
    let (code, text) = lint(&docs, false);
    assert_eq!(code, Exit::Ok);
    assert!(
        text.starts_with(
            "warning: app/templates/deployment.yaml Deployment/web: spec.template.spec.volumes[0].configMap.name names ConfigMap/web-config (app/templates/config.yaml)"
        ),
        "{text}"
    );
    assert!(text.contains("\n  help: make ConfigMap/web-config a pre-install,pre-upgrade hook"), "{text}");

    // The fix works: as a pre-install hook the ConfigMap is made before any resource.
    let cm = config_map("web-config", "    helm.sh/hook: pre-install,pre-upgrade\n");
    let fixed =
        [("app/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG), ("app/templates/config.yaml", cm.as_str())];
    assert_eq!(warnings(&fixed), []);
}

#[test]
fn env_from_a_secret_of_a_post_install_hook_is_warned_once_however_many_fields_name_it() {
    let deployment = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    spec:
      containers:
        - name: api
          image: api
          envFrom:
            - secretRef:
                name: api-credentials
          env:
            - name: TOKEN
              valueFrom:
                secretKeyRef:
                  name: api-credentials
                  key: token
";
    let secret = "apiVersion: v1
kind: Secret
metadata:
  name: api-credentials
  annotations:
    helm.sh/hook: post-install
stringData:
  token: x
";
    let w = warnings(&[("app/templates/api.yaml", deployment), ("app/templates/secret.yaml", secret)]);
    assert_eq!(w.len(), 1, "one problem, one message: {w:?}");
    assert!(
        w[0].1.starts_with(
            "spec.template.spec.containers[0].envFrom[0].secretRef.name (and 1 more field) names Secret/api-credentials (app/templates/secret.yaml), a post-install hook"
        ),
        "{}",
        w[0].1
    );
}

/// A pull secret made too late does not stop the pod, only a private pull:
/// the message says so, and a field that blocks is named first.
#[test]
fn a_late_pull_secret_is_worded_for_what_it_does() {
    let pod = "apiVersion: v1
kind: Pod
metadata:
  name: check
  annotations:
    helm.sh/hook: pre-install
spec:
  imagePullSecrets: [{name: registry}]
  containers: [{name: c, image: private.example/check}]
";
    let secret =
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry\n  annotations:\n    helm.sh/hook: post-install\n";
    let w = warnings(&[("app/templates/pod.yaml", pod), ("app/templates/secret.yaml", secret)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].1.starts_with("spec.imagePullSecrets[0].name names Secret/registry"), "{}", w[0].1);
    assert!(
        w[0].1.ends_with("; its pods pull their images without it, which a private registry refuses"),
        "{}",
        w[0].1
    );
    let also_mounted =
        pod.replace("  containers:", "  volumes: [{name: v, secret: {secretName: registry}}]\n  containers:");
    let w = warnings(&[("app/templates/pod.yaml", &also_mounted), ("app/templates/secret.yaml", secret)]);
    assert!(
        w[0].1.starts_with("spec.volumes[0].secret.secretName (and 1 more field) names Secret/registry"),
        "{}",
        w[0].1
    );
    assert!(w[0].1.ends_with("; its pods cannot start without it"), "{}", w[0].1);
}

/// Resources are applied after the pre-install hooks: a pre-install Job
/// that runs as the chart's ServiceAccount (a resource) cannot start on a
/// first install.
#[test]
fn a_pre_install_hook_naming_a_resource_is_warned() {
    let job = "apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: \"2\"
spec:
  template:
    spec:
      serviceAccountName: app
      restartPolicy: Never
      containers: [{name: m, image: m}]
";
    let sa = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: app\n";
    let w = warnings(&[("app/templates/migrate.yaml", job), ("app/templates/sa.yaml", sa)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].0, "Job/migrate");
    assert_eq!(
        w[0].1,
        "spec.template.spec.serviceAccountName names ServiceAccount/app (app/templates/sa.yaml), a resource, which \
         Helm applies only after every pre-install hook has completed, so on a first install it does not exist \
         when this pre-install hook starts; its pods cannot start without it"
    );
    assert!(
        w[0].2.contains(
            "make ServiceAccount/app a pre-install,pre-upgrade hook with a helm.sh/hook-weight below this hook's 2"
        ),
        "{}",
        w[0].2
    );
    // A post-install hook may use the resources: they are ready by then.
    let later = job.replace("pre-install,pre-upgrade", "post-install,post-upgrade");
    assert_eq!(warnings(&[("app/templates/migrate.yaml", &later), ("app/templates/sa.yaml", sa)]), []);
}

fn hook_job(name: &str, weight: i64, extra_annotations: &str) -> String {
    format!(
        "apiVersion: batch/v1
kind: Job
metadata:
  name: {name}
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-weight: \"{weight}\"
{extra_annotations}spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{{name: c, image: busybox}}]
      volumes: [{{name: v, configMap: {{name: settings}}}}]
"
    )
}

#[test]
fn a_hook_mounting_a_config_map_hook_of_a_later_weight_is_warned() {
    let cm = config_map("settings", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"5\"\n");
    let job = hook_job("setup", 0, "");
    let w = warnings(&[("app/templates/setup.yaml", job.as_str()), ("app/templates/settings.yaml", cm.as_str())]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains(
            "names ConfigMap/settings (app/templates/settings.yaml), a pre-install hook of weight 5, which Helm creates after this weight-0 hook"
        ),
        "{}",
        w[0].1
    );
    assert_eq!(
        w[0].2,
        "give ConfigMap/settings a helm.sh/hook-weight below this hook's 0, so that Helm creates it first"
    );

    // Same weight, serial: Helm's order is by name, and "settings" sorts after "a-setup".
    let cm0 = config_map("settings", "    helm.sh/hook: pre-install\n");
    let job = hook_job("a-setup", 0, "");
    let w = warnings(&[("app/templates/setup.yaml", job.as_str()), ("app/templates/settings.yaml", cm0.as_str())]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].1.contains("a pre-install hook of the same weight that Helm creates after this one"), "{}", w[0].1);
    // ... and "z-setup" after it: fine.
    let job = hook_job("z-setup", 0, "");
    assert_eq!(
        warnings(&[("app/templates/setup.yaml", job.as_str()), ("app/templates/settings.yaml", cm0.as_str())]),
        []
    );
    // Parallel hooks of one weight: kind order creates the ConfigMap before the Job.
    let parallel = "    helm.sh/hook-parallel: \"true\"\n";
    let job = hook_job("a-setup", 0, parallel);
    let cmp = config_map("settings", &format!("    helm.sh/hook: pre-install\n{parallel}"));
    assert_eq!(
        warnings(&[("app/templates/setup.yaml", job.as_str()), ("app/templates/settings.yaml", cmp.as_str())]),
        []
    );
    // ... unless a serial hook between them in Helm's order makes the ConfigMap wait for the Job.
    let serial = config_map("b-serial", "    helm.sh/hook: pre-install\n");
    let w = warnings(&[
        ("app/templates/setup.yaml", job.as_str()),
        ("app/templates/serial.yaml", serial.as_str()),
        ("app/templates/settings.yaml", cmp.as_str()),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].1.contains("a pre-install hook of the same weight that Helm creates after this one"), "{}", w[0].1);
}

/// `helm.sh/depends-on` on a hook of a later weight is the plan's error
/// already ("would wait forever"); the order check adds no second message.
#[test]
fn a_hook_depending_on_a_hook_of_a_later_weight_is_one_error() {
    let job = hook_job("setup", 0, "    helm.sh/depends-on: ConfigMap/settings\n");
    let cm = config_map("settings", "    helm.sh/hook: pre-install\n    helm.sh/hook-weight: \"5\"\n");
    let (code, out) =
        lint(&[("app/templates/setup.yaml", job.as_str()), ("app/templates/settings.yaml", cm.as_str())], true);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(code, Exit::Invalid);
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{out}");
    assert_eq!(errors[0]["annotation"], "helm.sh/depends-on");
    assert!(errors[0]["message"].as_str().unwrap().contains("higher weight"), "{out}");
    // The mount of the same ConfigMap is the one warning: the two are different problems.
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{out}");
}

/// `hook-succeeded` deletes a hook when its event's hooks have succeeded:
/// what a later event (or the resources) needs from it is gone. The
/// default, `before-hook-creation`, keeps it until the hook runs again.
#[test]
fn a_hook_succeeded_delete_policy_on_a_hook_a_later_workload_needs_is_warned() {
    let deletes =
        "    helm.sh/hook: pre-install\n    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded\n";
    let cm = config_map("web-config", deletes);
    let docs =
        [("app/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG), ("app/templates/config.yaml", cm.as_str())];
    let w = warnings(&docs);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains("a pre-install hook with the hook-succeeded delete policy, which Helm deletes once the pre-install hooks have succeeded, before this resource is applied"),
        "{}",
        w[0].1
    );
    assert!(
        w[0].2.starts_with("remove hook-succeeded from the helm.sh/hook-delete-policy of ConfigMap/web-config"),
        "{}",
        w[0].2
    );
    // A later hook of the same event still has it: deletion waits for the event's end.
    let job = hook_job("setup", 1, "").replace("name: settings", "name: web-config");
    assert_eq!(warnings(&[("app/templates/job.yaml", &job), ("app/templates/config.yaml", &cm)]), []);
    // Helm's default policy keeps it.
    let kept = config_map("web-config", "    helm.sh/hook: pre-install\n");
    assert_eq!(
        warnings(&[
            ("app/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG),
            ("app/templates/config.yaml", &kept)
        ]),
        []
    );
}

/// `helm uninstall` deletes the resources, then runs the post-delete hooks.
#[test]
fn a_post_delete_hook_running_as_a_resource_service_account_is_warned_unless_kept() {
    let job = "apiVersion: batch/v1
kind: Job
metadata:
  name: cleanup
  annotations:
    helm.sh/hook: post-delete
spec:
  template:
    spec:
      serviceAccountName: app
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
";
    let sa = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: app\n";
    let w = warnings(&[("app/templates/cleanup.yaml", job), ("app/templates/sa.yaml", sa)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains("a resource, which helm uninstall deletes before it runs the post-delete hooks"),
        "{}",
        w[0].1
    );
    assert!(w[0].2.contains("helm.sh/resource-policy: keep"), "{}", w[0].2);
    let kept = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: app\n  annotations:\n    helm.sh/resource-policy: keep\n";
    assert_eq!(warnings(&[("app/templates/cleanup.yaml", job), ("app/templates/sa.yaml", kept)]), []);
}

/// HIP-0025 batches: a resource group applied after the one that needs it.
#[test]
fn a_config_map_in_a_later_resource_group_is_warned_with_the_group_to_use() {
    let deployment = DEPLOYMENT_MOUNTING_CONFIG
        .replace("  name: web\n", "  name: web\n  annotations:\n    helm.sh/resource-group: app\n");
    let cm = config_map(
        "web-config",
        "    helm.sh/resource-group: config\n    helm.sh/depends-on-resource-groups: '[\"app\"]'\n",
    );
    let w = warnings(&[("app/templates/deployment.yaml", &deployment), ("app/templates/config.yaml", &cm)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains("a resource of batch 2 (app group config), which is applied only once batch 1 (app group app), this resource's, is ready"),
        "{}",
        w[0].1
    );
    assert_eq!(
        w[0].2,
        "put ConfigMap/web-config in helm.sh/resource-group \"app\", or in a group that \"app\" names in helm.sh/depends-on-resource-groups"
    );
    // The same batch: applied together, as stock Helm applies a release.
    let same = config_map("web-config", "    helm.sh/resource-group: app\n");
    assert_eq!(warnings(&[("app/templates/deployment.yaml", &deployment), ("app/templates/config.yaml", &same)]), []);
}

/// Subcharts come before their parent (HIP-0025): a subchart's workload
/// that mounts the parent's ConfigMap waits for a later batch.
#[test]
fn a_subchart_workload_needing_its_parents_config_map_is_warned() {
    let cm = config_map("web-config", "    helm.sh/resource-group: config\n");
    let w = warnings(&[
        ("app/charts/web/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG),
        ("app/templates/config.yaml", &cm),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].1.contains("(app group config)") && w[0].1.contains("(app/web)"), "{}", w[0].1);
    assert_eq!(w[0].2, "move ConfigMap/web-config into app/web, whose resources come before app's");
}

/// Not this check's business: optional references, objects the release
/// does not make, objects of another namespace.
#[test]
fn optional_external_and_other_namespace_references_are_not_warned() {
    let optional =
        DEPLOYMENT_MOUNTING_CONFIG.replace("name: web-config\n", "name: web-config\n            optional: true\n");
    let cm = config_map("web-config", "    helm.sh/hook: post-install\n");
    assert_eq!(warnings(&[("app/templates/deployment.yaml", &optional), ("app/templates/config.yaml", &cm)]), []);
    assert_eq!(warnings(&[("app/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG)]), []);
    let elsewhere = cm.replace("  name: web-config\n", "  name: web-config\n  namespace: other\n");
    let here = DEPLOYMENT_MOUNTING_CONFIG.replace("  name: web\n", "  name: web\n  namespace: apps\n");
    assert_eq!(warnings(&[("app/templates/deployment.yaml", &here), ("app/templates/config.yaml", &elsewhere)]), []);
    // The same namespace, written out on both: warned.
    let there = cm.replace("  name: web-config\n", "  name: web-config\n  namespace: apps\n");
    assert_eq!(warnings(&[("app/templates/deployment.yaml", &here), ("app/templates/config.yaml", &there)]).len(), 1);
}

/// Hooks of other events: what a first install has not made by then.
#[test]
fn hooks_of_events_that_come_later_or_never_on_install_are_warned() {
    let job = |events: &str| {
        hook_job("setup", 0, "").replace("helm.sh/hook: pre-install", &format!("helm.sh/hook: {events}"))
    };
    // A pre-install hook needing a post-install hook's ConfigMap.
    let cm = config_map("settings", "    helm.sh/hook: post-install\n");
    let w = warnings(&[("app/templates/job.yaml", &job("pre-install")), ("app/templates/cm.yaml", &cm)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains(
            "a hook of post-install only, which a first install does not create before this pre-install hook"
        ),
        "{}",
        w[0].1
    );
    assert_eq!(
        w[0].2,
        "add pre-install to the helm.sh/hook of ConfigMap/settings, with a helm.sh/hook-weight below this hook's 0"
    );
    // A post-install hook needing a hook that only an upgrade makes.
    let cm = config_map("settings", "    helm.sh/hook: pre-upgrade\n");
    let w = warnings(&[("app/templates/job.yaml", &job("post-install,post-upgrade")), ("app/templates/cm.yaml", &cm)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].1.contains(
            "a hook of pre-upgrade only, which a first install does not create before this post-install hook"
        ),
        "{}",
        w[0].1
    );
    // A pre-upgrade hook finds what the install made: not warned.
    let cm = config_map("settings", "    helm.sh/hook: post-install\n");
    assert_eq!(warnings(&[("app/templates/job.yaml", &job("pre-upgrade")), ("app/templates/cm.yaml", &cm)]), []);
    // A test hook needing a post-install hook that hook-succeeded deleted.
    let cm = config_map("settings", "    helm.sh/hook: post-install\n    helm.sh/hook-delete-policy: hook-succeeded\n");
    let w = warnings(&[("app/templates/job.yaml", &job("test")), ("app/templates/cm.yaml", &cm)]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].1.contains("Helm deletes once the post-install hooks have succeeded, before this hook"), "{}", w[0].1);
}

/// Sibling subcharts in a declared order: the fix is the order between them.
#[test]
fn a_sibling_subchart_applied_later_is_named_in_the_fix() {
    let cm = config_map("web-config", "    helm.sh/resource-group: config\n");
    // Without Chart.yaml (`helm template`), siblings go in name order: "db" before "web".
    let w = warnings(&[
        ("app/charts/db/templates/deployment.yaml", DEPLOYMENT_MOUNTING_CONFIG),
        ("app/charts/web/templates/config.yaml", &cm),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(
        w[0].2,
        "declare that app/db waits for app/web in helm.sh/subchart-depends-on (the top chart's Chart.yaml \
         annotations), or move ConfigMap/web-config into app/db"
    );
}

/// Many workloads in one event, each needing a hook that Helm's serial
/// order puts last: the check stays well under a second.
#[test]
fn many_serial_hooks_are_checked_quickly() {
    let mut docs = Vec::new();
    for i in 0..2000 {
        docs.push((format!("app/templates/job{i}.yaml"), hook_job(&format!("a{i:05}"), 0, "")));
    }
    docs.push(("app/templates/settings.yaml".to_string(), config_map("settings", "    helm.sh/hook: pre-install\n")));
    let docs: Vec<(&str, &str)> = docs.iter().map(|(s, d)| (s.as_str(), d.as_str())).collect();
    let start = std::time::Instant::now();
    let w = warnings(&docs);
    assert_eq!(w.len(), 2000);
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
