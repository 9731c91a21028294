//! The native build of the CLI: the same code as plugin.wasm, for tests,
//! benchmarks and users who want exact exit codes outside Helm.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (stdin, stdout, stderr) = (std::io::stdin(), std::io::stdout(), std::io::stderr());
    let code = helm_hooks::cli::main(
        &args,
        &mut helm_hooks::cli::Io {
            stdin: &mut stdin.lock(),
            stdin_terminal: std::io::IsTerminal::is_terminal(&stdin),
            stdout: &mut stdout.lock(),
            stderr: &mut stderr.lock(),
        },
    );
    std::process::exit(code as i32);
}
