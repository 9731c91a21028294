//! The test bed: its environment and tools, a test's own namespace, and a Space (a
//! namespace and a Helm home with the plugin installed) to run the plugin in.

use super::{
    helm_bin, helm_reads_the_records, history_rows, keep, nanos, ok, required, run, stock_helm_reads_the_records, tool,
    HelmHome, Out,
};
use std::env;
use std::fmt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub struct Bed {
    pub helm: PathBuf,
    pub kubectl: PathBuf,
    pub kubeconfig: String,
    /// HELM_KUBEAPISERVER: https://127.0.0.1:PORT
    pub server: String,
    /// HELM_KUBETOKEN: cluster-admin.
    pub token: String,
    /// SSL_CERT_FILE: the bed's CA and the system roots.
    pub cacert: String,
}

pub fn bed() -> &'static Bed {
    static BED: OnceLock<Bed> = OnceLock::new();
    BED.get_or_init(|| Bed {
        helm: helm_bin(),
        kubectl: tool("kubectl"),
        kubeconfig: required("KUBECONFIG"),
        server: required("HELM_KUBEAPISERVER"),
        token: required("HELM_KUBETOKEN"),
        cacert: required("SSL_CERT_FILE"),
    })
}

impl Bed {
    /// curl to the API server as the plugin reaches it: a bearer `token` and the bed's CA.
    /// (A user agent other than curl's: the API server pretty-prints JSON for curl.)
    pub fn curl(&self, token: &str) -> Command {
        let mut c = Command::new("curl");
        c.args(["-A", "helm-hooks-e2e", "--cacert", &self.cacert])
            .args(["-H", &format!("Authorization: Bearer {token}")]);
        c
    }

    /// kubectl with the bed's admin kubeconfig and a bounded request time.
    pub fn kubectl(&self) -> Command {
        let mut c = Command::new(&self.kubectl);
        c.env("KUBECONFIG", &self.kubeconfig).arg("--request-timeout=30s");
        c
    }
}

/// Whether the plugin under test is the host-functions build (its plugin.yaml names
/// Helm's `kube_request`; docs/hip-host-functions.md), run by a Helm with
/// testbed/helm-patches. Then Helm reaches the cluster from the kubeconfig alone and
/// passes the plugin's exit code through.
pub fn host_functions() -> bool {
    static HOST: OnceLock<bool> = OnceLock::new();
    *HOST.get_or_init(|| {
        env::var_os("HOOKS_PLUGIN_DIR")
            .and_then(|d| std::fs::read_to_string(PathBuf::from(d).join("plugin.yaml")).ok())
            .is_some_and(|y| y.contains("kube_request"))
    })
}

/// The flags that name the cluster to `helm hooks`: the bed's API server and token for
/// the stock build (its sandbox cannot read a kubeconfig). For the host-functions build
/// only kubeconfigs: for the bed's own server and token, `--kube-context` of the bed's
/// client-certificate kubeconfig (no token, no proxy); for another server or token (a
/// forwarder, a read-only ServiceAccount), a kubeconfig of its own with that server, the
/// bed's CA and the token — a `--kube-token` beside the bed's kubeconfig would be
/// shadowed by its admin client certificate, which the API server checks first.
pub fn kube_args(server: &str, token: &str) -> Vec<String> {
    let b = bed();
    if !host_functions() {
        return vec!["--kube-apiserver".into(), server.into(), "--kube-token".into(), token.into()];
    }
    let config = std::fs::read_to_string(&b.kubeconfig).expect("the bed's kubeconfig");
    let field = |name: &str| {
        config
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(name))
            .map(|c| c.trim().trim_matches('"').to_string())
            .unwrap_or_else(|| panic!("the bed's kubeconfig has no {name}"))
    };
    let context = field("current-context:");
    if server == b.server && token == b.token {
        return vec!["--kube-context".into(), context];
    }
    let ca = field("certificate-authority:");
    let yaml = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: \"{server}\", certificate-authority: \"{ca}\"}}\n\
         users:\n- name: u\n  user: {{token: \"{token}\"}}\ncontexts:\n- name: {context}\n  context: {{cluster: c, user: u}}\n\
         current-context: {context}\n"
    );
    // Named by what it says, beside the bed's own: one file per server and token however
    // many tests ask, gone with the bed (its folder is the bed's), none left in /tmp.
    let digest = yaml.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    let path = std::path::Path::new(&b.kubeconfig).with_file_name(format!("e2e-{digest:016x}.kubeconfig"));
    if !path.exists() {
        // Tests run at once: each writes its own copy and renames it into place whole.
        let tmp = path.with_extension(format!("{}.{}", std::process::id(), nanos()));
        std::fs::write(&tmp, yaml).expect("writing a kubeconfig");
        std::fs::rename(&tmp, &path).expect("placing a kubeconfig");
    }
    vec!["--kubeconfig".into(), path.to_string_lossy().into_owned(), "--kube-context".into(), context]
}

