// oracle answers questions about what Helm reads, with Helm's own code, so that
// tests/oracle.rs can hold the plugin's readers and writers to it (issue 46;
// docs/testing.md, "Helm as the oracle"). One JSON request a line on stdin, one JSON
// answer a line on stdout:
//
//	{"op":"decode","payload":"<data.release>"}  -> {"ok":true,"name":..,"status":..,"release":{...}} | {"ok":false,"error":"..."}
//	{"op":"encode","text":"<release JSON>"}      -> {"ok":true,"payload":"<data.release>"}
//	{"op":"manifest","text":"<one YAML document>"} -> {"ok":true,"objects":[...]} | {"ok":false,"error":"..."}
//	{"op":"records","kubeconfig":"<path>","namespace":"<ns>"} -> {"ok":true,"records":[..],"reads":[..]}
//	{"op":"split","text":"<a YAML stream>"}     -> {"ok":true,"docs":["..",..]}
//	{"op":"hooks","chart":"<dir>","values":["<file>",..]} -> {"ok":true,"stream":"..","order":{"<event>":["Kind/name",..]}}
//
// decode goes through Helm's exported Secrets driver over client-go's fake clientset:
// its Get decodes a record exactly as `helm status` does (decodeRelease is unexported).
// Get returns a release.Releaser (an interface in Helm 4): name and status are read
// through Helm's own Accessor, the release itself re-marshalled by encoding/json.
//
// manifest is the core of Helm's kube client Build path for one document: YAML to
// JSON by sigs.k8s.io/yaml (what the resource builder's decoder does), decoded by
// apimachinery's unstructured scheme, which reads any object with `items` as a list,
// and a list flattened into its items, as the builder's Flatten() does. The builder
// itself needs a REST mapper (a cluster's discovery); what it adds beyond this is the
// mapping of each kind, which the bed's API server answers in the end-to-end tests.
//
// hooks renders a chart as `helm template r <chart> -f ..` does (Install, client-only
// dry run) and answers the stream `helm template` prints and, for each event, the
// order in which Helm's execHook creates the hooks: its pre-sort by kind
// (SortManifests, inside the render) and its stable sort by weight and name. execHook
// is unexported; the one exported action that runs it for any set of hooks is
// ReleaseTesting, so each event's hooks are handed to it relabelled as test hooks
// (execHook treats every event alike), over a kube client that records what it creates.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"helm.sh/helm/v4/pkg/release"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/yaml"
)

type request struct {
	Op         string   `json:"op"`
	Payload    string   `json:"payload"`
	Text       string   `json:"text"`
	Chart      string   `json:"chart"`
	Values     []string `json:"values"`
	Kubeconfig string   `json:"kubeconfig"`
	Namespace  string   `json:"namespace"`
}

type object struct {
	APIVersion  string            `json:"apiVersion"`
	Kind        string            `json:"kind"`
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

type answer struct {
	OK      bool                `json:"ok"`
	Error   string              `json:"error,omitempty"`
	Name    string              `json:"name,omitempty"`
	Status  string              `json:"status,omitempty"`
	Release json.RawMessage     `json:"release,omitempty"`
	Objects *[]object           `json:"objects,omitempty"` // a pointer: an empty document answers "objects":[]
	Payload string              `json:"payload,omitempty"`
	Docs    *[]string           `json:"docs,omitempty"`
	Stream  string              `json:"stream,omitempty"`
	Order   map[string][]string `json:"order,omitempty"`
	Records *[]stored           `json:"records,omitempty"`
	Reads   []read              `json:"reads,omitempty"`
}

const key = "sh.helm.release.v1.r.v1"

func decode(payload string) answer {
	client := fake.NewSimpleClientset()
	secrets := client.CoreV1().Secrets("default")
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: key, Labels: map[string]string{"owner": "helm", "name": "r", "version": "1", "status": "deployed"}},
		Type:       "helm.sh/release.v1",
		// Helm's Create puts the base64 text itself into Data["release"] (secrets.go:
		// Data: {"release": []byte(s)}), and Get decodes string(Data["release"]).
		Data: map[string][]byte{"release": []byte(payload)},
	}
	if _, err := secrets.Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
		return answer{Error: err.Error()}
	}
	rel, err := driver.NewSecrets(secrets).Get(key)
	if err != nil {
		return answer{Error: err.Error()}
	}
	acc, err := release.NewAccessor(rel)
	if err != nil {
		return answer{Error: err.Error()}
	}
	b, err := json.Marshal(rel)
	if err != nil {
		return answer{Error: err.Error()}
	}
	return answer{OK: true, Name: acc.Name(), Status: acc.Status(), Release: b}
}

// encode writes release (JSON) as Helm's Secrets driver writes a record (its Create,
// which calls encodeRelease) and answers the record's data.release: what the plugin
// must read back.
func encode(releaseJSON string) answer {
	var rel rspb.Release
	if err := json.Unmarshal([]byte(releaseJSON), &rel); err != nil {
		return answer{Error: err.Error()}
	}
	client := fake.NewSimpleClientset()
	secrets := client.CoreV1().Secrets("default")
	if err := driver.NewSecrets(secrets).Create(key, &rel); err != nil {
		return answer{Error: err.Error()}
	}
	s, err := secrets.Get(context.Background(), key, metav1.GetOptions{})
	if err != nil {
		return answer{Error: err.Error()}
	}
	return answer{OK: true, Payload: string(s.Data["release"])}
}

func manifest(text string) answer {
	j, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return answer{Error: err.Error()}
	}
	if string(j) == "null" {
		return answer{OK: true, Objects: &[]object{}}
	}
	obj, err := runtime.Decode(unstructured.UnstructuredJSONScheme, j)
	if err != nil {
		return answer{Error: err.Error()}
	}
	var items []unstructured.Unstructured
	switch o := obj.(type) {
	case *unstructured.UnstructuredList:
		items = o.Items
	case *unstructured.Unstructured:
		items = []unstructured.Unstructured{*o}
	default:
		return answer{Error: fmt.Sprintf("decoded as %T", obj)}
	}
	out := []object{}
	for _, u := range items {
		out = append(out, object{u.GetAPIVersion(), u.GetKind(), u.GetName(), u.GetNamespace(), u.GetLabels(), u.GetAnnotations()})
	}
	return answer{OK: true, Objects: &out}
}

func main() {
	// Helm logs what it skips (an unknown hook event) through slog: the answers say it.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	dec := json.NewDecoder(in)
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			return
		}
		var a answer
		switch r.Op {
		case "decode":
			a = decode(r.Payload)
		case "encode":
			a = encode(r.Text)
		case "manifest":
			a = manifest(r.Text)
		case "split":
			a = split(r.Text)
		case "records":
			a = records(r.Kubeconfig, r.Namespace)
		case "hooks":
			a = hookOrder(r.Chart, r.Values)
		default:
			a = answer{Error: "unknown op " + r.Op}
		}
		if err := enc.Encode(a); err != nil {
			os.Exit(1)
		}
		out.Flush()
	}
}
