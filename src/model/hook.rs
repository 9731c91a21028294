//! A hook: a document carrying `helm.sh/hook`, with every annotation that
//! governs when and how it runs parsed once into typed values.

use crate::model::annotation::{self as a, ValueError};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::model::event::{parse_events, Event};
use crate::model::kind_order::{install_rank, KindRank};
use crate::model::manifest::{Document, Head};
use crate::model::reference::ObjectRef;

/// A `helm.sh/hook-delete-policy` value, as Helm's `HookDeletePolicy`. A
/// value Helm does not know is kept as Helm keeps it: it matches nothing,
/// yet it is a policy, so Helm's default (`before-hook-creation`) is not
/// added; `lint` warns about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeletePolicy {
    BeforeHookCreation,
    HookSucceeded,
    HookFailed,
    Unknown(String),
}

impl DeletePolicy {
    const KNOWN: [&'static str; 3] = ["before-hook-creation", "hook-succeeded", "hook-failed"];

    /// One item of the annotation's comma list, as [`a::parse_policy_list`] gives it.
    fn parse(value: String) -> Self {
        match value.as_str() {
            "before-hook-creation" => DeletePolicy::BeforeHookCreation,
            "hook-succeeded" => DeletePolicy::HookSucceeded,
            "hook-failed" => DeletePolicy::HookFailed,
            _ => DeletePolicy::Unknown(value),
        }
    }

    /// As Helm writes it in the release's hooks.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            DeletePolicy::BeforeHookCreation => "before-hook-creation",
            DeletePolicy::HookSucceeded => "hook-succeeded",
            DeletePolicy::HookFailed => "hook-failed",
            DeletePolicy::Unknown(v) => v,
        }
    }
}

impl std::fmt::Display for DeletePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `helm.sh/hook-output-log-policy` value, as Helm's `HookOutputLogPolicy`;
/// unknown values as for [`DeletePolicy`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OutputLogPolicy {
    HookSucceeded,
    HookFailed,
    Unknown(String),
}

