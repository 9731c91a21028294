//! The progress lines `run`, `deploy`, `rollback` and `uninstall` print as
//! they work: the text sink of the drivers' events
//! ([`crate::exec::progress`], [`crate::deploy::progress`]). Each timed line
//! starts with its time on the command's clock (`[   2.1s]`), the verb
//! padded so that the references line up.
//!
//! Objects in the release's namespace are named `Kind/name`, the namespace
//! said once by the command's header; only an object of another namespace
//! carries its own (`Job/other/migrate`). The references of `-o json` and
//! `plan` stay as the manifest sets them (docs/commands.md).
//!
//! Every line a hook's container writes is printed once: a line streamed as
//! it came (`[Job/m m-x/main] …`) is not printed again in the blocks that
//! close the hook (`Job m output:`, `POD LOGS: …`), which keep their headers
//! and say how many lines were shown above.

use std::collections::BTreeMap;
use std::io::Write;

use super::object_names::Names;
use crate::base::text::{count, wrap};
use crate::base::time::stamp;
use crate::deploy::progress::{DeployEvent, Keep, Progress};
use crate::exec::executor::{ContainerLog, LogPurpose, Phase};
use crate::exec::progress::{Elapsed, HookEvent, HookProgress, ResourceEvent};
use crate::exec::runner::{output_block_after, shown_above};
use crate::model::reference::ObjectRef;
use crate::plan::batch::{describe, Batch};

/// Progress as text lines, written to `out` as each event comes.
pub struct ProgressLines<'w> {
    out: &'w mut dyn Write,
    names: Names,
    /// The lines already printed of each (hook, pod, container), in order.
    shown: BTreeMap<(String, String, String), Vec<String>>,
}

impl<'w> ProgressLines<'w> {
    pub fn new(out: &'w mut dyn Write) -> Self {
        ProgressLines { out, names: Names::default(), shown: BTreeMap::new() }
    }

    /// Objects of `namespace`, the release's, are named without it.
    pub(super) fn within(mut self, namespace: &str) -> Self {
        self.names = Names::within(namespace);
        self
    }

    fn write(&mut self, text: &str) {
        // Progress is best effort: a closed pipe must not stop the operation.
        let _ = self.out.write_all(text.as_bytes());
    }

    /// A hook event's text, keeping count of the container lines printed.
    fn hook_text(&mut self, e: &HookEvent<'_>) -> String {
        match *e {
            HookEvent::LogLines { hook, log } => {
                let printed = self.shown.entry(log_key(hook, log)).or_default();
                printed.extend(log.text.lines().map(str::to_string));
                hook_line(e, &self.names)
            }
            HookEvent::Output { hook, purpose, logs } => {
                let shown: Vec<usize> = logs
                    .iter()
                    .map(|log| {
                        let printed = self.shown.entry(log_key(hook, log)).or_default();
                        let before = printed.iter().zip(log.text.lines()).take_while(|(a, b)| a == b).count();
                        // What the block prints counts as shown for the next block.
                        *printed = log.text.lines().map(str::to_string).collect();
                        before
                    })
                    .collect();
                output_block(hook, purpose, logs, &shown)
            }
            _ => hook_line(e, &self.names),
        }
    }
}

fn log_key(hook: &ObjectRef, log: &ContainerLog) -> (String, String, String) {
    (hook.to_string(), log.pod.clone(), log.container.clone())
}

impl HookProgress for ProgressLines<'_> {
    fn hook(&mut self, e: &HookEvent<'_>) {
        let text = self.hook_text(e);
        self.write(&text);
    }
}

impl Progress for ProgressLines<'_> {
    fn event(&mut self, e: &DeployEvent<'_>) {
        let text = match e {
            DeployEvent::Hook(h) => self.hook_text(h),
            _ => deploy_lines(e, &self.names),
        };
        self.write(&text);
    }
}

fn at(t: Elapsed) -> String {
    stamp(0, t.0)
}

