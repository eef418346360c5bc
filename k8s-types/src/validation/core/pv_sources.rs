//! A PersistentVolume's sources (Go's `validate<Source>PersistentVolumeSource` and the
//! pod volume checks a PersistentVolume shares: host path, NFS, FC, GCE and AWS disks,
//! ...), each with Go's rules and messages.

use apimachinery::apis::meta::v1::validation::name_is_dns_label;
use apimachinery::util::go_strings::to_lower;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::{
    inclusive_range_error, is_dns1123_label, is_dns1123_subdomain,
};

use crate::core::v1::{
    AzureDiskVolumeSource, CSIPersistentVolumeSource, FCVolumeSource, FlexPersistentVolumeSource,
    FlockerVolumeSource, HostPathVolumeSource, ISCSIPersistentVolumeSource, NFSVolumeSource,
    PersistentVolumeSpec, QuobyteVolumeSource, SecretReference,
};
use crate::validation::invalid_each;

const HOST_PATH_TYPES: &[&str] = &[
    "",
    "BlockDevice",
    "CharDevice",
    "Directory",
    "DirectoryOrCreate",
    "File",
    "FileOrCreate",
    "Socket",
];
const AZURE_CACHING_MODES: &[&str] = &["None", "ReadOnly", "ReadWrite"];
const AZURE_DISK_KINDS: &[&str] = &["Dedicated", "Managed", "Shared"];

/// Go's `ValidateCSIDriverName`: required, at most 63 bytes, and a DNS subdomain
/// once lower-cased (the error shows the name as given).
pub fn validate_csi_driver_name(name: &str, path: &Path) -> ErrorList {
    let mut errs = ErrorList::default();
    if name.is_empty() {
        errs.push(Error::required(path, ""));
        return errs;
    }
    if name.len() > 63 {
        errs.push(Error::too_long(path, 63));
    }
    invalid_each(&mut errs, path, name, is_dns1123_subdomain(&to_lower(name)));
    errs
}

