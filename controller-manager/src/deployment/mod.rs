//! The Deployment controller (Go's `pkg/controller/deployment`): a Deployment's Pods run
//! through ReplicaSets, one per template (named `<deployment>-<pod-template-hash>`),
//! which it creates, scales and cleans up:
//!
//! - `RollingUpdate` (the default): the new ReplicaSet grows while the total stays
//!   within `replicas + maxSurge`, old ones shrink while `replicas - maxUnavailable`
//!   Pods stay available, unavailable old Pods going first ([`rollout`]);
//! - `Recreate`: the old ReplicaSets go to zero, and once their Pods are gone the new one
//!   gets every replica;
//! - a change of `replicas` alone scales the active ReplicaSets, in proportion during a
//!   rollout; a paused Deployment is scaled, not rolled;
//! - revisions ([`revision`]): `deployment.kubernetes.io/revision` on the ReplicaSets and
//!   the Deployment, with the history of a reused ReplicaSet, so `kubectl rollout
//!   history` and `kubectl rollout undo` work as in Go (undo is kubectl's: it writes an
//!   old ReplicaSet's template into the Deployment);
//! - `status` and the `Available` and `Progressing` conditions as Go computes them
//!   ([`status`]), so `kubectl rollout status` follows the rollout; `ReplicaFailure`
//!   copied from the ReplicaSets; ReplicaSets beyond `revisionHistoryLimit` deleted.
//!
//! Left out: the deprecated `rollbackTo` (`deprecated.deployment.rollback.to`), Events
//! (`ScalingReplicaSet`), adopting orphan ReplicaSets that match the selector, and
//! `pod-template-hash` values equal to Go's (see [`revision::template_hash`]).

pub mod revision;
pub mod rollout;
pub mod status;

use std::sync::Arc;
use std::time::Duration;

use controller_runtime::builder::ControllerBuilder;
use controller_runtime::client::{ListOptions, ObjectKey};
use controller_runtime::controller::Options as ControllerOptions;
use controller_runtime::manager::Manager;
use controller_runtime::reconcile::{Action, ObjectReconciler};
use k8s_types::apps::v1::{Deployment, ReplicaSet};

use crate::nodes::Clock;
use crate::pods;
use crate::{ControllerContext, Error, names};
use revision::{POD_TEMPLATE_HASH, REVISION, equal_ignore_hash, template_hash};
use rollout::{max_surge, replicas, rs_replicas};

/// The Deployment controller's reconciler.
pub struct DeploymentController {
    mgr: Arc<Manager>,
    clock: Clock,
}

/// Why a sync stopped early: a write lost a race (retry at once) or failed.
enum Stop {
    Retry,
    Failed(controller_runtime::Error),
}

impl From<controller_runtime::client::Error> for Stop {
    fn from(e: controller_runtime::client::Error) -> Self {
        Stop::from(controller_runtime::Error::from(e))
    }
}

impl From<controller_runtime::Error> for Stop {
    fn from(e: controller_runtime::Error) -> Self {
        if e.is_conflict() || e.is_not_found() {
            Stop::Retry
        } else {
            Stop::Failed(e)
        }
    }
}

type Step<T> = Result<T, Stop>;

impl DeploymentController {
    async fn replica_sets(&self, d: &Deployment) -> controller_runtime::Result<Vec<ReplicaSet>> {
        let all = self
            .mgr
            .client()
            .list::<ReplicaSet>(&ListOptions::in_namespace(&d.metadata.namespace))
            .await?;
        let mut owned: Vec<ReplicaSet> = all
            .iter()
            .filter(|rs| {
                rs.metadata
                    .owner_references
                    .iter()
                    .any(|r| r.controller == Some(true) && r.uid == d.metadata.uid)
            })
            .map(|rs| (**rs).clone())
            .collect();
        owned.sort_by_key(|rs| (rs.metadata.creation_timestamp, rs.metadata.name.clone()));
        Ok(owned)
    }

    async fn update_status(&self, d: &mut Deployment) -> Step<()> {
        *d = self
            .mgr
            .client()
            .status()
            .update(&*d, &Default::default())
            .await?;
        Ok(())
    }

