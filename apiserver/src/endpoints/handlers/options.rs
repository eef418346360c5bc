//! A request's options read from its query as Go's handlers read them: decoded as Go's
//! parameter codec decodes `metav1.CreateOptions`, `UpdateOptions`, `PatchOptions`,
//! `DeleteOptions` and `metainternalversion.ListOptions` (a number that does not parse
//! is a 400 with `strconv`'s message), then validated as objects (Go's
//! `ValidateCreateOptions` and the like, `ValidateListOptions`): a bad value is a 422
//! `Invalid` of the options kind in `meta.k8s.io`, one cause per field.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::validation::validate_field_manager;
use apimachinery::schema::GroupKind;
use apimachinery::util::validation::field::{BadValue, Error, ErrorList, Path, go_quote};

use super::Handler;
use crate::registry::FieldValidation;

/// The `dryRun` values Go accepts (`allowedDryRunValues`).
const DRY_RUN_VALUES: [&str; 1] = ["All"];

/// The `fieldValidation` values Go accepts, sorted as Go's set lists them.
const FIELD_VALIDATION_VALUES: [&str; 4] = ["", "Ignore", "Strict", "Warn"];

/// What a list or watch asks, decoded and validated (Go's `listOpts`).
#[derive(Debug, Default)]
pub struct ListOptions {
    /// `resourceVersion`: 0 for unset or `"0"`.
    pub resource_version: i64,
    /// Whether `resourceVersion` is unset: a consistent read, at the storage's current
    /// revision (`"0"` takes any recent state).
    pub consistent: bool,
    /// `resourceVersionMatch`, `""` when unset.
    pub resource_version_match: String,
    /// `continue`, when set.
    pub continue_token: Option<String>,
    /// `limit`: 0 (and any negative number) asks for everything, as in Go.
    pub limit: usize,
    /// `timeoutSeconds`, when set (Go takes any number: 0 is the server's default, a
    /// negative one ends a watch at once).
    pub timeout_seconds: Option<i64>,
    /// `allowWatchBookmarks`.
    pub allow_watch_bookmarks: bool,
    /// `sendInitialEvents`, when set.
    pub send_initial_events: Option<bool>,
}

