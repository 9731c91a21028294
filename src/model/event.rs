//! Helm's hook events, spelled as in `helm.sh/hook`.

use std::fmt;
use std::str::FromStr;

/// The nine events Helm runs hooks for, in the order of Helm's own list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    PreInstall,
    PostInstall,
    PreDelete,
    PostDelete,
    PreUpgrade,
    PostUpgrade,
    PreRollback,
    PostRollback,
    Test,
}

impl Event {
    pub const ALL: [Event; 9] = [
        Event::PreInstall,
        Event::PostInstall,
        Event::PreDelete,
        Event::PostDelete,
        Event::PreUpgrade,
        Event::PostUpgrade,
        Event::PreRollback,
        Event::PostRollback,
        Event::Test,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Event::PreInstall => "pre-install",
            Event::PostInstall => "post-install",
            Event::PreDelete => "pre-delete",
            Event::PostDelete => "post-delete",
            Event::PreUpgrade => "pre-upgrade",
            Event::PostUpgrade => "post-upgrade",
            Event::PreRollback => "pre-rollback",
            Event::PostRollback => "post-rollback",
            Event::Test => "test",
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown hook event {0:?}")]
pub struct UnknownEvent(String);

impl FromStr for Event {
    type Err = UnknownEvent;

    /// Parses one already trimmed and lowercased event, as Helm's manifest
    /// sorter does; `test-success` is Helm's old alias of `test`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "test-success" {
            return Ok(Event::Test);
        }
        Event::ALL.into_iter().find(|e| e.as_str() == s).ok_or_else(|| UnknownEvent(s.to_string()))
    }
}

/// Splits a `helm.sh/hook` value the way Helm does: on commas, trimmed,
/// lowercased. Any unknown event makes Helm drop the whole document, so the
/// first unknown one is returned as the error.
pub fn parse_events(value: &str) -> Result<Vec<Event>, UnknownEvent> {
    value.split(',').map(|s| s.trim().to_lowercase().parse()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_helm() {
        assert_eq!(parse_events("post-delete, post-install").unwrap(), vec![Event::PostDelete, Event::PostInstall]);
        assert_eq!(parse_events(" Test-Success ").unwrap(), vec![Event::Test]);
        assert!(parse_events("no-such-hook").is_err());
        assert!(parse_events("pre-install,").is_err());
    }
}
