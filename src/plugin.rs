//! The entry point Helm 4's `extism/v1` runtime calls.
//!
//! Helm sends `{"extraArgs": [...]}` and wants JSON back. Stock Helm 4.2.4
//! cannot pass on an exit code: an error set through Extism always makes
//! `helm` exit 1, and a non-zero return without an error crashes it. So a
//! failure sets an error whose message names the exit code the native CLI
//! would use, and returns that code: a Helm with testbed/helm-patches exits
//! with it (docs/hip-host-functions.md), stock Helm still exits 1.

use extism_pdk::{plugin_fn, Error, FnResult, Json, WithReturnCode};
use serde::Deserialize;

use crate::cli::{self, Exit};

#[derive(Deserialize)]
struct Input {
    #[serde(default, rename = "extraArgs")]
    extra_args: Vec<String>,
}

#[plugin_fn]
pub fn helm_plugin_main(Json(input): Json<Input>) -> FnResult<Json<serde_json::Value>> {
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    let code = cli::main(
        &input.extra_args,
        &mut cli::Io {
            stdin: &mut stdin.lock(),
            stdin_terminal: std::io::IsTerminal::is_terminal(&std::io::stdin()),
            stdout: &mut stdout.lock(),
            stderr: &mut stderr.lock(),
        },
    );
    if code == Exit::Ok {
        return Ok(Json(serde_json::json!({})));
    }
    Err(WithReturnCode::new(Error::msg(format!("{} [exit code {}]", code.said(), code as i32)), code as i32))
}
