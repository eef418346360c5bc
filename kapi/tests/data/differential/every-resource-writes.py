#!/usr/bin/env python3
"""Writes every-resource-writes.yaml (the differential area of writes to every built-in
resource): `python3 every-resource-writes.py > every-resource-writes.yaml`.

Each resource below is one served resource of kapi serve's discovery (the resources of
every-resource.yaml, which lists them all) at one served version, with the smallest
object Go's validation (pkg/apis/<group>/validation) accepts. The objects are data here;
the requests made of each are the same, written by `writes` below. Resources whose
create answers without storing (reviews) are sent a create only.
"""

import json
import sys

NS = "diff-writes"
# The label every object is created with; each write after adds one of its own.
LABELS = {"diff-writes": "create"}
CONTAINERS = [{"name": "c", "image": "busybox"}]
POD_SPEC = {"automountServiceAccountToken": False, "containers": CONTAINERS}
TEMPLATE = {"metadata": {"labels": {"app": "w"}}, "spec": POD_SPEC}
SELECTOR = {"matchLabels": {"app": "w"}}
JOB_TEMPLATE = {
    "template": {"spec": dict(POD_SPEC, restartPolicy="Never")},
}
# A PEM certificate signing request of a P-256 key (subject CN=diff-writes), base64.
CSR_B64 = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIUU1IZ0NBUUF3RmpFVU1CSUdBMVVFQXd3TFpHbG1aaTEzY21sMFpYTXdX"
    "VEFUQmdjcWhrak9QUUlCQmdncQpoa2pPUFFNQkJ3TkNBQVNJNk51WGd3YmxDdnF0akhDNCtwWlJJV2FyWFl2SjRmVS8wTHdBVGkyOXVDeUI5"
    "R0lpCjhBbXNiUzkzWEVWTStPVndFQmVHa2NyY1ZmRlRTQ0VNRUYvdm9BQXdDZ1lJS29aSXpqMEVBd0lEU0FBd1JRSWgKQU80NzF3d0RGcG5l"
    "V1d3dHdGb0Y2NXE5elRrRkF3bGtSVWoxQ283azZHTW1BaUJwZGtrUDQyYWlCVDJZNDM4MgpBY0JJRTB2UGpaZ2NhYnJWaGxsNFFvam5zUT09"
    "Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo="
)
# A self-signed CA certificate (P-256, CN=diff-writes-ca): a ClusterTrustBundle holds CAs.
CA_PEM = (
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBQzCB6qADAgECAgEBMAoGCCqGSM49BAMCMBkxFzAVBgNVBAMMDmRpZmYtd3Jp\n"
    "dGVzLWNhMB4XDTI1MDEwMTAwMDAwMFoXDTM0MTIzMDAwMDAwMFowGTEXMBUGA1UE\n"
    "AwwOZGlmZi13cml0ZXMtY2EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARCPmKa\n"
    "Xk9Wb9vtYXYyVP0o7iRHqBfREzTUl1wsUvp0sqPlVqJfl0FVWUVuxaerU/tlDPS/\n"
    "x2G2nWIwxo5oGio8oyMwITAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIB\n"
    "hjAKBggqhkjOPQQDAgNIADBFAiEA4mMjju71CXeUK6xcUTQZ0W+2vjXSBeTISTuo\n"
    "sxu+5GUCIBK58wRpxnpzN5us/cDxCZi7SpMnsdnRIkkm8gm6sN4A\n"
    "-----END CERTIFICATE-----\n"
)
# A DER PKCS#10 request of an Ed25519 key with an empty subject, base64: the stub a
# kubelet sends in a PodCertificateRequest (Go checks its key type and signature only).
STUB_PKCS10_B64 = (
    "MH8wMwIBADAAMCowBQYDK2VwAyEAYxucg9AqS+J8EmMUr5mexya4js10P9ulhEVAlCl1rPagADAFBgMrZXAD"
    "QQDnDmi0se+FsfbCxBgUeu21L4x5NwnMgzhgGJXw7EXneCgY/88eHwalkj54gCHgAI9W8XSJ8Ux7wMVn7iQPmd8N"
)
RESOURCE_RULES = [
    {
        "apiGroups": ["diff-writes.example.com"],
        "apiVersions": ["v1"],
        "operations": ["CREATE"],
        "resources": ["nothings"],
    }
]

