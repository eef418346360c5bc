use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(version = "v1")]
pub struct Widget {
    pub metadata: ObjectMeta,
    #[api(omitempty)]
    pub size: i32,
}

fn main() {}
