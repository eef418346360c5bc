use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(group = "example.com", kind = "Widget")]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn main() {}
