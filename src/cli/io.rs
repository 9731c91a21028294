//! The CLI's streams, and the input `plan`, `lint` and `deploy` read:
//! stdin within its bound, or an installed release.

use std::io::{Read, Write};

use super::connect::connect;
use crate::action::plan::{self, PlanInput};
use crate::action::Stop;
use crate::model::input;

/// Streams the CLI reads and writes.
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    /// Whether stdin is a terminal: `plan` and `lint` then say what to pipe
    /// instead of waiting for input nobody will type.
    pub stdin_terminal: bool,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

/// The input of `plan` and `lint`: the installed release named, or stdin
/// unless it is a terminal nobody will type a chart into.
pub(super) fn read_input(io: &mut Io, source: Option<&str>, command: &str) -> Result<PlanInput, Stop> {
    if let Some(name) = source {
        let mut env = connect(None, None)?;
        return Ok(plan::read_stored(&mut env, name)?);
    }
    if io.stdin_terminal {
        return Err(Stop::invalid(format!(
            "helm hooks {command} reads the chart from stdin, and stdin is a terminal: pipe it in\n  \
             helm template NAME CHART | helm hooks {command} -\n  \
             helm install NAME CHART --dry-run=client -o json | helm hooks {command} -\n\
             or name an installed release: helm hooks {command} RELEASE"
        )));
    }
    Ok(PlanInput(read_stdin(io)?))
}

/// Why the input could not be read.
#[derive(Debug, thiserror::Error)]
pub(super) enum ReadError {
    #[error("cannot read stdin: {0}")]
    Io(#[source] std::io::Error),
    #[error(transparent)]
    Input(#[from] input::InputError),
}

impl From<ReadError> for Stop {
    fn from(e: ReadError) -> Stop {
        match e {
            ReadError::Io(_) => Stop::invalid(e.to_string()),
            ReadError::Input(e) => Stop::Input(e),
        }
    }
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
