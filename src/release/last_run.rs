//! A hook's `last_run` as Helm records it in the release (`HookExecution`:
//! phase and times), and where it goes in the release's JSON: the types the
//! run writes after each hook, apart from how the record is stored.

use serde_json::{Map, Value};

use crate::base::time::go_time;
use crate::exec::executor::{Millis, Phase};

/// Helm's `HookPhase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookPhase {
    Unknown,
    Running,
    Succeeded,
    Failed,
}

impl HookPhase {
    fn as_str(self) -> &'static str {
        match self {
            HookPhase::Unknown => "Unknown",
            HookPhase::Running => "Running",
            HookPhase::Succeeded => "Succeeded",
            HookPhase::Failed => "Failed",
        }
    }
}

/// A hook's `last_run`: times in wall-clock ms since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastRun {
    pub started_at: Option<Millis>,
    pub completed_at: Option<Millis>,
    pub phase: HookPhase,
}

impl LastRun {
    /// From [`crate::exec::executor::Executor::last_run`]; `None` for a hook that
    /// never started (Helm leaves those untouched).
    pub(crate) fn from_executor(
        (started_at, completed_at, phase): (Option<Millis>, Option<Millis>, Phase),
    ) -> Option<LastRun> {
        let phase = match phase {
            Phase::Pending | Phase::Skipped => return None,
            Phase::Running | Phase::Abandoned => HookPhase::Running,
            Phase::Succeeded => HookPhase::Succeeded,
            Phase::Failed => HookPhase::Failed,
        };
        Some(LastRun { started_at, completed_at, phase })
    }

    /// As Helm's `HookExecution.MarshalJSON` writes it: zero times omitted.
    fn to_json(self) -> Value {
        let mut m = Map::new();
        if let Some(t) = self.started_at {
            m.insert("started_at".into(), Value::String(go_time(t)));
        }
        if let Some(t) = self.completed_at {
            m.insert("completed_at".into(), Value::String(go_time(t)));
        }
        m.insert("phase".into(), Value::String(self.phase.as_str().into()));
        Value::Object(m)
    }
}

/// Sets a hook's `last_run` in a release's JSON (`hooks[index]`) and fills
/// its `delete_policies` with Helm's default (`before-hook-creation`) when
/// empty, as Helm persists a hook it ran.
pub(super) fn set_last_run(release: &mut Value, index: usize, run: &LastRun) -> bool {
    let Some(hook) = release
        .get_mut("hooks")
        .and_then(Value::as_array_mut)
        .and_then(|h| h.get_mut(index))
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    hook.insert("last_run".into(), run.to_json());
    let empty = hook.get("delete_policies").and_then(Value::as_array).is_none_or(Vec::is_empty);
    if empty {
        hook.insert(
            "delete_policies".into(),
            Value::Array(vec![Value::String(crate::model::hook::DeletePolicy::BeforeHookCreation.as_str().into())]),
        );
    }
    true
}

/// The position in `hooks[]` of the hook with this kind, name and template
/// path (`path` empty: any).
pub(super) fn find_hook(release: &Value, kind: &str, name: &str, path: &str) -> Option<usize> {
    let hooks = release.get("hooks")?.as_array()?;
    hooks.iter().position(|h| {
        let f = |k: &str| h.get(k).and_then(Value::as_str).unwrap_or_default();
        f("kind") == kind && f("name") == name && (path.is_empty() || f("path") == path)
    })
}

/// Copies `last_run` and `delete_policies` of every hook of `from` onto the
/// same hook (kind, name, path) of `to`.
pub(super) fn carry_hook_runs(from: &Value, to: &mut Value) {
    let Some(hooks) = from.get("hooks").and_then(Value::as_array) else {
        return;
    };
    for h in hooks {
        let f = |k: &str| h.get(k).and_then(Value::as_str).unwrap_or_default();
        if let Some(i) = find_hook(to, f("kind"), f("name"), f("path")) {
            let target = &mut to["hooks"][i];
            for key in ["last_run", "delete_policies"] {
                if let Some(v) = h.get(key) {
                    target[key] = v.clone();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_run_as_helm_writes_it() {
        assert_eq!(go_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(go_time(1_795_238_699_123), "2026-11-21T05:24:59.123Z");
        assert_eq!(go_time(1_795_238_699_100), "2026-11-21T05:24:59.1Z");
        assert_eq!(go_time(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(go_time(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
        let run = LastRun { started_at: Some(1_795_238_699_000), completed_at: None, phase: HookPhase::Running };
        assert_eq!(
            serde_json::to_string(&run.to_json()).unwrap(),
            r#"{"phase":"Running","started_at":"2026-11-21T05:24:59Z"}"#
        );
        let mut rel = serde_json::json!({"hooks":[
            {"name":"a","kind":"Job","path":"c/templates/a.yaml","last_run":{"phase":""}},
            {"name":"b","kind":"Pod","path":"c/templates/b.yaml","last_run":{"phase":""},"delete_policies":["hook-succeeded"]}]});
        assert_eq!(find_hook(&rel, "Pod", "b", "c/templates/b.yaml"), Some(1));
        assert_eq!(find_hook(&rel, "Pod", "b", "other.yaml"), None);
        assert!(set_last_run(&mut rel, 0, &run));
        assert!(set_last_run(&mut rel, 1, &run));
        assert!(!set_last_run(&mut rel, 2, &run));
        assert_eq!(rel["hooks"][0]["delete_policies"], serde_json::json!(["before-hook-creation"]));
        assert_eq!(rel["hooks"][1]["delete_policies"], serde_json::json!(["hook-succeeded"]));
        assert_eq!(rel["hooks"][0]["last_run"]["phase"], "Running");
        assert_eq!(LastRun::from_executor((Some(1), Some(2), Phase::Failed)).map(|r| r.phase), Some(HookPhase::Failed));
        assert_eq!(LastRun::from_executor((None, None, Phase::Skipped)), None);
    }
}
