//! Building the plan of each event asked for (docs/design.md §4): the hooks
//! or resources sorted in Helm's order, their edges, then the lockstep run
//! that gives waves and the critical path — or the cycle that blocks it.

use crate::base::hash::{word_map, WordMap};

use petgraph::graph::DiGraph;

use super::batch::Batch;
use crate::model::diagnostic::Diagnostics;
use crate::model::event::Event;
use crate::model::input::Release;
use crate::model::kind_order::install_rank;
use crate::model::reference::ObjectRef;

use super::barriers::{kind_barriers, level_barriers, serial_barriers};
use super::event_plan::*;
use super::layout;
use super::references::depends_on_edges;
use super::simulate::{report_cycle, simulate};
use super::spec::{matches_ref, Spec};

/// Builds the plan for the given targets (all that have anything when
/// `targets` is empty). Problems are pushed to `diags`; with errors, the
/// entries concerned may be incomplete and must not be executed.
pub fn build(release: &Release, targets: &[Target], options: PlanOptions, diags: &mut Diagnostics) -> Plan {
    let mut wanted: Vec<Target> = targets.to_vec();
    if wanted.is_empty() {
        wanted.extend(
            Event::ALL.into_iter().filter(|e| release.hooks.iter().any(|h| h.events.contains(e))).map(Target::Hooks),
        );
        if !release.resources.is_empty() {
            wanted.push(Target::Install);
        } else if release.chart.known {
            // A chart whose resources all stayed unrendered still declares
            // its subchart order, and HIP-0025 checks it all the same.
            layout::plan(&release.chart, &release.resources, diags);
        }
    }
    let n = options.parallel.max(1);
    // Built on the first reference that names no item: most plans have none,
    // and `estimate::hint` builds a plan several times over.
    let index = std::cell::OnceCell::new();
    let events = wanted
        .into_iter()
        .map(|target| match target {
            Target::Hooks(event) => plan_hooks(release, &index, event, n, options.parallel_all, diags),
            // Helm applies a whole batch at once; only an explicit limit caps it.
            Target::Install => {
                plan_resources(release, &index, options.parallel_resources.unwrap_or(usize::MAX).max(1), diags)
            }
        })
        .collect();
    Plan { options, events }
}

/// The release's hooks and resources by kind and name, built at most once: a
/// reference that names no item of a plan is explained by what it does name,
/// and a scan of every object for each such reference made 10,000 dangling
/// references take 45 s.
type LazyIndex<'a> = std::cell::OnceCell<Index<'a>>;

struct Index<'a> {
    /// Positions in the release's hooks and resources: a reference is
    /// made only for the few a lookup finds, not for every object.
    hooks: WordMap<(&'a str, &'a str), Vec<usize>>,
    resources: WordMap<(&'a str, &'a str), Vec<usize>>,
}

impl<'a> Index<'a> {
    fn new(release: &'a Release) -> Self {
        let mut hooks: WordMap<_, Vec<_>> = word_map(release.hooks.len());
        for (i, h) in release.hooks.iter().enumerate() {
            hooks.entry((h.head.kind.as_str(), h.head.name.as_str())).or_default().push(i);
        }
        let mut resources: WordMap<_, Vec<_>> = word_map(release.resources.len());
        for (i, r) in release.resources.iter().enumerate() {
            resources.entry((r.head.kind.as_str(), r.head.name.as_str())).or_default().push(i);
        }
        Index { hooks, resources }
    }

    /// The first hook, in release order, that `r` names.
    fn hook(&self, r: &ObjectRef, release: &Release) -> Option<usize> {
        let named = self.hooks.get(&(r.kind.as_str(), r.name.as_str()))?;
        named.iter().copied().find(|&i| matches_ref(r, &release.hooks[i].reference(), release))
    }

    fn is_resource(&self, r: &ObjectRef, release: &Release) -> bool {
        let named = self.resources.get(&(r.kind.as_str(), r.name.as_str()));
        named.into_iter().flatten().any(|&i| matches_ref(r, &release.resources[i].reference(), release))
    }
}

fn plan_hooks<'a>(
    release: &'a Release,
    index: &LazyIndex<'a>,
    event: Event,
    n: usize,
    parallel_all: bool,
    diags: &mut Diagnostics,
) -> EventPlan {
    let mut specs: Vec<(usize, &crate::model::hook::Hook)> =
        release.hooks.iter().enumerate().filter(|(_, h)| h.events.contains(&event)).collect();
    crate::base::order::by_cached_key(&mut specs, |&(_, h)| h.helm_order_key());
    let specs: Vec<Spec> = specs
        .into_iter()
        .map(|(index, h)| Spec {
            index,
            reference: h.reference(),
            level: h.weight,
            parallel: h.parallel.unwrap_or(parallel_all),
            depends_on: &h.depends_on,
            source: &h.source,
            document: h.document,
            head: &h.head,
        })
        .collect();
    let others = |r: &ObjectRef| -> Option<String> {
        let index = index.get_or_init(|| Index::new(release));
        if let Some(h) = index.hook(r, release).map(|i| &release.hooks[i]) {
            let events: Vec<&str> = h.events.iter().map(|e| e.as_str()).collect();
            return Some(format!("it is a hook of {} only", events.join(", ")));
        }
        index
            .is_resource(r, release)
            .then(|| "it is a resource, not a hook; hooks can depend only on hooks of the same event".to_string())
    };
    build_graph(Target::Hooks(event), specs, n, release, &others, diags, Vec::new())
}

