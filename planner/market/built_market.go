// Code generated from data/market.toml by go generate ./planner/market; DO NOT EDIT.
// When it no longer compiles, delete it and run that again.

package market

import (
	"fabricplan/internal/builtdoc"
)

func init() {
	builtTables = &builtdoc.Doc[Tables]{
		SHA256: "ec3a3fbbc1e8a8a77523e3b7f25a6ae81ffdbb79960956ebd160e5ca97cdbabd",
		New: func() *Tables {
			return &Tables{
				Schema: 1,
				Source: struct {
					Publisher string `toml:"publisher"`
					Title     string `toml:"title"`
					Date      string `toml:"date"`
				}{
					Publisher: "650 Group",
					Title:     "RDMA Networking and AI",
					Date:      "2024-06-24",
				},
				Technology: struct {
					Table      string    `toml:"table"`
					Years      []int     `toml:"years"`
					Ethernet   []float64 `toml:"ethernet"`
					InfiniBand []float64 `toml:"infiniband"`
					Total      []float64 `toml:"total"`
				}{
					Table:      "Table 1: RDMA Market Forecast by Technology",
					Years:      []int{2021, 2022, 2023, 2024, 2025, 2026, 2027, 2028},
					Ethernet:   []float64{0.2, 0.3, 0.9, 2.1, 6.1, 8.7, 12, 13.7},
					InfiniBand: []float64{0.9, 1.5, 5.9, 10.2, 8.3, 8.9, 8.9, 8.8},
					Total:      []float64{1, 1.8, 6.9, 12.3, 14.5, 17.6, 20.9, 22.5},
				},
				Device: struct {
					Table     string    `toml:"table"`
					Years     []int     `toml:"years"`
					NICs      []float64 `toml:"nics"`
					Switching []float64 `toml:"switching"`
					Total     []float64 `toml:"total"`
				}{
					Table:     "Table 2: RDMA Market Forecast by Device Type",
					Years:     []int{2021, 2022, 2023, 2024, 2025, 2026, 2027, 2028},
					NICs:      []float64{0.4, 0.6, 2.2, 3.6, 3.5, 3.8, 3.8, 3.9},
					Switching: []float64{0.6, 1.2, 4.7, 8.7, 11, 13.8, 17.1, 18.6},
					Total:     []float64{1, 1.8, 6.9, 12.3, 14.5, 17.6, 20.9, 22.5},
				},
				Servers: struct {
					Text                   string  `toml:"text"`
					UnitsM                 []Point `toml:"units_m"`
					SpendB                 []Point `toml:"spend_b"`
					FrontEndPortsPerServer int     `toml:"front_end_ports_per_server"`
				}{
					Text: "AI/ML servers will grow from 1 M units in 2023 to over 6 M units in 2028 ... will approach nearly $300 B in spend by 2028",
					UnitsM: []Point{{
						Year:  2023,
						Value: 1,
					}, {
						Year:      2028,
						Value:     6,
						Qualifier: "over",
					}},
					SpendB: []Point{{
						Year:      2028,
						Value:     300,
						Qualifier: "nearly",
					}},
					FrontEndPortsPerServer: 2,
				},
			}
		},
	}
}
