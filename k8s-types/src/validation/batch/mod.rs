//! The batch group's validation (Go's `pkg/apis/batch/validation` and the strategies of
//! `pkg/registry/batch`): Job (its counts, completion modes, pod failure and success
//! policies, generated selector and update rules, and its status transitions) and CronJob (its schedule, as
//! Kubernetes' cron parser reads it, and its time zone, as Go's `time` package finds
//! it).

mod cron_job;
mod cron_schedule;
mod job;
mod job_policies;
#[cfg(feature = "v1_37")]
mod job_scheduling;
mod job_status;
mod time_zone;

pub use cron_job::{validate_cron_job, validate_cron_job_update};
pub use cron_schedule::parse_schedule;
pub use job::{validate_job, validate_job_spec, validate_job_update};
pub use job_status::validate_job_status_update;
