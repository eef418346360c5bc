#!/usr/bin/env python3
"""Loads an API server (`kapi serve`, kube-apiserver) with CONFIGMAPS ConfigMaps and PODS
Pods in namespace "bench" (load-0 .., its default ServiceAccount must exist for
kube-apiserver's admission), over CLIENTS keep-alive connections, each object created
once; prints the seconds it took. run.sh then reads the server's resident memory.

Usage: load.py URL CONFIGMAPS PODS [CLIENTS]

An https URL is reached with TLS, trusting the certificate authority in env CACERT;
env TOKEN, when set, is sent as the bearer token of every request. (wrk, which the rates
use, always runs for its whole duration, so it cannot load a fixed number of objects.)
"""
import http.client
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse

url = sys.argv[1]
configmaps, pods = int(sys.argv[2]), int(sys.argv[3])
clients = int(sys.argv[4]) if len(sys.argv) > 4 else 4
u = urllib.parse.urlparse(url)
tls = ssl.create_default_context(cafile=os.environ.get("CACERT")) if u.scheme == "https" else None
headers = {"Content-Type": "application/json"}
if os.environ.get("TOKEN"):
    headers["Authorization"] = "Bearer " + os.environ["TOKEN"]


def configmap(i):
    return "/api/v1/namespaces/bench/configmaps", {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": f"load-{i}", "labels": {"app": "load"}},
        "data": {"key": "value", "config.yaml": "replicas: 3\nimage: nginx:1.27\n"}}


def pod(i):
    return "/api/v1/namespaces/bench/pods", {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": f"load-{i}", "labels": {"app": "load"}},
        "spec": {"automountServiceAccountToken": False, "containers": [{
            "name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 80}],
            "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}}}]}}


def worker(k, failures):
    if tls:
        c = http.client.HTTPSConnection(u.hostname, u.port, context=tls)
    else:
        c = http.client.HTTPConnection(u.hostname, u.port)
    work = [configmap(i) for i in range(k, configmaps, clients)] + \
        [pod(i) for i in range(k, pods, clients)]
    for path, body in work:
        c.request("POST", path, json.dumps(body), headers)
        r = c.getresponse()
        answer = r.read()
        if r.status != 201:
            failures.append(f"POST {path} {body['metadata']['name']}: {r.status} {answer[:200]!r}")
            return


def main():
    failures = []
    start = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(k, failures)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise SystemExit("\n".join(failures))
    print(f"{time.perf_counter() - start:.1f}")


main()
