//! The hand-written part of each type's [`InternalForm`]: what Go's hand-written
//! conversions between a hub version and the internal version do
//! (`pkg/apis/<group>/<version>/conversion.go` of the version that is the hub here, or
//! the kind's only version). `cargo xtask codegen` writes the `InternalForm` of every
//! struct that holds such a type (a Deployment's pod template holds a `PodSpec`), visiting
//! those fields first, then calling these functions for the struct itself.
//!
//! Each function pair works on the external type in place: `*_internalize` leaves the
//! value as Go's internal object holds it (what the internal type has no field for is
//! emptied), `*_externalize` adds what Go's conversion back adds. Where the internal
//! type keeps a value the external one has no field for, the external type keeps it the
//! way Go's own round trip does: in the annotation Go writes (a Deployment's
//! `rollbackTo`, a DaemonSet's `templateGeneration`).
//!
//! | module | Go's file | what moves |
//! | --- | --- | --- |
//! | [`core_v1`] | `core/v1/conversion.go` | a Secret's `stringData` into `data`; a node's `podCIDR` and `podCIDRs`; in 1.36 only, a pod's `serviceAccount` and `serviceAccountName`, `podIP` and `podIPs`, host namespaces and `securityContext`, negative grace periods, init-container annotations (1.37 defaults the pairs instead and drops the annotations in the pod strategies) |
//! | [`apps_v1`] | `apps/v1/conversion.go` | a Deployment's `rollbackTo` and a DaemonSet's `templateGeneration` annotations; a StatefulSet's claim templates' kind |
//! | [`apps_v1beta1`] | `apps/v1beta1/conversion.go` | a StatefulSet's claim templates' kind |
//! | [`autoscaling_v2`] | `autoscaling/v2/conversion.go` | the annotations older versions keep their fields in |
//! | `policy_v1` | `policy/v1/conversion.go` (1.36 only: 1.37 strips the label in the PodDisruptionBudget strategy) | the label `policy/v1beta1` selectors carry |
//!
//! [`InternalForm`]: apimachinery::conversion::InternalForm

#[cfg(feature = "apps")]
pub mod apps_v1;
#[cfg(feature = "apps")]
pub mod apps_v1beta1;
#[cfg(feature = "autoscaling")]
pub mod autoscaling_v2;
#[cfg(feature = "core")]
pub mod core_v1;
#[cfg(all(feature = "policy", not(feature = "v1_37")))]
pub mod policy_v1;
