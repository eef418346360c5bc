//! gnostic's `openapi_v3` messages (`OpenAPIv3.proto`) as tables: for each message read
//! from a mapping, the keys the generated `New<Message>` function (`OpenAPIv3.go`)
//! requires and allows, and which key fills which field, by field number.

/// Which keys of a mapping a field reads.
#[derive(Debug, Clone, Copy)]
pub(super) enum Key {
    /// The value of this key.
    Name(&'static str),
    /// Every key with this prefix, in document order (`x-` for the specification
    /// extensions, `/` for paths), as a repeated `Named<Message>`.
    Prefix(&'static str),
    /// Every key (a callback's expressions).
    Every,
    /// Keys matching `^([0-9X]{3})$` (response codes).
    ResponseCode,
}

impl Key {
    /// Whether the key `key` is one this field reads.
    pub fn matches(self, key: &str) -> bool {
        match self {
            Key::Name(name) => key == name,
            Key::Prefix(prefix) => key.starts_with(prefix),
            Key::Every => true,
            Key::ResponseCode => {
                key.len() == 3 && key.bytes().all(|b| b.is_ascii_digit() || b == b'X')
            }
        }
    }
}

/// What a field holds.
#[derive(Debug, Clone, Copy)]
pub(super) enum Value {
    /// `string`, read by `StringForScalarNode`.
    Str,
    /// `bool`, read by `BoolForScalarNode`.
    Bool,
    /// `double`, read by `FloatForScalarNode`.
    Float,
    /// `int64`, read by `IntForScalarNode`.
    Int,
    /// `repeated string`: a sequence (anything else is an error), its string items.
    Strings,
    /// A message.
    Message(Msg),
    /// `repeated` messages from a sequence (anything else is left out).
    Repeated(Msg),
}

/// One field of an object message: its number, the keys it reads and its value.
pub(super) type Field = (u32, Key, Value);

/// The specification extensions field of most messages.
const fn ext(number: u32) -> Field {
    (number, Key::Prefix("x-"), Value::Message(Msg::Any))
}

/// A message read from a mapping with known keys.
pub(super) struct Object {
    /// Keys that must be there.
    pub required: &'static [&'static str],
    /// The keys allowed besides `patterns`, separated by spaces; `None`: no check (a
    /// reference).
    pub allowed: Option<&'static str>,
    /// Key patterns allowed.
    pub patterns: &'static [Key],
    /// The fields, by number.
    pub fields: &'static [Field],
}

/// The specification extensions: the one key pattern of most messages.
const X: &[Key] = &[Key::Prefix("x-")];

/// Every message of `OpenAPIv3.proto` a document reaches: first those read from a
/// mapping's keys (named as in the proto, each with its table in [`Msg::object`]), then
/// those read otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Msg {
    Document,
    Info,
    Contact,
    License,
    Server,
    ServerVariable,
    Components,
    Paths,
    PathItem,
    Operation,
    ExternalDocs,
    Parameter,
    Header,
    RequestBody,
    MediaType,
    Encoding,
    Responses,
    Response,
    Callback,
    Example,
    Link,
    Tag,
    Reference,
    Schema,
    Discriminator,
    Xml,
    SecurityScheme,
    OauthFlows,
    OauthFlow,
    /// `<X>OrReference`: the message or a `Reference`.
    OrReference(Alt),
    /// `<X>sOrReferences`, `Properties`, `MediaTypes`, ...: every key, as `Named<X>`.
    Map(Item),
    /// A schema's `items`: one `SchemaOrReference`.
    ItemsItem,
    /// A bool, else a `SchemaOrReference`.
    AdditionalPropertiesItem,
    /// A link's parameters: always its `Expression` reading.
    AnyOrExpression,
    /// A schema's `default`: a number, bool or string by the scalar's tag.
    DefaultType,
    /// A security requirement's scopes: every item's string.
    StringArray,
    /// Anything, as YAML text.
    Any,
}

