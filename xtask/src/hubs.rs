//! Hubs and the generated conversions between the versions of a kind.
//!
//! Kubernetes converts every version of a kind through one internal type that holds every
//! field of every version. Here the hub of a kind is the type of its newest (stable,
//! served first) version in its hub group, registered a second time as
//! `<group>/__internal`, provided every other version's fields exist in it, recursively,
//! by JSON name and with a convertible type. When the newest version lacks a field an
//! older one has (1.37's `certificates/v1` PodCertificateRequest has no `pkixPublicKey`,
//! which Go's internal type and `v1beta1` keep), the newest version that holds every
//! other version's fields is the hub instead, as Go's internal type would be: the field
//! then survives `v1beta1 → v1beta1` and is dropped on the way to `v1`, as in Go. Kinds
//! that moved out of `extensions` share the hub of the group they moved to. Each other
//! version then derives `Convert` to the hub, and so do its nested structs that differ
//! from the hub's.
//!
//! A field without a peer is never dropped silently: either a hand-written conversion
//! carries it (the tables below name those, and `k8s-types/src/conversions` holds them),
//! or the pair is left out and listed in `conversions.md`. The hand-written parts come in
//! three sizes: a field renamed ([`RENAMES`]), a nested struct whose shape differs (a
//! [`HAND_WRITTEN_PAIRS`] entry: its `Convert` is written by hand, while the structs its
//! fields hold still get generated conversions for that code to call), and a kind whose
//! conversion needs a fix-up after the generated one, usually to keep a field in an
//! annotation ([`HAND_WRITTEN_KINDS`] and [`CARRIED_BY_HAND`]). A hand-written generic type
//! over a generated struct (`JSONSchemaPropsOrArray<JSONSchemaProps>`) converts when its
//! struct does. In 1.36 every version of every kind converts to its hub.
//!
//! Nested types that versions define identically are one struct before planning starts
//! (`crate::sharing`): a field holding one has the very same type as its peer, so it is
//! moved as it is (`same_type`) and no conversion is derived for the type. The tables
//! below name structs by version; [`singled_out`] keeps those out of the sharing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::model::{Field, MOVED_FROM_EXTENSIONS, Model, Struct, Ty, version_rank};

/// A generated struct: (module, version, name).
pub type Node = (String, String, String);

/// Fields without a peer in the hub that the hand-written conversion of the enclosing
/// kind carries (module, version, struct, JSON name): Kubernetes keeps them in an
/// annotation of the hub version.
const CARRIED_BY_HAND: &[(&str, &str, &str, &str)] = &[
    ("extensions", "v1beta1", "DeploymentSpec", "rollbackTo"),
    ("apps", "v1beta1", "DeploymentSpec", "rollbackTo"),
    (
        "extensions",
        "v1beta1",
        "DaemonSetSpec",
        "templateGeneration",
    ),
    (
        "autoscaling",
        "v1",
        "HorizontalPodAutoscalerSpec",
        "targetCPUUtilizationPercentage",
    ),
    (
        "autoscaling",
        "v1",
        "HorizontalPodAutoscalerStatus",
        "currentCPUUtilizationPercentage",
    ),
    ("node", "v1alpha1", "RuntimeClass", "spec"),
];

/// Kinds whose conversion to and from the hub is hand-written over the generated one:
/// (module, version, kind, Rust module with `to_hub` and `from_hub` functions).
const HAND_WRITTEN_KINDS: &[(&str, &str, &str, &str)] = &[
    (
        "extensions",
        "v1beta1",
        "Deployment",
        "crate::conversions::deployment::extensions_v1beta1",
    ),
    (
        "apps",
        "v1beta1",
        "Deployment",
        "crate::conversions::deployment::apps_v1beta1",
    ),
    (
        "extensions",
        "v1beta1",
        "DaemonSet",
        "crate::conversions::daemon_set::extensions_v1beta1",
    ),
    (
        "policy",
        "v1beta1",
        "PodDisruptionBudget",
        "crate::conversions::pod_disruption_budget::policy_v1beta1",
    ),
    (
        "autoscaling",
        "v1",
        "HorizontalPodAutoscaler",
        "crate::conversions::horizontal_pod_autoscaler::autoscaling_v1",
    ),
    (
        "node",
        "v1alpha1",
        "RuntimeClass",
        "crate::conversions::runtime_class::node_v1alpha1",
    ),
];