/// Go's `ValidatePersistentVolumeSpec` source part: the first source set (in Go's
/// order) is validated, each further one forbidden, none at all required; returns
/// whether a `local` source was the one (it needs node affinity).
pub(super) fn validate_pv_source(
    spec: &PersistentVolumeSpec,
    pv_name: &str,
    path: &Path,
    errs: &mut ErrorList,
) -> bool {
    let mut count = 0;
    let mut local = false;
    // (name the "more than 1" error uses, whether set, the check); Go counts a
    // flexVolume without looking for an earlier source.
    let mut one = |name: &str, set: bool, check: &mut dyn FnMut(&mut ErrorList)| {
        if !set {
            return;
        }
        if count > 0 && name != "flexVolume" {
            errs.push(Error::forbidden(
                &path.child(name),
                "may not specify more than 1 volume type",
            ));
        } else {
            count += 1;
            check(errs);
        }
    };
    one("hostPath", spec.host_path.is_some(), &mut |e| {
        if let Some(h) = &spec.host_path {
            host_path(h, &path.child("hostPath"), e);
        }
    });
    one(
        "gcePersistentDisk",
        spec.gce_persistent_disk.is_some(),
        &mut |e| {
            if let Some(pd) = &spec.gce_persistent_disk {
                // Go validates it under `persistentDisk`.
                disk(
                    &pd.pd_name,
                    "pdName",
                    pd.partition,
                    &path.child("persistentDisk"),
                    e,
                );
            }
        },
    );
    one(
        "awsElasticBlockStore",
        spec.aws_elastic_block_store.is_some(),
        &mut |e| {
            if let Some(pd) = &spec.aws_elastic_block_store {
                let p = path.child("awsElasticBlockStore");
                disk(&pd.volume_id, "volumeID", pd.partition, &p, e);
            }
        },
    );
    one("glusterfs", spec.glusterfs.is_some(), &mut |e| {
        if let Some(g) = &spec.glusterfs {
            let p = path.child("glusterfs");
            required(&g.endpoints, &p.child("endpoints"), e);
            required(&g.path, &p.child("path"), e);
            if let Some(ns) = &g.endpoints_namespace {
                let np = p.child("endpointsNamespace");
                if ns.is_empty() {
                    e.push(Error::invalid(
                        &np,
                        "",
                        "if the endpointnamespace is set, it must be a valid namespace name",
                    ));
                } else {
                    invalid_each(e, &np, ns, name_is_dns_label(ns, false));
                }
            }
        }
    });
    one("flocker", spec.flocker.is_some(), &mut |e| {
        if let Some(f) = &spec.flocker {
            flocker(f, &path.child("flocker"), e);
        }
    });
    one("nfs", spec.nfs.is_some(), &mut |e| {
        if let Some(n) = &spec.nfs {
            nfs(n, &path.child("nfs"), e);
        }
    });
    one("rbd", spec.rbd.is_some(), &mut |e| {
        if let Some(r) = &spec.rbd {
            let p = path.child("rbd");
            if r.monitors.as_deref().unwrap_or_default().is_empty() {
                e.push(Error::required(&p.child("monitors"), ""));
            }
            required(&r.image, &p.child("image"), e);
        }
    });
    one("quobyte", spec.quobyte.is_some(), &mut |e| {
        if let Some(q) = &spec.quobyte {
            quobyte(q, &path.child("quobyte"), e);
        }
    });
    // Go names the forbidden one `cephFS`, the validated one `cephfs`.
    one("cephFS", spec.cephfs.is_some(), &mut |e| {
        if let Some(c) = &spec.cephfs {
            if c.monitors.as_deref().unwrap_or_default().is_empty() {
                e.push(Error::required(&path.child("cephfs").child("monitors"), ""));
            }
        }
    });
    one("iscsi", spec.iscsi.is_some(), &mut |e| {
        if let Some(i) = &spec.iscsi {
            iscsi(i, pv_name, &path.child("iscsi"), e);
        }
    });
    one("cinder", spec.cinder.is_some(), &mut |e| {
        if let Some(c) = &spec.cinder {
            let p = path.child("cinder");
            required(&c.volume_id, &p.child("volumeID"), e);
            if let Some(s) = &c.secret_ref {
                let sp = p.child("secretRef");
                required(&s.name, &sp.child("name"), e);
                required(&s.namespace, &sp.child("namespace"), e);
            }
        }
    });
    one("fc", spec.fc.is_some(), &mut |e| {
        if let Some(f) = &spec.fc {
            fc(f, &path.child("fc"), e);
        }
    });
    one("flexVolume", spec.flex_volume.is_some(), &mut |e| {
        if let Some(f) = &spec.flex_volume {
            flex(f, &path.child("flexVolume"), e);
        }
    });
    one("azureFile", spec.azure_file.is_some(), &mut |e| {
        if let Some(a) = &spec.azure_file {
            let p = path.child("azureFile");
            required(&a.secret_name, &p.child("secretName"), e);
            required(&a.share_name, &p.child("shareName"), e);
            if a.secret_namespace.as_deref() == Some("") {
                e.push(Error::required(&p.child("secretNamespace"), ""));
            }
        }
    });
    one("vsphereVolume", spec.vsphere_volume.is_some(), &mut |e| {
        if let Some(v) = &spec.vsphere_volume {
            let p = path.child("vsphereVolume");
            required(&v.volume_path, &p.child("volumePath"), e);
        }
    });
    one(
        "photonPersistentDisk",
        spec.photon_persistent_disk.is_some(),
        &mut |e| {
            if let Some(v) = &spec.photon_persistent_disk {
                let p = path.child("photonPersistentDisk");
                required(&v.pd_id, &p.child("pdID"), e);
            }
        },
    );
    one("portworxVolume", spec.portworx_volume.is_some(), &mut |e| {
        if let Some(v) = &spec.portworx_volume {
            let p = path.child("portworxVolume");
            required(&v.volume_id, &p.child("volumeID"), e);
        }
    });
    one("azureDisk", spec.azure_disk.is_some(), &mut |e| {
        if let Some(a) = &spec.azure_disk {
            azure_disk(a, &path.child("azureDisk"), e);
        }
    });
    one("scaleIO", spec.scale_io.is_some(), &mut |e| {
        if let Some(s) = &spec.scale_io {
            let p = path.child("scaleIO");
            required(&s.gateway, &p.child("gateway"), e);
            required(&s.system, &p.child("system"), e);
            required(&s.volume_name, &p.child("volumeName"), e);
        }
    });
    one("local", spec.local.is_some(), &mut |e| {
        if let Some(l) = &spec.local {
            let lp = path.child("local");
            if l.path.is_empty() {
                e.push(Error::required(&lp.child("path"), ""));
            } else {
                no_backsteps(&l.path, &lp.child("path"), e);
            }
            local = true;
        }
    });
    one("storageos", spec.storageos.is_some(), &mut |e| {
        if let Some(s) = &spec.storageos {
            let p = path.child("storageos");
            let np = p.child("volumeName");
            if s.volume_name.is_empty() {
                e.push(Error::required(&np, ""));
            } else {
                invalid_each(e, &np, &s.volume_name, is_dns1123_label(&s.volume_name));
            }
            if !s.volume_namespace.is_empty() {
                let nsp = p.child("volumeNamespace");
                invalid_each(
                    e,
                    &nsp,
                    &s.volume_namespace,
                    is_dns1123_label(&s.volume_namespace),
                );
            }
            if let Some(r) = &s.secret_ref {
                let sp = p.child("secretRef");
                required(&r.name, &sp.child("name"), e);
                required(&r.namespace, &sp.child("namespace"), e);
            }
        }
    });
    one("csi", spec.csi.is_some(), &mut |e| {
        if let Some(c) = &spec.csi {
            csi(c, &path.child("csi"), e);
        }
    });
    if count == 0 {
        errs.push(Error::required(path, "must specify a volume type"));
    }
    local
}