/// The message of an `OrReference`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Alt {
    Parameter,
    RequestBody,
    Response,
    Callback,
    Example,
    Header,
    Link,
    Schema,
    SecurityScheme,
}

/// The value of a map message's `Named<X>` pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Item {
    /// A message.
    Message(&'static Msg),
    /// A string (`Strings`, of `NamedString`).
    Str,
}

/// A map message of `item`s.
const fn map(item: &'static Msg) -> Msg {
    Msg::Map(Item::Message(item))
}

/// `alt` or a reference.
const fn or_ref(alt: Alt) -> Msg {
    Msg::OrReference(alt)
}

/// The messages several fields hold, named once.
pub(super) const SCHEMA_OR_REFERENCE: Msg = or_ref(Alt::Schema);
const PARAMETER_OR_REFERENCE: Msg = or_ref(Alt::Parameter);
const SCHEMAS: Msg = map(&SCHEMA_OR_REFERENCE);
const EXAMPLES: Msg = map(&or_ref(Alt::Example));
const HEADERS: Msg = map(&or_ref(Alt::Header));
const MEDIA_TYPES: Msg = map(&Msg::MediaType);
const CALLBACKS: Msg = map(&or_ref(Alt::Callback));
const LINKS: Msg = map(&or_ref(Alt::Link));
const STRINGS: Msg = Msg::Map(Item::Str);

impl Msg {
    /// The table of an object message; `None` for the others.
    pub fn object(self) -> Option<&'static Object> {
        match self {
            Msg::Document => Some(&DOCUMENT),
            Msg::Info => Some(&INFO),
            Msg::Contact => Some(&CONTACT),
            Msg::License => Some(&LICENSE),
            Msg::Server => Some(&SERVER),
            Msg::ServerVariable => Some(&SERVER_VARIABLE),
            Msg::Components => Some(&COMPONENTS),
            Msg::Paths => Some(&PATHS),
            Msg::PathItem => Some(&PATH_ITEM),
            Msg::Operation => Some(&OPERATION),
            Msg::ExternalDocs => Some(&EXTERNAL_DOCS),
            Msg::Parameter => Some(&PARAMETER),
            Msg::Header => Some(&HEADER),
            Msg::RequestBody => Some(&REQUEST_BODY),
            Msg::MediaType => Some(&MEDIA_TYPE),
            Msg::Encoding => Some(&ENCODING),
            Msg::Responses => Some(&RESPONSES),
            Msg::Response => Some(&RESPONSE),
            Msg::Callback => Some(&CALLBACK),
            Msg::Example => Some(&EXAMPLE),
            Msg::Link => Some(&LINK),
            Msg::Tag => Some(&TAG),
            Msg::Reference => Some(&REFERENCE),
            Msg::Schema => Some(&SCHEMA),
            Msg::Discriminator => Some(&DISCRIMINATOR),
            Msg::Xml => Some(&XML),
            Msg::SecurityScheme => Some(&SECURITY_SCHEME),
            Msg::OauthFlows => Some(&OAUTH_FLOWS),
            Msg::OauthFlow => Some(&OAUTH_FLOW),
            _ => None,
        }
    }
}

impl Alt {
    /// The message a reference is the alternative of.
    pub fn message(self) -> Msg {
        match self {
            Alt::Parameter => Msg::Parameter,
            Alt::RequestBody => Msg::RequestBody,
            Alt::Response => Msg::Response,
            Alt::Callback => Msg::Callback,
            Alt::Example => Msg::Example,
            Alt::Header => Msg::Header,
            Alt::Link => Msg::Link,
            Alt::Schema => Msg::Schema,
            Alt::SecurityScheme => Msg::SecurityScheme,
        }
    }
}

// The tables below read as Go's generated code: `K` a key, `M` a message field, `R` a
// repeated one.
use Key::Name as K;
use Value::{Bool, Float, Int, Message as M, Repeated as R, Str, Strings};