/// A struct pair whose `Convert` implementations (both ways) are written by hand, in
/// `k8s-types/src/conversions`, because the shapes differ.
struct HandWritten {
    /// Module, version and name of the struct (its hub has the same name).
    from: (&'static str, &'static str, &'static str),
    /// Module and version of the hub.
    hub: (&'static str, &'static str),
    /// Other struct pairs of these two versions (name, hub name) that the hand-written
    /// code converts with their generated `Convert`, though no field of the same name
    /// pairs them (Go's code calls the generated functions of those pairs too).
    uses: &'static [(&'static str, &'static str)],
}

/// The hand-written struct pairs. Their fields with a peer of the same name (or renamed)
/// must still convert: the planner generates the conversions of those fields' types for
/// the hand-written code to call, and fails the pair when one cannot be generated.
const HAND_WRITTEN_PAIRS: &[HandWritten] = &[
    HandWritten {
        from: ("extensions", "v1beta1", "IngressBackend"),
        hub: ("networking", "v1"),
        uses: &[],
    },
    HandWritten {
        from: ("networking", "v1beta1", "IngressBackend"),
        hub: ("networking", "v1"),
        uses: &[],
    },
    // `spec.version` and the schema, subresources, printer columns and selectable fields
    // of every version at the top of the spec.
    HandWritten {
        from: ("apiextensions", "v1beta1", "CustomResourceDefinitionSpec"),
        hub: ("apiextensions", "v1"),
        uses: &[
            ("CustomResourceValidation", "CustomResourceValidation"),
            ("CustomResourceSubresources", "CustomResourceSubresources"),
            (
                "CustomResourceColumnDefinition",
                "CustomResourceColumnDefinition",
            ),
            ("SelectableField", "SelectableField"),
        ],
    },
    // The webhook's settings beside the strategy, not in `webhook`.
    HandWritten {
        from: ("apiextensions", "v1beta1", "CustomResourceConversion"),
        hub: ("apiextensions", "v1"),
        uses: &[("WebhookClientConfig", "WebhookClientConfig")],
    },
    // `topology` holds what `v1` has as `zone`, `nodeName` and `deprecatedTopology`.
    HandWritten {
        from: ("discovery", "v1beta1", "Endpoint"),
        hub: ("discovery", "v1"),
        uses: &[],
    },
    // `apiVersion` instead of `apiGroup`.
    HandWritten {
        from: ("rbac", "v1alpha1", "Subject"),
        hub: ("rbac", "v1"),
        uses: &[],
    },
    // The request's own fields are `v1`'s `exactly`.
    HandWritten {
        from: ("resource", "v1beta1", "DeviceRequest"),
        hub: ("resource", "v1"),
        uses: &[
            ("DeviceSelector", "DeviceSelector"),
            ("DeviceToleration", "DeviceToleration"),
            ("CapacityRequirements", "CapacityRequirements"),
        ],
    },
    // `basic` holds what `v1` has in the device itself.
    HandWritten {
        from: ("resource", "v1beta1", "Device"),
        hub: ("resource", "v1"),
        uses: &[("BasicDevice", "Device")],
    },
    // `nodeName` and `allNodes` are plain values; their zero values are `v1`'s nil.
    HandWritten {
        from: ("resource", "v1beta1", "ResourceSliceSpec"),
        hub: ("resource", "v1"),
        uses: &[],
    },
];

/// Fields whose peer in the hub has another name: (module, version, struct, JSON name,
/// hub JSON name).
const RENAMES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "extensions",
        "v1beta1",
        "IngressSpec",
        "backend",
        "defaultBackend",
    ),
    (
        "networking",
        "v1beta1",
        "IngressSpec",
        "backend",
        "defaultBackend",
    ),
    // Go's field is `Groups` in every version; only v1beta1's JSON name is singular.
    (
        "authorization",
        "v1beta1",
        "SubjectAccessReviewSpec",
        "group",
        "groups",
    ),
    // Go's field is `JSONPath` in both; only the JSON tag changed case in v1.
    (
        "apiextensions",
        "v1beta1",
        "CustomResourceColumnDefinition",
        "JSONPath",
        "jsonPath",
    ),
    // Renamed in v1beta3 (pkg/apis/flowcontrol/v1beta{1,2}/conversion.go copies one into
    // the other).
    (
        "flowcontrol",
        "v1beta1",
        "LimitedPriorityLevelConfiguration",
        "assuredConcurrencyShares",
        "nominalConcurrencyShares",
    ),
    (
        "flowcontrol",
        "v1beta2",
        "LimitedPriorityLevelConfiguration",
        "assuredConcurrencyShares",
        "nominalConcurrencyShares",
    ),
];

