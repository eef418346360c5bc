//! The conversion webhook client over HTTPS: the `ConversionReview` goes to a server
//! whose certificate the CRD's `caBundle` vouches for, and a server it does not vouch
//! for is refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use apiserver::apiextensions::WebhookClientConfig;
use apiserver::apiextensions::conversion::ConversionWebhook;
use serde_json::{Value, json};

use crate::support::https_webhook;

/// An HTTPS conversion webhook that only sets each object's `apiVersion`; its URL and
/// its certificate's PEM.
async fn webhook() -> (String, String) {
    https_webhook::serve(
        "/convert",
        Arc::new(|review: Value| {
            let request = &review["request"];
            let converted: Vec<Value> = request["objects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    let mut o = o.clone();
                    o["apiVersion"] = request["desiredAPIVersion"].clone();
                    o
                })
                .collect();
            json!({
                "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                "response": {"uid": request["uid"], "result": {"status": "Success"},
                             "convertedObjects": converted},
            })
        }),
    )
    .await
}

fn config(url: &str, ca: &str) -> WebhookClientConfig {
    WebhookClientConfig {
        url: Some(url.to_owned()),
        service: None,
        ca_bundle: ca.as_bytes().to_vec(),
        review_versions: vec!["v1".into()],
    }
}

fn widget() -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
           "metadata": {"name": "w", "namespace": "default", "uid": "u1"}, "spec": {"size": 1}})
}

#[tokio::test]
async fn the_ca_bundle_is_what_is_trusted() {
    let (url, pem) = webhook().await;
    let client = ConversionWebhook::new(&config(&url, &pem)).unwrap();
    let out = client
        .convert("Widget", vec![widget()], "example.com/v2")
        .await
        .unwrap();
    assert_eq!(out[0]["apiVersion"], "example.com/v2");
    assert_eq!(out[0]["spec"]["size"], 1);

    // Another CA's bundle: the webhook's certificate is not trusted.
    let other = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .cert
        .pem();
    let client = ConversionWebhook::new(&config(&url, &other)).unwrap();
    let err = client
        .convert("Widget", vec![widget()], "example.com/v2")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("conversion webhook for example.com/v2, Kind=Widget failed: Post"),
        "{err}"
    );
}
