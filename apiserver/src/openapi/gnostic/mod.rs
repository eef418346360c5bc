//! An OpenAPI v3 document as kube-openapi's `handler3` serves it in protobuf
//! (`application/com.github.proto-openapi.spec.v3.v1.0+protobuf`): `ToV3ProtoBinary`
//! parses the JSON it serves with gnostic's `openapi_v3.ParseDocument` (through
//! go.yaml.in/yaml/v3 into nodes, then into the `openapi_v3.Document` message) and
//! marshals that with protobuf. The same here, byte for byte:
//!
//! - [`node`]: the JSON read into yaml.v3's node tree (key order kept, scalars tagged);
//! - [`tables`]: gnostic's messages as tables of keys and field numbers;
//! - [`walk`]: the nodes read into those messages, written as protobuf;
//! - [`resolve`]: the tag YAML gives a scalar's text;
//! - [`yaml`]: the YAML text an `Any` holds (enum values, examples, specification
//!   extensions such as `x-kubernetes-group-version-kind`).
//!
//! gnostic follows the document's key order (paths, schemas, properties and extensions
//! are lists in that order), so the protobuf of a document is a function of its bytes.

mod node;
mod resolve;
mod tables;
mod walk;
mod yaml;

/// Why a document has no protobuf form: it is not JSON, or gnostic would not read it (a
/// key the message does not allow, a required key missing, a value of the wrong type).
/// kube-openapi then answers with an empty body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpenAPI v3 document: {}", self.0)
    }
}

impl std::error::Error for Error {}

/// The protobuf bytes of the OpenAPI v3 JSON document `json` (gnostic's
/// `openapi_v3.Document`), as kube-openapi's `handler3.ToV3ProtoBinary` makes them.
pub fn document_protobuf(json: &[u8]) -> Result<Vec<u8>, Error> {
    let root = node::parse(json)?;
    let mut out = Vec::new();
    walk::message(tables::Msg::Document, &root, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests;
