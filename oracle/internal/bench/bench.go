// Package bench measures Go's codecs on Go's fixtures, for BENCHMARKS.md: JSON and
// protobuf decode and encode of typed objects, through k8s.io/apimachinery's
// serializers as client-go and kube-apiserver use them.
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// Result is one measurement.
type Result struct {
	Input   string  `json:"input"`
	Op      string  `json:"op"`
	NsPerOp float64 `json:"ns_per_op"`
	Bytes   int     `json:"bytes"`
	Runs    int     `json:"runs"`
}

// PodListSize is the length of the list the benchmark builds from the Pod fixture.
const PodListSize = 1000

// Run measures each input: Go's Pod, Deployment and ConfigMap fixtures of dir, and a
// PodList of PodListSize copies of the Pod fixture with their own names.
func Run(dir string, enc *json.Encoder) error {
	jsonSerializer := jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, jsonserializer.SerializerOptions{})
	pb := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	inputs := map[string]runtime.Object{}
	order := []string{"core.v1.Pod", "apps.v1.Deployment", "core.v1.ConfigMap"}
	for _, stem := range order {
		data, err := os.ReadFile(filepath.Join(dir, stem+".json"))
		if err != nil {
			return err
		}
		obj, _, err := jsonSerializer.Decode(data, nil, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", stem, err)
		}
		inputs[stem] = obj
	}
	pod, ok := inputs["core.v1.Pod"].(*corev1.Pod)
	if !ok {
		return fmt.Errorf("core.v1.Pod.json is not a Pod")
	}
	list := &corev1.PodList{}
	list.APIVersion, list.Kind = "v1", "PodList"
	for i := 0; i < PodListSize; i++ {
		p := pod.DeepCopy()
		p.APIVersion, p.Kind = "", ""
		p.Name = fmt.Sprintf("pod-%d", i)
		list.Items = append(list.Items, *p)
	}
	inputs["PodList"] = list
	order = append(order, "PodList")

	for _, name := range order {
		obj := inputs[name]
		for _, codec := range []struct {
			format     string
			serializer runtime.Serializer
		}{{"json", jsonSerializer}, {"protobuf", pb}} {
			var buf bytes.Buffer
			if err := codec.serializer.Encode(obj, &buf); err != nil {
				return fmt.Errorf("%s %s: %w", name, codec.format, err)
			}
			data := buf.Bytes()
			s := codec.serializer
			decode := testing.Benchmark(func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, _, err := s.Decode(data, nil, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
			encode := testing.Benchmark(func(b *testing.B) {
				var out bytes.Buffer
				for i := 0; i < b.N; i++ {
					out.Reset()
					if err := s.Encode(obj, &out); err != nil {
						b.Fatal(err)
					}
				}
			})
			for _, r := range []struct {
				op string
				r  testing.BenchmarkResult
			}{{codec.format + "_decode", decode}, {codec.format + "_encode", encode}} {
				if err := enc.Encode(Result{Input: name, Op: r.op, NsPerOp: float64(r.r.T.Nanoseconds()) / float64(r.r.N), Bytes: len(data), Runs: r.r.N}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
