//! The value types the generated fields use, re-exported from `apimachinery` under one
//! name each (the generated code names them through this module, so that it does not
//! depend on where `apimachinery` keeps them).

pub use apimachinery::api::ByteString;
pub use apimachinery::api::resource::Quantity;
pub use apimachinery::runtime::RawExtension;
pub use apimachinery::util::intstr::IntOrString;