# (group, version, resource, kind, namespaced, fields besides metadata). A name is
# `diff-writes-<resource>` (a Node's, a CSINode's, ... too); the exceptions are in NAMES.
RESOURCES = [
    ("", "v1", "configmaps", "ConfigMap", True, {"data": {"a": "b"}}),
    (
        "",
        "v1",
        "endpoints",
        "Endpoints",
        True,
        {
            "subsets": [
                {
                    "addresses": [{"ip": "10.1.2.3"}],
                    "ports": [{"port": 80, "protocol": "TCP"}],
                }
            ]
        },
    ),
    (
        "",
        "v1",
        "events",
        "Event",
        True,
        {
            "involvedObject": {"kind": "Pod", "name": "p", "namespace": NS},
            "reason": "Tested",
            "message": "a write",
            "type": "Normal",
            "source": {"component": "diff-writes"},
        },
    ),
    (
        "",
        "v1",
        "limitranges",
        "LimitRange",
        True,
        {"spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}}]}},
    ),
    ("", "v1", "namespaces", "Namespace", False, {}),
    ("", "v1", "nodes", "Node", False, {}),
    (
        "",
        "v1",
        "persistentvolumeclaims",
        "PersistentVolumeClaim",
        True,
        {
            "spec": {
                "accessModes": ["ReadWriteOnce"],
                "storageClassName": "",
                "resources": {"requests": {"storage": "1Gi"}},
            }
        },
    ),
    (
        "",
        "v1",
        "persistentvolumes",
        "PersistentVolume",
        False,
        {
            "spec": {
                "capacity": {"storage": "1Gi"},
                "accessModes": ["ReadWriteOnce"],
                "hostPath": {"path": "/tmp/diff-writes"},
            }
        },
    ),
    ("", "v1", "pods", "Pod", True, {"spec": POD_SPEC}),
    ("", "v1", "podtemplates", "PodTemplate", True, {"template": TEMPLATE}),
    (
        "",
        "v1",
        "replicationcontrollers",
        "ReplicationController",
        True,
        {"spec": {"replicas": 1, "selector": {"app": "w"}, "template": TEMPLATE}},
    ),
    (
        "",
        "v1",
        "resourcequotas",
        "ResourceQuota",
        True,
        {"spec": {"hard": {"pods": "10"}}},
    ),
    ("", "v1", "secrets", "Secret", True, {"data": {"a": "Yg=="}}),
    ("", "v1", "serviceaccounts", "ServiceAccount", True, {}),
    (
        "",
        "v1",
        "services",
        "Service",
        True,
        {"spec": {"selector": {"app": "w"}, "ports": [{"port": 80}]}},
    ),
    (
        "apiregistration.k8s.io",
        "v1",
        "apiservices",
        "APIService",
        False,
        {
            "spec": {
                "group": "diff-writes.example.com",
                "version": "v1",
                "groupPriorityMinimum": 100,
                "versionPriority": 10,
            }
        },
    ),
    (
        "apps",
        "v1",
        "controllerrevisions",
        "ControllerRevision",
        True,
        {"revision": 1, "data": {"a": "b"}},
    ),
    (
        "apps",
        "v1",
        "daemonsets",
        "DaemonSet",
        True,
        {"spec": {"selector": SELECTOR, "template": TEMPLATE}},
    ),
    (
        "apps",
        "v1",
        "deployments",
        "Deployment",
        True,
        {"spec": {"replicas": 1, "selector": SELECTOR, "template": TEMPLATE}},
    ),
    (
        "apps",
        "v1",
        "replicasets",
        "ReplicaSet",
        True,
        {"spec": {"replicas": 1, "selector": SELECTOR, "template": TEMPLATE}},
    ),
    (
        "apps",
        "v1",
        "statefulsets",
        "StatefulSet",
        True,
        {"spec": {"replicas": 1, "selector": SELECTOR, "template": TEMPLATE}},
    ),
    (
        "events.k8s.io",
        "v1",
        "events",
        "Event",
        True,
        {
            "eventTime": "2025-01-01T00:00:00.000000Z",
            "reportingController": "example.com/diff-writes",
            "reportingInstance": "diff-writes-1",
            "action": "Write",
            "reason": "Tested",
            "regarding": {"kind": "Pod", "name": "p", "namespace": NS},
            "note": "a write",
            "type": "Normal",
        },
    ),
    (
        "autoscaling",
        "v2",
        "horizontalpodautoscalers",
        "HorizontalPodAutoscaler",
        True,
        {
            "spec": {
                "scaleTargetRef": {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "name": "w",
                },
                "minReplicas": 1,
                "maxReplicas": 3,
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "cpu",
                            "target": {"type": "Utilization", "averageUtilization": 50},
                        },
                    }
                ],
            }
        },
    ),
    (
        "autoscaling",
        "v1",
        "horizontalpodautoscalers",
        "HorizontalPodAutoscaler",
        True,
        {
            "spec": {
                "scaleTargetRef": {
                    "apiVersion": "apps/v1",
                    "kind": "Deployment",
                    "name": "w",
                },
                "maxReplicas": 3,
                "targetCPUUtilizationPercentage": 50,
            }
        },
    ),
    (
        "batch",
        "v1",
        "cronjobs",
        "CronJob",
        True,
        {"spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": JOB_TEMPLATE}}},
    ),
    ("batch", "v1", "jobs", "Job", True, {"spec": JOB_TEMPLATE}),
    (
        "certificates.k8s.io",
        "v1",
        "certificatesigningrequests",
        "CertificateSigningRequest",
        False,
        {
            "spec": {
                "request": CSR_B64,
                "signerName": "example.com/diff-writes",
                "usages": ["digital signature"],
            }
        },
    ),
    (
        "certificates.k8s.io",
        "v1",
        "clustertrustbundles",
        "ClusterTrustBundle",
        False,
        {"spec": {"trustBundle": CA_PEM}},
    ),
    (
        "certificates.k8s.io",
        "v1",
        "podcertificaterequests",
        "PodCertificateRequest",
        True,
        {
            "spec": {
                "signerName": "example.com/diff-writes",
                "podName": "p",
                "podUID": "00000000-0000-0000-0000-000000000001",
                "serviceAccountName": "default",
                "serviceAccountUID": "00000000-0000-0000-0000-000000000002",
                "nodeName": "n",
                "nodeUID": "00000000-0000-0000-0000-000000000003",
                "maxExpirationSeconds": 86400,
                "stubPKCS10Request": STUB_PKCS10_B64,
            }
        },
    ),
    (
        "networking.k8s.io",
        "v1",
        "ingressclasses",
        "IngressClass",
        False,
        {"spec": {"controller": "example.com/diff-writes"}},
    ),
    (
        "networking.k8s.io",
        "v1",
        "ingresses",
        "Ingress",
        True,
        {"spec": {"defaultBackend": {"service": {"name": "s", "port": {"number": 80}}}}},
    ),
    (
        "networking.k8s.io",
        "v1",
        "ipaddresses",
        "IPAddress",
        False,
        {
            "spec": {
                "parentRef": {
                    "group": "",
                    "resource": "services",
                    "namespace": NS,
                    "name": "s",
                }
            }
        },
    ),
    (
        "networking.k8s.io",
        "v1",
        "networkpolicies",
        "NetworkPolicy",
        True,
        {"spec": {"podSelector": {}}},
    ),
    (
        "networking.k8s.io",
        "v1",
        "servicecidrs",
        "ServiceCIDR",
        False,
        {"spec": {"cidrs": ["10.250.0.0/24"]}},
    ),
    (
        "policy",
        "v1",
        "poddisruptionbudgets",
        "PodDisruptionBudget",
        True,
        {"spec": {"minAvailable": 1, "selector": SELECTOR}},
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "clusterrolebindings",
        "ClusterRoleBinding",
        False,
        {
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "view",
            },
            "subjects": [
                {"kind": "User", "name": "alice", "apiGroup": "rbac.authorization.k8s.io"}
            ],
        },
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "clusterroles",
        "ClusterRole",
        False,
        {"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]},
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "rolebindings",
        "RoleBinding",
        True,
        {
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "view",
            },
            "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": NS}],
        },
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "roles",
        "Role",
        True,
        {"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]},
    ),
    (
        "storage.k8s.io",
        "v1",
        "csidrivers",
        "CSIDriver",
        False,
        {"spec": {"attachRequired": True}},
    ),
    (
        "storage.k8s.io",
        "v1",
        "csinodes",
        "CSINode",
        False,
        {"spec": {"drivers": [{"name": "csi.example.com", "nodeID": "n1"}]}},
    ),
    (
        "storage.k8s.io",
        "v1",
        "csistoragecapacities",
        "CSIStorageCapacity",
        True,
        {"storageClassName": "standard", "capacity": "1Gi"},
    ),
    (
        "storage.k8s.io",
        "v1",
        "storageclasses",
        "StorageClass",
        False,
        {"provisioner": "example.com/diff-writes"},
    ),
    (
        "storage.k8s.io",
        "v1",
        "volumeattachments",
        "VolumeAttachment",
        False,
        {
            "spec": {
                "attacher": "csi.example.com",
                "nodeName": "n1",
                "source": {"persistentVolumeName": "pv"},
            }
        },
    ),
    (
        "storage.k8s.io",
        "v1",
        "volumeattributesclasses",
        "VolumeAttributesClass",
        False,
        {"driverName": "csi.example.com", "parameters": {"iops": "100"}},
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "mutatingadmissionpolicies",
        "MutatingAdmissionPolicy",
        False,
        {
            "spec": {
                "matchConstraints": {"resourceRules": RESOURCE_RULES},
                "mutations": [
                    {
                        "patchType": "ApplyConfiguration",
                        "applyConfiguration": {
                            "expression": "Object{metadata: Object.metadata{labels: {'a': 'b'}}}"
                        },
                    }
                ],
                "reinvocationPolicy": "Never",
            }
        },
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "mutatingadmissionpolicybindings",
        "MutatingAdmissionPolicyBinding",
        False,
        {"spec": {"policyName": "diff-writes-none"}},
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "mutatingwebhookconfigurations",
        "MutatingWebhookConfiguration",
        False,
        {
            "webhooks": [
                {
                    "name": "w.diff-writes.example.com",
                    "clientConfig": {"url": "https://diff-writes.example.com/hook"},
                    "rules": RESOURCE_RULES,
                    "admissionReviewVersions": ["v1"],
                    "sideEffects": "None",
                }
            ]
        },
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicies",
        "ValidatingAdmissionPolicy",
        False,
        {
            "spec": {
                "matchConstraints": {"resourceRules": RESOURCE_RULES},
                "validations": [{"expression": "true"}],
            }
        },
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicybindings",
        "ValidatingAdmissionPolicyBinding",
        False,
        {"spec": {"policyName": "diff-writes-none", "validationActions": ["Deny"]}},
    ),
    (
        "admissionregistration.k8s.io",
        "v1",
        "validatingwebhookconfigurations",
        "ValidatingWebhookConfiguration",
        False,
        {
            "webhooks": [
                {
                    "name": "w.diff-writes.example.com",
                    "clientConfig": {"url": "https://diff-writes.example.com/hook"},
                    "rules": RESOURCE_RULES,
                    "admissionReviewVersions": ["v1"],
                    "sideEffects": "None",
                }
            ]
        },
    ),
    (
        "apiextensions.k8s.io",
        "v1",
        "customresourcedefinitions",
        "CustomResourceDefinition",
        False,
        {
            "spec": {
                "group": "diff-writes.example.com",
                "names": {
                    "plural": "widgets",
                    "singular": "widget",
                    "kind": "Widget",
                    "listKind": "WidgetList",
                },
                "scope": "Namespaced",
                "versions": [
                    {
                        "name": "v1",
                        "served": True,
                        "storage": True,
                        "schema": {"openAPIV3Schema": {"type": "object"}},
                    }
                ],
            }
        },
    ),
    (
        "scheduling.k8s.io",
        "v1",
        "priorityclasses",
        "PriorityClass",
        False,
        {"value": 1000},
    ),
    (
        "coordination.k8s.io",
        "v1",
        "leases",
        "Lease",
        True,
        {"spec": {"holderIdentity": "diff-writes", "leaseDurationSeconds": 10}},
    ),
    ("node.k8s.io", "v1", "runtimeclasses", "RuntimeClass", False, {"handler": "runc"}),
    (
        "discovery.k8s.io",
        "v1",
        "endpointslices",
        "EndpointSlice",
        True,
        {
            "addressType": "IPv4",
            "endpoints": [{"addresses": ["10.1.2.3"]}],
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}],
        },
    ),
    ("resource.k8s.io", "v1", "deviceclasses", "DeviceClass", False, {"spec": {}}),
    (
        "resource.k8s.io",
        "v1",
        "devicetaintrules",
        "DeviceTaintRule",
        False,
        {"spec": {"taint": {"key": "example.com/broken", "effect": "NoSchedule"}}},
    ),
    (
        "resource.k8s.io",
        "v1",
        "resourceclaims",
        "ResourceClaim",
        True,
        {
            "spec": {
                "devices": {
                    "requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]
                }
            }
        },
    ),
    (
        "resource.k8s.io",
        "v1",
        "resourceclaimtemplates",
        "ResourceClaimTemplate",
        True,
        {
            "spec": {
                "spec": {
                    "devices": {
                        "requests": [
                            {"name": "r", "exactly": {"deviceClassName": "gpu"}}
                        ]
                    }
                }
            }
        },
    ),
    (
        "resource.k8s.io",
        "v1",
        "resourceslices",
        "ResourceSlice",
        False,
        {
            "spec": {
                "driver": "csi.example.com",
                "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
                "nodeName": "n1",
                "devices": [{"name": "d0"}],
            }
        },
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "flowschemas",
        "FlowSchema",
        False,
        {
            "spec": {
                "priorityLevelConfiguration": {"name": "diff-writes-none"},
                "matchingPrecedence": 5000,
                "rules": [
                    {
                        "subjects": [
                            {"kind": "User", "user": {"name": "diff-writes-nobody"}}
                        ],
                        "resourceRules": [
                            {
                                "verbs": ["get"],
                                "apiGroups": [""],
                                "resources": ["configmaps"],
                                "namespaces": [NS],
                            }
                        ],
                    }
                ],
            }
        },
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "prioritylevelconfigurations",
        "PriorityLevelConfiguration",
        False,
        {
            "spec": {
                "type": "Limited",
                "limited": {
                    "nominalConcurrencyShares": 5,
                    "limitResponse": {"type": "Reject"},
                },
            }
        },
    ),
    (
        "storagemigration.k8s.io",
        "v1",
        "storageversionmigrations",
        "StorageVersionMigration",
        False,
        {"spec": {"resource": {"group": "apps", "resource": "deployments"}}},
    ),
]

