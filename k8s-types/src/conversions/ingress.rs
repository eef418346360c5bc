//! `extensions/v1beta1` and `networking.k8s.io/v1beta1` Ingress backends ⇄ the
//! `networking.k8s.io/v1` hub.
//!
//! The old backend names a Service by `serviceName` and `servicePort` (a number or a
//! port name); `v1` has `service: {name, port: {number | name}}`. As in Kubernetes: a
//! backend with a service name or a port gets a `service` (a string port becomes
//! `port.name`, an integer `port.number`); coming back, `port.name` wins over
//! `port.number` when both are set. The spec's `backend` is `v1`'s `defaultBackend` (a
//! rename the generator applies).

use apimachinery::conversion::{ConversionError, Convert, Scope};

use crate::networking::v1::{IngressBackend, IngressServiceBackend, ServiceBackendPort};
use crate::value::IntOrString;

fn to_hub(
    service_name: Option<&String>,
    service_port: Option<&IntOrString>,
    resource: Option<crate::core::v1::TypedLocalObjectReference>,
) -> IngressBackend {
    let has_name = service_name.is_some_and(|n| !n.is_empty());
    let has_port = match service_port {
        Some(IntOrString::Int(n)) => *n != 0,
        Some(IntOrString::String(_)) => true,
        None => false,
    };
    // Go's `port` is a struct, written even when empty.
    let service = (has_name || has_port).then(|| IngressServiceBackend {
        name: service_name.cloned().unwrap_or_default(),
        port: Some(match service_port {
            Some(IntOrString::Int(n)) if *n != 0 => ServiceBackendPort {
                name: None,
                number: Some(*n),
            },
            Some(IntOrString::String(s)) => ServiceBackendPort {
                name: Some(s.clone()),
                number: None,
            },
            _ => ServiceBackendPort::default(),
        }),
    });
    IngressBackend { service, resource }
}

/// The old shape: (serviceName, servicePort).
fn from_hub(b: &IngressBackend) -> (Option<String>, Option<IntOrString>) {
    let Some(service) = &b.service else {
        return (None, None);
    };
    let port = service
        .port
        .as_ref()
        .and_then(|p| match (&p.name, p.number) {
            (Some(name), _) if !name.is_empty() => Some(IntOrString::String(name.clone())),
            (_, Some(n)) if n != 0 => Some(IntOrString::Int(n)),
            _ => None,
        });
    (Some(service.name.clone()), port)
}

macro_rules! backend_conversion {
    ($version:path) => {
        const _: () = {
            use $version as old;
            impl Convert<IngressBackend> for old::IngressBackend {
                fn convert(self, scope: &Scope<'_>) -> Result<IngressBackend, ConversionError> {
                    self.convert_ref(scope)
                }
                fn convert_ref(&self, _: &Scope<'_>) -> Result<IngressBackend, ConversionError> {
                    Ok(to_hub(
                        self.service_name.as_ref(),
                        self.service_port.as_ref(),
                        self.resource.clone(),
                    ))
                }
            }

            impl Convert<old::IngressBackend> for IngressBackend {
                fn convert(
                    self,
                    scope: &Scope<'_>,
                ) -> Result<old::IngressBackend, ConversionError> {
                    self.convert_ref(scope)
                }
                fn convert_ref(
                    &self,
                    _: &Scope<'_>,
                ) -> Result<old::IngressBackend, ConversionError> {
                    let (service_name, service_port) = from_hub(self);
                    Ok(old::IngressBackend {
                        service_name,
                        service_port,
                        resource: self.resource.clone(),
                    })
                }
            }
        };
    };
}

#[cfg(feature = "extensions")]
backend_conversion!(crate::extensions::v1beta1);
backend_conversion!(crate::networking::v1beta1);
