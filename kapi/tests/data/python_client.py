"""The official Python `kubernetes` client against `kapi serve`: typed CRUD, a list with
selectors, a conflict, and a watch. Argument: the kubeconfig `kapi serve` wrote. Prints
`ok` when every check passed; any failure raises."""

import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
apps = client.AppsV1Api()

names = sorted(ns.metadata.name for ns in core.list_namespace().items)
assert names == ["default", "kube-node-lease", "kube-public", "kube-system"], names

for i, env in enumerate(["prod", "dev", "prod"]):
    core.create_namespaced_config_map(
        "default",
        client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name=f"cm{i}", labels={"env": env}),
            data={"i": str(i)},
        ),
    )
prod = core.list_namespaced_config_map("default", label_selector="env=prod")
assert [c.metadata.name for c in prod.items] == ["cm0", "cm2"], prod.items
picked = core.list_namespaced_config_map("default", field_selector="metadata.name=cm1")
assert [c.metadata.name for c in picked.items] == ["cm1"]
page = core.list_namespaced_config_map("default", limit=2)
assert len(page.items) == 2 and page.metadata._continue
rest = core.list_namespaced_config_map("default", limit=2, _continue=page.metadata._continue)
assert [c.metadata.name for c in rest.items] == ["cm2"]

cm = core.read_namespaced_config_map("cm1", "default")
cm.data["i"] = "changed"
updated = core.replace_namespaced_config_map("cm1", "default", cm)
assert updated.data["i"] == "changed"
try:
    core.replace_namespaced_config_map("cm1", "default", cm)
    raise AssertionError("a stale update was accepted")
except ApiException as e:
    assert e.status == 409, e

deployment = client.V1Deployment(
    metadata=client.V1ObjectMeta(name="web"),
    spec=client.V1DeploymentSpec(
        replicas=1,
        selector=client.V1LabelSelector(match_labels={"app": "web"}),
        template=client.V1PodTemplateSpec(
            metadata=client.V1ObjectMeta(labels={"app": "web"}),
            spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx")]),
        ),
    ),
)
apps.create_namespaced_deployment("default", deployment)
apps.patch_namespaced_deployment_scale("web", "default", {"spec": {"replicas": 3}})
assert apps.read_namespaced_deployment("web", "default").spec.replicas == 3

# Go's conversion through the internal version, which kube-apiserver applies to every
# write: a Secret's stringData is merged into data and never returned; a pod's
# deprecated serviceAccount fills serviceAccountName, and both are returned.
core.create_namespaced_secret(
    "default",
    client.V1Secret(
        metadata=client.V1ObjectMeta(name="creds"),
        data={"user": "b2xk"},
        string_data={"user": "admin", "password": "s3cret"},
    ),
)
secret = core.read_namespaced_secret("creds", "default")
assert secret.data == {"user": "YWRtaW4=", "password": "czNjcmV0"}, secret.data
assert secret.string_data is None, secret.string_data
# The account must exist (Go's ServiceAccount admission refuses a pod naming a missing one).
core.create_namespaced_service_account(
    "default", client.V1ServiceAccount(metadata=client.V1ObjectMeta(name="bot"))
)
pod = core.create_namespaced_pod(
    "default",
    client.V1Pod(
        metadata=client.V1ObjectMeta(name="bot"),
        spec=client.V1PodSpec(
            service_account="bot", containers=[client.V1Container(name="c", image="nginx")]
        ),
    ),
)
assert (pod.spec.service_account_name, pod.spec.service_account) == ("bot", "bot"), pod.spec

events = []


def watch_configmaps():
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, "default", timeout_seconds=3):
        events.append((event["type"], event["object"].metadata.name))


t = threading.Thread(target=watch_configmaps)
t.start()
time.sleep(1)
core.create_namespaced_config_map(
    "default", client.V1ConfigMap(metadata=client.V1ObjectMeta(name="watched"))
)
core.delete_namespaced_config_map("watched", "default")
t.join()
assert ("ADDED", "watched") in events and ("DELETED", "watched") in events, events

core.delete_namespaced_config_map("cm0", "default")
try:
    core.read_namespaced_config_map("cm0", "default")
    raise AssertionError("a deleted object was found")
except ApiException as e:
    assert e.status == 404, e
print("ok")
