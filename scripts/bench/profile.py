#!/usr/bin/env python3
"""Where the time of one install goes, for scripts/bench-real.sh (docs/benchmarks.md).

Usage:
  profile.py plugin LOG START      the plugin's timeline (HELM_HOOKS_TRACE=1 lines in LOG),
                                   START: the pipe's launch (unix seconds)
  profile.py stock REQUESTS START END
                                   stock Helm's requests as count_proxy.py logged them,
                                   START/END: its launch and exit (unix seconds)

Prints one line of phases, in seconds. The plugin's: Helm's start of it (launch to its
first line), the wait for the dry-run on stdin, parsing and planning, reading the
history, the permission check, each kind of release-record write (encoding and request),
the applies, the waits, the hooks (each event, hooks' own applies, waits and records
included), and its requests. Stock Helm's, from its request log only: its start (to its
first request), when it created the record (after discovery, OpenAPI and the ownership
reads of each object), its first and last apply (hooks' included), its record updates,
and its exit.
"""
import re
import sys

TRACE = re.compile(r"^\[trace (\d+) \+(\d+)\] (.*?)(?: \((\d+) ms\))?$")
REQUEST = re.compile(r"^(GET|PUT|PATCH|POST|DELETE) (\S+)")


def plugin(log, start):
    lines = [m for m in (TRACE.match(l.rstrip("\n")) for l in open(log)) if m]
    if not lines:
        return "no trace"
    first = int(lines[0].group(1)) / 1000
    last = int(lines[-1].group(1)) / 1000
    phases = {}
    requests = 0

    def add(k, ms):
        phases[k] = phases.get(k, 0) + ms / 1000

    # Requests inside a step count to that step; the others by what they are.
    for m in lines:
        what, ms = m.group(3), int(m.group(4) or 0)
        r = REQUEST.match(what)
        if r:
            requests += 1
            continue
        if what.startswith("read stdin"):
            add("stdin (dry-run)", ms)
        elif what.startswith(("parse", "check and plan")):
            add("parse+plan", ms)
        elif what.startswith("read the history"):
            add("history", ms)
        elif what.startswith("check permissions"):
            add("permissions", ms)
        elif what.startswith("encode the release record"):
            add("record encode", ms)
            phases["records"] = phases.get("records", 0) + 1
        elif re.match(r"\S+-\S+ hooks", what):
            add("hooks", ms)
        elif what.startswith("apply "):
            add("apply", ms)
        elif what.startswith("wait for"):
            add("wait", ms)
    # Record requests (create, updates) and their time.
    rec = sum(int(m.group(4) or 0) for m in lines
              if re.match(r"(POST|PUT) \S*/(secrets|configmaps)[/?]", m.group(3)) and "sh.helm.release" in m.group(3) or
              re.match(r"POST \S*/(secrets|configmaps)\?", m.group(3)))
    add("record requests", rec)
    total = last - first
    out = [f"start {first - start:.2f}", f"ran {total:.2f}"]
    for k in ("stdin (dry-run)", "parse+plan", "history", "permissions", "apply", "wait", "hooks"):
        if k in phases:
            out.append(f"{k} {phases[k]:.2f}")
    out.append(f"records {int(phases.get('records', 0))}: encode {phases.get('record encode', 0):.2f} + requests {phases.get('record requests', 0):.2f}")
    # CRD applies (crds/ or templates), inside the steps above: how many, their requests'
    # time, and first start to last end.
    crd = [(int(m.group(1)), int(m.group(4) or 0)) for m in lines
           if re.match(r"PATCH /apis/apiextensions.k8s.io/v1/customresourcedefinitions/", m.group(3))]
    if crd:
        span = (max(t for t, _ in crd) - min(t - ms for t, ms in crd)) / 1000
        out.append(f"CRD applies {len(crd)}: {sum(ms for _, ms in crd) / 1000:.2f} in requests, {span:.2f} first to last")
    out.append(f"{requests} requests")
    return ", ".join(out)


def stock(requests_log, start, end):
    reqs = []
    for l in open(requests_log):
        t, method, path = l.split(" ", 2)
        reqs.append((float(t), method, path.strip()))
    if not reqs:
        return "no requests"
    t0 = reqs[0][0]
    create = next((t for t, m, p in reqs if m == "POST" and re.search(r"/(secrets|configmaps)$", p.split("?")[0])), None)
    applies = [t for t, m, p in reqs if m in ("PATCH", "PUT", "POST") and "/secrets/sh.helm.release" not in p
               and not re.search(r"/(secrets|configmaps)$", p.split("?")[0]) and "selfsubject" not in p]
    record = [t for t, m, p in reqs if m == "PUT" and "sh.helm.release" in p]
    out = [f"start {t0 - start:.2f}"]
    if create:
        out.append(f"record created at {create - start:.2f}")
    if applies:
        out.append(f"applies {min(applies) - start:.2f}..{max(applies) - start:.2f}")
    crd = [t for t, m, p in reqs if m in ("PATCH", "POST", "PUT") and "/customresourcedefinitions" in p]
    if crd:
        out.append(f"CRD applies {len(crd)} sent {min(crd) - start:.2f}..{max(crd) - start:.2f}")
    if record:
        out.append(f"{len(record)} record updates, last at {record[-1] - start:.2f}")
    out.append(f"exit {end - start:.2f}")
    out.append(f"{len(reqs)} requests ({sum(1 for _, _, p in reqs if 'watch=' in p)} watches)")
    return ", ".join(out)


if __name__ == "__main__":
    if sys.argv[1] == "plugin":
        print(plugin(sys.argv[2], float(sys.argv[3])))
    else:
        print(stock(sys.argv[2], float(sys.argv[3]), float(sys.argv[4])))
