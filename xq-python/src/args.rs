//! The one place the package checks the numbers it is given: an int within a range, a
//! number of seconds. The engine's limits and options, self-play's settings and
//! `xq.engine.Limit` (through `_check_int` and `_check_seconds`) all say the same thing
//! the same way: `depth must be an int from 1 to 4294967295, not -1`.

use crate::errors::{Error, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};
use std::time::Duration;

/// The type's name as Python says it (`str`, `float`...).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// A value as an error message shows it: its repr, cut short.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    let text = obj.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// A bound as the messages write it: `2**64 - 1` and `2**63 - 1` for the largest ones.
fn bound(v: i128) -> String {
    match v {
        v if v == i128::from(u64::MAX) => "2**64 - 1".into(),
        v if v == i128::from(i64::MAX) => "2**63 - 1".into(),
        v => v.to_string(),
    }
}

/// The int `name` within `min..=max`, or the error `error` makes of what it must be: a
/// bool, a float, a str or an int out of range is refused (never an OverflowError).
pub(crate) fn int_in(
    name: &str,
    obj: &Bound<'_, PyAny>,
    min: i128,
    max: i128,
    error: &dyn Fn(String) -> PyErr,
) -> PyResult<i128> {
    // Formatted only on the way to an error: the environments check a history at
    // every observation.
    let range = || {
        format!(
            "{name} must be an int from {} to {}",
            bound(min),
            bound(max)
        )
    };
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(error(format!("{}, not a {}", range(), type_name(obj))));
    }
    match obj.extract::<i128>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(error(format!("{}, not {}", range(), shown(obj)))),
    }
}

/// [`int_in`] for an optional argument (`None` or Python's `None`: not given).
pub(crate) fn opt_int_in(
    name: &str,
    obj: Option<&Bound<'_, PyAny>>,
    min: i128,
    max: i128,
    error: &dyn Fn(String) -> PyErr,
) -> PyResult<Option<i128>> {
    match obj.filter(|o| !o.is_none()) {
        Some(obj) => int_in(name, obj, min, max, error).map(Some),
        None => Ok(None),
    }
}

/// A number of seconds `name` (an int or a float; `None`: not given), finite, above 0
/// when `positive` (else at least 0) and below ten million; refused with `InvalidLimit`.
pub(crate) fn seconds(
    name: &str,
    obj: Option<&Bound<'_, PyAny>>,
    positive: bool,
) -> PyResult<Option<Duration>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let what = if positive {
        "a positive"
    } else {
        "a non-negative"
    };
    if obj.is_instance_of::<PyBool>()
        || !(obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>())
    {
        return Err(limit_error(format!(
            "{name} must be {what} number of seconds, not a {}",
            type_name(obj)
        )));
    }
    let t: f64 = obj.extract().unwrap_or(f64::NAN);
    let ok = t.is_finite() && t < 1e7 && if positive { t > 0.0 } else { t >= 0.0 };
    if !ok {
        return Err(limit_error(format!(
            "{name} must be {what} number of seconds (below 10,000,000), not {}",
            shown(obj)
        )));
    }
    Ok(Some(Duration::from_secs_f64(t)))
}

/// An `InvalidLimit` with `message`.
pub(crate) fn limit_error(message: String) -> PyErr {
    crate::errors::invalid_limit(message)
}

/// An `InvalidArgument` with `message`.
pub(crate) fn argument_error(message: String) -> PyErr {
    Error::new(Kind::InvalidArgument, message).into()
}

/// `_check_int(name, value, low, high)`: raises `InvalidLimit` unless `value` is an int
/// from `low` to `high` (None passes): what `xq.engine.Limit` checks its fields with.
#[pyfunction]
pub fn _check_int(name: &str, value: &Bound<'_, PyAny>, low: i128, high: i128) -> PyResult<()> {
    opt_int_in(name, Some(value), low, high, &limit_error).map(drop)
}

/// `_check_seconds(name, value, positive)`: raises `InvalidLimit` unless `value` is a
/// number of seconds (None passes).
#[pyfunction]
pub fn _check_seconds(name: &str, value: &Bound<'_, PyAny>, positive: bool) -> PyResult<()> {
    seconds(name, Some(value), positive).map(drop)
}
