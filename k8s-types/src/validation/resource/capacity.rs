//! A device's capacity: its value and, for a device that may be allocated more than
//! once, the policy of what a request may ask of it (Go's `validateRequestPolicy` and
//! its valid values and range).

use apimachinery::util::validation::field::{Error, ErrorList, Path};

use super::{duplicates, too_many};
use crate::resource::v1::{CapacityRequestPolicy, DeviceCapacity};
use crate::value::Quantity;

/// Go's `CapacityRequestPolicyDiscreteMaxOptions`.
const MAX_VALID_VALUES: usize = 10;

/// Go's `validateMultiAllocatableDeviceCapacity` and
/// `validateSingleAllocatableDeviceCapacity`.
pub(super) fn validate_capacity(
    c: &DeviceCapacity,
    multiple: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(policy) = &c.request_policy else {
        return;
    };
    let p = path.child("requestPolicy");
    if !multiple {
        errs.push(Error::forbidden(
            &p,
            "allowMultipleAllocations must be true",
        ));
        return;
    }
    validate_request_policy(&c.value, policy, &p, errs);
}

/// Go's `validateRequestPolicy`.
fn validate_request_policy(
    max: &Quantity,
    policy: &CapacityRequestPolicy,
    path: &Path,
    errs: &mut ErrorList,
) {
    if !policy.valid_values.is_empty() && policy.valid_range.is_some() {
        errs.push(Error::forbidden(
            path,
            "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time",
        ));
        return;
    }
    if !policy.valid_values.is_empty() {
        match &policy.default {
            None => errs.push(Error::required(
                &path.child("default"),
                "required when validValues is defined",
            )),
            Some(d) => validate_valid_values(
                d,
                max,
                &policy.valid_values,
                &path.child("validValues"),
                errs,
            ),
        }
    } else if let Some(range) = &policy.valid_range {
        match &policy.default {
            None => errs.push(Error::required(
                &path.child("default"),
                "required when validRange is defined",
            )),
            Some(d) => validate_range(d, max, range, &path.child("validRange"), errs),
        }
    }
}

/// Go's `validateRequestPolicyValidValues`: ascending, at most 10, unique by value, none
/// over the capacity, and the default among them.
fn validate_valid_values(
    default: &Quantity,
    max: &Quantity,
    values: &[Quantity],
    path: &Path,
    errs: &mut ErrorList,
) {
    for i in 0..values.len().saturating_sub(1) {
        if values[i] > values[i + 1] {
            errs.push(Error::invalid(
                &path.index(i + 1),
                values[i + 1].to_string(),
                "values must be sorted in ascending order",
            ));
        }
    }
    let mut found = false;
    if !too_many(values.len(), MAX_VALID_VALUES, path, errs) {
        for (i, v) in values.iter().enumerate() {
            if v > max {
                errs.push(Error::invalid(
                    &path.index(i),
                    v.to_string(),
                    format!("option is larger than capacity value: {max}"),
                ));
            }
            if v == default {
                found = true;
            }
        }
        let keys: Vec<String> = values.iter().map(|v| v.value().to_string()).collect();
        duplicates(keys.iter().map(String::as_str), path, errs);
    }
    if !found {
        errs.push(Error::invalid(
            path,
            default.to_string(),
            "default value is not valid according to the requestPolicy",
        ));
    }
}

/// Go's `validateRequestPolicyRange`.
fn validate_range(
    default: &Quantity,
    max: &Quantity,
    range: &crate::resource::v1::CapacityRequestPolicyRange,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(min) = &range.min else {
        errs.push(Error::required(
            &path.child("min"),
            "required when validRange is defined",
        ));
        return;
    };
    let mp = path.child("min");
    if min > max {
        errs.push(Error::invalid(
            &mp,
            min.to_string(),
            format!("min is larger than capacity value: {max}"),
        ));
    }
    // 1.37 reports a default outside the range on `default` (1.36: on the bound).
    let dp = if cfg!(feature = "v1_37") {
        path.child("default")
    } else {
        path.child("min")
    };
    if default < min {
        errs.push(Error::invalid(
            &dp,
            default.to_string(),
            format!("default is less than min: {min}"),
        ));
    }
    let xp = path.child("max");
    if let Some(upper) = &range.max {
        if min > upper {
            errs.push(Error::invalid(
                &xp,
                min.to_string(),
                format!("min is larger than max: {upper}"),
            ));
        }
        if upper > max {
            errs.push(Error::invalid(
                &xp,
                upper.to_string(),
                format!("max is larger than capacity value: {max}"),
            ));
        }
        if default > upper {
            errs.push(Error::invalid(
                if cfg!(feature = "v1_37") { &dp } else { &xp },
                default.to_string(),
                format!("default is more than max: {upper}"),
            ));
        }
    }
    if let Some(step) = &range.step {
        let sp = path.child("step");
        #[cfg(feature = "v1_37")]
        if step.sign() <= 0 {
            errs.push(Error::invalid(
                &sp,
                step.to_string(),
                "must be greater than zero",
            ));
            return;
        }
        let mut added = min.clone();
        if added.add(step).is_ok() && &added > max {
            errs.push(Error::invalid(
                &sp,
                step.to_string(),
                format!("one step {added} is larger than capacity value: {max}"),
            ));
        }
        #[cfg(feature = "v1_37")]
        if !whole_units_in_int64(default, range, path, errs) {
            return;
        }
        step_multiple(default, min, step, &sp, errs);
        if let Some(upper) = &range.max {
            step_multiple(upper, min, step, &sp, errs);
        }
    }
}

/// Kubernetes 1.37's guard before the step arithmetic (Go's `validateInt64Range` on
/// each of default, min, max and step): whole units read back only in
/// `[0, MaxInt64]`. With the DRAFractionalCapacityRange gate at its default (off:
/// its enabled stage needs `--min-compatibility-version` 1.37), Go always takes this
/// integer path. False when a value is outside, after reporting it.
#[cfg(feature = "v1_37")]
fn whole_units_in_int64(
    default: &Quantity,
    range: &crate::resource::v1::CapacityRequestPolicyRange,
    path: &Path,
    errs: &mut ErrorList,
) -> bool {
    use apimachinery::apis::meta::v1::validation::IS_NEGATIVE_ERROR_MSG;
    let mut safe = true;
    for (name, q) in [
        ("default", Some(default)),
        ("min", range.min.as_ref()),
        ("max", range.max.as_ref()),
        ("step", range.step.as_ref()),
    ] {
        let Some(q) = q else { continue };
        let msg = if q.sign() < 0 {
            IS_NEGATIVE_ERROR_MSG
        } else if q.cmp_int64(i64::MAX).is_gt() {
            "must not be larger than 9223372036854775807"
        } else {
            continue;
        };
        errs.push(Error::invalid(&path.child(name), q.to_string(), msg));
        safe = false;
    }
    safe
}

/// Go's `validateRequestPolicyRangeStep`: `value - min` a multiple of `step` (in whole
/// units, as Go's `Value()` rounds them).
fn step_multiple(
    value: &Quantity,
    min: &Quantity,
    step: &Quantity,
    path: &Path,
    errs: &mut ErrorList,
) {
    let step_val = step.value();
    let added = value.value().wrapping_sub(min.value());
    // Go divides by zero here and panics; a zero step is not a multiple of anything.
    if step_val == 0 || added.wrapping_rem(step_val) != 0 {
        errs.push(Error::invalid(
            path,
            value.to_string(),
            format!("value is not a multiple of a given step ({step}) from ({min})"),
        ));
    }
}