    /// Go's `scaleReplicaSet`: the size and the replicas annotations, written when
    /// either changed.
    async fn scale_rs(&self, d: &Deployment, rs: &ReplicaSet, size: i32) -> Step<ReplicaSet> {
        let mut updated = rs.clone();
        updated.spec.replicas = Some(size);
        let annotated = rollout::set_replicas_annotations(
            &mut updated,
            replicas(d),
            replicas(d) + max_surge(d),
        );
        if rs_replicas(rs) == size && !annotated {
            return Ok(updated);
        }
        Ok(self
            .mgr
            .client()
            .update(&updated, &Default::default())
            .await?)
    }

    /// Go's `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when asked
    /// and missing) and the old ones, revisions brought up to date.
    async fn new_and_old(
        &self,
        d: &mut Deployment,
        all: Vec<ReplicaSet>,
        create: bool,
    ) -> Step<(Option<ReplicaSet>, Vec<ReplicaSet>)> {
        let found = all
            .iter()
            .position(|rs| equal_ignore_hash(&rs.spec.template, &d.spec.template));
        let mut old = all;
        let existing = found.map(|i| old.remove(i));
        let next_revision = old.iter().map(revision::revision).max().unwrap_or(0) + 1;
        let now = self.clock.now();
        if let Some(rs) = existing {
            let mut copy = rs.clone();
            let annotated = revision::set_new_rs_annotations(d, &mut copy, next_revision);
            if annotated || copy.spec.min_ready_seconds != d.spec.min_ready_seconds {
                copy.spec.min_ready_seconds = d.spec.min_ready_seconds;
                let written = self.mgr.client().update(&copy, &Default::default()).await?;
                return Ok((Some(written), old));
            }
            let mut changed = set_deployment_revision(d, &copy);
            if d.spec.progress_deadline_seconds.is_some()
                && status::get(&d.status, "Progressing").is_none()
            {
                let message = format!("Found new replica set {:?}", copy.metadata.name);
                status::set(
                    &mut d.status,
                    status::condition("Progressing", "True", "FoundNewReplicaSet", message, &now),
                );
                changed = true;
            }
            if changed {
                self.update_status(d).await?;
            }
            return Ok((Some(copy), old));
        }
        if !create {
            return Ok((None, old));
        }
        let new_rs = self.new_replica_set(d, &old, next_revision);
        let created = match self.mgr.client().create(&new_rs, &Default::default()).await {
            Ok(created) => created,
            Err(e) if e.is_already_exists() => {
                // Ours, created by an earlier sync the cache has not shown yet (read
                // from the server, as Go's lister would eventually show it)?
                let key = ObjectKey::new(&new_rs.metadata.namespace, &new_rs.metadata.name);
                let existing: ReplicaSet = self.mgr.api_reader().get(&key).await?;
                let ours = existing
                    .metadata
                    .owner_references
                    .iter()
                    .any(|r| r.controller == Some(true) && r.uid == d.metadata.uid);
                if ours && equal_ignore_hash(&existing.spec.template, &d.spec.template) {
                    return Ok((Some(existing), old));
                }
                // Another template's: a hash collision; the next hash is tried on the
                // next sync.
                let count = d.status.collision_count.unwrap_or(0);
                d.status.collision_count = Some(count.saturating_add(1));
                self.update_status(d).await?;
                return Err(Stop::Retry);
            }
            Err(e) => {
                if d.spec.progress_deadline_seconds.is_some() {
                    let message = format!(
                        "Failed to create new replica set {:?}: {e}",
                        new_rs.metadata.name
                    );
                    status::set(
                        &mut d.status,
                        status::condition(
                            "Progressing",
                            "False",
                            "ReplicaSetCreateError",
                            message,
                            &now,
                        ),
                    );
                    let _ = self.update_status(d).await;
                }
                return Err(Stop::Failed(e));
            }
        };
        set_deployment_revision(d, &created);
        if d.spec.progress_deadline_seconds.is_some() {
            let message = format!("Created new replica set {:?}", created.metadata.name);
            status::set(
                &mut d.status,
                status::condition("Progressing", "True", "NewReplicaSetCreated", message, &now),
            );
        }
        self.update_status(d).await?;
        Ok((Some(created), old))
    }

