//! A pod's volumes (Go's `ValidateVolumes` and the volume sources) and a container's
//! volume mounts and devices.

use std::collections::BTreeSet;

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_dns1123_label;

use crate::core::v1::{Volume, VolumeMount};

use super::volume_sources::{VolumeOwner, validate_source};
use crate::validation::invalid_each;
#[cfg(feature = "v1_37")]
use crate::validation::pod_security::id_range;
use crate::validation::pod_security::validate_local_descending_path;

use super::MOUNT_PROPAGATIONS;
use super::containers::{ContainerView, PodFacts};
use super::pv_sources::host_path;
use super::volume_projections::{file_mode, key_to_path};

/// Go's `validateVolumes`: names (DNS labels, unique) and exactly one source each;
/// returns the names of the volumes without errors, as Go's map of volumes holds only
/// those: a mount of a volume with an error is a mount of a volume not found (an empty
/// name mounted from an empty-named volume, seed 387 of the oracle's 1.36 run from 200),
/// and only those count as taken for the duplicate check.
pub(super) fn validate_volumes<'v>(
    volumes: &'v [Volume],
    owner: VolumeOwner,
    path: &Path,
    errs: &mut ErrorList,
) -> BTreeSet<&'v str> {
    let mut names = BTreeSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let before = errs.len();
        let p = path.index(i);
        let np = p.child("name");
        if v.name.is_empty() {
            errs.push(Error::required(&np, ""));
        } else {
            invalid_each(errs, &np, &v.name, is_dns1123_label(&v.name));
        }
        if names.contains(v.name.as_str()) {
            errs.push(Error::duplicate(&np, &v.name));
        }
        validate_volume_source(v, owner, &p, errs);
        if errs.len() == before {
            names.insert(v.name.as_str());
        }
    }
    names
}

