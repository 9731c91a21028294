//! `lint`'s order check: a workload (a hook or a resource) whose pods name
//! an object the same release creates later, or deletes before, than the
//! workload starts. Helm applies a release in the order its chart declares
//! (hook events and weights, resource batches); a ConfigMap made by a
//! post-install hook and mounted by a Deployment leaves that Deployment's
//! pods waiting for an object that comes only once they are ready, and
//! nothing tells the chart author before the install hangs.
//!
//! What a workload names comes from its pod spec (`model::pod_spec`);
//! when each object exists, from the plan (`plan::lifecycle`). One warning
//! per workload and object it needs, naming both, the field, why and the
//! annotation that would fix it. Not checked: references to objects the
//! release does not create (another release's, an operator's), and
//! `helm.sh/depends-on`, which orders what it names already (a target of a
//! later weight or batch, or of another event, is an error of the plan).

use crate::base::hash::WordMap;

use crate::model::annotation::RESOURCE_POLICY;
use crate::model::diagnostic::{Diagnostic, Location};
use crate::model::event::Event;
use crate::model::input::Release;
use crate::model::pod_spec::{self, PodReference};
use crate::plan::batch::Batch;
use crate::plan::event_plan::{ItemId, Plan, Target};
use crate::plan::lifecycle::{self, Gap, Moment, Needed, Search};

/// The order warnings of a planned release (every event and the install
/// planned, as `lint` plans it): the hooks', then the resources', each in
/// the release's order.
pub fn check(release: &Release, plan: &Plan) -> Vec<Diagnostic> {
    let objects = Objects::new(release);
    // Nothing a pod could name is made by the release: no pod spec need be
    // read (each is parsed whole, a third of a second for 10,000 hooks
    // under Helm's Wasm runtime, docs/benchmarks.md).
    if objects.by_name.is_empty() {
        return Vec::new();
    }
    let positions = Positions::new(plan);
    let mut search = Search::default();
    let mut out = Vec::new();
    for (i, hook) in release.hooks.iter().enumerate() {
        if !pod_spec::has_pod_spec(&hook.head.kind) {
            continue;
        }
        let mut events = hook.events.clone();
        crate::base::order::by(&mut events, |a, b| a.cmp(b));
        let moments: Vec<Moment> = events
            .into_iter()
            .filter_map(|event| {
                let (plan, item) = positions.hook(event, i)?;
                Some(Moment::Hook { event, plan, item, weight: hook.weight })
            })
            .collect();
        let referrer =
            Referrer { location: hook.location(), namespace: hook.head.namespace.as_deref(), group: None, moments };
        check_one(
            &referrer,
            pod_spec::references(&hook.head.kind, &hook.manifest),
            release,
            &objects,
            &positions,
            &mut search,
            &mut out,
        );
    }
    for (i, resource) in release.resources.iter().enumerate() {
        if !pod_spec::has_pod_spec(&resource.head.kind) {
            continue;
        }
        let Some(batch) = positions.batch(i) else { continue };
        let referrer = Referrer {
            location: resource.location(),
            namespace: resource.head.namespace.as_deref(),
            group: resource.group.as_deref(),
            moments: vec![Moment::Apply { batch }],
        };
        let refs = pod_spec::references(&resource.head.kind, &resource.manifest);
        check_one(&referrer, refs, release, &objects, &positions, &mut search, &mut out);
    }
    out
}

/// A workload and the moments it starts at: each event of a hook, the
/// install batch of a resource.
struct Referrer<'a> {
    location: Location,
    namespace: Option<&'a str>,
    /// A resource's `helm.sh/resource-group`, for the fix.
    group: Option<&'a str>,
    moments: Vec<Moment<'a>>,
}

/// Where the plan puts each hook (per event) and resource.
struct Positions<'p> {
    hooks: WordMap<(Event, usize), (&'p crate::plan::event_plan::EventPlan, ItemId)>,
    batches: WordMap<usize, usize>,
    layout: &'p [Batch],
}

impl<'p> Positions<'p> {
    fn new(plan: &'p Plan) -> Self {
        let mut p = Positions { hooks: WordMap::default(), batches: WordMap::default(), layout: &[] };
        for ep in &plan.events {
            match ep.target {
                Target::Hooks(event) => {
                    for id in ep.ids() {
                        p.hooks.insert((event, ep.items[id].index), (ep, id));
                    }
                }
                Target::Install => {
                    p.layout = &ep.batches;
                    for it in &ep.items {
                        p.batches.insert(it.index, usize::try_from(it.level).unwrap_or(0));
                    }
                }
            }
        }
        p
    }

