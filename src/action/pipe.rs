//! `deploy`'s stdin when the `helm` before the pipe did not give a release:
//! `helm upgrade … -o json | helm hooks deploy -` runs both commands at
//! once, so when Helm fails (its error on its own stderr, above ours) the
//! plugin reads nothing, or text that is not the release. That is said as
//! the pipe's failure, not the input's; and when a release of the
//! namespace is pending — why Helm refuses an upgrade after an interrupted
//! one — the way out is printed, as `deploy` prints it when JSON arrives
//! (`deploy::command::Refused::Pending`; the CLI asks the cluster which are
//! pending). Exit code 2, as for any input that is not a release
//! (docs/commands.md, deploy).
//!
//! The release may come after the CRDs `helm show crds CHART` prints, for a
//! chart whose subcharts have `crds/` folders, which the release does not
//! carry (`{ helm show crds CHART; helm upgrade … -o json; } | helm hooks
//! deploy -`; docs/design.md §4): [`split`] cuts the two apart.

use std::fmt::Write as _;

use crate::deploy::command::way_out;
use crate::release::storage::Pending;

/// What deploy reads, and how to give it.
pub(crate) const USAGE: &str =
    "deploy reads the release Helm renders, as JSON: helm upgrade --install NAME CHART -n NAMESPACE \
                         --dry-run=server --disable-openapi-validation -o json | helm hooks deploy -";

/// Why stdin holds no release.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum PipeError {
    #[error("nothing came through the pipe: the command before it failed (its error is above) or printed nothing")]
    Empty,
    #[error("what came through the pipe is Helm's text output, not the release as JSON: add -o json to the command before it")]
    HelmText,
    #[error(
        "what came through the pipe is not the release as JSON (it begins {begins:?}): the command before it failed \
         (its error is above) or printed something else"
    )]
    NotJson { begins: String },
    #[error(
        "only CRDs came through the pipe, and no release after them: the helm upgrade after helm show crds failed \
         (its error is above) or printed nothing"
    )]
    OnlyCrds,
}

impl PipeError {
    /// `None` when `bytes` is a JSON object: the release, or for the checks to refuse.
    pub(super) fn of(bytes: &[u8]) -> Option<PipeError> {
        let text = String::from_utf8_lossy(bytes);
        if text.trim().is_empty() {
            return Some(PipeError::Empty);
        }
        if matches!(serde_json::from_slice(bytes), Ok(serde_json::Value::Object(_))) {
            return None;
        }
        if crate::model::input::is_helm_text(&text) {
            return Some(PipeError::HelmText);
        }
        if crate::deploy::crd::from_shown(&text).is_ok_and(|c| !c.is_empty()) {
            return Some(PipeError::OnlyCrds);
        }
        let first = text.trim_start().lines().next().unwrap_or_default();
        Some(PipeError::NotJson { begins: first.chars().take(60).collect() })
    }
}

/// A namespace given to `helm hooks deploy -` that is not the one of the
/// release Helm rendered. Helm consumes `-n` itself and passes the namespace
/// it resolved as `HELM_NAMESPACE` (docs/design.md §5): from `-n`, else the
/// kubeconfig context's, else `default`. The release on stdin already names
/// its namespace, where Helm rendered it (its `lookup`s, its objects'
/// `{{ .Release.Namespace }}`): a `-n` after the pipe cannot move it, and
/// deploying it elsewhere than asked would make a second copy of the release
/// (issue 41).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "helm hooks deploy was given namespace {named:?} (by -n after the pipe, or the kubeconfig context's), but \
     Helm rendered release {release:?} for namespace {rendered:?}, which the release on stdin names; nothing was \
     applied or stored.\n-n belongs to the helm before the pipe, which renders the release for that namespace:\n  \
     helm upgrade --install {release} CHART -n {named} --dry-run=server --disable-openapi-validation -o json | \
     helm hooks deploy -\nor, to deploy into {rendered:?} as rendered, leave -n out after the pipe (or give -n \
     {rendered} there too)"
)]
pub(super) struct NamespaceAfterPipe {
    release: String,
    rendered: String,
    named: String,
}

/// Refuses a namespace named after the pipe (`named`: `HELM_NAMESPACE`)
/// that differs from the one the release was rendered for. `default` is
/// what Helm passes when no namespace was named anywhere, so it is accepted
/// silently, as is a release that names none (it goes where `-n` says).
pub(super) fn check_namespace(
    release: &str,
    rendered: Option<&str>,
    named: Option<&str>,
) -> Result<(), NamespaceAfterPipe> {
    let named = named.map(str::trim).filter(|n| !n.is_empty() && *n != "default");
    match (rendered.filter(|r| !r.is_empty()), named) {
        (Some(rendered), Some(named)) if rendered != named => Err(NamespaceAfterPipe {
            release: release.to_string(),
            rendered: rendered.to_string(),
            named: named.to_string(),
        }),
        _ => Ok(()),
    }
}

/// Cuts what `helm show crds` printed (YAML documents) from the release
/// JSON after it: `(Some(crds), release)`, or `(None, bytes)` when stdin
/// begins with the JSON (the release alone, as before) or holds no release.
/// The release begins at the first line that opens a JSON object holding
/// all the rest and with no `kind`: a CRD file written as JSON (Helm reads
/// `.json` in `crds/`) opens one too, but has a kind, and is followed by
/// more documents unless it is the last.
pub(super) fn split(bytes: &[u8]) -> (Option<&[u8]>, &[u8]) {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if first.is_none_or(|i| bytes[i] == b'{') {
        return (None, bytes);
    }
    let starts = std::iter::once(0).chain(bytes.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1));
    for at in starts {
        let rest = &bytes[at..];
        if rest.first() == Some(&b'{') && serde_json::from_slice::<Probe>(rest).is_ok_and(|p| p.kind.is_none()) {
            return (Some(&bytes[..at]), rest);
        }
    }
    (None, bytes)
}

