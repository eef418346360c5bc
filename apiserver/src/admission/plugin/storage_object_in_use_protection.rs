//! Go's `StorageObjectInUseProtection` admission plugin
//! (`plugin/pkg/admission/storage/storageobjectinuseprotection`): every
//! PersistentVolume, PersistentVolumeClaim and VolumeAttributesClass created (not
//! through a subresource) carries its protection finalizer, which
//! kube-controller-manager's protection controllers remove once nothing uses the object,
//! so that one in use is not deleted under its users. Go's handler admits creates only:
//! an update may drop the finalizer (as the protection controllers do), and it stays
//! dropped.

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;

use super::super::{Attributes, MutationInterface, Operation};

/// The plugin.
#[derive(Clone, Copy, Debug, Default)]
pub struct StorageObjectInUseProtection;

/// The finalizer of the objects of `group` and `resource` that are protected.
pub fn protection_finalizer(group: &str, resource: &str) -> Option<&'static str> {
    match (group, resource) {
        ("", "persistentvolumes") => Some("kubernetes.io/pv-protection"),
        ("", "persistentvolumeclaims") => Some("kubernetes.io/pvc-protection"),
        ("storage.k8s.io", "volumeattributesclasses") => Some("kubernetes.io/vac-protection"),
        _ => None,
    }
}

#[async_trait]
impl MutationInterface for StorageObjectInUseProtection {
    fn handles(&self, operation: Operation) -> bool {
        matches!(operation, Operation::Create)
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        if !attributes.subresource.is_empty() {
            return Ok(());
        }
        let resource = &attributes.resource;
        let Some(finalizer) = protection_finalizer(&resource.group, &resource.resource) else {
            return Ok(());
        };
        if let Some(meta) = attributes.object.as_mut().and_then(|o| o.meta_mut()) {
            let mut finalizers = meta.finalizers();
            if !finalizers.iter().any(|f| f == finalizer) {
                finalizers.push(finalizer.to_owned());
                meta.set_finalizers(finalizers);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_creates_are_admitted() {
        let plugin = StorageObjectInUseProtection;
        assert!(plugin.handles(Operation::Create));
        assert!(!plugin.handles(Operation::Update));
        assert!(!plugin.handles(Operation::Delete));
    }

    #[test]
    fn volumes_claims_and_attribute_classes_are_protected() {
        assert_eq!(
            protection_finalizer("", "persistentvolumes"),
            Some("kubernetes.io/pv-protection")
        );
        assert_eq!(
            protection_finalizer("", "persistentvolumeclaims"),
            Some("kubernetes.io/pvc-protection")
        );
        assert_eq!(
            protection_finalizer("storage.k8s.io", "volumeattributesclasses"),
            Some("kubernetes.io/vac-protection")
        );
        assert_eq!(
            protection_finalizer("storage.k8s.io", "storageclasses"),
            None
        );
    }
}