    fn hook(&self, event: Event, hook: usize) -> Option<(&'p crate::plan::event_plan::EventPlan, ItemId)> {
        self.hooks.get(&(event, hook)).copied()
    }

    fn batch(&self, resource: usize) -> Option<usize> {
        self.batches.get(&resource).copied()
    }
}

#[derive(Debug, Clone, Copy)]
enum Object {
    Hook(usize),
    Resource(usize),
}

/// The release's objects of the kinds a pod spec names, by kind and name.
struct Objects<'r> {
    by_name: WordMap<(&'r str, &'r str), Vec<Object>>,
}

impl<'r> Objects<'r> {
    fn new(release: &'r Release) -> Self {
        let wanted = |kind: &str| matches!(kind, "ConfigMap" | "Secret" | "ServiceAccount" | "PersistentVolumeClaim");
        let mut by_name: WordMap<_, Vec<_>> = WordMap::default();
        for (i, h) in release.hooks.iter().enumerate().filter(|(_, h)| wanted(&h.head.kind)) {
            by_name.entry((h.head.kind.as_str(), h.head.name.as_str())).or_default().push(Object::Hook(i));
        }
        for (i, r) in release.resources.iter().enumerate().filter(|(_, r)| wanted(&r.head.kind)) {
            by_name.entry((r.head.kind.as_str(), r.head.name.as_str())).or_default().push(Object::Resource(i));
        }
        Objects { by_name }
    }

    /// The objects `r` names from `namespace`: a pod spec's references
    /// resolve in the pod's own namespace. A manifest without a namespace
    /// lands in the release's, which `helm template` output does not tell:
    /// then it matches any, as `helm.sh/depends-on` references do.
    fn named(&self, r: &PodReference, namespace: Option<&str>, release: &Release) -> Vec<Object> {
        let Some(found) = self.by_name.get(&(r.kind, r.name.as_str())) else { return Vec::new() };
        let want = namespace.or(release.namespace.as_deref());
        found
            .iter()
            .copied()
            .filter(|o| {
                let ns = match *o {
                    Object::Hook(i) => release.hooks[i].head.namespace.as_deref(),
                    Object::Resource(i) => release.resources[i].head.namespace.as_deref(),
                };
                match (want, ns.or(release.namespace.as_deref())) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                }
            })
            .collect()
    }
}

fn check_one(
    referrer: &Referrer,
    refs: Vec<PodReference>,
    release: &Release,
    objects: &Objects,
    positions: &Positions,
    search: &mut Search,
    out: &mut Vec<Diagnostic>,
) {
    // One warning per object needed, however many fields name it.
    let mut seen: Vec<(&'static str, String, Vec<String>)> = Vec::new();
    for r in refs {
        match seen.iter_mut().find(|(k, n, _)| *k == r.kind && *n == r.name) {
            Some((_, _, paths)) => paths.push(r.path),
            None => seen.push((r.kind, r.name, vec![r.path])),
        }
    }
    for (kind, name, paths) in seen {
        let probe = PodReference { kind, name, path: String::new() };
        let candidates = objects.named(&probe, referrer.namespace, release);
        if candidates.is_empty() {
            continue;
        }
        // The first moment at which no object of that name is there yet
        // (or any more); with several candidates, any one there will do.
        let found = referrer.moments.iter().find_map(|&moment| {
            let gaps: Option<Vec<(Object, Gap)>> = candidates
                .iter()
                .map(|&o| {
                    let needed = needed(o, moment, release, positions)?;
                    lifecycle::gap(moment, needed, positions.layout, search).map(|g| (o, g))
                })
                .collect();
            gaps.and_then(|g| g.into_iter().next()).map(|(o, g)| (moment, o, g))
        });
        if let Some((moment, object, gap)) = found {
            out.push(warning(referrer, &paths, object, &gap, moment, release));
        }
    }
}

/// What `object` is to the lifecycle at `moment`; `None` when the plan does
/// not place it (a plan with errors), so nothing is claimed about it.
fn needed<'r>(object: Object, moment: Moment, release: &'r Release, positions: &Positions) -> Option<Needed<'r>> {
    Some(match object {
        Object::Hook(i) => {
            let same_event = match moment {
                Moment::Hook { event, .. } => positions.hook(event, i).map(|(_, id)| id),
                Moment::Apply { .. } => None,
            };
            Needed::Hook { hook: &release.hooks[i], same_event }
        }
        Object::Resource(i) => {
            let r = &release.resources[i];
            let kept = r.head.annotations.get(RESOURCE_POLICY).is_some_and(|p| p.trim().eq_ignore_ascii_case("keep"));
            Needed::Resource { batch: positions.batch(i)?, kept }
        }
    })
}

