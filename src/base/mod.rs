//! What every layer uses and none owns: wall-clock time and Go's time
//! formats ([`time`]), Base64 ([`base64`]), plain-text layout ([`text`]),
//! graphs of named nodes ([`dag`]), errors kept as causes ([`cause`]), and
//! the word a typo was meant to be ([`spelling`]), byte searches a word at a
//! time ([`bytes`]), hash maps hashed a word at a time ([`hash`]), and one
//! shared sort by a whole-number key ([`order`]).
//! It imports nothing of the crate (docs/design.md §6).

pub(crate) mod base64;
pub(crate) mod bytes;
pub(crate) mod cause;
pub mod dag;
pub(crate) mod hash;
pub(crate) mod order;
pub(crate) mod spelling;
pub(crate) mod text;
pub mod time;
