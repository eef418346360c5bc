package cases

import (
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// Wire is what Go's codecs do with one fuzzed object of an external kind.
type Wire struct {
	// Encoded: the fuzzed object as Go writes it, per format (protobuf missing for
	// kinds without a protobuf form).
	Encoded map[Format][]byte `json:"encoded"`
	// Reencoded: per format, Go's decode of Encoded[f] written again in f.
	Reencoded map[Format][]byte `json:"reencoded"`
	// AsJSON: per format, Go's decode of Encoded[f] written as JSON.
	AsJSON map[Format][]byte `json:"as_json"`
	// Errors: what failed, by step ("encode yaml", "decode protobuf", ...).
	Errors map[string]string `json:"errors,omitempty"`
}

// FuzzWire fills an object of the external kind gvk with Go's round-trip fuzzer and
// seed, then writes it in each format, and reads each back and writes it again, as
// Go's round-trip test does (k8s.io/apimachinery/pkg/api/apitesting/roundtrip).
func FuzzWire(gvk schema.GroupVersionKind, seed int64) (*Wire, error) {
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	scheme.Filler(gvk.Group, seed).Fill(obj)
	typeMeta, err := apimeta.TypeAccessor(obj)
	if err != nil {
		return nil, fmt.Errorf("%v has no TypeMeta: %w", gvk, err)
	}
	typeMeta.SetAPIVersion(gvk.GroupVersion().String())
	typeMeta.SetKind(gvk.Kind)

	w := &Wire{
		Encoded:   map[Format][]byte{},
		Reencoded: map[Format][]byte{},
		AsJSON:    map[Format][]byte{},
		Errors:    map[string]string{},
	}
	for _, f := range Formats {
		data, err := encode(f, obj)
		if err != nil {
			w.Errors["encode "+string(f)] = err.Error()
			continue
		}
		w.Encoded[f] = data
		back, _, err := decodeExternal(f, data)
		if err != nil {
			w.Errors["decode "+string(f)] = err.Error()
			continue
		}
		if again, err := encode(f, back); err != nil {
			w.Errors["re-encode "+string(f)] = err.Error()
		} else {
			w.Reencoded[f] = again
		}
		if asJSON, err := encode(JSON, back); err != nil {
			w.Errors["encode "+string(f)+" as json"] = err.Error()
		} else {
			w.AsJSON[f] = asJSON
		}
	}
	return w, nil
}
