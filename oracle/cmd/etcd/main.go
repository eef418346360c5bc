// Command etcd is etcd v3.6.8 (go.etcd.io/etcd/server/v3's etcdmain), the release
// kube-apiserver v1.36.3 is built against. Debian's etcd-server is 3.4.23, older than the
// 3.4.31 kube-apiserver needs for watch progress requests: on it, a watch without a
// resourceVersion fails after three seconds with "Too large resource version" whenever
// the watch cache of its resource is behind etcd's revision. Go's envtest ships an etcd
// of the same line as its kube-apiserver; controller-runtime's envtest tests use this
// one where it is built.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