impl OutputLogPolicy {
    const KNOWN: [&'static str; 2] = ["hook-succeeded", "hook-failed"];

    fn parse(value: String) -> Self {
        match value.as_str() {
            "hook-succeeded" => OutputLogPolicy::HookSucceeded,
            "hook-failed" => OutputLogPolicy::HookFailed,
            _ => OutputLogPolicy::Unknown(value),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            OutputLogPolicy::HookSucceeded => "hook-succeeded",
            OutputLogPolicy::HookFailed => "hook-failed",
            OutputLogPolicy::Unknown(v) => v,
        }
    }
}

impl std::fmt::Display for OutputLogPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct Hook {
    pub head: Head,
    pub(crate) source: String,
    pub(crate) document: usize,
    /// Index in the release's stored `hooks` list (release JSON input), so
    /// that `run` writes `last_run` back to the right entry.
    pub(crate) position: Option<usize>,
    pub manifest: String,
    pub events: Vec<Event>,
    pub(crate) weight: i64,
    /// With Helm's default filled in: no annotation means `before-hook-creation`.
    pub delete_policies: Vec<DeletePolicy>,
    pub(crate) output_log_policies: Vec<OutputLogPolicy>,
    /// `helm.sh/hook-parallel`; `None` when absent (serial unless `--parallel-all`).
    pub parallel: Option<bool>,
    pub depends_on: Vec<ObjectRef>,
    pub(crate) fail_fast: bool,
    pub(crate) show_output: bool,
    /// `helm.sh/hook-timeout`: its own wait, at most `--timeout`
    /// ([`Hook::wait_ms`]).
    pub(crate) timeout_ms: Option<crate::base::time::Millis>,
    /// How long its last run took (`last_run` of a stored release), for
    /// `plan`'s estimate.
    pub(crate) last_run_ms: Option<u64>,
}

impl Hook {
    /// Builds a hook from a document whose head has `helm.sh/hook`. Returns
    /// `None` when Helm would drop the document (an unknown event).
    pub(super) fn from_document(doc: Document, head: Head, diags: &mut Diagnostics) -> Option<Hook> {
        let loc = Location { object: Some(head.display()), ..doc.location() };
        let ann = &head.annotations;
        check_keys(ann, &loc, diags);
        let events = match parse_events(a::get(ann, a::HOOK).map_or("", String::as_str)) {
            Ok(events) => events,
            Err(e) => {
                diags.push(
                    Diagnostic::warning(loc, format!("{e}: Helm skips this whole document"))
                        .on(a::HOOK)
                        .help("use pre-install, post-install, pre-delete, post-delete, pre-upgrade, post-upgrade, pre-rollback, post-rollback or test"),
                );
                return None;
            }
        };
        let events = distinct_events(events, &loc, diags);
        if a::has(ann, crate::model::external::DEPENDS_ON_EXTERNAL) {
            diags.push(
                Diagnostic::error(loc.clone(), "applies to resources only; hooks cannot wait for external objects yet")
                    .on(crate::model::external::DEPENDS_ON_EXTERNAL)
                    .help("move the wait into the hook itself (an init container), or onto a resource"),
            );
        }
        let weight = match a::get(ann, a::HOOK_WEIGHT) {
            None => 0,
            Some(v) => a::parse_weight(v).unwrap_or_else(|| {
                diags.push(
                    Diagnostic::warning(loc.clone(), format!("{v:?} is not an integer; Helm counts it as 0"))
                        .on(a::HOOK_WEIGHT)
                        .help("write a whole number such as \"-5\" or \"10\""),
                );
                0
            }),
        };
        let (delete_policies, output_log_policies) = policies(ann, &loc, diags);
        let mut strict_bool = |key: &str| -> Option<bool> {
            let value = a::get(ann, key)?;
            a::parse_bool(value).map_err(|e| diags.push(value_error(&loc, key, e))).ok()
        };
        let parallel = strict_bool(a::HOOK_PARALLEL);
        let fail_fast = strict_bool(a::HOOK_FAIL_FAST).unwrap_or(false);
        let show_output = strict_bool(a::SHOW_OUTPUT).unwrap_or(false);
        let depends_on = depends_on(ann, &loc, diags);
        let timeout_ms = ann
            .get(a::HOOK_TIMEOUT)
            .and_then(|v| a::parse_hook_timeout(v).map_err(|e| diags.push(value_error(&loc, a::HOOK_TIMEOUT, e))).ok());
        warn_ineffective(&head, fail_fast, show_output, timeout_ms.is_some(), &loc, diags);
        Some(Hook {
            source: doc.source,
            document: doc.index,
            position: None,
            manifest: doc.text,
            head,
            events,
            weight,
            delete_policies,
            output_log_policies,
            parallel,
            depends_on,
            fail_fast,
            show_output,
            timeout_ms,
            last_run_ms: None,
        })
    }

    pub(crate) fn location(&self) -> Location {
        Location { source: self.source.clone(), document: self.document, object: Some(self.head.display()) }
    }

    /// The reference the plan prints: `Kind/name`, or `Kind/namespace/name`
    /// when the manifest sets a namespace.
    pub(crate) fn reference(&self) -> ObjectRef {
        self.head.reference()
    }

    /// Helm's execution order: weight, then name (bytewise), then kind in
    /// install order, then the order of documents in the chart.
    pub(crate) fn helm_order_key(&self) -> (i64, &str, KindRank, &str, usize) {
        (self.weight, &self.head.name, install_rank(&self.head.kind), &self.source, self.document)
    }

    /// How long a run waits for this hook: `helm.sh/hook-timeout` or
    /// `--timeout`, the shorter. `--timeout` is Helm's bound on every single
    /// wait (`helm install --help`: "time to wait for any individual Kubernetes
    /// operation (like Jobs for hooks)"), so a chart may shorten a hook's wait
    /// but never hold a user's command longer than they allowed.
    pub(crate) fn wait_ms(&self, timeout_ms: crate::base::time::Millis) -> crate::base::time::Millis {
        self.timeout_ms.map_or(timeout_ms, |own| own.min(timeout_ms))
    }

