//! serde's `Serialize` and `Deserialize`, the scheme's decode `ReadJson` and encode
//! `WriteJson`, shared by `#[derive(ApiObject)]` and `#[derive(ApiKind)]` (with `kind`
//! and `apiVersion`) and
//! `#[derive(ApiType)]` (structs nested in objects).
//!
//! The expansion is kept small on purpose: a generated crate has a thousand such types.
//! The codecs are `ReadJson` and `WriteJson`, one function per struct each (object keys
//! looked up in a `static` table of names per struct, `FieldNames`); serde's impls are
//! one line each, handing the work to them, so that no serde code is compiled per struct.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::{api_version, kind_name, type_meta_field};
use crate::model::{Container, Field, Role, generic_arg};

/// What the struct is on the wire.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// An API object: `kind` and `apiVersion` first, from its `TypeMeta` or its kind.
    Object,
    /// A struct inside objects: its fields only.
    Type,
}

/// The fields written and read by name: every field but an object's `TypeMeta`.
fn wire_fields(c: &Container, shape: Shape) -> Vec<&Field> {
    c.fields
        .iter()
        .filter(|f| shape == Shape::Type || !matches!(f.role, Role::TypeMeta))
        .collect()
}

/// The `kind` and `apiVersion` an object writes: its `TypeMeta`'s when set, else the
/// declared ones as literals, so that the serde and `WriteJson` code needs no `Resource`
/// impl and `#[derive(ApiKind)]` shares it.
fn written_type_meta(c: &Container) -> (TokenStream, TokenStream) {
    let kind_name = kind_name(c);
    let api_version_name = api_version(c);
    match type_meta_field(c) {
        Some(f) => {
            let name = &f.ident;
            (
                quote! {
                    if self.#name.kind.is_empty() { #kind_name } else { self.#name.kind.as_str() }
                },
                quote! {
                    if self.#name.api_version.is_empty() { #api_version_name } else { self.#name.api_version.as_str() }
                },
            )
        }
        None => (quote!(#kind_name), quote!(#api_version_name)),
    }
}

/// `#[inline]` on the non-generic codec methods when the container asks for it
/// (`#[api(inline)]`): rustc then compiles them only in crates that call them, as it does
/// a generic impl, instead of once in the defining crate whether or not anything calls
/// them. For a crate of a thousand types whose users each touch a few (k8s-types without
/// its Scheme), that is most of its machine code.
fn inline(c: &Container) -> TokenStream {
    if c.attrs.inline.is_some() {
        quote!(#[inline])
    } else {
        TokenStream::new()
    }
}

/// serde's `Serialize`, handed to the type's `WriteJson` (`serialize_by_write_json`
/// replays its text into the serializer): one line per type, where a field-by-field
/// `serialize` per struct, instantiated for every serializer, was a fifth of a generated
/// crate's front end.
pub fn expand_serialize(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    quote! {
        impl #serde::Serialize for #ident {
            fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #krate::util::json::serialize_by_write_json(self, serializer)
            }
        }
    }
}

/// `WriteJson`, the encode every object's `encode_json` uses (and the derived
/// `Serialize`), as one function per struct whose fields
/// are one non-generic call each (`StructWriter::field`, the value behind `&dyn`; the
/// first error is returned by `end`). A field whose type has no `WriteJson` is written
/// through its serde `Serialize` (autoref specialization, see `WriteField`).
pub fn expand_write_json(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let ident = &c.ident;
    let json = quote!(#krate::util::json);
    let fields = wire_fields(c, shape);
    let no_type_meta = shape == Shape::Type || c.attrs.no_type_meta.is_some();
    let (kind_prefix, api_version_prefix) = (key_prefix("kind"), key_prefix("apiVersion"));
    let type_meta_writes = if no_type_meta {
        TokenStream::new()
    } else if let (Some(f), Some(_)) = (type_meta_field(c), c.attrs.omit_empty_type_meta) {
        let name = &f.ident;
        quote! {
            if !self.#name.kind.is_empty() {
                fields.quoted_field(#kind_prefix, &self.#name.kind);
            }
            if !self.#name.api_version.is_empty() {
                fields.quoted_field(#api_version_prefix, &self.#name.api_version);
            }
        }
    } else {
        let (kind, api_version) = written_type_meta(c);
        quote! {
            let kind: &str = #kind;
            fields.quoted_field(#kind_prefix, &kind);
            let api_version: &str = #api_version;
            fields.quoted_field(#api_version_prefix, &api_version);
        }
    };
    let writes = fields.iter().map(|f| {
        let name = &f.ident;
        let key = key_prefix(&f.json_name);
        let ty = &f.ty;
        if f.skip_serializing_if.is_none()
            && f.nullable.is_none()
            && let Some(inner) = generic_arg(ty, "Option")
        {
            return quote! {
                if let ::core::option::Option::Some(value) = &self.#name {
                    (&&#json::WriteField::<#inner>::new()).write_field(&mut fields, #key, value);
                }
            };
        }
        let write = quote! {
            (&&#json::WriteField::<#ty>::new()).write_field(&mut fields, #key, &self.#name);
        };
        match &f.skip_serializing_if {
            Some(skip) => quote! {
                if !#skip(&self.#name) {
                    #write
                }
            },
            None => write,
        }
    });
    let inline = inline(c);
    quote! {
        impl #json::WriteJson for #ident {
            #inline
            fn write_json(
                &self,
                writer: &mut #json::GoJsonWriter<'_>,
            ) -> ::core::result::Result<(), #krate::__private::serde_json::Error> {
                #[allow(unused_imports)]
                use #json::{WriteFieldBySerde as _, WriteFieldDirect as _};
                let mut fields = writer.begin_struct();
                #type_meta_writes
                #(#writes)*
                fields.end()
            }
        }
    }
}

/// What goes before a field's value in compact JSON, computed here once as Go's encoder
/// computes it once per field: the comma, the key quoted and escaped as Go escapes
/// strings (HTML characters and U+2028/U+2029 included), and the colon (`,"name":`).
/// `StructWriter::quoted_field` writes it as it is.
fn key_prefix(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    out.push_str(",\"");
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push_str("\":");
    out
}

/// The key lookup both decodes share (`Deserialize` and `ReadJson`), one `static` per
/// struct beside them: the JSON names with their field indexes, in the layout
/// `apimachinery::__private::FieldNames::new` documents (entries sorted by name length,
/// each the name and its index as two little-endian bytes; the offset of each length's
/// first entry). An object's `kind` and `apiVersion` are 0 and 1, its fields from 2.
/// Data rather than a `match` per struct: the one lookup function is compiled once.
pub fn expand_field_index(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let fields = wire_fields(c, shape);
    let mut names: Vec<&str> = match shape {
        Shape::Object => vec!["kind", "apiVersion"],
        Shape::Type => Vec::new(),
    };
    names.extend(fields.iter().map(|f| f.json_name.as_str()));
    let (table, by_len) = match field_table(&names) {
        Ok(built) => built,
        Err(message) => return syn::Error::new(c.ident.span(), message).into_compile_error(),
    };
    let table = proc_macro2::Literal::byte_string(&table);
    quote! {
        static __FIELD_NAMES: #krate::__private::FieldNames =
            #krate::__private::FieldNames::new(#table, &[#(#by_len),*]);
    }
}

/// The table and length offsets of `FieldNames` for `names` (field index = position).
/// The sort is stable, so that among names of one length the first declared comes first.
fn field_table(names: &[&str]) -> Result<(Vec<u8>, Vec<u16>), String> {
    let too_large = || {
        format!(
            "{} JSON field names are more than a struct's key table holds",
            names.len()
        )
    };
    let mut entries: Vec<(usize, &str)> = names.iter().copied().enumerate().collect();
    entries.sort_by_key(|(_, name)| name.len());
    let longest = entries.last().map_or(0, |(_, name)| name.len());
    let mut table = Vec::new();
    let mut by_len = Vec::with_capacity(longest + 2);
    let mut next = entries.iter().peekable();
    for len in 0..=longest + 1 {
        by_len.push(u16::try_from(table.len()).map_err(|_| too_large())?);
        while let Some((index, name)) = next.next_if(|(_, name)| name.len() == len) {
            let index = u16::try_from(*index).map_err(|_| too_large())?;
            table.extend_from_slice(name.as_bytes());
            table.extend_from_slice(&index.to_le_bytes());
        }
    }
    Ok((table, by_len))
}

/// serde's `Deserialize`, handed to the type's `ReadJson` (`deserialize_by_read_json`
/// reads other deserializers' values as JSON text; this crate's reader hands itself
/// over): one line per type, for the same reason as `expand_serialize`.
pub fn expand_deserialize(c: &Container, krate: &TokenStream) -> TokenStream {
    let ident = &c.ident;
    let serde = quote!(#krate::__private::serde);
    quote! {
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #krate::runtime::json_reader::deserialize_by_read_json(deserializer)
            }
        }
    }
}

/// `ReadJson`, the decode the scheme uses: one function per struct, which hands the
/// reader's non-generic object loop a key lookup and the struct itself, whose
/// `ReadFields` reads the field at an index (no visitor, no per-type instantiation of
/// the reader's generic methods); the derived `Deserialize` reads through it too:
/// `null` for a field that is not an `Option` reads as its zero value,
/// unknown keys are skipped, a repeated key overwrites, and an object's `kind` and
/// `apiVersion` go to its `TypeMeta` (or are skipped like any unknown key when it has
/// none).
pub fn expand_read_json(c: &Container, krate: &TokenStream, shape: Shape) -> TokenStream {
    let ident = &c.ident;
    let reader = quote!(#krate::runtime::json_reader);
    let type_meta = match shape {
        Shape::Object => type_meta_field(c).map(|f| &f.ident),
        Shape::Type => None,
    };
    let fields = wire_fields(c, shape);
    let first = match shape {
        Shape::Object => 2,
        Shape::Type => 0,
    };
    let indexes: Vec<usize> = (first..first + fields.len()).collect();
    let reads = fields.iter().zip(&indexes).map(|(f, i)| {
        let name = &f.ident;
        let ty = &f.ty;
        // Through the type's `ReadJson`, or its serde `Deserialize` when it has none
        // (autoref specialization, see `FieldType`).
        if generic_arg(ty, "Option").is_some() {
            quote!(#i => (&&#reader::FieldType::<#ty>::new()).read_field(&mut out.#name, value),)
        } else {
            quote!(#i => (&&#reader::FieldType::<#ty>::new()).read_or_default(&mut out.#name, value),)
        }
    });
    let type_meta_reads = match (shape, type_meta) {
        (Shape::Object, Some(tm)) => quote! {
            0 => (&&#reader::FieldType::<::std::string::String>::new()).read_or_default(&mut out.#tm.kind, value),
            1 => (&&#reader::FieldType::<::std::string::String>::new()).read_or_default(&mut out.#tm.api_version, value),
        },
        // Without a `TypeMeta`, skipped like any key the struct does not have.
        (Shape::Object, None) => quote! {
            0 | 1 => value.skip_unknown(),
        },
        (Shape::Type, _) => TokenStream::new(),
    };
    let (expecting, struct_like) = match shape {
        Shape::Object => (format!("a {ident} object"), false),
        Shape::Type => (format!("struct {ident}"), true),
    };
    let inline = inline(c);
    // Without `inline`, the one body is out of line: the field reads of `Option<Self>` and
    // `Self` fields, the elements of `Vec<Self>` and the scheme's boxed read all call it,
    // and inlined it was copied (with the struct's `Default`) into each.
    let body_inline = if c.attrs.inline.is_some() {
        quote!(#[inline])
    } else {
        quote!(#[inline(never)])
    };
    quote! {
        impl #reader::ReadFields for #ident {
            #[allow(unused_variables)]
            #inline
            fn read_field_at(&mut self, index: usize, value: #reader::ValueReader<'_, '_, '_>) -> ::core::result::Result<(), #reader::Error> {
                #[allow(unused_imports)]
                use #reader::{ReadFieldBySerde as _, ReadFieldDirect as _};
                let out = self;
                match index {
                    #type_meta_reads
                    #(#reads)*
                    _ => ::core::result::Result::Ok(()),
                }
            }
        }

        impl #reader::ReadJson for #ident {
            #inline
            fn read_json(value: #reader::ValueReader<'_, '_, '_>) -> ::core::result::Result<Self, #reader::Error> {
                <Self as #reader::ReadJson>::read_json_nullable(value, false)
            }

            #body_inline
            fn read_json_nullable(
                value: #reader::ValueReader<'_, '_, '_>,
                null_is_default: bool,
            ) -> ::core::result::Result<Self, #reader::Error> {
                let mut out = <Self as ::core::default::Default>::default();
                match value.read_struct(#expecting, #struct_like, null_is_default, &__FIELD_NAMES, &mut out) {
                    ::core::result::Result::Ok(()) => ::core::result::Result::Ok(out),
                    ::core::result::Result::Err(e) => ::core::result::Result::Err(e),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{field_table, key_prefix};

    #[test]
    fn key_prefixes_are_quoted_and_escaped_as_go_writes_strings() {
        assert_eq!(key_prefix("apiVersion"), r#","apiVersion":"#);
        assert_eq!(key_prefix(""), r#","":"#);
        assert_eq!(
            key_prefix("a\"b\\c<d>e&f\u{2028}\u{2029}\n\r\t\u{8}\u{c}\u{1}é…"),
            r#","a\"b\\c\u003cd\u003ee\u0026f\u2028\u2029\n\r\t\b\f\u0001é…":"#
        );
    }

    #[test]
    fn the_key_table_groups_names_by_length_in_declaration_order() {
        let (table, by_len) = field_table(&["kind", "apiVersion", "spec", "a", "dd"]).unwrap();
        assert_eq!(
            table,
            b"a\x03\x00dd\x04\x00kind\x00\x00spec\x02\x00apiVersion\x01\x00"
        );
        assert_eq!(by_len, [0, 0, 3, 7, 7, 19, 19, 19, 19, 19, 19, 31]);
    }

    #[test]
    fn no_names_make_an_empty_table() {
        assert_eq!(field_table(&[]).unwrap(), (Vec::new(), vec![0, 0]));
    }
}
