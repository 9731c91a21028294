//! A release's status, as Helm's `common.Status` names them
//! (`pkg/release/common/status.go`): what `info.status` holds and the
//! storage drivers' `status` label repeats.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseStatus {
    /// Helm's `unknown`, and anything this plugin does not know.
    Unknown,
    Deployed,
    Uninstalled,
    Superseded,
    Failed,
    Uninstalling,
    PendingInstall,
    PendingUpgrade,
    PendingRollback,
}

impl ReleaseStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ReleaseStatus::Unknown => "unknown",
            ReleaseStatus::Deployed => "deployed",
            ReleaseStatus::Uninstalled => "uninstalled",
            ReleaseStatus::Superseded => "superseded",
            ReleaseStatus::Failed => "failed",
            ReleaseStatus::Uninstalling => "uninstalling",
            ReleaseStatus::PendingInstall => "pending-install",
            ReleaseStatus::PendingUpgrade => "pending-upgrade",
            ReleaseStatus::PendingRollback => "pending-rollback",
        }
    }

    /// `info.status` as stored; what Helm would not write reads as unknown.
    pub(super) fn parse(s: &str) -> ReleaseStatus {
        [
            ReleaseStatus::Deployed,
            ReleaseStatus::Uninstalled,
            ReleaseStatus::Superseded,
            ReleaseStatus::Failed,
            ReleaseStatus::Uninstalling,
            ReleaseStatus::PendingInstall,
            ReleaseStatus::PendingUpgrade,
            ReleaseStatus::PendingRollback,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
        .unwrap_or(ReleaseStatus::Unknown)
    }

    /// While one of these is the latest, Helm refuses another operation on
    /// the release (`Status.IsPending`, plus `uninstalling`, which Helm's
    /// actions also treat as in progress).
    pub(crate) fn is_pending(self) -> bool {
        matches!(
            self,
            ReleaseStatus::PendingInstall
                | ReleaseStatus::PendingUpgrade
                | ReleaseStatus::PendingRollback
                | ReleaseStatus::Uninstalling
        )
    }
}

impl fmt::Display for ReleaseStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_helms_names() {
        for s in [
            "deployed",
            "uninstalled",
            "superseded",
            "failed",
            "uninstalling",
            "pending-install",
            "pending-upgrade",
            "pending-rollback",
            "unknown",
        ] {
            assert_eq!(ReleaseStatus::parse(s).as_str(), s);
        }
        assert_eq!(ReleaseStatus::parse("Deployed"), ReleaseStatus::Unknown);
        assert!(ReleaseStatus::Uninstalling.is_pending() && !ReleaseStatus::Failed.is_pending());
    }
}
