//! The storage group's validation (Go's `pkg/apis/storage/validation`): StorageClass,
//! VolumeAttributesClass, CSIDriver, CSINode (and its `/status` from 1.37),
//! CSIStorageCapacity and VolumeAttachment.

mod csi;
#[cfg(feature = "v1_37")]
mod csi_node_status;
mod storage_class;
mod volume_attachment;

pub use csi::*;
#[cfg(feature = "v1_37")]
pub use csi_node_status::*;
pub use storage_class::*;
pub use volume_attachment::*;
