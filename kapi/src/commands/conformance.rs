//! `kapi conformance <DIR>`: Go's serialization fixtures (`<group>.<version>.<Kind>.
//! {json,yaml,pb}`, core group written `core`), checked through the Scheme: each file
//! decodes, decodes to the same object as the kind's JSON file, and re-encodes to the same
//! bytes. One line per failure, a table per format, then `N passed, M failed` (one count
//! per file checked).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{Serializer as JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::Serializer as ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};

use super::CommandError;
use crate::cli::{ConformanceArgs, FixtureFormat};
use crate::scheme::scheme;

impl FixtureFormat {
    fn extension(self) -> &'static str {
        match self {
            FixtureFormat::Json => "json",
            FixtureFormat::Yaml => "yaml",
            FixtureFormat::Pb => "pb",
        }
    }
}

/// The serializers of the three formats, as Go wrote the fixtures: pretty JSON, YAML,
/// protobuf in its envelope.
struct Codecs<'s> {
    json: JsonSerializer<'s>,
    yaml: JsonSerializer<'s>,
    protobuf: ProtobufSerializer<'s>,
}

impl<'s> Codecs<'s> {
    fn new(scheme: &'s Scheme) -> Self {
        let json = |yaml, pretty| {
            JsonSerializer::new(
                scheme,
                SerializerOptions {
                    yaml,
                    pretty,
                    strict: false,
                },
            )
        };
        Codecs {
            json: json(false, true),
            yaml: json(true, false),
            protobuf: ProtobufSerializer::new(scheme),
        }
    }

    fn decoder(&self, format: FixtureFormat) -> &dyn Decoder {
        match format {
            FixtureFormat::Json => &self.json,
            FixtureFormat::Yaml => &self.yaml,
            FixtureFormat::Pb => &self.protobuf,
        }
    }

    fn encoder(&self, format: FixtureFormat) -> &dyn Encoder {
        match format {
            FixtureFormat::Json => &self.json,
            FixtureFormat::Yaml => &self.yaml,
            FixtureFormat::Pb => &self.protobuf,
        }
    }
}

/// `apps.v1.Deployment` → `apps/v1, Kind=Deployment`; a group may contain dots.
pub fn gvk_from_file_stem(stem: &str) -> Option<GroupVersionKind> {
    let (rest, kind) = stem.rsplit_once('.')?;
    let (group, version) = rest.rsplit_once('.')?;
    let group = if group == "core" { "" } else { group };
    Some(GroupVersionKind::new(group, version, kind))
}

