use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;
use jsonwebtoken::Algorithm;
use serde_json::json;

use super::*;
use crate::registry::from_value;
use crate::storage::MemoryStorage;

const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

fn scheme() -> Arc<Scheme> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).unwrap();
    Arc::new(scheme)
}

fn tokens() -> ServiceAccountTokens {
    ServiceAccountTokens::new(
        scheme(),
        Arc::new(MemoryStorage::new()),
        SigningKey::generate().unwrap(),
        ISSUER,
    )
}

/// Stores a ServiceAccount and gives its uid.
async fn service_account(tokens: &ServiceAccountTokens, ns: &str, name: &str) -> String {
    let store = &tokens.lookup.stores["serviceaccounts"];
    let obj = from_value(
        &scheme(),
        &GroupVersionKind::new("", "v1", "ServiceAccount"),
        json!({"metadata": {"name": name, "namespace": ns}}),
    )
    .unwrap();
    let created = store.create(ns, obj, false).await.unwrap();
    created.meta().unwrap().uid().to_owned()
}

fn claims(ns: &str, name: &str, uid: &str, aud: &str, exp_in: i64) -> Claims {
    let now = Time::now().unix_seconds();
    Claims {
        aud: vec![aud.to_owned()],
        exp: now + exp_in,
        iat: now,
        iss: ISSUER.to_owned(),
        jti: "jti-1".to_owned(),
        kubernetes: KubernetesClaim {
            namespace: ns.to_owned(),
            serviceaccount: Ref {
                name: name.to_owned(),
                uid: uid.to_owned(),
            },
            ..KubernetesClaim::default()
        },
        nbf: now,
        sub: make_username(ns, name),
    }
}

#[tokio::test]
async fn an_issued_token_is_its_service_account_with_go_s_groups_and_extra() {
    let tokens = tokens();
    let uid = service_account(&tokens, "default", "builder").await;
    let answered = tokens
        .request_token("default", "builder", json!({"spec": {}}))
        .await
        .unwrap();
    assert_eq!(answered["spec"]["expirationSeconds"], 3600);
    assert_eq!(answered["spec"]["audiences"], json!([ISSUER]));
    let token = answered["status"]["token"].as_str().unwrap();
    let user = tokens.authenticate_token(token).await.unwrap().unwrap();
    assert_eq!(user.name, "system:serviceaccount:default:builder");
    assert_eq!(user.uid, uid);
    assert_eq!(
        user.groups,
        [
            "system:serviceaccounts",
            "system:serviceaccounts:default",
            "system:authenticated"
        ]
    );
    assert!(user.extra[CREDENTIAL_ID_KEY][0].starts_with("JTI="));
}

