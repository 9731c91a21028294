//! Asking the API server, before acting, for every permission a command
//! will need (docs/design.md §4): the rules of each namespace involved (a
//! SelfSubjectRulesReview), then a SelfSubjectAccessReview for each
//! (verb, resource, namespace) they do not grant, in a stable order, and the
//! first one refused named as the error. A command that checks first stops with nothing done
//! instead of half way.

use std::collections::BTreeSet;

use serde_json::Value;

use super::client::Client;
use super::error::Doing;
use super::error::KubeError;
use super::request::Call;

/// The permissions a command needs: (verb, group, resource, namespace).
#[derive(Debug, Default)]
pub(crate) struct Permissions(BTreeSet<(&'static str, String, String, Option<String>)>);

impl Permissions {
    pub(crate) fn add(&mut self, verbs: &[&'static str], group: &str, resource: &str, namespace: Option<&str>) {
        for verb in verbs {
            self.0.insert((verb, group.to_string(), resource.to_string(), namespace.map(str::to_string)));
        }
    }

    /// `verbs` on the resource serving `kind`, in the namespace an object of
    /// it named with `namespace` lands in. A kind the cluster does not serve
    /// yet (its CRD comes with the same release) cannot be asked about and
    /// is left out.
    pub(crate) fn kind(
        &mut self,
        client: &mut Client,
        verbs: &[&'static str],
        api_version: &str,
        kind: &str,
        namespace: Option<&str>,
    ) -> Result<(), KubeError> {
        let res = match client.resource(api_version, kind) {
            Ok(r) => r,
            Err(KubeError::NoMapping { .. }) => return Ok(()),
            Err(e) => return Err(e),
        };
        let ns = client.effective_namespace(&res, namespace);
        self.add(verbs, res.group(), &res.plural, ns.as_deref());
        Ok(())
    }

    /// Asks for each; the first refused is `Forbidden`, naming the verb, the
    /// resource and `why` (which says that nothing was done).
    ///
    /// One SelfSubjectRulesReview per namespace (and one for cluster-scoped
    /// resources) answers most of them at once: a permission one of its
    /// rules grants is granted. Each other permission is asked for alone
    /// (a SelfSubjectAccessReview, authoritative), as is every permission of
    /// a review the API server calls incomplete (an authorizer that cannot
    /// list rules, a webhook, may deny what RBAC allows). A release of ten
    /// kinds needs about fifty permissions: fifty requests before, two now.
    pub(crate) fn check(self, client: &mut Client, why: &str) -> Result<(), KubeError> {
        for (verb, group, resource, ns) in self.0 {
            let known = client.rules(ns.as_deref().unwrap_or(CLUSTER_SCOPE))?;
            if known.as_ref().is_some_and(|r| r.iter().any(|rule| grants(rule, verb, &group, &resource))) {
                continue;
            }
            if !client.may(verb, &group, &resource, ns.as_deref())? {
                let resource = if group.is_empty() { resource } else { format!("{resource}.{group}") };
                return Err(KubeError::Forbidden {
                    verb: verb.to_string(),
                    resource,
                    namespace: ns,
                    message: why.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// The namespace whose rules are the cluster-wide ones: a name no
/// namespace can have (a dot is not allowed in one), so no RoleBinding is
/// in it and only the ClusterRoleBindings' rules count — those that grant
/// cluster-scoped resources.
const CLUSTER_SCOPE: &str = "helm-hooks.cluster-scope";

/// Whether an RBAC rule (`resourceRules[]` of a SelfSubjectRulesReview)
/// grants `verb` on every object of `resource` (`pods`, `pods/log`) in
/// `group`: as RBAC matches it (`rbac/v1` `ResourceMatches`), with no
/// `resourceNames` (a rule for named objects does not grant a list).
fn grants(rule: &Value, verb: &str, group: &str, resource: &str) -> bool {
    let has = |field: &str, wanted: &dyn Fn(&str) -> bool| {
        rule.get(field).and_then(Value::as_array).is_some_and(|v| v.iter().filter_map(Value::as_str).any(wanted))
    };
    let named = rule.get("resourceNames").and_then(Value::as_array).is_some_and(|n| !n.is_empty());
    let sub = resource.split_once('/').map(|(_, s)| s);
    !named
        && has("verbs", &|v| v == "*" || v == verb)
        && has("apiGroups", &|g| g == "*" || g == group)
        && has("resources", &|r| r == "*" || r == resource || sub.is_some_and(|s| r.strip_prefix("*/") == Some(s)))
}

impl Client {
    /// The RBAC rules of this token in `namespace` (a SelfSubjectRulesReview,
    /// which every authenticated user may create): `resourceRules`, or
    /// `None` when the API server says they are incomplete (an authorizer
    /// that cannot list rules, such as a webhook, is configured) or does not
    /// answer the review. They are what RBAC grants; only an access review
    /// says what is refused.
    ///
    /// Asked once per namespace and command, then kept: a command's checks
    /// all happen before it acts, within moments of each other.
    pub(crate) fn rules(&mut self, namespace: &str) -> Result<&Option<Vec<Value>>, KubeError> {
        if !self.rules.contains_key(namespace) {
            let fresh = self.review_rules(namespace)?;
            self.rules.insert(namespace.to_string(), fresh);
        }
        Ok(&self.rules[namespace])
    }

    /// The rules of [`Permissions::check`]'s cluster-wide pseudo-namespace.
    pub(crate) fn cluster_rules(&mut self) -> Result<&Option<Vec<Value>>, KubeError> {
        self.rules(CLUSTER_SCOPE)
    }

    fn review_rules(&mut self, namespace: &str) -> Result<Option<Vec<Value>>, KubeError> {
        let review = serde_json::json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectRulesReview",
            "spec": {"namespace": namespace},
        });
        let call = Call::post_json(
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews".into(),
            review.to_string().into_bytes(),
        );
        let (resp, _) = self.send_retrying(&call)?;
        if !(200..300).contains(&resp.status) {
            return Ok(None);
        }
        let answer = Self::decode(&call, &resp.body)?;
        if answer.pointer("/status/incomplete").and_then(Value::as_bool).unwrap_or(false) {
            return Ok(None);
        }
        Ok(Some(answer.pointer("/status/resourceRules").and_then(Value::as_array).cloned().unwrap_or_default()))
    }

    /// Whether this token may `verb` `resource` (`jobs`, `pods/log`) of
    /// `group` in `namespace`: a SelfSubjectAccessReview, which every
    /// authenticated user may create. Commands ask before acting, so that a
    /// missing permission stops them with nothing done (docs/design.md §4).
    fn may(&mut self, verb: &str, group: &str, resource: &str, namespace: Option<&str>) -> Result<bool, KubeError> {
        let (resource, subresource) = resource.split_once('/').unwrap_or((resource, ""));
        let review = serde_json::json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "spec": {"resourceAttributes": {
                "verb": verb, "group": group, "resource": resource, "subresource": subresource,
                "namespace": namespace.unwrap_or_default(),
            }},
        });
        let call = Call::post_json(
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews".into(),
            review.to_string().into_bytes(),
        );
        let answer = self.call_json(
            &call,
            &Doing {
                verb: "create",
                resource: "selfsubjectaccessreviews.authorization.k8s.io".into(),
                namespace: None,
                name: None,
            },
        )?;
        Ok(answer.pointer("/status/allowed").and_then(Value::as_bool).unwrap_or(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_grant_as_rbac_matches_them() {
        let rule = |j: &str| serde_json::from_str::<Value>(j).unwrap();
        let admin = rule(r#"{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}"#);
        assert!(grants(&admin, "patch", "apps", "deployments"));
        assert!(grants(&admin, "get", "", "pods/log"));
        let jobs = rule(r#"{"verbs":["get","list"],"apiGroups":["batch"],"resources":["jobs"]}"#);
        assert!(grants(&jobs, "list", "batch", "jobs"));
        assert!(!grants(&jobs, "watch", "batch", "jobs"));
        assert!(!grants(&jobs, "list", "", "jobs"), "another group");
        assert!(!grants(&jobs, "get", "batch", "jobs/status"), "a subresource is not its resource");
        let logs = rule(r#"{"verbs":["get"],"apiGroups":[""],"resources":["*/log"]}"#);
        assert!(grants(&logs, "get", "", "pods/log"));
        assert!(!grants(&logs, "get", "", "pods"));
        let named = rule(r#"{"verbs":["*"],"apiGroups":[""],"resources":["secrets"],"resourceNames":["a"]}"#);
        assert!(!grants(&named, "get", "", "secrets"), "only object a");
    }
}