impl Handler<'_> {
    /// The `dryRun` and `fieldValidation` of a write, and its `fieldManager`, validated
    /// as Go validates `kind` (`CreateOptions`, `UpdateOptions`, `PatchOptions`) after
    /// the errors `first` (a patch's own): whether the write is a dry run.
    pub(super) fn write_options(&self, kind: &str, first: ErrorList) -> Result<bool, StatusError> {
        let mut errs = first;
        let manager = self.query.get("fieldManager").map_or("", String::as_str);
        errs.extend(validate_field_manager(manager, &Path::new("fieldManager")));
        errs.extend(self.dry_run_errors());
        errs.extend(field_validation_errors(self.query.get("fieldValidation")));
        invalid_options(kind, errs)?;
        Ok(self.query.get("dryRun").is_some_and(|d| !d.is_empty()))
    }

    /// Go's `ValidateDryRun` of the query's `dryRun` (its last value: the query keeps one);
    /// an empty value is one Go does not support.
    fn dry_run_errors(&self) -> ErrorList {
        let mut errs = ErrorList::default();
        if let Some(d) = self.query.get("dryRun") {
            if !DRY_RUN_VALUES.contains(&d.as_str()) {
                errs.push(Error::not_supported(
                    &Path::new("dryRun"),
                    BadValue::json_strings(&[d]),
                    &DRY_RUN_VALUES,
                ));
            }
        }
        errs
    }

    /// The options kind Go decodes a write of this request's verb into.
    pub(super) fn options_kind(&self) -> &'static str {
        match self.info.verb.as_str() {
            "create" => "CreateOptions",
            "patch" => "PatchOptions",
            _ => "UpdateOptions",
        }
    }

    /// The `fieldValidation` directive; an unknown one is Go's 422 `Invalid` of `kind`.
    pub(super) fn field_validation(&self, kind: &str) -> Result<FieldValidation, StatusError> {
        let value = self.query.get("fieldValidation");
        invalid_options(kind, field_validation_errors(value))?;
        Ok(match value.map(String::as_str) {
            Some("Strict") => FieldValidation::Strict,
            Some("Ignore") => FieldValidation::Ignore,
            _ => FieldValidation::Warn,
        })
    }

    /// The options of a list or watch (`watch` says which Go validates), decoded and
    /// validated as Go's `listOpts` does.
    pub fn list_options(&self, watch: bool) -> Result<ListOptions, StatusError> {
        let q = |name: &str| self.query.get(name).map(String::as_str).unwrap_or_default();
        let limit = parse_int(q("limit"))?;
        let timeout_seconds = match q("timeoutSeconds") {
            "" => None,
            t => Some(parse_int(t)?),
        };
        let send_initial_events = match q("sendInitialEvents") {
            "" => None,
            s => Some(parse_bool(s)),
        };
        let raw_rv = q("resourceVersion");
        let mut options = ListOptions {
            resource_version: 0,
            consistent: raw_rv.is_empty(),
            resource_version_match: q("resourceVersionMatch").to_owned(),
            continue_token: Some(q("continue").to_owned()).filter(|c| !c.is_empty()),
            limit: usize::try_from(limit.max(0)).unwrap_or(usize::MAX),
            timeout_seconds,
            allow_watch_bookmarks: parse_bool(q("allowWatchBookmarks")),
            send_initial_events,
        };
        // Go's `SetListOptionsDefaults` (the WatchList feature is on in 1.36): a watch
        // from "any" revision that says nothing of initial events gets them, as a
        // watch-list does.
        if watch
            && options.send_initial_events.is_none()
            && options.resource_version_match.is_empty()
            && (raw_rv.is_empty() || raw_rv == "0")
        {
            options.send_initial_events = Some(true);
            options.resource_version_match = "NotOlderThan".to_owned();
        }
        let errs = if watch {
            validate_watch_options(&options)
        } else {
            validate_list_options(&options, raw_rv)
        };
        invalid_options("ListOptions", errs)?;
        let resource_version = parse_resource_version(raw_rv).map_err(|error| {
            if watch {
                // Go's watch cache returns the storage error as it is, which the
                // handler answers as an internal error with its text.
                StatusError::failure(500, errors::reason::UNKNOWN, error.to_string())
            } else {
                errors::new_bad_request(format!("invalid resource version: {error}"))
            }
        })?;
        Ok(ListOptions {
            resource_version,
            ..options
        })
    }
}

/// Go's `ValidateFieldValidation`.
fn field_validation_errors(value: Option<&String>) -> ErrorList {
    let mut errs = ErrorList::default();
    let value = value.map(String::as_str).unwrap_or_default();
    if !FIELD_VALIDATION_VALUES.contains(&value) {
        errs.push(Error::not_supported(
            &Path::new("fieldValidation"),
            value,
            &FIELD_VALIDATION_VALUES,
        ));
    }
    errs
}

