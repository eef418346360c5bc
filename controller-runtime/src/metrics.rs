//! The controllers' metrics in Prometheus' text format (Go's `pkg/metrics` and its
//! metrics server): what a manager given a metrics address serves at `/metrics`, under
//! Go's names, so that dashboards and alerts written for Go's controllers read ours.
//!
//! Served: `controller_runtime_reconcile_total` (by `result`: `error`, `requeue`,
//! `requeue_after`, `success`), `controller_runtime_reconcile_errors_total`,
//! `controller_runtime_terminal_reconcile_errors_total`,
//! `controller_runtime_reconcile_panics_total`,
//! `controller_runtime_reconcile_time_seconds` (a histogram in Go's buckets),
//! `controller_runtime_max_concurrent_reconciles`, `controller_runtime_active_workers`
//! and `workqueue_depth`. Not served: the other work queue series, client and process
//! metrics.
//!
//! ```
//! use std::sync::Arc;
//! use controller_runtime::controller::{Controller, Options};
//! use controller_runtime::metrics;
//! use controller_runtime::reconcile::{self, Action, Request};
//!
//! let noop = reconcile::func(|_req: Request| async {
//!     Ok::<_, std::convert::Infallible>(Action::done())
//! });
//! let controller = Arc::new(Controller::new("configmap", noop, Options::default()));
//! controller.queue().add(Request::new("default", "a"));
//! let text = metrics::render(&[controller as Arc<dyn metrics::ControllerMetrics>]);
//! assert!(text.contains("controller_runtime_reconcile_total{controller=\"configmap\",result=\"success\"} 0\n"));
//! assert!(text.contains("workqueue_depth{controller=\"configmap\",name=\"configmap\"} 1\n"));
//! ```

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};

use crate::controller::{Controller, Metrics};
use crate::reconcile::Reconciler;

/// The content type of the text format (version 0.0.4), as Prometheus' Go client sends.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// What the metrics of one controller are read from (implemented by [`Controller`]).
pub trait ControllerMetrics: Send + Sync {
    /// The controller's name (the `controller` label; the work queue's `name` too).
    fn name(&self) -> &str;
    /// The reconcile counters.
    fn counters(&self) -> &Metrics;
    /// How many reconciles may run at once.
    fn max_concurrent_reconciles(&self) -> usize;
    /// How many reconciles are running.
    fn active_workers(&self) -> usize;
    /// How many requests wait in the work queue.
    fn queue_depth(&self) -> usize;
}

impl<R: Reconciler> ControllerMetrics for Controller<R> {
    fn name(&self) -> &str {
        Controller::name(self)
    }
    fn counters(&self) -> &Metrics {
        self.metrics()
    }
    fn max_concurrent_reconciles(&self) -> usize {
        Controller::max_concurrent_reconciles(self)
    }
    fn active_workers(&self) -> usize {
        self.queue().num_processing()
    }
    fn queue_depth(&self) -> usize {
        self.queue().len()
    }
}

/// Takes one sample: the suffix of its name (a histogram's `_bucket`, `_sum` and
/// `_count`), its labels beyond `controller`, and its value.
type Sample<'a> = dyn FnMut(&str, &[(&str, &str)], f64) + 'a;

