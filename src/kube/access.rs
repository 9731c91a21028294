//! Asking the API server, before acting, for every permission a command
//! will need (docs/design.md §4): one SelfSubjectAccessReview per
//! (verb, resource, namespace), in a stable order, and the first one refused
//! named as the error. A command that checks first stops with nothing done
//! instead of half way.

use std::collections::BTreeSet;

use super::{Client, KubeError};

/// The permissions a command needs: (verb, group, resource, namespace).
#[derive(Debug, Default)]
pub struct Needs(BTreeSet<(&'static str, String, String, Option<String>)>);

impl Needs {
    pub fn add(&mut self, verbs: &[&'static str], group: &str, resource: &str, namespace: Option<&str>) {
        for verb in verbs {
            self.0.insert((verb, group.to_string(), resource.to_string(), namespace.map(str::to_string)));
        }
    }

    /// `verbs` on the resource serving `kind`, in the namespace an object of
    /// it named with `namespace` lands in. A kind the cluster does not serve
    /// yet (its CRD comes with the same release) cannot be asked about and
    /// is left out.
    pub fn kind(
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
    pub fn check(self, client: &mut Client, why: &str) -> Result<(), KubeError> {
        for (verb, group, resource, ns) in self.0 {
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
