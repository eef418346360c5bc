//! How a watch's events are framed on the wire: a backlog (here a replay from the
//! cache's ring) goes out gathered into few chunks, each event whole and in order, in
//! JSON lines and in protobuf frames; clients read events, not chunks, so only the count
//! of chunks tells the gathering apart.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::client;
use serde_json::json;

const CM: &str = "/api/v1/namespaces/default/configmaps";
const EVENTS: usize = 60;

/// The number of protobuf frames in a watch body (a four-byte big-endian length
/// before each `WatchEvent`).
fn protobuf_frames(mut body: &[u8]) -> usize {
    let mut frames = 0;
    while body.len() >= 4 {
        let len = u32::from_be_bytes([body[0], body[1], body[2], body[3]]) as usize;
        assert!(body.len() >= 4 + len, "a frame cut short");
        body = &body[4 + len..];
        frames += 1;
    }
    assert!(body.is_empty(), "bytes after the last frame");
    frames
}

#[tokio::test]
async fn a_replayed_backlog_goes_out_in_few_chunks_every_event_whole_and_in_order() {
    let s = client::start().await;
    let from = s.get(CM).await.json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 0..EVENTS {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("cm-{i}")}, "data": {"i": i.to_string()}});
        assert_eq!(s.send_json("POST", CM, &cm).await.status, 201);
    }
    let path = format!("{CM}?watch=true&resourceVersion={from}&timeoutSeconds=1");

    let r = s.get(&path).await;
    assert_eq!(r.status, 200);
    let names: Vec<String> = r
        .events()
        .iter()
        .map(|e| {
            assert_eq!(e["type"], "ADDED", "{e}");
            e["object"]["metadata"]["name"].as_str().unwrap().to_owned()
        })
        .collect();
    let expected: Vec<String> = (0..EVENTS).map(|i| format!("cm-{i}")).collect();
    assert_eq!(names, expected);
    // One chunk for the first event, then the rest gathered (a chunk per line before).
    assert!(r.chunks < EVENTS / 4, "{} chunks", r.chunks);

    let accept = [("Accept", "application/vnd.kubernetes.protobuf;stream=watch")];
    let r = s.request("GET", &path, &accept, b"").await;
    assert_eq!(r.status, 200);
    assert_eq!(protobuf_frames(&r.body), EVENTS);
    assert!(r.chunks < EVENTS / 4, "{} chunks", r.chunks);
    s.server.shutdown().await;
}