/// A hook's logs as one block: `helm test --logs`' `POD LOGS: <pod>
/// (<container>)` blocks, or the proposal's `Job <name> output:`; the first
/// `shown[i]` lines of `logs[i]` were printed already and are counted
/// instead, so the block keeps its header and says where its lines are.
fn output_block(hook: &ObjectRef, purpose: LogPurpose, logs: &[ContainerLog], shown: &[usize]) -> String {
    match purpose {
        // `helm test --logs`, byte for byte, but for lines shown above.
        LogPurpose::TestLogs => logs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let text = match shown.get(i).copied().unwrap_or(0) {
                    0 => l.text.clone(),
                    n => std::iter::once(shown_above(n))
                        .chain(l.text.lines().skip(n).map(str::to_string))
                        .collect::<Vec<_>>()
                        .join("\n"),
                };
                format!("POD LOGS: {} ({})\n{text}\n", l.pod, l.container)
            })
            .collect(),
        LogPurpose::ShowOutput | LogPurpose::OutputLogPolicy => output_block_after(&hook.kind, &hook.name, logs, shown),
    }
}

/// A hook event's line (the blocks of its output are [`ProgressLines`]'s, which
/// knows what was shown already).
fn hook_line(e: &HookEvent<'_>, names: &Names) -> String {
    match *e {
        HookEvent::Started { hook, at: t } => format!("{} started   {}\n", at(t), names.of(hook)),
        HookEvent::Finished { hook, at: t, phase, message } => {
            let verb = if phase == Phase::Succeeded { "succeeded" } else { "failed   " };
            let detail = if message.is_empty() { String::new() } else { format!(": {message}") };
            format!("{} {verb} {}{detail}\n", at(t), names.of(hook))
        }
        HookEvent::FailFast { hook, ignored: false } => format!("Fail-fast job failed: {}\n", hook.name),
        HookEvent::FailFast { hook, ignored: true } => {
            format!("Fail-fast job failed: {} (ignored: --ignore-fail-fast)\n", hook.name)
        }
        HookEvent::Output { hook, purpose, logs } => output_block(hook, purpose, logs, &[]),
        HookEvent::Waiting { hook, at: t, why } => format!("{} waiting   {}: {why}\n", at(t), names.of(hook)),
        // Each line prefixed with its hook, pod and container, as `kubectl logs
        // --prefix` does (`[Pod/smoke/main]`, `[Job/migrate migrate-x7k2q/main]`).
        HookEvent::LogLines { hook, log } => {
            let hook_name = names.of(hook);
            let prefix = if hook.kind == "Pod" && hook.name == log.pod {
                format!("[{hook_name}/{}]", log.container)
            } else {
                format!("[{hook_name} {}/{}]", log.pod, log.container)
            };
            log.text.lines().map(|line| format!("{prefix} {line}\n")).collect()
        }
    }
}

fn batch_name(batches: &[Batch], b: usize) -> String {
    format!("batch {}/{} ({})", b + 1, batches.len(), describe(batches, b))
}

/// A rollout event's line.
fn resource_line(e: &ResourceEvent<'_>, names: &Names) -> String {
    match *e {
        ResourceEvent::BatchStarted { batch, batches, at: t } => format!("{} {}\n", at(t), batch_name(batches, batch)),
        ResourceEvent::Applied { resource, at: t } => format!("{} applied   {}\n", at(t), names.of(resource)),
        ResourceEvent::Ready { resource, at: t } => format!("{} ready     {}\n", at(t), names.of(resource)),
        ResourceEvent::BatchReady { batch, batches, at: t } => {
            format!("{} {} ready\n", at(t), batch_name(batches, batch))
        }
        ResourceEvent::Failed { resource, at: t, message } => {
            format!("{} failed    {}: {message}\n", at(t), names.of(resource))
        }
        ResourceEvent::Waiting { resources, at: t } => {
            let waiting: Vec<String> = resources
                .iter()
                .map(|(r, why)| if why.is_empty() { names.of(r) } else { format!("{} ({why})", names.of(r)) })
                .collect();
            format!("{} waiting   {}\n", at(t), waiting.join(", "))
        }
    }
}

