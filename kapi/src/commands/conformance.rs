//! `kapi conformance <DIR>`: Go's serialization fixtures (`<group>.<version>.<Kind>.
//! {json,yaml,pb}`, core group written `core`), checked through the Scheme as Go's
//! compatibility test checks them: each file decodes, decodes to the same object as the
//! kind's JSON file, and re-encodes to the same bytes.
//!
//! Fixtures of an older release are held to Go's previous-release rule: where
//! `<stem>.after_roundtrip.<ext>` exists, re-encoding `<stem>.<ext>` must give that
//! file's bytes instead (the old data gains fields the current types always write, or
//! loses what they no longer keep); an after-roundtrip file identical to its fixture is
//! a failure, as in Go (it should be removed). Files of kinds the release kapi is built
//! with (`k8s_types::RELEASE`, 1.37 by default) no longer defines are skipped; a kind it
//! defines that the Scheme does not register fails.
//!
//! One line per failure, one per skipped kind, a table per format, then `N passed, M
//! failed` (`, K skipped` when some were), one count per fixture file.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{DecodeError, Decoder, EncodeError, Encoder};

use super::CommandError;
use crate::cli::{ConformanceArgs, FixtureFormat};
use crate::scheme::scheme;

/// What marks the file Go's re-encoding of `<stem>.<ext>` must give, when that is not
/// the fixture's own bytes: `<stem>.after_roundtrip.<ext>`.
const AFTER_ROUNDTRIP: &str = ".after_roundtrip";

/// The group of the types `metav1.AddToGroupVersion` registers in every group version
/// (the options kinds, `WatchEvent`, ...).
const META_GROUP: &str = "meta.k8s.io";

impl FixtureFormat {
    fn extension(self) -> &'static str {
        match self {
            FixtureFormat::Json => "json",
            FixtureFormat::Yaml => "yaml",
            FixtureFormat::Pb => "pb",
        }
    }

    fn from_extension(extension: &str) -> Option<Self> {
        match extension {
            "json" => Some(FixtureFormat::Json),
            "yaml" => Some(FixtureFormat::Yaml),
            "pb" => Some(FixtureFormat::Pb),
            _ => None,
        }
    }
}

