//! The types' internal forms (`apimachinery::conversion::InternalForm`): what Go's trip
//! through a kind's internal version does to an external type.
//!
//! Go's hand-written conversions between a hub version (or a kind's only version) and
//! the internal version are written by hand in `k8s-types/src/conversions/internal`, one
//! pair of functions per Go type they are for ([`HOOKS`]). Those types are nested in many
//! others (a `PodSpec` in every workload's pod template, in every version), and Go's
//! generated conversions reach them wherever they are: so every struct that holds one, at
//! any depth, gets a generated `InternalForm` that visits those fields, then calls its own
//! functions if it has any; each kind among them registers its internal form with the
//! Scheme, which applies it where Go's object passes through the internal version.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::hubs::Node;
use crate::model::{Model, Struct, Ty};

/// The structs with hand-written internal-form functions: (module, version, struct, the
/// functions' prefix in `crate::conversions::internal`, which has `<prefix>_internalize`
/// and `<prefix>_externalize`), from Go's `conversion.go` of each version.
pub const HOOKS: &[(&str, &str, &str, &str)] = &[
    ("apps", "v1", "DaemonSet", "apps_v1::daemon_set"),
    ("apps", "v1", "Deployment", "apps_v1::deployment"),
    (
        "apps",
        "v1",
        "StatefulSetSpec",
        "apps_v1::stateful_set_spec",
    ),
    (
        "apps",
        "v1beta1",
        "StatefulSetSpec",
        "apps_v1beta1::stateful_set_spec",
    ),
    (
        "autoscaling",
        "v2",
        "HorizontalPodAutoscaler",
        "autoscaling_v2::horizontal_pod_autoscaler",
    ),
    ("core", "v1", "NodeSpec", "core_v1::node_spec"),
    ("core", "v1", "Pod", "core_v1::pod"),
    ("core", "v1", "PodSpec", "core_v1::pod_spec"),
    ("core", "v1", "PodStatus", "core_v1::pod_status"),
    (
        "core",
        "v1",
        "PodTemplateSpec",
        "core_v1::pod_template_spec",
    ),
    ("core", "v1", "Secret", "core_v1::secret"),
    (
        "policy",
        "v1",
        "PodDisruptionBudget",
        "policy_v1::pod_disruption_budget",
    ),
];

/// Hooks of [`HOOKS`] that Go's conversions no longer have from a release on: (that
/// release, module, version, struct). Kubernetes 1.37 gave the internal core types the
/// `v1` pod's fields (`serviceAccount`, the host namespaces, `podIP`) and moved what
/// `core/v1/conversion.go` did for pods to defaulting (`SetDefaults_PodSpec`,
/// `SetDefaults_PodStatus`, `SetDefaults_Pod`) and to the pod strategies (the
/// init-container annotations); `policy/v1`'s conversion file is gone, its selector
/// label stripping now the PodDisruptionBudget strategy's.
const GONE: &[(&str, &str, &str, &str)] = &[
    ("1.37", "core", "v1", "Pod"),
    ("1.37", "core", "v1", "PodSpec"),
    ("1.37", "core", "v1", "PodStatus"),
    ("1.37", "core", "v1", "PodTemplateSpec"),
    ("1.37", "policy", "v1", "PodDisruptionBudget"),
];

/// The hooks of [`HOOKS`] Go has in `release`.
fn hooks_of(release: &str) -> BTreeMap<Node, &'static str> {
    let at = crate::refdata::Release::parse(release).ok();
    HOOKS
        .iter()
        .filter(|(m, v, n, _)| {
            !GONE.iter().any(|(from, gm, gv, gn)| {
                (gm, gv, gn) == (m, v, n)
                    && at.is_some_and(|at| {
                        crate::refdata::Release::parse(from).is_ok_and(|from| at >= from)
                    })
            })
        })
        .map(|(m, v, n, p)| (((*m).to_owned(), (*v).to_owned(), (*n).to_owned()), *p))
        .collect()
}

/// Which structs have an internal form: those of [`HOOKS`] and those holding one.
pub struct Plan {
    /// Every struct with an internal form, and its hand-written functions' prefix.
    with_form: BTreeMap<Node, Option<&'static str>>,
}

impl Plan {
    /// Plans the internal forms of `model`'s structs.
    pub fn new(model: &Model) -> Plan {
        let hooks = hooks_of(&model.release);
        let mut reach: BTreeMap<Node, bool> = BTreeMap::new();
        let mut with_form = BTreeMap::new();
        for ((module, version), m) in &model.modules {
            for name in m.structs.keys() {
                let node = (module.clone(), version.clone(), name.clone());
                if reaches(model, &hooks, &node, &mut reach, &mut BTreeSet::new()) {
                    with_form.insert(node.clone(), hooks.get(&node).copied());
                }
            }
        }
        Plan { with_form }
    }