    pub(crate) fn has_delete_policy(&self, policy: &DeletePolicy) -> bool {
        self.delete_policies.contains(policy)
    }

    pub(crate) fn has_output_log_policy(&self, policy: &OutputLogPolicy) -> bool {
        matches!(self.head.kind.as_str(), "Job" | "Pod") && self.output_log_policies.contains(policy)
    }
}

/// `helm.sh/hook-delete-policy` (Helm's default when there is none) and
/// `helm.sh/hook-output-log-policy`, with a warning for each value Helm
/// does not know.
fn policies(
    ann: &std::collections::BTreeMap<String, String>,
    loc: &Location,
    diags: &mut Diagnostics,
) -> (Vec<DeletePolicy>, Vec<OutputLogPolicy>) {
    let mut delete_policies: Vec<DeletePolicy> = a::get(ann, a::HOOK_DELETE_POLICY)
        .map(|v| a::parse_policy_list(v).into_iter().map(DeletePolicy::parse).collect())
        .unwrap_or_default();
    let unknown = delete_policies.iter().filter_map(|p| match p {
        DeletePolicy::Unknown(v) => Some(v.as_str()),
        _ => None,
    });
    warn_unknown(unknown, &DeletePolicy::KNOWN, a::HOOK_DELETE_POLICY, loc, diags);
    if delete_policies.is_empty() {
        delete_policies.push(DeletePolicy::BeforeHookCreation);
    }
    let output_log_policies: Vec<OutputLogPolicy> = a::get(ann, a::HOOK_OUTPUT_LOG_POLICY)
        .map(|v| a::parse_policy_list(v).into_iter().map(OutputLogPolicy::parse).collect())
        .unwrap_or_default();
    let unknown = output_log_policies.iter().filter_map(|p| match p {
        OutputLogPolicy::Unknown(v) => Some(v.as_str()),
        _ => None,
    });
    warn_unknown(unknown, &OutputLogPolicy::KNOWN, a::HOOK_OUTPUT_LOG_POLICY, loc, diags);
    (delete_policies, output_log_policies)
}

/// Warnings for what a hook carries that does nothing on it: HIP-0025's
/// resource keys, and fail-fast, show-output or a timeout on a kind that
/// neither fails, has output nor is waited for.
fn warn_ineffective(
    head: &Head,
    fail_fast: bool,
    show_output: bool,
    timeout: bool,
    loc: &Location,
    diags: &mut Diagnostics,
) {
    for key in [
        a::RESOURCE_GROUP,
        a::DEPENDS_ON_RESOURCE_GROUPS,
        a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS,
        a::READINESS_SUCCESS,
        a::READINESS_FAILURE,
    ] {
        if a::has(&head.annotations, key) {
            diags.push(
                Diagnostic::warning(loc.clone(), "is ignored on hooks: HIP-0025 sequencing applies to resources only")
                    .on(key)
                    .help("order hooks with helm.sh/hook-weight or helm.sh/depends-on"),
            );
        }
    }
    if (fail_fast || show_output) && !crate::ready::hook_awaited(&head.kind) {
        diags.push(
            Diagnostic::warning(
                loc.clone(),
                format!("has no effect on a {}: only Jobs and Pods fail or have output", head.kind),
            )
            .on(if fail_fast { a::HOOK_FAIL_FAST } else { a::SHOW_OUTPUT }),
        );
    }
    if timeout && !crate::ready::hook_awaited(&head.kind) {
        diags.push(
            Diagnostic::warning(
                loc.clone(),
                format!("has no effect on a {}: only Jobs and Pods are waited for", head.kind),
            )
            .on(a::HOOK_TIMEOUT),
        );
    }
}

/// A warning for each hook whose `helm.sh/hook-timeout` is longer than
/// `--timeout` (`whence` says which: the one given, or Helm's default in
/// `lint`): `--timeout` wins ([`Hook::wait_ms`]).
pub(crate) fn timeouts_over<'h>(
    hooks: impl IntoIterator<Item = &'h Hook>,
    timeout_ms: crate::base::time::Millis,
    whence: &str,
) -> Diagnostics {
    use crate::base::time::format_duration;
    let mut diags = Diagnostics::default();
    for h in hooks {
        let Some(own) = h.timeout_ms.filter(|&own| own > timeout_ms) else { continue };
        diags.push(
            Diagnostic::warning(
                h.location(),
                format!(
                    "{} is longer than {whence} {}, which wins: the hook is waited for {} at most",
                    format_duration(own),
                    format_duration(timeout_ms),
                    format_duration(timeout_ms)
                ),
            )
            .on(a::HOOK_TIMEOUT)
            .help(format!(
                "run with --timeout {} or more, or shorten {}",
                format_duration(own),
                a::HOOK_TIMEOUT
            )),
        );
    }
    diags
}

