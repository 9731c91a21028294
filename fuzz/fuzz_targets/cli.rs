//! The command line: arbitrary arguments and stdin through the same
//! function the plugin and the native binary call.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// Index into COMMANDS, or an arbitrary first argument.
    command: Result<u8, &'a str>,
    args: Vec<Result<u8, &'a str>>,
    stdin: &'a [u8],
}

/// `run` reaches the API server named by HELM_KUBEAPISERVER; without it (as
/// here, see the guard below) it stops at the configuration, after parsing.
const COMMANDS: &[&str] = &["plan", "lint", "run", "version", "help"];
const WORDS: &[&str] = &[
    "-",
    "--event",
    "--event=test",
    "install",
    "pre-install",
    "--all-events",
    "--parallel",
    "--parallel=3",
    "-1",
    "99999999999999999999",
    "--parallel-all",
    "-o",
    "--output=json",
    "text",
    "json",
    "dot",
    "mermaid",
    "junit",
    "-h",
    "--help",
    "--",
    "=",
    "--=x",
    "release",
];

fuzz_target!(|input: Input| {
    let word = |w: &Result<u8, &str>, list: &[&'static str]| -> String {
        match w {
            Ok(i) => list[usize::from(*i) % list.len()].to_string(),
            Err(s) => s.to_string(),
        }
    };
    let mut args = vec![word(&input.command, COMMANDS)];
    // Never talk to a real cluster from the fuzzer.
    if args[0] == "run" && std::env::var_os("HELM_KUBEAPISERVER").is_some() {
        return;
    }
    args.extend(input.args.iter().take(16).map(|a| word(a, WORDS)));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, _) = helm_hooks::cli::run_captured(&refs, input.stdin);
    let _ = code;
});
