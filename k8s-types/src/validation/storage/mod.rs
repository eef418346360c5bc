//! The storage group's validation (Go's `pkg/apis/storage/validation`): StorageClass,
//! VolumeAttributesClass, CSIDriver, CSINode, CSIStorageCapacity and
//! VolumeAttachment.

mod csi;
mod storage_class;
mod volume_attachment;

pub use csi::*;
pub use storage_class::*;
pub use volume_attachment::*;
