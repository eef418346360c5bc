//! Admission webhooks (Go's `sigs.k8s.io/controller-runtime/pkg/webhook`): a
//! [`Server`] over HTTPS (rustls) serving admission handlers by path, and the handlers
//! a user builds from logic alone: a [`Defaulter`] of a typed object becomes a mutating
//! handler ([`DefaultingHandler`], the JSON patch computed from the object before and
//! after), a [`Validator`] a validating one ([`ValidatingHandler`], with warnings).
//! Objects are decoded through the Scheme, so a handler sees `Pod`, not JSON.
//!
//! The API server calls the server as the `clientConfig` of a
//! `MutatingWebhookConfiguration` or `ValidatingWebhookConfiguration` says, trusting
//! its `caBundle`: the CA of the certificate given to [`Server::new`] or
//! [`Server::from_files`] (read once; Go's certificate watcher, which reloads rotated
//! files, is not there). The `pod-defaulter` example is a complete webhook.
//!
//! Conversion webhooks for custom resources ([`conversion`]): a
//! [`ConversionHandler`] built from the Scheme answers the API server's
//! `ConversionReview`s ([`Server::register_conversion`]), and [`check_round_trips`]
//! tests that a user's versions convert without loss. The `widget-operator` example
//! is a complete one.

pub mod admission;
pub mod conversion;
pub mod server;

pub use admission::{
    AdmissionRequest, AdmissionResponse, Defaulter, DefaultingHandler, Denied, Handler,
    ValidatingHandler, Validator, Warnings,
};
pub use conversion::{ConversionHandler, check_round_trips};
pub use server::{RunningServer, Server, WebhookError};