/// How one field converts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldConv {
    /// To the peer of the same Rust name.
    Same,
    /// To the peer of this Rust name.
    Rename(String),
    /// Carried by the kind's hand-written conversion.
    Skip,
    /// Optional here, plain in the hub (`None` is the zero value).
    OptionalToPlain(Option<String>),
    /// Plain here, optional in the hub.
    PlainToOptional(Option<String>),
}

/// The `#[derive(Convert)]` of one struct.
#[derive(Debug, Clone)]
pub struct Derive {
    /// The hub type.
    pub hub: Node,
    /// Per field, by Rust name (the `type_meta` and embedded kind fields included).
    pub fields: BTreeMap<String, FieldConv>,
    /// Hub fields this struct does not have, by Rust name.
    pub hub_only: Vec<String>,
    /// Fields whose peer has the very same Rust type (converted to itself): moved or
    /// cloned as they are, without a conversion call (`#[conversion(same_type)]`).
    pub same_type: BTreeSet<String>,
    /// The hand-written module with `to_hub`/`from_hub`, for kinds.
    pub manual: Option<String>,
}

/// Everything the emitter needs to write the conversions.
#[derive(Debug, Default, Clone)]
pub struct Conversions {
    /// Kinds registered as their group's `__internal` type too, with that group.
    pub hubs: BTreeMap<Node, String>,
    /// Hubs registered as the `__internal` type of more groups, with those groups: the
    /// kinds that moved out of `extensions` (Go's `extensions/__internal` Deployment is
    /// the `apps` internal type).
    pub internal_also: BTreeMap<Node, Vec<String>>,
    /// Structs deriving `Convert`.
    pub derives: BTreeMap<Node, Derive>,
    /// Structs that versions share and that convert to themselves.
    pub identity: BTreeSet<Node>,
    /// The report: per hub, complete pairs and pairs left out with the reason.
    pub report: String,
}

/// The structs whose conversion the tables above single out by module, version and name
/// (hand-written pairs, renamed and hand-carried fields, hand-written kinds): each must
/// stay a struct of its own version, since the code and rules written for it are that
/// version's. The pairs a hand-written conversion only calls (`uses`) may be shared: the
/// call then converts a type to itself.
pub fn singled_out() -> BTreeSet<Node> {
    let mut out = BTreeSet::new();
    for p in HAND_WRITTEN_PAIRS {
        let (m, v, n) = p.from;
        out.insert(node(m, v, n));
    }
    for (m, v, n, ..) in RENAMES {
        out.insert(node(m, v, n));
    }
    for (m, v, n, _) in CARRIED_BY_HAND {
        out.insert(node(m, v, n));
    }
    for (m, v, n, _) in HAND_WRITTEN_KINDS {
        out.insert(node(m, v, n));
    }
    out
}

fn node(m: &str, v: &str, n: &str) -> Node {
    (m.to_owned(), v.to_owned(), n.to_owned())
}

struct Planner<'a> {
    model: &'a Model,
    out: Conversions,
    /// Pairs being checked (assumed to convert, for recursive types).
    in_progress: BTreeSet<(Node, Node)>,
    /// A hand-written pair was reached since the flag was last cleared.
    used_manual: bool,
    /// Derived structs whose conversion has a hand-written part, at any depth (so that a
    /// pair reaching them later is reported as having one too).
    manual_inside: BTreeSet<Node>,
}

