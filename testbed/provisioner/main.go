// Command provisioner is the test bed's volume provisioner: the provisioner of the bed's
// default StorageClass (testbed/testdata/storageclass.yaml), run as a process of the bed by
// testbed/cluster.sh. docs/testing.md ("Volumes") says why the bed has its own.
//
// For each PersistentVolumeClaim of a class whose provisioner is --name, once the scheduler
// has chosen the node of its first pod (the class binds WaitForFirstConsumer, and the
// scheduler writes its choice in the claim's `volume.kubernetes.io/selected-node`), it
//  1. makes a folder <dir>/<pv> on this machine (mode 0777, as images run as any user);
//  2. creates a hostPath PersistentVolume `pvc-<claim uid>` of that folder, sized and
//     accessed as the claim asks, pinned to the chosen node (nodeAffinity on
//     kubernetes.io/hostname) and pre-bound to the claim (claimRef with its uid), so that
//     kube-controller-manager's PV controller binds the two and the scheduler lets the pod go.
//
// The real node's kubelet mounts the folder into the pod's containers; kwok's node mounts
// nothing, and a claim on it binds all the same. When a volume of ours is Released (its
// claim deleted: a namespace gone, an uninstall) and its reclaim policy is Delete, the folder
// and then the PersistentVolume are deleted; a folder whose volume is gone is deleted at start.
// Only <dir>/<pv name> is ever removed, whatever a PersistentVolume's spec says.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	storagelisters "k8s.io/client-go/listers/storage/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
)

const (
	annSelectedNode  = "volume.kubernetes.io/selected-node"
	annProvisionedBy = "pv.kubernetes.io/provisioned-by"
	labelHostname    = "kubernetes.io/hostname"
)

