// Command etcd is upstream etcd v3.6.10: etcd's own server/go.mod carries
// local replaces, so `go install` cannot build it; a module of ours can.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
