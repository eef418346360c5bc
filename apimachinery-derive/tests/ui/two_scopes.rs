use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(version = "v1", namespaced, cluster_scoped)]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn main() {}