/// A deploy event's lines.
fn deploy_lines(e: &DeployEvent<'_>, names: &Names) -> String {
    match *e {
        DeployEvent::Started { release, namespace, operation, revision, resources, parallel_resources } => {
            let mut text = format!(
                "Release {release:?} in namespace {namespace:?}: {}, revision {revision}, {} in {}, {}\n",
                operation.pending_status().as_str().trim_start_matches("pending-"),
                count(resources.items.len(), "resource"),
                count(resources.batches.len(), "batch"),
                match parallel_resources {
                    None => "each batch applied at once".to_string(),
                    Some(n) => format!("at most {n} resources waiting at once"),
                }
            );
            for note in &resources.notes {
                text.push_str(&wrap(&format!("note: {note}"), "  ", "        "));
            }
            text
        }
        DeployEvent::RunningHooks { event, count } => {
            format!("Running {count} {event} hook{}\n", if count == 1 { "" } else { "s" })
        }
        DeployEvent::Hook(h) => hook_line(&h, names),
        DeployEvent::Resource(r) => resource_line(&r, names),
        DeployEvent::CrdApplied { name, origin } => format!("CRD {name} applied from {origin}\n"),
        DeployEvent::ExternalFound { dependency, at: t } => format!("{} found     {dependency} (external)\n", at(t)),
        DeployEvent::ExternalWaiting { dependencies, at: t } => {
            let waited: Vec<String> = dependencies.iter().map(|(e, why)| format!("{e} ({why})")).collect();
            format!("{} waiting   {} (external)\n", at(t), waited.join(", "))
        }
        DeployEvent::Kept { resource, why, at: t } => {
            let why = match why {
                Keep::Policy => format!("{}: keep", crate::model::annotation::RESOURCE_POLICY),
                Keep::NotOwned => "not owned by this release".to_string(),
                Keep::Unverifiable(e) => format!("its ownership could not be verified: {e}"),
            };
            format!("{} kept      {} ({why})\n", at(t), names.of(resource))
        }
        DeployEvent::Deleting { resources, at: t } => format!("{} deleting  {}\n", at(t), names.all(resources)),
        DeployEvent::Deleted { resources, at: t } => format!("{} deleted   {}\n", at(t), names.all(resources)),
        DeployEvent::Failed { report, error } => {
            let mut text = super::text::deploy::resources_table(report);
            text.push_str(&format!(
                "Release {:?} revision {} is {}: {error}\n",
                report.release, report.revision, report.status
            ));
            text
        }
        DeployEvent::Uninstalling { release } => {
            format!("Uninstalling release {release:?} (--rollback-on-failure)\n")
        }
        DeployEvent::RollingBack { release, to } => {
            format!("Rolling back release {release:?} to revision {to} (--rollback-on-failure)\n")
        }
        DeployEvent::RunStarted { release, revision, event, count, parallel } => {
            super::text::run::run_header(count, event, release, revision, parallel)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deploy::crd::Origin;
    use crate::exec::executor::ContainerLog;
    use crate::kube::KubeError;
    use crate::model::diagnostic::Diagnostics;
    use crate::model::event::Event;
    use crate::model::external::External;
    use crate::model::reference::ObjectRef;
    use crate::plan::Target;
    use crate::release::record::Operation;

    const CHART: &str = "---\n# Source: c/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";

    fn text(events: &[DeployEvent<'_>]) -> String {
        let mut out = Vec::new();
        let mut sink = ProgressLines::new(&mut out);
        for e in events {
            sink.event(e);
        }
        String::from_utf8(out).unwrap()
    }

    /// `run` opens its progress with the line `cli::run` once wrote itself.
    #[test]
    fn a_run_opens_with_its_header() {
        let start = |count, revision| DeployEvent::RunStarted {
            release: "app",
            revision,
            event: Event::Test,
            count,
            parallel: 2,
        };
        assert_eq!(text(&[start(3, Some(2))]), "Running 3 test hooks of release app, revision 2, --parallel 2\n");
        assert_eq!(text(&[start(1, None)]), "Running 1 test hook of release app, --parallel 2\n");
    }

    /// The lines the commands printed before progress was typed, byte for byte.
    #[test]
    fn the_lines_are_the_commands_lines() {
        let mut d = Diagnostics::default();
        let (_, release) = crate::model::input::parse(CHART.as_bytes(), &mut d).unwrap();
        let plan = crate::plan::build(&release, &[Target::Install], Default::default(), &mut d);
        let plan = &plan.events[0];
        let web = ObjectRef::new("Deployment", None, "web");
        let at = Elapsed(2_150);
        let external: External = "Secret/s".parse().unwrap();
        let gone = KubeError::Incomplete("name");
        let log = ContainerLog { pod: "m-x".into(), container: "main".into(), text: "one\ntwo".into() };
        let job = ObjectRef::new("Job", None, "m");
        let events = [
            DeployEvent::Started {
                release: "app",
                namespace: "ns",
                operation: Operation::Upgrade,
                revision: 3,
                resources: plan,
                parallel_resources: Some(2),
            },
            DeployEvent::RunningHooks { event: Event::PreUpgrade, count: 1 },
            DeployEvent::Hook(HookEvent::Started { hook: &job, at }),
            DeployEvent::Hook(HookEvent::LogLines { hook: &job, log: &log }),
            DeployEvent::Hook(HookEvent::Finished { hook: &job, at, phase: Phase::Failed, message: "boom" }),
            DeployEvent::CrdApplied { name: "xs.example.com", origin: &Origin::File("crds/x.yaml".into()) },
            DeployEvent::CrdApplied { name: "ys.example.com", origin: &Origin::Shown { document: 3 } },
            DeployEvent::ExternalWaiting { dependencies: &[(external.clone(), "not found yet".into())], at },
            DeployEvent::ExternalFound { dependency: &external, at },
            DeployEvent::Resource(ResourceEvent::BatchStarted { batch: 0, batches: &plan.batches, at }),
            DeployEvent::Resource(ResourceEvent::Waiting { resources: &[(&web, "0/1 replicas"), (&job, "")], at }),
            DeployEvent::Resource(ResourceEvent::Failed { resource: &web, at, message: "no" }),
            DeployEvent::Kept { resource: &web, why: Keep::Policy, at },
            DeployEvent::Kept { resource: &web, why: Keep::Unverifiable(&gone), at },
            DeployEvent::Deleting { resources: &[web.clone(), job.clone()], at },
            DeployEvent::RollingBack { release: "app", to: 2 },
        ];
        assert_eq!(
            text(&events),
            "Release \"app\" in namespace \"ns\": upgrade, revision 3, 1 resource in 1 batch, at most 2 resources \
             waiting at once\n  note: the chart declares no order (no resource groups, no subchart order): its \
             resources are\n        applied at once, sorted by kind, as Helm does\n\
             Running 1 pre-upgrade hook\n\
             [   2.1s] started   Job/m\n\
             [Job/m m-x/main] one\n[Job/m m-x/main] two\n\
             [   2.1s] failed    Job/m: boom\n\
             CRD xs.example.com applied from crds/x.yaml\n\
             CRD ys.example.com applied from helm show crds (document 3)\n\
             [   2.1s] waiting   Secret/s (not found yet) (external)\n\
             [   2.1s] found     Secret/s (external)\n\
             [   2.1s] batch 1/1 (all at once)\n\
             [   2.1s] waiting   Deployment/web (0/1 replicas), Job/m\n\
             [   2.1s] failed    Deployment/web: no\n\
             [   2.1s] kept      Deployment/web (helm.sh/resource-policy: keep)\n\
             [   2.1s] kept      Deployment/web (its ownership could not be verified: the object has no name)\n\
             [   2.1s] deleting  Deployment/web, Job/m\n\
             Rolling back release \"app\" to revision 2 (--rollback-on-failure)\n"
        );
    }
    /// Issue 41: with `--logs` and `helm.sh/show-output`, a line streamed as it came is
    /// not printed again by the blocks that close the hook, which keep their headers
    /// (the proposal's `Pod m-smoke output:`, `helm test --logs`' `POD LOGS:`) and say
    /// how many lines were shown above; a line the stream missed is printed once, in the
    /// first block.
    #[test]
    fn each_container_line_is_printed_once() {
        let hook = ObjectRef::new("Pod", None, "m-smoke");
        let log = |text: &str| ContainerLog { pod: "m-smoke".into(), container: "smoke".into(), text: text.into() };
        let (streamed, whole) = (log("smoke test ok\nstill ok"), [log("smoke test ok\nstill ok\nlast words")]);
        let mut out = Vec::new();
        let mut sink = ProgressLines::new(&mut out);
        sink.hook(&HookEvent::LogLines { hook: &hook, log: &streamed });
        sink.hook(&HookEvent::Output { hook: &hook, purpose: LogPurpose::ShowOutput, logs: &whole });
        sink.hook(&HookEvent::Output { hook: &hook, purpose: LogPurpose::TestLogs, logs: &whole });
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "[Pod/m-smoke/smoke] smoke test ok\n[Pod/m-smoke/smoke] still ok\n\
             Pod m-smoke output:\n  (2 lines shown above)\n  last words\n\
             POD LOGS: m-smoke (smoke)\n(3 lines shown above)\n"
        );
        for line in ["smoke test ok", "still ok", "last words"] {
            assert_eq!(text.matches(line).count(), 1, "{line:?} in\n{text}");
        }
        // Nothing streamed (a hook not followed): the blocks are Helm's and the proposal's, whole.
        let mut out = Vec::new();
        let mut sink = ProgressLines::new(&mut out);
        sink.hook(&HookEvent::Output { hook: &hook, purpose: LogPurpose::TestLogs, logs: &whole });
        assert_eq!(String::from_utf8(out).unwrap(), "POD LOGS: m-smoke (smoke)\nsmoke test ok\nstill ok\nlast words\n");
    }

    /// Issue 41: in the text, objects of the release's namespace are named without it,
    /// whether or not the manifest sets it; an object of another namespace keeps its own.
    #[test]
    fn objects_of_the_release_namespace_are_named_without_it() {
        let migrate = ObjectRef::new("Job", Some("demo"), "shop-migrate");
        let api = ObjectRef::new("Deployment", None, "shop-api");
        let elsewhere = ObjectRef::new("ConfigMap", Some("other"), "shared");
        let at = Elapsed(100);
        let mut out = Vec::new();
        let mut sink = ProgressLines::new(&mut out).within("demo");
        for e in [
            DeployEvent::Resource(ResourceEvent::Applied { resource: &migrate, at }),
            DeployEvent::Resource(ResourceEvent::Applied { resource: &api, at }),
            DeployEvent::Resource(ResourceEvent::Applied { resource: &elsewhere, at }),
            DeployEvent::Deleting { resources: &[migrate.clone(), elsewhere.clone()], at },
            DeployEvent::Hook(HookEvent::Started { hook: &migrate, at }),
        ] {
            sink.event(&e);
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[   0.1s] applied   Job/shop-migrate\n[   0.1s] applied   Deployment/shop-api\n\
             [   0.1s] applied   ConfigMap/other/shared\n\
             [   0.1s] deleting  Job/shop-migrate, ConfigMap/other/shared\n[   0.1s] started   Job/shop-migrate\n"
        );
    }
}