impl<'a> Planner<'a> {
    /// Whether every version of `versions` but `hub` converts to `hub` (the plan left as
    /// it was).
    fn converts_all(&mut self, versions: &[Node], hub: &Node, kind: &str) -> bool {
        let snapshot = (self.out.clone(), self.manual_inside.clone());
        let all = versions.iter().filter(|v| *v != hub).all(|v| {
            self.pair(v, hub, &format!("{}/{} {kind}", v.0, v.1))
                .is_ok()
        });
        (self.out, self.manual_inside) = snapshot;
        self.used_manual = false;
        all
    }

    fn get(&self, n: &Node) -> Option<&'a Struct> {
        self.model
            .modules
            .get(&(n.0.clone(), n.1.clone()))
            .and_then(|m| m.structs.get(&n.2))
    }

    /// The struct `n` names: the owner's, when its version aliases a shared type.
    fn owner(&self, n: Node) -> Node {
        let owner = self
            .model
            .modules
            .get(&(n.0.clone(), n.1.clone()))
            .and_then(|m| m.aliases.get(&n.2))
            .and_then(|a| a.owner.clone());
        match owner {
            Some(v) => (n.0, v, n.2),
            None => n,
        }
    }

    fn ty(&mut self, a: &Ty, b: &Ty, path: &str) -> Result<(), String> {
        match (a, b) {
            (Ty::Path(x), Ty::Path(y)) if x == y => Ok(()),
            (Ty::Path(x), Ty::Path(y)) => match (generic_over_local(x), generic_over_local(y)) {
                (Some((gx, px)), Some((gy, py))) if gx == gy => self.pair(&px, &py, path),
                _ => Err(format!("{path}: types differ ({x} / {y})")),
            },
            (
                Ty::Local {
                    module: am,
                    version: av,
                    name: an,
                },
                Ty::Local {
                    module: bm,
                    version: bv,
                    name: bn,
                },
            ) => {
                let (x, y) = (node(am, av, an), node(bm, bv, bn));
                if x == y {
                    self.out.identity.insert(x);
                    Ok(())
                } else {
                    self.pair(&x, &y, path)
                }
            }
            (Ty::Vec(x), Ty::Vec(y)) | (Ty::Map(x), Ty::Map(y)) | (Ty::Boxed(x), Ty::Boxed(y)) => {
                self.ty(x, y, path)
            }
            _ => Err(format!("{path}: types differ ({a:?} / {b:?})")),
        }
    }

    fn pair(&mut self, a: &Node, b: &Node, path: &str) -> Result<(), String> {
        if let Some(d) = self.out.derives.get(a) {
            return if &d.hub == b {
                self.used_manual |= self.manual_inside.contains(a);
                Ok(())
            } else {
                Err(format!("{path}: {} converts to {} already", a.2, d.hub.2))
            };
        }
        let hand = HAND_WRITTEN_PAIRS
            .iter()
            .find(|p| p.from == (&a.0, &a.1, &a.2) && p.hub == (&b.0, &b.1) && a.2 == b.2);
        if !self.in_progress.insert((a.clone(), b.clone())) {
            return Ok(());
        }
        // Whether this pair has a hand-written part, apart from its siblings'.
        let outer = std::mem::take(&mut self.used_manual);
        let result = match hand {
            Some(hand) => self.hand_written(a, b, hand, path).map(|()| None),
            None => self.fields(a, b, path).map(Some),
        };
        let inner = self.used_manual;
        self.used_manual |= outer;
        self.in_progress.remove(&(a.clone(), b.clone()));
        if let Some(derive) = result? {
            if inner || derive.manual.is_some() {
                self.manual_inside.insert(a.clone());
            }
            self.out.derives.insert(a.clone(), derive);
        }
        Ok(())
    }

    /// Plans what the hand-written conversion of `a` to `b` converts with `Convert`: the
    /// types of its fields that have a peer, and the pairs it names as used.
    fn hand_written(
        &mut self,
        a: &Node,
        b: &Node,
        hand: &HandWritten,
        path: &str,
    ) -> Result<(), String> {
        self.used_manual = true;
        let (Some(sa), Some(sb)) = (self.get(a), self.get(b)) else {
            return Err(format!("{path}: unknown struct"));
        };
        for f in &sa.fields {
            let peer_json = RENAMES
                .iter()
                .find(|r| (r.0, r.1, r.2, r.3) == (&a.0, &a.1, &a.2, &f.json))
                .map_or(f.json.as_str(), |r| r.4);
            if let Some(g) = sb.fields.iter().find(|g| g.json == peer_json) {
                self.ty(&f.ty, &g.ty, &format!("{path}.{}", f.json))?;
            }
        }
        for (name, hub_name) in hand.uses {
            let (x, y) = (
                self.owner(node(&a.0, &a.1, name)),
                node(&b.0, &b.1, hub_name),
            );
            if x == y {
                self.out.identity.insert(x);
            } else {
                self.pair(&x, &y, &format!("{path} ({name})"))?;
            }
        }
        Ok(())
    }

    fn fields(&mut self, a: &Node, b: &Node, path: &str) -> Result<Derive, String> {
        let (Some(sa), Some(sb)) = (self.get(a), self.get(b)) else {
            return Err(format!("{path}: unknown struct"));
        };
        let mut fields = BTreeMap::new();
        let mut used: BTreeSet<&str> = BTreeSet::new();
        // The kind and apiVersion are not data: the scheme sets them after converting.
        let a_tm = sa.kind.is_some();
        let b_tm = sb.kind.is_some();
        if a_tm {
            fields.insert(
                "type_meta".to_owned(),
                if b_tm {
                    FieldConv::Same
                } else {
                    FieldConv::Skip
                },
            );
        }
        let mut hub_only: Vec<String> = Vec::new();
        // `TypeMeta` and the embedded `kind`/`apiVersion` strings are the same types in
        // every version.
        let mut same_type = BTreeSet::new();
        if a_tm && b_tm {
            same_type.insert("type_meta".to_owned());
        }
        if sa.embedded_type_meta && sb.embedded_type_meta {
            same_type.extend(["kind".to_owned(), "api_version".to_owned()]);
        }
        if b_tm && !a_tm {
            hub_only.push("type_meta".to_owned());
        }
        match (sa.embedded_type_meta, sb.embedded_type_meta) {
            (true, true) => {
                fields.insert("kind".to_owned(), FieldConv::Same);
                fields.insert("api_version".to_owned(), FieldConv::Same);
            }
            (true, false) => {
                fields.insert("kind".to_owned(), FieldConv::Skip);
                fields.insert("api_version".to_owned(), FieldConv::Skip);
            }
            (false, true) => hub_only.extend(["kind".to_owned(), "api_version".to_owned()]),
            (false, false) => {}
        }
        for f in &sa.fields {
            let here = format!("{path}.{}", f.json);
            if CARRIED_BY_HAND.contains(&(&a.0, &a.1, &a.2, &f.json)) {
                fields.insert(f.rust.clone(), FieldConv::Skip);
                continue;
            }
            let peer_json = RENAMES
                .iter()
                .find(|r| (r.0, r.1, r.2, r.3) == (&a.0, &a.1, &a.2, &f.json))
                .map_or(f.json.as_str(), |r| r.4);
            let Some(g) = sb.fields.iter().find(|g| g.json == peer_json) else {
                return Err(format!("{here}: no peer in {}/{} {}", b.0, b.1, b.2));
            };
            used.insert(g.json.as_str());
            self.ty(&f.ty, &g.ty, &here)?;
            if f.plain == g.plain && identical(&f.ty, &g.ty) {
                same_type.insert(f.rust.clone());
            }
            let rename = (g.rust != f.rust).then(|| g.rust.clone());
            fields.insert(f.rust.clone(), conv(f, g, rename));
        }
        hub_only.extend(
            sb.fields
                .iter()
                .filter(|g| !used.contains(g.json.as_str()))
                .map(|g| g.rust.clone()),
        );
        let manual = sa.kind.as_ref().and_then(|_| {
            HAND_WRITTEN_KINDS
                .iter()
                .find(|k| (k.0, k.1, k.2) == (&a.0, &a.1, &a.2))
                .map(|k| k.3.to_owned())
        });
        Ok(Derive {
            hub: b.clone(),
            fields,
            hub_only,
            same_type,
            manual,
        })
    }
}

