//! The release record's life cycle, as Helm's install, upgrade, rollback and
//! uninstall write it (`pkg/action`): which status and description a
//! revision carries at each step, and which revision supersedes which.
//! Pure functions over the release JSON; [`crate::release::storage`] writes them.

use serde_json::Value;

use crate::base::time::go_time;
use crate::exec::executor::Millis;
use crate::model::event::Event;
use crate::release::release_status::ReleaseStatus;

/// What a sequenced deploy or uninstall does to the release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Install,
    Upgrade,
    /// Back to the resources and hooks of revision `to`.
    Rollback {
        to: u64,
    },
    /// The resources deleted and the record removed, or kept `uninstalled`;
    /// stores no revision of its own.
    Uninstall,
}

impl Operation {
    pub(crate) fn pre_event(self) -> Event {
        match self {
            Operation::Install => Event::PreInstall,
            Operation::Upgrade => Event::PreUpgrade,
            Operation::Rollback { .. } => Event::PreRollback,
            Operation::Uninstall => Event::PreDelete,
        }
    }

    pub(crate) fn post_event(self) -> Event {
        match self {
            Operation::Install => Event::PostInstall,
            Operation::Upgrade => Event::PostUpgrade,
            Operation::Rollback { .. } => Event::PostRollback,
            Operation::Uninstall => Event::PostDelete,
        }
    }

    pub(crate) fn pending_status(self) -> ReleaseStatus {
        match self {
            Operation::Install => ReleaseStatus::PendingInstall,
            Operation::Upgrade => ReleaseStatus::PendingUpgrade,
            Operation::Rollback { .. } => ReleaseStatus::PendingRollback,
            Operation::Uninstall => ReleaseStatus::Uninstalling,
        }
    }

    /// Helm's description while the operation runs.
    pub(crate) fn pending_description(self) -> String {
        match self {
            Operation::Install => "Initial install underway".into(),
            Operation::Upgrade => "Preparing upgrade".into(),
            Operation::Rollback { to } => format!("Rollback to {to}"),
            Operation::Uninstall => UNINSTALLING_DESCRIPTION.into(),
        }
    }

    /// Helm's description once the release is deployed (or uninstalled).
    pub(crate) fn done_description(self) -> String {
        match self {
            Operation::Install => "Install complete".into(),
            Operation::Upgrade => "Upgrade complete".into(),
            Operation::Rollback { to } => format!("Rollback to {to}"),
            Operation::Uninstall => "Uninstallation complete".into(),
        }
    }

    /// Helm's description of a failed revision.
    pub(crate) fn failed_description(self, release: &str, error: &str) -> String {
        match self {
            Operation::Install => format!("Release {release:?} failed: {error}"),
            Operation::Upgrade => format!("Upgrade {release:?} failed: {error}"),
            Operation::Rollback { .. } => format!("Rollback {release:?} failed: {error}"),
            // Helm's uninstall never stores a failed revision (the record
            // stays `uninstalling`, or is removed): not asked of it.
            Operation::Uninstall => format!("uninstallation completed with 1 error(s): {error}"),
        }
    }

    /// `installed`, `upgraded`, `rolled back`: for the closing line.
    pub(crate) fn past_tense(self) -> &'static str {
        match self {
            Operation::Install => "installed",
            Operation::Upgrade => "upgraded",
            Operation::Rollback { .. } => "rolled back",
            Operation::Uninstall => "uninstalled",
        }
    }
}

fn info(release: &mut Value) -> &mut serde_json::Map<String, Value> {
    if !release.get("info").is_some_and(Value::is_object) {
        release["info"] = Value::Object(serde_json::Map::new());
    }
    release["info"].as_object_mut().expect("info is an object")
}

