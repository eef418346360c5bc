//! The value types that API groups share on the wire (Go's `k8s.io/apimachinery/pkg/api`
//! and the byte-slice encoding of Go's `encoding/json`).
//!
//! - [`resource`]: [`Quantity`](resource::Quantity), the fixed-point amounts of CPU,
//!   memory and other resources (`"500m"`, `"1Gi"`).
//! - [`ByteString`]: a Go `[]byte` field (`Secret.data`, `ConfigMap.binaryData`, a CSR's
//!   `request`), written as standard base64.
//! - [`errors`]: API errors, the `Status` a failed request answers with, and the
//!   predicates that tell them apart by reason (Go's `api/errors`). It sits above the
//!   object model (its layer is its own: see the crate docs), the value types below it.

mod byte_string;
pub mod errors;
pub mod resource;

pub use byte_string::{ByteString, ByteStringError};
