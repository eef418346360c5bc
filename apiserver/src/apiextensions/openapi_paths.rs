//! The `paths` of a custom resource version's OpenAPI v3 document, as kube-apiserver
//! builds them: Go's apiextensions-apiserver `pkg/controller/openapi/builder`
//! (`generateBuilder`, `buildRoute`) declares one route per operation, and kube-openapi's
//! `builder3` turns the routes into path items (the parameters every operation of a path
//! shares moved to the path, parameters sorted by name, a 401 response added to each
//! operation), with the operation ids and tags of the apiserver's
//! `GetOperationIDAndTags`.

use serde_json::{Map, Value, json};

use super::CustomResource;

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1";
/// The schema of the scale subresource's object (Go's `autoscaling/v1.Scale`).
pub(crate) const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

/// The built-in document whose resources lend the option parameters: Go adds them with
/// `endpoints.AddObjectParams` from the same option types for every resource, so a
/// built-in resource's parameters are the custom resource's, in the served version's
/// words (1.37's list has `shardSelector`, 1.36's has not).
const DONOR: &str = "apis/apps/v1";
const DONOR_ALL: &str = "/apis/apps/v1/controllerrevisions";
const DONOR_COLLECTION: &str = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions";
const DONOR_ITEM: &str = "/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}";

/// The verbs an operation name may start with (Go's `verbs` trie in the apiserver's
/// endpoints/openapi); the shortest that fits is the id's prefix, which is why a
/// `deletecollection` operation's id reads `delete...Collection...`.
const OPERATION_VERBS: [&str; 12] = [
    "get",
    "log",
    "read",
    "replace",
    "patch",
    "delete",
    "deletecollection",
    "watch",
    "connect",
    "proxy",
    "list",
    "create",
];

/// The action of a route (Go's `x-kubernetes-action`), which picks its option parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    List,
    Post,
    DeleteCollection,
    Get,
    Put,
    Delete,
    Patch,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::List => "list",
            Action::Post => "post",
            Action::DeleteCollection => "deletecollection",
            Action::Get => "get",
            Action::Put => "put",
            Action::Delete => "delete",
            Action::Patch => "patch",
        }
    }

    /// The verb of the operation's name and description.
    fn operation_verb(self) -> &'static str {
        match self {
            Action::List => "list",
            Action::Post => "create",
            Action::DeleteCollection => "deletecollection",
            Action::Get => "read",
            Action::Put => "replace",
            Action::Delete => "delete",
            Action::Patch => "patch",
        }
    }

    fn method(self) -> &'static str {
        match self {
            Action::List | Action::Get => "get",
            Action::Post => "post",
            Action::DeleteCollection | Action::Delete => "delete",
            Action::Put => "put",
            Action::Patch => "patch",
        }
    }
}

/// One route of Go's builder: a path, its operation and what it reads and writes.
struct Route {
    path: String,
    action: Action,
    operation: Value,
    /// The non-body parameters, before builder3 moves the shared ones to the path.
    parameters: Vec<Value>,
}

/// What the routes of one version have in common.
struct Builder<'a> {
    cr: &'a CustomResource,
    group: &'a str,
    version: &'a str,
    donor: Option<&'static Value>,
}