#[tokio::test]
async fn expired_wrong_audience_and_forged_tokens_are_refused() {
    let tokens = tokens();
    let uid = service_account(&tokens, "default", "builder").await;
    let expired = tokens
        .sign(&claims("default", "builder", &uid, ISSUER, -3600))
        .unwrap();
    assert_eq!(
        tokens.authenticate_token(&expired).await.unwrap_err().0,
        "service account token has expired"
    );
    let elsewhere = tokens
        .sign(&claims(
            "default",
            "builder",
            &uid,
            "https://vault.example",
            3600,
        ))
        .unwrap();
    assert!(tokens.authenticate_token(&elsewhere).await.is_err());
    let forger = ServiceAccountTokens::new(
        scheme(),
        Arc::new(MemoryStorage::new()),
        SigningKey::generate().unwrap(),
        ISSUER,
    );
    let forged = forger
        .sign(&claims("default", "builder", &uid, ISSUER, 3600))
        .unwrap();
    assert!(tokens.authenticate_token(&forged).await.is_err());
    // A token another issuer made, or no JWT at all, is some other authenticator's.
    assert!(tokens.authenticate_token("abc").await.unwrap().is_none());
    let mut other = claims("default", "builder", &uid, ISSUER, 3600);
    other.iss = "https://other".to_owned();
    assert!(
        tokens
            .authenticate_token(&tokens.sign(&other).unwrap())
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_token_outlives_neither_its_service_account_nor_its_uid() {
    let tokens = tokens();
    let uid = service_account(&tokens, "default", "builder").await;
    let token = tokens
        .sign(&claims("default", "builder", "another-uid", ISSUER, 3600))
        .unwrap();
    assert_eq!(
        tokens.authenticate_token(&token).await.unwrap_err().0,
        format!("service account UID ({uid}) does not match claim (another-uid)")
    );
    let gone = tokens
        .sign(&claims("default", "ghost", "x", ISSUER, 3600))
        .unwrap();
    assert!(tokens.authenticate_token(&gone).await.is_err());
}

#[tokio::test]
async fn token_requests_are_validated_as_go_validates_them() {
    let tokens = tokens();
    service_account(&tokens, "default", "builder").await;
    let short = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"expirationSeconds": 60}}),
        )
        .await
        .unwrap_err();
    assert_eq!(short.code(), 422);
    assert!(
        short
            .status
            .message
            .contains("may not specify a duration less than 10 minutes")
    );
    let missing = tokens
        .request_token("default", "nobody", json!({"spec": {}}))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), 404);
    let bound = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"boundObjectRef": {"kind": "Deployment", "apiVersion": "apps/v1", "name": "web"}}}),
        )
        .await
        .unwrap_err();
    assert_eq!(bound.code(), 400);
    assert_eq!(
        bound.status.message,
        "cannot bind token to object of type apps/v1, Kind=Deployment"
    );
    let webhook = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"attestations": {"admissionReviewAPIGroups": ["*"]},
                "boundObjectRef": {"kind": "ValidatingWebhookConfiguration",
                    "apiVersion": "admissionregistration.k8s.io/v1", "name": "w"}}}),
        )
        .await
        .unwrap_err();
    // 1.37 validates the attestations, then refuses the binding while its gate is off;
    // 1.36 knows no attestations and refuses the kind.
    assert_eq!(webhook.code(), 400);
    let gate = if cfg!(feature = "v1_37") {
        " (feature gate APIServerWebhookAuthenticationToken is disabled)"
    } else {
        ""
    };
    assert_eq!(
        webhook.status.message,
        format!(
            "cannot bind token to object of type admissionregistration.k8s.io/v1, Kind=ValidatingWebhookConfiguration{gate}"
        )
    );
    let no_pod = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "web"}}}),
        )
        .await
        .unwrap_err();
    assert_eq!(no_pod.code(), 404);
}

#[test]
fn a_generated_key_reads_back_with_the_same_key_id() {
    let key = SigningKey::generate().unwrap();
    let pem = key.to_pem().unwrap().to_owned();
    let again = SigningKey::from_pem(pem.as_bytes()).unwrap();
    assert_eq!(again.verifying_key().kid(), key.verifying_key().kid());
    let public = VerifyingKey::from_pem(pem.as_bytes()).unwrap();
    assert_eq!(public[0].kid(), key.verifying_key().kid());
    assert!(SigningKey::from_pem(b"nothing here").is_err());
}

/// An RSA key (PKCS#1, as `openssl genrsa -traditional` writes it), made for these tests.
const RSA_KEY: &str = include_str!("testdata/rsa-pkcs1.key");
/// Its public half, PKIX (`openssl rsa -pubout`).
const RSA_PUBLIC: &str = include_str!("testdata/rsa.pub");

