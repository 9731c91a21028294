#!/usr/bin/env python3
"""Counts the hook documents in `helm template` output, per event, as the
README's table shows them: a document counts once for each event its
`helm.sh/hook` annotation names (so a `pre-install,pre-upgrade` Job counts
under both). Reads the rendered YAML on stdin.

Usage: helm template r CHART -n ns [-f VALUES] | python3 count_hooks.py
"""
import collections
import sys

import yaml

yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))

counts = collections.Counter()
docs = 0
for doc in yaml.safe_load_all(sys.stdin):
    if not isinstance(doc, dict):
        continue
    hook = ((doc.get("metadata") or {}).get("annotations") or {}).get("helm.sh/hook")
    if not hook:
        continue
    docs += 1
    for event in str(hook).split(","):
        counts[event.strip()] += 1
print(f"{docs} hook documents: " + (", ".join(f"{e} {n}" for e, n in sorted(counts.items())) or "none"))
