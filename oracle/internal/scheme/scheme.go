// Package scheme is the oracle's view of Kubernetes 1.36's types: kube-apiserver's own
// scheme (every built-in group, internal and external versions, with Go's conversions
// and defaulters), the CustomResourceDefinition and APIService groups that
// apiextensions-apiserver and kube-aggregator serve beside it, and the round-trip fuzzer
// functions Kubernetes' own serialization tests use.
package scheme

import (
	"math/rand"
	"reflect"

	apiextensionsfuzzer "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/fuzzer"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	apiregistrationinstall "k8s.io/kube-aggregator/pkg/apis/apiregistration/install"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	kubetesting "k8s.io/kubernetes/pkg/api/testing"
	"sigs.k8s.io/randfill"

	// Every group kube-apiserver serves (pkg/controlplane/import_known_versions.go);
	// pkg/api/testing installs all of them but these two.
	_ "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"
)

// Scheme is legacyscheme.Scheme with apiextensions.k8s.io and apiregistration.k8s.io
// installed too, so that one scheme knows every kind our Rust Scheme registers.
var Scheme = legacyscheme.Scheme

// Codecs is the codec factory over Scheme.
var Codecs = legacyscheme.Codecs

func init() {
	apiextensionsinstall.Install(Scheme)
	apiregistrationinstall.Install(Scheme)
}

// externalSchemaFuncs do for the external CRD schema types what apiextensions-apiserver's
// fuzzer functions do for the internal ones: a schema's nested schemas (pointers, slices,
// maps) are filled with a chance of 1 in 10, so that the recursive type stays small, and
// its free-form JSON values are valid JSON (the external types carry raw bytes, which
// random bytes would not be).
func externalSchemaFuncs(runtimeserializer.CodecFactory) []interface{} {
	// Values Go's external type keeps as they were written (key order, number literals,
	// characters its encoder escapes), beside plain ones.
	values := []string{`true`, `false`, `null`, `1`, `-2.5`, `"text"`, `[]`, `[1,"a"]`, `{}`, `{"a":{"b":[null]}}`,
		`{"b":1,"a":2}`, `"<a & b>"`, `1.0`, `1e3`, `12345678901234567890`}
	pick := func(c randfill.Continue) []byte { return []byte(values[c.Rand.Intn(len(values))]) }
	return []interface{}{
		func(j *apiextensionsv1.JSON, c randfill.Continue) { j.Raw = pick(c) },
		func(j *apiextensionsv1beta1.JSON, c randfill.Continue) { j.Raw = pick(c) },
		func(j *apiextensionsv1.JSONSchemaProps, c randfill.Continue) { fillSchema(j, c) },
		func(j *apiextensionsv1beta1.JSONSchemaProps, c randfill.Continue) { fillSchema(j, c) },
	}
}

// fillSchema fills a JSONSchemaProps: every plain value, and each pointer, slice or map
// with a chance of 1 in 10.
func fillSchema(obj interface{}, c randfill.Continue) {
	v := reflect.ValueOf(obj).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch v.Field(i).Kind() {
		case reflect.Interface, reflect.Map, reflect.Slice, reflect.Pointer:
			if c.Intn(10) != 0 {
				continue
			}
		}
		c.Fill(v.Field(i).Addr().Interface())
	}
}

// kubernetesFuncs are Kubernetes' round-trip fuzzer functions
// (k8s.io/kubernetes/pkg/api/testing.FuzzerFuncs), for every group.
var kubernetesFuncs = kubetesting.FuzzerFuncs

// apiextensionsFuncs add apiextensions-apiserver's functions and the oracle's own for
// the external schema types, for apiextensions.k8s.io only: apiextensions-apiserver's
// include one for every int64 (53 bits, as its JSON values are floats) that Go's tests of
// the other groups do not use.
var apiextensionsFuncs = fuzzer.MergeFuzzerFuncs(
	kubetesting.FuzzerFuncs,
	apiextensionsfuzzer.Funcs,
	externalSchemaFuncs,
)

// Filler is the round-trip fuzzer for a kind of group, seeded with seed, as Go's
// round-trip tests make it (nil chance 0.5, collections of 0 or 1 element).
func Filler(group string, seed int64) *randfill.Filler {
	funcs := kubernetesFuncs
	if group == apiextensionsv1.GroupName {
		funcs = apiextensionsFuncs
	}
	return fuzzer.FuzzerFor(funcs, rand.NewSource(seed), Codecs)
}