pub fn run(args: &ConformanceArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let codecs = Codecs::new(&scheme);
    let formats: Vec<FixtureFormat> = if args.formats.is_empty() {
        vec![FixtureFormat::Json, FixtureFormat::Yaml, FixtureFormat::Pb]
    } else {
        let mut formats = args.formats.clone();
        formats.dedup();
        formats
    };
    let stems = fixture_stems(&args.dir)?;
    if stems.is_empty() {
        return Err(format!(
            "{}: no fixtures named <group>.<version>.<Kind>.<json|yaml|pb>",
            args.dir.display()
        )
        .into());
    }

    let mut table: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    for (stem, present) in &stems {
        let reference = present
            .contains(&FixtureFormat::Json)
            .then(|| decode_file(&codecs, &args.dir, stem, FixtureFormat::Json).ok())
            .flatten();
        for format in &formats {
            if !present.contains(format) {
                continue;
            }
            let result = check_file(&codecs, &args.dir, stem, *format, reference.as_ref());
            let counts = table.entry(format.extension()).or_default();
            match result {
                Ok(()) => {
                    passed += 1;
                    counts.0 += 1;
                }
                Err(problem) => {
                    failed += 1;
                    counts.1 += 1;
                    writeln!(out, "FAIL {stem}.{}: {problem}", format.extension())?;
                }
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "format   passed   failed")?;
    for format in &formats {
        let (p, f) = table.get(format.extension()).copied().unwrap_or_default();
        writeln!(out, "{:<8} {p:>6}   {f:>6}", format.extension())?;
    }
    writeln!(out)?;
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Fixture stems with the formats present for each, sorted.
fn fixture_stems(dir: &Path) -> Result<BTreeMap<String, Vec<FixtureFormat>>, CommandError> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut stems: BTreeMap<String, Vec<FixtureFormat>> = BTreeMap::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((stem, ext)) = name.rsplit_once('.') else {
            continue;
        };
        let format = match ext {
            "json" => FixtureFormat::Json,
            "yaml" => FixtureFormat::Yaml,
            "pb" => FixtureFormat::Pb,
            _ => continue,
        };
        if gvk_from_file_stem(stem).is_some() {
            stems.entry(stem.to_owned()).or_default().push(format);
        }
    }
    Ok(stems)
}

fn path_of(dir: &Path, stem: &str, format: FixtureFormat) -> PathBuf {
    dir.join(format!("{stem}.{}", format.extension()))
}

/// Decodes a fixture into its registered type; the kind comes from the bytes, or from
/// the file name for kinds Go writes without `TypeMeta` (`WatchEvent`).
fn decode_file(
    codecs: &Codecs<'_>,
    dir: &Path,
    stem: &str,
    format: FixtureFormat,
) -> Result<(Vec<u8>, Box<dyn Object>), String> {
    let gvk = gvk_from_file_stem(stem).ok_or("not named <group>.<version>.<Kind>")?;
    let path = path_of(dir, stem, format);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (object, decoded) = codecs
        .decoder(format)
        .decode(&bytes, Some(&gvk), None)
        .map_err(|e| format!("decode: {e}"))?;
    if decoded != gvk {
        return Err(format!("decoded as {decoded}, the file name says {gvk}"));
    }
    Ok((bytes, object))
}

fn check_file(
    codecs: &Codecs<'_>,
    dir: &Path,
    stem: &str,
    format: FixtureFormat,
    reference: Option<&(Vec<u8>, Box<dyn Object>)>,
) -> Result<(), String> {
    let (bytes, object) = decode_file(codecs, dir, stem, format)?;
    if format != FixtureFormat::Json {
        if let Some((_, json_object)) = reference {
            let ours = serde_json::to_value(object.as_ref()).map_err(|e| e.to_string())?;
            let theirs = serde_json::to_value(json_object.as_ref()).map_err(|e| e.to_string())?;
            if let Some(path) = first_value_difference(&theirs, &ours, String::new()) {
                return Err(format!(
                    "decodes to another object than {stem}.json, first at {path}"
                ));
            }
        }
    }
    let encoded = codecs
        .encoder(format)
        .encode_to_vec(object.as_ref())
        .map_err(|e| format!("encode: {e}"))?;
    if encoded != bytes {
        return Err(first_byte_difference(&bytes, &encoded, format));
    }
    Ok(())
}

/// The JSON path of the first place two values differ.
fn first_value_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: String,
) -> Option<String> {
    use serde_json::Value;
    let here = || {
        if path.is_empty() {
            "<root>".to_owned()
        } else {
            path.clone()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                match y.get(key) {
                    Some(other) => {
                        if let Some(p) = first_value_difference(value, other, child) {
                            return Some(p);
                        }
                    }
                    None => return Some(child),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if let Some(p) = first_value_difference(v, w, format!("{path}[{i}]")) {
                    return Some(p);
                }
            }
            (x.len() != y.len()).then(here)
        }
        _ => (a != b).then(here),
    }
}

/// Where re-encoded bytes first differ: the byte offset, and for text the line and
/// column with both lines.
fn first_byte_difference(expected: &[u8], actual: &[u8], format: FixtureFormat) -> String {
    let offset = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    if format == FixtureFormat::Pb {
        return format!(
            "re-encodes differently from byte {offset} (expected {} bytes, got {})",
            expected.len(),
            actual.len()
        );
    }
    let line_start = expected[..offset]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line_no = expected[..offset].iter().filter(|b| **b == b'\n').count() + 1;
    let column = offset - line_start + 1;
    let line_of = |bytes: &[u8]| {
        let end = bytes[line_start.min(bytes.len())..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| line_start + i);
        String::from_utf8_lossy(&bytes[line_start.min(bytes.len())..end]).into_owned()
    };
    format!(
        "re-encodes differently at line {line_no}, column {column} (byte {offset}): expected {:?}, got {:?}",
        line_of(expected),
        line_of(actual)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn value_differences_name_the_path() {
        let a = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        let b = json!({"spec": {"containers": [{"name": "a"}, {"name": "c"}]}});
        assert_eq!(
            first_value_difference(&a, &b, String::new()).as_deref(),
            Some("spec.containers[1].name")
        );
        assert_eq!(first_value_difference(&a, &a, String::new()), None);
        let c = json!({"spec": {}});
        assert_eq!(
            first_value_difference(&a, &c, String::new()).as_deref(),
            Some("spec.containers")
        );
    }

    #[test]
    fn byte_differences_name_line_and_column() {
        let message = first_byte_difference(b"a: 1\nb: 2\n", b"a: 1\nb: 3\n", FixtureFormat::Yaml);
        assert!(message.contains("line 2, column 4 (byte 8)"), "{message}");
        let message = first_byte_difference(b"\x0a\x01", b"\x0a\x02", FixtureFormat::Pb);
        assert!(message.contains("byte 1"), "{message}");
    }

    #[test]
    fn stems_name_kinds() {
        assert_eq!(
            gvk_from_file_stem("core.v1.Pod"),
            Some(GroupVersionKind::new("", "v1", "Pod"))
        );
        assert_eq!(
            gvk_from_file_stem("apiextensions.k8s.io.v1.CustomResourceDefinition"),
            Some(GroupVersionKind::new(
                "apiextensions.k8s.io",
                "v1",
                "CustomResourceDefinition"
            ))
        );
        assert_eq!(gvk_from_file_stem("README"), None);
    }
}
