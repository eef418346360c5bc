//! `authentication.k8s.io/v1` (Go's `pkg/apis/authentication/v1/defaults.go`): a
//! TokenRequest lasts an hour unless it says (defaulted when decoded, so a request's
//! managed fields name `spec.expirationSeconds` whether or not it was sent).

use apimachinery::conversion::Defaulters;

/// Go's `SetDefaults_TokenRequestSpec`: one hour.
const DEFAULT_EXPIRATION_SECONDS: i64 = 60 * 60;

pub(super) fn register(d: &mut Defaulters) {
    d.add(|obj: &mut crate::authentication::v1::TokenRequest| {
        obj.spec
            .expiration_seconds
            .get_or_insert(DEFAULT_EXPIRATION_SECONDS);
    });
}
