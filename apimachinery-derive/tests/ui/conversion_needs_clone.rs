use apimachinery::Convert;

// By reference, the derived conversion clones and converts the clone by value: a type
// without `Clone` is refused at the derive.
#[derive(Clone, Default)]
pub struct Hub {
    pub replicas: i64,
}

#[derive(Convert, Default)]
#[conversion(hub = Hub)]
pub struct NotClone {
    pub replicas: i64,
}

fn main() {}
