//! Revisions and the new ReplicaSet (Go's `deployment_util.go`): the ReplicaSet whose
//! template is the Deployment's, ignoring `pod-template-hash`, is the new one; its
//! `deployment.kubernetes.io/revision` is one more than the old ones' highest, the
//! revisions it had before go to `deployment.kubernetes.io/revision-history` (this is
//! what makes `kubectl rollout undo` work: kubectl copies an old ReplicaSet's template
//! into the Deployment, which makes that ReplicaSet the new one, with the next
//! revision); the Deployment's annotations are copied to it, but for those that belong
//! to the Deployment alone.

use k8s_types::apps::v1::{Deployment, ReplicaSet};
use k8s_types::core::v1::PodTemplateSpec;

/// `pod-template-hash`: the label telling a Deployment's ReplicaSets (and their Pods)
/// apart.
pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";
/// `deployment.kubernetes.io/revision`.
pub const REVISION: &str = "deployment.kubernetes.io/revision";
/// `deployment.kubernetes.io/revision-history`.
pub const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";
/// The longest `revision-history` Go keeps, in characters.
const MAX_REVISION_HISTORY_CHARS: usize = 2000;

/// Annotations of the Deployment that stay off its ReplicaSets (Go's
/// `skipCopyAnnotation`).
const NOT_COPIED: [&str; 6] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    REVISION_HISTORY,
    super::rollout::DESIRED_REPLICAS,
    super::rollout::MAX_REPLICAS,
    "deprecated.deployment.rollback.to",
];

/// The hash naming a template's ReplicaSet: FNV-1a (32 bits, as Go's `ComputeHash`) of
/// the template's JSON and the collision count, written with Go's `SafeEncodeString`
/// alphabet. Go hashes its own printing of the Go struct, so the values differ from
/// kube-controller-manager's; their form is the same.
pub fn template_hash(template: &PodTemplateSpec, collision_count: Option<i32>) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut hash: u32 = 0x811c_9dc5;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u32::from(*b);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    };
    feed(&serde_json::to_vec(template).unwrap_or_default());
    if let Some(count) = collision_count {
        feed(&count.to_le_bytes());
    }
    hash.to_string()
        .bytes()
        .map(|b| char::from(ALPHANUMS[usize::from(b) % ALPHANUMS.len()]))
        .collect()
}

/// Go's `EqualIgnoreHash`.
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    if a.spec != b.spec {
        return false;
    }
    let (mut a, mut b) = (a.metadata.clone(), b.metadata.clone());
    a.labels.remove(POD_TEMPLATE_HASH);
    b.labels.remove(POD_TEMPLATE_HASH);
    a == b
}

/// A ReplicaSet's revision (0 when it has none or it does not parse).
pub fn revision(rs: &ReplicaSet) -> i64 {
    rs.metadata
        .annotations
        .get(REVISION)
        .and_then(|r| r.parse().ok())
        .unwrap_or(0)
}

/// Go's `SetNewReplicaSetAnnotations` (without the replicas annotations): the
/// Deployment's annotations copied, the revision raised to `new_revision` with the old
/// one kept in the history. True when something changed.
pub fn set_new_rs_annotations(d: &Deployment, rs: &mut ReplicaSet, new_revision: i64) -> bool {
    let mut changed = false;
    for (k, v) in &d.metadata.annotations {
        if NOT_COPIED.contains(&k.as_str()) || rs.metadata.annotations.get(k) == Some(v) {
            continue;
        }
        rs.metadata.annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    let annotations = &mut rs.metadata.annotations;
    let old = annotations.get(REVISION).cloned();
    let old_revision = match old.as_deref() {
        None | Some("") => 0,
        Some(text) => match text.parse::<i64>() {
            Ok(v) => v,
            // Go leaves a ReplicaSet with an unparsable revision alone.
            Err(_) => return false,
        },
    };
    if old_revision < new_revision {
        annotations.insert(REVISION.into(), new_revision.to_string());
        changed = true;
        if let Some(old) = old {
            let history = annotations
                .get(REVISION_HISTORY)
                .cloned()
                .unwrap_or_default();
            let mut revisions: Vec<&str> = if history.is_empty() {
                Vec::new()
            } else {
                history.split(',').collect()
            };
            let mut total = history.len() + old.len() + 1;
            while total > MAX_REVISION_HISTORY_CHARS && !revisions.is_empty() {
                total -= revisions[0].len() + 1;
                revisions.remove(0);
            }
            revisions.push(&old);
            annotations.insert(REVISION_HISTORY.into(), revisions.join(","));
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_ignores_nothing_but_is_stable_and_safe() {
        let mut t = PodTemplateSpec::default();
        t.metadata.labels.insert("app".into(), "web".into());
        let h = template_hash(&t, None);
        assert_eq!(h, template_hash(&t, None));
        assert_ne!(h, template_hash(&t, Some(1)));
        assert!(
            h.bytes()
                .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)),
            "{h}"
        );
        let mut hashed = t.clone();
        hashed.metadata.labels.insert(POD_TEMPLATE_HASH.into(), h);
        assert!(equal_ignore_hash(&t, &hashed));
        hashed.metadata.labels.insert("tier".into(), "x".into());
        assert!(!equal_ignore_hash(&t, &hashed));
    }

    #[test]
    fn a_reused_replicaset_keeps_its_old_revisions() {
        let mut d = Deployment::default();
        d.metadata.annotations.insert("team".into(), "a".into());
        d.metadata.annotations.insert(REVISION.into(), "3".into());
        let mut rs = ReplicaSet::default();
        assert!(set_new_rs_annotations(&d, &mut rs, 1));
        assert_eq!(
            rs.metadata.annotations.get(REVISION).map(String::as_str),
            Some("1")
        );
        assert_eq!(
            rs.metadata.annotations.get("team").map(String::as_str),
            Some("a")
        );
        assert!(!set_new_rs_annotations(&d, &mut rs, 1));
        assert!(set_new_rs_annotations(&d, &mut rs, 3));
        assert!(set_new_rs_annotations(&d, &mut rs, 5));
        assert_eq!(revision(&rs), 5);
        assert_eq!(
            rs.metadata
                .annotations
                .get(REVISION_HISTORY)
                .map(String::as_str),
            Some("1,3")
        );
    }
}
