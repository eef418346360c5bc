#!/usr/bin/env python3
"""Watch fan-out of an API server (`kapi serve`, kube-apiserver): WATCHERS watches of
ConfigMaps in namespace "bench" (JSON lines or protobuf frames), one writer creating N
ConfigMaps over one keep-alive connection; prints the events per second delivered to all watchers (from the first write
to the last event read) and the writer's rate.

Usage: watch_fanout.py URL [WATCHERS] [N] [json|protobuf]

An https URL is reached with TLS, trusting the certificate authority in env CACERT;
env TOKEN, when set, is sent as the bearer token of every request.

Env SERVER_PID, when set, names the server's process: its CPU time (utime + stime from
/proc/PID/stat) is read once every watch is established and again when the last event
has been read, and printed as server_cpu_ticks. That is the CPU of the events alone (the
writes that make them and their delivery): the watches' TLS handshakes and the first
list are connection set-up, paid once per watcher, not per event.

One process, one thread for the writer and a selector loop for the watchers, so the
reading side is Python's: the figure is a floor of what the server delivers.
"""
import http.client
import json
import selectors
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse

url = sys.argv[1]
watchers = int(sys.argv[2]) if len(sys.argv) > 2 else 100
n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
encoding = sys.argv[4] if len(sys.argv) > 4 else "json"
u = urllib.parse.urlparse(url)
host, port = u.hostname, u.port
base = "/api/v1/namespaces/bench/configmaps"
accept = ("application/vnd.kubernetes.protobuf;stream=watch"
          if encoding == "protobuf" else "application/json")
tls = ssl.create_default_context(cafile=os.environ.get("CACERT")) if u.scheme == "https" else None
auth = {"Authorization": "Bearer " + os.environ["TOKEN"]} if os.environ.get("TOKEN") else {}


def connection():
    if tls:
        return http.client.HTTPSConnection(host, port, context=tls)
    return http.client.HTTPConnection(host, port)


def list_rv():
    c = connection()
    c.request("GET", base + "?limit=1", headers=auth)
    rv = json.loads(c.getresponse().read())["metadata"]["resourceVersion"]
    c.close()
    return rv


class Watch:
    """One watch connection: de-chunks the body and counts events."""

    def __init__(self, rv):
        self.sock = socket.create_connection((host, port))
        if tls:
            self.sock = tls.wrap_socket(self.sock, server_hostname=host)
        extra = "".join(f"{k}: {v}\r\n" for k, v in auth.items())
        req = (f"GET {base}?watch=true&resourceVersion={rv}&timeoutSeconds=600 HTTP/1.1\r\n"
               f"Host: {host}:{port}\r\nAccept: {accept}\r\n{extra}\r\n")
        self.sock.sendall(req.encode())
        self.sock.setblocking(False)
        self.raw = b""
        self.headers_done = False
        self.chunk_left = 0  # bytes of the current chunk still to read
        self.body = b""
        self.events = 0

    def feed(self, data):
        self.raw += data
        if not self.headers_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.raw.split(b"\r\n", 1)[0]
            if b" 200 " not in status:
                raise SystemExit(f"watch answered {status!r}")
            self.raw = self.raw[end + 4:]
            self.headers_done = True
        while True:
            if self.chunk_left == 0:
                line_end = self.raw.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(self.raw[:line_end].split(b";")[0] or b"0", 16)
                self.raw = self.raw[line_end + 2:]
                self.chunk_left = size + 2  # the chunk and its CRLF
                if size == 0:
                    break
            take = min(self.chunk_left, len(self.raw))
            data_left = max(0, self.chunk_left - 2)  # the rest is the chunk's CRLF
            self.body += self.raw[: min(take, data_left)]
            self.raw = self.raw[take:]
            self.chunk_left -= take
            if not self.raw:
                break
        self.count()

    def count(self):
        if encoding == "protobuf":
            while len(self.body) >= 4:
                size = int.from_bytes(self.body[:4], "big")
                if len(self.body) < 4 + size:
                    break
                self.body = self.body[4 + size:]
                self.events += 1
        else:
            k = self.body.count(b"\n")
            if k:
                self.events += k
                self.body = self.body[self.body.rfind(b"\n") + 1:]


def server_cpu_ticks():
    """The server's utime + stime in clock ticks, or None without SERVER_PID."""
    pid = os.environ.get("SERVER_PID")
    if not pid:
        return None
    with open(f"/proc/{pid}/stat") as f:
        # The command name (field 2) may hold spaces: count fields after its ")".
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def writer(started, done_at):
    c = connection()
    started.append(time.perf_counter())
    for i in range(n):
        body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap",
                           "metadata": {"name": f"w-{i}", "labels": {"app": "bench"}},
                           "data": {"key": "value"}})
        c.request("POST", base, body, {"Content-Type": "application/json", **auth})
        r = c.getresponse()
        r.read()
        if r.status != 201:
            raise SystemExit(f"create answered {r.status}")
    done_at.append(time.perf_counter())


def main():
    rv = list_rv()
    ws = [Watch(rv) for _ in range(watchers)]
    sel = selectors.DefaultSelector()
    for w in ws:
        sel.register(w.sock, selectors.EVENT_READ, w)
    # Let every watch be established before the first write.
    time.sleep(1)
    cpu_before = server_cpu_ticks()
    started, done_at = [], []
    t = threading.Thread(target=writer, args=(started, done_at))
    t.start()
    remaining = watchers
    while remaining:
        for key, _ in sel.select(timeout=30):
            w = key.data
            try:
                data = w.sock.recv(1 << 16)
                # TLS may hold more decrypted bytes than one read returned.
                while tls and data and w.sock.pending():
                    data += w.sock.recv(1 << 16)
            except ssl.SSLWantReadError:
                continue
            if not data:
                raise SystemExit("a watch ended early")
            before = w.events >= n
            w.feed(data)
            if not before and w.events >= n:
                remaining -= 1
    end = time.perf_counter()
    cpu_after = server_cpu_ticks()
    t.join()
    elapsed = end - started[0]
    cpu = "" if cpu_before is None else f" server_cpu_ticks={cpu_after - cpu_before}"
    print(f"watchers={watchers} events_per_watcher={n} encoding={encoding} "
          f"delivered={watchers * n / elapsed:.0f}/s "
          f"writes={n / (done_at[0] - started[0]):.0f}/s "
          f"last_event_after_last_write={(end - done_at[0]) * 1000:.0f}ms{cpu}")


main()
