//! The answers the server writes without a handler's object (Go's
//! `endpoints/handlers/responsewriters`): refusals of paths and methods, and the JSON of
//! a `Status`.

use apimachinery::api::errors::{StatusError, reason};
use apimachinery::apis::meta::v1::{Status, StatusDetails};
use apimachinery::util::json::JsonLayout;
use axum::body::Body;
use axum::http::{HeaderValue, Response, StatusCode, header};

/// 404 for a path that names nothing the server serves: Go's
/// `NewGenericServerResponse` answer, the same for every path (`path` is not in it).
pub fn path_not_found(_path: &str) -> StatusError {
    StatusError::failure(
        404,
        reason::NOT_FOUND,
        "the server could not find the requested resource",
    )
    .with_details(StatusDetails::default())
}

/// 405 for a method the resource does not take: Go's `NewMethodNotSupported`-style
/// generic answer, the same whatever the method and path (`what`, the path or why, is
/// for the server's own log lines, not the client).
pub fn method_not_allowed(_method: &str, _what: &str) -> StatusError {
    StatusError::failure(
        405,
        reason::METHOD_NOT_ALLOWED,
        "the server does not allow this method on the requested resource",
    )
    .with_details(StatusDetails::default())
}

/// Go's mux answer to a path outside every API group it serves: plain text, no
/// `Status` (`http.NotFound`).
pub fn plain_not_found() -> Response<Body> {
    let mut resp = Response::new(Body::from("404 page not found\n"));
    *resp.status_mut() = StatusCode::NOT_FOUND;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp.headers_mut().insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// The JSON body of a `Status`, newline-terminated.
pub fn status_json(status: &Status) -> Vec<u8> {
    let mut out = Vec::new();
    // A Status always encodes; should it not, the body is empty rather than half written.
    if apimachinery::util::json::encode_go_json(status, &mut out, JsonLayout::Compact).is_err() {
        out.clear();
    }
    out.push(b'\n');
    out
}

/// An answer of `code` with `body` of `content_type`.
pub fn json_response(code: u16, content_type: &str, body: Vec<u8>) -> Response<Body> {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(v) = HeaderValue::from_str(content_type) {
        resp.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    resp
}

/// A plain-text answer, as Go's `http.Error` writes one.
pub fn http_error(code: u16, message: &str) -> Response<Body> {
    let mut resp = json_response(
        code,
        "text/plain; charset=utf-8",
        format!("{message}\n").into_bytes(),
    );
    resp.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// The answer of a failed request: its `Status`, in JSON (indented by the pretty-print
/// filter when Go would write it indented).
pub fn error_response(err: &StatusError) -> Response<Body> {
    json_response(err.code(), "application/json", status_json(&err.status))
}

/// A JSON value as a 200 answer.
pub fn value_response(value: &serde_json::Value, content_type: &str) -> Response<Body> {
    let mut body = serde_json::to_vec(value).unwrap_or_default();
    body.push(b'\n');
    json_response(200, content_type, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use apimachinery::api::errors;

    #[test]
    fn refusals_answer_their_predicates() {
        assert!(errors::is_not_found(&path_not_found("/apis/x")));
        let refused = method_not_allowed("PUT", "/api/v1/pods");
        assert!(errors::is_method_not_supported(&refused));
        assert_eq!(
            refused.to_string(),
            "the server does not allow this method on the requested resource"
        );
        // Go's generic answers carry empty details (`"details":{}`).
        assert_eq!(refused.status.details, Some(StatusDetails::default()));
        assert!(status_json(&refused.status).ends_with(b"\n"));
    }
}