/// True when `a` and `b` are the same Rust type, one that converts to itself as it is:
/// a primitive or external type, a generated type that versions share (declared with
/// `identity_conversion!`, or one struct for several versions: `crate::sharing`), and
/// containers of them, a hand-written generic type over the same struct included.
fn identical(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Path(x), Ty::Path(y)) => x == y,
        (Ty::Local { .. }, Ty::Local { .. }) => a == b,
        (Ty::Vec(x), Ty::Vec(y)) | (Ty::Map(x), Ty::Map(y)) | (Ty::Boxed(x), Ty::Boxed(y)) => {
            identical(x, y)
        }
        _ => false,
    }
}

/// A hand-written generic type over one generated struct, such as
/// `JSONSchemaPropsOrArray<crate::apiextensions::v1::JSONSchemaProps>` of
/// `crate::custom::apiextensions`: the generic type's path and the struct. Such types
/// convert between versions when their structs do (their `Convert` is generic).
pub fn generic_over_local(path: &str) -> Option<(&str, Node)> {
    let (generic, rest) = path.split_once('<')?;
    let inner = rest.strip_suffix('>')?;
    match inner.split("::").collect::<Vec<_>>().as_slice() {
        ["crate", module, version, name] => Some((generic, node(module, version, name))),
        _ => None,
    }
}

