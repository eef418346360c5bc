//! Custom resources (Go's `k8s.io/apiextensions-apiserver`): an
//! `apiextensions.k8s.io/v1` `CustomResourceDefinition` stored through the server makes
//! its resource served — discovery, OpenAPI v3 and the REST endpoints — once the CRD's
//! names are accepted, and deleting the CRD deletes its objects and the resource.
//!
//! | module | Go package | what it holds |
//! | --- | --- | --- |
//! | [`conversion`] | `apiserver/conversion` | conversion webhooks: `ConversionReview` sent over rustls, answers checked |
//! | [`definition`] | `apis/apiextensions/v1` | a CRD as served: [`CustomResource`] |
//! | [`status`] | `controller/status`, `controller/establish` | `acceptedNames`, `NamesAccepted`, `Established`, `storedVersions` |
//! | [`openapi`] | `controller/openapi/builder` | the v3 document of a custom group version |
//! | [`validation`] | `apis/apiextensions/validation` | the checks of a CRD written: name, schemas required and structural |
//! | [`table`] | `registry/customresource/tableconvertor` | `as=Table` answers with the printer columns |
//! | [`schema`] | `apiserver/schema`, `apiserver/validation` | structural schemas: pruning, defaulting, validation |
//! | [`warnings`] | `registry/customresourcedefinition` | the warnings about a CRD written |
//!
//! Custom resources are [`Unstructured`](apimachinery::runtime::Unstructured) objects,
//! stored as JSON at the storage version under `/registry/<group>/<plural>/`, as
//! kube-apiserver stores them. The server watches the CRD store: every server on one
//! storage serves the same custom resources.

pub(crate) mod controller;
pub mod conversion;
pub mod definition;
mod formats;
pub mod openapi;
mod openapi_paths;
pub mod schema;
pub mod status;
pub mod table;
pub mod validation;
pub mod warnings;

pub use definition::{
    Conversion, CustomResource, DefinitionError, PrinterColumn, ScaleSubresource, Version,
    WebhookClientConfig,
};
pub use status::{CLEANUP_FINALIZER, ReservedNames, compute_statuses};
