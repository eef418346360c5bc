//! A Deployment-shaped type set in two versions, `v1` and its hub `internal`, the way the
//! generated Kubernetes types will look: every nested type has its own versioned struct
//! and a `#[derive(Convert)]` conversion to its internal peer.

use std::collections::BTreeMap;

use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta, TypeMeta};

macro_rules! deployment_types {
    ($version:literal $(, hub = $hub:ident)?) => {
        use super::*;

        #[derive(apimachinery::ApiObject, Clone, Debug, Default, PartialEq)]
        #[api(group = "bench.example.com", version = $version, kind = "Deployment")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::Deployment)])?
        pub struct Deployment {
            pub type_meta: TypeMeta,
            pub metadata: ObjectMeta,
            pub spec: DeploymentSpec,
            pub status: Option<DeploymentStatus>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::DeploymentSpec, nested)])?
        pub struct DeploymentSpec {
            pub replicas: Option<i32>,
            pub selector: Option<LabelSelector>,
            pub template: PodTemplateSpec,
            pub strategy: DeploymentStrategy,
            pub min_ready_seconds: i32,
            pub revision_history_limit: Option<i32>,
            pub paused: bool,
            pub progress_deadline_seconds: Option<i32>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::DeploymentStrategy, nested)])?
        pub struct DeploymentStrategy {
            #[serde(rename = "type")]
            pub type_: String,
            pub max_surge: Option<String>,
            pub max_unavailable: Option<String>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::DeploymentStatus, nested)])?
        pub struct DeploymentStatus {
            pub observed_generation: i64,
            pub replicas: i32,
            pub ready_replicas: i32,
            pub conditions: Vec<String>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::PodTemplateSpec, nested)])?
        pub struct PodTemplateSpec {
            pub metadata: ObjectMeta,
            pub spec: PodSpec,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::PodSpec, nested)])?
        pub struct PodSpec {
            pub containers: Vec<Container>,
            pub volumes: Vec<Volume>,
            pub restart_policy: String,
            pub termination_grace_period_seconds: Option<i64>,
            pub dns_policy: String,
            pub service_account_name: String,
            pub node_selector: BTreeMap<String, String>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::Container, nested)])?
        pub struct Container {
            pub name: String,
            pub image: String,
            pub command: Vec<String>,
            pub args: Vec<String>,
            pub env: Vec<EnvVar>,
            pub ports: Vec<ContainerPort>,
            pub resources: ResourceRequirements,
            pub volume_mounts: Vec<VolumeMount>,
            pub image_pull_policy: String,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::EnvVar, nested)])?
        pub struct EnvVar {
            pub name: String,
            pub value: String,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::ContainerPort, nested)])?
        pub struct ContainerPort {
            pub name: String,
            pub container_port: i32,
            pub protocol: String,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::ResourceRequirements, nested)])?
        pub struct ResourceRequirements {
            pub limits: BTreeMap<String, String>,
            pub requests: BTreeMap<String, String>,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::VolumeMount, nested)])?
        pub struct VolumeMount {
            pub name: String,
            pub mount_path: String,
            pub read_only: bool,
        }

        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        $(#[derive(apimachinery::Convert)] #[conversion(hub = super::$hub::Volume, nested)])?
        pub struct Volume {
            pub name: String,
            pub config_map_name: Option<String>,
        }
    };
}

pub mod internal {
    deployment_types!("__internal");
}

pub mod v1 {
    deployment_types!("v1", hub = internal);
}

fn strings(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn container(name: &str, image: &str) -> v1::Container {
    v1::Container {
        name: name.into(),
        image: image.into(),
        command: vec!["/bin/server".into()],
        args: vec!["--port=8080".into(), "--verbose".into()],
        env: (0..6)
            .map(|i| v1::EnvVar {
                name: format!("ENV_{i}"),
                value: format!("value-{i}"),
            })
            .collect(),
        ports: vec![
            v1::ContainerPort {
                name: "http".into(),
                container_port: 8080,
                protocol: "TCP".into(),
            },
            v1::ContainerPort {
                name: "metrics".into(),
                container_port: 9090,
                protocol: "TCP".into(),
            },
        ],
        resources: v1::ResourceRequirements {
            limits: strings(&[("cpu", "500m"), ("memory", "512Mi")]),
            requests: strings(&[("cpu", "250m"), ("memory", "256Mi")]),
        },
        volume_mounts: vec![
            v1::VolumeMount {
                name: "config".into(),
                mount_path: "/etc/config".into(),
                read_only: true,
            },
            v1::VolumeMount {
                name: "data".into(),
                mount_path: "/var/data".into(),
                read_only: false,
            },
        ],
        image_pull_policy: "IfNotPresent".into(),
    }
}

/// A Deployment of typical size: labels and annotations, a selector, and a pod template
/// with two containers, each with env, ports, resources and volume mounts.
pub fn sample() -> v1::Deployment {
    let labels = strings(&[("app", "web"), ("tier", "frontend"), ("team", "platform")]);
    v1::Deployment {
        type_meta: TypeMeta::default(),
        metadata: ObjectMeta {
            name: "web".into(),
            namespace: "prod".into(),
            labels: labels.clone(),
            annotations: strings(&[
                ("deployment.kubernetes.io/revision", "7"),
                (
                    "kubectl.kubernetes.io/last-applied-configuration",
                    "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"}",
                ),
            ]),
            ..Default::default()
        },
        spec: v1::DeploymentSpec {
            replicas: Some(3),
            selector: Some(LabelSelector {
                match_labels: strings(&[("app", "web")]),
                ..Default::default()
            }),
            template: v1::PodTemplateSpec {
                metadata: ObjectMeta {
                    labels,
                    ..Default::default()
                },
                spec: v1::PodSpec {
                    containers: vec![
                        container("web", "nginx:1.27"),
                        container("sidecar", "envoyproxy/envoy:v1.31"),
                    ],
                    volumes: vec![
                        v1::Volume {
                            name: "config".into(),
                            config_map_name: Some("web-config".into()),
                        },
                        v1::Volume {
                            name: "data".into(),
                            config_map_name: None,
                        },
                    ],
                    restart_policy: "Always".into(),
                    termination_grace_period_seconds: Some(30),
                    dns_policy: "ClusterFirst".into(),
                    service_account_name: "web".into(),
                    node_selector: strings(&[("kubernetes.io/os", "linux")]),
                },
            },
            strategy: v1::DeploymentStrategy {
                type_: "RollingUpdate".into(),
                max_surge: Some("25%".into()),
                max_unavailable: Some("25%".into()),
            },
            min_ready_seconds: 5,
            revision_history_limit: Some(10),
            paused: false,
            progress_deadline_seconds: Some(600),
        },
        status: Some(v1::DeploymentStatus {
            observed_generation: 7,
            replicas: 3,
            ready_replicas: 3,
            conditions: vec!["Available".into(), "Progressing".into()],
        }),
    }
}
