//! The annotations where `apps/v1` keeps fields that only older versions have, so that a
//! round trip through `apps/v1` loses nothing (Go's `pkg/apis/apps/v1` conversions) and
//! validation can check what they hold. Not behind a feature: conversion (`scheme`) and
//! validation (`validation`) both read them.

/// Where `apps/v1` keeps a Deployment's deprecated `spec.rollbackTo.revision`.
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";

/// Where `apps/v1` keeps a DaemonSet's deprecated `spec.templateGeneration`
/// (`extensions/v1beta1`).
pub const DEPRECATED_TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";
