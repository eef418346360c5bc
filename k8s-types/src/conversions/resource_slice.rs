//! `resource.k8s.io/v1beta1` ResourceSlice ⇄ the `resource.k8s.io/v1` hub.
//!
//! As in Kubernetes (`pkg/apis/resource/v1beta1/conversion.go`):
//!
//! - a `v1beta1` device holds its attributes, capacity, counters, node selection, taints
//!   and binding settings in `basic`; a `v1` device holds them itself. Going to `v1` they
//!   leave `basic` (the generated conversion of `BasicDevice` to `v1`'s `Device`, the
//!   device's name added); coming back they always go into a `basic`, empty or not;
//! - the spec's `nodeName` and `allNodes` are plain values in `v1beta1` and optional in
//!   `v1`: the empty name and `false` are `v1`'s unset fields, and unset fields come back
//!   as the empty name and `false`.
//!
//! What does not come back, as in Go: a `v1beta1` device without `basic` comes back with
//! an empty one; a `v1` spec with `nodeName: ""` or `allNodes: false` comes back without
//! them.

use apimachinery::conversion::{ConversionError, Convert, Scope, in_field};

use crate::resource::v1 as hub;
use crate::resource::v1beta1 as old;

impl Convert<hub::Device> for old::Device {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::Device, ConversionError> {
        let mut out = match self.basic {
            Some(basic) => in_field(basic.convert(scope), "basic")?,
            None => hub::Device::default(),
        };
        out.name = self.name;
        Ok(out)
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<hub::Device, ConversionError> {
        let mut out = match &self.basic {
            Some(basic) => in_field(basic.convert_ref(scope), "basic")?,
            None => hub::Device::default(),
        };
        out.name.clone_from(&self.name);
        Ok(out)
    }
}

impl Convert<old::Device> for hub::Device {
    fn convert(self, scope: &Scope<'_>) -> Result<old::Device, ConversionError> {
        let name = self.name.clone();
        let basic: old::BasicDevice = self.convert(scope)?;
        Ok(old::Device {
            name,
            basic: Some(basic),
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<old::Device, ConversionError> {
        Ok(old::Device {
            name: self.name.clone(),
            basic: Some(self.convert_ref(scope)?),
        })
    }
}

impl Convert<hub::ResourceSliceSpec> for old::ResourceSliceSpec {
    fn convert(self, scope: &Scope<'_>) -> Result<hub::ResourceSliceSpec, ConversionError> {
        Ok(hub::ResourceSliceSpec {
            driver: self.driver,
            pool: in_field(self.pool.convert(scope), "pool")?,
            node_name: (!self.node_name.is_empty()).then_some(self.node_name),
            node_selector: self.node_selector,
            all_nodes: self.all_nodes.then_some(true),
            devices: in_field(self.devices.convert(scope), "devices")?,
            per_device_node_selection: self.per_device_node_selection,
            shared_counters: in_field(self.shared_counters.convert(scope), "sharedCounters")?,
            // New in 1.37, the same in both versions.
            #[cfg(feature = "v1_37")]
            partition_type_attribute: self.partition_type_attribute,
            #[cfg(feature = "v1_37")]
            skip_node_operations: self.skip_node_operations,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<hub::ResourceSliceSpec, ConversionError> {
        self.clone().convert(scope)
    }
}

impl Convert<old::ResourceSliceSpec> for hub::ResourceSliceSpec {
    fn convert(self, scope: &Scope<'_>) -> Result<old::ResourceSliceSpec, ConversionError> {
        Ok(old::ResourceSliceSpec {
            driver: self.driver,
            pool: in_field(self.pool.convert(scope), "pool")?,
            node_name: self.node_name.unwrap_or_default(),
            node_selector: self.node_selector,
            all_nodes: self.all_nodes.unwrap_or_default(),
            devices: in_field(self.devices.convert(scope), "devices")?,
            per_device_node_selection: self.per_device_node_selection,
            shared_counters: in_field(self.shared_counters.convert(scope), "sharedCounters")?,
            // New in 1.37, the same in both versions.
            #[cfg(feature = "v1_37")]
            partition_type_attribute: self.partition_type_attribute,
            #[cfg(feature = "v1_37")]
            skip_node_operations: self.skip_node_operations,
        })
    }

    fn convert_ref(&self, scope: &Scope<'_>) -> Result<old::ResourceSliceSpec, ConversionError> {
        self.clone().convert(scope)
    }
}