/// Whether `text` names a missing permission: as the plugin's own check does (`named`,
/// "cannot list secrets"), or, for the release records that the host-functions build
/// reads and writes through Helm's storage driver, in the API server's words as Helm
/// passes them on ("cannot list resource \"secrets\"").
pub fn names_denied(text: &str, named: &str, verb: &str, resource: &str) -> bool {
    text.contains(named)
        || (host_functions()
            && matches!(resource, "secrets" | "configmaps")
            && text.contains(&format!("cannot {verb} resource \"{resource}\"")))
}

// ---------------------------------------------------------------------------------------
// A test's own namespace.

/// A namespace name no other test of any suite uses: `{prefix}-{label}-N-…`.
pub fn fresh_namespace(prefix: &str, label: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    // The process id too: scripts/e2e.sh runs two suites at once, often the same tests. Five
    // digits, as before it: release names made from the namespace end up in label values
    // (at most 63 bytes; the aggregated ClusterRoles' are 61).
    let n = N.fetch_add(1, Ordering::SeqCst);
    format!("{prefix}-{label}-{n}-{:02}{:03}", std::process::id() % 100, nanos() % 1_000)
}

/// A namespace of one test, made by kubectl with its default ServiceAccount (which pods
/// need), deleted in the background when the test ends (unless E2E_KEEP).
pub struct Namespace(String);

impl Namespace {
    pub fn new(prefix: &str, label: &str) -> Namespace {
        let ns = Namespace(fresh_namespace(prefix, label));
        let mut c = bed().kubectl();
        c.args(["create", "namespace", &ns]);
        ok(c);
        let start = Instant::now();
        while run(kubectl_in(&ns, &["get", "serviceaccount", "default"]), None).code != 0 {
            assert!(start.elapsed() < Duration::from_secs(30), "no default ServiceAccount in {ns}");
            std::thread::sleep(Duration::from_millis(100));
        }
        ns
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Namespace {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// In JSON (an object's `metadata.namespace`), its name.
impl serde::Serialize for Namespace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl Drop for Namespace {
    fn drop(&mut self) {
        // The records of every command the test ran, those it built by hand too. Not
        // while a test is failing already: a second panic would abort the binary.
        if !std::thread::panicking() {
            stock_helm_reads_the_records(&self.0);
        }
        if !keep() {
            let mut c = bed().kubectl();
            c.args(["delete", "namespace", &self.0, "--wait=false", "--ignore-not-found"]);
            let _ = c.output();
        }
    }
}

/// `kubectl -n NS ARGS` with the bed's admin kubeconfig.
pub fn kubectl_in(ns: &str, args: &[&str]) -> Command {
    let mut c = bed().kubectl();
    c.args(["-n", ns]).args(args);
    c
}

// ---------------------------------------------------------------------------------------
// A test's own namespace and Helm home, with the plugin installed.

pub struct Space {
    pub ns: Namespace,
    pub home: HelmHome,
}

/// A space is its Helm home with a namespace: `space.tmp` is the home's folder.
impl std::ops::Deref for Space {
    type Target = HelmHome;
    fn deref(&self) -> &HelmHome {
        &self.home
    }
}

impl Space {
    /// A fresh namespace `{prefix}-{label}-N-…` and a Helm home with the plugin installed
    /// by `helm plugin install`.
    pub fn new(prefix: &str, label: &str) -> Space {
        let home = HelmHome::with_plugin(label);
        Space { ns: Namespace::new(prefix, label), home }
    }

    /// Helm with this space's home and the bed's admin kubeconfig (the plugin gets the
    /// API server and token by flags).
    pub fn helm_cmd(&self) -> Command {
        let b = bed();
        let mut c = self.home.command();
        c.env("KUBECONFIG", &b.kubeconfig).env("SSL_CERT_FILE", &b.cacert);
        c
    }

    /// Stock `helm ARGS -n NS`.
    pub fn helm(&self, args: &[&str]) -> Out {
        let mut c = self.helm_cmd();
        c.args(args).args(["-n", &self.ns]);
        run(c, None)
    }

    /// `helm history RELEASE -o json`: (revision, status, description).
    pub fn helm_history(&self, release: &str) -> Vec<(u64, String, String)> {
        history_rows(&self.helm(&["history", release, "-o", "json"]))
    }

    /// `helm KUBE_ARGS hooks ARGS -n NS` (any command) with the bed's server and token.
    pub fn plugin_cmd(&self, args: &[&str]) -> Command {
        let b = bed();
        let mut c = self.helm_cmd();
        c.args(kube_args(&b.server, &b.token)).arg("hooks").args(args).args(["-n", &self.ns]);
        c
    }

    /// [`Space::plugin_cmd`] run with `stdin`.
    /// After a command that writes records (deploy, rollback, uninstall, run), checks
    /// that stock Helm reads every record in the namespace ([`helm_reads_the_records`]).
    pub fn plugin(&self, args: &[&str], stdin: Option<&str>) -> Out {
        let out = run(self.plugin_cmd(args), stdin);
        let writes = matches!(args.first(), Some(&("deploy" | "rollback" | "uninstall" | "run")));
        if writes && !args.contains(&"--dry-run") {
            helm_reads_the_records(&self.ns);
        }
        out
    }

    /// kubectl with the bed's admin kubeconfig, in no namespace.
    pub fn kubectl_cmd(&self) -> Command {
        bed().kubectl()
    }

    /// `kubectl -n NS ARGS`.
    pub fn kubectl(&self, args: &[&str]) -> Command {
        kubectl_in(&self.ns, args)
    }

    /// A bearer token of a new ServiceAccount that may read Secrets in this
    /// namespace (Helm's storage) and do nothing else.
    pub fn read_only_token(&self) -> String {
        let rbac = format!(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: reader, namespace: {ns}}}\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: read-secrets, namespace: {ns}}}\n\
             rules:\n- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get, list, watch]\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: reader, namespace: {ns}}}\n\
             roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: read-secrets}}\n\
             subjects:\n- {{kind: ServiceAccount, name: reader, namespace: {ns}}}\n",
            ns = self.ns
        );
        let out = run(self.kubectl(&["apply", "-f", "-"]), Some(&rbac));
        assert_eq!(out.code, 0, "{}", out.shown);
        ok(self.kubectl(&["create", "token", "reader", "--duration=10m"])).trim().to_string()
    }

    /// A bearer token of a new ServiceAccount `name` bound to a new Role `name` in this
    /// namespace with these `rules` (YAML list items, indented by two spaces).
    pub fn token_with_rules(&self, name: &str, rules: &str) -> String {
        let rbac = format!(
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: {name}, namespace: {ns}}}\n---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {{name: {name}, namespace: {ns}}}\n\
             rules:\n{rules}---\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: {name}, namespace: {ns}}}\n\
             roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: {name}}}\n\
             subjects:\n- {{kind: ServiceAccount, name: {name}, namespace: {ns}}}\n",
            ns = self.ns
        );
        let out = run(self.kubectl(&["apply", "-f", "-"]), Some(&rbac));
        assert_eq!(out.code, 0, "{}", out.shown);
        ok(self.kubectl(&["create", "token", name, "--duration=10m"])).trim().to_string()
    }
}