fn required(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.is_empty() {
        errs.push(Error::required(path, ""));
    }
}

/// Go's `validateHostPathVolumeSource`: a path without `..`, a known type.
pub(super) fn host_path(h: &HostPathVolumeSource, path: &Path, errs: &mut ErrorList) {
    let pp = path.child("path");
    if h.path.is_empty() {
        errs.push(Error::required(&pp, ""));
        return;
    }
    no_backsteps(&h.path, &pp, errs);
    if let Some(t) = &h.r#type {
        if !HOST_PATH_TYPES.contains(&t.as_str()) {
            errs.push(Error::not_supported(
                &path.child("type"),
                BadValue::json_string(t),
                HOST_PATH_TYPES,
            ));
        }
    }
}

/// Go's `validatePathNoBacksteps`.
pub(super) fn no_backsteps(value: &str, path: &Path, errs: &mut ErrorList) {
    if value.split('/').any(|part| part == "..") {
        errs.push(Error::invalid(path, value, "must not contain '..'"));
    }
}

/// Go's GCE and AWS disk checks: a name, a partition 0–255 (Go's message says 1–255).
fn disk(name: &str, name_field: &str, partition: i32, path: &Path, errs: &mut ErrorList) {
    required(name, &path.child(name_field), errs);
    if !(0..=255).contains(&partition) {
        errs.push(Error::invalid(
            &path.child("partition"),
            partition,
            inclusive_range_error(1, 255),
        ));
    }
}

/// Go's `validateFlockerVolumeSource`.
pub(super) fn flocker(f: &FlockerVolumeSource, path: &Path, errs: &mut ErrorList) {
    if f.dataset_name.is_empty() && f.dataset_uuid.is_empty() {
        errs.push(Error::required(
            path,
            "one of datasetName and datasetUUID is required",
        ));
    }
    if !f.dataset_name.is_empty() && !f.dataset_uuid.is_empty() {
        errs.push(Error::invalid(
            path,
            "resource",
            "datasetName and datasetUUID can not be specified simultaneously",
        ));
    }
    if f.dataset_name.contains('/') {
        errs.push(Error::invalid(
            &path.child("datasetName"),
            &f.dataset_name,
            "must not contain '/'",
        ));
    }
}

/// Go's `validateNFSVolumeSource`: server, and an absolute path.
pub(super) fn nfs(n: &NFSVolumeSource, path: &Path, errs: &mut ErrorList) {
    required(&n.server, &path.child("server"), errs);
    let pp = path.child("path");
    required(&n.path, &pp, errs);
    if !n.path.starts_with('/') {
        errs.push(Error::invalid(&pp, &n.path, "must be an absolute path"));
    }
}

