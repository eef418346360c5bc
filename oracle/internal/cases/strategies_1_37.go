//go:build k8s_1_37

package cases

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/scheduling/compositepodgroup"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
)

// The strategies only Kubernetes 1.37 has: CompositePodGroup (scheduling.k8s.io/v1alpha3)
// and CSINode's status.
func init() {
	strategies[schema.GroupKind{Group: "scheduling.k8s.io", Kind: "CompositePodGroup"}] = resourceStrategy{"compositepodgroups", compositepodgroup.NewStrategy()}
	statusStrategies[schema.GroupKind{Group: "scheduling.k8s.io", Kind: "CompositePodGroup"}] = resourceStrategy{"compositepodgroups", compositepodgroup.NewStatusStrategy(compositepodgroup.NewStrategy())}
	statusStrategies[schema.GroupKind{Group: "storage.k8s.io", Kind: "CSINode"}] = resourceStrategy{"csinodes", csinode.StatusStrategy}
}
