//! `kapi convert`: manifests to another API version, as `kubectl convert` does, offline.
//!
//! Each document of each input is decoded as it is written (JSON or YAML, multi-document
//! streams, `List`s and other documents with `items`), then every object the Scheme can
//! bring to the target is converted: to `--output-version` when its group is that group,
//! or its kind's hub is there (`extensions/v1beta1` Deployment → `apps/v1`); without
//! `--output-version`, to the version its group's hub is registered in, which is the
//! newest stable served one. Objects of other groups, and kinds served in one version
//! only, pass through unchanged. Old versions are defaulted first, as Kubernetes
//! defaults what it decodes (the `apps/v1` selector comes from the template labels).
//!
//! A bad document (unreadable file, invalid YAML, unknown kind, impossible conversion)
//! is reported on one line with its file and document index; the others are still
//! written, and the exit code is 1.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::inputs::read_inputs;
use apimachinery::conversion::ConversionErrorKind;
use apimachinery::runtime::{API_VERSION_INTERNAL, Object, Scheme, Unstructured};
use apimachinery::schema::{GroupVersion, GroupVersionKind, GroupVersioner};
use apimachinery::serializer::json::{Serializer, SerializerOptions};
use apimachinery::serializer::yaml::YamlDocuments;
use apimachinery::serializer::{Decoder, Encoder, Format, recognize, split_json_stream};
use serde_json::{Map, Value};

use super::CommandError;
use crate::cli::{ConvertArgs, ConvertOutput};
use crate::printer;
use crate::scheme::scheme;

pub fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let target = args
        .output_version
        .as_deref()
        .map(str::parse::<GroupVersion>)
        .transpose()
        .map_err(|e| format!("--output-version: {e}"))?;
    let converter = Converter::new(&scheme, target, args.strict, args.output);
    let files: Vec<PathBuf> = args.files.iter().map(PathBuf::from).collect();
    let (inputs, errors) = read_inputs(&files, args.recursive);
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut failed = !errors.is_empty();
    let mut docs: Vec<Vec<u8>> = Vec::new();
    for input in &inputs {
        for (index, doc) in documents(&input.bytes) {
            match doc.and_then(|text| converter.document(text)) {
                Ok(Some(bytes)) => docs.push(bytes),
                Ok(None) => {}
                Err(e) => {
                    eprintln!("error: {}: document {index}: {e}", input.name);
                    failed = true;
                }
            }
        }
    }
    let text = printer::join(&docs, args.output);
    match &args.output_file {
        Some(path) => {
            write_atomically(path, &text).map_err(|e| format!("writing {}: {e}", path.display()))?
        }
        None => out.write_all(&text)?,
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The documents of a stream with their 0-based indexes: JSON values one after another,
/// or YAML documents between `---` lines (those with nothing but comments skipped, as
/// kubectl skips them).
fn documents(data: &[u8]) -> Vec<(usize, Result<&str, String>)> {
    if recognize(data) == Format::Json {
        return split_json_stream(data)
            .enumerate()
            .map(|(i, doc)| match doc {
                Ok((index, bytes)) => (
                    index,
                    std::str::from_utf8(bytes).map_err(|e| format!("invalid UTF-8: {e}")),
                ),
                Err(e) => (i, Err(e.to_string())),
            })
            .collect();
    }
    let text = match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(e) => {
            return vec![(
                0,
                Err(format!("invalid UTF-8 after byte {}", e.valid_up_to())),
            )];
        }
    };
    let mut out = Vec::new();
    for (i, doc) in YamlDocuments::new(text).enumerate() {
        match doc {
            Ok(d) if is_blank(d.text) => {}
            Ok(d) => out.push((d.index, Ok(d.text))),
            Err(e) => out.push((i, Err(e.to_string()))),
        }
    }
    out
}

fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l == "---" || l == "..."
    })
}

/// Converts documents to the target and encodes them.
struct Converter<'s> {
    scheme: &'s Scheme,
    target: Option<GroupVersion>,
    /// Reads documents as they are.
    reader: Serializer<'s>,
    /// Reads objects into their Rust types (strictly with `--strict`).
    typed: Serializer<'s>,
    /// Writes typed objects.
    writer: Serializer<'s>,
    /// Writes unstructured objects.
    unstructured_writer: Serializer<'s>,
}

