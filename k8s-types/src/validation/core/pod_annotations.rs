//! The annotations only a pod has rules for (Go's `ValidatePodSpecificAnnotations`,
//! `ValidatePodSpecificAnnotationUpdates` and the create-time checks that the
//! deprecated seccomp and AppArmor annotations agree with their fields).

use std::collections::BTreeMap;

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use crate::core::v1::{Container, EphemeralContainer, Pod, PodSpec, SecurityContext};
use apimachinery::util::validation::field::go_quote;

use crate::validation::pod_security::validate_local_descending_path;

const MIRROR_POD: &str = "kubernetes.io/config.mirror";
const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";
const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";
const APPARMOR_CONTAINER_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";
const RUNTIME_DEFAULT: &str = "runtime/default";
const DOCKER_DEFAULT: &str = "docker/default";
const UNCONFINED: &str = "unconfined";
const LOCALHOST_PREFIX: &str = "localhost/";

/// Go's `ValidatePodSpecificAnnotations` (with the deletion cost checked, as the
/// PodDeletionCost feature, on by default, has it, unless `allow_bad_cost`: an update
/// of a pod whose cost was already invalid).
pub(super) fn validate_pod_annotations(
    annotations: &BTreeMap<String, String>,
    spec: &PodSpec,
    allow_bad_cost: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    if let Some(v) = annotations.get(MIRROR_POD) {
        if spec.node_name.is_empty() {
            errs.push(Error::invalid(
                &path.key(MIRROR_POD),
                v,
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if !allow_bad_cost && !deletion_cost_valid(annotations) {
        errs.push(Error::invalid(
            &path.key(DELETION_COST),
            annotations.get(DELETION_COST).map_or("", String::as_str),
            "must be a 32bit integer",
        ));
    }
    // Go names the seccomp annotations with `Child`, not `Key`.
    for (k, v) in annotations {
        if k == SECCOMP_POD || k.starts_with(SECCOMP_CONTAINER_PREFIX) {
            seccomp_profile(v, &path.child(k), errs);
        }
    }
    for (k, v) in annotations {
        let Some(name) = k.strip_prefix(APPARMOR_CONTAINER_PREFIX) else {
            continue;
        };
        let kp = path.key(k);
        if !containers(spec).any(|(_, _, c)| c.name == name) {
            errs.push(Error::invalid(&kp, name, "container not found"));
        }
        let known = [RUNTIME_DEFAULT, UNCONFINED, ""].contains(&v.as_str());
        if !known && !v.starts_with(LOCALHOST_PREFIX) {
            errs.push(Error::invalid(
                &kp,
                v,
                format!("invalid AppArmor profile name: {}", go_quote(v)),
            ));
        }
    }
}

/// Go's `ValidatePodSpecificAnnotationUpdates`: AppArmor and mirror-pod annotations
/// neither added, changed nor removed; then the new annotations' rules once more (Go
/// checks them twice on update, so their errors come twice).
pub(super) fn validate_pod_annotation_updates(
    new: &Pod,
    old: &Pod,
    path: &Path,
    errs: &mut ErrorList,
) {
    let (new_a, old_a) = (&new.metadata.annotations, &old.metadata.annotations);
    let guarded = |k: &str| k.starts_with(APPARMOR_CONTAINER_PREFIX) || k == MIRROR_POD;
    for (k, v) in old_a {
        if new_a.get(k) == Some(v) || !guarded(k) {
            continue;
        }
        let what = if k == MIRROR_POD {
            "may not remove or update mirror pod annotation"
        } else {
            "may not remove or update AppArmor annotations"
        };
        errs.push(Error::forbidden(&path.key(k), what));
    }
    for k in new_a.keys() {
        if old_a.contains_key(k) || !guarded(k) {
            continue;
        }
        let what = if k == MIRROR_POD {
            "may not add mirror pod annotation"
        } else {
            "may not add AppArmor annotations"
        };
        errs.push(Error::forbidden(&path.key(k), what));
    }
    validate_pod_annotations(new_a, &new.spec, old_cost_invalid(old), path, errs);
}

/// Go's option for an update: a deletion cost the old pod already had wrong may stay.
pub(super) fn old_cost_invalid(old: &Pod) -> bool {
    !deletion_cost_valid(&old.metadata.annotations)
}

/// Go's `GetDeletionCostFromPodAnnotations` succeeding: absent, or a decimal 32-bit
/// integer without a plus sign or leading zeros.
fn deletion_cost_valid(annotations: &BTreeMap<String, String>) -> bool {
    let Some(v) = annotations.get(DELETION_COST) else {
        return true;
    };
    let first_ok = match v.as_bytes() {
        [] => false,
        [b'-', ..] => true,
        [b'0'] => true,
        [c, ..] => (b'1'..=b'9').contains(c),
    };
    first_ok && v.parse::<i32>().is_ok()
}

/// Go's `ValidateSeccompProfile` of an annotation's value.
fn seccomp_profile(p: &str, path: &Path, errs: &mut ErrorList) {
    if [RUNTIME_DEFAULT, DOCKER_DEFAULT, UNCONFINED].contains(&p) {
        return;
    }
    match p.strip_prefix(LOCALHOST_PREFIX) {
        Some(rest) => validate_local_descending_path(rest, path, errs),
        None => errs.push(Error::invalid(path, p, "must be a valid seccomp profile")),
    }
}

/// Each container of the spec with its list's name, index, name and security context,
/// in Go's `VisitContainersWithPath` order: init, regular, ephemeral.
fn containers(
    spec: &PodSpec,
) -> impl Iterator<Item = (&'static str, usize, ContainerRef<'_>)> + '_ {
    fn view(c: &Container) -> ContainerRef<'_> {
        ContainerRef {
            name: &c.name,
            security_context: c.security_context.as_ref(),
        }
    }
    fn ephemeral(c: &EphemeralContainer) -> ContainerRef<'_> {
        ContainerRef {
            name: &c.name,
            security_context: c.security_context.as_ref(),
        }
    }
    let init = spec.init_containers.iter().map(view).enumerate();
    let regular = spec.containers.iter().flatten().map(view).enumerate();
    let eph = spec.ephemeral_containers.iter().map(ephemeral).enumerate();
    init.map(|(i, c)| ("initContainers", i, c))
        .chain(regular.map(|(i, c)| ("containers", i, c)))
        .chain(eph.map(|(i, c)| ("ephemeralContainers", i, c)))
}

struct ContainerRef<'a> {
    name: &'a str,
    security_context: Option<&'a SecurityContext>,
}

