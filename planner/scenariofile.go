package planner

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// ParseScenario decodes a scenario document over the defaults of
// NewScenario. Unknown keys, wrong types and explicit zero counts are
// errors naming the key and its line; values are not checked against the
// catalog (see Validate).
func ParseScenario(src []byte) (Scenario, error) {
	s := NewScenario()
	w := NewWorkload()
	s.Workload = &w // decoded over its defaults; dropped below if absent
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&s)
	if err != nil {
		return Scenario{}, tomlError(err)
	}
	if !md.IsDefined("workload") {
		s.Workload = nil
	}
	lines := keyLines(src)
	var errs []error
	for _, k := range md.Undecoded() {
		key := k.String()
		errs = append(errs, &FieldError{Field: key, Line: lines[key], Problem: "unknown key",
			Fix: "remove it or check the spelling" + suggestKey(key)})
	}
	if !md.IsDefined("schema") {
		errs = append(errs, &FieldError{Field: "schema", Line: 1, Problem: "missing", Fix: "add schema = 1 at the top"})
	}
	for _, k := range [][]string{{"network", "nics_per_server"}, {"network", "ports_per_nic"}} {
		if md.IsDefined(k...) {
			n := s.Network.NICsPerServer
			if k[1] == "ports_per_nic" {
				n = s.Network.PortsPerNIC
			}
			if n < 1 {
				errs = append(errs, &FieldError{Field: strings.Join(k, "."), Line: lines[strings.Join(k, ".")],
					Problem: fmt.Sprintf("%d is not a count", n), Fix: "give 1 or more, or leave the key out for the default"})
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// CheckScenario parses src and validates it against cat, attaching file
// lines to every field error.
func CheckScenario(src []byte, cat *Catalog) (Scenario, error) {
	s, err := ParseScenario(src)
	if err != nil {
		return Scenario{}, err
	}
	if err := s.Validate(cat); err != nil {
		return Scenario{}, WithLines(err, src)
	}
	return s, nil
}

// WithLines sets the Line of every field error in err from the scenario
// document src, and returns err.
func WithLines(err error, src []byte) error {
	lines := keyLines(src)
	for _, fe := range FieldErrors(err) {
		if fe.Line == 0 {
			fe.Line = lines[fe.Field]
		}
	}
	return err
}

// LoadScenario reads a scenario file and checks it against cat. Errors
// name the file.
func LoadScenario(path string, cat *Catalog) (Scenario, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Scenario{}, fmt.Errorf("open scenario: %w", err)
	}
	s, err := CheckScenario(src, cat)
	if err != nil {
		return Scenario{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// EncodeScenario writes s as a TOML document.
func EncodeScenario(s Scenario) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Fabric Planner scenario\n")
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	return b.Bytes(), nil
}

// SaveScenario writes s to path atomically: it writes a temporary file in
// the same directory, syncs it and renames it over path, so the old file
// stays whole if anything fails.
func SaveScenario(path string, s Scenario) error {
	data, err := EncodeScenario(s)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}

// WriteFileAtomic writes data to path through a temporary file and a
// rename; on error path is untouched and no temporary file is left.
func WriteFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

var badTypeRE = regexp.MustCompile(`incompatible types: TOML value has type (\S+); destination has type (\S+)`)

// tomlError turns a decoder error into a FieldError when it names a key.
func tomlError(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		if pe.LastKey != "" {
			return &FieldError{Field: pe.LastKey, Line: pe.Position.Line, Problem: pe.Message, Fix: "check the value's type and quotes"}
		}
		line := pe.Position.Line
		if strings.Contains(pe.Message, `'\n'`) && line > 1 {
			line-- // the parser stopped at the end of the faulty line
		}
		return &FieldError{Field: "file", Line: line, Problem: "not valid TOML: " + pe.Message, Fix: "fix the syntax at that line"}
	}
	msg := err.Error()
	key, line := "", 0
	if m := regexp.MustCompile(`line (\d+) \(last key "([^"]+)"\)`).FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &line)
		key = m[2]
	} else if m := regexp.MustCompile(`\(last key "([^"]+)"\)`).FindStringSubmatch(msg); m != nil {
		key = m[1]
	}
	if m := badTypeRE.FindStringSubmatch(msg); m != nil && key != "" {
		return &FieldError{Field: key, Line: line, Problem: fmt.Sprintf("expected %s, got %s", typeWord(m[2]), typeWord(m[1])),
			Fix: "write the value as " + typeWord(m[2])}
	}
	if key != "" {
		return &FieldError{Field: key, Line: line, Problem: strings.TrimPrefix(msg, "toml: "), Fix: ""}
	}
	return fmt.Errorf("scenario: %w", err)
}

func typeWord(t string) string {
	switch strings.ToLower(strings.Trim(t, "*")) {
	case "integer", "int", "int64", "int32":
		return "a whole number"
	case "float", "float64":
		return "a number"
	case "string":
		return `a quoted string`
	case "bool", "boolean":
		return "true or false"
	case "map", "table", "struct":
		return "a table"
	case "slice", "array":
		return "an array"
	}
	return t
}

var knownKeys = []string{
	"schema", "name", "cluster.gpus", "cluster.gpus_per_server", "cluster.server_price_usd",
	"network.fabric", "network.nic_gbps", "network.nic", "network.nics_per_server", "network.ports_per_nic",
	"network.planes", "network.switch", "network.oversubscription", "network.tiers", "network.rail_optimized",
	"network.load_balancing", "workload.model", "workload.gpu", "workload.params_b", "workload.active_params_b",
	"workload.layers", "workload.hidden", "workload.seq_len", "workload.vocab", "workload.experts", "workload.top_k",
	"workload.global_batch_tokens", "workload.micro_batch", "workload.tp", "workload.pp", "workload.vpp", "workload.ep",
	"workload.zero", "workload.recompute", "workload.tokens_total", "workload.compute_efficiency",
	"workload.overlap_dp", "workload.overlap_pp", "workload.overlap_tp", "workload.overlap_ep",
	"network.media.server_leaf", "network.media.leaf_spine", "network.media.spine_core",
	"network.media.server_leaf_m", "network.media.leaf_spine_m", "network.media.spine_core_m",
}

// suggestKey proposes a known key in the same table with the closest name.
func suggestKey(key string) string {
	best, bestD := "", 4
	for _, k := range knownKeys {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keyLines maps each dotted key of a TOML document to its 1-based line.
// It understands [table] headers and key = value lines, which is all a
// scenario uses; anything else is skipped.
func keyLines(src []byte) map[string]int {
	out := map[string]int{}
	table := ""
	for i, raw := range strings.Split(string(src), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			end := strings.Index(line, "]")
			if end < 0 {
				continue
			}
			table = strings.Trim(strings.TrimSpace(line[1:end]), "[]")
			table = unquoteDotted(table)
			if _, ok := out[table]; !ok {
				out[table] = i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key := unquoteDotted(strings.TrimSpace(k))
		if table != "" {
			key = table + "." + key
		}
		if _, seen := out[key]; !seen {
			out[key] = i + 1
		}
	}
	return out
}

func unquoteDotted(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
