//! Every report a command prints, in every format it offers: a plan, a lint
//! report, a run's summary, what a deploy, rollback or uninstall did, a
//! dry run's preview, a status. One file per format ([`format::Format`]),
//! each rendering the report kinds it supports. Every outcome says once
//! which formats it offers and renders itself through them ([`shown`], as
//! Helm's `pkg/cli/output` has a `Writer` per result), so that the CLI's
//! one driver hands over what any action returned and never names a
//! format's renderer.
//! What a run or deploy did is also a timeline ([`report`]), which
//! Markdown draws as a Mermaid chart.

pub mod dot;
pub(crate) mod format;
mod graph_names;
mod item_facts;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod mermaid;
mod object_names;
mod picture;
pub mod progress_lines;
mod shown;
pub mod text;
pub mod timeline;
mod yaml;

pub(crate) use format::Format;
pub(crate) use progress_lines::ProgressLines;
pub(crate) use shown::{problems, progress_lines, NotOffered, Shown, VersionShown};
