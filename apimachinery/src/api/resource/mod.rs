//! Resource quantities (Go's `k8s.io/apimachinery/pkg/api/resource`).
//!
//! A [`Quantity`] is an exact decimal amount with a preferred [`Format`] for writing it:
//! `"1500m"`, `"1.5"` and `"1500e-3"` are the same quantity, and `"1Gi"` equals
//! `"1024Mi"`. Parsing, the canonical text, JSON and comparison follow Go's package.
//!
//! ```
//! use apimachinery::api::resource::{Format, Quantity};
//!
//! let q: Quantity = "1.5Gi".parse()?;
//! assert_eq!(q.to_string(), "1536Mi");
//! assert_eq!(q.format(), Format::BinarySI);
//! assert_eq!(q, "1536Mi".parse::<Quantity>()?);
//! assert!(q > "1G".parse::<Quantity>()?);
//! # Ok::<(), apimachinery::api::resource::QuantityError>(())
//! ```

mod amount;
mod canonical;
mod error;
mod format;
mod parse;
mod quantity;
mod repr;
mod scale;
mod suffix;

pub use error::QuantityError;
pub use format::Format;
pub use parse::parse_quantity;
pub use quantity::Quantity;
pub use scale::Scale;

#[cfg(test)]
mod tests;