/// Go's `validateSeccompAnnotationsAndFields` and
/// `validateAppArmorAnnotationsAndFieldsMatchOnCreate`: on create, a deprecated
/// annotation that names a profile must name the one its field sets.
pub(super) fn validate_annotations_match_fields(pod: &Pod, spec_path: &Path, errs: &mut ErrorList) {
    let (annotations, spec) = (&pod.metadata.annotations, &pod.spec);
    let pod_sc = spec.security_context.as_ref();
    if let (Some(profile), Some(a)) = (
        pod_sc.and_then(|sc| sc.seccomp_profile.as_ref()),
        annotations.get(SECCOMP_POD),
    ) {
        let sp = spec_path.child("securityContext");
        let field = (
            profile.r#type.as_str(),
            profile.localhost_profile.as_deref(),
        );
        seccomp_match(a, field, &sp.child("seccompProfile"), errs);
    }
    for (list, i, c) in containers(spec) {
        let lp = spec_path.child(list);
        let cp = lp.index(i);
        let sp = cp.child("securityContext");
        let own = c.security_context;
        if let Some(profile) = own.and_then(|sc| sc.seccomp_profile.as_ref()) {
            let key = format!("{SECCOMP_CONTAINER_PREFIX}{}", c.name);
            if let Some(a) = annotations.get(&key) {
                let field = (
                    profile.r#type.as_str(),
                    profile.localhost_profile.as_deref(),
                );
                seccomp_match(a, field, &sp.child("seccompProfile"), errs);
            }
        }
        if spec.os.as_ref().is_some_and(|os| os.name == "windows") {
            continue;
        }
        let profile = own
            .and_then(|sc| sc.app_armor_profile.as_ref())
            .or_else(|| pod_sc.and_then(|sc| sc.app_armor_profile.as_ref()));
        let key = format!("{APPARMOR_CONTAINER_PREFIX}{}", c.name);
        if let (Some(profile), Some(a)) = (profile, annotations.get(&key)) {
            let ap = sp.child("appArmorProfile");
            let field = (
                profile.r#type.as_str(),
                profile.localhost_profile.as_deref(),
            );
            profile_match(
                a,
                field,
                "apparmor",
                &[UNCONFINED],
                &[RUNTIME_DEFAULT],
                &ap,
                errs,
            );
        }
    }
}

fn seccomp_match(annotation: &str, field: (&str, Option<&str>), path: &Path, errs: &mut ErrorList) {
    let defaults = [RUNTIME_DEFAULT, DOCKER_DEFAULT];
    profile_match(
        annotation,
        field,
        "seccomp",
        &[UNCONFINED],
        &defaults,
        path,
        errs,
    );
}

/// One annotation against its profile field (type, localhost profile): the same type,
/// and for `Localhost` the same profile.
fn profile_match(
    annotation: &str,
    (kind, localhost): (&str, Option<&str>),
    what: &str,
    unconfined: &[&str],
    runtime_default: &[&str],
    path: &Path,
    errs: &mut ErrorList,
) {
    let type_matches = match kind {
        "Unconfined" => unconfined.contains(&annotation),
        "RuntimeDefault" => runtime_default.contains(&annotation),
        "Localhost" => match annotation.strip_prefix(LOCALHOST_PREFIX) {
            None => false,
            Some(name) => {
                if localhost != Some(name) {
                    errs.push(Error::forbidden(
                        &path.child("localhostProfile"),
                        format!("{what} profile in annotation and field must match"),
                    ));
                }
                true
            }
        },
        _ => true,
    };
    if !type_matches {
        errs.push(Error::forbidden(
            &path.child("type"),
            format!("{what} type in annotation and field must match"),
        ));
    }
}
