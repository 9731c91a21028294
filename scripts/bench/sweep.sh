# Sourced by the benchmark scripts that install public charts: deletes what a release left
# outside its namespaces. Charts make cluster-scoped objects (CRDs, ClusterRoles, webhook
# configurations, APIServices) and Roles in kube-system, which a namespace's deletion does
# not reach.

# sweep_release_cluster REL NS...: every such object annotated to one of the namespaces, or
# named after REL (hooks carry no release annotations), deleted and awaited.
sweep_release_cluster() {
  local rel=$1 objs
  shift
  objs=$( { kubectl get customresourcedefinitions,clusterroles,clusterrolebindings,ingressclasses,validatingwebhookconfigurations,mutatingwebhookconfigurations,apiservices -o json
            kubectl -n kube-system get roles,rolebindings -o json; } 2>/dev/null |
    python3 -c '
import json, sys
nss, rel = set(sys.argv[2:]), sys.argv[1]
dec = json.JSONDecoder()
text, i = sys.stdin.read(), 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    doc, i = dec.raw_decode(text, i)
    for o in doc.get("items", []):
        m = o["metadata"]
        a = m.get("annotations") or {}
        if a.get("meta.helm.sh/release-namespace") in nss or m["name"].startswith(rel + "-"):
            v = o["apiVersion"]
            res = o["kind"].lower() + ("." + v.split("/")[0] if "/" in v else "")
            print(("-n kube-system " if m.get("namespace") else "") + res + "/" + m["name"])
' "$rel" "$@")
  [ -z "$objs" ] || while read -r line; do
    # shellcheck disable=SC2086
    kubectl delete $line --ignore-not-found --wait=true --timeout=60s >/dev/null 2>&1 || true
  done <<<"$objs"
}
