//! `--dry-run -o text` of `deploy`, `rollback` and `uninstall`: batch by
//! batch, what would be done to each resource, and the hooks that would run.

use crate::deploy::preview::{HookRows, Preview, PreviewAction, PreviewRow, UninstallPreview};
use crate::render::object_names::local_name;

fn word(action: PreviewAction) -> &'static str {
    match action {
        PreviewAction::Create => "create",
        PreviewAction::Update => "update",
        PreviewAction::Unchanged => "unchanged",
        PreviewAction::Delete => "delete",
        PreviewAction::Fail => "would fail",
        PreviewAction::Keep => "keep",
    }
}

/// The preview as text.
pub(in crate::render) fn preview(p: &Preview) -> String {
    let mut out = format!(
        "Plan: release {:?} in namespace {:?}: {} as revision {} (dry run: nothing applied or stored)\n",
        p.release, p.namespace, p.operation, p.revision
    );
    let row_lines = |out: &mut String, rows: &[PreviewRow]| {
        for r in rows {
            let mark = match r.action {
                PreviewAction::Create => '+',
                PreviewAction::Update => '~',
                PreviewAction::Unchanged => '=',
                PreviewAction::Delete => '-',
                PreviewAction::Fail => '!',
                PreviewAction::Keep => '=',
            };
            out.push_str(&format!("  {mark} {:<10} {}", word(r.action), local_name(&r.reference, Some(&p.namespace))));
            if !r.message.is_empty() {
                out.push_str(&format!(" ({})", r.message));
            }
            out.push('\n');
            for c in &r.changes {
                let from = c.from.as_deref().unwrap_or("(absent)");
                let to = c.to.as_deref().unwrap_or("(removed)");
                out.push_str(&format!("        {}: {from} -> {to}\n", c.path));
            }
        }
    };
    if p.create_namespace {
        out.push_str(&format!(
            "  + {:<10} Namespace/{} (--create-namespace)\n",
            word(PreviewAction::Create),
            p.namespace
        ));
    }
    if !p.crds.is_empty() {
        out.push_str("crds/ (first install)\n");
        row_lines(&mut out, &p.crds);
    }
    let hooks = |h: &HookRows| match h.hooks.len() {
        0 => format!("{}: no hooks\n", h.event),
        n => {
            let names: Vec<String> = h.hooks.iter().map(|r| local_name(r, Some(&p.namespace))).collect();
            format!("{}: {} ({})\n", h.event, crate::base::text::count(n, "hook"), names.join(", "))
        }
    };
    out.push_str(&hooks(&p.hooks_before));
    for b in &p.batches {
        out.push_str(&format!("batch {}/{} ({})\n", b.batch, p.batches.len(), b.description));
        row_lines(&mut out, &b.resources);
    }
    if !p.deleted.is_empty() {
        out.push_str("removed from the release\n");
        row_lines(&mut out, &p.deleted);
    }
    out.push_str(&hooks(&p.hooks_after));
    let count = |a: PreviewAction| p.rows().filter(|r| r.action == a).count();
    out.push_str(&format!(
        "{} to create, {} to update, {} unchanged, {} to delete{}\n",
        count(PreviewAction::Create),
        count(PreviewAction::Update),
        count(PreviewAction::Unchanged),
        count(PreviewAction::Delete),
        match count(PreviewAction::Fail) {
            0 => String::new(),
            n => format!(", {n} the API server refuses: the deploy would fail"),
        }
    ));
    out
}

/// The uninstall preview as text.
pub(in crate::render) fn uninstall_preview(p: &UninstallPreview) -> String {
    let mut out = format!(
        "Plan: uninstall release {:?} in namespace {:?}, revision {} (dry run: nothing deleted, no hook run)\n",
        p.release, p.namespace, p.revision
    );
    let hooks = |h: &HookRows| match h.hooks.len() {
        0 => format!("{}: no hooks\n", h.event),
        n => {
            let names: Vec<String> = h.hooks.iter().map(|r| local_name(r, Some(&p.namespace))).collect();
            format!("{}: {} ({})\n", h.event, crate::base::text::count(n, "hook"), names.join(", "))
        }
    };
    out.push_str(&hooks(&p.hooks_before));
    let total = p.batches.iter().map(|b| b.batch).max().unwrap_or(0);
    for b in &p.batches {
        out.push_str(&format!("batch {}/{total} ({})\n", b.batch, b.description));
        for r in &b.resources {
            let mark = if r.action == PreviewAction::Keep { '=' } else { '-' };
            out.push_str(&format!("  {mark} {:<10} {}", word(r.action), local_name(&r.reference, Some(&p.namespace))));
            if !r.message.is_empty() {
                out.push_str(&format!(" ({})", r.message));
            }
            out.push('\n');
        }
    }
    out.push_str(&hooks(&p.hooks_after));
    let rows = || p.batches.iter().flat_map(|b| b.resources.iter());
    let (delete, keep) = (
        rows().filter(|r| r.action == PreviewAction::Delete).count(),
        rows().filter(|r| r.action == PreviewAction::Keep).count(),
    );
    let history = if p.keep_history {
        format!("revision {} kept, marked uninstalled (--keep-history)", p.revision)
    } else {
        format!("{} deleted from Helm's storage", crate::base::text::count(p.revisions_deleted.len(), "revision"))
    };
    out.push_str(&format!("{delete} to delete, {keep} kept; {history}\n"));
    out
}
