//go:build k8s_1_37

package cases

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
)

// The status strategies only Kubernetes 1.37 has.
func init() {
	statusStrategies[schema.GroupKind{Group: "storage.k8s.io", Kind: "CSINode"}] = resourceStrategy{"csinodes", csinode.StatusStrategy}
}