# Names that cannot be diff-writes-<resource>.
NAMES = {
    # An APIService's name is <version>.<group>.
    "apiservices": "v1.diff-writes.example.com",
    # A CustomResourceDefinition's is <plural>.<group>.
    "customresourcedefinitions": "widgets.diff-writes.example.com",
    # An IPAddress's is the address (one outside the Service range).
    "ipaddresses": "192.168.250.5",
    # A CSIDriver's is the driver's, a DNS subdomain.
    "csidrivers": "csi.diff-writes.example.com",
}

# What a controller of the server writes to an object just made, which the get waits for
# (`until`): the writes after it would otherwise race the controller's.
UNTIL = {
    # The CustomResourceDefinition's naming and establishing controllers.
    "customresourcedefinitions": {
        "path": "/status/conditions",
        "matches": [{"type": "Established", "status": "True"}],
    },
    # The priority-and-fairness configuration controller (the FlowSchema's priority
    # level does not exist).
    "flowschemas": {
        "path": "/status/conditions",
        "matches": [{"type": "Dangling", "status": "True"}],
    },
}

# Reviews: a create answers with the status the server works out and stores nothing.
REVIEWS = [
    ("authentication.k8s.io", "v1", "tokenreviews", "TokenReview", False, {"spec": {"token": "not-a-token"}}),
    ("authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview", False, {}),
    (
        "authorization.k8s.io",
        "v1",
        "subjectaccessreviews",
        "SubjectAccessReview",
        False,
        {
            "spec": {
                "user": "alice",
                "resourceAttributes": {"namespace": NS, "verb": "get", "resource": "pods"},
            }
        },
    ),
    (
        "authorization.k8s.io",
        "v1",
        "localsubjectaccessreviews",
        "LocalSubjectAccessReview",
        True,
        {
            "spec": {
                "user": "alice",
                "resourceAttributes": {"namespace": NS, "verb": "get", "resource": "pods"},
            }
        },
    ),
    (
        "authorization.k8s.io",
        "v1",
        "selfsubjectaccessreviews",
        "SelfSubjectAccessReview",
        False,
        {
            "spec": {
                "resourceAttributes": {"namespace": NS, "verb": "get", "resource": "pods"}
            }
        },
    ),
    (
        "authorization.k8s.io",
        "v1",
        "selfsubjectrulesreviews",
        "SelfSubjectRulesReview",
        False,
        {"spec": {"namespace": NS}},
    ),
]

