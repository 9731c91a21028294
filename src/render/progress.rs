//! The progress lines `run`, `deploy`, `rollback` and `uninstall` print as
//! they work: the text sink of the drivers' events
//! ([`crate::exec::progress`], [`crate::deploy::progress`]). Each timed line
//! starts with its time on the command's clock (`[   2.1s]`), the verb
//! padded so that the references line up.

use std::io::Write;

use crate::base::text::{count, wrap};
use crate::base::time::stamp;
use crate::deploy::progress::{DeployEvent, Keep, Progress};
use crate::exec::executor::{LogPurpose, Phase};
use crate::exec::progress::{Elapsed, HookEvent, HookProgress, ResourceEvent};
use crate::plan::batch::{describe, Batch};

/// Progress as text lines, written to `out` as each event comes.
pub struct Text<'w> {
    out: &'w mut dyn Write,
}

impl<'w> Text<'w> {
    pub fn new(out: &'w mut dyn Write) -> Self {
        Text { out }
    }

    fn write(&mut self, text: &str) {
        // Progress is best effort: a closed pipe must not stop the operation.
        let _ = self.out.write_all(text.as_bytes());
    }
}

impl HookProgress for Text<'_> {
    fn hook(&mut self, e: &HookEvent<'_>) {
        self.write(&hook_line(e));
    }
}

impl Progress for Text<'_> {
    fn event(&mut self, e: &DeployEvent<'_>) {
        self.write(&deploy_lines(e));
    }
}

fn at(t: Elapsed) -> String {
    stamp(0, t.0)
}

/// A hook event's line (or block, for a hook's output).
pub fn hook_line(e: &HookEvent<'_>) -> String {
    match *e {
        HookEvent::Started { hook, at: t } => format!("{} started   {hook}\n", at(t)),
        HookEvent::Finished { hook, at: t, phase, message } => {
            let verb = if phase == Phase::Succeeded { "succeeded" } else { "failed   " };
            let detail = if message.is_empty() { String::new() } else { format!(": {message}") };
            format!("{} {verb} {hook}{detail}\n", at(t))
        }
        HookEvent::FailFast { hook, ignored: false } => format!("Fail-fast job failed: {}\n", hook.name),
        HookEvent::FailFast { hook, ignored: true } => {
            format!("Fail-fast job failed: {} (ignored: --ignore-fail-fast)\n", hook.name)
        }
        // `helm test --logs`, byte for byte.
        HookEvent::Output { purpose: LogPurpose::TestLogs, logs, .. } => {
            logs.iter().map(|l| format!("POD LOGS: {} ({})\n{}\n", l.pod, l.container, l.text)).collect()
        }
        HookEvent::Output { hook, logs, .. } => crate::exec::run::output_block(&hook.kind, &hook.name, logs),
        HookEvent::Waiting { hook, at: t, why } => format!("{} waiting   {hook}: {why}\n", at(t)),
        // Each line prefixed with its hook, pod and container, as `kubectl logs
        // --prefix` does (`[Pod/smoke/main]`, `[Job/migrate migrate-x7k2q/main]`).
        HookEvent::LogLines { hook, log } => {
            let prefix = if hook.kind == "Pod" && hook.name == log.pod {
                format!("[{hook}/{}]", log.container)
            } else {
                format!("[{hook} {}/{}]", log.pod, log.container)
            };
            log.text.lines().map(|line| format!("{prefix} {line}\n")).collect()
        }
    }
}

fn batch_name(batches: &[Batch], b: usize) -> String {
    format!("batch {}/{} ({})", b + 1, batches.len(), describe(batches, b))
}

/// A rollout event's line.
pub fn resource_line(e: &ResourceEvent<'_>) -> String {
    match *e {
        ResourceEvent::BatchStarted { batch, batches, at: t } => format!("{} {}\n", at(t), batch_name(batches, batch)),
        ResourceEvent::Applied { resource, at: t } => format!("{} applied   {resource}\n", at(t)),
        ResourceEvent::Ready { resource, at: t } => format!("{} ready     {resource}\n", at(t)),
        ResourceEvent::BatchReady { batch, batches, at: t } => {
            format!("{} {} ready\n", at(t), batch_name(batches, batch))
        }
        ResourceEvent::Failed { resource, at: t, message } => format!("{} failed    {resource}: {message}\n", at(t)),
        ResourceEvent::Waiting { resources, at: t } => {
            let waiting: Vec<String> = resources
                .iter()
                .map(|(r, why)| if why.is_empty() { r.to_string() } else { format!("{r} ({why})") })
                .collect();
            format!("{} waiting   {}\n", at(t), waiting.join(", "))
        }
    }
}

fn joined<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// A deploy event's lines.
pub fn deploy_lines(e: &DeployEvent<'_>) -> String {
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
        DeployEvent::Hook(h) => hook_line(&h),
        DeployEvent::Resource(r) => resource_line(&r),
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
            format!("{} kept      {resource} ({why})\n", at(t))
        }
        DeployEvent::Deleting { resources, at: t } => format!("{} deleting  {}\n", at(t), joined(resources)),
        DeployEvent::Deleted { resources, at: t } => format!("{} deleted   {}\n", at(t), joined(resources)),
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
        let mut sink = Text::new(&mut out);
        for e in events {
            sink.event(e);
        }
        String::from_utf8(out).unwrap()
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
}
