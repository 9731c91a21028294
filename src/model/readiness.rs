//! Reading a resource's HIP-0025 readiness annotations,
//! `helm.sh/readiness-success` and `helm.sh/readiness-failure`, into the
//! rule [`crate::ready`] judges live objects by ([`Readiness`]), with a
//! diagnostic for each that cannot be read or can never hold: what `lint`,
//! `plan` and `deploy` say of them before anything runs.

use std::collections::BTreeMap;

use crate::model::annotation::{self as a, READINESS_FAILURE, READINESS_SUCCESS};
use crate::model::diagnostic::{Diagnostic, Diagnostics, Location};
use crate::ready::{Expr, Readiness};

impl Readiness {
    /// Reads both annotations. Only one of them present falls back to the
    /// kind's own readiness rules, with a warning, as the reference
    /// implementation warns at install time (its `helm lint` calls it an
    /// error; here every command gives one verdict, and `lint --strict`
    /// fails on the warning).
    pub fn from_annotations(
        ann: &BTreeMap<String, String>,
        loc: &Location,
        diags: &mut Diagnostics,
    ) -> Option<Readiness> {
        let success = crate::model::annotation::get(ann, READINESS_SUCCESS).filter(|v| !v.trim().is_empty());
        let failure = crate::model::annotation::get(ann, READINESS_FAILURE).filter(|v| !v.trim().is_empty());
        let (success, failure) = match (success, failure) {
            (None, None) => return None,
            (Some(_), None) | (None, Some(_)) => {
                let (has, lacks) = if success.is_some() {
                    (READINESS_SUCCESS, READINESS_FAILURE)
                } else {
                    (READINESS_FAILURE, READINESS_SUCCESS)
                };
                diags.push(
                    Diagnostic::warning(
                        loc.clone(),
                        format!("is set without {lacks}; the kind's own readiness rules apply instead"),
                    )
                    .on(has)
                    .help("set both helm.sh/readiness-success and helm.sh/readiness-failure"),
                );
                return None;
            }
            (Some(s), Some(f)) => (s, f),
        };
        let mut parse_list = |key: &str, value: &str| -> Option<Vec<Expr>> {
            let items = match a::parse_string_array(value) {
                Ok(items) => items,
                Err(e) => {
                    let help = e.help();
                    diags.push(Diagnostic::error(loc.clone(), e.to_string()).on(key).help(help));
                    return None;
                }
            };
            let mut exprs = Vec::new();
            for item in items {
                match Expr::parse(&item) {
                    Ok(e) => exprs.push(e),
                    // One that can never hold too: the reference evaluates it as
                    // never met, so a deploy would wait out its time for nothing.
                    Err(e) => diags.push(Diagnostic::error(loc.clone(), e.to_string()).on(key).help(e.help())),
                }
            }
            Some(exprs)
        };
        let success = parse_list(READINESS_SUCCESS, success);
        let failure = parse_list(READINESS_FAILURE, failure);
        Some(Readiness { success: success?, failure: failure? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_side_only_falls_back_with_a_warning() {
        let mut ann = BTreeMap::new();
        ann.insert(READINESS_SUCCESS.to_string(), r#"["{.a} == 1"]"#.to_string());
        let mut d = Diagnostics::default();
        assert!(Readiness::from_annotations(&ann, &Location::default(), &mut d).is_none());
        assert!(!d.0[0].is_error(), "a warning, as every command gives it");
    }
}