#[tokio::test]
async fn rsa_keys_sign_rs256_tokens_their_public_half_verifies() {
    let key = SigningKey::from_pem(RSA_KEY.as_bytes()).unwrap();
    assert!(
        key.to_pem().is_none(),
        "a key read from a file stays in that file"
    );
    let signer = ServiceAccountTokens::new(scheme(), Arc::new(MemoryStorage::new()), key, ISSUER);
    let uid = service_account(&signer, "default", "builder").await;
    let token = signer
        .sign(&claims("default", "builder", &uid, ISSUER, 3600))
        .unwrap();
    assert_eq!(
        jsonwebtoken::decode_header(&token).unwrap().alg,
        Algorithm::RS256
    );
    assert!(signer.authenticate_token(&token).await.unwrap().is_some());
    // A server that only verifies (another key signs) accepts it through the public key,
    // with the same key id.
    let public = VerifyingKey::from_pem(RSA_PUBLIC.as_bytes()).unwrap();
    assert_eq!(public[0].kid(), signer.signing.verifying_key().kid());
    // (It reads the signer's storage, where the ServiceAccount is.)
    let verifier = ServiceAccountTokens {
        lookup: signer.lookup,
        ..tokens().with_verifying_keys(public)
    };
    assert!(verifier.authenticate_token(&token).await.unwrap().is_some());
}

#[test]
fn a_sec1_ec_key_is_refused_with_how_to_convert_it() {
    let err = SigningKey::from_pem(include_bytes!("testdata/ec-sec1.key")).unwrap_err();
    assert!(err.to_string().contains("openssl pkcs8 -topk8"), "{err}");
}

/// Stores a Pod and gives its uid.
async fn pod(tokens: &ServiceAccountTokens, ns: &str, name: &str) -> String {
    let scheme = scheme();
    let mut obj = from_value(
        &scheme,
        &GroupVersionKind::new("", "v1", "Pod"),
        // Run as the account the tests bind tokens of (Go binds only those of the
        // Pod's own account).
        json!({"metadata": {"name": name, "namespace": ns}, "spec": {"serviceAccountName": "builder", "containers": [{"name": "c", "image": "i"}]}}),
    )
    .unwrap();
    // Defaulted as the server's handlers default every write before the store
    // validates it.
    scheme.default(&mut *obj);
    let created = tokens.lookup.stores["pods"]
        .create(ns, obj, false)
        .await
        .unwrap();
    created.meta().unwrap().uid().to_owned()
}

#[tokio::test]
async fn a_token_bound_to_a_pod_names_it_and_dies_with_it() {
    let tokens = tokens();
    service_account(&tokens, "default", "builder").await;
    let uid = pod(&tokens, "default", "web").await;
    let conflict = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "web", "uid": "stale"}}}),
        )
        .await
        .unwrap_err();
    assert_eq!(conflict.code(), 409);
    let answered = tokens
        .request_token(
            "default",
            "builder",
            json!({"spec": {"boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "web", "uid": uid}}}),
        )
        .await
        .unwrap();
    let token = answered["status"]["token"].as_str().unwrap();
    let user = tokens.authenticate_token(token).await.unwrap().unwrap();
    assert_eq!(user.extra[POD_NAME_KEY], ["web"]);
    assert_eq!(user.extra[POD_UID_KEY], [uid.as_str()]);
    tokens.lookup.stores["pods"]
        .delete("default", "web", &crate::registry::DeleteParams::default())
        .await
        .unwrap();
    assert_eq!(
        tokens.authenticate_token(token).await.unwrap_err().0,
        "service account token has been invalidated"
    );
}

#[tokio::test]
async fn api_audiences_are_the_default_audiences_and_the_accepted_ones() {
    let tokens = tokens().with_audiences(vec!["https://api.example".to_owned()]);
    let uid = service_account(&tokens, "default", "builder").await;
    let answered = tokens
        .request_token("default", "builder", json!({"spec": {}}))
        .await
        .unwrap();
    assert_eq!(
        answered["spec"]["audiences"],
        json!(["https://api.example"])
    );
    let token = answered["status"]["token"].as_str().unwrap();
    assert!(tokens.authenticate_token(token).await.unwrap().is_some());
    // The issuer is no longer an audience.
    let for_issuer = tokens
        .sign(&claims("default", "builder", &uid, ISSUER, 3600))
        .unwrap();
    assert!(tokens.authenticate_token(&for_issuer).await.is_err());
}