type provisioner struct {
	name    string
	dir     string
	client  kubernetes.Interface
	claims  corelisters.PersistentVolumeClaimLister
	volumes corelisters.PersistentVolumeLister
	classes storagelisters.StorageClassLister
	nodes   corelisters.NodeLister
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the bed")
	dir := flag.String("dir", "", "absolute folder that holds one folder per volume")
	name := flag.String("name", "hooks-test/local-volume", "provisioner name of the StorageClass")
	flag.Parse()
	if *kubeconfig == "" || !filepath.IsAbs(*dir) {
		log.Fatal("usage: provisioner --kubeconfig FILE --dir /ABS/DIR [--name NAME]")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		log.Fatal(err)
	}
	cfg.UserAgent = "hooks-testbed-provisioner"
	client := kubernetes.NewForConfigOrDie(cfg)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	factory := informers.NewSharedInformerFactory(client, 0)
	claimInf := factory.Core().V1().PersistentVolumeClaims()
	volumeInf := factory.Core().V1().PersistentVolumes()
	p := &provisioner{
		name: *name, dir: *dir, client: client,
		claims: claimInf.Lister(), volumes: volumeInf.Lister(),
		classes: factory.Storage().V1().StorageClasses().Lister(),
		nodes:   factory.Core().V1().Nodes().Lister(),
	}
	// One queue for both kinds: "claim/<ns>/<name>" and "volume/<name>".
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	handler := func(prefix string) cache.ResourceEventHandlerFuncs {
		add := func(obj any) {
			if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
				q.Add(prefix + key)
			}
		}
		return cache.ResourceEventHandlerFuncs{AddFunc: add, UpdateFunc: func(_, obj any) { add(obj) }, DeleteFunc: add}
	}
	if _, err := claimInf.Informer().AddEventHandler(handler("claim/")); err != nil {
		log.Fatal(err)
	}
	if _, err := volumeInf.Informer().AddEventHandler(handler("volume/")); err != nil {
		log.Fatal(err)
	}
	factory.Storage().V1().StorageClasses().Informer()
	factory.Core().V1().Nodes().Informer()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			log.Fatalf("provisioner: %v did not sync", typ)
		}
	}
	p.removeOrphans()
	log.Printf("provisioner: %s provisions claims, folders in %s", p.name, p.dir)

	for i := 0; i < 2; i++ {
		go func() {
			for {
				key, quit := q.Get()
				if quit {
					return
				}
				if err := p.sync(ctx, key); err != nil {
					log.Printf("provisioner: %s: %v (retrying)", key, err)
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
	log.Print("provisioner: stopped")
}

func (p *provisioner) sync(ctx context.Context, key string) error {
	switch {
	case len(key) > 6 && key[:6] == "claim/":
		return p.syncClaim(ctx, key[6:])
	case len(key) > 7 && key[:7] == "volume/":
		return p.syncVolume(ctx, key[7:])
	}
	return nil
}

// folder is the only path this program ever creates or removes for volume `pv`.
func (p *provisioner) folder(pv string) string { return filepath.Join(p.dir, pv) }

func (p *provisioner) syncClaim(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	claim, err := p.claims.PersistentVolumeClaims(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil // its volume, if any, is Released and handled as a volume
	}
	if err != nil {
		return err
	}
	if claim.Spec.VolumeName != "" || claim.DeletionTimestamp != nil || claim.Spec.StorageClassName == nil {
		return nil // bound (or being bound) already, going away, or not for a class
	}
	class, err := p.classes.Get(*claim.Spec.StorageClassName)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if class.Provisioner != p.name {
		return nil
	}
	node := claim.Annotations[annSelectedNode]
	if node == "" && class.VolumeBindingMode != nil && *class.VolumeBindingMode == storagev1.VolumeBindingWaitForFirstConsumer {
		return nil // no pod scheduled yet: the scheduler annotates the claim when one is
	}
	pvName := "pvc-" + string(claim.UID)
	if _, err := p.volumes.Get(pvName); err == nil {
		return nil
	}
	if claim.Spec.VolumeMode != nil && *claim.Spec.VolumeMode == corev1.PersistentVolumeBlock {
		log.Printf("provisioner: %s asks for a block volume; only Filesystem volumes are made", key)
		return nil
	}
	size, ok := claim.Spec.Resources.Requests[corev1.ResourceStorage]
	if !ok {
		log.Printf("provisioner: %s requests no storage size", key)
		return nil
	}
	path := p.folder(pvName)
	if err := os.MkdirAll(path, 0o777); err != nil {
		return err
	}
	// (MkdirAll's mode goes through the umask; pods run as whichever user their image says.)
	if err := os.Chmod(path, 0o777); err != nil {
		return err
	}
	reclaim := corev1.PersistentVolumeReclaimDelete
	if class.ReclaimPolicy != nil {
		reclaim = *class.ReclaimPolicy
	}
	hostPathType := corev1.HostPathDirectory
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{
			Name:        pvName,
			Annotations: map[string]string{annProvisionedBy: p.name},
		},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: size},
			AccessModes:                   claim.Spec.AccessModes,
			PersistentVolumeReclaimPolicy: reclaim,
			StorageClassName:              class.Name,
			MountOptions:                  class.MountOptions,
			VolumeMode:                    claim.Spec.VolumeMode,
			ClaimRef: &corev1.ObjectReference{
				Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID,
			},
			PersistentVolumeSource: corev1.PersistentVolumeSource{
				HostPath: &corev1.HostPathVolumeSource{Path: path, Type: &hostPathType},
			},
		},
	}
	if node != "" {
		// The volume lives where the scheduler put the claim's first pod, as a local disk
		// does: a later pod of the claim goes to the same node.
		hostname := node
		if n, err := p.nodes.Get(node); err == nil && n.Labels[labelHostname] != "" {
			hostname = n.Labels[labelHostname]
		}
		pv.Spec.NodeAffinity = &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
				{Key: labelHostname, Operator: corev1.NodeSelectorOpIn, Values: []string{hostname}},
			}}},
		}}
	}
	_, err = p.client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", pvName, err)
	}
	log.Printf("provisioner: %s: created %s (%s) on node %q in %s", key, pvName, size.String(), node, path)
	return nil
}

func (p *provisioner) syncVolume(ctx context.Context, name string) error {
	pv, err := p.volumes.Get(name)
	if apierrors.IsNotFound(err) {
		// Deleted by someone else (kubectl delete pv): a volume of ours whose policy was
		// Delete takes its folder with it. Which it was is no longer known; a folder of a
		// volume that is gone is never of use, whatever its policy was.
		return p.remove(name)
	}
	if err != nil {
		return err
	}
	if pv.Annotations[annProvisionedBy] != p.name {
		return nil
	}
	if pv.Status.Phase != corev1.VolumeReleased || pv.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimDelete ||
		pv.DeletionTimestamp != nil {
		return nil
	}
	if err := p.remove(name); err != nil {
		return err
	}
	err = p.client.CoreV1().PersistentVolumes().Delete(ctx, name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: &pv.UID},
	})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	log.Printf("provisioner: %s released: folder and volume deleted", name)
	return nil
}

// remove deletes the folder of volume `name`, if there is one.
func (p *provisioner) remove(name string) error {
	path := p.folder(name)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := os.RemoveAll(path); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// removeOrphans deletes the folders whose volume is gone (the provisioner was down while it
// went). Runs before the workers start, so no folder is being made meanwhile.
func (p *provisioner) removeOrphans() {
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		log.Printf("provisioner: %v", err)
		return
	}
	for _, e := range entries {
		if _, err := p.volumes.Get(e.Name()); apierrors.IsNotFound(err) {
			if err := p.remove(e.Name()); err != nil {
				log.Printf("provisioner: %v", err)
			} else {
				log.Printf("provisioner: removed %s, whose volume is gone", e.Name())
			}
		}
	}
}
