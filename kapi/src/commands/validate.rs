//! `kapi validate`: strict decoding of every document, as the API server's strict field
//! validation does: every unknown and duplicate field is reported with its file, document
//! index and JSON path; so is every document that does not decode at all. Protobuf
//! objects (`.pb`) are checked to decode. Every object that decodes is then defaulted and
//! checked with kube-apiserver's built-in validation of its kind (Go's messages, see
//! `k8s_types::validation`), at the first version of its kind that has a validator (an
//! `extensions/v1beta1` Deployment is checked as `apps/v1`).
//!
//! Custom resources (kinds of groups that are not built in) cannot be checked without
//! their schema: each is reported as not checked, on one line naming its file, document
//! and kind, and does not fail the run.

use std::io::Write;
use std::process::ExitCode;

use apimachinery::runtime::{Object, ResourceScope, Scheme, SchemeErrorKind};
use apimachinery::schema::GroupVersionKind;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{DecodeError, DecodeErrorKind, Format, decode_stream, recognize};
use apimachinery::util::validation::field::ErrorList;

use super::CommandError;
use super::inputs::read_inputs;
use crate::cli::ValidateArgs;
use crate::scheme::{is_custom_resource, scheme};

pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let strict = |yaml| {
        JsonSerializer::new(
            &scheme,
            SerializerOptions {
                yaml,
                pretty: false,
                strict: true,
            },
        )
    };
    let (json, yaml) = (strict(false), strict(true));
    // Lines for standard error, in input order: problems, and custom resources not
    // checked.
    let (inputs, mut lines) = read_inputs(&args.filenames, args.recursive);
    let unreadable = lines.len();
    let (mut valid, mut invalid, mut unchecked) = (0usize, 0usize, 0usize);
    for input in &inputs {
        let decoder = match recognize(&input.bytes) {
            Format::Json => &json,
            Format::Yaml => &yaml,
            // Protobuf has no unknown fields to report (Go skips them): the object
            // only has to decode.
            Format::Protobuf => {
                match apimachinery::serializer::protobuf::decode_object(&scheme, &input.bytes, None)
                {
                    Ok((obj, gvk)) => {
                        let errs = semantic_errors(&scheme, obj, &gvk);
                        if errs.is_empty() {
                            valid += 1;
                        } else {
                            invalid += 1;
                            for e in errs.iter() {
                                lines.push(format!("{}: document 0 ({gvk}): {e}", input.name));
                            }
                        }
                    }
                    Err(e) => {
                        invalid += 1;
                        lines.push(format!("{}: document 0: {e}", input.name));
                    }
                }
                continue;
            }
        };
        for (position, result) in decode_stream(decoder, &input.bytes, None).enumerate() {
            let e = match result {
                Ok((obj, gvk)) => {
                    let errs = semantic_errors(&scheme, obj, &gvk);
                    if errs.is_empty() {
                        valid += 1;
                    } else {
                        invalid += 1;
                        for err in errs.iter() {
                            lines.push(format!(
                                "{}: document {position} ({gvk}): {err}",
                                input.name
                            ));
                        }
                    }
                    continue;
                }
                Err(e) => e,
            };
            let document = e.document().unwrap_or(position);
            if let Some(gvk) = custom_resource(&scheme, &e) {
                unchecked += 1;
                lines.push(format!(
                    "{}: document {document} ({gvk}): not checked: not a built-in kind",
                    input.name
                ));
                continue;
            }
            invalid += 1;
            match e.as_strict() {
                Some(strict) => {
                    for field in strict.errors() {
                        lines.push(format!(
                            "{}: document {document} ({}): {field}",
                            input.name,
                            strict.gvk()
                        ));
                    }
                }
                None => lines.push(format!("{}: document {document}: {}", input.name, e.kind())),
            }
        }
    }
    for line in &lines {
        eprintln!("{line}");
    }
    write!(out, "{valid} valid, {invalid} invalid")?;
    if unchecked > 0 {
        write!(out, ", {unchecked} not checked")?;
    }
    writeln!(out)?;
    Ok(if unreadable == 0 && invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The built-in validation errors of `obj` (of kind `gvk`), defaulted as the server
/// defaults it, judged as Go judges it: in its internal version, by its kind's validator
/// (empty when the kind has none).
fn semantic_errors(scheme: &Scheme, mut obj: Box<dyn Object>, gvk: &GroupVersionKind) -> ErrorList {
    scheme.default(&mut *obj);
    // A manifest leaves the namespace to kubectl, which sends its context's: validate
    // a namespaced object as if it were in `default`.
    let namespaced = scheme
        .resource_metadata(gvk)
        .is_some_and(|r| matches!(r.scope, ResourceScope::Namespaced));
    if let Some(meta) = obj.meta_mut() {
        if namespaced && meta.namespace().is_empty() {
            meta.set_namespace("default");
        }
        // The server generates a name from generateName before it validates (five
        // random characters of Go's alphabet): judge the name it would make.
        if meta.name().is_empty() && !meta.generate_name().is_empty() {
            let name = format!("{}xxxxx", meta.generate_name());
            meta.set_name(&name);
        }
    }
    // Go's Service storage fills `clusterIPs` from a lone `clusterIP` on create, for
    // clients that know only the singular field (`normalizeClusterIPs`), before it
    // validates; Go's validation then requires the two to agree. A manifest with
    // `clusterIP: None` alone (a headless Service) is accepted by the server, so here.
    if let Some(svc) = obj.downcast_mut::<k8s_types::core::v1::Service>() {
        let spec = &mut svc.spec;
        if !spec.cluster_ip.is_empty() && spec.cluster_ips.is_empty() {
            spec.cluster_ips = vec![spec.cluster_ip.clone()];
        }
    }
    scheme.validate(&*obj, None).unwrap_or_default()
}

/// The kind of a document that did not decode because it is a custom resource.
fn custom_resource<'e>(scheme: &Scheme, e: &'e DecodeError) -> Option<&'e GroupVersionKind> {
    match e.kind() {
        DecodeErrorKind::Scheme(scheme_error) => match scheme_error.kind() {
            SchemeErrorKind::NotRegisteredKind { gvk, .. } => {
                is_custom_resource(scheme, gvk).then_some(gvk)
            }
            _ => None,
        },
        _ => None,
    }
}
