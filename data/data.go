// Package data embeds Fabric Planner's reference data: the hardware catalog
// with prices and their sources, the 650 Group market tables, the JCT model
// constants and the example scenarios. Every number in these files names
// where it came from and when.
package data

import "embed"

// FS holds catalog.toml, market.toml, jct.toml, reliability.toml,
// prices.toml, facility.toml, validation.toml and scenarios/*.toml.
//
//go:embed *.toml scenarios/*.toml runs/*.toml
var FS embed.FS

// DefaultScenario is the path in FS of the scenario used when none is given.
const DefaultScenario = "scenarios/ib-ndr-1k.toml"
