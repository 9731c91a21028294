//! The CLI's streams, how it says what went wrong (as Helm does), and the
//! input `plan`, `lint` and `deploy` read: stdin within its bound, or an
//! installed release.

use std::io::{Read, Write};

use crate::action::connect::{self, Early};
use crate::action::plan;
use crate::action::Exit;
use crate::model::input;
use crate::render::{Format, Shown};
use crate::seam::KubeEnv;

/// Streams the CLI reads and writes.
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    /// Whether stdin is a terminal: `plan` and `lint` then say what to pipe
    /// instead of waiting for input nobody will type.
    pub stdin_terminal: bool,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

pub(super) fn usage_error(io: &mut Io, command: &str, e: &dyn std::fmt::Display) -> Exit {
    let _ = writeln!(io.stderr, "Error: {e}\nRun 'helm hooks {command} --help' for usage.");
    Exit::Invalid
}

/// Says what went wrong as Helm does, and gives the exit code to return.
pub(super) fn fail(io: &mut Io, e: &dyn std::fmt::Display, code: Exit) -> Exit {
    let _ = writeln!(io.stderr, "Error: {e}");
    code
}

/// Writes what a command did to stdout in the format asked; `Err` is the
/// exit code once a format the outcome does not offer is refused.
pub(super) fn show(io: &mut Io, shown: &impl Shown, format: Format) -> Result<(), Exit> {
    let text = shown.render(format).map_err(|e| fail(io, &e, Exit::Invalid))?;
    let _ = io.stdout.write_all(text.as_bytes());
    Ok(())
}

/// The problems a command found, on stderr.
pub(super) fn problems(io: &mut Io, diags: &crate::model::diagnostic::Diagnostics) {
    let _ = io.stderr.write_all(crate::render::problems(diags).as_bytes());
}

/// The environment to act in, or the exit code once the reason is said.
pub(super) fn connect(io: &mut Io, early: Early, namespace: Option<&str>) -> Result<KubeEnv, Exit> {
    connect::connect(early, namespace).map_err(|e| fail(io, &e, e.exit()))
}

/// The input of `plan` and `lint`: the installed release named, or stdin
/// unless it is a terminal nobody will type a chart into. What failed is
/// said on stderr.
pub(super) fn read_input(source: Option<&str>, io: &mut Io, command: &str) -> Result<Vec<u8>, Exit> {
    let read = if let Some(name) = source {
        read_stored(io, name)
    } else if io.stdin_terminal {
        let _ = writeln!(
            io.stderr,
            "Error: helm hooks {command} reads the chart from stdin, and stdin is a terminal: pipe it in\n  \
             helm template NAME CHART | helm hooks {command} -\n  \
             helm install NAME CHART --dry-run=client -o json | helm hooks {command} -\n\
             or name an installed release: helm hooks {command} RELEASE"
        );
        return Err(Exit::Invalid);
    } else {
        read_stdin(io).map_err(|e| (Exit::Invalid, e.to_string()))
    };
    read.map_err(|(code, e)| {
        // Empty: said already.
        if !e.is_empty() {
            let _ = writeln!(io.stderr, "Error: {e}");
        }
        code
    })
}

/// Why the input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read stdin: {0}")]
    Io(#[source] std::io::Error),
    #[error(transparent)]
    Input(#[from] input::InputError),
}

/// Stdin whole, unless it is longer than the input bound
/// ([`input::max_input_bytes`]): then an error once one byte past the bound
/// is read, before any of it is parsed.
pub(super) fn read_stdin(io: &mut Io) -> Result<Vec<u8>, ReadError> {
    let limit = input::max_input_bytes(std::env::var(input::MAX_INPUT_ENV).ok().as_deref())?;
    let bytes = read_bounded(io.stdin, limit)?;
    reserve_for(bytes.len());
    Ok(bytes)
}

/// Grows the Wasm memory at once to about what parsing `input_len` bytes
/// of release will take beyond the input itself. Helm's wazero copies the
/// whole memory into a new Go slice each time it grows, and the allocator
/// grows it a little at a time: 100 MB of input made Helm's process
/// 1.31 GB, and 0.74 GB with this, for 318 MiB of Wasm memory instead of
/// 315 (docs/benchmarks.md). Freed at once, the block stays the
/// allocator's to hand out.
fn reserve_for(input_len: usize) {
    if cfg!(target_arch = "wasm32") {
        // black_box: an allocation nothing reads is otherwise left out.
        drop(std::hint::black_box(Vec::<u8>::with_capacity(input_len / 4 * 5)));
    }
}

pub(super) fn read_bounded(from: &mut dyn Read, limit: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    Read::take(from, limit as u64 + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() > limit {
        return Err(input::InputError::TooLarge { limit_mib: limit.div_ceil(1 << 20) }.into());
    }
    Ok(bytes)
}

/// An installed release's latest revision, as JSON: what `plan RELEASE`
/// and `lint RELEASE` plan.
fn read_stored(io: &mut Io, name: &str) -> Result<Vec<u8>, (Exit, String)> {
    let mut env = connect(io, Early::default(), None).map_err(|code| (code, String::new()))?;
    plan::read_stored(&mut env, name).map_err(|e| (Exit::of_storage(&e), e.to_string()))
}
