use apimachinery::ApiType;

#[derive(ApiType, Clone, Debug, Default, PartialEq)]
pub struct Condition {
    #[api(nullable)]
    pub reason: String,
    #[api(nullable)]
    pub message: Option<String>,
}

fn main() {}