fn warning(
    referrer: &Referrer,
    paths: &[String],
    object: Object,
    gap: &Gap,
    moment: Moment,
    release: &Release,
) -> Diagnostic {
    let (target, source) = match object {
        Object::Hook(i) => (release.hooks[i].head.display(), release.hooks[i].source.as_str()),
        Object::Resource(i) => (release.resources[i].head.display(), release.resources[i].source.as_str()),
    };
    let more = match paths.len() {
        1 => String::new(),
        n => format!(" (and {} more field{})", n - 1, if n == 2 { "" } else { "s" }),
    };
    // A missing pull secret does not stop a pod: the kubelet pulls without
    // it, which only a private registry refuses. Every other field does.
    let first = paths.iter().find(|p| !is_pull_secret(p)).unwrap_or(&paths[0]);
    let consequence = if is_pull_secret(first) {
        "its pods pull their images without it, which a private registry refuses"
    } else {
        "its pods cannot start without it"
    };
    let message = format!("{first}{more} names {target} ({source}), {gap}; {consequence}");
    Diagnostic::warning(referrer.location.clone(), message).help(fix(&target, gap, moment, referrer.group))
}

fn is_pull_secret(path: &str) -> bool {
    path.contains(".imagePullSecrets[")
}

/// The annotations that would put `target` where the workload needs it.
fn fix(target: &str, gap: &Gap, moment: Moment, group: Option<&str>) -> String {
    let (event, weight) = match moment {
        Moment::Hook { event, weight, .. } => (Some(event), weight),
        Moment::Apply { .. } => (None, 0),
    };
    let hook_first = "(helm.sh/hook: pre-install,pre-upgrade), which Helm creates before any resource";
    match gap {
        Gap::LaterWeight { .. } | Gap::LaterInOrder { .. } => format!(
            "give {target} a helm.sh/hook-weight below this hook's {weight}, so that Helm creates it first"
        ),
        Gap::ResourceAfterPreInstall => format!(
            "make {target} a pre-install,pre-upgrade hook with a helm.sh/hook-weight below this hook's {weight} \
             (helm.sh/hook: pre-install,pre-upgrade), or make this hook a post-install,post-upgrade hook"
        ),
        // A chart's subcharts are applied before it: only moving helps.
        Gap::LaterBatch { chart, own_chart, .. } if own_chart.starts_with(&format!("{chart}/")) => {
            format!("move {target} into {own_chart}, whose resources come before {chart}'s")
        }
        Gap::LaterBatch { chart, own_chart, .. } if chart != own_chart => format!(
            "declare that {own_chart} waits for {chart} in helm.sh/subchart-depends-on (the top chart's \
             Chart.yaml annotations), or move {target} into {own_chart}"
        ),
        Gap::LaterBatch { .. } => match group {
            Some(g) => format!(
                "put {target} in helm.sh/resource-group {g:?}, or in a group that {g:?} names in \
                 helm.sh/depends-on-resource-groups"
            ),
            None => format!("put {target} in an earlier helm.sh/resource-group"),
        },
        Gap::HookAfterResources { .. } | Gap::HookNotCreated { .. } => match event {
            None => format!("make {target} a pre-install,pre-upgrade hook {hook_first}, or remove its helm.sh/hook so that it is a resource"),
            Some(e) => format!(
                "add {e} to the helm.sh/hook of {target}, with a helm.sh/hook-weight below this hook's {weight}"
            ),
        },
        Gap::DeletedOnSuccess { .. } => format!(
            "remove hook-succeeded from the helm.sh/hook-delete-policy of {target} (before-hook-creation, Helm's \
             default, keeps it until the hook runs again)"
        ),
        Gap::DeletedByUninstall => format!(
            "annotate {target} helm.sh/resource-policy: keep, or give this hook what it needs as post-delete \
             hooks of a lower helm.sh/hook-weight, or make it a pre-delete hook"
        ),
    }
}