/// `helm.sh/depends-on`, parsed. A namespace on a cluster-scoped kind
/// (`ClusterRole/ns/x`) names nothing more than `ClusterRole/x`: it is
/// dropped, with a warning, so the reference matches as the plan names it.
pub(super) fn depends_on(
    ann: &std::collections::BTreeMap<String, String>,
    loc: &Location,
    diags: &mut Diagnostics,
) -> Vec<ObjectRef> {
    let refs = match a::get(ann, a::DEPENDS_ON).map(|v| a::parse_depends_on(v)) {
        None => return Vec::new(),
        Some(Ok(refs)) => refs,
        Some(Err(e)) => {
            diags.push(value_error(loc, a::DEPENDS_ON, e));
            return Vec::new();
        }
    };
    refs.into_iter()
        .map(|mut r| {
            if crate::model::scope::cluster_scoped(&r.kind) && r.namespace.is_some() {
                let plain = ObjectRef::new(&r.kind, None, &r.name);
                diags.push(
                    Diagnostic::warning(
                        loc.clone(),
                        format!("{r}: a {} is cluster-scoped, so the namespace is ignored", r.kind),
                    )
                    .on(a::DEPENDS_ON)
                    .help(format!("write {plain}")),
                );
                r = plain;
            }
            r
        })
        .collect()
}

/// A warning for each annotation key that does not do what its author
/// meant: a `helm.sh/` key a typo away from a known one ([`a::misspelled`]),
/// which Helm and helm-hooks pass over in silence; and a key the API server
/// refuses ([`a::key_problem`]), which makes stock `helm install` and
/// `kubectl apply` fail on the object (docs/annotations.md, "Portable
/// charts").
/// A known key other than the HIP-0025 one ([`check_keys`] warns about
/// that one): `a::KNOWN.contains(key)` by a `match`, which compares lengths
/// first and loops over nothing (a search of the list was a loop iteration
/// per key passed, each a call into Go under Helm's Wasm runtime).
fn settled(key: &str) -> bool {
    matches!(
        key,
        a::HOOK
            | a::HOOK_WEIGHT
            | a::HOOK_DELETE_POLICY
            | a::HOOK_OUTPUT_LOG_POLICY
            | a::RESOURCE_POLICY
            | a::HOOK_PARALLEL
            | a::DEPENDS_ON
            | a::HOOK_FAIL_FAST
            | a::SHOW_OUTPUT
            | a::HOOK_TIMEOUT
            | a::DEPENDS_ON_EXTERNAL
            | a::RESOURCE_GROUP
            | a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS
            | a::READINESS_SUCCESS
            | a::READINESS_FAILURE
            | a::DEPENDS_ON_SUBCHARTS
            | a::SUBCHART_DEPENDS_ON
    )
}

