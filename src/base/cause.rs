//! An error kept as another's cause (its [`Error::source`]), shared.
//!
//! The errors of the crate are values that are cloned (a failure recorded
//! and reported) and compared (by tests, and to tell one outcome from
//! another); the errors of serde_json, std::io and the host functions are
//! neither. Held as a [`Cause`], such an error keeps its type and its own
//! causes, one allocation for every copy, and two causes are equal when
//! they say the same.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// `E` as the cause of another error; `Cause` alone is any error, for a
/// layer that cannot name the error type of the layer above it (the pure
/// `exec` below `kube` and `release`).
pub struct Cause<E: ?Sized = dyn Error + Send + Sync>(Arc<E>);

impl Cause {
    /// Any error, its type erased.
    pub(crate) fn new(e: impl Error + Send + Sync + 'static) -> Self {
        Cause(Arc::new(e))
    }
}

#[cfg(test)]
impl<E: ?Sized> Cause<E> {
    pub(crate) fn get(&self) -> &E {
        &self.0
    }
}

impl<E> From<E> for Cause<E> {
    fn from(e: E) -> Self {
        Cause(Arc::new(e))
    }
}

impl From<Box<dyn Error + Send + Sync>> for Cause {
    fn from(e: Box<dyn Error + Send + Sync>) -> Self {
        Cause(Arc::from(e))
    }
}

/// A cause that is only a message (a test's, or a host's answer).
impl From<&str> for Cause {
    fn from(message: &str) -> Self {
        Box::<dyn Error + Send + Sync>::from(message).into()
    }
}

impl<E: ?Sized> Clone for Cause<E> {
    fn clone(&self) -> Self {
        Cause(Arc::clone(&self.0))
    }
}

impl<E: ?Sized + fmt::Display> PartialEq for Cause<E> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.to_string() == other.0.to_string()
    }
}

impl<E: ?Sized + fmt::Display> Eq for Cause<E> {}

impl<E: ?Sized + fmt::Debug> fmt::Debug for Cause<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<E: ?Sized + fmt::Display> fmt::Display for Cause<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Transparent: the error it holds says the same, so the chain goes on
/// with that error's own cause.
impl<E: ?Sized + Error> Error for Cause<E> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_says_what_its_error_says_and_keeps_it() {
        let json = serde_json::from_str::<u8>("x").unwrap_err();
        let text = json.to_string();
        let c = Cause::from(json);
        assert_eq!(c.to_string(), text);
        assert!(c.get().is_syntax());
        assert_eq!(c.clone(), c);
        let any = Cause::new(std::io::Error::other("gone"));
        assert_eq!(any.get().downcast_ref::<std::io::Error>().map(|e| e.to_string()).as_deref(), Some("gone"));
        assert_eq!(any, Cause::from("gone"));
        assert_ne!(any, Cause::from("here"));
    }
}
