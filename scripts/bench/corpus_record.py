#!/usr/bin/env python3
"""What scripts/corpus.sh compares of a release on one side, read from the cluster.

  corpus_record.py record NS REL OBJECTS_JSON
      Helm's records of REL in NS (the Secrets, decoded), one line per field:
        status   the latest revision's status (`none` without a record)
        revision the latest revision
        history  every stored revision and its status, `1:superseded 2:deployed`
        objects  the latest revision's objects, Kind/name, sorted (hooks as hook:Kind/name)
        hooks    each hook's last run, name=phase, sorted (`-` for never run)
        tests    how many of its hooks are test hooks
      and writes the latest revision's objects, with their namespace, apiVersion, whether
      they are hooks and whether they say helm.sh/resource-policy: keep, to OBJECTS_JSON
      (kept from the last call that found a record), for `left` after an uninstall.

  corpus_record.py left NS REL OBJECTS_JSON
      After an uninstall: `records N` (Helm's Secrets of REL still in NS) and `left ...`,
      the objects of OBJECTS_JSON that still exist, sorted, each Kind/name with `(keep)`,
      `(hook)` or `(terminating)` where so, and `kept-only yes|no`: whether every object
      left that is not a hook says keep.

The namespace is written as NS in every line, so both sides compare (some charts put it
into names).
"""
import base64
import gzip
import json
import subprocess
import sys

import yaml

KEEP = "helm.sh/resource-policy"


def kubectl(*args):
    r = subprocess.run(["kubectl", *args], capture_output=True, text=True)
    return r.returncode, r.stdout


def secrets(ns, rel):
    rc, out = kubectl("-n", ns, "get", "secrets", "-l", f"owner=helm,name={rel}", "-o", "json")
    return json.loads(out)["items"] if rc == 0 else []


def decode(secret):
    return json.loads(gzip.decompress(base64.b64decode(base64.b64decode(secret["data"]["release"]))))


def docs(text):
    try:
        return [d for d in yaml.safe_load_all(text or "") if isinstance(d, dict) and "kind" in d]
    except yaml.YAMLError:
        return []


def record(ns, rel, objects_json):
    items = secrets(ns, rel)
    if not items:
        print("status none")
        return
    version = lambda s: int(s["metadata"]["labels"]["version"])
    items.sort(key=version)
    history = [f"{version(s)}:{s['metadata']['labels'].get('status', '?')}" for s in items]
    r = decode(items[-1])
    objs, listed = [], []
    for d in docs(r.get("manifest")):
        m = d.get("metadata") or {}
        objs.append(d["kind"] + "/" + m.get("name", "?"))
        listed.append({"apiVersion": d.get("apiVersion", ""), "kind": d["kind"], "name": m.get("name", "?"),
                       "namespace": m.get("namespace"), "hook": False,
                       "keep": (m.get("annotations") or {}).get(KEEP) == "keep"})
    hooks = r.get("hooks") or []
    for h in hooks:
        objs.append("hook:" + h["kind"] + "/" + h["name"])
        for d in docs(h.get("manifest")):
            m = d.get("metadata") or {}
            listed.append({"apiVersion": d.get("apiVersion", ""), "kind": d["kind"], "name": m.get("name", "?"),
                           "namespace": m.get("namespace"), "hook": True, "keep": False})
    print("status", r["info"]["status"])
    print("revision", r.get("version"))
    print("history", " ".join(history))
    print("objects", " ".join(sorted(objs)))
    print("hooks", " ".join(sorted(h["name"] + "=" + ((h.get("last_run") or {}).get("phase") or "-") for h in hooks)))
    print("tests", sum(1 for h in hooks if any(str(e).startswith("test") for e in h.get("events") or [])))
    json.dump(listed, open(objects_json, "w"))


def left(ns, rel, objects_json):
    print("records", len(secrets(ns, rel)))
    try:
        listed = json.load(open(objects_json))
    except (OSError, ValueError):
        listed = []
    # Discovery per apiVersion: which resource serves each kind, and whether it is namespaced.
    served = {}
    for gv in {o["apiVersion"] for o in listed}:
        rc, out = kubectl("get", "--raw", ("/api/" if "/" not in gv else "/apis/") + gv)
        served[gv] = {r["kind"]: (r["name"], r["namespaced"]) for r in json.loads(out)["resources"]
                      if "/" not in r["name"]} if rc == 0 else {}
    names = {}
    found = []
    for o in listed:
        res = served[o["apiVersion"]].get(o["kind"])
        if res is None:
            continue  # its API is gone (a CRD of the release, deleted): so is the object
        resource, namespaced = res
        where = (o["namespace"] or ns) if namespaced else None
        key = (o["apiVersion"], resource, where)
        if key not in names:
            gv = o["apiVersion"]
            path = ("/api/" if "/" not in gv else "/apis/") + gv + (f"/namespaces/{where}" if where else "") + "/" + resource
            rc, out = kubectl("get", "--raw", path)
            names[key] = {i["metadata"]["name"]: "deletionTimestamp" in i["metadata"]
                          for i in json.loads(out).get("items", [])} if rc == 0 else {}
        if o["name"] in names[key]:
            tags = [t for t, on in (("keep", o["keep"]), ("hook", o["hook"]),
                                    ("terminating", names[key][o["name"]])) if on]
            found.append((o, o["kind"] + "/" + o["name"] + "".join(f"({t})" for t in tags)))
    print("left", " ".join(sorted({f for _, f in found})) or "-")
    print("kept-only", "yes" if all(o["keep"] or o["hook"] for o, _ in found) else "no")


def main():
    mode, ns, rel, objects_json = sys.argv[1:5]
    out = sys.stdout
    import io
    sys.stdout = buf = io.StringIO()
    {"record": record, "left": left}[mode](ns, rel, objects_json)
    sys.stdout = out
    out.write(buf.getvalue().replace(ns, "NS"))


if __name__ == "__main__":
    main()