/// Adds the paths of `cr`'s `version` to `paths`; `kind_schema` and `list_schema` name
/// the schemas of the kind and its list.
pub(crate) fn add_paths(
    paths: &mut Map<String, Value>,
    cr: &CustomResource,
    version: &str,
    kind_schema: &str,
    list_schema: &str,
) {
    let Some(v) = cr.version(version) else {
        return;
    };
    let b = Builder {
        cr,
        group: &cr.group,
        version,
        donor: crate::openapi::paths_of(DONOR),
    };
    let status_schema = format!("{META}.Status");
    let mut root = format!("/apis/{}/{version}/{}", cr.group, cr.plural);
    let mut routes = Vec::new();
    if cr.namespaced {
        let mut all = b.route(&root, "", Action::List, list_schema);
        let id = format!("list{}ForAllNamespaces", cr.kind);
        all.operation["operationId"] = json!(b.operation_id(&all.path, &id));
        routes.push(all);
        root = format!(
            "/apis/{}/{version}/namespaces/{{namespace}}/{}",
            cr.group, cr.plural
        );
    }
    routes.push(b.route(&root, "", Action::List, list_schema));
    routes.push(b.route(&root, "", Action::Post, kind_schema));
    routes.push(b.route(&root, "", Action::DeleteCollection, &status_schema));
    routes.push(b.route(&root, "/{name}", Action::Get, kind_schema));
    routes.push(b.route(&root, "/{name}", Action::Put, kind_schema));
    routes.push(b.route(&root, "/{name}", Action::Delete, &status_schema));
    routes.push(b.route(&root, "/{name}", Action::Patch, kind_schema));
    if v.status {
        for action in [Action::Get, Action::Put, Action::Patch] {
            routes.push(b.route(&root, "/{name}/status", action, kind_schema));
        }
    }
    if v.scale.is_some() {
        for action in [Action::Get, Action::Put, Action::Patch] {
            routes.push(b.route(&root, "/{name}/scale", action, SCALE));
        }
    }
    for route in routes {
        insert_route(paths, route);
    }
}

/// Puts a route into its path item; builder3's moving of the shared parameters happens
/// once every route of the path is in (see [`hoist_parameters`]).
fn insert_route(paths: &mut Map<String, Value>, route: Route) {
    let item = paths.entry(route.path.clone()).or_insert_with(|| json!({}));
    if let Some(item) = item.as_object_mut() {
        let mut op = route.operation;
        op["parameters"] = Value::Array(route.parameters);
        item.insert(route.action.method().to_owned(), op);
    }
}