/// Go's `ValidateListOptions` of a list (not a watch).
fn validate_list_options(options: &ListOptions, resource_version: &str) -> ErrorList {
    let mut errs = ErrorList::default();
    let path = Path::new("resourceVersionMatch");
    let matching = options.resource_version_match.as_str();
    if !matching.is_empty() {
        if resource_version.is_empty() {
            errs.push(Error::forbidden(
                &path,
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if options.continue_token.is_some() {
            errs.push(Error::forbidden(
                &path,
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if matching != "Exact" && matching != "NotOlderThan" {
            errs.push(Error::not_supported(
                &path,
                BadValue::json_string(matching),
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if matching == "Exact" && resource_version == "0" {
            errs.push(Error::forbidden(
                &path,
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if options.send_initial_events.is_some() {
        errs.push(Error::forbidden(
            &Path::new("sendInitialEvents"),
            "sendInitialEvents is forbidden for list",
        ));
    }
    errs
}

/// Go's `validateWatchOptions`, with the WatchList feature on (as in 1.36).
fn validate_watch_options(options: &ListOptions) -> ErrorList {
    let mut errs = ErrorList::default();
    let path = Path::new("resourceVersionMatch");
    let matching = options.resource_version_match.as_str();
    if options.send_initial_events.is_some() && matching != "NotOlderThan" {
        errs.push(Error::forbidden(
            &path,
            "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ));
    }
    if !matching.is_empty() {
        if options.send_initial_events.is_none() {
            errs.push(Error::forbidden(
                &path,
                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
            ));
        }
        if matching != "NotOlderThan" {
            errs.push(Error::not_supported(
                &path,
                BadValue::json_string(matching),
                &["NotOlderThan"],
            ));
        }
        if options.continue_token.is_some() {
            errs.push(Error::forbidden(
                &path,
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
    }
    errs
}

/// Go's 422 for options that fail validation, when `errs` has any.
fn invalid_options(kind: &str, errs: ErrorList) -> Result<(), StatusError> {
    if errs.is_empty() {
        return Ok(());
    }
    Err(errors::new_invalid(
        &GroupKind::new("meta.k8s.io", kind),
        "",
        &errs,
    ))
}

/// An integer option as Go's parameter codec reads one (`strconv.ParseInt(s, 10, 64)`);
/// what does not parse is a 400 with Go's message.
pub(super) fn parse_int(s: &str) -> Result<i64, StatusError> {
    if s.is_empty() {
        return Ok(0);
    }
    s.parse::<i64>().map_err(|e| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                "value out of range"
            }
            _ => "invalid syntax",
        };
        errors::new_bad_request(format!("strconv.ParseInt: parsing {s:?}: {why}"))
    })
}

/// A boolean option as Go's parameter codec reads one: `0`, `f` and `false` (in any
/// case) are false, anything else true.
pub(super) fn parse_bool(s: &str) -> bool {
    !(s.is_empty() || s == "0" || s.eq_ignore_ascii_case("f") || s.eq_ignore_ascii_case("false"))
}

/// A pointer-to-boolean option of `DeleteOptions` as Go's parameter codec reads one
/// (`runtime.Convert_Slice_string_To_Pointer_bool`): `0` and `false` (in any case) are
/// false, anything else, the empty value included, true.
pub(super) fn parse_pointer_bool(s: &str) -> bool {
    !(s == "0" || s.eq_ignore_ascii_case("false"))
}

/// A `resourceVersion` parameter as Go's storage reads it (`ParseResourceVersion`):
/// `""` and `"0"` are 0 (any / most recent), anything else an unsigned revision; what
/// does not parse is Go's field error.
pub fn parse_resource_version(rv: &str) -> Result<i64, Error> {
    if rv.is_empty() || rv == "0" {
        return Ok(0);
    }
    // Go parses digits only: no sign.
    let parsed = if rv.bytes().all(|b| b.is_ascii_digit()) {
        rv.parse::<u64>().map_err(|_| "value out of range")
    } else {
        Err("invalid syntax")
    };
    match parsed {
        // A revision past what etcd can count is one the store has not reached.
        Ok(n) => Ok(i64::try_from(n).unwrap_or(i64::MAX)),
        Err(why) => {
            let detail = format!("strconv.ParseUint: parsing {}: {why}", go_quote(rv));
            Err(Error::invalid(&Path::new("resourceVersion"), rv, detail))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delete_options_booleans_are_false_only_when_they_say_so() {
        for yes in ["true", "yes", "", "f", "1", "TRUE"] {
            assert!(parse_pointer_bool(yes), "{yes:?}");
        }
        for no in ["false", "False", "0"] {
            assert!(!parse_pointer_bool(no), "{no:?}");
        }
    }

    #[test]
    fn numbers_and_versions_fail_with_go_messages() {
        assert_eq!(parse_int("-1").ok(), Some(-1));
        let e = parse_int("x").err().map(|e| e.status.message.clone());
        assert_eq!(
            e.as_deref(),
            Some("strconv.ParseInt: parsing \"x\": invalid syntax")
        );
        assert_eq!(parse_resource_version("").ok(), Some(0));
        assert_eq!(parse_resource_version("12").ok(), Some(12));
        let e = parse_resource_version("abc").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax"
            )
        );
        assert!(parse_resource_version("-3").is_err());
        assert!(parse_bool("yes") && parse_bool("1") && !parse_bool("False"));
    }

    #[test]
    fn list_options_are_validated_as_go_validates_them() {
        let options = ListOptions {
            resource_version_match: "Exact".into(),
            ..ListOptions::default()
        };
        let errs = validate_list_options(&options, "");
        assert_eq!(
            errs.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            [
                "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
            ]
        );
        assert!(validate_list_options(&options, "5").is_empty());
        assert_eq!(validate_list_options(&options, "0").len(), 1);
        assert_eq!(validate_watch_options(&options).len(), 2);
        assert_eq!(field_validation_errors(Some(&"Sloppy".to_owned())).len(), 1);
        assert!(field_validation_errors(None).is_empty());
    }
}
