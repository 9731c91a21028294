package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"
	"helm.sh/helm/v4/pkg/kube"
	kubefake "helm.sh/helm/v4/pkg/kube/fake"
	rcommon "helm.sh/helm/v4/pkg/release/common"
	release "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage"
	"helm.sh/helm/v4/pkg/storage/driver"
	"k8s.io/cli-runtime/pkg/resource"
)

// events in Helm's spelling, the order the answer lists them in.
var events = []release.HookEvent{
	release.HookPreInstall, release.HookPostInstall, release.HookPreDelete, release.HookPostDelete,
	release.HookPreUpgrade, release.HookPostUpgrade, release.HookPreRollback, release.HookPostRollback,
	release.HookTest,
}

// recorder is Helm's printing fake with Build and Create that remember which hook
// each manifest is, and the order of creation.
type recorder struct {
	kubefake.PrintingKubeClient
	ids     map[string]string // hook manifest -> Kind/name
	created []string
}

func (r *recorder) Build(in io.Reader, _ bool) (kube.ResourceList, error) {
	b, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	id, ok := r.ids[string(b)]
	if !ok {
		return nil, fmt.Errorf("no hook has this manifest:\n%s", b)
	}
	return kube.ResourceList{&resource.Info{Name: id, Namespace: "default"}}, nil
}

func (r *recorder) Create(list kube.ResourceList, _ ...kube.ClientCreateOption) (*kube.Result, error) {
	for _, info := range list {
		r.created = append(r.created, info.Name)
	}
	return &kube.Result{Created: list}, nil
}

func render(dir string, valueFiles []string) (*release.Release, error) {
	ch, err := loader.Load(dir)
	if err != nil {
		return nil, err
	}
	// -f as `helm template` reads it.
	opts := values.Options{ValueFiles: valueFiles}
	vals, err := opts.MergeValues(getter.Providers{})
	if err != nil {
		return nil, err
	}
	cfg := &action.Configuration{
		Releases:     storage.Init(driver.NewMemory()),
		KubeClient:   &kubefake.PrintingKubeClient{Out: io.Discard},
		Capabilities: common.DefaultCapabilities,
	}
	install := action.NewInstall(cfg)
	install.DryRunStrategy = action.DryRunClient
	install.ReleaseName = "r"
	install.Namespace = "default"
	install.Replace = true
	rel, err := install.Run(ch, vals)
	if err != nil {
		return nil, err
	}
	r, ok := rel.(*release.Release)
	if !ok {
		return nil, fmt.Errorf("install answered a %T", rel)
	}
	return r, nil
}

// stream is what `helm template` prints for a release: its manifest, then each hook
// under its source path.
func stream(rel *release.Release) string {
	var b strings.Builder
	b.WriteString(rel.Manifest)
	for _, h := range rel.Hooks {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s\n", h.Path, h.Manifest)
	}
	return b.String()
}

func order(rel *release.Release, event release.HookEvent) ([]string, error) {
	rec := &recorder{PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard}, ids: map[string]string{}}
	var hooks []*release.Hook
	for _, h := range rel.Hooks {
		if !slices.Contains(h.Events, event) {
			continue
		}
		c := *h
		c.Events = []release.HookEvent{release.HookTest}
		hooks = append(hooks, &c)
		rec.ids[c.Manifest] = c.Kind + "/" + c.Name
	}
	if len(hooks) == 0 {
		return []string{}, nil
	}
	cfg := &action.Configuration{
		Releases:     storage.Init(driver.NewMemory()),
		KubeClient:   rec,
		Capabilities: common.DefaultCapabilities,
	}
	r := &release.Release{Name: "r", Namespace: "default", Version: 1, Chart: rel.Chart,
		Info: &release.Info{Status: rcommon.StatusDeployed}, Hooks: hooks}
	if err := cfg.Releases.Create(r); err != nil {
		return nil, err
	}
	_, shutdown, err := action.NewReleaseTesting(cfg).Run("r")
	if err == nil && shutdown != nil {
		err = shutdown()
	}
	if err != nil {
		return nil, err
	}
	return rec.created, nil
}

func hookOrder(dir string, values []string) answer {
	rel, err := render(dir, values)
	if err != nil {
		return answer{Error: err.Error()}
	}
	out := map[string][]string{}
	for _, e := range events {
		o, err := order(rel, e)
		if err != nil {
			return answer{Error: fmt.Sprintf("%s: %v", e, err)}
		}
		out[string(e)] = o
	}
	return answer{OK: true, Stream: stream(rel), Order: out}
}
