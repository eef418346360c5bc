use apimachinery::Convert;

pub mod hub {
    #[derive(Clone, Default)]
    pub struct Spec {
        pub replicas: i64,
    }
}

#[derive(Convert, Clone, Default)]
#[conversion(hub = hub::Spec)]
pub struct Spec {
    #[conversion(with = no_such_module)]
    pub replicas: i32,
}

fn main() {}
