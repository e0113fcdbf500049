package planner

import "fabricplan/planner/fabric"

// fabricSpec is the sizing spec of one plane as the scenario shapes it:
// fabric.Spec, with the methods (setSpineRatio, setToR, setPod, align,
// shape) that read the scenario, the catalog and the switch to set it,
// the storage ports the leaves keep (setLeafStorage) and their pairs
// (setLeafPairs).
type fabricSpec struct {
	fabric.Spec
	storage LeafStorage
	pairs   LeafPairs
}

// Headroom is what a reference design provisions beyond the minimal
// plan, reported beside the counts and never in them.
type Headroom = fabric.Headroom

// Wiring rules a tier's uplinks follow (Plan.SpineWiring, CoreWiring).
const (
	// WiringBalanced: every lower switch has the same number of links to
	// every upper switch of its group.
	WiringBalanced = fabric.WiringBalanced
	// WiringNear: every lower switch reaches every upper switch, with
	// link counts differing by at most one.
	WiringNear = fabric.WiringNear
)

// ceilDiv is fabric's integer helper under the name the planner uses.
var ceilDiv = fabric.CeilDiv