/// Go's `validateQuobyteVolumeSource`: host:port registries, a tenant of at most 64
/// characters, a volume.
pub(super) fn quobyte(q: &QuobyteVolumeSource, path: &Path, errs: &mut ErrorList) {
    let msg = "must be a host:port pair or multiple pairs separated by commas";
    let rp = path.child("registry");
    if q.registry.is_empty() {
        errs.push(Error::required(&rp, msg));
    } else if q.tenant.len() >= 65 {
        errs.push(Error::required(
            &path.child("tenant"),
            "must be a UUID and may not exceed a length of 64 characters",
        ));
    } else {
        for pair in q.registry.split(',') {
            if !split_host_port_ok(pair) {
                errs.push(Error::invalid(&rp, &q.registry, msg));
            }
        }
    }
    required(&q.volume, &path.child("volume"), errs);
}

/// Whether Go's `net.SplitHostPort` accepts `s` (a port may be empty).
fn split_host_port_ok(s: &str) -> bool {
    let Some(i) = s.rfind(':') else {
        return false;
    };
    let (mut j, mut k) = (0, 0);
    if s.starts_with('[') {
        let Some(end) = s.find(']') else {
            return false;
        };
        if end + 1 != i {
            return false;
        }
        (j, k) = (1, end + 1);
    } else if s[..i].contains(':') {
        return false;
    }
    !s[j..].contains('[') && !s[k..].contains(']')
}