fn conv(f: &Field, g: &Field, rename: Option<String>) -> FieldConv {
    match (f.plain, g.plain) {
        (false, true) => FieldConv::OptionalToPlain(rename),
        (true, false) => FieldConv::PlainToOptional(rename),
        _ => rename.map_or(FieldConv::Same, FieldConv::Rename),
    }
}

/// Kinds Go has no internal version of, served in one version: (module, kind). (The
/// meta kinds every group version registers, which have none either, are not planned.)
const NO_INTERNAL_VERSION: &[(&str, &str)] = &[("apiextensions", "ConversionReview")];

/// Plans the hubs and conversions of every kind: each kind served in several versions
/// converts through a hub, and a kind served in one is its own hub.
pub fn plan(model: &Model) -> Conversions {
    // (hub group module, kind) → versions (module, version).
    let mut kinds: BTreeMap<(String, String), Vec<Node>> = BTreeMap::new();
    for ((module, version), m) in &model.modules {
        if module == "meta" {
            continue;
        }
        for s in m.structs.values() {
            let Some(k) = &s.kind else { continue };
            if !k.also_in.is_empty() || k.no_type_meta {
                continue;
            }
            let hub_module = if module == "extensions" {
                MOVED_FROM_EXTENSIONS
                    .iter()
                    .find(|g| {
                        model.modules.iter().any(|((mm, _), other)| {
                            mm == *g && other.structs.get(&s.name).is_some_and(|o| o.kind.is_some())
                        })
                    })
                    .map_or(module.clone(), |g| (*g).to_owned())
            } else {
                module.clone()
            };
            kinds
                .entry((hub_module, s.name.clone()))
                .or_default()
                .push(node(module, version, &s.name));
        }
    }
    let mut p = Planner {
        model,
        out: Conversions::default(),
        in_progress: BTreeSet::new(),
        used_manual: false,
        manual_inside: BTreeSet::new(),
    };
    let mut report = String::from(
        "# Hubs and conversions\n\n@generated by `cargo xtask codegen`; see `xtask/src/hubs.rs`.\n\n\
         Per kind served in several versions: its hub (registered as `<group>/__internal` too)\n\
         and, per other version, whether the conversion to the hub is complete (generated, or\n\
         generated with hand-written parts) or left out, with the first field that stops it.\n\n",
    );
    for ((hub_module, kind), versions) in &kinds {
        if let [only] = versions.as_slice() {
            // Go converts a kind served in one version through its internal version too
            // (where hand-written conversions move data: `crate::internal_forms`): the
            // version is its own hub.
            if !NO_INTERNAL_VERSION.contains(&(only.0.as_str(), kind.as_str())) {
                let group = model
                    .modules
                    .get(&(only.0.clone(), only.1.clone()))
                    .map_or(String::new(), |m| m.group.clone());
                p.out.hubs.insert(only.clone(), group);
            }
            continue;
        }
        // The hub: the newest version of the hub group, served ones first, that every
        // other version converts to; the first of them when none does.
        let mut candidates: Vec<&Node> = versions.iter().filter(|n| &n.0 == hub_module).collect();
        candidates.sort_by_key(|n| {
            let served = p
                .get(n)
                .and_then(|s| s.kind.as_ref())
                .and_then(|k| k.resource.as_ref())
                .is_some();
            (!served, version_rank(&n.1))
        });
        let Some(&first) = candidates.first() else {
            continue;
        };
        let hub = candidates
            .iter()
            .find(|c| p.converts_all(versions, c, kind))
            .copied()
            .unwrap_or(first)
            .clone();
        let group = model
            .modules
            .get(&(hub.0.clone(), hub.1.clone()))
            .map_or(String::new(), |m| m.group.clone());
        let shown = if group.is_empty() {
            "core"
        } else {
            group.as_str()
        };
        let _ = writeln!(report, "## {kind} (`{shown}`): hub `{}/{}`\n", hub.0, hub.1);
        let mut any = false;
        for v in versions.iter().filter(|n| **n != hub) {
            let snapshot = p.out.clone();
            p.used_manual = false;
            match p.pair(v, &hub, &format!("{}/{} {kind}", v.0, v.1)) {
                Ok(()) => {
                    any = true;
                    let how = if p.used_manual
                        || p.out.derives.get(v).is_some_and(|d| d.manual.is_some())
                    {
                        "complete (generated, hand-written fix-up)"
                    } else {
                        "complete (generated)"
                    };
                    let _ = writeln!(report, "- `{}/{}`: {how}", v.0, v.1);
                }
                Err(why) => {
                    p.out = snapshot;
                    let _ = writeln!(report, "- `{}/{}`: left out: {why}", v.0, v.1);
                }
            }
        }
        report.push('\n');
        if any {
            if hub_module != "extensions" && versions.iter().any(|v| v.0 == "extensions") {
                p.out
                    .internal_also
                    .insert(hub.clone(), vec!["extensions".to_owned()]);
            }
            p.out.hubs.insert(hub, group);
        }
    }
    p.out.report = report;
    p.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Kind, Module, ResourceInfo};

    fn field(json: &str, ty: Ty, plain: bool) -> Field {
        Field {
            json: json.to_owned(),
            rust: crate::naming::field_name(json),
            ty,
            plain,
            omit: crate::model::Omit::Empty,
            doc: String::new(),
            proto: Vec::new(),
            named_slice_values: false,
            markers: Vec::new(),
        }
    }

    fn local(version: &str, name: &str) -> Ty {
        Ty::Local {
            module: "example".to_owned(),
            version: version.to_owned(),
            name: name.to_owned(),
        }
    }

    fn widget(version: &str, spec_fields: Vec<Field>) -> Module {
        let kind = Kind {
            group: "example.com".to_owned(),
            version: version.to_owned(),
            resource: Some(ResourceInfo {
                plural: "widgets".to_owned(),
                namespaced: true,
                short_names: Vec::new(),
                categories: Vec::new(),
                verbs: Vec::new(),
            }),
            no_type_meta: false,
            type_meta_field: true,
            also_in: Vec::new(),
        };
        let mut structs = BTreeMap::new();
        structs.insert(
            "Widget".to_owned(),
            Struct {
                name: "Widget".to_owned(),
                doc: String::new(),
                fields: vec![field("spec", local(version, "WidgetSpec"), false)],
                kind: Some(kind),
                embedded_type_meta: false,
            },
        );
        structs.insert(
            "WidgetSpec".to_owned(),
            Struct {
                name: "WidgetSpec".to_owned(),
                doc: String::new(),
                fields: spec_fields,
                kind: None,
                embedded_type_meta: false,
            },
        );
        Module {
            group: "example.com".to_owned(),
            structs,
            aliases: BTreeMap::new(),
        }
    }

    #[test]
    fn generic_types_over_generated_structs_name_the_struct() {
        let union = "crate::custom::apiextensions::JSONSchemaPropsOrBool";
        assert_eq!(
            generic_over_local(&format!(
                "{union}<crate::apiextensions::v1beta1::JSONSchemaProps>"
            )),
            Some((union, node("apiextensions", "v1beta1", "JSONSchemaProps")))
        );
        assert_eq!(generic_over_local("crate::value::Quantity"), None);
        assert_eq!(generic_over_local("Vec<String>"), None);
    }

    #[test]
    fn the_newest_superset_is_the_hub_and_versions_without_peers_are_listed() {
        let int = || Ty::Path("i32".to_owned());
        let mut model = Model::default();
        model.modules.insert(
            ("example".into(), "v1".into()),
            widget(
                "v1",
                vec![field("size", int(), true), field("color", int(), false)],
            ),
        );
        model.modules.insert(
            ("example".into(), "v1beta1".into()),
            widget("v1beta1", vec![field("size", int(), false)]),
        );
        model.modules.insert(
            ("example".into(), "v1alpha1".into()),
            widget("v1alpha1", vec![field("legacy", int(), false)]),
        );
        let plan = plan(&model);
        let hub = node("example", "v1", "Widget");
        assert_eq!(plan.hubs.get(&hub).map(String::as_str), Some("example.com"));
        let beta = &plan.derives[&node("example", "v1beta1", "WidgetSpec")];
        assert_eq!(beta.hub, node("example", "v1", "WidgetSpec"));
        assert_eq!(beta.hub_only, ["color"]);
        assert_eq!(beta.fields["size"], FieldConv::OptionalToPlain(None));
        assert_eq!(
            plan.derives[&node("example", "v1beta1", "Widget")].fields["type_meta"],
            FieldConv::Same
        );
        assert!(
            !plan
                .derives
                .contains_key(&node("example", "v1alpha1", "Widget"))
        );
        assert!(
            !plan
                .derives
                .contains_key(&node("example", "v1alpha1", "WidgetSpec"))
        );
        assert!(
            plan.report
                .contains("- `example/v1beta1`: complete (generated)")
        );
        assert!(plan.report.contains(
            "- `example/v1alpha1`: left out: example/v1alpha1 Widget.spec.legacy: no peer in example/v1 WidgetSpec"
        ), "{}", plan.report);
    }

    #[test]
    fn an_older_version_holding_every_field_is_the_hub_when_the_newest_lacks_one() {
        let int = || Ty::Path("i32".to_owned());
        let mut model = Model::default();
        model.modules.insert(
            ("example".into(), "v1".into()),
            widget("v1", vec![field("size", int(), false)]),
        );
        model.modules.insert(
            ("example".into(), "v1beta1".into()),
            widget(
                "v1beta1",
                vec![field("size", int(), false), field("key", int(), false)],
            ),
        );
        let plan = plan(&model);
        assert!(
            plan.hubs
                .contains_key(&node("example", "v1beta1", "Widget"))
        );
        assert!(!plan.hubs.contains_key(&node("example", "v1", "Widget")));
        let v1 = &plan.derives[&node("example", "v1", "WidgetSpec")];
        assert_eq!(v1.hub, node("example", "v1beta1", "WidgetSpec"));
        assert_eq!(v1.hub_only, ["key"]);
        assert!(
            plan.report
                .contains("## Widget (`example.com`): hub `example/v1beta1`"),
            "{}",
            plan.report
        );
        assert!(plan.report.contains("- `example/v1`: complete (generated)"));
    }
}
