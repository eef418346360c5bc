//! The Job controller on simulated Nodes.
use controller_runtime::client::{Client, ListOptions, ObjectKey};
use controller_runtime::envtest::Environment;
use k8s_types::batch::v1::Job;
use k8s_types::core::v1::Pod;
use serde_json::json;

use crate::servers::until;

fn job(name: &str, completions: i32, parallelism: i32, annotations: serde_json::Value) -> Job {
    serde_json::from_value(json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {
            "completions": completions,
            "parallelism": parallelism,
            "backoffLimit": 1,
            "template": {
                "metadata": {"annotations": annotations},
                "spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl"}]},
            },
        },
    }))
    .unwrap()
}

fn finished(j: &Job) -> Option<(String, String)> {
    j.status
        .conditions
        .iter()
        .find(|c| matches!(c.r#type.as_str(), "Complete" | "Failed") && c.status == "True")
        .map(|c| (c.r#type.clone(), c.reason.clone()))
}

against_both_with!(
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    jobs_complete_or_fail_as_their_pods_do,
    controller_manager::Options::new()
        .controllers("job")
        .unwrap()
        .nodes(2)
        .clock(controller_manager::nodes::Clock::scaled(20.0))
        .pod_run_seconds(2)
);
async fn jobs_complete_or_fail_as_their_pods_do(env: Environment, client: Client) {
    client
        .create(&job("pi", 3, 2, json!({})), &Default::default())
        .await
        .unwrap();
    client
        .create(
            &job("broken", 1, 1, json!({"kapi/simulated-exit-code": "2"})),
            &Default::default(),
        )
        .await
        .unwrap();
    let get = |name: &'static str| {
        let client = client.clone();
        async move {
            let j: Job = client.get(&ObjectKey::new("default", name)).await.unwrap();
            finished(&j).map(|f| (f, j))
        }
    };
    let ((kind, reason), pi) = until("pi finished", || get("pi")).await;
    assert_eq!(
        (kind.as_str(), reason.as_str()),
        ("Complete", "CompletionsReached")
    );
    assert_eq!(
        (pi.status.succeeded, pi.status.failed, pi.status.active),
        (3, 0, 0)
    );
    assert!(pi.status.completion_time.is_some() && pi.status.start_time.is_some());
    let kinds: Vec<&str> = pi
        .status
        .conditions
        .iter()
        .map(|c| c.r#type.as_str())
        .collect();
    assert_eq!(kinds, ["SuccessCriteriaMet", "Complete"]);
    let ((kind, reason), broken) = until("broken finished", || get("broken")).await;
    assert_eq!(
        (kind.as_str(), reason.as_str()),
        ("Failed", "BackoffLimitExceeded")
    );
    assert_eq!(broken.status.failed, 2);
    let pods = client
        .list::<Pod>(&ListOptions::in_namespace("default"))
        .await
        .unwrap()
        .items;
    let pi_pods: Vec<&Pod> = pods
        .iter()
        .filter(|p| {
            p.metadata
                .labels
                .get("batch.kubernetes.io/job-name")
                .map(String::as_str)
                == Some("pi")
        })
        .collect();
    assert_eq!(pi_pods.len(), 3);
    assert!(pi_pods.iter().all(|p| p.status.phase == "Succeeded"));
    let failed = pods.iter().find(|p| p.status.phase == "Failed").unwrap();
    let terminated = failed.status.container_statuses[0]
        .state
        .terminated
        .as_ref()
        .unwrap();
    assert_eq!(
        (terminated.exit_code, terminated.reason.as_str()),
        (2, "Error")
    );
    env.stop().await;
}