/// builder3's last step for each path: the parameters (by name and location) that every
/// operation has go to the path item, the rest stay with their operations, each list
/// sorted by name then location; an operation left without parameters has none.
pub(crate) fn hoist_parameters(paths: &mut Map<String, Value>) {
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        let ops: Vec<String> = item
            .keys()
            .filter(|k| *k != "parameters")
            .cloned()
            .collect();
        let key = |p: &Value| {
            (
                p.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                p.get("in").and_then(Value::as_str).unwrap_or("").to_owned(),
            )
        };
        let lists: Vec<Vec<Value>> = ops
            .iter()
            .map(|op| {
                item.get(op)
                    .and_then(|o| o.get("parameters"))
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let mut common: Vec<Value> = lists
            .first()
            .map(|first| {
                first
                    .iter()
                    .filter(|p| lists.iter().all(|l| l.iter().any(|q| key(q) == key(p))))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let common_keys: Vec<(String, String)> = common.iter().map(key).collect();
        for (op, list) in ops.iter().zip(lists) {
            let mut own: Vec<Value> = list
                .into_iter()
                .filter(|p| !common_keys.contains(&key(p)))
                .collect();
            own.sort_by_key(key);
            if let Some(o) = item.get_mut(op).and_then(Value::as_object_mut) {
                if own.is_empty() {
                    o.remove("parameters");
                } else {
                    o.insert("parameters".into(), Value::Array(own));
                }
            }
        }
        common.sort_by_key(key);
        if !common.is_empty() {
            item.insert("parameters".into(), Value::Array(common));
        }
    }
}

impl Builder<'_> {
    /// Go's `buildRoute`: the operation at `root` + `path` with `action`, answering
    /// `schema`.
    fn route(&self, root: &str, path: &str, action: Action, schema: &str) -> Route {
        let full = format!("{root}{path}");
        let sub = subresource(path);
        let namespaced = if self.cr.namespaced { "Namespaced" } else { "" };
        let name = format!(
            "{}{namespaced}{}{}",
            action.operation_verb(),
            self.cr.kind,
            title(sub)
        );
        let mut parameters = vec![self.donor_parameter(DONOR_ALL, None, "pretty")];
        if full.contains("{namespace}") {
            parameters.push(self.donor_parameter(DONOR_COLLECTION, None, "namespace"));
        }
        if full.contains("{name}") {
            parameters.push(json!({
                "name": "name",
                "in": "path",
                "description": format!("name of the {}", self.cr.kind),
                "required": true,
                "schema": {"type": "string", "uniqueItems": true},
            }));
        }
        parameters.extend(self.option_parameters(action));
        let mut responses = Map::new();
        responses.insert("200".into(), response("OK", schema));
        match action {
            Action::Post => {
                responses.insert("201".into(), response("Created", schema));
                responses.insert("202".into(), response("Accepted", schema));
            }
            Action::Delete => {
                responses.insert("202".into(), response("Accepted", schema));
            }
            Action::Put => {
                responses.insert("201".into(), response("Created", schema));
            }
            _ => {}
        }
        responses.insert("401".into(), json!({"description": "Unauthorized"}));
        let mut operation = json!({
            "tags": [self.tag()],
            "description": self.description(sub, action.operation_verb()),
            "operationId": self.operation_id(&full, &name),
            "responses": responses,
            "x-kubernetes-action": action.name(),
            "x-kubernetes-group-version-kind": {"group": self.group, "version": self.version, "kind": self.cr.kind},
        });
        let body = match action {
            Action::Post | Action::Put => Some((schema.to_owned(), true)),
            Action::Patch => Some((format!("{META}.Patch"), true)),
            Action::Delete => Some((format!("{META}.DeleteOptions"), false)),
            _ => None,
        };
        if let Some((body, required)) = body {
            let types: &[&str] = if action == Action::Patch {
                &[
                    "application/json-patch+json",
                    "application/merge-patch+json",
                    "application/apply-patch+yaml",
                ]
            } else {
                &["application/json", "application/yaml"]
            };
            let content: Map<String, Value> = types
                .iter()
                .map(|t| ((*t).to_owned(), json!({"schema": reference(&body)})))
                .collect();
            let mut request = json!({"content": content});
            if required {
                request["required"] = json!(true);
            }
            operation["requestBody"] = request;
        }
        Route {
            path: full,
            action,
            operation,
            parameters,
        }
    }

    /// The option parameters Go's `AddObjectParams` adds for `action` (`ListOptions`,
    /// `CreateOptions`, ...), as the donor resource's operations have them.
    fn option_parameters(&self, action: Action) -> Vec<Value> {
        let list = || self.donor_parameters(DONOR_ALL, None, |name| name != "pretty");
        match action {
            Action::List | Action::DeleteCollection => list(),
            Action::Get => self.donor_parameters(DONOR_ALL, None, |n| n == "resourceVersion"),
            Action::Post => self.donor_parameters(DONOR_COLLECTION, Some("post"), |_| true),
            Action::Put => self.donor_parameters(DONOR_ITEM, Some("put"), |_| true),
            Action::Patch => self.donor_parameters(DONOR_ITEM, Some("patch"), |_| true),
            Action::Delete => self.donor_parameters(DONOR_ITEM, Some("delete"), |_| true),
        }
    }

    /// The parameters of the donor's `path` (its `method`'s, or the path's own when
    /// `None`) whose name `keep` accepts.
    fn donor_parameters(
        &self,
        path: &str,
        method: Option<&str>,
        keep: impl Fn(&str) -> bool,
    ) -> Vec<Value> {
        let item = self.donor.and_then(|paths| paths.get(path));
        let owner = match method {
            Some(m) => item.and_then(|i| i.get(m)),
            None => item,
        };
        owner
            .and_then(|o| o.get("parameters"))
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .filter(|p| keep(p.get("name").and_then(Value::as_str).unwrap_or("")))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// One named parameter of the donor (`pretty`, `namespace`); a bare one should the
    /// donor lack it.
    fn donor_parameter(&self, path: &str, method: Option<&str>, name: &str) -> Value {
        self.donor_parameters(path, method, |n| n == name)
            .into_iter()
            .next()
            .unwrap_or_else(|| json!({"name": name, "in": "query"}))
    }

    /// The tag of every operation: the group without `.k8s.io` and the version, each
    /// made an identifier (`openapiExampleCom_v1`).
    fn tag(&self) -> String {
        let group = self.group.strip_suffix(".k8s.io").unwrap_or(self.group);
        format!(
            "{}_{}",
            valid_operation_id(group, false),
            valid_operation_id(self.version, false)
        )
    }

    /// Go's `GetOperationIDAndTags`: the operation's verb, then the group and version
    /// of `path`, then the rest of the operation name, as one identifier.
    fn operation_id(&self, path: &str, operation: &str) -> String {
        let verb = OPERATION_VERBS
            .iter()
            .filter(|v| operation.starts_with(**v))
            .min_by_key(|v| v.len())
            .copied()
            .unwrap_or("");
        let rest = &operation[verb.len()..];
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        let mut id = verb.to_owned();
        if parts.len() >= 2 && parts[0] == "apis" {
            let group = parts[1].strip_suffix(".k8s.io").unwrap_or(parts[1]);
            id.push_str(&valid_operation_id(group, !id.is_empty()));
            if let Some(version) = parts.get(2) {
                id.push_str(&valid_operation_id(version, !id.is_empty()));
            }
        }
        let capitalize = !id.is_empty();
        id.push_str(&valid_operation_id(rest, capitalize));
        id
    }

    /// Go's `descriptionFor`: "read status of the specified Sprocket" and the like.
    fn description(&self, sub: &str, verb: &str) -> String {
        let kind = &self.cr.kind;
        let article = match verb {
            "list" => " objects of kind ".to_owned(),
            "read" | "replace" | "patch" => " the specified ".to_owned(),
            "create" | "delete" => article_for_noun(kind, " "),
            _ => String::new(),
        };
        let sub = if sub.is_empty() {
            String::new()
        } else {
            format!(" {sub} of")
        };
        match verb {
            "patch" => format!("partially update{sub}{article}{kind}"),
            "deletecollection" => {
                let sub = if sub.is_empty() { sub } else { sub + " a" };
                format!("delete collection of{sub} {kind}")
            }
            _ => format!("{verb}{sub}{article}{kind}"),
        }
    }
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

/// A response answering `schema` as JSON and YAML (the routes' `Produces`).
fn response(description: &str, schema: &str) -> Value {
    json!({
        "description": description,
        "content": {
            "application/json": {"schema": reference(schema)},
            "application/yaml": {"schema": reference(schema)},
        },
    })
}

/// The subresource of a route's path below the resource (`status` of `/{name}/status`).
fn subresource(path: &str) -> &str {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() == 3 { parts[2] } else { "" }
}

/// The word with its first letter in upper case (Go's `cases.Title` of a subresource).
fn title(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Go's `GetArticleForNoun`: no article for a plural, `an` before a vowel, `a` otherwise,
/// padded.
fn article_for_noun(noun: &str, padding: &str) -> String {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return padding.to_owned();
    }
    let vowel = noun
        .chars()
        .next()
        .is_some_and(|c| "aeiou".contains(c.to_ascii_lowercase()));
    let article = if vowel { "an" } else { "a" };
    format!("{padding}{article}{padding}")
}

/// Go's `ToValidOperationID`: letters, `_` and (not first) digits kept, anything else
/// dropped and the next kept character upper-cased; the first one too when
/// `capitalize_first`.
fn valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut capitalize = capitalize_first;
    for (i, c) in s.char_indices() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_are_go_identifiers() {
        assert_eq!(
            valid_operation_id("openapi.example.com", true),
            "OpenapiExampleCom"
        );
        assert_eq!(valid_operation_id("v1beta1", false), "v1beta1");
        // A leading digit is dropped and, like any dropped character, capitalizes the next.
        assert_eq!(valid_operation_id("1a-b", false), "AB");
    }

    #[test]
    fn articles_follow_the_noun() {
        assert_eq!(article_for_noun("Sprocket", " "), " a ");
        assert_eq!(article_for_noun("Engine", " "), " an ");
        assert_eq!(article_for_noun("Class", " "), " a ");
        assert_eq!(article_for_noun("Gears", " "), " ");
    }

    #[test]
    fn subresources_are_the_third_segment() {
        assert_eq!(subresource("/{name}/status"), "status");
        assert_eq!(subresource("/{name}"), "");
        assert_eq!(subresource(""), "");
        assert_eq!(title("scale"), "Scale");
    }
}
