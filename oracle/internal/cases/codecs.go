// Package cases answers the oracle's requests: what Go's own code does with a kind, an
// object or a seed.
package cases

import (
	"bytes"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	"github.com/k8s-apimachinery-rs/apimachinery/oracle/internal/scheme"
)

// The serializers kube-apiserver and client-go use on the wire: compact JSON, YAML,
// protobuf in its envelope.
var (
	jsonSerializer     = json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, json.SerializerOptions{})
	yamlSerializer     = json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, json.SerializerOptions{Yaml: true})
	protobufSerializer = protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
)

// Format names one of the three wire formats.
type Format string

// The formats.
const (
	JSON     Format = "json"
	YAML     Format = "yaml"
	Protobuf Format = "protobuf"
)

// Formats in the order the answers give them.
var Formats = []Format{JSON, YAML, Protobuf}

func serializer(f Format) (runtime.Serializer, error) {
	switch f {
	case JSON:
		return jsonSerializer, nil
	case YAML:
		return yamlSerializer, nil
	case Protobuf:
		return protobufSerializer, nil
	}
	return nil, fmt.Errorf("unknown format %q", f)
}

// encode writes an external object as it is, in format f.
func encode(f Format, obj runtime.Object) ([]byte, error) {
	s, err := serializer(f)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := s.Encode(obj, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeExternal reads bytes in format f into the external type their kind names,
// without defaulting or conversion (what a client does with a response).
func decodeExternal(f Format, data []byte) (runtime.Object, *schema.GroupVersionKind, error) {
	s, err := serializer(f)
	if err != nil {
		return nil, nil, err
	}
	return s.Decode(data, nil, nil)
}
