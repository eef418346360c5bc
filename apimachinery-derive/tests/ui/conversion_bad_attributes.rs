use apimachinery::Convert;

#[derive(Convert, Clone, Default)]
pub struct NoHub {
    pub replicas: i64,
}

#[derive(Convert, Clone, Default)]
#[conversion(hub = NoHub, peer = NoHub)]
pub struct UnknownKey {
    pub replicas: i64,
}

#[derive(Convert, Clone, Default)]
#[conversion(hub = NoHub)]
pub struct Conflicts {
    #[conversion(skip, rename = "x")]
    pub a: i64,
    #[conversion(rename = "replicas")]
    pub b: i64,
    pub replicas: i64,
}

fn main() {}