/// A conversion target that is one exact kind, whatever the group of the object
/// (moved kinds convert across groups through their shared hub).
struct ExactKind(GroupVersionKind);

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
    fn new(
        scheme: &'s Scheme,
        target: Option<GroupVersion>,
        strict: bool,
        output: ConvertOutput,
    ) -> Self {
        let yaml = output == ConvertOutput::Yaml;
        Converter {
            scheme,
            target,
            reader: Serializer::unstructured(SerializerOptions {
                yaml: true,
                pretty: false,
                strict,
            }),
            typed: Serializer::new(
                scheme,
                SerializerOptions {
                    yaml: false,
                    pretty: false,
                    strict,
                },
            ),
            writer: Serializer::new(
                scheme,
                SerializerOptions {
                    yaml,
                    pretty: false,
                    strict: false,
                },
            ),
            unstructured_writer: Serializer::unstructured(SerializerOptions {
                yaml,
                pretty: false,
                strict: false,
            }),
        }
    }

    /// One document, converted and encoded; `None` for an empty one.
    fn document(&self, text: &str) -> Result<Option<Vec<u8>>, String> {
        let (obj, _) = self
            .reader
            .decode(text.as_bytes(), None, None)
            .map_err(|e| e.to_string())?;
        let mut map = apimachinery::runtime::unstructured::to_unstructured(&*obj)
            .map_err(|e| e.to_string())?;
        if map.is_empty() {
            return Ok(None);
        }
        if let Some(Value::Array(items)) = map.get_mut("items") {
            for (i, item) in items.iter_mut().enumerate() {
                let Value::Object(obj) = std::mem::take(item) else {
                    return Err(format!("items[{i}]: not an object"));
                };
                *item = self
                    .object(obj)
                    .and_then(Converted::into_value)
                    .map_err(|e| format!("items[{i}]: {e}"))?;
            }
            return self.encode_unstructured(map).map(Some);
        }
        match self.object(map)? {
            Converted::Typed(obj) => self.writer.encode_to_vec(&*obj).map_err(|e| e.to_string()),
            Converted::Unchanged(map) => self.encode_unstructured(map),
        }
        .map(Some)
    }

    fn encode_unstructured(&self, map: Map<String, Value>) -> Result<Vec<u8>, String> {
        self.unstructured_writer
            .encode_to_vec(&Unstructured::new(map))
            .map_err(|e| e.to_string())
    }

    /// One object, converted when the scheme can bring it to the target.
    fn object(&self, map: Map<String, Value>) -> Result<Converted, String> {
        let u = Unstructured::new(map);
        let gv: GroupVersion = u
            .api_version()
            .parse()
            .map_err(|e| format!("apiVersion {:?}: {e}", u.api_version()))?;
        if u.kind().is_empty() {
            return Err("no kind".to_owned());
        }
        let gvk = gv.with_kind(u.kind());
        let candidates = self.targets(&gvk)?;
        if candidates.is_empty() {
            return Ok(Converted::Unchanged(u.object));
        }
        let bytes = serde_json::to_vec(&u.object).map_err(|e| e.to_string())?;
        let (mut typed, _) = self
            .typed
            .decode(&bytes, None, None)
            .map_err(|e| format!("{gvk}: {e}"))?;
        self.scheme.default(&mut *typed);
        let last = candidates.len() - 1;
        for (i, (target, cross_group)) in candidates.into_iter().enumerate() {
            if target == gvk {
                return Ok(Converted::Typed(typed));
            }
            // A try across groups that finds no route leaves the object as it is (or
            // for the next candidate); a failed conversion is an error.
            let attempt = if cross_group && i < last {
                typed.deep_copy_object()
            } else {
                std::mem::replace(&mut typed, self.placeholder(&gvk)?)
            };
            match self
                .scheme
                .convert_to_version(attempt, &ExactKind(target.clone()))
            {
                Ok(obj) => return Ok(Converted::Typed(obj)),
                Err(e)
                    if cross_group
                        && matches!(e.kind(), ConversionErrorKind::NoConversion { .. }) =>
                {
                    if i == last {
                        return Ok(Converted::Unchanged(u.object));
                    }
                }
                Err(e) => return Err(format!("{gvk} to {target}: {e}")),
            }
        }
        Ok(Converted::Unchanged(u.object))
    }

    fn placeholder(&self, gvk: &GroupVersionKind) -> Result<Box<dyn Object>, String> {
        self.scheme.new_object(gvk).map_err(|e| e.to_string())
    }

    /// The kinds to try converting `gvk` to, with whether each is in another group;
    /// empty when the object passes through unchanged. An unknown kind in the target's
    /// group (or anywhere, without a target) is an error.
    fn targets(&self, gvk: &GroupVersionKind) -> Result<Vec<(GroupVersionKind, bool)>, String> {
        let known = self.scheme.recognizes(gvk);
        match &self.target {
            Some(target) if target.group == gvk.group => {
                let to = target.with_kind(gvk.kind.as_str());
                if !known {
                    return Err(format!("unknown kind {gvk}"));
                }
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
                    if known
                        && self.scheme.recognizes(&to)
                        && (hub_in(&target.group) || hub_in(&gvk.group))
                    {
                        vec![(to, true)]
                    } else {
                        Vec::new()
                    },
                )
            }
            None => {
                if !known {
                    return Err(format!("unknown kind {gvk}"));
                }
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
                        out.push((to, false));
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
    /// `__internal`).
    fn public_kind(&self, hub: &GroupVersionKind) -> Option<GroupVersionKind> {
        let obj = self.scheme.new_object(hub).ok()?;
        let (kinds, _) = self.scheme.object_kinds(&*obj).ok()?;
        kinds
            .iter()
            .find(|k| k.version != API_VERSION_INTERNAL && k.group == hub.group)
            .cloned()
    }
}

/// An object after [`Converter::object`].
enum Converted {
    Typed(Box<dyn Object>),
    Unchanged(Map<String, Value>),
}

impl Converted {
    fn into_value(self) -> Result<Value, String> {
        match self {
            Converted::Unchanged(map) => Ok(Value::Object(map)),
            Converted::Typed(obj) => apimachinery::runtime::unstructured::to_unstructured(&*obj)
                .map(Value::Object)
                .map_err(|e| e.to_string()),
        }
    }
}

/// Writes `data` to `path` through a temporary file in the same directory, renamed over
/// `path`: readers see the old file or the new one, never a part.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(data).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
