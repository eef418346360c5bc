//! Go's `pkg/apis/autoscaling/v2/conversion.go`, as the internal form of the
//! `autoscaling/v2` HorizontalPodAutoscaler.

use apimachinery::conversion::ConversionError;

use crate::autoscaling::v2::HorizontalPodAutoscaler;

/// The annotations `autoscaling/v1` keeps the fields it lacks in: `v2` has every field,
/// so Go drops them both ways ("make sure any from other versions don't get
/// serialized", `autoscaling.DropRoundTripHorizontalPodAutoscalerAnnotations`).
pub const ROUND_TRIP_ANNOTATIONS: [&str; 6] = [
    "autoscaling.alpha.kubernetes.io/metrics",
    "autoscaling.alpha.kubernetes.io/behavior",
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    "autoscaling.alpha.kubernetes.io/current-metrics",
    "autoscaling.alpha.kubernetes.io/conditions",
];

fn drop_round_trip_annotations(hpa: &mut HorizontalPodAutoscaler) {
    for key in ROUND_TRIP_ANNOTATIONS {
        hpa.metadata.annotations.remove(key);
    }
}

/// The round-trip annotations dropped.
pub fn horizontal_pod_autoscaler_internalize(
    hpa: &mut HorizontalPodAutoscaler,
) -> Result<(), ConversionError> {
    drop_round_trip_annotations(hpa);
    Ok(())
}

/// The round-trip annotations dropped.
pub fn horizontal_pod_autoscaler_externalize(hpa: &mut HorizontalPodAutoscaler) {
    drop_round_trip_annotations(hpa);
}
