package model

import (
	"fmt"
	"strconv"

	"fabricplan/planner"
)

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
