package cases

import (
	"fmt"
	"sort"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// Versions is a fuzzed internal object written in each external version of its kind.
type Versions struct {
	// JSON by "group/version" (core: "v1").
	JSON map[string][]byte `json:"json"`
	// Errors by "group/version": the conversion or encoding that failed.
	Errors map[string]string `json:"errors,omitempty"`
}

// FuzzInternal fills an internal object of group and kind with Kubernetes' fuzzer
// functions (which keep the internal object coherent, as Go's round-trip tests need)
// and writes it in every external version of the kind.
func FuzzInternal(gk schema.GroupKind, seed int64) (*Versions, error) {
	internal := gk.WithVersion(runtime.APIVersionInternal)
	obj, err := scheme.Scheme.New(internal)
	if err != nil {
		return nil, err
	}
	scheme.Filler(gk.Group, seed).Fill(obj)
	if typeMeta, err := apimeta.TypeAccessor(obj); err == nil {
		typeMeta.SetAPIVersion("")
		typeMeta.SetKind("")
	}
	out := &Versions{JSON: map[string][]byte{}, Errors: map[string]string{}}
	var versions []schema.GroupVersion
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.GroupKind() == gk && gvk.Version != runtime.APIVersionInternal {
			versions = append(versions, gvk.GroupVersion())
		}
	}
	sort.Slice(versions, func(i, j int) bool { return versions[i].String() < versions[j].String() })
	for _, gv := range versions {
		data, err := encodeAs(JSON, obj.DeepCopyObject(), gv)
		if err != nil {
			out.Errors[gv.String()] = err.Error()
			continue
		}
		out.JSON[gv.String()] = data
	}
	return out, nil
}

// Converted is an object decoded, defaulted, and converted to a version.
type Converted struct {
	// Encoded: the result per format (JSON and protobuf).
	Encoded map[Format][]byte `json:"encoded,omitempty"`
	// Error: why decoding or conversion failed.
	Error string `json:"error,omitempty"`
}

// Convert reads data as kube-apiserver and kubectl convert do (decoded, defaulted by
// the version's defaulters, converted to the internal version), then converts it to
// target and writes it, as the server writes a response in another version.
func Convert(data []byte, format Format, target schema.GroupVersion) *Converted {
	s, err := serializer(format)
	if err != nil {
		return &Converted{Error: err.Error()}
	}
	decoder := scheme.Codecs.DecoderToVersion(s, runtime.InternalGroupVersioner)
	obj, _, err := decoder.Decode(data, nil, nil)
	if err != nil {
		return &Converted{Error: "decode: " + err.Error()}
	}
	out := &Converted{Encoded: map[Format][]byte{}}
	for _, f := range []Format{JSON, Protobuf} {
		encoded, err := encodeAs(f, obj.DeepCopyObject(), target)
		if err != nil {
			if out.Error == "" {
				out.Error = fmt.Sprintf("%s: %v", f, err)
			}
			continue
		}
		out.Encoded[f] = encoded
	}
	return out
}

// encodeAs converts obj to gv (through the scheme, as an encoder for a version does)
// and writes it in format f.
func encodeAs(f Format, obj runtime.Object, gv schema.GroupVersion) ([]byte, error) {
	s, err := serializer(f)
	if err != nil {
		return nil, err
	}
	return runtime.Encode(scheme.Codecs.EncoderForVersion(s, gv), obj)
}