/// `Document`.
const DOCUMENT: Object = Object {
    required: &["info", "openapi", "paths"],
    allowed: Some("components externalDocs info openapi paths security servers tags"),
    patterns: X,
    fields: &[
        (1, K("openapi"), Str),
        (2, K("info"), M(Msg::Info)),
        (3, K("servers"), R(Msg::Server)),
        (4, K("paths"), M(Msg::Paths)),
        (5, K("components"), M(Msg::Components)),
        (
            6,
            K("security"),
            R(Msg::Map(Item::Message(&Msg::StringArray))),
        ),
        (7, K("tags"), R(Msg::Tag)),
        (8, K("externalDocs"), M(Msg::ExternalDocs)),
        ext(9),
    ],
};

/// `Info`.
const INFO: Object = Object {
    required: &["title", "version"],
    allowed: Some("contact description license summary termsOfService title version"),
    patterns: X,
    fields: &[
        (1, K("title"), Str),
        (2, K("description"), Str),
        (3, K("termsOfService"), Str),
        (4, K("contact"), M(Msg::Contact)),
        (5, K("license"), M(Msg::License)),
        (6, K("version"), Str),
        ext(7),
        (8, K("summary"), Str),
    ],
};

/// `Contact`.
const CONTACT: Object = Object {
    required: &[],
    allowed: Some("email name url"),
    patterns: X,
    fields: &[
        (1, K("name"), Str),
        (2, K("url"), Str),
        (3, K("email"), Str),
        ext(4),
    ],
};

/// `License`.
const LICENSE: Object = Object {
    required: &["name"],
    allowed: Some("name url"),
    patterns: X,
    fields: &[(1, K("name"), Str), (2, K("url"), Str), ext(3)],
};

/// `Server`.
const SERVER: Object = Object {
    required: &["url"],
    allowed: Some("description url variables"),
    patterns: X,
    fields: &[
        (1, K("url"), Str),
        (2, K("description"), Str),
        (3, K("variables"), M(map(&Msg::ServerVariable))),
        ext(4),
    ],
};

/// `ServerVariable`.
const SERVER_VARIABLE: Object = Object {
    required: &["default"],
    allowed: Some("default description enum"),
    patterns: X,
    fields: &[
        (1, K("enum"), Strings),
        (2, K("default"), Str),
        (3, K("description"), Str),
        ext(4),
    ],
};

/// `Components`.
const COMPONENTS: Object = Object {
    required: &[],
    allowed: Some(
        "callbacks examples headers links parameters requestBodies responses schemas securitySchemes",
    ),
    patterns: X,
    fields: &[
        (1, K("schemas"), M(SCHEMAS)),
        (2, K("responses"), M(map(&or_ref(Alt::Response)))),
        (3, K("parameters"), M(map(&PARAMETER_OR_REFERENCE))),
        (4, K("examples"), M(EXAMPLES)),
        (5, K("requestBodies"), M(map(&or_ref(Alt::RequestBody)))),
        (6, K("headers"), M(HEADERS)),
        (
            7,
            K("securitySchemes"),
            M(map(&or_ref(Alt::SecurityScheme))),
        ),
        (8, K("links"), M(LINKS)),
        (9, K("callbacks"), M(CALLBACKS)),
        ext(10),
    ],
};

/// `Paths`.
const PATHS: Object = Object {
    required: &[],
    allowed: Some(""),
    patterns: &[Key::Prefix("/"), Key::Prefix("x-")],
    fields: &[(1, Key::Prefix("/"), M(Msg::PathItem)), ext(2)],
};

