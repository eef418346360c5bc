//! The object layer over the storage (Go's `registry/generic/registry` and
//! `storage/cacher`): one [`Store`] per served resource.

mod cacher;
mod continue_token;
mod event_conversion;
mod graceful_delete;
mod resource_info;
mod selection;
mod store;
pub mod validation;

pub use cacher::{CacheEvent, CacheWatch, Cacher, EventType};
pub use continue_token::{ContinueToken, ContinueTokenError};
pub use event_conversion::{EVENTS_GROUP, convert_event, crosses_event_groups};
pub use graceful_delete::{
    GracefulOutcome, before_delete, mark_as_deleting, supports_graceful_delete,
};
pub use resource_info::{ResourceInfo, resources_from_scheme};
pub use selection::{Selection, UnsupportedFieldError};
pub use store::{
    DeleteParams, ListPage, ListParams, Store, Subresource, decode_stored, from_value,
};
