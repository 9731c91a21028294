#!/usr/bin/env python3
"""10,000 hooks and 10,000 resources for `helm hooks plan -` and `lint -` through Helm
(docs/benchmarks.md, issue 40): the parallel test hooks of tests/hostile_input.rs's
`hook_star`, all but the first depending on the first, and the resources of its
`resource_chain`, each depending on the one before. Small documents, so the time is the
plugin's per-object work and its text output (a table row per hook and resource, a wave
per resource), not YAML bodies.

    scripts/bench/gen_star_chain.py > star_chain.yaml          # `helm template` text
    scripts/bench/gen_star_chain.py --json > star_chain.json   # a release, as
                                                               # `helm install --dry-run -o json`
"""
import json, sys
n = 10000
hooks, res = [], []
for i in range(n):
    after = "" if i == 0 else "    helm.sh/depends-on: Job/t0\n"
    hooks.append((f"c/templates/t{i}.yaml", f"kind: Job\nmetadata:\n  name: t{i}\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-parallel: \"true\"\n{after}"))
for i in range(n):
    after = "" if i == 0 else f"    helm.sh/depends-on: ConfigMap/r{i-1}\n"
    res.append((f"c/templates/r{i}.yaml", f"kind: ConfigMap\nmetadata:\n  name: r{i}\n  annotations:\n{after}    helm.sh/resource-group: g\n"))
if "--json" in sys.argv:
    manifest = "".join(f"---\n# Source: {p}\n{m}" for p, m in res)
    rel = {"name": "bench", "namespace": "default", "version": 1,
           "chart": {"metadata": {"name": "c", "version": "0.1.0"}},
           "manifest": manifest,
           "hooks": [{"name": f"t{i}", "kind": "Job", "path": p, "manifest": m, "events": ["test"],
                      "last_run": {"started_at": "", "completed_at": "", "phase": ""}, "weight": 0}
                     for i, (p, m) in enumerate(hooks)]}
    json.dump(rel, sys.stdout)
else:
    sys.stdout.write("".join(f"---\n# Source: {p}\n{m}" for p, m in hooks + res))
