use apimachinery::ApiType;

#[derive(ApiType, Clone, Debug, Default)]
#[api(version = "v1", namespaced)]
pub struct WidgetSpec {
    pub size: i32,
    #[api(rename = "size")]
    pub other: i32,
}

fn main() {}