    /// The ReplicaSet of the Deployment's template, as Go's `getNewReplicaSet` makes it.
    fn new_replica_set(
        &self,
        d: &Deployment,
        old: &[ReplicaSet],
        next_revision: i64,
    ) -> ReplicaSet {
        let hash = template_hash(&d.spec.template, d.status.collision_count);
        let mut template = d.spec.template.clone();
        template
            .metadata
            .labels
            .insert(POD_TEMPLATE_HASH.into(), hash.clone());
        let mut selector = d.spec.selector.clone().unwrap_or_default();
        selector
            .match_labels
            .insert(POD_TEMPLATE_HASH.into(), hash.clone());
        let mut rs = ReplicaSet::default();
        rs.metadata.name = format!("{}-{hash}", d.metadata.name);
        rs.metadata.namespace = d.metadata.namespace.clone();
        rs.metadata.labels = template.metadata.labels.clone();
        rs.metadata.owner_references = vec![pods::controller_ref(
            "apps/v1",
            "Deployment",
            &d.metadata.name,
            &d.metadata.uid,
        )];
        rs.spec.min_ready_seconds = d.spec.min_ready_seconds;
        rs.spec.selector = Some(selector);
        rs.spec.template = template;
        rs.spec.replicas = Some(0);
        let all: Vec<&ReplicaSet> = old.iter().chain(std::iter::once(&rs)).collect();
        let size = rollout::new_rs_new_replicas(d, &all, &rs);
        rs.spec.replicas = Some(size);
        revision::set_new_rs_annotations(d, &mut rs, next_revision);
        rollout::set_replicas_annotations(&mut rs, replicas(d), replicas(d) + max_surge(d));
        rs
    }