/// What [`split`] reads of a candidate release: the rest is skipped unread.
#[derive(serde::Deserialize)]
struct Probe {
    kind: Option<serde::de::IgnoredAny>,
}

/// The whole message: why, each pending release's way out, then the usage.
pub(super) fn message(e: &PipeError, pending: &[Pending]) -> String {
    let mut m = e.to_string();
    for p in pending {
        let _ = write!(
            m,
            "\nrelease {:?} in namespace {:?} is {} (revision {}), and Helm refuses to change it (\"another \
             operation (install/upgrade/rollback) is in progress\"); if no other helm or helm hooks command is \
             working on it (an interrupted one left it so), recover with: {}",
            p.release,
            p.namespace,
            p.status,
            p.revision,
            way_out(&p.release, &p.namespace, p.status)
        );
    }
    m.push('\n');
    m.push_str(USAGE);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release::release_status::ReleaseStatus;

    /// Empty stdin, or text that is not JSON, is the pipe's failure; a
    /// pending release of the namespace gets its way out (issue 32).
    #[test]
    fn a_failed_helm_before_the_pipe_is_said_so() {
        assert_eq!(PipeError::of(b""), Some(PipeError::Empty));
        assert_eq!(PipeError::of(b"  \n"), Some(PipeError::Empty));
        assert_eq!(PipeError::of(br#"{"name": "r"}"#), None);
        assert_eq!(PipeError::of(b"NAME: r\nLAST DEPLOYED: now\nSTATUS: deployed\n"), Some(PipeError::HelmText));
        assert_eq!(PipeError::of(b"[1]"), Some(PipeError::NotJson { begins: "[1]".into() }));
        let pending = [Pending {
            release: "s2".into(),
            namespace: "demo".into(),
            revision: 1,
            status: ReleaseStatus::PendingInstall,
        }];
        let m = message(&PipeError::Empty, &pending);
        assert!(m.starts_with("nothing came through the pipe: the command before it failed"), "{m}");
        assert!(m.contains("release \"s2\" in namespace \"demo\" is pending-install (revision 1)"), "{m}");
        assert!(m.contains("recover with: helm hooks uninstall s2 -n demo (or helm uninstall s2 -n demo)"), "{m}");
        assert!(m.ends_with(USAGE), "{m}");
        assert!(!m.contains("deploy needs the release"), "{m}");
        let upgrade = Pending { status: ReleaseStatus::PendingUpgrade, ..pending[0].clone() };
        assert!(message(&PipeError::Empty, &[upgrade]).contains("recover with: helm hooks rollback s2 -n demo"));
    }

    /// Issue 41: `-n` after the pipe that names another namespace than the release was
    /// rendered for is refused with where `-n` goes; the same namespace, none (Helm's
    /// `default`) or a release that names none is accepted silently.
    #[test]
    fn a_namespace_after_the_pipe_must_be_the_releases() {
        assert_eq!(check_namespace("m", Some("mine"), Some("mine")), Ok(()));
        assert_eq!(check_namespace("m", Some("mine"), Some("default")), Ok(()));
        assert_eq!(check_namespace("m", Some("mine"), None), Ok(()));
        assert_eq!(check_namespace("m", Some("mine"), Some("")), Ok(()));
        assert_eq!(check_namespace("m", None, Some("other")), Ok(()));
        let e = check_namespace("m", Some("default"), Some("mine")).unwrap_err();
        assert_eq!(e, NamespaceAfterPipe { release: "m".into(), rendered: "default".into(), named: "mine".into() });
        let m = e.to_string();
        assert!(
            m.starts_with(
                "helm hooks deploy was given namespace \"mine\" (by -n after the pipe, or the kubeconfig context's), \
                 but Helm rendered release \"m\" for namespace \"default\""
            ),
            "{m}"
        );
        assert!(m.contains("nothing was applied or stored"), "{m}");
        assert!(
            m.contains("\n  helm upgrade --install m CHART -n mine --dry-run=server --disable-openapi-validation -o json | helm hooks deploy -\n"),
            "{m}"
        );
    }

    /// `{ helm show crds CHART; helm upgrade … -o json; }`: the CRDs, then the release;
    /// a CRD file written as JSON among them is not taken for the release, and a
    /// release alone is read as before.
    #[test]
    fn crds_before_the_release_are_cut_off() {
        let release = br#"{"name": "r", "chart": {}}"#;
        assert_eq!(split(release), (None, &release[..]));
        assert_eq!(split(b"  \n{\"name\": \"r\"}"), (None, &b"  \n{\"name\": \"r\"}"[..]));
        let crds = b"---\nkind: CustomResourceDefinition\nmetadata: {name: a.x.io}\n---\n{\"kind\": \"CustomResourceDefinition\",\n \"metadata\": {\"name\": \"b.x.io\"}}\n";
        let stream = [&crds[..], b"{\"name\": \"r\",\n  \"chart\": {}}\n"].concat();
        let (shown, rest) = split(&stream);
        assert_eq!(shown, Some(&crds[..]));
        assert_eq!(rest, b"{\"name\": \"r\",\n  \"chart\": {}}\n");
        // The helm upgrade after helm show crds failed: CRDs only.
        assert_eq!(split(crds), (None, &crds[..]));
        assert_eq!(PipeError::of(crds), Some(PipeError::OnlyCrds));
        assert!(matches!(
            PipeError::of(b"---\nkind: ConfigMap\nmetadata: {name: a}\n"),
            Some(PipeError::NotJson { .. })
        ));
    }
}
