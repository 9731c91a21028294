package main

import (
	"sort"

	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
)

// split cuts a stream of YAML documents as Helm cuts a rendered template or a release's
// manifest (releaseutil.SplitManifests: `---` at a line's start, empty documents
// dropped), in the stream's order.
func split(text string) answer {
	docs := releaseutil.SplitManifests(text)
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	sort.Sort(releaseutil.BySplitManifestsOrder(keys))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, docs[k])
	}
	return answer{OK: true, Docs: &out}
}
