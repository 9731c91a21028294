//! A release as the plan sees it, whatever it was read from
//! ([`super::input`]): its name, namespace and revision when known, the
//! chart's metadata, its hooks and resources.

use crate::model::chart::ChartMeta;
use crate::model::hook::Hook;
use crate::model::resource::Resource;

/// A release as the plan sees it: its hooks and resources, parsed.
#[derive(Debug, Default)]
pub struct Release {
    pub(crate) name: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) revision: Option<u64>,
    pub(crate) chart: ChartMeta,
    pub hooks: Vec<Hook>,
    pub resources: Vec<Resource>,
}
