use apimachinery::Convert;

pub mod hub {
    #[derive(Clone, Default)]
    pub struct Spec {
        pub replicas: i64,
        pub paused: bool,
    }
}

#[derive(Convert, Clone, Default)]
#[conversion(hub = hub::Spec)]
pub struct Spec {
    pub replicas: i64,
}

fn main() {}
