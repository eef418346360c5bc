//! The rules of each volume source (Go's `validate<Source>VolumeSource` functions that
//! `validateVolumeSource` calls for the one source a volume has).

use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::{Error, ErrorList, Path, go_quote};
use apimachinery::util::validation::{
    inclusive_range_error, is_dns1123_label, is_dns1123_subdomain,
};

use super::persistent_volume_claim::{
    PersistentVolumeClaimSpecOptions, validate_persistent_volume_claim_spec,
};
use super::volume_projections::{downward_api_file, file_mode, projected};
use super::{PULL_POLICIES, one_of, pv_sources};
use crate::core::v1::{LocalObjectReference, Volume};
use crate::validation::invalid_each;
use crate::validation::pod_security::validate_local_descending_path;
use crate::validation::template_meta::validate_template_object_meta;

/// A disk's partition, 0 to 255 (Go's message, `pdPartitionErrorMsg`, says 1 to 255).
fn partition(partition: i32, path: &Path, errs: &mut ErrorList) {
    if !(0..=255).contains(&partition) {
        errs.push(Error::invalid(
            &path.child("partition"),
            partition,
            inclusive_range_error(1, 255),
        ));
    }
}

fn required(set: bool, path: &Path, errs: &mut ErrorList) {
    if !set {
        errs.push(Error::required(path, ""));
    }
}

fn secret_ref_named(r: Option<&LocalObjectReference>, path: &Path, errs: &mut ErrorList) {
    if r.is_some_and(|r| r.name.is_empty()) {
        let sp = path.child("secretRef");
        errs.push(Error::required(&sp.child("name"), ""));
    }
}

/// What a volume's rules depend on besides the volume: the pod's name (Go's
/// `podMeta`, a Pod's own; none for a template), and whether the spec is a Pod's own
/// (Go's `ResourceIsPod`).
#[derive(Clone, Copy, Default)]
pub(super) struct VolumeOwner<'a> {
    pub(super) pod_name: Option<&'a str>,
    pub(super) resource_is_pod: bool,
    /// 1.37: an image volume may go without a reference only when the spec an update
    /// replaces had one without (Go's `AllowEmptyImageVolumeReference`); 1.36 asks a
    /// reference of a Pod's own spec only.
    pub(super) allow_empty_image_reference: bool,
}