/// Turns a rendered release (dry-run output, or a stored revision being
/// rolled back to) into revision `revision`, pending: Helm's new-release
/// record before anything is applied. `first_deployed` is the current
/// release's for upgrades and rollbacks, now for installs.
pub(crate) fn begin(release: &mut Value, op: Operation, revision: u64, first_deployed: Option<&str>, now: Millis) {
    release["version"] = Value::from(revision);
    // We apply server-side, as Helm 4 does by default; `helm upgrade`
    // reads this to keep doing so.
    release["apply_method"] = Value::String("ssa".into());
    // HIP-0025's marker: a Helm that knows it uninstalls and rolls back in
    // plan order; Helm 4.2 ignores it.
    release["sequenced"] = Value::Bool(true);
    let now = go_time(now);
    let i = info(release);
    i.insert("first_deployed".into(), Value::String(first_deployed.map_or_else(|| now.clone(), str::to_string)));
    i.insert("last_deployed".into(), Value::String(now));
    i.remove("deleted");
    // Helm 4.3 records the revision a rollback went back to (`rollback_revision`,
    // omitted when zero: pkg/release/v1/info.go) and builds every other revision's
    // info afresh, so a rolled-back-to revision's own value must not be carried on.
    match op {
        Operation::Rollback { to } => i.insert("rollback_revision".into(), Value::from(to)),
        Operation::Install | Operation::Upgrade | Operation::Uninstall => i.remove("rollback_revision"),
    };
    i.insert("status".into(), Value::String(op.pending_status().as_str().into()));
    i.insert("description".into(), Value::String(op.pending_description()));
}

/// Sets `info.status` and `info.description`.
pub(crate) fn set_status(release: &mut Value, status: ReleaseStatus, description: &str) {
    let i = info(release);
    i.insert("status".into(), Value::String(status.as_str().into()));
    i.insert("description".into(), Value::String(description.into()));
}

/// Helm's uninstall: `uninstalling` while it runs, then `uninstalled` with
/// the deletion time.
pub(crate) fn uninstalled(release: &mut Value, now: Millis) {
    set_status(release, ReleaseStatus::Uninstalled, &Operation::Uninstall.done_description());
    info(release).insert("deleted".into(), Value::String(go_time(now)));
}

const UNINSTALLING_DESCRIPTION: &str = "Deletion in progress (or silently failed)";

/// `info.first_deployed` of a stored release.
pub(crate) fn first_deployed(release: &Value) -> Option<&str> {
    release.pointer("/info/first_deployed").and_then(Value::as_str)
}

/// The operation that made a stored revision, read from its info as Helm
/// writes it: `rollback_revision` (Helm 4.3) or a `Rollback to N`
/// description, the install and upgrade descriptions, else revision 1 is an
/// install and any later one an upgrade. Helm's `last_run` keeps no event, so
/// this is what says which event a hook of several events last ran for.
pub(super) fn made_by(release: &Value) -> Operation {
    let to = release.pointer("/info/rollback_revision").and_then(Value::as_u64).filter(|&n| n > 0);
    let description = release.pointer("/info/description").and_then(Value::as_str).unwrap_or_default();
    if let Some(to) = to {
        return Operation::Rollback { to };
    }
    if let Some(n) = description.strip_prefix("Rollback to ") {
        return Operation::Rollback { to: n.trim().parse().unwrap_or(0) };
    }
    if description.starts_with("Rollback ") {
        return Operation::Rollback { to: 0 };
    }
    let install = [Operation::Install.pending_description(), Operation::Install.done_description()];
    if install.iter().any(|d| d == description) || description.starts_with("Release ") {
        return Operation::Install;
    }
    if description.starts_with("Upgrade ") || description == Operation::Upgrade.pending_description() {
        return Operation::Upgrade;
    }
    match release.get("version").and_then(Value::as_u64) {
        Some(1) => Operation::Install,
        _ => Operation::Upgrade,
    }
}