pub(super) fn check_keys(ann: &std::collections::BTreeMap<String, String>, loc: &Location, diags: &mut Diagnostics) {
    for key in ann.keys() {
        // Most keys of a chart that uses the annotations are the known ones:
        // one comparison each settles them.
        if settled(key) {
            continue;
        }
        if let Some(known) = a::misspelled(key) {
            diags.push(
                Diagnostic::warning(
                    loc.clone(),
                    format!("is no annotation Helm or helm-hooks reads, so it is ignored; did you mean {known}?"),
                )
                .on(key)
                .help(format!("rename it to {known}")),
            );
        }
        let Some(problem) = a::key_problem(key) else { continue };
        diags.push(if key == a::DEPENDS_ON_RESOURCE_GROUPS {
            Diagnostic::warning(
                loc.clone(),
                format!(
                    "is not a valid Kubernetes annotation key ({problem}): stock `helm install` and \
                     `helm template | kubectl apply` fail on this object; only helm hooks deploy (and a future \
                     Helm with HIP-0025) remove it before applying"
                ),
            )
            .on(key)
            .help(format!(
                "rename it to {}: the same value, read the same way by helm hooks, and a key every Helm accepts",
                a::PORTABLE_DEPENDS_ON_RESOURCE_GROUPS
            ))
        } else {
            Diagnostic::warning(
                loc.clone(),
                format!(
                    "is not a valid Kubernetes annotation key ({problem}): the API server refuses this object, \
                     from stock Helm and helm hooks alike"
                ),
            )
            .on(key)
            .help(
                "write an optional DNS subdomain and '/', then at most 63 letters, digits, '-', '_' or '.', \
                 starting and ending with a letter or digit",
            )
        });
    }
}

fn value_error(loc: &Location, key: &str, e: ValueError) -> Diagnostic {
    let help = e.help();
    Diagnostic::error(loc.clone(), e.to_string()).on(key).help(help)
}

fn warn_unknown<'v>(
    unknown: impl Iterator<Item = &'v str>,
    known: &[&str],
    key: &str,
    loc: &Location,
    diags: &mut Diagnostics,
) {
    for v in unknown {
        diags.push(
            Diagnostic::warning(loc.clone(), format!("unknown policy {v:?}; Helm ignores it"))
                .on(key)
                .help(format!("use {}", known.join(", "))),
        );
    }
}

