// Command etcd is etcd v3.7.0's own server, built from its Go module: the same
// entry point as the etcd binary (go.etcd.io/etcd/server/v3/etcdmain).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