    /// The `InternalForm` impls of the structs of one module file that have one, and the
    /// registration of its kinds among them; empty when none has one.
    pub fn write(&self, model: &Model, module: &str, version: &str, structs: &[&Struct]) -> String {
        let mut out = String::new();
        let mut kinds = Vec::new();
        for s in structs {
            let node = (module.to_owned(), version.to_owned(), s.name.clone());
            let Some(hook) = self.with_form.get(&node) else {
                continue;
            };
            let fields: Vec<(&str, &str)> = s
                .fields
                .iter()
                .filter(|f| {
                    field_struct(model, &f.ty).is_some_and(|n| self.with_form.contains_key(&n))
                })
                .map(|f| (f.rust.as_str(), f.json.as_str()))
                .collect();
            let _ = writeln!(out, "#[cfg(feature = \"scheme\")]");
            let _ = writeln!(
                out,
                "impl apimachinery::conversion::InternalForm for {} {{",
                s.name
            );
            out.push_str(
                "    fn internalize(&mut self) -> Result<(), apimachinery::conversion::ConversionError> {\n",
            );
            for (rust, json) in &fields {
                let _ = writeln!(
                    out,
                    "        apimachinery::conversion::in_field(apimachinery::conversion::InternalForm::internalize(&mut self.{rust}), {json:?})?;"
                );
            }
            match hook {
                Some(prefix) => {
                    let _ = writeln!(
                        out,
                        "        crate::conversions::internal::{prefix}_internalize(self)"
                    );
                }
                None => out.push_str("        Ok(())\n"),
            }
            out.push_str("    }\n\n    fn externalize(&mut self) {\n");
            for (rust, _) in &fields {
                let _ = writeln!(
                    out,
                    "        apimachinery::conversion::InternalForm::externalize(&mut self.{rust});"
                );
            }
            if let Some(prefix) = hook {
                let _ = writeln!(
                    out,
                    "        crate::conversions::internal::{prefix}_externalize(self);"
                );
            }
            out.push_str("    }\n}\n\n");
            if s.kind
                .as_ref()
                .is_some_and(|k| k.also_in.is_empty() && !k.no_type_meta)
            {
                kinds.push(s.name.as_str());
            }
        }
        if !kinds.is_empty() {
            out.push_str("#[cfg(feature = \"scheme\")]\n");
            out.push_str(
                "fn register_internal_forms(forms: &mut apimachinery::conversion::InternalForms) {\n",
            );
            for k in &kinds {
                let _ = writeln!(out, "    forms.add::<{k}>();");
            }
            out.push_str("}\n\n#[cfg(feature = \"scheme\")]\ninventory::submit! { apimachinery::conversion::InternalFormRegistration(register_internal_forms) }\n\n");
        }
        out
    }
}

/// The struct a field's type holds (through `Option`, `Vec`, maps and boxes, and the
/// aliases of shared types), if it is a generated one.
fn field_struct(model: &Model, ty: &Ty) -> Option<Node> {
    match ty {
        Ty::Path(_) => None,
        Ty::Vec(t) | Ty::Map(t) | Ty::Boxed(t) => field_struct(model, t),
        Ty::Local {
            module,
            version,
            name,
        } => {
            let m = model.modules.get(&(module.clone(), version.clone()))?;
            if m.structs.contains_key(name) {
                Some((module.clone(), version.clone(), name.clone()))
            } else {
                field_struct(model, &m.aliases.get(name)?.ty)
            }
        }
    }
}

/// Whether the struct `node` has hand-written functions or holds, at any depth, one that
/// has (memoized in `reach`; `visiting` breaks recursive types).
fn reaches(
    model: &Model,
    hooks: &BTreeMap<Node, &'static str>,
    node: &Node,
    reach: &mut BTreeMap<Node, bool>,
    visiting: &mut BTreeSet<Node>,
) -> bool {
    if let Some(&r) = reach.get(node) {
        return r;
    }
    if hooks.contains_key(node) {
        reach.insert(node.clone(), true);
        return true;
    }
    if !visiting.insert(node.clone()) {
        return false;
    }
    let s = model
        .modules
        .get(&(node.0.clone(), node.1.clone()))
        .and_then(|m| m.structs.get(&node.2));
    let r = s.is_some_and(|s| {
        s.fields.iter().any(|f| {
            field_struct(model, &f.ty).is_some_and(|n| reaches(model, hooks, &n, reach, visiting))
        })
    });
    visiting.remove(node);
    reach.insert(node.clone(), r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(hooks: &BTreeMap<Node, &str>, m: &str, v: &str, n: &str) -> bool {
        hooks.contains_key(&(m.to_owned(), v.to_owned(), n.to_owned()))
    }

    #[test]
    fn the_pod_hooks_are_1_36_only() {
        let old = hooks_of("1.36");
        let new = hooks_of("1.37");
        for n in ["Pod", "PodSpec", "PodStatus", "PodTemplateSpec"] {
            assert!(has(&old, "core", "v1", n), "{n}");
            assert!(!has(&new, "core", "v1", n), "{n}");
        }
        assert!(has(&old, "policy", "v1", "PodDisruptionBudget"));
        assert!(!has(&new, "policy", "v1", "PodDisruptionBudget"));
        for hooks in [&old, &new] {
            assert!(has(hooks, "core", "v1", "Secret"));
            assert!(has(hooks, "core", "v1", "NodeSpec"));
        }
        assert_eq!(hooks_of("1.38").len(), new.len());
    }
}
