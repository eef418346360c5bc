use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(group = "example.com", version = "v1", version = "v2")]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn main() {}
