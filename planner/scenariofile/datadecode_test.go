package scenariofile

import (
	"path/filepath"
	"reflect"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/validation"
)

// The engine's own decode of the scenarios it ships (validation runs)
// gives what the strict decoder gives for every valid document we ship:
// the validation table would otherwise drift from what a user who loads
// the same text sees. Mutation caught: the engine's decode starting
// [workload] from zero instead of NewWorkload (ZeRO off, 138.5 for
// 138.6 TFLOP/s on the 3.6B GPT point).
func TestEngineDecodeAgreesWithStrict(t *testing.T) {
	docs := map[string][]byte{}
	points, err := validation.Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range points {
		if p.Scenario != "" {
			docs["validation: "+p.Name] = []byte(p.Scenario)
		}
	}
	paths, _ := filepath.Glob("../../data/scenarios/*.toml")
	for _, p := range paths {
		src, err := Read(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(p)] = src
	}
	if len(docs) < 10 {
		t.Fatalf("only %d documents found", len(docs))
	}
	for name, src := range docs {
		strict, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		engine, err := planner.ScenarioFromData(src)
		if err != nil {
			t.Fatalf("%s: engine decode: %v", name, err)
		}
		if !reflect.DeepEqual(strict, engine) {
			t.Errorf("%s: engine decode differs:\nstrict %+v\nengine %+v", name, strict, engine)
			if strict.Workload != nil && engine.Workload != nil {
				t.Errorf("workloads:\nstrict %+v\nengine %+v", *strict.Workload, *engine.Workload)
			}
		}
	}
}