/// Go's `validateISCSIPersistentVolumeSource`.
fn iscsi(i: &ISCSIPersistentVolumeSource, pv_name: &str, path: &Path, errs: &mut ErrorList) {
    required(&i.target_portal, &path.child("targetPortal"), errs);
    if i.initiator_name.is_some() && pv_name.len() + 1 + i.target_portal.len() > 64 {
        errs.push(Error::invalid(
            &path.child("targetportal"),
            &i.target_portal,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let qp = path.child("iqn");
    if i.iqn.is_empty() {
        errs.push(Error::required(&qp, ""));
    } else if !iscsi_name_ok(&i.iqn) {
        errs.push(Error::invalid(&qp, &i.iqn, "must be valid format"));
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
    if let Some(s) = &i.secret_ref {
        required(&s.name, &path.child("secretRef").child("name"), errs);
    }
    if let Some(initiator) = &i.initiator_name {
        let ip = path.child("initiatorname");
        // Go reports a name of none of the three prefixes once, and a name of one
        // of them that does not match its pattern once.
        if !iscsi_name_ok(initiator) {
            errs.push(Error::invalid(&ip, initiator, "must be valid format"));
        }
    }
}

/// Go's iSCSI name patterns: `iqn.YYYY-MM.<domain>:<name>` (found anywhere in the
/// name, Go's pattern not being anchored at its start), `eui.` and 16, `naa.` and 32
/// alphanumerics.
pub(super) fn iscsi_name_ok(name: &str) -> bool {
    let fixed = |n: usize| {
        let mut chars = name.chars().skip(3);
        chars.next().is_some_and(|c| c != '\n')
            && chars.clone().count() == n
            && chars.all(|c| c.is_ascii_alphanumeric())
    };
    if name.starts_with("iqn") {
        (0..name.len()).any(|p| name.is_char_boundary(p) && iqn_at(&name[p..]))
    } else if name.starts_with("eui") {
        fixed(16)
    } else if name.starts_with("naa") {
        fixed(32)
    } else {
        false
    }
}

/// `iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$` matched at the start of `s`.
fn iqn_at(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if !(s.starts_with("iqn.") && digits(4..8) && b.get(8) == Some(&b'-') && digits(9..11))
        || b.get(11) != Some(&b'.')
    {
        return false;
    }
    let rest = &s[12..];
    let domain = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'))
        .unwrap_or(rest.len());
    let tail = &rest[domain..];
    domain > 0
        && tail.len() > 1
        && tail.starts_with(':')
        && tail[1..].chars().all(|c| !",;*&$|\t\n\x0c\r ".contains(c))
}

/// Go's `validateFCVolumeSource`: target WWNs (with a lun 0–255) or WWIDs, not both.
pub(super) fn fc(f: &FCVolumeSource, path: &Path, errs: &mut ErrorList) {
    let tp = path.child("targetWWNs");
    if f.target_wwns.is_empty() && f.wwids.is_empty() {
        errs.push(Error::required(
            &tp,
            "must specify either targetWWNs or wwids, but not both",
        ));
    }
    if !f.target_wwns.is_empty() && !f.wwids.is_empty() {
        errs.push(Error::invalid(
            &tp,
            BadValue::json_strings(&f.target_wwns),
            "targetWWNs and wwids can not be specified simultaneously",
        ));
    }
    if !f.target_wwns.is_empty() {
        let lp = path.child("lun");
        match f.lun {
            None => errs.push(Error::required(
                &lp,
                "lun is required if targetWWNs is specified",
            )),
            Some(l) if !(0..=255).contains(&l) => {
                errs.push(Error::invalid(&lp, l, inclusive_range_error(0, 255)));
            }
            Some(_) => {}
        }
    }
}

/// Go's `validateFlexPersistentVolumeSource`: a driver, options outside the
/// `kubernetes.io` and `k8s.io` namespaces.
fn flex(f: &FlexPersistentVolumeSource, path: &Path, errs: &mut ErrorList) {
    required(&f.driver, &path.child("driver"), errs);
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

/// Go's `validateAzureDisk`: name and URI, caching mode and kind, the URI's form for
/// the kind.
pub(super) fn azure_disk(a: &AzureDiskVolumeSource, path: &Path, errs: &mut ErrorList) {
    required(&a.disk_name, &path.child("diskName"), errs);
    let up = path.child("diskURI");
    required(&a.disk_uri, &up, errs);
    if let Some(m) = a.caching_mode.as_deref() {
        if !AZURE_CACHING_MODES.contains(&m) {
            errs.push(Error::not_supported(
                &path.child("cachingMode"),
                BadValue::json_string(m),
                AZURE_CACHING_MODES,
            ));
        }
    }
    if let Some(kind) = a.kind.as_deref() {
        if !AZURE_DISK_KINDS.contains(&kind) {
            errs.push(Error::not_supported(
                &path.child("kind"),
                BadValue::json_string(kind),
                AZURE_DISK_KINDS,
            ));
        }
        if kind == "Managed" && !a.disk_uri.starts_with("/subscriptions/") {
            errs.push(Error::not_supported(
                &up,
                a.disk_uri.as_str(),
                &["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"],
            ));
        }
        if kind != "Managed" && !a.disk_uri.starts_with("https://") {
            errs.push(Error::not_supported(
                &up,
                a.disk_uri.as_str(),
                &["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"],
            ));
        }
    }
}

/// Go's `validateCSIPersistentVolumeSource`: driver, handle, the secret references.
fn csi(c: &CSIPersistentVolumeSource, path: &Path, errs: &mut ErrorList) {
    errs.extend(validate_csi_driver_name(&c.driver, &path.child("driver")));
    required(&c.volume_handle, &path.child("volumeHandle"), errs);
    for (field, secret) in [
        (
            "controllerPublishSecretRef",
            &c.controller_publish_secret_ref,
        ),
        ("controllerExpandSecretRef", &c.controller_expand_secret_ref),
        ("nodePublishSecretRef", &c.node_publish_secret_ref),
        ("nodeExpandSecretRef", &c.node_expand_secret_ref),
    ] {
        if let Some(s) = secret {
            secret_reference(s, &path.child(field), errs);
        }
    }
}

/// Go's `validatePVSecretReference`: a DNS-subdomain name, a DNS-label namespace.
fn secret_reference(s: &SecretReference, path: &Path, errs: &mut ErrorList) {
    let np = path.child("name");
    if s.name.is_empty() {
        errs.push(Error::required(&np, ""));
    } else {
        invalid_each(errs, &np, &s.name, is_dns1123_subdomain(&s.name));
    }
    let nsp = path.child("namespace");
    if s.namespace.is_empty() {
        errs.push(Error::required(&nsp, ""));
    } else {
        invalid_each(errs, &nsp, &s.namespace, is_dns1123_label(&s.namespace));
    }
}
