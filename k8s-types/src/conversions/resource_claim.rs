//! `resource.k8s.io/v1beta1` ResourceClaim and ResourceClaimTemplate device requests ⇄
//! the `resource.k8s.io/v1` hub.
//!
//! A `v1beta1` request asks for devices of one class with its own fields
//! (`deviceClassName`, `selectors`, `allocationMode`, `count`, `adminAccess`,
//! `tolerations`, `capacity`, and since 1.37 `derivedAttributes`); `v1` moves them into
//! `exactly`, beside `firstAvailable`. As
//! in Kubernetes (`pkg/apis/resource/v1beta1/conversion.go`): going to `v1`, a request
//! with any of those fields set gets an `exactly` holding them (a request with both
//! those fields and `firstAvailable` is invalid, and stays so); coming back, `exactly`'s
//! fields become the request's own.
//!
//! What does not come back, as in Go: an `exactly` whose fields are all unset, which is
//! no `exactly` after `v1 → v1beta1 → v1`. (Go also tells an empty `selectors` or
//! `tolerations` list from an absent one, and makes an `exactly` for a request with only
//! an empty list; here both are absent, as in the JSON Go writes for them.)

use apimachinery::conversion::{ConversionError, Convert, Scope, in_field};

use crate::resource::v1 as hub;
use crate::resource::v1beta1 as old;

/// Whether a `v1beta1` request has any of the fields of `v1`'s `exactly`.
fn asks_exactly(r: &old::DeviceRequest) -> bool {
    let asks = !r.device_class_name.is_empty()
        || !r.selectors.is_empty()
        || !r.allocation_mode.is_empty()
        || r.count != 0
        || r.admin_access.is_some()
        || !r.tolerations.is_empty()
        || r.capacity.is_some();
    #[cfg(feature = "v1_37")]
    let asks = asks || !r.derived_attributes.is_empty();
    asks
}

/// Errors of `exactly`'s fields name their place in the `v1` request.
fn exactly_field<T>(result: Result<T, ConversionError>, name: &str) -> Result<T, ConversionError> {
    in_field(result, name).map_err(|e| e.in_field("exactly"))
}

impl Convert<hub::DeviceRequest> for old::DeviceRequest {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::DeviceRequest, ConversionError> {
        let exactly = if asks_exactly(&self) {
            Some(hub::ExactDeviceRequest {
                device_class_name: self.device_class_name,
                selectors: in_field(self.selectors.convert(scope), "selectors")?,
                allocation_mode: self.allocation_mode,
                count: self.count,
                admin_access: self.admin_access,
                tolerations: in_field(self.tolerations.convert(scope), "tolerations")?,
                capacity: in_field(self.capacity.convert(scope), "capacity")?,
                #[cfg(feature = "v1_37")]
                derived_attributes: in_field(
                    self.derived_attributes.convert(scope),
                    "derivedAttributes",
                )?,
            })
        } else {
            None
        };
        Ok(hub::DeviceRequest {
            name: self.name,
            exactly,
            first_available: in_field(self.first_available.convert(scope), "firstAvailable")?,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<hub::DeviceRequest, ConversionError> {
        self.clone().convert(scope)
    }
}

impl Convert<old::DeviceRequest> for hub::DeviceRequest {
    fn convert(self, scope: &Scope<'_>) -> Result<old::DeviceRequest, ConversionError> {
        let first_available = in_field(self.first_available.convert(scope), "firstAvailable")?;
        let e = self.exactly.unwrap_or_default();
        Ok(old::DeviceRequest {
            name: self.name,
            device_class_name: e.device_class_name,
            selectors: exactly_field(e.selectors.convert(scope), "selectors")?,
            allocation_mode: e.allocation_mode,
            count: e.count,
            admin_access: e.admin_access,
            first_available,
            tolerations: exactly_field(e.tolerations.convert(scope), "tolerations")?,
            capacity: exactly_field(e.capacity.convert(scope), "capacity")?,
            #[cfg(feature = "v1_37")]
            derived_attributes: exactly_field(
                e.derived_attributes.convert(scope),
                "derivedAttributes",
            )?,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<old::DeviceRequest, ConversionError> {
        self.clone().convert(scope)
    }
}
