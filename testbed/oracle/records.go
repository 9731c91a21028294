package main

import (
	"context"
	"fmt"
	"sort"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/release"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// stored is one record as it lies in the cluster: its object's name and labels and
// its data.release text, for the test to decode with the plugin's decoder and Helm's.
type stored struct {
	Driver  string            `json:"driver"`
	Object  string            `json:"object"`
	Labels  map[string]string `json:"labels"`
	Payload string            `json:"payload"`
}

type revision struct {
	Version int    `json:"version"`
	Status  string `json:"status"`
}

// read is what the actions behind `helm history` and `helm get` answer for one
// release. (`helm status` reads the record as Get does, then looks the release's objects
// up on the cluster: the end-to-end suites run the stock CLI's for that, once a test.)
type read struct {
	Driver   string     `json:"driver"`
	Name     string     `json:"name"`
	History  []revision `json:"history"` // oldest first
	Status   string     `json:"status"`
	Manifest string     `json:"manifest"`
}

// records lists every Helm record in namespace ns on the cluster of kubeconfig (both
// Kubernetes drivers) and reads each release through Helm's History and Get actions: the
// code of `helm history` and `helm get manifest`, in one process instead of starts of the
// CLI after every command a test runs.
func records(kubeconfig, ns string) answer {
	settings := cli.New()
	settings.KubeConfig = kubeconfig
	settings.SetNamespace(ns)
	var all []stored
	var reads []read
	for _, driverName := range []string{"secret", "configmap"} {
		cfg := new(action.Configuration)
		if err := cfg.Init(settings.RESTClientGetter(), ns, driverName); err != nil {
			return answer{Error: err.Error()}
		}
		cs, err := cfg.KubernetesClientSet()
		if err != nil {
			return answer{Error: err.Error()}
		}
		opts := metav1.ListOptions{LabelSelector: "owner=helm"}
		names := map[string]bool{}
		if driverName == "secret" {
			l, err := cs.CoreV1().Secrets(ns).List(context.Background(), opts)
			if err != nil {
				return answer{Error: err.Error()}
			}
			for _, s := range l.Items {
				all = append(all, stored{driverName, s.Name, s.Labels, string(s.Data["release"])})
				names[s.Labels["name"]] = true
			}
		} else {
			l, err := cs.CoreV1().ConfigMaps(ns).List(context.Background(), opts)
			if err != nil {
				return answer{Error: err.Error()}
			}
			for _, c := range l.Items {
				all = append(all, stored{driverName, c.Name, c.Labels, c.Data["release"]})
				names[c.Labels["name"]] = true
			}
		}
		var sorted []string
		for n := range names {
			sorted = append(sorted, n)
		}
		sort.Strings(sorted)
		for _, name := range sorted {
			r := read{Driver: driverName, Name: name, History: []revision{}}
			hist, err := action.NewHistory(cfg).Run(name)
			if err != nil {
				return answer{Error: fmt.Sprintf("history %s: %v", name, err)}
			}
			for _, h := range hist {
				acc, err := release.NewAccessor(h)
				if err != nil {
					return answer{Error: err.Error()}
				}
				r.History = append(r.History, revision{acc.Version(), acc.Status()})
			}
			sort.Slice(r.History, func(i, j int) bool { return r.History[i].Version < r.History[j].Version })
			got, err := action.NewGet(cfg).Run(name)
			if err != nil {
				return answer{Error: fmt.Sprintf("get %s: %v", name, err)}
			}
			acc, err := release.NewAccessor(got)
			if err != nil {
				return answer{Error: err.Error()}
			}
			r.Status = acc.Status()
			r.Manifest = acc.Manifest()
			reads = append(reads, r)
		}
	}
	if all == nil {
		all = []stored{}
	}
	return answer{OK: true, Records: &all, Reads: reads}
}
