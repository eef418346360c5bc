//! `admissionregistration.k8s.io/v1`, `v1beta1` and `v1alpha1` (Go's
//! `pkg/apis/admissionregistration/<version>/defaults.go`). Webhooks of `v1` fail
//! closed, match equivalent requests, select every namespace and object, time out after
//! 10 s and are not reinvoked; `v1beta1`'s fail open, match exactly, time out after
//! 30 s, have unknown side effects and speak `v1beta1` reviews. Rules of every scope
//! (`*`), services on port 443. Admission policies fail closed; their match resources
//! default as webhooks' do, and a binding's missing parameters are denied.

use apimachinery::apis::meta::v1::LabelSelector;
use apimachinery::conversion::Defaulters;

use super::GetOrInsertStr as _;

/// A webhook's defaults; `$v1beta1` picks that version's values.
macro_rules! webhook {
    ($w:expr, v1beta1: $beta:expr) => {{
        let w = $w;
        w.failure_policy
            .get_or_insert_str(if $beta { "Ignore" } else { "Fail" });
        w.match_policy
            .get_or_insert_str(if $beta { "Exact" } else { "Equivalent" });
        w.namespace_selector
            .get_or_insert_with(LabelSelector::default);
        w.object_selector.get_or_insert_with(LabelSelector::default);
        w.timeout_seconds.get_or_insert(if $beta { 30 } else { 10 });
        for r in &mut w.rules {
            r.scope.get_or_insert_str("*");
        }
        if let Some(s) = w.client_config.service.as_mut() {
            s.port.get_or_insert(443);
        }
    }};
}

/// Match resources' defaults (a policy's constraints, a binding's resources).
macro_rules! match_resources {
    ($m:expr) => {{
        let m = $m;
        m.match_policy.get_or_insert_str("Equivalent");
        m.namespace_selector
            .get_or_insert_with(LabelSelector::default);
        m.object_selector.get_or_insert_with(LabelSelector::default);
        for r in m
            .resource_rules
            .iter_mut()
            .chain(&mut m.exclude_resource_rules)
        {
            r.scope.get_or_insert_str("*");
        }
    }};
}

/// The policy kinds of one version; a binding's missing-parameter action defaults to
/// `Deny` only where Go defaults it (`v1alpha1`'s `SetDefaults_ParamRef`: `v1` and
/// `v1beta1` leave it unset, and validation requires it).
macro_rules! policies {
    ($d:ident, $v:ident, $param_default:expr) => {
        $d.add(
            |p: &mut crate::admissionregistration::$v::ValidatingAdmissionPolicy| {
                p.spec.failure_policy.get_or_insert_str("Fail");
                if let Some(m) = p.spec.match_constraints.as_mut() {
                    match_resources!(m);
                }
            },
        );
        $d.add(
            |b: &mut crate::admissionregistration::$v::ValidatingAdmissionPolicyBinding| {
                if let Some(m) = b.spec.match_resources.as_mut() {
                    match_resources!(m);
                }
                if $param_default {
                    if let Some(p) = b.spec.param_ref.as_mut() {
                        p.parameter_not_found_action.get_or_insert_str("Deny");
                    }
                }
            },
        );
        $d.add(
            |p: &mut crate::admissionregistration::$v::MutatingAdmissionPolicy| {
                p.spec.failure_policy.get_or_insert_str("Fail");
                if let Some(m) = p.spec.match_constraints.as_mut() {
                    match_resources!(m);
                }
            },
        );
        $d.add(
            |b: &mut crate::admissionregistration::$v::MutatingAdmissionPolicyBinding| {
                if let Some(m) = b.spec.match_resources.as_mut() {
                    match_resources!(m);
                }
                if $param_default {
                    if let Some(p) = b.spec.param_ref.as_mut() {
                        p.parameter_not_found_action.get_or_insert_str("Deny");
                    }
                }
            },
        );
    };
}

pub(super) fn register(d: &mut Defaulters) {
    use crate::admissionregistration::{v1, v1beta1};
    d.add(|c: &mut v1::ValidatingWebhookConfiguration| {
        for w in &mut c.webhooks {
            webhook!(w, v1beta1: false);
        }
    });
    d.add(|c: &mut v1::MutatingWebhookConfiguration| {
        for w in &mut c.webhooks {
            webhook!(&mut *w, v1beta1: false);
            w.reinvocation_policy.get_or_insert_str("Never");
        }
    });
    d.add(|c: &mut v1beta1::ValidatingWebhookConfiguration| {
        for w in &mut c.webhooks {
            webhook!(&mut *w, v1beta1: true);
            w.side_effects.get_or_insert_str("Unknown");
            if w.admission_review_versions.is_empty() {
                w.admission_review_versions.push("v1beta1".to_owned());
            }
        }
    });
    d.add(|c: &mut v1beta1::MutatingWebhookConfiguration| {
        for w in &mut c.webhooks {
            webhook!(&mut *w, v1beta1: true);
            w.side_effects.get_or_insert_str("Unknown");
            if w.admission_review_versions.is_empty() {
                w.admission_review_versions.push("v1beta1".to_owned());
            }
            w.reinvocation_policy.get_or_insert_str("Never");
        }
    });
    policies!(d, v1, false);
    policies!(d, v1beta1, false);
    policies!(d, v1alpha1, true);
}
