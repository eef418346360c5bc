//! PodTemplate (Go's `ValidatePodTemplate`, `ValidatePodTemplateUpdate`): a named pod
//! template, its metadata and its template as any workload's.

use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::util::validation::field::{ErrorList, Path};

use super::pod::pod_template_spec;
use crate::core::v1::PodTemplate;
use crate::validation::{validate_object_meta, validate_object_meta_update};

/// Go's `ValidatePodTemplate`: namespaced metadata with a DNS-subdomain name, and the
/// template at `template`.
pub fn validate_pod_template(t: &PodTemplate) -> ErrorList {
    let mut errs = validate_object_meta(
        &t.metadata,
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errs.extend(pod_template_spec(&t.template, None, &Path::new("template")));
    errs
}

/// Go's `ValidatePodTemplateUpdate`: the metadata kept, and the new template valid
/// (every field of it may change).
pub fn validate_pod_template_update(new: &PodTemplate, old: &PodTemplate) -> ErrorList {
    let mut errs =
        validate_object_meta_update(&new.metadata, &old.metadata, &Path::new("metadata"));
    errs.extend(pod_template_spec(
        &new.template,
        Some(&old.template.spec),
        &Path::new("template"),
    ));
    errs
}