HEADER = """\
# Writes to every built-in resource of every served version (issue 41), in diff-writes:
# for each, a create of a small valid object, a get, an update (PUT of the object's
# fields as read, with a label added), a JSON patch, a merge patch, a strategic merge
# patch (each adding a label), a server-side apply (fieldManager diff-writes, forced:
# the created fields, which the other managers' atomic lists and structs hold with their
# defaults, and a label of its own), and a delete. Reviews (tokenreviews,
# selfsubjectreviews, subjectaccessreviews, localsubjectaccessreviews,
# selfsubjectaccessreviews, selfsubjectrulesreviews) answer a create without storing:
# they are sent a create only; Bindings a create binding the Pod to a Node.
# The update sends metadata of its own (name, labels, resourceVersion), so the
# finalizers StorageObjectInUseProtection admission added on create (a
# PersistentVolumeClaim's, a PersistentVolume's, a VolumeAttributesClass's) are dropped
# (the plugin admits creates only), and the delete is immediate.
# The get of a CustomResourceDefinition and of a FlowSchema waits (`until`) for what the
# server's controllers write to a new one (Established, Dangling), which the writes
# after would otherwise race.
# Resources a release does not serve (1.36: clustertrustbundles, podcertificaterequests,
# devicetaintrules, storageversionmigrations) answer 404, and their update is not sent.
# Skipped: componentstatuses (read-only: Go's componentstatus REST implements get and
# list only).
# Written by every-resource-writes.py (the objects are data there, one per resource):
#   python3 every-resource-writes.py > every-resource-writes.yaml
"""


