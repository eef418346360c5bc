//! A TokenRequest's validation (Go's `pkg/apis/authentication/validation/validation.go`,
//! `ValidateTokenRequest`), run on the request once its audiences are defaulted: the
//! lifetime between 10 minutes and 2^32 seconds, and from Kubernetes 1.37 the
//! `attestations`, which only a token bound to an admission webhook configuration may
//! carry (one `admissionReviewAPIGroups` value, an API group or `*`), such a token
//! having exactly one audience.

#[cfg(feature = "v1_37")]
use apimachinery::util::validation::field::BadValue;
use apimachinery::util::validation::field::{Error, ErrorList, Path};
#[cfg(feature = "v1_37")]
use apimachinery::util::validation::is_dns1123_subdomain;
use serde_json::Value;

/// The shortest lifetime Go's validation accepts.
const MIN_EXPIRATION_SECONDS: i64 = 600;
/// The longest: 2^32 seconds.
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;
/// The one attestation key Go knows (`AttestationAdmissionReviewAPIGroups`).
#[cfg(feature = "v1_37")]
const ADMISSION_REVIEW_API_GROUPS: &str = "admissionReviewAPIGroups";

/// Go's `ValidateTokenRequest` over the request's `spec` (JSON), its lifetime
/// `expiration` and its `audiences` as defaulted.
#[cfg_attr(not(feature = "v1_37"), allow(unused_variables))]
pub(super) fn validate_token_request(
    spec: &Value,
    expiration: i64,
    audiences: &[String],
) -> ErrorList {
    let sp = Path::new("spec");
    let mut errs = ErrorList::default();
    let ep = sp.child("expirationSeconds");
    if expiration < MIN_EXPIRATION_SECONDS {
        errs.push(Error::invalid(
            &ep,
            expiration,
            "may not specify a duration less than 10 minutes",
        ));
    }
    if expiration > MAX_EXPIRATION_SECONDS {
        errs.push(Error::invalid(
            &ep,
            expiration,
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    #[cfg(feature = "v1_37")]
    {
        // An empty map is Go's non-nil empty map (`{}`), no map at all its nil (`null`).
        let attestations = spec.get("attestations").and_then(Value::as_object);
        let ap = sp.child("attestations");
        if is_webhook_ref(spec.get("boundObjectRef")) {
            if audiences.len() != 1 {
                errs.push(Error::invalid(
                    &sp.child("audiences"),
                    BadValue::json_strings(audiences),
                    "must be length 1 when bound to a webhook config",
                ));
            }
            webhook_attestations(attestations, &ap, &mut errs);
        } else if let Some(attestations) = attestations.filter(|a| !a.is_empty()) {
            // Go answers with this error alone, whatever the lifetime's.
            return ErrorList(vec![Error::invalid(
                &ap,
                attestations_value(Some(attestations)),
                "attestations may only be specified with a webhook bound object reference",
            )]);
        }
    }
    errs
}

/// Go's `isWebhookRef`: a reference to an `admissionregistration.k8s.io/v1`
/// ValidatingWebhookConfiguration or MutatingWebhookConfiguration.
pub(super) fn is_webhook_ref(bound: Option<&Value>) -> bool {
    let Some(bound) = bound.filter(|b| !b.is_null()) else {
        return false;
    };
    let field = |f: &str| bound.get(f).and_then(Value::as_str).unwrap_or_default();
    matches!(
        field("kind"),
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration"
    ) && field("apiVersion") == "admissionregistration.k8s.io/v1"
}

/// Go's `validateWebhookAttestations`: exactly one attestation, of the key Go knows,
/// with one value naming an API group.
#[cfg(feature = "v1_37")]
fn webhook_attestations(
    attestations: Option<&serde_json::Map<String, Value>>,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(attestations) = attestations.filter(|a| a.len() == 1) else {
        errs.push(Error::invalid(
            path,
            attestations_value(attestations),
            "webhook bound requests require exactly one admissionReviewAPIGroups attestation",
        ));
        return;
    };
    for (key, values) in attestations {
        let kp = path.key(key);
        if key != ADMISSION_REVIEW_API_GROUPS {
            errs.push(Error::not_supported(
                &kp,
                key.as_str(),
                &[ADMISSION_REVIEW_API_GROUPS],
            ));
            continue;
        }
        let values = strings(values);
        let [group] = values.as_slice() else {
            errs.push(Error::invalid(
                &kp,
                BadValue::json_strings(&values),
                "must specify a single value",
            ));
            continue;
        };
        let gp = kp.index(0);
        if group.is_empty() {
            errs.push(Error::invalid(&gp, "", "may not be an empty string"));
        } else if group != "*" {
            for reason in is_dns1123_subdomain(group) {
                errs.push(Error::invalid(
                    &gp,
                    group.as_str(),
                    format!("must specify a valid API Group: {reason}"),
                ));
            }
        }
    }
}

/// An attestation's values; what is not a list of strings reads as none, as Go's
/// decoder would have refused it before validation.
#[cfg(feature = "v1_37")]
fn strings(values: &Value) -> Vec<String> {
    crate::registry::string_list(Some(values))
}

/// A `[]string` as Go's `json.Marshal` writes it: `null` when nil.
#[cfg(feature = "v1_37")]
fn value_list(values: Option<&[String]>) -> String {
    match values {
        Some(v) => match BadValue::json_strings(v) {
            BadValue::Json(text) => text,
            _ => String::new(),
        },
        None => "null".to_owned(),
    }
}

/// The attestations map as Go's `json.Marshal` writes it: keys sorted, a value that is
/// not a list `null`.
#[cfg(feature = "v1_37")]
fn attestations_value(attestations: Option<&serde_json::Map<String, Value>>) -> BadValue {
    let Some(attestations) = attestations else {
        return BadValue::null();
    };
    let mut keys: Vec<&String> = attestations.keys().collect();
    keys.sort();
    let mut out = String::from("{");
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let BadValue::Json(k) = BadValue::json_string(key) else {
            continue;
        };
        out.push_str(&k);
        out.push(':');
        let values = &attestations[key];
        let list = values.is_array().then(|| strings(values));
        out.push_str(&value_list(list.as_deref()));
    }
    out.push('}');
    BadValue::Json(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::validate_token_request;

    fn texts(spec: serde_json::Value, expiration: i64, audiences: &[&str]) -> Vec<String> {
        let audiences: Vec<String> = audiences.iter().map(|a| (*a).to_owned()).collect();
        validate_token_request(&spec, expiration, &audiences)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn lifetimes_between_ten_minutes_and_two_to_the_32_seconds() {
        assert!(texts(json!({}), 3600, &["api"]).is_empty());
        assert_eq!(
            texts(json!({}), 60, &["api"]),
            [
                "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes"
            ]
        );
        assert_eq!(
            texts(json!({}), (1 << 32) + 1, &["api"]),
            [
                "spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds"
            ]
        );
    }

    #[test]
    fn attestations_only_with_a_webhook_reference_from_1_37() {
        let pod = json!({"attestations": {"admissionReviewAPIGroups": ["apps"]},
            "boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "p"}});
        let got = texts(pod, 60, &["api"]);
        if cfg!(feature = "v1_37") {
            // The attestations' error alone: the lifetime's is dropped.
            assert_eq!(
                got,
                [
                    "spec.attestations: Invalid value: {\"admissionReviewAPIGroups\":[\"apps\"]}: attestations may only be specified with a webhook bound object reference"
                ]
            );
        } else {
            assert_eq!(got.len(), 1, "{got:?}");
        }
        let webhook = |attestations: serde_json::Value| {
            json!({"attestations": attestations, "boundObjectRef": {
                "kind": "ValidatingWebhookConfiguration",
                "apiVersion": "admissionregistration.k8s.io/v1", "name": "w"}})
        };
        if !cfg!(feature = "v1_37") {
            assert!(texts(webhook(json!(null)), 3600, &["a", "b"]).is_empty());
            return;
        }
        assert_eq!(
            texts(webhook(json!(null)), 3600, &["a", "b"]),
            [
                "spec.audiences: Invalid value: [\"a\",\"b\"]: must be length 1 when bound to a webhook config",
                "spec.attestations: Invalid value: null: webhook bound requests require exactly one admissionReviewAPIGroups attestation",
            ]
        );
        assert_eq!(
            texts(webhook(json!({"other": ["x"]})), 3600, &["a"]),
            [
                "spec.attestations[other]: Unsupported value: \"other\": supported values: \"admissionReviewAPIGroups\""
            ]
        );
        assert_eq!(
            texts(
                webhook(json!({"admissionReviewAPIGroups": ["a", "b"]})),
                3600,
                &["a"]
            ),
            [
                "spec.attestations[admissionReviewAPIGroups]: Invalid value: [\"a\",\"b\"]: must specify a single value"
            ]
        );
        assert_eq!(
            texts(
                webhook(json!({"admissionReviewAPIGroups": [""]})),
                3600,
                &["a"]
            ),
            [
                "spec.attestations[admissionReviewAPIGroups][0]: Invalid value: \"\": may not be an empty string"
            ]
        );
        let bad_group = texts(
            webhook(json!({"admissionReviewAPIGroups": ["Apps"]})),
            3600,
            &["a"],
        );
        assert_eq!(bad_group.len(), 1, "{bad_group:?}");
        assert!(
            bad_group[0].starts_with(
                "spec.attestations[admissionReviewAPIGroups][0]: Invalid value: \"Apps\": must specify a valid API Group: a lowercase RFC 1123 subdomain"
            ),
            "{bad_group:?}"
        );
        for group in ["*", "admissionregistration.k8s.io"] {
            assert!(
                texts(
                    webhook(json!({"admissionReviewAPIGroups": [group]})),
                    3600,
                    &["a"]
                )
                .is_empty()
            );
        }
    }
}