// ---------------------------------------------------------------------------------------
// Least privilege.

/// A Role's `rules:` in YAML from (apiGroup, resource, verbs), without the one
/// (resource, verb) `without` names: the least-privilege tests' Roles.
pub fn role_rules(role: &[(&str, &str, &[&str])], without: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    for (group, resource, verbs) in role {
        let verbs: Vec<&str> = verbs.iter().copied().filter(|v| without != Some((resource, v))).collect();
        if !verbs.is_empty() {
            out.push_str(&format!(
                "- apiGroups: [\"{group}\"]\n  resources: [\"{resource}\"]\n  verbs: [{}]\n",
                verbs.join(", ")
            ));
        }
    }
    out
}

/// With each verb of `role` less in turn (a ServiceAccount token per Role), `act` is
/// refused before acting: exit 3 naming the verb and the resource; then `nothing_done`
/// checks (verb, resource) that nothing was done.
pub fn each_verb_less_is_exit_3(
    case: &Space,
    role: &[(&str, &str, &[&str])],
    act: &dyn Fn(&str) -> Out,
    nothing_done: &mut dyn FnMut(&str, &str),
) {
    let mut n = 0;
    for (group, resource, verbs) in role {
        for verb in *verbs {
            n += 1;
            let token = case.token_with_rules(&format!("less-{n}"), &role_rules(role, Some((resource, verb))));
            let out = act(&token);
            assert_eq!(out.plugin_code(), Some(3), "without {verb} {resource}: {}", out.shown);
            let named = if group.is_empty() {
                format!("cannot {verb} {resource}")
            } else {
                format!("cannot {verb} {resource}.{group}")
            };
            assert!(
                names_denied(&out.all(), &named, verb, resource),
                "without {verb} {resource}, {named:?} expected: {}",
                out.shown
            );
            nothing_done(verb, resource);
        }
    }
}
