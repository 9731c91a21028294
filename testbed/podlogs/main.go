// Command podlogs is the test bed's log helper. kwok serves pods/log from files named by
// kwok.x-k8s.io Logs objects; this helper turns the pod annotation `hooks-test/log` into such
// a file and object, so `kubectl logs` (and GET pods/<name>/log) returns the annotation's text
// for every container of the pod.
//
// For each pod that carries `hooks-test/log` it:
//  1. writes <dir>/<namespace>_<name>_<uid>.log in the CRI log format, one line per \n-separated
//     line of the text;
//  2. server-side applies a namespaced Logs object named after the pod pointing at that file;
//  3. annotates the pod `hooks-test/log-ready: "true"`.
//
// The bed's completion stage (testbed/testdata/stages.yaml) only ends a pod that has
// `hooks-test/log` once step 3 happened, so a finished pod's log is always in place.
// When such a pod goes away its file and Logs object are removed. Pods without the
// annotation fall through to the bed's ClusterLogs, which serves an empty log.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
)

const (
	annLog      = "hooks-test/log"
	annLogReady = "hooks-test/log-ready"
	manager     = "hooks-testbed-podlogs"
)

var logsGVR = schema.GroupVersionResource{Group: "kwok.x-k8s.io", Version: "v1alpha1", Resource: "logs"}

type helper struct {
	dir    string
	client kubernetes.Interface
	dyn    dynamic.Interface
	pods   cache.Indexer
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the bed")
	dir := flag.String("dir", "", "absolute folder for the CRI log files")
	flag.Parse()
	if *kubeconfig == "" || !filepath.IsAbs(*dir) {
		log.Fatal("usage: podlogs --kubeconfig FILE --dir /ABS/DIR")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		log.Fatal(err)
	}
	cfg.UserAgent = manager
	h := &helper{dir: *dir, client: kubernetes.NewForConfigOrDie(cfg), dyn: dynamic.NewForConfigOrDie(cfg)}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	factory := informers.NewSharedInformerFactory(h.client, 0)
	inf := factory.Core().V1().Pods().Informer()
	h.pods = inf.GetIndexer()
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			q.Add(key)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	}); err != nil {
		log.Fatal(err)
	}
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		log.Fatal("pod informer did not sync")
	}
	log.Printf("podlogs: watching pods, files in %s", *dir)

	for i := 0; i < 4; i++ {
		go func() {
			for {
				key, quit := q.Get()
				if quit {
					return
				}
				if err := h.sync(ctx, key); err != nil {
					log.Printf("podlogs: %s: %v (retrying)", key, err)
					q.AddRateLimited(key)
				} else {
					q.Forget(key)
				}
				q.Done(key)
			}
		}()
	}
	<-ctx.Done()
	q.ShutDown()
	log.Print("podlogs: stopped")
}

// sync brings one pod's log file, Logs object and ready annotation in line with the pod.
func (h *helper) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	obj, exists, err := h.pods.GetByKey(key)
	if err != nil {
		return err
	}
	var pod *corev1.Pod
	if exists {
		pod = obj.(*corev1.Pod)
	}
	text, wanted := "", false
	if pod != nil && pod.DeletionTimestamp == nil {
		text, wanted = pod.Annotations[annLog]
	}
	if !wanted {
		keep := ""
		if pod != nil {
			keep = h.file(pod)
		}
		h.removeFiles(ns, name, keep)
		if pod != nil && pod.DeletionTimestamp != nil {
			return nil // the Logs object stays until the pod is gone, so its log can still be read
		}
		err := h.dyn.Resource(logsGVR).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		return nil
	}
	path := h.file(pod)
	if pod.Annotations[annLogReady] == "true" {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
	}
	if err := writeCRI(path, text); err != nil {
		return err
	}
	h.removeFiles(ns, name, path)
	logs := map[string]any{
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "Logs",
		"metadata": map[string]any{
			"name": name, "namespace": ns,
			"annotations": map[string]any{"hooks-test/pod-uid": string(pod.UID)},
		},
		"spec": map[string]any{"logs": []any{map[string]any{"logsFile": path}}},
	}
	body, _ := json.Marshal(logs)
	force := true
	if _, err := h.dyn.Resource(logsGVR).Namespace(ns).Patch(ctx, name, types.ApplyPatchType, body,
		metav1.PatchOptions{FieldManager: manager, Force: &force}); err != nil {
		return fmt.Errorf("apply Logs: %w", err)
	}
	// The uid makes the patch a precondition: a pod recreated under the same name is left alone.
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{
		"uid": pod.UID, "annotations": map[string]string{annLogReady: "true"},
	}})
	_, err = h.client.CoreV1().Pods(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: manager})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone or replaced; the informer brings the next state
	}
	return err
}

func (h *helper) file(pod *corev1.Pod) string {
	return filepath.Join(h.dir, fmt.Sprintf("%s_%s_%s.log", pod.Namespace, pod.Name, pod.UID))
}

// removeFiles deletes the log files of every pod namespace/name except keep.
func (h *helper) removeFiles(ns, name, keep string) {
	matches, _ := filepath.Glob(filepath.Join(h.dir, fmt.Sprintf("%s_%s_*.log", ns, name)))
	for _, m := range matches {
		if m != keep {
			_ = os.Remove(m)
		}
	}
}

// writeCRI writes text as a CRI-format container log ("<time> stdout F <line>"), atomically.
func writeCRI(path, text string) error {
	var b strings.Builder
	ts := time.Now().UTC().Format(time.RFC3339Nano)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	for _, line := range lines {
		fmt.Fprintf(&b, "%s stdout F %s\n", ts, line)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
