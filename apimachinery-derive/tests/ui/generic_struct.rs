use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(version = "v1")]
pub struct Widget<T> {
    pub metadata: ObjectMeta,
    pub spec: T,
}

fn main() {}