    /// Go's `syncRolloutStatus`: the status with `Progressing`, written when it changed.
    async fn sync_rollout_status(
        &self,
        d: &mut Deployment,
        all: &[&ReplicaSet],
        new_rs: Option<&ReplicaSet>,
        progress: bool,
    ) -> Step<Action> {
        let now = self.clock.now();
        let mut new_status = if progress {
            status::rollout(d, all, new_rs, &now)
        } else {
            status::calculate(d, all, new_rs, &now)
        };
        let failure = new_rs
            .into_iter()
            .chain(all.iter().copied())
            .flat_map(|rs| rs.status.conditions.iter())
            .find(|c| c.r#type == "ReplicaFailure")
            .map(|c| {
                let mut copied = status::condition(
                    "ReplicaFailure",
                    &c.status,
                    &c.reason,
                    c.message.clone(),
                    &now,
                );
                copied.last_transition_time = c.last_transition_time;
                copied
            });
        match failure {
            Some(c) => status::set(&mut new_status, c),
            None => status::remove(&mut new_status, "ReplicaFailure"),
        }
        let requeue = status::seconds_to_deadline(d, &new_status, &now);
        if new_status != d.status {
            d.status = new_status;
            self.update_status(d).await?;
        }
        Ok(match requeue {
            Some(s) => Action::requeue_after(
                self.clock
                    .real_duration(Duration::from_secs(s.unsigned_abs())),
            ),
            None => Action::done(),
        })
    }

    /// Go's `cleanupDeployment`: old ReplicaSets beyond `revisionHistoryLimit`, scaled
    /// to zero and settled, deleted, lowest revision first.
    async fn cleanup(&self, d: &Deployment, old: &[ReplicaSet]) -> Step<()> {
        let Some(limit) = d.spec.revision_history_limit else {
            return Ok(());
        };
        let mut cleanable: Vec<&ReplicaSet> = old
            .iter()
            .filter(|rs| rs.metadata.deletion_timestamp.is_none())
            .collect();
        let excess = cleanable
            .len()
            .saturating_sub(usize::try_from(limit).unwrap_or(0));
        cleanable.sort_by_key(|rs| (revision::revision(rs), rs.metadata.creation_timestamp));
        for rs in cleanable.into_iter().take(excess) {
            if rs.status.replicas != 0
                || rs_replicas(rs) != 0
                || rs.metadata.generation > rs.status.observed_generation
            {
                continue;
            }
            match self.mgr.client().delete(rs, &Default::default()).await {
                Err(e) if !e.is_not_found() => return Err(Stop::Failed(e)),
                _ => {}
            }
        }
        Ok(())
    }

    /// Go's `sync`: scaling alone (a paused Deployment, or one whose `replicas`
    /// changed), then the status without `Progressing` changes.
    async fn sync_scale(&self, d: &mut Deployment, rs_list: Vec<ReplicaSet>) -> Step<Action> {
        let (new_rs, old) = self.new_and_old(d, rs_list, false).await?;
        let has_new = new_rs.is_some();
        let mut all: Vec<ReplicaSet> = old.iter().cloned().chain(new_rs.clone()).collect();
        let before = all.clone();
        rollout::scale(d, &mut all, has_new);
        for (was, now) in before.iter().zip(&all) {
            if rs_replicas(was) != rs_replicas(now) {
                self.scale_rs(d, was, rs_replicas(now)).await?;
            }
        }
        if d.spec.paused {
            self.cleanup(d, &old).await?;
        }
        let refs: Vec<&ReplicaSet> = before.iter().collect();
        let new_ref = if has_new { before.last() } else { None };
        self.sync_rollout_status(d, &refs, new_ref, false).await
    }

    async fn rolling(&self, d: &mut Deployment, rs_list: Vec<ReplicaSet>) -> Step<Action> {
        let (new_rs, mut old) = self.new_and_old(d, rs_list, true).await?;
        let Some(mut new_rs) = new_rs else {
            return Err(Stop::Retry);
        };
        // The new ReplicaSet grows (or shrinks to the Deployment's size).
        let size = rs_replicas(&new_rs);
        if size != replicas(d) {
            let target = if size > replicas(d) {
                replicas(d)
            } else {
                let all: Vec<&ReplicaSet> = old.iter().chain(std::iter::once(&new_rs)).collect();
                rollout::new_rs_new_replicas(d, &all, &new_rs)
            };
            if target != size {
                new_rs = self.scale_rs(d, &new_rs, target).await?;
                let all: Vec<&ReplicaSet> = old.iter().chain(std::iter::once(&new_rs)).collect();
                return self.sync_rollout_status(d, &all, Some(&new_rs), true).await;
            }
        }
        // Then the old ones shrink.
        let before = old.clone();
        if rollout::scale_down_old(d, &mut old, &new_rs) > 0 {
            let mut written = Vec::with_capacity(old.len());
            for rs in &old {
                let was = before
                    .iter()
                    .find(|b| b.metadata.uid == rs.metadata.uid)
                    .unwrap_or(rs);
                written.push(if rs_replicas(was) != rs_replicas(rs) {
                    self.scale_rs(d, was, rs_replicas(rs)).await?
                } else {
                    rs.clone()
                });
            }
            let all: Vec<&ReplicaSet> = written.iter().chain(std::iter::once(&new_rs)).collect();
            return self.sync_rollout_status(d, &all, Some(&new_rs), true).await;
        }
        if status::is_complete(d, &d.status) {
            self.cleanup(d, &old).await?;
        }
        let all: Vec<&ReplicaSet> = old.iter().chain(std::iter::once(&new_rs)).collect();
        self.sync_rollout_status(d, &all, Some(&new_rs), true).await
    }

    async fn recreate(&self, d: &mut Deployment, rs_list: Vec<ReplicaSet>) -> Step<Action> {
        let (mut new_rs, old) = self.new_and_old(d, rs_list, false).await?;
        let mut scaled_down = false;
        let mut olds = Vec::with_capacity(old.len());
        for rs in &old {
            if rs_replicas(rs) > 0 {
                olds.push(self.scale_rs(d, rs, 0).await?);
                scaled_down = true;
            } else {
                olds.push(rs.clone());
            }
        }
        let running: i32 = olds
            .iter()
            .map(|rs| rs.status.replicas + rs.status.terminating_replicas.unwrap_or(0))
            .sum();
        if scaled_down || running > 0 {
            let all: Vec<&ReplicaSet> = olds.iter().chain(new_rs.as_ref()).collect();
            return self
                .sync_rollout_status(d, &all, new_rs.as_ref(), true)
                .await;
        }
        if new_rs.is_none() {
            let rs_list = olds.clone();
            new_rs = self.new_and_old(d, rs_list, true).await?.0;
        }
        let Some(mut new_rs) = new_rs else {
            return Err(Stop::Retry);
        };
        new_rs = self.scale_rs(d, &new_rs, replicas(d)).await?;
        if status::is_complete(d, &d.status) {
            self.cleanup(d, &olds).await?;
        }
        let all: Vec<&ReplicaSet> = olds.iter().chain(std::iter::once(&new_rs)).collect();
        self.sync_rollout_status(d, &all, Some(&new_rs), true).await
    }

    async fn sync(&self, d: &mut Deployment) -> Step<Action> {
        let rs_list = self.replica_sets(d).await?;
        if d.metadata.deletion_timestamp.is_some() {
            let (new_rs, old) = self.new_and_old(d, rs_list, false).await?;
            let all: Vec<&ReplicaSet> = old.iter().chain(new_rs.as_ref()).collect();
            return self
                .sync_rollout_status(d, &all, new_rs.as_ref(), false)
                .await;
        }
        let now = self.clock.now();
        let mut paused_status = d.status.clone();
        if status::paused_condition(d, &mut paused_status, &now) {
            d.status = paused_status;
            self.update_status(d).await?;
        }
        if d.spec.paused || is_scaling_event(d, &rs_list) {
            return self.sync_scale(d, rs_list).await;
        }
        if rollout::is_rolling(d) {
            self.rolling(d, rs_list).await
        } else {
            self.recreate(d, rs_list).await
        }
    }
}

/// Go's `SetDeploymentRevision` from the new ReplicaSet's revision; true when changed.
fn set_deployment_revision(d: &mut Deployment, new_rs: &ReplicaSet) -> bool {
    let Some(rev) = new_rs.metadata.annotations.get(REVISION) else {
        return false;
    };
    if d.metadata.annotations.get(REVISION) == Some(rev) {
        return false;
    }
    d.metadata.annotations.insert(REVISION.into(), rev.clone());
    true
}

/// Go's `isScalingEvent`: an active ReplicaSet of the Deployment's template records
/// another size than the Deployment asks for.
fn is_scaling_event(d: &Deployment, rs_list: &[ReplicaSet]) -> bool {
    rs_list
        .iter()
        .filter(|rs| rs_replicas(rs) > 0)
        .filter_map(|rs| rs.metadata.annotations.get(rollout::DESIRED_REPLICAS))
        .filter_map(|v| v.parse::<i32>().ok())
        .any(|desired| desired != replicas(d))
}

impl ObjectReconciler<Deployment> for DeploymentController {
    async fn reconcile(&self, d: Arc<Deployment>) -> controller_runtime::Result<Action> {
        // Go's controller does nothing for a selector that selects everything.
        if d.spec
            .selector
            .as_ref()
            .is_none_or(|s| s.match_labels.is_empty() && s.match_expressions.is_empty())
        {
            return Ok(Action::done());
        }
        let mut d = (*d).clone();
        match self.sync(&mut d).await {
            Ok(action) => Ok(action),
            Err(Stop::Retry) => Ok(Action::requeue()),
            Err(Stop::Failed(e)) => Err(e),
        }
    }
}

/// Registers the Deployment controller on the context's manager (Go's `ConcurrentDeploymentSyncs`, 5
/// workers).
pub(crate) fn start(context: &ControllerContext<'_>) -> Result<(), Error> {
    let (mgr, clock) = (context.manager, context.options.simulated_clock());
    let register = |message: String| Error::Register {
        controller: names::DEPLOYMENT_CONTROLLER,
        message,
    };
    ControllerBuilder::new(mgr)
        .named(names::DEPLOYMENT_CONTROLLER)
        .for_kind::<Deployment>()
        .owns::<ReplicaSet>()
        .with_options(ControllerOptions {
            max_concurrent_reconciles: 5,
            ..ControllerOptions::default()
        })
        .complete_object(DeploymentController {
            mgr: Arc::clone(mgr),
            clock,
        })
        .map_err(|e| register(e.to_string()))?;
    Ok(())
}