/// The rules of source `name` (a field name of Go's `VolumeSource`) of `v`, under
/// `path` (Go's path for it, which is not always the field's name); `volume_path` is
/// the volume's own.
pub(super) fn validate_source(
    name: &str,
    v: &Volume,
    owner: VolumeOwner,
    path: &Path,
    volume_path: &Path,
    errs: &mut ErrorList,
) {
    match name {
        "downwardAPI" => {
            if let Some(d) = &v.downward_api {
                file_mode(d.default_mode, &path.child("defaultMode"), errs);
                #[cfg(feature = "v1_37")]
                crate::validation::pod_security::id_range(
                    d.default_user,
                    &path.child("defaultUser"),
                    errs,
                );
                for f in &d.items {
                    downward_api_file(f, path, errs);
                }
            }
        }
        "projected" => {
            if let Some(p) = &v.projected {
                projected(p, path, errs);
            }
        }
        "ephemeral" => {
            if let Some(e) = &v.ephemeral {
                ephemeral(e, path, errs);
                // The claim's name is the pod's and the volume's: it must be a PVC name.
                if let Some(pod) = owner
                    .pod_name
                    .filter(|n| !n.is_empty() && !v.name.is_empty())
                {
                    let claim = format!("{pod}-{}", v.name);
                    for msg in is_dns1123_subdomain(&claim) {
                        errs.push(Error::invalid(
                            &volume_path.child("name"),
                            &v.name,
                            format!("PVC name {}: {msg}", go_quote(&claim)),
                        ));
                    }
                }
            }
        }
        "image" => {
            if let Some(i) = &v.image {
                let required = if cfg!(feature = "v1_37") {
                    !owner.allow_empty_image_reference
                } else {
                    owner.resource_is_pod
                };
                if required && i.reference.is_empty() {
                    errs.push(Error::required(&path.child("reference"), ""));
                }
                one_of(
                    &i.pull_policy,
                    PULL_POLICIES,
                    &path.child("pullPolicy"),
                    errs,
                );
            }
        }
        "gitRepo" => {
            if let Some(g) = &v.git_repo {
                required(!g.repository.is_empty(), &path.child("repository"), errs);
                validate_local_descending_path(&g.directory, &path.child("directory"), errs);
            }
        }
        "persistentDisk" => {
            if let Some(pd) = &v.gce_persistent_disk {
                required(!pd.pd_name.is_empty(), &path.child("pdName"), errs);
                partition(pd.partition, path, errs);
            }
        }
        "awsElasticBlockStore" => {
            if let Some(pd) = &v.aws_elastic_block_store {
                required(!pd.volume_id.is_empty(), &path.child("volumeID"), errs);
                partition(pd.partition, path, errs);
            }
        }
        "nfs" => {
            if let Some(x) = &v.nfs {
                pv_sources::nfs(x, path, errs);
            }
        }
        "iscsi" => {
            if let Some(i) = &v.iscsi {
                iscsi(i, path, errs);
                if i.initiator_name.is_some() && v.name.len() + 1 + i.target_portal.len() > 64 {
                    errs.push(Error::invalid(
                        &path.child("name"),
                        &v.name,
                        "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
                    ));
                }
            }
        }
        "glusterfs" => {
            if let Some(g) = &v.glusterfs {
                required(!g.endpoints.is_empty(), &path.child("endpoints"), errs);
                required(!g.path.is_empty(), &path.child("path"), errs);
            }
        }
        "flocker" => {
            if let Some(x) = &v.flocker {
                pv_sources::flocker(x, path, errs);
            }
        }
        "rbd" => {
            if let Some(r) = &v.rbd {
                let monitors = r.monitors.as_ref().is_some_and(|m| !m.is_empty());
                required(monitors, &path.child("monitors"), errs);
                required(!r.image.is_empty(), &path.child("image"), errs);
            }
        }
        "cinder" => {
            if let Some(c) = &v.cinder {
                required(!c.volume_id.is_empty(), &path.child("volumeID"), errs);
                secret_ref_named(c.secret_ref.as_ref(), path, errs);
            }
        }
        "cephfs" => {
            if let Some(c) = &v.cephfs {
                let monitors = c.monitors.as_ref().is_some_and(|m| !m.is_empty());
                required(monitors, &path.child("monitors"), errs);
            }
        }
        "quobyte" => {
            if let Some(x) = &v.quobyte {
                pv_sources::quobyte(x, path, errs);
            }
        }
        "fc" => {
            if let Some(x) = &v.fc {
                pv_sources::fc(x, path, errs);
            }
        }
        "flexVolume" => {
            if let Some(f) = &v.flex_volume {
                required(!f.driver.is_empty(), &path.child("driver"), errs);
                let op = path.child("options");
                for k in f.options.keys() {
                    let namespace = k.split_once('/').map_or(k.as_str(), |(ns, _)| ns);
                    let normalized = format!(".{}", to_lower(namespace));
                    if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
                        errs.push(Error::invalid(
                            &op.key(k),
                            k,
                            "kubernetes.io and k8s.io namespaces are reserved",
                        ));
                    }
                }
            }
        }
        "azureFile" => {
            if let Some(a) = &v.azure_file {
                required(!a.secret_name.is_empty(), &path.child("secretName"), errs);
                required(!a.share_name.is_empty(), &path.child("shareName"), errs);
            }
        }
        "vsphereVolume" => {
            if let Some(s) = &v.vsphere_volume {
                required(!s.volume_path.is_empty(), &path.child("volumePath"), errs);
            }
        }
        "photonPersistentDisk" => {
            if let Some(p) = &v.photon_persistent_disk {
                required(!p.pd_id.is_empty(), &path.child("pdID"), errs);
            }
        }
        "portworxVolume" => {
            if let Some(p) = &v.portworx_volume {
                required(!p.volume_id.is_empty(), &path.child("volumeID"), errs);
            }
        }
        "azureDisk" => {
            if let Some(x) = &v.azure_disk {
                pv_sources::azure_disk(x, path, errs);
            }
        }
        "storageos" => {
            if let Some(s) = &v.storageos {
                let np = path.child("volumeName");
                if s.volume_name.is_empty() {
                    errs.push(Error::required(&np, ""));
                } else {
                    invalid_each(errs, &np, &s.volume_name, is_dns1123_label(&s.volume_name));
                }
                if !s.volume_namespace.is_empty() {
                    let ns = &s.volume_namespace;
                    invalid_each(
                        errs,
                        &path.child("volumeNamespace"),
                        ns,
                        is_dns1123_label(ns),
                    );
                }
                secret_ref_named(s.secret_ref.as_ref(), path, errs);
            }
        }
        "scaleIO" => {
            if let Some(s) = &v.scale_io {
                required(!s.gateway.is_empty(), &path.child("gateway"), errs);
                required(!s.system.is_empty(), &path.child("system"), errs);
                required(!s.volume_name.is_empty(), &path.child("volumeName"), errs);
            }
        }
        "csi" => {
            if let Some(c) = &v.csi {
                errs.extend(pv_sources::validate_csi_driver_name(
                    &c.driver,
                    &path.child("driver"),
                ));
                if let Some(r) = &c.node_publish_secret_ref {
                    if r.name.is_empty() {
                        let rp = path.child("nodePublishSecretRef");
                        errs.push(Error::required(&rp.child("name"), ""));
                    } else {
                        // Go reports a bad secret name at `csi.name`.
                        let msgs = apimachinery::util::validation::is_dns1123_subdomain(&r.name);
                        invalid_each(errs, &path.child("name"), &r.name, msgs);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Go's `validateEphemeralVolumeSource`: a claim template, whose metadata may hold
/// only labels and annotations and whose spec is a claim's.
fn ephemeral(e: &crate::core::v1::EphemeralVolumeSource, path: &Path, errs: &mut ErrorList) {
    let tp = path.child("volumeClaimTemplate");
    let Some(t) = &e.volume_claim_template else {
        errs.push(Error::required(&tp, ""));
        return;
    };
    errs.extend(validate_template_object_meta(
        &t.metadata,
        &tp.child("metadata"),
    ));
    errs.extend(validate_persistent_volume_claim_spec(
        &t.spec,
        &tp.child("spec"),
        PersistentVolumeClaimSpecOptions::default(),
    ));
}

/// Go's `validateISCSIVolumeSource`: a portal, an IQN, EUI or NAA name of its format,
/// a LUN, a secret for CHAP, an initiator name of a known format.
fn iscsi(i: &crate::core::v1::ISCSIVolumeSource, path: &Path, errs: &mut ErrorList) {
    required(
        !i.target_portal.is_empty(),
        &path.child("targetPortal"),
        errs,
    );
    let known_prefix = |s: &str| ["iqn", "eui", "naa"].iter().any(|p| s.starts_with(p));
    let ip = path.child("iqn");
    if i.iqn.is_empty() {
        errs.push(Error::required(&ip, ""));
    } else if !known_prefix(&i.iqn) {
        errs.push(Error::invalid(
            &ip,
            &i.iqn,
            "must be valid format starting with iqn, eui, or naa",
        ));
    } else if !pv_sources::iscsi_name_ok(&i.iqn) {
        errs.push(Error::invalid(&ip, &i.iqn, "must be valid format"));
    }
    if !(0..=255).contains(&i.lun) {
        errs.push(Error::invalid(
            &path.child("lun"),
            i.lun,
            inclusive_range_error(0, 255),
        ));
    }
    if (i.chap_auth_discovery || i.chap_auth_session) && i.secret_ref.is_none() {
        errs.push(Error::required(&path.child("secretRef"), ""));
    }
    if let Some(init) = &i.initiator_name {
        let np = path.child("initiatorname");
        if !known_prefix(init) {
            errs.push(Error::invalid(
                &np,
                init,
                "must be valid format starting with iqn, eui, or naa",
            ));
        } else if !pv_sources::iscsi_name_ok(init) {
            errs.push(Error::invalid(&np, init, "must be valid format"));
        }
    }
}
