package planner

import (
	"fmt"

	"fabricplan/internal/textfmt"
)

// Pods of whole leaves: a three-tier pod need not be whole scalable
// units. The textbook fat tree of k-port switches (Al-Fares et al.,
// SIGCOMM 2008) puts k/2 leaves under k/2 spines in each pod whatever
// the servers' rails; with 40-port HDR switches and 8-rail servers that
// pod is 20 leaves, two and a half 8-leaf units, and it is how Meta's
// Research SuperCluster reached 16,000 A100 GPUs on 2,000 switches and
// 48,000 links (k^3/4 hosts, 5k^2/4 switches at k = 40). Whole units
// would leave each spine 4 of its 20 down ports empty and need 1,000
// spines, not 800. The reference-layout pods of a rack-scale system
// (each pod one rail of consecutive units) stay whole units.

// podLeaves is the leaves of a pod of podGPUs GPUs when the pod is
// whole leaves but not whole leaf groups (units): spg servers of
// gpusPerNode GPUs on lpg leaves per group, at most spineDown leaves
// under a spine. ok is false when podGPUs is whole groups (the units
// rule sizes it), is not whole leaves, exceeds a spine's down ports, or
// the plane's pods follow its rails (railPods).
func podLeaves(podGPUs, spg, lpg, gpusPerNode, spineDown int, railPods bool) (leaves int, ok bool) {
	groupGPUs := spg * gpusPerNode
	if railPods || lpg <= 1 || groupGPUs%lpg != 0 || podGPUs%groupGPUs == 0 {
		return 0, false
	}
	leafGPUs := groupGPUs / lpg
	if podGPUs%leafGPUs != 0 || podGPUs/leafGPUs > spineDown {
		return 0, false
	}
	return podGPUs / leafGPUs, true
}

// podLeavesHint is what pod_gpus's refusal adds when pods of whole
// leaves are allowed: ", or a multiple of N GPUs (one leaf) up to M";
// empty when they are not.
func podLeavesHint(spg, lpg, gpusPerNode, spineDown int, railPods bool) string {
	groupGPUs := spg * gpusPerNode
	if railPods || lpg <= 1 || groupGPUs%lpg != 0 {
		return ""
	}
	leafGPUs := groupGPUs / lpg
	return fmt.Sprintf(", or a multiple of %d GPUs (one leaf) up to %s", leafGPUs, textfmt.Int(spineDown*leafGPUs))
}
