//! What a release publishes agrees with itself: one version (plugin.yaml is what Helm reads and
//! packages, Cargo.toml what `helm hooks version` prints), and completion.yaml names every
//! subcommand and long flag the CLI accepts.

use helm_hooks::cli::{self, spec, Exit, Io};
use helm_hooks::model::yaml;

fn run(args: &[&str]) -> (Exit, String, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
    let code = cli::main(
        &args,
        &mut Io { stdin: &mut stdin, stdin_terminal: false, stdout: &mut stdout, stderr: &mut stderr },
    );
    (code, String::from_utf8(stdout).unwrap(), String::from_utf8(stderr).unwrap())
}

fn repo_file(name: &str) -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_owned() + name).unwrap()
}

#[test]
fn plugin_yaml_and_cargo_toml_have_one_version() {
    let yaml = yaml::to_json(&repo_file("plugin.yaml")).unwrap();
    let plugin_version = yaml["version"].as_str().expect("plugin.yaml has a version");
    assert_eq!(
        plugin_version,
        env!("CARGO_PKG_VERSION"),
        "plugin.yaml and Cargo.toml must carry the same version (bump both)"
    );
    assert_eq!(yaml["name"].as_str(), Some("hooks"), "OCI installs need the repository to end in the name");
}

#[test]
fn version_prints_text_and_json() {
    let (code, out, _) = run(&["version"]);
    assert_eq!((code, out), (Exit::Ok, format!("helm-hooks {}\n", env!("CARGO_PKG_VERSION"))));
    let (code, out, _) = run(&["version", "-o", "json"]);
    assert_eq!(code, Exit::Ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v, serde_json::json!({"name": "hooks", "version": env!("CARGO_PKG_VERSION")}));
    let (code, _, err) = run(&["version", "-o", "yaml"]);
    assert_eq!(code, Exit::Invalid);
    assert!(err.contains("-o text|json"), "{err}");
}

/// completion.yaml lists every command and, in the table's order, every flag of each
/// (`output` and `o` first: Helm pairs the first short flag with the first long one).
#[test]
fn completion_yaml_is_the_flag_table() {
    let comp = yaml::to_json(&repo_file("completion.yaml")).unwrap();
    let commands = comp["commands"].as_array().unwrap();
    let names: Vec<&str> = commands.iter().map(|c| c["name"].as_str().unwrap()).collect();
    let table: Vec<&str> = spec::COMMANDS.iter().map(|c| c.name).collect();
    assert_eq!(names, table);
    for (c, yaml) in spec::COMMANDS.iter().zip(commands) {
        let listed: Vec<&str> = yaml["flags"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        let mut want = vec!["output", "o"];
        want.extend(c.flags.iter().map(|f| f.long).filter(|f| *f != "output"));
        assert_eq!(listed, want, "completion.yaml, command {}", c.name);
    }
}

/// The first code block under a heading of `doc`.
fn block_after(doc: &str, heading: &str) -> String {
    let at = doc.find(heading).unwrap_or_else(|| panic!("no {heading:?}"));
    let rest = &doc[at..];
    let open = rest.find("```").unwrap();
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

/// The README's, docs/commands.md's and docs/design.md's synopses are the table's, and
/// docs/commands.md, the reference, documents every flag of every command.
#[test]
fn readme_and_docs_show_the_flag_table() {
    let readme = repo_file("README.md");
    assert_eq!(block_after(&readme, "\n## Commands\n"), spec::synopsis(), "README's ## Commands block");
    let reference = repo_file("docs/commands.md");
    assert_eq!(block_after(&reference, "# Commands\n"), spec::synopsis(), "docs/commands.md's block");
    let design = repo_file("docs/design.md");
    assert_eq!(block_after(&design, "\n## 2. Commands"), spec::synopsis(), "docs/design.md §2's block");
    for c in spec::COMMANDS {
        for f in c.flags {
            let documented = reference.contains(&format!("`--{}", f.long))
                || f.short.is_some_and(|s| reference.contains(&format!("`-{s} ")));
            assert!(documented, "docs/commands.md does not document --{} ({})", f.long, c.name);
        }
    }
}

/// `helm help hooks` shows plugin.yaml's longHelp: it lists each command with its summary,
/// since Helm reads a Wasm plugin's subcommands from completion.yaml, which has no
/// descriptions (pkg/cmd/load_plugins.go, `pluginCommand`).
#[test]
fn plugin_yaml_long_help_lists_the_commands() {
    for file in ["plugin.yaml", "plugin-host.yaml"] {
        let yaml = yaml::to_json(&repo_file(file)).unwrap();
        let long = yaml["config"]["longHelp"].as_str().unwrap();
        for c in spec::COMMANDS {
            let line = format!("  {:<12}{}\n", c.name, c.summary);
            assert!(long.contains(&line), "{file}'s longHelp lacks {line:?}");
        }
        let usage = yaml["config"]["usage"].as_str().unwrap();
        let names: Vec<&str> = spec::COMMANDS.iter().map(|c| c.name).collect();
        assert_eq!(usage, format!("hooks [{}] [flags]", names.join("|")));
    }
}

/// `helm hooks COMMAND --help` (and `-h`, and `helm hooks help COMMAND`) prints that
/// command's help, not the root's.
#[test]
fn each_command_has_its_own_help() {
    let (_, root, _) = run(&["--help"]);
    for c in spec::COMMANDS {
        for args in [&[c.name, "--help"][..], &[c.name, "-h"], &["help", c.name], &[c.name, "-", "--help"]] {
            let (code, out, err) = run(args);
            assert_eq!((code, out.as_str(), err.as_str()), (Exit::Ok, c.help().as_str(), ""), "{args:?}");
            assert_ne!(out, root);
            assert!(out.contains(&format!("helm hooks {} ", c.name)), "{out}");
        }
    }
    // An error points to the command's help.
    let (code, _, err) = run(&["run", "--nope"]);
    assert_eq!(code, Exit::Invalid);
    assert!(err.ends_with("Run 'helm hooks run --help' for usage.\n"), "{err}");
}

/// Artifact Hub's listing (artifacthub/hooks) names the same version and carries the same
/// licence as what Helm installs; its `description` is what keeps it out of plugin.yaml.
#[test]
fn artifact_hub_listing_matches_the_plugin() {
    let listing = yaml::to_json(&repo_file("artifacthub/hooks/plugin.yaml")).unwrap();
    assert_eq!(listing["name"].as_str(), Some("hooks"));
    assert_eq!(listing["version"].as_str(), Some(env!("CARGO_PKG_VERSION")), "bump artifacthub/hooks/plugin.yaml too");
    assert!(listing["description"].as_str().is_some_and(|d| !d.is_empty()), "Artifact Hub requires a description");
    assert_eq!(repo_file("artifacthub/hooks/LICENSE"), repo_file("LICENSE"));
    let plugin = yaml::to_json(&repo_file("plugin.yaml")).unwrap();
    assert!(plugin.get("description").is_none(), "Helm 4's v1 loader refuses plugin.yaml with a description");
}
