//! What a release publishes agrees with itself: one version (plugin.yaml is what Helm reads and
//! packages, Cargo.toml what `helm hooks version` prints), and completion.yaml names every
//! subcommand and long flag the CLI accepts.

use helm_hooks::cli::{self, Exit, Io};

fn run(args: &[&str]) -> (Exit, String, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
    let code = cli::main(&args, &mut Io { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr });
    (code, String::from_utf8(stdout).unwrap(), String::from_utf8(stderr).unwrap())
}

fn repo_file(name: &str) -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_owned() + name).unwrap()
}

#[test]
fn plugin_yaml_and_cargo_toml_have_one_version() {
    let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_str(&repo_file("plugin.yaml")).unwrap();
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

/// Every long flag in the CLI's usage appears in completion.yaml, and every subcommand.
#[test]
fn completion_yaml_covers_the_cli() {
    let comp: serde_yaml_ng::Value = serde_yaml_ng::from_str(&repo_file("completion.yaml")).unwrap();
    let commands = comp["commands"].as_sequence().unwrap();
    let names: Vec<&str> = commands.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["plan", "lint", "run", "deploy", "rollback", "uninstall", "status", "version"]);
    let all_flags: Vec<&str> =
        commands.iter().flat_map(|c| c["flags"].as_sequence().unwrap().iter().map(|f| f.as_str().unwrap())).collect();
    let (_, usage, _) = run(&["--help"]);
    // Helm's own flags, named in the usage's examples.
    let helms = ["help", "install", "kube-apiserver", "kube-token", "wait"];
    for word in usage.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some(flag) = word.strip_prefix("--").filter(|f| f.len() > 1 && !helms.contains(f)) {
            assert!(all_flags.contains(&flag), "completion.yaml lacks --{flag}");
        }
    }
    for c in commands {
        let flags = c["flags"].as_sequence().unwrap();
        // Helm pairs the first short flag with the first long one.
        assert_eq!(flags[0].as_str(), Some("output"), "{:?}", c["name"]);
        assert_eq!(flags[1].as_str(), Some("o"), "{:?}", c["name"]);
    }
}

/// Artifact Hub's listing (artifacthub/hooks) names the same version and carries the same
/// licence as what Helm installs; its `description` is what keeps it out of plugin.yaml.
#[test]
fn artifact_hub_listing_matches_the_plugin() {
    let listing: serde_yaml_ng::Value = serde_yaml_ng::from_str(&repo_file("artifacthub/hooks/plugin.yaml")).unwrap();
    assert_eq!(listing["name"].as_str(), Some("hooks"));
    assert_eq!(listing["version"].as_str(), Some(env!("CARGO_PKG_VERSION")), "bump artifacthub/hooks/plugin.yaml too");
    assert!(listing["description"].as_str().is_some_and(|d| !d.is_empty()), "Artifact Hub requires a description");
    assert_eq!(repo_file("artifacthub/hooks/LICENSE"), repo_file("LICENSE"));
    let plugin: serde_yaml_ng::Value = serde_yaml_ng::from_str(&repo_file("plugin.yaml")).unwrap();
    assert!(plugin.get("description").is_none(), "Helm 4's v1 loader refuses plugin.yaml with a description");
}
