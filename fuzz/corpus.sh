#!/usr/bin/env bash
# Builds the seed corpora and the dictionaries of the fuzz targets under fuzz/corpus/
# (git-ignored) from Go's fixtures and the project's own test data, read where they are:
# nothing is copied into the repository. Re-running adds to what is there (libFuzzer
# also writes the inputs it finds into these folders).
#
# Usage: fuzz/corpus.sh            (K8S_API_DIR overrides ../shared/k8s-api/v1.36)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
api="${K8S_API_DIR:-$repo/../shared/k8s-api/v1.36}"
out="$here/corpus"
dict="$here/dict"
mkdir -p "$out" "$dict"
for t in json_decode yaml protobuf quantity time selectors schema patch restmapper kubeconfig server; do
  mkdir -p "$out/$t"
done

# A seed file named by its content's hash, so re-runs do not duplicate seeds.
seed() { # target, then the seed on stdin
  local tmp
  tmp="$(mktemp)"
  cat >"$tmp"
  mv "$tmp" "$out/$1/seed-$(sha1sum "$tmp" | cut -c1-16)"
}
seed_lines() { # target, then one seed per line on stdin
  while IFS= read -r line; do printf '%s' "$line" | seed "$1"; done
}

testdata="$api/testdata"
if [ -d "$testdata" ]; then
  for f in "$testdata"/*.json; do seed json_decode <"$f"; done
  for f in "$testdata"/*.yaml; do seed yaml <"$f"; done
  for f in "$testdata"/*.pb; do seed protobuf <"$f"; done
  # Patch seeds: a fixture, NUL, then a patch touching lists with and without merge keys.
  for f in "$testdata"/core.v1.Pod.json "$testdata"/apps.v1.Deployment.json; do
    [ -f "$f" ] || continue
    { cat "$f"; printf '\0'; cat "$f"; } | seed patch
    { cat "$f"; printf '\0%s' '{"metadata":{"labels":{"a":null,"b":"c"},"finalizers":["x"],"$deleteFromPrimitiveList/finalizers":["y"]},"spec":{"containers":[{"name":"c","image":"i","$patch":"replace"}],"$setElementOrder/containers":[{"name":"c"}],"template":{"spec":{"containers":[{"name":"x","$patch":"delete"}]}}}}'; } | seed patch
  done
else
  echo "corpus.sh: $testdata not found; seeding from the project's own data only" >&2
fi

# The project's own test data.
for f in "$repo"/apimachinery/tests/data/*.json; do seed json_decode <"$f"; done
for f in "$repo"/apimachinery/tests/data/*.yaml "$repo"/apimachinery/src/serializer/yaml/testdata/*.yaml; do
  seed yaml <"$f"
done
printf '%s\n' '1' '0' '100m' '1.5Gi' '-1.5' '+1' '.5' '5.' '1e3' '1E-2' '1e+6' '0.1n' '1Ki' '1Mi' \
  '1Ti' '1Pi' '1Ei' '123456789012345678901234567890' '1.000000001' '9223372036854775807Ki' '1k' '1M' \
  '1G' '1T' '1P' '1E' '1u' '1n' '6000.E' | seed_lines quantity
printf '%s\n' '2006-01-02T15:04:05Z' '2006-01-02T15:04:05.999999999Z' '2006-01-02T15:04:05,5+07:00' \
  '2006-01-02T5:04:05-24:60' '0000-01-01T00:00:00Z' '9999-12-31T23:59:59.999999Z' \
  '1h30m' '-1.5h' '2h45m0.5s' '300ms' '1us' '1µs' '0' '9223372036854775807ns' | seed_lines time
printf '%s\n' 'app=web' 'app==web,tier!=front' 'env in (prod, qa),!canary' 'x notin (a,b)' \
  'a.b/c' '!a' 'a>1,b<2' 'metadata.name=foo,status.phase!=Running' 'spec.nodeName=' 'a\,b=c\=d' \
  | seed_lines selectors
printf '%s\n' 'apps/v1' 'v1' '/' 'a/b/c' 'apps/v1, Kind=Deployment' 'deployments.v1.apps' \
  'deployments.apps' 'Deployment.v1.apps' 'pods' 'deployments.apps/v1' 'networking.k8s.io/v1, Resource=ingresses' \
  | seed_lines schema
# Names as typed after `kubectl get`, and an aggregated discovery document.
printf '%s\n' 'deploy' 'deployments' 'deployment' 'Deployment' 'deployments.apps' 'deployments.v1.apps' \
  'Deployment.apps' 'Deployment.v1.apps' 'po' 'svc' 'ing' 'cj' 'all' 'pods.v1.' 'jobs.batch' \
  'ingresses.v1.networking.k8s.io' 'NetworkPolicy.networking.k8s.io' 'replicasets.v1beta2.apps' \
  | seed_lines restmapper
printf '%s' '{"apiVersion":"apidiscovery.k8s.io/v2","kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[{"resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment","verbs":["get","list"],"shortNames":["deploy"],"categories":["all"],"subresources":[{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get"]}]}],"freshness":"Current"}]}]}' | seed restmapper
# Kubeconfigs: the shapes kubectl, kind, cloud CLIs and in-cluster tools write.
printf '%s' 'apiVersion: v1
kind: Config
current-context: x
clusters:
- name: c
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    tls-server-name: kubernetes
users:
- name: u
  user:
    client-certificate: cert.pem
    client-key-data: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCg==
- name: e
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: gke-gcloud-auth-plugin
      args: [--flag]
      env: [{name: A, value: b}]
      interactiveMode: Never
      provideClusterInfo: true
contexts:
- name: x
  context: {cluster: c, user: u, namespace: team}
- name: y
  context: {cluster: c, user: e}
' | seed kubeconfig
printf '%s' 'clusters: [{name: c, cluster: {server: "http://localhost:8080", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: abc, username: a, password: b, tokenFile: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
' | seed kubeconfig
# Server requests: method, path, query, content type and body (see fuzz_targets/server.rs).
printf '%s\n' \
  'GET /api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dp' \
  'GET /apis/apps/v1/deployments?watch=true&timeoutSeconds=1&resourceVersion=0&allowWatchBookmarks=true' \
  'GET /api/v1/namespaces/default/pods?continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ&limit=1' \
  'DELETE /api/v1/namespaces/default/pods/p?dryRun=All&gracePeriodSeconds=0' \
  | seed_lines server
pod='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}'
printf 'POST /api/v1/namespaces/default/pods?fieldValidation=Strict\napplication/json\n%s' "$pod" | seed server
printf 'PUT /api/v1/namespaces/default/pods/p\napplication/yaml\nkind: Pod\napiVersion: v1\nmetadata:\n  name: p\n' | seed server
printf 'PATCH /api/v1/namespaces/default/pods/p\napplication/strategic-merge-patch+json\n%s' \
  '{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}' | seed server
printf 'PATCH /api/v1/namespaces/default/pods/p\napplication/merge-patch+json\n%s' \
  '{"metadata":{"labels":{"app":null}}}' | seed server
printf 'PATCH /api/v1/namespaces/default/pods/p\napplication/json-patch+json\n%s' \
  '[{"op":"add","path":"/metadata/labels/x","value":"y"},{"op":"copy","from":"/spec","path":"/metadata/annotations"}]' | seed server
printf 'PUT /apis/apps/v1/namespaces/default/deployments/d/scale\napplication/json\n%s' \
  '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d","namespace":"default"},"spec":{"replicas":3}}' | seed server

# Dictionaries: every property name of the API's schemas as a JSON key ("name":) and a
# YAML key (name:), plus the enum-like values and YAML's own tokens.
swagger="$api/swagger.json"
if [ -f "$swagger" ] && command -v jq >/dev/null 2>&1; then
  jq -r '[.definitions[] | (.properties // {}) | keys[]] | unique[]' "$swagger" >"$dict/keys.txt"
  { while IFS= read -r k; do printf '"\\"%s\\":"\n' "$k"; done <"$dict/keys.txt"
    printf '"%s"\n' '{' '}' '[' ']' 'null' 'true' 'false' '\"apiVersion\":\"v1\"' '\"kind\":\"Pod\"' \
      '\"apps/v1\"' '\"Deployment\"' '1e309' '-0' '\"\\u0000\"'
  } >"$dict/json.dict"
  { while IFS= read -r k; do printf '"%s: "\n' "$k"; done <"$dict/keys.txt"
    printf '"%s"\n' '\x0A- ' '\x0A  ' '---\x0A' '&a ' '*a' '<<: ' '!!str ' '!!int ' '!!binary ' '|-\x0A' '>+\x0A' \
      '? ' '{}' '[]' '~' 'yes' 'on' '0x1F' '0o17' '1_000' '.inf' '.nan' '2001-12-14t21:59:43.10-05:00' \
      'apiVersion: v1\x0A' 'kind: Pod\x0A'
  } >"$dict/yaml.dict"
  rm -f "$dict/keys.txt"
fi
printf '"%s"\n' 'n' 'u' 'm' 'k' 'M' 'G' 'T' 'P' 'E' 'Ki' 'Mi' 'Gi' 'Ti' 'Pi' 'Ei' 'e' '.' '-' '+' >"$dict/quantity.dict"
printf '"%s"\n' 'T' 'Z' ':' '-' '+' '.' ',' 'h' 'm' 's' 'ms' 'us' 'ns' '\xc2\xb5s' >"$dict/time.dict"
printf '"%s"\n' '=' '==' '!=' '!' ',' ' in ' ' notin ' '(' ')' '>' '<' '\\' 'metadata.name' \
  'metadata.namespace' 'status.phase' >"$dict/selectors.dict"
printf '"%s"\n' '/' '.' ', Kind=' ', Resource=' 'apps' 'v1' 'k8s.io' >"$dict/schema.dict"
cp "$dict/schema.dict" "$dict/restmapper.dict"
printf '"%s"\n' 'clusters:' 'users:' 'contexts:' 'current-context: ' 'cluster:' 'user:' 'context:' 'name: ' \
  'server: ' 'certificate-authority: ' 'certificate-authority-data: ' 'client-certificate-data: ' \
  'client-key: ' 'token: ' 'tokenFile: ' 'exec:' 'command: ' 'apiVersion: client.authentication.k8s.io/v1' \
  'insecure-skip-tls-verify: true' '- ' '\x0A  ' >"$dict/kubeconfig.dict"
for t in json_decode yaml protobuf quantity time selectors schema patch restmapper kubeconfig server; do
  echo "corpus.sh: $t: $(ls "$out/$t" | wc -l) seeds"
done
