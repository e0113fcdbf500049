package explore_test

import (
	"fmt"

	"fabricplan/planner/explore"
)

func ExampleParseGPUList() {
	sizes, _ := explore.ParseGPUList("256:4096")
	fmt.Println(sizes)
	// Output: [256 512 1024 2048 4096]
}