/// The events whose hooks may have last run on this revision: its
/// operation's two, `test` (run on any revision), and the delete events once
/// it is being or was uninstalled (`--keep-history`).
pub(super) fn events_run(release: &Value) -> Vec<Event> {
    let op = made_by(release);
    let mut events = vec![op.pre_event(), op.post_event(), Event::Test];
    let status = release.pointer("/info/status").and_then(Value::as_str).map(ReleaseStatus::parse);
    if matches!(status, Some(ReleaseStatus::Uninstalled | ReleaseStatus::Uninstalling)) {
        events.extend([Event::PreDelete, Event::PostDelete]);
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Which operation made a revision, from what Helm (and the plugin) write.
    #[test]
    fn a_revision_says_what_made_it() {
        let rev = |v: u64, desc: &str| json!({"version": v, "info": {"description": desc, "status": "deployed"}});
        assert_eq!(made_by(&rev(1, "Install complete")), Operation::Install);
        assert_eq!(made_by(&rev(1, "Release \"r\" failed: x")), Operation::Install);
        assert_eq!(made_by(&rev(2, "Upgrade complete")), Operation::Upgrade);
        assert_eq!(made_by(&rev(2, "Upgrade \"r\" failed: x")), Operation::Upgrade);
        assert_eq!(made_by(&rev(3, "Rollback to 1")), Operation::Rollback { to: 1 });
        assert_eq!(made_by(&json!({"version": 4, "info": {"rollback_revision": 2}})), Operation::Rollback { to: 2 });
        assert_eq!(made_by(&rev(1, "")), Operation::Install);
        assert_eq!(made_by(&rev(5, "something else")), Operation::Upgrade);
        assert_eq!(events_run(&rev(2, "Upgrade complete")), [Event::PreUpgrade, Event::PostUpgrade, Event::Test]);
        let gone = json!({"version": 1, "info": {"description": "Uninstallation complete", "status": "uninstalled"}});
        assert_eq!(
            events_run(&gone),
            [Event::PreInstall, Event::PostInstall, Event::Test, Event::PreDelete, Event::PostDelete]
        );
    }

    #[test]
    fn a_dry_run_becomes_a_pending_revision_then_deployed() {
        let mut r = json!({"name": "app", "version": 1, "info": {"status": "pending-install",
            "description": "Dry run complete", "first_deployed": "x", "last_deployed": "x"}});
        begin(&mut r, Operation::Upgrade, 3, Some("2026-01-01T00:00:00Z"), 1_795_000_000_000);
        assert_eq!(r["version"], 3);
        assert_eq!(r["apply_method"], "ssa");
        assert_eq!(r["info"]["status"], "pending-upgrade");
        assert_eq!(r["info"]["description"], "Preparing upgrade");
        assert_eq!(r["info"]["first_deployed"], "2026-01-01T00:00:00Z");
        assert_eq!(r["info"]["last_deployed"], "2026-11-18T11:06:40Z");
        set_status(&mut r, ReleaseStatus::Deployed, &Operation::Upgrade.done_description());
        assert_eq!(r["info"]["description"], "Upgrade complete");
        assert_eq!(Operation::Install.failed_description("app", "boom"), "Release \"app\" failed: boom");
        assert_eq!(Operation::Rollback { to: 2 }.pending_description(), "Rollback to 2");
    }

    #[test]
    fn a_rollback_records_its_target_and_nothing_else_carries_one_on() {
        // Revision 3 was itself a rollback to 1; rolling back to it records 3.
        let stored = json!({"version": 3, "info": {"status": "superseded", "rollback_revision": 1}});
        let mut r = stored.clone();
        begin(&mut r, Operation::Rollback { to: 3 }, 5, Some("x"), 0);
        assert_eq!(r["info"]["rollback_revision"], 3);
        for op in [Operation::Install, Operation::Upgrade] {
            let mut r = stored.clone();
            begin(&mut r, op, 5, Some("x"), 0);
            assert!(r["info"].get("rollback_revision").is_none(), "{op:?}");
        }
    }

    #[test]
    fn uninstall_marks_the_deletion_time() {
        let mut r = json!({"info": "not an object"});
        uninstalled(&mut r, 0);
        assert_eq!(r["info"]["status"], "uninstalled");
        assert_eq!(r["info"]["deleted"], "1970-01-01T00:00:00Z");
    }
}