/// Why a fixture file does not conform.
#[derive(Debug, thiserror::Error)]
enum Problem {
    /// A file could not be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The kind is one the release built (`k8s_types::RELEASE`) has, and the Scheme has no
    /// type for it.
    #[error(
        "{gvk}: Kubernetes {} defines this kind, but the Scheme does not register it",
        k8s_types::RELEASE
    )]
    Unregistered {
        /// The kind the file name says.
        gvk: GroupVersionKind,
    },
    /// The bytes do not decode.
    #[error("decode: {0}")]
    Decode(#[source] DecodeError),
    /// The bytes decode as another kind than the file name says.
    #[error("decoded as {decoded}, the file name says {named}")]
    OtherKind {
        /// The kind decoded (boxed, as is the other, to keep `Result<_, Problem>` small).
        decoded: Box<GroupVersionKind>,
        /// The kind of the file name.
        named: Box<GroupVersionKind>,
    },
    /// A decoded object could not be made JSON to be compared with the reference.
    #[error("comparing with {reference}: {source}")]
    Compare {
        /// The file decoded for reference.
        reference: String,
        /// The cause.
        source: serde_json::Error,
    },
    /// The object differs from the one the JSON file decodes to.
    #[error("decodes to another object than {reference}, first at {path}")]
    OtherObject {
        /// The file decoded for reference.
        reference: String,
        /// The JSON path of the first difference.
        path: String,
    },
    /// The object does not encode.
    #[error("encode: {0}")]
    Encode(#[source] EncodeError),
    /// The re-encoding is not the expected bytes.
    #[error("re-encodes differently{} {at}", .against.as_ref().map(|f| format!(" than {f}")).unwrap_or_default())]
    Bytes {
        /// The after-roundtrip file the bytes were compared with, when not the fixture.
        against: Option<String>,
        /// Where the bytes first differ.
        at: String,
    },
    /// An after-roundtrip file says nothing the fixture does not.
    #[error("{after} is identical to {fixture} and should be removed, as Go requires")]
    IdenticalAfterRoundtrip {
        /// The after-roundtrip file.
        after: String,
        /// The fixture.
        fixture: String,
    },
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

/// A fixture directory's file, by name: `(stem, format, is the stem's after-roundtrip
/// file)`; `None` for files that are neither.
fn parse_file_name(name: &str) -> Option<(&str, FixtureFormat, bool)> {
    let (stem, extension) = name.rsplit_once('.')?;
    let format = FixtureFormat::from_extension(extension)?;
    let (stem, after) = match stem.strip_suffix(AFTER_ROUNDTRIP) {
        Some(stem) => (stem, true),
        None => (stem, false),
    };
    gvk_from_file_stem(stem).map(|_| (stem, format, after))
}

/// The files of one fixture stem.
#[derive(Debug, Default, PartialEq, Eq)]
struct StemFiles {
    /// The formats of `<stem>.<ext>`.
    fixtures: BTreeSet<FixtureFormat>,
    /// The formats of `<stem>.after_roundtrip.<ext>`.
    after_roundtrip: BTreeSet<FixtureFormat>,
}

/// What is done with a stem's files.
#[derive(Debug, PartialEq, Eq)]
enum Disposition {
    /// The Scheme registers the kind: check the files.
    Check,
    /// The release built no longer defines the kind: skip the files, as Go does.
    Skip,
    /// The release built defines the kind, the Scheme does not register it: each file fails.
    Unregistered,
}

/// What to do with the files of `gvk`, which the Scheme does or does not register.
fn disposition(gvk: &GroupVersionKind, registered: bool) -> Disposition {
    if registered {
        Disposition::Check
    } else if kubernetes_defines(gvk) {
        Disposition::Unregistered
    } else {
        Disposition::Skip
    }
}

/// Whether the release built has the kind `gvk`: a Go type of that name in its group
/// version, or a type of `meta.k8s.io/v1` (Go registers the options kinds and
/// `WatchEvent` in every group version) in a group version the release still has. The second
/// case errs towards failing: a meta type that is not a kind then fails rather than
/// being skipped.
fn kubernetes_defines(gvk: &GroupVersionKind) -> bool {
    let (group, version, kind) = (gvk.group.as_str(), gvk.version.as_str(), gvk.kind.as_str());
    k8s_types::defines_type(group, version, kind)
        || (k8s_types::defines_type(META_GROUP, "v1", kind)
            && k8s_types::GO_TYPES
                .iter()
                .any(|&(g, v, _)| g == group && v == version))
}

/// Counts of one format.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
}

pub fn run(args: &ConformanceArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let codecs = Codecs::new(&scheme);
    let formats: Vec<FixtureFormat> = if args.formats.is_empty() {
        vec![FixtureFormat::Json, FixtureFormat::Yaml, FixtureFormat::Pb]
    } else {
        let mut formats = args.formats.clone();
        formats.sort();
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

    let mut table: BTreeMap<FixtureFormat, Counts> = BTreeMap::new();
    for (stem, files) in &stems {
        let Some(gvk) = gvk_from_file_stem(stem) else {
            continue;
        };
        let present: Vec<FixtureFormat> = formats
            .iter()
            .copied()
            .filter(|f| files.fixtures.contains(f))
            .collect();
        if present.is_empty() {
            continue;
        }
        match disposition(&gvk, scheme.recognizes(&gvk)) {
            Disposition::Skip => {
                writeln!(
                    out,
                    "SKIP {stem}: {gvk} is not a kind of Kubernetes {} ({} file{})",
                    k8s_types::RELEASE,
                    present.len(),
                    if present.len() == 1 { "" } else { "s" }
                )?;
                for format in present {
                    table.entry(format).or_default().skipped += 1;
                }
            }
            Disposition::Unregistered => {
                for format in present {
                    table.entry(format).or_default().failed += 1;
                    let problem = Problem::Unregistered { gvk: gvk.clone() };
                    writeln!(out, "FAIL {stem}.{}: {problem}", format.extension())?;
                }
            }
            Disposition::Check => {
                let reference = files
                    .fixtures
                    .contains(&FixtureFormat::Json)
                    .then(|| decode_file(&codecs, &args.dir, stem, &gvk, FixtureFormat::Json).ok())
                    .flatten();
                for format in present {
                    let after = files.after_roundtrip.contains(&format);
                    let fixture = Fixture {
                        dir: &args.dir,
                        stem,
                        gvk: &gvk,
                        format,
                        after,
                    };
                    let result = check_file(&codecs, &fixture, reference.as_ref());
                    let counts = table.entry(format).or_default();
                    match result {
                        Ok(()) => counts.passed += 1,
                        Err(problem) => {
                            counts.failed += 1;
                            writeln!(out, "FAIL {stem}.{}: {problem}", format.extension())?;
                        }
                    }
                }
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "format   passed   failed   skipped")?;
    let mut total = Counts::default();
    for format in &formats {
        let c = table.get(format).copied().unwrap_or_default();
        writeln!(
            out,
            "{:<8} {:>6}   {:>6}   {:>7}",
            format.extension(),
            c.passed,
            c.failed,
            c.skipped
        )?;
        total.passed += c.passed;
        total.failed += c.failed;
        total.skipped += c.skipped;
    }
    writeln!(out)?;
    write!(out, "{} passed, {} failed", total.passed, total.failed)?;
    if total.skipped > 0 {
        write!(out, ", {} skipped", total.skipped)?;
    }
    writeln!(out)?;
    Ok(if total.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Fixture stems with their files, sorted; a stem with only after-roundtrip files is
/// listed with no fixtures (Go never reads those files).
fn fixture_stems(dir: &Path) -> Result<BTreeMap<String, StemFiles>, CommandError> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut stems: BTreeMap<String, StemFiles> = BTreeMap::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((stem, format, after)) = parse_file_name(&name) else {
            continue;
        };
        let files = stems.entry(stem.to_owned()).or_default();
        if after {
            files.after_roundtrip.insert(format);
        } else {
            files.fixtures.insert(format);
        }
    }
    stems.retain(|_, files| !files.fixtures.is_empty());
    Ok(stems)
}

fn file_name(stem: &str, after: bool, format: FixtureFormat) -> String {
    let marker = if after { AFTER_ROUNDTRIP } else { "" };
    format!("{stem}{marker}.{}", format.extension())
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>, Problem> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| Problem::Read { path, source })
}

/// Decodes a fixture into its registered type; the kind comes from the bytes, or from
/// the file name for kinds Go writes without `TypeMeta` (`WatchEvent`).
fn decode_file(
    codecs: &Codecs<'_>,
    dir: &Path,
    stem: &str,
    named: &GroupVersionKind,
    format: FixtureFormat,
) -> Result<(Vec<u8>, Box<dyn Object>), Problem> {
    let bytes = read(dir, &file_name(stem, false, format))?;
    let (object, decoded) = codecs
        .decoder(format)
        .decode(&bytes, Some(named), None)
        .map_err(Problem::Decode)?;
    if decoded != *named {
        return Err(Problem::OtherKind {
            decoded: Box::new(decoded),
            named: Box::new(named.clone()),
        });
    }
    Ok((bytes, object))
}

/// The bytes re-encoding `<stem>.<ext>` must give: `original`, or the after-roundtrip
/// file's when there is one (`after`), named.
fn expected_bytes(
    dir: &Path,
    stem: &str,
    format: FixtureFormat,
    original: Vec<u8>,
    after: bool,
) -> Result<(Vec<u8>, Option<String>), Problem> {
    if !after {
        return Ok((original, None));
    }
    let name = file_name(stem, true, format);
    let bytes = read(dir, &name)?;
    if bytes == original {
        return Err(Problem::IdenticalAfterRoundtrip {
            after: name,
            fixture: file_name(stem, false, format),
        });
    }
    Ok((bytes, Some(name)))
}

/// One fixture file to check.
struct Fixture<'a> {
    dir: &'a Path,
    stem: &'a str,
    /// The kind its name says.
    gvk: &'a GroupVersionKind,
    format: FixtureFormat,
    /// `<stem>.after_roundtrip.<ext>` exists.
    after: bool,
}

fn check_file(
    codecs: &Codecs<'_>,
    fixture: &Fixture<'_>,
    reference: Option<&(Vec<u8>, Box<dyn Object>)>,
) -> Result<(), Problem> {
    let &Fixture {
        dir,
        stem,
        gvk,
        format,
        after,
    } = fixture;
    let (bytes, object) = decode_file(codecs, dir, stem, gvk, format)?;
    if format != FixtureFormat::Json {
        if let Some((_, json_object)) = reference {
            let reference = file_name(stem, false, FixtureFormat::Json);
            let compare = |source| Problem::Compare {
                reference: reference.clone(),
                source,
            };
            let ours = serde_json::to_value(object.as_ref()).map_err(compare)?;
            let theirs = serde_json::to_value(json_object.as_ref()).map_err(compare)?;
            if let Some(path) = first_value_difference(&theirs, &ours, String::new()) {
                return Err(Problem::OtherObject { reference, path });
            }
        }
    }
    let (expected, against) = expected_bytes(dir, stem, format, bytes, after)?;
    let encoded = codecs
        .encoder(format)
        .encode_to_vec(object.as_ref())
        .map_err(Problem::Encode)?;
    if encoded != expected {
        return Err(Problem::Bytes {
            against,
            at: first_byte_difference(&expected, &encoded, format),
        });
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

/// Where re-encoded bytes first differ (`at line 2, column 4 (byte 8): expected ..., got
/// ...`): the byte offset, and for text the line and column with both lines.
fn first_byte_difference(expected: &[u8], actual: &[u8], format: FixtureFormat) -> String {
    let offset = expected
        .iter()
        .zip(actual)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    if format == FixtureFormat::Pb {
        return format!(
            "from byte {offset} (expected {} bytes, got {})",
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
        "at line {line_no}, column {column} (byte {offset}): expected {:?}, got {:?}",
        line_of(expected),
        line_of(actual)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    /// A directory of fixtures for one test, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(test: &str, files: &[(&str, &str)]) -> std::io::Result<Self> {
            let dir = std::env::temp_dir().join(format!(
                "kapi-conformance-unit-{test}-{}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir)?;
            for (name, text) in files {
                std::fs::write(dir.join(name), text)?;
            }
            Ok(TempDir(dir))
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Runs `kapi conformance` on `dir`: the exit code and the output.
    fn conformance(
        dir: &Path,
        formats: &[FixtureFormat],
    ) -> Result<(ExitCode, String), Box<dyn std::error::Error>> {
        let args = ConformanceArgs {
            dir: dir.to_path_buf(),
            formats: formats.to_vec(),
        };
        let mut out = Vec::new();
        let code = run(&args, &mut out)?;
        Ok((code, String::from_utf8(out)?))
    }

    /// A ConfigMap as Go's JSON and YAML serializers write it.
    const CONFIG_MAP_JSON: &str = "{\n  \"kind\": \"ConfigMap\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {\n    \"name\": \"a\"\n  }\n}";
    const CONFIG_MAP_YAML: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n";
    /// The same ConfigMap as an older release wrote it, with a field the current type no
    /// longer has (so that re-encoding drops it).
    const OLD_CONFIG_MAP_JSON: &str = "{\n  \"kind\": \"ConfigMap\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {\n    \"name\": \"a\"\n  },\n  \"removedField\": \"gone\"\n}";
    const OLD_CONFIG_MAP_YAML: &str =
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nremovedField: gone\n";

    #[test]
    fn after_roundtrip_files_belong_to_their_fixture() {
        assert_eq!(
            parse_file_name("apps.v1.Deployment.json"),
            Some(("apps.v1.Deployment", FixtureFormat::Json, false))
        );
        assert_eq!(
            parse_file_name("apps.v1.Deployment.after_roundtrip.pb"),
            Some(("apps.v1.Deployment", FixtureFormat::Pb, true))
        );
        assert_eq!(
            parse_file_name("core.v1.Pod.after_roundtrip.yaml"),
            Some(("core.v1.Pod", FixtureFormat::Yaml, true))
        );
        assert_eq!(parse_file_name("apps.v1.Deployment.txt"), None);
        assert_eq!(parse_file_name("README.json"), None);
    }

    #[test]
    fn a_directory_lists_each_stem_once_with_its_after_roundtrip_formats() -> TestResult {
        let dir = TempDir::new(
            "stems",
            &[
                ("apps.v1.Deployment.json", "{}"),
                ("apps.v1.Deployment.yaml", ""),
                ("apps.v1.Deployment.after_roundtrip.json", "{}"),
                // An after-roundtrip file without its fixture is never read, as in Go.
                ("core.v1.Pod.after_roundtrip.yaml", ""),
                ("notes.txt", ""),
            ],
        )?;
        let stems = fixture_stems(&dir.0)?;
        let expected = StemFiles {
            fixtures: BTreeSet::from([FixtureFormat::Json, FixtureFormat::Yaml]),
            after_roundtrip: BTreeSet::from([FixtureFormat::Json]),
        };
        assert_eq!(
            stems.into_iter().collect::<Vec<_>>(),
            [("apps.v1.Deployment".to_owned(), expected)]
        );
        Ok(())
    }

    #[test]
    fn kinds_the_scheme_lacks_are_skipped_only_when_kubernetes_lacks_them() {
        let gvk = |g: &str, v: &str, k: &str| GroupVersionKind::new(g, v, k);
        let deployment = gvk("apps", "v1", "Deployment");
        assert_eq!(disposition(&deployment, true), Disposition::Check);
        assert_eq!(disposition(&deployment, false), Disposition::Unregistered);
        for gone in [
            gvk("autoscaling", "v2beta1", "HorizontalPodAutoscaler"),
            gvk("scheduling.k8s.io", "v1alpha1", "PriorityClass"),
            gvk("example.com", "v1", "Widget"),
            // A meta kind in a group version the release does not have.
            gvk("autoscaling", "v2beta1", "DeleteOptions"),
        ] {
            assert_eq!(disposition(&gone, false), Disposition::Skip, "{gone}");
            // A kind the Scheme registers is checked, whatever the release says.
            assert_eq!(disposition(&gone, true), Disposition::Check, "{gone}");
        }
        // Meta's options kinds are registered in every group version Go has.
        assert_eq!(
            disposition(&gvk("apps", "v1", "DeleteOptions"), false),
            Disposition::Unregistered
        );
        assert_eq!(
            disposition(&gvk("", "v1", "WatchEvent"), false),
            Disposition::Unregistered
        );
    }

    #[test]
    fn the_expected_bytes_are_the_after_roundtrip_file_when_there_is_one() -> TestResult {
        let dir = TempDir::new(
            "expected",
            &[
                ("core.v1.ConfigMap.after_roundtrip.json", CONFIG_MAP_JSON),
                (
                    "core.v1.ConfigMap.after_roundtrip.yaml",
                    OLD_CONFIG_MAP_YAML,
                ),
            ],
        )?;
        let old = OLD_CONFIG_MAP_JSON.as_bytes().to_vec();
        let stem = "core.v1.ConfigMap";
        let (bytes, against) =
            expected_bytes(&dir.0, stem, FixtureFormat::Json, old.clone(), false)?;
        assert_eq!((bytes, against), (old.clone(), None));
        let (bytes, against) = expected_bytes(&dir.0, stem, FixtureFormat::Json, old, true)?;
        assert_eq!(bytes, CONFIG_MAP_JSON.as_bytes());
        assert_eq!(
            against.as_deref(),
            Some("core.v1.ConfigMap.after_roundtrip.json")
        );
        // An after-roundtrip file equal to its fixture says nothing: Go fails it.
        let result = expected_bytes(
            &dir.0,
            stem,
            FixtureFormat::Yaml,
            OLD_CONFIG_MAP_YAML.as_bytes().to_vec(),
            true,
        );
        assert!(
            matches!(&result, Err(Problem::IdenticalAfterRoundtrip { after, .. }) if after == "core.v1.ConfigMap.after_roundtrip.yaml"),
            "{result:?}"
        );
        let result = expected_bytes(&dir.0, stem, FixtureFormat::Pb, Vec::new(), true);
        assert!(matches!(result, Err(Problem::Read { .. })), "{result:?}");
        Ok(())
    }

    #[test]
    fn an_older_release_passes_through_its_after_roundtrip_files() -> TestResult {
        let dir = TempDir::new(
            "previous",
            &[
                ("core.v1.ConfigMap.json", OLD_CONFIG_MAP_JSON),
                ("core.v1.ConfigMap.after_roundtrip.json", CONFIG_MAP_JSON),
                ("core.v1.ConfigMap.yaml", OLD_CONFIG_MAP_YAML),
                ("core.v1.ConfigMap.after_roundtrip.yaml", CONFIG_MAP_YAML),
                // Never read: the release has no such kind.
                (
                    "autoscaling.v2beta1.HorizontalPodAutoscaler.json",
                    "not JSON",
                ),
                (
                    "autoscaling.v2beta1.HorizontalPodAutoscaler.yaml",
                    "not: [YAML",
                ),
            ],
        )?;
        let (code, out) = conformance(&dir.0, &[])?;
        assert_eq!(code, ExitCode::SUCCESS, "{out}");
        assert_eq!(
            out,
            format!(
                "SKIP autoscaling.v2beta1.HorizontalPodAutoscaler: autoscaling/v2beta1, Kind=HorizontalPodAutoscaler is not a kind of Kubernetes {} (2 files)\n\nformat   passed   failed   skipped\njson          1        0         1\nyaml          1        0         1\npb            0        0         0\n\n2 passed, 0 failed, 2 skipped\n",
                k8s_types::RELEASE
            )
        );
        // `--format` counts only the formats asked for.
        let (_, out) = conformance(&dir.0, &[FixtureFormat::Yaml])?;
        assert!(out.ends_with("\n1 passed, 0 failed, 1 skipped\n"), "{out}");

        // Without the after-roundtrip file the old bytes are expected, and they are not
        // what the current type writes.
        std::fs::remove_file(dir.0.join("core.v1.ConfigMap.after_roundtrip.json"))?;
        let (code, out) = conformance(&dir.0, &[])?;
        assert_eq!(code, ExitCode::FAILURE, "{out}");
        assert!(
            out.contains(
                "\nFAIL core.v1.ConfigMap.json: re-encodes differently at line 6, column 4 (byte 82): expected \"  },\", got \"  }\"\n"
            ),
            "{out}"
        );
        assert!(out.ends_with("\n1 passed, 1 failed, 2 skipped\n"), "{out}");

        // An after-roundtrip file that is not what re-encoding gives names itself.
        std::fs::write(
            dir.0.join("core.v1.ConfigMap.after_roundtrip.yaml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
        )?;
        let (_, out) = conformance(&dir.0, &[FixtureFormat::Yaml])?;
        assert!(
            out.contains("\nFAIL core.v1.ConfigMap.yaml: re-encodes differently than core.v1.ConfigMap.after_roundtrip.yaml at line 4, column 9"),
            "{out}"
        );
        Ok(())
    }

    #[test]
    fn a_directory_of_the_current_release_has_no_skipped_count() -> TestResult {
        let dir = TempDir::new(
            "current",
            &[
                ("core.v1.ConfigMap.json", CONFIG_MAP_JSON),
                ("core.v1.ConfigMap.yaml", CONFIG_MAP_YAML),
            ],
        )?;
        let (code, out) = conformance(&dir.0, &[])?;
        assert_eq!(code, ExitCode::SUCCESS, "{out}");
        assert!(out.ends_with("\n2 passed, 0 failed\n"), "{out}");
        Ok(())
    }

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
