//! Serializers: reading and writing API objects as JSON and YAML, byte for byte as Go's
//! `k8s.io/apimachinery/pkg/runtime/serializer` does.
//!
//! [`yaml`] is the YAML text layer: Go's YAML→JSON and JSON→YAML conversions
//! (`sigs.k8s.io/yaml` over go-yaml v2) and the multi-document stream reader.

pub mod yaml;
