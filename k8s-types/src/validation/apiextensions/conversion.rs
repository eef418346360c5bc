//! A CustomResourceDefinition's conversion (Go's `validateCustomResourceConversion`):
//! the strategy, and for `Webhook` its client configuration and review versions, at
//! Go's internal paths (`spec.conversion.webhookClientConfig`,
//! `spec.conversion.conversionReviewVersions`).

use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path};
use apimachinery::util::validation::is_dns1035_label;

use super::Options;
use super::spec::enum_string;
use crate::apiextensions::v1::CustomResourceConversion;
use crate::validation::webhook_client::{ServiceRef, validate_client_config};

/// The ConversionReview versions the previous release of the API server understands.
const ACCEPTED_REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];

/// Go's `hasValidConversionReviewVersionOrEmpty`.
pub(super) fn has_valid_review_version_or_empty(versions: &[String]) -> bool {
    versions.is_empty()
        || versions
            .iter()
            .any(|v| ACCEPTED_REVIEW_VERSIONS.contains(&v.as_str()))
}

/// Go's `validateCustomResourceConversion`.
pub(super) fn validate_conversion(
    c: &CustomResourceConversion,
    opts: &Options,
    p: &Path,
    errs: &mut ErrorList,
) {
    enum_string(
        &p.child("strategy"),
        &c.strategy,
        &["None", "Webhook"],
        errs,
    );
    let config = c.webhook.as_ref().and_then(|w| w.client_config.as_ref());
    let review_versions = c
        .webhook
        .as_ref()
        .and_then(|w| w.conversion_review_versions.as_deref())
        .unwrap_or_default();
    let cp = p.child("webhookClientConfig");
    if c.strategy != "Webhook" {
        if config.is_some() {
            errs.push(Error::forbidden(
                &cp,
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            errs.push(Error::forbidden(
                &p.child("conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
        return;
    }
    match config {
        None => errs.push(Error::required(
            &cp,
            "required when strategy is set to Webhook",
        )),
        Some(cc) => {
            let service = cc.service.as_ref().map(|s| ServiceRef {
                name: &s.name,
                namespace: &s.namespace,
                path: s.path.as_deref(),
                port: s.port.unwrap_or_default(),
            });
            validate_client_config(cc.url.as_deref(), service, &cp, errs);
        }
    }
    review_version_list(
        review_versions,
        opts.require_recognized_conversion_review_version,
        &p.child("conversionReviewVersions"),
        errs,
    );
}

/// Go's `validateConversionReviewVersions`.
fn review_version_list(
    versions: &[String],
    require_recognized: bool,
    p: &Path,
    errs: &mut ErrorList,
) {
    if versions.is_empty() {
        errs.push(Error::required(p, ""));
        return;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            errs.push(Error::invalid(&p.index(i), v.as_str(), "duplicate version"));
            continue;
        }
        for msg in is_dns1035_label(v) {
            errs.push(Error::invalid(&p.index(i), v.as_str(), msg));
        }
    }
    if require_recognized && !has_valid_review_version_or_empty(versions) {
        errs.push(Error::invalid(
            p,
            BadValue::json_strings(versions),
            format!(
                "must include at least one of {}",
                ACCEPTED_REVIEW_VERSIONS.join(", ")
            ),
        ));
    }
}