/// Each event once. Helm keeps a repeated one (`test,test-success`,
/// `pre-install, PRE-INSTALL`) and, since it runs every hook once for each
/// entry of its events that matches (`pkg/action/hooks.go`, Helm v4.3.2),
/// runs such a hook twice in a row, the second run replacing the first
/// (`before-hook-creation`). Twice is never the intent; the hook runs once
/// here, and lint says where Helm differs.
fn distinct_events(events: Vec<Event>, loc: &Location, diags: &mut Diagnostics) -> Vec<Event> {
    let mut distinct: Vec<Event> = Vec::with_capacity(events.len());
    let mut repeated: Vec<Event> = Vec::new();
    for e in events {
        if !distinct.contains(&e) {
            distinct.push(e);
        } else if !repeated.contains(&e) {
            repeated.push(e);
        }
    }
    for e in repeated {
        let alias = if e == Event::Test { " (test-success is Helm's old name of test)" } else { "" };
        diags.push(
            Diagnostic::warning(
                loc.clone(),
                format!("names {e} more than once{alias}; Helm runs this hook once per mention, helm-hooks once"),
            )
            .on(a::HOOK)
            .help(format!("name {e} once")),
        );
    }
    distinct
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settled_keys_are_the_known_ones_but_hip_0025s() {
        for k in a::KNOWN {
            assert_eq!(settled(k), *k != a::DEPENDS_ON_RESOURCE_GROUPS, "{k}");
        }
        assert!(!settled("helm.sh/hooks") && !settled("helm.sh/hoo") && !settled(""));
    }
    use crate::model::manifest::{parse_head, split};

    /// A repeated event is one event with a warning, not a hook defined
    /// twice (issue 33).
    #[test]
    fn a_repeated_event_counts_once() {
        for (value, events, event) in [
            ("test,test-success", vec![Event::Test], "test"),
            ("pre-install, PRE-INSTALL,post-install", vec![Event::PreInstall, Event::PostInstall], "pre-install"),
        ] {
            let text = format!("kind: Job\nmetadata:\n  name: j\n  annotations:\n    helm.sh/hook: {value}\n");
            let doc = &split(&text, "s")[0];
            let mut d = Diagnostics::default();
            let hook = Hook::from_document(doc.clone(), parse_head(doc).unwrap(), &mut d).unwrap();
            assert_eq!(hook.events, events);
            assert_eq!(d.0.len(), 1, "{:?}", d.0);
            assert!(!d.0[0].is_error(), "{}", d.0[0]);
            assert!(d.0[0].message.starts_with(&format!("names {event} more than once")), "{}", d.0[0]);
        }
    }

    /// Issue 32: `helm.sh/hook-paralel` left the hook serial without a word.
    #[test]
    fn a_misspelt_key_is_named_with_the_key_meant() {
        let (hook, d) = job("    helm.sh/hook-paralel: \"true\"\n    helm.sh/owner: team-a\n");
        assert_eq!(hook.unwrap().parallel, None);
        assert_eq!(d.0.len(), 1, "{:?}", d.0);
        assert!(!d.0[0].is_error(), "{}", d.0[0]);
        assert_eq!(d.0[0].annotation.as_deref(), Some("helm.sh/hook-paralel"));
        assert!(d.0[0].message.ends_with("did you mean helm.sh/hook-parallel?"), "{}", d.0[0]);
    }

    fn job(annotations: &str) -> (Option<Hook>, Diagnostics) {
        let text = format!("kind: Job\nmetadata:\n  name: j\n  annotations:\n    helm.sh/hook: test\n{annotations}");
        let doc = &split(&text, "s")[0];
        let mut d = Diagnostics::default();
        (Hook::from_document(doc.clone(), parse_head(doc).unwrap(), &mut d), d)
    }

    /// Issue 31: a hook's own timeout, never longer than `--timeout`.
    #[test]
    fn a_hook_timeout_shortens_the_wait_and_never_lengthens_it() {
        let (hook, d) = job("    helm.sh/hook-timeout: 3s\n");
        let hook = hook.unwrap();
        assert!(d.0.is_empty(), "{:?}", d.0);
        assert_eq!(hook.timeout_ms, Some(3_000));
        assert_eq!(hook.wait_ms(300_000), 3_000);
        assert_eq!(hook.wait_ms(1_000), 1_000);
        let over = timeouts_over([&hook], 2_000, "--timeout");
        assert_eq!(over.0.len(), 1);
        assert_eq!(over.0[0].message, "3s is longer than --timeout 2s, which wins: the hook is waited for 2s at most");
        assert!(timeouts_over([&hook], 3_000, "--timeout").0.is_empty());
        let (plain, _) = job("");
        assert_eq!(plain.unwrap().wait_ms(300_000), 300_000);
    }

    #[test]
    fn a_hook_timeout_that_is_no_duration_is_an_error() {
        for bad in ["0", "5", "-1s", "soon"] {
            let (_, d) = job(&format!("    helm.sh/hook-timeout: \"{bad}\"\n"));
            assert_eq!(d.0.len(), 1, "{bad}: {:?}", d.0);
            assert!(d.0[0].is_error(), "{}", d.0[0]);
            assert_eq!(d.0[0].annotation.as_deref(), Some("helm.sh/hook-timeout"));
        }
    }

    #[test]
    fn a_namespace_on_a_cluster_scoped_dependency_is_dropped_with_a_warning() {
        let (hook, d) = job("    helm.sh/depends-on: ClusterRole/ns/x, Role/ns/y\n");
        let refs: Vec<String> = hook.unwrap().depends_on.iter().map(ToString::to_string).collect();
        assert_eq!(refs, ["ClusterRole/x", "Role/ns/y"]);
        assert_eq!(d.0.len(), 1, "{:?}", d.0);
        assert!(!d.0[0].is_error() && d.0[0].message.contains("cluster-scoped"), "{}", d.0[0]);
    }
}
