use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};

#[derive(ApiObject, Clone, Debug, Default)]
pub struct Widget {
    pub metadata: ObjectMeta,
}

fn main() {}
