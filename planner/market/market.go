package market

import (
	"fmt"
	"io/fs"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
)

// Tables holds the 650 Group "RDMA Networking and AI" tables (US$ B).
type Tables struct {
	Schema int `toml:"schema"`
	Source struct {
		Publisher string `toml:"publisher"`
		Title     string `toml:"title"`
		Date      string `toml:"date"`
	} `toml:"source"`
	Technology struct {
		Table      string    `toml:"table"`
		Years      []int     `toml:"years"`
		Ethernet   []float64 `toml:"ethernet"`
		InfiniBand []float64 `toml:"infiniband"`
		Total      []float64 `toml:"total"`
	} `toml:"technology"`
	Device struct {
		Table     string    `toml:"table"`
		Years     []int     `toml:"years"`
		NICs      []float64 `toml:"nics"`
		Switching []float64 `toml:"switching"`
		Total     []float64 `toml:"total"`
	} `toml:"device"`
	Servers struct {
		Text                   string  `toml:"text"`
		UnitsM                 []Point `toml:"units_m"`
		SpendB                 []Point `toml:"spend_b"`
		FrontEndPortsPerServer int     `toml:"front_end_ports_per_server"`
	} `toml:"servers"`
}

// Point is one figure the report states in its text.
type Point struct {
	Year      int     `toml:"year"`
	Value     float64 `toml:"value"`
	Qualifier string  `toml:"qualifier"` // "over", "nearly" or ""
}

// Citation names the report.
func (m *Tables) Citation() string {
	return fmt.Sprintf("%s, %q (%s)", m.Source.Publisher, m.Source.Title, m.Source.Date)
}

// DeviceSplit returns the NIC and switching revenue of a year (US$ B) and
// whether the report has that year.
func (m *Tables) DeviceSplit(year int) (nics, switching float64, ok bool) {
	for i, y := range m.Device.Years {
		if y == year {
			return m.Device.NICs[i], m.Device.Switching[i], true
		}
	}
	return 0, 0, false
}

// Load reads and checks market.toml from fsys: the shipped file's bytes
// come back decoded at build time, any other bytes are decoded.
//
//go:generate go test -run ^TestBuiltDocs$ . -args -write-built
func Load(fsys fs.FS) (*Tables, error) {
	src, err := fs.ReadFile(fsys, "market.toml")
	if err != nil {
		return nil, fmt.Errorf("read market data: %w", err)
	}
	m, err := builtdoc.Decode(builtTables, src, decodeTables)
	if err != nil {
		return nil, err
	}
	n := len(m.Technology.Years)
	for _, s := range [][]float64{m.Technology.Ethernet, m.Technology.InfiniBand, m.Technology.Total} {
		if len(s) != n {
			return nil, fmt.Errorf("market data: technology series of %d values for %d years", len(s), n)
		}
	}
	n = len(m.Device.Years)
	for _, s := range [][]float64{m.Device.NICs, m.Device.Switching, m.Device.Total} {
		if len(s) != n {
			return nil, fmt.Errorf("market data: device series of %d values for %d years", len(s), n)
		}
	}
	if n == 0 || m.Servers.FrontEndPortsPerServer < 1 {
		return nil, fmt.Errorf("market data: needs device years and front_end_ports_per_server")
	}
	return m, nil
}

// builtTables is data/market.toml decoded when the program was built
// (built_market.go, rewritten by go generate); nil without that file,
// when the tables are decoded from their TOML.
var builtTables *builtdoc.Doc[Tables]

// decodeTables decodes a market data document without checking it.
func decodeTables(src []byte) (*Tables, error) {
	var m Tables
	if err := datadoc.Decode("market data", src, &m, nil); err != nil {
		return nil, err
	}
	return &m, nil
}
