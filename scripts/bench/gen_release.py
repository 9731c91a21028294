#!/usr/bin/env python3
"""Writes a Helm release as JSON (the shape of `helm install --dry-run -o json`)
with HOOKS hooks and RESOURCES resources and random helm.sh/depends-on edges.

    scripts/bench/gen_release.py [--hooks 10000] [--resources 10000] [--seed 42] > release.json

Shape (the same as benches/plan.rs): hooks spread over three events
(pre-install, post-install, test) and eleven weights (-5..5), 70% with
helm.sh/hook-parallel "true", some "false"; each hook has 0-3 depends-on
edges to earlier hooks of the same event and a lower or equal weight (so the
graph is acyclic and valid). Resources: 20% in a chain of four HIP-0025
resource groups (g1 depends on g0, ...), 0-2 depends-on edges to earlier
resources of the same group. Every document carries a realistic body (a Job
spec, a ConfigMap's data), so sizes are those of a real chart.
"""
import argparse
import json
import random
import sys

EVENTS = ["pre-install", "post-install", "test"]
HOOK_KINDS = ["Job", "Job", "Job", "Pod", "ConfigMap", "Secret"]
RESOURCE_KINDS = ["ConfigMap", "Secret", "Service", "Deployment", "ServiceAccount", "StatefulSet"]
GROUPS = 4


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hooks", type=int, default=10000)
    ap.add_argument("--resources", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    hooks_json = []
    hooks = []  # (event, weight, kind, name)
    for i in range(args.hooks):
        event = rng.randrange(len(EVENTS))
        weight = rng.randrange(11) - 5
        kind = rng.choice(HOOK_KINDS)
        name = f"hook-{i:06d}"
        deps = []
        for _ in range(rng.randrange(4)):
            if i == 0:
                break
            for _ in range(4):
                e, w, k, n = hooks[rng.randrange(i)]
                if e == event and w <= weight:
                    deps.append(f"{k}/{n}")
                    break
        ann = [
            f'    "helm.sh/hook": {EVENTS[event]}',
            f'    "helm.sh/hook-weight": "{weight}"',
            '    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded',
        ]
        r = rng.randrange(100)
        if r < 70:
            ann.append('    "helm.sh/hook-parallel": "true"')
        elif r < 79:
            ann.append('    "helm.sh/hook-parallel": "false"')
        if deps:
            ann.append(f"    \"helm.sh/depends-on\": '{json.dumps(deps)}'")
        path = f"app/templates/hooks-{i % 50}.yaml"
        manifest = (
            f"apiVersion: batch/v1\nkind: {kind}\nmetadata:\n  name: {name}\n"
            "  labels:\n    app.kubernetes.io/name: app\n  annotations:\n"
            + "\n".join(ann)
            + "\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
            '        - name: main\n          image: busybox:1.36\n          command: ["sh", "-c", "true"]\n'
        )
        hooks_json.append({
            "name": name,
            "kind": kind,
            "path": path,
            "manifest": manifest,
            "events": [EVENTS[event]],
            "last_run": {"started_at": "", "completed_at": "", "phase": ""},
            "weight": weight,
            "delete_policies": ["before-hook-creation", "hook-succeeded"],
        })
        hooks.append((event, weight, kind, name))

    docs = []
    res = []  # (group, kind, name)
    for i in range(args.resources):
        group = rng.randrange(GROUPS) if rng.randrange(100) < 20 else None
        kind = rng.choice(RESOURCE_KINDS)
        name = f"res-{i:06d}"
        deps = []
        for _ in range(rng.randrange(3)):
            if i == 0:
                break
            for _ in range(4):
                g, k, n = res[rng.randrange(i)]
                if g == group:
                    deps.append(f"{k}/{n}")
                    break
        ann = []
        if group is not None:
            ann.append(f'    "helm.sh/resource-group": g{group}')
            if group > 0:
                ann.append(f"    \"helm.sh/depends-on/resource-groups\": '[\"g{group - 1}\"]'")
        if deps:
            ann.append(f'    "helm.sh/depends-on": {",".join(deps)}')
        docs.append(
            f"---\n# Source: app/templates/res-{i % 50}.yaml\napiVersion: v1\nkind: {kind}\nmetadata:\n  name: {name}\n"
            "  labels:\n    app.kubernetes.io/name: app\n"
            + ("  annotations:\n" + "\n".join(ann) + "\n" if ann else "")
            + "data:\n  key: value\n"
        )
        res.append((group, kind, name))

    release = {
        "name": "bench",
        "info": {"status": "pending-install", "description": "Dry run complete"},
        "chart": {"metadata": {"name": "app", "version": "0.1.0", "apiVersion": "v2"}},
        "manifest": "".join(docs),
        "hooks": hooks_json,
        "version": 1,
        "namespace": "default",
    }
    json.dump(release, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
