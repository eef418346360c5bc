use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(group = "example.com", version = "v1", omit_empty_type_meta)]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn main() {}