/// `PathItem`.
const PATH_ITEM: Object = Object {
    required: &[],
    allowed: Some(
        "$ref delete description get head options parameters patch post put servers summary trace",
    ),
    patterns: X,
    fields: &[
        (1, K("$ref"), Str),
        (2, K("summary"), Str),
        (3, K("description"), Str),
        (4, K("get"), M(Msg::Operation)),
        (5, K("put"), M(Msg::Operation)),
        (6, K("post"), M(Msg::Operation)),
        (7, K("delete"), M(Msg::Operation)),
        (8, K("options"), M(Msg::Operation)),
        (9, K("head"), M(Msg::Operation)),
        (10, K("patch"), M(Msg::Operation)),
        (11, K("trace"), M(Msg::Operation)),
        (12, K("servers"), R(Msg::Server)),
        (13, K("parameters"), R(PARAMETER_OR_REFERENCE)),
        ext(14),
    ],
};

/// `Operation`.
const OPERATION: Object = Object {
    required: &["responses"],
    allowed: Some(
        "callbacks deprecated description externalDocs operationId parameters requestBody responses security servers summary tags",
    ),
    patterns: X,
    fields: &[
        (1, K("tags"), Strings),
        (2, K("summary"), Str),
        (3, K("description"), Str),
        (4, K("externalDocs"), M(Msg::ExternalDocs)),
        (5, K("operationId"), Str),
        (6, K("parameters"), R(PARAMETER_OR_REFERENCE)),
        (7, K("requestBody"), M(or_ref(Alt::RequestBody))),
        (8, K("responses"), M(Msg::Responses)),
        (9, K("callbacks"), M(CALLBACKS)),
        (10, K("deprecated"), Bool),
        (
            11,
            K("security"),
            R(Msg::Map(Item::Message(&Msg::StringArray))),
        ),
        (12, K("servers"), R(Msg::Server)),
        ext(13),
    ],
};

/// `ExternalDocs`.
const EXTERNAL_DOCS: Object = Object {
    required: &["url"],
    allowed: Some("description url"),
    patterns: X,
    fields: &[(1, K("description"), Str), (2, K("url"), Str), ext(3)],
};

/// `Parameter`.
const PARAMETER: Object = Object {
    required: &["in", "name"],
    allowed: Some(
        "allowEmptyValue allowReserved content deprecated description example examples explode in name required schema style",
    ),
    patterns: X,
    fields: &[
        (1, K("name"), Str),
        (2, K("in"), Str),
        (3, K("description"), Str),
        (4, K("required"), Bool),
        (5, K("deprecated"), Bool),
        (6, K("allowEmptyValue"), Bool),
        (7, K("style"), Str),
        (8, K("explode"), Bool),
        (9, K("allowReserved"), Bool),
        (10, K("schema"), M(SCHEMA_OR_REFERENCE)),
        (11, K("example"), M(Msg::Any)),
        (12, K("examples"), M(EXAMPLES)),
        (13, K("content"), M(MEDIA_TYPES)),
        ext(14),
    ],
};

/// `Header`.
const HEADER: Object = Object {
    required: &[],
    allowed: Some(
        "allowEmptyValue allowReserved content deprecated description example examples explode required schema style",
    ),
    patterns: X,
    fields: &[
        (1, K("description"), Str),
        (2, K("required"), Bool),
        (3, K("deprecated"), Bool),
        (4, K("allowEmptyValue"), Bool),
        (5, K("style"), Str),
        (6, K("explode"), Bool),
        (7, K("allowReserved"), Bool),
        (8, K("schema"), M(SCHEMA_OR_REFERENCE)),
        (9, K("example"), M(Msg::Any)),
        (10, K("examples"), M(EXAMPLES)),
        (11, K("content"), M(MEDIA_TYPES)),
        ext(12),
    ],
};

/// `RequestBody`.
const REQUEST_BODY: Object = Object {
    required: &[],
    allowed: Some("content description required"),
    patterns: X,
    fields: &[
        (1, K("description"), Str),
        (2, K("content"), M(MEDIA_TYPES)),
        (3, K("required"), Bool),
        ext(4),
    ],
};