/// One metric family: its name, help, type and how each controller's samples read.
struct Family {
    name: &'static str,
    help: &'static str,
    kind: &'static str,
    samples: fn(&dyn ControllerMetrics, &mut Sample<'_>),
}

fn counter(c: &std::sync::atomic::AtomicU64) -> f64 {
    c.load(Ordering::Relaxed) as f64
}

/// In the order Prometheus' Go client writes them: by name.
const FAMILIES: &[Family] = &[
    Family {
        name: "controller_runtime_active_workers",
        help: "Number of currently used workers per controller",
        kind: "gauge",
        samples: |c, out| out("", &[], c.active_workers() as f64),
    },
    Family {
        name: "controller_runtime_max_concurrent_reconciles",
        help: "Maximum number of concurrent reconciles per controller",
        kind: "gauge",
        samples: |c, out| out("", &[], c.max_concurrent_reconciles() as f64),
    },
    Family {
        name: "controller_runtime_reconcile_errors_total",
        help: "Total number of reconciliation errors per controller",
        kind: "counter",
        samples: |c, out| out("", &[], counter(&c.counters().error)),
    },
    Family {
        name: "controller_runtime_reconcile_panics_total",
        help: "Total number of reconciliation panics per controller",
        kind: "counter",
        samples: |c, out| out("", &[], counter(&c.counters().panic)),
    },
    Family {
        name: "controller_runtime_reconcile_time_seconds",
        help: "Length of time per reconciliation per controller",
        kind: "histogram",
        samples: |c, out| {
            let time = &c.counters().reconcile_time;
            for (le, n) in time.cumulative() {
                out("_bucket", &[("le", &le.to_string())], n as f64);
            }
            out("_bucket", &[("le", "+Inf")], time.count() as f64);
            out("_sum", &[], time.sum().as_secs_f64());
            out("_count", &[], time.count() as f64);
        },
    },
    Family {
        name: "controller_runtime_reconcile_total",
        help: "Total number of reconciliations per controller",
        kind: "counter",
        samples: |c, out| {
            let m = c.counters();
            out("", &[("result", "error")], counter(&m.error));
            out("", &[("result", "requeue")], counter(&m.requeue));
            out(
                "",
                &[("result", "requeue_after")],
                counter(&m.requeue_after),
            );
            out("", &[("result", "success")], counter(&m.success));
        },
    },
    Family {
        name: "controller_runtime_terminal_reconcile_errors_total",
        help: "Total number of terminal reconciliation errors per controller",
        kind: "counter",
        samples: |c, out| out("", &[], counter(&c.counters().terminal_error)),
    },
    Family {
        name: "workqueue_depth",
        help: "Current depth of workqueue",
        kind: "gauge",
        samples: |c, out| out("", &[("name", c.name())], c.queue_depth() as f64),
    },
];

/// A label value as the text format quotes it.
fn escape(value: &str, out: &mut String) {
    for ch in value.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

/// The text exposition of `controllers`' metrics, controllers sorted by name; nothing
/// when there is no controller (as Go's client leaves out families without samples).
pub fn render(controllers: &[Arc<dyn ControllerMetrics>]) -> String {
    let mut sorted: Vec<&dyn ControllerMetrics> = controllers.iter().map(|c| &**c).collect();
    sorted.sort_by(|a, b| a.name().cmp(b.name()));
    let mut text = String::new();
    if sorted.is_empty() {
        return text;
    }
    for family in FAMILIES {
        let _ = writeln!(text, "# HELP {} {}", family.name, family.help);
        let _ = writeln!(text, "# TYPE {} {}", family.name, family.kind);
        for c in &sorted {
            (family.samples)(*c, &mut |suffix, labels, value| {
                text.push_str(family.name);
                text.push_str(suffix);
                text.push_str("{controller=\"");
                escape(c.name(), &mut text);
                text.push('"');
                for (k, v) in labels {
                    let _ = write!(text, ",{k}=\"");
                    escape(v, &mut text);
                    text.push('"');
                }
                let _ = writeln!(text, "}} {value}");
            });
        }
    }
    text
}

/// The manager's metrics server: `/metrics`, and 404 elsewhere.
pub(crate) fn answer(
    controllers: &[Arc<dyn ControllerMetrics>],
    req: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    if req.uri().path() != "/metrics" {
        return crate::http_server::text(
            404,
            "text/plain; charset=utf-8",
            "404 page not found\n".into(),
        );
    }
    crate::http_server::text(200, CONTENT_TYPE, render(controllers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::Options;
    use crate::reconcile::{self, Action, Request};

    fn controller(name: &str) -> Arc<dyn ControllerMetrics> {
        let noop = reconcile::func(|_req: Request| async {
            Ok::<_, std::convert::Infallible>(Action::done())
        });
        let options = Options {
            max_concurrent_reconciles: 3,
            ..Options::default()
        };
        Arc::new(Controller::new(name, noop, options))
    }

    #[test]
    fn families_in_gos_names_and_order() {
        let b = controller("b\"q");
        b.counters().success.fetch_add(5, Ordering::Relaxed);
        b.counters().error.fetch_add(2, Ordering::Relaxed);
        b.counters().panic.fetch_add(1, Ordering::Relaxed);
        for ms in [3, 20, 70_000] {
            b.counters()
                .reconcile_time
                .observe(std::time::Duration::from_millis(ms));
        }
        let text = render(&[b, controller("a")]);
        // The histogram, cumulative, in Go's bucket labels.
        let histogram: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("reconcile_time_seconds") && l.contains("b\\\"q"))
            .collect();
        assert_eq!(histogram.len(), 43, "{histogram:#?}");
        for line in [
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"0.005\"} 1",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"0.01\"} 1",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"0.025\"} 2",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"1\"} 2",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"60\"} 2",
            "controller_runtime_reconcile_time_seconds_bucket{controller=\"b\\\"q\",le=\"+Inf\"} 3",
            "controller_runtime_reconcile_time_seconds_sum{controller=\"b\\\"q\"} 70.023",
            "controller_runtime_reconcile_time_seconds_count{controller=\"b\\\"q\"} 3",
        ] {
            assert!(histogram.contains(&line), "{line} not in {histogram:#?}");
        }
        assert!(text.contains(
            "# TYPE controller_runtime_reconcile_time_seconds histogram\n\
             controller_runtime_reconcile_time_seconds_bucket{controller=\"a\",le=\"0.005\"} 0\n"
        ));
        // Everything else, whole.
        let text: String = text
            .lines()
            .filter(|l| !l.contains("reconcile_time_seconds"))
            .flat_map(|l| [l, "\n"])
            .collect();
        let expected = "\
# HELP controller_runtime_active_workers Number of currently used workers per controller
# TYPE controller_runtime_active_workers gauge
controller_runtime_active_workers{controller=\"a\"} 0
controller_runtime_active_workers{controller=\"b\\\"q\"} 0
# HELP controller_runtime_max_concurrent_reconciles Maximum number of concurrent reconciles per controller
# TYPE controller_runtime_max_concurrent_reconciles gauge
controller_runtime_max_concurrent_reconciles{controller=\"a\"} 3
controller_runtime_max_concurrent_reconciles{controller=\"b\\\"q\"} 3
# HELP controller_runtime_reconcile_errors_total Total number of reconciliation errors per controller
# TYPE controller_runtime_reconcile_errors_total counter
controller_runtime_reconcile_errors_total{controller=\"a\"} 0
controller_runtime_reconcile_errors_total{controller=\"b\\\"q\"} 2
# HELP controller_runtime_reconcile_panics_total Total number of reconciliation panics per controller
# TYPE controller_runtime_reconcile_panics_total counter
controller_runtime_reconcile_panics_total{controller=\"a\"} 0
controller_runtime_reconcile_panics_total{controller=\"b\\\"q\"} 1
# HELP controller_runtime_reconcile_total Total number of reconciliations per controller
# TYPE controller_runtime_reconcile_total counter
controller_runtime_reconcile_total{controller=\"a\",result=\"error\"} 0
controller_runtime_reconcile_total{controller=\"a\",result=\"requeue\"} 0
controller_runtime_reconcile_total{controller=\"a\",result=\"requeue_after\"} 0
controller_runtime_reconcile_total{controller=\"a\",result=\"success\"} 0
controller_runtime_reconcile_total{controller=\"b\\\"q\",result=\"error\"} 2
controller_runtime_reconcile_total{controller=\"b\\\"q\",result=\"requeue\"} 0
controller_runtime_reconcile_total{controller=\"b\\\"q\",result=\"requeue_after\"} 0
controller_runtime_reconcile_total{controller=\"b\\\"q\",result=\"success\"} 5
# HELP controller_runtime_terminal_reconcile_errors_total Total number of terminal reconciliation errors per controller
# TYPE controller_runtime_terminal_reconcile_errors_total counter
controller_runtime_terminal_reconcile_errors_total{controller=\"a\"} 0
controller_runtime_terminal_reconcile_errors_total{controller=\"b\\\"q\"} 0
# HELP workqueue_depth Current depth of workqueue
# TYPE workqueue_depth gauge
workqueue_depth{controller=\"a\",name=\"a\"} 0
workqueue_depth{controller=\"b\\\"q\",name=\"b\\\"q\"} 0
";
        assert_eq!(text, expected);
        assert_eq!(render(&[]), "");
    }
}
