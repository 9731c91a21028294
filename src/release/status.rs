//! A release's status, as Helm's `common.Status` names them
//! (`pkg/release/common/status.go`): what `info.status` holds and the
//! storage drivers' `status` label repeats.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
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

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unknown => "unknown",
            Status::Deployed => "deployed",
            Status::Uninstalled => "uninstalled",
            Status::Superseded => "superseded",
            Status::Failed => "failed",
            Status::Uninstalling => "uninstalling",
            Status::PendingInstall => "pending-install",
            Status::PendingUpgrade => "pending-upgrade",
            Status::PendingRollback => "pending-rollback",
        }
    }

    /// `info.status` as stored; what Helm would not write reads as unknown.
    pub fn parse(s: &str) -> Status {
        [
            Status::Deployed,
            Status::Uninstalled,
            Status::Superseded,
            Status::Failed,
            Status::Uninstalling,
            Status::PendingInstall,
            Status::PendingUpgrade,
            Status::PendingRollback,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
        .unwrap_or(Status::Unknown)
    }

    /// While one of these is the latest, Helm refuses another operation on
    /// the release (`Status.IsPending`, plus `uninstalling`, which Helm's
    /// actions also treat as in progress).
    pub fn is_pending(self) -> bool {
        matches!(self, Status::PendingInstall | Status::PendingUpgrade | Status::PendingRollback | Status::Uninstalling)
    }
}

impl fmt::Display for Status {
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
            assert_eq!(Status::parse(s).as_str(), s);
        }
        assert_eq!(Status::parse("Deployed"), Status::Unknown);
        assert!(Status::Uninstalling.is_pending() && !Status::Failed.is_pending());
    }
}
