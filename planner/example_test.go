package planner_test

import (
	"fmt"

	"fabricplan/data"
	"fabricplan/planner"
)

// Plan the DGX SuperPOD-style 4-SU fabric: 1,024 GPUs, 400G InfiniBand.
func ExampleBuild() {
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		panic(err)
	}
	s := planner.NewScenario()
	s.Cluster.GPUs = 1024
	s.Network.Switch = "qm9700"
	p, err := planner.Build(s, cat)
	if err != nil {
		panic(err)
	}
	fmt.Println("tiers:", p.Tiers)
	fmt.Println("leaf:", p.Switches(planner.TierLeaf), "spine:", p.Switches(planner.TierSpine))
	fmt.Println("links:", p.Links.Total, "transceivers:", p.ServerTransceivers+p.SwitchTransceivers)
	// Output:
	// tiers: 2
	// leaf: 32 spine: 16
	// links: 2048 transceivers: 2554
}