pub(super) fn validate_volume_source(
    v: &Volume,
    owner: VolumeOwner,
    path: &Path,
    errs: &mut ErrorList,
) {
    // Go's order of checks: the first source set counts, each further one is forbidden
    // (at the second name: Go's, typos included); the first is checked under the third.
    let sources: [(&str, bool, &str); 30] = [
        ("emptyDir", v.empty_dir.is_some(), "emptyDir"),
        ("hostPath", v.host_path.is_some(), "hostPath"),
        ("gitRepo", v.git_repo.is_some(), "gitRepo"),
        (
            "gcePersistentDisk",
            v.gce_persistent_disk.is_some(),
            "persistentDisk",
        ),
        (
            "awsElasticBlockStore",
            v.aws_elastic_block_store.is_some(),
            "awsElasticBlockStore",
        ),
        ("secret", v.secret.is_some(), "secret"),
        ("nfs", v.nfs.is_some(), "nfs"),
        ("iscsi", v.iscsi.is_some(), "iscsi"),
        ("glusterfs", v.glusterfs.is_some(), "glusterfs"),
        ("flocker", v.flocker.is_some(), "flocker"),
        (
            "persistentVolumeClaim",
            v.persistent_volume_claim.is_some(),
            "persistentVolumeClaim",
        ),
        ("rbd", v.rbd.is_some(), "rbd"),
        ("cinder", v.cinder.is_some(), "cinder"),
        ("cephFS", v.cephfs.is_some(), "cephfs"),
        ("quobyte", v.quobyte.is_some(), "quobyte"),
        ("downwarAPI", v.downward_api.is_some(), "downwardAPI"),
        ("fc", v.fc.is_some(), "fc"),
        ("flexVolume", v.flex_volume.is_some(), "flexVolume"),
        ("configMap", v.config_map.is_some(), "configMap"),
        ("azureFile", v.azure_file.is_some(), "azureFile"),
        ("vsphereVolume", v.vsphere_volume.is_some(), "vsphereVolume"),
        (
            "photonPersistentDisk",
            v.photon_persistent_disk.is_some(),
            "photonPersistentDisk",
        ),
        (
            "portworxVolume",
            v.portworx_volume.is_some(),
            "portworxVolume",
        ),
        ("azureDisk", v.azure_disk.is_some(), "azureDisk"),
        ("storageos", v.storageos.is_some(), "storageos"),
        ("projected", v.projected.is_some(), "projected"),
        ("scaleIO", v.scale_io.is_some(), "scaleIO"),
        ("csi", v.csi.is_some(), "csi"),
        ("ephemeral", v.ephemeral.is_some(), "ephemeral"),
        ("image", v.image.is_some(), "image"),
    ];
    let mut count = 0;
    for (name, set, checked_at) in sources {
        if !set {
            continue;
        }
        if count > 0 {
            errs.push(Error::forbidden(
                &path.child(name),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        count += 1;
        let p = path.child(checked_at);
        validate_source(checked_at, v, owner, &p, path, errs);
        // On 1.36 the emptyDir arm holds one `if`, which clippy would fold into the match.
        #[cfg_attr(not(feature = "v1_37"), allow(clippy::collapsible_match))]
        match name {
            "emptyDir" => {
                if v.empty_dir
                    .as_ref()
                    .and_then(|e| e.size_limit.as_ref())
                    .is_some_and(|q| q.sign() < 0)
                {
                    errs.push(Error::forbidden(
                        &p.child("sizeLimit"),
                        "SizeLimit field must be a valid resource quantity",
                    ));
                }
                // Kubernetes 1.37's `emptyDir.mode`: 0 to 01777 (the sticky bit allowed).
                #[cfg(feature = "v1_37")]
                if let Some(m) = v.empty_dir.as_ref().and_then(|e| e.mode) {
                    if !(0..=0o1777).contains(&m) {
                        errs.push(Error::invalid(
                            &p.child("mode"),
                            m,
                            "must be a number between 0 and 01777 (octal), both inclusive",
                        ));
                    }
                }
            }
            "hostPath" => {
                if let Some(h) = &v.host_path {
                    host_path(h, &p, errs);
                }
            }
            "secret" => {
                if let Some(s) = &v.secret {
                    if s.secret_name.is_empty() {
                        errs.push(Error::required(&p.child("secretName"), ""));
                    }
                    file_mode(s.default_mode, &p.child("defaultMode"), errs);
                    #[cfg(feature = "v1_37")]
                    id_range(s.default_user, &p.child("defaultUser"), errs);
                    let ip = p.child("items");
                    for (j, kp) in s.items.iter().enumerate() {
                        key_to_path(kp, &ip.index(j), errs);
                    }
                }
            }
            "configMap" => {
                if let Some(c) = &v.config_map {
                    if c.name.is_empty() {
                        errs.push(Error::required(&p.child("name"), ""));
                    }
                    file_mode(c.default_mode, &p.child("defaultMode"), errs);
                    #[cfg(feature = "v1_37")]
                    id_range(c.default_user, &p.child("defaultUser"), errs);
                    let ip = p.child("items");
                    for (j, kp) in c.items.iter().enumerate() {
                        key_to_path(kp, &ip.index(j), errs);
                    }
                }
            }
            "persistentVolumeClaim"
                if v.persistent_volume_claim
                    .as_ref()
                    .is_some_and(|c| c.claim_name.is_empty()) =>
            {
                errs.push(Error::required(&p.child("claimName"), ""));
            }
            _ => {}
        }
    }
    if count == 0 {
        errs.push(Error::required(path, "must specify a volume type"));
    }
}

/// Go's `ValidateVolumeMounts`: a named, known volume at a unique path not used by a
/// volume device, sub-paths relative without `..` (Go reports those two and the
/// propagation on the list's path, without the index), a known mount propagation,
/// `Bidirectional` only for privileged containers.
pub(super) fn validate_volume_mounts(
    c: &ContainerView,
    volumes: &BTreeSet<&str>,
    pod: &PodFacts,
    privileged: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut points = BTreeSet::new();
    for (i, m) in c.volume_mounts.iter().enumerate() {
        let p = path.index(i);
        if m.name.is_empty() {
            errs.push(Error::required(&p.child("name"), ""));
        }
        if !volumes.contains(m.name.as_str()) {
            errs.push(Error::not_found(&p.child("name"), &m.name));
        }
        if m.mount_path.is_empty() {
            errs.push(Error::required(&p.child("mountPath"), ""));
        }
        if !points.insert(m.mount_path.as_str()) {
            errs.push(Error::invalid(
                &p.child("mountPath"),
                &m.mount_path,
                "must be unique",
            ));
        }
        if c.volume_devices.iter().any(|d| d.name == m.name) {
            errs.push(Error::invalid(
                &p.child("name"),
                &m.name,
                "must not already exist in volumeDevices",
            ));
        }
        if c.volume_devices
            .iter()
            .any(|d| d.device_path == m.mount_path)
        {
            errs.push(Error::invalid(
                &p.child("mountPath"),
                &m.mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        if !m.sub_path.is_empty() {
            validate_local_descending_path(&m.sub_path, &path.child("subPath"), errs);
        }
        if !m.sub_path_expr.is_empty() {
            if !m.sub_path.is_empty() {
                errs.push(Error::invalid(
                    &p.child("subPathExpr"),
                    &m.sub_path_expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            validate_local_descending_path(&m.sub_path_expr, &path.child("subPathExpr"), errs);
        }
        if let Some(mp) = &m.mount_propagation {
            let pp = path.child("mountPropagation");
            if !MOUNT_PROPAGATIONS.contains(&mp.as_str()) {
                errs.push(Error::not_supported(
                    &pp,
                    BadValue::json_string(mp),
                    MOUNT_PROPAGATIONS,
                ));
            }
            if mp == "Bidirectional" && !privileged {
                errs.push(Error::forbidden(
                    &pp,
                    "Bidirectional mount propagation is available only to privileged containers",
                ));
            }
        }
        recursive_read_only(m, &path.child("recursiveReadOnly"), errs);
        #[cfg(feature = "v1_37")]
        bind_mount_options(m, volumes, pod, &p.child("bindMountOptions"), errs);
    }
    #[cfg(not(feature = "v1_37"))]
    let _ = pod;
}

/// Kubernetes 1.37's `bindMountOptions` (Go's `validateBindMountOptions` and the image
/// volume check of `ValidateVolumeMounts`): known, unique options, and none on a mount
/// of an image volume. Checked whatever the VolumeBindMountOptions gate says, as Go
/// does (the strategy drops the field when the gate is off).
#[cfg(feature = "v1_37")]
fn bind_mount_options(
    m: &VolumeMount,
    volumes: &BTreeSet<&str>,
    pod: &PodFacts,
    path: &Path,
    errs: &mut ErrorList,
) {
    const OPTIONS: &[&str] = &["nodev", "noexec", "nosuid"];
    let mut seen = BTreeSet::new();
    for (i, opt) in m.bind_mount_options.iter().enumerate() {
        if !OPTIONS.contains(&opt.as_str()) {
            errs.push(Error::not_supported(&path.index(i), opt, OPTIONS));
        }
        if !seen.insert(opt.as_str()) {
            errs.push(Error::duplicate(&path.index(i), opt));
        }
    }
    let name = m.name.as_str();
    if !m.bind_mount_options.is_empty()
        && volumes.contains(name)
        && pod.image_volumes.contains(name)
    {
        errs.push(Error::invalid(
            path,
            BadValue::json_strings(&m.bind_mount_options),
            "bindMountOptions may not be used with image volumes",
        ));
    }
}

/// Go's `validateMountRecursiveReadOnly` (on the list's path, as Go has it): a known
/// mode; `Enabled` and `IfPossible` only on a read-only mount without propagation.
fn recursive_read_only(m: &VolumeMount, path: &Path, errs: &mut ErrorList) {
    let Some(rro) = &m.recursive_read_only else {
        return;
    };
    match rro.as_str() {
        "Disabled" => {}
        "Enabled" | "IfPossible" => {
            if !m.read_only {
                errs.push(Error::forbidden(
                    path,
                    "may only be specified when readOnly is true",
                ));
            }
            if m.mount_propagation.as_ref().is_some_and(|p| p != "None") {
                errs.push(Error::forbidden(
                    path,
                    "may only be specified when mountPropagation is None or not specified",
                ));
            }
        }
        _ => errs.push(Error::not_supported(
            path,
            BadValue::json_string(rro),
            &["Disabled", "Enabled", "IfPossible"],
        )),
    }
}

/// Go's `ValidateVolumeDevices`: a named, unique device from a PVC or ephemeral
/// volume, at a unique path without `..`, neither used by a volume mount.
pub(super) fn validate_volume_devices(
    c: &ContainerView,
    volumes: &BTreeSet<&str>,
    pod: &PodFacts,
    path: &Path,
    errs: &mut ErrorList,
) {
    let mut paths = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (i, d) in c.volume_devices.iter().enumerate() {
        let p = path.index(i);
        let np = p.child("name");
        let dp = p.child("devicePath");
        let (name, dev_path) = (d.name.as_str(), d.device_path.as_str());
        let matched = volumes.contains(name);
        if name.is_empty() {
            errs.push(Error::required(&np, ""));
        }
        if names.contains(name) {
            errs.push(Error::invalid(&np, name, "must be unique"));
        }
        if matched && !pod.block_volumes.contains(name) {
            errs.push(Error::invalid(
                &np,
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if !matched {
            errs.push(Error::not_found(&np, name));
        }
        if dev_path.is_empty() {
            errs.push(Error::required(&dp, ""));
        }
        if paths.contains(dev_path) {
            errs.push(Error::invalid(&dp, dev_path, "must be unique"));
        }
        if !dev_path.is_empty() && dev_path.split('/').any(|part| part == "..") {
            errs.push(Error::invalid(
                &dp,
                dev_path,
                "can not contain backsteps ('..')",
            ));
        } else {
            paths.insert(dev_path);
        }
        if c.volume_mounts.iter().any(|m| m.name == name) {
            errs.push(Error::invalid(
                &np,
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if c.volume_mounts.iter().any(|m| m.mount_path == dev_path) {
            errs.push(Error::invalid(
                &dp,
                dev_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            names.insert(name);
        }
    }
}
