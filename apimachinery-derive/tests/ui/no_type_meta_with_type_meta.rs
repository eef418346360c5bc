use apimachinery::{ApiObject, apis::meta::v1::TypeMeta};

#[derive(ApiObject, Clone, Debug, Default)]
#[api(version = "v1", kind = "Event", no_type_meta, not_resource)]
pub struct Event {
    pub type_meta: TypeMeta,
    pub r#type: String,
}

fn main() {}
