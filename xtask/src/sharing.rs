//! One struct for a nested type that several versions of a group define identically.
//!
//! Many nested types are the same in several versions of a group (`apps/v1beta2` and
//! `apps/v1` `RollingUpdateDaemonSet`, most of `flowcontrol`'s and `resource`'s). Each
//! generated struct costs its own JSON, protobuf, `Clone`, `Debug`, `PartialEq` and
//! conversion code, so such types are generated once, in one version (the owner), and
//! the other versions name it with `pub type X = crate::<module>::<owner>::X;`. A field
//! of that type then has the very same Rust type on both sides of a conversion, which
//! moves it as it is.
//!
//! Two types are the same when everything the generated code and Go's wire behaviour
//! depend on is: each field's Rust and JSON names, Rust type, shape (`Option` or not,
//! `omitempty`/`omitzero`), protobuf numbers, named-slice map values and `+default=`
//! markers, the type's embedded `TypeMeta`, and the types its fields name, which must be
//! one type themselves (compared to a fixpoint, so recursive types share too).
//!
//! Other markers may differ ([`KEY_MARKERS`]): no generated code reads them. The list,
//! map and patch markers (`+listType`, `+patchStrategy`, ...) reach the API server
//! through the OpenAPI document, looked up by group, version and kind, never by Rust type.
//! Go's declarative validation markers (`+k8s:...`), `+optional`, `+required` and
//! `+featureGate` are not generated into anything. A generator that starts reading one
//! adds it to [`KEY_MARKERS`]. Doc comments may differ too.
//!
//! Never shared: kinds, lists of kinds among them (each carries its own group version),
//! types of other groups (a feature could turn one off), and the types whose conversion
//! a hand-written table of `crate::hubs` names by version
//! ([`crate::hubs::singled_out`]).
//!
//! The owner is the version of the group that serves kinds, newest first by Kubernetes'
//! version priority: the version `crate::hubs` makes the hub of the group's kinds, when
//! it is a member.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::hubs::{Node, generic_over_local, singled_out};
use crate::model::{Alias, Model, Struct, Ty, version_rank};

/// The `+` markers (prefixes) that generated code reads, and that two versions' types
/// must therefore agree on to be one: the defaults of `default_markers.rs`.
pub const KEY_MARKERS: &[&str] = &["+default="];

/// One type that several versions share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// The group module.
    pub module: String,
    /// Go's type name.
    pub name: String,
    /// The version whose struct it is.
    pub owner: String,
    /// The other versions, which alias it, in version priority order.
    pub aliases: Vec<String>,
}

/// Finds the types versions share, makes each one struct of its owner version and the
/// others aliases of it, and points every field at the owner's struct. Returns the
/// shared types by module and name.
pub fn share(model: &mut Model) -> Vec<Class> {
    let classes = classes(model, &singled_out());
    let mut owner_of: BTreeMap<Node, Node> = BTreeMap::new();
    for c in &classes {
        for v in &c.aliases {
            owner_of.insert(
                (c.module.clone(), v.clone(), c.name.clone()),
                (c.module.clone(), c.owner.clone(), c.name.clone()),
            );
        }
    }
    for m in model.modules.values_mut() {
        for s in m.structs.values_mut() {
            for f in &mut s.fields {
                redirect(&mut f.ty, &owner_of);
            }
        }
        for a in m.aliases.values_mut() {
            redirect(&mut a.ty, &owner_of);
        }
    }
    for ((module, version, name), (_, owner, _)) in &owner_of {
        let Some(m) = model.modules.get_mut(&(module.clone(), version.clone())) else {
            continue;
        };
        let Some(s) = m.structs.remove(name) else {
            continue;
        };
        m.aliases.insert(
            name.clone(),
            Alias {
                name: name.clone(),
                doc: s.doc,
                ty: Ty::Local {
                    module: module.clone(),
                    version: owner.clone(),
                    name: name.clone(),
                },
                owner: Some(owner.clone()),
            },
        );
    }
    classes
}

