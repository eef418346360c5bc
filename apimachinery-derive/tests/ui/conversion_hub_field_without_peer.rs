use apimachinery::Convert;

pub mod hub {
    #[derive(Default)]
    pub struct Spec {
        pub replicas: i64,
        pub paused: bool,
    }
}

#[derive(Convert, Default)]
#[conversion(hub = hub::Spec)]
pub struct Spec {
    pub replicas: i64,
}

fn main() {}