def base_path(group, version):
    return "/api/v1" if group == "" else f"/apis/{group}/{version}"


def api_version(group, version):
    return version if group == "" else f"{group}/{version}"


def collection(group, version, resource, namespaced):
    ns = f"/namespaces/{NS}" if namespaced else ""
    return f"{base_path(group, version)}{ns}/{resource}"


def label_map(extra):
    labels = dict(LABELS)
    labels.update(extra)
    return labels


def writes(group, version, resource, kind, namespaced, fields):
    """The requests made of one resource."""
    key = f"{group or 'core'}".split(".")[0] + f"-{version}-{resource}"
    name = NAMES.get(resource, f"diff-writes-{resource}")
    coll = collection(group, version, resource, namespaced)
    item = f"{coll}/{name}"
    av = api_version(group, version)
    obj = {"apiVersion": av, "kind": kind, "metadata": {"name": name, "labels": label_map({})}}
    obj.update(fields)
    out = [{"name": f"create-{key}", "method": "POST", "path": coll, "body": obj}]
    if resource == "pods":
        out.append(
            {
                "name": "create-core-v1-bindings",
                "method": "POST",
                "path": f"/api/v1/namespaces/{NS}/bindings",
                "body": {
                    "apiVersion": "v1",
                    "kind": "Binding",
                    "metadata": {"name": name},
                    "target": {"apiVersion": "v1", "kind": "Node", "name": "diff-writes-nodes"},
                },
            }
        )
    get = {"name": f"get-{key}", "path": item}
    if resource in UNTIL:
        get["until"] = UNTIL[resource]
    out.append(get)
    # The update: the fields as read (defaults and what the server set included), under
    # metadata of its own.
    meta = {
        "name": name,
        "labels": label_map({"update": "yes"}),
        "resourceVersion": f"${{get-{key}/metadata/resourceVersion}}",
    }
    parts = [
        f'"apiVersion":{json.dumps(av)}',
        f'"kind":{json.dumps(kind)}',
        f'"metadata":{json.dumps(meta, separators=(",", ":"))}',
    ]
    # A string field is quoted: a reference to a string is replaced by the string alone.
    parts += [
        f'"{f}":"${{get-{key}/{f}}}"' if isinstance(v, str) else f'"{f}":${{get-{key}/{f}}}'
        for f, v in fields.items()
    ]
    out.append({"name": f"update-{key}", "method": "PUT", "path": item, "raw": "{" + ",".join(parts) + "}"})
    out.append(
        {
            "name": f"json-patch-{key}",
            "method": "PATCH",
            "path": item,
            "headers": {"content-type": "application/json-patch+json"},
            "body": [{"op": "add", "path": "/metadata/labels/json-patch", "value": "yes"}],
        }
    )
    out.append(
        {
            "name": f"merge-patch-{key}",
            "method": "PATCH",
            "path": item,
            "headers": {"content-type": "application/merge-patch+json"},
            "body": {"metadata": {"labels": {"merge-patch": "yes"}}},
        }
    )
    out.append(
        {
            "name": f"strategic-patch-{key}",
            "method": "PATCH",
            "path": item,
            "headers": {"content-type": "application/strategic-merge-patch+json"},
            "body": {"metadata": {"labels": {"strategic-patch": "yes"}}},
        }
    )
    applied = {"apiVersion": av, "kind": kind, "metadata": {"name": name, "labels": {"apply": "yes"}}}
    applied.update(fields)
    out.append(
        {
            "name": f"apply-{key}",
            "method": "PATCH",
            "path": f"{item}?fieldManager=diff-writes&force=true",
            "headers": {"content-type": "application/apply-patch+yaml"},
            "body": applied,
        }
    )
    out.append({"name": f"delete-{key}", "method": "DELETE", "path": item})
    return out


