//! `extensions/v1beta1` and `networking.k8s.io/v1beta1` Ingress backends ⇄ the
//! `networking.k8s.io/v1` hub.
//!
//! The old backend names a Service by `serviceName` and `servicePort` (a number or a
//! port name); `v1` has `service: {name, port: {number | name}}`. As in Kubernetes: a
//! backend with a service name or a port gets a `service` (a string port becomes
//! `port.name`, an integer `port.number`); coming back, a non-empty `port.name` wins
//! over `port.number`. The spec's `backend` is `v1`'s `defaultBackend` (a
//! rename the generator applies).

use apimachinery::conversion::{ConversionError, Convert, Scope};

use crate::networking::v1::{IngressBackend, IngressServiceBackend, ServiceBackendPort};
use crate::value::IntOrString;

fn to_hub(
    service_name: &str,
    service_port: &IntOrString,
    resource: Option<crate::core::v1::TypedLocalObjectReference>,
) -> IngressBackend {
    let has_port = match service_port {
        IntOrString::Int(n) => *n != 0,
        IntOrString::String(_) => true,
    };
    let service = (!service_name.is_empty() || has_port).then(|| IngressServiceBackend {
        name: service_name.to_owned(),
        port: match service_port {
            IntOrString::Int(n) => ServiceBackendPort {
                name: String::new(),
                number: *n,
            },
            IntOrString::String(s) => ServiceBackendPort {
                name: s.clone(),
                number: 0,
            },
        },
    });
    IngressBackend { service, resource }
}

/// The old shape: (serviceName, servicePort).
fn from_hub(b: &IngressBackend) -> (String, IntOrString) {
    let Some(service) = &b.service else {
        return (String::new(), IntOrString::default());
    };
    let port = if service.port.name.is_empty() {
        IntOrString::Int(service.port.number)
    } else {
        IntOrString::String(service.port.name.clone())
    };
    (service.name.clone(), port)
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
                        &self.service_name,
                        &self.service_port,
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
