// Command etcd is upstream etcd (the version testbed/versions.sh pins): etcd's own server/go.mod carries
// local replaces, so `go install` cannot build it; a module of ours can.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
