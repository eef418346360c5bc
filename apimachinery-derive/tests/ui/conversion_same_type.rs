use apimachinery::Convert;

#[derive(Clone, Default)]
pub struct Hub {
    pub replicas: i64,
    pub name: String,
}

// `same_type` with `skip` or `with` is refused by the derive.
#[derive(Convert, Clone, Default)]
#[conversion(hub = Hub)]
pub struct Skipped {
    #[conversion(skip, same_type)]
    pub extra: i64,
    pub replicas: i64,
    pub name: String,
}

// A false claim (`i32` here, `i64` in the hub) is a type error at the field.
#[derive(Convert, Clone, Default)]
#[conversion(hub = Hub)]
pub struct Narrower {
    #[conversion(same_type)]
    pub replicas: i32,
    #[conversion(same_type)]
    pub name: String,
}

fn main() {}