def review(group, version, resource, kind, namespaced, fields):
    key = f"{group.split('.')[0]}-{version}-{resource}"
    obj = {"apiVersion": api_version(group, version), "kind": kind}
    obj.update(fields)
    path = collection(group, version, resource, namespaced)
    return [{"name": f"create-{key}", "method": "POST", "path": path, "body": obj}]


def flow(value):
    """A compact YAML flow value (JSON is YAML)."""
    return json.dumps(value, separators=(", ", ": "))


def emit(requests):
    lines = [HEADER.rstrip("\n"), "requests:"]
    for r in requests:
        lines.append(f"- name: {r['name']}")
        if "method" in r:
            lines.append(f"  method: {r['method']}")
        lines.append(f"  path: {r['path']}")
        if "headers" in r:
            lines.append(f"  headers: {flow(r['headers'])}")
        if "body" in r:
            lines.append(f"  body: {flow(r['body'])}")
        if "until" in r:
            lines.append(f"  until: {flow(r['until'])}")
        if "raw" in r:
            lines.append(f"  raw: {json.dumps(r['raw'])}")
    return "\n".join(lines) + "\n"


def main():
    requests = [
        {
            "name": "namespace",
            "method": "POST",
            "path": "/api/v1/namespaces",
            "body": {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        },
        # kube-apiserver's ServiceAccount admission needs the namespace's default
        # ServiceAccount, which its controller manager would make.
        {
            "name": "service-account",
            "method": "POST",
            "path": f"/api/v1/namespaces/{NS}/serviceaccounts",
            "body": {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}},
        },
    ]
    for r in RESOURCES:
        requests += writes(*r)
    for r in REVIEWS:
        requests += review(*r)
    sys.stdout.write(emit(requests))


if __name__ == "__main__":
    main()
