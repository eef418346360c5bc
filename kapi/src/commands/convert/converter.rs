//! Bringing each object of a document to the target version.
//!
//! Every object the Scheme can bring to the target is converted: to `--output-version`
//! when its group is that group, or its kind's hub is there (`extensions/v1beta1`
//! Deployment → `apps/v1`); without `--output-version`, to the version its group's hub is
//! registered in, which is the newest stable served one. Objects of other groups pass
//! through unchanged. Every converted object is defaulted first, in the version it was
//! read in, as Go's decoder defaults what it decodes and `kubectl convert` prints (the
//! `apps/v1` selector comes from the template labels, an `extensions/v1beta1`
//! Deployment keeps 2147483647 revisions); without `--output-version`, kinds served in
//! one version only are defaulted and written back by their type too.
//!
//! Custom resources (kinds of groups that are not built in, see
//! [`is_custom_resource`]) pass through unchanged too, whatever the target: kapi has no
//! schema for them, so there is nothing to convert or check strictly. The converter
//! notes their kinds for the one warning per kind the command prints. An unknown kind of
//! a built-in group is an error.

use apimachinery::conversion::ConversionErrorKind;
use apimachinery::proto::{self, decode_envelope};
use apimachinery::runtime::{API_VERSION_INTERNAL, Object, Scheme, Unstructured};
use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersioner};
use apimachinery::serializer::Decoder;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::decode_object;
use serde_json::{Map, Value};

use crate::commands::documents::Document;
use crate::scheme::{is_custom_resource, unknown_builtin_kind};

/// An object after conversion: a typed one, or one left as it was read.
pub enum Item {
    /// Converted (or decoded from protobuf): written by its type.
    Typed(Box<dyn Object>),
    /// Passed through: written back as read.
    Unstructured(Map<String, Value>),
}

/// A document after conversion.
pub enum Converted {
    /// One object.
    Object(Item),
    /// A list (`kind: List`, `DeploymentList`, ... anything with `items`): the list
    /// document without its items, and the items converted one by one.
    List {
        /// The list document, `items` removed.
        list: Map<String, Value>,
        /// The items, in order.
        items: Vec<Item>,
    },
}

/// Converts documents to the target.
pub struct Converter<'s> {
    scheme: &'s Scheme,
    target: Option<GroupVersion>,
    /// Reads documents as they are.
    reader: JsonSerializer<'s>,
    /// Reads objects into their Rust types (strictly with `--strict`).
    typed: JsonSerializer<'s>,
    /// The kinds of the custom resources passed through, in the order first seen, once
    /// each.
    custom_kinds: Vec<GroupVersionKind>,
    /// How many of `custom_kinds` [`Converter::new_custom_kinds`] returned already.
    custom_kinds_reported: usize,
}

/// A conversion target that is one exact kind, whatever the group of the object
/// (moved kinds convert across groups through their shared hub).
pub(crate) struct ExactKind(pub(crate) GroupVersionKind);

impl GroupVersioner for ExactKind {
    fn kind_for_group_version_kinds(&self, kinds: &[GroupVersionKind]) -> Option<GroupVersionKind> {
        kinds
            .iter()
            .any(|k| k.kind == self.0.kind)
            .then(|| self.0.clone())
    }

    fn identifier(&self) -> String {
        self.0.to_string()
    }
}

impl<'s> Converter<'s> {
    /// A converter to `target` (each group's preferred version when `None`).
    pub fn new(scheme: &'s Scheme, target: Option<GroupVersion>, strict: bool) -> Self {
        let options = |yaml| SerializerOptions {
            yaml,
            pretty: false,
            strict,
        };
        Converter {
            scheme,
            target,
            reader: JsonSerializer::unstructured(options(true)),
            typed: JsonSerializer::new(scheme, options(false)),
            custom_kinds: Vec::new(),
            custom_kinds_reported: 0,
        }
    }

    /// The kinds of custom resources passed through since the last call, each the first
    /// time it is seen.
    pub fn new_custom_kinds(&mut self) -> Vec<GroupVersionKind> {
        let new = self
            .custom_kinds
            .iter()
            .skip(self.custom_kinds_reported)
            .cloned()
            .collect();
        self.custom_kinds_reported = self.custom_kinds.len();
        new
    }

