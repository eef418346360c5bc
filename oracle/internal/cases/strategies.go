package cases

import (
	apiextensionsstrategy "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	apiservicestrategy "k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/apiserverinternal/storageversion"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/certificates/clustertrustbundle"
	"k8s.io/kubernetes/pkg/registry/certificates/podcertificaterequest"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/coordination/leasecandidate"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/node"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/networking/ipaddress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/networking/servicecidr"
	"k8s.io/kubernetes/pkg/registry/node/runtimeclass"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/resource/devicetaintrule"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"
	"k8s.io/kubernetes/pkg/registry/resource/resourcepoolstatusrequest"
	"k8s.io/kubernetes/pkg/registry/resource/resourceslice"
	"k8s.io/kubernetes/pkg/registry/scheduling/podgroup"
	"k8s.io/kubernetes/pkg/registry/scheduling/priorityclass"
	"k8s.io/kubernetes/pkg/registry/scheduling/workload"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"
	"k8s.io/kubernetes/pkg/registry/storage/storageclass"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"
	"k8s.io/kubernetes/pkg/registry/storagemigration/storagemigration"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// strategy is what kube-apiserver's REST storage of a resource runs on create and
// update: the resource's strategy from pkg/registry/<group>/<resource>/strategy.go.
type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// resourceStrategy is a resource's name (for the request info declarative validation
// reads) and its strategy.
type resourceStrategy struct {
	resource string
	strategy strategy
}

// strategies maps each built-in kind kube-apiserver stores to its main resource's
// strategy. The strategies that take an authorizer, a namespace client or a policy
// getter get none: with none, Go skips those checks (they need a running cluster).
// The review kinds (TokenReview, SubjectAccessReview, ...) have no strategy: their REST
// handlers validate inline, and are left to the server differential.
var strategies = map[schema.GroupKind]resourceStrategy{
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:          {"mutatingadmissionpolicies", mutatingadmissionpolicy.NewStrategy(nil, nil)},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}:   {"mutatingadmissionpolicybindings", mutatingadmissionpolicybinding.NewStrategy(nil, nil, nil)},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     {"mutatingwebhookconfigurations", mutatingwebhookconfiguration.Strategy},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        {"validatingadmissionpolicies", validatingadmissionpolicy.NewStrategy(nil, nil)},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: {"validatingadmissionpolicybindings", validatingadmissionpolicybinding.NewStrategy(nil, nil, nil)},
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   {"validatingwebhookconfigurations", validatingwebhookconfiguration.Strategy},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 {"customresourcedefinitions", apiextensionsstrategy.NewStrategy(scheme.Scheme)},
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             {"apiservices", apiservicestrategy.NewStrategy(scheme.Scheme).(strategy)},
	{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"}:                      {"storageversions", storageversion.Strategy},
	{Group: "apps", Kind: "ControllerRevision"}:                                       {"controllerrevisions", controllerrevision.Strategy},
	{Group: "apps", Kind: "DaemonSet"}:                                                {"daemonsets", daemonset.Strategy},
	{Group: "apps", Kind: "Deployment"}:                                               {"deployments", deployment.Strategy},
	{Group: "apps", Kind: "ReplicaSet"}:                                               {"replicasets", replicaset.Strategy},
	{Group: "apps", Kind: "StatefulSet"}:                                              {"statefulsets", statefulset.Strategy},
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:                           {"horizontalpodautoscalers", horizontalpodautoscaler.Strategy},
	{Group: "batch", Kind: "CronJob"}:                                                 {"cronjobs", cronjob.Strategy},
	{Group: "batch", Kind: "Job"}:                                                     {"jobs", job.Strategy},
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 {"certificatesigningrequests", certificates.Strategy},
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}:                        {"clustertrustbundles", clustertrustbundle.Strategy},
	{Group: "certificates.k8s.io", Kind: "PodCertificateRequest"}:                     {"podcertificaterequests", podcertificaterequest.NewStrategy()},
	{Group: "coordination.k8s.io", Kind: "Lease"}:                                     {"leases", lease.Strategy},
	{Group: "coordination.k8s.io", Kind: "LeaseCandidate"}:                            {"leasecandidates", leasecandidate.Strategy},
	{Group: "", Kind: "ConfigMap"}:                                                    {"configmaps", configmap.Strategy},
	{Group: "", Kind: "Endpoints"}:                                                    {"endpoints", endpoint.Strategy},
	{Group: "", Kind: "Event"}:                                                        {"events", event.Strategy},
	{Group: "", Kind: "LimitRange"}:                                                   {"limitranges", limitrange.Strategy},
	{Group: "", Kind: "Namespace"}:                                                    {"namespaces", namespace.Strategy},
	{Group: "", Kind: "Node"}:                                                         {"nodes", node.Strategy},
	{Group: "", Kind: "PersistentVolume"}:                                             {"persistentvolumes", persistentvolume.Strategy},
	{Group: "", Kind: "PersistentVolumeClaim"}:                                        {"persistentvolumeclaims", persistentvolumeclaim.Strategy},
	{Group: "", Kind: "Pod"}:                                                          {"pods", pod.Strategy},
	{Group: "", Kind: "PodTemplate"}:                                                  {"podtemplates", podtemplate.Strategy},
	{Group: "", Kind: "ReplicationController"}:                                        {"replicationcontrollers", replicationcontroller.Strategy},
	{Group: "", Kind: "ResourceQuota"}:                                                {"resourcequotas", resourcequota.Strategy},
	{Group: "", Kind: "Secret"}:                                                       {"secrets", secret.Strategy},
	{Group: "", Kind: "Service"}:                                                      {"services", service.Strategy},
	{Group: "", Kind: "ServiceAccount"}:                                               {"serviceaccounts", serviceaccount.Strategy},
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                                {"endpointslices", endpointslice.Strategy},
	{Group: "events.k8s.io", Kind: "Event"}:                                           {"events", event.Strategy},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       {"flowschemas", flowschema.Strategy},
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       {"prioritylevelconfigurations", prioritylevelconfiguration.Strategy},
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                     {"ingresses", ingress.Strategy},
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                {"ingressclasses", ingressclass.Strategy},
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   {"ipaddresses", ipaddress.Strategy},
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:                               {"networkpolicies", networkpolicy.Strategy},
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                                 {"servicecidrs", servicecidr.Strategy},
	{Group: "extensions", Kind: "Ingress"}:                                            {"ingresses", ingress.Strategy},
	{Group: "extensions", Kind: "NetworkPolicy"}:                                      {"networkpolicies", networkpolicy.Strategy},
	{Group: "extensions", Kind: "Deployment"}:                                         {"deployments", deployment.Strategy},
	{Group: "extensions", Kind: "DaemonSet"}:                                          {"daemonsets", daemonset.Strategy},
	{Group: "extensions", Kind: "ReplicaSet"}:                                         {"replicasets", replicaset.Strategy},
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      {"runtimeclasses", runtimeclass.Strategy},
	{Group: "policy", Kind: "PodDisruptionBudget"}:                                    {"poddisruptionbudgets", poddisruptionbudget.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         {"clusterroles", clusterrole.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  {"clusterrolebindings", clusterrolebinding.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:                                {"roles", role.Strategy},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:                         {"rolebindings", rolebinding.Strategy},
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:                                   {"deviceclasses", deviceclass.Strategy},
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:                               {"devicetaintrules", devicetaintrule.Strategy},
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:                                 {"resourceclaims", resourceclaim.NewStrategy(nil, nil)},
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}:                         {"resourceclaimtemplates", resourceclaimtemplate.NewStrategy(nil)},
	{Group: "resource.k8s.io", Kind: "ResourcePoolStatusRequest"}:                     {"resourcepoolstatusrequests", resourcepoolstatusrequest.Strategy},
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}:                                 {"resourceslices", resourceslice.Strategy},
	{Group: "scheduling.k8s.io", Kind: "PodGroup"}:                                    {"podgroups", podgroup.NewStrategy()},
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               {"priorityclasses", priorityclass.Strategy},
	{Group: "scheduling.k8s.io", Kind: "Workload"}:                                    {"workloads", workload.Strategy},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      {"csidrivers", csidriver.Strategy},
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        {"csinodes", csinode.Strategy},
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}:                             {"csistoragecapacities", csistoragecapacity.Strategy},
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   {"storageclasses", storageclass.Strategy},
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               {"volumeattachments", volumeattachment.Strategy},
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                          {"volumeattributesclasses", volumeattributesclass.Strategy},
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}:               {"storageversionmigrations", storagemigration.Strategy},
}
