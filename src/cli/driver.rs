//! The one driver of every command: the world connected (the cluster, or
//! `plan`'s and `lint`'s input read), the request prepared, its warnings
//! said, performed with its progress as lines, its outcome shown in `-o`'s
//! format, and the exit code the outcome states — or, at any step, why it
//! stopped and that stop's exit code.

use super::io::Io;
use crate::action::plan::PlanInput;
use crate::action::{Action, Exit, Exits, Stop};
use crate::model::diagnostic::Diagnostics;
use crate::render::{self, Format, NotOffered, ProgressLines, Shown};
use crate::seam::{Cluster, KubeEnv};
use crate::trace::Span;

/// What the driver asks of a command's world besides the command itself:
/// the namespace its progress names objects within (the release's).
pub(super) trait World {
    fn namespace(&self) -> &str;
}

impl World for KubeEnv {
    fn namespace(&self) -> &str {
        self.about().namespace
    }
}

/// `plan` and `lint` tell no progress.
impl World for PlanInput {
    fn namespace(&self) -> &str {
        ""
    }
}

/// Runs `request` in the world `connect` makes (what is particular to a
/// command: which namespace, which input) and returns its exit code.
pub(super) fn drive<W, A>(
    request: A,
    output: Format,
    io: &mut Io,
    connect: impl FnOnce(&mut Io, &A) -> Result<W, Stop>,
) -> Exit
where
    W: World,
    A: Action<W>,
    A::Outcome: Shown,
{
    match act(request, output, io, connect) {
        Ok(code) => code,
        Err(stop) => stopped(io, &stop),
    }
}

/// The steps, any of which may stop. Out of line, as the helpers below:
/// plugin.wasm came out 1.6 kB smaller than with each copy inlined into
/// `cli::entry`.
#[inline(never)]
fn act<W, A>(
    request: A,
    output: Format,
    io: &mut Io,
    connect: impl FnOnce(&mut Io, &A) -> Result<W, Stop>,
) -> Result<Exit, Stop>
where
    W: World,
    A: Action<W>,
    A::Outcome: Shown,
{
    let mut world = connect(io, &request)?;
    let prepared = request.prepare(&mut world)?;
    problems(io, A::warnings(&prepared));
    let mut progress = progress(io, output, world.namespace());
    let outcome = request.perform(&mut world, prepared, &mut progress)?;
    // The process ends after the report: freeing a release of 20,000
    // objects piece by piece took 7 % of `plan`'s time through Helm
    // (docs/benchmarks.md), for memory the runtime drops whole.
    let outcome = std::mem::ManuallyDrop::new(outcome);
    show(io, &*outcome, output)?;
    Ok(outcome.exit())
}

// What follows is the same for every command, and kept out of line: each
// command's copy of the driver (it is generic) then holds only its own
// calls, which keeps plugin.wasm as small as the files per command did.

/// Where progress is said: stderr when stdout carries a machine format.
#[inline(never)]
fn progress<'a>(io: &'a mut Io, output: Format, namespace: &str) -> ProgressLines<'a> {
    let out = if output.progress_on_stderr() { &mut *io.stderr } else { &mut *io.stdout };
    render::progress_lines(out, namespace)
}

/// Writes an outcome to stdout in the format asked, one it offers.
pub(super) fn show(io: &mut Io, outcome: &impl Shown, format: Format) -> Result<(), Stop> {
    let span = report_span();
    write(io, outcome.render(format), span)
}

#[inline(never)]
fn report_span() -> Span {
    crate::trace::span(|| "report".into())
}

#[inline(never)]
fn write(io: &mut Io, rendered: Result<String, NotOffered>, span: Span) -> Result<(), Stop> {
    let text = rendered.map_err(|e| Stop::invalid(e.to_string()))?;
    let _ = io.stdout.write_all(text.as_bytes());
    drop(span);
    Ok(())
}

/// Why a command stopped, said as Helm says it — what it found first, then
/// `Error: …` — and its exit code.
#[inline(never)]
pub(super) fn stopped(io: &mut Io, stop: &Stop) -> Exit {
    if let Some(diags) = stop.diagnostics() {
        problems(io, &diags.acting());
    }
    if let Stop::Invalid { problems, .. } = stop {
        for p in problems {
            let _ = writeln!(io.stderr, "error: {p}");
        }
    }
    let _ = writeln!(io.stderr, "Error: {stop}");
    stop.exit()
}

/// The problems a command found, on stderr.
pub(super) fn problems(io: &mut Io, diags: &Diagnostics) {
    let _ = io.stderr.write_all(render::problems(diags).as_bytes());
}