/// The shared types of `model` (before [`share`] changes it), leaving `excluded` alone.
pub fn classes(model: &Model, excluded: &BTreeSet<Node>) -> Vec<Class> {
    // Candidates: nested structs whose name another version of the module defines too.
    let mut by_name: BTreeMap<(String, String), Vec<Node>> = BTreeMap::new();
    for ((module, version), m) in &model.modules {
        for s in m.structs.values().filter(|s| s.kind.is_none()) {
            let n = (module.clone(), version.clone(), s.name.clone());
            if !excluded.contains(&n) {
                by_name
                    .entry((module.clone(), s.name.clone()))
                    .or_default()
                    .push(n);
            }
        }
    }
    by_name.retain(|_, members| members.len() > 1);
    let structs: BTreeMap<&Node, &Struct> = by_name
        .values()
        .flatten()
        .filter_map(|n| {
            let s = model
                .modules
                .get(&(n.0.clone(), n.1.clone()))?
                .structs
                .get(&n.2)?;
            Some((n, s))
        })
        .collect();
    // Partition refinement: start with one class per module and name, split each class
    // by its members' signatures (which name the classes of the types their fields hold)
    // until nothing splits. What is left are the largest sets of types that are the same
    // field by field, recursive types included.
    let mut class: BTreeMap<Node, usize> = BTreeMap::new();
    for (i, members) in by_name.values().enumerate() {
        for n in members {
            class.insert(n.clone(), i);
        }
    }
    let mut count = by_name.len();
    loop {
        let mut ids: BTreeMap<(usize, String), usize> = BTreeMap::new();
        let mut next: BTreeMap<Node, usize> = BTreeMap::new();
        for (n, s) in &structs {
            let key = (class[*n], signature(s, &class));
            let fresh = ids.len();
            let id = *ids.entry(key).or_insert(fresh);
            next.insert((*n).clone(), id);
        }
        let done = ids.len() == count;
        count = ids.len();
        class = next;
        if done {
            break;
        }
    }
    let mut members: BTreeMap<usize, Vec<&Node>> = BTreeMap::new();
    for (n, id) in &class {
        members.entry(*id).or_default().push(n);
    }
    let serves = |module: &str, version: &str| {
        model
            .modules
            .get(&(module.to_owned(), version.to_owned()))
            .is_some_and(|m| {
                m.structs
                    .values()
                    .any(|s| s.kind.as_ref().is_some_and(|k| k.resource.is_some()))
            })
    };
    let mut out: Vec<Class> = members
        .into_values()
        .filter(|ms| ms.len() > 1)
        .map(|mut ms| {
            ms.sort_by_key(|n| (!serves(&n.0, &n.1), version_rank(&n.1)));
            let owner = ms[0];
            Class {
                module: owner.0.clone(),
                name: owner.2.clone(),
                owner: owner.1.clone(),
                aliases: ms[1..].iter().map(|n| n.1.clone()).collect(),
            }
        })
        .collect();
    out.sort_by(|a, b| (&a.module, &a.name, &a.owner).cmp(&(&b.module, &b.name, &b.owner)));
    out
}

/// What must be equal for two structs to be one: everything but the docs and the markers
/// no code reads, with the types of fields named by class where they are candidates.
fn signature(s: &Struct, class: &BTreeMap<Node, usize>) -> String {
    let mut out = format!("tm={};", s.embedded_type_meta);
    for f in &s.fields {
        let markers: Vec<&String> = f
            .markers
            .iter()
            .filter(|m| KEY_MARKERS.iter().any(|k| m.starts_with(k)))
            .collect();
        let _ = write!(
            out,
            "{}|{}|{}|{}|{:?}|{:?}|{}|{:?};",
            f.json,
            f.rust,
            type_signature(&f.ty, class),
            f.plain,
            f.omit,
            f.proto,
            f.named_slice_values,
            markers
        );
    }
    out
}

fn type_signature(t: &Ty, class: &BTreeMap<Node, usize>) -> String {
    let named = |n: &Node| match class.get(n) {
        Some(id) => format!("#{}/{id}", n.0),
        None => format!("{}/{}/{}", n.0, n.1, n.2),
    };
    match t {
        Ty::Path(p) => match generic_over_local(p) {
            Some((generic, n)) => format!("{generic}<{}>", named(&n)),
            None => p.clone(),
        },
        Ty::Local {
            module,
            version,
            name,
        } => named(&(module.clone(), version.clone(), name.clone())),
        Ty::Vec(inner) => format!("Vec<{}>", type_signature(inner, class)),
        Ty::Map(inner) => format!("Map<{}>", type_signature(inner, class)),
        Ty::Boxed(inner) => format!("Box<{}>", type_signature(inner, class)),
    }
}

