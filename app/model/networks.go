package model

import (
	"fmt"
	"strconv"
	"strings"

	"fabricplan/planner"
)

// GroupNetworks is the inputs section of the networks beside the back end.
const GroupNetworks = "Networks beside the back end"

// NetworkDefault is the choice that leaves a [networks] key to the
// system's default.
const NetworkDefault = "system default"

// networkFields are the [networks] inputs the window offers.
func networkFields() []Field {
	return []Field{
		{Key: "networks.frontend", Label: "Front end (in-band)", Kind: Choice, Group: GroupNetworks},
		{Key: "networks.frontend_ports", Label: "Front-end ports per server", Kind: Text, Group: GroupNetworks},
		{Key: "networks.frontend_gbps", Label: "Front-end port speed (Gb/s)", Kind: Text, Group: GroupNetworks},
		{Key: "networks.storage", Label: "Storage network", Kind: Choice, Group: GroupNetworks},
		{Key: "networks.storage_gbs_per_gpu", Label: "Storage read bandwidth (GB/s per GPU)", Kind: Text, Group: GroupNetworks},
		{Key: "networks.storage_server_ports", Label: "Switch ports to storage servers", Kind: Text, Group: GroupNetworks},
		{Key: "networks.oob", Label: "Out-of-band management", Kind: Choice, Group: GroupNetworks},
	}
}

// networkChoices lists a choice input's options, the default first.
func networkChoices(key string) []string {
	switch key {
	case "frontend", "oob":
		return []string{NetworkDefault, planner.NetSeparate, planner.NetNone}
	case "storage":
		return []string{NetworkDefault, planner.NetSeparate, planner.NetConverged, planner.NetNone}
	}
	return nil
}

// networkValue points at the [networks] field of key: a string for the
// choices, an int or a float for the numbers.
func networkValue(in *planner.NetworksInputs, key string) (str *string, num *int, real *float64) {
	switch key {
	case "frontend":
		return &in.FrontEnd, nil, nil
	case "storage":
		return &in.Storage, nil, nil
	case "oob":
		return &in.OOB, nil, nil
	case "frontend_ports":
		return nil, &in.FrontEndPorts, nil
	case "frontend_gbps":
		return nil, &in.FrontEndGbps, nil
	case "storage_server_ports":
		return nil, &in.StorageServerPorts, nil
	case "storage_gbs_per_gpu":
		return nil, nil, &in.StorageGBsPerGPU
	}
	return nil, nil, nil
}

// networksText is the display text of a [networks] key in s.
func networksText(s planner.Scenario, key string) string {
	in := planner.NetworksInputs{}
	if s.Networks != nil {
		in = *s.Networks
	}
	str, num, real := networkValue(&in, key)
	switch {
	case str != nil:
		if *str == "" {
			return NetworkDefault
		}
		return *str
	case num != nil:
		return optionalInt(*num)
	case real != nil:
		return optionalFloat(*real)
	}
	return ""
}

// applyNetworks sets or (default, empty text) clears one [networks] key;
// the planner checks ranges. A scenario with no keys set has no table.
func applyNetworks(s *planner.Scenario, key, text string) error {
	in := planner.NetworksInputs{}
	if s.Networks != nil {
		in = *s.Networks
	}
	str, num, real := networkValue(&in, key)
	switch {
	case str != nil:
		if text == NetworkDefault {
			text = ""
		}
		*str = text
	case num != nil:
		*num = 0
		if text != "" {
			v, err := strconv.Atoi(strings.ReplaceAll(text, ",", ""))
			if err != nil {
				return fmt.Errorf("%q is not a whole number: write e.g. 2, or leave it empty for the system's", text)
			}
			*num = v
		}
	case real != nil:
		*real = 0
		if text != "" {
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return fmt.Errorf("%q is not a number: write e.g. 0.5, or leave it empty for the system's", text)
			}
			*real = v
		}
	default:
		return fmt.Errorf("no input %q", "networks."+key)
	}
	s.Networks = &in
	if in == (planner.NetworksInputs{}) {
		s.Networks = nil
	}
	return nil
}

// networksHint is the system's default a blank [networks] entry takes.
func networksHint(cat *planner.Catalog, s planner.Scenario, key string) string {
	d := s.NetworkDefaults(cat)
	switch key {
	case "frontend_ports":
		return fmt.Sprintf("system default: %d", d.FrontEndPorts)
	case "frontend_gbps":
		return fmt.Sprintf("system default: %d", d.FrontEndGbps)
	case "storage_gbs_per_gpu":
		return "system default: " + strconv.FormatFloat(d.StorageGBsPerGPU, 'f', -1, 64)
	case "storage_server_ports":
		return "from the bandwidth"
	}
	return ""
}
