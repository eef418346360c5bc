use super::*;
use crate::authorization::{AlwaysAllow, AlwaysDeny};

/// The `status` the review of kind `resource` answers, as the server's REST storage of
/// that resource answers it; `None` for a resource that is not an access review.
async fn answer<A: Authorizer + Clone + 'static>(
    resource: &str,
    review: &Value,
    user: &Info,
    namespace: &str,
    authorizer: &A,
) -> Result<Option<Value>, StatusError> {
    let authorizer: Arc<dyn Authorizer> = Arc::new(authorizer.clone());
    let status = match resource {
        "subjectaccessreviews" => {
            subjectaccessreview::SubjectAccessReview::new(authorizer)
                .status(review)
                .await?
        }
        "localsubjectaccessreviews" => {
            localsubjectaccessreview::LocalSubjectAccessReview::new(authorizer)
                .status(review, namespace)
                .await?
        }
        "selfsubjectaccessreviews" => {
            selfsubjectaccessreview::SelfSubjectAccessReview::new(authorizer)
                .status(review, user)
                .await?
        }
        "selfsubjectrulesreviews" => {
            selfsubjectrulesreview::SelfSubjectRulesReview::new(authorizer)
                .status(review, user)
                .await?
        }
        _ => return Ok(None),
    };
    Ok(Some(status))
}

#[tokio::test]
async fn a_review_without_exactly_one_attribute_set_is_invalid() {
    let both = json!({"spec": {"user": "a", "resourceAttributes": {"verb": "get"}, "nonResourceAttributes": {"path": "/"}}});
    let err = answer(
        "subjectaccessreviews",
        &both,
        &Info::default(),
        "",
        &AlwaysAllow,
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), 422);
    let both_text = if cfg!(feature = "v1_37") {
        "spec: Invalid value: {\"Path\":\"/\",\"Verb\":\"\"}: exactly one of nonResourceAttributes or resourceAttributes must be specified"
    } else {
        "spec.nonResourceAttributes: Invalid value: {\"Path\":\"/\",\"Verb\":\"\"}: cannot be specified in combination with resourceAttributes"
    };
    assert_eq!(
        err.status.message,
        // Go names no kind: the decoded review's kind is empty.
        format!(".authorization.k8s.io \"\" is invalid: {both_text}")
    );
    let none = json!({"spec": {"user": "a"}});
    let err = answer(
        "subjectaccessreviews",
        &none,
        &Info::default(),
        "",
        &AlwaysAllow,
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), 422);
    let none_field = if cfg!(feature = "v1_37") {
        "spec"
    } else {
        "spec.resourceAttributes"
    };
    assert_eq!(
        err.status.message,
        format!(
            ".authorization.k8s.io \"\" is invalid: {none_field}: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"
        )
    );
    let nobody = json!({"spec": {"resourceAttributes": {"verb": "get"}}});
    let err = answer(
        "subjectaccessreviews",
        &nobody,
        &Info::default(),
        "",
        &AlwaysAllow,
    )
    .await
    .unwrap_err();
    assert!(err.status.message.contains("at least one of user or group"));
}

#[tokio::test]
async fn a_local_review_must_name_the_namespace_of_its_path() {
    let review =
        json!({"spec": {"user": "a", "resourceAttributes": {"verb": "get", "namespace": "b"}}});
    let err = answer(
        "localsubjectaccessreviews",
        &review,
        &Info::default(),
        "a",
        &AlwaysAllow,
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), 422);
    assert_eq!(
        err.status.message,
        ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"b\": must match metadata.namespace"
    );
    let ok = answer(
        "localsubjectaccessreviews",
        &review,
        &Info::default(),
        "b",
        &AlwaysAllow,
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(ok["allowed"], true);
}

#[tokio::test]
async fn rules_reviews_need_a_namespace_and_list_the_authorizers_rules() {
    let err = answer(
        "selfsubjectrulesreviews",
        &json!({"spec": {}}),
        &Info::default(),
        "",
        &AlwaysAllow,
    )
    .await
    .unwrap_err();
    assert_eq!(err.code(), 400);
    let status = answer(
        "selfsubjectrulesreviews",
        &json!({"spec": {"namespace": "a"}}),
        &Info::default(),
        "",
        &AlwaysAllow,
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(status["resourceRules"][0]["verbs"], json!(["*"]));
    assert_eq!(
        status["nonResourceRules"][0]["nonResourceURLs"],
        json!(["*"])
    );
    assert_eq!(status["incomplete"], false);
    let denied = answer(
        "selfsubjectaccessreviews",
        &json!({"spec": {"nonResourceAttributes": {"path": "/healthz", "verb": "get"}}}),
        &Info::default(),
        "",
        &AlwaysDeny,
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        denied,
        json!({"allowed": false, "reason": "Everything is forbidden."})
    );
    assert!(
        answer(
            "tokenreviews",
            &json!({}),
            &Info::default(),
            "",
            &AlwaysDeny
        )
        .await
        .unwrap()
        .is_none()
    );
}
