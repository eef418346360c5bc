package cases

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourcepoolstatusrequest"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"
)

// statusStrategies maps each kind whose /status writes ours checks with a status
// validator of its own to kube-apiserver's status strategy (pkg/registry/<group>/
// <resource>/strategy.go's StatusStrategy), for Status mode: its ValidateUpdate is what
// kube-apiserver runs on a write of the subresource.
var statusStrategies = map[schema.GroupKind]resourceStrategy{
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:  {"validatingadmissionpolicies", validatingadmissionpolicy.NewStatusStrategy(validatingadmissionpolicy.NewStrategy(nil, nil))},
	{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"}:                {"storageversions", storageversion.StatusStrategy},
	{Group: "apps", Kind: "DaemonSet"}:                                          {"daemonsets", daemonset.StatusStrategy},
	{Group: "apps", Kind: "Deployment"}:                                         {"deployments", deployment.StatusStrategy},
	{Group: "apps", Kind: "ReplicaSet"}:                                         {"replicasets", replicaset.StatusStrategy},
	{Group: "apps", Kind: "StatefulSet"}:                                        {"statefulsets", statefulset.StatusStrategy},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:                     {"horizontalpodautoscalers", horizontalpodautoscaler.StatusStrategy},
	{Group: "batch", Kind: "Job"}:                                               {"jobs", job.StatusStrategy},
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:           {"certificatesigningrequests", certificates.StatusStrategy},
	{Group: "", Kind: "Namespace"}:                                              {"namespaces", namespace.StatusStrategy},
	{Group: "", Kind: "Node"}:                                                   {"nodes", node.StatusStrategy},
	{Group: "", Kind: "PersistentVolume"}:                                       {"persistentvolumes", persistentvolume.StatusStrategy},
	{Group: "", Kind: "PersistentVolumeClaim"}:                                  {"persistentvolumeclaims", persistentvolumeclaim.StatusStrategy},
	{Group: "", Kind: "Pod"}:                                                    {"pods", pod.StatusStrategy},
	{Group: "", Kind: "ReplicationController"}:                                  {"replicationcontrollers", replicationcontroller.StatusStrategy},
	{Group: "", Kind: "ResourceQuota"}:                                          {"resourcequotas", resourcequota.StatusStrategy},
	{Group: "", Kind: "Service"}:                                                {"services", service.StatusStrategy},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                 {"flowschemas", flowschema.StatusStrategy},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}: {"prioritylevelconfigurations", prioritylevelconfiguration.StatusStrategy},
	{Group: "networking.k8s.io", Kind: "Ingress"}:                               {"ingresses", ingress.StatusStrategy},
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                           {"servicecidrs", servicecidr.StatusStrategy},
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                           {"resourceclaims", newResourceClaimStatus()},
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:                         {"devicetaintrules", devicetaintrule.StatusStrategy},
	{Group: "resource.k8s.io", Kind: "ResourcePoolStatusRequest"}:               {"resourcepoolstatusrequests", resourcepoolstatusrequest.StatusStrategy},
	{Group: "scheduling.k8s.io", Kind: "PodGroup"}:                              {"podgroups", podgroup.NewStatusStrategy(podgroup.NewStrategy())},
	{Group: "extensions", Kind: "DaemonSet"}:                                    {"daemonsets", daemonset.StatusStrategy},
	{Group: "extensions", Kind: "Deployment"}:                                   {"deployments", deployment.StatusStrategy},
	{Group: "extensions", Kind: "ReplicaSet"}:                                   {"replicasets", replicaset.StatusStrategy},
	{Group: "extensions", Kind: "Ingress"}:                                      {"ingresses", ingress.StatusStrategy},
	{Group: "policy", Kind: "PodDisruptionBudget"}:                              {"poddisruptionbudgets", poddisruptionbudget.StatusStrategy},
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}:         {"storageversionmigrations", storagemigration.StatusStrategy},
}