    /// The scheme objects are converted with.
    pub fn scheme(&self) -> &'s Scheme {
        self.scheme
    }

    /// One document, converted; `None` for an empty one.
    pub fn document(&mut self, doc: Document<'_>) -> Result<Option<Converted>, String> {
        match doc {
            Document::Text(text) => self.text(text),
            Document::Protobuf(bytes) => self.protobuf(bytes).map(Some),
        }
    }

    fn text(&mut self, text: &str) -> Result<Option<Converted>, String> {
        let (obj, _) = self
            .reader
            .decode(text.as_bytes(), None, None)
            .map_err(|e| e.to_string())?;
        let mut map = apimachinery::runtime::unstructured::to_unstructured(&*obj)
            .map_err(|e| e.to_string())?;
        if map.is_empty() {
            return Ok(None);
        }
        if let Some(Value::Array(items)) = map.remove("items") {
            let items = items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Object(obj) => self.object(obj).map_err(|e| format!("items[{i}]: {e}")),
                    _ => Err(format!("items[{i}]: not an object")),
                })
                .collect::<Result<_, _>>()?;
            return Ok(Some(Converted::List { list: map, items }));
        }
        self.object(map).map(|item| Some(Converted::Object(item)))
    }

    /// An enveloped protobuf object; a `v1 List` (what `-o protobuf` writes for several
    /// objects) has its items read, each an enveloped object or JSON.
    fn protobuf(&mut self, bytes: &[u8]) -> Result<Converted, String> {
        let envelope = decode_envelope(bytes).map_err(|e| e.to_string())?;
        if envelope.kind == "List" && envelope.api_version == "v1" {
            let list: k8s_types::core::v1::List =
                proto::decode_message(envelope.raw).map_err(|e| format!("List: {e}"))?;
            let items = list
                .items
                .iter()
                .flatten()
                .enumerate()
                .map(|(i, item)| {
                    self.list_item(&item.raw)
                        .map_err(|e| format!("items[{i}]: {e}"))
                })
                .collect::<Result<_, _>>()?;
            let metadata = apimachinery::runtime::unstructured::to_unstructured(&list.metadata)
                .map_err(|e| format!("List metadata: {e}"))?;
            // Go's `v1 List` as JSON: its (non-pointer) metadata is always written.
            let list = Map::from_iter([
                ("apiVersion".to_owned(), Value::from("v1")),
                ("kind".to_owned(), Value::from("List")),
                ("metadata".to_owned(), Value::Object(metadata)),
            ]);
            return Ok(Converted::List { list, items });
        }
        let (mut typed, gvk) =
            decode_object(self.scheme, bytes, None).map_err(|e| e.to_string())?;
        let candidates = self.targets(&gvk)?;
        self.convert(&gvk, &mut typed, candidates)?;
        Ok(Converted::Object(Item::Typed(typed)))
    }

    fn list_item(&mut self, raw: &[u8]) -> Result<Item, String> {
        let doc = if raw.starts_with(proto::MAGIC) {
            Document::Protobuf(raw)
        } else {
            Document::Text(std::str::from_utf8(raw).map_err(|e| format!("invalid UTF-8: {e}"))?)
        };
        match self.document(doc)? {
            Some(Converted::Object(item)) => Ok(item),
            Some(Converted::List { .. }) => Err("a list inside a list".to_owned()),
            None => Err("empty".to_owned()),
        }
    }

    /// One object, converted when the scheme can bring it to the target.
    fn object(&mut self, map: Map<String, Value>) -> Result<Item, String> {
        let u = Unstructured::new(map);
        let gv: GroupVersion = u
            .api_version()
            .parse()
            .map_err(|e| format!("apiVersion {:?}: {e}", u.api_version()))?;
        if u.kind().is_empty() {
            return Err("no kind".to_owned());
        }
        let gvk = gv.with_kind(u.kind());
        if is_custom_resource(self.scheme, &gvk) {
            if !self.custom_kinds.contains(&gvk) {
                self.custom_kinds.push(gvk);
            }
            return Ok(Item::Unstructured(u.object));
        }
        let candidates = self.targets(&gvk)?;
        if candidates.is_empty() {
            // A kind without an internal version (`ConversionReview`) is already in its
            // target version; Go still decodes it with defaults and prints the typed
            // object.
            if self.target.is_none() {
                let mut typed = self.typed(&u.object).map_err(|e| format!("{gvk}: {e}"))?;
                self.scheme.default(&mut *typed);
                return Ok(Item::Typed(typed));
            }
            return Ok(Item::Unstructured(u.object));
        }
        let mut typed = self.typed(&u.object).map_err(|e| format!("{gvk}: {e}"))?;
        Ok(if self.convert(&gvk, &mut typed, candidates)? {
            Item::Typed(typed)
        } else {
            Item::Unstructured(u.object)
        })
    }

    /// Reads an object of a registered kind written as JSON into its type (for writers
    /// that need the type, such as protobuf).
    pub fn typed(&self, map: &Map<String, Value>) -> Result<Box<dyn Object>, String> {
        let bytes = serde_json::to_vec(map).map_err(|e| e.to_string())?;
        self.typed
            .decode(&bytes, None, None)
            .map(|(obj, _)| obj)
            .map_err(|e| e.to_string())
    }

    /// Brings `typed` (of kind `gvk`) to the first of `candidates` there is a route to,
    /// in place, defaulted first in its own version; `false` when none of the tries
    /// across groups found a route (the object is then as it was, defaults aside).
    fn convert(
        &self,
        gvk: &GroupVersionKind,
        typed: &mut Box<dyn Object>,
        candidates: Vec<(GroupVersionKind, bool)>,
    ) -> Result<bool, String> {
        self.convert_with(gvk, typed, candidates, true)
    }

    /// A copy of `typed` (of kind `gvk`) brought to the target, defaulted first in its
    /// own version when `defaults` (as Go's decoder does) or not at all; `None` when the
    /// object would pass through as it is (no route, or already in the target).
    pub fn converted_copy(
        &self,
        gvk: &GroupVersionKind,
        typed: &dyn Object,
        defaults: bool,
    ) -> Result<Option<Box<dyn Object>>, String> {
        let candidates = self.targets(gvk)?;
        if candidates.first().is_none_or(|(to, _)| to == gvk) {
            return Ok(None);
        }
        let mut copy = typed.deep_copy_object();
        Ok(self
            .convert_with(gvk, &mut copy, candidates, defaults)?
            .then_some(copy))
    }

    fn convert_with(
        &self,
        gvk: &GroupVersionKind,
        typed: &mut Box<dyn Object>,
        candidates: Vec<(GroupVersionKind, bool)>,
        defaults: bool,
    ) -> Result<bool, String> {
        if candidates.is_empty() {
            return Ok(false);
        }
        if defaults {
            self.scheme.default(&mut **typed);
        }
        for (target, cross_group) in candidates {
            // Converted even to its own version: Go's object passes through the internal
            // version, whose conversions move data (a Secret's `stringData` into `data`).
            // A try across groups that finds no route leaves the object as it is (for
            // the next candidate, or the caller); any other failure is an error.
            let attempt = if cross_group {
                typed.deep_copy_object()
            } else {
                std::mem::replace(typed, self.placeholder(gvk)?)
            };
            match self
                .scheme
                .convert_to_version(attempt, &ExactKind(target.clone()))
            {
                Ok(obj) => {
                    *typed = obj;
                    return Ok(true);
                }
                Err(e)
                    if cross_group
                        && matches!(e.kind(), ConversionErrorKind::NoConversion { .. }) => {}
                Err(e) => return Err(format!("{gvk} to {target}: {e}")),
            }
        }
        Ok(false)
    }

    fn placeholder(&self, gvk: &GroupVersionKind) -> Result<Box<dyn Object>, String> {
        self.scheme.new_object(gvk).map_err(|e| e.to_string())
    }

    /// The kinds to try converting `gvk` (not a custom resource) to, with whether each is
    /// in another group; empty when the object passes through unchanged. An unknown kind
    /// is an error.
    fn targets(&self, gvk: &GroupVersionKind) -> Result<Vec<(GroupVersionKind, bool)>, String> {
        if !self.scheme.recognizes(gvk) {
            return Err(unknown_builtin_kind(self.scheme, gvk));
        }
        match &self.target {
            Some(target) if target.group == gvk.group => {
                let to = target.with_kind(gvk.kind.as_str());
                if !self.scheme.recognizes(&to) {
                    return Err(format!("{} is not served in {target}", gvk.kind));
                }
                Ok(vec![(to, false)])
            }
            Some(target) => {
                let to = target.with_kind(gvk.kind.as_str());
                // A hub in either group may join them (`extensions` → `apps` and back).
                let hub_in = |group: &apimachinery::schema::Name| {
                    self.scheme.recognizes(&GroupVersionKind::new(
                        group.clone(),
                        API_VERSION_INTERNAL,
                        gvk.kind.clone(),
                    ))
                };
                Ok(
                    if self.scheme.recognizes(&to) && (hub_in(&target.group) || hub_in(&gvk.group))
                    {
                        vec![(to, true)]
                    } else {
                        Vec::new()
                    },
                )
            }
            None => {
                // The own group's hub first, then hubs of other groups for the same kind
                // (kinds that moved out of `extensions`).
                let mut out = Vec::new();
                let own = GroupVersionKind::new(
                    gvk.group.clone(),
                    API_VERSION_INTERNAL,
                    gvk.kind.clone(),
                );
                if self.scheme.recognizes(&own) {
                    if let Some(to) = self.public_kind(&own) {
                        let cross_group = to.group != gvk.group;
                        out.push((to, cross_group));
                    }
                    return Ok(out);
                }
                for hub in self.scheme.all_known_types().into_keys() {
                    if hub.version == API_VERSION_INTERNAL
                        && hub.kind == gvk.kind
                        && hub.group != gvk.group
                    {
                        if let Some(to) = self.public_kind(hub) {
                            out.push((to, true));
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// The served kind of a hub type (the version it is registered in besides
    /// `__internal`): in the hub's group, or, for `extensions/__internal` (the type of the
    /// group the kind moved to), in that group.
    fn public_kind(&self, hub: &GroupVersionKind) -> Option<GroupVersionKind> {
        let obj = self.scheme.new_object(hub).ok()?;
        let (kinds, _) = self.scheme.object_kinds(&*obj).ok()?;
        let external = || kinds.iter().filter(|k| k.version != API_VERSION_INTERNAL);
        external()
            .find(|k| k.group == hub.group)
            .or_else(|| external().next())
            .cloned()
    }
}