/// `MediaType`.
const MEDIA_TYPE: Object = Object {
    required: &[],
    allowed: Some("encoding example examples schema"),
    patterns: X,
    fields: &[
        (1, K("schema"), M(SCHEMA_OR_REFERENCE)),
        (2, K("example"), M(Msg::Any)),
        (3, K("examples"), M(EXAMPLES)),
        (4, K("encoding"), M(map(&Msg::Encoding))),
        ext(5),
    ],
};

/// `Encoding`.
const ENCODING: Object = Object {
    required: &[],
    allowed: Some("allowReserved contentType explode headers style"),
    patterns: X,
    fields: &[
        (1, K("contentType"), Str),
        (2, K("headers"), M(HEADERS)),
        (3, K("style"), Str),
        (4, K("explode"), Bool),
        (5, K("allowReserved"), Bool),
        ext(6),
    ],
};

/// `Responses`.
const RESPONSES: Object = Object {
    required: &[],
    allowed: Some("default"),
    patterns: &[Key::ResponseCode, Key::Prefix("x-")],
    fields: &[
        (1, K("default"), M(or_ref(Alt::Response))),
        (2, Key::ResponseCode, M(or_ref(Alt::Response))),
        ext(3),
    ],
};

/// `Response`.
const RESPONSE: Object = Object {
    required: &["description"],
    allowed: Some("content description headers links"),
    patterns: X,
    fields: &[
        (1, K("description"), Str),
        (2, K("headers"), M(HEADERS)),
        (3, K("content"), M(MEDIA_TYPES)),
        (4, K("links"), M(LINKS)),
        ext(5),
    ],
};

/// `Callback`.
const CALLBACK: Object = Object {
    required: &[],
    allowed: Some(""),
    patterns: &[Key::Every, Key::Prefix("x-")],
    fields: &[(1, Key::Every, M(Msg::PathItem)), ext(2)],
};

/// `Example`.
const EXAMPLE: Object = Object {
    required: &[],
    allowed: Some("description externalValue summary value"),
    patterns: X,
    fields: &[
        (1, K("summary"), Str),
        (2, K("description"), Str),
        (3, K("value"), M(Msg::Any)),
        (4, K("externalValue"), Str),
        ext(5),
    ],
};

/// `Link`.
const LINK: Object = Object {
    required: &[],
    allowed: Some("description operationId operationRef parameters requestBody server"),
    patterns: X,
    fields: &[
        (1, K("operationRef"), Str),
        (2, K("operationId"), Str),
        (3, K("parameters"), M(Msg::AnyOrExpression)),
        (4, K("requestBody"), M(Msg::AnyOrExpression)),
        (5, K("description"), Str),
        (6, K("server"), M(Msg::Server)),
        ext(7),
    ],
};

/// `Tag`.
const TAG: Object = Object {
    required: &["name"],
    allowed: Some("description externalDocs name"),
    patterns: X,
    fields: &[
        (1, K("name"), Str),
        (2, K("description"), Str),
        (3, K("externalDocs"), M(Msg::ExternalDocs)),
        ext(4),
    ],
};

/// `Reference`.
const REFERENCE: Object = Object {
    required: &["$ref"],
    allowed: None,
    patterns: &[],
    fields: &[
        (1, K("$ref"), Str),
        (2, K("summary"), Str),
        (3, K("description"), Str),
    ],
};