/// Points `t` at the owner's struct where it names a shared type of another version.
fn redirect(t: &mut Ty, owner_of: &BTreeMap<Node, Node>) {
    match t {
        Ty::Path(p) => {
            if let Some((generic, n)) = generic_over_local(p)
                && let Some((m, v, name)) = owner_of.get(&n)
            {
                *p = format!("{generic}<crate::{m}::{v}::{name}>");
            }
        }
        Ty::Local {
            module,
            version,
            name,
        } => {
            if let Some((m, v, n)) = owner_of.get(&(module.clone(), version.clone(), name.clone()))
            {
                *t = Ty::Local {
                    module: m.clone(),
                    version: v.clone(),
                    name: n.clone(),
                };
            }
        }
        Ty::Vec(inner) | Ty::Map(inner) | Ty::Boxed(inner) => redirect(inner, owner_of),
    }
}

/// The `conversions.md` section listing the shared types.
pub fn report(classes: &[Class]) -> String {
    let mut out = String::from(
        "# Types shared by versions\n\n\
         Nested types that versions of a group define identically (fields, JSON, protobuf,\n\
         defaults) are one struct, of the first version listed; the others alias it, and a\n\
         field of that type converts by moving it (`xtask/src/sharing.rs`).\n\n",
    );
    let mut module = None;
    for c in classes {
        if module != Some(&c.module) {
            if module.is_some() {
                out.push('\n');
            }
            module = Some(&c.module);
            let _ = writeln!(out, "## `{}`\n", c.module);
        }
        let _ = writeln!(
            out,
            "- `{}`: `{}`; {}",
            c.name,
            c.owner,
            c.aliases
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if !classes.is_empty() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Field, Kind, Module, Omit, ResourceInfo};

    fn field(json: &str, ty: Ty, proto: u32) -> Field {
        Field {
            json: json.to_owned(),
            rust: crate::naming::field_name(json),
            ty,
            plain: false,
            omit: Omit::Empty,
            doc: format!("The {json}."),
            proto: vec![proto],
            named_slice_values: false,
            markers: vec!["+optional".to_owned()],
        }
    }

    fn int() -> Ty {
        Ty::Path("i32".to_owned())
    }

    fn local(version: &str, name: &str) -> Ty {
        Ty::Local {
            module: "example".to_owned(),
            version: version.to_owned(),
            name: name.to_owned(),
        }
    }

    fn nested(name: &str, fields: Vec<Field>) -> Struct {
        Struct {
            name: name.to_owned(),
            doc: format!("A {name}."),
            fields,
            kind: None,
            embedded_type_meta: false,
        }
    }

    /// A module `example/<version>` with a served kind `Widget` holding a `WidgetSpec`
    /// of `spec` fields, and the structs of `more`.
    fn version(version: &str, spec: Vec<Field>, more: Vec<Struct>) -> ((String, String), Module) {
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
                kind: Some(kind),
                ..nested(
                    "Widget",
                    vec![field("spec", local(version, "WidgetSpec"), 2)],
                )
            },
        );
        structs.insert("WidgetSpec".to_owned(), nested("WidgetSpec", spec));
        for s in more {
            structs.insert(s.name.clone(), s);
        }
        let module = Module {
            group: "example.com".to_owned(),
            structs,
            aliases: BTreeMap::new(),
        };
        (("example".to_owned(), version.to_owned()), module)
    }

    fn model(versions: Vec<((String, String), Module)>) -> Model {
        Model {
            release: "1.36".to_owned(),
            modules: versions.into_iter().collect(),
            external_meta: BTreeMap::new(),
        }
    }

    fn shared(model: &Model) -> Vec<(String, String, Vec<String>)> {
        classes(model, &BTreeSet::new())
            .into_iter()
            .map(|c| (c.name, c.owner, c.aliases))
            .collect()
    }

    fn spec() -> Vec<Field> {
        vec![
            field("size", int(), 1),
            field("color", Ty::Path("String".to_owned()), 2),
        ]
    }

    #[test]
    fn identical_siblings_become_one_struct_of_the_newest_version() {
        let mut m = model(vec![
            version("v1beta1", spec(), vec![]),
            version("v1", spec(), vec![]),
            version("v1alpha1", spec(), vec![]),
        ]);
        assert_eq!(
            shared(&m),
            [(
                "WidgetSpec".to_owned(),
                "v1".to_owned(),
                vec!["v1beta1".to_owned(), "v1alpha1".to_owned()]
            )]
        );
        share(&mut m);
        let beta = &m.modules[&("example".to_owned(), "v1beta1".to_owned())];
        assert!(!beta.structs.contains_key("WidgetSpec"));
        let alias = &beta.aliases["WidgetSpec"];
        assert_eq!(alias.ty, local("v1", "WidgetSpec"));
        assert_eq!(alias.owner.as_deref(), Some("v1"));
        assert_eq!(alias.doc, "A WidgetSpec.");
        // Kinds stay each version's own; their fields name the owner's struct.
        let widget = &beta.structs["Widget"];
        assert_eq!(widget.fields[0].ty, local("v1", "WidgetSpec"));
        // The conversion to the hub moves the field: no conversion of the spec is left.
        let plan = crate::hubs::plan(&m);
        let derive = &plan.derives[&("example".into(), "v1beta1".into(), "Widget".into())];
        assert!(derive.same_type.contains("spec"));
        assert!(!plan.derives.keys().any(|(_, _, name)| name == "WidgetSpec"));
    }

    #[test]
    fn any_difference_keeps_the_structs_apart() {
        type Change = fn(&mut Field);
        let changes: [(&str, Change); 8] = [
            ("type", |f| f.ty = Ty::Path("i64".to_owned())),
            ("proto number", |f| f.proto = vec![7]),
            ("omitempty", |f| f.omit = Omit::Never),
            ("pointer", |f| f.plain = true),
            ("json name", |f| f.json = "Size".to_owned()),
            ("marker", |f| f.markers.push("+default=3".to_owned())),
            ("named slice", |f| f.named_slice_values = true),
            ("list", |f| f.ty = Ty::Vec(Box::new(int()))),
        ];
        for (what, change) in changes {
            let mut other = spec();
            change(&mut other[0]);
            let m = model(vec![
                version("v1", spec(), vec![]),
                version("v1beta1", other, vec![]),
            ]);
            assert_eq!(shared(&m), [], "{what}");
        }
        // A field more, or the same fields in another order.
        let mut more = spec();
        more.push(field("shape", int(), 3));
        let m = model(vec![
            version("v1", spec(), vec![]),
            version("v1beta1", more, vec![]),
        ]);
        assert_eq!(shared(&m), []);
        let mut reordered = spec();
        reordered.reverse();
        let m = model(vec![
            version("v1", spec(), vec![]),
            version("v1beta1", reordered, vec![]),
        ]);
        assert_eq!(shared(&m), []);
        // Markers no generated code reads may differ.
        let mut marked = spec();
        marked[0].markers.push("+listType=atomic".to_owned());
        marked[1].markers.clear();
        let m = model(vec![
            version("v1", spec(), vec![]),
            version("v1beta1", marked, vec![]),
        ]);
        assert_eq!(shared(&m).len(), 1);
        // Docs alone may differ.
        let mut documented = spec();
        documented[0].doc = "Another text.".to_owned();
        let m = model(vec![
            version("v1", spec(), vec![]),
            version("v1beta1", documented, vec![]),
        ]);
        assert_eq!(shared(&m).len(), 1);
    }

    #[test]
    fn nested_types_must_be_shared_too() {
        let with_part = |v: &str| {
            let mut fields = spec();
            fields.push(field("part", Ty::Vec(Box::new(local(v, "Part"))), 3));
            fields
        };
        let part = |proto: u32| nested("Part", vec![field("weight", int(), proto)]);
        // Parts alike: both shared, the spec naming the owner's part.
        let mut m = model(vec![
            version("v1", with_part("v1"), vec![part(1)]),
            version("v1beta1", with_part("v1beta1"), vec![part(1)]),
        ]);
        let names: Vec<String> = shared(&m).into_iter().map(|c| c.0).collect();
        assert_eq!(names, ["Part", "WidgetSpec"]);
        share(&mut m);
        let v1 = &m.modules[&("example".to_owned(), "v1".to_owned())];
        assert_eq!(
            v1.structs["WidgetSpec"].fields[2].ty,
            Ty::Vec(Box::new(local("v1", "Part")))
        );
        // Parts that differ: neither they nor the specs holding them are shared.
        let m = model(vec![
            version("v1", with_part("v1"), vec![part(1)]),
            version("v1beta1", with_part("v1beta1"), vec![part(2)]),
        ]);
        assert_eq!(shared(&m), []);
        // Two levels down: a spec holding a holder of a part that differs.
        let holder = |v: &str| nested("Holder", vec![field("part", local(v, "Part"), 1)]);
        let with_holder = |v: &str| vec![field("holder", local(v, "Holder"), 1)];
        let m = model(vec![
            version("v1", with_holder("v1"), vec![holder("v1"), part(1)]),
            version(
                "v1beta1",
                with_holder("v1beta1"),
                vec![holder("v1beta1"), part(2)],
            ),
        ]);
        assert_eq!(shared(&m), []);
    }

    #[test]
    fn recursive_types_share() {
        let node = |v: &str| {
            nested(
                "Node",
                vec![
                    field("value", int(), 1),
                    field("children", Ty::Vec(Box::new(local(v, "Node"))), 2),
                ],
            )
        };
        let m = model(vec![
            version("v1", spec(), vec![node("v1")]),
            version("v1beta1", spec(), vec![node("v1beta1")]),
        ]);
        let names: Vec<String> = shared(&m).into_iter().map(|c| c.0).collect();
        assert_eq!(names, ["Node", "WidgetSpec"]);
    }

    #[test]
    fn the_owner_is_the_newest_alike_version_and_singled_out_types_stay() {
        let mut other = spec();
        other[0].proto = vec![9];
        let m = model(vec![
            version("v1", other, vec![]),
            version("v1beta1", spec(), vec![]),
            version("v1beta2", spec(), vec![]),
        ]);
        assert_eq!(
            shared(&m),
            [(
                "WidgetSpec".to_owned(),
                "v1beta2".to_owned(),
                vec!["v1beta1".to_owned()]
            )]
        );
        let excluded = BTreeSet::from([(
            "example".to_owned(),
            "v1beta1".to_owned(),
            "WidgetSpec".to_owned(),
        )]);
        assert_eq!(classes(&m, &excluded), []);
    }

    #[test]
    fn pairs_a_hand_written_conversion_calls_are_shared_and_convert_to_themselves() {
        // `resource/v1beta1` `DeviceRequest` converts by hand (`crate::hubs`), calling the
        // conversions of `DeviceSelector`, `DeviceToleration` and `CapacityRequirements`.
        let ty = |v: &str, name: &str| Ty::Local {
            module: "resource".to_owned(),
            version: v.to_owned(),
            name: name.to_owned(),
        };
        let module = |v: &str, request_fields: Vec<Field>| {
            let requests = Ty::Vec(Box::new(ty(v, "DeviceRequest")));
            let ((_, version), mut module) =
                version(v, vec![field("requests", requests, 1)], vec![]);
            if let Some(widget) = module.structs.get_mut("Widget") {
                widget.fields[0].ty = ty(v, "WidgetSpec");
            }
            let request = nested("DeviceRequest", request_fields);
            module.structs.insert("DeviceRequest".to_owned(), request);
            for name in ["DeviceSelector", "DeviceToleration", "CapacityRequirements"] {
                let called = nested(name, vec![field("key", int(), 1)]);
                module.structs.insert(name.to_owned(), called);
            }
            (("resource".to_owned(), version), module)
        };
        let uses = |v: &str| {
            vec![
                field("selectors", Ty::Vec(Box::new(ty(v, "DeviceSelector"))), 1),
                field(
                    "tolerations",
                    Ty::Vec(Box::new(ty(v, "DeviceToleration"))),
                    2,
                ),
            ]
        };
        let mut hub_request = uses("v1");
        hub_request.push(field("exactly", int(), 3));
        let mut m = model(vec![
            module("v1", hub_request),
            module("v1beta1", uses("v1beta1")),
        ]);
        let owner = |name: &str| ("resource".to_owned(), "v1".to_owned(), name.to_owned());
        share(&mut m);
        let beta = &m.modules[&("resource".to_owned(), "v1beta1".to_owned())];
        assert!(
            beta.structs.contains_key("DeviceRequest"),
            "the hand-written pair stays"
        );
        for name in ["DeviceSelector", "DeviceToleration", "CapacityRequirements"] {
            assert_eq!(beta.aliases[name].ty, ty("v1", name), "{name}");
        }
        let plan = crate::hubs::plan(&m);
        assert!(
            plan.report.contains("- `resource/v1beta1`: complete"),
            "{}",
            plan.report
        );
        for name in ["DeviceSelector", "DeviceToleration", "CapacityRequirements"] {
            assert!(plan.identity.contains(&owner(name)), "{name}");
        }
        assert!(!plan.derives.contains_key(&(
            "resource".to_owned(),
            "v1beta1".to_owned(),
            "DeviceRequest".to_owned()
        )));
    }

    #[test]
    fn the_report_lists_each_module_once() {
        let class = |module: &str, name: &str| Class {
            module: module.to_owned(),
            name: name.to_owned(),
            owner: "v1".to_owned(),
            aliases: vec!["v1beta1".to_owned()],
        };
        let text = report(&[class("apps", "A"), class("apps", "B"), class("batch", "C")]);
        assert!(text.ends_with(
            "## `apps`\n\n- `A`: `v1`; `v1beta1`\n- `B`: `v1`; `v1beta1`\n\n## `batch`\n\n- `C`: `v1`; `v1beta1`\n\n"
        ), "{text}");
    }
}
