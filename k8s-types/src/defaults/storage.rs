//! `storage.k8s.io/v1`, `v1beta1` and `v1alpha1` (Go's `pkg/apis/storage/<version>/defaults.go`):
//! a StorageClass deletes its volumes and binds them at once; a CSIDriver is attached,
//! gets no pod info, has no storage capacity, changes the file system group of
//! `ReadWriteOnce` volumes with a file system type, serves persistent volumes, is not
//! republished and does no SELinux mount (feature SELinuxMountReadWriteOncePod, on by
//! default), and in 1.37 does not keep pods from being scheduled when missing (feature
//! VolumeLimitScaling, on by default from 1.37); a VolumeAttachment's inline volume gets
//! the persistent volume source defaults.

use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

use super::core::persistent_volume_spec;

macro_rules! storage_class {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            obj.reclaim_policy.get_or_insert_str("Delete");
            obj.volume_binding_mode.get_or_insert_str("Immediate");
        });
    };
}

macro_rules! csi_driver {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            let spec = &mut obj.spec;
            spec.attach_required.get_or_insert(true);
            spec.pod_info_on_mount.get_or_insert(false);
            spec.storage_capacity.get_or_insert(false);
            spec.fs_group_policy
                .get_or_insert_str("ReadWriteOnceWithFSType");
            if spec.volume_lifecycle_modes.is_empty() {
                spec.volume_lifecycle_modes.push("Persistent".to_owned());
            }
            spec.requires_republish.get_or_insert(false);
            spec.se_linux_mount.get_or_insert(false);
            // Feature VolumeLimitScaling: beta and on by default from 1.37 (alpha, off,
            // in 1.36).
            #[cfg(feature = "v1_37")]
            spec.prevent_pod_scheduling_if_missing.get_or_insert(false);
        });
    };
}

macro_rules! volume_attachment {
    ($d:ident, $ty:ty) => {
        $d.add(|obj: &mut $ty| {
            if let Some(s) = obj.spec.source.inline_volume_spec.as_mut() {
                persistent_volume_spec(s);
            }
        });
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::storage::{v1, v1alpha1, v1beta1};
    storage_class!(d, v1::StorageClass);
    storage_class!(d, v1beta1::StorageClass);
    csi_driver!(d, v1::CSIDriver);
    csi_driver!(d, v1beta1::CSIDriver);
    volume_attachment!(d, v1::VolumeAttachment);
    volume_attachment!(d, v1beta1::VolumeAttachment);
    volume_attachment!(d, v1alpha1::VolumeAttachment);
}
