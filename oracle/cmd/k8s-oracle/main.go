// Command k8s-oracle answers, from Kubernetes' own Go code (v1.36.3), what Go does with
// a kind, a seed or an object: the round-trip fuzzer's objects written by Go's codecs,
// Go's defaulting and conversion, and kube-apiserver's validation. Our Rust tests ask it
// and compare their own answers (see oracle/README.md).
//
// Usage:
//
//	k8s-oracle kinds          every external kind, one JSON object a line
//	k8s-oracle serve          requests on standard input, one JSON object a line;
//	                          one answer a line on standard output, in order
//	k8s-oracle bench DIR      Go's codec speeds on the fixtures in DIR (JSON lines)
//	k8s-oracle bench-reconcile [OBJECTS [RUNS]]
//	                          controller-runtime's reconcile loop: OBJECTS (10000)
//	                          no-op reconciles from a full queue, median of RUNS (10)
//	k8s-oracle bench-cache URL FROM CONFIGMAPS PODS
//	                          controller-runtime's cache bytes per object and
//	                          client-go's watch decode rate against the server at URL
//	k8s-oracle bench-watch-record URL FROM DIR CONFIGMAPS PODS
//	                          records the watch bodies (JSON, protobuf) of namespace
//	                          default's ConfigMaps and Pods from FROM into DIR
//	k8s-oracle bench-watch-decode DIR CONFIGMAPS PODS ITERATIONS
//	                          client-go's watch decode rate over DIR's recorded bodies
//	k8s-oracle openapi-v3-protobuf
//	                          the OpenAPI v3 JSON document on standard input as
//	                          kube-openapi's handler3 serves it in protobuf (gnostic's
//	                          openapi_v3.Document), on standard output
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"k8s.io/kube-openapi/pkg/handler3"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/bench"
	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/cases"
	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/protocol"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var err error
	switch os.Args[1] {
	case "kinds":
		for _, k := range cases.Kinds() {
			if err = enc.Encode(k); err != nil {
				break
			}
		}
	case "serve":
		err = protocol.Serve(os.Stdin, out)
	case "bench":
		if len(os.Args) != 3 {
			usage()
		}
		err = bench.Run(os.Args[2], enc)
	case "bench-cache":
		if len(os.Args) != 6 {
			usage()
		}
		var configmaps, pods int
		configmaps, err = strconv.Atoi(os.Args[4])
		if err == nil {
			pods, err = strconv.Atoi(os.Args[5])
		}
		if err == nil {
			err = bench.Cache(os.Args[2], os.Args[3], configmaps, pods, enc)
		}
	case "bench-watch-record", "bench-watch-decode":
		var counts map[string]int
		var iterations int
		if os.Args[1] == "bench-watch-record" && len(os.Args) == 7 {
			counts, err = watchCounts(os.Args[5], os.Args[6])
			if err == nil {
				err = bench.RecordWatch(os.Args[2], os.Args[3], os.Args[4], counts)
			}
		} else if os.Args[1] == "bench-watch-decode" && len(os.Args) == 6 {
			counts, err = watchCounts(os.Args[3], os.Args[4])
			if err == nil {
				iterations, err = strconv.Atoi(os.Args[5])
			}
			if err == nil {
				err = bench.DecodeWatch(os.Args[2], counts, iterations, enc)
			}
		} else {
			usage()
		}
	case "bench-reconcile":
		objects, runs := 10000, 10
		if len(os.Args) > 2 {
			objects, err = strconv.Atoi(os.Args[2])
		}
		if err == nil && len(os.Args) > 3 {
			runs, err = strconv.Atoi(os.Args[3])
		}
		if err == nil {
			err = bench.Reconcile(objects, runs, enc)
		}
	case "openapi-v3-protobuf":
		err = openAPIV3Protobuf(out)
	default:
		usage()
	}
	if err != nil {
		out.Flush()
		fmt.Fprintln(os.Stderr, "k8s-oracle:", err)
		os.Exit(1)
	}
}

// watchCounts is the events per recorded watch of each kind.
func watchCounts(configmaps, pods string) (map[string]int, error) {
	c, err := strconv.Atoi(configmaps)
	if err != nil {
		return nil, err
	}
	p, err := strconv.Atoi(pods)
	if err != nil {
		return nil, err
	}
	return map[string]int{"ConfigMap": c, "Pod": p}, nil
}

// openAPIV3Protobuf writes the protobuf form handler3 serves for the JSON document on
// standard input: its own ToV3ProtoBinary, gnostic's parse and proto.Marshal.
func openAPIV3Protobuf(out *bufio.Writer) error {
	document, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	pb, err := handler3.ToV3ProtoBinary(document)
	if err != nil {
		return err
	}
	_, err = out.Write(pb)
	return err
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: k8s-oracle kinds | serve | bench FIXTURE_DIR | bench-reconcile [OBJECTS [RUNS]] | bench-cache URL FROM CONFIGMAPS PODS | bench-watch-record URL FROM DIR CONFIGMAPS PODS | bench-watch-decode DIR CONFIGMAPS PODS ITERATIONS | openapi-v3-protobuf")
	os.Exit(2)
}
