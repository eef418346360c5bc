package cases

import (
	"sort"

	"k8s.io/apimachinery/pkg/api/apitesting/roundtrip"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// Kind is one external kind of the scheme, with what the oracle can do with it.
type Kind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// Internal: the kind has an internal version, so it is converted and defaulted
	// through it (decode → default → internal → another version).
	Internal bool `json:"internal"`
	// Versions: every external version of the same group and kind, sorted.
	Versions []string `json:"versions"`
	// NotFuzzable says why Go's round-trip fuzzer does not apply to the kind, when it
	// does not (Go's own round-trip tests skip the same kinds).
	NotFuzzable string `json:"not_fuzzable,omitempty"`
	// Protobuf: the Go type has a protobuf form.
	Protobuf bool `json:"protobuf"`
}

// Kinds lists every external kind of the scheme, sorted by group, version and kind.
func Kinds() []Kind {
	all := scheme.Scheme.AllKnownTypes()
	versions := map[schema.GroupKind][]string{}
	for gvk := range all {
		if gvk.Version != runtime.APIVersionInternal {
			versions[gvk.GroupKind()] = append(versions[gvk.GroupKind()], gvk.Version)
		}
	}
	var out []Kind
	for gvk := range all {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		k := Kind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
		_, k.Internal = all[gvk.GroupKind().WithVersion(runtime.APIVersionInternal)]
		k.Versions = append([]string(nil), versions[gvk.GroupKind()]...)
		sort.Strings(k.Versions)
		obj, err := scheme.Scheme.New(gvk)
		switch {
		case err != nil:
			k.NotFuzzable = "the scheme cannot make one: " + err.Error()
		case roundtrip.GlobalNonRoundTrippableTypes().Has(gvk.Kind):
			k.NotFuzzable = "Go's round-trip tests exclude it in every group (only read as query parameters, or without TypeMeta)"
		default:
			if _, err := apimeta.TypeAccessor(obj); err != nil {
				k.NotFuzzable = "no TypeMeta: " + err.Error()
			}
		}
		_, k.Protobuf = obj.(protoMarshaler)
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return out
}

// protoMarshaler is what Go's protobuf serializer asks of an object.
type protoMarshaler interface {
	Marshal() ([]byte, error)
}
