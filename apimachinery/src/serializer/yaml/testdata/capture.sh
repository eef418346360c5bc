#!/bin/sh
# Regenerates the kubectl captures in this folder (run from here; needs kubectl, no cluster).
#
# - input/NAME.json: a hand-written object; kubectl reads it (as Unstructured) and writes
#   NAME.json (what it holds, `-o json`) and NAME.yaml (`-o yaml`), which json_to_yaml must
#   reproduce from NAME.json byte for byte.
# - input/random-NNN.json come from `./random_inputs.py 11 8` (seed, count); more seeds and
#   counts into another folder, captured there, make a larger differential run with
#   YAML_KUBECTL_CAPTURES=that-folder cargo test -p apimachinery writes_what_kubectl.
# - typed objects: kubectl's own `create ... --dry-run=client -o json|yaml`.
# - read/random-NNN.yaml come from `./random_yaml.py 5 6`; read/NAME.yaml: YAML written to exercise the reader; kubectl converts it with Go's
#   YAMLToJSON into read/NAME.json, which yaml_to_json must equal.
set -eu
for f in input/*.json; do
  name=$(basename "$f" .json)
  kubectl label --local -f "$f" foo- -o json > "$name.json"
  kubectl label --local -f "$f" foo- -o yaml > "$name.yaml"
done
kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=8080 --dry-run=client -o json > deployment.json
kubectl create deployment web --image=nginx:1.27 --replicas=3 --port=8080 --dry-run=client -o yaml > deployment.yaml
for fmt in json yaml; do
  kubectl create configmap script --from-file=run.sh=input/script.sh.txt --from-literal=empty= \
    --from-literal=spaces='  two leading' --dry-run=client -o "$fmt" > "configmap-script.$fmt"
  kubectl create secret generic creds --from-literal=password='p@ss: w0rd' --from-literal=token=12345 \
    --dry-run=client -o "$fmt" > "secret.$fmt"
done
for f in read/*.yaml; do
  kubectl label --local -f "$f" foo- -o json > "${f%.yaml}.json"
done