/// `Schema`.
const SCHEMA: Object = Object {
    required: &[],
    allowed: Some(
        "additionalProperties allOf anyOf default deprecated description discriminator enum example exclusiveMaximum exclusiveMinimum externalDocs format items maxItems maxLength maxProperties maximum minItems minLength minProperties minimum multipleOf not nullable oneOf pattern properties readOnly required title type uniqueItems writeOnly xml",
    ),
    patterns: X,
    fields: &[
        (1, K("nullable"), Bool),
        (2, K("discriminator"), M(Msg::Discriminator)),
        (3, K("readOnly"), Bool),
        (4, K("writeOnly"), Bool),
        (5, K("xml"), M(Msg::Xml)),
        (6, K("externalDocs"), M(Msg::ExternalDocs)),
        (7, K("example"), M(Msg::Any)),
        (8, K("deprecated"), Bool),
        (9, K("title"), Str),
        (10, K("multipleOf"), Float),
        (11, K("maximum"), Float),
        (12, K("exclusiveMaximum"), Bool),
        (13, K("minimum"), Float),
        (14, K("exclusiveMinimum"), Bool),
        (15, K("maxLength"), Int),
        (16, K("minLength"), Int),
        (17, K("pattern"), Str),
        (18, K("maxItems"), Int),
        (19, K("minItems"), Int),
        (20, K("uniqueItems"), Bool),
        (21, K("maxProperties"), Int),
        (22, K("minProperties"), Int),
        (23, K("required"), Strings),
        (24, K("enum"), R(Msg::Any)),
        (25, K("type"), Str),
        (26, K("allOf"), R(SCHEMA_OR_REFERENCE)),
        (27, K("oneOf"), R(SCHEMA_OR_REFERENCE)),
        (28, K("anyOf"), R(SCHEMA_OR_REFERENCE)),
        (29, K("not"), M(Msg::Schema)),
        (30, K("items"), M(Msg::ItemsItem)),
        (31, K("properties"), M(SCHEMAS)),
        (
            32,
            K("additionalProperties"),
            M(Msg::AdditionalPropertiesItem),
        ),
        (33, K("default"), M(Msg::DefaultType)),
        (34, K("description"), Str),
        (35, K("format"), Str),
        ext(36),
    ],
};

/// `Discriminator`.
const DISCRIMINATOR: Object = Object {
    required: &["propertyName"],
    allowed: Some("mapping propertyName"),
    patterns: X,
    fields: &[
        (1, K("propertyName"), Str),
        (2, K("mapping"), M(STRINGS)),
        ext(3),
    ],
};

/// `Xml`.
const XML: Object = Object {
    required: &[],
    allowed: Some("attribute name namespace prefix wrapped"),
    patterns: X,
    fields: &[
        (1, K("name"), Str),
        (2, K("namespace"), Str),
        (3, K("prefix"), Str),
        (4, K("attribute"), Bool),
        (5, K("wrapped"), Bool),
        ext(6),
    ],
};

/// `SecurityScheme`.
const SECURITY_SCHEME: Object = Object {
    required: &["type"],
    allowed: Some("bearerFormat description flows in name openIdConnectUrl scheme type"),
    patterns: X,
    fields: &[
        (1, K("type"), Str),
        (2, K("description"), Str),
        (3, K("name"), Str),
        (4, K("in"), Str),
        (5, K("scheme"), Str),
        (6, K("bearerFormat"), Str),
        (7, K("flows"), M(Msg::OauthFlows)),
        (8, K("openIdConnectUrl"), Str),
        ext(9),
    ],
};

/// `OauthFlows`.
const OAUTH_FLOWS: Object = Object {
    required: &[],
    allowed: Some("authorizationCode clientCredentials implicit password"),
    patterns: X,
    fields: &[
        (1, K("implicit"), M(Msg::OauthFlow)),
        (2, K("password"), M(Msg::OauthFlow)),
        (3, K("clientCredentials"), M(Msg::OauthFlow)),
        (4, K("authorizationCode"), M(Msg::OauthFlow)),
        ext(5),
    ],
};

/// `OauthFlow`.
const OAUTH_FLOW: Object = Object {
    required: &[],
    allowed: Some("authorizationUrl refreshUrl scopes tokenUrl"),
    patterns: X,
    fields: &[
        (1, K("authorizationUrl"), Str),
        (2, K("tokenUrl"), Str),
        (3, K("refreshUrl"), Str),
        (4, K("scopes"), M(STRINGS)),
        ext(5),
    ],
};
