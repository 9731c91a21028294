// Command kube-scheduler is the upstream kube-scheduler, built from the pinned k8s.io/kubernetes
// module so the test bed needs no downloads beyond the Go module proxy.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() { os.Exit(cli.Run(app.NewSchedulerCommand())) }
