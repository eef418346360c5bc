use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(version = "v1")]
pub struct Widget {
    pub metadata: ObjectMeta,
    pub spec_size: i32,
    #[api(rename = "specSize")]
    pub other: i32,
    #[api(rename = "kind")]
    pub kind_too: String,
}

fn main() {}
