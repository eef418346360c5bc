use apimachinery::ApiObject;

#[derive(ApiObject, Clone, Debug)]
#[api(version = "v1")]
pub enum Widget {
    A,
    B,
}

fn main() {}
