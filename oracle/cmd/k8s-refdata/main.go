// Command k8s-refdata writes what the Rust generator reads from the Go sources of
// Kubernetes' modules at one release: go-fields.json (every API struct's Go fields and
// shapes), go-internal-fields.json (the same of the internal types of k8s.io/kubernetes
// that validation messages write) and proto-fields.json (every protobuf message's fields, numbers, docs and
// markers). `cargo xtask refdata` runs it on the modules it fetched and verified; it only
// reads the directories it is given.
//
// Usage:
//
//	k8s-refdata OUT_DIR MODULE@VERSION=DIR...
//
// where each MODULE is k8s.io/api, k8s.io/apimachinery, k8s.io/apiextensions-apiserver,
// k8s.io/kube-aggregator or k8s.io/kubernetes, and DIR its source (Go's module cache).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/refdata"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: k8s-refdata OUT_DIR MODULE@VERSION=DIR...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "k8s-refdata:", err)
		os.Exit(1)
	}
}

func run(out string, args []string) error {
	goTypes := map[string]refdata.GoType{}
	internalTypes := map[string]refdata.GoType{}
	messages := map[string]refdata.ProtoMessage{}
	for _, arg := range args {
		spec, dir, ok := strings.Cut(arg, "=")
		path, version, ok2 := strings.Cut(spec, "@")
		if !ok || !ok2 {
			return fmt.Errorf("%q is not MODULE@VERSION=DIR", arg)
		}
		m := refdata.Module{Path: path, Version: version, Dir: dir}
		types, err := refdata.ReadGoTypes(m)
		if err != nil {
			return err
		}
		if m.Path == "k8s.io/kubernetes" {
			// Internal types only: no protobuf, and a file of their own.
			for k, v := range types {
				internalTypes[k] = v
			}
			continue
		}
		for k, v := range types {
			goTypes[k] = v
		}
		msgs, err := refdata.ReadProtoMessages(m)
		if err != nil {
			return err
		}
		for k, v := range msgs {
			messages[k] = v
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := refdata.WriteGoFields(filepath.Join(out, "go-fields.json"), goTypes); err != nil {
		return err
	}
	if len(internalTypes) > 0 {
		if err := refdata.WriteGoFields(filepath.Join(out, "go-internal-fields.json"), internalTypes); err != nil {
			return err
		}
	}
	return refdata.WriteProtoFields(filepath.Join(out, "proto-fields.json"), messages)
}
