// Command kubelet is the upstream kubelet, built from the pinned k8s.io/kubernetes module:
// the real node of the test bed (testbed/realnode.sh, docs/testing.md "Two nodes").
package main

import (
	"context"
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kubelet/app"
)

func main() { os.Exit(cli.Run(app.NewKubeletCommand(context.Background()))) }