fn plan_resources<'a>(release: &'a Release, index: &LazyIndex<'a>, n: usize, diags: &mut Diagnostics) -> EventPlan {
    let layout = layout::plan(&release.chart, &release.resources, diags);
    let mut specs = Vec::new();
    for (level, batch) in layout.batches.iter().enumerate() {
        let mut members = batch.resources.clone();
        crate::base::order::by_cached_key(&mut members, |&i| install_rank(&release.resources[i].head.kind));
        for i in members {
            let r = &release.resources[i];
            specs.push(Spec {
                index: i,
                reference: r.reference(),
                level: level as i64,
                parallel: true,
                depends_on: &r.depends_on,
                source: &r.source,
                document: r.document,
                head: &r.head,
            });
        }
    }
    let others = |r: &ObjectRef| -> Option<String> {
        let index = index.get_or_init(|| Index::new(release));
        index.hook(r, release).map(|_| "it is a hook; resources can depend only on resources".to_string())
    };
    let mut plan = build_graph(Target::Install, specs, n, release, &others, diags, layout.batches);
    plan.notes = layout.notes;
    plan
}

fn build_graph(
    target: Target,
    specs: Vec<Spec>,
    n: usize,
    release: &Release,
    others: &dyn Fn(&ObjectRef) -> Option<String>,
    diags: &mut Diagnostics,
    batches: Vec<Batch>,
) -> EventPlan {
    let mut graph = DiGraph::<Node, Reason>::new();
    let mut items: Vec<Item> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| Item {
            index: s.index,
            reference: s.reference.clone(),
            level: s.level,
            parallel: s.parallel,
            after: Vec::new(),
            after_level: None,
            after_kinds: Vec::new(),
            node: graph.add_node(Node::Item(ItemId(i))),
        })
        .collect();
    let levels = serial_barriers(&mut graph, &mut items);
    depends_on_edges(target, &specs, release, others, &mut graph, &mut items, diags, &batches);
    // Kind order, after depends-on, which it yields to.
    if target != Target::Install {
        for level in &levels {
            kind_barriers(&mut graph, &mut items, level.start, level.end);
        }
    }
    level_barriers(&mut graph, &items, &levels);

    let mut plan = EventPlan {
        target,
        items,
        graph,
        waves: Vec::new(),
        critical_path: Vec::new(),
        batches,
        notes: Vec::new(),
        hints: Vec::new(),
        estimate: None,
    };
    match simulate(&plan, n) {
        Ok((waves, critical_path)) => {
            plan.waves = waves;
            plan.critical_path = critical_path;
        }
        Err(cycle) => report_cycle(&plan, &specs, &cycle, diags),
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::input;

    fn errors(chart: &str) -> Vec<String> {
        let mut diags = Diagnostics::default();
        let (_, release) = input::parse(chart.as_bytes(), &mut diags).unwrap();
        build(&release, &[], PlanOptions::default(), &mut diags);
        diags.errors().map(|d| d.message.clone()).collect()
    }

    fn doc(kind: &str, name: &str, annotations: &str) -> String {
        format!("---\n# Source: c/templates/{name}.yaml\nkind: {kind}\nmetadata:\n  name: {name}\n  annotations:\n{annotations}")
    }

    /// Issue 32: a reference to nothing names what it was probably meant to.
    #[test]
    fn a_dangling_reference_names_the_item_a_typo_away() {
        let hook = |kind: &str, name: &str, depends: &str| {
            let depends =
                if depends.is_empty() { String::new() } else { format!("    helm.sh/depends-on: {depends}\n") };
            doc(kind, name, &format!("    helm.sh/hook: pre-install\n{depends}"))
        };
        let chart = [
            hook("Job", "a-preflight", ""),
            hook("Job", "b", "Job/a-preflgiht"),
            hook("Job", "c", "job/a-preflight"),
            hook("Job", "d", "Job/zzz"),
            hook("Job", "e", "Job/f"),
            hook("Job", "f-x", ""),
        ]
        .concat();
        assert_eq!(
            errors(&chart),
            [
                "Job/a-preflgiht is not a pre-install hook: no hook of this release has that kind and name; \
                 did you mean Job/a-preflight?",
                "job/a-preflight is not a pre-install hook: no hook of this release has that kind and name; \
                 did you mean Job/a-preflight?",
                "Job/zzz is not a pre-install hook: no hook of this release has that kind and name",
                // A short name gets one edit: "f" is not "f-x"'s typo.
                "Job/f is not a pre-install hook: no hook of this release has that kind and name",
            ]
        );
        // Resources: the same, among resources.
        let chart = [
            doc("ConfigMap", "settings", "    helm.sh/resource-group: a\n"),
            doc("Deployment", "web", "    helm.sh/depends-on: ConfigMap/setings\n"),
        ]
        .concat();
        assert_eq!(
            errors(&chart),
            ["ConfigMap/setings is not a resource of this release: no resource of this release has that kind and \
              name; did you mean ConfigMap/settings?"]
        );
    }

    /// A reference to the referring item itself is never what was meant.
    #[test]
    fn the_referring_item_is_not_suggested() {
        let chart = doc("Job", "migrate", "    helm.sh/hook: test\n    helm.sh/depends-on: Job/migrat\n");
        assert_eq!(errors(&chart), ["Job/migrat is not a test hook: no hook of this release has that kind and name"]);
    }
}
